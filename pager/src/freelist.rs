//! The persistent free list: pages no longer in use, linked through their
//! own bytes and reused (last freed, first reused) before the file grows.
//!
//! # Layout of a free page
//! ```text
//! offset size field
//!      0    4 FREE_MAGIC   b"FREE"
//!      4    4 NEXT         u32 LE, next free page id, 0 = end of list
//!      8 4084 zero
//!   4092    4 page checksum (see `page`)
//! ```
//! The header page holds the list's head (`FREELIST_HEAD`, 0 = empty) and
//! its length (`FREELIST_COUNT`).
//!
//! # Invariants
//! - Every page on the list has id in `1..page_count`, carries `FREE_MAGIC`,
//!   and appears once; following `NEXT` from the head reaches 0 after exactly
//!   `freelist_count` pages.
//! - A page is either allocated or on the list, never both. Freeing a page
//!   that is still referenced is a bug of the caller that this module cannot
//!   see in general; it does refuse to free the header page, pages past the
//!   end, and the current head (an immediate double free).
//!
//! Pages are read and written through [`FreeListStore`], implemented by the
//! transaction layer (so free-list changes go through the log like any other
//! page) and by [`PageFile`] for direct access.

use std::collections::HashSet;

use crate::header::{get_u32, put_u32};
use crate::page::{PageBuf, PageId, new_page};
use crate::{Error, Header, PageFile, Result};

/// Magic of a free page.
pub const FREE_MAGIC: [u8; 4] = *b"FREE";
/// Offset of [`FREE_MAGIC`].
pub const FREE_MAGIC_OFFSET: usize = 0;
/// Offset of the next free page id.
pub const FREE_NEXT_OFFSET: usize = FREE_MAGIC_OFFSET + FREE_MAGIC.len();
/// End of the free page's fields; the rest up to the checksum is zero.
pub const FREE_END: usize = FREE_NEXT_OFFSET + size_of::<u32>();

/// Page access for the free list.
pub trait FreeListStore {
    /// Reads page `id`, verified: a bad checksum must be
    /// [`Error::Corrupt`], never returned as bytes.
    fn read_page(&mut self, id: PageId, buf: &mut PageBuf) -> Result<()>;
    /// Writes page `id`, sealing its checksum.
    fn write_page(&mut self, id: PageId, buf: &mut PageBuf) -> Result<()>;
}

impl FreeListStore for PageFile {
    fn read_page(&mut self, id: PageId, buf: &mut PageBuf) -> Result<()> {
        PageFile::read_page(self, id, buf)
    }

    fn write_page(&mut self, id: PageId, buf: &mut PageBuf) -> Result<()> {
        PageFile::write_page(self, id, buf)
    }
}

/// Fills `buf` as a free page pointing to `next` (checksum not sealed).
pub fn encode_free_page(next: u32, buf: &mut PageBuf) {
    buf.fill(0);
    buf[FREE_MAGIC_OFFSET..FREE_NEXT_OFFSET].copy_from_slice(&FREE_MAGIC);
    put_u32(buf, FREE_NEXT_OFFSET, next);
}

/// Checks that page `id` is a free page of a database of `page_count`
/// pages and returns its next pointer (0 = end).
pub fn decode_free_page(id: PageId, buf: &PageBuf, page_count: u32) -> Result<u32> {
    if buf[FREE_MAGIC_OFFSET..FREE_NEXT_OFFSET] != FREE_MAGIC {
        return Err(Error::corrupt(id, "page on the free list is not a free page (bad magic)"));
    }
    let next = get_u32(buf, FREE_NEXT_OFFSET);
    if next >= page_count {
        return Err(Error::corrupt(
            id,
            format!("free-list pointer {next} is past the end ({page_count} pages)"),
        ));
    }
    if next == id.0 {
        return Err(Error::corrupt(id, "free page points to itself"));
    }
    Ok(next)
}

/// Hands out a page: the head of the free list if any, else a new page at
/// the end (`page_count` grows by one). The new page's bytes are not
/// written; the caller owns them. `header` changes only on success.
pub fn allocate(store: &mut impl FreeListStore, header: &mut Header) -> Result<PageId> {
    if header.freelist_head == 0 {
        if header.freelist_count != 0 {
            return Err(Error::corrupt(PageId::HEADER, "free list is empty but its count is not"));
        }
        let id = header.page_count;
        header.page_count = id.checked_add(1).ok_or(Error::Full { pages: id })?;
        return Ok(PageId(id));
    }
    let id = PageId(header.freelist_head);
    if id.0 >= header.page_count {
        return Err(Error::corrupt(PageId::HEADER, format!("free-list head {id} is past the end")));
    }
    let mut buf = new_page();
    store.read_page(id, &mut buf)?;
    let next = decode_free_page(id, &buf, header.page_count)?;
    let count = header.freelist_count.checked_sub(1).ok_or_else(|| {
        Error::corrupt(PageId::HEADER, "free list has a head but its count is zero")
    })?;
    if (next == 0) != (count == 0) {
        return Err(Error::corrupt(id, format!("free list ends early or late ({count} left)")));
    }
    header.freelist_head = next;
    header.freelist_count = count;
    Ok(id)
}

/// Puts page `id` on the free list: writes it as a free page pointing to
/// the current head and makes it the head. `header` changes only on
/// success.
pub fn free(store: &mut impl FreeListStore, header: &mut Header, id: PageId) -> Result<()> {
    if id == PageId::HEADER {
        return Err(Error::corrupt(id, "the header page cannot be freed"));
    }
    if id.0 >= header.page_count {
        return Err(Error::OutOfRange { page: id, count: header.page_count });
    }
    if id.0 == header.freelist_head {
        return Err(Error::corrupt(id, "page freed twice (already the free-list head)"));
    }
    let count = header
        .freelist_count
        .checked_add(1)
        .filter(|&c| c < header.page_count)
        .ok_or_else(|| Error::corrupt(PageId::HEADER, "free list longer than the database"))?;
    let mut buf = new_page();
    encode_free_page(header.freelist_head, &mut buf);
    store.write_page(id, &mut buf)?;
    header.freelist_head = id.0;
    header.freelist_count = count;
    Ok(())
}

/// Every free page in list order. Detects bad magic, out-of-range
/// pointers, cycles and a length different from `freelist_count`, each as
/// [`Error::Corrupt`] naming the page holding the bad value (page 0 for the
/// header's fields).
pub fn walk(store: &mut impl FreeListStore, header: &Header) -> Result<Vec<PageId>> {
    let mut pages = Vec::new();
    let mut seen = HashSet::new();
    let mut buf = new_page();
    let mut holder = PageId::HEADER;
    let mut next = header.freelist_head;
    while next != 0 {
        let id = PageId(next);
        if id.0 >= header.page_count {
            return Err(Error::corrupt(
                holder,
                format!("free-list pointer {id} is past the end ({} pages)", header.page_count),
            ));
        }
        if !seen.insert(id) {
            return Err(Error::corrupt(holder, format!("free list has a cycle back to page {id}")));
        }
        if pages.len() as u64 >= u64::from(header.freelist_count) {
            return Err(Error::corrupt(
                PageId::HEADER,
                format!("free list is longer than its count {}", header.freelist_count),
            ));
        }
        store.read_page(id, &mut buf)?;
        next = decode_free_page(id, &buf, header.page_count)?;
        pages.push(id);
        holder = id;
    }
    if pages.len() as u64 != u64::from(header.freelist_count) {
        return Err(Error::corrupt(
            PageId::HEADER,
            format!(
                "free list has {} pages but its count is {}",
                pages.len(),
                header.freelist_count
            ),
        ));
    }
    Ok(pages)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::page;

    /// Pages in a map, verified on read like the real stores.
    #[derive(Default)]
    struct MapStore(HashMap<PageId, Box<PageBuf>>);

    impl FreeListStore for MapStore {
        fn read_page(&mut self, id: PageId, buf: &mut PageBuf) -> Result<()> {
            let p = self.0.get(&id).ok_or_else(|| Error::corrupt(id, "never written"))?;
            buf.copy_from_slice(&p[..]);
            page::verify(id, buf)
        }
        fn write_page(&mut self, id: PageId, buf: &mut PageBuf) -> Result<()> {
            page::seal(id, buf);
            self.0.insert(id, Box::new(*buf));
            Ok(())
        }
    }

    fn setup(frees: &[u32], pages: u32) -> (MapStore, Header) {
        let mut store = MapStore::default();
        let mut h = Header { page_count: pages, ..Header::new() };
        for &p in frees {
            free(&mut store, &mut h, PageId(p)).unwrap();
        }
        (store, h)
    }

    #[test]
    fn lifo_reuse_then_growth() {
        let (mut s, mut h) = setup(&[2, 5], 6);
        assert_eq!(walk(&mut s, &h).unwrap(), [PageId(5), PageId(2)]);
        assert_eq!(allocate(&mut s, &mut h).unwrap(), PageId(5));
        assert_eq!(allocate(&mut s, &mut h).unwrap(), PageId(2));
        assert_eq!((h.freelist_head, h.freelist_count), (0, 0));
        assert_eq!(allocate(&mut s, &mut h).unwrap(), PageId(6));
        assert_eq!(h.page_count, 7);
    }

    #[test]
    fn free_rejects_bad_ids() {
        let (mut s, mut h) = setup(&[3], 5);
        let before = h.clone();
        assert!(matches!(free(&mut s, &mut h, PageId(0)), Err(Error::Corrupt { .. })));
        assert!(matches!(
            free(&mut s, &mut h, PageId(5)),
            Err(Error::OutOfRange { page: PageId(5), count: 5 })
        ));
        assert!(matches!(free(&mut s, &mut h, PageId(3)), Err(Error::Corrupt { .. })));
        assert_eq!(h, before, "a refused free must not touch the header");
    }

    #[test]
    fn walk_detects_cycle() {
        let (mut s, mut h) = setup(&[2, 3], 5);
        // Point page 2 (the tail) back at page 3 (the head): 3 -> 2 -> 3.
        let mut buf = new_page();
        encode_free_page(3, &mut buf);
        s.write_page(PageId(2), &mut buf).unwrap();
        h.freelist_count = 4;
        let err = walk(&mut s, &h).unwrap_err();
        assert!(
            matches!(err, Error::Corrupt { page: PageId(2), ref reason } if reason.contains("cycle")),
            "{err}"
        );
    }

    #[test]
    fn walk_detects_bad_magic_and_wrong_count() {
        let (mut s, mut h) = setup(&[2, 3], 5);
        h.freelist_count = 1;
        assert!(matches!(walk(&mut s, &h), Err(Error::Corrupt { page: PageId::HEADER, .. })));
        h.freelist_count = 3;
        assert!(matches!(walk(&mut s, &h), Err(Error::Corrupt { page: PageId::HEADER, .. })));
        h.freelist_count = 2;
        let mut buf = new_page();
        buf[0] = 7;
        s.write_page(PageId(2), &mut buf).unwrap();
        assert!(matches!(walk(&mut s, &h), Err(Error::Corrupt { page: PageId(2), .. })));
        // allocate pops 3, then refuses the corrupt page 2 without touching the header.
        assert_eq!(allocate(&mut s, &mut h).unwrap(), PageId(3));
        let before = h.clone();
        assert!(matches!(allocate(&mut s, &mut h), Err(Error::Corrupt { page: PageId(2), .. })));
        assert_eq!(h, before);
    }

    #[test]
    fn walk_detects_out_of_range_pointer() {
        let (mut s, mut h) = setup(&[4], 5);
        h.page_count = 4; // the database shrank under the list
        assert!(matches!(walk(&mut s, &h), Err(Error::Corrupt { page: PageId::HEADER, .. })));
        let (mut s, mut h) = setup(&[2, 4], 5);
        h.page_count = 4; // head 4 is out, but the check names the header
        assert!(walk(&mut s, &h).is_err());
        h.page_count = 5;
        let mut buf = new_page();
        encode_free_page(9, &mut buf);
        s.write_page(PageId(4), &mut buf).unwrap();
        assert!(matches!(walk(&mut s, &h), Err(Error::Corrupt { page: PageId(4), .. })));
    }
}
