//! The executor: a pull-based tree of operators built from a plan
//! ([`Node`]). Operators own no borrows; everything they need per call
//! (the store, the parameters, the rows of enclosing queries, the cache of
//! uncorrelated subquery results) arrives in a [`Context`], so a tree can
//! be handed to the caller and pulled lazily.
//!
//! Blocking operators (sort, hash join build side, aggregation, DISTINCT
//! and the set operations, the rows an UPDATE or DELETE picks) spill to
//! temporary files past [`Context`]'s memory budget.

mod aggregate;
pub mod alter;
pub mod analyze;
pub mod ddl;
mod demand;
pub mod dml;
pub mod fkey;
pub mod index;
mod join;
pub mod pragma;
mod recursive;
mod scan;
mod set;
pub mod sort;
mod stream;
mod subquery;
pub mod trigger;
mod tvf;
pub mod vals;
mod window;

use aggregate::*;
use demand::Demand;
use join::*;
pub use scan::table_row;
use scan::*;
use set::*;
use stream::*;
use subquery::Cached;
pub use subquery::{
    subquery_column, subquery_exists, subquery_in, subquery_in_row, subquery_scalar,
};
use tvf::*;

use std::cell::RefCell;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ops::Bound;
use std::sync::Arc;

use crate::catalog::TableDef;
use crate::expr::Expr;
use crate::func::StatementEnv;
use crate::planner::{Access, AggCall, JoinKey, JoinKind, Node, SetOp, SortKey, SubPlan};
use crate::storage::{IndexCursor, KeyRange, Row, RowCursor, RowStore, cmp_key};
use crate::value::Value;
use crate::{Error, Result};
use vals::{Affinity, Collation};

/// Per-execution state of one statement: the results of its uncorrelated
/// subqueries (by subquery id), the operators of its correlated ones
/// (kept between runs, rewound for the next outer row instead of built
/// again) and what its functions read ([`StatementEnv`]: the statement's
/// clock).
#[derive(Default)]
pub struct ExecState {
    map: RefCell<HashMap<usize, Cached>>,
    ops: RefCell<HashMap<usize, Box<dyn Operator>>>,
    pub env: StatementEnv,
}

/// What operators need per call.
pub struct Context<'a> {
    pub store: &'a dyn RowStore,
    pub params: &'a [Value],
    /// Rows of enclosing queries, outermost first, borrowed from the
    /// operators that run the inner query (a probe copies no row).
    pub outer: Vec<&'a [Value]>,
    pub cache: &'a ExecState,
    /// Bytes a blocking operator may hold before it spills to disk.
    pub budget: usize,
    /// Working rows of the recursive CTEs running a step, by id
    /// (see `exec::recursive`).
    pub working: Vec<(usize, &'a [Value])>,
}

thread_local! {
    /// The memory budget of the statement running on this thread.
    static BUDGET: std::cell::Cell<usize> = const { std::cell::Cell::new(sort::DEFAULT_BUDGET) };
}

/// Makes `bytes` the budget of every [`Context`] made on this thread until
/// the guard drops: the session's statement, and what it runs inside —
/// DML's row sets, triggers, foreign key checks, subqueries.
pub fn with_budget(bytes: usize) -> impl Drop {
    struct Guard(usize);
    impl Drop for Guard {
        fn drop(&mut self) {
            BUDGET.with(|b| b.set(self.0));
        }
    }
    Guard(BUDGET.with(|b| b.replace(bytes)))
}

impl<'a> Context<'a> {
    /// A context with the statement's budget ([`with_budget`]).
    pub fn new(store: &'a dyn RowStore, params: &'a [Value], cache: &'a ExecState) -> Context<'a> {
        Context {
            store,
            params,
            outer: Vec::new(),
            cache,
            budget: BUDGET.with(|b| b.get()),
            working: Vec::new(),
        }
    }

    /// The statement's function environment (its clock).
    pub fn stmt_env(&self) -> &StatementEnv {
        &self.cache.env
    }

    pub fn outer_value(&self, depth: usize, index: usize) -> Result<Value> {
        let n = self.outer.len();
        n.checked_sub(depth)
            .and_then(|i| self.outer[i].get(index))
            .cloned()
            .ok_or_else(|| Error::Internal(format!("outer ref {depth}.{index}")))
    }

    fn child<'b>(&'b self, row: &'b [Value]) -> Context<'b> {
        let mut outer = Vec::with_capacity(self.outer.len() + 1);
        outer.extend_from_slice(&self.outer);
        outer.push(row);
        Context {
            store: self.store,
            params: self.params,
            outer,
            cache: self.cache,
            budget: self.budget,
            working: self.working.clone(),
        }
    }
}

/// A pull-based operator.
pub trait Operator: Send {
    fn next(&mut self, cx: &Context) -> Result<Option<Row>>;

    /// Returns the operator to its state before the first `next` if it can
    /// do so cheaply (a recursive CTE re-runs its recursive select for
    /// every row); `false`: the caller builds a fresh one instead.
    fn rewind(&mut self) -> bool {
        false
    }

    /// Told before the first `next` that no more than `rows` rows will be
    /// pulled (a LIMIT above); an operator may use it to do less work.
    fn limit_hint(&mut self, _rows: u64) {}

    /// Pulls and drops up to `n` rows; answers how many there were. An
    /// operator that can step over rows without producing them (a plain
    /// table scan, a projection of one) does so: OFFSET and page skipping
    /// then cost no record decoding.
    fn skip(&mut self, n: u64, cx: &Context) -> Result<u64> {
        let mut done = 0;
        while done < n && self.next(cx)?.is_some() {
            done += 1;
        }
        Ok(done)
    }
}

/// A row ordered by SQLite's total order (for grouping, DISTINCT, sets).
#[derive(Clone, Debug)]
pub struct OrdKey(pub Vec<Value>);

impl PartialEq for OrdKey {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for OrdKey {}
impl PartialOrd for OrdKey {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for OrdKey {
    fn cmp(&self, o: &Self) -> Ordering {
        cmp_key(&self.0, &o.0)
    }
}

/// Builds the operator tree of a plan whose every output column is read.
pub fn build(node: &Node) -> Box<dyn Operator> {
    build_for(node, &Demand::All)
}

/// Builds the operator tree of `node`, of whose output rows only the
/// columns in `demand` are read: scans below decode only what is read
/// above them (see [`demand`]).
fn build_for(node: &Node, demand: &Demand) -> Box<dyn Operator> {
    let inner = demand.input_of(node).unwrap_or(Demand::All);
    let build = |n: &Node| build_for(n, &inner);
    match node {
        Node::Scan { table, access, filter } => Box::new(ScanOp {
            table: table.clone(),
            access: access.clone(),
            filter: filter.clone(),
            state: ScanState::Init,
            cols: demand.scan_columns(table, filter.as_ref()).map(Arc::new),
        }),
        Node::Values { rows, .. } => Box::new(ValuesOp { rows: rows.clone(), pos: 0 }),
        Node::Count { table, width } => {
            Box::new(CountOp { table: table.clone(), width: *width, done: false })
        }
        Node::Widen { input, offset, width } => {
            Box::new(WidenOp { input: build(input), offset: *offset, width: *width })
        }
        Node::Join { left, right, offset, kind, keys, on, width } => {
            let (l, r) = demand.join_inputs(node);
            Box::new(JoinOp {
                left: build_for(left, &l),
                right: Some(build_for(right, &r)),
                offset: *offset,
                kind: *kind,
                keys: keys.clone(),
                on: on.clone(),
                rows: Vec::new(),
                hash: HashMap::new(),
                cur: None,
                cands: Vec::new(),
                pos: 0,
                matched: false,
                pending: Vec::new(),
                width: *width,
                hit: Vec::new(),
                upos: 0,
            })
        }
        Node::LookupJoin { left, right, offset, kind, on } => {
            let (l, r) = demand.join_inputs(node);
            Box::new(join::LookupJoinOp {
                left: build_for(left, &l),
                right: build_for(right, &r),
                offset: *offset,
                kind: *kind,
                on: on.clone(),
                buf: std::collections::VecDeque::new(),
            })
        }
        Node::Filter { input, pred } => {
            Box::new(FilterOp { input: build(input), pred: pred.clone() })
        }
        Node::Project { input, exprs } => {
            Box::new(ProjectOp { input: build(input), exprs: exprs.clone(), moves: moves(exprs) })
        }
        Node::Aggregate { input, keys, key_colls, aggs, always_one, width } => {
            Box::new(AggregateOp {
                input: Some(build(input)),
                spec: Arc::new(Spec::new(keys.clone(), key_colls.clone(), aggs.clone())),
                always_one: *always_one,
                width: *width,
                out: AggOut::empty(),
            })
        }
        Node::Sort { input, keys } => {
            let mut op = sort::SortOp::new(build(input), keys.clone());
            op.refetch = demand::refetch(input, keys, demand);
            Box::new(op)
        }
        Node::Window { input, partition, order, calls } => Box::new(window::WindowOp::new(
            build(input),
            partition.clone(),
            order.clone(),
            calls.clone(),
        )),
        Node::Limit { input, limit, offset } => Box::new(LimitOp {
            input: build(input),
            limit: limit.clone(),
            offset: offset.clone(),
            state: None,
        }),
        Node::Distinct { input, ncols, colls } => Box::new(DistinctOp {
            input: build(input),
            ncols: *ncols,
            colls: colls.clone(),
            seen: BTreeSet::new(),
            size: 0,
            spill: None,
        }),
        Node::Recursive { id, init, step, distinct, colls, order, limit, offset, .. } => {
            Box::new(recursive::RecursiveOp::new(
                *id,
                build(init),
                step.clone(),
                distinct.then(|| colls.clone()),
                order.clone(),
                limit.clone(),
                offset.clone(),
            ))
        }
        Node::WorkingRow { id, .. } => Box::new(recursive::WorkingRowOp::new(*id)),
        Node::TableFunc { func, args } => {
            Box::new(TableFuncOp { func: *func, args: args.clone(), cursor: None })
        }
        Node::Lateral { input, func, args, offset, width, kind, filter, on, once } => {
            Box::new(LateralOp {
                width: *width,
                matched: Default::default(),
                tail: None,
                input: build(input),
                func: *func,
                args: args.clone(),
                offset: *offset,
                kind: *kind,
                filter: filter.clone(),
                on: on.clone(),
                once: *once,
                kept: None,
                cur: None,
            })
        }
        Node::Guard { input, pred } => {
            Box::new(GuardOp { input: build(input), pred: pred.clone(), open: None })
        }
        Node::SetOp { op, left, right, colls } => Box::new(SetOpOp {
            op: *op,
            left: Some(build(left)),
            right: Some(build(right)),
            colls: colls.clone(),
            out: None,
        }),
    }
}
