//! `events.log`: the append-only, checksummed history of job snapshots.
//!
//! Layout:
//!
//! ```text
//! 0  8  MAGIC b"ASAEVT1\n"
//! 8  .. records, each:
//!        0  4  payload length n, u32 LE
//!        4  4  CRC-32 (crc32fast) of the payload, u32 LE
//!        8  n  payload: JSON of a `Record`
//! ```
//!
//! Rules: the latest complete record of a job wins; a `forget` record
//! removes a job. Reading stops at the first record that is cut short, has
//! a bad checksum or does not decode — a torn tail from a crash — and the
//! file is truncated there so new records follow the valid prefix. A file
//! shorter than the magic (a crash while creating it) starts empty; a file
//! with another magic is refused, never overwritten.
//!
//! Compaction writes the live snapshots to `events.log.tmp`, fsyncs it,
//! renames it over `events.log` and fsyncs the directory, so a crash leaves
//! either the old or the new log, both complete.

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::{BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::{Error, Job, JobId, Result};

/// File magic of the event log.
pub const MAGIC: &[u8; 8] = b"ASAEVT1\n";
const RECORD_HEADER: usize = 8;
/// A record larger than this is treated as garbage (snapshots are small).
const MAX_RECORD: u32 = 16 << 20;

/// One entry of the log.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Record {
    /// The job's latest snapshot.
    Job(Box<Job>),
    /// The job was removed (retention, or a duplicate upload).
    Forget(JobId),
    /// The next job id to hand out, written first by compaction so ids of
    /// forgotten jobs are never reused.
    NextId(u64),
}

/// What replaying the log yields.
#[derive(Debug, Default)]
pub struct Replay {
    /// The latest snapshot of every job not forgotten.
    pub jobs: BTreeMap<JobId, Job>,
    /// The next unused job id (at least 1 more than any id ever logged).
    pub next_id: u64,
}

/// The open event log.
#[derive(Debug)]
pub struct EventLog {
    path: PathBuf,
    file: File,
    len: u64,
    /// Records in the file; drives compaction.
    records: u64,
}

impl EventLog {
    /// Opens (or creates) the log at `path` and returns the latest snapshot
    /// of every job it holds.
    pub fn open(path: &Path) -> Result<(EventLog, Replay)> {
        let mut file =
            OpenOptions::new().read(true).write(true).create(true).truncate(false).open(path)?;
        let file_len = file.metadata()?.len();
        let mut replay = Replay::default();
        let mut records = 0;
        if file_len < MAGIC.len() as u64 {
            // New, or torn while being created: start empty.
            file.set_len(0)?;
            file.write_all(MAGIC)?;
            file.sync_all()?;
            sync_dir(path)?;
            let log = EventLog { path: path.to_owned(), file, len: MAGIC.len() as u64, records };
            return Ok((log, replay));
        }
        let mut reader = BufReader::with_capacity(64 << 10, &mut file);
        let mut magic = [0u8; 8];
        reader.read_exact(&mut magic)?;
        if &magic != MAGIC {
            return Err(Error::Corrupt(format!("{} is not a reservoir event log", path.display())));
        }
        let mut good = MAGIC.len() as u64;
        let mut payload = Vec::new();
        loop {
            let mut head = [0u8; RECORD_HEADER];
            if !read_full(&mut reader, &mut head)? {
                break;
            }
            let len = u32::from_le_bytes(head[0..4].try_into().expect("4 bytes"));
            let crc = u32::from_le_bytes(head[4..8].try_into().expect("4 bytes"));
            if len > MAX_RECORD || good + (RECORD_HEADER as u64) + len as u64 > file_len {
                break;
            }
            payload.resize(len as usize, 0);
            if !read_full(&mut reader, &mut payload)? || crc32fast::hash(&payload) != crc {
                break;
            }
            let Ok(record) = serde_json::from_slice::<Record>(&payload) else { break };
            match record {
                Record::Job(job) => {
                    replay.next_id = replay.next_id.max(job.id.0 + 1);
                    replay.jobs.insert(job.id, *job);
                }
                Record::Forget(id) => {
                    replay.jobs.remove(&id);
                }
                Record::NextId(next) => replay.next_id = replay.next_id.max(next),
            }
            records += 1;
            good += (RECORD_HEADER + payload.len()) as u64;
        }
        drop(reader);
        if good < file_len {
            // Drop the torn tail so appends extend the valid prefix.
            file.set_len(good)?;
            file.sync_all()?;
        }
        file.seek(SeekFrom::Start(good))?;
        Ok((EventLog { path: path.to_owned(), file, len: good, records }, replay))
    }

    /// Appends a record; with `sync`, it is durable when this returns.
    pub fn append(&mut self, record: &Record, sync: bool) -> Result<()> {
        let bytes = encode(record)?;
        self.file.write_all(&bytes)?;
        if sync {
            self.file.sync_data()?;
        }
        self.len += bytes.len() as u64;
        self.records += 1;
        Ok(())
    }

    /// Makes every appended record durable.
    pub fn sync(&mut self) -> Result<()> {
        self.file.sync_data()?;
        Ok(())
    }

    /// Bytes in the log.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// True when the log holds no record.
    pub fn is_empty(&self) -> bool {
        self.records == 0
    }

    /// Records in the log (superseded ones included).
    pub fn records(&self) -> u64 {
        self.records
    }

    /// Rewrites the log with one record per live job (write new, fsync,
    /// rename, fsync the directory).
    pub fn compact<'a>(
        &mut self,
        next_id: u64,
        jobs: impl IntoIterator<Item = &'a Job>,
    ) -> Result<()> {
        let tmp = self.path.with_extension("log.tmp");
        let mut out = Vec::with_capacity(64 << 10);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&encode(&Record::NextId(next_id))?);
        let mut records = 1;
        for job in jobs {
            out.extend_from_slice(&encode(&Record::Job(Box::new(job.clone())))?);
            records += 1;
        }
        {
            let mut f = File::create(&tmp)?;
            f.write_all(&out)?;
            f.sync_all()?;
        }
        fs::rename(&tmp, &self.path)?;
        sync_dir(&self.path)?;
        let mut file = OpenOptions::new().read(true).write(true).open(&self.path)?;
        file.seek(SeekFrom::End(0))?;
        self.file = file;
        self.len = out.len() as u64;
        self.records = records;
        Ok(())
    }
}

fn encode(record: &Record) -> Result<Vec<u8>> {
    let payload = serde_json::to_vec(record)
        .map_err(|e| Error::Corrupt(format!("cannot encode a job snapshot: {e}")))?;
    let mut out = Vec::with_capacity(RECORD_HEADER + payload.len());
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
    out.extend_from_slice(&payload);
    Ok(out)
}

/// Reads exactly `buf.len()` bytes; `Ok(false)` at a clean or torn EOF.
fn read_full(r: &mut impl Read, buf: &mut [u8]) -> Result<bool> {
    let mut filled = 0;
    while filled < buf.len() {
        match r.read(&mut buf[filled..]) {
            Ok(0) => return Ok(false),
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(true)
}

/// Fsyncs the directory holding `path`, so a create or rename is durable.
pub(crate) fn sync_dir(path: &Path) -> Result<()> {
    if let Some(dir) = path.parent() {
        File::open(dir)?.sync_all()?;
    }
    Ok(())
}
