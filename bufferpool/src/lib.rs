//! A bounded cache of 4 KB page frames: pins, eviction, hit/miss counters.
//!
//! # What this crate owns
//! [`BufferPool<K>`] holds a fixed number of [`PAGE_SIZE`](asadb_pager::PAGE_SIZE)
//! frames, all allocated in [`BufferPool::new`]; no operation allocates
//! another, so page memory never exceeds `capacity * 4 KB` whatever the
//! workload. Frames are keyed by any small `Copy` key (the txn layer uses a
//! page id plus a version, so several versions of a page can be cached for
//! readers of different snapshots and readers never see an uncommitted one).
//!
//! # Invariants
//! - A pinned frame is never evicted or reused: [`PageRef`] and [`PageMut`]
//!   pin their frame for as long as they live.
//! - A dirty frame is never evicted: its owner writes it out and clears the
//!   flag ([`BufferPool::set_dirty`]). If every frame is pinned or dirty, a
//!   miss fails with [`PoolError::Exhausted`] instead of growing the pool.
//! - A key is loaded at most once at a time: a second caller for a key being
//!   loaded waits for that load, and never sees a half-loaded or failed
//!   frame (after a failure it loads the page itself).
//!
//! # Eviction: CLOCK
//! CLOCK rather than SIEVE because our frames are a fixed array: the hand is
//! an index and the reference bit is one bool per frame, no queue to keep in
//! insertion order. A hit sets the bit; the hand clears it on the way past
//! and takes the first unpinned, clean frame whose bit is already clear. A
//! newly loaded page starts with the bit clear, so a page read once (a scan)
//! goes before a page read twice — the property SIEVE is praised for.
//! Slots freed by `remove`, `rekey` or `remove_where` are used before the
//! hand moves, so invalidating pages never costs a useful one.
//!
//! # Concurrency
//! One mutex guards the key map and per-frame bookkeeping; each frame's bytes
//! sit behind their own reader-writer lock. A hit is one map lookup and an
//! atomic pin under the mutex, then the frame lock outside it; loads run
//! outside the mutex, holding only the frame's write lock. Pins are only
//! taken under the mutex and released after the frame lock, which is what
//! lets the evictor trust a zero pin count. Under `--cfg loom` the locks and
//! atomics come from loom (see `sync`), and `loom_tests` model-checks
//! pin/unpin/evict and concurrent loads.
//!
//! Guards are neither `Send` nor `Sync`: they are used and dropped on the
//! thread that took them. The pool itself is `Send + Sync`.
//!
//! # Counters
//! `get`/`get_mut` count a hit when the key is mapped (including a wait on
//! another thread's load) and a miss otherwise (including misses that end in
//! `Exhausted`). `get_cached` counts a hit when found and nothing when not.
//! An eviction is counted when a victim frame had a key.

mod pool;
mod sync;

#[cfg(all(test, loom))]
mod loom_tests;
#[cfg(all(test, not(loom)))]
mod model_tests;
#[cfg(all(test, not(loom)))]
mod tests;

pub use pool::{BufferPool, PageMut, PageRef, PoolStats};

/// Errors of the buffer pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PoolError {
    /// Every frame is pinned or dirty, so a miss has no victim. Dropping a
    /// guard or writing out a dirty page makes room again.
    #[error("buffer pool exhausted: every frame is pinned or dirty")]
    Exhausted,
}
