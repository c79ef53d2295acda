//! Truncate the log at every byte offset.
//!
//! Scenario: a workload commits, a checkpoint moves it into the main file
//! and resets the log, then a few more transactions commit into the log.
//! The log is then cut at every byte offset from 0 to its full length and
//! the database reopened from the main file and the cut log.
//!
//! Invariant: reopening always succeeds, the integrity check passes, the
//! content is exactly the model of one commit, never earlier than the
//! checkpointed one, and that commit never goes backwards as the cut moves
//! forward; the full log gives the last commit.

mod common;

use std::sync::Arc;

use asadb_pager::{Io, MemIo};
use asadb_txn::{Db, Options};
use common::{Workload, run, run_from, verify};

fn opts() -> Options {
    Options { pool_frames: 16, checkpoint_frames: 0, ..Options::default() }
}

#[test]
fn truncate_log_at_every_offset() {
    let main = Arc::new(MemIo::new());
    let wal = Arc::new(MemIo::new());
    let db = Db::open_io(main.clone(), wal.clone(), opts()).unwrap();
    let first = Workload { seed: 3, txns: 6, big_every: 0, max_ops: 6, ..Workload::default() };
    let out = run(&db, &first);
    assert!(out.error.is_none());
    let checkpointed = out.committed();
    let info = db.checkpoint().unwrap();
    assert!(info.reset, "checkpoint without readers resets the log");
    let more =
        Workload { seed: 4, txns: 4, big_every: 0, max_ops: 4, rollback_share: 0.0, ..first };
    let out = run_from(&db, &more, out);
    assert!(out.error.is_none());
    assert!(out.committed() >= checkpointed + 3);
    drop(db);

    let main_bytes = main.to_bytes();
    let wal_bytes = wal.to_bytes();
    let mut last = 0;
    for cut in 0..=wal_bytes.len() {
        let m: Arc<dyn Io> = Arc::new(MemIo::with_bytes(main_bytes.clone()));
        let w: Arc<dyn Io> = Arc::new(MemIo::with_bytes(wal_bytes[..cut].to_vec()));
        let db = Db::open_io(m, w, opts()).unwrap_or_else(|e| panic!("cut at {cut}: {e}"));
        let k = verify(&db, &out);
        assert!(k >= checkpointed, "cut at {cut}: commit {k} is older than the checkpoint");
        assert!(k >= last, "cut at {cut}: commit {k} after commit {last} at a shorter cut");
        last = k;
    }
    assert_eq!(last, out.committed(), "the whole log gives the last commit");
    println!("log offsets checked: {}", wal_bytes.len() + 1);
}
