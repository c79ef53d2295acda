//! The frame table: which key lives in which frame, who pins it, and which
//! frame the CLOCK hand gives up on a miss.
//!
//! Invariants (all kept under the state mutex unless noted):
//! - A key maps to at most one frame and `meta[f].key == Some(k)` iff
//!   `map[k] == f`. A frame with no key is free (or orphaned, see below).
//! - A frame's pin count is only *incremented* under the state mutex; it is
//!   decremented without it, after the guard has released the frame lock.
//!   So an evictor that reads 0 under the mutex knows nobody holds or can
//!   take the frame lock until it lets go of the mutex, and `try_write`
//!   must succeed.
//! - The victim is never pinned (that includes a frame being loaded: the
//!   loader holds a pin) and never dirty.
//! - A frame being loaded is mapped (so a second thread asking for the same
//!   key waits on the frame lock instead of loading twice) but its
//!   `FrameData::valid` is false until the load succeeds. Anyone who pinned
//!   it re-checks `valid` under the frame lock; on a failed load the loader
//!   unmaps the key *before* releasing the lock, so waiters retry and load.
//! - `rekey` onto a pinned target detaches that frame: it loses its key but
//!   keeps its bytes for the guards that hold it, and becomes a free frame
//!   once the last pin drops (the CLOCK hand finds it; nothing needs to be
//!   told). Frames freed while unpinned go on the free list instead.
//! - Nothing allocates after `new`: the map never holds more than
//!   `capacity` keys and the free list never more than `capacity` entries.

use std::collections::HashMap;
use std::fmt;
use std::hash::Hash;
use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};

use asadb_pager::{PAGE_SIZE, PageBuf};

use crate::PoolError;
use crate::sync::{self, AtomicUsize, Mutex, Ordering, RwLock, RwLockReadGuard, RwLockWriteGuard};

/// Index of a frame in the pool's fixed frame array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FrameId(usize);

/// One 4 KB slot. Allocated once in [`BufferPool::new`] and never freed
/// before the pool is.
struct Frame {
    /// Live guards on this frame, plus one while a loader fills it.
    pins: AtomicUsize,
    data: RwLock<FrameData>,
}

struct FrameData {
    /// False while a load is in progress and after a failed one: the bytes
    /// belong to nobody.
    valid: bool,
    buf: Box<PageBuf>,
}

/// Per-frame bookkeeping, guarded by the state mutex.
#[derive(Clone, Copy, Debug)]
struct Meta<K> {
    key: Option<K>,
    dirty: bool,
    /// CLOCK reference bit: set on a hit, cleared as the hand passes.
    referenced: bool,
    loading: bool,
}

struct State<K> {
    map: HashMap<K, FrameId, foldhash::fast::RandomState>,
    meta: Box<[Meta<K>]>,
    /// Frames freed by `remove`/`rekey`/`remove_where`, used before the CLOCK
    /// hand so that invalidating pages never costs a useful one. Entries may
    /// be stale (the hand took the frame since); `pop_free` skips those.
    /// Every entry is consumed before its frame gets a key again, so there
    /// are no duplicates and at most `capacity` entries.
    free: Vec<FrameId>,
    hand: usize,
    dirty: usize,
    hits: u64,
    misses: u64,
    evictions: u64,
}

impl<K: Copy + Eq + Hash> State<K> {
    /// The frame of `key` if it is mapped and its load has finished.
    fn ready(&self, key: &K) -> Option<FrameId> {
        let frame = *self.map.get(key)?;
        (!self.meta[frame.0].loading).then_some(frame)
    }

    /// Takes the key away from `frame` and forgets its dirty and reference
    /// bits. A pinned frame stays alive for its guards (see module docs).
    fn detach(&mut self, frame: FrameId) {
        let meta = &mut self.meta[frame.0];
        let key = meta.key.take();
        let was_dirty = std::mem::replace(&mut meta.dirty, false);
        meta.referenced = false;
        if was_dirty {
            self.dirty -= 1;
        }
        if let Some(key) = key {
            let removed = self.map.remove(&key);
            debug_assert_eq!(removed, Some(frame), "map and frame keys disagree");
        }
    }

    /// Detaches an unpinned frame and records its slot as free.
    fn release(&mut self, frame: FrameId, frames: &[Frame]) {
        self.detach(frame);
        if frames[frame.0].pins.load(Ordering::Acquire) == 0 {
            self.free.push(frame);
        }
    }

    /// A frame with no key and no pin from the free list, if any.
    fn pop_free(&mut self, frames: &[Frame]) -> Option<FrameId> {
        while let Some(frame) = self.free.pop() {
            let meta = &self.meta[frame.0];
            if meta.key.is_none() && frames[frame.0].pins.load(Ordering::Acquire) == 0 {
                return Some(frame);
            }
        }
        None
    }

    /// CLOCK: sweep from the hand, skip pinned and dirty frames, give
    /// referenced frames a second chance. Two full turns without a victim
    /// mean every frame is pinned or dirty.
    fn find_victim(&mut self, frames: &[Frame]) -> Option<FrameId> {
        let n = frames.len();
        for _ in 0..2 * n {
            let i = self.hand;
            self.hand = (i + 1) % n;
            let meta = &mut self.meta[i];
            if meta.dirty || frames[i].pins.load(Ordering::Acquire) != 0 {
                continue;
            }
            if meta.referenced {
                meta.referenced = false;
                continue;
            }
            return Some(FrameId(i));
        }
        None
    }
}

/// Counters and occupancy of a [`BufferPool`], taken under one lock so they
/// agree with each other.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PoolStats {
    /// Number of frames (fixed at construction).
    pub capacity: usize,
    /// Frames holding a key (loaded or being loaded).
    pub cached: usize,
    /// Frames with at least one pin, including detached ones still in use.
    pub pinned: usize,
    /// Frames marked dirty.
    pub dirty: usize,
    /// `get`/`get_mut`/`get_cached` calls that found their key mapped.
    pub hits: u64,
    /// `get`/`get_mut` calls that did not (each one ran a loader or failed
    /// with `Exhausted`).
    pub misses: u64,
    /// Frames whose key was dropped to make room for another.
    pub evictions: u64,
}

/// A bounded cache of 4 KB page frames keyed by `K`. See the crate docs.
pub struct BufferPool<K> {
    frames: Box<[Frame]>,
    state: Mutex<State<K>>,
}

/// What [`BufferPool::pin`] found.
enum Pinned<'a> {
    /// The key is mapped; the frame is pinned but not locked yet.
    Cached(FrameId, PinHold<'a>),
    /// A victim was mapped to the key, pinned and write-locked; it must be
    /// filled (or abandoned).
    Empty(FrameId, PinHold<'a>, RwLockWriteGuard<'a, FrameData>),
}

impl<K: Copy + Eq + Hash + fmt::Debug + Send + Sync> BufferPool<K> {
    /// A pool of `frames` frames, all allocated now. A request for 0 frames
    /// gets 1: a pool must hold at least the page being read.
    pub fn new(frames: usize) -> Self {
        let frames = frames.max(1);
        let meta = Meta { key: None, dirty: false, referenced: false, loading: false };
        BufferPool {
            frames: (0..frames)
                .map(|_| Frame {
                    pins: AtomicUsize::new(0),
                    data: RwLock::new(FrameData { valid: false, buf: Box::new([0; PAGE_SIZE]) }),
                })
                .collect(),
            state: Mutex::new(State {
                map: HashMap::with_capacity_and_hasher(frames, Default::default()),
                meta: vec![meta; frames].into_boxed_slice(),
                free: (0..frames).rev().map(FrameId).collect(),
                hand: 0,
                dirty: 0,
                hits: 0,
                misses: 0,
                evictions: 0,
            }),
        }
    }

    /// Number of frames.
    pub fn capacity(&self) -> usize {
        self.frames.len()
    }

    /// Pinned read access to `key`'s page. On a miss a victim frame is
    /// chosen and `load` fills it (while holding the frame's write lock, not
    /// the pool's); concurrent callers for the same key wait for that load
    /// instead of running their own. If `load` fails (or panics) the frame
    /// is released, the key is not cached, and waiters load it themselves.
    ///
    /// Fails with [`PoolError::Exhausted`] if every frame is pinned or dirty.
    /// A thread may hold several read guards on one key (shared access does
    /// not queue behind a waiting writer), but must not call this while it
    /// holds a [`PageMut`] of the same key: it would wait for itself.
    pub fn get<E: From<PoolError>>(
        &self,
        key: K,
        load: impl FnOnce(&mut PageBuf) -> Result<(), E>,
    ) -> Result<PageRef<'_, K>, E> {
        let mut load = Some(load);
        loop {
            match self.pin(key)? {
                Pinned::Cached(frame, pin) => {
                    let guard = sync::read(&self.frames[frame.0].data);
                    if guard.valid {
                        return Ok(PageRef { guard, _pin: pin, key, _not_send: PhantomData });
                    }
                    // Its load failed: the key is unmapped by now; try again.
                }
                Pinned::Empty(frame, pin, write) => {
                    let load = load.take().expect("a call fills at most one frame");
                    let write = self.fill(frame, key, write, load)?;
                    let guard = sync::downgrade(&self.frames[frame.0].data, write);
                    return Ok(PageRef { guard, _pin: pin, key, _not_send: PhantomData });
                }
            }
        }
    }

    /// Pinned, exclusive write access to `key`'s page; loads like [`get`].
    /// Writing does not mark the frame dirty: call [`set_dirty`] for that.
    /// Must not be called while this thread holds any guard on the same key.
    ///
    /// [`get`]: BufferPool::get
    /// [`set_dirty`]: BufferPool::set_dirty
    pub fn get_mut<E: From<PoolError>>(
        &self,
        key: K,
        load: impl FnOnce(&mut PageBuf) -> Result<(), E>,
    ) -> Result<PageMut<'_, K>, E> {
        let mut load = Some(load);
        loop {
            match self.pin(key)? {
                Pinned::Cached(frame, pin) => {
                    let guard = self.frames[frame.0].data.write();
                    if guard.valid {
                        return Ok(PageMut { guard, _pin: pin, key, _not_send: PhantomData });
                    }
                }
                Pinned::Empty(frame, pin, write) => {
                    let load = load.take().expect("a call fills at most one frame");
                    let guard = self.fill(frame, key, write, load)?;
                    return Ok(PageMut { guard, _pin: pin, key, _not_send: PhantomData });
                }
            }
        }
    }

    /// Pinned read access only if `key` is cached and loaded; never loads
    /// and never evicts. Counts a hit when found and nothing when not (the
    /// caller's follow-up `get` counts the miss, so it is not counted twice).
    pub fn get_cached(&self, key: K) -> Option<PageRef<'_, K>> {
        let (frame, pin) = {
            let mut st = self.state.lock();
            let frame = st.ready(&key)?;
            st.hits += 1;
            st.meta[frame.0].referenced = true;
            (frame, self.pin_frame(frame))
        };
        let guard = sync::read(&self.frames[frame.0].data);
        // Mapped and not loading implies a finished, successful load.
        guard.valid.then_some(PageRef { guard, _pin: pin, key, _not_send: PhantomData })
    }

    /// Whether `key` is cached and loaded (a load in progress does not count).
    pub fn contains(&self, key: K) -> bool {
        self.state.lock().ready(&key).is_some()
    }

    /// Marks `key`'s frame dirty or clean. Dirty frames are never evicted:
    /// the owner writes them out and clears the flag. Returns false (and
    /// changes nothing) if the key is not cached and loaded.
    ///
    /// May be called while holding a guard on the key, a [`PageMut`]
    /// included, and should be when installing a new page: once the last
    /// guard is dropped a clean frame is fair game for another thread's miss,
    /// so marking it dirty afterwards can find it already gone (false).
    pub fn set_dirty(&self, key: K, dirty: bool) -> bool {
        let mut st = self.state.lock();
        let Some(frame) = st.ready(&key) else { return false };
        let was = std::mem::replace(&mut st.meta[frame.0].dirty, dirty);
        match (was, dirty) {
            (false, true) => st.dirty += 1,
            (true, false) => st.dirty -= 1,
            _ => {}
        }
        true
    }

    /// Whether `key` is cached and dirty.
    pub fn is_dirty(&self, key: K) -> bool {
        let st = self.state.lock();
        st.ready(&key).is_some_and(|frame| st.meta[frame.0].dirty)
    }

    /// Number of dirty frames.
    pub fn dirty_count(&self) -> usize {
        self.state.lock().dirty
    }

    /// Keys of all dirty frames, in frame order.
    pub fn dirty_keys(&self) -> Vec<K> {
        let st = self.state.lock();
        st.meta.iter().filter(|m| m.dirty).filter_map(|m| m.key).collect()
    }

    /// Moves a cached frame (bytes and dirty flag) from `from` to `to`.
    /// Returns false if `from` is not cached and loaded.
    ///
    /// `from` may be pinned: its guards keep reading and writing the same
    /// bytes, now reachable under `to`, and their [`PageRef::key`] still
    /// reports `from`. A frame already under `to` loses its key first: if it
    /// is unpinned it is simply dropped; if it is pinned, its guards keep its
    /// old bytes and the frame becomes free when they are gone. Its dirty flag
    /// is cleared either way (the newer bytes replace it).
    pub fn rekey(&self, from: K, to: K) -> bool {
        let mut st = self.state.lock();
        let Some(frame) = st.ready(&from) else { return false };
        if from == to {
            return true;
        }
        if let Some(&old) = st.map.get(&to) {
            st.release(old, &self.frames);
        }
        st.map.remove(&from);
        st.map.insert(to, frame);
        st.meta[frame.0].key = Some(to);
        true
    }

    /// Drops `key`'s frame, dirty or not; its slot becomes free. Returns
    /// false if the key is absent, or if it is pinned (including while being
    /// loaded), in which case nothing changes.
    pub fn remove(&self, key: K) -> bool {
        let mut st = self.state.lock();
        let Some(&frame) = st.map.get(&key) else { return false };
        if self.frames[frame.0].pins.load(Ordering::Acquire) != 0 {
            return false;
        }
        st.release(frame, &self.frames);
        true
    }

    /// Drops every unpinned frame (dirty or not) whose key matches `f` and
    /// returns how many were dropped. Pinned frames are left in place. `f`
    /// runs under the pool lock, so it must not call back into the pool.
    pub fn remove_where(&self, mut f: impl FnMut(&K) -> bool) -> usize {
        let mut st = self.state.lock();
        let mut dropped = 0;
        for i in 0..self.frames.len() {
            let Some(key) = st.meta[i].key else { continue };
            // A loading frame is pinned by its loader, so this skips it too.
            if self.frames[i].pins.load(Ordering::Acquire) == 0 && f(&key) {
                st.release(FrameId(i), &self.frames);
                dropped += 1;
            }
        }
        dropped
    }

    /// A consistent snapshot of occupancy and counters.
    pub fn stats(&self) -> PoolStats {
        let st = self.state.lock();
        PoolStats {
            capacity: self.frames.len(),
            cached: st.map.len(),
            pinned: self.frames.iter().filter(|f| f.pins.load(Ordering::Acquire) != 0).count(),
            dirty: st.dirty,
            hits: st.hits,
            misses: st.misses,
            evictions: st.evictions,
        }
    }

    /// Finds `key` and pins its frame, or maps a victim to it, pins it and
    /// takes its write lock (all under the state mutex, so nobody can see the
    /// mapping before the lock is held).
    fn pin(&self, key: K) -> Result<Pinned<'_>, PoolError> {
        let mut st = self.state.lock();
        if let Some(&frame) = st.map.get(&key) {
            st.hits += 1;
            st.meta[frame.0].referenced = true;
            return Ok(Pinned::Cached(frame, self.pin_frame(frame)));
        }
        st.misses += 1;
        let frame = match st.pop_free(&self.frames) {
            Some(frame) => frame,
            None => st.find_victim(&self.frames).ok_or(PoolError::Exhausted)?,
        };
        if st.meta[frame.0].key.is_some() {
            st.evictions += 1;
        }
        st.detach(frame);
        let pin = self.pin_frame(frame);
        let mut write = self.frames[frame.0]
            .data
            .try_write()
            .expect("an unpinned frame's lock is free (guards unlock before they unpin)");
        write.valid = false;
        st.meta[frame.0] = Meta { key: Some(key), dirty: false, referenced: false, loading: true };
        st.map.insert(key, frame);
        Ok(Pinned::Empty(frame, pin, write))
    }

    /// Runs `load` into a freshly mapped frame. On success the frame becomes
    /// valid; on failure or panic it is unmapped before its lock is released.
    fn fill<'a, E>(
        &'a self,
        frame: FrameId,
        key: K,
        mut write: RwLockWriteGuard<'a, FrameData>,
        load: impl FnOnce(&mut PageBuf) -> Result<(), E>,
    ) -> Result<RwLockWriteGuard<'a, FrameData>, E> {
        let mut abandon = AbandonLoad { pool: self, frame, key, armed: true };
        load(&mut write.buf)?; // `abandon` drops first, then `write`
        abandon.armed = false;
        write.valid = true;
        self.state.lock().meta[frame.0].loading = false;
        Ok(write)
    }

    fn pin_frame(&self, frame: FrameId) -> PinHold<'_> {
        let pins = &self.frames[frame.0].pins;
        // Relaxed: increments happen under the state mutex, which orders them
        // with every evictor's check.
        pins.fetch_add(1, Ordering::Relaxed);
        PinHold { pins }
    }
}

impl<K: Copy + Eq + Hash + fmt::Debug + Send + Sync> fmt::Debug for BufferPool<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BufferPool").field("stats", &self.stats()).finish()
    }
}

/// Unmaps a frame whose load did not finish, unless disarmed. Lives inside
/// [`BufferPool::fill`] so that it also runs if the loader panics.
struct AbandonLoad<'a, K: Copy + Eq + Hash + fmt::Debug + Send + Sync> {
    pool: &'a BufferPool<K>,
    frame: FrameId,
    key: K,
    armed: bool,
}

impl<K: Copy + Eq + Hash + fmt::Debug + Send + Sync> Drop for AbandonLoad<'_, K> {
    fn drop(&mut self) {
        if !self.armed {
            return;
        }
        let mut st = self.pool.state.lock();
        st.meta[self.frame.0].loading = false;
        // A concurrent `rekey` onto this key may have detached the frame.
        if st.meta[self.frame.0].key == Some(self.key) {
            st.detach(self.frame);
        }
    }
}

/// One pin on a frame, released on drop. Guards declare it after their lock
/// guard so that the lock is released first (the evictor relies on it).
struct PinHold<'a> {
    pins: &'a AtomicUsize,
}

impl Drop for PinHold<'_> {
    fn drop(&mut self) {
        // Release: the frame lock's release happens before an evictor's
        // Acquire load sees the count reach zero.
        self.pins.fetch_sub(1, Ordering::Release);
    }
}

/// Shared, pinned access to a cached page. The frame cannot be evicted or
/// reused while this exists; dropping it unlocks and unpins.
///
/// Neither `Send` nor `Sync`: a guard is used on the thread that took it.
///
/// ```compile_fail
/// fn assert_send<T: Send>() {}
/// assert_send::<asadb_bufferpool::PageRef<'static, u32>>();
/// ```
pub struct PageRef<'a, K> {
    // Field order is drop order: unlock, then unpin.
    guard: RwLockReadGuard<'a, FrameData>,
    _pin: PinHold<'a>,
    key: K,
    _not_send: PhantomData<*const ()>,
}

impl<K: Copy> PageRef<'_, K> {
    /// The key this guard was obtained under.
    pub fn key(&self) -> K {
        self.key
    }
}

impl<K> Deref for PageRef<'_, K> {
    type Target = PageBuf;
    fn deref(&self) -> &PageBuf {
        &self.guard.buf
    }
}

impl<K: fmt::Debug> fmt::Debug for PageRef<'_, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PageRef").field("key", &self.key).finish_non_exhaustive()
    }
}

/// Exclusive, pinned access to a cached page. Same pinning and thread rules
/// as [`PageRef`].
///
/// ```compile_fail
/// fn assert_send<T: Send>() {}
/// assert_send::<asadb_bufferpool::PageMut<'static, u32>>();
/// ```
pub struct PageMut<'a, K> {
    // Field order is drop order: unlock, then unpin.
    guard: RwLockWriteGuard<'a, FrameData>,
    _pin: PinHold<'a>,
    key: K,
    _not_send: PhantomData<*const ()>,
}

impl<K: Copy> PageMut<'_, K> {
    /// The key this guard was obtained under.
    pub fn key(&self) -> K {
        self.key
    }
}

impl<K> Deref for PageMut<'_, K> {
    type Target = PageBuf;
    fn deref(&self) -> &PageBuf {
        &self.guard.buf
    }
}

impl<K> DerefMut for PageMut<'_, K> {
    fn deref_mut(&mut self) -> &mut PageBuf {
        &mut self.guard.buf
    }
}

impl<K: fmt::Debug> fmt::Debug for PageMut<'_, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PageMut").field("key", &self.key).finish_non_exhaustive()
    }
}
