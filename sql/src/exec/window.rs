//! Window functions: one [`WindowOp`] per window (PARTITION BY + ORDER BY),
//! with SQLite's semantics (windowfunctions.html; window.c).
//!
//! The input goes through the external sort ([`sort::SortOp`], which
//! spills past the memory budget) by `partition ++ order`; the sorted rows
//! are then read one partition at a time, every call computed over the
//! partition, and each row leaves with one column per call appended.
//! Ties in the window's order keep their input order (the sort is
//! stable).
//!
//! - Ranking functions (`row_number`, `rank`, `dense_rank`,
//!   `percent_rank`, `cume_dist`, `ntile`) and `lag`/`lead` ignore the
//!   frame, as SQLite's do; peers are rows equal on every ORDER BY term
//!   (all rows of a partition without ORDER BY).
//! - `first_value`, `last_value`, `nth_value` and aggregates read the
//!   frame: `ROWS` counts rows, `GROUPS` peer groups, `RANGE` compares the
//!   ORDER BY value with the offset added or subtracted (a TEXT or BLOB
//!   value gets no offset, a NULL value's offset frame is its NULL peers,
//!   as in SQLite); `EXCLUDE` removes the current row, its group, or its
//!   ties. Offsets must be non-negative integers (ROWS, GROUPS) or
//!   numbers (RANGE), with SQLite's messages.
//! - An aggregate whose frame starts at UNBOUNDED PRECEDING and excludes
//!   nothing is stepped incrementally; other frames are aggregated afresh
//!   for each row (O(rows × frame)).
//!
//! Memory: the sort is bounded by the budget; the partition being
//! computed is held in memory.

use super::*;
use crate::planner::{Exclude, Frame, FrameBound, FrameUnits, WinCall, WinFunc};

pub(super) struct WindowOp {
    sort: sort::SortOp,
    partition: Vec<SortKey>,
    order: Vec<SortKey>,
    calls: Vec<WinCall>,
    /// The first row of the next partition, already read.
    pending: Option<(Vec<Value>, Row)>,
    out: std::vec::IntoIter<Row>,
    done: bool,
}

impl WindowOp {
    pub(super) fn new(
        input: Box<dyn Operator>,
        partition: Vec<SortKey>,
        order: Vec<SortKey>,
        calls: Vec<WinCall>,
    ) -> WindowOp {
        let keys = partition.iter().chain(&order).cloned().collect();
        WindowOp {
            sort: sort::SortOp::new(input, keys),
            partition,
            order,
            calls,
            pending: None,
            out: Vec::new().into_iter(),
            done: false,
        }
    }

    fn part_key(&self, r: &[Value], cx: &Context) -> Result<Vec<Value>> {
        self.partition.iter().map(|k| k.expr.eval(r, cx)).collect()
    }

    /// Reads the next partition; `None` at the end of the input.
    fn next_partition(&mut self, cx: &Context) -> Result<Option<Vec<Row>>> {
        let mut rows = Vec::new();
        let key = match self.pending.take() {
            Some((k, r)) => {
                rows.push(r);
                k
            }
            None => match self.sort.next(cx)? {
                Some(r) => {
                    let k = self.part_key(&r, cx)?;
                    rows.push(r);
                    k
                }
                None => return Ok(None),
            },
        };
        while let Some(r) = self.sort.next(cx)? {
            let k = self.part_key(&r, cx)?;
            if sort::cmp_keys(&self.partition, &key, &k) != Ordering::Equal {
                self.pending = Some((k, r));
                break;
            }
            rows.push(r);
        }
        Ok(Some(rows))
    }
}

impl Operator for WindowOp {
    fn next(&mut self, cx: &Context) -> Result<Option<Row>> {
        loop {
            if let Some(r) = self.out.next() {
                return Ok(Some(r));
            }
            if self.done {
                return Ok(None);
            }
            match self.next_partition(cx)? {
                None => self.done = true,
                Some(rows) => {
                    let p = Partition::new(rows, &self.order, cx)?;
                    let mut results = Vec::with_capacity(self.calls.len());
                    for call in &self.calls {
                        results.push(p.compute(call, cx)?);
                    }
                    let mut rows = p.rows;
                    for res in results {
                        for (row, v) in rows.iter_mut().zip(res) {
                            row.push(v);
                        }
                    }
                    self.out = rows.into_iter();
                }
            }
        }
    }
}

/// One partition's rows in window order, with their peer groups.
struct Partition {
    rows: Vec<Row>,
    /// The ORDER BY values of each row.
    okeys: Vec<Vec<Value>>,
    order: Vec<SortKey>,
    /// Peer group of each row; first and last row of each group.
    grp: Vec<usize>,
    gstart: Vec<usize>,
    gend: Vec<usize>,
}

/// A frame over row indices: `lo..=hi` (empty when `lo > hi`) minus the
/// excluded rows.
#[derive(Clone, Copy)]
struct Span {
    lo: usize,
    hi: isize,
}

fn offset_err(start: bool, what: &str) -> Error {
    Error::InvalidInput(format!(
        "frame {} offset must be a non-negative {what}",
        if start { "starting" } else { "ending" }
    ))
}

/// A ROWS/GROUPS offset: a non-negative integer (an integral REAL or
/// numeric TEXT converts, as SQLite's OP_MustBeInt does).
fn int_offset(v: Value, start: bool) -> Result<u64> {
    match Affinity::Numeric.apply(v) {
        Value::Integer(i) if i >= 0 => Ok(i as u64),
        Value::Real(r) if r >= 0.0 && r.fract() == 0.0 && r < 9.2e18 => Ok(r as u64),
        _ => Err(offset_err(start, "integer")),
    }
}

/// A RANGE offset: a non-negative number.
fn num_offset(v: Value, start: bool) -> Result<Value> {
    match Affinity::Numeric.apply(v) {
        Value::Integer(i) if i >= 0 => Ok(Value::Integer(i)),
        Value::Real(r) if r >= 0.0 => Ok(Value::Real(r)),
        _ => Err(offset_err(start, "number")),
    }
}

/// The first `r` in `0..n` where `pred` is false (`pred` holds for a
/// prefix of the rows).
fn first_false(n: usize, pred: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (0, n);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if pred(mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

/// A bound with its offset evaluated.
enum Bound {
    UnboundedPreceding,
    Preceding(Value),
    CurrentRow,
    Following(Value),
    UnboundedFollowing,
}

impl Partition {
    fn new(rows: Vec<Row>, order: &[SortKey], cx: &Context) -> Result<Partition> {
        let mut okeys = Vec::with_capacity(rows.len());
        for r in &rows {
            okeys.push(order.iter().map(|k| k.expr.eval(r, cx)).collect::<Result<Vec<_>>>()?);
        }
        let mut grp = Vec::with_capacity(rows.len());
        let mut gstart = Vec::new();
        let mut gend = Vec::new();
        for i in 0..rows.len() {
            if i == 0 || sort::cmp_keys(order, &okeys[i - 1], &okeys[i]) != Ordering::Equal {
                if i > 0 {
                    gend.push(i - 1);
                }
                gstart.push(i);
            }
            grp.push(gstart.len() - 1);
        }
        if !rows.is_empty() {
            gend.push(rows.len() - 1);
        }
        Ok(Partition { rows, okeys, order: order.to_vec(), grp, gstart, gend })
    }

    fn n(&self) -> usize {
        self.rows.len()
    }

    fn compute(&self, call: &WinCall, cx: &Context) -> Result<Vec<Value>> {
        let n = self.n();
        let arg = |k: usize, i: usize| call.args[k].eval(&self.rows[i], cx);
        let mut out = Vec::with_capacity(n);
        match &call.func {
            WinFunc::RowNumber => out.extend((1..=n as i64).map(Value::Integer)),
            WinFunc::Rank => {
                out.extend((0..n).map(|i| Value::Integer(self.gstart[self.grp[i]] as i64 + 1)))
            }
            WinFunc::DenseRank => {
                out.extend((0..n).map(|i| Value::Integer(self.grp[i] as i64 + 1)))
            }
            WinFunc::PercentRank => out.extend((0..n).map(|i| {
                let rank = self.gstart[self.grp[i]] as f64;
                Value::Real(if n > 1 { rank / (n - 1) as f64 } else { 0.0 })
            })),
            WinFunc::CumeDist => out.extend(
                (0..n).map(|i| Value::Real((self.gend[self.grp[i]] + 1) as f64 / n as f64)),
            ),
            WinFunc::Ntile => {
                // SQLite reads the count from the partition's first row.
                let np = arg(0, 0)?.to_i64();
                if np <= 0 {
                    return Err(Error::InvalidInput(
                        "argument of ntile must be a positive integer".into(),
                    ));
                }
                let total = n as i64;
                let size = total / np;
                for i in 0..total {
                    out.push(Value::Integer(if size == 0 {
                        i + 1
                    } else {
                        let large = total - np * size;
                        let small_from = large * (size + 1);
                        if i < small_from {
                            1 + i / (size + 1)
                        } else {
                            1 + large + (i - small_from) / size
                        }
                    }));
                }
            }
            WinFunc::Lag | WinFunc::Lead => {
                let lead = call.func == WinFunc::Lead;
                for i in 0..n {
                    let off = if call.args.len() > 1 {
                        match Affinity::Numeric.apply(arg(1, i)?) {
                            Value::Integer(k) => Some(k),
                            Value::Real(r) if r.fract() == 0.0 && r.abs() < 9.2e18 => {
                                Some(r as i64)
                            }
                            _ => None,
                        }
                    } else {
                        Some(1)
                    };
                    let target = off.and_then(|k| {
                        let t = if lead {
                            (i as i64).checked_add(k)
                        } else {
                            (i as i64).checked_sub(k)
                        }?;
                        (0..n as i64).contains(&t).then_some(t as usize)
                    });
                    out.push(match target {
                        Some(t) => arg(0, t)?,
                        None if call.args.len() > 2 => arg(2, i)?,
                        None => Value::Null,
                    });
                }
            }
            WinFunc::FirstValue | WinFunc::LastValue | WinFunc::NthValue | WinFunc::Agg(_) => {
                return self.framed(call, cx);
            }
        }
        Ok(out)
    }

    fn bound(&self, b: &FrameBound, units: FrameUnits, start: bool, cx: &Context) -> Result<Bound> {
        let off = |e: &crate::expr::Expr| -> Result<Value> {
            let v = e.eval(&[], cx)?;
            Ok(match units {
                FrameUnits::Range => num_offset(v, start)?,
                _ => Value::Integer(int_offset(v, start)?.min(i64::MAX as u64) as i64),
            })
        };
        Ok(match b {
            FrameBound::UnboundedPreceding => Bound::UnboundedPreceding,
            FrameBound::Preceding(e) => Bound::Preceding(off(e)?),
            FrameBound::CurrentRow => Bound::CurrentRow,
            FrameBound::Following(e) => Bound::Following(off(e)?),
            FrameBound::UnboundedFollowing => Bound::UnboundedFollowing,
        })
    }

    /// The first row of the frame of row `i` (may be `n`: empty).
    fn start_of(&self, f: FrameUnits, b: &Bound, i: usize) -> usize {
        let n = self.n();
        let g = self.grp[i];
        match (f, b) {
            (_, Bound::UnboundedPreceding) => 0,
            (_, Bound::UnboundedFollowing) => n,
            (FrameUnits::Rows, Bound::CurrentRow) => i,
            (_, Bound::CurrentRow) => self.gstart[g],
            (FrameUnits::Rows, Bound::Preceding(k)) => i.saturating_sub(k.to_i64() as usize),
            (FrameUnits::Rows, Bound::Following(k)) => i.saturating_add(k.to_i64() as usize).min(n),
            (FrameUnits::Groups, Bound::Preceding(k)) => {
                self.gstart[g.saturating_sub(k.to_i64() as usize)]
            }
            (FrameUnits::Groups, Bound::Following(k)) => {
                let t = g.saturating_add(k.to_i64() as usize);
                self.gstart.get(t).copied().unwrap_or(n)
            }
            (FrameUnits::Range, Bound::Preceding(k)) => self.range_start(i, k, false),
            (FrameUnits::Range, Bound::Following(k)) => self.range_start(i, k, true),
        }
    }

    /// The last row of the frame of row `i` (may be -1: empty).
    fn end_of(&self, f: FrameUnits, b: &Bound, i: usize) -> isize {
        let n = self.n() as isize;
        let g = self.grp[i];
        let ii = i as isize;
        let k = |v: &Value| v.to_i64().min(isize::MAX as i64) as isize;
        match (f, b) {
            (_, Bound::UnboundedFollowing) => n - 1,
            (_, Bound::UnboundedPreceding) => -1,
            (FrameUnits::Rows, Bound::CurrentRow) => ii,
            (_, Bound::CurrentRow) => self.gend[g] as isize,
            (FrameUnits::Rows, Bound::Preceding(v)) => ii.saturating_sub(k(v)).max(-1),
            (FrameUnits::Rows, Bound::Following(v)) => ii.saturating_add(k(v)).min(n - 1),
            (FrameUnits::Groups, Bound::Preceding(v)) => {
                let t = g as isize - k(v);
                if t < 0 { -1 } else { self.gend[t as usize] as isize }
            }
            (FrameUnits::Groups, Bound::Following(v)) => {
                let t = (g as isize).saturating_add(k(v)).min(self.gend.len() as isize - 1);
                self.gend[t as usize] as isize
            }
            (FrameUnits::Range, Bound::Preceding(v)) => self.range_end(i, v, false),
            (FrameUnits::Range, Bound::Following(v)) => self.range_end(i, v, true),
        }
    }

    /// The ORDER BY value of row `i` moved by `k` towards `forward` in the
    /// window's order (TEXT and BLOB values do not move, as in SQLite).
    fn moved(&self, i: usize, k: &Value, forward: bool) -> Value {
        let v = &self.okeys[i][0];
        if !matches!(v, Value::Integer(_) | Value::Real(_)) {
            return v.clone();
        }
        let up = forward != self.order[0].desc;
        if up { vals::add(v, k) } else { vals::sub(v, k) }
    }

    /// Whether row `r`'s ORDER BY value comes before `target` in the
    /// window's order (NULLs placed as the order places them).
    fn before(&self, r: usize, target: &Value, or_equal: bool) -> bool {
        let key = &self.order[0];
        let v = &self.okeys[r][0];
        if v.is_null() {
            return key.nulls_first;
        }
        let c = vals::compare_collated(v, target, key.coll);
        let c = if key.desc { c.reverse() } else { c };
        c == Ordering::Less || (or_equal && c == Ordering::Equal)
    }

    fn range_start(&self, i: usize, k: &Value, forward: bool) -> usize {
        if self.okeys[i][0].is_null() {
            return self.gstart[self.grp[i]];
        }
        let target = self.moved(i, k, forward);
        first_false(self.n(), |r| self.before(r, &target, false))
    }

    fn range_end(&self, i: usize, k: &Value, forward: bool) -> isize {
        if self.okeys[i][0].is_null() {
            return self.gend[self.grp[i]] as isize;
        }
        let target = self.moved(i, k, forward);
        first_false(self.n(), |r| self.before(r, &target, true)) as isize - 1
    }

    fn excluded(&self, ex: Exclude, i: usize, r: usize) -> bool {
        match ex {
            Exclude::NoOthers => false,
            Exclude::CurrentRow => r == i,
            Exclude::Group => self.grp[r] == self.grp[i],
            Exclude::Ties => r != i && self.grp[r] == self.grp[i],
        }
    }

    /// Frame-reading functions: first_value, last_value, nth_value and
    /// aggregates.
    fn framed(&self, call: &WinCall, cx: &Context) -> Result<Vec<Value>> {
        let n = self.n();
        let mut out = Vec::with_capacity(n);
        if n == 0 {
            return Ok(out);
        }
        let Frame { units, start, end, exclude } = &call.frame;
        let sb = self.bound(start, *units, true, cx)?;
        let eb = self.bound(end, *units, false, cx)?;
        let spans: Vec<Span> = (0..n)
            .map(|i| Span { lo: self.start_of(*units, &sb, i), hi: self.end_of(*units, &eb, i) })
            .collect();
        let passes = |r: usize| -> Result<bool> {
            match &call.filter {
                Some(f) => f.is_true(&self.rows[r], cx),
                None => Ok(true),
            }
        };
        let members = |i: usize| {
            let s = spans[i];
            (s.lo..(s.hi + 1).max(0) as usize).filter(move |&r| !self.excluded(*exclude, i, r))
        };
        let arg = |k: usize, r: usize| call.args[k].eval(&self.rows[r], cx);
        match &call.func {
            WinFunc::FirstValue => {
                for i in 0..n {
                    out.push(match members(i).next() {
                        Some(r) => arg(0, r)?,
                        None => Value::Null,
                    });
                }
            }
            WinFunc::LastValue => {
                for i in 0..n {
                    out.push(match members(i).next_back() {
                        Some(r) => arg(0, r)?,
                        None => Value::Null,
                    });
                }
            }
            WinFunc::NthValue => {
                for i in 0..n {
                    let mut v = Value::Null;
                    let mut nth = None;
                    for (seen, r) in members(i).enumerate() {
                        // SQLite checks N as each frame row is stepped.
                        let k = match nth {
                            Some(k) => k,
                            None => {
                                let k = match arg(1, r)? {
                                    Value::Integer(k) if k > 0 => k as u64,
                                    Value::Real(x) if x > 0.0 && x.fract() == 0.0 => x as u64,
                                    _ => {
                                        return Err(Error::InvalidInput(
                                            "second argument to nth_value must be a positive integer"
                                                .into(),
                                        ));
                                    }
                                };
                                *nth.insert(k)
                            }
                        };
                        if seen as u64 + 1 == k {
                            v = arg(0, r)?;
                            break;
                        }
                    }
                    out.push(v);
                }
            }
            WinFunc::Agg(name) => {
                let fresh = || vals::Aggregate::new(name, false, call.args.len());
                let step = |a: &mut vals::Aggregate, r: usize| -> Result<()> {
                    if !passes(r)? {
                        return Ok(());
                    }
                    let args: Vec<Value> =
                        (0..call.args.len()).map(|k| arg(k, r)).collect::<Result<_>>()?;
                    a.step(&args)
                };
                if matches!(sb, Bound::UnboundedPreceding) && *exclude == Exclude::NoOthers {
                    // Frames only grow: step the new rows.
                    let mut a = fresh()?;
                    let mut stepped = 0usize;
                    for s in &spans {
                        while (stepped as isize) <= s.hi {
                            step(&mut a, stepped)?;
                            stepped += 1;
                        }
                        out.push(a.finish()?);
                    }
                } else {
                    for i in 0..n {
                        let mut a = fresh()?;
                        for r in members(i) {
                            step(&mut a, r)?;
                        }
                        out.push(a.finish()?);
                    }
                }
            }
            _ => return Err(Error::Corrupt("internal: not a frame function".into())),
        }
        Ok(out)
    }
}
