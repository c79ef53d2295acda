//! Writes a 1 GiB transaction (262,144 pages) through a 16 MiB buffer pool
//! (4,096 frames) into a database in a temporary directory, commits it, and
//! prints the time taken and the process's peak resident memory (VmHWM).
//!
//! Run: `cargo run --release -p asadb-txn --example big_txn [pages]`

use std::time::Instant;

use asadb_pager::{PAGE_USABLE, PageId};
use asadb_txn::{Db, Options, PageRead, PageWrite};

fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let pages: u32 = std::env::args().nth(1).map_or(Ok(262_144), |a| a.parse())?;
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("big.db");
    // No automatic checkpoint, so the commit, the log replay and the
    // checkpoint are timed separately.
    let opts = Options { pool_frames: 4096, checkpoint_frames: 0, ..Options::default() };
    let db = Db::open(&path, opts.clone())?;
    let start = Instant::now();
    let txn = db.begin_write()?;
    for i in 0..pages {
        let (id, mut page) = txn.allocate()?;
        page[..4].copy_from_slice(&id.0.to_le_bytes());
        page[4..PAGE_USABLE].fill(i as u8);
    }
    let written = start.elapsed();
    let peak_writing = peak_rss_kib().unwrap_or(0);
    txn.commit()?;
    let committed = start.elapsed();
    let stats = db.stats();
    let peak_committed = peak_rss_kib().unwrap_or(0);
    println!(
        "wrote {pages} pages ({} MiB) in one transaction: {:.2} s to write, {:.2} s incl. commit",
        (u64::from(pages) * 4096) >> 20,
        written.as_secs_f64(),
        committed.as_secs_f64()
    );
    println!(
        "pool: {} frames, {} cached; log: {} frames, {} MiB",
        stats.pool.capacity,
        stats.pool.cached,
        stats.log_frames,
        stats.log_bytes >> 20
    );
    drop(db);
    let reopen = Instant::now();
    let db = Db::open(&path, opts)?;
    let r = db.begin_read()?;
    let last = PageId(pages);
    assert_eq!(&r.page(last)?[..4], &last.0.to_le_bytes());
    println!(
        "reopen (log replay of {} frames): {:.2} s",
        stats.log_frames,
        reopen.elapsed().as_secs_f64()
    );
    drop(r);
    let ckpt = Instant::now();
    let info = db.checkpoint()?;
    println!(
        "checkpoint: {} pages copied to the main file in {:.2} s (log reset: {})",
        info.pages_written,
        ckpt.elapsed().as_secs_f64(),
        info.reset
    );
    db.close()?;
    println!(
        "peak RSS (VmHWM): {} MiB while writing, {} MiB after commit, {} MiB overall",
        peak_writing / 1024,
        peak_committed / 1024,
        peak_rss_kib().unwrap_or(0) / 1024
    );
    Ok(())
}
