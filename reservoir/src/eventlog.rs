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
//!
//! Write latch: after a failed write or fsync the file may end in a torn
//! record (replay stops there, so every record appended after it would be
//! lost) and what the failed fsync covered is unknown. The log latches:
//! the next append first heals it — reopens the file, truncates it back to
//! the end of the last record that was acknowledged, fsyncs — and only
//! then writes; while healing fails every append fails (a full disk stays
//! `disk_full`). Nothing is acknowledged that is not durable, and the log
//! recovers by itself once the disk accepts writes again.
//!
//! Every file call goes through the Reservoir's file seam
//! ([`crate::files`]), so the latch is tested under the fault double at
//! every write, fsync, create and rename.

use std::collections::BTreeMap;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use asadb_pager::Io;
use serde::{Deserialize, Serialize};

use crate::files::{Files, IoCursor, Open};
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
    files: Arc<dyn Files>,
    path: PathBuf,
    file: Arc<dyn Io>,
    len: u64,
    /// Records in the file; drives compaction.
    records: u64,
    /// Why the last write or sync failed, until the log is healed.
    latched: Option<String>,
}

impl EventLog {
    /// Opens (or creates) the log at `path` and returns the latest snapshot
    /// of every job it holds.
    pub fn open(path: &Path) -> Result<(EventLog, Replay)> {
        Self::open_on(Arc::new(crate::files::OsFiles), path)
    }

    /// [`Self::open`] through another file seam.
    pub fn open_on(files: Arc<dyn Files>, path: &Path) -> Result<(EventLog, Replay)> {
        let file = files.open(path, Open::Create)?;
        let file_len = file.len()?;
        let mut replay = Replay::default();
        let mut records = 0;
        if file_len < MAGIC.len() as u64 {
            // New, or torn while being created: start empty.
            file.set_len(0)?;
            file.write_at(MAGIC, 0)?;
            file.sync()?;
            sync_dir(&*files, path)?;
            let log = EventLog {
                files,
                path: path.to_owned(),
                file,
                len: MAGIC.len() as u64,
                records,
                latched: None,
            };
            return Ok((log, replay));
        }
        let mut reader = BufReader::with_capacity(64 << 10, IoCursor::new(file.clone()));
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
                    // Saturating: an id at the end of the range is input, not a
                    // reason to overflow (admission refuses to go past it).
                    replay.next_id = replay.next_id.max(job.id.0.saturating_add(1));
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
            file.sync()?;
        }
        let log =
            EventLog { files, path: path.to_owned(), file, len: good, records, latched: None };
        Ok((log, replay))
    }

    /// Appends a record; with `sync`, it is durable when this returns.
    /// On an error nothing of the record counts (see the write latch).
    pub fn append(&mut self, record: &Record, sync: bool) -> Result<()> {
        let bytes = encode(record)?;
        self.heal()?;
        if let Err(e) = self.file.write_at(&bytes, self.len) {
            return Err(self.latch("a write", e));
        }
        if sync && let Err(e) = self.file.sync() {
            return Err(self.latch("an fsync", e));
        }
        self.len += bytes.len() as u64;
        self.records += 1;
        Ok(())
    }

    /// Makes every appended record durable.
    pub fn sync(&mut self) -> Result<()> {
        self.heal()?;
        if let Err(e) = self.file.sync() {
            return Err(self.latch("an fsync", e));
        }
        Ok(())
    }

    /// Why the log refuses to write until it is healed, if it does.
    pub fn latched(&self) -> Option<&str> {
        self.latched.as_deref()
    }

    fn latch(&mut self, what: &str, e: std::io::Error) -> Error {
        self.latched = Some(format!("{what} of the event log failed: {e}"));
        Error::Io(e)
    }

    /// Undoes what a failed write may have left: reopens the file,
    /// truncates it to the last acknowledged record and fsyncs it.
    fn heal(&mut self) -> Result<()> {
        if self.latched.is_none() {
            return Ok(());
        }
        let healed = (|| -> std::io::Result<Arc<dyn Io>> {
            let file = self.files.open(&self.path, Open::Existing)?;
            file.set_len(self.len)?;
            file.sync()?;
            Ok(file)
        })();
        match healed {
            Ok(file) => {
                self.file = file;
                self.latched = None;
                Ok(())
            }
            Err(e) => {
                self.latched = Some(format!("the event log cannot be written: {e}"));
                Err(Error::Io(e))
            }
        }
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
        self.heal()?;
        let written = (|| -> std::io::Result<()> {
            let f = self.files.open(&tmp, Open::Truncate)?;
            f.write_at(&out, 0)?;
            f.sync()
        })();
        if let Err(e) = written {
            // The old log is untouched: nothing to heal, only the
            // temporary file to remove.
            let _ = self.files.remove(&tmp);
            return Err(e.into());
        }
        if let Err(e) = self.files.rename(&tmp, &self.path) {
            let _ = self.files.remove(&tmp);
            return Err(e.into());
        }
        // From here on `events.log` is the new file (or, if the directory
        // fsync fails, perhaps still the old one after a crash — both hold
        // every live snapshot).
        self.len = out.len() as u64;
        self.records = records;
        let reopened = sync_dir(&*self.files, &self.path)
            .and_then(|()| self.files.open(&self.path, Open::Existing));
        match reopened {
            Ok(file) => {
                self.file = file;
                Ok(())
            }
            // The handle still points at the replaced file: appends must
            // not go there. Healing reopens the path.
            Err(e) => Err(self.latch("a compaction", e)),
        }
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
pub(crate) fn sync_dir(files: &dyn Files, path: &Path) -> std::io::Result<()> {
    match path.parent() {
        Some(dir) => files.sync_dir(dir),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use std::fs::{self, OpenOptions};
    use std::io::Write;

    use asadb_pager::FileIo;

    use super::*;

    /// A handle on which every write fails with ENOSPC, like a full disk.
    fn full_disk() -> Arc<dyn Io> {
        let file = OpenOptions::new().write(true).open("/dev/full").expect("/dev/full");
        Arc::new(FileIo::from_file(file))
    }

    #[test]
    fn a_failed_append_latches_and_the_next_one_heals_the_torn_tail() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("events.log");
        let (mut log, _) = EventLog::open(&path).unwrap();
        log.append(&Record::NextId(5), true).unwrap();
        let good = log.len();

        // The disk fills: the append fails and counts for nothing.
        let real = std::mem::replace(&mut log.file, full_disk());
        let err = log.append(&Record::NextId(50), true).unwrap_err();
        assert!(err.is_disk_full(), "{err:?}");
        assert!(log.latched().is_some());
        assert_eq!((log.len(), log.records()), (good, 1));
        // What a partial write would have left on disk.
        drop(real);
        let mut torn = OpenOptions::new().append(true).open(&path).unwrap();
        torn.write_all(&encode(&Record::NextId(50)).unwrap()[..11]).unwrap();
        drop(torn);

        // Space is back: the next append truncates the torn bytes first,
        // so its record is not lost behind them at replay.
        log.append(&Record::NextId(7), true).unwrap();
        assert!(log.latched().is_none());
        drop(log);
        let (log, replay) = EventLog::open(&path).unwrap();
        assert_eq!(replay.next_id, 7, "the failed record never counted, the next one did");
        assert_eq!(log.records(), 2);
    }

    #[test]
    fn while_the_log_cannot_be_healed_every_append_fails() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("events.log");
        let (mut log, _) = EventLog::open(&path).unwrap();
        log.file = full_disk();
        assert!(log.append(&Record::NextId(3), false).is_err());
        // The file cannot be reopened (here: replaced by a directory).
        fs::remove_file(&path).unwrap();
        fs::create_dir(&path).unwrap();
        assert!(log.append(&Record::NextId(4), true).is_err());
        assert!(log.sync().is_err());
        assert!(log.latched().unwrap().contains("cannot be written"), "{:?}", log.latched());
        fs::remove_dir(&path).unwrap();
        fs::write(&path, MAGIC).unwrap();
        log.append(&Record::NextId(9), true).unwrap();
        drop(log);
        assert_eq!(EventLog::open(&path).unwrap().1.next_id, 9);
    }

    #[test]
    fn a_failed_compaction_keeps_the_old_log_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("events.log");
        let (mut log, _) = EventLog::open(&path).unwrap();
        log.append(&Record::NextId(12), true).unwrap();
        // The temporary file's name is taken by a directory: creating it
        // fails like a full disk would.
        let tmp = path.with_extension("log.tmp");
        fs::create_dir(&tmp).unwrap();
        assert!(log.compact(12, std::iter::empty()).is_err());
        fs::remove_dir(&tmp).unwrap();
        log.append(&Record::NextId(13), true).unwrap();
        log.compact(13, std::iter::empty()).unwrap();
        assert!(!tmp.exists());
        drop(log);
        assert_eq!(EventLog::open(&path).unwrap().1.next_id, 13);
    }
}
