//! Table scans: every row in rowid order, rowid points, IN lists and
//! ranges, and index scans (equality prefixes plus a range), each with the
//! filter pushed down to its table.

use super::*;

pub(super) enum ScanState {
    Init,
    Rows(Box<dyn RowCursor>),
    Rowids(std::vec::IntoIter<i64>),
    Index(Box<IndexScan>),
    Done,
}

/// An index scan in progress: its key ranges, in scan order, and the
/// cursor over the current one.
pub(super) struct IndexScan {
    pub(super) ranges: std::vec::IntoIter<KeyRange>,
    pub(super) cur: Option<Box<dyn IndexCursor>>,
    pub(super) index: Arc<crate::catalog::IndexDef>,
    pub(super) reverse: bool,
    /// Equal keys must come in rowid order (see [`Access::Index`]).
    pub(super) ordered: bool,
    /// Rows are made from the entries, not read from the table (see
    /// [`Access::Index`]'s `covering`).
    pub(super) covering: bool,
    /// Entries of a run of equal keys, already put in rowid order.
    pub(super) run: std::collections::VecDeque<(Vec<Value>, i64)>,
    /// The entry that ended the last run.
    pub(super) pending: Option<(Vec<Value>, i64)>,
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

    /// The next entry. In an ordered scan, entries with equal keys come in
    /// rowid order: a store may order them by storage class first (`1`
    /// before `1.0`; see `keycode`), so a run of equal keys that holds an
    /// integral number is read whole and sorted. Runs of other keys
    /// (NULLs, text, blobs, fractional reals) are in rowid order already
    /// and stream.
    fn next_ordered(&mut self, cx: &Context) -> Result<Option<(Vec<Value>, i64)>> {
        if let Some(e) = self.run.pop_front() {
            return Ok(Some(e));
        }
        let Some((key, id)) = self.next_entry(cx)? else { return Ok(None) };
        let integral = |v: &Value| match v {
            Value::Integer(_) => true,
            Value::Real(f) => f.fract() == 0.0,
            _ => false,
        };
        if !self.ordered || !key.iter().any(integral) {
            return Ok(Some((key, id)));
        }
        let mut run = vec![(key, id)];
        while let Some((k, id)) = self.next_entry(cx)? {
            if cmp_key(&k, &run[0].0) != Ordering::Equal {
                self.pending = Some((k, id));
                break;
            }
            run.push((k, id));
        }
        run.sort_unstable_by_key(|e| e.1);
        if self.reverse {
            run.reverse();
        }
        self.run = run.into();
        Ok(self.run.pop_front())
    }

    /// The stored row of entry `(key, rowid)`: made from the key when the
    /// scan is covering (the columns outside the index NULL: the query
    /// reads none of them), else read from the table. A key holding a REAL
    /// zero is read from the table too: the index stores `-0.0` as `0.0`
    /// (see `keycode`), the table keeps the sign.
    fn row(
        &self,
        t: &TableDef,
        key: Vec<Value>,
        id: i64,
        cols: Option<&crate::storage::ColumnSet>,
        cx: &Context,
    ) -> Result<Row> {
        let signed_zero = |v: &Value| matches!(v, Value::Real(f) if *f == 0.0);
        if self.covering && !key.iter().any(signed_zero) {
            let mut row = vec![Value::Null; t.columns.len()];
            for (v, &c) in key.into_iter().zip(&self.index.columns) {
                if let Some(slot) = row.get_mut(c) {
                    *slot = v;
                }
            }
            return Ok(row);
        }
        cx.store.get_columns(t, id, cols)?.ok_or_else(|| {
            Error::Corrupt(format!("index {} points at missing row {id}", self.index.name))
        })
    }
}

pub(super) struct ScanOp {
    pub(super) table: Arc<TableDef>,
    pub(super) access: Access,
    pub(super) filter: Option<Expr>,
    pub(super) state: ScanState,
    /// The stored columns read above the scan (`None`: all); every access
    /// path decodes only these (see `exec::demand`).
    pub(super) cols: Option<Arc<crate::storage::ColumnSet>>,
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

/// A probe value for a rowid: numbers only (NULL, text, blob: none). A
/// REAL probes the rowid it equals exactly (an integral value in
/// [-2^63, 2^63): -2^63 itself included, which NUMERIC affinity leaves a
/// REAL).
pub(super) fn rowid_of(v: &Value) -> Option<i64> {
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    match Affinity::Numeric.apply(v.clone()) {
        Value::Integer(i) => Some(i),
        Value::Real(f) if f.fract() == 0.0 && (-TWO_63..TWO_63).contains(&f) => Some(f as i64),
        _ => None,
    }
}

pub(super) fn eval_bound(b: &Bound<Expr>, cx: &Context) -> Result<Bound<Value>> {
    Ok(match b {
        Bound::Unbounded => Bound::Unbounded,
        Bound::Included(e) => Bound::Included(e.eval(&[], cx)?),
        Bound::Excluded(e) => Bound::Excluded(e.eval(&[], cx)?),
    })
}

/// Rowid bounds from value bounds, widened to stay a superset (the filter
/// re-checks). `None` means no row can match.
pub(super) fn rowid_bounds(lo: Bound<Value>, hi: Bound<Value>) -> Option<(Bound<i64>, Bound<i64>)> {
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
            Access::Full { reverse } => ScanState::Rows(cx.store.scan_columns(
                &self.table,
                (Bound::Unbounded, Bound::Unbounded),
                *reverse,
                self.cols.clone(),
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
            Access::RowidInSub { sub, aff, coll } => {
                // Every row whose rowid is in the set has one of these
                // rowids (a superset: the IN term above tests each row).
                let set = super::subquery::in_set(sub, &[], cx, *aff, *coll)?;
                let mut ids: Vec<i64> = set.set.iter().filter_map(|k| rowid_of(&k.0[0])).collect();
                ids.sort_unstable();
                ids.dedup();
                ScanState::Rowids(ids.into_iter())
            }
            Access::RowidRange { lo, hi, reverse } => {
                match rowid_bounds(eval_bound(lo, cx)?, eval_bound(hi, cx)?) {
                    Some(r) => ScanState::Rows(cx.store.scan_columns(
                        &self.table,
                        r,
                        *reverse,
                        self.cols.clone(),
                    )?),
                    None => ScanState::Done,
                }
            }
            Access::Index {
                index,
                prefixes,
                lo,
                hi,
                affs,
                reverse,
                ordered,
                skip_nulls,
                covering,
            } => {
                // A probe value as the index holds keys: the comparison's
                // affinity applied, then folded by the key part's collation.
                let conv = |v: Value, j: usize| {
                    let v = match affs.get(j).copied().flatten() {
                        Some(a) => a.apply(v),
                        None => v,
                    };
                    match index.collations.get(j) {
                        Some(c) => c.fold_owned(v),
                        None => v,
                    }
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
                    covering: *covering,
                    run: Default::default(),
                    pending: None,
                }))
            }
        };
        Ok(())
    }
}

impl Operator for ScanOp {
    /// A scan opens its access path on the first `next` (evaluating its
    /// bounds then, with the outer rows of that call): back to that.
    fn rewind(&mut self) -> bool {
        self.state = ScanState::Init;
        true
    }

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
                    Some(id) => {
                        match cx.store.get_columns(&self.table, id, self.cols.as_deref())? {
                            Some(r) => (id, r),
                            None => continue,
                        }
                    }
                    None => return Ok(None),
                },
                ScanState::Index(scan) => match scan.next_ordered(cx)? {
                    Some((key, id)) => {
                        (id, scan.row(&self.table, key, id, self.cols.as_deref(), cx)?)
                    }
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

/// [`Node::Count`]: one row, `width` NULLs then the table's row count from
/// [`RowStore::count_rows`] (an integer, as `count(*)` always is). Asked of
/// the store when pulled, so it counts what the transaction sees then.
pub(super) struct CountOp {
    pub(super) table: Arc<TableDef>,
    pub(super) width: usize,
    pub(super) done: bool,
}

impl Operator for CountOp {
    fn rewind(&mut self) -> bool {
        self.done = false;
        true
    }

    fn next(&mut self, cx: &Context) -> Result<Option<Row>> {
        if self.done {
            return Ok(None);
        }
        self.done = true;
        let n = cx.store.count_rows(&self.table)?;
        let n =
            i64::try_from(n).map_err(|_| Error::Internal(format!("{n} rows overflow count(*)")))?;
        let mut row = vec![Value::Null; self.width];
        row.push(Value::Integer(n));
        Ok(Some(row))
    }
}
