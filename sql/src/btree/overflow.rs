//! Overflow chains: the part of a cell's key + value that does not fit in
//! the cell. Each overflow page is `u32` LE next page (0 = last) followed
//! by up to [`OVERFLOW_DATA`] bytes of data; the cell records the total
//! length, so the length of the last page's data is implied.

use asadb_pager::PageId;

use super::node::{OVERFLOW_DATA, get_u32, put_u32};
use super::{PageUsage, Storage, StorageMut};
use crate::{Result, corrupt};

/// Pages needed for `len` spilled bytes.
pub(crate) fn pages_for(len: usize) -> usize {
    len.div_ceil(OVERFLOW_DATA)
}

/// Writes `data` to a new chain, returning its first page (0 if empty).
pub(crate) fn write_chain<T: StorageMut>(tx: &T, data: &[u8]) -> Result<u32> {
    // Back to front, so each page knows its successor when written.
    let mut next = 0u32;
    for chunk in data.chunks(OVERFLOW_DATA).rev() {
        let (id, mut page) = tx.allocate()?;
        put_u32(&mut page[..], 0, next);
        page[4..4 + chunk.len()].copy_from_slice(chunk);
        next = id.0;
    }
    Ok(next)
}

/// Appends the `len` bytes of the chain at `first` to `out`.
pub(crate) fn read_chain<T: Storage>(
    tx: &T,
    first: u32,
    len: usize,
    out: &mut Vec<u8>,
) -> Result<()> {
    out.reserve(len);
    let mut page = first;
    let mut left = len;
    while left > 0 {
        if page == 0 {
            return corrupt!("overflow chain ends {left} bytes early");
        }
        let buf = tx.page(PageId(page))?;
        let n = left.min(OVERFLOW_DATA);
        out.extend_from_slice(&buf[4..4 + n]);
        left -= n;
        page = get_u32(&buf[..], 0);
    }
    if page != 0 {
        return corrupt!("overflow chain continues past its {len} bytes to page {page}");
    }
    Ok(())
}

/// Frees the chain at `first` holding `len` bytes.
pub(crate) fn free_chain<T: StorageMut>(tx: &T, first: u32, len: usize) -> Result<()> {
    let mut page = first;
    for _ in 0..pages_for(len) {
        if page == 0 {
            return corrupt!("overflow chain of {len} bytes ends early");
        }
        let next = get_u32(&tx.page(PageId(page))?[..], 0);
        tx.free(PageId(page))?;
        page = next;
    }
    Ok(())
}

/// Marks every page of the chain in `usage`, checking its length.
pub(crate) fn check_chain<T: Storage>(
    tx: &T,
    first: u32,
    len: usize,
    usage: &mut PageUsage,
) -> Result<usize> {
    let mut page = first;
    let pages = pages_for(len);
    for _ in 0..pages {
        if page == 0 {
            return corrupt!("overflow chain of {len} bytes ends early");
        }
        usage.mark(PageId(page))?;
        page = get_u32(&tx.page(PageId(page))?[..], 0);
    }
    if page != 0 {
        return corrupt!("overflow chain of {len} bytes continues to page {page}");
    }
    Ok(pages)
}
