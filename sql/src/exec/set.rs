//! DISTINCT and compound selects (UNION, UNION ALL, EXCEPT, INTERSECT).
//!
//! Rows are compared column by column under each column's collation
//! (folded keys, [`Collation::fold`]). Which of two equal rows is shown
//! follows SQLite 3.54 (measured): within one side the first; for UNION a
//! right-side row replaces an equal left-side one; INTERSECT and EXCEPT
//! show the left side's. DISTINCT keeps the first.

use super::*;

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
}

impl Operator for DistinctOp {
    fn next(&mut self, cx: &Context) -> Result<Option<Row>> {
        while let Some(r) = self.input.next(cx)? {
            if self.seen.insert(folded(&r, self.ncols, &self.colls)) {
                return Ok(Some(r));
            }
        }
        Ok(None)
    }
}

pub(super) struct SetOpOp {
    pub(super) op: SetOp,
    pub(super) left: Option<Box<dyn Operator>>,
    pub(super) right: Option<Box<dyn Operator>>,
    pub(super) colls: Vec<Collation>,
    pub(super) out: Option<std::vec::IntoIter<Row>>,
}

/// The first row of `op` for each folded key.
fn drain(
    op: &mut dyn Operator,
    colls: &[Collation],
    into: &mut BTreeMap<OrdKey, Row>,
    cx: &Context,
) -> Result<()> {
    while let Some(r) = op.next(cx)? {
        into.entry(folded(&r, r.len(), colls)).or_insert(r);
    }
    Ok(())
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
            let mut a = BTreeMap::new();
            drain(l.as_mut(), &self.colls, &mut a, cx)?;
            let rows: Vec<Row> = match self.op {
                SetOp::Union => {
                    let mut b = BTreeMap::new();
                    drain(r.as_mut(), &self.colls, &mut b, cx)?;
                    a.extend(b);
                    a.into_values().collect()
                }
                // An empty left side makes the answer empty: the right side
                // is not run (as SQLite's OP_IfEmpty skips it), so its errors
                // (a malformed JSON argument, say) are not raised.
                SetOp::Except | SetOp::Intersect if a.is_empty() => Vec::new(),
                SetOp::Except | SetOp::Intersect => {
                    let mut b = BTreeMap::new();
                    drain(r.as_mut(), &self.colls, &mut b, cx)?;
                    let keep = self.op == SetOp::Intersect;
                    a.into_iter().filter(|(k, _)| b.contains_key(k) == keep).map(|e| e.1).collect()
                }
                SetOp::UnionAll => unreachable!("handled above"),
            };
            self.out = Some(rows.into_iter());
        }
        Ok(self.out.as_mut().and_then(Iterator::next))
    }
}
