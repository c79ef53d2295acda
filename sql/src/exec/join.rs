//! Joins: nested loops, index nested loops and hash joins (inner and
//! left), the hash build side partitioned so it can spill.

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
            let Some(k) = self.key_of(&r, false, cx)? else { return Ok(()) };
            self.hash.entry(k).or_default().push(self.rows.len());
        }
        self.rows.push(r);
        Ok(())
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
    /// Left rows whose key has a NULL go to a last partition with no right
    /// rows, so a LEFT join still emits them.
    fn partition(&mut self, mut right: Box<dyn Operator>, cx: &Context) -> Result<()> {
        let mut rparts: Vec<sort::RowSpill> =
            (0..PARTITIONS).map(|_| sort::RowSpill::new()).collect::<Result<_>>()?;
        let mut lparts: Vec<sort::RowSpill> =
            (0..=PARTITIONS).map(|_| sort::RowSpill::new()).collect::<Result<_>>()?;
        let rows = std::mem::take(&mut self.rows);
        self.hash.clear();
        for r in rows.into_iter() {
            if let Some(k) = self.key_of(&r, false, cx)? {
                rparts[partition_of(&k)].push(&r)?;
            }
        }
        while let Some(r) = right.next(cx)? {
            if let Some(k) = self.key_of(&r, false, cx)? {
                rparts[partition_of(&k)].push(&r)?;
            }
        }
        while let Some(l) = self.left.next(cx)? {
            match self.key_of(&l, true, cx)? {
                Some(k) => lparts[partition_of(&k)].push(&l)?,
                None => lparts[PARTITIONS].push(&l)?,
            }
        }
        let null_part = lparts.pop().expect("PARTITIONS + 1 parts");
        self.pending.push((null_part.reader()?, sort::RowSpill::new()?.reader()?));
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
                let r = &self.rows[self.cands[self.pos]];
                self.pos += 1;
                let mut row = l.clone();
                row[self.offset..self.offset + r.len()].clone_from_slice(r);
                if let Some(on) = &self.on
                    && !on.is_true(&row, cx)?
                {
                    continue;
                }
                self.matched = true;
                return Ok(Some(row));
            }
            let l = self.cur.take().expect("set above");
            if self.kind == JoinKind::Left && !self.matched {
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
                return Err(Error::Corrupt(
                    "internal: the lookup side of a join cannot rewind".into(),
                ));
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
            if !matched && self.kind == JoinKind::Left {
                return Ok(Some(l));
            }
        }
    }
}
