//! The executor: a pull-based tree of operators built from a plan
//! ([`Node`]). Operators own no borrows; everything they need per call
//! (the store, the parameters, the rows of enclosing queries, the cache of
//! uncorrelated subquery results) arrives in a [`Context`], so a tree can
//! be handed to the caller and pulled lazily.
//!
//! Blocking operators (sort, hash join build side, aggregation, set
//! operations) hold their rows in memory; spilling beyond a budget is not
//! implemented yet.

pub mod alter;
pub mod dml;
mod recursive;
pub mod sort;
pub mod vals;

use std::cell::RefCell;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ops::Bound;
use std::sync::Arc;

use crate::catalog::TableDef;
use crate::expr::Expr;
use crate::func::StatementEnv;
use crate::planner::{Access, AggCall, JoinKind, Node, SetOp, SortKey, SubPlan};
use crate::storage::{IndexCursor, KeyRange, Row, RowCursor, RowStore, cmp_key};
use crate::value::Value;
use crate::{Error, Result};
use vals::{Affinity, Collation};

/// Per-execution state of one statement: the results of its uncorrelated
/// subqueries (by subquery id) and what its functions read
/// ([`StatementEnv`]: the statement's clock).
#[derive(Default)]
pub struct ExecState {
    map: RefCell<HashMap<usize, Cached>>,
    pub env: StatementEnv,
}

#[derive(Clone)]
enum Cached {
    Scalar(Value),
    Exists(bool),
    In(Arc<InSet>),
}

/// The right-hand side of `x IN (SELECT …)`.
struct InSet {
    set: BTreeSet<OrdKey>,
    has_null: bool,
}

/// What operators need per call.
pub struct Context<'a> {
    pub store: &'a dyn RowStore,
    pub params: &'a [Value],
    /// Rows of enclosing queries, outermost first.
    pub outer: Vec<Row>,
    pub cache: &'a ExecState,
    /// Bytes a blocking operator may hold before it spills to disk.
    pub budget: usize,
    /// Working rows of the recursive CTEs running a step, by id
    /// (see `exec::recursive`).
    pub working: Vec<(usize, Row)>,
}

impl<'a> Context<'a> {
    pub fn new(store: &'a dyn RowStore, params: &'a [Value], cache: &'a ExecState) -> Context<'a> {
        Context {
            store,
            params,
            outer: Vec::new(),
            cache,
            budget: sort::DEFAULT_BUDGET,
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
            .ok_or_else(|| Error::Corrupt(format!("internal: outer ref {depth}.{index}")))
    }

    fn child(&self, row: &[Value]) -> Context<'a> {
        let mut outer = self.outer.clone();
        outer.push(row.to_vec());
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

/// Builds the operator tree of a plan.
pub fn build(node: &Node) -> Box<dyn Operator> {
    match node {
        Node::Scan { table, access, filter } => Box::new(ScanOp {
            table: table.clone(),
            access: access.clone(),
            filter: filter.clone(),
            state: ScanState::Init,
        }),
        Node::Values { rows, .. } => Box::new(ValuesOp { rows: rows.clone(), pos: 0 }),
        Node::Widen { input, offset, width } => {
            Box::new(WidenOp { input: build(input), offset: *offset, width: *width })
        }
        Node::Join { left, right, offset, kind, keys, on } => Box::new(JoinOp {
            left: build(left),
            right: Some(build(right)),
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
        }),
        Node::Filter { input, pred } => {
            Box::new(FilterOp { input: build(input), pred: pred.clone() })
        }
        Node::Project { input, exprs } => {
            Box::new(ProjectOp { input: build(input), exprs: exprs.clone(), moves: moves(exprs) })
        }
        Node::Aggregate { input, keys, aggs, always_one, width } => Box::new(AggregateOp {
            input: Some(build(input)),
            keys: keys.clone(),
            aggs: aggs.clone(),
            always_one: *always_one,
            width: *width,
            out: AggOut::empty(),
        }),
        Node::Sort { input, keys } => Box::new(sort::SortOp::new(build(input), keys.clone())),
        Node::Limit { input, limit, offset } => Box::new(LimitOp {
            input: build(input),
            limit: limit.clone(),
            offset: offset.clone(),
            state: None,
        }),
        Node::Distinct { input, ncols } => {
            Box::new(DistinctOp { input: build(input), ncols: *ncols, seen: BTreeSet::new() })
        }
        Node::Recursive { id, init, step, distinct, order, limit, offset, .. } => {
            Box::new(recursive::RecursiveOp::new(
                *id,
                build(init),
                step.clone(),
                *distinct,
                order.clone(),
                limit.clone(),
                offset.clone(),
            ))
        }
        Node::WorkingRow { id, .. } => Box::new(recursive::WorkingRowOp::new(*id)),
        Node::SetOp { op, left, right } => Box::new(SetOpOp {
            op: *op,
            left: Some(build(left)),
            right: Some(build(right)),
            out: None,
        }),
    }
}

enum ScanState {
    Init,
    Rows(Box<dyn RowCursor>),
    Rowids(std::vec::IntoIter<i64>),
    Index(Box<IndexScan>),
    Done,
}

/// An index scan in progress: its key ranges, in scan order, and the
/// cursor over the current one.
struct IndexScan {
    ranges: std::vec::IntoIter<KeyRange>,
    cur: Option<Box<dyn IndexCursor>>,
    index: Arc<crate::catalog::IndexDef>,
    reverse: bool,
    /// Equal keys must come in rowid order (see [`Access::Index`]).
    ordered: bool,
    /// Rowids of a run of equal keys, already put in rowid order.
    run: std::collections::VecDeque<i64>,
    /// The entry that ended the last run.
    pending: Option<(Vec<Value>, i64)>,
}

impl IndexScan {
    fn next_entry(&mut self, cx: &Context) -> Result<Option<(Vec<Value>, i64)>> {
        if let Some(e) = self.pending.take() {
            return Ok(Some(e));
        }
        loop {
            if self.cur.is_none() {
                match self.ranges.next() {
                    Some(r) => {
                        self.cur = Some(cx.store.scan_index(&self.index, r, self.reverse)?)
                    }
                    None => return Ok(None),
                }
            }
            match self.cur.as_mut().expect("set above").next()? {
                Some(e) => return Ok(Some(e)),
                None => self.cur = None,
            }
        }
    }

    /// The next rowid. In an ordered scan, entries with equal keys come in
    /// rowid order: a store may order them by storage class first (`1`
    /// before `1.0`; see `keycode`), so a run of equal keys that holds an
    /// integral number is read whole and sorted. Runs of other keys
    /// (NULLs, text, blobs, fractional reals) are in rowid order already
    /// and stream.
    fn next_rowid(&mut self, cx: &Context) -> Result<Option<i64>> {
        if let Some(id) = self.run.pop_front() {
            return Ok(Some(id));
        }
        let Some((key, id)) = self.next_entry(cx)? else { return Ok(None) };
        let integral = |v: &Value| match v {
            Value::Integer(_) => true,
            Value::Real(f) => f.fract() == 0.0,
            _ => false,
        };
        if !self.ordered || !key.iter().any(integral) {
            return Ok(Some(id));
        }
        let mut run = vec![id];
        while let Some((k, id)) = self.next_entry(cx)? {
            if cmp_key(&k, &key) != Ordering::Equal {
                self.pending = Some((k, id));
                break;
            }
            run.push(id);
        }
        run.sort_unstable();
        if self.reverse {
            run.reverse();
        }
        self.run = run.into();
        Ok(self.run.pop_front())
    }
}

struct ScanOp {
    table: Arc<TableDef>,
    access: Access,
    filter: Option<Expr>,
    state: ScanState,
}

/// The local row of a table: stored columns (the rowid alias filled in,
/// missing trailing columns NULL) then the rowid.
pub fn table_row(t: &TableDef, rowid: i64, mut row: Row) -> Row {
    // Rows stored before an ALTER TABLE ADD COLUMN are short.
    for c in &t.columns[row.len().min(t.columns.len())..] {
        row.push(c.pad.clone());
    }
    if let Some(a) = t.rowid_alias {
        row[a] = Value::Integer(rowid);
    }
    row.push(Value::Integer(rowid));
    row
}

/// A probe value for a rowid: numbers only (NULL, text, blob: none).
fn rowid_of(v: &Value) -> Option<i64> {
    match Affinity::Numeric.apply(v.clone()) {
        Value::Integer(i) => Some(i),
        Value::Real(f) if f.fract() == 0.0 && (-9.2e18..=9.2e18).contains(&f) => Some(f as i64),
        _ => None,
    }
}

fn eval_bound(b: &Bound<Expr>, cx: &Context) -> Result<Bound<Value>> {
    Ok(match b {
        Bound::Unbounded => Bound::Unbounded,
        Bound::Included(e) => Bound::Included(e.eval(&[], cx)?),
        Bound::Excluded(e) => Bound::Excluded(e.eval(&[], cx)?),
    })
}

/// Rowid bounds from value bounds, widened to stay a superset (the filter
/// re-checks). `None` means no row can match.
fn rowid_bounds(lo: Bound<Value>, hi: Bound<Value>) -> Option<(Bound<i64>, Bound<i64>)> {
    let conv = |b: Bound<Value>, low: bool| -> Option<Bound<i64>> {
        let (v, inc) = match b {
            Bound::Unbounded => return Some(Bound::Unbounded),
            Bound::Included(v) => (v, true),
            Bound::Excluded(v) => (v, false),
        };
        match Affinity::Numeric.apply(v) {
            Value::Null => None,
            Value::Integer(i) => Some(if inc { Bound::Included(i) } else { Bound::Excluded(i) }),
            Value::Real(f) => {
                let g = if low { f.floor() } else { f.ceil() };
                if !(-9.2e18..=9.2e18).contains(&g) {
                    // Beyond every rowid on one side or the other.
                    return if (g < 0.0) == low { Some(Bound::Unbounded) } else { None };
                }
                Some(Bound::Included(g as i64))
            }
            // Text and blobs sort after every number.
            _ => {
                if low {
                    None
                } else {
                    Some(Bound::Unbounded)
                }
            }
        }
    };
    Some((conv(lo, true)?, conv(hi, false)?))
}

impl ScanOp {
    fn open(&mut self, cx: &Context) -> Result<()> {
        self.state = match &self.access {
            Access::Full { reverse } => ScanState::Rows(cx.store.scan(
                &self.table,
                (Bound::Unbounded, Bound::Unbounded),
                *reverse,
            )?),
            Access::RowidIn(es) => {
                let mut ids = Vec::new();
                for e in es {
                    if let Some(i) = rowid_of(&e.eval(&[], cx)?) {
                        ids.push(i);
                    }
                }
                ids.sort_unstable();
                ids.dedup();
                ScanState::Rowids(ids.into_iter())
            }
            Access::RowidRange { lo, hi, reverse } => {
                match rowid_bounds(eval_bound(lo, cx)?, eval_bound(hi, cx)?) {
                    Some(r) => ScanState::Rows(cx.store.scan(&self.table, r, *reverse)?),
                    None => ScanState::Done,
                }
            }
            Access::Index { index, prefixes, lo, hi, affs, reverse, ordered, skip_nulls } => {
                let conv = |v: Value, j: usize| match affs.get(j).copied().flatten() {
                    Some(a) => a.apply(v),
                    None => v,
                };
                let mut ps: Vec<Vec<Value>> = Vec::new();
                'p: for p in prefixes {
                    let mut vs = Vec::new();
                    for (j, e) in p.iter().enumerate() {
                        let v = conv(e.eval(&[], cx)?, j);
                        if matches!(v, Value::Null) {
                            continue 'p;
                        }
                        vs.push(v);
                    }
                    ps.push(vs);
                }
                ps.sort_by(|a, b| cmp_key(a, b));
                ps.dedup_by(|a, b| cmp_key(a, b) == Ordering::Equal);
                let j = prefixes.first().map_or(0, Vec::len);
                let lo = eval_bound(lo, cx)?;
                let hi = eval_bound(hi, cx)?;
                let null = |b: &Bound<Value>| {
                    matches!(b, Bound::Included(Value::Null) | Bound::Excluded(Value::Null))
                };
                if null(&lo) || null(&hi) {
                    self.state = ScanState::Done;
                    return Ok(());
                }
                let ext = |p: &Vec<Value>, b: &Bound<Value>, lower: bool| -> Bound<Vec<Value>> {
                    let with = |v: &Value| {
                        let mut k = p.clone();
                        k.push(conv(v.clone(), j));
                        k
                    };
                    match b {
                        Bound::Included(v) => Bound::Included(with(v)),
                        Bound::Excluded(v) => Bound::Excluded(with(v)),
                        Bound::Unbounded if p.is_empty() => {
                            // `col < x` must not include NULLs at the low end.
                            if lower {
                                Bound::Excluded(vec![Value::Null])
                            } else {
                                Bound::Unbounded
                            }
                        }
                        Bound::Unbounded => Bound::Included(p.clone()),
                    }
                };
                let whole = |p: &Vec<Value>| {
                    !*skip_nulls
                        && p.is_empty()
                        && matches!((&lo, &hi), (Bound::Unbounded, Bound::Unbounded))
                };
                let mut ranges: Vec<KeyRange> = ps
                    .iter()
                    .map(|p| {
                        if whole(p) {
                            // No condition at all: every entry, NULLs included.
                            KeyRange::all()
                        } else {
                            KeyRange { start: ext(p, &lo, true), end: ext(p, &hi, false) }
                        }
                    })
                    .collect();
                if *reverse {
                    ranges.reverse();
                }
                ScanState::Index(Box::new(IndexScan {
                    ranges: ranges.into_iter(),
                    cur: None,
                    index: index.clone(),
                    reverse: *reverse,
                    ordered: *ordered,
                    run: Default::default(),
                    pending: None,
                }))
            }
        };
        Ok(())
    }
}

impl Operator for ScanOp {
    fn skip(&mut self, n: u64, cx: &Context) -> Result<u64> {
        if matches!(self.state, ScanState::Init) {
            self.open(cx)?;
        }
        match &mut self.state {
            // Without a filter every stored row is an output row.
            ScanState::Rows(c) if self.filter.is_none() => c.skip(n),
            ScanState::Done => Ok(0),
            _ => {
                let mut done = 0;
                while done < n && self.next(cx)?.is_some() {
                    done += 1;
                }
                Ok(done)
            }
        }
    }

    fn next(&mut self, cx: &Context) -> Result<Option<Row>> {
        if matches!(self.state, ScanState::Init) {
            self.open(cx)?;
        }
        loop {
            let (rowid, stored) = match &mut self.state {
                ScanState::Init | ScanState::Done => return Ok(None),
                ScanState::Rows(c) => match c.next()? {
                    Some(x) => x,
                    None => {
                        self.state = ScanState::Done;
                        return Ok(None);
                    }
                },
                ScanState::Rowids(it) => match it.next() {
                    Some(id) => match cx.store.get(&self.table, id)? {
                        Some(r) => (id, r),
                        None => continue,
                    },
                    None => return Ok(None),
                },
                ScanState::Index(scan) => match scan.next_rowid(cx)? {
                    Some(id) => match cx.store.get(&self.table, id)? {
                        Some(r) => (id, r),
                        None => {
                            return Err(Error::Corrupt(format!(
                                "index {} points at missing row {id}",
                                scan.index.name
                            )));
                        }
                    },
                    None => {
                        self.state = ScanState::Done;
                        return Ok(None);
                    }
                },
            };
            let row = table_row(&self.table, rowid, stored);
            match &self.filter {
                Some(f) if !f.is_true(&row, cx)? => continue,
                _ => return Ok(Some(row)),
            }
        }
    }
}

struct ValuesOp {
    rows: Vec<Vec<Expr>>,
    pos: usize,
}

impl Operator for ValuesOp {
    fn rewind(&mut self) -> bool {
        self.pos = 0;
        true
    }

    fn next(&mut self, cx: &Context) -> Result<Option<Row>> {
        let Some(r) = self.rows.get(self.pos) else { return Ok(None) };
        self.pos += 1;
        Ok(Some(r.iter().map(|e| e.eval(&[], cx)).collect::<Result<_>>()?))
    }
}

struct WidenOp {
    input: Box<dyn Operator>,
    offset: usize,
    width: usize,
}

impl Operator for WidenOp {
    fn rewind(&mut self) -> bool {
        self.input.rewind()
    }

    fn next(&mut self, cx: &Context) -> Result<Option<Row>> {
        let Some(r) = self.input.next(cx)? else { return Ok(None) };
        if self.offset == 0 && r.len() == self.width {
            return Ok(Some(r));
        }
        let mut w = vec![Value::Null; self.width];
        for (i, v) in r.into_iter().enumerate() {
            w[self.offset + i] = v;
        }
        Ok(Some(w))
    }

    fn limit_hint(&mut self, rows: u64) {
        self.input.limit_hint(rows);
    }

    fn skip(&mut self, n: u64, cx: &Context) -> Result<u64> {
        self.input.skip(n, cx)
    }
}

/// A hash key: equal under SQLite comparison ⇔ equal keys (1 and 1.0 too).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum HKey {
    Int(i64),
    Real(u64),
    Text(String),
    Blob(Vec<u8>),
}

fn hkey(v: Value) -> Option<HKey> {
    Some(match v {
        Value::Null => return None,
        Value::Integer(i) => HKey::Int(i),
        Value::Real(f) => {
            if f.fract() == 0.0 && (-9.2e18..=9.2e18).contains(&f) && (f as i64) as f64 == f {
                HKey::Int(f as i64)
            } else {
                HKey::Real(f.to_bits())
            }
        }
        Value::Text(s) => HKey::Text(s),
        Value::Blob(b) => HKey::Blob(b),
    })
}

fn conv(v: Value, aff: Option<Affinity>) -> Value {
    match aff {
        Some(a) => a.apply(v),
        None => v,
    }
}

struct JoinOp {
    left: Box<dyn Operator>,
    /// Taken (and drained into `rows`) on the first call.
    right: Option<Box<dyn Operator>>,
    offset: usize,
    kind: JoinKind,
    keys: Vec<(Expr, Expr, Option<Affinity>)>,
    on: Option<Expr>,
    rows: Vec<Row>,
    hash: HashMap<Vec<HKey>, Vec<usize>>,
    cur: Option<Row>,
    cands: Vec<usize>,
    pos: usize,
    matched: bool,
    /// Grace hash join: partitions still to join, as (left, right) spill
    /// files; set when the build side outgrew the memory budget.
    pending: Vec<(sort::SpillReader, sort::SpillReader)>,
}

/// Partitions of a spilled hash join.
const PARTITIONS: usize = 16;

fn partition_of(k: &[HKey]) -> usize {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    k.hash(&mut h);
    (h.finish() % PARTITIONS as u64) as usize
}

impl JoinOp {
    /// The hash key of a row on one side; `None` if a part is NULL (such
    /// a row matches nothing).
    fn key_of(&self, r: &[Value], left: bool, cx: &Context) -> Result<Option<Vec<HKey>>> {
        let mut k = Vec::with_capacity(self.keys.len());
        for (le, re, aff) in &self.keys {
            let e = if left { le } else { re };
            match hkey(conv(e.eval(r, cx)?, *aff)) {
                Some(h) => k.push(h),
                None => return Ok(None),
            }
        }
        Ok(Some(k))
    }

    fn add_build_row(&mut self, r: Row, cx: &Context) -> Result<()> {
        if !self.keys.is_empty() {
            let Some(k) = self.key_of(&r, false, cx)? else { return Ok(()) };
            self.hash.entry(k).or_default().push(self.rows.len());
        }
        self.rows.push(r);
        Ok(())
    }

    fn load(&mut self, cx: &Context) -> Result<()> {
        let Some(mut right) = self.right.take() else { return Ok(()) };
        let mut size = 0;
        while let Some(r) = right.next(cx)? {
            size += r.iter().map(sort::approx_size).sum::<usize>() + 48;
            self.add_build_row(r, cx)?;
            if size > cx.budget && !self.keys.is_empty() {
                return self.partition(right, cx);
            }
        }
        Ok(())
    }

    /// Spills both sides into partitions by key hash (Grace hash join).
    /// Left rows whose key has a NULL go to a last partition with no right
    /// rows, so a LEFT join still emits them.
    fn partition(&mut self, mut right: Box<dyn Operator>, cx: &Context) -> Result<()> {
        let mut rparts: Vec<sort::RowSpill> =
            (0..PARTITIONS).map(|_| sort::RowSpill::new()).collect::<Result<_>>()?;
        let mut lparts: Vec<sort::RowSpill> =
            (0..=PARTITIONS).map(|_| sort::RowSpill::new()).collect::<Result<_>>()?;
        let rows = std::mem::take(&mut self.rows);
        self.hash.clear();
        for r in rows.into_iter() {
            if let Some(k) = self.key_of(&r, false, cx)? {
                rparts[partition_of(&k)].push(&r)?;
            }
        }
        while let Some(r) = right.next(cx)? {
            if let Some(k) = self.key_of(&r, false, cx)? {
                rparts[partition_of(&k)].push(&r)?;
            }
        }
        while let Some(l) = self.left.next(cx)? {
            match self.key_of(&l, true, cx)? {
                Some(k) => lparts[partition_of(&k)].push(&l)?,
                None => lparts[PARTITIONS].push(&l)?,
            }
        }
        let null_part = lparts.pop().expect("PARTITIONS + 1 parts");
        self.pending.push((null_part.reader()?, sort::RowSpill::new()?.reader()?));
        for (l, r) in lparts.into_iter().zip(rparts).rev() {
            self.pending.push((l.reader()?, r.reader()?));
        }
        self.next_partition(cx)?;
        Ok(())
    }

    /// Loads the next partition's build side; `false` when none is left.
    fn next_partition(&mut self, cx: &Context) -> Result<bool> {
        let Some((l, mut r)) = self.pending.pop() else { return Ok(false) };
        self.rows.clear();
        self.hash.clear();
        while let Some(row) = r.next_row()? {
            self.add_build_row(row, cx)?;
        }
        self.left = Box::new(l);
        Ok(true)
    }
}

impl Operator for JoinOp {
    fn next(&mut self, cx: &Context) -> Result<Option<Row>> {
        self.load(cx)?;
        loop {
            if self.cur.is_none() {
                let Some(l) = self.left.next(cx)? else {
                    if self.next_partition(cx)? {
                        continue;
                    }
                    return Ok(None);
                };
                self.cands = if self.keys.is_empty() {
                    (0..self.rows.len()).collect()
                } else {
                    match self.key_of(&l, true, cx)? {
                        Some(k) => self.hash.get(&k).cloned().unwrap_or_default(),
                        None => Vec::new(),
                    }
                };
                self.cur = Some(l);
                self.pos = 0;
                self.matched = false;
            }
            let l = self.cur.as_ref().expect("set above");
            while self.pos < self.cands.len() {
                cx.store.check_interrupt()?;
                let r = &self.rows[self.cands[self.pos]];
                self.pos += 1;
                let mut row = l.clone();
                row[self.offset..self.offset + r.len()].clone_from_slice(r);
                if let Some(on) = &self.on
                    && !on.is_true(&row, cx)?
                {
                    continue;
                }
                self.matched = true;
                return Ok(Some(row));
            }
            let l = self.cur.take().expect("set above");
            if self.kind == JoinKind::Left && !self.matched {
                return Ok(Some(l));
            }
        }
    }
}

struct FilterOp {
    input: Box<dyn Operator>,
    pred: Expr,
}

impl Operator for FilterOp {
    fn rewind(&mut self) -> bool {
        self.input.rewind()
    }

    fn next(&mut self, cx: &Context) -> Result<Option<Row>> {
        while let Some(r) = self.input.next(cx)? {
            if self.pred.is_true(&r, cx)? {
                return Ok(Some(r));
            }
        }
        Ok(None)
    }
}

struct ProjectOp {
    input: Box<dyn Operator>,
    exprs: Vec<Expr>,
    /// When every expression is a different plain column: their offsets,
    /// so values move out of the input row instead of being copied.
    moves: Option<Vec<usize>>,
}

/// The column offsets of a projection of distinct plain columns.
fn moves(exprs: &[Expr]) -> Option<Vec<usize>> {
    let cols: Vec<usize> = exprs
        .iter()
        .map(|e| match e {
            Expr::Column(i) => Some(*i),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let distinct: BTreeSet<usize> = cols.iter().copied().collect();
    (distinct.len() == cols.len()).then_some(cols)
}

impl Operator for ProjectOp {
    fn rewind(&mut self) -> bool {
        self.input.rewind()
    }

    fn next(&mut self, cx: &Context) -> Result<Option<Row>> {
        let Some(mut r) = self.input.next(cx)? else { return Ok(None) };
        if let Some(cols) = &self.moves {
            let mut out = Vec::with_capacity(cols.len());
            for &i in cols {
                let v = r.get_mut(i).ok_or_else(|| crate::expr::bad_col(i))?;
                out.push(std::mem::replace(v, Value::Null));
            }
            return Ok(Some(out));
        }
        Ok(Some(self.exprs.iter().map(|e| e.eval(&r, cx)).collect::<Result<_>>()?))
    }

    fn limit_hint(&mut self, rows: u64) {
        self.input.limit_hint(rows);
    }

    /// One output row per input row: skipping rows skips their input (a
    /// skipped row's expressions are never evaluated, as with SQLite's
    /// OFFSET).
    fn skip(&mut self, n: u64, cx: &Context) -> Result<u64> {
        self.input.skip(n, cx)
    }
}

/// GROUP BY / aggregates. Rows fold into a `BTreeMap` of groups (so groups
/// come out in key order, as SQLite's do). When the map outgrows the memory
/// budget it is frozen: rows of groups already in it keep folding, rows of
/// new groups go to the external sort and are aggregated as a stream at
/// the end. A group lives entirely in one of the two, so the output is the
/// merge, by key, of two sorted sequences of complete groups.
struct AggregateOp {
    input: Option<Box<dyn Operator>>,
    keys: Vec<Expr>,
    aggs: Vec<AggCall>,
    always_one: bool,
    width: usize,
    out: AggOut,
}

struct AggOut {
    mem: std::iter::Peekable<std::vec::IntoIter<Row>>,
    sorted: Option<Box<sort::SortOp>>,
    cur: Option<Group>,
    /// The next complete group from the sorted stream.
    pending: Option<Row>,
}

impl AggOut {
    fn empty() -> AggOut {
        AggOut { mem: Vec::new().into_iter().peekable(), sorted: None, cur: None, pending: None }
    }
}

/// A group being aggregated: key, states, last input row.
type Group = (Vec<Value>, Vec<vals::Aggregate>, Row);

/// Groups in key order: states and last input row.
type GroupMap = BTreeMap<OrdKey, (Vec<vals::Aggregate>, Row)>;

/// Yields the rows of a spill file, evaluated lazily by the sort.
struct VecOp(std::vec::IntoIter<Row>, Option<Box<dyn Operator>>);

impl Operator for VecOp {
    fn next(&mut self, cx: &Context) -> Result<Option<Row>> {
        match self.0.next() {
            Some(r) => Ok(Some(r)),
            None => match &mut self.1 {
                Some(op) => op.next(cx),
                None => Ok(None),
            },
        }
    }
}

fn step_all(
    aggs: &[AggCall],
    states: &mut [vals::Aggregate],
    r: &[Value],
    cx: &Context,
) -> Result<()> {
    let mut args = Vec::new();
    for (a, call) in states.iter_mut().zip(aggs) {
        args.clear();
        for e in &call.args {
            args.push(e.eval(r, cx)?);
        }
        a.step(&args)?;
    }
    Ok(())
}

fn fresh_states(aggs: &[AggCall]) -> Result<Vec<vals::Aggregate>> {
    aggs.iter().map(|a| vals::Aggregate::new(&a.name, a.distinct, a.args.len())).collect()
}

fn finish_group(key: Vec<Value>, mut states: Vec<vals::Aggregate>, last: Row) -> Result<Row> {
    let mut row = key;
    for a in &mut states {
        row.push(a.finish()?);
    }
    row.extend(last);
    Ok(row)
}

impl AggregateOp {
    fn run(&mut self, cx: &Context) -> Result<()> {
        let Some(mut input) = self.input.take() else { return Ok(()) };
        let mut groups: GroupMap = BTreeMap::new();
        let mut size = 0;
        // Rows of groups first seen after the map was frozen.
        let mut spill: Option<Vec<Row>> = None;
        let per_group = 64 + 64 * self.aggs.len();
        while let Some(r) = input.next(cx)? {
            let k = OrdKey(self.keys.iter().map(|e| e.eval(&r, cx)).collect::<Result<_>>()?);
            if let Some(g) = groups.get_mut(&k) {
                step_all(&self.aggs, &mut g.0, &r, cx)?;
                g.1 = r;
                continue;
            }
            if let Some(sp) = &mut spill {
                sp.push(r);
                if sp.len() >= 1024 {
                    // Hand batches to the sort, which spills past the budget.
                    break;
                }
                continue;
            }
            size += per_group
                + k.0.iter().map(sort::approx_size).sum::<usize>()
                + r.iter().map(sort::approx_size).sum::<usize>();
            let mut st = fresh_states(&self.aggs)?;
            step_all(&self.aggs, &mut st, &r, cx)?;
            groups.insert(k, (st, r));
            if size > cx.budget && !self.keys.is_empty() {
                spill = Some(Vec::new());
            }
        }
        let sorted = match spill {
            None => None,
            Some(buf) => {
                // The rest of the input: rows of frozen groups fold here as
                // they pass; the others go on to the sort.
                let shared = Arc::new(parking_lot::Mutex::new(std::mem::take(&mut groups)));
                let rest = FoldFilter {
                    input,
                    groups: shared.clone(),
                    keys: self.keys.clone(),
                    aggs: self.aggs.clone(),
                };
                let keys = self
                    .keys
                    .iter()
                    .map(|e| SortKey {
                        expr: e.clone(),
                        desc: false,
                        coll: Collation::Binary,
                        nulls_first: true,
                    })
                    .collect();
                let mut sorted =
                    sort::SortOp::new(Box::new(VecOp(buf.into_iter(), Some(Box::new(rest)))), keys);
                // Drive the sort now (it drains its input, FoldFilter
                // included) so the frozen groups are complete.
                sorted.prepare(cx)?;
                groups = std::mem::take(&mut *shared.lock());
                Some(Box::new(sorted))
            }
        };
        if groups.is_empty() && self.always_one && sorted.is_none() {
            groups.insert(
                OrdKey(Vec::new()),
                (fresh_states(&self.aggs)?, vec![Value::Null; self.width]),
            );
        }
        let mut out = Vec::with_capacity(groups.len());
        for (k, (aggs, last)) in groups {
            out.push(finish_group(k.0, aggs, last)?);
        }
        self.out = AggOut { mem: out.into_iter().peekable(), sorted, cur: None, pending: None };
        Ok(())
    }

    /// The next complete group of the sorted stream.
    fn next_stream_group(&mut self, cx: &Context) -> Result<Option<Row>> {
        let Some(sorted) = &mut self.out.sorted else { return Ok(None) };
        let cur = &mut self.out.cur;
        loop {
            let Some(r) = sorted.next(cx)? else {
                return match cur.take() {
                    Some((k, st, last)) => finish_group(k, st, last).map(Some),
                    None => Ok(None),
                };
            };
            let k: Vec<Value> = self.keys.iter().map(|e| e.eval(&r, cx)).collect::<Result<_>>()?;
            if let Some(c) = cur.as_mut()
                && cmp_key(&c.0, &k) == Ordering::Equal
            {
                step_all(&self.aggs, &mut c.1, &r, cx)?;
                c.2 = r;
                continue;
            }
            let mut states = fresh_states(&self.aggs)?;
            step_all(&self.aggs, &mut states, &r, cx)?;
            if let Some((pk, pst, plast)) = cur.replace((k, states, r)) {
                return finish_group(pk, pst, plast).map(Some);
            }
        }
    }
}

/// Passes rows of groups not in `groups` through; folds the others.
struct FoldFilter {
    input: Box<dyn Operator>,
    groups: Arc<parking_lot::Mutex<GroupMap>>,
    keys: Vec<Expr>,
    aggs: Vec<AggCall>,
}

impl Operator for FoldFilter {
    fn next(&mut self, cx: &Context) -> Result<Option<Row>> {
        while let Some(r) = self.input.next(cx)? {
            let k = OrdKey(self.keys.iter().map(|e| e.eval(&r, cx)).collect::<Result<_>>()?);
            match self.groups.lock().get_mut(&k) {
                Some(g) => {
                    step_all(&self.aggs, &mut g.0, &r, cx)?;
                    g.1 = r;
                }
                None => return Ok(Some(r)),
            }
        }
        Ok(None)
    }
}

impl Operator for AggregateOp {
    fn next(&mut self, cx: &Context) -> Result<Option<Row>> {
        self.run(cx)?;
        if self.out.pending.is_none() && self.out.sorted.is_some() {
            self.out.pending = self.next_stream_group(cx)?;
            if self.out.pending.is_none() {
                self.out.sorted = None;
            }
        }
        let nk = self.keys.len();
        let take_mem = match (self.out.mem.peek(), &self.out.pending) {
            (Some(m), Some(p)) => cmp_key(&m[..nk], &p[..nk]) == Ordering::Less,
            (Some(_), None) => true,
            (None, _) => false,
        };
        if take_mem {
            return Ok(self.out.mem.next());
        }
        Ok(self.out.pending.take())
    }
}

struct LimitOp {
    input: Box<dyn Operator>,
    limit: Option<Expr>,
    offset: Option<Expr>,
    /// (remaining rows to return, rows still to skip)
    state: Option<(Option<u64>, u64)>,
}

fn limit_value(e: &Expr, cx: &Context) -> Result<i64> {
    match Affinity::Numeric.apply(e.eval(&[], cx)?) {
        Value::Integer(i) => Ok(i),
        _ => Err(Error::InvalidInput("datatype mismatch".into())),
    }
}

/// The values of a LIMIT and an OFFSET: a negative LIMIT is none, a
/// negative OFFSET is 0 (SQLite's rules).
fn limit_offset(
    limit: &Option<Expr>,
    offset: &Option<Expr>,
    cx: &Context,
) -> Result<(Option<u64>, u64)> {
    let limit = match limit {
        Some(e) => u64::try_from(limit_value(e, cx)?).ok(),
        None => None,
    };
    let offset = match offset {
        Some(e) => u64::try_from(limit_value(e, cx)?).unwrap_or(0),
        None => 0,
    };
    Ok((limit, offset))
}

impl Operator for LimitOp {
    fn next(&mut self, cx: &Context) -> Result<Option<Row>> {
        if self.state.is_none() {
            let (limit, offset) = limit_offset(&self.limit, &self.offset, cx)?;
            if let Some(l) = limit {
                self.input.limit_hint(l.saturating_add(offset));
            }
            self.state = Some((limit, offset));
        }
        let (limit, skip) = self.state.as_mut().expect("set above");
        if *limit == Some(0) {
            return Ok(None);
        }
        if *skip > 0 {
            let want = std::mem::take(skip);
            if self.input.skip(want, cx)? < want {
                return Ok(None);
            }
        }
        let r = self.input.next(cx)?;
        if let (Some(_), Some(l)) = (&r, limit) {
            *l -= 1;
        }
        Ok(r)
    }
}

struct DistinctOp {
    input: Box<dyn Operator>,
    ncols: usize,
    seen: BTreeSet<OrdKey>,
}

impl Operator for DistinctOp {
    fn next(&mut self, cx: &Context) -> Result<Option<Row>> {
        while let Some(r) = self.input.next(cx)? {
            let k = OrdKey(r[..self.ncols.min(r.len())].to_vec());
            if self.seen.insert(k) {
                return Ok(Some(r));
            }
        }
        Ok(None)
    }
}

struct SetOpOp {
    op: SetOp,
    left: Option<Box<dyn Operator>>,
    right: Option<Box<dyn Operator>>,
    out: Option<std::vec::IntoIter<Row>>,
}

fn drain(op: &mut dyn Operator, cx: &Context) -> Result<BTreeSet<OrdKey>> {
    let mut s = BTreeSet::new();
    while let Some(r) = op.next(cx)? {
        s.insert(OrdKey(r));
    }
    Ok(s)
}

impl Operator for SetOpOp {
    fn next(&mut self, cx: &Context) -> Result<Option<Row>> {
        if self.op == SetOp::UnionAll {
            if let Some(l) = &mut self.left {
                if let Some(r) = l.next(cx)? {
                    return Ok(Some(r));
                }
                self.left = None;
            }
            return match &mut self.right {
                Some(r) => r.next(cx),
                None => Ok(None),
            };
        }
        if self.out.is_none() {
            let mut l = self.left.take().expect("not yet run");
            let mut r = self.right.take().expect("not yet run");
            let a = drain(l.as_mut(), cx)?;
            let b = drain(r.as_mut(), cx)?;
            let rows: Vec<Row> = match self.op {
                SetOp::Union => a.union(&b).map(|k| k.0.clone()).collect(),
                SetOp::Except => a.difference(&b).map(|k| k.0.clone()).collect(),
                SetOp::Intersect => a.intersection(&b).map(|k| k.0.clone()).collect(),
                SetOp::UnionAll => unreachable!("handled above"),
            };
            self.out = Some(rows.into_iter());
        }
        Ok(self.out.as_mut().and_then(Iterator::next))
    }
}

fn cached(cx: &Context, sub: &SubPlan) -> Option<Cached> {
    if sub.correlated { None } else { cx.cache.map.borrow().get(&sub.id).cloned() }
}

fn remember(cx: &Context, sub: &SubPlan, c: Cached) {
    if !sub.correlated {
        cx.cache.map.borrow_mut().insert(sub.id, c);
    }
}

/// The first column of the first row, or NULL.
pub fn subquery_scalar(sub: &Arc<SubPlan>, outer: &[Value], cx: &Context) -> Result<Value> {
    if let Some(Cached::Scalar(v)) = cached(cx, sub) {
        return Ok(v);
    }
    let child = cx.child(outer);
    let mut op = build(&sub.node);
    let v = op.next(&child)?.and_then(|r| r.into_iter().next()).unwrap_or(Value::Null);
    remember(cx, sub, Cached::Scalar(v.clone()));
    Ok(v)
}

pub fn subquery_exists(sub: &Arc<SubPlan>, outer: &[Value], cx: &Context) -> Result<bool> {
    if let Some(Cached::Exists(b)) = cached(cx, sub) {
        return Ok(b);
    }
    let child = cx.child(outer);
    let mut op = build(&sub.node);
    let b = op.next(&child)?.is_some();
    remember(cx, sub, Cached::Exists(b));
    Ok(b)
}

/// `x IN (subquery)` with three-valued logic: `None` is NULL.
pub fn subquery_in(
    sub: &Arc<SubPlan>,
    outer: &[Value],
    cx: &Context,
    x: Value,
    aff: Option<Affinity>,
) -> Result<Option<bool>> {
    let set = match cached(cx, sub) {
        Some(Cached::In(s)) => s,
        _ => {
            let child = cx.child(outer);
            let mut op = build(&sub.node);
            let mut set = BTreeSet::new();
            let mut has_null = false;
            while let Some(r) = op.next(&child)? {
                let v = conv(r.into_iter().next().unwrap_or(Value::Null), aff);
                if matches!(v, Value::Null) {
                    has_null = true;
                } else {
                    set.insert(OrdKey(vec![v]));
                }
            }
            let s = Arc::new(InSet { set, has_null });
            remember(cx, sub, Cached::In(s.clone()));
            s
        }
    };
    if set.set.is_empty() && !set.has_null {
        return Ok(Some(false));
    }
    let x = conv(x, aff);
    if matches!(x, Value::Null) {
        return Ok(None);
    }
    if set.set.contains(&OrdKey(vec![x])) {
        return Ok(Some(true));
    }
    Ok(if set.has_null { None } else { Some(false) })
}

/// Collation is only BINARY in sets and groups for now.
#[allow(dead_code)]
fn binary() -> Collation {
    Collation::Binary
}
