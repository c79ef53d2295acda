//! Page identity and the per-page checksum.
//!
//! Layout of every page (header page included):
//!
//! ```text
//! 0 .. 4092   content, owned by the layer that uses the page
//! 4092 .. 4096  CRC-32 (crc32fast, IEEE) of page id (u32 LE) ++ bytes 0..4092, LE
//! ```
//!
//! Mixing the page id into the checksum catches a page written to, or read
//! from, the wrong offset. An all-zero page never verifies, so a hole in the
//! file (a page allocated but never written) reads as corrupt, not as data.

use crate::{Error, Result};

/// Size of a page on disk and in memory.
pub const PAGE_SIZE: usize = 4096;
/// Bytes of a page available to its owner; the rest is the checksum.
pub const PAGE_USABLE: usize = PAGE_SIZE - CHECKSUM_SIZE;
/// Offset of the page checksum.
pub const CHECKSUM_OFFSET: usize = PAGE_USABLE;
const CHECKSUM_SIZE: usize = size_of::<u32>();

/// One page of bytes.
pub type PageBuf = [u8; PAGE_SIZE];

/// A page number: byte offset `id * PAGE_SIZE` in the main file. Page 0 is
/// the header page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PageId(pub u32);

impl PageId {
    /// The header page.
    pub const HEADER: PageId = PageId(0);

    /// Byte offset of this page in the main file.
    pub fn offset(self) -> u64 {
        self.0 as u64 * PAGE_SIZE as u64
    }
}

impl std::fmt::Display for PageId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// A zeroed, heap-allocated page.
pub fn new_page() -> Box<PageBuf> {
    Box::new([0u8; PAGE_SIZE])
}

/// Computes the checksum of `buf` as page `id`.
pub fn checksum(id: PageId, buf: &PageBuf) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(&id.0.to_le_bytes());
    h.update(&buf[..PAGE_USABLE]);
    h.finalize()
}

/// Writes the checksum of page `id` into its last four bytes.
pub fn seal(id: PageId, buf: &mut PageBuf) {
    let sum = checksum(id, buf);
    buf[CHECKSUM_OFFSET..].copy_from_slice(&sum.to_le_bytes());
}

/// Checks the stored checksum of page `id`.
pub fn verify(id: PageId, buf: &PageBuf) -> Result<()> {
    let stored = u32::from_le_bytes(buf[CHECKSUM_OFFSET..].try_into().expect("4 bytes"));
    if stored != checksum(id, buf) {
        return Err(Error::corrupt(id, "checksum mismatch"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seal_then_verify() {
        let mut p = new_page();
        p[0..5].copy_from_slice(b"hello");
        seal(PageId(7), &mut p);
        verify(PageId(7), &p).unwrap();
        // Same bytes read as another page: wrong location is detected.
        assert!(matches!(verify(PageId(8), &p), Err(Error::Corrupt { page: PageId(8), .. })));
        // A flipped bit is detected.
        p[100] ^= 1;
        assert!(verify(PageId(7), &p).is_err());
    }

    #[test]
    fn zero_page_does_not_verify() {
        assert!(verify(PageId(3), &new_page()).is_err());
    }
}
