//! B+trees against a reference model: random sequences of inserts,
//! replaces, deletes, point reads and cursor walks on a `Table` (vs a
//! `BTreeMap<i64, Vec<u8>>`) and an `Index` (vs a `BTreeSet<Vec<u8>>`).
//!
//! Invariants pinned after every sequence: every read agrees with the model,
//! `check` passes, and the pages the tree uses are exactly the pages
//! allocated and not freed (no leak, no page used twice). Payloads include
//! sizes that need overflow chains, and the deterministic tests grow trees
//! to three and more levels.

use std::collections::{BTreeMap, BTreeSet};

use asadb_pager::PageId;
use asadb_sql::btree::testing::MemPages;
use asadb_sql::btree::{Index, PageUsage, Table, TreeStats};
use proptest::prelude::*;

/// Payload of `len` bytes that differs per (rowid, version).
fn payload(rowid: i64, version: u32, len: usize) -> Vec<u8> {
    let seed = (rowid as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ u64::from(version);
    (0..len).map(|i| (seed.wrapping_add(i as u64 * 31) >> 3) as u8).collect()
}

fn check_table(mem: &MemPages, table: Table, model: &BTreeMap<i64, Vec<u8>>) -> TreeStats {
    let mut usage = PageUsage::new();
    let stats = table.check(mem, &mut usage).expect("check");
    assert_eq!(stats.entries, model.len() as u64);
    let used: BTreeSet<PageId> = usage.pages().collect();
    assert_eq!(used, mem.live_pages(), "used pages must be exactly the live pages");

    // Forward and backward walks see exactly the model.
    let mut c = table.cursor(mem);
    let mut seen = Vec::new();
    let mut ok = c.first().unwrap();
    while ok {
        seen.push((c.rowid(), c.payload().unwrap()));
        ok = c.next().unwrap();
    }
    assert!(!c.is_valid());
    let expect: Vec<(i64, Vec<u8>)> = model.iter().map(|(k, v)| (*k, v.clone())).collect();
    assert!(seen == expect, "forward walk differs from the model");
    let mut back = Vec::new();
    let mut ok = c.last().unwrap();
    while ok {
        back.push(c.rowid());
        ok = c.prev().unwrap();
    }
    back.reverse();
    assert_eq!(back, model.keys().copied().collect::<Vec<_>>());
    assert_eq!(table.max_rowid(mem).unwrap(), model.keys().next_back().copied());
    stats
}

fn check_index(mem: &MemPages, index: Index, model: &BTreeSet<Vec<u8>>) -> TreeStats {
    let mut usage = PageUsage::new();
    let stats = index.check(mem, &mut usage).expect("check");
    assert_eq!(stats.entries, model.len() as u64);
    let used: BTreeSet<PageId> = usage.pages().collect();
    assert_eq!(used, mem.live_pages(), "used pages must be exactly the live pages");
    let mut c = index.cursor(mem);
    let mut seen = Vec::new();
    let mut ok = c.first().unwrap();
    while ok {
        seen.push(c.key().to_vec());
        ok = c.next().unwrap();
    }
    assert!(seen == model.iter().cloned().collect::<Vec<_>>(), "walk differs from the model");
    let mut n = 0;
    let mut ok = c.last().unwrap();
    while ok {
        n += 1;
        ok = c.prev().unwrap();
    }
    assert_eq!(n, model.len());
    stats
}

#[derive(Clone, Debug)]
enum TableOp {
    Insert(i64, usize),
    InsertNew(i64, usize),
    /// Through the append hint (`replace` or not).
    Hinted(i64, usize, bool),
    /// Through the append hint, a key above every key (the fast path).
    Append(usize),
    Delete(i64),
    Get(i64),
    Seek(i64),
    SeekLe(i64),
}

fn payload_len() -> impl Strategy<Value = usize> {
    prop_oneof![
        6 => 0usize..60,
        2 => 60usize..400,
        1 => 900usize..1100,
        1 => 1100usize..9000,
    ]
}

fn table_op() -> impl Strategy<Value = TableOp> {
    let key = prop_oneof![4 => -50i64..400, 1 => any::<i64>()];
    prop_oneof![
        6 => (key.clone(), payload_len()).prop_map(|(k, l)| TableOp::Insert(k, l)),
        1 => (key.clone(), payload_len()).prop_map(|(k, l)| TableOp::InsertNew(k, l)),
        3 => (key.clone(), payload_len(), any::<bool>())
            .prop_map(|(k, l, r)| TableOp::Hinted(k, l, r)),
        6 => payload_len().prop_map(TableOp::Append),
        4 => key.clone().prop_map(TableOp::Delete),
        1 => key.clone().prop_map(TableOp::Get),
        1 => key.clone().prop_map(TableOp::Seek),
        1 => key.prop_map(TableOp::SeekLe),
    ]
}

fn run_table(ops: &[TableOp]) {
    let mem = MemPages::new(1 << 14);
    let table = Table::create(&mem).unwrap();
    let mut model = BTreeMap::new();
    // The append hint; cleared after every change not made through it, as
    // `Table::insert_hinted` requires.
    let mut hint = None;
    for (version, op) in ops.iter().enumerate() {
        match *op {
            TableOp::Insert(k, len) => {
                hint = None;
                let p = payload(k, version as u32, len);
                let replaced = table.insert(&mem, k, &p).unwrap();
                assert_eq!(replaced, model.insert(k, p).is_some());
            }
            TableOp::InsertNew(k, len) => {
                hint = None;
                let p = payload(k, version as u32, len);
                let inserted = table.insert_new(&mem, k, &p).unwrap();
                assert_eq!(inserted, !model.contains_key(&k));
                model.entry(k).or_insert(p);
            }
            TableOp::Hinted(k, len, replace) => {
                let p = payload(k, version as u32, len);
                let changed = table.insert_hinted(&mem, k, &p, replace, &mut hint).unwrap();
                let present = model.contains_key(&k);
                assert_eq!(changed, replace || !present);
                if replace || !present {
                    model.insert(k, p);
                }
            }
            TableOp::Append(len) => {
                let k = model.keys().next_back().map_or(0, |m: &i64| m.saturating_add(1));
                let p = payload(k, version as u32, len);
                let changed = table.insert_hinted(&mem, k, &p, false, &mut hint).unwrap();
                assert_eq!(changed, !model.contains_key(&k));
                model.entry(k).or_insert(p);
            }
            TableOp::Delete(k) => {
                hint = None;
                assert_eq!(table.delete(&mem, k).unwrap(), model.remove(&k).is_some());
            }
            TableOp::Get(k) => assert_eq!(table.get(&mem, k).unwrap(), model.get(&k).cloned()),
            TableOp::Seek(k) => {
                let mut c = table.cursor(&mem);
                let found = c.seek(k).unwrap();
                let expect = model.range(k..).next();
                assert_eq!(found, expect.is_some());
                if let Some((rk, rv)) = expect {
                    assert_eq!(c.rowid(), *rk);
                    assert!(c.payload().unwrap() == *rv);
                    // Stepping from a sought position continues in order.
                    let after = model.range(k..).nth(1).map(|(k, _)| *k);
                    assert_eq!(c.next().unwrap(), after.is_some());
                    if let Some(a) = after {
                        assert_eq!(c.rowid(), a);
                    }
                }
            }
            TableOp::SeekLe(k) => {
                let mut c = table.cursor(&mem);
                let found = c.seek_le(k).unwrap();
                let expect = model.range(..=k).next_back().map(|(k, _)| *k);
                assert_eq!(found, expect.is_some());
                if let Some(rk) = expect {
                    assert_eq!(c.rowid(), rk);
                }
            }
        }
    }
    check_table(&mem, table, &model);
}

#[derive(Clone, Debug)]
enum IndexOp {
    Insert(Vec<u8>),
    Delete(Vec<u8>),
    Contains(Vec<u8>),
    Seek(Vec<u8>),
}

/// Keys that share long prefixes (long separators, deep trees, separators
/// on overflow pages) and sometimes are long enough to spill.
fn index_key() -> impl Strategy<Value = Vec<u8>> {
    (0usize..5, prop_oneof![4 => 0usize..40, 1 => 800usize..1500, 1 => 1500usize..6000], 0u16..300)
        .prop_map(|(prefix, len, n)| {
            // A 2500-byte shared prefix makes separators that spill too.
            let mut k = vec![b'p'; [0, 3, 200, 900, 2500][prefix]];
            k.extend_from_slice(&n.to_be_bytes());
            k.extend((0..len).map(|i| (i as u8).wrapping_mul(n as u8)));
            k
        })
}

fn index_op() -> impl Strategy<Value = IndexOp> {
    prop_oneof![
        6 => index_key().prop_map(IndexOp::Insert),
        4 => index_key().prop_map(IndexOp::Delete),
        1 => index_key().prop_map(IndexOp::Contains),
        1 => index_key().prop_map(IndexOp::Seek),
    ]
}

fn run_index(ops: &[IndexOp]) {
    let mem = MemPages::new(1 << 14);
    let index = Index::create(&mem).unwrap();
    let mut model = BTreeSet::new();
    for op in ops {
        match op {
            IndexOp::Insert(k) => {
                assert_eq!(index.insert(&mem, k).unwrap(), model.insert(k.clone()))
            }
            IndexOp::Delete(k) => assert_eq!(index.delete(&mem, k).unwrap(), model.remove(k)),
            IndexOp::Contains(k) => assert_eq!(index.contains(&mem, k).unwrap(), model.contains(k)),
            IndexOp::Seek(k) => {
                let mut c = index.cursor(&mem);
                let expect = model.range(k.clone()..).next();
                assert_eq!(c.seek(k).unwrap(), expect.is_some());
                if let Some(e) = expect {
                    assert!(c.key() == e.as_slice());
                }
            }
        }
    }
    check_index(&mem, index, &model);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn table_matches_model(ops in prop::collection::vec(table_op(), 1..600)) {
        run_table(&ops);
    }

    #[test]
    fn index_matches_model(ops in prop::collection::vec(index_op(), 1..400)) {
        run_index(&ops);
    }
}

/// A simple deterministic generator (xorshift), so big tests are repeatable.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

#[test]
fn hinted_appends_build_the_same_tree_as_plain_inserts() {
    // 20,000 ascending rows with rows that need overflow pages mixed in,
    // and an out-of-order insert now and then (which drops the hint).
    let mem = MemPages::new(1 << 16);
    let table = Table::create(&mem).unwrap();
    let mut model = BTreeMap::new();
    let mut hint = None;
    let mut rng = Rng(0x5eed);
    for i in 0..20_000i64 {
        let len = if i % 97 == 0 { 3000 } else { 20 + rng.below(80) as usize };
        let k = if i % 501 == 0 { -i } else { i };
        let p = payload(k, 0, len);
        assert!(table.insert_hinted(&mem, k, &p, false, &mut hint).unwrap());
        model.insert(k, p);
    }
    assert!(hint.is_some(), "ending on an append keeps the hint");
    let stats = check_table(&mem, table, &model);
    assert!(stats.depth >= 3, "{stats:?}");
}

#[test]
fn deep_table_random_inserts_then_deletes() {
    let mem = MemPages::new(1 << 16);
    let table = Table::create(&mem).unwrap();
    let mut model = BTreeMap::new();
    let mut rng = Rng(0x1234_5678);
    for v in 0..12_000u32 {
        let k = rng.below(1_000_000) as i64 - 500_000;
        let len = if rng.below(20) == 0 { 1500 + rng.below(5000) as usize } else { 200 };
        let p = payload(k, v, len);
        table.insert(&mem, k, &p).unwrap();
        model.insert(k, p);
    }
    let stats = check_table(&mem, table, &model);
    assert!(stats.depth >= 3, "expected 3+ levels, got {stats:?}");
    assert!(stats.overflow_pages > 0);

    // Delete in random order, checking now and then.
    let mut keys: Vec<i64> = model.keys().copied().collect();
    for i in (1..keys.len()).rev() {
        keys.swap(i, rng.below(i as u64 + 1) as usize);
    }
    for (n, k) in keys.iter().enumerate() {
        assert!(table.delete(&mem, *k).unwrap());
        model.remove(k);
        if n % 3000 == 0 {
            check_table(&mem, table, &model);
        }
    }
    let stats = check_table(&mem, table, &model);
    assert_eq!(stats.depth, 1);
    assert_eq!(mem.live_pages(), BTreeSet::from([table.root()]), "only the root is left");
}

#[test]
fn deep_index_with_long_keys() {
    let mem = MemPages::new(1 << 16);
    let index = Index::create(&mem).unwrap();
    let mut model = BTreeSet::new();
    let mut rng = Rng(0xdead_beef);
    for _ in 0..6000 {
        // 300-byte shared prefixes make 300-byte separators: fan-out ~12.
        let mut k = vec![b'x'; 300];
        k.extend_from_slice(&rng.below(1 << 40).to_be_bytes());
        if rng.below(30) == 0 {
            k.extend(std::iter::repeat_n(7u8, 3000));
        }
        assert_eq!(index.insert(&mem, &k).unwrap(), model.insert(k));
    }
    let stats = check_index(&mem, index, &model);
    assert!(stats.depth >= 3, "expected 3+ levels, got {stats:?}");
    let keys: Vec<Vec<u8>> = model.iter().cloned().collect();
    for (n, k) in keys.iter().enumerate() {
        if n % 2 == 0 {
            assert!(index.delete(&mem, k).unwrap());
            model.remove(k);
        }
    }
    check_index(&mem, index, &model);
    for k in &keys {
        index.delete(&mem, k).unwrap();
    }
    assert_eq!(mem.live_pages(), BTreeSet::from([index.root()]));
}

#[test]
fn separators_that_spill_to_overflow_pages() {
    let mem = MemPages::new(1 << 14);
    let index = Index::create(&mem).unwrap();
    let mut model = BTreeSet::new();
    let mut rng = Rng(0x0123_4567);
    for _ in 0..1500 {
        let mut k = vec![b's'; 1800];
        k.extend_from_slice(&rng.below(1 << 30).to_be_bytes());
        k.extend(std::iter::repeat_n(b't', rng.below(100) as usize));
        assert_eq!(index.insert(&mem, &k).unwrap(), model.insert(k));
    }
    let stats = check_index(&mem, index, &model);
    assert!(stats.depth >= 3, "{stats:?}");
    // Every key spills, and so does every separator (1800+ bytes).
    assert!(stats.overflow_pages as usize > model.len() + stats.leaves as usize / 2, "{stats:?}");
    let keys: Vec<Vec<u8>> = model.iter().cloned().collect();
    for (n, k) in keys.iter().enumerate() {
        assert!(index.delete(&mem, k).unwrap());
        model.remove(k);
        if n % 300 == 0 {
            check_index(&mem, index, &model);
        }
    }
    assert_eq!(mem.live_pages(), BTreeSet::from([index.root()]));
}

#[test]
fn ascending_inserts_fill_leaves() {
    let mem = MemPages::new(1 << 14);
    let table = Table::create(&mem).unwrap();
    let mut model = BTreeMap::new();
    for k in 1..=50_000i64 {
        let p = payload(k, 0, 30);
        table.insert(&mem, k, &p).unwrap();
        model.insert(k, p);
    }
    let stats = check_table(&mem, table, &model);
    assert!(stats.leaf_fill() > 0.9, "leaf fill {:.3} ({stats:?})", stats.leaf_fill());

    let index = Index::create(&mem).unwrap();
    for k in 0..20_000u32 {
        index.insert(&mem, format!("key-{k:08}").as_bytes()).unwrap();
    }
    let mut usage = PageUsage::new();
    let istats = index.check(&mem, &mut usage).unwrap();
    assert!(istats.leaf_fill() > 0.9, "index leaf fill {:.3}", istats.leaf_fill());
}

#[test]
fn delete_everything_frees_all_but_root() {
    let mem = MemPages::new(1 << 14);
    let table = Table::create(&mem).unwrap();
    for k in 0..20_000i64 {
        table.insert(&mem, k, &payload(k, 1, if k % 97 == 0 { 5000 } else { 40 })).unwrap();
    }
    assert!(mem.live_pages().len() > 100);
    for k in 0..20_000i64 {
        assert!(table.delete(&mem, k).unwrap());
    }
    assert_eq!(mem.live_pages(), BTreeSet::from([table.root()]));
    check_table(&mem, table, &BTreeMap::new());
}

#[test]
fn clear_and_destroy_free_pages() {
    let mem = MemPages::new(1 << 14);
    let table = Table::create(&mem).unwrap();
    let index = Index::create(&mem).unwrap();
    for k in 0..5000i64 {
        table.insert(&mem, k, &payload(k, 2, if k % 50 == 0 { 3000 } else { 100 })).unwrap();
        index.insert(&mem, &k.to_be_bytes()).unwrap();
    }
    table.clear(&mem).unwrap();
    assert!(table.get(&mem, 10).unwrap().is_none());
    assert_eq!(
        mem.live_pages().len(),
        1 + index_pages(&mem, index),
        "only the roots and the index remain"
    );
    // The cleared table is usable again.
    table.insert(&mem, 7, b"again").unwrap();
    assert_eq!(table.get(&mem, 7).unwrap().as_deref(), Some(&b"again"[..]));
    let root = table.root();
    table.destroy(&mem).unwrap();
    index.destroy(&mem).unwrap();
    assert!(mem.live_pages().is_empty());
    assert!(Table::open(root).get(&mem, 7).is_err(), "a destroyed root is gone");
}

fn index_pages(mem: &MemPages, index: Index) -> usize {
    let mut usage = PageUsage::new();
    index.check(mem, &mut usage).unwrap();
    usage.len()
}

#[test]
fn two_trees_share_the_page_space_and_usage_catches_double_use() {
    let mem = MemPages::new(1 << 12);
    let a = Table::create(&mem).unwrap();
    let b = Table::create(&mem).unwrap();
    for k in 0..2000 {
        a.insert(&mem, k, &[1; 50]).unwrap();
        b.insert(&mem, -k, &[2; 50]).unwrap();
    }
    let mut usage = PageUsage::new();
    a.check(&mem, &mut usage).unwrap();
    b.check(&mem, &mut usage).unwrap();
    assert_eq!(usage.pages().collect::<BTreeSet<_>>(), mem.live_pages());
    // Checking a tree twice into one ledger is a double use.
    assert!(matches!(a.check(&mem, &mut usage), Err(asadb_sql::Error::Corrupt(_))));
}

#[test]
fn cursor_on_empty_tree_and_values() {
    let mem = MemPages::new(64);
    let table = Table::create(&mem).unwrap();
    let mut c = table.cursor(&mem);
    assert!(!c.first().unwrap());
    assert!(!c.last().unwrap());
    assert!(!c.seek(0).unwrap());
    assert!(!c.next().unwrap());
    assert!(matches!(c.payload(), Err(asadb_sql::Error::InvalidInput(_))));
    use asadb_sql::Value;
    let row = asadb_sql::record::encode_to_vec(&[Value::Integer(5), Value::Text("x".into())]);
    table.insert(&mem, 1, &row).unwrap();
    let mut c = table.cursor(&mem);
    assert!(c.first().unwrap());
    let vals = c.values().unwrap();
    assert!(matches!(vals.as_slice(), [Value::Integer(5), Value::Text(s)] if s == "x"));
}

#[test]
fn prefix_seeks_and_estimates() {
    let mem = MemPages::new(1 << 12);
    let index = Index::create(&mem).unwrap();
    let mut model = BTreeSet::new();
    for a in 0u8..40 {
        for b in [0u8, 1, 0xfe, 0xff] {
            for c in 0u8..30 {
                let k = vec![a, b, c];
                index.insert(&mem, &k).unwrap();
                model.insert(k);
            }
        }
    }
    let mut c = index.cursor(&mem);
    for prefix in
        [vec![], vec![5], vec![5, 0xff], vec![5, 0xfe], vec![39, 0xff], vec![0xff], vec![7, 1, 3]]
    {
        // First key past the prefix.
        let expect =
            model.iter().find(|k| k.as_slice() > prefix.as_slice() && !k.starts_with(&prefix));
        assert_eq!(c.seek_past_prefix(&prefix).unwrap(), expect.is_some(), "{prefix:?}");
        if let Some(e) = expect {
            assert_eq!(c.key(), e.as_slice());
        }
        // Last key <= prefix or with the prefix.
        let expect = model
            .iter()
            .rev()
            .find(|k| k.as_slice() <= prefix.as_slice() || k.starts_with(&prefix));
        assert_eq!(c.seek_le_prefix(&prefix).unwrap(), expect.is_some(), "{prefix:?}");
        if let Some(e) = expect {
            assert_eq!(c.key(), e.as_slice());
        }
    }
    let est = index.estimate_entries(&mem).unwrap() as f64;
    let n = model.len() as f64;
    assert!(est > n / 3.0 && est < n * 3.0, "estimate {est} for {n}");

    let table = Table::create(&mem).unwrap();
    assert_eq!(table.estimate_rows(&mem).unwrap(), 0);
    for k in 0..10 {
        table.insert(&mem, k, b"x").unwrap();
    }
    assert_eq!(table.estimate_rows(&mem).unwrap(), 10, "exact within one leaf");
    for k in 10..30_000 {
        table.insert(&mem, k, b"0123456789").unwrap();
    }
    let est = table.estimate_rows(&mem).unwrap() as f64;
    assert!(est > 10_000.0 && est < 90_000.0, "estimate {est} for 30000");
}

#[test]
fn advance_passes_whole_leaves_and_lands_where_stepping_would() {
    // Three levels, some rows on overflow pages, gaps in the rowids.
    let mem = MemPages::new(1 << 16);
    let table = Table::create(&mem).unwrap();
    let mut keys = Vec::new();
    for i in 0..20_000i64 {
        let k = i * 3 + (i % 7);
        let len = if i % 211 == 0 { 3000 } else { 30 };
        table.insert(&mem, k, &payload(k, 0, len)).unwrap();
        keys.push(k);
    }
    keys.sort();
    keys.dedup();
    let total = keys.len();
    let mut rng = Rng(42);
    for _ in 0..300 {
        let start = rng.below(total as u64) as usize;
        let n = match rng.below(3) {
            0 => rng.below(10) as usize,
            1 => rng.below(2000) as usize,
            _ => rng.below(total as u64 + 50) as usize,
        };
        let forward = rng.below(2) == 0;
        let mut c = table.cursor(&mem);
        assert!(c.seek(keys[start]).unwrap());
        let got = c.advance(n, forward).unwrap();
        let room = if forward { total - 1 - start } else { start };
        if n <= room {
            assert_eq!(got, n);
            let at = if forward { start + n } else { start - n };
            assert!(c.is_valid());
            assert_eq!(c.rowid(), keys[at], "from {start} by {n} forward={forward}");
        } else {
            assert_eq!(got, room, "from {start} by {n} forward={forward}");
            assert!(!c.is_valid());
        }
    }
}
