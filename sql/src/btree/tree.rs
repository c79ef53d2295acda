//! The B+tree algorithms shared by table and index trees: search, insert
//! with splits (and the append fast path), delete with rebalancing, clear.
//!
//! Invariants kept here (and verified by [`super::check`]):
//! - keys are strictly increasing within a node and across leaves;
//! - interior cell `i` holds a separator `s_i` and child `c_i`: every key
//!   under `c_i` is `< s_i`, every key under `c_{i+1}` (or the right-most
//!   child) is `>= s_i`;
//! - every leaf is at the same depth; the root page never moves.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::HashSet;

use asadb_pager::PageId;

use super::node::{
    CAPACITY, Cell, Kind, MAX_DATA, Node, NodeRef, USABLE, cells_size, encode_cell, init_page,
    insert_cell, local_len, remove_cell, set_cell_child, split_point,
};
use super::overflow::{free_chain, read_chain, write_chain};
use super::{Storage, StorageMut};
use crate::record::put_varint;
use crate::{Error, Result, corrupt};

/// Deeper than any valid tree can be (each level multiplies the entries by
/// at least two); a longer path means a cycle in corrupt pages.
pub(crate) const MAX_DEPTH: usize = 48;

/// Nodes using less than this many bytes are rebalanced after a delete.
const UNDERFULL: usize = CAPACITY / 3;

/// A tree: its fixed root page and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tree {
    pub root: PageId,
    pub kind: Kind,
}

/// One interior level of a path: page, child index taken, cell count.
pub(crate) type Level = (PageId, usize, usize);

/// Where a search for a key ends.
struct Descent {
    /// Interior levels from the root.
    path: Vec<Level>,
    leaf: PageId,
    /// `Ok(i)`: cell `i` has the key; `Err(i)`: it would go at `i`.
    found: Result<usize, usize>,
    /// Cells in the leaf.
    count: usize,
}

/// The full key of a cell, reading its overflow chain if it spilled.
pub(crate) fn cell_key<'a, T: Storage>(tx: &T, cell: &Cell<'a>) -> Result<Cow<'a, [u8]>> {
    if let Some(k) = cell.local_key() {
        return Ok(Cow::Borrowed(k));
    }
    let mut key = cell.local.to_vec();
    read_chain(tx, cell.overflow, cell.spilled(), &mut key)?;
    key.truncate(cell.key_len);
    Ok(Cow::Owned(key))
}

/// The full key ++ value of a cell.
pub(crate) fn cell_data<T: Storage>(tx: &T, cell: &Cell<'_>) -> Result<Vec<u8>> {
    let mut data = cell.local.to_vec();
    if cell.overflow != 0 {
        read_chain(tx, cell.overflow, cell.spilled(), &mut data)?;
    }
    Ok(data)
}

/// Compares a cell's key with `probe`, reading the overflow chain only if
/// the local prefix cannot decide.
fn cmp_key<T: Storage>(tx: &T, cell: &Cell<'_>, probe: &[u8]) -> Result<Ordering> {
    if let Some(k) = cell.local_key() {
        return Ok(k.cmp(probe));
    }
    let prefix = cell.key_prefix();
    let n = prefix.len().min(probe.len());
    match prefix[..n].cmp(&probe[..n]) {
        // The key is longer than its prefix, so longer than the probe.
        Ordering::Equal if probe.len() <= prefix.len() => Ok(Ordering::Greater),
        Ordering::Equal => Ok(cell_key(tx, cell)?.as_ref().cmp(probe)),
        o => Ok(o),
    }
}

/// Leaf search: `Ok(i)` if cell `i` has the key, else `Err(insertion point)`.
pub(crate) fn search_leaf<T: Storage>(
    tx: &T,
    node: &NodeRef<'_>,
    probe: &[u8],
) -> Result<Result<usize, usize>> {
    if node.count == 0 {
        return Ok(Err(0));
    }
    // Appends (ascending keys) are the common case: try the last cell first.
    let last = node.count - 1;
    match cmp_key(tx, &node.cell(last)?, probe)? {
        Ordering::Less => return Ok(Err(node.count)),
        Ordering::Equal => return Ok(Ok(last)),
        Ordering::Greater => {}
    }
    let (mut lo, mut hi) = (0, last);
    while lo < hi {
        let mid = (lo + hi) / 2;
        match cmp_key(tx, &node.cell(mid)?, probe)? {
            Ordering::Less => lo = mid + 1,
            Ordering::Greater => hi = mid,
            Ordering::Equal => return Ok(Ok(mid)),
        }
    }
    Ok(Err(lo))
}

/// Interior search: the child to follow for `probe` (separators `<= probe`).
pub(crate) fn search_interior<T: Storage>(
    tx: &T,
    node: &NodeRef<'_>,
    probe: &[u8],
) -> Result<usize> {
    if node.count == 0 {
        return Ok(0);
    }
    // As in `search_leaf`: ascending keys go right, past the last separator.
    let last = node.count - 1;
    if cmp_key(tx, &node.cell(last)?, probe)? != Ordering::Greater {
        return Ok(node.count);
    }
    let (mut lo, mut hi) = (0, last);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if cmp_key(tx, &node.cell(mid)?, probe)? == Ordering::Greater {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    Ok(lo)
}

/// The shortest key `s` with `left < s <= right` (index trees), so interior
/// nodes hold short separators. Table keys stay whole (fixed 8 bytes).
fn separator(kind: Kind, left: &[u8], right: &[u8]) -> Vec<u8> {
    if kind == Kind::Table {
        return right.to_vec();
    }
    let common = left.iter().zip(right).take_while(|(a, b)| a == b).count();
    right[..(common + 1).min(right.len())].to_vec()
}

/// Builds a leaf cell, spilling to a new overflow chain if needed.
fn build_leaf_cell<T: StorageMut>(tx: &T, key: &[u8], val: &[u8]) -> Result<Vec<u8>> {
    let total = key.len() + val.len();
    let local = local_len(total);
    if local == total {
        // One allocation on the hot path.
        let mut cell = Vec::with_capacity(total + 10);
        put_varint(&mut cell, key.len() as u64);
        put_varint(&mut cell, val.len() as u64);
        cell.extend_from_slice(key);
        cell.extend_from_slice(val);
        return Ok(cell);
    }
    let mut data = Vec::with_capacity(total);
    data.extend_from_slice(key);
    data.extend_from_slice(val);
    let first = write_chain(tx, &data[local..])?;
    Ok(encode_cell(None, key.len(), val.len(), &data[..local], first))
}

/// Builds an interior cell (child 0, set later) holding separator `key`.
fn build_interior_cell<T: StorageMut>(tx: &T, key: &[u8]) -> Result<Vec<u8>> {
    let local = local_len(key.len());
    let first = if local < key.len() { write_chain(tx, &key[local..])? } else { 0 };
    Ok(encode_cell(Some(0), key.len(), 0, &key[..local], first))
}

/// Frees the overflow chain of an encoded cell, if any.
fn free_cell_chain<T: StorageMut>(tx: &T, cell: &Cell<'_>) -> Result<()> {
    if cell.overflow != 0 { free_chain(tx, cell.overflow, cell.spilled()) } else { Ok(()) }
}

fn parse_raw(raw: &[u8], leaf: bool, kind: Kind) -> Result<Cell<'_>> {
    super::node::parse_cell(raw, 0, !leaf, kind)
}

/// What an insert did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Inserted {
    New,
    Replaced,
    /// The key exists and replacing was not asked for.
    Present,
}

impl Tree {
    pub(crate) fn create<T: StorageMut>(tx: &T, kind: Kind) -> Result<Tree> {
        let (root, mut page) = tx.allocate()?;
        init_page(&mut page, kind, true);
        Ok(Tree { root, kind })
    }

    pub(crate) fn node<'p>(
        &self,
        page: &'p asadb_pager::PageBuf,
        id: PageId,
    ) -> Result<NodeRef<'p>> {
        NodeRef::new(page, id, self.kind)
    }

    /// Descends to the leaf for `probe`, returning the interior path, the
    /// leaf and the search result in it.
    fn descend<T: Storage>(&self, tx: &T, probe: &[u8]) -> Result<Descent> {
        let mut path = Vec::new();
        let mut id = self.root;
        loop {
            let page = tx.page(id)?;
            let node = self.node(&page, id)?;
            if node.leaf {
                let found = search_leaf(tx, &node, probe)?;
                return Ok(Descent { path, leaf: id, found, count: node.count });
            }
            if path.len() >= MAX_DEPTH {
                return corrupt!("tree at page {} is deeper than {MAX_DEPTH}", self.root);
            }
            let i = search_interior(tx, &node, probe)?;
            path.push((id, i, node.count));
            id = node.child(i)?;
        }
    }

    /// The value stored under `key`.
    pub(crate) fn get<T: Storage>(&self, tx: &T, key: &[u8]) -> Result<Option<Vec<u8>>> {
        self.get_with(tx, key, |v| Ok(v.to_vec()))
    }

    /// `f` of the value stored under `key`, read in place when the cell
    /// holds it whole (no copy), else assembled from its overflow pages.
    pub(crate) fn get_with<T: Storage, R>(
        &self,
        tx: &T,
        key: &[u8],
        f: impl FnOnce(&[u8]) -> Result<R>,
    ) -> Result<Option<R>> {
        let Descent { leaf, found, .. } = self.descend(tx, key)?;
        let Ok(i) = found else { return Ok(None) };
        let page = tx.page(leaf)?;
        let cell = self.node(&page, leaf)?.cell(i)?;
        if let Some(v) = cell.local_value() {
            return f(v).map(Some);
        }
        let data = cell_data(tx, &cell)?;
        f(&data[cell.key_len..]).map(Some)
    }

    pub(crate) fn contains<T: Storage>(&self, tx: &T, key: &[u8]) -> Result<bool> {
        Ok(self.descend(tx, key)?.found.is_ok())
    }

    /// Inserts `key` → `val`; an existing key is replaced only if `replace`.
    pub(crate) fn insert<T: StorageMut>(
        &self,
        tx: &T,
        key: &[u8],
        val: &[u8],
        replace: bool,
    ) -> Result<Inserted> {
        self.insert_at(tx, key, val, replace, &mut None)
    }

    /// [`Tree::insert`] with a right-most-leaf hint (SQLite's append bias).
    ///
    /// `hint`, when set, must name the right-most leaf of this tree, as an
    /// earlier call through the same hint left it, with no other change to
    /// the tree in between (the caller clears it on any delete, drop or
    /// savepoint rollback). A key above every key of that leaf then goes
    /// straight to its end, without descending from the root. The hint is
    /// kept when the insert leaves that leaf right-most, and cleared
    /// otherwise (a split, an insert elsewhere).
    pub(crate) fn insert_hinted<T: StorageMut>(
        &self,
        tx: &T,
        key: &[u8],
        val: &[u8],
        replace: bool,
        hint: &mut Option<PageId>,
    ) -> Result<Inserted> {
        if let Some(leaf) = hint.take()
            && let Some(done) = self.try_append(tx, leaf, key, val)?
        {
            *hint = Some(leaf);
            return Ok(done);
        }
        self.insert_at(tx, key, val, replace, hint)
    }

    /// Appends `key` → `val` at the end of `leaf` if the key is above its
    /// last key and the cell fits without overflow pages; `None` (and no
    /// change) otherwise.
    fn try_append<T: StorageMut>(
        &self,
        tx: &T,
        leaf: PageId,
        key: &[u8],
        val: &[u8],
    ) -> Result<Option<Inserted>> {
        let total = key.len() + val.len();
        if total > MAX_DATA || local_len(total) != total {
            return Ok(None);
        }
        {
            let page = tx.page(leaf)?;
            let Ok(node) = self.node(&page, leaf) else { return Ok(None) };
            if !node.leaf || node.count == 0 {
                return Ok(None);
            }
            if cmp_key(tx, &node.cell(node.count - 1)?, key)? != Ordering::Less {
                return Ok(None);
            }
        }
        let cell = build_leaf_cell(tx, key, val)?;
        let mut page = tx.page_mut(leaf)?;
        let count = self.node(&page, leaf)?.count;
        Ok(insert_cell(&mut page, leaf, self.kind, count, &cell)?.then_some(Inserted::New))
    }

    fn insert_at<T: StorageMut>(
        &self,
        tx: &T,
        key: &[u8],
        val: &[u8],
        replace: bool,
        hint: &mut Option<PageId>,
    ) -> Result<Inserted> {
        *hint = None;
        let total = key.len() + val.len();
        if total > MAX_DATA {
            return Err(Error::TooLarge(format!("a {total}-byte row or key")));
        }
        let Descent { mut path, leaf, found, count } = self.descend(tx, key)?;
        let (idx, outcome) = match found {
            Ok(_) if !replace => return Ok(Inserted::Present),
            Ok(i) => {
                let mut page = tx.page_mut(leaf)?;
                let cell = self.node(&page, leaf)?.cell(i)?;
                let (ovf, spilled) = (cell.overflow, cell.spilled());
                remove_cell(&mut page, leaf, self.kind, i)?;
                drop(page);
                if ovf != 0 {
                    free_chain(tx, ovf, spilled)?;
                }
                (i, Inserted::Replaced)
            }
            Err(i) => (i, Inserted::New),
        };
        let cell = build_leaf_cell(tx, key, val)?;
        let mut page = tx.page_mut(leaf)?;
        if insert_cell(&mut page, leaf, self.kind, idx, &cell)? {
            if path.iter().all(|&(_, ci, n)| ci == n) {
                // Reached by the right-most child at every level.
                *hint = Some(leaf);
            }
            return Ok(outcome);
        }
        // Append fast path: a new maximum key in the right-most leaf leaves
        // the full leaf as it is and starts a new one.
        let append =
            outcome == Inserted::New && idx == count && path.iter().all(|&(_, ci, n)| ci == n);
        let mut full = Node::read(self.node(&page, leaf)?)?;
        drop(page);
        let (left, right) = if append {
            (full.cells, vec![cell])
        } else {
            full.cells.insert(idx, cell);
            let m = split_point(&full.cells, false)?;
            let right = full.cells.split_off(m);
            (full.cells, right)
        };
        let sep = {
            let l = left.last().ok_or_else(|| Error::Corrupt("empty split".into()))?;
            let r = &right[0];
            let lk = cell_key(tx, &parse_raw(l, true, self.kind)?)?.into_owned();
            let rk = cell_key(tx, &parse_raw(r, true, self.kind)?)?.into_owned();
            separator(self.kind, &lk, &rk)
        };
        let up = build_interior_cell(tx, &sep)?;
        let left = Node { leaf: true, cells: left, right: 0 };
        let right = Node { leaf: true, cells: right, right: 0 };
        self.finish_split(tx, &mut path, leaf, left, right, up, append)?;
        Ok(outcome)
    }

    /// Writes the two halves of a split node `id` and inserts `up` (an
    /// interior cell; its child is set here) into the parent, splitting
    /// upwards as needed. A root split moves both halves to new pages.
    #[allow(clippy::too_many_arguments)]
    fn finish_split<T: StorageMut>(
        &self,
        tx: &T,
        path: &mut Vec<Level>,
        id: PageId,
        left: Node,
        right: Node,
        mut up: Vec<u8>,
        append: bool,
    ) -> Result<()> {
        let Some((pid, ci, _)) = path.pop() else {
            debug_assert_eq!(id, self.root);
            let (lid, mut lpage) = tx.allocate()?;
            left.write(&mut lpage, self.kind);
            drop(lpage);
            let (rid, mut rpage) = tx.allocate()?;
            right.write(&mut rpage, self.kind);
            drop(rpage);
            set_cell_child(&mut up, lid.0);
            let root = Node { leaf: false, cells: vec![up], right: rid.0 };
            root.write(&mut *tx.page_mut(self.root)?, self.kind);
            return Ok(());
        };
        left.write(&mut *tx.page_mut(id)?, self.kind);
        let (rid, mut rpage) = tx.allocate()?;
        right.write(&mut rpage, self.kind);
        drop(rpage);
        set_cell_child(&mut up, id.0);

        let mut page = tx.page_mut(pid)?;
        let node = self.node(&page, pid)?;
        if node.leaf || ci > node.count {
            return corrupt!("page {pid} changed under a split");
        }
        // Child `ci` (the split node) becomes the right half; `up` points
        // to the left half and goes in front of it.
        if ci == node.count {
            super::node::put_u32(&mut page[..], super::node::RIGHT_OFFSET, rid.0);
        } else {
            let off = node.cell_offset(ci)?;
            super::node::put_u32(&mut page[..], off, rid.0);
        }
        if insert_cell(&mut page, pid, self.kind, ci, &up)? {
            return Ok(());
        }
        let mut full = Node::read(self.node(&page, pid)?)?;
        drop(page);
        let count = full.cells.len();
        full.cells.insert(ci, up);
        let m = if append && ci == count && full.cells.len() >= 3 {
            // Keep the left interior node full too.
            full.cells.len() - 2
        } else {
            split_point(&full.cells, true)?
        };
        let mut right_cells = full.cells.split_off(m);
        let promoted = right_cells.remove(0);
        let left =
            Node { leaf: false, cells: full.cells, right: super::node::get_u32(&promoted, 0) };
        let right = Node { leaf: false, cells: right_cells, right: full.right };
        self.finish_split(tx, path, pid, left, right, promoted, append)
    }

    /// Deletes `key`; returns whether it was there.
    pub(crate) fn delete<T: StorageMut>(&self, tx: &T, key: &[u8]) -> Result<bool> {
        let Descent { mut path, leaf, found, .. } = self.descend(tx, key)?;
        let Ok(i) = found else { return Ok(false) };
        let mut page = tx.page_mut(leaf)?;
        let cell = self.node(&page, leaf)?.cell(i)?;
        let (ovf, spilled) = (cell.overflow, cell.spilled());
        remove_cell(&mut page, leaf, self.kind, i)?;
        drop(page);
        if ovf != 0 {
            free_chain(tx, ovf, spilled)?;
        }
        self.rebalance_up(tx, &mut path, leaf)?;
        Ok(true)
    }

    fn used<T: Storage>(&self, tx: &T, id: PageId) -> Result<usize> {
        let page = tx.page(id)?;
        Ok(self.node(&page, id)?.used())
    }

    /// After a delete in `id`: while the node is underfull, rebalance it
    /// with a sibling and continue with the parent; finally shrink the root.
    fn rebalance_up<T: StorageMut>(
        &self,
        tx: &T,
        path: &mut Vec<Level>,
        mut id: PageId,
    ) -> Result<()> {
        while let Some(&(pid, ci, _)) = path.last() {
            if self.used(tx, id)? >= UNDERFULL {
                return Ok(());
            }
            path.pop();
            self.rebalance_child(tx, pid, ci)?;
            id = pid;
        }
        self.collapse_root(tx)
    }

    /// Merges child `ci` of `pid` with a sibling, or moves cells between
    /// them if both do not fit one page.
    fn rebalance_child<T: StorageMut>(&self, tx: &T, pid: PageId, ci: usize) -> Result<()> {
        let mut parent = {
            let page = tx.page(pid)?;
            Node::read(self.node(&page, pid)?)?
        };
        let n = parent.cells.len();
        if n == 0 {
            return Ok(());
        }
        let li = if ci < n { ci } else { n - 1 };
        let (lid, rid) = (PageId(parent.child(li)), PageId(parent.child(li + 1)));
        if lid == rid || lid.0 == 0 || rid.0 == 0 {
            return corrupt!("page {pid}: bad children {lid} and {rid}");
        }
        let read = |id: PageId| -> Result<Node> {
            let page = tx.page(id)?;
            Node::read(self.node(&page, id)?)
        };
        let (mut left, right) = (read(lid)?, read(rid)?);
        if left.leaf != right.leaf {
            return corrupt!("siblings {lid} and {rid} are at different depths");
        }
        let sep_raw = parent.cells[li].clone();
        let sep = parse_raw(&sep_raw, false, self.kind)?;

        if left.leaf {
            if left.size() + right.size() <= CAPACITY {
                left.cells.extend(right.cells);
                left.write(&mut *tx.page_mut(lid)?, self.kind);
                tx.free(rid)?;
                parent.set_child(li + 1, lid.0);
                parent.cells.remove(li);
                parent.write(&mut *tx.page_mut(pid)?, self.kind);
                return free_cell_chain(tx, &sep);
            }
            let mut all = left.cells;
            all.extend(right.cells);
            let m = split_point(&all, false)?;
            let right_cells = all.split_off(m);
            let lk = cell_key(tx, &parse_raw(&all[m - 1], true, self.kind)?)?.into_owned();
            let rk = cell_key(tx, &parse_raw(&right_cells[0], true, self.kind)?)?.into_owned();
            let mut up = build_interior_cell(tx, &separator(self.kind, &lk, &rk))?;
            if parent.size() - sep_raw.len() + up.len() > CAPACITY {
                // The new separator does not fit: leave the pair as it is.
                return free_cell_chain(tx, &parse_raw(&up, false, self.kind)?);
            }
            set_cell_child(&mut up, lid.0);
            Node { leaf: true, cells: all, right: 0 }.write(&mut *tx.page_mut(lid)?, self.kind);
            Node { leaf: true, cells: right_cells, right: 0 }
                .write(&mut *tx.page_mut(rid)?, self.kind);
            parent.cells[li] = up;
            parent.write(&mut *tx.page_mut(pid)?, self.kind);
            return free_cell_chain(tx, &sep);
        }

        // Interior: the separator comes down between the two halves.
        let mut down = sep_raw.clone();
        set_cell_child(&mut down, left.right);
        let mut seq = left.cells;
        seq.push(down);
        seq.extend(right.cells);
        if cells_size(&seq) <= CAPACITY {
            Node { leaf: false, cells: seq, right: right.right }
                .write(&mut *tx.page_mut(lid)?, self.kind);
            tx.free(rid)?;
            parent.set_child(li + 1, lid.0);
            parent.cells.remove(li);
            parent.write(&mut *tx.page_mut(pid)?, self.kind);
            return Ok(());
        }
        let m = split_point(&seq, true)?;
        if parent.size() - sep_raw.len() + seq[m].len() > CAPACITY {
            return Ok(());
        }
        let mut right_cells = seq.split_off(m);
        let mut up = right_cells.remove(0);
        let left_right = super::node::get_u32(&up, 0);
        set_cell_child(&mut up, lid.0);
        Node { leaf: false, cells: seq, right: left_right }
            .write(&mut *tx.page_mut(lid)?, self.kind);
        Node { leaf: false, cells: right_cells, right: right.right }
            .write(&mut *tx.page_mut(rid)?, self.kind);
        parent.cells[li] = up;
        parent.write(&mut *tx.page_mut(pid)?, self.kind);
        Ok(())
    }

    /// While the root is an interior node with a single child, pull that
    /// child's contents up into the root page and free it.
    fn collapse_root<T: StorageMut>(&self, tx: &T) -> Result<()> {
        for _ in 0..MAX_DEPTH {
            let child = {
                let page = tx.page(self.root)?;
                let node = self.node(&page, self.root)?;
                if node.leaf || node.count > 0 {
                    return Ok(());
                }
                node.child(0)?
            };
            if child == self.root {
                return corrupt!("root {} is its own child", self.root);
            }
            let copy: Box<[u8]> = {
                let page = tx.page(child)?;
                self.node(&page, child)?;
                page[..USABLE].into()
            };
            tx.page_mut(self.root)?[..USABLE].copy_from_slice(&copy);
            tx.free(child)?;
        }
        corrupt!("root {} collapses more than {MAX_DEPTH} times", self.root)
    }

    /// Estimates the entries from the fan-out along the middle path: one
    /// page read per level.
    pub(crate) fn estimate_entries<T: Storage>(&self, tx: &T) -> Result<u64> {
        let mut id = self.root;
        let mut factor: u64 = 1;
        for _ in 0..MAX_DEPTH {
            let page = tx.page(id)?;
            let node = self.node(&page, id)?;
            if node.leaf {
                return Ok(factor.saturating_mul(node.count as u64));
            }
            factor = factor.saturating_mul(node.count as u64 + 1);
            id = node.child(node.count / 2)?;
        }
        corrupt!("tree at page {} is deeper than {MAX_DEPTH}", self.root)
    }

    /// Counts the tree's entries exactly by walking every page and summing
    /// the leaves' cell counts: no cell is parsed, no overflow chain
    /// followed (SQLite's `count(*)` does the same with `sqlite3BtreeCount`).
    /// Pages are read through `tx`, so the count sees exactly what a cursor
    /// in the same transaction sees. A page reached twice, or a path deeper
    /// than [`MAX_DEPTH`], is corruption (never a loop).
    pub(crate) fn count_entries<T: Storage>(&self, tx: &T) -> Result<u64> {
        let mut seen = HashSet::new();
        let mut stack = vec![(self.root, 0usize)];
        let mut total: u64 = 0;
        while let Some((id, depth)) = stack.pop() {
            if depth > MAX_DEPTH {
                return corrupt!("tree at page {} is deeper than {MAX_DEPTH}", self.root);
            }
            if !seen.insert(id) {
                return corrupt!("page {id} is reached twice in tree {}", self.root);
            }
            let page = tx.page(id)?;
            let node = self.node(&page, id)?;
            if node.leaf {
                total += node.count as u64;
            } else {
                for i in 0..=node.count {
                    stack.push((node.child(i)?, depth + 1));
                }
            }
        }
        Ok(total)
    }

    /// Frees every page below the root and empties the root.
    pub(crate) fn clear<T: StorageMut>(&self, tx: &T) -> Result<()> {
        self.free_below(tx, self.root, 0, &mut HashSet::new())?;
        init_page(&mut *tx.page_mut(self.root)?, self.kind, true);
        Ok(())
    }

    /// Frees the overflow chains and children of `id` (not `id` itself).
    /// `seen` guards against corrupt pointers freeing a page twice.
    fn free_below<T: StorageMut>(
        &self,
        tx: &T,
        id: PageId,
        depth: usize,
        seen: &mut HashSet<PageId>,
    ) -> Result<()> {
        if depth > MAX_DEPTH {
            return corrupt!("tree at page {} is deeper than {MAX_DEPTH}", self.root);
        }
        if !seen.insert(id) {
            return corrupt!("page {id} appears twice in the tree at {}", self.root);
        }
        let node = {
            let page = tx.page(id)?;
            Node::read(self.node(&page, id)?)?
        };
        for raw in &node.cells {
            free_cell_chain(tx, &parse_raw(raw, node.leaf, self.kind)?)?;
        }
        if !node.leaf {
            for i in 0..=node.cells.len() {
                let child = PageId(node.child(i));
                if child.0 == 0 || child == self.root {
                    return corrupt!("page {id}: bad child {child}");
                }
                self.free_below(tx, child, depth + 1, seen)?;
                tx.free(child)?;
            }
        }
        Ok(())
    }
}
