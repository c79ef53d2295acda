//! Readers concurrent with a writer, and the writer lock.
//!
//! Scenario: reader threads repeatedly take snapshots and hold each one
//! while a writer thread commits 200 times (each commit rewrites a random
//! subset of 24 pages with its commit number and stores that number in
//! user slot 0) and checkpoints every few commits.
//!
//! Invariant: a reader sees exactly the commit it started on for as long as
//! it lives (every page value equals that commit's model, on every re-read),
//! whatever the writer and the checkpoints do meanwhile; readers never
//! block the writer (the writer finishes while snapshots are held; the test
//! has no timing asserts, only bounded work). A second `begin_write` gets
//! `Busy` after its timeout, and a write transaction can be moved to and
//! finished on another thread, which releases the lock.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};
use std::thread;
use std::time::Duration;

use asadb_pager::PageId;
use asadb_txn::{Db, Error, Options, PageRead, PageWrite};
use common::{Model, fill, holds};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const PAGES: u32 = 24;
const COMMITS: u32 = 200;

#[test]
fn readers_see_stable_snapshots() {
    let db = Db::memory(Options { pool_frames: 128, checkpoint_frames: 25, ..Options::default() })
        .unwrap();
    let history: Arc<RwLock<Vec<Model>>> = Arc::new(RwLock::new(Vec::new()));
    {
        let txn = db.begin_write().unwrap();
        let mut model = Model::new();
        for _ in 0..PAGES {
            let (id, mut p) = txn.allocate().unwrap();
            fill(id, 0, &mut p);
            model.insert(id.0, 0);
        }
        history.write().unwrap().push(model);
        txn.commit().unwrap();
    }
    let done = Arc::new(AtomicBool::new(false));
    let readers: Vec<_> = (0..4)
        .map(|r| {
            let (db, history, done) = (db.clone(), history.clone(), done.clone());
            thread::spawn(move || {
                let mut snapshots = 0u32;
                while !done.load(Ordering::Acquire) || snapshots < 3 {
                    let txn = db.begin_read().unwrap();
                    let k = txn.header().user[0] as usize;
                    let model = history.read().unwrap()[k].clone();
                    for round in 0..4 {
                        for (&p, &v) in &model {
                            let page = txn.page(PageId(p)).unwrap();
                            assert!(
                                holds(PageId(p), v, &page),
                                "reader {r}: snapshot {k} round {round}: page {p} changed"
                            );
                        }
                        thread::sleep(Duration::from_micros(200));
                    }
                    snapshots += 1;
                }
                snapshots
            })
        })
        .collect();

    let mut rng = StdRng::seed_from_u64(5);
    let mut checkpoints_that_copied = 0;
    for k in 1..=COMMITS {
        let txn = db.begin_write().unwrap();
        let mut model = history.read().unwrap().last().unwrap().clone();
        for p in 1..=PAGES {
            if rng.random_bool(0.3) {
                let mut page = txn.page_mut(PageId(p)).unwrap();
                fill(PageId(p), u64::from(k), &mut page);
                model.insert(p, u64::from(k));
            }
        }
        txn.set_user_slot(0, k).unwrap();
        history.write().unwrap().push(model);
        txn.commit().unwrap();
        if k % 15 == 0 && db.checkpoint().unwrap().pages_written > 0 {
            checkpoints_that_copied += 1;
        }
    }
    done.store(true, Ordering::Release);
    let snapshots: u32 = readers.into_iter().map(|h| h.join().unwrap()).sum();
    assert!(snapshots >= 12);
    // How much each checkpoint could copy depends on the readers' timing;
    // `checkpoint_keeps_what_a_reader_needs` pins the rule deterministically.
    assert!(db.stats().checkpoints >= u64::from(COMMITS / 15));
    println!("explicit checkpoints that copied pages: {checkpoints_that_copied}");
    // With no reader left, a checkpoint empties the log.
    let info = db.checkpoint().unwrap();
    assert!(info.reset);
    assert_eq!(db.stats().log_bytes, 32);
    assert_eq!(db.stats().readers, 0);
    let txn = db.begin_read().unwrap();
    assert_eq!(txn.header().user[0], COMMITS);
}

#[test]
fn checkpoint_keeps_what_a_reader_needs() {
    let db = Db::memory(Options { checkpoint_frames: 0, ..Options::default() }).unwrap();
    let write = |v: u64| {
        let txn = db.begin_write().unwrap();
        let id = PageId(1);
        if txn.header().page_count < 2 {
            let (id, mut p) = txn.allocate().unwrap();
            fill(id, v, &mut p);
        } else {
            fill(id, v, &mut txn.page_mut(id).unwrap());
        }
        txn.commit().unwrap();
    };
    write(1);
    let old = db.begin_read().unwrap();
    write(2);
    write(3);
    let info = db.checkpoint().unwrap();
    assert!(!info.reset, "the log must not be reset under a reader that uses it");
    assert!(info.backfilled < info.log_frames);
    assert!(holds(PageId(1), 1, &old.page(PageId(1)).unwrap()));
    drop(old);
    let info = db.checkpoint().unwrap();
    assert!(info.reset);
    assert!(holds(PageId(1), 3, &db.begin_read().unwrap().page(PageId(1)).unwrap()));
}

#[test]
fn busy_then_released_on_another_thread() {
    let db = Db::memory(Options::default()).unwrap();
    let txn = db.begin_write().unwrap();
    let (id, mut p) = txn.allocate().unwrap();
    fill(id, 7, &mut p);
    drop(p);
    assert!(matches!(db.try_begin_write(Duration::from_millis(20)), Err(Error::Busy)));
    // Readers are not blocked by the writer.
    assert_eq!(db.begin_read().unwrap().header().page_count, 1);
    let waiter = {
        let db = db.clone();
        thread::spawn(move || db.try_begin_write(Duration::from_secs(30)).map(|t| t.header()))
    };
    thread::spawn(move || txn.commit().unwrap()).join().unwrap();
    let header = waiter.join().unwrap().unwrap();
    assert_eq!(header.page_count, 2, "the waiting writer starts from the new commit");
    assert!(holds(id, 7, &db.begin_read().unwrap().page(id).unwrap()));
}
