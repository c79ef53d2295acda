//! Conformance suite of the `RowStore` seam, run against every
//! implementation (`MemTxn` and `BtreeStore`): random operations on tables
//! and indexes are mirrored in a `BTreeMap` model, and every read (get,
//! max_rowid, scans over random ranges in both directions, index prefix and
//! range scans, unique lookups) must agree with the model; savepoint
//! rollbacks must restore the model's state at the savepoint.

use std::collections::BTreeMap;
use std::ops::Bound;

use asadb_sql::Value;
use asadb_sql::catalog::{ColumnDef, IndexDef, TableDef};
use asadb_sql::exec::vals::{Affinity, Collation};
use asadb_sql::storage::{BtreeStore, KeyRange, MemStore, RowStore, TreeKind, Tx, cmp_key};
use proptest::prelude::*;

fn table(root: u32) -> TableDef {
    let mut c = ColumnDef::new("a", None);
    c.affinity = Affinity::Blob;
    c.collation = Collation::Binary;
    TableDef::new("t", root, vec![c])
}

fn index(root: u32) -> IndexDef {
    IndexDef::on_columns("i", "t", root, vec![0, 0])
}

#[derive(Clone, Debug)]
enum Op {
    Insert(i64, i64),
    Delete(i64),
    IndexInsert(i64, i64, i64),
    IndexDelete(i64, i64, i64),
    Savepoint,
    RollbackTo,
    Release,
    ScanRows(Option<i64>, Option<i64>, bool),
    ScanIndex(Option<i64>, Option<i64>),
}

fn op() -> impl Strategy<Value = Op> {
    let k = -50i64..50;
    prop_oneof![
        4 => (k.clone(), any::<i64>()).prop_map(|(r, v)| Op::Insert(r, v)),
        2 => k.clone().prop_map(Op::Delete),
        4 => (0i64..5, 0i64..5, k.clone()).prop_map(|(a, b, r)| Op::IndexInsert(a, b, r)),
        2 => (0i64..5, 0i64..5, k.clone()).prop_map(|(a, b, r)| Op::IndexDelete(a, b, r)),
        1 => Just(Op::Savepoint),
        1 => Just(Op::RollbackTo),
        1 => Just(Op::Release),
        2 => (proptest::option::of(k.clone()), proptest::option::of(k.clone()), any::<bool>())
            .prop_map(|(a, b, r)| Op::ScanRows(a, b, r)),
        2 => (proptest::option::of(0i64..5), proptest::option::of(0i64..5))
            .prop_map(|(a, b)| Op::ScanIndex(a, b)),
    ]
}

#[derive(Clone, Default)]
struct Model {
    rows: BTreeMap<i64, i64>,
    entries: BTreeMap<(i64, i64, i64), ()>,
}

fn run(store: &dyn RowStore, ops: &[Op]) {
    let t = table(store.create_tree(TreeKind::Table).unwrap());
    let ix = index(store.create_tree(TreeKind::Index).unwrap());
    let mut m = Model::default();
    let mut sps: Vec<(u64, Model)> = Vec::new();
    for o in ops {
        match o {
            Op::Insert(r, v) => {
                store.insert(&t, *r, &[Value::Integer(*v)]).unwrap();
                m.rows.insert(*r, *v);
            }
            Op::Delete(r) => {
                store.delete(&t, *r).unwrap();
                m.rows.remove(r);
            }
            Op::IndexInsert(a, b, r) => {
                store.index_insert(&ix, &[Value::Integer(*a), Value::Integer(*b)], *r).unwrap();
                m.entries.insert((*a, *b, *r), ());
            }
            Op::IndexDelete(a, b, r) => {
                store.index_delete(&ix, &[Value::Integer(*a), Value::Integer(*b)], *r).unwrap();
                m.entries.remove(&(*a, *b, *r));
            }
            Op::Savepoint => sps.push((store.savepoint().unwrap(), m.clone())),
            Op::RollbackTo => {
                if let Some((id, saved)) = sps.last() {
                    store.rollback_to(*id).unwrap();
                    m = saved.clone();
                }
            }
            Op::Release => {
                if let Some((id, _)) = sps.pop() {
                    store.release(id).unwrap();
                }
            }
            Op::ScanRows(lo, hi, rev) => {
                let lo_b = lo.map_or(Bound::Unbounded, Bound::Included);
                let hi_b = hi.map_or(Bound::Unbounded, Bound::Excluded);
                let mut c = store.scan(&t, (lo_b, hi_b), *rev).unwrap();
                let mut got = Vec::new();
                while let Some((r, row)) = c.next().unwrap() {
                    got.push((r, row));
                }
                let mut want: Vec<(i64, Vec<Value>)> = m
                    .rows
                    .iter()
                    .filter(|(r, _)| lo.is_none_or(|l| **r >= l) && hi.is_none_or(|h| **r < h))
                    .map(|(r, v)| (*r, vec![Value::Integer(*v)]))
                    .collect();
                if *rev {
                    want.reverse();
                }
                assert_eq!(got, want, "scan {lo:?}..{hi:?} rev={rev}");
            }
            Op::ScanIndex(lo, hi) => {
                let range = KeyRange {
                    start: lo
                        .map_or(Bound::Unbounded, |l| Bound::Included(vec![Value::Integer(l)])),
                    end: hi.map_or(Bound::Unbounded, |h| Bound::Excluded(vec![Value::Integer(h)])),
                };
                let mut c = store.scan_index(&ix, range, false).unwrap();
                let mut got = Vec::new();
                while let Some((k, r)) = c.next().unwrap() {
                    got.push((k, r));
                }
                let want: Vec<(Vec<Value>, i64)> = m
                    .entries
                    .keys()
                    .filter(|(a, _, _)| lo.is_none_or(|l| *a >= l) && hi.is_none_or(|h| *a < h))
                    .map(|(a, b, r)| (vec![Value::Integer(*a), Value::Integer(*b)], *r))
                    .collect();
                assert_eq!(got.len(), want.len(), "index scan {lo:?}..{hi:?}");
                for (g, w) in got.iter().zip(&want) {
                    assert_eq!(cmp_key(&g.0, &w.0), std::cmp::Ordering::Equal);
                    assert_eq!(g.1, w.1);
                }
            }
        }
        // Point reads after every step.
        assert_eq!(store.max_rowid(&t).unwrap(), m.rows.keys().next_back().copied());
        for r in [-50, -1, 0, 7, 49] {
            assert_eq!(
                store.get(&t, r).unwrap(),
                m.rows.get(&r).map(|v| vec![Value::Integer(*v)]),
                "get {r}"
            );
        }
        for (a, b) in [(0, 0), (1, 2), (4, 4)] {
            let want = m.entries.keys().find(|(x, y, _)| *x == a && *y == b).map(|e| e.2);
            let got = store.index_lookup(&ix, &[Value::Integer(a), Value::Integer(b)]).unwrap();
            assert_eq!(got.is_some(), want.is_some(), "lookup ({a}, {b})");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn memstore_conforms(ops in proptest::collection::vec(op(), 1..120)) {
        let s = MemStore::new();
        let t = s.begin(true).unwrap();
        run(&t, &ops);
    }

    #[test]
    fn btree_store_conforms(ops in proptest::collection::vec(op(), 1..120)) {
        let db = asadb_txn::Db::memory(asadb_txn::Options::default()).unwrap();
        let store = BtreeStore::new(Tx::Write(db.begin_write().unwrap()));
        run(&store, &ops);
    }
}
