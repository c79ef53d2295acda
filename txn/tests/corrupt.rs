//! Corrupt and garbage files.
//!
//! Scenarios: a flipped byte in a main-file page; a flipped byte in the
//! main file's header page; a main file that is not a database; garbage
//! appended to the log; a flipped byte inside a committed log frame.
//!
//! Invariant: bad bytes are reported as a typed error naming the page
//! (`Corrupt { page }`), in reads and in the integrity check, never
//! returned as data and never a panic. Garbage after the last commit frame
//! of the log is ignored; a damaged frame ends the valid log there, so the
//! database opens at an earlier commit.

mod common;

use std::sync::Arc;

use asadb_pager::{Error as PagerError, Io, MemIo, PAGE_SIZE, PageId};
use asadb_txn::{Db, Error, Options, PageRead, PageWrite};
use common::{fill, holds};

fn opts() -> Options {
    Options { pool_frames: 16, checkpoint_frames: 0, ..Options::default() }
}

/// A database of `pages` pages (values = page id) whose commits are all
/// checkpointed into the main file, then `more` commits left in the log.
fn build(pages: u32, more: u32) -> (Arc<MemIo>, Arc<MemIo>) {
    let (main, wal) = (Arc::new(MemIo::new()), Arc::new(MemIo::new()));
    let db = Db::open_io(main.clone(), wal.clone(), opts()).unwrap();
    let txn = db.begin_write().unwrap();
    for _ in 0..pages {
        let (id, mut p) = txn.allocate().unwrap();
        fill(id, u64::from(id.0), &mut p);
    }
    txn.commit().unwrap();
    assert!(db.checkpoint().unwrap().reset);
    for k in 1..=more {
        let txn = db.begin_write().unwrap();
        fill(PageId(1), 100 + u64::from(k), &mut txn.page_mut(PageId(1)).unwrap());
        txn.set_user_slot(0, k).unwrap();
        txn.commit().unwrap();
    }
    (main, wal)
}

fn reopen(main: &MemIo, wal: &MemIo) -> asadb_txn::Result<Db> {
    let m: Arc<dyn Io> = Arc::new(MemIo::with_bytes(main.to_bytes()));
    let w: Arc<dyn Io> = Arc::new(MemIo::with_bytes(wal.to_bytes()));
    Db::open_io(m, w, opts())
}

#[test]
fn flipped_byte_in_a_main_page() {
    let (main, wal) = build(6, 0);
    main.write_at(&[0x5A], 3 * PAGE_SIZE as u64 + 100).unwrap();
    let db = reopen(&main, &wal).unwrap();
    let r = db.begin_read().unwrap();
    let err = r.page(PageId(3)).unwrap_err();
    assert_eq!(err.corrupt_page(), Some(PageId(3)), "{err}");
    assert!(holds(PageId(4), 4, &r.page(PageId(4)).unwrap()), "other pages still read");
    drop(r);
    let report = db.integrity_check().unwrap();
    assert_eq!(report.problems.len(), 1, "{:?}", report.problems);
    assert_eq!(report.problems[0].page, PageId(3));
    // Writing the page needs its old image: refused with the same error.
    let txn = db.begin_write().unwrap();
    assert_eq!(txn.page_mut(PageId(3)).unwrap_err().corrupt_page(), Some(PageId(3)));
}

#[test]
fn bad_main_header() {
    let (main, wal) = build(2, 0);
    let mut bytes = main.to_bytes();
    bytes[40] ^= 1; // a user slot: checksum mismatch
    let err = reopen(&MemIo::with_bytes(bytes), &wal).unwrap_err();
    assert_eq!(err.corrupt_page(), Some(PageId::HEADER), "{err}");
    let mut bytes = main.to_bytes();
    bytes[0] = b'X';
    let err = reopen(&MemIo::with_bytes(bytes), &wal).unwrap_err();
    assert!(matches!(err, Error::Pager(PagerError::NotADatabase(_))), "{err}");
    let err = reopen(&MemIo::with_bytes(b"hello".to_vec()), &MemIo::new()).unwrap_err();
    assert!(matches!(err, Error::Pager(PagerError::NotADatabase(_))), "{err}");
}

#[test]
fn garbage_log_tail_is_ignored() {
    let (main, wal) = build(3, 4);
    let len = wal.len().unwrap();
    let mut x = 0x1234_5678u32;
    let garbage: Vec<u8> = (0..3 * PAGE_SIZE + 77)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        })
        .collect();
    wal.write_at(&garbage, len).unwrap();
    let db = reopen(&main, &wal).unwrap();
    let r = db.begin_read().unwrap();
    assert_eq!(r.header().user[0], 4);
    assert!(holds(PageId(1), 104, &r.page(PageId(1)).unwrap()));
    drop(r);
    assert!(db.integrity_check().unwrap().is_ok());
    // New commits overwrite the garbage and survive another reopen.
    let txn = db.begin_write().unwrap();
    txn.set_user_slot(0, 5).unwrap();
    txn.commit().unwrap();
    assert_eq!(db.begin_read().unwrap().header().user[0], 5);
}

#[test]
fn damaged_log_frame_ends_the_log() {
    let (main, wal) = build(3, 4);
    // Commits 1..=4 each wrote two frames (page 1, header). Damage the page
    // image of commit 3's first frame (frame 5).
    let frame5 = asadb_txn::wal::FrameId(5).page_offset();
    wal.write_at(&[0xEE], frame5 + 10).unwrap();
    let db = reopen(&main, &wal).unwrap();
    let r = db.begin_read().unwrap();
    assert_eq!(r.header().user[0], 2, "the log is valid up to commit 2");
    assert!(holds(PageId(1), 102, &r.page(PageId(1)).unwrap()));
}
