//! DISTINCT and compound selects (UNION, UNION ALL, EXCEPT, INTERSECT).
//!
//! Rows are compared column by column under each column's collation
//! (folded keys, [`Collation::fold`]). Which of two equal rows is shown
//! follows SQLite 3.54 (measured): within one side the first; for UNION a
//! right-side row replaces an equal left-side one; INTERSECT and EXCEPT
//! show the left side's. DISTINCT keeps the first.
//!
//! Distinct rows are kept in memory up to the statement's budget. Past it
//! the operator sorts instead ([`spilled`]): every row, tagged with its
//! side and arrival number, goes through the external sort by its folded
//! key, and the first row of each run of equal keys is the one the rule
//! above picks; DISTINCT then sorts the survivors back into arrival
//! order. Memory stays within about twice the budget (the rows already
//! seen, and the sort's buffer).

use super::*;
use crate::exec::sort::{SortOp, approx_size};
use crate::planner::SortKey;

/// The row's first `n` values folded by `colls`: equal keys are equal rows.
pub(super) fn folded(row: &[Value], n: usize, colls: &[Collation]) -> OrdKey {
    OrdKey(
        row[..n.min(row.len())]
            .iter()
            .enumerate()
            .map(|(i, v)| colls.get(i).copied().unwrap_or_default().fold(v).into_owned())
            .collect(),
    )
}

pub(super) struct DistinctOp {
    pub(super) input: Box<dyn Operator>,
    pub(super) ncols: usize,
    pub(super) colls: Vec<Collation>,
    pub(super) seen: BTreeSet<OrdKey>,
    /// Bytes `seen` holds, roughly.
    pub(super) size: usize,
    /// Past the budget: the rest of the rows, deduplicated by sorting.
    pub(super) spill: Option<Box<dyn Operator>>,
}

impl Operator for DistinctOp {
    fn next(&mut self, cx: &Context) -> Result<Option<Row>> {
        if let Some(s) = &mut self.spill {
            return s.next(cx);
        }
        while let Some(r) = self.input.next(cx)? {
            let key = folded(&r, self.ncols, &self.colls);
            let size = key_size(&key);
            if self.seen.insert(key) {
                self.size += size;
                if self.size > cx.budget {
                    self.spill_rest(r.len());
                }
                return Ok(Some(r));
            }
        }
        Ok(None)
    }
}

impl DistinctOp {
    /// From now on rows are deduplicated by sorting: those not yet seen,
    /// the first of each key, in arrival order.
    fn spill_rest(&mut self, width: usize) {
        let input = std::mem::replace(&mut self.input, Box::new(Empty));
        let seen = std::mem::take(&mut self.seen);
        let feed =
            Feed::new(vec![(0, Part::Op(input))], Some((seen, self.ncols, self.colls.clone())));
        let ncols = self.ncols.min(width);
        let keys = key_order(ncols, &self.colls, false);
        let firsts = Firsts {
            input: Box::new(SortOp::new(Box::new(feed), keys)),
            ncols,
            colls: self.colls.clone(),
            rule: Rule::First,
            prev: None,
        };
        let arrival = vec![sort_key(1, Collation::Binary, false)];
        self.spill = Some(Box::new(Untag(Box::new(SortOp::new(Box::new(firsts), arrival)))));
    }
}

/// Bytes a kept key takes, roughly (its values and the set's node).
fn key_size(k: &OrdKey) -> usize {
    48 + k.0.iter().map(approx_size).sum::<usize>()
}

/// An operator with no rows.
struct Empty;

impl Operator for Empty {
    fn next(&mut self, _cx: &Context) -> Result<Option<Row>> {
        Ok(None)
    }
}

/// Where a spilled operator's rows come from: rows already collected, or
/// the rest of an input.
enum Part {
    Rows(std::vec::IntoIter<Row>),
    Op(Box<dyn Operator>),
}

/// The rows of `parts` in turn, each as `[side, arrival, row…]`; rows
/// whose key is in `skip` (a DISTINCT's already shown rows) are left out.
struct Feed {
    parts: std::collections::VecDeque<(i64, Part)>,
    skip: Option<(BTreeSet<OrdKey>, usize, Vec<Collation>)>,
    seq: i64,
}

impl Feed {
    fn new(
        parts: Vec<(i64, Part)>,
        skip: Option<(BTreeSet<OrdKey>, usize, Vec<Collation>)>,
    ) -> Feed {
        Feed { parts: parts.into(), skip, seq: 0 }
    }
}

impl Operator for Feed {
    fn next(&mut self, cx: &Context) -> Result<Option<Row>> {
        while let Some((side, part)) = self.parts.front_mut() {
            let r = match part {
                Part::Rows(it) => it.next(),
                Part::Op(op) => op.next(cx)?,
            };
            let Some(r) = r else {
                self.parts.pop_front();
                continue;
            };
            if let Some((seen, n, colls)) = &self.skip
                && seen.contains(&folded(&r, *n, colls))
            {
                continue;
            }
            self.seq += 1;
            let mut row = Vec::with_capacity(r.len() + 2);
            row.push(Value::Integer(*side));
            row.push(Value::Integer(self.seq));
            row.extend(r);
            return Ok(Some(row));
        }
        Ok(None)
    }
}

fn sort_key(col: usize, coll: Collation, desc: bool) -> SortKey {
    SortKey { expr: Expr::Column(col), desc, coll, nulls_first: true }
}

/// The order of tagged rows: the row's first `n` values under their
/// collations, then the side (descending when a right-side row wins),
/// then arrival.
fn key_order(n: usize, colls: &[Collation], right_first: bool) -> Vec<SortKey> {
    let mut keys: Vec<SortKey> =
        (0..n).map(|i| sort_key(2 + i, colls.get(i).copied().unwrap_or_default(), false)).collect();
    keys.push(sort_key(0, Collation::Binary, right_first));
    keys.push(sort_key(1, Collation::Binary, false));
    keys
}

/// Which row of a run of equal keys survives.
#[derive(Clone, Copy, PartialEq)]
enum Rule {
    /// The run's first row (DISTINCT; UNION, sorted right side first).
    First,
    /// The left side's first row, if the run has a right-side row
    /// (INTERSECT) or has none (EXCEPT).
    LeftIf { right: bool },
}

/// Tagged rows sorted by key: one per run of equal keys, by [`Rule`].
struct Firsts {
    input: Box<dyn Operator>,
    ncols: usize,
    colls: Vec<Collation>,
    rule: Rule,
    /// The pending run: its key, its chosen row, whether it has a
    /// right-side row.
    prev: Option<(OrdKey, Row, bool)>,
}

impl Firsts {
    fn finish(&self, run: (OrdKey, Row, bool)) -> Option<Row> {
        let (_, row, has_right) = run;
        match self.rule {
            Rule::First => Some(row),
            Rule::LeftIf { right } => {
                let left = matches!(row[0], Value::Integer(0));
                (left && has_right == right).then_some(row)
            }
        }
    }
}

impl Operator for Firsts {
    fn next(&mut self, cx: &Context) -> Result<Option<Row>> {
        loop {
            let Some(r) = self.input.next(cx)? else {
                return Ok(self.prev.take().and_then(|p| self.finish(p)));
            };
            let key = folded(&r[2..], self.ncols, &self.colls);
            let right = matches!(r[0], Value::Integer(1));
            match &mut self.prev {
                Some((k, _, has_right)) if *k == key => *has_right |= right,
                _ => {
                    let done = self.prev.replace((key, r, right));
                    if let Some(row) = done.and_then(|p| self.finish(p)) {
                        return Ok(Some(row));
                    }
                }
            }
        }
    }
}

/// Drops the side and arrival tags.
struct Untag(Box<dyn Operator>);

impl Operator for Untag {
    fn next(&mut self, cx: &Context) -> Result<Option<Row>> {
        Ok(self.0.next(cx)?.map(|mut r| r.split_off(2)))
    }
}

pub(super) struct SetOpOp {
    pub(super) op: SetOp,
    pub(super) left: Option<Box<dyn Operator>>,
    pub(super) right: Option<Box<dyn Operator>>,
    pub(super) colls: Vec<Collation>,
    pub(super) out: Option<Box<dyn Operator>>,
}

/// Collects the first row of `op` for each folded key into `into`, until
/// the rows collected so far (`size` bytes) pass `budget`: then `false`,
/// `op` not finished.
fn drain(
    op: &mut dyn Operator,
    colls: &[Collation],
    into: &mut BTreeMap<OrdKey, Row>,
    size: &mut usize,
    budget: usize,
    cx: &Context,
) -> Result<bool> {
    while let Some(r) = op.next(cx)? {
        let key = folded(&r, r.len(), colls);
        if let std::collections::btree_map::Entry::Vacant(e) = into.entry(key) {
            *size += key_size(e.key()) + r.iter().map(approx_size).sum::<usize>();
            e.insert(r);
            if *size > budget {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

impl SetOpOp {
    /// The whole answer, in key order.
    fn run(&mut self, cx: &Context) -> Result<Box<dyn Operator>> {
        let mut l = self.left.take().expect("not yet run");
        let mut r = self.right.take().expect("not yet run");
        let (mut a, mut b) = (BTreeMap::new(), BTreeMap::new());
        let mut size = 0;
        let rows =
            |m: BTreeMap<OrdKey, Row>| Part::Rows(m.into_values().collect::<Vec<_>>().into_iter());
        if !drain(l.as_mut(), &self.colls, &mut a, &mut size, cx.budget, cx)? {
            let parts = vec![(0, rows(a)), (0, Part::Op(l)), (1, Part::Op(r))];
            return Ok(self.spilled(parts));
        }
        // An empty left side makes EXCEPT and INTERSECT empty: the right
        // side is not run (as SQLite's OP_IfEmpty skips it), so its errors
        // (a malformed JSON argument, say) are not raised.
        if a.is_empty() && self.op != SetOp::Union {
            return Ok(Box::new(Empty));
        }
        if !drain(r.as_mut(), &self.colls, &mut b, &mut size, cx.budget, cx)? {
            let parts = vec![(0, rows(a)), (1, rows(b)), (1, Part::Op(r))];
            return Ok(self.spilled(parts));
        }
        let out: Vec<Row> = match self.op {
            SetOp::Union => {
                a.extend(b);
                a.into_values().collect()
            }
            _ => {
                let keep = self.op == SetOp::Intersect;
                a.into_iter().filter(|(k, _)| b.contains_key(k) == keep).map(|e| e.1).collect()
            }
        };
        Ok(Box::new(Rows(out.into_iter())))
    }

    /// The answer by sorting `parts` (tagged by side), past the budget.
    fn spilled(&self, parts: Vec<(i64, Part)>) -> Box<dyn Operator> {
        let n = self.colls.len();
        let union = self.op == SetOp::Union;
        let rule =
            if union { Rule::First } else { Rule::LeftIf { right: self.op == SetOp::Intersect } };
        let sorted =
            SortOp::new(Box::new(Feed::new(parts, None)), key_order(n, &self.colls, union));
        let firsts = Firsts {
            input: Box::new(sorted),
            ncols: n,
            colls: self.colls.clone(),
            rule,
            prev: None,
        };
        Box::new(Untag(Box::new(firsts)))
    }
}

/// Rows already computed.
struct Rows(std::vec::IntoIter<Row>);

impl Operator for Rows {
    fn next(&mut self, _cx: &Context) -> Result<Option<Row>> {
        Ok(self.0.next())
    }
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
            self.out = Some(self.run(cx)?);
        }
        self.out.as_mut().expect("just run").next(cx)
    }
}
