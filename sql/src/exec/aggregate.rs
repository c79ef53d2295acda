//! Grouping and aggregation (GROUP BY, aggregates over the whole input).

use super::*;

/// GROUP BY / aggregates. Rows fold into a `BTreeMap` of groups (so groups
/// come out in key order, as SQLite's do). When the map outgrows the memory
/// budget it is frozen: rows of groups already in it keep folding, rows of
/// new groups go to the external sort and are aggregated as a stream at
/// the end. A group lives entirely in one of the two, so the output is the
/// merge, by key, of two sorted sequences of complete groups.
pub(super) struct AggregateOp {
    pub(super) input: Option<Box<dyn Operator>>,
    pub(super) keys: Vec<Expr>,
    pub(super) aggs: Vec<AggCall>,
    pub(super) always_one: bool,
    pub(super) width: usize,
    pub(super) out: AggOut,
}

pub(super) struct AggOut {
    pub(super) mem: std::iter::Peekable<std::vec::IntoIter<Row>>,
    pub(super) sorted: Option<Box<sort::SortOp>>,
    pub(super) cur: Option<Group>,
    /// The next complete group from the sorted stream.
    pub(super) pending: Option<Row>,
}

impl AggOut {
    pub(super) fn empty() -> AggOut {
        AggOut { mem: Vec::new().into_iter().peekable(), sorted: None, cur: None, pending: None }
    }
}

/// A group being aggregated: key, states, last input row.
pub(super) type Group = (Vec<Value>, Vec<vals::Aggregate>, Row);

/// Groups in key order: states and last input row.
pub(super) type GroupMap = BTreeMap<OrdKey, (Vec<vals::Aggregate>, Row)>;

/// Yields the rows of a spill file, evaluated lazily by the sort.
pub(super) struct VecOp(std::vec::IntoIter<Row>, Option<Box<dyn Operator>>);

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

pub(super) fn step_all(
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

pub(super) fn fresh_states(aggs: &[AggCall]) -> Result<Vec<vals::Aggregate>> {
    aggs.iter().map(|a| vals::Aggregate::new(&a.name, a.distinct, a.args.len())).collect()
}

pub(super) fn finish_group(
    key: Vec<Value>,
    mut states: Vec<vals::Aggregate>,
    last: Row,
) -> Result<Row> {
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
pub(super) struct FoldFilter {
    pub(super) input: Box<dyn Operator>,
    pub(super) groups: Arc<parking_lot::Mutex<GroupMap>>,
    pub(super) keys: Vec<Expr>,
    pub(super) aggs: Vec<AggCall>,
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
