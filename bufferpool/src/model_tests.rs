//! proptest: random operation sequences against a model of the pool.
//!
//! The model knows which keys are cached, which frame ("entry") each key
//! reaches, each entry's bytes, dirty flag and pin count, and the entries
//! that `rekey` detached while pinned. Eviction order is the pool's choice,
//! so the model learns evictions by asking `contains` after every operation
//! and checks that each one was allowed: only during a miss, at most one per
//! miss, never a pinned or dirty entry. Everything else is predicted exactly:
//! hit or miss, `Exhausted` or not, every return value, the bytes under every
//! guard still held, and the counters in `stats`.

use std::cell::Cell;
use std::collections::HashMap;

use asadb_pager::{PAGE_SIZE, PageBuf};
use proptest::prelude::*;

use crate::{BufferPool, PageRef, PoolError};

const KEYS: u8 = 8;

#[derive(Debug, Clone)]
enum Op {
    Get(u8),
    GetFailing(u8),
    Write(u8),
    Drop(usize),
    SetDirty(u8, bool),
    Rekey(u8, u8),
    Remove(u8),
    RemoveWhere(u8),
}

fn op() -> impl Strategy<Value = Op> {
    let key = 0..KEYS;
    prop_oneof![
        5 => key.clone().prop_map(Op::Get),
        1 => key.clone().prop_map(Op::GetFailing),
        2 => key.clone().prop_map(Op::Write),
        4 => any::<usize>().prop_map(Op::Drop),
        2 => (key.clone(), any::<bool>()).prop_map(|(k, d)| Op::SetDirty(k, d)),
        1 => (key.clone(), key.clone()).prop_map(|(a, b)| Op::Rekey(a, b)),
        1 => key.prop_map(Op::Remove),
        1 => (1..4u8).prop_map(Op::RemoveWhere),
    ]
}

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

#[derive(Debug)]
struct Entry {
    value: u64,
    dirty: bool,
    pins: usize,
}

#[derive(Debug, Default)]
struct Model {
    capacity: usize,
    keys: HashMap<u8, usize>,
    entries: HashMap<usize, Entry>,
    next_entry: usize,
    hits: u64,
    misses: u64,
    evictions: u64,
}

impl Model {
    fn entry(&mut self, key: u8) -> Option<&mut Entry> {
        let id = *self.keys.get(&key)?;
        self.entries.get_mut(&id)
    }

    /// Frames in use: cached keys plus detached frames still pinned.
    fn used(&self) -> usize {
        self.entries.len()
    }

    fn evictable(&self) -> usize {
        self.keys
            .values()
            .filter(|id| self.entries[id].pins == 0 && !self.entries[id].dirty)
            .count()
    }

    fn expect_exhausted(&self) -> bool {
        self.used() == self.capacity && self.evictable() == 0
    }

    /// Removes `key`'s entry as `remove`/`rekey` do: gone if unpinned,
    /// otherwise detached until its last guard drops.
    fn detach(&mut self, key: u8) {
        if let Some(id) = self.keys.remove(&key) {
            let entry = self.entries.get_mut(&id).unwrap();
            entry.dirty = false;
            if entry.pins == 0 {
                self.entries.remove(&id);
            }
        }
    }

    fn insert(&mut self, key: u8, value: u64) -> usize {
        let id = self.next_entry;
        self.next_entry += 1;
        self.entries.insert(id, Entry { value, dirty: false, pins: 0 });
        self.keys.insert(key, id);
        id
    }
}

fn stamp(buf: &mut PageBuf, value: u64) {
    buf[..8].copy_from_slice(&value.to_le_bytes());
    buf[PAGE_SIZE - 8..].copy_from_slice(&value.to_le_bytes());
}

fn read(buf: &PageBuf) -> u64 {
    let head = u64::from_le_bytes(buf[..8].try_into().unwrap());
    let tail = u64::from_le_bytes(buf[buf.len() - 8..].try_into().unwrap());
    assert_eq!(head, tail, "torn page");
    head
}

fn run(capacity: usize, ops: Vec<Op>) -> Result<(), TestCaseError> {
    let pool = BufferPool::<u8>::new(capacity);
    let mut model = Model { capacity, ..Model::default() };
    // Guards held across operations, with the model entry each one pins.
    let mut held: Vec<(usize, PageRef<'_, u8>)> = Vec::new();
    let mut counter = 0u64;

    for op in ops {
        // How many keys may disappear during this op (a miss may evict one).
        let mut may_evict = 0;
        match op {
            Op::Get(key) | Op::GetFailing(key) => {
                let failing = matches!(op, Op::GetFailing(_));
                counter += 1;
                let loaded = Cell::new(false);
                let result = pool.get(key, |buf| {
                    loaded.set(true);
                    stamp(buf, counter);
                    if failing { Err(LoadError::Failed) } else { Ok(()) }
                });
                if let Some(id) = model.keys.get(&key).copied() {
                    model.hits += 1;
                    let page = result.expect("hit");
                    prop_assert!(!loaded.get(), "loader ran on a hit");
                    let entry = model.entries.get_mut(&id).unwrap();
                    prop_assert_eq!(read(&page), entry.value);
                    entry.pins += 1;
                    held.push((id, page));
                } else if model.expect_exhausted() {
                    model.misses += 1;
                    prop_assert_eq!(result.err(), Some(LoadError::Pool(PoolError::Exhausted)));
                    prop_assert!(!loaded.get());
                } else {
                    model.misses += 1;
                    may_evict = 1;
                    prop_assert!(loaded.get(), "loader did not run on a miss");
                    if failing {
                        prop_assert_eq!(result.err(), Some(LoadError::Failed));
                    } else {
                        let page = result.expect("miss with room");
                        prop_assert_eq!(read(&page), counter);
                        let id = model.insert(key, counter);
                        model.entries.get_mut(&id).unwrap().pins += 1;
                        held.push((id, page));
                    }
                }
            }
            Op::Write(key) => {
                // A thread must not wait for a write lock on a frame it reads.
                let reading =
                    model.keys.get(&key).is_some_and(|id| held.iter().any(|h| h.0 == *id));
                if reading {
                    continue;
                }
                counter += 1;
                let result = pool.get_mut(key, |buf| {
                    stamp(buf, counter);
                    Ok::<_, LoadError>(())
                });
                let hit = model.keys.contains_key(&key);
                if hit {
                    model.hits += 1;
                } else {
                    model.misses += 1;
                }
                if !hit && model.expect_exhausted() {
                    prop_assert_eq!(result.err(), Some(LoadError::Pool(PoolError::Exhausted)));
                } else {
                    let mut page = result.expect("hit, or miss with room");
                    if !hit {
                        may_evict = 1;
                        prop_assert_eq!(read(&page), counter);
                        model.insert(key, counter);
                    }
                    counter += 1;
                    stamp(&mut page, counter);
                    model.entry(key).unwrap().value = counter;
                }
            }
            Op::Drop(i) => {
                if !held.is_empty() {
                    let (id, page) = held.swap_remove(i % held.len());
                    drop(page);
                    let entry = model.entries.get_mut(&id).unwrap();
                    entry.pins -= 1;
                    let detached = !model.keys.values().any(|k| *k == id);
                    if entry.pins == 0 && detached {
                        model.entries.remove(&id);
                    }
                }
            }
            Op::SetDirty(key, dirty) => {
                let expected = match model.entry(key) {
                    Some(entry) => {
                        entry.dirty = dirty;
                        true
                    }
                    None => false,
                };
                prop_assert_eq!(pool.set_dirty(key, dirty), expected);
            }
            Op::Rekey(from, to) => {
                let expected = model.keys.contains_key(&from);
                if expected && from != to {
                    model.detach(to);
                    let id = model.keys.remove(&from).unwrap();
                    model.keys.insert(to, id);
                }
                prop_assert_eq!(pool.rekey(from, to), expected);
            }
            Op::Remove(key) => {
                let expected = model.entry(key).is_some_and(|e| e.pins == 0);
                if expected {
                    model.detach(key);
                }
                prop_assert_eq!(pool.remove(key), expected);
            }
            Op::RemoveWhere(m) => {
                let victims: Vec<u8> = model
                    .keys
                    .iter()
                    .filter(|(k, id)| *k % m == 0 && model.entries[id].pins == 0)
                    .map(|(k, _)| *k)
                    .collect();
                for key in &victims {
                    model.detach(*key);
                }
                prop_assert_eq!(pool.remove_where(|k| k % m == 0), victims.len());
            }
        }

        // Learn evictions and check they were allowed.
        let gone: Vec<u8> = model.keys.keys().copied().filter(|k| !pool.contains(*k)).collect();
        prop_assert!(gone.len() <= may_evict, "keys vanished outside a miss: {:?}", gone);
        for key in gone {
            let entry = model.entry(key).unwrap();
            prop_assert!(entry.pins == 0 && !entry.dirty, "evicted a pinned or dirty frame");
            model.detach(key);
            model.evictions += 1;
        }
        for key in 0..KEYS {
            prop_assert_eq!(pool.contains(key), model.keys.contains_key(&key));
            prop_assert_eq!(pool.is_dirty(key), model.entry(key).is_some_and(|e| e.dirty));
        }
        for (id, page) in &held {
            prop_assert_eq!(read(page), model.entries[id].value, "a pinned frame changed");
        }
        let stats = pool.stats();
        prop_assert!(stats.cached <= stats.capacity);
        prop_assert_eq!(stats.cached, model.keys.len());
        prop_assert_eq!(stats.pinned, model.entries.values().filter(|e| e.pins > 0).count());
        prop_assert_eq!(stats.dirty, model.entries.values().filter(|e| e.dirty).count());
        prop_assert_eq!(
            (stats.hits, stats.misses, stats.evictions),
            (model.hits, model.misses, model.evictions)
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn pool_matches_model(capacity in 1usize..5, ops in prop::collection::vec(op(), 1..80)) {
        run(capacity, ops)?;
    }
}
