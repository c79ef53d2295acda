//! EIO and ENOSPC at every mutating call of a workload.
//!
//! Scenario: the workload (with auto-checkpoints, so main-file writes and
//! log resets are covered) runs over `FaultyIo` wrappers of two in-memory
//! files sharing one `FaultPlan`. A dry run counts the mutating calls; then
//! for every call index n and both errors (odd n: the failing write also
//! leaves half its bytes behind) the workload is rerun with call n failing.
//!
//! Invariant: the failure surfaces as an error (the injected IO error, or
//! `Poisoned` at the next write when it hit the automatic checkpoint after
//! a commit that had already succeeded), never a panic; later writes are refused with `Poisoned` while reads of
//! the last commit keep working; reopening the underlying files succeeds,
//! integrity holds, and every commit that returned Ok is intact (the failed
//! one is either fully there or not at all).

mod common;

use std::sync::Arc;

use asadb_pager::{Error as PagerError, Fault, FaultPlan, FaultyIo, Io, MemIo};
use asadb_txn::{Db, Error, Options};
use common::{Outcome, Workload, run, verify};

fn opts() -> Options {
    Options { pool_frames: 32, checkpoint_frames: 30, ..Options::default() }
}

fn workload() -> Workload {
    Workload { seed: 11, txns: 24, big_every: 8, big_pages: 50, ..Workload::default() }
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
                        Some(Error::Pager(PagerError::Poisoned(_))) | None => {}
                        Some(other) => panic!("call {n}: unexpected error {other}"),
                    }
                    assert!(
                        matches!(db.begin_write(), Err(Error::Pager(PagerError::Poisoned(_)))),
                        "call {n}: writes must be refused after a failed IO call"
                    );
                    // Reads of the last published commit keep working.
                    assert_eq!(verify(&db, &out), out.committed(), "call {n}: live reads");
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
            assert!(k >= out.committed(), "call {n}: a commit that returned Ok is lost");
            checked += 1;
        }
    }
    println!("fault points checked: {checked}");
}
