//! Interrupting a running statement from another thread.
//!
//! An [`Interrupt`] is a shared flag. A session that has one
//! ([`crate::session::Session::set_interrupt`]) runs its statements over an
//! [`Interrupted`] view of the store: every store call and every row or
//! index entry a cursor yields first looks at the flag, and once it is set
//! the statement fails with [`Error::Interrupted`]. Scans, joins, sorts
//! (while they read their input), aggregates and every write of INSERT,
//! UPDATE and DELETE go through the store, so a statement stops within a
//! row of the flag being set, however long it would have run (SQLite's
//! `sqlite3_interrupt`); joins, which loop over rows held in memory, check
//! at every candidate pair. What the statement did is undone like any failed
//! statement: its savepoint (inside a transaction) or its autocommit
//! transaction is rolled back.
//!
//! Checking costs one relaxed atomic load per row; sessions without an
//! interrupt skip the wrapper entirely.

use std::ops::Bound;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Instant;

use super::{ColumnSet, IndexCursor, KeyRange, Row, RowCursor, RowStore, TreeKind};
use crate::catalog::{IndexDef, TableDef};
use crate::value::Value;
use crate::{Error, Result};

/// A flag that stops the statements of the sessions holding it, and
/// optionally a deadline that sets it. Cheap to clone; all clones share
/// the flag.
#[derive(Clone, Debug, Default)]
pub struct Interrupt {
    flag: Arc<AtomicBool>,
    /// The deadline, and a tick counter: the clock is read every
    /// [`CLOCK_EVERY`] checks, not at each row.
    deadline: Option<(Instant, Arc<AtomicU32>)>,
}

/// Checks between two readings of the clock for a deadline.
const CLOCK_EVERY: u32 = 64;

impl Interrupt {
    pub fn new() -> Interrupt {
        Interrupt::default()
    }

    /// An interrupt over an existing flag (e.g. a job's cancel flag).
    pub fn from_flag(flag: Arc<AtomicBool>) -> Interrupt {
        Interrupt { flag, deadline: None }
    }

    /// A fresh interrupt that sets itself at `at` (a statement timeout).
    pub fn at(at: Instant) -> Interrupt {
        Interrupt { flag: Arc::default(), deadline: Some((at, Arc::default())) }
    }

    /// A clone sharing this interrupt's flag that also sets itself at `at`:
    /// a statement timeout that the flag's owner can still fire early.
    pub fn with_deadline(&self, at: Instant) -> Interrupt {
        Interrupt { flag: self.flag.clone(), deadline: Some((at, Arc::default())) }
    }

    /// Asks every statement running under this interrupt to stop.
    pub fn set(&self) {
        self.flag.store(true, Ordering::SeqCst);
    }

    /// Lets statements run again.
    pub fn clear(&self) {
        self.flag.store(false, Ordering::SeqCst);
    }

    pub fn is_set(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }

    /// `Err(Error::Interrupted)` once the flag is set or the deadline has
    /// passed.
    pub fn check(&self) -> Result<()> {
        if self.is_set() {
            return Err(Error::Interrupted);
        }
        if let Some((at, ticks)) = &self.deadline
            && ticks.fetch_add(1, Ordering::Relaxed) % CLOCK_EVERY == 0
            && Instant::now() >= *at
        {
            self.set();
            return Err(Error::Interrupted);
        }
        Ok(())
    }
}

/// A store whose every call first checks an [`Interrupt`].
pub struct Interrupted<'a> {
    inner: &'a dyn RowStore,
    interrupt: &'a Interrupt,
}

impl<'a> Interrupted<'a> {
    pub fn new(inner: &'a dyn RowStore, interrupt: &'a Interrupt) -> Interrupted<'a> {
        Interrupted { inner, interrupt }
    }
}

struct RowGuard {
    inner: Box<dyn RowCursor>,
    interrupt: Interrupt,
}

impl RowCursor for RowGuard {
    fn next(&mut self) -> Result<Option<(i64, Row)>> {
        self.interrupt.check()?;
        self.inner.next()
    }
    fn skip(&mut self, n: u64) -> Result<u64> {
        self.interrupt.check()?;
        self.inner.skip(n)
    }
}

struct IndexGuard {
    inner: Box<dyn IndexCursor>,
    interrupt: Interrupt,
}

impl IndexCursor for IndexGuard {
    fn next(&mut self) -> Result<Option<(Vec<Value>, i64)>> {
        self.interrupt.check()?;
        self.inner.next()
    }
}

impl RowStore for Interrupted<'_> {
    fn scan_columns(
        &self,
        table: &TableDef,
        range: (Bound<i64>, Bound<i64>),
        reverse: bool,
        cols: Option<Arc<ColumnSet>>,
    ) -> Result<Box<dyn RowCursor>> {
        self.interrupt.check()?;
        let inner = self.inner.scan_columns(table, range, reverse, cols)?;
        Ok(Box::new(RowGuard { inner, interrupt: self.interrupt.clone() }))
    }
    fn scan_index(
        &self,
        index: &IndexDef,
        range: KeyRange,
        reverse: bool,
    ) -> Result<Box<dyn IndexCursor>> {
        self.interrupt.check()?;
        let inner = self.inner.scan_index(index, range, reverse)?;
        Ok(Box::new(IndexGuard { inner, interrupt: self.interrupt.clone() }))
    }
    fn get_columns(
        &self,
        table: &TableDef,
        rowid: i64,
        cols: Option<&ColumnSet>,
    ) -> Result<Option<Row>> {
        self.interrupt.check()?;
        self.inner.get_columns(table, rowid, cols)
    }
    fn insert(&self, table: &TableDef, rowid: i64, row: &[Value]) -> Result<()> {
        self.interrupt.check()?;
        self.inner.insert(table, rowid, row)
    }
    fn insert_new(&self, table: &TableDef, rowid: i64, row: &[Value]) -> Result<bool> {
        self.interrupt.check()?;
        self.inner.insert_new(table, rowid, row)
    }
    fn delete(&self, table: &TableDef, rowid: i64) -> Result<()> {
        self.interrupt.check()?;
        self.inner.delete(table, rowid)
    }
    fn max_rowid(&self, table: &TableDef) -> Result<Option<i64>> {
        self.interrupt.check()?;
        self.inner.max_rowid(table)
    }
    fn estimate_rows(&self, table: &TableDef) -> Result<u64> {
        self.inner.estimate_rows(table)
    }
    fn count_rows(&self, table: &TableDef) -> Result<u64> {
        self.interrupt.check()?;
        self.inner.count_rows(table)
    }
    fn count_index_entries(&self, index: &IndexDef) -> Result<u64> {
        self.interrupt.check()?;
        self.inner.count_index_entries(index)
    }
    fn index_insert(&self, index: &IndexDef, key: &[Value], rowid: i64) -> Result<()> {
        self.interrupt.check()?;
        self.inner.index_insert(index, key, rowid)
    }
    fn index_delete(&self, index: &IndexDef, key: &[Value], rowid: i64) -> Result<()> {
        self.interrupt.check()?;
        self.inner.index_delete(index, key, rowid)
    }
    fn index_lookup(&self, index: &IndexDef, key: &[Value]) -> Result<Option<i64>> {
        self.interrupt.check()?;
        self.inner.index_lookup(index, key)
    }
    fn create_tree(&self, kind: TreeKind) -> Result<u32> {
        self.inner.create_tree(kind)
    }
    fn drop_tree(&self, root: u32, kind: TreeKind) -> Result<()> {
        self.inner.drop_tree(root, kind)
    }
    fn catalog_root(&self) -> Result<Option<u32>> {
        self.inner.catalog_root()
    }
    fn set_catalog_root(&self, root: u32) -> Result<()> {
        self.inner.set_catalog_root(root)
    }
    fn schema_cookie(&self) -> Result<u64> {
        self.inner.schema_cookie()
    }
    fn header_value(&self, key: super::HeaderValue) -> Result<u32> {
        self.inner.header_value(key)
    }
    fn page_counts(&self) -> Result<(u32, u32)> {
        self.inner.page_counts()
    }
    fn set_header_value(&self, key: super::HeaderValue, value: u32) -> Result<()> {
        self.inner.set_header_value(key, value)
    }
    fn set_schema_cookie(&self, cookie: u64) -> Result<()> {
        self.inner.set_schema_cookie(cookie)
    }
    // Savepoint bookkeeping is never interrupted: rolling back must work
    // after the flag is set.
    fn savepoint(&self) -> Result<u64> {
        self.inner.savepoint()
    }
    fn release(&self, sp: u64) -> Result<()> {
        self.inner.release(sp)
    }
    fn rollback_to(&self, sp: u64) -> Result<()> {
        self.inner.rollback_to(sp)
    }
    fn is_writable(&self) -> bool {
        self.inner.is_writable()
    }
    fn check_interrupt(&self) -> Result<()> {
        self.interrupt.check()
    }
}
