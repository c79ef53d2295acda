//! Transactions over the page file: write-ahead log, snapshot readers,
//! savepoints, recovery and checkpoints.
//!
//! # What this crate owns
//! - [`Db`]: a main file and its log `<path>-wal` (see [`wal`] for the log
//!   format and `docs/file-format.md` for everything on disk).
//! - [`ReadTxn`]: a snapshot of the last commit; any number at once; never
//!   blocks the writer and is never blocked by it.
//! - [`WriteTxn`]: the one writer (a lock with a timeout, then
//!   [`Error::Busy`]); copy-on-write pages in the buffer pool, spilled to
//!   the log when they fill three quarters of it; nested [`Savepoint`]s.
//! - Recovery on open (replay to the last valid commit frame), checkpoints
//!   (automatic past `checkpoint_frames` and on close), the integrity check.
//! - [`pages`]: the seam the SQL layer's B+trees use.
//!
//! # The life of a page change
//! 1. `page_mut(p)` copies p's committed image (latest log frame of p in
//!    the writer's snapshot, else the main file) into a dirty pool frame.
//! 2. Too many dirty frames: a batch is appended to the log as uncommitted
//!    frames and their pool frames become clean, evictable copies.
//! 3. Commit appends the remaining dirty pages and then the header page as
//!    the commit frame, syncs the log (`Synchronous::Full`), and publishes
//!    the new frames to the in-memory index and the new `mx_frame`.
//! 4. A checkpoint copies frames no reader needs any more into the main
//!    file; when nothing in the log is needed, the log is reset.
//!
//! # Invariants
//! - A reader sees exactly the commit that was last when it began: it only
//!   resolves pool keys from its snapshot (`mx_frame`), and keys name
//!   immutable images (main file, log frame of a generation, or the
//!   writer's dirty copy, which no snapshot resolves to).
//! - The latest frame of a page in the committed log is its committed
//!   image (commit rewrites pages whose newest uncommitted frame is stale).
//! - Every commit's last frame is the header page with the commit marker.
//! - A failed write or sync of either file latches the database; reads keep
//!   working. The next write (or `Db::recover`) first re-establishes what
//!   is durable and probes for space (see `Db::recover`); until that
//!   succeeds writes fail with the error it hit.

mod checkpoint;
mod db;
mod error;
mod guard;
mod integrity;
pub mod pages;
mod read;
mod savepoint;
pub mod wal;
mod write;

pub use db::{CheckpointInfo, Db, DbStats, MIN_POOL_FRAMES, Options, Synchronous, wal_path};
pub use error::{Error, Result};
pub use guard::{PageMut, PageRef};
pub use integrity::{IntegrityReport, Problem};
pub use pages::{PageRead, PageWrite};
pub use read::ReadTxn;
pub use savepoint::Savepoint;
pub use write::WriteTxn;

/// Statistics of the buffer pool (re-exported for [`DbStats::pool`]).
pub use asadb_bufferpool::PoolStats;

#[cfg(test)]
mod send_tests {
    fn assert_send<T: Send>() {}
    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn handle_types_are_send() {
        assert_send_sync::<super::Db>();
        assert_send::<super::WriteTxn>();
        assert_send::<super::ReadTxn>();
    }
}
