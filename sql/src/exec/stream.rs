//! Row-at-a-time operators: constant rows, widening a relation into the
//! canonical row, filters, projections and LIMIT/OFFSET.

use super::*;

pub(super) struct ValuesOp {
    pub(super) rows: Vec<Vec<Expr>>,
    pub(super) pos: usize,
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

/// `row` placed at `offset` in a row of `width` NULLs ([`Node::Widen`]).
pub(super) fn widen(row: Row, offset: usize, width: usize) -> Row {
    if offset == 0 && row.len() == width {
        return row;
    }
    let mut w = vec![Value::Null; width];
    for (i, v) in row.into_iter().enumerate() {
        w[offset + i] = v;
    }
    w
}

pub(super) struct WidenOp {
    pub(super) input: Box<dyn Operator>,
    pub(super) offset: usize,
    pub(super) width: usize,
}

impl Operator for WidenOp {
    fn rewind(&mut self) -> bool {
        self.input.rewind()
    }

    fn next(&mut self, cx: &Context) -> Result<Option<Row>> {
        let Some(r) = self.input.next(cx)? else { return Ok(None) };
        Ok(Some(widen(r, self.offset, self.width)))
    }

    fn limit_hint(&mut self, rows: u64) {
        self.input.limit_hint(rows);
    }

    fn skip(&mut self, n: u64, cx: &Context) -> Result<u64> {
        self.input.skip(n, cx)
    }
}

pub(super) struct FilterOp {
    pub(super) input: Box<dyn Operator>,
    pub(super) pred: Expr,
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

pub(super) struct ProjectOp {
    pub(super) input: Box<dyn Operator>,
    pub(super) exprs: Vec<Expr>,
    /// When every expression is a different plain column: their offsets,
    /// so values move out of the input row instead of being copied.
    pub(super) moves: Option<Vec<usize>>,
}

/// The column offsets of a projection of distinct plain columns.
pub(super) fn moves(exprs: &[Expr]) -> Option<Vec<usize>> {
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

pub(super) struct LimitOp {
    pub(super) input: Box<dyn Operator>,
    pub(super) limit: Option<Expr>,
    pub(super) offset: Option<Expr>,
    /// (remaining rows to return, rows still to skip)
    pub(super) state: Option<(Option<u64>, u64)>,
}

pub(super) fn limit_value(e: &Expr, cx: &Context) -> Result<i64> {
    match Affinity::Numeric.apply(e.eval(&[], cx)?) {
        Value::Integer(i) => Ok(i),
        _ => Err(Error::InvalidInput("datatype mismatch".into())),
    }
}

/// The values of a LIMIT and an OFFSET: a negative LIMIT is none, a
/// negative OFFSET is 0 (SQLite's rules).
pub(super) fn limit_offset(
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
    /// LIMIT and OFFSET are evaluated again on the next first `next`.
    fn rewind(&mut self) -> bool {
        self.state = None;
        self.input.rewind()
    }

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
