//! Buffer-pool keys and the page guards handed to the layers above.
//!
//! A pool key names an *immutable* page image: a page of the main file, a
//! frame of the log (in one log generation), or the current writer's dirty
//! copy. Readers only ever build keys from their committed snapshot, and a
//! dirty key carries the writer's transaction id, which no snapshot
//! resolves to: so a reader cannot see uncommitted bytes through the pool.

use std::cell::{Cell, RefCell};
use std::collections::HashSet;
use std::ops::{Deref, DerefMut};

use asadb_pager::{PageBuf, PageId};

/// Which image of a page a pool frame holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Version {
    /// The page as stored in the main file.
    Main,
    /// The page image of log frame `frame` of log generation `generation`.
    /// A frame number is reused only after a rollback (uncommitted frames)
    /// or in a new generation, and both invalidate these keys.
    Log { generation: u32, frame: u32 },
    /// The dirty copy of the write transaction with this id.
    Dirty(u64),
}

/// A buffer-pool key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Key {
    pub page: PageId,
    pub version: Version,
}

impl Key {
    pub fn new(page: PageId, version: Version) -> Self {
        Key { page, version }
    }
}

/// The guards a write transaction has handed out. Savepoint operations
/// need none outstanding, and spilling must skip pages open for writing
/// (their bytes may still change under the guard).
#[derive(Debug, Default)]
pub(crate) struct Pins {
    guards: Cell<usize>,
    writing: RefCell<HashSet<PageId>>,
}

impl Pins {
    pub fn outstanding(&self) -> usize {
        self.guards.get()
    }

    pub fn is_writing(&self, page: PageId) -> bool {
        self.writing.borrow().contains(&page)
    }
}

/// A pinned, read-only page. The frame stays in the pool while the guard
/// lives; it must be dropped on the thread that took it.
pub struct PageRef<'a> {
    inner: asadb_bufferpool::PageRef<'a, Key>,
    pins: Option<&'a Pins>,
}

impl<'a> PageRef<'a> {
    pub(crate) fn new(inner: asadb_bufferpool::PageRef<'a, Key>, pins: Option<&'a Pins>) -> Self {
        if let Some(p) = pins {
            p.guards.set(p.guards.get() + 1);
        }
        PageRef { inner, pins }
    }
}

impl Deref for PageRef<'_> {
    type Target = PageBuf;
    fn deref(&self) -> &PageBuf {
        &self.inner
    }
}

impl Drop for PageRef<'_> {
    fn drop(&mut self) {
        if let Some(p) = self.pins {
            p.guards.set(p.guards.get() - 1);
        }
    }
}

impl std::fmt::Debug for PageRef<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PageRef").field("page", &self.inner.key().page).finish_non_exhaustive()
    }
}

/// A pinned page of the write transaction open for writing. Callers touch
/// bytes `0..PAGE_USABLE`; the checksum is sealed when the page is written
/// to the log.
pub struct PageMut<'a> {
    inner: asadb_bufferpool::PageMut<'a, Key>,
    pins: &'a Pins,
    page: PageId,
}

impl<'a> PageMut<'a> {
    pub(crate) fn new(inner: asadb_bufferpool::PageMut<'a, Key>, pins: &'a Pins) -> Self {
        let page = inner.key().page;
        pins.guards.set(pins.guards.get() + 1);
        pins.writing.borrow_mut().insert(page);
        PageMut { inner, pins, page }
    }
}

impl Deref for PageMut<'_> {
    type Target = PageBuf;
    fn deref(&self) -> &PageBuf {
        &self.inner
    }
}

impl DerefMut for PageMut<'_> {
    fn deref_mut(&mut self) -> &mut PageBuf {
        &mut self.inner
    }
}

impl Drop for PageMut<'_> {
    fn drop(&mut self) {
        self.pins.guards.set(self.pins.guards.get() - 1);
        self.pins.writing.borrow_mut().remove(&self.page);
    }
}

impl std::fmt::Debug for PageMut<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PageMut").field("page", &self.page).finish_non_exhaustive()
    }
}
