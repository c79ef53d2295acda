//! The whole-database integrity check, on sound and on damaged databases.
//!
//! Invariant pinned here: a database built only through SQL passes; an
//! index entry removed behind the engine's back and a page leaked from
//! every tree are each reported — never missed and never a panic.
//! (Checksum failures are the transaction layer's part of the report and
//! are tested in `txn/tests/corrupt.rs`.)

use asadb_pager::PageId;
use asadb_sql::btree::Index;
use asadb_sql::catalog::Schema;
use asadb_sql::session::{Engine, Params};
use asadb_sql::storage::{BtreeStore, Tx};
use asadb_txn::pages::PageWrite;
use asadb_txn::{Db, Options};

fn build() -> (Db, Engine) {
    let db = Db::memory(Options::default()).unwrap();
    let engine = Engine::with_db(db.clone());
    let mut s = engine.session();
    s.execute(
        "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT UNIQUE, score REAL, note TEXT);
         CREATE INDEX t_score ON t(score DESC, name);
         CREATE TABLE u(a, b);
         CREATE INDEX u_b ON u(b);",
        &Params::None,
    )
    .unwrap();
    s.execute("BEGIN", &Params::None).unwrap();
    for i in 0..2000 {
        let note = if i % 100 == 0 { "x".repeat(5000) } else { format!("n{i}") };
        s.execute(
            &format!("INSERT INTO t VALUES ({i}, 'name {i}', {}.5, '{note}')", i % 37),
            &Params::None,
        )
        .unwrap();
        s.execute(&format!("INSERT INTO u VALUES ({i}, {})", i % 10), &Params::None).unwrap();
    }
    s.execute("COMMIT", &Params::None).unwrap();
    s.execute("DELETE FROM t WHERE id % 3 = 0", &Params::None).unwrap();
    s.execute("ALTER TABLE u ADD COLUMN c DEFAULT 7", &Params::None).unwrap();
    s.execute("CREATE INDEX u_c ON u(c, a)", &Params::None).unwrap();
    (db, engine)
}

#[test]
fn sound_database_passes() {
    let (_db, engine) = build();
    let report = engine.integrity_check().unwrap();
    assert!(report.is_ok(), "{:?}", report.problems);
    assert_eq!(report.tables, 2);
    assert!(report.indexes >= 4, "declared and automatic indexes: {}", report.indexes);
    assert_eq!(report.rows, 2000 - 667 + 2000);
}

fn index_root(db: &Db, name: &str) -> u32 {
    let store = BtreeStore::new(Tx::Read(db.begin_read().unwrap()));
    Schema::load(&store).unwrap().index(name).expect("index exists").root
}

#[test]
fn missing_index_entry_is_reported() {
    let (db, engine) = build();
    let root = index_root(&db, "u_b");
    // Remove the first entry of the index behind the engine's back.
    let w = db.begin_write().unwrap();
    let index = Index::open(PageId(root));
    let first = {
        let mut cur = index.cursor(&w);
        assert!(cur.first().unwrap());
        cur.key().to_vec()
    };
    assert!(index.delete(&w, &first).unwrap());
    w.commit().unwrap();
    let report = engine.integrity_check().unwrap();
    assert!(!report.is_ok());
    let text = report.problems.join("\n");
    assert!(text.contains("u_b"), "{text}");
}

#[test]
fn leaked_page_is_reported() {
    let (db, engine) = build();
    let w = db.begin_write().unwrap();
    let (_leak, mut page) = w.allocate().unwrap();
    page[0] = 1;
    drop(page);
    w.commit().unwrap();
    let report = engine.integrity_check().unwrap();
    assert!(!report.is_ok());
    assert!(report.problems.join("\n").contains("page accounting"), "{:?}", report.problems);
}

#[test]
fn in_memory_row_store_has_nothing_to_check() {
    assert!(Engine::memory().integrity_check().is_err());
}
