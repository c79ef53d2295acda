//! One open handle per database file.
//!
//! Invariant pinned: while a `Db` over a file is open, a second open of the
//! same file — from this process or from another — fails with
//! `Error::Locked` and leaves the file alone; once the first is closed (or
//! its process dies), the file opens again with everything committed.

use asadb_pager::PageId;
use asadb_txn::pages::{PageRead, PageWrite};
use asadb_txn::{Db, Error, Options};

#[test]
fn a_second_open_is_refused_until_the_first_closes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.db");
    let db = Db::open(&path, Options::default()).unwrap();
    {
        let w = db.begin_write().unwrap();
        let (id, mut page) = w.allocate().unwrap();
        page[100] = 42;
        drop(page);
        assert_eq!(id, PageId(1));
        w.commit().unwrap();
    }
    match Db::open(&path, Options::default()) {
        Err(Error::Locked(p)) => assert!(p.ends_with("t.db"), "{p}"),
        Err(e) => panic!("expected Locked, got {e}"),
        Ok(_) => panic!("a second handle opened a file that is in use"),
    }
    // A clone shares the one handle: it is not a second open.
    let clone = db.clone();
    drop(db);
    assert!(matches!(Db::open(&path, Options::default()), Err(Error::Locked(_))));
    clone.close().unwrap();
    let again = Db::open(&path, Options::default()).unwrap();
    let r = again.begin_read().unwrap();
    assert_eq!(r.page(PageId(1)).unwrap()[100], 42);
}
