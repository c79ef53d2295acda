//! Unit tests of the pool's rules (counting, victims, exhaustion, rekey and
//! removal, failed loads) and a multithreaded stress test asserting that a
//! pinned frame is never reused under its guard.

use std::sync::atomic::{AtomicUsize, Ordering};

use asadb_pager::PageBuf;

use crate::{BufferPool, PoolError};

/// Error type for loaders in tests: either the pool's or a load failure.
#[derive(Debug, PartialEq)]
enum TestError {
    Pool(PoolError),
    LoadFailed,
}

impl From<PoolError> for TestError {
    fn from(e: PoolError) -> Self {
        TestError::Pool(e)
    }
}

/// Fills the whole page with a pattern derived from `value`.
fn stamp(buf: &mut PageBuf, value: u64) {
    for (i, chunk) in buf.chunks_exact_mut(8).enumerate() {
        chunk.copy_from_slice(&(value ^ i as u64).to_le_bytes());
    }
}

/// The value `stamp` wrote, after checking every word agrees with it.
fn read_stamp(buf: &PageBuf) -> u64 {
    let value = u64::from_le_bytes(buf[..8].try_into().unwrap());
    for (i, chunk) in buf.chunks_exact(8).enumerate() {
        assert_eq!(u64::from_le_bytes(chunk.try_into().unwrap()), value ^ i as u64, "torn page");
    }
    value
}

fn loader(value: u64) -> impl FnOnce(&mut PageBuf) -> Result<(), TestError> {
    move |buf| {
        stamp(buf, value);
        Ok(())
    }
}

fn no_load(_: &mut PageBuf) -> Result<(), TestError> {
    panic!("loader must not run on a hit")
}

fn failing(_: &mut PageBuf) -> Result<(), TestError> {
    Err(TestError::LoadFailed)
}

fn load(pool: &BufferPool<u64>, key: u64) {
    drop(pool.get(key, loader(key)).unwrap());
}

#[test]
fn hits_and_misses_are_counted() {
    let pool = BufferPool::<u64>::new(4);
    assert_eq!(read_stamp(&pool.get(1, loader(1)).unwrap()), 1);
    assert_eq!(read_stamp(&pool.get(1, no_load).unwrap()), 1);
    assert_eq!(read_stamp(&pool.get_mut(1, no_load).unwrap()), 1);
    assert!(pool.get_cached(2).is_none());
    assert_eq!(pool.get_cached(1).unwrap().key(), 1);
    let stats = pool.stats();
    assert_eq!((stats.hits, stats.misses, stats.evictions), (3, 1, 0));
    assert_eq!(stats.capacity, 4);
    assert_eq!(stats.cached, 1);
    assert_eq!(stats.pinned, 0);
}

#[test]
fn zero_frames_means_one() {
    let pool = BufferPool::<u64>::new(0);
    assert_eq!(pool.capacity(), 1);
    load(&pool, 1);
    load(&pool, 2);
    assert!(!pool.contains(1) && pool.contains(2));
}

#[test]
fn clock_gives_referenced_frames_a_second_chance() {
    let pool = BufferPool::<u64>::new(2);
    load(&pool, 1);
    load(&pool, 2);
    drop(pool.get(1, no_load).unwrap()); // reference bit on 1
    load(&pool, 3);
    assert!(pool.contains(1), "referenced frame was evicted");
    assert!(!pool.contains(2));
    assert_eq!(pool.stats().evictions, 1);
}

#[test]
fn eviction_never_picks_pinned_or_dirty_frames() {
    let pool = BufferPool::<u64>::new(3);
    let pinned = pool.get(1, loader(1)).unwrap();
    load(&pool, 2);
    assert!(pool.set_dirty(2, true));
    for key in 3..50 {
        let page = pool.get(key, loader(key)).unwrap();
        assert_eq!(read_stamp(&page), key);
        drop(page);
        assert!(pool.contains(1) && pool.contains(2));
        assert_eq!(read_stamp(&pinned), 1);
    }
    assert_eq!(pool.stats().evictions, 46);
    assert_eq!(read_stamp(&pool.get(2, no_load).unwrap()), 2);
}

#[test]
fn exhausted_when_all_pinned_or_dirty_then_recovers() {
    let pool = BufferPool::<u64>::new(2);
    let pinned = pool.get(1, loader(1)).unwrap();
    load(&pool, 2);
    pool.set_dirty(2, true);
    assert_eq!(pool.get(3, loader(3)).unwrap_err(), TestError::Pool(PoolError::Exhausted));
    assert_eq!(pool.get_mut(3, loader(3)).unwrap_err(), TestError::Pool(PoolError::Exhausted));
    // A hit still works while exhausted.
    assert_eq!(read_stamp(&pool.get(2, no_load).unwrap()), 2);
    assert_eq!(pool.stats().cached, 2);

    drop(pinned);
    assert_eq!(read_stamp(&pool.get(3, loader(3)).unwrap()), 3);
    assert!(!pool.contains(1));

    // Now 2 dirty and 3 pinned: exhausted again until 2 is cleaned.
    let pinned = pool.get(3, no_load).unwrap();
    assert!(pool.get(4, loader(4)).is_err());
    assert!(pool.set_dirty(2, false));
    assert_eq!(read_stamp(&pool.get(4, loader(4)).unwrap()), 4);
    assert!(!pool.contains(2));
    drop(pinned);
}

#[test]
fn dirty_flags_are_tracked() {
    let pool = BufferPool::<u64>::new(4);
    assert!(!pool.set_dirty(1, true), "absent key");
    for key in 1..=3 {
        load(&pool, key);
    }
    assert!(pool.set_dirty(3, true) && pool.set_dirty(1, true) && pool.set_dirty(1, true));
    assert!(pool.is_dirty(1) && !pool.is_dirty(2) && !pool.is_dirty(9));
    assert_eq!(pool.dirty_count(), 2);
    let mut keys = pool.dirty_keys();
    keys.sort();
    assert_eq!(keys, vec![1, 3]);
    assert!(pool.set_dirty(1, false));
    assert_eq!(pool.dirty_keys(), vec![3]);
    assert_eq!(pool.stats().dirty, 1);
}

#[test]
fn set_dirty_under_a_write_guard_protects_the_new_page() {
    let pool = BufferPool::<u64>::new(1);
    {
        let mut page = pool.get_mut(1, loader(1)).unwrap();
        stamp(&mut page, 10);
        assert!(pool.set_dirty(1, true), "marking under the guard must not deadlock");
    }
    // The only frame is dirty: a miss cannot take it.
    assert_eq!(pool.get(2, loader(2)).unwrap_err(), TestError::Pool(PoolError::Exhausted));
    assert_eq!(read_stamp(&pool.get(1, no_load).unwrap()), 10);
}

#[test]
fn get_mut_writes_are_seen_by_later_readers() {
    let pool = BufferPool::<u64>::new(2);
    {
        let mut page = pool.get_mut(7, loader(7)).unwrap();
        assert_eq!(page.key(), 7);
        stamp(&mut page, 70);
    }
    assert_eq!(read_stamp(&pool.get(7, no_load).unwrap()), 70);
}

#[test]
fn rekey_moves_bytes_and_dirty_flag() {
    let pool = BufferPool::<u64>::new(4);
    assert!(!pool.rekey(1, 2), "absent source");
    load(&pool, 1);
    pool.set_dirty(1, true);
    assert!(pool.rekey(1, 2));
    assert!(!pool.contains(1));
    assert!(pool.is_dirty(2));
    assert_eq!(pool.dirty_count(), 1);
    assert_eq!(read_stamp(&pool.get(2, no_load).unwrap()), 1);
    assert!(pool.rekey(2, 2), "rekey onto itself is a no-op");
    assert!(pool.contains(2));

    // An unpinned frame under the target is dropped, its dirty flag with it.
    load(&pool, 3);
    pool.set_dirty(3, true);
    assert!(pool.rekey(2, 3));
    assert_eq!(read_stamp(&pool.get(3, no_load).unwrap()), 1);
    assert_eq!(pool.stats().cached, 1);
    assert_eq!(pool.dirty_count(), 1);
}

#[test]
fn rekey_onto_a_pinned_frame_detaches_it() {
    let pool = BufferPool::<u64>::new(2);
    load(&pool, 1);
    let old = pool.get(2, loader(2)).unwrap();
    assert!(pool.rekey(1, 2));
    // The old guard keeps its bytes; the key now reaches the moved frame.
    assert_eq!(read_stamp(&old), 2);
    assert_eq!(read_stamp(&pool.get(2, no_load).unwrap()), 1);
    let stats = pool.stats();
    assert_eq!((stats.cached, stats.pinned), (1, 1));
    // Once unpinned, the detached frame is a free slot: the next miss takes
    // it (key 2 was just referenced) and no eviction is counted.
    drop(old);
    load(&pool, 5);
    assert!(pool.contains(2) && pool.contains(5));
    assert_eq!(pool.stats().evictions, 0);
}

#[test]
fn rekey_of_a_pinned_source_keeps_its_guard() {
    let pool = BufferPool::<u64>::new(2);
    let mut page = pool.get_mut(1, loader(1)).unwrap();
    assert!(pool.rekey(1, 2));
    stamp(&mut page, 11);
    assert_eq!(page.key(), 1);
    drop(page);
    assert_eq!(read_stamp(&pool.get(2, no_load).unwrap()), 11);
}

#[test]
fn remove_drops_unpinned_frames_only() {
    let pool = BufferPool::<u64>::new(2);
    assert!(!pool.remove(1));
    load(&pool, 1);
    pool.set_dirty(1, true);
    let pinned = pool.get(2, loader(2)).unwrap();
    assert!(!pool.remove(2), "pinned frame must stay");
    assert!(pool.contains(2));
    assert!(pool.remove(1));
    assert!(!pool.contains(1));
    assert_eq!(pool.dirty_count(), 0);
    // The freed slot is reused without an eviction.
    load(&pool, 3);
    assert_eq!(pool.stats().evictions, 0);
    assert_eq!(read_stamp(&pinned), 2);
}

#[test]
fn remove_where_skips_pinned_frames() {
    let pool = BufferPool::<u64>::new(8);
    for key in 0..8 {
        load(&pool, key);
    }
    pool.set_dirty(2, true);
    let pinned = pool.get(4, no_load).unwrap();
    assert_eq!(pool.remove_where(|k| k % 2 == 0), 3); // 0, 2, 6
    assert!(pool.contains(4));
    for key in [0, 2, 6] {
        assert!(!pool.contains(key));
    }
    assert_eq!(pool.stats().cached, 5);
    assert_eq!(pool.dirty_count(), 0);
    drop(pinned);
    assert_eq!(pool.remove_where(|_| true), 5);
    assert_eq!(pool.stats().cached, 0);
}

#[test]
fn failed_load_leaves_no_frame() {
    let pool = BufferPool::<u64>::new(2);
    assert_eq!(pool.get(1, failing).unwrap_err(), TestError::LoadFailed);
    assert_eq!(pool.get_mut(1, failing).unwrap_err(), TestError::LoadFailed);
    assert!(!pool.contains(1));
    assert!(pool.get_cached(1).is_none());
    assert!(!pool.set_dirty(1, true));
    let stats = pool.stats();
    assert_eq!((stats.cached, stats.pinned, stats.misses), (0, 0, 2));
    // The next get loads it for real.
    assert_eq!(read_stamp(&pool.get(1, loader(1)).unwrap()), 1);
}

#[test]
fn panicking_loader_leaves_no_frame() {
    let pool = BufferPool::<u64>::new(1);
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _ = pool.get::<TestError>(1, |_| panic!("loader panics"));
    }));
    assert!(result.is_err());
    assert!(!pool.contains(1));
    assert_eq!(pool.stats().pinned, 0);
    load(&pool, 2);
    assert!(pool.contains(2));
}

#[test]
fn cached_never_exceeds_capacity_under_random_workload() {
    let pool = BufferPool::<u64>::new(8);
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    let mut held = Vec::new();
    let mut exhausted = 0;
    for _ in 0..20_000 {
        let key = rng.next() % 40;
        match rng.next() % 10 {
            0..=4 => match pool.get(key, loader(key)) {
                Ok(page) => {
                    assert_eq!(read_stamp(&page), key);
                    if held.len() < 6 && rng.next().is_multiple_of(3) {
                        held.push(page);
                    }
                }
                Err(TestError::Pool(PoolError::Exhausted)) => exhausted += 1,
                Err(e) => panic!("{e:?}"),
            },
            5 => {
                if !held.is_empty() {
                    held.swap_remove((rng.next() % held.len() as u64) as usize);
                }
            }
            6 => {
                pool.set_dirty(key, rng.next().is_multiple_of(2));
            }
            7 => {
                pool.remove(key);
            }
            8 => {
                // Move the page out of the workload's key range (its bytes
                // stay stamped with `key`) and drop it there; held guards
                // keep their bytes either way.
                if pool.rekey(key, key + 40) {
                    pool.remove(key + 40);
                }
            }
            _ => {
                let _ = pool.get(key, failing);
            }
        }
        let stats = pool.stats();
        assert!(stats.cached <= stats.capacity, "{stats:?}");
        assert!(stats.pinned <= stats.capacity);
        assert_eq!(stats.dirty, pool.dirty_keys().len());
        for page in &held {
            assert_eq!(read_stamp(page), page.key());
        }
    }
    assert!(exhausted > 0, "workload never filled the pool with pinned and dirty frames");
    drop(held);
    assert_eq!(pool.stats().pinned, 0);
}

#[test]
fn pool_is_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<BufferPool<(u32, u64)>>();
}

#[test]
fn debug_shows_stats() {
    let pool = BufferPool::<u64>::new(3);
    load(&pool, 1);
    let text = format!("{pool:?}");
    assert!(text.contains("capacity: 3") && text.contains("misses: 1"), "{text}");
    assert_eq!(format!("{:?}", pool.get(1, no_load).unwrap()), "PageRef { key: 1, .. }");
}

/// N threads read random keys through a small pool while holding up to two
/// guards each; every guard must see its own key's bytes for its lifetime.
#[test]
fn stress_guards_always_see_their_own_key() {
    const THREADS: usize = 4;
    const ROUNDS: usize = 3_000;
    let pool = BufferPool::<u64>::new(12);
    let loads = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for t in 0..THREADS {
            let (pool, loads) = (&pool, &loads);
            s.spawn(move || {
                let mut rng = XorShift(0x1234_5678 + t as u64);
                let mut held = Vec::new();
                for _ in 0..ROUNDS {
                    let key = rng.next() % 48;
                    let counted = |buf: &mut PageBuf| {
                        loads.fetch_add(1, Ordering::Relaxed);
                        stamp(buf, key);
                        Ok::<_, TestError>(())
                    };
                    if rng.next().is_multiple_of(8) {
                        // Writers rewrite the same pattern, racing readers.
                        // They hold no other guard while waiting for the
                        // write lock (it would wait for itself).
                        held.clear();
                        let mut page = pool.get_mut(key, counted).unwrap();
                        assert_eq!(read_stamp(&page), key);
                        stamp(&mut page, key);
                    } else {
                        let page = pool.get(key, counted).unwrap();
                        assert_eq!(read_stamp(&page), key);
                        if held.len() == 2 {
                            held.remove(0);
                        }
                        held.push(page);
                    }
                    for page in &held {
                        assert_eq!(read_stamp(page), page.key());
                    }
                }
            });
        }
    });
    let stats = pool.stats();
    assert_eq!(stats.pinned, 0);
    assert!(stats.cached <= 12);
    assert_eq!(stats.hits + stats.misses, (THREADS * ROUNDS) as u64);
    // Every miss ran exactly one load (no Exhausted: at most 8 pins in 12).
    assert_eq!(stats.misses, loads.load(Ordering::Relaxed) as u64);
    assert!(stats.evictions > 0);
}

/// Many threads ask for one key whose loader fails every other time: nobody
/// may get a guard over bytes from a failed load. (`remove` detaches the
/// frame while others still pin it, so four threads can pin more than the
/// two frames: `Exhausted` is a legitimate answer here, garbage is not.)
#[test]
fn stress_failed_loads_are_never_observed() {
    let pool = BufferPool::<u64>::new(2);
    let attempts = AtomicUsize::new(0);
    let (good, failed) = (AtomicUsize::new(0), AtomicUsize::new(0));
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for round in 0..2_000u64 {
                    let result = pool.get(7, |buf: &mut PageBuf| {
                        if attempts.fetch_add(1, Ordering::Relaxed).is_multiple_of(2) {
                            stamp(buf, 666); // garbage that must never be seen
                            return Err(TestError::LoadFailed);
                        }
                        stamp(buf, 7);
                        Ok(())
                    });
                    match result {
                        Ok(page) => {
                            assert_eq!(read_stamp(&page), 7);
                            good.fetch_add(1, Ordering::Relaxed);
                        }
                        Err(TestError::LoadFailed) => {
                            failed.fetch_add(1, Ordering::Relaxed);
                        }
                        Err(e) => assert_eq!(e, TestError::Pool(PoolError::Exhausted)),
                    }
                    if round % 3 == 0 {
                        pool.remove(7);
                    }
                }
            });
        }
    });
    assert_eq!(pool.stats().pinned, 0);
    assert!(good.into_inner() > 0 && failed.into_inner() > 0, "both outcomes were exercised");
}

/// Deterministic, dependency-free generator for workloads.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}
