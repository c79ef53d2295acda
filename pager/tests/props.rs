//! Property tests of the on-disk encodings and the free list.
//!
//! Invariants pinned:
//! - a header encodes and decodes to itself, and decode accepts exactly the
//!   headers whose counts are consistent (never panics on any field values);
//! - a sealed page verifies, and every single-bit flip anywhere in it (the
//!   checksum included) is detected as `Corrupt` on that page;
//! - the free list against a model: no page is handed out twice, freed pages
//!   are reused (LIFO) before the file grows, `walk` equals the model's free
//!   list, and page count = header + allocated + free.

use std::collections::{BTreeSet, HashMap};

use asadb_pager::freelist::{self, FreeListStore};
use asadb_pager::page::{self, new_page};
use asadb_pager::{Error, Header, PAGE_SIZE, PageBuf, PageId, Result};
use proptest::prelude::*;

fn consistent(h: &Header) -> bool {
    h.page_count > 0
        && h.freelist_count < h.page_count
        && h.freelist_head < h.page_count
        && h.catalog_root < h.page_count
        && (h.freelist_head == 0) == (h.freelist_count == 0)
}

fn any_header() -> impl Strategy<Value = Header> {
    (any::<[u32; 4]>(), any::<u64>(), any::<[u32; 8]>()).prop_map(|(n, change_counter, user)| {
        Header {
            page_count: n[0],
            freelist_head: n[1],
            freelist_count: n[2],
            catalog_root: n[3],
            change_counter,
            user,
        }
    })
}

fn valid_header() -> impl Strategy<Value = Header> {
    (1..=u32::MAX)
        .prop_flat_map(|pages| (Just(pages), 0..pages, 1..pages.max(2), 0..pages))
        .prop_flat_map(|(pages, count, head, root)| {
            (any::<u64>(), any::<[u32; 8]>()).prop_map(move |(change_counter, user)| Header {
                page_count: pages,
                freelist_head: if count == 0 { 0 } else { head },
                freelist_count: count,
                catalog_root: root,
                change_counter,
                user,
            })
        })
        .prop_filter("head needs a page besides the header", consistent)
}

proptest! {
    #[test]
    fn header_roundtrip(h in valid_header()) {
        let mut buf = new_page();
        h.encode(&mut buf);
        prop_assert_eq!(Header::decode(&buf).unwrap(), h);
    }

    #[test]
    fn header_decode_accepts_exactly_consistent(h in any_header()) {
        let mut buf = new_page();
        h.encode(&mut buf);
        match Header::decode(&buf) {
            Ok(back) => {
                prop_assert!(consistent(&h));
                prop_assert_eq!(back, h);
            }
            Err(Error::Corrupt { page, .. }) => {
                prop_assert!(!consistent(&h));
                prop_assert_eq!(page, PageId::HEADER);
            }
            Err(other) => prop_assert!(false, "unexpected error {other}"),
        }
    }

    #[test]
    fn header_decode_never_panics_on_bytes(bytes in proptest::collection::vec(any::<u8>(), PAGE_SIZE)) {
        let buf: &PageBuf = bytes.as_slice().try_into().unwrap();
        let _ = Header::decode(buf);
    }

    #[test]
    fn seal_verify_detects_every_bit_flip(
        bytes in proptest::collection::vec(any::<u8>(), PAGE_SIZE),
        id in any::<u32>(),
        bit in 0..PAGE_SIZE * 8,
    ) {
        let mut buf = new_page();
        buf.copy_from_slice(&bytes);
        let id = PageId(id);
        page::seal(id, &mut buf);
        prop_assert!(page::verify(id, &buf).is_ok());
        buf[bit / 8] ^= 1 << (bit % 8);
        prop_assert!(
            matches!(page::verify(id, &buf), Err(Error::Corrupt { page, .. }) if page == id),
            "flip of bit {} not detected", bit
        );
    }
}

/// Pages in a map, verified on read.
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

#[derive(Clone, Debug)]
enum Op {
    Allocate,
    /// Free the allocated page at this index (mod the number allocated).
    Free(usize),
    /// Try to free an id that is not allocated: 0, past the end, or free.
    FreeBad(u8),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        5 => Just(Op::Allocate),
        4 => any::<usize>().prop_map(Op::Free),
        1 => any::<u8>().prop_map(Op::FreeBad),
    ]
}

proptest! {
    #[test]
    fn freelist_matches_model(ops in proptest::collection::vec(op(), 1..200)) {
        let mut store = MapStore::default();
        let mut header = Header::new();
        let mut allocated = BTreeSet::new();
        // The model's free list, last freed at the end.
        let mut free: Vec<PageId> = Vec::new();
        for op in ops {
            match op {
                Op::Allocate => {
                    let before = header.page_count;
                    let id = freelist::allocate(&mut store, &mut header).unwrap();
                    match free.pop() {
                        Some(expected) => {
                            prop_assert_eq!(id, expected, "free pages reused LIFO");
                            prop_assert_eq!(header.page_count, before, "no growth while free");
                        }
                        None => {
                            prop_assert_eq!(id, PageId(before), "growth at the end");
                            prop_assert_eq!(header.page_count, before + 1);
                        }
                    }
                    prop_assert!(allocated.insert(id), "page {} handed out twice", id);
                    // The caller now owns the page: overwrite it like a user.
                    let mut buf = new_page();
                    buf[0] = 0xEE;
                    store.write_page(id, &mut buf).unwrap();
                }
                Op::Free(i) if !allocated.is_empty() => {
                    let id = *allocated.iter().nth(i % allocated.len()).unwrap();
                    freelist::free(&mut store, &mut header, id).unwrap();
                    allocated.remove(&id);
                    free.push(id);
                }
                Op::Free(_) => {}
                Op::FreeBad(k) => {
                    let id = match k % 3 {
                        0 => PageId::HEADER,
                        1 => PageId(header.page_count + u32::from(k)),
                        _ => match free.last() {
                            Some(&head) => head,
                            None => PageId::HEADER,
                        },
                    };
                    let before = header.clone();
                    prop_assert!(freelist::free(&mut store, &mut header, id).is_err());
                    prop_assert_eq!(&header, &before, "a refused free changes nothing");
                }
            }
            let walked = freelist::walk(&mut store, &header).unwrap();
            let expected: Vec<PageId> = free.iter().rev().copied().collect();
            prop_assert_eq!(walked, expected);
            prop_assert_eq!(header.freelist_count as usize, free.len());
            prop_assert_eq!(header.page_count as usize, 1 + allocated.len() + free.len());
            // The header stays encodable and consistent.
            let mut buf = new_page();
            header.encode(&mut buf);
            prop_assert_eq!(Header::decode(&buf).unwrap(), header.clone());
        }
    }
}
