//! One conformance suite for the [`Io`] trait, run against every
//! implementation: `FileIo` (a temporary file), `MemIo`, `FaultyIo` over
//! `MemIo` with a plan that never fails, and `CrashIo` in an uncrashed world.
//!
//! Invariant pinned: every implementation behaves like a POSIX file under
//! positional IO — writes past the end grow the file with zeros, reads past
//! the end are `UnexpectedEof`, `set_len` truncates or zero-extends, and
//! disjoint ranges can be read and written from many threads at once.

use std::io::ErrorKind;
use std::sync::Arc;

use asadb_pager::{CrashWorld, FaultPlan, FaultyIo, FileIo, Io, MemIo};

/// Builds a fresh, empty file. The returned guard keeps temporary
/// directories alive for the duration of the test.
type Factory = fn() -> (Arc<dyn Io>, Box<dyn std::any::Any>);

fn file_io() -> (Arc<dyn Io>, Box<dyn std::any::Any>) {
    let dir = tempfile::tempdir().unwrap();
    let io = FileIo::open(&dir.path().join("f.db")).unwrap();
    (Arc::new(io), Box::new(dir))
}

fn mem_io() -> (Arc<dyn Io>, Box<dyn std::any::Any>) {
    (Arc::new(MemIo::new()), Box::new(()))
}

fn faulty_io() -> (Arc<dyn Io>, Box<dyn std::any::Any>) {
    let plan = Arc::new(FaultPlan::never());
    (Arc::new(FaultyIo::new(Arc::new(MemIo::new()), plan)), Box::new(()))
}

fn crash_io() -> (Arc<dyn Io>, Box<dyn std::any::Any>) {
    let world = CrashWorld::new();
    (world.file("f.db"), Box::new(world))
}

fn empty_len(make: Factory) {
    let (io, _g) = make();
    assert_eq!(io.len().unwrap(), 0);
    assert!(io.is_empty().unwrap());
    let mut buf = [0u8; 0];
    io.read_at(&mut buf, 0).unwrap();
}

fn write_past_end_grows_with_zero_gap(make: Factory) {
    let (io, _g) = make();
    io.write_at(b"abc", 10).unwrap();
    assert_eq!(io.len().unwrap(), 13);
    let mut buf = [0xFFu8; 13];
    io.read_at(&mut buf, 0).unwrap();
    assert_eq!(&buf, b"\0\0\0\0\0\0\0\0\0\0abc");
}

fn read_past_end_is_eof(make: Factory) {
    let (io, _g) = make();
    io.write_at(&[1; 100], 0).unwrap();
    let mut buf = [0u8; 10];
    assert_eq!(io.read_at(&mut buf, 95).unwrap_err().kind(), ErrorKind::UnexpectedEof);
    assert_eq!(io.read_at(&mut buf, 1000).unwrap_err().kind(), ErrorKind::UnexpectedEof);
    io.read_at(&mut buf, 90).unwrap();
    assert_eq!(buf, [1; 10]);
}

fn overwrite(make: Factory) {
    let (io, _g) = make();
    io.write_at(b"hello world", 0).unwrap();
    io.write_at(b"WOR", 6).unwrap();
    let mut buf = [0u8; 11];
    io.read_at(&mut buf, 0).unwrap();
    assert_eq!(&buf, b"hello WORld");
    assert_eq!(io.len().unwrap(), 11);
}

fn set_len_shrinks_and_grows_with_zeros(make: Factory) {
    let (io, _g) = make();
    io.write_at(&[7; 8192], 0).unwrap();
    io.set_len(100).unwrap();
    assert_eq!(io.len().unwrap(), 100);
    let mut buf = [0u8; 1];
    assert_eq!(io.read_at(&mut buf, 100).unwrap_err().kind(), ErrorKind::UnexpectedEof);
    io.set_len(300).unwrap();
    assert_eq!(io.len().unwrap(), 300);
    let mut buf = [0xFFu8; 300];
    io.read_at(&mut buf, 0).unwrap();
    assert!(buf[..100].iter().all(|&b| b == 7));
    assert!(buf[100..].iter().all(|&b| b == 0), "grown bytes must read as zero");
}

fn sync_ok(make: Factory) {
    let (io, _g) = make();
    io.sync().unwrap();
    io.write_at(b"x", 4096).unwrap();
    io.sync().unwrap();
    let mut buf = [0u8; 1];
    io.read_at(&mut buf, 4096).unwrap();
    assert_eq!(&buf, b"x");
}

fn concurrent_disjoint_ranges(make: Factory) {
    const THREADS: u8 = 4;
    const CHUNK: usize = 4096;
    const ROUNDS: usize = 50;
    let (io, _g) = make();
    io.set_len(THREADS as u64 * CHUNK as u64).unwrap();
    std::thread::scope(|s| {
        for t in 0..THREADS {
            let io = &io;
            s.spawn(move || {
                let offset = t as u64 * CHUNK as u64;
                for round in 0..ROUNDS {
                    let fill = t.wrapping_mul(31).wrapping_add(round as u8);
                    io.write_at(&[fill; CHUNK], offset).unwrap();
                    let mut back = vec![0u8; CHUNK];
                    io.read_at(&mut back, offset).unwrap();
                    assert!(back.iter().all(|&b| b == fill), "thread {t} round {round}");
                }
            });
        }
    });
    for t in 0..THREADS {
        let mut back = vec![0u8; CHUNK];
        io.read_at(&mut back, t as u64 * CHUNK as u64).unwrap();
        let last = t.wrapping_mul(31).wrapping_add(ROUNDS as u8 - 1);
        assert!(back.iter().all(|&b| b == last), "final contents of thread {t}");
    }
}

macro_rules! conformance {
    ($($name:ident => $factory:expr),* $(,)?) => {
        $(mod $name {
            use super::*;
            #[test] fn empty_len() { super::empty_len($factory) }
            #[test] fn write_past_end_grows_with_zero_gap() {
                super::write_past_end_grows_with_zero_gap($factory)
            }
            #[test] fn read_past_end_is_eof() { super::read_past_end_is_eof($factory) }
            #[test] fn overwrite() { super::overwrite($factory) }
            #[test] fn set_len_shrinks_and_grows_with_zeros() {
                super::set_len_shrinks_and_grows_with_zeros($factory)
            }
            #[test] fn sync_ok() { super::sync_ok($factory) }
            #[test] fn concurrent_disjoint_ranges() { super::concurrent_disjoint_ranges($factory) }
        })*
    };
}

conformance! {
    file => file_io,
    mem => mem_io,
    faulty => faulty_io,
    crash => crash_io,
}
