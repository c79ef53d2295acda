//! The planner: binds `sqlparser` ASTs against the [`Schema`](crate::catalog::Schema) and builds
//! a physical plan ([`Node`] trees) for the executor.
//!
//! Binding resolves names to row offsets. Rows inside a SELECT have a
//! *canonical* layout: the FROM clause's relations side by side, in the
//! order written, each table contributing its columns plus its rowid. The
//! join operators produce rows in that layout whatever order they join in,
//! so expressions are bound once and never remapped. After aggregation a
//! row is `group keys ++ a canonical row of the group ++ aggregate results`
//! (bare columns read the latter: as in SQLite, the row that gave the last
//! `min()`/`max()` its value, else the group's first row).
//!
//! Optimisation happens while building: WHERE is split into conjuncts;
//! single-table conjuncts go down to their scan, where they may pick an
//! access path (rowid point/range/IN, or an index: equality prefix plus a
//! range on the next column, or an IN list on the first); joins of inner
//! relations are ordered greedily, always following join predicates when a
//! connected relation exists, and equi-joins become hash joins. A
//! one-table SELECT whose ORDER BY the rowid order or an ascending index
//! already gives gets no sort (its LIMIT then stops the scan early), and
//! `min()`/`max()` alone read a single row from an end of such an order.

mod access;
pub mod bind;
mod cte;
mod from;
mod names;
mod rowvalue;
mod select;
pub mod window;

use std::ops::Bound;
use std::sync::Arc;

use crate::catalog::{IndexDef, TableDef};
use crate::exec::vals::{Affinity, Collation};
use crate::expr::Expr;
use crate::func::TableFunc;

pub use access::{plan_table_scan, plan_table_scan_as};
pub use bind::{Binder, ParamMap};
pub use cte::with_into_insert;
pub(crate) use rowvalue::bind_row_value;
pub use select::{plan_query, push_ctes};

thread_local! {
    /// Whether the statement being planned names a table, a view, the
    /// schema table or a table-valued function ([`reads_database`]).
    static READS_DATABASE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Notes that the statement being planned reads the database.
pub(crate) fn note_database_read() {
    READS_DATABASE.with(|r| r.set(true));
}

/// Whether the statements planned since the last call read the database:
/// what makes SQLite open a transaction for a query (`SELECT 1` or a CTE
/// over constants does not, `SELECT … FROM t WHERE 0` does). Resets it.
pub fn reads_database() -> bool {
    READS_DATABASE.with(|r| r.replace(false))
}

/// A planned subquery (scalar, IN or EXISTS).
#[derive(Debug)]
pub struct SubPlan {
    pub node: Node,
    /// Unique within a statement: the cache key of uncorrelated results.
    pub id: usize,
    /// Reads some enclosing query's row: re-evaluated for every row.
    pub correlated: bool,
    /// Columns of the immediate parent's (canonical) row it reads.
    pub outer_refs: Vec<usize>,
    pub ncols: usize,
}

/// How a table scan reaches its rows.
#[derive(Clone, Debug)]
pub enum Access {
    /// Every row in rowid order (reverse: descending).
    Full { reverse: bool },
    /// Rows whose rowid equals one of the values.
    RowidIn(Vec<Expr>),
    /// Rows whose rowid is in the set of an uncorrelated `rowid IN
    /// (subquery)`: the set is built once (and shared with the IN term,
    /// which still filters above the scan), its values' rowids looked up in
    /// ascending order. `aff` and `coll` are the IN's.
    RowidInSub { sub: Arc<SubPlan>, aff: Option<Affinity>, coll: Collation },
    /// Rows whose rowid lies in a range, ascending (reverse: descending).
    RowidRange { lo: Bound<Expr>, hi: Bound<Expr>, reverse: bool },
    /// Index entries: each prefix in `prefixes` combined with the optional
    /// range on the next column. One empty prefix and no range is every
    /// entry, NULLs included (a scan for ORDER BY).
    Index {
        index: Arc<IndexDef>,
        prefixes: Vec<Vec<Expr>>,
        lo: Bound<Expr>,
        hi: Bound<Expr>,
        /// Comparison affinity per key column, applied to probe values.
        affs: Vec<Option<Affinity>>,
        /// Entries in descending key order (prefixes too).
        reverse: bool,
        /// The plan relies on this scan's order (an ORDER BY was dropped):
        /// entries with equal keys then come in rowid order (descending
        /// when `reverse`), as in SQLite, whatever their storage classes.
        ordered: bool,
        /// With one empty prefix and no range: skip the entries whose
        /// first column is NULL (they come first), as `min()` wants.
        skip_nulls: bool,
        /// Index-only (SQLite's covering index): every column the query
        /// reads from this table is a key column of the index or the
        /// rowid, so rows are made from the entries and the table is not
        /// read. Set last, by [`access::cover`], once the query's columns
        /// are known.
        covering: bool,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JoinKind {
    Inner,
    Left,
    /// `RIGHT [OUTER] JOIN`: the new relation's rows that match nothing
    /// come out too, the joined rows so far NULL (SQLite 3.39).
    Right,
    /// `FULL [OUTER] JOIN`: LEFT and RIGHT at once.
    Full,
}

impl JoinKind {
    /// The joined rows so far that match nothing come out, NULL-extended.
    pub fn keeps_left(self) -> bool {
        matches!(self, JoinKind::Left | JoinKind::Full)
    }

    /// The new relation's rows that match nothing come out, the joined
    /// side NULL.
    pub fn keeps_right(self) -> bool {
        matches!(self, JoinKind::Right | JoinKind::Full)
    }

    /// The word EXPLAIN shows before `JOIN`.
    fn label(self) -> &'static str {
        match self {
            JoinKind::Inner => "",
            JoinKind::Left => "LEFT ",
            JoinKind::Right => "RIGHT ",
            JoinKind::Full => "FULL ",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetOp {
    Union,
    UnionAll,
    Except,
    Intersect,
}

/// One aggregate call: `name(DISTINCT? args) FILTER (WHERE filter)`;
/// `coll` is its argument's collation (min, max and DISTINCT compare
/// under it).
#[derive(Clone, Debug)]
pub struct AggCall {
    pub name: String,
    pub distinct: bool,
    pub args: Vec<Expr>,
    pub filter: Option<Expr>,
    pub coll: Collation,
    /// `agg(x ORDER BY …)` (SQLite 3.44): the order the group's rows reach
    /// the aggregate in; empty when none was written.
    pub order: Vec<SortKey>,
}

impl AggCall {
    /// A plain `count(*)` (or `count()`): no DISTINCT, FILTER or ORDER BY,
    /// so its answer is the number of rows of its group.
    pub fn is_count_star(&self) -> bool {
        self.name == "count"
            && self.args.is_empty()
            && self.filter.is_none()
            && !self.distinct
            && self.order.is_empty()
    }

    /// `min(x)` or `max(x)`, whose best row the bare columns follow.
    pub fn is_min_max(&self) -> bool {
        matches!(self.name.as_str(), "min" | "max") && self.args.len() == 1
    }
}

/// An equality `left = right` a hash join matches on: `left` over the
/// joined (wide) row, `right` over the new relation's local row, compared
/// after `aff` under `coll` (SQLite's equality: keys are folded by the
/// collation and hashed as [`crate::Value`]s, so `1` meets `1.0`).
#[derive(Clone, Debug)]
pub struct JoinKey {
    pub left: Expr,
    pub right: Expr,
    pub aff: Option<Affinity>,
    pub coll: Collation,
}

/// A window function (see `exec::window`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WinFunc {
    RowNumber,
    Rank,
    DenseRank,
    PercentRank,
    CumeDist,
    Ntile,
    Lag,
    Lead,
    FirstValue,
    LastValue,
    NthValue,
    /// An aggregate (`count`, `sum`, …) over the frame.
    Agg(String),
}

/// A frame's units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameUnits {
    Rows,
    Range,
    Groups,
}

/// One end of a frame; offsets are constant expressions.
#[derive(Clone, Debug)]
pub enum FrameBound {
    UnboundedPreceding,
    Preceding(Expr),
    CurrentRow,
    Following(Expr),
    UnboundedFollowing,
}

/// `EXCLUDE …` of a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exclude {
    NoOthers,
    CurrentRow,
    Group,
    Ties,
}

/// A frame: `units BETWEEN start AND end EXCLUDE exclude`.
#[derive(Clone, Debug)]
pub struct Frame {
    pub units: FrameUnits,
    pub start: FrameBound,
    pub end: FrameBound,
    pub exclude: Exclude,
    /// An EXCLUDE clause was written (even `EXCLUDE NO OTHERS`): SQLite
    /// then aggregates every frame afresh (window.c's windowFullScan),
    /// which shows in min/max ties and float sums.
    pub exclude_clause: bool,
}

/// One window function call: the function, its arguments, its FILTER
/// and its frame (PARTITION BY and ORDER BY are the [`Node::Window`]'s).
#[derive(Clone, Debug)]
pub struct WinCall {
    pub func: WinFunc,
    pub args: Vec<Expr>,
    pub filter: Option<Expr>,
    pub frame: Frame,
    /// The first argument's collation: `min`/`max` compare TEXT with it,
    /// as SQLite's do (and as the plain aggregates here do).
    pub coll: Collation,
}

/// A sort key over the rows of the node below.
#[derive(Clone, Debug)]
pub struct SortKey {
    pub expr: Expr,
    pub desc: bool,
    pub coll: Collation,
    /// NULLs before every value (SQLite's default for ASC; `NULLS FIRST`
    /// / `NULLS LAST` override it).
    pub nulls_first: bool,
}

/// A physical plan node. Every node yields rows of a fixed width.
#[derive(Debug)]
pub enum Node {
    /// A table's rows: its columns then the rowid; `filter` is evaluated on
    /// that local row.
    Scan {
        table: Arc<TableDef>,
        access: Access,
        filter: Option<Expr>,
    },
    /// Constant rows (expressions may read parameters and outer rows).
    Values {
        rows: Vec<Vec<Expr>>,
        width: usize,
    },
    /// Places each input row at `offset` in a row of `width` NULLs.
    Widen {
        input: Box<Node>,
        offset: usize,
        width: usize,
    },
    /// Joins wide rows from `left` with local rows of `right`, placed at
    /// `offset`. `keys` (left expr on the wide row, right expr on the local
    /// row, affinity) make it a hash join; `on` filters candidate pairs.
    /// A RIGHT or FULL join emits the right rows that matched nothing last,
    /// each in a row of `width` NULLs.
    Join {
        left: Box<Node>,
        right: Box<Node>,
        offset: usize,
        kind: JoinKind,
        keys: Vec<JoinKey>,
        on: Option<Expr>,
        width: usize,
    },
    /// Index nested loop: for each wide row of `left`, `right` (a table
    /// scan whose access and filter read that row as the nearest outer row,
    /// `Expr::Outer { depth: 1, .. }`) is run again; its local rows are
    /// placed at `offset` and `on` filters the pairs. Only inner and LEFT
    /// joins are planned this way (a RIGHT or FULL join is hashed: it must
    /// find the right rows no left row reached).
    LookupJoin {
        left: Box<Node>,
        right: Box<Node>,
        offset: usize,
        kind: JoinKind,
        on: Option<Expr>,
    },
    Filter {
        input: Box<Node>,
        pred: Expr,
    },
    Project {
        input: Box<Node>,
        exprs: Vec<Expr>,
    },
    /// Groups by `keys`, each compared under its collation in `key_colls`
    /// (one group for no keys and no input when `always_one`); output:
    /// the keys, the group's *bare row* (an input row), then the
    /// aggregates: `keys ++ bare row ++ aggregates`. The bare row is the
    /// group's first row, replaced by each row the last min()/max() call
    /// it reaches moves it to, as in SQLite (see `exec::aggregate`).
    Aggregate {
        input: Box<Node>,
        keys: Vec<Expr>,
        key_colls: Vec<Collation>,
        aggs: Vec<AggCall>,
        always_one: bool,
        width: usize,
    },
    Sort {
        input: Box<Node>,
        keys: Vec<SortKey>,
    },
    Limit {
        input: Box<Node>,
        limit: Option<Expr>,
        offset: Option<Expr>,
    },
    /// Drops rows equal to an earlier one on the first `ncols` columns,
    /// each compared under its collation in `colls`.
    Distinct {
        input: Box<Node>,
        ncols: usize,
        colls: Vec<Collation>,
    },
    /// A compound select; rows compare under `colls`, one per column.
    SetOp {
        op: SetOp,
        left: Box<Node>,
        right: Box<Node>,
        colls: Vec<Collation>,
    },
    /// A recursive common table expression (run by
    /// `exec::recursive::RecursiveOp`): the rows of `init` go into a queue;
    /// each row taken out is output and `step` runs with it as the working
    /// row `id`, its rows going into the queue. `distinct` (UNION) queues
    /// only rows never seen before; `limit` / `offset` bound the rows
    /// output. With `order` the queue is a priority queue (ties first in,
    /// first out), else first in, first out.
    Recursive {
        name: String,
        id: usize,
        init: Box<Node>,
        /// Shared with the operator, which rebuilds it for every step.
        step: Arc<Node>,
        distinct: bool,
        /// What UNION compares each column under.
        colls: Vec<Collation>,
        order: Vec<SortKey>,
        limit: Option<Expr>,
        offset: Option<Expr>,
    },
    /// Window functions over one window (run by `exec::window`): the
    /// input sorted by `partition ++ order` (spilling like any sort), each
    /// row out with one column per call appended.
    Window {
        input: Box<Node>,
        partition: Vec<SortKey>,
        order: Vec<SortKey>,
        calls: Vec<WinCall>,
    },
    /// The working row of the recursive CTE `id`: one row of `width`.
    WorkingRow {
        name: String,
        id: usize,
        width: usize,
    },
    /// The rows of a table-valued function: local rows (its columns, then
    /// a rowid). `args[i]` fills hidden column `i` (`None`: not given);
    /// they read no FROM item, only parameters and enclosing rows.
    TableFunc {
        func: TableFunc,
        args: Vec<Option<Expr>>,
    },
    /// A join whose right side is a table-valued function reading the
    /// left side (`FROM t, json_each(t.doc)`): for each `input` row, the
    /// function is called with `args` evaluated on it and its rows are
    /// placed at `offset`; `filter` runs on the function's local row, `on`
    /// on the joined row; a LEFT join keeps input rows that match nothing;
    /// a RIGHT/FULL join then adds the rows of one more call with the
    /// joined-in columns NULL that no input row matched (SQLite's
    /// right-join loop), each `width` wide.
    /// `once`: the arguments read no input column, so the first call's
    /// rows are kept and serve every input row.
    Lateral {
        input: Box<Node>,
        func: TableFunc,
        args: Vec<Option<Expr>>,
        offset: usize,
        width: usize,
        kind: JoinKind,
        filter: Option<Expr>,
        on: Option<Expr>,
        once: bool,
    },
    /// `SELECT count(*) FROM table` answered from the store's row count
    /// ([`crate::storage::RowStore::count_rows`]: leaf cell counts, no
    /// record decoded) instead of scanning and aggregating. It stands in
    /// for the `Aggregate` over a full scan it replaces, so its one row has
    /// that node's shape: `width` NULLs where the bare row would be (the
    /// planner uses it only when nothing reads the bare row; see
    /// `select::count_star`), then the count.
    Count {
        table: Arc<TableDef>,
        width: usize,
    },
    /// `input` if `pred` (which reads no row) is true, tested once per run
    /// before `input` is read; nothing otherwise.
    Guard {
        input: Box<Node>,
        pred: Expr,
    },
}

impl Node {
    /// A text rendering of the plan, one line per node (for EXPLAIN).
    pub fn explain(&self, depth: usize, out: &mut Vec<String>) {
        let pad = "  ".repeat(depth);
        let line = match self {
            Node::Scan { table, access, filter } => {
                let a = match access {
                    Access::Full { reverse } => {
                        format!("SCAN {}{}", table.name, if *reverse { " DESC" } else { "" })
                    }
                    Access::RowidIn(v) => {
                        format!("SEARCH {} USING ROWID IN ({} values)", table.name, v.len())
                    }
                    Access::RowidInSub { .. } => {
                        format!("SEARCH {} USING ROWID IN (subquery)", table.name)
                    }
                    Access::RowidRange { reverse, .. } => format!(
                        "SEARCH {} USING ROWID RANGE{}",
                        table.name,
                        if *reverse { " DESC" } else { "" }
                    ),
                    Access::Index { index, prefixes, lo, hi, reverse, covering, .. } => {
                        let range = !matches!((lo, hi), (Bound::Unbounded, Bound::Unbounded));
                        let desc = if *reverse { " DESC" } else { "" };
                        let how = if *covering { "COVERING INDEX" } else { "INDEX" };
                        if !range && prefixes.iter().all(Vec::is_empty) {
                            format!("SCAN {} USING {how} {}{desc}", table.name, index.name)
                        } else {
                            format!(
                                "SEARCH {} USING {how} {} ({} prefix{}{}){desc}",
                                table.name,
                                index.name,
                                prefixes.len(),
                                if prefixes.len() == 1 { "" } else { "es" },
                                if range { " + range" } else { "" }
                            )
                        }
                    }
                };
                format!("{a}{}", if filter.is_some() { " FILTER" } else { "" })
            }
            Node::Values { rows, .. } => format!("VALUES ({} rows)", rows.len()),
            Node::Widen { .. } => String::new(),
            Node::Join { keys, kind, on, .. } => format!(
                "{} {}JOIN{}",
                if keys.is_empty() { "NESTED LOOP" } else { "HASH" },
                kind.label(),
                if on.is_some() { " FILTER" } else { "" }
            ),
            Node::LookupJoin { kind, on, .. } => format!(
                "INDEX NESTED LOOP {}JOIN{}",
                kind.label(),
                if on.is_some() { " FILTER" } else { "" }
            ),
            Node::Filter { .. } => "FILTER".into(),
            Node::Guard { .. } => "GUARD (condition on no row)".into(),
            Node::Count { table, .. } => format!("COUNT ROWS OF {} (from pages)", table.name),
            Node::Project { exprs, .. } => format!("PROJECT {} columns", exprs.len()),
            Node::Aggregate { keys, aggs, .. } => {
                format!("AGGREGATE {} keys, {} aggregates", keys.len(), aggs.len())
            }
            Node::Sort { keys, .. } => format!("SORT {} keys", keys.len()),
            Node::Window { partition, order, calls, .. } => format!(
                "WINDOW {} partition keys, {} order keys, {} functions",
                partition.len(),
                order.len(),
                calls.len()
            ),
            Node::Limit { .. } => "LIMIT".into(),
            Node::Distinct { .. } => "DISTINCT".into(),
            Node::SetOp { op, .. } => format!("{op:?}").to_uppercase(),
            Node::Recursive { name, distinct, order, .. } => format!(
                "RECURSIVE {name} ({}{})",
                if *distinct { "UNION" } else { "UNION ALL" },
                if order.is_empty() {
                    String::new()
                } else {
                    format!(", {} order keys", order.len())
                }
            ),
            Node::WorkingRow { name, .. } => format!("WORKING ROW {name}"),
            Node::TableFunc { func, .. } => format!("SCAN TABLE-VALUED FUNCTION {}", func.name()),
            Node::Lateral { func, kind, .. } => {
                format!("{}JOIN TABLE-VALUED FUNCTION {} (per row)", kind.label(), func.name())
            }
        };
        let next = if line.is_empty() {
            depth
        } else {
            out.push(format!("{pad}{line}"));
            depth + 1
        };
        for child in self.children() {
            child.explain(next, out);
        }
    }

    /// The node's inputs, left to right.
    pub fn children(&self) -> Vec<&Node> {
        match self {
            Node::Scan { .. }
            | Node::Count { .. }
            | Node::Values { .. }
            | Node::WorkingRow { .. }
            | Node::TableFunc { .. } => Vec::new(),
            Node::Widen { input, .. }
            | Node::Lateral { input, .. }
            | Node::Guard { input, .. }
            | Node::Filter { input, .. }
            | Node::Project { input, .. }
            | Node::Aggregate { input, .. }
            | Node::Sort { input, .. }
            | Node::Window { input, .. }
            | Node::Limit { input, .. }
            | Node::Distinct { input, .. } => vec![input],
            Node::Join { left, right, .. }
            | Node::LookupJoin { left, right, .. }
            | Node::SetOp { left, right, .. } => vec![left, right],
            Node::Recursive { init, step, .. } => vec![init, step],
        }
    }
}

/// A planned query: its plan, result column names, affinities and
/// collations (what a column of it compares with, as a FROM subquery, an
/// IN subquery or a compound's part).
#[derive(Debug)]
pub struct QueryPlan {
    pub node: Node,
    pub columns: Vec<String>,
    pub affinities: Vec<Option<Affinity>>,
    pub collations: Vec<Option<Collation>>,
}
