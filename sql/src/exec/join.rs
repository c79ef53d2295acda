//! Joins: nested loops, index nested loops and hash joins (inner, LEFT,
//! RIGHT and FULL), the hash build side partitioned so it can spill.
//!
//! RIGHT and FULL joins ([`JoinOp`] only; the planner never makes them
//! index nested loops) remember which build rows some pair reached: one
//! flag per build row held in memory, so the tracking is bounded by the
//! build side itself — within the memory budget once a hash join spills,
//! where each partition's flags live only while that partition is joined.
//! When the probe side is exhausted (per partition), the build rows never
//! reached come out, each in a row of NULLs. Build rows whose key has a
//! NULL match nothing and are kept (unhashed) only for that.

use super::*;

pub(super) fn conv(v: Value, aff: Option<Affinity>) -> Value {
    match aff {
        Some(a) => a.apply(v),
        None => v,
    }
}

pub(super) struct JoinOp {
    pub(super) left: Box<dyn Operator>,
    /// Taken (and drained into `rows`) on the first call.
    pub(super) right: Option<Box<dyn Operator>>,
    pub(super) offset: usize,
    pub(super) kind: JoinKind,
    pub(super) keys: Vec<JoinKey>,
    pub(super) on: Option<Expr>,
    pub(super) rows: Vec<Row>,
    /// Build rows by key: keys are folded values, whose `Eq` and `Hash`
    /// are SQLite's equality (see `Value`).
    pub(super) hash: HashMap<Vec<Value>, Vec<usize>>,
    pub(super) cur: Option<Row>,
    pub(super) cands: Vec<usize>,
    pub(super) pos: usize,
    pub(super) matched: bool,
    /// Grace hash join: partitions still to join, as (left, right) spill
    /// files; set when the build side outgrew the memory budget.
    pub(super) pending: Vec<(sort::SpillReader, sort::SpillReader)>,
    /// Width of the joined row (a RIGHT/FULL join's unmatched rows).
    pub(super) width: usize,
    /// RIGHT/FULL: per build row in `rows`, whether a pair matched it.
    pub(super) hit: Vec<bool>,
    /// RIGHT/FULL: the next build row to test for emission once the probe
    /// side is exhausted.
    pub(super) upos: usize,
}

/// Partitions of a spilled hash join.
pub(super) const PARTITIONS: usize = 16;

pub(super) fn partition_of(k: &[Value]) -> usize {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    k.hash(&mut h);
    (h.finish() % PARTITIONS as u64) as usize
}

impl JoinOp {
    /// The hash key of a row on one side; `None` if a part is NULL (such
    /// a row matches nothing).
    fn key_of(&self, r: &[Value], left: bool, cx: &Context) -> Result<Option<Vec<Value>>> {
        let mut k = Vec::with_capacity(self.keys.len());
        for key in &self.keys {
            let e = if left { &key.left } else { &key.right };
            match conv(e.eval(r, cx)?, key.aff) {
                Value::Null => return Ok(None),
                v => k.push(key.coll.fold_owned(v)),
            }
        }
        Ok(Some(k))
    }

    fn add_build_row(&mut self, r: Row, cx: &Context) -> Result<()> {
        if !self.keys.is_empty() {
            match self.key_of(&r, false, cx)? {
                Some(k) => self.hash.entry(k).or_default().push(self.rows.len()),
                // Matches nothing; a RIGHT/FULL join still emits it.
                None if self.kind.keeps_right() => {}
                None => return Ok(()),
            }
        }
        self.rows.push(r);
        if self.kind.keeps_right() {
            self.hit.push(false);
        }
        Ok(())
    }

    /// The next build row no pair matched, NULL-extended (RIGHT/FULL).
    fn next_unmatched(&mut self) -> Option<Row> {
        if !self.kind.keeps_right() {
            return None;
        }
        while self.upos < self.rows.len() {
            let i = self.upos;
            self.upos += 1;
            if !self.hit[i] {
                let r = &self.rows[i];
                let mut row = vec![Value::Null; self.width];
                row[self.offset..self.offset + r.len()].clone_from_slice(r);
                return Some(row);
            }
        }
        None
    }

    fn load(&mut self, cx: &Context) -> Result<()> {
        let Some(mut right) = self.right.take() else { return Ok(()) };
        let mut size = 0;
        while let Some(r) = right.next(cx)? {
            size += r.iter().map(sort::approx_size).sum::<usize>() + 48;
            self.add_build_row(r, cx)?;
            if size > cx.budget && !self.keys.is_empty() {
                return self.partition(right, cx);
            }
        }
        Ok(())
    }

    /// Spills both sides into partitions by key hash (Grace hash join).
    /// Rows whose key has a NULL go to a last partition (left and, for a
    /// RIGHT/FULL join, right ones), where they match nothing and are
    /// emitted NULL-extended as the join kind wants.
    fn partition(&mut self, mut right: Box<dyn Operator>, cx: &Context) -> Result<()> {
        let mut rparts: Vec<sort::RowSpill> =
            (0..PARTITIONS).map(|_| sort::RowSpill::new()).collect::<Result<_>>()?;
        let mut lparts: Vec<sort::RowSpill> =
            (0..=PARTITIONS).map(|_| sort::RowSpill::new()).collect::<Result<_>>()?;
        let mut rnull = sort::RowSpill::new()?;
        let rows = std::mem::take(&mut self.rows);
        self.hash.clear();
        self.hit.clear();
        let keep_null = self.kind.keeps_right();
        let mut spill_right = |this: &Self, r: Row| -> Result<()> {
            match this.key_of(&r, false, cx)? {
                Some(k) => rparts[partition_of(&k)].push(&r),
                None if keep_null => rnull.push(&r),
                None => Ok(()),
            }
        };
        for r in rows.into_iter() {
            spill_right(self, r)?;
        }
        while let Some(r) = right.next(cx)? {
            spill_right(self, r)?;
        }
        while let Some(l) = self.left.next(cx)? {
            match self.key_of(&l, true, cx)? {
                Some(k) => lparts[partition_of(&k)].push(&l)?,
                None => lparts[PARTITIONS].push(&l)?,
            }
        }
        let null_part = lparts.pop().expect("PARTITIONS + 1 parts");
        self.pending.push((null_part.reader()?, rnull.reader()?));
        for (l, r) in lparts.into_iter().zip(rparts).rev() {
            self.pending.push((l.reader()?, r.reader()?));
        }
        self.next_partition(cx)?;
        Ok(())
    }

    /// Loads the next partition's build side; `false` when none is left.
    fn next_partition(&mut self, cx: &Context) -> Result<bool> {
        let Some((l, mut r)) = self.pending.pop() else { return Ok(false) };
        self.rows.clear();
        self.hash.clear();
        self.hit.clear();
        self.upos = 0;
        while let Some(row) = r.next_row()? {
            self.add_build_row(row, cx)?;
        }
        self.left = Box::new(l);
        Ok(true)
    }
}

impl Operator for JoinOp {
    fn next(&mut self, cx: &Context) -> Result<Option<Row>> {
        self.load(cx)?;
        loop {
            if self.cur.is_none() {
                let Some(l) = self.left.next(cx)? else {
                    if let Some(row) = self.next_unmatched() {
                        return Ok(Some(row));
                    }
                    if self.next_partition(cx)? {
                        continue;
                    }
                    return Ok(None);
                };
                self.cands = if self.keys.is_empty() {
                    (0..self.rows.len()).collect()
                } else {
                    match self.key_of(&l, true, cx)? {
                        Some(k) => self.hash.get(&k).cloned().unwrap_or_default(),
                        None => Vec::new(),
                    }
                };
                self.cur = Some(l);
                self.pos = 0;
                self.matched = false;
            }
            let l = self.cur.as_ref().expect("set above");
            while self.pos < self.cands.len() {
                cx.store.check_interrupt()?;
                let ri = self.cands[self.pos];
                let r = &self.rows[ri];
                self.pos += 1;
                let mut row = l.clone();
                row[self.offset..self.offset + r.len()].clone_from_slice(r);
                if let Some(on) = &self.on
                    && !on.is_true(&row, cx)?
                {
                    continue;
                }
                self.matched = true;
                if let Some(h) = self.hit.get_mut(ri) {
                    *h = true;
                }
                return Ok(Some(row));
            }
            let l = self.cur.take().expect("set above");
            if self.kind.keeps_left() && !self.matched {
                return Ok(Some(l));
            }
        }
    }
}

/// Index nested loop (see [`Node::LookupJoin`]): the right scan is rewound
/// and run once per left row, with that row as its nearest outer row, so
/// its access path (a rowid or index lookup) reads the left row's key.
/// The right rows of one left row are buffered (they are that key's
/// matches), so the child context is made once per left row.
pub(super) struct LookupJoinOp {
    pub(super) left: Box<dyn Operator>,
    pub(super) right: Box<dyn Operator>,
    pub(super) offset: usize,
    pub(super) kind: JoinKind,
    pub(super) on: Option<Expr>,
    pub(super) buf: std::collections::VecDeque<Row>,
}

impl Operator for LookupJoinOp {
    fn next(&mut self, cx: &Context) -> Result<Option<Row>> {
        loop {
            if let Some(r) = self.buf.pop_front() {
                return Ok(Some(r));
            }
            let Some(l) = self.left.next(cx)? else { return Ok(None) };
            cx.store.check_interrupt()?;
            if !self.right.rewind() {
                return Err(Error::Internal("the lookup side of a join cannot rewind".into()));
            }
            let child = cx.child(&l);
            let mut matched = false;
            while let Some(r) = self.right.next(&child)? {
                let mut row = l.clone();
                row[self.offset..self.offset + r.len()].clone_from_slice(&r);
                if let Some(on) = &self.on
                    && !on.is_true(&row, cx)?
                {
                    continue;
                }
                matched = true;
                self.buf.push_back(row);
            }
            if !matched && self.kind.keeps_left() {
                return Ok(Some(l));
            }
        }
    }
}
