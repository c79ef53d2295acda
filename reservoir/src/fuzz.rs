//! Fuzz target body for the event log, shared by the `cargo fuzz` crate
//! (`fuzz/`, target `eventlog`) and the stable test that replays its corpus
//! (`tests/fuzz_targets.rs`).
//!
//! [`eventlog`] writes the input as `events.log` in a fresh directory and
//! opens a [`Reservoir`] there: the decoder reads it, replay builds the
//! jobs, recovery fixes their states and compacts the log. Whatever the
//! bytes, that returns (an error is fine: a foreign magic is refused) and
//! never panics; when it opens, listing, stats, a new job, cancelling,
//! resuming and sweeping every job return too, and the log it leaves
//! behind opens again.
//!
//! Random bytes almost never carry a valid CRC, so the input can also be
//! *framed*: byte 0 bit 0 set means the rest is a list of payloads split
//! at `0xFF` (a byte JSON text never holds), each written as a record with
//! its true length and checksum after the magic; bit 1 adds the last
//! payload again unframed, as a torn tail. Without bit 0 the rest is the
//! file, byte for byte.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::eventlog::MAGIC;
use crate::{Config, Reservoir, SubmitOptions};

/// A directory removed when dropped (the target runs thousands of times).
struct ScratchDir(PathBuf);

impl ScratchDir {
    fn new() -> std::io::Result<ScratchDir> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("asadb-fuzz-eventlog-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path)?;
        Ok(ScratchDir(path))
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The `events.log` bytes the input stands for (see the module docs).
pub fn log_bytes(data: &[u8]) -> Vec<u8> {
    let Some((&flags, rest)) = data.split_first() else { return Vec::new() };
    if flags & 1 == 0 {
        return rest.to_vec();
    }
    let mut out = MAGIC.to_vec();
    let payloads: Vec<&[u8]> = rest.split(|&b| b == 0xFF).collect();
    for p in &payloads {
        out.extend_from_slice(&(p.len() as u32).to_le_bytes());
        out.extend_from_slice(&crc32fast::hash(p).to_le_bytes());
        out.extend_from_slice(p);
    }
    if flags & 2 != 0
        && let Some(last) = payloads.last()
    {
        out.extend_from_slice(&(last.len() as u32 + 1).to_le_bytes());
        out.extend_from_slice(&crc32fast::hash(last).to_le_bytes());
        out.extend_from_slice(last);
    }
    out
}

/// Exercises an open Reservoir: every call returns (errors are fine).
fn exercise(res: &Reservoir) {
    let jobs = res.jobs();
    let _ = res.active_jobs();
    let _ = res.stats();
    let _ = res.submit(SubmitOptions::default(), &b"SELECT 1;"[..]);
    for job in &jobs {
        let _ = res.job(job.id);
        let _ = res.cancel(job.id);
        let _ = res.resume(job.id);
        let _ = res.result(job.id, 0, 0, 10);
    }
    let _ = res.sweep_at(u64::MAX);
    let _ = res.stats();
}

/// Target `eventlog`.
pub fn eventlog(data: &[u8]) {
    let Ok(dir) = ScratchDir::new() else { return };
    if std::fs::write(dir.0.join("events.log"), log_bytes(data)).is_err() {
        return;
    }
    open_and_exercise(&dir.0, true);
}

fn open_and_exercise(dir: &Path, again: bool) {
    let Ok(res) = Reservoir::open(dir, Config::default()) else { return };
    exercise(&res);
    res.shutdown();
    drop(res);
    if again {
        // The log recovery and the calls above left must open again.
        match Reservoir::open(dir, Config::default()) {
            Ok(res) => {
                let _ = res.stats();
                res.shutdown();
            }
            Err(e) => panic!("the event log left by a successful open does not reopen: {e}"),
        }
    }
}
