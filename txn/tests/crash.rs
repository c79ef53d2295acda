//! Crash at every sync point of a seeded workload, with torn writes.
//!
//! Scenario: a workload of 48 write transactions (allocations, updates,
//! frees, nested savepoints, commits and rollbacks; every ninth writes 60
//! pages through a 32-frame pool, so it spills; auto-checkpoints every few
//! commits) runs on a `CrashWorld`. A dry run counts its syncs; then for
//! every sync n the workload is rerun with a crash armed at sync n, and the
//! crashed world is recovered with several seeds (unsynced writes dropped,
//! applied or torn) and reopened.
//!
//! Invariant: reopening succeeds, the integrity check passes, and the
//! database holds exactly the model of one commit: every commit that
//! returned Ok (synchronous = Full), plus possibly the one in flight, and
//! never a part of one. After recovery the database accepts and keeps a
//! new commit.

mod common;

use std::sync::Arc;

use asadb_pager::{CrashWorld, Io};
use asadb_txn::{Db, Options, PageWrite, Synchronous};
use common::{Workload, run, verify};

const SEEDS: u64 = 8;

fn opts(synchronous: Synchronous) -> Options {
    Options { pool_frames: 32, synchronous, checkpoint_frames: 40, ..Options::default() }
}

fn open_with(world: &CrashWorld, synchronous: Synchronous) -> asadb_txn::Result<Db> {
    let main: Arc<dyn Io> = world.file("main");
    let wal: Arc<dyn Io> = world.file("main-wal");
    Db::open_io(main, wal, opts(synchronous))
}

fn open(world: &CrashWorld) -> asadb_txn::Result<Db> {
    open_with(world, Synchronous::Full)
}

#[test]
fn crash_at_every_sync() {
    let w = Workload { txns: 48, ..Workload::default() };
    let dry = CrashWorld::new();
    let db = open(&dry).unwrap();
    let full = run(&db, &w);
    assert!(full.error.is_none(), "dry run failed: {:?}", full.error);
    assert!(full.committed() >= 20, "workload commits too little: {}", full.committed());
    assert!(db.stats().checkpoints >= 2, "no auto-checkpoint in the workload");
    verify(&db, &full);
    drop(db);
    let syncs = dry.syncs();
    assert!(syncs > 30, "only {syncs} syncs");

    let mut checked = 0u64;
    for n in 1..=syncs {
        let world = CrashWorld::new();
        world.crash_at_sync(n);
        let out = match open(&world) {
            Ok(db) => run(&db, &w),
            Err(_) => {
                common::Outcome { models: vec![Default::default()], in_flight: None, error: None }
            }
        };
        assert!(world.is_crashed(), "sync {n} was never reached");
        for seed in 0..SEEDS {
            let recovered = world.recover(seed * 7919 + n);
            let db = open(&recovered).unwrap_or_else(|e| panic!("sync {n} seed {seed}: {e}"));
            let k = verify(&db, &out);
            assert!(
                k >= out.committed(),
                "sync {n} seed {seed}: commit {} returned Ok but recovery has {k}",
                out.committed()
            );
            // The recovered database takes new commits and keeps them.
            let txn = db.begin_write().unwrap();
            txn.set_user_slot(1, 99).unwrap();
            txn.commit().unwrap();
            drop(db);
            let db = open(&recovered.recover_durable()).unwrap();
            assert_eq!(verify(&db, &out), k);
            checked += 1;
        }
    }
    println!("crash points checked: {checked} ({syncs} syncs x {SEEDS} recover seeds)");
}

/// `synchronous = Normal` syncs only around checkpoints: a crash may lose
/// the latest commits, but the database is always exactly one commit, and
/// never older than the last checkpoint that completed.
#[test]
fn crash_at_every_sync_normal() {
    let w = Workload { seed: 2, ..Workload::default() };
    let dry = CrashWorld::new();
    let db = open_with(&dry, Synchronous::Normal).unwrap();
    let full = run(&db, &w);
    assert!(full.error.is_none());
    drop(db);
    let syncs = dry.syncs();
    assert!(syncs >= 4, "only {syncs} syncs");
    let mut checked = 0;
    for n in 1..=syncs {
        let world = CrashWorld::new();
        world.crash_at_sync(n);
        let (out, checkpoints) = match open_with(&world, Synchronous::Normal) {
            Ok(db) => {
                let out = run(&db, &w);
                (out, db.stats().checkpoints)
            }
            Err(_) => (
                common::Outcome { models: vec![Default::default()], in_flight: None, error: None },
                0,
            ),
        };
        for seed in 0..SEEDS {
            let db = open_with(&world.recover(seed + 100 * n), Synchronous::Normal).unwrap();
            let k = verify(&db, &out);
            if checkpoints > 0 {
                assert!(k > 0, "sync {n} seed {seed}: a completed checkpoint was lost");
            }
            checked += 1;
        }
    }
    println!("crash points checked (Normal): {checked}");
}

/// `synchronous = Off` never syncs; a process crash (the page cache
/// survives) loses nothing.
#[test]
fn process_crash_with_sync_off_loses_nothing() {
    let world = CrashWorld::new();
    let db = open_with(&world, Synchronous::Off).unwrap();
    let out = run(&db, &Workload { seed: 9, ..Workload::default() });
    assert!(out.error.is_none());
    assert_eq!(world.syncs(), 0, "Off never syncs");
    world.crash_now();
    drop(db);
    let db = open_with(&world.recover_all(), Synchronous::Off).unwrap();
    assert_eq!(verify(&db, &out), out.committed());
}
