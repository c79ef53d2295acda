//! A transaction many times larger than the buffer pool.
//!
//! Scenario: with a 64-frame pool, one transaction allocates and writes
//! 20,000 pages (80 MB) in a file-backed database, commits, and the
//! database is reopened and read back.
//!
//! Invariant: the pool never holds more than its 64 frames (dirty pages
//! are spilled to the log as uncommitted frames), the commit is complete
//! after reopening, and integrity holds.

mod common;

use asadb_pager::PageId;
use asadb_txn::{Db, Options, PageRead, PageWrite};
use common::{fill, holds};

const PAGES: u32 = 20_000;

#[test]
fn twenty_thousand_pages_through_64_frames() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.db");
    let opts = Options { pool_frames: 64, ..Options::default() };
    let db = Db::open(&path, opts.clone()).unwrap();
    let txn = db.begin_write().unwrap();
    for i in 0..PAGES {
        let (id, mut p) = txn.allocate().unwrap();
        assert_eq!(id, PageId(i + 1));
        fill(id, u64::from(i) * 3, &mut p);
        drop(p);
        if i % 1000 == 0 {
            assert!(db.stats().pool.cached <= 64);
        }
    }
    // Re-read and rewrite a few spilled pages inside the transaction.
    for p in [1u32, 500, 9_999] {
        assert!(holds(PageId(p), u64::from(p - 1) * 3, &txn.page(PageId(p)).unwrap()));
    }
    txn.commit().unwrap();
    assert!(db.stats().pool.cached <= 64);
    drop(db);

    let db = Db::open(&path, opts).unwrap();
    let r = db.begin_read().unwrap();
    assert_eq!(r.header().page_count, PAGES + 1);
    for p in 1..=PAGES {
        assert!(holds(PageId(p), u64::from(p - 1) * 3, &r.page(PageId(p)).unwrap()), "page {p}");
    }
    assert!(db.stats().pool.cached <= 64);
    drop(r);
    assert!(db.integrity_check().unwrap().is_ok());
    db.close().unwrap();
}
