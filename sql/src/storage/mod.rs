//! The storage seam of the executor: [`RowStore`], one transaction's view of
//! tables and indexes, and [`MemStore`], an in-memory implementation used by
//! tests and by `Engine::memory()`.
//!
//! The executor never sees pages: it reads rows by rowid order, index entries
//! by key order (keys compared with [`compare`], i.e. SQLite's BINARY order),
//! and writes whole rows. Cursors are `'static`: they own a clone of whatever
//! handle they need, so an operator tree holding them can be returned to the
//! caller and pulled lazily.
//!
//! Invariants the executor relies on:
//! - a table row is stored with every declared column (the `INTEGER PRIMARY
//!   KEY` column, if any, is stored as NULL: the rowid is its value);
//! - an index entry is `(key values, rowid)`; entries are unique on the pair,
//!   so non-unique indexes can hold equal keys;
//! - a cursor is not required to see changes made after it was opened: the
//!   executor materialises the rows it modifies before modifying them.

mod btree;
mod interrupt;
mod mem;

use std::cmp::Ordering;
use std::ops::Bound;
use std::sync::Arc;

pub use btree::{BtreeStore, Tx};
pub use interrupt::{Interrupt, Interrupted};
pub use mem::{MemStore, MemTxn};

use crate::Result;
use crate::catalog::{IndexDef, TableDef};
use crate::exec::vals::compare;
pub use crate::record::ColumnSet;
use crate::value::Value;

/// A row as the executor sees it: one value per column.
pub type Row = Vec<Value>;

/// A range of index keys. Bounds are key *prefixes*: `Included([5])` on a
/// two-column index starts at the first entry whose first column is 5.
#[derive(Clone, Debug)]
pub struct KeyRange {
    pub start: Bound<Vec<Value>>,
    pub end: Bound<Vec<Value>>,
}

impl KeyRange {
    /// Every entry.
    pub fn all() -> KeyRange {
        KeyRange { start: Bound::Unbounded, end: Bound::Unbounded }
    }

    /// Entries whose key starts with `prefix`.
    pub fn prefix(prefix: Vec<Value>) -> KeyRange {
        KeyRange { start: Bound::Included(prefix.clone()), end: Bound::Included(prefix) }
    }

    /// True if `key` (a full key) lies inside the range (prefix comparison).
    pub fn contains(&self, key: &[Value]) -> bool {
        let lo = match &self.start {
            Bound::Unbounded => true,
            Bound::Included(p) => cmp_prefix(key, p) != Ordering::Less,
            Bound::Excluded(p) => cmp_prefix(key, p) == Ordering::Greater,
        };
        lo && match &self.end {
            Bound::Unbounded => true,
            Bound::Included(p) => cmp_prefix(key, p) != Ordering::Greater,
            Bound::Excluded(p) => cmp_prefix(key, p) == Ordering::Less,
        }
    }
}

/// Compares `key` with a prefix, looking only at the prefix's columns.
pub fn cmp_prefix(key: &[Value], prefix: &[Value]) -> Ordering {
    for (k, p) in key.iter().zip(prefix) {
        let o = compare(k, p);
        if o != Ordering::Equal {
            return o;
        }
    }
    Ordering::Equal
}

/// Compares two keys column by column with SQLite's total order.
pub fn cmp_key(a: &[Value], b: &[Value]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        let o = compare(x, y);
        if o != Ordering::Equal {
            return o;
        }
    }
    a.len().cmp(&b.len())
}

/// Rows of a table in rowid order.
pub trait RowCursor: Send {
    fn next(&mut self) -> Result<Option<(i64, Row)>>;

    /// Steps over up to `n` rows without returning them; answers how many
    /// there were. Stores override it to skip without decoding rows.
    fn skip(&mut self, n: u64) -> Result<u64> {
        let mut done = 0;
        while done < n && self.next()?.is_some() {
            done += 1;
        }
        Ok(done)
    }
}

/// Entries of an index in key order: `(key values, rowid)`.
pub trait IndexCursor: Send {
    fn next(&mut self) -> Result<Option<(Vec<Value>, i64)>>;
}

/// What kind of tree to create.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeKind {
    Table,
    Index,
}

/// One transaction's view of the database (read-only or read-write).
/// Write methods on a read-only view return `Error::InvalidInput`.
/// Implementations: [`MemStore`]'s [`MemTxn`] and [`BtreeStore`].
/// The settings a database keeps next to its schema cookie (each a 32-bit
/// word; SQLite's are signed, and callers read them as `i32`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeaderValue {
    /// `PRAGMA user_version`.
    UserVersion,
    /// `PRAGMA application_id`.
    ApplicationId,
}

impl HeaderValue {
    /// The header user slot that holds it (slot 0 is the schema cookie).
    pub fn slot(self) -> usize {
        match self {
            HeaderValue::UserVersion => 1,
            HeaderValue::ApplicationId => 2,
        }
    }
}

pub trait RowStore {
    /// Rows with rowid inside `range`, ascending (or descending if `reverse`).
    fn scan(
        &self,
        table: &TableDef,
        range: (Bound<i64>, Bound<i64>),
        reverse: bool,
    ) -> Result<Box<dyn RowCursor>> {
        self.scan_columns(table, range, reverse, None)
    }
    /// [`RowStore::scan`] that decodes only the stored columns in `cols`
    /// (`None`: all): the others read as NULL and a row may end after the
    /// last column in the set. A query reading two columns of a wide row
    /// then decodes (and allocates) nothing else, as SQLite's lazy
    /// `OP_Column` does; `exec::demand` works out the set.
    fn scan_columns(
        &self,
        table: &TableDef,
        range: (Bound<i64>, Bound<i64>),
        reverse: bool,
        cols: Option<Arc<ColumnSet>>,
    ) -> Result<Box<dyn RowCursor>>;
    fn scan_index(
        &self,
        index: &IndexDef,
        range: KeyRange,
        reverse: bool,
    ) -> Result<Box<dyn IndexCursor>>;
    /// Row `rowid`, decoding only `cols` (`None`: all), as
    /// [`RowStore::scan_columns`] does: the other columns may be NULL or
    /// missing at the end. A store may decode more.
    fn get_columns(
        &self,
        table: &TableDef,
        rowid: i64,
        cols: Option<&ColumnSet>,
    ) -> Result<Option<Row>>;
    /// Row `rowid`, every column.
    fn get(&self, table: &TableDef, rowid: i64) -> Result<Option<Row>> {
        self.get_columns(table, rowid, None)
    }
    fn insert(&self, table: &TableDef, rowid: i64, row: &[Value]) -> Result<()>;
    /// Inserts row `rowid` unless one exists (then nothing changes and the
    /// answer is `false`): the PRIMARY KEY check and the write in one
    /// descent of the tree.
    fn insert_new(&self, table: &TableDef, rowid: i64, row: &[Value]) -> Result<bool> {
        if self.get(table, rowid)?.is_some() {
            return Ok(false);
        }
        self.insert(table, rowid, row)?;
        Ok(true)
    }
    fn delete(&self, table: &TableDef, rowid: i64) -> Result<()>;
    fn max_rowid(&self, table: &TableDef) -> Result<Option<i64>>;
    /// A cheap row-count estimate (for join ordering); need not be exact.
    fn estimate_rows(&self, table: &TableDef) -> Result<u64>;
    /// The exact number of rows of `table`: what a full [`RowStore::scan`]
    /// in this transaction would return (its own uncommitted writes
    /// included), without decoding any row. `SELECT count(*) FROM t`
    /// is answered from it (see `planner::select::count_star`).
    fn count_rows(&self, table: &TableDef) -> Result<u64>;
    /// The exact number of entries of `index`, as [`RowStore::count_rows`].
    fn count_index_entries(&self, index: &IndexDef) -> Result<u64>;
    fn index_insert(&self, index: &IndexDef, key: &[Value], rowid: i64) -> Result<()>;
    fn index_delete(&self, index: &IndexDef, key: &[Value], rowid: i64) -> Result<()>;
    /// The rowid of some entry whose key equals `key` (UNIQUE checks).
    fn index_lookup(&self, index: &IndexDef, key: &[Value]) -> Result<Option<i64>>;
    fn create_tree(&self, kind: TreeKind) -> Result<u32>;
    /// Frees every page of the tree rooted at `root`.
    fn drop_tree(&self, root: u32, kind: TreeKind) -> Result<()>;
    /// Root of the catalog table, if the database has one yet.
    fn catalog_root(&self) -> Result<Option<u32>>;
    fn set_catalog_root(&self, root: u32) -> Result<()>;
    /// The schema cookie: bumped by every schema change, transactional.
    fn schema_cookie(&self) -> Result<u64>;
    fn set_schema_cookie(&self, cookie: u64) -> Result<()>;
    /// One of the database's settings kept with the data (`PRAGMA
    /// user_version`, `application_id`), transactional; 0 until set.
    fn header_value(&self, key: HeaderValue) -> Result<u32>;
    fn set_header_value(&self, key: HeaderValue, value: u32) -> Result<()>;
    /// Pages in the database and pages on its free list (`PRAGMA
    /// page_count`, `freelist_count`); the in-memory store counts one page
    /// per tree plus a header and has no free list.
    fn page_counts(&self) -> Result<(u32, u32)>;
    fn savepoint(&self) -> Result<u64>;
    fn release(&self, sp: u64) -> Result<()>;
    fn rollback_to(&self, sp: u64) -> Result<()>;
    fn is_writable(&self) -> bool;
    /// `Err(Error::Interrupted)` once the session's interrupt is set (see
    /// [`Interrupted`]); operators that loop over rows in memory (joins)
    /// call it per row, as store calls do implicitly.
    fn check_interrupt(&self) -> Result<()> {
        Ok(())
    }
}
