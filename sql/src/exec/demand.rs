//! Which columns of a plan's rows are read: worked out top-down while the
//! operator tree is built, so a table scan decodes only the columns some
//! operator above it reads (SQLite decodes a row lazily, column by column,
//! up to the last one a statement needs). `SELECT sum(score) FROM t` then
//! decodes one column of each row and allocates no text.
//!
//! The rule: every expression an operator evaluates gets real values for
//! every column it reads — an unread result column is still computed (so
//! an error it raises is still raised), only a value no expression and no
//! consumer reads may be left NULL. A node whose row flow is not modelled
//! here (windows, set operations, recursive CTEs, table-valued functions,
//! a join's side that is not a table scan) demands every column of its
//! inputs, so the analysis is exact where it prunes and harmless elsewhere.

use std::collections::BTreeSet;
use std::ops::Bound;

use super::sort::Refetch;
use crate::catalog::TableDef;
use crate::expr::Expr;
use crate::planner::{Access, AggCall, Node, SortKey};
use crate::storage::ColumnSet;

/// The columns of a node's output rows that are read above it.
#[derive(Clone, Debug)]
pub(super) enum Demand {
    /// Every column (the rows leave the tree, or a consumer not modelled).
    All,
    /// Only these positions.
    Cols(BTreeSet<usize>),
}

impl Demand {
    /// This demand plus the columns `exprs` read.
    fn with<'e>(&self, exprs: impl IntoIterator<Item = &'e Expr>) -> Demand {
        match self {
            Demand::All => Demand::All,
            Demand::Cols(c) => {
                let mut c = c.clone();
                for e in exprs {
                    c.extend(e.columns());
                }
                Demand::Cols(c)
            }
        }
    }

    /// Only the columns `exprs` read.
    fn of<'e>(exprs: impl IntoIterator<Item = &'e Expr>) -> Demand {
        Demand::Cols(BTreeSet::new()).with(exprs)
    }

    /// What a node's input must supply for the node's demand `self`, or
    /// `None` for a node that demands every column of its inputs.
    pub(super) fn input_of(&self, node: &Node) -> Option<Demand> {
        Some(match node {
            Node::Widen { offset, .. } => match self {
                Demand::All => Demand::All,
                Demand::Cols(c) => {
                    Demand::Cols(c.iter().filter(|&&i| i >= *offset).map(|&i| i - offset).collect())
                }
            },
            Node::Filter { pred, .. } => self.with([pred]),
            // Every expression is evaluated, read or not.
            Node::Project { exprs, .. } => Demand::of(exprs),
            Node::Sort { keys, .. } => self.with(sort_exprs(keys)),
            Node::Limit { .. } | Node::Guard { .. } => self.clone(),
            Node::Distinct { ncols, .. } => match self {
                Demand::All => Demand::All,
                Demand::Cols(c) => {
                    let mut c = c.clone();
                    c.extend(0..*ncols);
                    Demand::Cols(c)
                }
            },
            Node::Aggregate { keys, aggs, width, .. } => {
                // Output: keys ++ bare row (`width`) ++ aggregates.
                let bare = match self {
                    Demand::All => (0..*width).collect(),
                    Demand::Cols(c) => c
                        .iter()
                        .filter_map(|&i| i.checked_sub(keys.len()).filter(|&j| j < *width))
                        .collect(),
                };
                Demand::Cols(bare).with(keys.iter().chain(aggs.iter().flat_map(agg_exprs)))
            }
            _ => return None,
        })
    }

    /// The positions of `self` that fall in a relation placed at `offset`
    /// of a wide row, as that relation's own positions.
    fn shifted(&self, offset: usize) -> Demand {
        match self {
            Demand::All => Demand::All,
            Demand::Cols(c) => Demand::Cols(c.range(offset..).map(|&i| i - offset).collect()),
        }
    }

    /// What a join's two inputs must supply for this demand on its output
    /// rows: the left input's (wide) rows, and the right input's own rows,
    /// which the join places at its offset. A hash or nested-loop join
    /// reads its ON terms on the joined row and its key on each side; an
    /// index nested loop also reads, on the left row, what its right scan's
    /// lookup and filter read as the outer row. A right side that is not a
    /// table scan, or a lookup with a subquery, is given every column.
    pub(super) fn join_inputs(&self, node: &Node) -> (Demand, Demand) {
        match node {
            Node::Join { right, offset, keys, on, .. } => {
                let wide = self.with(on);
                let left = wide.with(keys.iter().map(|k| &k.left));
                let right = match &**right {
                    Node::Scan { .. } => wide.shifted(*offset).with(keys.iter().map(|k| &k.right)),
                    _ => Demand::All,
                };
                (left, right)
            }
            Node::LookupJoin { right, offset, on, .. } => {
                let Node::Scan { access, filter, .. } = &**right else {
                    return (Demand::All, Demand::All);
                };
                let Some(mut exprs) = access_exprs(access) else {
                    return (Demand::All, Demand::All);
                };
                exprs.extend(filter);
                if exprs.iter().any(|e| e.has_subquery()) {
                    return (Demand::All, Demand::All);
                }
                let wide = self.with(on);
                let mut left = wide.clone();
                if let Demand::Cols(c) = &mut left {
                    for e in exprs {
                        e.walk(&mut |e| {
                            if let Expr::Outer { depth: 1, index } = e {
                                c.insert(*index);
                            }
                        });
                    }
                }
                (left, wide.shifted(*offset))
            }
            _ => (Demand::All, Demand::All),
        }
    }

    /// The stored columns a scan of `table` must decode for this demand on
    /// its local rows (columns, then the rowid), its filter included;
    /// `None`: all of them.
    pub(super) fn scan_columns(
        &self,
        table: &TableDef,
        filter: Option<&Expr>,
    ) -> Option<ColumnSet> {
        let Demand::Cols(c) = self.with(filter) else { return None };
        let n = table.columns.len();
        // The rowid and its alias come from the key, never the record.
        let stored = c.into_iter().filter(|&i| i < n && Some(i) != table.rowid_alias);
        let set = ColumnSet::new(stored);
        // Reading every column, the plain full decode is as good.
        (0..n).any(|i| !set.contains(i) && Some(i) != table.rowid_alias).then_some(set)
    }
}

/// A [`Refetch`] for a sort of `input` by `keys` whose output rows are
/// read as `demand` says, when `input` is one table's scan (maybe widened
/// into a join's row) and a scan for the keys alone decodes fewer columns
/// than the rows need: top-N queries then decode whole rows only for the
/// N rows they return.
pub(super) fn refetch(input: &Node, keys: &[SortKey], demand: &Demand) -> Option<Refetch> {
    let (scan, offset, width) = match input {
        Node::Widen { input: scan, offset, width } => (&**scan, *offset, *width),
        scan => (scan, 0, 0),
    };
    let Node::Scan { table, filter, .. } = scan else { return None };
    let width = if width == 0 { table.columns.len() + 1 } else { width };
    // The sort's input rows: whole for `demand`, keys and rowid for narrow.
    let wide = demand.with(sort_exprs(keys));
    let mut narrow = Demand::of(sort_exprs(keys));
    if let Demand::Cols(c) = &mut narrow {
        c.insert(offset + table.columns.len());
    }
    // What the scan itself decodes for each.
    let local = |d: &Demand| match input {
        Node::Widen { .. } => d.input_of(input).unwrap_or(Demand::All),
        _ => d.clone(),
    };
    let wide_cols = local(&wide).scan_columns(table, filter.as_ref());
    let narrow_cols = local(&narrow).scan_columns(table, filter.as_ref());
    if narrow_cols.is_none() || narrow_cols == wide_cols {
        return None;
    }
    Some(Refetch {
        narrow: Some(super::build_for(input, &narrow)),
        table: table.clone(),
        offset,
        width,
    })
}

/// Every expression an access path evaluates, `None` for a path built
/// from a subquery.
fn access_exprs(access: &Access) -> Option<Vec<&Expr>> {
    fn bound(b: &Bound<Expr>) -> Option<&Expr> {
        match b {
            Bound::Included(e) | Bound::Excluded(e) => Some(e),
            Bound::Unbounded => None,
        }
    }
    Some(match access {
        Access::Full { .. } => Vec::new(),
        Access::RowidIn(es) => es.iter().collect(),
        Access::RowidInSub { .. } => return None,
        Access::RowidRange { lo, hi, .. } => bound(lo).into_iter().chain(bound(hi)).collect(),
        Access::Index { prefixes, lo, hi, .. } => {
            prefixes.iter().flatten().chain(bound(lo)).chain(bound(hi)).collect()
        }
    })
}

fn sort_exprs(keys: &[SortKey]) -> impl Iterator<Item = &Expr> {
    keys.iter().map(|k| &k.expr)
}

/// Every expression an aggregate call evaluates on its input rows.
fn agg_exprs(a: &AggCall) -> impl Iterator<Item = &Expr> {
    a.args.iter().chain(a.filter.iter()).chain(sort_exprs(&a.order))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::catalog::ColumnDef;
    use crate::exec::vals::Collation;
    use crate::exec::{Context, ExecState};
    use crate::planner::Access;
    use crate::storage::{MemStore, RowStore, TreeKind};
    use crate::value::Value;

    /// `t(id INTEGER PRIMARY KEY, a, b, c, d)` with rows `(i, 'a{i}', i,
    /// 'c{i}', i * 10)` for i in 1..=5, in a memory store.
    fn table(store: &MemStore) -> Arc<TableDef> {
        let txn = store.begin(true).unwrap();
        let root = txn.create_tree(TreeKind::Table).unwrap();
        let cols = ["id", "a", "b", "c", "d"].iter().map(|n| ColumnDef::new(n, None)).collect();
        let mut t = TableDef::new("t", root, cols);
        t.rowid_alias = Some(0);
        for i in 1..=5i64 {
            let row = [
                Value::Null,
                Value::Text(format!("a{i}").into()),
                Value::Integer(i),
                Value::Text(format!("c{i}").into()),
                Value::Integer(i * 10),
            ];
            txn.insert(&t, i, &row).unwrap();
        }
        txn.commit().unwrap();
        Arc::new(t)
    }

    fn scan(t: &Arc<TableDef>, filter: Option<Expr>) -> Node {
        Node::Scan { table: t.clone(), access: Access::Full { reverse: false }, filter }
    }

    fn rows(node: &Node, store: &MemStore) -> Vec<Vec<Value>> {
        rows_for(node, &Demand::All, store)
    }

    fn rows_for(node: &Node, demand: &Demand, store: &MemStore) -> Vec<Vec<Value>> {
        let txn = store.begin(false).unwrap();
        let cache = ExecState::default();
        let cx = Context::new(&txn, &[], &cache);
        let mut op = super::super::build_for(node, demand);
        let mut out = Vec::new();
        while let Some(r) = op.next(&cx).unwrap() {
            out.push(r);
        }
        out
    }

    /// Below a projection of two columns, the scan decodes those two (and
    /// the filter's) only: the others come up NULL, the rowid alias from
    /// the key; a projection's every expression counts, read or not.
    #[test]
    fn a_scan_decodes_only_what_is_read_above_it() {
        let store = MemStore::new();
        let t = table(&store);
        let ge3 = Expr::Cmp {
            op: crate::expr::CmpOp::Ge,
            l: Box::new(Expr::Column(2)),
            r: Box::new(Expr::Literal(Value::Integer(3))),
            aff: None,
            coll: Collation::Binary,
        };
        // What the Project reads of the Filter's rows, and so of the scan's.
        let filter = Node::Filter { input: Box::new(scan(&t, None)), pred: ge3 };
        let project = Node::Project {
            input: Box::new(Node::Widen { input: Box::new(filter), offset: 0, width: 6 }),
            exprs: vec![Expr::Column(0), Expr::Column(3)],
        };
        let Node::Project { input, .. } = &project else { unreachable!() };
        let d = Demand::All.input_of(&project).unwrap();
        let Demand::Cols(c) = &d else { panic!("{d:?}") };
        assert_eq!(c.iter().copied().collect::<Vec<_>>(), [0, 3]);
        let Node::Widen { input: f, .. } = &**input else { unreachable!() };
        let at_scan = d.input_of(input).unwrap().input_of(f).unwrap();
        assert_eq!(at_scan.scan_columns(&t, None), Some(ColumnSet::new([2, 3])));
        // Every column read is NULL-free; only `a` and `d` were left out.
        let got = rows(&project, &store);
        let want: Vec<Vec<Value>> =
            (3..=5).map(|i| vec![Value::Integer(i), Value::Text(format!("c{i}").into())]).collect();
        assert_eq!(got, want);
        let Node::Project { input, .. } = project else { unreachable!() };
        let Node::Widen { input: filter, .. } = *input else { unreachable!() };
        // The scan's own rows: `a` and `d` were never decoded.
        let narrow = rows_for(&filter, &Demand::Cols([0, 3].into()), &store);
        assert_eq!(narrow.len(), 3);
        for r in &narrow {
            assert!(r[1].is_null() && r[4].is_null(), "{r:?}");
            assert!(!r[0].is_null() && !r[2].is_null() && !r[3].is_null(), "{r:?}");
        }
        let under =
            Node::Project { input: filter, exprs: (0..6).map(Expr::Column).collect::<Vec<_>>() };
        // The same scan under a projection of everything: nothing is left out.
        assert!(rows(&under, &store).iter().all(|r| r.iter().all(|v| !v.is_null())));
    }

    /// An aggregate's input needs its keys and arguments, and of the bare
    /// row only what is read of it; a sort its keys and what passes.
    #[test]
    fn aggregates_and_sorts_pass_their_reads_down() {
        let store = MemStore::new();
        let t = table(&store);
        let agg = Node::Aggregate {
            input: Box::new(scan(&t, None)),
            keys: vec![Expr::Column(2)],
            key_colls: vec![Collation::Binary],
            aggs: vec![AggCall {
                name: "sum".into(),
                distinct: false,
                args: vec![Expr::Column(4)],
                filter: None,
                coll: Collation::Binary,
                order: Vec::new(),
            }],
            always_one: false,
            width: 6,
        };
        // Output: key, bare row (6), sum. Reading the key and the sum only:
        let read = Demand::Cols([0, 7].into());
        let d = read.input_of(&agg).unwrap();
        assert_eq!(d.scan_columns(&t, None), Some(ColumnSet::new([2, 4])));
        // Reading bare column 1 (`a`) as well:
        let d = Demand::Cols([0, 2, 7].into()).input_of(&agg).unwrap();
        assert_eq!(d.scan_columns(&t, None), Some(ColumnSet::new([1, 2, 4])));
        // Everything read: a full decode.
        assert_eq!(Demand::All.input_of(&agg).unwrap().scan_columns(&t, None), None);
        let key = SortKey {
            expr: Expr::Column(3),
            desc: true,
            coll: Collation::Binary,
            nulls_first: false,
        };
        let sort = Node::Sort { input: Box::new(scan(&t, None)), keys: vec![key.clone()] };
        let d = Demand::Cols([1].into()).input_of(&sort).unwrap();
        assert_eq!(d.scan_columns(&t, None), Some(ColumnSet::new([1, 3])));
        // A top-N sort of whole rows sorts narrow rows and reads back the
        // winners: the same rows as a full sort.
        assert!(refetch(&scan(&t, None), &[key], &Demand::All).is_some());
        let limited = Node::Limit {
            input: Box::new(sort),
            limit: Some(Expr::Literal(Value::Integer(2))),
            offset: None,
        };
        let got = rows(&limited, &store);
        let want: Vec<Vec<Value>> = [5i64, 4]
            .iter()
            .map(|&i| {
                vec![
                    Value::Integer(i),
                    Value::Text(format!("a{i}").into()),
                    Value::Integer(i),
                    Value::Text(format!("c{i}").into()),
                    Value::Integer(i * 10),
                    Value::Integer(i),
                ]
            })
            .collect();
        assert_eq!(got, want);
    }
}
