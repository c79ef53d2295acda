//! EIO and ENOSPC at every mutating call of a workload.
//!
//! Scenario: the workload (with auto-checkpoints, so main-file writes and
//! log resets are covered) runs over `FaultyIo` wrappers of two in-memory
//! files sharing one `FaultPlan`. A dry run counts the mutating calls; then
//! for every call index n and both errors (odd n: the failing write also
//! leaves half its bytes behind) the workload is rerun with call n failing.
//!
//! Invariant: the failure surfaces as the injected IO error (or, when it
//! hit the automatic checkpoint after a commit that had already succeeded,
//! as no error: the next `begin_write` recovers), never a panic; the handle is
//! latched (`write_error`) while reads of the last commit keep working; the
//! fault being transient, the next `begin_write` recovers the handle by
//! itself (no reopen) and later commits work; reopening the underlying
//! files succeeds, integrity holds, and the database holds exactly the last
//! commit made after the recovery (so every commit that returned Ok is
//! intact, and the failed one did not come back).
//!
//! A sticky ENOSPC (a disk that stays full) keeps the handle latched and
//! every `begin_write` fails with ENOSPC itself, not a "reopen" error,
//! until the space comes back; then it recovers without a reopen.

mod common;

use std::sync::Arc;

use asadb_pager::{Error as PagerError, Fault, FaultPlan, FaultyIo, Io, MemIo};
use asadb_txn::{Db, Error, Options};
use common::{Outcome, Workload, run, run_from, verify};

fn opts() -> Options {
    Options { pool_frames: 32, checkpoint_frames: 30, ..Options::default() }
}

fn workload() -> Workload {
    Workload { seed: 11, txns: 24, big_every: 8, big_pages: 50, ..Workload::default() }
}

/// The workload run after a recovery: a few more commits, one of them big
/// (spilling and checkpointing).
fn more(n: u64) -> Workload {
    Workload { seed: 1000 + n, txns: 8, big_every: 4, big_pages: 40, ..Workload::default() }
}

#[test]
fn fault_at_every_mutating_call() {
    let plan = Arc::new(FaultPlan::never());
    let (main, wal) = (Arc::new(MemIo::new()), Arc::new(MemIo::new()));
    let db = Db::open_io(
        Arc::new(FaultyIo::new(main, plan.clone())),
        Arc::new(FaultyIo::new(wal, plan.clone())),
        opts(),
    )
    .unwrap();
    let dry = run(&db, &workload());
    assert!(dry.error.is_none());
    assert!(db.stats().checkpoints >= 2);
    let calls = plan.calls();
    assert!(calls > 40, "only {calls} mutating calls");
    drop(db);

    let mut checked = 0;
    for fault in [Fault::Eio, Fault::Enospc] {
        for n in 0..calls {
            let plan = FaultPlan::fail_at(n, fault);
            let plan = Arc::new(if n % 2 == 1 { plan.torn() } else { plan });
            let (main, wal) = (Arc::new(MemIo::new()), Arc::new(MemIo::new()));
            let faulty_main: Arc<dyn Io> = Arc::new(FaultyIo::new(main.clone(), plan.clone()));
            let faulty_wal: Arc<dyn Io> = Arc::new(FaultyIo::new(wal.clone(), plan.clone()));
            let out = match Db::open_io(faulty_main, faulty_wal, opts()) {
                Ok(db) => {
                    let out = run(&db, &workload());
                    assert_eq!(plan.failures(), 1, "call {n} was not reached");
                    // No error at all only when the fault hit the automatic
                    // checkpoint after the last commit (that commit is durable
                    // and returned Ok); the latch below still reports it.
                    match &out.error {
                        Some(Error::Pager(PagerError::Io(e))) => {
                            assert_eq!(e.raw_os_error(), Some(fault.errno()), "call {n}: {e}")
                        }
                        None => {}
                        Some(other) => panic!("call {n}: unexpected error {other}"),
                    }
                    // (A fault in the automatic checkpoint after a commit
                    // ended no call: the next begin_write recovered.)
                    assert!(
                        db.write_error().is_some() || out.error.is_none(),
                        "call {n}: the failure latched"
                    );
                    // Reads of the last published commit keep working.
                    assert_eq!(verify(&db, &out), out.committed(), "call {n}: live reads");
                    // The fault was transient: the handle recovers by itself
                    // and the workload goes on from the last commit.
                    let mut out = out;
                    out.in_flight = None;
                    out.error = None;
                    let out = run_from(&db, &more(n), out);
                    assert!(out.error.is_none(), "call {n}: after recovery: {:?}", out.error);
                    assert!(db.write_error().is_none(), "call {n}: recovered");
                    assert_eq!(db.stats().recoveries, 1, "call {n}");
                    assert_eq!(verify(&db, &out), out.committed(), "call {n}: after recovery");
                    out
                }
                // The failure hit the creation of the database.
                Err(_) => {
                    Outcome { models: vec![Default::default()], in_flight: None, error: None }
                }
            };
            let reopened = Db::open_io(main, wal, opts())
                .unwrap_or_else(|e| panic!("call {n} {fault:?}: reopen failed: {e}"));
            let k = verify(&reopened, &out);
            if out.in_flight.is_none() {
                assert_eq!(k, out.committed(), "call {n}: the last commit after recovery");
            }
            assert!(k >= out.committed(), "call {n}: a commit that returned Ok is lost");
            checked += 1;
        }
    }
    println!("fault points checked: {checked}");
}

#[test]
fn a_disk_that_stays_full_is_refused_with_enospc_until_space_returns() {
    for n in [20u64, 45, 70] {
        let plan = Arc::new(FaultPlan::fail_at(n, Fault::Enospc).sticky().torn());
        let (main, wal) = (Arc::new(MemIo::new()), Arc::new(MemIo::new()));
        let db = Db::open_io(
            Arc::new(FaultyIo::new(main.clone(), plan.clone())),
            Arc::new(FaultyIo::new(wal.clone(), plan.clone())),
            opts(),
        )
        .unwrap();
        let out = run(&db, &workload());
        assert!(out.error.is_some(), "call {n} was reached");
        assert!(db.write_error().is_some());
        for _ in 0..3 {
            match db.begin_write() {
                Err(Error::Pager(PagerError::Io(e))) => {
                    assert_eq!(e.kind(), std::io::ErrorKind::StorageFull, "call {n}: {e}")
                }
                Err(other) => panic!("call {n}: expected ENOSPC, got {other}"),
                Ok(_) => panic!("call {n}: a write began on a full disk"),
            }
            assert!(matches!(db.recover(), Err(Error::Pager(PagerError::Io(_)))));
            assert!(db.write_error().is_some());
        }
        assert_eq!(verify(&db, &out), out.committed(), "reads go on");
        plan.heal();
        assert!(db.recover().unwrap(), "recovered once space returned");
        assert!(!db.recover().unwrap(), "nothing left to recover");
        let mut out = out;
        out.in_flight = None;
        out.error = None;
        let out = run_from(&db, &more(n), out);
        assert!(out.error.is_none(), "{:?}", out.error);
        assert_eq!(verify(&db, &out), out.committed());
        drop(db);
        let reopened = Db::open_io(main, wal, opts()).unwrap();
        assert_eq!(verify(&reopened, &out), out.committed(), "call {n}: after reopen");
    }
}
