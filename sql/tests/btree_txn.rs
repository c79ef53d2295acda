//! B+trees over the real transaction layer (`asadb_txn::Db` on a file):
//! rows written and committed are read back by a later reader and after a
//! reopen; a rolled-back transaction leaves no trace; and the pages the
//! trees use, the free list and the header page account for every page of
//! the file exactly once (the integrity check the SQL layer adds on top of
//! `Db::integrity_check`).

use std::collections::BTreeSet;

use asadb_pager::PageId;
use asadb_sql::btree::{Index, PageUsage, Table};
use asadb_txn::{Db, Options, PageRead, PageWrite};

fn payload(k: i64) -> Vec<u8> {
    let len = if k % 251 == 0 { 9000 } else { 20 + (k % 40) as usize };
    (0..len).map(|i| (k as usize * 7 + i) as u8).collect()
}

/// Every page is the header, free, or used by one of the trees.
fn assert_pages_accounted(db: &Db, table: Table, index: Index) {
    let report = db.integrity_check().unwrap();
    assert!(report.is_ok(), "{:?}", report.problems);
    let read = db.begin_read().unwrap();
    let mut usage = PageUsage::new();
    table.check(&read, &mut usage).unwrap();
    index.check(&read, &mut usage).unwrap();
    let mut all: BTreeSet<PageId> = usage.pages().collect();
    for p in &report.free_pages {
        assert!(all.insert(*p), "free page {p} is also used by a tree");
    }
    assert!(all.insert(PageId::HEADER));
    let count = read.header().page_count;
    assert_eq!(all, (0..count).map(PageId).collect::<BTreeSet<_>>());
    usage.account(&report.free_pages, count).unwrap();
    // The ledger notices a leaked page and a page both free and used.
    let mut leaked = report.free_pages.clone();
    if leaked.pop().is_some() {
        assert!(matches!(usage.account(&leaked, count), Err(asadb_sql::Error::Corrupt(_))));
    }
    let mut both = report.free_pages.clone();
    both.push(table.root());
    assert!(matches!(usage.account(&both, count), Err(asadb_sql::Error::Corrupt(_))));
}

#[test]
fn trees_survive_commit_reopen_and_rollback() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.db");
    let opts = Options { pool_frames: 64, ..Options::default() };
    let db = Db::open(&path, opts.clone()).unwrap();

    let w = db.begin_write().unwrap();
    let table = Table::create(&w).unwrap();
    let index = Index::create(&w).unwrap();
    w.set_catalog_root(table.root()).unwrap();
    w.set_user_slot(0, index.root().0).unwrap();
    // More pages than the 64-frame pool: the writer spills to the log.
    for k in 0..20_000i64 {
        table.insert(&w, k, &payload(k)).unwrap();
        let mut key = format!("k{:06}", (k * 7919) % 20_000).into_bytes();
        key.extend_from_slice(&k.to_be_bytes());
        assert!(index.insert(&w, &key).unwrap());
    }
    w.commit().unwrap();
    assert_pages_accounted(&db, table, index);

    // A rolled-back transaction changes nothing.
    let w = db.begin_write().unwrap();
    for k in 0..5000i64 {
        table.delete(&w, k).unwrap();
    }
    table.insert(&w, -1, b"gone").unwrap();
    w.rollback();
    let r = db.begin_read().unwrap();
    assert_eq!(table.get(&r, 10).unwrap(), Some(payload(10)));
    assert_eq!(table.get(&r, -1).unwrap(), None);
    drop(r);

    // Deletes free pages, which the free list then holds.
    let w = db.begin_write().unwrap();
    for k in (0..20_000i64).filter(|k| k % 3 != 0) {
        assert!(table.delete(&w, k).unwrap());
    }
    w.commit().unwrap();
    assert_pages_accounted(&db, table, index);
    db.close().unwrap();
    drop(db);

    let db = Db::open(&path, opts).unwrap();
    let r = db.begin_read().unwrap();
    let table = Table::open(PageId(r.header().catalog_root));
    let index = Index::open(PageId(r.header().user[0]));
    let mut c = table.cursor(&r);
    let mut expect = (0..20_000i64).filter(|k| k % 3 == 0);
    let mut ok = c.first().unwrap();
    while ok {
        let k = expect.next().expect("no extra rows");
        assert_eq!(c.rowid(), k);
        assert_eq!(c.payload().unwrap(), payload(k));
        ok = c.next().unwrap();
    }
    assert_eq!(expect.next(), None);
    let mut n = 0;
    let mut c = index.cursor(&r);
    let mut ok = c.first().unwrap();
    while ok {
        n += 1;
        ok = c.next().unwrap();
    }
    assert_eq!(n, 20_000);
    drop(r);
    assert_pages_accounted(&db, table, index);

    // Destroying both trees returns every page but the header to the free list.
    let w = db.begin_write().unwrap();
    table.destroy(&w).unwrap();
    index.destroy(&w).unwrap();
    w.commit().unwrap();
    let report = db.integrity_check().unwrap();
    assert!(report.is_ok());
    assert_eq!(report.free_pages.len() as u32 + 1, report.header.page_count);
}

#[test]
fn cursor_owns_an_arc_read_handle() {
    let db = Db::memory(Options::default()).unwrap();
    let w = db.begin_write().unwrap();
    let table = Table::create(&w).unwrap();
    for k in 0..100 {
        table.insert(&w, k, &[k as u8; 10]).unwrap();
    }
    w.commit().unwrap();
    let read = std::sync::Arc::new(db.begin_read().unwrap());
    let mut c = table.cursor(read.clone());
    assert!(c.seek(50).unwrap());
    assert_eq!(c.rowid(), 50);
    // A concurrent writer does not disturb the reader's snapshot.
    let w = db.begin_write().unwrap();
    table.clear(&w).unwrap();
    w.commit().unwrap();
    assert!(c.next().unwrap());
    assert_eq!(c.rowid(), 51);
    assert_eq!(table.get(&*read, 99).unwrap(), Some(vec![99; 10]));
    assert_eq!(table.get(&db.begin_read().unwrap(), 99).unwrap(), None);
}
