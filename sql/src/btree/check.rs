//! The integrity check of one tree, and [`PageUsage`], the ledger that
//! lets the database-wide check prove every page is either free or used by
//! exactly one structure.
//!
//! A tree is checked for: node layout (cells inside the content area, no
//! overlap, garbage accounted for), page types of its kind, strictly
//! increasing keys, every key within the bounds its ancestors' separators
//! give it, all leaves at one depth, overflow chains of exactly the right
//! length, and no page used twice.

use std::collections::HashMap;

use asadb_pager::PageId;

use super::Storage;
use super::node::{CAPACITY, Node, NodeRef, parse_cell};
use super::overflow::check_chain;
use super::tree::{MAX_DEPTH, Tree, cell_key};
use crate::{Result, corrupt};

/// Every page some structure uses, with the root of the structure that
/// uses it. Marking a page twice is corruption.
#[derive(Clone, Debug, Default)]
pub struct PageUsage {
    pages: HashMap<PageId, PageId>,
    owner: PageId,
}

impl PageUsage {
    pub fn new() -> Self {
        Self::default()
    }

    /// Records that the structure rooted at the current owner uses `page`.
    pub fn mark(&mut self, page: PageId) -> Result<()> {
        if page.0 == 0 {
            return corrupt!("page 0 (the header) is used by the tree at {}", self.owner);
        }
        if let Some(other) = self.pages.insert(page, self.owner) {
            return corrupt!(
                "page {page} is used twice (by the trees at {other} and {})",
                self.owner
            );
        }
        Ok(())
    }

    /// Sets the structure the next marks belong to (for error messages).
    /// [`Table::check`](super::Table::check) and
    /// [`Index::check`](super::Index::check) set it to their root.
    pub fn set_owner(&mut self, root: PageId) {
        self.owner = root;
    }

    pub fn contains(&self, page: PageId) -> bool {
        self.pages.contains_key(&page)
    }

    pub fn len(&self) -> usize {
        self.pages.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pages.is_empty()
    }

    /// The used pages, in no particular order.
    pub fn pages(&self) -> impl Iterator<Item = PageId> + '_ {
        self.pages.keys().copied()
    }

    /// Proves that every page of a database of `page_count` pages is
    /// exactly one of: the header page, a page on the free list (`free`),
    /// or a page marked here. Names the first leaked, doubly used or
    /// out-of-range page otherwise.
    pub fn account(&self, free: &[PageId], page_count: u32) -> Result<()> {
        let mut seen = vec![false; page_count as usize];
        seen[0] = page_count > 0;
        for (page, owner) in &self.pages {
            match seen.get_mut(page.0 as usize) {
                Some(s) => *s = true,
                None => {
                    return corrupt!(
                        "page {page} of the tree at {owner} is past the end ({page_count} pages)"
                    );
                }
            }
        }
        for &page in free {
            match seen.get_mut(page.0 as usize) {
                Some(false) => seen[page.0 as usize] = true,
                Some(true) if page.0 == 0 => {
                    return corrupt!("the header page is on the free list");
                }
                Some(true) => {
                    return match self.pages.get(&page) {
                        Some(owner) => corrupt!("free page {page} is used by the tree at {owner}"),
                        None => corrupt!("page {page} is on the free list twice"),
                    };
                }
                None => return corrupt!("free page {page} is past the end ({page_count} pages)"),
            }
        }
        match seen.iter().position(|s| !s) {
            Some(p) => corrupt!("page {p} is neither free nor used (leaked)"),
            None => Ok(()),
        }
    }
}

/// What a check saw: sizes for tests, statistics and `EXPLAIN`-style output.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TreeStats {
    /// Levels, the leaf level included (1 = the root is a leaf).
    pub depth: usize,
    pub entries: u64,
    pub leaves: u64,
    pub interiors: u64,
    pub overflow_pages: u64,
    /// Bytes of cells and cell pointers in all leaves.
    pub leaf_bytes: u64,
}

impl TreeStats {
    /// Average leaf fill, 0.0..=1.0.
    pub fn leaf_fill(&self) -> f64 {
        if self.leaves == 0 {
            0.0
        } else {
            self.leaf_bytes as f64 / (self.leaves * CAPACITY as u64) as f64
        }
    }
}

struct Walk<'a, T> {
    tx: &'a T,
    tree: Tree,
    usage: &'a mut PageUsage,
    stats: TreeStats,
    leaf_depth: Option<usize>,
}

pub(crate) fn check<T: Storage>(tx: &T, tree: Tree, usage: &mut PageUsage) -> Result<TreeStats> {
    usage.set_owner(tree.root);
    let mut walk = Walk { tx, tree, usage, stats: TreeStats::default(), leaf_depth: None };
    walk.node(tree.root, None, None, 1)?;
    walk.stats.depth = walk.leaf_depth.unwrap_or(1);
    Ok(walk.stats)
}

impl<T: Storage> Walk<'_, T> {
    fn node(
        &mut self,
        id: PageId,
        lower: Option<&[u8]>,
        upper: Option<&[u8]>,
        depth: usize,
    ) -> Result<()> {
        if depth > MAX_DEPTH {
            return corrupt!("tree at page {} is deeper than {MAX_DEPTH}", self.tree.root);
        }
        self.usage.mark(id)?;
        let node = {
            let page = self.tx.page(id)?;
            let node = NodeRef::new(&page, id, self.tree.kind)?;
            node.validate()?;
            if node.leaf {
                self.stats.leaves += 1;
                self.stats.leaf_bytes += node.used() as u64;
            } else {
                self.stats.interiors += 1;
            }
            Node::read(node)?
        };
        let mut keys = Vec::with_capacity(node.cells.len());
        for raw in &node.cells {
            let cell = parse_cell(raw, 0, !node.leaf, self.tree.kind)?;
            if cell.overflow != 0 {
                self.stats.overflow_pages +=
                    check_chain(self.tx, cell.overflow, cell.spilled(), self.usage)? as u64;
            }
            let key = cell_key(self.tx, &cell)?.into_owned();
            if keys.last().is_some_and(|prev: &Vec<u8>| prev >= &key) {
                return corrupt!("page {id}: keys out of order");
            }
            if lower.is_some_and(|l| key.as_slice() < l)
                || upper.is_some_and(|u| key.as_slice() >= u)
            {
                return corrupt!("page {id}: key outside the range its parent gives");
            }
            keys.push(key);
        }
        if node.leaf {
            self.stats.entries += keys.len() as u64;
            match self.leaf_depth {
                None => self.leaf_depth = Some(depth),
                Some(d) if d != depth => {
                    return corrupt!("leaf {id} at depth {depth}, other leaves at {d}");
                }
                Some(_) => {}
            }
            return Ok(());
        }
        for i in 0..=keys.len() {
            let child = PageId(node.child(i));
            let lo = if i == 0 { lower } else { Some(keys[i - 1].as_slice()) };
            let hi = if i == keys.len() { upper } else { Some(keys[i].as_slice()) };
            self.node(child, lo, hi, depth + 1)?;
        }
        Ok(())
    }
}
