//! [`MemStore`]: the in-memory [`RowStore`] (`BTreeMap`s behind a mutex,
//! an undo log for transactions and savepoints).

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::ops::Bound;
use std::sync::Arc;

use parking_lot::Mutex;

use super::{
    ColumnSet, IndexCursor, KeyRange, Row, RowCursor, RowStore, TreeKind, cmp_key, cmp_prefix,
};
use crate::Result;
use crate::catalog::{IndexDef, TableDef};
use crate::value::Value;

/// An index key with its rowid, ordered by SQLite's total order.
#[derive(Clone, Debug)]
struct IndexEntry(Vec<Value>, i64);

impl PartialEq for IndexEntry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for IndexEntry {}
impl PartialOrd for IndexEntry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for IndexEntry {
    fn cmp(&self, other: &Self) -> Ordering {
        cmp_key(&self.0, &other.0).then(self.1.cmp(&other.1))
    }
}

#[derive(Default)]
enum Tree {
    #[default]
    Empty,
    Table(BTreeMap<i64, Row>),
    Index(std::collections::BTreeSet<IndexEntry>),
}

#[derive(Default)]
struct MemData {
    trees: BTreeMap<u32, Tree>,
    next_root: u32,
    catalog_root: Option<u32>,
    cookie: u64,
    /// [`super::HeaderValue`]s by slot.
    header: [u32; 4],
}

/// One undo record: applying it restores the state before a change.
enum Undo {
    Row(u32, i64, Option<Row>),
    Index(u32, IndexEntry, bool),
    Tree(u32, Option<Tree>),
    CatalogRoot(Option<u32>),
    Cookie(u64),
    Header(usize, u32),
}

/// An in-memory database: trees in `BTreeMap`s behind a mutex.
///
/// There is no isolation between handles (a reader sees a writer's
/// uncommitted changes): it exists to test the executor. Transactions and
/// savepoints work through an undo log kept by each [`MemTxn`].
#[derive(Clone, Default)]
pub struct MemStore {
    data: Arc<Mutex<MemData>>,
    /// Held by the one write transaction (a flag, so it can move threads).
    writer: Arc<Mutex<bool>>,
    /// Transactions that changed the store, committed.
    commits: Arc<std::sync::atomic::AtomicU64>,
}

impl MemStore {
    pub fn new() -> MemStore {
        MemStore::default()
    }

    /// Transactions that changed the store, committed so far.
    pub fn commit_count(&self) -> u64 {
        self.commits.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// A transaction view. A writable one takes the writer flag; a second
    /// concurrent writer gets `Error::InvalidInput("database is locked")`.
    pub fn begin(&self, write: bool) -> Result<MemTxn> {
        if write {
            let mut w = self.writer.lock();
            if *w {
                return Err(crate::Error::InvalidInput("database is locked".into()));
            }
            *w = true;
        }
        Ok(MemTxn {
            store: self.clone(),
            write,
            undo: Mutex::new(Vec::new()),
            savepoints: Mutex::new(Vec::new()),
            done: false,
        })
    }
}

/// A transaction over a [`MemStore`]. Dropping it without `commit` rolls
/// back.
pub struct MemTxn {
    store: MemStore,
    write: bool,
    undo: Mutex<Vec<Undo>>,
    /// (savepoint id, undo length when taken)
    savepoints: Mutex<Vec<(u64, usize)>>,
    done: bool,
}

impl MemTxn {
    /// Commits; true if the transaction changed the store.
    pub fn commit(mut self) -> Result<bool> {
        let changed = {
            let mut undo = self.undo.lock();
            let changed = self.write && !undo.is_empty();
            undo.clear();
            changed
        };
        if changed {
            self.store.commits.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        self.finish();
        Ok(changed)
    }

    pub fn rollback(mut self) {
        self.undo_to(0);
        self.finish();
    }

    fn finish(&mut self) {
        if self.write && !self.done {
            *self.store.writer.lock() = false;
        }
        self.done = true;
    }

    fn undo_to(&self, len: usize) {
        let mut undo = self.undo.lock();
        let mut data = self.store.data.lock();
        while undo.len() > len {
            match undo.pop().expect("len checked") {
                Undo::Row(root, rowid, old) => {
                    if let Some(Tree::Table(t)) = data.trees.get_mut(&root) {
                        match old {
                            Some(r) => t.insert(rowid, r),
                            None => t.remove(&rowid),
                        };
                    }
                }
                Undo::Index(root, e, was_present) => {
                    if let Some(Tree::Index(t)) = data.trees.get_mut(&root) {
                        if was_present {
                            t.insert(e);
                        } else {
                            t.remove(&e);
                        }
                    }
                }
                Undo::Tree(root, old) => match old {
                    Some(t) => {
                        data.trees.insert(root, t);
                    }
                    None => {
                        data.trees.remove(&root);
                    }
                },
                Undo::CatalogRoot(r) => data.catalog_root = r,
                Undo::Cookie(c) => data.cookie = c,
                Undo::Header(slot, v) => data.header[slot] = v,
            }
        }
    }

    fn check_write(&self) -> Result<()> {
        if self.write {
            Ok(())
        } else {
            Err(crate::Error::InvalidInput("attempt to write a readonly transaction".into()))
        }
    }
}

impl Drop for MemTxn {
    fn drop(&mut self) {
        if !self.done {
            self.undo_to(0);
            self.finish();
        }
    }
}

fn missing(root: u32) -> crate::Error {
    crate::Error::Corrupt(format!("no tree at root {root}"))
}

struct MemRowCursor {
    data: Arc<Mutex<MemData>>,
    root: u32,
    range: (Bound<i64>, Bound<i64>),
    reverse: bool,
    /// Only these columns are copied out (see [`RowStore::scan_columns`]).
    cols: Option<Arc<ColumnSet>>,
}

impl RowCursor for MemRowCursor {
    fn next(&mut self) -> Result<Option<(i64, Row)>> {
        let data = self.data.lock();
        let Some(Tree::Table(t)) = data.trees.get(&self.root) else {
            return Ok(None);
        };
        if range_is_empty(self.range) {
            return Ok(None);
        }
        let mut it = t.range(self.range);
        let item = if self.reverse { it.next_back() } else { it.next() };
        Ok(item.map(|(k, v)| {
            if self.reverse {
                self.range.1 = Bound::Excluded(*k);
            } else {
                self.range.0 = Bound::Excluded(*k);
            }
            let row = match &self.cols {
                Some(c) => c.project(v),
                None => v.clone(),
            };
            (*k, row)
        }))
    }
}

struct MemIndexCursor {
    data: Arc<Mutex<MemData>>,
    root: u32,
    range: KeyRange,
    /// Last entry returned: the next one is strictly after (before) it.
    last: Option<IndexEntry>,
    reverse: bool,
}

impl IndexCursor for MemIndexCursor {
    fn next(&mut self) -> Result<Option<(Vec<Value>, i64)>> {
        let data = self.data.lock();
        let Some(Tree::Index(t)) = data.trees.get(&self.root) else {
            return Ok(None);
        };
        let found = if !self.reverse {
            let lo = match &self.last {
                Some(e) => Bound::Excluded(e.clone()),
                None => Bound::Unbounded,
            };
            let mut it = t.range((lo, Bound::Unbounded));
            let mut found = None;
            for e in it.by_ref() {
                if self.last.is_none() && !start_ok(&self.range.start, &e.0) {
                    continue;
                }
                found = Some(e.clone());
                break;
            }
            found
        } else {
            let hi = match &self.last {
                Some(e) => Bound::Excluded(e.clone()),
                None => Bound::Unbounded,
            };
            let mut found = None;
            for e in t.range((Bound::Unbounded, hi)).rev() {
                if self.last.is_none() && !end_ok(&self.range.end, &e.0) {
                    continue;
                }
                found = Some(e.clone());
                break;
            }
            found
        };
        let Some(e) = found else { return Ok(None) };
        if !self.range.contains(&e.0) {
            return Ok(None);
        }
        self.last = Some(e.clone());
        Ok(Some((e.0, e.1)))
    }
}

/// `BTreeMap::range` panics on inverted ranges; they are simply empty.
fn range_is_empty(r: (Bound<i64>, Bound<i64>)) -> bool {
    match r {
        (Bound::Included(a), Bound::Included(b)) => a > b,
        (Bound::Included(a) | Bound::Excluded(a), Bound::Excluded(b))
        | (Bound::Excluded(a), Bound::Included(b)) => a >= b,
        _ => false,
    }
}

fn start_ok(b: &Bound<Vec<Value>>, key: &[Value]) -> bool {
    match b {
        Bound::Unbounded => true,
        Bound::Included(p) => cmp_prefix(key, p) != Ordering::Less,
        Bound::Excluded(p) => cmp_prefix(key, p) == Ordering::Greater,
    }
}

fn end_ok(b: &Bound<Vec<Value>>, key: &[Value]) -> bool {
    match b {
        Bound::Unbounded => true,
        Bound::Included(p) => cmp_prefix(key, p) != Ordering::Greater,
        Bound::Excluded(p) => cmp_prefix(key, p) == Ordering::Less,
    }
}

impl RowStore for MemTxn {
    fn scan_columns(
        &self,
        table: &TableDef,
        range: (Bound<i64>, Bound<i64>),
        reverse: bool,
        cols: Option<Arc<ColumnSet>>,
    ) -> Result<Box<dyn RowCursor>> {
        Ok(Box::new(MemRowCursor {
            data: self.store.data.clone(),
            root: table.root,
            range,
            reverse,
            cols,
        }))
    }

    fn scan_index(
        &self,
        index: &IndexDef,
        range: KeyRange,
        reverse: bool,
    ) -> Result<Box<dyn IndexCursor>> {
        Ok(Box::new(MemIndexCursor {
            data: self.store.data.clone(),
            root: index.root,
            range,
            last: None,
            reverse,
        }))
    }

    /// Rows are kept decoded: every column comes back whatever `cols` says.
    fn get_columns(
        &self,
        table: &TableDef,
        rowid: i64,
        _cols: Option<&ColumnSet>,
    ) -> Result<Option<Row>> {
        let data = self.store.data.lock();
        match data.trees.get(&table.root) {
            Some(Tree::Table(t)) => Ok(t.get(&rowid).cloned()),
            _ => Err(missing(table.root)),
        }
    }

    fn insert(&self, table: &TableDef, rowid: i64, row: &[Value]) -> Result<()> {
        self.check_write()?;
        let mut data = self.store.data.lock();
        let Some(Tree::Table(t)) = data.trees.get_mut(&table.root) else {
            return Err(missing(table.root));
        };
        let old = t.insert(rowid, row.to_vec());
        self.undo.lock().push(Undo::Row(table.root, rowid, old));
        Ok(())
    }

    fn insert_new(&self, table: &TableDef, rowid: i64, row: &[Value]) -> Result<bool> {
        self.check_write()?;
        let mut data = self.store.data.lock();
        let Some(Tree::Table(t)) = data.trees.get_mut(&table.root) else {
            return Err(missing(table.root));
        };
        let std::collections::btree_map::Entry::Vacant(slot) = t.entry(rowid) else {
            return Ok(false);
        };
        slot.insert(row.to_vec());
        self.undo.lock().push(Undo::Row(table.root, rowid, None));
        Ok(true)
    }

    fn delete(&self, table: &TableDef, rowid: i64) -> Result<()> {
        self.check_write()?;
        let mut data = self.store.data.lock();
        let Some(Tree::Table(t)) = data.trees.get_mut(&table.root) else {
            return Err(missing(table.root));
        };
        if let Some(old) = t.remove(&rowid) {
            self.undo.lock().push(Undo::Row(table.root, rowid, Some(old)));
        }
        Ok(())
    }

    fn max_rowid(&self, table: &TableDef) -> Result<Option<i64>> {
        let data = self.store.data.lock();
        match data.trees.get(&table.root) {
            Some(Tree::Table(t)) => Ok(t.keys().next_back().copied()),
            _ => Err(missing(table.root)),
        }
    }

    fn estimate_rows(&self, table: &TableDef) -> Result<u64> {
        let data = self.store.data.lock();
        match data.trees.get(&table.root) {
            Some(Tree::Table(t)) => Ok(t.len() as u64),
            _ => Err(missing(table.root)),
        }
    }

    /// `BTreeMap::len`: O(1), and the map holds the transaction's own
    /// writes (undone on rollback), as a scan sees them.
    fn count_rows(&self, table: &TableDef) -> Result<u64> {
        self.estimate_rows(table)
    }

    fn count_index_entries(&self, index: &IndexDef) -> Result<u64> {
        let data = self.store.data.lock();
        match data.trees.get(&index.root) {
            Some(Tree::Index(t)) => Ok(t.len() as u64),
            _ => Err(missing(index.root)),
        }
    }

    fn index_insert(&self, index: &IndexDef, key: &[Value], rowid: i64) -> Result<()> {
        self.check_write()?;
        let mut data = self.store.data.lock();
        let Some(Tree::Index(t)) = data.trees.get_mut(&index.root) else {
            return Err(missing(index.root));
        };
        let e = IndexEntry(key.to_vec(), rowid);
        if t.insert(e.clone()) {
            self.undo.lock().push(Undo::Index(index.root, e, false));
        }
        Ok(())
    }

    fn index_delete(&self, index: &IndexDef, key: &[Value], rowid: i64) -> Result<()> {
        self.check_write()?;
        let mut data = self.store.data.lock();
        let Some(Tree::Index(t)) = data.trees.get_mut(&index.root) else {
            return Err(missing(index.root));
        };
        let e = IndexEntry(key.to_vec(), rowid);
        if t.remove(&e) {
            self.undo.lock().push(Undo::Index(index.root, e, true));
        }
        Ok(())
    }

    fn index_lookup(&self, index: &IndexDef, key: &[Value]) -> Result<Option<i64>> {
        let data = self.store.data.lock();
        let Some(Tree::Index(t)) = data.trees.get(&index.root) else {
            return Err(missing(index.root));
        };
        let lo = IndexEntry(key.to_vec(), i64::MIN);
        Ok(t.range(lo..).next().filter(|e| cmp_key(&e.0, key) == Ordering::Equal).map(|e| e.1))
    }

    fn create_tree(&self, kind: TreeKind) -> Result<u32> {
        self.check_write()?;
        let mut data = self.store.data.lock();
        data.next_root += 1;
        let root = data.next_root + 1;
        let tree = match kind {
            TreeKind::Table => Tree::Table(BTreeMap::new()),
            TreeKind::Index => Tree::Index(Default::default()),
        };
        data.trees.insert(root, tree);
        self.undo.lock().push(Undo::Tree(root, None));
        Ok(root)
    }

    fn drop_tree(&self, root: u32, _kind: TreeKind) -> Result<()> {
        self.check_write()?;
        let mut data = self.store.data.lock();
        let old = data.trees.remove(&root);
        self.undo.lock().push(Undo::Tree(root, old));
        Ok(())
    }

    fn catalog_root(&self) -> Result<Option<u32>> {
        Ok(self.store.data.lock().catalog_root)
    }

    fn set_catalog_root(&self, root: u32) -> Result<()> {
        self.check_write()?;
        let mut data = self.store.data.lock();
        self.undo.lock().push(Undo::CatalogRoot(data.catalog_root));
        data.catalog_root = Some(root);
        Ok(())
    }

    fn schema_cookie(&self) -> Result<u64> {
        Ok(self.store.data.lock().cookie)
    }

    fn set_schema_cookie(&self, cookie: u64) -> Result<()> {
        self.check_write()?;
        let mut data = self.store.data.lock();
        self.undo.lock().push(Undo::Cookie(data.cookie));
        data.cookie = cookie;
        Ok(())
    }

    fn header_value(&self, key: super::HeaderValue) -> Result<u32> {
        Ok(self.store.data.lock().header[key.slot()])
    }

    fn page_counts(&self) -> Result<(u32, u32)> {
        let trees = self.store.data.lock().trees.len();
        Ok((u32::try_from(trees + 1).unwrap_or(u32::MAX), 0))
    }

    fn set_header_value(&self, key: super::HeaderValue, value: u32) -> Result<()> {
        self.check_write()?;
        let mut data = self.store.data.lock();
        self.undo.lock().push(Undo::Header(key.slot(), data.header[key.slot()]));
        data.header[key.slot()] = value;
        Ok(())
    }

    fn savepoint(&self) -> Result<u64> {
        let mut sps = self.savepoints.lock();
        let id = sps.last().map_or(1, |s| s.0 + 1);
        sps.push((id, self.undo.lock().len()));
        Ok(id)
    }

    fn release(&self, sp: u64) -> Result<()> {
        let mut sps = self.savepoints.lock();
        let Some(pos) = sps.iter().position(|s| s.0 == sp) else {
            return Err(crate::Error::NotFound(format!("no such savepoint: {sp}")));
        };
        sps.truncate(pos);
        Ok(())
    }

    fn rollback_to(&self, sp: u64) -> Result<()> {
        let len = {
            let mut sps = self.savepoints.lock();
            let Some(pos) = sps.iter().position(|s| s.0 == sp) else {
                return Err(crate::Error::NotFound(format!("no such savepoint: {sp}")));
            };
            sps.truncate(pos + 1);
            sps[pos].1
        };
        self.undo_to(len);
        Ok(())
    }

    fn is_writable(&self) -> bool {
        self.write
    }
}
