//! One B+tree node on one page: the byte layout (see the module doc of
//! [`super`]), a validating read-only view ([`NodeRef`]), in-place edits
//! for the fast paths, and an owned [`Node`] for splits and merges.
//!
//! Every read of a cell is bounds-checked against the page: the bytes come
//! from disk, so an impossible value is `Error::Corrupt`, never a panic.

use asadb_pager::{PAGE_USABLE, PageBuf, PageId};

use crate::record::{get_varint, put_varint};
use crate::{Error, Result, corrupt};

/// Bytes of a page a node may use (the rest is the page checksum).
pub(crate) const USABLE: usize = PAGE_USABLE;
pub(crate) const TYPE_OFFSET: usize = 0;
pub(crate) const COUNT_OFFSET: usize = 2;
pub(crate) const CONTENT_OFFSET: usize = COUNT_OFFSET + size_of::<u16>();
pub(crate) const GARBAGE_OFFSET: usize = CONTENT_OFFSET + size_of::<u16>();
pub(crate) const RIGHT_OFFSET: usize = GARBAGE_OFFSET + size_of::<u16>();
pub(crate) const HEADER_SIZE: usize = RIGHT_OFFSET + size_of::<u32>();
/// Bytes for cells and their pointers.
pub(crate) const CAPACITY: usize = USABLE - HEADER_SIZE;
/// Largest key+value prefix kept in a cell. A cell is then at most
/// `MAX_LOCAL + 14` bytes, so four cells and their pointers always fit a
/// page: splits always produce two valid halves.
pub(crate) const MAX_LOCAL: usize = 1000;
/// Smallest prefix kept in a cell whose data spills (holds a table's key).
pub(crate) const MIN_LOCAL: usize = 256;
/// Overflow page layout: `u32` next page (0 = last), then data.
pub(crate) const OVERFLOW_DATA: usize = USABLE - size_of::<u32>();
/// Largest key + value the format accepts.
pub(crate) const MAX_DATA: usize = 1 << 31;

/// Which kind of tree a page belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Keys are 8-byte order-preserving row ids; leaves carry payloads.
    Table,
    /// Keys are arbitrary byte strings; leaves carry no payload.
    Index,
}

impl Kind {
    pub(crate) fn page_type(self, leaf: bool) -> u8 {
        match (self, leaf) {
            (Kind::Table, true) => 0x0D,
            (Kind::Table, false) => 0x05,
            (Kind::Index, true) => 0x0A,
            (Kind::Index, false) => 0x02,
        }
    }
}

pub(crate) fn get_u16(buf: &[u8], at: usize) -> usize {
    u16::from_le_bytes([buf[at], buf[at + 1]]) as usize
}

pub(crate) fn put_u16(buf: &mut [u8], at: usize, v: usize) {
    buf[at..at + 2].copy_from_slice(&(v as u16).to_le_bytes());
}

pub(crate) fn get_u32(buf: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([buf[at], buf[at + 1], buf[at + 2], buf[at + 3]])
}

pub(crate) fn put_u32(buf: &mut [u8], at: usize, v: u32) {
    buf[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

/// How many of `total` key+value bytes stay in the cell. Chosen (as SQLite
/// does) so the spilled rest fills whole overflow pages where possible.
pub(crate) fn local_len(total: usize) -> usize {
    if total <= MAX_LOCAL {
        return total;
    }
    let local = MIN_LOCAL + (total - MIN_LOCAL) % OVERFLOW_DATA;
    if local > MAX_LOCAL { MIN_LOCAL } else { local }
}

/// A parsed cell, borrowing the page.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cell<'a> {
    /// Left child (interior cells only, else 0).
    pub child: u32,
    pub key_len: usize,
    pub val_len: usize,
    /// The first `local_len(key_len + val_len)` bytes of key ++ value.
    pub local: &'a [u8],
    /// First overflow page, 0 if everything is local.
    pub overflow: u32,
    /// Bytes the cell occupies on the page.
    pub size: usize,
}

impl<'a> Cell<'a> {
    pub(crate) fn total(&self) -> usize {
        self.key_len + self.val_len
    }

    /// The key if it is entirely local.
    pub(crate) fn local_key(&self) -> Option<&'a [u8]> {
        (self.key_len <= self.local.len()).then(|| &self.local[..self.key_len])
    }

    /// The local part of the key.
    pub(crate) fn key_prefix(&self) -> &'a [u8] {
        &self.local[..self.key_len.min(self.local.len())]
    }

    /// The value if it is entirely local.
    pub(crate) fn local_value(&self) -> Option<&'a [u8]> {
        (self.overflow == 0).then(|| &self.local[self.key_len..])
    }

    /// Bytes on the overflow chain.
    pub(crate) fn spilled(&self) -> usize {
        self.total() - self.local.len()
    }
}

/// Parses the cell at `buf[at..]` (`buf` is the usable part of a page).
pub(crate) fn parse_cell(buf: &[u8], at: usize, interior: bool, kind: Kind) -> Result<Cell<'_>> {
    let mut pos = at;
    let child = if interior {
        if at + 4 > buf.len() {
            return corrupt!("cell at {at} runs past the page");
        }
        pos += 4;
        get_u32(buf, at)
    } else {
        0
    };
    let bad = || Error::Corrupt(format!("cell at {at} has a bad length"));
    let key_len = get_varint(buf, &mut pos).ok_or_else(bad)?;
    let val_len = if interior { 0 } else { get_varint(buf, &mut pos).ok_or_else(bad)? };
    if key_len > MAX_DATA as u64 || val_len > MAX_DATA as u64 {
        return Err(bad());
    }
    let (key_len, val_len) = (key_len as usize, val_len as usize);
    if kind == Kind::Table && key_len != 8 {
        return corrupt!("table cell at {at} has a {key_len}-byte key");
    }
    if kind == Kind::Index && val_len != 0 {
        return corrupt!("index cell at {at} has a value");
    }
    let total = key_len + val_len;
    let local = local_len(total);
    let ovf_bytes = if local < total { 4 } else { 0 };
    if pos + local + ovf_bytes > buf.len() {
        return corrupt!("cell at {at} runs past the page");
    }
    let overflow = if ovf_bytes > 0 { get_u32(buf, pos + local) } else { 0 };
    if ovf_bytes > 0 && overflow == 0 {
        return corrupt!("cell at {at} spills to page 0");
    }
    Ok(Cell {
        child,
        key_len,
        val_len,
        local: &buf[pos..pos + local],
        overflow,
        size: pos + local + ovf_bytes - at,
    })
}

/// Encodes a cell whose spilled part (if any) is already on a chain
/// starting at `overflow`. `data` is the local prefix of key ++ value.
pub(crate) fn encode_cell(
    child: Option<u32>,
    key_len: usize,
    val_len: usize,
    local: &[u8],
    overflow: u32,
) -> Vec<u8> {
    let mut cell = Vec::with_capacity(local.len() + 18);
    if let Some(c) = child {
        cell.extend_from_slice(&c.to_le_bytes());
    }
    put_varint(&mut cell, key_len as u64);
    if child.is_none() {
        put_varint(&mut cell, val_len as u64);
    }
    cell.extend_from_slice(local);
    if local.len() < key_len + val_len {
        cell.extend_from_slice(&overflow.to_le_bytes());
    }
    cell
}

/// Sets the child pointer of an encoded interior cell.
pub(crate) fn set_cell_child(cell: &mut [u8], child: u32) {
    cell[..4].copy_from_slice(&child.to_le_bytes());
}

/// A validated read-only view of a node page.
#[derive(Clone, Copy)]
pub(crate) struct NodeRef<'a> {
    buf: &'a [u8],
    pub id: PageId,
    pub kind: Kind,
    pub leaf: bool,
    pub count: usize,
}

impl<'a> NodeRef<'a> {
    /// Checks the header of page `id` (its type must belong to a `kind`
    /// tree and its cell pointer array must fit).
    pub(crate) fn new(page: &'a PageBuf, id: PageId, kind: Kind) -> Result<NodeRef<'a>> {
        let buf = &page[..USABLE];
        let leaf = match buf[TYPE_OFFSET] {
            t if t == kind.page_type(true) => true,
            t if t == kind.page_type(false) => false,
            t => return corrupt!("page {id} has type {t:#x}, not a {kind:?} tree node"),
        };
        let count = get_u16(buf, COUNT_OFFSET);
        let content = get_u16(buf, CONTENT_OFFSET);
        if HEADER_SIZE + 2 * count > content || content > USABLE {
            return corrupt!("page {id}: {count} cells and content start {content} overlap");
        }
        Ok(NodeRef { buf, id, kind, leaf, count })
    }

    /// The right-most child (interior nodes).
    pub(crate) fn right(&self) -> u32 {
        get_u32(self.buf, RIGHT_OFFSET)
    }

    pub(crate) fn content_start(&self) -> usize {
        get_u16(self.buf, CONTENT_OFFSET)
    }

    pub(crate) fn garbage(&self) -> usize {
        get_u16(self.buf, GARBAGE_OFFSET)
    }

    /// Bytes used by cells and cell pointers.
    pub(crate) fn used(&self) -> usize {
        (2 * self.count + USABLE - self.content_start()).saturating_sub(self.garbage())
    }

    pub(crate) fn cell_offset(&self, i: usize) -> Result<usize> {
        debug_assert!(i < self.count);
        let off = get_u16(self.buf, HEADER_SIZE + 2 * i);
        if off < self.content_start() || off >= USABLE {
            return corrupt!("page {}: cell {i} at {off} is outside the content area", self.id);
        }
        Ok(off)
    }

    pub(crate) fn cell(&self, i: usize) -> Result<Cell<'a>> {
        let off = self.cell_offset(i)?;
        parse_cell(self.buf, off, !self.leaf, self.kind)
    }

    /// Child `i` of an interior node: cell `i`'s child, or the right-most
    /// child for `i == count`.
    pub(crate) fn child(&self, i: usize) -> Result<PageId> {
        let c = if i == self.count { self.right() } else { self.cell(i)?.child };
        if c == 0 {
            return corrupt!("page {}: child {i} is page 0", self.id);
        }
        Ok(PageId(c))
    }

    /// Raw bytes of cell `i`.
    pub(crate) fn raw_cell(&self, i: usize) -> Result<&'a [u8]> {
        let off = self.cell_offset(i)?;
        let size = parse_cell(self.buf, off, !self.leaf, self.kind)?.size;
        Ok(&self.buf[off..off + size])
    }

    /// Full layout check: cells lie in the content area without
    /// overlapping, and cells + garbage account for every content byte.
    pub(crate) fn validate(&self) -> Result<()> {
        let mut spans = Vec::with_capacity(self.count);
        for i in 0..self.count {
            let off = self.cell_offset(i)?;
            spans.push((off, self.cell(i)?.size));
        }
        spans.sort_unstable();
        let mut end = self.content_start();
        let mut sum = 0;
        for &(off, size) in &spans {
            if off < end {
                return corrupt!("page {}: cells overlap at {off}", self.id);
            }
            end = off + size;
            sum += size;
        }
        if sum + self.garbage() != USABLE - self.content_start() {
            return corrupt!(
                "page {}: {sum} cell bytes + {} garbage != content area {}",
                self.id,
                self.garbage(),
                USABLE - self.content_start()
            );
        }
        if !self.leaf && self.right() == 0 {
            return corrupt!("page {}: interior node without a right-most child", self.id);
        }
        Ok(())
    }
}

/// Writes an empty node.
pub(crate) fn init_page(buf: &mut PageBuf, kind: Kind, leaf: bool) {
    buf[..HEADER_SIZE].fill(0);
    buf[TYPE_OFFSET] = kind.page_type(leaf);
    put_u16(buf, CONTENT_OFFSET, USABLE);
}

/// Inserts an encoded cell as cell `idx` of node page `id` in place.
/// Returns `false` (page unchanged) if it does not fit.
pub(crate) fn insert_cell(
    buf: &mut PageBuf,
    id: PageId,
    kind: Kind,
    idx: usize,
    cell: &[u8],
) -> Result<bool> {
    let node = NodeRef::new(buf, id, kind)?;
    let (count, garbage, mut content) = (node.count, node.garbage(), node.content_start());
    if idx > count {
        return corrupt!("page {id}: insert at {idx} past {count} cells");
    }
    let need = cell.len() + 2;
    let ptr_end = HEADER_SIZE + 2 * count;
    if content - ptr_end < need {
        if content - ptr_end + garbage < need {
            return Ok(false);
        }
        defragment(buf, id, kind)?;
        content = get_u16(buf, CONTENT_OFFSET);
        if content - ptr_end < need {
            return Ok(false);
        }
    }
    let at = content - cell.len();
    buf[at..content].copy_from_slice(cell);
    let p = HEADER_SIZE + 2 * idx;
    buf.copy_within(p..ptr_end, p + 2);
    put_u16(buf, p, at);
    put_u16(buf, COUNT_OFFSET, count + 1);
    put_u16(buf, CONTENT_OFFSET, at);
    Ok(true)
}

/// Removes cell `idx` of node page `id` in place; its bytes become garbage
/// (or return to the gap if it sits at the start of the content area).
pub(crate) fn remove_cell(buf: &mut PageBuf, id: PageId, kind: Kind, idx: usize) -> Result<()> {
    let node = NodeRef::new(buf, id, kind)?;
    if idx >= node.count {
        return corrupt!("page {id}: remove of cell {idx} of {}", node.count);
    }
    let off = node.cell_offset(idx)?;
    let size = node.cell(idx)?.size;
    let (count, garbage, content) = (node.count, node.garbage(), node.content_start());
    let p = HEADER_SIZE + 2 * idx;
    buf.copy_within(p + 2..HEADER_SIZE + 2 * count, p);
    put_u16(buf, COUNT_OFFSET, count - 1);
    if off == content {
        put_u16(buf, CONTENT_OFFSET, off + size);
    } else {
        put_u16(buf, GARBAGE_OFFSET, garbage + size);
    }
    Ok(())
}

/// Moves all cells to the end of the page, turning garbage into gap.
fn defragment(buf: &mut PageBuf, id: PageId, kind: Kind) -> Result<()> {
    let mut tmp = [0u8; USABLE];
    let mut at = USABLE;
    let mut offsets = Vec::new();
    {
        let node = NodeRef::new(buf, id, kind)?;
        let ptr_end = HEADER_SIZE + 2 * node.count;
        for i in 0..node.count {
            let cell = node.raw_cell(i)?;
            at = match at.checked_sub(cell.len()) {
                Some(a) if a >= ptr_end => a,
                _ => return corrupt!("page {id}: cells do not fit the page"),
            };
            tmp[at..at + cell.len()].copy_from_slice(cell);
            offsets.push(at);
        }
    }
    buf[at..USABLE].copy_from_slice(&tmp[at..USABLE]);
    for (i, off) in offsets.into_iter().enumerate() {
        put_u16(buf, HEADER_SIZE + 2 * i, off);
    }
    put_u16(buf, CONTENT_OFFSET, at);
    put_u16(buf, GARBAGE_OFFSET, 0);
    Ok(())
}

/// An owned node, for the slow paths (splits, merges, redistribution).
#[derive(Clone, Debug)]
pub(crate) struct Node {
    pub leaf: bool,
    pub cells: Vec<Vec<u8>>,
    /// Right-most child (interior only).
    pub right: u32,
}

impl Node {
    pub(crate) fn read(node: NodeRef<'_>) -> Result<Node> {
        let cells =
            (0..node.count).map(|i| node.raw_cell(i).map(<[u8]>::to_vec)).collect::<Result<_>>()?;
        if !node.leaf && node.right() == 0 {
            return corrupt!("page {}: interior node without a right-most child", node.id);
        }
        let node_out = Node { leaf: node.leaf, cells, right: node.right() };
        if node_out.size() > CAPACITY {
            return corrupt!("page {}: cells of {} bytes overlap", node.id, node_out.size());
        }
        Ok(node_out)
    }

    /// Bytes of cells and pointers.
    pub(crate) fn size(&self) -> usize {
        cells_size(&self.cells)
    }

    /// Child `i` (`i == cells.len()` is the right-most).
    pub(crate) fn child(&self, i: usize) -> u32 {
        if i == self.cells.len() { self.right } else { get_u32(&self.cells[i], 0) }
    }

    pub(crate) fn set_child(&mut self, i: usize, child: u32) {
        if i == self.cells.len() {
            self.right = child;
        } else {
            set_cell_child(&mut self.cells[i], child);
        }
    }

    /// Writes the node compactly. The caller guarantees it fits.
    pub(crate) fn write(&self, buf: &mut PageBuf, kind: Kind) {
        assert!(self.size() <= CAPACITY, "node of {} bytes written to a page", self.size());
        init_page(buf, kind, self.leaf);
        let mut at = USABLE;
        for (i, cell) in self.cells.iter().enumerate() {
            at -= cell.len();
            buf[at..at + cell.len()].copy_from_slice(cell);
            put_u16(buf, HEADER_SIZE + 2 * i, at);
        }
        put_u16(buf, COUNT_OFFSET, self.cells.len());
        put_u16(buf, CONTENT_OFFSET, at);
        if !self.leaf {
            put_u32(buf, RIGHT_OFFSET, self.right);
        }
    }
}

pub(crate) fn cells_size(cells: &[Vec<u8>]) -> usize {
    cells.iter().map(|c| c.len() + 2).sum()
}

/// Where to split `cells` so both halves fit a page and are as even as
/// possible. Leaves: left = `..m`, right = `m..`. Interior: cell `m` moves
/// up, left = `..m`, right = `m + 1..`.
pub(crate) fn split_point(cells: &[Vec<u8>], interior: bool) -> Result<usize> {
    let total = cells_size(cells);
    let (lo, hi) = if interior { (1, cells.len() - 1) } else { (1, cells.len()) };
    let mut best = None;
    let mut left = 0;
    for (m, cell) in cells.iter().enumerate().take(hi) {
        if m >= lo {
            let right = total - left - if interior { cell.len() + 2 } else { 0 };
            if left <= CAPACITY && right <= CAPACITY {
                let diff = left.abs_diff(right);
                if best.is_none_or(|(_, d)| diff < d) {
                    best = Some((m, diff));
                }
            }
        }
        left += cell.len() + 2;
    }
    match best {
        Some((m, _)) => Ok(m),
        None => corrupt!("{} cells of {total} bytes cannot be split in two pages", cells.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf_cell(key: &[u8], val: &[u8]) -> Vec<u8> {
        let mut local = key.to_vec();
        local.extend_from_slice(val);
        encode_cell(None, key.len(), val.len(), &local, 0)
    }

    #[test]
    fn local_len_fills_overflow_pages() {
        assert_eq!(local_len(10), 10);
        assert_eq!(local_len(MAX_LOCAL), MAX_LOCAL);
        for total in [MAX_LOCAL + 1, 5000, 100_000, MIN_LOCAL + OVERFLOW_DATA + 1] {
            let l = local_len(total);
            assert!((MIN_LOCAL..=MAX_LOCAL).contains(&l), "{total} -> {l}");
        }
        // The spilled part fills whole pages when the remainder fits the cell.
        assert_eq!((5000 - local_len(5000)) % OVERFLOW_DATA, 0);
    }

    #[test]
    fn insert_remove_defragment() {
        let mut page = [0u8; asadb_pager::PAGE_SIZE];
        init_page(&mut page, Kind::Index, true);
        let id = PageId(1);
        let mut n = 0;
        loop {
            let key = format!("key{n:05}").repeat(10);
            let cell = leaf_cell(key.as_bytes(), &[]);
            let copy = page;
            if !insert_cell(&mut page, id, Kind::Index, n, &cell).unwrap() {
                assert_eq!(copy, page, "a failed insert leaves the page unchanged");
                break;
            }
            n += 1;
        }
        assert!(n > 40);
        // Remove every other cell, then the freed space is reusable.
        for i in (0..n / 2).rev() {
            remove_cell(&mut page, id, Kind::Index, 2 * i).unwrap();
        }
        let node = NodeRef::new(&page, id, Kind::Index).unwrap();
        node.validate().unwrap();
        assert!(node.garbage() > 0);
        let cell = leaf_cell(&[b'z'; 300], &[]);
        let count = node.count;
        assert!(insert_cell(&mut page, id, Kind::Index, count, &cell).unwrap());
        let node = NodeRef::new(&page, id, Kind::Index).unwrap();
        node.validate().unwrap();
        assert_eq!(node.cell(count).unwrap().local_key().unwrap(), &[b'z'; 300]);
        assert_eq!(node.cell(0).unwrap().local_key().unwrap(), "key00001".repeat(10).as_bytes());
    }

    #[test]
    fn bad_headers_and_cells_are_corrupt() {
        let mut page = [0u8; asadb_pager::PAGE_SIZE];
        assert!(NodeRef::new(&page, PageId(1), Kind::Table).is_err());
        init_page(&mut page, Kind::Table, true);
        assert!(NodeRef::new(&page, PageId(1), Kind::Index).is_err());
        put_u16(&mut page, COUNT_OFFSET, 3000);
        assert!(NodeRef::new(&page, PageId(1), Kind::Table).is_err());
        put_u16(&mut page, COUNT_OFFSET, 1);
        put_u16(&mut page, CONTENT_OFFSET, 4000);
        put_u16(&mut page, HEADER_SIZE, 4090);
        page[4090] = 8;
        page[4091] = 200;
        let node = NodeRef::new(&page, PageId(1), Kind::Table).unwrap();
        assert!(matches!(node.cell(0), Err(Error::Corrupt(_))));
    }
}
