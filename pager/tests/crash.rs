//! The crash double: live versus durable images, crashing at every sync of
//! a two-file workload, and seeded recovery that tears unsynced writes.
//!
//! Invariants pinned:
//! - a crash at sync n leaves durable exactly what each file held at its
//!   last successful sync before n, and nothing after it;
//! - after a crash every call on every file fails with "crashed";
//! - `recover(seed)` is deterministic and, over seeds, produces dropped,
//!   fully applied and partially applied (torn) writes.

use std::collections::BTreeSet;
use std::io::ErrorKind;

use asadb_pager::{CrashWorld, Io, SECTOR_SIZE};

#[test]
fn live_and_durable_images() {
    let world = CrashWorld::new();
    let f = world.file("a");
    f.write_at(b"one", 0).unwrap();
    assert_eq!(world.bytes("a").unwrap(), b"one");
    assert_eq!(world.durable_bytes("a").unwrap(), b"");
    f.sync().unwrap();
    assert_eq!(world.durable_bytes("a").unwrap(), b"one");
    f.write_at(b"TWO", 0).unwrap();
    f.set_len(5).unwrap();
    assert_eq!(world.pending("a"), 2);
    assert_eq!(world.bytes("a").unwrap(), b"TWO\0\0");
    assert_eq!(world.durable_bytes("a").unwrap(), b"one");

    assert_eq!(world.recover_durable().bytes("a").unwrap(), b"one");
    assert_eq!(world.recover_all().bytes("a").unwrap(), b"TWO\0\0");
    // Recovery copies: the old world is unchanged and still usable.
    assert_eq!(world.bytes("a").unwrap(), b"TWO\0\0");
    f.sync().unwrap();
    assert_eq!(world.durable_bytes("a").unwrap(), b"TWO\0\0");
    assert_eq!(world.syncs(), 2);
}

#[test]
fn handles_share_a_file_and_names_are_listed() {
    let world = CrashWorld::new();
    let a1 = world.file("main.db");
    let a2 = world.file("main.db");
    world.file("main.db-wal");
    a1.write_at(b"x", 0).unwrap();
    let mut buf = [0u8; 1];
    a2.read_at(&mut buf, 0).unwrap();
    assert_eq!(&buf, b"x");
    assert_eq!(world.file_names(), ["main.db", "main.db-wal"]);
    assert_eq!(world.bytes("missing"), None);
}

#[test]
fn sync_of_one_file_leaves_the_other_pending() {
    let world = CrashWorld::new();
    let (a, b) = (world.file("a"), world.file("b"));
    a.write_at(b"A", 0).unwrap();
    b.write_at(b"B", 0).unwrap();
    a.sync().unwrap();
    let after = world.recover_durable();
    assert_eq!(after.bytes("a").unwrap(), b"A");
    assert_eq!(after.bytes("b").unwrap(), b"");
}

/// A workload over two files: writes, a truncate and five syncs. Stops at
/// the first error, as a process would after a crash.
fn workload(world: &CrashWorld) -> std::io::Result<()> {
    let (db, wal) = (world.file("db"), world.file("wal"));
    wal.write_at(&[1; 100], 0)?;
    wal.sync()?; // 1
    db.write_at(&[2; 50], 0)?;
    wal.write_at(&[3; 100], 100)?;
    wal.sync()?; // 2
    db.sync()?; // 3
    db.write_at(&[4; 10], 20)?;
    wal.set_len(0)?;
    wal.sync()?; // 4
    db.set_len(40)?;
    db.sync()?; // 5
    wal.write_at(&[5; 7], 0)?;
    Ok(())
}

#[test]
fn crash_at_every_sync_keeps_exactly_the_synced_prefix() {
    // Reference: the image of each file at each successful sync.
    let reference = CrashWorld::new();
    workload(&reference).unwrap();
    let total = reference.syncs();
    assert_eq!(total, 5);
    // Which file each sync makes durable, and its image then (from the
    // workload above, spelled out so the test checks the double, not itself).
    let mut db_img = [2u8; 50];
    db_img[20..30].fill(4);
    let snapshots: [(&str, Vec<u8>); 5] = [
        ("wal", vec![1; 100]),
        ("wal", [vec![1; 100], vec![3; 100]].concat()),
        ("db", vec![2; 50]),
        ("wal", vec![]),
        ("db", db_img[..40].to_vec()),
    ];
    for n in 1..=total + 1 {
        let world = CrashWorld::new();
        world.crash_at_sync(n);
        let result = workload(&world);
        assert_eq!(result.is_err(), n <= total, "crash at sync {n}");
        assert_eq!(world.is_crashed(), n <= total);
        let durable = world.recover_durable();
        for name in ["db", "wal"] {
            let expected = snapshots[..(n - 1).min(total) as usize]
                .iter()
                .rev()
                .find(|(f, _)| *f == name)
                .map_or(Vec::new(), |(_, img)| img.clone());
            assert_eq!(durable.bytes(name).unwrap(), expected, "file {name}, crash at sync {n}");
        }
    }
}

#[test]
fn crashed_world_refuses_every_call() {
    let world = CrashWorld::new();
    let f = world.file("a");
    f.write_at(b"abc", 0).unwrap();
    world.crash_at_sync(1);
    let err = f.sync().unwrap_err();
    assert_eq!((err.kind(), err.to_string().as_str()), (ErrorKind::Other, "crashed"));
    assert_eq!(world.durable_bytes("a").unwrap(), b"", "the crashing sync took no effect");
    let other = world.file("b");
    let mut buf = [0u8; 1];
    for err in [
        f.read_at(&mut buf, 0).unwrap_err(),
        f.write_at(b"x", 0).unwrap_err(),
        f.set_len(0).unwrap_err(),
        f.sync().unwrap_err(),
        f.len().unwrap_err(),
        other.write_at(b"x", 0).unwrap_err(),
    ] {
        assert_eq!(err.to_string(), "crashed");
    }
    // The recovered world works again.
    let after = world.recover_all();
    assert!(!after.is_crashed());
    assert_eq!(after.syncs(), 0);
    after.file("a").write_at(b"Z", 0).unwrap();
    assert_eq!(after.bytes("a").unwrap(), b"Zbc");
}

#[test]
fn crash_now_stops_everything() {
    let world = CrashWorld::new();
    let f = world.file("a");
    world.crash_now();
    assert_eq!(f.write_at(b"x", 0).unwrap_err().to_string(), "crashed");
}

#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Dropped,
    Applied,
    /// Whole sectors of it, not all.
    Sectors,
    /// A prefix ending inside a sector.
    HalfWritten,
}

fn classify(image: &[u8], new: u8, len: usize) -> Outcome {
    let hits: Vec<bool> = (0..len).map(|i| image.get(i) == Some(&new)).collect();
    let count = hits.iter().filter(|&&h| h).count();
    if count == 0 {
        return Outcome::Dropped;
    }
    if count == len {
        return Outcome::Applied;
    }
    let prefix = hits.iter().take_while(|&&h| h).count();
    if count == prefix && !prefix.is_multiple_of(SECTOR_SIZE) {
        return Outcome::HalfWritten;
    }
    for sector in hits.chunks(SECTOR_SIZE) {
        assert!(
            sector.iter().all(|&h| h) || sector.iter().all(|&h| !h),
            "a sector-torn write must apply whole sectors"
        );
    }
    Outcome::Sectors
}

#[test]
fn recover_tears_unsynced_writes() {
    let world = CrashWorld::new();
    let f = world.file("a");
    f.write_at(&[0x11; 8192], 0).unwrap();
    f.sync().unwrap();
    f.write_at(&[0xAA; 8192], 0).unwrap(); // two pages, unsynced
    let mut seen = BTreeSet::new();
    for seed in 0..200 {
        let image = world.recover(seed).bytes("a").unwrap();
        assert_eq!(image.len(), 8192, "seed {seed}");
        assert!(image.iter().all(|&b| b == 0x11 || b == 0xAA), "seed {seed}: foreign bytes");
        seen.insert(classify(&image, 0xAA, 8192));
        assert_eq!(world.recover(seed).bytes("a").unwrap(), image, "seed {seed} not deterministic");
    }
    let all = BTreeSet::from([
        Outcome::Dropped,
        Outcome::Applied,
        Outcome::Sectors,
        Outcome::HalfWritten,
    ]);
    assert_eq!(seen, all);
    // The recovered image is both live and durable.
    let after = world.recover(3);
    assert_eq!(after.bytes("a"), after.durable_bytes("a"));
    assert_eq!(after.pending("a"), 0);
}

#[test]
fn recover_replays_in_order_with_growth() {
    // A write past the end that survives grows the file; a later set_len
    // that survives cuts it. Every seed gives one of the orders' results.
    let world = CrashWorld::new();
    let f = world.file("a");
    f.write_at(&[9; 10], 0).unwrap();
    f.sync().unwrap();
    f.write_at(&[7; 10], 1000).unwrap();
    f.set_len(500).unwrap();
    let mut lens = BTreeSet::new();
    for seed in 0..100 {
        let image = world.recover(seed).bytes("a").unwrap();
        assert_eq!(&image[..10], &[9; 10]);
        assert!(image[10..].iter().all(|&b| b == 0 || b == 7), "seed {seed}");
        lens.insert(image.len());
    }
    // Both dropped (10), set_len applied (500), write kept (1010) or torn.
    assert!(lens.contains(&10) && lens.contains(&500) && lens.contains(&1010), "{lens:?}");
    assert_eq!(world.recover_all().bytes("a").unwrap().len(), 500);
}
