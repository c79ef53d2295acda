//! [`BtreeStore`]: the [`RowStore`] over real pages — H4's B+trees
//! (`btree::Table` / `btree::Index`), rows as `record` encodings, index
//! entries as `keycode::encode_entry(key, desc, rowid)`, inside one
//! `asadb_txn` read or write transaction.
//!
//! The transaction sits behind an `Arc<Mutex<…>>` so cursors can own a
//! handle (and the whole thing stays `Send`: the transaction types are
//! `Send` but not `Sync`). A cursor does not keep a B+tree cursor between
//! calls: it refills a small batch of rows at a time, re-seeking after the
//! last key it returned, so it never holds the lock while the caller works
//! and it tolerates writes between batches.
//!
//! The catalog root lives in the header's `catalog_root`; the schema cookie
//! in header user slot 0.

use std::collections::VecDeque;
use std::ops::Bound;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use asadb_pager::PageId;
use asadb_txn::pages::{PageRead, PageWrite};
use asadb_txn::{ReadTxn, Savepoint, WriteTxn};
use parking_lot::Mutex;

use super::{ColumnSet, IndexCursor, KeyRange, Row, RowCursor, RowStore, TreeKind};
use crate::btree::{Index, Table};
use crate::catalog::{IndexDef, TableDef};
use crate::keycode::{decode_key, encode_entry, encode_key};
use crate::record::{decode, encode};
use crate::value::Value;
use crate::{Error, Result};

/// Rows (or index entries) fetched per cursor refill.
const BATCH: usize = 256;

/// The schema cookie's header user slot.
const COOKIE_SLOT: usize = 0;

/// One transaction of either kind.
#[allow(clippy::large_enum_variant)] // one per store, never in collections
pub enum Tx {
    Read(ReadTxn),
    Write(WriteTxn),
}

/// Runs `$body` with `$t` bound to the transaction, whichever kind it is.
macro_rules! with_tx {
    ($tx:expr, $t:ident => $body:expr) => {
        match &*$tx.lock() {
            Tx::Read($t) => $body,
            Tx::Write($t) => $body,
        }
    };
}

/// Runs `$body` with `$t` bound to the write transaction, or fails.
macro_rules! with_write {
    ($tx:expr, $t:ident => $body:expr) => {
        match &*$tx.lock() {
            Tx::Write($t) => $body,
            Tx::Read(_) => Err(readonly()),
        }
    };
}

fn readonly() -> Error {
    Error::InvalidInput("attempt to write a readonly database".into())
}

/// A transaction's view of tables and indexes stored in B+trees.
pub struct BtreeStore {
    tx: Arc<Mutex<Tx>>,
    savepoints: Mutex<Vec<(u64, Savepoint)>>,
    next_sp: Mutex<u64>,
    /// Append hint: `root << 32 | leaf` of the table inserted into last,
    /// with `leaf` its right-most leaf (0: none). Cleared by every delete,
    /// tree drop and savepoint rollback, the only ways a table's
    /// right-most leaf changes other than through the hinted insert itself.
    append: AtomicU64,
    /// The same hint for index entries (`root << 32 | leaf` of the index
    /// inserted into last), cleared with `append`; entries inserted in key
    /// order (CREATE INDEX) then append to the right-most leaf.
    index_append: AtomicU64,
}

impl BtreeStore {
    pub fn new(tx: Tx) -> BtreeStore {
        BtreeStore {
            tx: Arc::new(Mutex::new(tx)),
            savepoints: Mutex::new(Vec::new()),
            next_sp: Mutex::new(1),
            append: AtomicU64::new(0),
            index_append: AtomicU64::new(0),
        }
    }

    /// Inserts a table row through the append hint.
    fn insert_row(
        &self,
        table: &TableDef,
        rowid: i64,
        row: &[Value],
        replace: bool,
    ) -> Result<bool> {
        let mut buf = Vec::with_capacity(64);
        encode(row, &mut buf);
        let t = Table::open(page(table.root));
        let packed = self.append.load(Ordering::Relaxed);
        let mut hint =
            (packed != 0 && (packed >> 32) as u32 == table.root).then(|| page(packed as u32));
        let r = with_write!(self.tx, x => t.insert_hinted(x, rowid, &buf, replace, &mut hint));
        let next = match (&r, hint) {
            (Ok(_), Some(leaf)) => (u64::from(table.root) << 32) | u64::from(leaf.0),
            _ => 0,
        };
        self.append.store(next, Ordering::Relaxed);
        r
    }

    fn clear_append_hint(&self) {
        self.append.store(0, Ordering::Relaxed);
        self.index_append.store(0, Ordering::Relaxed);
    }

    /// Commits (a read transaction just ends). Fails if a cursor still
    /// holds the transaction.
    /// Runs `f` on the write transaction underneath (VACUUM's page copy);
    /// an error on a read-only store.
    pub fn with_write_txn<R>(&self, f: impl FnOnce(&WriteTxn) -> R) -> Result<R> {
        self.clear_append_hint();
        match &*self.tx.lock() {
            Tx::Write(w) => Ok(f(w)),
            Tx::Read(_) => Err(readonly()),
        }
    }

    /// Commits; true if the transaction changed the database.
    pub fn commit(self) -> Result<bool> {
        let tx = Arc::try_unwrap(self.tx)
            .map_err(|_| Error::InvalidInput("cannot commit while a query is still open".into()))?;
        match tx.into_inner() {
            Tx::Write(w) => Ok(w.commit_changes()?),
            Tx::Read(_) => Ok(false),
        }
    }

    /// Rolls back (also what dropping does).
    pub fn rollback(self) {
        drop(self);
    }

    fn index_key(index: &IndexDef, key: &[Value]) -> Vec<u8> {
        let mut out = Vec::new();
        encode_key(key, &index.desc[..key.len().min(index.desc.len())], &mut out);
        out
    }
}

fn page(root: u32) -> PageId {
    PageId(root)
}

struct BtRowCursor {
    tx: Arc<Mutex<Tx>>,
    table: Table,
    range: (Bound<i64>, Bound<i64>),
    reverse: bool,
    buf: VecDeque<(i64, Row)>,
    done: bool,
    /// The columns to decode (see [`RowStore::scan_columns`]).
    cols: Option<Arc<ColumnSet>>,
    /// Room a decoded row gets: the table's columns and its rowid, so
    /// that `exec::table_row` fills it without reallocating.
    room: usize,
}

impl BtRowCursor {
    fn refill(&mut self) -> Result<()> {
        let tx = self.tx.clone();
        // Decoded straight into the (empty) queue, which keeps its room.
        let mut rows = std::mem::take(&mut self.buf);
        let r = with_tx!(tx, t => self.fetch(t, BATCH, Some(&mut rows)));
        self.buf = rows;
        let (_, exhausted) = r?;
        self.done = exhausted;
        Ok(())
    }

    /// Reads up to `max` rows from the current range start into `out` (or
    /// only steps over them when `out` is `None`: no record is decoded);
    /// narrows the range past them. Returns how many rows it passed and
    /// whether the range is done.
    fn fetch<T: PageRead<Error = asadb_txn::Error>>(
        &mut self,
        t: &T,
        max: usize,
        mut out: Option<&mut VecDeque<(i64, Row)>>,
    ) -> Result<(usize, bool)> {
        // In scan order: `near` is where the remaining range starts, `far`
        // where it ends (forward: low, high; reverse: high, low).
        let forward = !self.reverse;
        let (near, far) =
            if forward { (self.range.0, self.range.1) } else { (self.range.1, self.range.0) };
        let mut c = self.table.cursor(t);
        let ok = match near {
            Bound::Unbounded if forward => c.first()?,
            Bound::Unbounded => c.last()?,
            Bound::Included(k) if forward => c.seek(k)?,
            Bound::Included(k) => c.seek_le(k)?,
            Bound::Excluded(k) => match if forward { k.checked_add(1) } else { k.checked_sub(1) } {
                None => false,
                Some(k) if forward => c.seek(k)?,
                Some(k) => c.seek_le(k)?,
            },
        };
        if !ok {
            return Ok((0, true));
        }
        let step =
            |c: &mut crate::btree::TableCursor<&T>| if forward { c.next() } else { c.prev() };
        if out.is_none() && far == Bound::Unbounded && max > 0 {
            // Skipping to the end of the table: pass whole leaves.
            let got = c.advance(max - 1, forward)?;
            if got < max - 1 {
                return Ok((got + 1, true));
            }
            self.passed(c.rowid());
            step(&mut c)?;
            return Ok((max, !c.is_valid()));
        }
        // `id` lies beyond `e` in scan order.
        let beyond = |id: i64, e: i64| if forward { id > e } else { id < e };
        let mut n = 0;
        while c.is_valid() && n < max {
            let id = c.rowid();
            let past = match far {
                Bound::Unbounded => false,
                Bound::Included(e) => beyond(id, e),
                Bound::Excluded(e) => id == e || beyond(id, e),
            };
            if past {
                return Ok((n, true));
            }
            if let Some(out) = out.as_deref_mut() {
                out.push_back((id, c.values_of(self.cols.as_deref(), self.room)?));
            }
            n += 1;
            self.passed(id);
            step(&mut c)?;
        }
        Ok((n, !c.is_valid()))
    }

    /// Narrows the remaining range past row `id` (in scan order).
    fn passed(&mut self, id: i64) {
        if self.reverse {
            self.range.1 = Bound::Excluded(id);
        } else {
            self.range.0 = Bound::Excluded(id);
        }
    }
}

impl RowCursor for BtRowCursor {
    fn next(&mut self) -> Result<Option<(i64, Row)>> {
        if self.buf.is_empty() && !self.done {
            self.refill()?;
        }
        Ok(self.buf.pop_front())
    }

    fn skip(&mut self, n: u64) -> Result<u64> {
        // Rows already decoded come first (the range is past them).
        let from_buf = self.buf.len().min(usize::try_from(n).unwrap_or(usize::MAX));
        self.buf.drain(..from_buf);
        let mut done = from_buf as u64;
        if done == n || self.done {
            return Ok(done);
        }
        let want = usize::try_from(n - done).unwrap_or(usize::MAX);
        let tx = self.tx.clone();
        let (passed, exhausted) = with_tx!(tx, t => self.fetch(t, want, None)?);
        self.done = exhausted;
        done += passed as u64;
        Ok(done)
    }
}

/// An index entry's bytes and its rowid.
type Entry = (Vec<u8>, i64);

struct BtIndexCursor {
    tx: Arc<Mutex<Tx>>,
    index: Index,
    start: Bound<Vec<u8>>,
    end: Bound<Vec<u8>>,
    /// The last entry returned; the next refill starts after it.
    last: Option<Vec<u8>>,
    desc: Vec<bool>,
    buf: VecDeque<(Vec<u8>, i64)>,
    done: bool,
}

impl BtIndexCursor {
    fn fetch<T: PageRead<Error = asadb_txn::Error>>(
        &mut self,
        t: &T,
    ) -> Result<(Vec<Entry>, bool)> {
        let mut c = self.index.cursor(t);
        let mut out = Vec::new();
        match (&self.last, &self.start) {
            (Some(last), _) => {
                c.seek(last)?;
                if c.is_valid() && c.key() == last.as_slice() {
                    c.next()?;
                }
            }
            (None, Bound::Unbounded) => {
                c.first()?;
            }
            (None, Bound::Included(s)) => {
                c.seek(s)?;
            }
            (None, Bound::Excluded(s)) => {
                c.seek_past_prefix(s)?;
            }
        }
        while c.is_valid() && out.len() < BATCH {
            let k = c.key();
            let past = match &self.end {
                Bound::Unbounded => false,
                Bound::Included(e) => k > e.as_slice() && !k.starts_with(e),
                Bound::Excluded(e) => k >= e.as_slice(),
            };
            if past {
                return Ok((out, true));
            }
            out.push((k.to_vec(), c.rowid()?));
            c.next()?;
        }
        if let Some((k, _)) = out.last() {
            self.last = Some(k.clone());
        }
        Ok((out, !c.is_valid()))
    }
}

impl IndexCursor for BtIndexCursor {
    fn next(&mut self) -> Result<Option<(Vec<Value>, i64)>> {
        if self.buf.is_empty() && !self.done {
            let tx = self.tx.clone();
            let (rows, exhausted) = with_tx!(tx, t => self.fetch(t)?);
            self.buf.extend(rows);
            self.done = exhausted;
        }
        match self.buf.pop_front() {
            Some((k, rowid)) => {
                let (vals, _) = decode_key(&k, &self.desc, self.desc.len())?;
                Ok(Some((vals, rowid)))
            }
            None => Ok(None),
        }
    }
}

impl RowStore for BtreeStore {
    fn scan_columns(
        &self,
        table: &TableDef,
        range: (Bound<i64>, Bound<i64>),
        reverse: bool,
        cols: Option<Arc<ColumnSet>>,
    ) -> Result<Box<dyn RowCursor>> {
        Ok(Box::new(BtRowCursor {
            tx: self.tx.clone(),
            table: Table::open(page(table.root)),
            range,
            reverse,
            buf: VecDeque::new(),
            done: false,
            cols,
            room: table.columns.len() + 1,
        }))
    }

    fn scan_index(
        &self,
        index: &IndexDef,
        range: KeyRange,
        reverse: bool,
    ) -> Result<Box<dyn IndexCursor>> {
        if reverse {
            return Err(Error::Unsupported("reverse index scans".into()));
        }
        let enc = |b: Bound<Vec<Value>>| match b {
            Bound::Unbounded => Bound::Unbounded,
            Bound::Included(p) => Bound::Included(Self::index_key(index, &p)),
            Bound::Excluded(p) => Bound::Excluded(Self::index_key(index, &p)),
        };
        Ok(Box::new(BtIndexCursor {
            tx: self.tx.clone(),
            index: Index::open(page(index.root)),
            start: enc(range.start),
            end: enc(range.end),
            last: None,
            desc: index.desc.clone(),
            buf: VecDeque::new(),
            done: false,
        }))
    }

    fn get_columns(
        &self,
        table: &TableDef,
        rowid: i64,
        cols: Option<&ColumnSet>,
    ) -> Result<Option<Row>> {
        let t = Table::open(page(table.root));
        let room = table.columns.len() + 1;
        with_tx!(self.tx, x => t.get_with(x, rowid, |b| decode(b, cols, room)))
    }

    fn insert(&self, table: &TableDef, rowid: i64, row: &[Value]) -> Result<()> {
        self.insert_row(table, rowid, row, true).map(|_| ())
    }

    fn insert_new(&self, table: &TableDef, rowid: i64, row: &[Value]) -> Result<bool> {
        self.insert_row(table, rowid, row, false)
    }

    fn delete(&self, table: &TableDef, rowid: i64) -> Result<()> {
        self.clear_append_hint();
        let t = Table::open(page(table.root));
        with_write!(self.tx, x => t.delete(x, rowid).map(|_| ()))
    }

    fn max_rowid(&self, table: &TableDef) -> Result<Option<i64>> {
        let t = Table::open(page(table.root));
        with_tx!(self.tx, x => t.max_rowid(x))
    }

    fn estimate_rows(&self, table: &TableDef) -> Result<u64> {
        let t = Table::open(page(table.root));
        with_tx!(self.tx, x => t.estimate_rows(x))
    }

    fn count_rows(&self, table: &TableDef) -> Result<u64> {
        let t = Table::open(page(table.root));
        with_tx!(self.tx, x => t.count_rows(x))
    }

    fn count_index_entries(&self, index: &IndexDef) -> Result<u64> {
        let ix = Index::open(page(index.root));
        with_tx!(self.tx, x => ix.count_entries(x))
    }

    fn index_insert(&self, index: &IndexDef, key: &[Value], rowid: i64) -> Result<()> {
        let mut buf = Vec::new();
        encode_entry(key, &index.desc, rowid, &mut buf);
        let ix = Index::open(page(index.root));
        let packed = self.index_append.load(Ordering::Relaxed);
        let mut hint =
            (packed != 0 && (packed >> 32) as u32 == index.root).then(|| page(packed as u32));
        let r = with_write!(self.tx, x => ix.insert_hinted(x, &buf, &mut hint).map(|_| ()));
        let next = match (&r, hint) {
            (Ok(()), Some(leaf)) => (u64::from(index.root) << 32) | u64::from(leaf.0),
            _ => 0,
        };
        self.index_append.store(next, Ordering::Relaxed);
        r
    }

    fn index_delete(&self, index: &IndexDef, key: &[Value], rowid: i64) -> Result<()> {
        self.clear_append_hint();
        let mut buf = Vec::new();
        encode_entry(key, &index.desc, rowid, &mut buf);
        let ix = Index::open(page(index.root));
        with_write!(self.tx, x => ix.delete(x, &buf).map(|_| ()))
    }

    fn index_lookup(&self, index: &IndexDef, key: &[Value]) -> Result<Option<i64>> {
        let prefix = Self::index_key(index, key);
        let ix = Index::open(page(index.root));
        with_tx!(self.tx, x => {
            let mut c = ix.cursor(x);
            c.seek(&prefix)?;
            if c.is_valid() && c.key().starts_with(&prefix) {
                Ok(Some(c.rowid()?))
            } else {
                Ok(None)
            }
        })
    }

    fn create_tree(&self, kind: TreeKind) -> Result<u32> {
        with_write!(self.tx, x => match kind {
            TreeKind::Table => Table::create(x).map(|t| t.root().0),
            TreeKind::Index => Index::create(x).map(|t| t.root().0),
        })
    }

    fn drop_tree(&self, root: u32, kind: TreeKind) -> Result<()> {
        self.clear_append_hint();
        with_write!(self.tx, x => match kind {
            TreeKind::Table => Table::open(page(root)).destroy(x),
            TreeKind::Index => Index::open(page(root)).destroy(x),
        })
    }

    fn catalog_root(&self) -> Result<Option<u32>> {
        let h = with_tx!(self.tx, x => x.header());
        Ok((h.catalog_root != 0).then_some(h.catalog_root))
    }

    fn set_catalog_root(&self, root: u32) -> Result<()> {
        with_write!(self.tx, x => Ok(x.set_catalog_root(page(root))?))
    }

    fn schema_cookie(&self) -> Result<u64> {
        let h = with_tx!(self.tx, x => x.header());
        Ok(h.user[COOKIE_SLOT].into())
    }

    fn set_schema_cookie(&self, cookie: u64) -> Result<()> {
        // The slot is 32 bits; wrapping is harmless for a change detector.
        with_write!(self.tx, x => Ok(x.set_user_slot(COOKIE_SLOT, cookie as u32)?))
    }

    fn header_value(&self, key: super::HeaderValue) -> Result<u32> {
        let h = with_tx!(self.tx, x => x.header());
        Ok(h.user[key.slot()])
    }

    fn page_counts(&self) -> Result<(u32, u32)> {
        let h = with_tx!(self.tx, x => x.header());
        Ok((h.page_count, h.freelist_count))
    }

    fn set_header_value(&self, key: super::HeaderValue, value: u32) -> Result<()> {
        with_write!(self.tx, x => Ok(x.set_user_slot(key.slot(), value)?))
    }

    fn savepoint(&self) -> Result<u64> {
        let sp = with_write!(self.tx, x => Ok(x.savepoint()))?;
        let mut n = self.next_sp.lock();
        let id = *n;
        *n += 1;
        self.savepoints.lock().push((id, sp));
        Ok(id)
    }

    fn release(&self, sp: u64) -> Result<()> {
        let mut sps = self.savepoints.lock();
        let pos = sps
            .iter()
            .position(|s| s.0 == sp)
            .ok_or_else(|| Error::NotFound(format!("no such savepoint: {sp}")))?;
        let handle = sps[pos].1;
        sps.truncate(pos);
        with_write!(self.tx, x => Ok(x.release(handle)?))
    }

    fn rollback_to(&self, sp: u64) -> Result<()> {
        self.clear_append_hint();
        let mut sps = self.savepoints.lock();
        let pos = sps
            .iter()
            .position(|s| s.0 == sp)
            .ok_or_else(|| Error::NotFound(format!("no such savepoint: {sp}")))?;
        let handle = sps[pos].1;
        sps.truncate(pos + 1);
        with_write!(self.tx, x => Ok(x.rollback_to(handle)?))
    }

    fn is_writable(&self) -> bool {
        matches!(&*self.tx.lock(), Tx::Write(_))
    }
}
