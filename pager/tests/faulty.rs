//! Fault injection: `FaultyIo` fails exactly the planned mutating call, the
//! count spans every file sharing a plan, sticky plans keep failing, and a
//! `PageFile` latches after its first failed write or sync.
//!
//! Invariant pinned: after a failed write or sync, a `PageFile` refuses
//! every later write and sync with `Error::Poisoned` (even when the disk has
//! recovered), while reads keep working.

use std::io::ErrorKind;
use std::sync::Arc;

use asadb_pager::page::new_page;
use asadb_pager::{Error, Fault, FaultPlan, FaultyIo, Io, MemIo, PageFile, PageId};

fn faulty(plan: &Arc<FaultPlan>) -> (Arc<MemIo>, FaultyIo) {
    let mem = Arc::new(MemIo::new());
    (mem.clone(), FaultyIo::new(mem, plan.clone()))
}

/// Six mutating calls interleaved with reads; returns each call's result.
fn workload(io: &dyn Io) -> Vec<std::io::Result<()>> {
    let mut buf = [0u8; 4];
    let mut out = vec![io.write_at(b"aaaa", 0)];
    let _ = io.read_at(&mut buf, 0);
    out.push(io.write_at(b"bbbb", 4));
    out.push(io.sync());
    let _ = io.len();
    out.push(io.set_len(16));
    out.push(io.write_at(b"cccc", 8));
    out.push(io.sync());
    out
}

#[test]
fn counts_mutating_calls_only() {
    let plan = Arc::new(FaultPlan::never());
    let (_, io) = faulty(&plan);
    assert!(workload(&io).iter().all(|r| r.is_ok()));
    assert_eq!(plan.calls(), 6);
    assert_eq!(plan.failures(), 0);
}

#[test]
fn nth_call_fails_with_the_right_kind() {
    for (fault, errno) in [(Fault::Eio, 5), (Fault::Enospc, 28)] {
        for n in 0..6 {
            let plan = Arc::new(FaultPlan::fail_at(n, fault));
            let (mem, io) = faulty(&plan);
            let results = workload(&io);
            for (i, r) in results.iter().enumerate() {
                if i as u64 == n {
                    let err = r.as_ref().unwrap_err();
                    assert_eq!(err.raw_os_error(), Some(errno), "call {i}");
                    if fault == Fault::Enospc {
                        assert_eq!(err.kind(), ErrorKind::StorageFull);
                    }
                } else {
                    assert!(r.is_ok(), "call {i} with fault at {n}: {r:?}");
                }
            }
            assert_eq!(plan.failures(), 1);
            // A failed call has no effect (torn writes are opt-in).
            let bytes = mem.to_bytes();
            match n {
                0 => assert_eq!(&bytes[..4], b"\0\0\0\0"),
                1 => assert_eq!(&bytes[4..8], b"\0\0\0\0"),
                4 => assert_eq!(&bytes[8..12], b"\0\0\0\0"),
                _ => {}
            }
        }
    }
}

#[test]
fn torn_failing_write_leaves_a_prefix() {
    let plan = Arc::new(FaultPlan::fail_at(0, Fault::Enospc).torn());
    let (mem, io) = faulty(&plan);
    assert!(io.write_at(b"abcdefgh", 0).is_err());
    assert_eq!(mem.to_bytes(), b"abcd");
}

#[test]
fn count_spans_files_sharing_a_plan() {
    let plan = Arc::new(FaultPlan::fail_at(3, Fault::Eio));
    let (_, main) = faulty(&plan);
    let (_, log) = faulty(&plan);
    main.write_at(b"m", 0).unwrap(); // 0
    log.write_at(b"l", 0).unwrap(); // 1
    log.sync().unwrap(); // 2
    assert!(main.sync().is_err(), "the 4th mutating call across both files fails"); // 3
    log.write_at(b"l", 1).unwrap(); // 4: not sticky
    assert_eq!(plan.calls(), 5);
}

#[test]
fn sticky_keeps_failing() {
    let plan = Arc::new(FaultPlan::fail_at(1, Fault::Eio).sticky());
    let (_, io) = faulty(&plan);
    let results = workload(&io);
    assert!(results[0].is_ok());
    assert!(results[1..].iter().all(|r| r.is_err()), "{results:?}");
    assert_eq!(plan.failures(), 5);
    // Reads still pass through.
    let mut buf = [0u8; 4];
    io.read_at(&mut buf, 0).unwrap();
    assert_eq!(&buf, b"aaaa");
}

fn page_of(byte: u8) -> Box<asadb_pager::PageBuf> {
    let mut p = new_page();
    p[..100].fill(byte);
    p
}

#[test]
fn pagefile_latches_after_failed_write() {
    // Call 1 (the second write) fails once; the disk is fine afterwards.
    let plan = Arc::new(FaultPlan::fail_at(1, Fault::Eio));
    let (_, io) = faulty(&plan);
    let file = PageFile::new(Arc::new(io));
    file.write_page(PageId(0), &mut page_of(1)).unwrap();
    assert!(matches!(file.write_page(PageId(1), &mut page_of(2)), Err(Error::Io(_))));
    assert!(file.latch().is_poisoned());
    assert!(matches!(file.write_page(PageId(2), &mut page_of(3)), Err(Error::Poisoned(_))));
    assert!(matches!(file.sync(), Err(Error::Poisoned(_))));
    assert!(matches!(file.set_pages(1), Err(Error::Poisoned(_))));
    // The refused calls never reached the IO layer.
    assert_eq!(plan.calls(), 2);
    // Reads still work.
    let mut buf = new_page();
    file.read_page(PageId(0), &mut buf).unwrap();
    assert_eq!(buf[0], 1);
}

#[test]
fn pagefile_latches_after_failed_sync() {
    let plan = Arc::new(FaultPlan::fail_at(1, Fault::Enospc));
    let (_, io) = faulty(&plan);
    let file = PageFile::new(Arc::new(io));
    file.write_page(PageId(0), &mut page_of(1)).unwrap();
    match file.sync() {
        Err(Error::Io(err)) => assert_eq!(err.kind(), ErrorKind::StorageFull),
        other => panic!("expected ENOSPC, got {other:?}"),
    }
    assert!(matches!(file.sync(), Err(Error::Poisoned(_))));
    assert!(matches!(file.write_page(PageId(0), &mut page_of(2)), Err(Error::Poisoned(_))));
    let mut buf = new_page();
    file.read_page(PageId(0), &mut buf).unwrap();
    assert_eq!(buf[0], 1);
}
