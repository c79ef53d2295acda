//! Nested savepoints against a model, with spilling and pre-images beyond
//! the in-memory budget.
//!
//! Scenarios: (1) the seeded workload with long transactions full of
//! nested savepoints on a 16-frame pool, so pages spill while savepoints
//! are open; (2) a savepoint over 60 dirty pages (pre-images beyond the
//! 16-copy budget go to the log), all rewritten, rolled back, rewritten
//! again and committed; (3) the stack rules.
//!
//! Invariant: after any sequence of savepoint/rollback_to/release and a
//! commit, the database holds exactly the model (also when reopened from
//! its files, which checks the latest-frame rule of the log); `rollback_to`
//! keeps its savepoint and drops the ones above it.

mod common;

use std::sync::Arc;

use asadb_pager::{MemIo, PageId};
use asadb_txn::{Db, Error, Options, PageRead, PageWrite};
use common::{Model, Workload, fill, holds, run, verify};

fn opts() -> Options {
    Options { pool_frames: 16, checkpoint_frames: 0, ..Options::default() }
}

#[test]
fn workload_with_many_savepoints() {
    for seed in 20..26 {
        let (main, wal) = (Arc::new(MemIo::new()), Arc::new(MemIo::new()));
        let db = Db::open_io(main.clone(), wal.clone(), opts()).unwrap();
        let w = Workload { seed, txns: 12, big_every: 0, max_ops: 60, ..Workload::default() };
        let out = run(&db, &w);
        assert!(out.error.is_none(), "seed {seed}: {:?}", out.error);
        assert_eq!(verify(&db, &out), out.committed());
        drop(db);
        let reopened = Db::open_io(main, wal, opts()).unwrap();
        assert_eq!(verify(&reopened, &out), out.committed());
    }
}

fn check(db: &Db, model: &Model) {
    let r = db.begin_read().unwrap();
    for (&p, &v) in model {
        assert!(holds(PageId(p), v, &r.page(PageId(p)).unwrap()), "page {p} != {v}");
    }
}

#[test]
fn pre_images_beyond_budget_and_spills() {
    let (main, wal) = (Arc::new(MemIo::new()), Arc::new(MemIo::new()));
    let db = Db::open_io(main.clone(), wal.clone(), opts()).unwrap();
    let txn = db.begin_write().unwrap();
    let mut model = Model::new();
    for v in 0..60u64 {
        let (id, mut p) = txn.allocate().unwrap();
        fill(id, v, &mut p);
        model.insert(id.0, v);
    }
    assert!(db.stats().pool.dirty <= 12, "dirty pages spilled at 3/4 of the pool");
    let sp = txn.savepoint();
    for &p in model.keys() {
        fill(PageId(p), 1000 + u64::from(p), &mut txn.page_mut(PageId(p)).unwrap());
    }
    let inner = txn.savepoint();
    let (extra, mut page) = txn.allocate().unwrap();
    fill(extra, 5, &mut page);
    drop(page);
    txn.rollback_to(sp).unwrap();
    assert!(matches!(txn.release(inner), Err(Error::InvalidSavepoint)), "inner is gone");
    assert_eq!(txn.header().page_count, 61, "allocation above the savepoint undone");
    for (&p, &v) in &model {
        assert!(holds(PageId(p), v, &txn.page(PageId(p)).unwrap()), "page {p} restored");
    }
    // sp is still on the stack: change half the pages again, roll back
    // again, then change a third and keep it.
    for (&p, _) in model.iter().step_by(2) {
        fill(PageId(p), 2000, &mut txn.page_mut(PageId(p)).unwrap());
    }
    txn.rollback_to(sp).unwrap();
    for (&p, v) in model.iter_mut().step_by(3) {
        *v = 3000 + u64::from(p);
        fill(PageId(p), *v, &mut txn.page_mut(PageId(p)).unwrap());
    }
    txn.release(sp).unwrap();
    assert!(matches!(txn.rollback_to(sp), Err(Error::InvalidSavepoint)));
    txn.commit().unwrap();
    check(&db, &model);
    drop(db);
    let db = Db::open_io(main, wal, opts()).unwrap();
    check(&db, &model);
    assert!(db.integrity_check().unwrap().is_ok());
}

#[test]
fn release_keeps_the_older_pre_image() {
    let db = Db::memory(opts()).unwrap();
    let txn = db.begin_write().unwrap();
    let (id, mut p) = txn.allocate().unwrap();
    fill(id, 1, &mut p);
    drop(p);
    let outer = txn.savepoint();
    fill(id, 2, &mut txn.page_mut(id).unwrap());
    let inner = txn.savepoint();
    fill(id, 3, &mut txn.page_mut(id).unwrap());
    txn.release(inner).unwrap();
    txn.set_catalog_root(id).unwrap();
    txn.rollback_to(outer).unwrap();
    assert!(holds(id, 1, &txn.page(id).unwrap()), "released changes roll back with outer");
    assert_eq!(txn.header().catalog_root, 0, "header fields roll back too");
    // Guards held: refused, nothing changes.
    let g = txn.page(id).unwrap();
    assert!(matches!(txn.rollback_to(outer), Err(Error::InvalidInput(_))));
    drop(g);
    txn.commit().unwrap();
    assert!(holds(id, 1, &db.begin_read().unwrap().page(id).unwrap()));
}
