//! Storage benchmarks: page reads (pool hit and miss), commits of 1, 100
//! and 10,000 dirty pages on a file (synchronous Full and Normal), and log
//! replay when opening a database whose log holds about 100 MB.
//!
//! Run: `cargo bench --bench storage` (add `-- <filter>` for one group).

use std::hint::black_box;
use std::path::Path;

use asadb_pager::PageId;
use asadb_txn::{Db, Options, PageRead, PageWrite, Synchronous};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

/// Creates a database of `pages` data pages, checkpointed into the main
/// file.
fn populate(path: &Path, pages: u32, opts: &Options) -> Db {
    let db = Db::open(path, opts.clone()).unwrap();
    let txn = db.begin_write().unwrap();
    for i in 0..pages {
        let (_, mut p) = txn.allocate().unwrap();
        p[..4].copy_from_slice(&i.to_le_bytes());
    }
    txn.commit().unwrap();
    db.checkpoint().unwrap();
    db
}

fn page_reads(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let mut g = c.benchmark_group("page_read");
    // Hit: one page, always cached.
    let db = populate(&dir.path().join("hit.db"), 1000, &Options::default());
    let r = db.begin_read().unwrap();
    r.page(PageId(7)).unwrap();
    g.bench_function("hit", |b| b.iter(|| black_box(r.page(black_box(PageId(7))).unwrap()[0])));
    drop(r);
    // Miss: cycling over 1000 pages through a 16-frame pool; every read
    // loads and verifies a page from the main file (in the OS page cache).
    let opts = Options { pool_frames: 16, ..Options::default() };
    let db = populate(&dir.path().join("miss.db"), 1000, &opts);
    let r = db.begin_read().unwrap();
    let mut next = 0u32;
    g.bench_function("miss", |b| {
        b.iter(|| {
            next = next % 1000 + 1;
            black_box(r.page(PageId(next)).unwrap()[0])
        })
    });
    g.finish();
}

fn commits(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let mut g = c.benchmark_group("commit");
    g.sample_size(10);
    for (name, sync) in [("full", Synchronous::Full), ("normal", Synchronous::Normal)] {
        for pages in [1u32, 100, 10_000] {
            let opts = Options {
                synchronous: sync,
                pool_frames: 4096,
                checkpoint_frames: 50_000,
                ..Options::default()
            };
            let db = populate(&dir.path().join(format!("{name}-{pages}.db")), pages, &opts);
            let mut v = 0u8;
            g.throughput(Throughput::Elements(u64::from(pages)));
            g.bench_with_input(BenchmarkId::new(name, pages), &pages, |b, &pages| {
                b.iter(|| {
                    v = v.wrapping_add(1);
                    let txn = db.begin_write().unwrap();
                    for p in 1..=pages {
                        txn.page_mut(PageId(p)).unwrap()[100] = v;
                    }
                    txn.commit().unwrap();
                })
            });
        }
    }
    g.finish();
}

fn log_replay(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("replay.db");
    // 25 commits of 1000 pages: 25,025 frames of 4,120 bytes ≈ 103 MB.
    let opts = Options { checkpoint_frames: 0, ..Options::default() };
    {
        let db = Db::open(&path, opts.clone()).unwrap();
        for _ in 0..25 {
            let txn = db.begin_write().unwrap();
            for _ in 0..1000 {
                txn.allocate().unwrap();
            }
            txn.commit().unwrap();
        }
        assert!(db.stats().log_bytes > 100_000_000);
    }
    let mut g = c.benchmark_group("log_replay");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(
        std::fs::metadata(dir.path().join("replay.db-wal")).unwrap().len(),
    ));
    g.bench_function("open_100MB_log", |b| {
        b.iter(|| {
            let db = Db::open(&path, opts.clone()).unwrap();
            black_box(db.stats().log_frames)
            // Dropped without close: no checkpoint, the log stays for the next run.
        })
    });
    g.finish();
}

criterion_group!(benches, page_reads, commits, log_replay);
criterion_main!(benches);
