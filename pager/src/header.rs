//! The header page (page 0).
//!
//! ```text
//! offset size field
//!      0    8 MAGIC            b"AsaDB\0\r\n" (CR LF catch text-mode mangling)
//!      8    4 FORMAT_VERSION   u32 LE, currently 1
//!     12    4 PAGE_SIZE        u32 LE, 4096
//!     16    4 PAGE_COUNT       u32 LE, pages in the database, header included
//!     20    4 FREELIST_HEAD    u32 LE, first free page, 0 = none
//!     24    4 FREELIST_COUNT   u32 LE, pages on the free list
//!     28    4 CATALOG_ROOT     u32 LE, root page of the SQL catalog, 0 = none
//!     32    8 CHANGE_COUNTER   u64 LE, incremented by every commit
//!     40   32 USER             8 × u32 LE, reserved for upper layers
//!     72 4020 zero
//!   4092    4 page checksum (see `page`)
//! ```

use crate::page::{self, PageBuf, PageId};
use crate::{Error, Result};

/// File magic.
pub const MAGIC: [u8; 8] = *b"AsaDB\0\r\n";
/// The format version this code writes and reads.
pub const FORMAT_VERSION: u32 = 1;

pub const MAGIC_OFFSET: usize = 0;
pub const FORMAT_VERSION_OFFSET: usize = MAGIC_OFFSET + MAGIC.len();
pub const PAGE_SIZE_OFFSET: usize = FORMAT_VERSION_OFFSET + size_of::<u32>();
pub const PAGE_COUNT_OFFSET: usize = PAGE_SIZE_OFFSET + size_of::<u32>();
pub const FREELIST_HEAD_OFFSET: usize = PAGE_COUNT_OFFSET + size_of::<u32>();
pub const FREELIST_COUNT_OFFSET: usize = FREELIST_HEAD_OFFSET + size_of::<u32>();
pub const CATALOG_ROOT_OFFSET: usize = FREELIST_COUNT_OFFSET + size_of::<u32>();
pub const CHANGE_COUNTER_OFFSET: usize = CATALOG_ROOT_OFFSET + size_of::<u32>();
pub const USER_OFFSET: usize = CHANGE_COUNTER_OFFSET + size_of::<u64>();
/// Number of reserved `u32` slots for upper layers.
pub const USER_SLOTS: usize = 8;
pub const HEADER_END: usize = USER_OFFSET + USER_SLOTS * size_of::<u32>();

/// The decoded header page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Pages in the database, the header page included.
    pub page_count: u32,
    /// First page of the free list, or 0.
    pub freelist_head: u32,
    /// Length of the free list.
    pub freelist_count: u32,
    /// Root page of the SQL catalog, or 0 before the catalog exists.
    pub catalog_root: u32,
    /// Incremented by every commit.
    pub change_counter: u64,
    /// Slots reserved for upper layers (e.g. a schema version).
    pub user: [u32; USER_SLOTS],
}

impl Default for Header {
    fn default() -> Self {
        Self::new()
    }
}

impl Header {
    /// The header of an empty database: one page, the header itself.
    pub fn new() -> Self {
        Header {
            page_count: 1,
            freelist_head: 0,
            freelist_count: 0,
            catalog_root: 0,
            change_counter: 0,
            user: [0; USER_SLOTS],
        }
    }

    /// Encodes into a full page and seals its checksum.
    pub fn encode(&self, buf: &mut PageBuf) {
        buf.fill(0);
        buf[MAGIC_OFFSET..FORMAT_VERSION_OFFSET].copy_from_slice(&MAGIC);
        put_u32(buf, FORMAT_VERSION_OFFSET, FORMAT_VERSION);
        put_u32(buf, PAGE_SIZE_OFFSET, page::PAGE_SIZE as u32);
        put_u32(buf, PAGE_COUNT_OFFSET, self.page_count);
        put_u32(buf, FREELIST_HEAD_OFFSET, self.freelist_head);
        put_u32(buf, FREELIST_COUNT_OFFSET, self.freelist_count);
        put_u32(buf, CATALOG_ROOT_OFFSET, self.catalog_root);
        buf[CHANGE_COUNTER_OFFSET..USER_OFFSET].copy_from_slice(&self.change_counter.to_le_bytes());
        for (i, v) in self.user.iter().enumerate() {
            put_u32(buf, USER_OFFSET + i * 4, *v);
        }
        page::seal(PageId::HEADER, buf);
    }

    /// Decodes and validates a header page: checksum, magic, version, page
    /// size and the consistency of its counts.
    pub fn decode(buf: &PageBuf) -> Result<Self> {
        if buf[MAGIC_OFFSET..FORMAT_VERSION_OFFSET] != MAGIC {
            return Err(Error::NotADatabase("bad magic number".into()));
        }
        page::verify(PageId::HEADER, buf)?;
        let version = get_u32(buf, FORMAT_VERSION_OFFSET);
        if version != FORMAT_VERSION {
            return Err(Error::NotADatabase(format!(
                "format version {version} is not supported (this build reads {FORMAT_VERSION})"
            )));
        }
        let page_size = get_u32(buf, PAGE_SIZE_OFFSET);
        if page_size as usize != page::PAGE_SIZE {
            return Err(Error::NotADatabase(format!("page size {page_size} is not supported")));
        }
        let mut user = [0; USER_SLOTS];
        for (i, v) in user.iter_mut().enumerate() {
            *v = get_u32(buf, USER_OFFSET + i * 4);
        }
        let header = Header {
            page_count: get_u32(buf, PAGE_COUNT_OFFSET),
            freelist_head: get_u32(buf, FREELIST_HEAD_OFFSET),
            freelist_count: get_u32(buf, FREELIST_COUNT_OFFSET),
            catalog_root: get_u32(buf, CATALOG_ROOT_OFFSET),
            change_counter: u64::from_le_bytes(
                buf[CHANGE_COUNTER_OFFSET..USER_OFFSET].try_into().expect("8 bytes"),
            ),
            user,
        };
        let bad = |reason: &str| Err(Error::corrupt(PageId::HEADER, reason));
        if header.page_count == 0 {
            return bad("page count is zero");
        }
        if header.freelist_count >= header.page_count {
            return bad("free list longer than the database");
        }
        if header.freelist_head >= header.page_count || header.catalog_root >= header.page_count {
            return bad("page pointer past the end of the database");
        }
        if (header.freelist_head == 0) != (header.freelist_count == 0) {
            return bad("free-list head and count disagree");
        }
        Ok(header)
    }
}

pub(crate) fn get_u32(buf: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(buf[at..at + 4].try_into().expect("4 bytes"))
}

pub(crate) fn put_u32(buf: &mut [u8], at: usize, v: u32) {
    buf[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::new_page;

    #[test]
    fn roundtrip() {
        let mut h = Header::new();
        h.page_count = 10;
        h.freelist_head = 4;
        h.freelist_count = 2;
        h.catalog_root = 3;
        h.change_counter = 99;
        h.user[7] = 5;
        let mut p = new_page();
        h.encode(&mut p);
        assert_eq!(Header::decode(&p).unwrap(), h);
    }

    #[test]
    fn rejects_garbage() {
        let p = new_page();
        assert!(matches!(Header::decode(&p), Err(Error::NotADatabase(_))));
        let mut p = new_page();
        Header::new().encode(&mut p);
        p[PAGE_COUNT_OFFSET] ^= 0xff;
        assert!(matches!(Header::decode(&p), Err(Error::Corrupt { .. })));
    }
}
