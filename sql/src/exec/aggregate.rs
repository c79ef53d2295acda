//! Grouping and aggregation (GROUP BY, aggregates over the whole input).
//!
//! SQLite's rules, kept in [`Group::step`]:
//! - rows belong to the same group when their keys are equal under each
//!   key's collation (`GROUP BY c` on a NOCASE column makes `'a'` and `'A'`
//!   one group): keys are compared folded ([`Collation::fold`]);
//! - an aggregate with `FILTER (WHERE …)` sees only the rows the filter
//!   accepts;
//! - the *bare row* — what the group's key columns and any bare column
//!   read — is the group's first row, replaced by every row whose last
//!   `min()`/`max()` step (SQLite's `regHit`) strictly improves it or
//!   meets a NULL while it has no value yet; a row their FILTER rejects
//!   moves nothing;
//! - an aggregate written with `ORDER BY` inside its call
//!   (`group_concat(x ORDER BY y)`) keeps its group's inputs (sort keys and
//!   arguments) and folds them in that order when the group ends: held in
//!   memory per group, like the result it builds.

use super::*;

/// GROUP BY / aggregates. Rows fold into a `BTreeMap` of groups (so groups
/// come out in key order, as SQLite's do). When the map outgrows the memory
/// budget it is frozen: rows of groups already in it keep folding, rows of
/// new groups go to the external sort and are aggregated as a stream at
/// the end. A group lives entirely in one of the two, so the output is the
/// merge, by key, of two sorted sequences of complete groups.
pub(super) struct AggregateOp {
    pub(super) input: Option<Box<dyn Operator>>,
    pub(super) spec: Arc<Spec>,
    pub(super) always_one: bool,
    pub(super) width: usize,
    pub(super) out: AggOut,
}

/// What an aggregation computes: shared by the operator and the filter
/// that folds rows of frozen groups.
pub(super) struct Spec {
    pub(super) keys: Vec<Expr>,
    pub(super) key_colls: Vec<Collation>,
    pub(super) aggs: Vec<AggCall>,
    /// Per aggregate, its arguments as the JSON aggregates read them
    /// (value and subtype): with GROUP BY, SQLite's sorter carries the
    /// columns the arguments read, so a table-valued function's column
    /// arrives as a plain value (`json_group_array(j.value) … GROUP BY …`
    /// holds an array element as a string, and so does `CASE … THEN
    /// j.value END`); a function computed after the sorter keeps its
    /// subtype.
    subtyped_args: Vec<Vec<Expr>>,
}

impl Spec {
    pub(super) fn new(keys: Vec<Expr>, key_colls: Vec<Collation>, aggs: Vec<AggCall>) -> Spec {
        fn plain(e: Expr) -> Expr {
            match e {
                Expr::Json { value, when: Some(_) } => plain(*value),
                e => e.map_children(&mut |c| Ok(plain(c))).expect("infallible"),
            }
        }
        let grouped = !keys.is_empty();
        let subtyped_args = aggs
            .iter()
            .map(|a| {
                let args = a.args.iter().cloned();
                if grouped { args.map(plain).collect() } else { args.collect() }
            })
            .collect();
        Spec { keys, key_colls, aggs, subtyped_args }
    }

    /// The group key of `row`: its key values folded by their collations.
    fn key(&self, row: &[Value], cx: &Context) -> Result<OrdKey> {
        let mut k = OrdKey(Vec::with_capacity(self.keys.len()));
        self.key_into(row, cx, &mut k)?;
        Ok(k)
    }

    /// [`Spec::key`] into `out`, reusing its room: looking up the group of
    /// a row allocates nothing for keys of numbers.
    fn key_into(&self, row: &[Value], cx: &Context, out: &mut OrdKey) -> Result<()> {
        out.0.clear();
        for (e, c) in self.keys.iter().zip(&self.key_colls) {
            out.0.push(c.fold(e.eval_ref(row, cx)?.as_ref()).into_owned());
        }
        Ok(())
    }

    /// No groups, and every aggregate a plain `count(*)` (no DISTINCT, no
    /// FILTER): the answer is the number of input rows.
    fn counts_rows_only(&self) -> bool {
        self.keys.is_empty()
            && !self.aggs.is_empty()
            && self.aggs.iter().all(AggCall::is_count_star)
    }

    fn fresh(&self) -> Result<Vec<vals::Aggregate>> {
        self.aggs
            .iter()
            .map(|a| {
                vals::Aggregate::new(&a.name, a.distinct, a.args.len())
                    .map(|g| g.with_collation(a.coll))
            })
            .collect()
    }

    /// A group that has seen no row.
    fn empty_group(&self) -> Result<Group> {
        // min() and max() come out the same in any order (and keep moving
        // the bare row as they improve): their ORDER BY needs no buffer.
        let ordered = self
            .aggs
            .iter()
            .map(|a| (!a.order.is_empty() && !a.is_min_max()).then(Vec::new))
            .collect();
        Ok(Group { states: self.fresh()?, bare: Vec::new(), ordered })
    }

    /// A new group starting with `row`.
    fn start(&self, row: Row, cx: &Context) -> Result<Group> {
        let mut g = self.empty_group()?;
        g.step(self, row, cx)?;
        Ok(g)
    }
}

/// One group being aggregated.
pub(super) struct Group {
    pub(super) states: Vec<vals::Aggregate>,
    /// The row bare columns read (empty before the first row).
    pub(super) bare: Row,
    /// Per aggregate with `ORDER BY` in its call, the inputs it has yet to
    /// fold (`None` for the others).
    pub(super) ordered: Vec<Option<Vec<OrderedInput>>>,
}

/// One row's input to an aggregate with `ORDER BY`: the sort key, the
/// argument values and whether each is JSON-subtyped.
pub(super) struct OrderedInput {
    key: Vec<Value>,
    args: Vec<Value>,
    json: Vec<bool>,
}

impl Group {
    /// Folds `row` into the group.
    fn step(&mut self, spec: &Spec, row: Row, cx: &Context) -> Result<()> {
        let mut args = Vec::new();
        // Whether the row moves the bare row (SQLite's `regHit`).
        let mut hit = false;
        for (i, (a, call)) in self.states.iter_mut().zip(&spec.aggs).enumerate() {
            if let Some(f) = &call.filter
                && !f.is_true(&row, cx)?
            {
                continue;
            }
            args.clear();
            if let Some(buf) = &mut self.ordered[i] {
                let mut key = Vec::with_capacity(call.order.len());
                for k in &call.order {
                    key.push(k.expr.eval(&row, cx)?);
                }
                let mut vals = Vec::with_capacity(call.args.len());
                let mut json = Vec::with_capacity(call.args.len());
                for e in &spec.subtyped_args[i] {
                    let (v, j) = e.eval_subtyped(&row, cx)?;
                    vals.push(v);
                    json.push(j);
                }
                buf.push(OrderedInput { key, args: vals, json });
                continue;
            }
            if a.reads_subtypes() {
                // The JSON aggregates insert JSON-subtyped text as JSON.
                let mut json = Vec::with_capacity(call.args.len());
                for e in &spec.subtyped_args[i] {
                    let (v, j) = e.eval_subtyped(&row, cx)?;
                    args.push(v);
                    json.push(j);
                }
                a.step_subtyped(&args, &json)?;
                continue;
            }
            // One argument (the common case) is read in place: a step
            // allocates nothing.
            let one;
            let args: &[Value] = match call.args.as_slice() {
                [e] => {
                    one = e.eval_ref(&row, cx)?;
                    std::slice::from_ref(one.as_ref())
                }
                es => {
                    for e in es {
                        args.push(e.eval(&row, cx)?);
                    }
                    &args
                }
            };
            // Every min()/max() the row reaches sets the one register, the
            // last of them deciding (their FILTER or DISTINCT may skip them).
            if call.is_min_max() {
                hit = a.step_improves(args)?;
            } else {
                a.step(args)?;
            }
        }
        if self.bare.is_empty() || hit {
            self.bare = row;
        }
        Ok(())
    }

    /// The output row: keys read from the bare row, then the bare row
    /// itself, then the aggregates (the layout `planner::select::post_agg`
    /// binds to).
    fn finish(mut self, spec: &Spec, width: usize, cx: &Context) -> Result<Row> {
        if self.bare.is_empty() {
            self.bare = vec![Value::Null; width];
        }
        let mut row = Vec::with_capacity(spec.keys.len() + spec.aggs.len() + self.bare.len());
        for e in &spec.keys {
            row.push(e.eval(&self.bare, cx)?);
        }
        row.extend(self.bare);
        for ((a, call), buf) in self.states.iter_mut().zip(&spec.aggs).zip(self.ordered) {
            if let Some(mut buf) = buf {
                // Stable: rows with equal keys keep the order they came in
                // (as SQLite's do). With DISTINCT, which of equal values is
                // kept may differ from SQLite's (it keeps the first here).
                buf.sort_by(|x, y| sort::cmp_keys(&call.order, &x.key, &y.key));
                for input in buf {
                    if a.reads_subtypes() {
                        a.step_subtyped(&input.args, &input.json)?;
                    } else {
                        a.step(&input.args)?;
                    }
                }
            }
            row.push(a.finish()?);
        }
        Ok(row)
    }
}

pub(super) struct AggOut {
    /// Finished groups held in memory, by key.
    pub(super) mem: std::iter::Peekable<std::vec::IntoIter<(OrdKey, Row)>>,
    pub(super) sorted: Option<Box<sort::SortOp>>,
    pub(super) cur: Option<(OrdKey, Group)>,
    /// The next complete group from the sorted stream.
    pub(super) pending: Option<(OrdKey, Row)>,
}

impl AggOut {
    pub(super) fn empty() -> AggOut {
        AggOut { mem: Vec::new().into_iter().peekable(), sorted: None, cur: None, pending: None }
    }
}

/// Groups in key order.
pub(super) type GroupMap = BTreeMap<OrdKey, Group>;

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

impl AggregateOp {
    fn run(&mut self, cx: &Context) -> Result<()> {
        let Some(mut input) = self.input.take() else { return Ok(()) };
        let spec = self.spec.clone();
        if spec.counts_rows_only() {
            return self.count_rows(input, cx);
        }
        let mut groups: GroupMap = BTreeMap::new();
        let mut size = 0;
        // Rows of groups first seen after the map was frozen.
        let mut spill: Option<Vec<Row>> = None;
        let per_group = 64 + 64 * spec.aggs.len();
        let mut k = OrdKey(Vec::with_capacity(spec.keys.len()));
        while let Some(r) = input.next(cx)? {
            spec.key_into(&r, cx, &mut k)?;
            if let Some(g) = groups.get_mut(&k) {
                g.step(&spec, r, cx)?;
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
            let g = spec.start(r, cx)?;
            let fresh = OrdKey(Vec::with_capacity(spec.keys.len()));
            groups.insert(std::mem::replace(&mut k, fresh), g);
            if size > cx.budget && !spec.keys.is_empty() {
                spill = Some(Vec::new());
            }
        }
        let sorted = match spill {
            None => None,
            Some(buf) => {
                // The rest of the input: rows of frozen groups fold here as
                // they pass; the others go on to the sort.
                let shared = Arc::new(parking_lot::Mutex::new(std::mem::take(&mut groups)));
                let rest = FoldFilter { input, groups: shared.clone(), spec: spec.clone() };
                // Sorted by the folded keys (each under its collation); the
                // sort is stable, so a group's rows keep their input order
                // and its first row stays first.
                let keys = spec
                    .keys
                    .iter()
                    .zip(&spec.key_colls)
                    .map(|(e, c)| SortKey {
                        expr: e.clone(),
                        desc: false,
                        coll: *c,
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
            groups.insert(OrdKey(Vec::new()), spec.empty_group()?);
        }
        let mut out = Vec::with_capacity(groups.len());
        for (k, g) in groups {
            out.push((k, g.finish(&spec, self.width, cx)?));
        }
        self.out = AggOut { mem: out.into_iter().peekable(), sorted, cur: None, pending: None };
        Ok(())
    }

    /// `count(*)` over the whole input and nothing else: the first row is
    /// pulled (it is the bare row bare columns read), the rest only
    /// skipped — a plain table scan passes whole leaves by their cell
    /// counts, decoding no record (SQLite's count of a b-tree).
    fn count_rows(&mut self, mut input: Box<dyn Operator>, cx: &Context) -> Result<()> {
        let first = input.next(cx)?;
        let n = match first {
            Some(_) => 1 + input.skip(u64::MAX, cx)?,
            None => 0,
        };
        if first.is_none() && !self.always_one {
            self.out = AggOut::empty();
            return Ok(());
        }
        let n = Value::Integer(i64::try_from(n).unwrap_or(i64::MAX));
        let mut row = first.unwrap_or_else(|| vec![Value::Null; self.width]);
        row.extend(self.spec.aggs.iter().map(|_| n.clone()));
        let mem = vec![(OrdKey(Vec::new()), row)].into_iter().peekable();
        self.out = AggOut { mem, sorted: None, cur: None, pending: None };
        Ok(())
    }

    /// The next complete group of the sorted stream.
    fn next_stream_group(&mut self, cx: &Context) -> Result<Option<(OrdKey, Row)>> {
        let Some(sorted) = &mut self.out.sorted else { return Ok(None) };
        let spec = &self.spec;
        let cur = &mut self.out.cur;
        loop {
            let Some(r) = sorted.next(cx)? else {
                return match cur.take() {
                    Some((k, g)) => Ok(Some((k, g.finish(spec, self.width, cx)?))),
                    None => Ok(None),
                };
            };
            let k = spec.key(&r, cx)?;
            if let Some((ck, g)) = cur.as_mut()
                && *ck == k
            {
                g.step(spec, r, cx)?;
                continue;
            }
            let g = spec.start(r, cx)?;
            if let Some((pk, pg)) = cur.replace((k, g)) {
                return Ok(Some((pk, pg.finish(spec, self.width, cx)?)));
            }
        }
    }
}

/// Passes rows of groups not in `groups` through; folds the others.
pub(super) struct FoldFilter {
    pub(super) input: Box<dyn Operator>,
    pub(super) groups: Arc<parking_lot::Mutex<GroupMap>>,
    pub(super) spec: Arc<Spec>,
}

impl Operator for FoldFilter {
    fn next(&mut self, cx: &Context) -> Result<Option<Row>> {
        while let Some(r) = self.input.next(cx)? {
            let k = self.spec.key(&r, cx)?;
            match self.groups.lock().get_mut(&k) {
                Some(g) => g.step(&self.spec, r, cx)?,
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
        let take_mem = match (self.out.mem.peek(), &self.out.pending) {
            (Some(m), Some(p)) => m.0 < p.0,
            (Some(_), None) => true,
            (None, _) => false,
        };
        if take_mem {
            return Ok(self.out.mem.next().map(|g| g.1));
        }
        Ok(self.out.pending.take().map(|g| g.1))
    }
}
