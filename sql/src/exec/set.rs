//! DISTINCT and compound selects (UNION, UNION ALL, EXCEPT, INTERSECT).

use super::*;

pub(super) struct DistinctOp {
    pub(super) input: Box<dyn Operator>,
    pub(super) ncols: usize,
    pub(super) seen: BTreeSet<OrdKey>,
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

pub(super) struct SetOpOp {
    pub(super) op: SetOp,
    pub(super) left: Option<Box<dyn Operator>>,
    pub(super) right: Option<Box<dyn Operator>>,
    pub(super) out: Option<std::vec::IntoIter<Row>>,
}

pub(super) fn drain(op: &mut dyn Operator, cx: &Context) -> Result<BTreeSet<OrdKey>> {
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
