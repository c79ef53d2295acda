//! Receiving a job's body into the spool.
//!
//! The body is written in chunks of `receive_chunk` bytes (256 KiB by
//! default). Before a chunk goes to disk, the job's reservation is grown
//! to cover it under the Reservoir lock, so the spool ceiling holds whatever
//! the client declared: a declared size is a hard bound for the job, and
//! an upload without one starts from the baseline reservation and grows.
//! Growth that does not fit fails the upload with a typed error, removes
//! the spool file and releases the reservation. The SHA-256 fingerprint is
//! computed as the bytes pass.
//!
//! Cancellation while receiving is finished here, by the thread that owns
//! the upload: its file is closed before the spool file is removed, and
//! the job goes from `cancelling` to `cancelled` without ever being queued.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use asadb_pager::Io;
use sha2::{Digest, Sha256};

use crate::core::{Reservoir, Submission};
use crate::job::{JobError, JobId, JobState};
use crate::{Error, Result};

/// An admitted job whose body is being received. Dropping it without
/// [`Upload::finish`] fails the job (the client went away).
#[derive(Debug)]
pub struct Upload {
    res: Reservoir,
    id: JobId,
    file: Option<Arc<dyn Io>>,
    buf: Vec<u8>,
    hasher: Sha256,
    /// Bytes written to the spool file.
    written: u64,
    reserved: u64,
    declared: Option<u64>,
    cancel: Arc<AtomicBool>,
    done: bool,
    /// When the job's live `received_bytes` was last brought up to date.
    shown_at: Instant,
    /// The fingerprint the client stated, checked at the end.
    expected: Option<String>,
}

/// The job's `received_bytes` follows the body at most this often (and at
/// every chunk written), so a slow upload shows its progress.
const LIVE_EVERY: Duration = Duration::from_millis(20);

impl Upload {
    pub(crate) fn new(
        res: Reservoir,
        id: JobId,
        file: Arc<dyn Io>,
        reserved: u64,
        declared: Option<u64>,
        cancel: Arc<AtomicBool>,
        expected: Option<String>,
    ) -> Self {
        let chunk = res.inner.cfg.receive_chunk;
        Upload {
            res,
            id,
            file: Some(file),
            buf: Vec::with_capacity(chunk),
            hasher: Sha256::new(),
            written: 0,
            reserved,
            declared,
            cancel,
            done: false,
            shown_at: Instant::now(),
            expected,
        }
    }

    /// The job receiving this body.
    pub fn id(&self) -> JobId {
        self.id
    }

    /// Bytes accepted so far.
    pub fn received(&self) -> u64 {
        self.written + self.buf.len() as u64
    }

    /// Accepts more of the body.
    pub fn write(&mut self, mut data: &[u8]) -> Result<()> {
        self.check_cancel()?;
        if let Some(declared) = self.declared
            && self.received() + data.len() as u64 > declared
        {
            return Err(self.fail(Error::TooLarge(format!(
                "the body is larger than its declared size of {declared} bytes"
            ))));
        }
        let chunk = self.res.inner.cfg.receive_chunk;
        while !data.is_empty() {
            let take = (chunk - self.buf.len()).min(data.len());
            self.buf.extend_from_slice(&data[..take]);
            data = &data[take..];
            if self.buf.len() == chunk {
                self.flush_chunk()?;
            }
        }
        if self.shown_at.elapsed() >= LIVE_EVERY {
            self.show_received();
        }
        Ok(())
    }

    /// Brings the job's live `received_bytes` (and `updated_at`) up to
    /// the bytes accepted so far. In memory only: the persisted snapshot
    /// moves with the reservation (`grow`) and at `finish`.
    fn show_received(&mut self) {
        self.shown_at = Instant::now();
        let received = self.received();
        let inner = &self.res.inner;
        let mut st = inner.state.lock();
        if let Some(e) = st.jobs.get_mut(&self.id)
            && e.job.received_bytes != received
        {
            e.job.received_bytes = received;
            e.job.updated_at = crate::core::now_ms().max(e.job.updated_at);
            inner.changes.notify(self.id, Some(&e.job));
        }
    }

    /// Ends the body: the spool is synced, the fingerprint fixed (and
    /// checked against the stated one), and the job is queued — or, when an
    /// earlier job owns the idempotency key with the same body, metadata and
    /// options, that job is returned and this one is dropped.
    pub fn finish(self) -> Result<Submission> {
        self.complete(false)
    }

    /// [`Upload::finish`], but the job is not queued yet: it stays
    /// `receiving`, held, until [`Reservoir::release`] queues it or
    /// [`Reservoir::refuse`] fails it. The server holds an upload until its
    /// connection has shown that nothing followed the body.
    pub fn finish_held(self) -> Result<Submission> {
        self.complete(true)
    }

    fn complete(mut self, hold: bool) -> Result<Submission> {
        self.check_cancel()?;
        if !self.buf.is_empty() {
            self.flush_chunk()?;
        }
        let file = self.file.take().expect("open until finished");
        // The body, then its directory entry: a job is queued only once a
        // restart is sure to find its spool (a created file whose
        // directory was never synced may vanish with a power cut).
        let spool = self.res.inner.spool_path(self.id);
        let synced =
            file.sync().and_then(|()| crate::eventlog::sync_dir(&*self.res.inner.files, &spool));
        if let Err(e) = synced {
            return Err(self.fail(e.into()));
        }
        drop(file);
        let fingerprint = hex(&std::mem::take(&mut self.hasher).finalize());
        if let Some(expected) = self.expected.clone()
            && expected != fingerprint
        {
            return Err(self.fail(Error::FingerprintMismatch(format!(
                "the body's SHA-256 is {fingerprint}, not the {expected} its \
                 X-AsaDB-Content-SHA256 states: the body was changed or cut on the way; \
                 nothing was queued"
            ))));
        }
        let inner = self.res.inner.clone();
        let mut st = inner.state.lock();
        // Cancelled between the last chunk and now.
        if self.cancel.load(Ordering::SeqCst) {
            drop(st);
            return Err(self.finish_cancel());
        }
        let me = &st.jobs[&self.id].job;
        let (key, import, stop) = (me.idempotency_key.clone(), me.import.clone(), me.stop_on_error);
        if let Some(key) = key {
            // A key belongs to the first job whose body was complete and
            // which has not failed; a job still receiving (or one that
            // never finished receiving) owns nothing, nor does one that
            // can never run again — interrupted without its spool (a held
            // upload the server stopped on before its close check): the
            // client was told to submit it again.
            let earlier = st
                .jobs
                .values()
                .map(|e| &e.job)
                .filter(|j| {
                    j.id != self.id
                        && j.idempotency_key.as_deref() == Some(&key)
                        && j.state != JobState::Failed
                        && (j.state != JobState::Interrupted || j.has_spool)
                        && j.fingerprint.is_some()
                })
                .min_by_key(|j| j.id)
                .cloned();
            if let Some(earlier) = earlier {
                // This upload is a retry or a misuse of the key: either
                // way it leaves no trace of its own.
                self.done = true;
                let _ = inner.files.remove(&inner.spool_path(self.id));
                let entry = st.jobs.remove(&self.id).expect("own job");
                st.reserved = st.reserved.saturating_sub(entry.job.reserved_bytes);
                inner.changes.notify(self.id, None);
                st.log.append(&crate::eventlog::Record::Forget(self.id), true)?;
                let same_body = earlier.fingerprint.as_deref() == Some(&fingerprint);
                if same_body && earlier.import == import && earlier.stop_on_error == stop {
                    return Ok(Submission { job: earlier, reused: true });
                }
                let why = if !same_body {
                    "has a different body".to_string()
                } else if earlier.import != import {
                    "has different import metadata".to_string()
                } else {
                    format!("was submitted with stop-on-error {}", earlier.stop_on_error)
                };
                return Err(Error::Conflict(format!(
                    "idempotency key {key:?} is already used by job {} which {why}",
                    earlier.id
                )));
            }
        }
        // Keep exactly what the spool holds reserved — once the log says
        // so: until then the job holds its old reservation (and a failed
        // record releases that one when the upload fails).
        let size = self.written;
        let before = st.jobs[&self.id].job.reserved_bytes;
        // Held: the snapshot (fingerprint, sizes) is logged without a
        // state change; `release` makes it queued durably.
        inner.transition(&mut st, self.id, !hold, |job| {
            if !hold {
                job.state = JobState::Queued;
            }
            job.fingerprint = Some(fingerprint);
            job.received_bytes = size;
            job.reserved_bytes = size;
            job.progress.bytes_total = size;
        })?;
        st.reserved = st.reserved - before + size;
        self.done = true;
        if let Some(e) = st.jobs.get_mut(&self.id) {
            e.held = hold;
        }
        let job = st.jobs[&self.id].job.clone();
        drop(st);
        if !hold {
            inner.wake.notify_all();
        }
        Ok(Submission { job, reused: false })
    }

    /// Ends the upload as failed (e.g. the client's connection broke).
    pub fn abort(mut self, code: &str, message: &str) {
        let error =
            JobError { code: code.into(), message: message.into(), statement: None, excerpt: None };
        self.fail_with(error);
    }

    /// Writes the buffered chunk after growing the reservation to cover it.
    fn flush_chunk(&mut self) -> Result<()> {
        let after = self.written + self.buf.len() as u64;
        if after > self.reserved {
            self.grow(after)?;
        }
        let file = self.file.as_mut().expect("open until finished");
        if let Err(e) = file.write_at(&self.buf, self.written) {
            return Err(self.fail(e.into()));
        }
        self.hasher.update(&self.buf);
        self.written = after;
        self.buf.clear();
        self.show_received();
        Ok(())
    }

    /// Grows the reservation to at least `needed` bytes, a chunk at a time.
    fn grow(&mut self, needed: u64) -> Result<()> {
        let cfg = &self.res.inner.cfg;
        let chunk = cfg.receive_chunk as u64;
        let target = needed.div_ceil(chunk) * chunk;
        let max = cfg.max_spool_bytes;
        let inner = self.res.inner.clone();
        let mut st = inner.state.lock();
        let others = st.reserved - self.reserved;
        if target > max {
            drop(st);
            return Err(self.fail(Error::TooLarge(format!(
                "the body is larger than the spool capacity of {max} bytes"
            ))));
        }
        if others + target > max {
            drop(st);
            return Err(self.fail(Error::CapacityExhausted(format!(
                "spool is full: {others} of {max} bytes are reserved by other jobs"
            ))));
        }
        // The counter follows the job's logged reservation: a failed
        // record grows neither.
        inner.transition(&mut st, self.id, false, |job| {
            job.reserved_bytes = target;
            job.received_bytes = needed;
        })?;
        st.reserved = others + target;
        self.reserved = target;
        Ok(())
    }

    fn check_cancel(&mut self) -> Result<()> {
        if self.cancel.load(Ordering::SeqCst) {
            return Err(self.finish_cancel());
        }
        Ok(())
    }

    /// Completes a cancellation requested while receiving: close the file,
    /// then remove the spool, release the reservation, mark cancelled.
    fn finish_cancel(&mut self) -> Error {
        self.file.take();
        self.done = true;
        let inner = self.res.inner.clone();
        let mut st = inner.state.lock();
        if let Err(e) = inner.finish_job(&mut st, self.id, JobState::Cancelled, None) {
            return e;
        }
        Error::Cancelled(self.id)
    }

    /// Fails the job with `err` and returns it.
    fn fail(&mut self, err: Error) -> Error {
        let error = JobError {
            code: err.code().into(),
            message: err.to_string(),
            statement: None,
            excerpt: None,
        };
        self.fail_with(error);
        err
    }

    fn fail_with(&mut self, error: JobError) {
        if self.done {
            return;
        }
        self.done = true;
        self.file.take();
        let inner = self.res.inner.clone();
        let mut st = inner.state.lock();
        let state =
            if self.cancel.load(Ordering::SeqCst) { JobState::Cancelled } else { JobState::Failed };
        let error = (state == JobState::Failed).then_some(error);
        // Best effort: the caller already gets the original error.
        let _ = inner.finish_job(&mut st, self.id, state, error);
    }
}

impl Drop for Upload {
    fn drop(&mut self) {
        if !self.done {
            self.fail_with(JobError {
                code: "upload_aborted".into(),
                message: "the upload ended before the body was complete".into(),
                statement: None,
                excerpt: None,
            });
        }
    }
}

/// Lowercase hex of bytes (fingerprints, blob values).
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}
