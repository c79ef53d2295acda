//! B+trees on pages: [`Table`] trees map a rowid to a row's payload,
//! [`Index`] trees hold a set of byte-string keys (the [`crate::keycode`]
//! encoding, compared with `memcmp`).
//!
//! Both kinds share one engine over byte-string keys: a table's key is its
//! rowid as 8 order-preserving bytes ([`crate::keycode::ordered_i64`]).
//! Pages come from the transaction layer through [`PageRead`] and
//! [`PageWrite`]; a tree is identified by its root page, which never moves
//! (the catalog stores it): a root split moves the root's contents to two
//! new children, and a root left with a single child absorbs that child.
//!
//! # Node layout
//!
//! Every node is one page; the node uses bytes `0..4092` (the last four are
//! the page checksum). Integers are little-endian.
//!
//! ```text
//! offset size field
//!      0    1 page type: 0x0D table leaf, 0x05 table interior,
//!                        0x0A index leaf, 0x02 index interior
//!      1    1 reserved, 0
//!      2    2 cell count N
//!      4    2 content start: offset of the lowest cell byte (4092 if none)
//!      6    2 garbage: bytes of deleted cells inside the content area
//!      8    4 right-most child page (interior), 0 (leaf)
//!     12   2N cell pointers: u16 offsets of the cells, in key order
//!      …      free gap
//! content     cells (in any order), interleaved with garbage, up to 4092
//! ```
//!
//! Cells (varints are LEB128, as in [`crate::record`]):
//!
//! ```text
//! leaf cell:      varint key_len | varint value_len | local bytes | [u32 overflow page]
//! interior cell:  u32 child      | varint key_len   | local bytes | [u32 overflow page]
//! ```
//!
//! The local bytes are the first `L` bytes of key ++ value, where
//! `L = total` if `total = key_len + value_len <= 1000`, else
//! `L = 256 + (total − 256) % 4088`, or 256 if that exceeds 1000. The rest
//! lives on a chain of overflow pages, each `u32 next page (0 = last)`
//! followed by up to 4088 data bytes. Table keys are always 8 bytes; index
//! cells have no value (`value_len = 0`).
//!
//! In an interior node, cell `i` holds separator `s_i` and child `c_i`:
//! keys under `c_i` are `< s_i`, keys under `c_{i+1}` (the right-most child
//! after the last cell) are `>= s_i`. Index separators are the shortest
//! prefix of the right key that is greater than the left key.
//!
//! # Balance
//!
//! A cell is at most 1014 bytes, so four always fit a page and a split
//! always yields two valid halves (split by bytes, as evenly as possible).
//! Inserting a new maximum key into the right-most leaf when it is full
//! starts a new right-most leaf and leaves the old one full (the append fast
//! path), so ascending inserts fill pages almost completely. After a delete,
//! a node using less than a third of its page is merged with a sibling if
//! both fit one page, or else cells are moved to even them out; emptied
//! pages are freed. Fill is a goal, not an invariant: [`Table::check`]
//! verifies structure, order and page accounting, not a minimum fill.
//!
//! # Errors
//!
//! An operation that fails part-way (an IO error, a full disk, a corrupt
//! page found mid-split) may leave the tree partly modified: the caller
//! rolls back the transaction or statement savepoint, as for any error.
//! Rows or keys over 2 GiB are refused up front with `Error::TooLarge`.
//!
//! # Corruption
//!
//! Page bytes come from disk: every offset and length is checked before
//! use, paths are bounded in depth, and overflow chains in length, so a bad
//! page gives [`crate::Error::Corrupt`], never a panic or a hang.

mod check;
mod cursor;
mod node;
mod overflow;
pub mod testing;
mod tree;

use asadb_pager::PageId;
use asadb_txn::{PageRead, PageWrite};

pub use check::{PageUsage, TreeStats};

use crate::keycode::{from_ordered_i64, ordered_i64};
use crate::record::Record;
use crate::{Result, Value, errinput};
use cursor::Cursor;
use node::Kind;
use tree::{Inserted, Tree};

/// Read access to pages, with the transaction layer's error type.
pub trait Storage: PageRead<Error = asadb_txn::Error> {}
impl<T: PageRead<Error = asadb_txn::Error> + ?Sized> Storage for T {}

/// Write access to pages, with the transaction layer's error type.
pub trait StorageMut: Storage + PageWrite<Error = asadb_txn::Error> {}
impl<T: PageWrite<Error = asadb_txn::Error> + ?Sized> StorageMut for T {}

/// A table: rowid → row payload (a [`crate::record`] encoding, by
/// convention; the tree does not look inside).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Table {
    root: PageId,
}

impl Table {
    /// Creates an empty table in a new root page.
    pub fn create(tx: &impl StorageMut) -> Result<Table> {
        Ok(Table { root: Tree::create(tx, Kind::Table)?.root })
    }

    /// The table whose root is `root` (as recorded in the catalog).
    pub fn open(root: PageId) -> Table {
        Table { root }
    }

    pub fn root(&self) -> PageId {
        self.root
    }

    fn tree(&self) -> Tree {
        Tree { root: self.root, kind: Kind::Table }
    }

    /// Inserts or replaces row `rowid`; `true` if it replaced a row.
    pub fn insert(&self, tx: &impl StorageMut, rowid: i64, payload: &[u8]) -> Result<bool> {
        Ok(self.tree().insert(tx, &ordered_i64(rowid), payload, true)? == Inserted::Replaced)
    }

    /// Inserts row `rowid` only if it does not exist; `false` if it did.
    pub fn insert_new(&self, tx: &impl StorageMut, rowid: i64, payload: &[u8]) -> Result<bool> {
        Ok(self.tree().insert(tx, &ordered_i64(rowid), payload, false)? == Inserted::New)
    }

    /// [`Table::insert`] (`replace`) or [`Table::insert_new`] through an
    /// append hint: the right-most leaf as the previous call through the
    /// same hint left it. The caller must clear the hint (set `None`)
    /// after any other change to this table (delete, drop, rollback to a
    /// savepoint); then ascending rowids skip the descent from the root.
    /// Answers whether a row was added or replaced (`false`: present).
    pub fn insert_hinted(
        &self,
        tx: &impl StorageMut,
        rowid: i64,
        payload: &[u8],
        replace: bool,
        hint: &mut Option<PageId>,
    ) -> Result<bool> {
        let r = self.tree().insert_hinted(tx, &ordered_i64(rowid), payload, replace, hint)?;
        Ok(r != Inserted::Present)
    }

    pub fn get(&self, tx: &impl Storage, rowid: i64) -> Result<Option<Vec<u8>>> {
        self.tree().get(tx, &ordered_i64(rowid))
    }

    /// `f` of row `rowid`'s payload, read in place (see `Tree::get_with`).
    pub fn get_with<R>(
        &self,
        tx: &impl Storage,
        rowid: i64,
        f: impl FnOnce(&[u8]) -> Result<R>,
    ) -> Result<Option<R>> {
        self.tree().get_with(tx, &ordered_i64(rowid), f)
    }

    pub fn contains(&self, tx: &impl Storage, rowid: i64) -> Result<bool> {
        self.tree().contains(tx, &ordered_i64(rowid))
    }

    /// Deletes row `rowid`; `false` if there was none.
    pub fn delete(&self, tx: &impl StorageMut, rowid: i64) -> Result<bool> {
        self.tree().delete(tx, &ordered_i64(rowid))
    }

    /// The largest rowid, `None` if the table is empty.
    pub fn max_rowid(&self, tx: &impl Storage) -> Result<Option<i64>> {
        let mut c = self.cursor(tx);
        Ok(if c.last()? { Some(c.rowid()) } else { None })
    }

    /// A cursor over the rows, unpositioned. `tx` may be a reference or an
    /// owning handle (`Arc<…>`).
    pub fn cursor<T: Storage>(&self, tx: T) -> TableCursor<T> {
        TableCursor { inner: Cursor::new(tx, self.tree()) }
    }

    /// Deletes every row, keeping the root page.
    pub fn clear(&self, tx: &impl StorageMut) -> Result<()> {
        self.tree().clear(tx)
    }

    /// Frees every page of the table, the root included.
    pub fn destroy(self, tx: &impl StorageMut) -> Result<()> {
        self.tree().clear(tx)?;
        Ok(tx.free(self.root)?)
    }

    /// Checks the tree's invariants, recording its pages in `usage`.
    pub fn check(&self, tx: &impl Storage, usage: &mut PageUsage) -> Result<TreeStats> {
        check::check(tx, self.tree(), usage)
    }

    /// A cheap estimate of the row count for the planner: reads one page
    /// per level (exact while the table fits one leaf).
    pub fn estimate_rows(&self, tx: &impl Storage) -> Result<u64> {
        self.tree().estimate_entries(tx)
    }

    /// The exact row count, from the leaves' cell counts (no record is
    /// decoded): what a full scan in the same transaction would return.
    pub fn count_rows(&self, tx: &impl Storage) -> Result<u64> {
        self.tree().count_entries(tx)
    }
}

/// A cursor over a table in rowid order. It keeps the path from the root
/// and a copy of the current leaf, so stepping is cheap. It is not required
/// to survive modifications of the same table by the same transaction:
/// materialise what you need first, then modify.
pub struct TableCursor<T> {
    inner: Cursor<T>,
}

impl<T: Storage> TableCursor<T> {
    /// Moves to the first row; `false` if the table is empty.
    pub fn first(&mut self) -> Result<bool> {
        self.inner.first()
    }

    /// Moves to the last row; `false` if the table is empty.
    pub fn last(&mut self) -> Result<bool> {
        self.inner.last()
    }

    /// Moves to the first row with rowid `>= rowid`.
    pub fn seek(&mut self, rowid: i64) -> Result<bool> {
        self.inner.seek(&ordered_i64(rowid))
    }

    /// Moves to the last row with rowid `<= rowid`.
    pub fn seek_le(&mut self, rowid: i64) -> Result<bool> {
        self.inner.seek_le(&ordered_i64(rowid))
    }

    /// Moves to the next row; `false` (and invalid) past the end.
    // Not an `Iterator`: stepping can fail and leaves the row in place.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<bool> {
        self.inner.next()
    }

    /// Moves to the previous row; `false` (and invalid) before the start.
    pub fn prev(&mut self) -> Result<bool> {
        self.inner.prev()
    }

    /// Moves `n` rows on (or back) without reading the rows in between;
    /// answers `n`, or fewer when the table ran out (then the cursor is
    /// invalid and the answer is how many rows followed the start).
    pub fn advance(&mut self, n: usize, forward: bool) -> Result<usize> {
        self.inner.advance(n, forward)
    }

    pub fn is_valid(&self) -> bool {
        self.inner.is_valid()
    }

    /// The current rowid (meaningless if not valid).
    pub fn rowid(&self) -> i64 {
        // Table cells are checked to have 8-byte keys when read.
        self.inner.key().try_into().map(from_ordered_i64).unwrap_or(0)
    }

    /// The current row's payload.
    pub fn payload(&self) -> Result<Vec<u8>> {
        self.with_payload(<[u8]>::to_vec)
    }

    /// Calls `f` with the current payload, without copying it when it is
    /// stored entirely in the leaf.
    pub fn with_payload<R>(&self, f: impl FnOnce(&[u8]) -> R) -> Result<R> {
        if !self.inner.is_valid() {
            return errinput!("table cursor is not on a row");
        }
        self.inner.with_value(f)
    }

    /// The current row decoded as a record.
    pub fn values(&self) -> Result<Vec<Value>> {
        self.values_of(None, 0)
    }

    /// The current row with only the columns in `cols` decoded, in a
    /// vector with room for `room` values (see [`crate::record::decode`]).
    pub fn values_of(
        &self,
        cols: Option<&crate::record::ColumnSet>,
        room: usize,
    ) -> Result<Vec<Value>> {
        self.with_payload(|p| crate::record::decode(p, cols, room))?
    }

    /// Calls `f` with the current row as a [`Record`] view, so single
    /// columns can be decoded without decoding the whole row.
    pub fn with_record<R>(&self, f: impl FnOnce(&Record<'_>) -> Result<R>) -> Result<R> {
        self.with_payload(|p| f(&Record::new(p)?))?
    }

    /// The transaction handle the cursor reads through.
    pub fn tx(&self) -> &T {
        self.inner.tx()
    }
}

/// An index: a set of unique byte-string keys in `memcmp` order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Index {
    root: PageId,
}

impl Index {
    pub fn create(tx: &impl StorageMut) -> Result<Index> {
        Ok(Index { root: Tree::create(tx, Kind::Index)?.root })
    }

    pub fn open(root: PageId) -> Index {
        Index { root }
    }

    pub fn root(&self) -> PageId {
        self.root
    }

    fn tree(&self) -> Tree {
        Tree { root: self.root, kind: Kind::Index }
    }

    /// Adds `key`; `false` if it was already present.
    pub fn insert(&self, tx: &impl StorageMut, key: &[u8]) -> Result<bool> {
        Ok(self.tree().insert(tx, key, &[], false)? == Inserted::New)
    }

    /// [`Index::insert`] through an append hint, as
    /// [`Table::insert_hinted`]: entries added in ascending order (CREATE
    /// INDEX from sorted entries) go to the end of the right-most leaf
    /// without a descent. The caller clears the hint after any other
    /// change to this index.
    pub fn insert_hinted(
        &self,
        tx: &impl StorageMut,
        key: &[u8],
        hint: &mut Option<PageId>,
    ) -> Result<bool> {
        Ok(self.tree().insert_hinted(tx, key, &[], false, hint)? == Inserted::New)
    }

    /// Removes `key`; `false` if it was not present.
    pub fn delete(&self, tx: &impl StorageMut, key: &[u8]) -> Result<bool> {
        self.tree().delete(tx, key)
    }

    pub fn contains(&self, tx: &impl Storage, key: &[u8]) -> Result<bool> {
        self.tree().contains(tx, key)
    }

    pub fn cursor<T: Storage>(&self, tx: T) -> IndexCursor<T> {
        IndexCursor { inner: Cursor::new(tx, self.tree()) }
    }

    pub fn clear(&self, tx: &impl StorageMut) -> Result<()> {
        self.tree().clear(tx)
    }

    pub fn destroy(self, tx: &impl StorageMut) -> Result<()> {
        self.tree().clear(tx)?;
        Ok(tx.free(self.root)?)
    }

    pub fn check(&self, tx: &impl Storage, usage: &mut PageUsage) -> Result<TreeStats> {
        check::check(tx, self.tree(), usage)
    }

    /// A cheap estimate of the entry count (see [`Table::estimate_rows`]).
    pub fn estimate_entries(&self, tx: &impl Storage) -> Result<u64> {
        self.tree().estimate_entries(tx)
    }

    /// The exact entry count, from the leaves' cell counts (no entry is
    /// decoded; see [`Table::count_rows`]).
    pub fn count_entries(&self, tx: &impl Storage) -> Result<u64> {
        self.tree().count_entries(tx)
    }
}

/// The smallest byte string greater than every string starting with
/// `prefix`; `None` if there is none (empty or all 0xFF).
fn prefix_successor(prefix: &[u8]) -> Option<Vec<u8>> {
    let end = prefix.iter().rposition(|&b| b != 0xff)?;
    let mut succ = prefix[..=end].to_vec();
    succ[end] += 1;
    Some(succ)
}

/// A cursor over an index in key order.
pub struct IndexCursor<T> {
    inner: Cursor<T>,
}

impl<T: Storage> IndexCursor<T> {
    pub fn first(&mut self) -> Result<bool> {
        self.inner.first()
    }

    pub fn last(&mut self) -> Result<bool> {
        self.inner.last()
    }

    /// Moves to the first key `>= probe` (e.g. the first key with a prefix).
    pub fn seek(&mut self, probe: &[u8]) -> Result<bool> {
        self.inner.seek(probe)
    }

    /// Moves to the last key `<= probe`.
    pub fn seek_le(&mut self, probe: &[u8]) -> Result<bool> {
        self.inner.seek_le(probe)
    }

    /// Moves to the first key that is greater than `prefix` and does not
    /// start with it (an exclusive lower bound on a key prefix).
    pub fn seek_past_prefix(&mut self, prefix: &[u8]) -> Result<bool> {
        match prefix_successor(prefix) {
            Some(succ) => self.inner.seek(&succ),
            None => {
                // Every key >= prefix starts with it: nothing is past it.
                self.inner.last()?;
                self.inner.next()
            }
        }
    }

    /// Moves to the last key that is `<= prefix` or starts with it (an
    /// inclusive upper bound on a key prefix, for descending scans).
    pub fn seek_le_prefix(&mut self, prefix: &[u8]) -> Result<bool> {
        let Some(succ) = prefix_successor(prefix) else { return self.inner.last() };
        if self.inner.seek_le(&succ)? && self.inner.key() == succ.as_slice() {
            return self.inner.prev();
        }
        Ok(self.inner.is_valid())
    }

    /// Moves to the next key; `false` (and invalid) past the end.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<bool> {
        self.inner.next()
    }

    pub fn prev(&mut self) -> Result<bool> {
        self.inner.prev()
    }

    pub fn is_valid(&self) -> bool {
        self.inner.is_valid()
    }

    /// The current key (empty if not valid).
    pub fn key(&self) -> &[u8] {
        self.inner.key()
    }

    /// The current key's trailing rowid (see [`crate::keycode::append_rowid`]).
    pub fn rowid(&self) -> Result<i64> {
        if !self.inner.is_valid() {
            return errinput!("index cursor is not on a key");
        }
        crate::keycode::rowid_suffix(self.inner.key())
    }

    pub fn tx(&self) -> &T {
        self.inner.tx()
    }
}
