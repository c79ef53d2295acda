//! One window partition, buffered: in memory while it fits the memory
//! budget (the same `Context::budget` past which the sort spills), then in
//! a [`sort::RowSpill`] file. Every row is stored with its ORDER BY values
//! (`okey ++ row`, as the sort's entries).
//!
//! The partition is read through [`Cursor`]s (SQLite's window.c keeps up
//! to three over its ephemeral table: current row, frame start, frame
//! end). A cursor moving forward counts peer groups as it goes; one can
//! also jump to any row: a spilled partition keeps the file offset of
//! every `every`-th row, and doubles `every` (dropping every other mark)
//! whenever the marks pass a cap, so they stay a small fixed fraction of
//! the budget for any partition size.

use std::cmp::Ordering;

use super::super::sort::{self, RowSpill, SharedSpill, SpillCursor};
use crate::Result;
use crate::planner::SortKey;
use crate::storage::Row;
use crate::value::Value;

/// A row with its ORDER BY values.
pub(super) type Entry = (Vec<Value>, Row);

pub(super) struct Partition {
    pub n: usize,
    store: Store,
}

enum Store {
    Memory(Vec<Entry>),
    Disk(Disk),
}

struct Disk {
    file: SharedSpill,
    nkeys: usize,
    /// `marks[j]`: the file offset of row `j * every`.
    marks: Vec<u64>,
    every: usize,
}

/// Collects a partition's rows in order.
pub(super) struct Builder {
    nkeys: usize,
    budget: usize,
    rows: Vec<Entry>,
    size: usize,
    spill: Option<Spilling>,
}

struct Spilling {
    file: RowSpill,
    marks: Vec<u64>,
    every: usize,
    cap: usize,
    scratch: Vec<Value>,
}

impl Spilling {
    fn push(&mut self, e: &Entry) -> Result<()> {
        if self.file.rows.is_multiple_of(self.every as u64) {
            self.marks.push(self.file.bytes);
            if self.marks.len() > self.cap {
                let mut j = 0;
                self.marks.retain(|_| {
                    j += 1;
                    j % 2 == 1
                });
                self.every *= 2;
            }
        }
        self.scratch.clear();
        self.scratch.extend(e.0.iter().cloned());
        self.scratch.extend(e.1.iter().cloned());
        self.file.push(&self.scratch)
    }
}

impl Builder {
    pub fn new(nkeys: usize, budget: usize) -> Builder {
        Builder { nkeys, budget, rows: Vec::new(), size: 0, spill: None }
    }

    pub fn push(&mut self, e: Entry) -> Result<()> {
        if let Some(s) = &mut self.spill {
            return s.push(&e);
        }
        self.size += e.0.iter().chain(&e.1).map(sort::approx_size).sum::<usize>() + 48;
        self.rows.push(e);
        if self.size > self.budget {
            // Marks take at most a sixteenth of the budget.
            let cap = (self.budget / 16 / 8).max(64);
            let mut s = Spilling {
                file: RowSpill::new()?,
                marks: Vec::new(),
                every: 16,
                cap,
                scratch: Vec::new(),
            };
            for e in self.rows.drain(..) {
                s.push(&e)?;
            }
            self.rows = Vec::new();
            self.spill = Some(s);
        }
        Ok(())
    }

    pub fn finish(self) -> Result<Partition> {
        Ok(match self.spill {
            None => Partition { n: self.rows.len(), store: Store::Memory(self.rows) },
            Some(s) => Partition {
                n: s.file.rows as usize,
                store: Store::Disk(Disk {
                    file: s.file.shared()?,
                    nkeys: self.nkeys,
                    marks: s.marks,
                    every: s.every,
                }),
            },
        })
    }
}

impl Partition {
    /// Whether the rows went to a spill file.
    pub fn spilled(&self) -> bool {
        matches!(self.store, Store::Disk(_))
    }

    /// A cursor on the first row.
    pub fn cursor(&self) -> Result<Cursor> {
        let mut c = Cursor { pos: 0, grp: 0, disk: None };
        if let Store::Disk(d) = &self.store {
            let mut reader = SpillCursor::new(&d.file);
            let cur = if self.n > 0 { Some(split(reader.read(0)?, d.nkeys)) } else { None };
            let next = cur.as_ref().map_or(0, |c| c.1);
            c.disk = Some(DiskPos { reader, next, cur: cur.map(|c| c.0) });
        }
        Ok(c)
    }
}

fn split((mut all, next): (Row, u64), nkeys: usize) -> (Entry, u64) {
    let row = all.split_off(nkeys.min(all.len()));
    ((all, row), next)
}

/// A position in a [`Partition`]: row `pos` (`n`: past the end) and its
/// peer group `grp` (counted from 0; kept by [`Cursor::advance`] only).
pub(super) struct Cursor {
    pub pos: usize,
    pub grp: usize,
    disk: Option<DiskPos>,
}

struct DiskPos {
    reader: SpillCursor,
    /// The offset of row `pos + 1`.
    next: u64,
    cur: Option<Entry>,
}

impl Cursor {
    /// The row under the cursor (`pos < n`).
    pub fn entry<'a>(&'a self, p: &'a Partition) -> &'a Entry {
        match (&p.store, &self.disk) {
            (Store::Memory(v), _) => &v[self.pos],
            (Store::Disk(_), Some(d)) => d.cur.as_ref().expect("cursor on a row"),
            (Store::Disk(_), None) => unreachable!("disk cursor without a reader"),
        }
    }

    /// Moves to the next row, counting a new peer group when its ORDER
    /// BY values differ from this row's.
    pub fn advance(&mut self, p: &Partition, order: &[SortKey]) -> Result<()> {
        if self.pos + 1 >= p.n {
            self.pos = p.n;
            if let Some(d) = &mut self.disk {
                d.cur = None;
            }
            return Ok(());
        }
        match (&p.store, &mut self.disk) {
            (Store::Memory(v), _) => {
                if sort::cmp_keys(order, &v[self.pos].0, &v[self.pos + 1].0) != Ordering::Equal {
                    self.grp += 1;
                }
            }
            (Store::Disk(disk), Some(d)) => {
                let (e, next) = split(d.reader.read(d.next)?, disk.nkeys);
                let prev = d.cur.as_ref().expect("cursor on a row");
                if sort::cmp_keys(order, &prev.0, &e.0) != Ordering::Equal {
                    self.grp += 1;
                }
                d.cur = Some(e);
                d.next = next;
            }
            (Store::Disk(_), None) => unreachable!("disk cursor without a reader"),
        }
        self.pos += 1;
        Ok(())
    }

    /// Moves to row `t < n`; `grp` is then meaningless (for cursors that
    /// only read values: lag/lead, first/last/nth_value).
    pub fn seek(&mut self, p: &Partition, t: usize) -> Result<()> {
        let Store::Disk(disk) = &p.store else {
            self.pos = t;
            return Ok(());
        };
        let d = self.disk.as_mut().expect("disk cursor has a reader");
        if t == self.pos && d.cur.is_some() {
            return Ok(());
        }
        let (mut pos, mut off) = if t > self.pos && t - self.pos <= disk.every && d.cur.is_some() {
            (self.pos + 1, d.next)
        } else {
            let m = t / disk.every;
            (m * disk.every, disk.marks[m])
        };
        while pos < t {
            off = d.reader.skip(off)?;
            pos += 1;
        }
        let (e, next) = split(d.reader.read(off)?, disk.nkeys);
        d.cur = Some(e);
        d.next = next;
        self.pos = t;
        Ok(())
    }

    /// Puts this cursor where `other` is (its own buffer kept).
    pub fn copy_from(&mut self, other: &Cursor) {
        self.pos = other.pos;
        self.grp = other.grp;
        if let (Some(d), Some(o)) = (&mut self.disk, &other.disk) {
            d.next = o.next;
            d.cur.clone_from(&o.cur);
        }
    }
}
