//! Window functions: one [`WindowOp`] per window (PARTITION BY + ORDER BY),
//! with SQLite's semantics (windowfunctions.html; window.c).
//!
//! The input goes through the external sort ([`sort::SortOp`], which
//! spills past the memory budget) by `partition ++ order`; the sorted rows
//! are then buffered one partition at a time ([`partition`]: in memory
//! up to the same budget, then in a spill file) and read back through
//! cursors, each row leaving with one column per call appended. Ties in
//! the window's order keep their input order (the sort is stable).
//!
//! - Ranking functions (`row_number`, `rank`, `dense_rank`,
//!   `percent_rank`, `cume_dist`, `ntile`) and `lag`/`lead` ignore the
//!   frame, as SQLite's do; peers are rows equal on every ORDER BY term
//!   (all rows of a partition without ORDER BY). The partition is
//!   buffered whole before its first row leaves, so its size is known
//!   (`percent_rank`, `cume_dist`, `ntile`); a look-ahead cursor finds the
//!   end of the current peer group (`cume_dist`, EXCLUDE GROUP / TIES).
//!   Negative lag/lead offsets follow SQLite's reading order (its docs
//!   ask for non-negative ones): `lead(x, -k)` is `lag(x, k)`;
//!   `lag(x, -1)` is the next row; `lag(x, -k)`, k ≥ 2, is the default.
//! - `first_value`, `last_value`, `nth_value` and aggregates read the
//!   frame ([`frame`]): `ROWS` counts rows, `GROUPS` peer groups, `RANGE`
//!   compares the ORDER BY value with the offset added or subtracted (a
//!   TEXT or BLOB value gets no offset, a NULL value's offset frame is its
//!   NULL peers, as in SQLite); `EXCLUDE` removes the current row, its
//!   group, or its ties. Offsets must be non-negative integers (ROWS,
//!   GROUPS) or numbers (RANGE), with SQLite's messages.
//!
//! Memory: the sort and the partition buffer are each bounded by the
//! budget, whatever the partition's size; per call a few cursors with a
//! small read buffer each. Results are computed row by row, never held
//! for the whole partition.

mod frame;
mod partition;

use super::*;
use crate::planner::{Exclude, WinCall, WinFunc};
use frame::FrameState;
use partition::{Builder, Cursor, Entry, Partition};

pub(super) struct WindowOp {
    sort: sort::SortOp,
    partition: Vec<SortKey>,
    order: Vec<SortKey>,
    calls: Vec<WinCall>,
    /// The first row of the next partition, already read.
    pending: Option<(Vec<Value>, Row)>,
    /// The partition being read out.
    active: Option<Active>,
    done: bool,
    /// Partitions that went to a spill file (for tests).
    pub spilled: usize,
}

/// A partition being read out: the current row's cursor and what the
/// calls keep between rows.
struct Active {
    part: Partition,
    main: Cursor,
    /// One past the current peer group's last row (when a call needs it).
    peer: Option<Cursor>,
    /// First row of the current peer group.
    gstart: usize,
    /// Peer group of the row before the current one.
    prev_grp: usize,
    states: Vec<CallState>,
}

/// Where the current row is.
struct Here<'a> {
    i: usize,
    g: usize,
    gstart: usize,
    /// Last row of the current peer group (only if some call needs it).
    gend: usize,
    row: &'a Entry,
}

/// What one call keeps between rows of a partition.
struct CallState {
    /// ntile's bucket count (read from the partition's first row).
    ntile: i64,
    /// A cursor that reads the rows a call points at (lag/lead targets,
    /// frame members).
    probe: Cursor,
    frame: Option<FrameState>,
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
            active: None,
            done: false,
            spilled: 0,
        }
    }

    fn part_key(&self, r: &[Value], cx: &Context) -> Result<Vec<Value>> {
        self.partition.iter().map(|k| k.expr.eval(r, cx)).collect()
    }

    fn entry(&self, r: Row, cx: &Context) -> Result<Entry> {
        let okey = self.order.iter().map(|k| k.expr.eval(&r, cx)).collect::<Result<Vec<_>>>()?;
        Ok((okey, r))
    }

    /// Buffers the next partition; `None` at the end of the input.
    fn next_partition(&mut self, cx: &Context) -> Result<Option<Partition>> {
        let mut b = Builder::new(self.order.len(), cx.budget);
        let key = match self.pending.take() {
            Some((k, r)) => {
                b.push(self.entry(r, cx)?)?;
                k
            }
            None => match self.sort.next(cx)? {
                Some(r) => {
                    let k = self.part_key(&r, cx)?;
                    b.push(self.entry(r, cx)?)?;
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
            b.push(self.entry(r, cx)?)?;
        }
        b.finish().map(Some)
    }

    fn start(&self, part: Partition, cx: &Context) -> Result<Active> {
        let main = part.cursor()?;
        let needs_end = self.calls.iter().any(|c| {
            c.func == WinFunc::CumeDist
                || (frame::reads_frame(&c.func)
                    && matches!(c.frame.exclude, Exclude::Group | Exclude::Ties))
        });
        let peer = if needs_end { Some(part.cursor()?) } else { None };
        let mut states = Vec::with_capacity(self.calls.len());
        for c in &self.calls {
            let ntile = if c.func == WinFunc::Ntile {
                // SQLite reads the count from the partition's first row.
                let np = c.args[0].eval(&main.entry(&part).1, cx)?.to_i64();
                if np <= 0 {
                    return Err(Error::InvalidInput(
                        "argument of ntile must be a positive integer".into(),
                    ));
                }
                np
            } else {
                0
            };
            let frame = if frame::reads_frame(&c.func) {
                Some(FrameState::new(c, &part, cx)?)
            } else {
                None
            };
            states.push(CallState { ntile, probe: part.cursor()?, frame });
        }
        Ok(Active { part, main, peer, gstart: 0, prev_grp: 0, states })
    }
}

impl Operator for WindowOp {
    fn next(&mut self, cx: &Context) -> Result<Option<Row>> {
        loop {
            if let Some(a) = &mut self.active
                && a.main.pos < a.part.n
            {
                return a.row(&self.calls, &self.order, cx).map(Some);
            }
            self.active = None;
            if self.done {
                return Ok(None);
            }
            match self.next_partition(cx)? {
                None => self.done = true,
                Some(p) => {
                    if p.spilled() {
                        self.spilled += 1;
                    }
                    self.active = Some(self.start(p, cx)?);
                }
            }
        }
    }
}

impl Active {
    /// The current row with its calls' values; moves to the next row.
    fn row(&mut self, calls: &[WinCall], order: &[SortKey], cx: &Context) -> Result<Row> {
        let (i, g) = (self.main.pos, self.main.grp);
        if i == 0 {
            self.gstart = 0;
        } else if g != self.prev_grp {
            self.gstart = i;
        }
        let mut gend = i;
        if let Some(peer) = &mut self.peer {
            while peer.pos < self.part.n && peer.grp <= g {
                peer.advance(&self.part, order)?;
            }
            gend = peer.pos - 1;
        }
        let here = Here { i, g, gstart: self.gstart, gend, row: self.main.entry(&self.part) };
        let mut vals = Vec::with_capacity(calls.len());
        for (call, st) in calls.iter().zip(&mut self.states) {
            vals.push(st.value(call, &self.part, order, &here, cx)?);
        }
        let mut out = here.row.1.clone();
        out.extend(vals);
        self.prev_grp = g;
        self.main.advance(&self.part, order)?;
        Ok(out)
    }
}

impl CallState {
    fn value(
        &mut self,
        call: &WinCall,
        part: &Partition,
        order: &[SortKey],
        here: &Here,
        cx: &Context,
    ) -> Result<Value> {
        let n = part.n;
        let i = here.i;
        Ok(match &call.func {
            WinFunc::RowNumber => Value::Integer(i as i64 + 1),
            WinFunc::Rank => Value::Integer(here.gstart as i64 + 1),
            WinFunc::DenseRank => Value::Integer(here.g as i64 + 1),
            WinFunc::PercentRank => {
                let rank = here.gstart as f64;
                Value::Real(if n > 1 { rank / (n - 1) as f64 } else { 0.0 })
            }
            WinFunc::CumeDist => Value::Real((here.gend + 1) as f64 / n as f64),
            WinFunc::Ntile => Value::Integer(ntile(self.ntile, n as i64, i as i64)),
            WinFunc::Lag | WinFunc::Lead => {
                let row = &here.row.1;
                let off = if call.args.len() > 1 {
                    match Affinity::Numeric.apply(call.args[1].eval(row, cx)?) {
                        Value::Integer(k) => Some(k),
                        Value::Real(r) if r.fract() == 0.0 && r.abs() < 9.2e18 => Some(r as i64),
                        _ => None,
                    }
                } else {
                    Some(1)
                };
                let lead = call.func == WinFunc::Lead;
                let target = off.and_then(|k| {
                    // SQLite reads a lag row's partition one row ahead of
                    // the row it returns, and lag(x, k) looks only at rows
                    // already read: a negative offset reaches the next row
                    // (-1) and nothing past it (-2 and below: the default).
                    // lead reads the whole partition, so lead(x, -k) is
                    // lag(x, k).
                    if !lead && k < -1 {
                        return None;
                    }
                    let t =
                        if lead { (i as i64).checked_add(k) } else { (i as i64).checked_sub(k) }?;
                    (0..n as i64).contains(&t).then_some(t as usize)
                });
                match target {
                    Some(t) => {
                        self.probe.seek(part, t)?;
                        call.args[0].eval(&self.probe.entry(part).1, cx)?
                    }
                    None if call.args.len() > 2 => call.args[2].eval(row, cx)?,
                    None => Value::Null,
                }
            }
            WinFunc::FirstValue | WinFunc::LastValue | WinFunc::NthValue | WinFunc::Agg(_) => {
                let Some(f) = &mut self.frame else {
                    return Err(Error::Internal("frame function without a frame".into()));
                };
                f.value(call, part, order, here, &mut self.probe, cx)?
            }
        })
    }
}

/// SQLite's ntile: bucket of row `i` (from 0) of `total` rows in `np`
/// buckets, the first `total % np` buckets one row larger.
fn ntile(np: i64, total: i64, i: i64) -> i64 {
    let size = total / np;
    if size == 0 {
        return i + 1;
    }
    let large = total - np * size;
    let small_from = large * (size + 1);
    if i < small_from { 1 + i / (size + 1) } else { 1 + large + (i - small_from) / size }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::{ExecState, build};
    use crate::planner::{Frame, FrameBound, FrameUnits, Node};
    use crate::storage::MemStore;

    fn key(col: usize) -> SortKey {
        SortKey { expr: Expr::Column(col), desc: false, coll: Collation::Binary, nulls_first: true }
    }

    fn call(func: WinFunc, args: Vec<Expr>, units: FrameUnits, start: FrameBound) -> WinCall {
        WinCall {
            func,
            args,
            filter: None,
            frame: Frame {
                units,
                start,
                end: FrameBound::CurrentRow,
                exclude: Exclude::NoOthers,
                exclude_clause: false,
            },
            coll: Collation::Binary,
        }
    }

    /// A window over rows `(k, i)` (one partition of 3000 rows, peers of
    /// 7 rows): under a budget of a few KB the partition goes to a spill
    /// file, and every value equals the in-memory run's.
    #[test]
    fn a_spilled_partition_gives_the_in_memory_answers() {
        let rows: Vec<Vec<Expr>> = (0..3000i64)
            .map(|i| vec![Expr::Literal(Value::Integer(i / 7)), Expr::Literal(Value::Integer(i))])
            .collect();
        let lit = |i: i64| Expr::Literal(Value::Integer(i));
        let calls = vec![
            call(WinFunc::RowNumber, vec![], FrameUnits::Range, FrameBound::UnboundedPreceding),
            call(WinFunc::CumeDist, vec![], FrameUnits::Range, FrameBound::UnboundedPreceding),
            call(
                WinFunc::Lag,
                vec![Expr::Column(1), lit(1000)],
                FrameUnits::Rows,
                FrameBound::UnboundedPreceding,
            ),
            call(
                WinFunc::Agg("sum".into()),
                vec![Expr::Column(1)],
                FrameUnits::Rows,
                FrameBound::Preceding(lit(100)),
            ),
            call(
                WinFunc::Agg("max".into()),
                vec![Expr::Column(1)],
                FrameUnits::Groups,
                FrameBound::Preceding(lit(3)),
            ),
            call(
                WinFunc::NthValue,
                vec![Expr::Column(1), lit(5)],
                FrameUnits::Range,
                FrameBound::Preceding(lit(2)),
            ),
        ];
        let store = MemStore::new();
        let txn = store.begin(false).unwrap();
        let cache = ExecState::default();
        let run = |budget: usize| {
            let input = build(&Node::Values { rows: rows.clone(), width: 2 });
            let mut op = WindowOp::new(input, vec![], vec![key(0)], calls.clone());
            let mut cx = Context::new(&txn, &[], &cache);
            cx.budget = budget;
            let mut out = Vec::new();
            while let Some(r) = op.next(&cx).unwrap() {
                out.push(r);
            }
            (out, op.spilled)
        };
        let (mem, spilled) = run(usize::MAX);
        assert_eq!(spilled, 0);
        let (disk, spilled) = run(4096);
        assert_eq!(spilled, 1);
        assert_eq!(mem.len(), 3000);
        assert_eq!(mem, disk);
        // Spot checks of the in-memory run itself.
        assert_eq!(mem[2999][2], Value::Integer(3000));
        assert_eq!(mem[1500][4], Value::Integer(500));
        assert_eq!(mem[10][5], Value::Integer((0..=10).sum()));
    }
}
