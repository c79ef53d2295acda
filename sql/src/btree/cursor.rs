//! A position in a tree, moving in key order without re-descending from
//! the root: the cursor keeps the interior path and a copy of the current
//! leaf, so `next`/`prev` within a leaf touch no page at all.
//!
//! A cursor reads a snapshot of the pages as it goes; it is **not** required
//! to survive modifications of the same tree by the same transaction (the
//! executor materialises what it needs before modifying). Any number of
//! cursors may exist at once.

use asadb_pager::{PAGE_SIZE, PageBuf, PageId};

use super::Storage;
use super::node::NodeRef;
use super::tree::{Level, MAX_DEPTH, Tree, cell_data, cell_key, search_interior, search_leaf};
use crate::{Result, corrupt};

/// Checks that a node at `depth` may be a leaf or an interior node, given
/// the depth of the leaves seen so far.
fn check_depth(leaf_depth: &mut Option<usize>, depth: usize, id: PageId, leaf: bool) -> Result<()> {
    match (*leaf_depth, leaf) {
        (None, true) => *leaf_depth = Some(depth),
        (Some(d), true) if d != depth => {
            return corrupt!("leaf {id} at depth {depth}, other leaves at {d}");
        }
        (Some(d), false) if depth >= d => {
            return corrupt!("interior page {id} at depth {depth}, leaves at {d}");
        }
        _ => {}
    }
    Ok(())
}

pub(crate) struct Cursor<T> {
    tx: T,
    tree: Tree,
    /// Interior levels from the root: page, child taken, cell count.
    stack: Vec<Level>,
    /// Copy of the current leaf.
    leaf: Box<PageBuf>,
    leaf_id: PageId,
    count: usize,
    idx: usize,
    valid: bool,
    /// The full key at the current position.
    key: Vec<u8>,
    /// Depth of the leaves, once one was reached. All leaves share one
    /// depth, so a corrupt pointer that loops back up the tree is caught
    /// at once instead of walking the loop.
    leaf_depth: Option<usize>,
}

impl<T: Storage> Cursor<T> {
    pub(crate) fn new(tx: T, tree: Tree) -> Self {
        Cursor {
            tx,
            tree,
            stack: Vec::new(),
            leaf: Box::new([0; PAGE_SIZE]),
            leaf_id: PageId(0),
            count: 0,
            idx: 0,
            valid: false,
            key: Vec::new(),
            leaf_depth: None,
        }
    }

    pub(crate) fn tx(&self) -> &T {
        &self.tx
    }

    pub(crate) fn is_valid(&self) -> bool {
        self.valid
    }

    /// The key at the current position (empty if not valid).
    pub(crate) fn key(&self) -> &[u8] {
        &self.key
    }

    fn node(&self) -> Result<NodeRef<'_>> {
        NodeRef::new(&self.leaf, self.leaf_id, self.tree.kind)
    }

    /// Copies leaf `id` into the cursor.
    fn load_leaf(&mut self, id: PageId) -> Result<()> {
        let page = self.tx.page(id)?;
        let node = NodeRef::new(&page, id, self.tree.kind)?;
        if !node.leaf {
            return corrupt!("page {id} is interior where a leaf was expected");
        }
        self.count = node.count;
        self.leaf.copy_from_slice(&page[..]);
        self.leaf_id = id;
        Ok(())
    }

    /// Makes position `idx` of the loaded leaf current.
    fn settle(&mut self, idx: usize) -> Result<bool> {
        self.idx = idx;
        let node = NodeRef::new(&self.leaf, self.leaf_id, self.tree.kind)?;
        let key = cell_key(&self.tx, &node.cell(idx)?)?;
        self.key.clear();
        self.key.extend_from_slice(&key);
        self.valid = true;
        Ok(true)
    }

    fn invalidate(&mut self) -> Result<bool> {
        self.valid = false;
        self.key.clear();
        Ok(false)
    }

    fn push(&mut self, level: Level) -> Result<()> {
        if self.stack.len() >= MAX_DEPTH {
            return corrupt!("tree at page {} is deeper than {MAX_DEPTH}", self.tree.root);
        }
        self.stack.push(level);
        Ok(())
    }

    /// Descends from `id` along the left (forward) or right edge and
    /// settles on the first/last entry. `false` if the leaf reached is empty.
    fn edge(&mut self, mut id: PageId, forward: bool) -> Result<bool> {
        loop {
            let (level, child) = {
                let page = self.tx.page(id)?;
                let node = NodeRef::new(&page, id, self.tree.kind)?;
                check_depth(&mut self.leaf_depth, self.stack.len(), id, node.leaf)?;
                if node.leaf {
                    (None, id)
                } else {
                    let i = if forward { 0 } else { node.count };
                    (Some((id, i, node.count)), node.child(i)?)
                }
            };
            match level {
                Some(level) => {
                    self.push(level)?;
                    id = child;
                }
                None => {
                    self.load_leaf(id)?;
                    if self.count == 0 {
                        return Ok(false);
                    }
                    let idx = if forward { 0 } else { self.count - 1 };
                    return self.settle(idx);
                }
            }
        }
    }

    /// Moves to the next (or previous) non-empty leaf.
    fn step_leaf(&mut self, forward: bool) -> Result<bool> {
        loop {
            let (pid, ci) = loop {
                let Some(top) = self.stack.last_mut() else {
                    return self.invalidate();
                };
                if forward && top.1 < top.2 {
                    top.1 += 1;
                    break (top.0, top.1);
                }
                if !forward && top.1 > 0 {
                    top.1 -= 1;
                    break (top.0, top.1);
                }
                self.stack.pop();
            };
            let child = {
                let page = self.tx.page(pid)?;
                let node = NodeRef::new(&page, pid, self.tree.kind)?;
                if node.leaf || ci > node.count {
                    return corrupt!("page {pid} changed under a cursor");
                }
                node.child(ci)?
            };
            if self.edge(child, forward)? {
                return Ok(true);
            }
        }
    }

    pub(crate) fn first(&mut self) -> Result<bool> {
        self.stack.clear();
        if self.edge(self.tree.root, true)? { Ok(true) } else { self.step_leaf(true) }
    }

    pub(crate) fn last(&mut self) -> Result<bool> {
        self.stack.clear();
        if self.edge(self.tree.root, false)? { Ok(true) } else { self.step_leaf(false) }
    }

    /// Descends to the leaf for `probe`; returns the search result in it.
    fn descend(&mut self, probe: &[u8]) -> Result<Result<usize, usize>> {
        self.stack.clear();
        let mut id = self.tree.root;
        loop {
            let (level, child) = {
                let page = self.tx.page(id)?;
                let node = NodeRef::new(&page, id, self.tree.kind)?;
                check_depth(&mut self.leaf_depth, self.stack.len(), id, node.leaf)?;
                if node.leaf {
                    (None, id)
                } else {
                    let i = search_interior(&self.tx, &node, probe)?;
                    (Some((id, i, node.count)), node.child(i)?)
                }
            };
            match level {
                Some(level) => {
                    self.push(level)?;
                    id = child;
                }
                None => {
                    self.load_leaf(id)?;
                    let node = NodeRef::new(&self.leaf, id, self.tree.kind)?;
                    return search_leaf(&self.tx, &node, probe);
                }
            }
        }
    }

    /// Moves to the first entry with key `>= probe`.
    pub(crate) fn seek(&mut self, probe: &[u8]) -> Result<bool> {
        let idx = match self.descend(probe)? {
            Ok(i) | Err(i) => i,
        };
        if idx < self.count { self.settle(idx) } else { self.step_leaf(true) }
    }

    /// Moves to the last entry with key `<= probe`.
    pub(crate) fn seek_le(&mut self, probe: &[u8]) -> Result<bool> {
        match self.descend(probe)? {
            Ok(i) => self.settle(i),
            Err(0) => self.step_leaf(false),
            Err(i) => self.settle(i - 1),
        }
    }

    pub(crate) fn next(&mut self) -> Result<bool> {
        if !self.valid {
            return Ok(false);
        }
        if self.idx + 1 < self.count { self.settle(self.idx + 1) } else { self.step_leaf(true) }
    }

    /// Moves `n` entries on (`forward`) or back without reading the ones in
    /// between (whole leaves are passed by their cell counts). Answers how
    /// far it moved: `n`, with the cursor on that entry, or fewer when the
    /// tree ran out, with the cursor past the end (invalid) and the answer
    /// the number of entries there were after the starting one.
    pub(crate) fn advance(&mut self, mut n: usize, forward: bool) -> Result<usize> {
        let mut moved = 0;
        while n > 0 && self.valid {
            let room = if forward { self.count - 1 - self.idx } else { self.idx };
            if n <= room {
                let idx = if forward { self.idx + n } else { self.idx - n };
                self.settle(idx)?;
                return Ok(moved + n);
            }
            moved += room;
            n -= room;
            if !self.step_leaf(forward)? {
                return Ok(moved);
            }
            moved += 1;
            n -= 1;
        }
        Ok(moved)
    }

    pub(crate) fn prev(&mut self) -> Result<bool> {
        if !self.valid {
            return Ok(false);
        }
        if self.idx > 0 { self.settle(self.idx - 1) } else { self.step_leaf(false) }
    }

    /// Calls `f` with the value at the current position.
    pub(crate) fn with_value<R>(&self, f: impl FnOnce(&[u8]) -> R) -> Result<R> {
        if !self.valid {
            return crate::errinput!("cursor is not on an entry");
        }
        let node = self.node()?;
        let cell = node.cell(self.idx)?;
        match cell.local_value() {
            Some(v) => Ok(f(v)),
            None => {
                let data = cell_data(&self.tx, &cell)?;
                Ok(f(&data[cell.key_len..]))
            }
        }
    }
}
