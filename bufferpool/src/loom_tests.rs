//! loom model checks of the pool's concurrency core: pin vs evict, two loads
//! of one key, unpin then evict, a failed load seen by a waiter, and
//! `remove`/`rekey` racing a reader.
//!
//! Run with `LOOM_MAX_PREEMPTIONS=2 RUSTFLAGS="--cfg loom" cargo test -p
//! asadb-bufferpool --release --lib loom`. Pools are tiny (1–2 frames, 2
//! threads) so every interleaving is explored within the CI budget. Pages are
//! stamped at both ends, so a guard over a reused or half-loaded frame shows
//! the wrong value or a torn page.

use loom::sync::Arc;
use loom::sync::atomic::{AtomicUsize, Ordering};
use loom::thread;

use asadb_pager::{PAGE_SIZE, PageBuf};

use crate::{BufferPool, PoolError};

#[derive(Debug, PartialEq)]
enum LoadError {
    Pool(PoolError),
    Failed,
}

impl From<PoolError> for LoadError {
    fn from(e: PoolError) -> Self {
        LoadError::Pool(e)
    }
}

fn stamp(value: u32) -> impl FnOnce(&mut PageBuf) -> Result<(), LoadError> {
    move |buf| {
        buf[0] = value as u8;
        buf[PAGE_SIZE - 1] = value as u8;
        Ok(())
    }
}

fn read(buf: &PageBuf) -> u32 {
    assert_eq!(buf[0], buf[PAGE_SIZE - 1], "torn or half-loaded page");
    buf[0] as u32
}

/// A frame pinned by one thread is never reused by another thread's miss:
/// the pool is full of unpinned pages, one thread pins key 1 (a hit, or a
/// reload if it was just evicted) while the other misses twice.
#[test]
fn loom_pinned_frame_is_never_reused_by_another_miss() {
    loom::model(|| {
        let pool = Arc::new(BufferPool::<u32>::new(2));
        drop(pool.get(1, stamp(1)).unwrap());
        drop(pool.get(2, stamp(2)).unwrap());
        let other = pool.clone();
        let evictor = thread::spawn(move || {
            for key in [3, 4] {
                // At most one frame is pinned by the reader: never exhausted.
                let page = other.get(key, stamp(key)).unwrap();
                assert_eq!(read(&page), key);
            }
        });
        let page = pool.get(1, stamp(1)).unwrap();
        assert_eq!(read(&page), 1);
        thread::yield_now();
        assert_eq!(read(&page), 1);
        drop(page);
        evictor.join().unwrap();
        assert_eq!(pool.stats().pinned, 0);
        assert!(pool.stats().cached <= 2);
    });
}

/// Two threads miss on the same key at once: one loads, the other waits for
/// that load; both see the bytes and the loader ran exactly once.
#[test]
fn loom_concurrent_load_of_one_key_runs_once() {
    loom::model(|| {
        let pool = Arc::new(BufferPool::<u32>::new(2));
        let loads = Arc::new(AtomicUsize::new(0));
        let reader = |pool: Arc<BufferPool<u32>>, loads: Arc<AtomicUsize>| {
            let page = pool
                .get(7, |buf| {
                    loads.fetch_add(1, Ordering::SeqCst);
                    stamp(7)(buf)
                })
                .unwrap();
            assert_eq!(read(&page), 7);
        };
        let (p, l) = (pool.clone(), loads.clone());
        let other = thread::spawn(move || reader(p, l));
        reader(pool.clone(), loads.clone());
        other.join().unwrap();
        assert_eq!(loads.load(Ordering::SeqCst), 1);
        let stats = pool.stats();
        assert_eq!((stats.hits, stats.misses, stats.cached), (1, 1, 1));
    });
}

/// One frame, two threads: whichever misses while the other holds the frame
/// gets `Exhausted`; once both guards are gone the frame is evictable again.
#[test]
fn loom_unpin_then_evict() {
    loom::model(|| {
        let pool = Arc::new(BufferPool::<u32>::new(1));
        let use_key = |pool: &BufferPool<u32>, key: u32| match pool.get(key, stamp(key)) {
            Ok(page) => assert_eq!(read(&page), key),
            Err(e) => assert_eq!(e, LoadError::Pool(PoolError::Exhausted)),
        };
        let other = pool.clone();
        let t = thread::spawn(move || use_key(&other, 1));
        use_key(&pool, 2);
        t.join().unwrap();
        // Every pin was released, so the only frame must be reusable.
        let page = pool.get(3, stamp(3)).unwrap();
        assert_eq!(read(&page), 3);
        assert_eq!(pool.stats().pinned, 1);
    });
}

/// A load that fails is never observed: a thread waiting on it retries and
/// loads the page itself; the failing thread either gets its error or a hit
/// on the other thread's good load.
#[test]
fn loom_failed_load_is_never_observed() {
    loom::model(|| {
        let pool = Arc::new(BufferPool::<u32>::new(2));
        let other = pool.clone();
        let failing = thread::spawn(move || {
            match other.get(1, |buf| {
                buf[0] = 0xEE; // half-written garbage
                Err(LoadError::Failed)
            }) {
                Ok(page) => assert_eq!(read(&page), 1),
                Err(e) => assert_eq!(e, LoadError::Failed),
            }
        });
        let page = pool.get(1, stamp(1)).unwrap();
        assert_eq!(read(&page), 1);
        drop(page);
        failing.join().unwrap();
        assert!(pool.contains(1));
        assert_eq!(pool.stats().pinned, 0);
    });
}

/// `remove` and `rekey` racing a reader: the reader's guard keeps key 1's
/// bytes whether it pinned before or after, `remove` never drops a pinned
/// frame, and the moved frame carries key 1's bytes under key 2.
#[test]
fn loom_remove_and_rekey_never_pull_a_pinned_frame() {
    loom::model(|| {
        let pool = Arc::new(BufferPool::<u32>::new(2));
        drop(pool.get(1, stamp(1)).unwrap());
        let other = pool.clone();
        let reader = thread::spawn(move || {
            let page = other.get(1, stamp(1)).unwrap();
            assert_eq!(read(&page), 1);
            thread::yield_now();
            assert_eq!(read(&page), 1);
        });
        // Key 1 stays mapped unless removed here, so a refusal can only mean
        // the reader had it pinned; then move it under the reader's feet.
        let moved = !pool.remove(1);
        if moved {
            assert!(pool.rekey(1, 2), "a key that refused removal must be cached");
        }
        reader.join().unwrap();
        assert_eq!(pool.contains(2), moved);
        if moved {
            assert_eq!(read(&pool.get(2, stamp(99)).unwrap()), 1);
        }
        assert_eq!(pool.stats().pinned, 0);
    });
}
