//! The log file (`<db>-wal`): its byte format, frame encoding and the
//! recovery scan.
//!
//! ```text
//! log header (WAL_HEADER_SIZE = 32 bytes)
//! offset size field
//!      0    8 WAL_MAGIC        b"AsaWAL\r\n"
//!      8    4 WAL_VERSION      u32 LE, currently 1
//!     12    4 PAGE_SIZE        u32 LE, 4096
//!     16    4 CKPT_SEQ         u32 LE, incremented by every log reset
//!     20    4 SALT1            u32 LE, random, new at every reset
//!     24    4 SALT2            u32 LE, random, new at every reset
//!     28    4 HEADER_CHECKSUM  CRC-32 of bytes 0..28
//!
//! frame n (1-based) at WAL_HEADER_SIZE + (n - 1) * FRAME_SIZE
//! offset size field
//!      0    4 PAGE_ID          u32 LE
//!      4    4 COMMIT_SIZE      u32 LE, page count after commit on a commit frame, else 0
//!      8    4 SALT1            copy of the log header's
//!     12    4 SALT2            copy of the log header's
//!     16    4 RESERVED         zero
//!     20    4 FRAME_CHECKSUM   see below
//!     24 4096 page image       sealed with its own page checksum
//! ```
//!
//! The frame checksums form a chain: `FRAME_CHECKSUM(n) = crc32(prev LE ++
//! frame header bytes 0..20 ++ page image)` where `prev` is the checksum of
//! frame `n - 1`, or `HEADER_CHECKSUM` for frame 1. A frame is valid when
//! its salts equal the header's and its checksum verifies against the chain;
//! the scan stops at the first invalid frame. Stale frames of an earlier
//! generation carry other salts; frames left behind by a rolled-back
//! transaction fail the chain as soon as a later transaction rewrote one of
//! the frames before them, and in any case no commit frame follows them.

use std::sync::Arc;

use asadb_pager::{Header, Io, PAGE_SIZE, PageBuf, PageId, page};

/// Log file magic.
pub const WAL_MAGIC: [u8; 8] = *b"AsaWAL\r\n";
/// Log format version.
pub const WAL_VERSION: u32 = 1;

pub const WAL_MAGIC_OFFSET: usize = 0;
pub const WAL_VERSION_OFFSET: usize = WAL_MAGIC_OFFSET + WAL_MAGIC.len();
pub const WAL_PAGE_SIZE_OFFSET: usize = WAL_VERSION_OFFSET + size_of::<u32>();
pub const WAL_CKPT_SEQ_OFFSET: usize = WAL_PAGE_SIZE_OFFSET + size_of::<u32>();
pub const WAL_SALT1_OFFSET: usize = WAL_CKPT_SEQ_OFFSET + size_of::<u32>();
pub const WAL_SALT2_OFFSET: usize = WAL_SALT1_OFFSET + size_of::<u32>();
pub const WAL_HEADER_CHECKSUM_OFFSET: usize = WAL_SALT2_OFFSET + size_of::<u32>();
/// Size of the log header.
pub const WAL_HEADER_SIZE: usize = WAL_HEADER_CHECKSUM_OFFSET + size_of::<u32>();

pub const FRAME_PAGE_OFFSET: usize = 0;
pub const FRAME_COMMIT_OFFSET: usize = FRAME_PAGE_OFFSET + size_of::<u32>();
pub const FRAME_SALT1_OFFSET: usize = FRAME_COMMIT_OFFSET + size_of::<u32>();
pub const FRAME_SALT2_OFFSET: usize = FRAME_SALT1_OFFSET + size_of::<u32>();
pub const FRAME_RESERVED_OFFSET: usize = FRAME_SALT2_OFFSET + size_of::<u32>();
pub const FRAME_CHECKSUM_OFFSET: usize = FRAME_RESERVED_OFFSET + size_of::<u32>();
/// Size of a frame header.
pub const FRAME_HEADER_SIZE: usize = FRAME_CHECKSUM_OFFSET + size_of::<u32>();
/// Size of a frame: header plus page image.
pub const FRAME_SIZE: usize = FRAME_HEADER_SIZE + PAGE_SIZE;

/// A frame number: 1-based position in the log.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FrameId(pub u32);

impl FrameId {
    /// Byte offset of the frame in the log file.
    pub fn offset(self) -> u64 {
        debug_assert!(self.0 >= 1, "frame numbers start at 1");
        WAL_HEADER_SIZE as u64 + u64::from(self.0 - 1) * FRAME_SIZE as u64
    }

    /// Byte offset of the frame's page image.
    pub fn page_offset(self) -> u64 {
        self.offset() + FRAME_HEADER_SIZE as u64
    }
}

/// The decoded log header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WalHeader {
    pub ckpt_seq: u32,
    pub salt1: u32,
    pub salt2: u32,
}

fn get_u32(buf: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(buf[at..at + 4].try_into().expect("4 bytes"))
}

fn put_u32(buf: &mut [u8], at: usize, v: u32) {
    buf[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

impl WalHeader {
    /// A header with fresh random salts.
    pub fn fresh(ckpt_seq: u32) -> Self {
        WalHeader { ckpt_seq, salt1: rand::random(), salt2: rand::random() }
    }

    /// Encodes the header; returns the bytes and the header checksum that
    /// seeds the frame chain.
    pub fn encode(&self) -> ([u8; WAL_HEADER_SIZE], u32) {
        let mut b = [0u8; WAL_HEADER_SIZE];
        b[..WAL_VERSION_OFFSET].copy_from_slice(&WAL_MAGIC);
        put_u32(&mut b, WAL_VERSION_OFFSET, WAL_VERSION);
        put_u32(&mut b, WAL_PAGE_SIZE_OFFSET, PAGE_SIZE as u32);
        put_u32(&mut b, WAL_CKPT_SEQ_OFFSET, self.ckpt_seq);
        put_u32(&mut b, WAL_SALT1_OFFSET, self.salt1);
        put_u32(&mut b, WAL_SALT2_OFFSET, self.salt2);
        let sum = crc32fast::hash(&b[..WAL_HEADER_CHECKSUM_OFFSET]);
        put_u32(&mut b, WAL_HEADER_CHECKSUM_OFFSET, sum);
        (b, sum)
    }

    /// Decodes a header; `None` for anything invalid (a log with an invalid
    /// header is treated as empty).
    pub fn decode(b: &[u8]) -> Option<(Self, u32)> {
        if b.len() < WAL_HEADER_SIZE
            || b[..WAL_VERSION_OFFSET] != WAL_MAGIC
            || get_u32(b, WAL_VERSION_OFFSET) != WAL_VERSION
            || get_u32(b, WAL_PAGE_SIZE_OFFSET) != PAGE_SIZE as u32
        {
            return None;
        }
        let sum = crc32fast::hash(&b[..WAL_HEADER_CHECKSUM_OFFSET]);
        if sum != get_u32(b, WAL_HEADER_CHECKSUM_OFFSET) {
            return None;
        }
        let h = WalHeader {
            ckpt_seq: get_u32(b, WAL_CKPT_SEQ_OFFSET),
            salt1: get_u32(b, WAL_SALT1_OFFSET),
            salt2: get_u32(b, WAL_SALT2_OFFSET),
        };
        Some((h, sum))
    }
}

/// The chained checksum of a frame.
fn frame_checksum(prev: u32, fields: &[u8], image: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(&prev.to_le_bytes());
    h.update(&fields[..FRAME_CHECKSUM_OFFSET]);
    h.update(image);
    h.finalize()
}

/// Encodes a frame header for `image` (already sealed); returns it and the
/// frame's checksum (the next frame's `prev`).
pub fn encode_frame_header(
    hdr: &WalHeader,
    page: PageId,
    commit_size: u32,
    prev: u32,
    image: &PageBuf,
) -> ([u8; FRAME_HEADER_SIZE], u32) {
    let mut b = [0u8; FRAME_HEADER_SIZE];
    put_u32(&mut b, FRAME_PAGE_OFFSET, page.0);
    put_u32(&mut b, FRAME_COMMIT_OFFSET, commit_size);
    put_u32(&mut b, FRAME_SALT1_OFFSET, hdr.salt1);
    put_u32(&mut b, FRAME_SALT2_OFFSET, hdr.salt2);
    let sum = frame_checksum(prev, &b, image);
    put_u32(&mut b, FRAME_CHECKSUM_OFFSET, sum);
    (b, sum)
}

/// What the recovery scan found.
#[derive(Debug)]
pub struct Scan {
    /// The valid log header, or `None` (missing, short or invalid: the log
    /// is empty and must be rewritten before use).
    pub header: Option<(WalHeader, u32)>,
    /// Page id of every frame `1..=mx_frame`, in order.
    pub pages: Vec<PageId>,
    /// The last commit frame (0 = none).
    pub mx_frame: u32,
    /// Chain checksum after `mx_frame` (the header checksum when 0).
    pub chain: u32,
    /// The database header of the last commit, if any.
    pub db_header: Option<Header>,
}

/// Frames read per IO call during the scan.
const SCAN_BATCH: usize = 256;

/// Scans the log: the committed prefix of valid frames.
pub fn scan(io: &Arc<dyn Io>) -> std::io::Result<Scan> {
    let len = io.len()?;
    let mut empty =
        Scan { header: None, pages: Vec::new(), mx_frame: 0, chain: 0, db_header: None };
    if len < WAL_HEADER_SIZE as u64 {
        return Ok(empty);
    }
    let mut hb = [0u8; WAL_HEADER_SIZE];
    io.read_at(&mut hb, 0)?;
    let Some((hdr, hsum)) = WalHeader::decode(&hb) else {
        return Ok(empty);
    };
    empty.header = Some((hdr, hsum));
    empty.chain = hsum;
    let mut scan = empty;
    let whole = ((len - WAL_HEADER_SIZE as u64) / FRAME_SIZE as u64).min(u64::from(u32::MAX - 1));
    let whole = whole as u32;
    let mut prev = hsum;
    let mut pending: Vec<PageId> = Vec::new();
    let mut buf = vec![0u8; SCAN_BATCH * FRAME_SIZE];
    let mut next = 1u32;
    'outer: while next <= whole {
        let n = (whole - next + 1).min(SCAN_BATCH as u32) as usize;
        let chunk = &mut buf[..n * FRAME_SIZE];
        io.read_at(chunk, FrameId(next).offset())?;
        for i in 0..n {
            let f = &chunk[i * FRAME_SIZE..(i + 1) * FRAME_SIZE];
            let (fields, image) = f.split_at(FRAME_HEADER_SIZE);
            if get_u32(fields, FRAME_SALT1_OFFSET) != hdr.salt1
                || get_u32(fields, FRAME_SALT2_OFFSET) != hdr.salt2
                || get_u32(fields, FRAME_RESERVED_OFFSET) != 0
            {
                break 'outer;
            }
            let sum = frame_checksum(prev, fields, image);
            if sum != get_u32(fields, FRAME_CHECKSUM_OFFSET) {
                break 'outer;
            }
            let page = PageId(get_u32(fields, FRAME_PAGE_OFFSET));
            let commit = get_u32(fields, FRAME_COMMIT_OFFSET);
            prev = sum;
            pending.push(page);
            if commit != 0 {
                // A commit frame is always the header page; anything else is
                // not something this code wrote, so the valid log ends here.
                let image: &PageBuf = image.try_into().expect("page-sized image");
                if page != PageId::HEADER || page::verify(page, image).is_err() {
                    break 'outer;
                }
                let Ok(h) = Header::decode(image) else { break 'outer };
                if h.page_count != commit {
                    break 'outer;
                }
                scan.pages.append(&mut pending);
                scan.mx_frame = next + i as u32;
                scan.chain = sum;
                scan.db_header = Some(h);
            }
        }
        next += n as u32;
    }
    Ok(scan)
}

#[cfg(test)]
mod tests {
    use asadb_pager::MemIo;
    use asadb_pager::page::new_page;

    use super::*;

    fn frame(io: &MemIo, hdr: &WalHeader, n: u32, page: PageId, commit: u32, prev: u32) -> u32 {
        let mut img = new_page();
        if page == PageId::HEADER {
            Header { page_count: commit.max(1), ..Header::new() }.encode(&mut img);
        } else {
            img[0] = n as u8;
            asadb_pager::page::seal(page, &mut img);
        }
        let (fh, sum) = encode_frame_header(hdr, page, commit, prev, &img);
        io.write_at(&fh, FrameId(n).offset()).unwrap();
        io.write_at(&img[..], FrameId(n).page_offset()).unwrap();
        sum
    }

    #[test]
    fn header_roundtrip_and_rejects_flips() {
        let h = WalHeader::fresh(3);
        let (b, sum) = h.encode();
        assert_eq!(WalHeader::decode(&b), Some((h, sum)));
        for i in 0..WAL_HEADER_SIZE {
            let mut c = b;
            c[i] ^= 0x10;
            assert_eq!(WalHeader::decode(&c), None, "flip at byte {i} accepted");
        }
    }

    #[test]
    fn scan_stops_at_last_commit_and_broken_chain() {
        let mem = Arc::new(MemIo::new());
        let hdr = WalHeader::fresh(0);
        let (hb, hsum) = hdr.encode();
        mem.write_at(&hb, 0).unwrap();
        let s1 = frame(&mem, &hdr, 1, PageId(1), 0, hsum);
        let s2 = frame(&mem, &hdr, 2, PageId(0), 2, s1);
        let s3 = frame(&mem, &hdr, 3, PageId(1), 0, s2);
        let s4 = frame(&mem, &hdr, 4, PageId(0), 2, s3);
        // Frame 5: uncommitted tail.
        frame(&mem, &hdr, 5, PageId(1), 0, s4);
        let io: Arc<dyn Io> = mem.clone();
        let s = scan(&io).unwrap();
        assert_eq!(s.mx_frame, 4);
        assert_eq!(s.chain, s4);
        assert_eq!(s.pages, [PageId(1), PageId(0), PageId(1), PageId(0)]);
        // Break frame 3's image: only the first commit survives.
        mem.write_at(&[0xAA], FrameId(3).page_offset() + 7).unwrap();
        let s = scan(&io).unwrap();
        assert_eq!((s.mx_frame, s.chain), (2, s2));
        // Garbage header: empty log.
        mem.write_at(&[0], 0).unwrap();
        let s = scan(&io).unwrap();
        assert!(s.header.is_none());
        assert_eq!(s.mx_frame, 0);
    }
}
