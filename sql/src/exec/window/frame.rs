//! Frames: `first_value`, `last_value`, `nth_value` and aggregates over
//! the frame of each row.
//!
//! Both ends of a frame only move forward as the current row does (for
//! every unit and bound), so each is a forward-only [`Cursor`]: `start`
//! on the frame's first row, `end` on the row after its last (SQLite's
//! csrStart / csrEnd). An aggregate is kept as the frame moves:
//!
//! - `Grow` (frame from UNBOUNDED PRECEDING, nothing excluded): rows are
//!   stepped as `end` passes them;
//! - `Slide` (an aggregate with an inverse — count, sum, total, avg — and
//!   nothing excluded): rows leaving at `start` are taken back
//!   ([`vals::Aggregate::inverse`], SQLite's xInverse);
//! - `Rescan` (min, max, group_concat, the JSON aggregates, or any
//!   EXCLUDE): the frame is aggregated afresh for each row, reading it
//!   again from the partition (its spill file if it spilled): slower
//!   (rows × frame), memory still bounded.
//!
//! min/max ties (values equal under the collation, 'a' and 'A' under
//! NOCASE) resolve as in SQLite: over a frame from UNBOUNDED PRECEDING, or
//! with an EXCLUDE clause, the first of the tied values; otherwise the
//! last (SQLite reads the last entry of an index of the frame's values).
//!
//! Excluded rows make the frame up to three runs of rows ([`members`]).

use super::super::*;
use super::Here;
use super::partition::{Cursor, Partition};
use crate::planner::{Exclude, Frame, FrameBound, FrameUnits, WinCall, WinFunc};

/// Whether a function reads its frame.
pub(super) fn reads_frame(f: &WinFunc) -> bool {
    matches!(f, WinFunc::FirstValue | WinFunc::LastValue | WinFunc::NthValue | WinFunc::Agg(_))
}

/// A bound with its offset evaluated.
enum Bound {
    UnboundedPreceding,
    Preceding(Value),
    CurrentRow,
    Following(Value),
    UnboundedFollowing,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Grow,
    Slide,
    Rescan,
    /// first_value, last_value, nth_value: read one member.
    Member,
}

pub(super) struct FrameState {
    units: FrameUnits,
    exclude: Exclude,
    sb: Bound,
    eb: Bound,
    start: Cursor,
    end: Cursor,
    mode: Mode,
    agg: Option<vals::Aggregate>,
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

fn bound(b: &FrameBound, units: FrameUnits, start: bool, cx: &Context) -> Result<Bound> {
    let off = |e: &Expr| -> Result<Value> {
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

/// A ROWS/GROUPS offset as a count.
fn count(v: &Value) -> usize {
    usize::try_from(v.to_i64()).unwrap_or(usize::MAX)
}

/// The rows of the frame `lo..hi` of row `i` that `ex` does not exclude,
/// as up to three ascending runs `a..b` (empty runs have `a >= b`).
pub(super) fn members(lo: usize, hi: usize, ex: Exclude, h: &Here) -> [(usize, usize); 3] {
    const NONE: (usize, usize) = (0, 0);
    let i = h.i;
    match ex {
        Exclude::NoOthers => [(lo, hi), NONE, NONE],
        Exclude::CurrentRow => [(lo, hi.min(i)), (lo.max(i + 1), hi), NONE],
        Exclude::Group => [(lo, hi.min(h.gstart)), (lo.max(h.gend + 1), hi), NONE],
        Exclude::Ties => {
            [(lo, hi.min(h.gstart)), (lo.max(i), hi.min(i + 1)), (lo.max(h.gend + 1), hi)]
        }
    }
}

impl FrameState {
    pub(super) fn new(call: &WinCall, part: &Partition, cx: &Context) -> Result<FrameState> {
        let Frame { units, start, end, exclude, exclude_clause } = &call.frame;
        let sb = bound(start, *units, true, cx)?;
        let eb = bound(end, *units, false, cx)?;
        let (mode, agg) = match &call.func {
            WinFunc::Agg(name) => {
                let mut a =
                    vals::Aggregate::new(name, false, call.args.len())?.with_collation(call.coll);
                let from_first = matches!(sb, Bound::UnboundedPreceding);
                if !from_first && !exclude_clause {
                    a = a.keep_last_tie();
                }
                let mode = if *exclude != Exclude::NoOthers {
                    Mode::Rescan
                } else if from_first {
                    Mode::Grow
                } else if a.invertible() && !exclude_clause {
                    Mode::Slide
                } else {
                    Mode::Rescan
                };
                (mode, Some(a))
            }
            _ => (Mode::Member, None),
        };
        Ok(FrameState {
            units: *units,
            exclude: *exclude,
            sb,
            eb,
            start: part.cursor()?,
            end: part.cursor()?,
            mode,
            agg,
        })
    }

    /// For a RANGE offset bound: the current row's ORDER BY value moved
    /// by the offset towards `forward` in the window's order (TEXT and
    /// BLOB values do not move, as in SQLite); `None` for a NULL value
    /// (its frame edge is its peer group's).
    fn target(&self, b: &Bound, order: &[SortKey], h: &Here) -> Option<Value> {
        let (k, forward) = match (self.units, b) {
            (FrameUnits::Range, Bound::Preceding(k)) => (k, false),
            (FrameUnits::Range, Bound::Following(k)) => (k, true),
            _ => return None,
        };
        let v = &h.row.0[0];
        if v.is_null() {
            return None;
        }
        if !matches!(v, Value::Integer(_) | Value::Real(_)) {
            return Some(v.clone());
        }
        let up = forward != order[0].desc;
        Some(if up { vals::add(v, k) } else { vals::sub(v, k) })
    }

    /// Whether the row under `c` lies before the frame's start.
    fn before_start(
        &self,
        c: &Cursor,
        t: &Option<Value>,
        part: &Partition,
        order: &[SortKey],
        h: &Here,
    ) -> bool {
        let (pos, grp, i, g) = (c.pos, c.grp, h.i, h.g);
        match (self.units, &self.sb) {
            (_, Bound::UnboundedPreceding) => false,
            (_, Bound::UnboundedFollowing) => true,
            (FrameUnits::Rows, Bound::CurrentRow) => pos < i,
            (FrameUnits::Rows, Bound::Preceding(k)) => pos.saturating_add(count(k)) < i,
            (FrameUnits::Rows, Bound::Following(k)) => pos < i.saturating_add(count(k)),
            (_, Bound::CurrentRow) => grp < g,
            (FrameUnits::Groups, Bound::Preceding(k)) => grp.saturating_add(count(k)) < g,
            (FrameUnits::Groups, Bound::Following(k)) => grp < g.saturating_add(count(k)),
            (FrameUnits::Range, _) => match t {
                None => grp < g,
                Some(t) => before(&c.entry(part).0[0], t, &order[0], false),
            },
        }
    }

    /// Whether the row under `c` lies at or before the frame's end.
    fn within_end(
        &self,
        c: &Cursor,
        t: &Option<Value>,
        part: &Partition,
        order: &[SortKey],
        h: &Here,
    ) -> bool {
        let (pos, grp, i, g) = (c.pos, c.grp, h.i, h.g);
        match (self.units, &self.eb) {
            (_, Bound::UnboundedFollowing) => true,
            (_, Bound::UnboundedPreceding) => false,
            (FrameUnits::Rows, Bound::CurrentRow) => pos <= i,
            (FrameUnits::Rows, Bound::Preceding(k)) => pos.saturating_add(count(k)) <= i,
            (FrameUnits::Rows, Bound::Following(k)) => pos <= i.saturating_add(count(k)),
            (_, Bound::CurrentRow) => grp <= g,
            (FrameUnits::Groups, Bound::Preceding(k)) => grp.saturating_add(count(k)) <= g,
            (FrameUnits::Groups, Bound::Following(k)) => grp <= g.saturating_add(count(k)),
            (FrameUnits::Range, _) => match t {
                None => grp <= g,
                Some(t) => before(&c.entry(part).0[0], t, &order[0], true),
            },
        }
    }

    /// The call's value for the current row `h`; `probe` reads frame rows.
    pub(super) fn value(
        &mut self,
        call: &WinCall,
        part: &Partition,
        order: &[SortKey],
        h: &Here,
        probe: &mut Cursor,
        cx: &Context,
    ) -> Result<Value> {
        let n = part.n;
        // Move the frame's start, then its end (SQLite takes rows back
        // before it steps new ones). The aggregate holds `start..end`.
        let ts = self.target(&self.sb, order, h);
        while self.start.pos < n && self.before_start(&self.start, &ts, part, order, h) {
            if self.mode == Mode::Slide && self.start.pos < self.end.pos {
                let row = &self.start.entry(part).1;
                if passes(call, row, cx)? {
                    let args = args(call, row, cx)?;
                    self.agg.as_mut().expect("aggregate mode").inverse(&args)?;
                }
            }
            self.start.advance(part, order)?;
        }
        let te = self.target(&self.eb, order, h);
        while self.end.pos < n && self.within_end(&self.end, &te, part, order, h) {
            if matches!(self.mode, Mode::Grow | Mode::Slide) && self.end.pos >= self.start.pos {
                let row = &self.end.entry(part).1;
                if passes(call, row, cx)? {
                    let args = args(call, row, cx)?;
                    self.agg.as_mut().expect("aggregate mode").step(&args)?;
                }
            }
            self.end.advance(part, order)?;
        }
        let (lo, hi) = (self.start.pos, self.end.pos);
        let runs = members(lo, hi, self.exclude, h);
        match self.mode {
            Mode::Grow | Mode::Slide => self.agg.as_mut().expect("aggregate mode").finish(),
            Mode::Rescan => {
                let mut a = self.agg.clone().expect("aggregate mode");
                for &(a0, b0) in &runs {
                    for r in a0..b0 {
                        if r == self.start.pos {
                            probe.copy_from(&self.start);
                        } else {
                            probe.seek(part, r)?;
                        }
                        let row = &probe.entry(part).1;
                        if passes(call, row, cx)? {
                            a.step(&args(call, row, cx)?)?;
                        }
                    }
                }
                a.finish()
            }
            Mode::Member => {
                let mut it = runs.iter().flat_map(|&(a, b)| a..b);
                let target = match call.func {
                    WinFunc::FirstValue => it.next(),
                    WinFunc::LastValue => runs.iter().rev().find(|r| r.0 < r.1).map(|r| r.1 - 1),
                    _ => match it.next() {
                        None => None,
                        Some(first) => {
                            // SQLite reads N from the frame's first row.
                            probe.seek(part, first)?;
                            let k = nth(call.args[1].eval(&probe.entry(part).1, cx)?)?;
                            let total: usize = runs.iter().map(|r| r.1.saturating_sub(r.0)).sum();
                            if k > total as u64 {
                                None
                            } else {
                                let mut k = k as usize - 1;
                                runs.iter().filter(|r| r.0 < r.1).find_map(|r| {
                                    let len = r.1 - r.0;
                                    if k < len {
                                        Some(r.0 + k)
                                    } else {
                                        k -= len;
                                        None
                                    }
                                })
                            }
                        }
                    },
                };
                match target {
                    None => Ok(Value::Null),
                    Some(t) => {
                        probe.seek(part, t)?;
                        call.args[0].eval(&probe.entry(part).1, cx)
                    }
                }
            }
        }
    }
}

/// nth_value's N: a positive integer.
fn nth(v: Value) -> Result<u64> {
    match v {
        Value::Integer(k) if k > 0 => Ok(k as u64),
        Value::Real(x) if x > 0.0 && x.fract() == 0.0 => Ok(x as u64),
        _ => Err(Error::InvalidInput(
            "second argument to nth_value must be a positive integer".into(),
        )),
    }
}

fn passes(call: &WinCall, row: &[Value], cx: &Context) -> Result<bool> {
    match &call.filter {
        Some(f) => f.is_true(row, cx),
        None => Ok(true),
    }
}

fn args(call: &WinCall, row: &[Value], cx: &Context) -> Result<Vec<Value>> {
    call.args.iter().map(|a| a.eval(row, cx)).collect()
}

/// Whether ORDER BY value `v` comes before `target` in the window's
/// order (NULLs placed as the order places them).
fn before(v: &Value, target: &Value, key: &SortKey, or_equal: bool) -> bool {
    if v.is_null() {
        return key.nulls_first;
    }
    let c = vals::compare_collated(v, target, key.coll);
    let c = if key.desc { c.reverse() } else { c };
    c == Ordering::Less || (or_equal && c == Ordering::Equal)
}
