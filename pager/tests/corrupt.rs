//! Corrupt and truncated files: every damaged input gives a typed error
//! naming what is wrong, never a panic and never silently wrong bytes.
//!
//! Scenarios: an empty file, a file cut inside the header, a zeroed header,
//! a header with a bad checksum, a file cut short of its page count, a data
//! page with a flipped bit, a page copied to the wrong offset, and a free
//! list whose pages were overwritten.

use std::sync::Arc;

use asadb_pager::freelist;
use asadb_pager::page::new_page;
use asadb_pager::{Error, FileIo, Header, MemIo, PAGE_SIZE, PageFile, PageId};

/// A database of `pages` pages: the header and data pages filled with
/// their own id, page 2 and 3 on the free list when present.
fn database(pages: u32) -> Vec<u8> {
    let file = PageFile::new(Arc::new(MemIo::new()));
    let mut header = Header { page_count: pages, ..Header::new() };
    for id in 1..pages {
        let mut buf = new_page();
        buf[..8].fill(id as u8);
        file.write_page(PageId(id), &mut buf).unwrap();
    }
    let mut file = file;
    for id in [2, 3].into_iter().filter(|&id| id < pages) {
        freelist::free(&mut file, &mut header, PageId(id)).unwrap();
    }
    let mut buf = new_page();
    header.encode(&mut buf);
    file.io().write_at(&buf[..], 0).unwrap();
    let mut bytes = vec![0; pages as usize * PAGE_SIZE];
    file.io().read_at(&mut bytes, 0).unwrap();
    bytes
}

fn open(bytes: Vec<u8>) -> PageFile {
    PageFile::new(Arc::new(MemIo::with_bytes(bytes)))
}

#[test]
fn intact_database_reads_back() {
    let file = open(database(6));
    let header = file.read_header().unwrap();
    assert_eq!((header.page_count, header.freelist_head, header.freelist_count), (6, 3, 2));
    let mut buf = new_page();
    file.read_page(PageId(5), &mut buf).unwrap();
    assert_eq!(buf[0], 5);
    let mut file = file;
    assert_eq!(freelist::walk(&mut file, &header).unwrap(), [PageId(3), PageId(2)]);
}

#[test]
fn empty_and_short_files_are_not_databases() {
    for len in [0, 1, 100, PAGE_SIZE - 1] {
        let bytes = database(2)[..len].to_vec();
        match open(bytes).read_header() {
            Err(Error::NotADatabase(msg)) => assert!(msg.contains("shorter"), "{msg}"),
            other => panic!("length {len}: expected NotADatabase, got {other:?}"),
        }
    }
}

#[test]
fn zeroed_header_is_not_a_database() {
    let mut bytes = database(4);
    bytes[..PAGE_SIZE].fill(0);
    assert!(matches!(open(bytes).read_header(), Err(Error::NotADatabase(_))));
}

#[test]
fn foreign_file_is_not_a_database() {
    let mut bytes = b"SQLite format 3\0".to_vec();
    bytes.resize(PAGE_SIZE * 2, 0);
    assert!(matches!(open(bytes).read_header(), Err(Error::NotADatabase(_))));
}

#[test]
fn header_bad_checksum_is_corrupt_page_0() {
    let mut bytes = database(4);
    bytes[asadb_pager::header::CATALOG_ROOT_OFFSET] ^= 1;
    assert!(matches!(open(bytes).read_header(), Err(Error::Corrupt { page: PageId(0), .. })));
}

#[test]
fn truncated_file_gives_corrupt_missing_pages() {
    let bytes = database(6);
    // Cut in the middle of page 4: the header still says 6 pages.
    let file = open(bytes[..4 * PAGE_SIZE + 100].to_vec());
    let header = file.read_header().unwrap();
    assert_eq!(header.page_count, 6);
    let mut buf = new_page();
    file.read_page(PageId(3), &mut buf).unwrap();
    for id in [4, 5] {
        assert!(
            matches!(file.read_page(PageId(id), &mut buf), Err(Error::Corrupt { page, .. }) if page == PageId(id)),
            "page {id}"
        );
    }
}

#[test]
fn flipped_bit_in_a_data_page_is_corrupt() {
    for at in [0, 1234, PAGE_SIZE - 1] {
        let mut bytes = database(4);
        bytes[PAGE_SIZE + at] ^= 0x10;
        let file = open(bytes);
        let mut buf = new_page();
        assert!(matches!(
            file.read_page(PageId(1), &mut buf),
            Err(Error::Corrupt { page: PageId(1), .. })
        ));
    }
}

#[test]
fn page_at_the_wrong_offset_is_corrupt() {
    let mut bytes = database(4);
    let page1 = bytes[PAGE_SIZE..2 * PAGE_SIZE].to_vec();
    bytes[3 * PAGE_SIZE..].copy_from_slice(&page1);
    let mut buf = new_page();
    assert!(matches!(
        open(bytes).read_page(PageId(3), &mut buf),
        Err(Error::Corrupt { page: PageId(3), .. })
    ));
}

#[test]
fn overwritten_free_page_is_corrupt() {
    // Page 3 (the free-list head) overwritten with a sealed non-free page.
    let bytes = database(6);
    let mut file = open(bytes);
    let mut header = file.read_header().unwrap();
    let mut buf = new_page();
    buf[0] = 0x42;
    file.write_page(PageId(3), &mut buf).unwrap();
    assert!(matches!(
        freelist::walk(&mut file, &header),
        Err(Error::Corrupt { page: PageId(3), .. })
    ));
    assert!(matches!(
        freelist::allocate(&mut file, &mut header),
        Err(Error::Corrupt { page: PageId(3), .. })
    ));
}

#[test]
fn corrupt_real_file_on_disk() {
    // The same checks through FileIo, with the damage done by std::fs.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.db");
    std::fs::write(&path, database(3)).unwrap();
    let file = PageFile::new(Arc::new(FileIo::open(&path).unwrap()));
    assert_eq!(file.read_header().unwrap().page_count, 3);
    drop(file);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[2 * PAGE_SIZE + 7] ^= 0xFF;
    bytes.truncate(PAGE_SIZE * 2 + 200);
    std::fs::write(&path, &bytes).unwrap();
    let file = PageFile::new(Arc::new(FileIo::open(&path).unwrap()));
    let mut buf = new_page();
    file.read_page(PageId(1), &mut buf).unwrap();
    assert!(matches!(
        file.read_page(PageId(2), &mut buf),
        Err(Error::Corrupt { page: PageId(2), .. })
    ));
    std::fs::write(&path, b"").unwrap();
    assert!(matches!(file.read_header(), Err(Error::NotADatabase(_))));
}
