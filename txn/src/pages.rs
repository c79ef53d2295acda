//! The seam between transactions and the structures built on pages.
//!
//! The SQL layer's B+trees are written against these two traits, never
//! against the log or the buffer pool directly. A read transaction
//! implements [`PageRead`]; a write transaction implements both, and its
//! reads see its own uncommitted writes.
//!
//! Guards are short-lived: hold a page only while working on it. A thread
//! must not hold a read guard and ask for a write guard of the same page
//! (or two write guards of one page) at the same time.

use std::ops::{Deref, DerefMut};

use asadb_pager::{Header, PageBuf, PageId};

/// Read access to a consistent snapshot of the database's pages.
pub trait PageRead {
    /// The error type of page access.
    type Error: std::error::Error + Send + Sync + 'static;
    /// A pinned, read-only page.
    type Ref<'a>: Deref<Target = PageBuf>
    where
        Self: 'a;

    /// Returns page `id` as of this snapshot. Its checksum bytes (the last
    /// four) are owned by the page layer and must be ignored by the caller.
    fn page(&self, id: PageId) -> Result<Self::Ref<'_>, Self::Error>;

    /// The header fields as of this snapshot (page count, catalog root, …).
    fn header(&self) -> Header;
}

/// Write access: copy-on-write pages, allocation and the header fields the
/// layers above own.
pub trait PageWrite: PageRead {
    /// A pinned page open for writing. The checksum is sealed when the page
    /// is written out; callers only touch bytes `0..PAGE_USABLE`.
    type Mut<'a>: DerefMut<Target = PageBuf>
    where
        Self: 'a;

    /// Opens page `id` for writing (copying it into the transaction first).
    fn page_mut(&self, id: PageId) -> Result<Self::Mut<'_>, Self::Error>;

    /// Allocates a page, from the free list if it has one, else by growing
    /// the database. The returned page is zeroed.
    fn allocate(&self) -> Result<(PageId, Self::Mut<'_>), Self::Error>;

    /// Returns page `id` to the free list. The caller must hold no guard on it.
    fn free(&self, id: PageId) -> Result<(), Self::Error>;

    /// Sets the root page of the SQL catalog.
    fn set_catalog_root(&self, root: PageId) -> Result<(), Self::Error>;

    /// Sets one of the header's reserved upper-layer slots.
    fn set_user_slot(&self, slot: usize, value: u32) -> Result<(), Self::Error>;
}

/// A shared reference reads like the transaction itself, so cursors can be
/// generic over an owned handle (`Arc<ReadTxn>`) or a borrowed one
/// (`&WriteTxn`).
impl<T: PageRead + ?Sized> PageRead for &T {
    type Error = T::Error;
    type Ref<'a>
        = T::Ref<'a>
    where
        Self: 'a;

    fn page(&self, id: PageId) -> Result<Self::Ref<'_>, Self::Error> {
        (**self).page(id)
    }

    fn header(&self) -> Header {
        (**self).header()
    }
}

impl<T: PageRead + ?Sized> PageRead for std::sync::Arc<T> {
    type Error = T::Error;
    type Ref<'a>
        = T::Ref<'a>
    where
        Self: 'a;

    fn page(&self, id: PageId) -> Result<Self::Ref<'_>, Self::Error> {
        (**self).page(id)
    }

    fn header(&self) -> Header {
        (**self).header()
    }
}

impl<T: PageWrite + ?Sized> PageWrite for &T {
    type Mut<'a>
        = T::Mut<'a>
    where
        Self: 'a;

    fn page_mut(&self, id: PageId) -> Result<Self::Mut<'_>, Self::Error> {
        (**self).page_mut(id)
    }

    fn allocate(&self) -> Result<(PageId, Self::Mut<'_>), Self::Error> {
        (**self).allocate()
    }

    fn free(&self, id: PageId) -> Result<(), Self::Error> {
        (**self).free(id)
    }

    fn set_catalog_root(&self, root: PageId) -> Result<(), Self::Error> {
        (**self).set_catalog_root(root)
    }

    fn set_user_slot(&self, slot: usize, value: u32) -> Result<(), Self::Error> {
        (**self).set_user_slot(slot, value)
    }
}
