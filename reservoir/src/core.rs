//! The Reservoir itself: admission, jobs, cancellation, restart recovery,
//! retention and stats, all under one lock.
//!
//! Invariants kept under `State`'s lock:
//! - `reserved` equals the sum of `reserved_bytes` over jobs that hold (or
//!   are writing) a spool file, and never exceeds `max_spool_bytes`;
//! - at most `max_jobs` jobs are active;
//! - every state change is appended to the event log before the lock is
//!   released, so what callers observe is what a restart recovers (state
//!   changes that callers act on — admission, queued, terminal states — are
//!   fsynced; progress-only snapshots are not).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use parking_lot::{Condvar, Mutex, MutexGuard};

use crate::changes::{Change, Changes};
use crate::eventlog::{EventLog, Record};
use crate::files::{Files, Open, OsFiles};
use crate::job::{Job, JobError, JobId, JobState, Progress, SubmitOptions};
use crate::results::{self, ResultPage};
use crate::upload::Upload;
use crate::{Error, Result};

/// Reservoir settings. Defaults follow DESIGN.md §4.
#[derive(Clone, Debug)]
pub struct Config {
    /// Most active jobs (receiving, queued, processing, cancelling).
    pub max_jobs: usize,
    /// Most spool bytes reserved at once.
    pub max_spool_bytes: u64,
    /// How long terminal jobs and their files stay addressable.
    pub job_ttl: Duration,
    /// Progress is persisted every this many script bytes.
    pub progress_quantum_bytes: u64,
    /// Most rows in one result page.
    pub result_page_rows: usize,
    /// The reservation of an upload without a declared size, before it grows.
    pub baseline_reservation: u64,
    /// Bodies are written to the spool, and reservations grown, in chunks
    /// of this size.
    pub receive_chunk: usize,
    /// Most statement errors kept per job when `stop_on_error` is false.
    pub max_recorded_errors: usize,
    /// Longest value (text or blob bytes) a statement's result row may
    /// carry; a statement returning a longer one fails with `too_large`
    /// (its effects undone), so every result row can be served.
    pub max_value_bytes: usize,
    /// Most bytes of rows in one result page: a page ends early past it
    /// (and says so in `ended_early`); its `next_offset` continues.
    pub max_page_bytes: usize,
    /// Test hook: a statement whose text contains this marker panics inside
    /// the engine call, as an engine bug would. The server sets it only in
    /// debug builds, from `ASADB_TEST_PANIC_MARKER`.
    #[doc(hidden)]
    pub test_panic_marker: Option<String>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_jobs: 16,
            max_spool_bytes: 512 << 20,
            job_ttl: Duration::from_secs(3600),
            progress_quantum_bytes: 1 << 20,
            result_page_rows: 250,
            baseline_reservation: 2 << 20,
            receive_chunk: 256 << 10,
            max_recorded_errors: 100,
            max_value_bytes: 16 << 20,
            max_page_bytes: 32 << 20,
            test_panic_marker: None,
        }
    }
}

/// The job queue. Cheap to clone; all clones share one queue.
#[derive(Clone, Debug)]
pub struct Reservoir {
    pub(crate) inner: Arc<Inner>,
}

#[derive(Debug)]
pub(crate) struct Inner {
    pub(crate) cfg: Config,
    /// Every file of the Reservoir goes through this seam (module `files`).
    pub(crate) files: Arc<dyn Files>,
    pub(crate) spool_dir: PathBuf,
    pub(crate) results_dir: PathBuf,
    pub(crate) state: Mutex<State>,
    /// Signalled when a job becomes queued or on shutdown.
    pub(crate) wake: Condvar,
    pub(crate) worker: Mutex<Option<std::thread::JoinHandle<()>>>,
    /// Told of every change of a job's snapshot (module `changes`).
    pub(crate) changes: Changes,
}

#[derive(Debug)]
pub(crate) struct State {
    pub(crate) jobs: BTreeMap<JobId, Entry>,
    pub(crate) log: EventLog,
    pub(crate) next_id: u64,
    pub(crate) reserved: u64,
    pub(crate) shutting_down: bool,
    /// The job the worker is running, if any.
    pub(crate) current: Option<JobId>,
    /// When the worker started the current job (its time counts in the
    /// throughput while it runs).
    pub(crate) current_since: Option<std::time::Instant>,
    /// Script bytes executed since open, and the time spent executing.
    pub(crate) executed_bytes: u64,
    pub(crate) executing_time: Duration,
    /// Statements the worker ran since open (committed or not).
    pub(crate) executed_statements: u64,
}

#[derive(Debug)]
pub(crate) struct Entry {
    pub(crate) job: Job,
    /// Set by `cancel`; checked by the upload and the worker.
    pub(crate) cancel: Arc<AtomicBool>,
    /// The body is complete but the job waits for [`Reservoir::release`]
    /// or [`Reservoir::refuse`] (its connection's close check) before it is
    /// queued. Not persisted: after a restart such a job was receiving.
    pub(crate) held: bool,
}

/// The outcome of a submission.
#[derive(Clone, Debug)]
pub struct Submission {
    /// The job's snapshot.
    pub job: Job,
    /// True when an earlier job with the same idempotency key, body and
    /// metadata was returned instead of a new one.
    pub reused: bool,
}

/// How loaded the Reservoir is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Pressure {
    /// Nothing queued and the worker idle.
    Idle,
    /// Work in progress, room for more.
    Busy,
    /// The job limit or the spool is (nearly) full: submissions may get 429.
    Saturated,
}

/// A snapshot of the queue for `/api/reservoir/stats` and metrics.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Stats {
    /// Jobs per state (every state present, zeros included).
    pub by_state: BTreeMap<&'static str, u64>,
    /// Receiving, queued, processing and cancelling jobs.
    pub active: usize,
    /// Body bytes received so far by the jobs still receiving (live).
    pub received_bytes: u64,
    /// The newest `updated_at` among active jobs (live, like theirs).
    pub updated_at: Option<u64>,
    pub max_jobs: usize,
    pub reserved_bytes: u64,
    pub max_spool_bytes: u64,
    /// `running` or `idle`.
    pub worker: &'static str,
    pub current_job: Option<JobId>,
    /// Script bytes per second over the time the worker spent executing.
    pub throughput_bytes_per_sec: f64,
    /// Statements the worker ran since open, whatever their outcome
    /// (a counter: it only grows while the Reservoir is open).
    pub statements_executed: u64,
    /// Why the Reservoir cannot write its event log right now (a full
    /// disk), or `None`. While set, admissions and state changes fail
    /// (`disk_full`); it clears by itself once a write succeeds again.
    pub write_error: Option<String>,
    pub advice: Advice,
}

/// What a client should do given the current load.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Advice {
    /// A chunk size for uploads that fits the spool headroom.
    pub recommended_chunk_bytes: u64,
    pub pressure: Pressure,
    /// Most rows a result page returns.
    pub result_page_rows: usize,
}

impl Advice {
    /// The advice for a load: `active` jobs, `queued` of them waiting,
    /// `reserved` spool bytes, `running` whether a job executes now; the
    /// limits are `cfg`'s (an engine with global limits passes the
    /// effective ones). Saturated at the job limit, when the headroom is
    /// below one baseline reservation, or at three quarters of the jobs.
    pub fn for_load(
        cfg: &Config,
        active: usize,
        queued: u64,
        reserved: u64,
        running: bool,
    ) -> Self {
        let headroom = cfg.max_spool_bytes.saturating_sub(reserved);
        let pressure = if active >= cfg.max_jobs
            || headroom < cfg.baseline_reservation.min(cfg.max_spool_bytes)
            || active * 4 >= cfg.max_jobs * 3
        {
            Pressure::Saturated
        } else if !running && queued == 0 && active == 0 {
            Pressure::Idle
        } else {
            Pressure::Busy
        };
        // A chunk that a sixteenth of the headroom covers, within
        // [64 KiB, 4 × the receive chunk].
        let chunk = cfg.receive_chunk as u64;
        let recommended = (headroom / 16).clamp(64 << 10, (chunk * 4).max(64 << 10));
        Advice {
            recommended_chunk_bytes: recommended,
            pressure,
            result_page_rows: cfg.result_page_rows,
        }
    }
}

impl Reservoir {
    /// Opens the Reservoir in `dir` (the `.asa.reservoir` directory),
    /// creating it if needed, and recovers from the last run: queued jobs
    /// stay queued; processing jobs with a complete result become
    /// completed (failed, if the worker had logged their failure);
    /// receiving, processing or cancelling jobs without one
    /// become interrupted; files no job references are removed; the
    /// capacity counters are rebuilt from the persisted reservations.
    pub fn open(dir: &Path, cfg: Config) -> Result<Reservoir> {
        Self::open_on(Arc::new(OsFiles), dir, cfg)
    }

    /// [`Self::open`] on another file seam: [`crate::files::MemFiles`]
    /// in memory, [`crate::files::FaultyFiles`] for fault tests. `dir`
    /// names the Reservoir's directory within `files`.
    pub fn open_on(files: Arc<dyn Files>, dir: &Path, cfg: Config) -> Result<Reservoir> {
        if cfg.max_jobs == 0 || cfg.receive_chunk == 0 || cfg.result_page_rows == 0 {
            return Err(Error::InvalidInput(
                "max_jobs, receive_chunk and result_page_rows must be positive".into(),
            ));
        }
        let spool_dir = dir.join("spool");
        let results_dir = dir.join("results");
        files.create_dir_all(&spool_dir)?;
        files.create_dir_all(&results_dir)?;
        let (log, replay) = EventLog::open_on(files.clone(), &dir.join("events.log"))?;
        let now = now_ms();
        let mut jobs = BTreeMap::new();
        let mut changed = Vec::new();
        for (id, mut job) in replay.jobs {
            let before = job.state;
            match job.state {
                JobState::Receiving => {
                    job.state = JobState::Interrupted;
                    job.has_spool = false;
                    job.reserved_bytes = 0;
                    job.error = Some(JobError {
                        code: "interrupted".into(),
                        message: "the server stopped while the body was being received; \
                                  submit it again"
                            .into(),
                        statement: None,
                        excerpt: None,
                    });
                }
                JobState::Processing | JobState::Cancelling => {
                    if files.exists(&result_path(&results_dir, id)) {
                        // The worker logs a failure (the error, the job
                        // still processing) before its result goes into
                        // place: with an error the job failed.
                        job.state = if job.error.is_some() {
                            JobState::Failed
                        } else {
                            JobState::Completed
                        };
                        job.has_result = true;
                        job.has_spool = false;
                        job.reserved_bytes = 0;
                    } else {
                        job.state = JobState::Interrupted;
                    }
                }
                _ => {}
            }
            if job.state != before {
                job.updated_at = now;
                changed.push(id);
            }
            jobs.insert(id, Entry { job, cancel: Arc::new(AtomicBool::new(false)), held: false });
        }
        remove_unreferenced(&*files, &spool_dir, &jobs, |j| j.has_spool, spool_file_name)?;
        remove_unreferenced(&*files, &results_dir, &jobs, |j| j.has_result, result_file_name)?;
        // Saturating: snapshots are read from disk and may hold any number.
        let reserved =
            jobs.values().map(|e| e.job.reserved_bytes).fold(0u64, |a, b| a.saturating_add(b));
        let next_id = replay.next_id.max(1);
        let mut state = State {
            jobs,
            log,
            next_id,
            reserved,
            shutting_down: false,
            current: None,
            current_since: None,
            executed_bytes: 0,
            executed_statements: 0,
            executing_time: Duration::ZERO,
        };
        // Start every run from a compact log holding the recovered states.
        let live: Vec<&Job> = state.jobs.values().map(|e| &e.job).collect();
        state.log.compact(next_id, live)?;
        drop(changed);
        let inner = Inner {
            cfg,
            files,
            spool_dir,
            results_dir,
            state: Mutex::new(state),
            wake: Condvar::new(),
            worker: Mutex::new(None),
            changes: Changes::default(),
        };
        Ok(Reservoir { inner: Arc::new(inner) })
    }

    /// The settings in force.
    pub fn config(&self) -> &Config {
        &self.inner.cfg
    }

    /// Admits a new job and returns the upload that receives its body.
    ///
    /// Admission checks the active-job count and the spool reservation
    /// (the declared size, or the baseline when none is declared) and
    /// writes the job's first durable snapshot, all under the lock.
    pub fn begin_upload(&self, opts: SubmitOptions) -> Result<Upload> {
        // Import metadata that cannot work is refused before any byte.
        crate::import::admit(&opts.import)?;
        if let Some(h) = &opts.content_sha256
            && !(h.len() == 64
                && h.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)))
        {
            return Err(Error::InvalidInput(format!(
                "a SHA-256 fingerprint is 64 lowercase hex digits, not {h:.80?}"
            )));
        }
        let cfg = &self.inner.cfg;
        let initial = match opts.declared_size {
            Some(size) if size > cfg.max_spool_bytes => {
                return Err(Error::TooLarge(format!(
                    "declared size {size} bytes exceeds the spool capacity of {} bytes",
                    cfg.max_spool_bytes
                )));
            }
            Some(size) => size,
            None => cfg.baseline_reservation.min(cfg.max_spool_bytes),
        };
        let mut st = self.inner.state.lock();
        if st.shutting_down {
            return Err(Error::ShuttingDown);
        }
        let active = st.jobs.values().filter(|e| e.job.state.is_active()).count();
        if active >= cfg.max_jobs {
            return Err(Error::CapacityExhausted(format!(
                "job limit reached: {active} active jobs (max {})",
                cfg.max_jobs
            )));
        }
        if st.reserved.saturating_add(initial) > cfg.max_spool_bytes {
            return Err(Error::CapacityExhausted(format!(
                "spool is full: {} of {} bytes reserved, this upload needs {initial}",
                st.reserved, cfg.max_spool_bytes
            )));
        }
        if st.next_id == u64::MAX {
            return Err(Error::CapacityExhausted("job ids are exhausted".into()));
        }
        let id = JobId(st.next_id);
        let now = now_ms();
        let job = Job {
            id,
            state: JobState::Receiving,
            label: opts.label,
            created_at: now,
            updated_at: now,
            idempotency_key: opts.idempotency_key,
            fingerprint: None,
            import: opts.import,
            stop_on_error: opts.stop_on_error.unwrap_or(true),
            declared_size: opts.declared_size,
            reserved_bytes: initial,
            received_bytes: 0,
            has_spool: true,
            has_result: false,
            progress: Progress::default(),
            error: None,
            statement_errors: Vec::new(),
            report: None,
        };
        let expected = opts.content_sha256.clone();
        let file = self.inner.files.open(&self.inner.spool_path(id), Open::CreateNew)?;
        if let Err(err) = st.log.append(&Record::Job(Box::new(job.clone())), true) {
            drop(file);
            let _ = self.inner.files.remove(&self.inner.spool_path(id));
            return Err(err);
        }
        st.next_id += 1;
        st.reserved += initial;
        let cancel = Arc::new(AtomicBool::new(false));
        st.jobs.insert(id, Entry { job, cancel: cancel.clone(), held: false });
        drop(st);
        Ok(Upload::new(self.clone(), id, file, initial, opts.declared_size, cancel, expected))
    }

    /// Submits a whole body from a reader: `begin_upload`, copy, `finish`.
    pub fn submit(&self, opts: SubmitOptions, mut body: impl std::io::Read) -> Result<Submission> {
        let mut upload = self.begin_upload(opts)?;
        let mut buf = vec![0u8; self.inner.cfg.receive_chunk.min(1 << 20)];
        loop {
            let n = match body.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    upload.abort("upload_failed", &format!("reading the body failed: {e}"));
                    return Err(e.into());
                }
            };
            upload.write(&buf[..n])?;
        }
        upload.finish()
    }

    /// The job's current snapshot.
    pub fn job(&self, id: JobId) -> Result<Job> {
        self.job_and_version(id).map(|(job, _)| job)
    }

    /// [`Self::job`] and the [`Self::version`] it reflects, read under one
    /// lock: every change up to that version is in the snapshot, none
    /// after it.
    pub fn job_and_version(&self, id: JobId) -> Result<(Job, u64)> {
        let st = self.inner.state.lock();
        let job = st.jobs.get(&id).map(|e| st.snapshot(&e.job)).ok_or(Error::NotFound(id))?;
        Ok((job, self.inner.changes.version()))
    }

    /// Every job the Reservoir still knows, oldest first.
    pub fn jobs(&self) -> Vec<Job> {
        let st = self.inner.state.lock();
        st.jobs.values().map(|e| st.snapshot(&e.job)).collect()
    }

    /// Receiving, queued, processing and cancelling jobs, most recently
    /// updated first. Terminal jobs stay addressable through [`Self::job`].
    pub fn active_jobs(&self) -> Vec<Job> {
        self.active_jobs_and_version().0
    }

    /// [`Self::active_jobs`] and the [`Self::version`] they reflect (see
    /// [`Self::job_and_version`]).
    pub fn active_jobs_and_version(&self) -> (Vec<Job>, u64) {
        let st = self.inner.state.lock();
        let mut jobs: Vec<Job> = st
            .jobs
            .values()
            .filter(|e| e.job.state.is_active())
            .map(|e| st.snapshot(&e.job))
            .collect();
        jobs.sort_by(|a, b| b.updated_at.cmp(&a.updated_at).then(b.id.cmp(&a.id)));
        (jobs, self.inner.changes.version())
    }

    /// Requests cancellation. Receiving and processing jobs move to
    /// `cancelling` and finish cancelling at their next check (the upload's
    /// next chunk, the worker's next statement, batch or row block); a
    /// queued (or held) job is cancelled at once; an interrupted job is
    /// discarded — cancelled, its spool removed and its reservation freed,
    /// its committed statements kept; cancelling any other terminal job
    /// changes nothing. Returns the job's snapshot after the request.
    pub fn cancel(&self, id: JobId) -> Result<Job> {
        let mut st = self.inner.state.lock();
        let entry = st.jobs.get_mut(&id).ok_or(Error::NotFound(id))?;
        match entry.job.state {
            // A held job has no upload left to finish the cancellation.
            JobState::Receiving if entry.held => {
                entry.cancel.store(true, Ordering::SeqCst);
                entry.held = false;
                self.inner.finish_job(&mut st, id, JobState::Cancelled, None)?;
            }
            JobState::Receiving | JobState::Processing => {
                entry.cancel.store(true, Ordering::SeqCst);
                self.inner.transition(&mut st, id, true, |job| job.state = JobState::Cancelling)?;
            }
            JobState::Queued => {
                entry.cancel.store(true, Ordering::SeqCst);
                self.inner.finish_job(&mut st, id, JobState::Cancelled, None)?;
            }
            // An interrupted job is discarded: it will not be resumed, its
            // spool file goes and its reservation is freed. The statements it
            // committed stay (they are in the database).
            JobState::Interrupted => {
                self.inner.finish_job(&mut st, id, JobState::Cancelled, None)?;
            }
            _ => {}
        }
        Ok(st.snapshot(&st.jobs[&id].job))
    }

    /// Queues a job whose upload finished with [`Upload::finish_held`]:
    /// its connection showed nothing after the body. Returns its snapshot;
    /// a job that is no longer held (cancelled meanwhile) is left as it is.
    pub fn release(&self, id: JobId) -> Result<Job> {
        let mut st = self.inner.state.lock();
        let entry = st.jobs.get_mut(&id).ok_or(Error::NotFound(id))?;
        if entry.held && entry.job.state == JobState::Receiving {
            self.inner.transition(&mut st, id, true, |job| job.state = JobState::Queued)?;
            if let Some(e) = st.jobs.get_mut(&id) {
                e.held = false;
            }
            drop(st);
            self.inner.wake.notify_all();
            return self.job(id);
        }
        Ok(entry.job.clone())
    }

    /// Fails a held job instead of queueing it (its connection sent more
    /// bytes after the declared body): its spool is removed and its
    /// reservation released, and it never runs.
    pub fn refuse(&self, id: JobId, code: &str, message: &str) -> Result<Job> {
        let mut st = self.inner.state.lock();
        let entry = st.jobs.get_mut(&id).ok_or(Error::NotFound(id))?;
        if entry.held && entry.job.state == JobState::Receiving {
            entry.held = false;
            let error = JobError {
                code: code.into(),
                message: message.into(),
                statement: None,
                excerpt: None,
            };
            self.inner.finish_job(&mut st, id, JobState::Failed, Some(error))?;
        }
        Ok(st.jobs[&id].job.clone())
    }

    /// Continues an interrupted job from the statement after its last
    /// durable progress marker (the worker reads the marker from the
    /// database). Never happens on its own: only this call does it.
    pub fn resume(&self, id: JobId) -> Result<Job> {
        let mut st = self.inner.state.lock();
        if st.shutting_down {
            return Err(Error::ShuttingDown);
        }
        let entry = st.jobs.get(&id).ok_or(Error::NotFound(id))?;
        if !entry.job.is_resumable() {
            return Err(Error::InvalidState(format!(
                "job {id} is {} and cannot be resumed{}",
                entry.job.state,
                if entry.job.state == JobState::Interrupted {
                    " (its body was not fully received: submit it again)"
                } else {
                    ""
                }
            )));
        }
        let cfg_max = self.inner.cfg.max_jobs;
        let active = st.jobs.values().filter(|e| e.job.state.is_active()).count();
        if active >= cfg_max {
            return Err(Error::CapacityExhausted(format!(
                "job limit reached: {active} active jobs (max {cfg_max})"
            )));
        }
        st.jobs.get(&id).expect("checked").cancel.store(false, Ordering::SeqCst);
        self.inner.transition(&mut st, id, true, |job| {
            job.state = JobState::Queued;
            job.error = None;
        })?;
        let job = st.jobs[&id].job.clone();
        drop(st);
        self.inner.wake.notify_all();
        Ok(job)
    }

    /// One page of a job's result: statement `statement`'s summary and up
    /// to `limit` of its rows from `offset` (`limit` is capped at the
    /// configured page size; 0 means a full page). Reading the result of a
    /// completed job marks it delivered.
    pub fn result(
        &self,
        id: JobId,
        statement: u64,
        offset: u64,
        limit: usize,
    ) -> Result<ResultPage> {
        let page_rows = self.inner.cfg.result_page_rows;
        let limit = if limit == 0 { page_rows } else { limit.min(page_rows) };
        let job = self.job(id)?;
        if !job.has_result {
            return Err(Error::InvalidState(format!(
                "job {id} is {} and has no result{}",
                job.state,
                if job.state.is_active() { " yet" } else { "" }
            )));
        }
        let max_bytes = self.inner.cfg.max_page_bytes;
        let path = self.inner.result_path(id);
        let page =
            results::read_page(&*self.inner.files, &path, statement, offset, limit, max_bytes)?;
        if job.state == JobState::Completed {
            let mut st = self.inner.state.lock();
            if st.jobs.get(&id).is_some_and(|e| e.job.state == JobState::Completed) {
                self.inner.transition(&mut st, id, true, |job| job.state = JobState::Delivered)?;
            }
        }
        Ok(page)
    }

    /// Removes terminal jobs (and their files) last updated more than the
    /// retention window before `now_ms`. Returns how many were removed.
    pub fn sweep_at(&self, now_ms: u64) -> Result<usize> {
        let ttl = self.inner.cfg.job_ttl.as_millis() as u64;
        let mut st = self.inner.state.lock();
        let expired: Vec<JobId> = st
            .jobs
            .values()
            .filter(|e| e.job.state.is_terminal() && e.job.updated_at.saturating_add(ttl) <= now_ms)
            .map(|e| e.job.id)
            .collect();
        for &id in &expired {
            let entry = st.jobs.remove(&id).expect("listed above");
            st.reserved = st.reserved.saturating_sub(entry.job.reserved_bytes);
            self.inner.remove_files(id);
            self.inner.changes.notify(id, None);
            st.log.append(&Record::Forget(id), false)?;
        }
        if !expired.is_empty() {
            st.log.sync()?;
            self.inner.maybe_compact(&mut st)?;
        }
        Ok(expired.len())
    }

    /// [`Self::sweep_at`] with the current time.
    pub fn sweep(&self) -> Result<usize> {
        self.sweep_at(now_ms())
    }

    /// Queue and spool pressure, with advice for clients.
    pub fn stats(&self) -> Stats {
        let cfg = &self.inner.cfg;
        let st = self.inner.state.lock();
        let mut by_state: BTreeMap<&'static str, u64> =
            JobState::ALL.iter().map(|s| (s.as_str(), 0)).collect();
        for e in st.jobs.values() {
            *by_state.get_mut(e.job.state.as_str()).expect("every state listed") += 1;
        }
        let active = st.jobs.values().filter(|e| e.job.state.is_active()).count();
        let queued = by_state["queued"];
        let advice = Advice::for_load(cfg, active, queued, st.reserved, st.current.is_some());
        let running = st.current_since.map_or(Duration::ZERO, |t| t.elapsed());
        let secs = (st.executing_time + running).as_secs_f64();
        let live = st.jobs.values().filter(|e| e.job.state.is_active()).map(|e| &e.job);
        let received_bytes =
            live.clone().filter(|j| j.state == JobState::Receiving).map(|j| j.received_bytes).sum();
        let updated_at = live.map(|j| st.snapshot(j).updated_at).max();
        Stats {
            by_state,
            active,
            received_bytes,
            updated_at,
            max_jobs: cfg.max_jobs,
            reserved_bytes: st.reserved,
            max_spool_bytes: cfg.max_spool_bytes,
            worker: if st.current.is_some() { "running" } else { "idle" },
            current_job: st.current,
            throughput_bytes_per_sec: if secs > 0.0 {
                st.executed_bytes as f64 / secs
            } else {
                0.0
            },
            statements_executed: st.executed_statements,
            write_error: st.log.latched().map(str::to_owned),
            advice,
        }
    }

    /// The change counter: it grows with every change of any job's
    /// snapshot (see [`Self::on_change`]).
    pub fn version(&self) -> u64 {
        self.inner.changes.version()
    }

    /// Calls `listener` after every change of any job's snapshot — state
    /// transitions, live progress, live upload bytes, jobs forgotten — with
    /// the new [`Self::version`], the job and its new snapshot. It runs on
    /// the changing thread, under the Reservoir's lock: it must be quick
    /// and must not call the Reservoir (send on a channel and return).
    /// Listeners stay for the Reservoir's lifetime.
    pub fn on_change(&self, listener: impl Fn(&Change<'_>) + Send + Sync + 'static) {
        self.inner.changes.subscribe(listener);
    }

    /// Starts the one worker thread, which runs queued jobs through
    /// `engine`. Interrupted jobs are not touched: only `resume` queues them.
    pub fn start_worker(&self, engine: asadb_sql::session::Engine) -> Result<()> {
        let mut worker = self.inner.worker.lock();
        if worker.is_some() {
            return Err(Error::InvalidState("the worker is already running".into()));
        }
        *worker = Some(crate::worker::spawn(self.clone(), engine)?);
        Ok(())
    }

    /// Stops admitting jobs, lets the worker finish the statement batch it
    /// is in (the running job is cancelled at its next check and rolled
    /// back to its last durable batch, so it becomes interrupted after a
    /// restart… or resumable at once), and waits for the worker to stop.
    pub fn shutdown(&self) {
        {
            let mut st = self.inner.state.lock();
            st.shutting_down = true;
        }
        self.inner.wake.notify_all();
        if let Some(handle) = self.inner.worker.lock().take() {
            let _ = handle.join();
        }
    }
}

impl State {
    /// A job's snapshot as callers see it. `updated_at` is live: for the
    /// job the worker is running it is the time of the snapshot (the job
    /// is changing right now, inside a statement that may run for long),
    /// not the last persisted or counted change.
    pub(crate) fn snapshot(&self, job: &Job) -> Job {
        let mut job = job.clone();
        if self.current == Some(job.id)
            && matches!(job.state, JobState::Processing | JobState::Cancelling)
        {
            job.updated_at = now_ms().max(job.updated_at);
        }
        job
    }
}

impl Inner {
    pub(crate) fn spool_path(&self, id: JobId) -> PathBuf {
        self.spool_dir.join(spool_file_name(id))
    }

    pub(crate) fn result_path(&self, id: JobId) -> PathBuf {
        result_path(&self.results_dir, id)
    }

    /// Applies `f` to a copy of a job's snapshot, stamps it and logs it;
    /// only once the record is written (with `sync`, durable) does the
    /// copy become the job's state. A failed append changes nothing: no
    /// state is reported that the log does not hold.
    pub(crate) fn transition(
        &self,
        st: &mut MutexGuard<'_, State>,
        id: JobId,
        sync: bool,
        f: impl FnOnce(&mut Job),
    ) -> Result<()> {
        let entry = st.jobs.get(&id).ok_or(Error::NotFound(id))?;
        let mut job = entry.job.clone();
        f(&mut job);
        job.updated_at = now_ms().max(job.updated_at);
        let record = Record::Job(Box::new(job));
        st.log.append(&record, sync)?;
        if let Record::Job(job) = record
            && let Some(entry) = st.jobs.get_mut(&id)
        {
            self.changes.notify(id, Some(&job));
            entry.job = *job;
        }
        self.maybe_compact(st)
    }

    /// Moves a job to a terminal state: its spool file is removed and its
    /// reservation released (an interrupted job keeps both, for resume).
    pub(crate) fn finish_job(
        &self,
        st: &mut MutexGuard<'_, State>,
        id: JobId,
        to: JobState,
        error: Option<JobError>,
    ) -> Result<()> {
        let entry = st.jobs.get(&id).ok_or(Error::NotFound(id))?;
        let released = if to == JobState::Interrupted { 0 } else { entry.job.reserved_bytes };
        let logged = self.transition(st, id, true, |job| {
            job.state = to;
            if to != JobState::Interrupted {
                job.has_spool = false;
                job.reserved_bytes = 0;
            }
            if error.is_some() {
                job.error = error.clone();
            }
        });
        match logged {
            Ok(()) => {
                // The spool goes only once the log says the job is over.
                if to != JobState::Interrupted {
                    let _ = self.files.remove(&self.spool_path(id));
                }
                st.reserved = st.reserved.saturating_sub(released);
                Ok(())
            }
            Err(e) => {
                // The end could not be logged: the log still holds the job
                // active, and a restart makes a receiving, processing or
                // cancelling job interrupted. Report that now — never a
                // terminal state the log does not hold — and keep its spool
                // and reservation so it can be resumed (or cancelled, which
                // frees them). A queued job stays queued, as after a
                // restart: the failed call (a cancel) changed nothing, and
                // its cancel flag still stops it when it runs.
                if let Some(entry) = st.jobs.get_mut(&id)
                    && entry.job.state.is_active()
                    && entry.job.state != JobState::Queued
                {
                    let job = &mut entry.job;
                    job.state = JobState::Interrupted;
                    job.updated_at = now_ms().max(job.updated_at);
                    job.error = Some(JobError {
                        code: e.code().into(),
                        message: format!(
                            "the job's end ({}) could not be recorded: {e}; its committed \
                             statements stay, resume it to continue after them",
                            to.as_str()
                        ),
                        statement: None,
                        excerpt: None,
                    });
                }
                Err(e)
            }
        }
    }

    fn remove_files(&self, id: JobId) {
        let _ = self.files.remove(&self.spool_path(id));
        let _ = self.files.remove(&self.result_path(id));
    }

    fn maybe_compact(&self, st: &mut MutexGuard<'_, State>) -> Result<()> {
        if st.log.records() > 4 * st.jobs.len() as u64 + 256 {
            let next_id = st.next_id;
            let State { jobs, log, .. } = &mut **st;
            log.compact(next_id, jobs.values().map(|e| &e.job))?;
        }
        Ok(())
    }
}

fn spool_file_name(id: JobId) -> String {
    format!("{id}.body")
}

fn result_file_name(id: JobId) -> String {
    format!("{id}.result")
}

fn result_path(results_dir: &Path, id: JobId) -> PathBuf {
    results_dir.join(result_file_name(id))
}

/// Removes every file of `dir` that is not the file of a job for which
/// `keeps` holds (temporary files included).
fn remove_unreferenced(
    files: &dyn Files,
    dir: &Path,
    jobs: &BTreeMap<JobId, Entry>,
    keeps: impl Fn(&Job) -> bool,
    name: impl Fn(JobId) -> String,
) -> Result<()> {
    let wanted: std::collections::HashSet<String> =
        jobs.values().filter(|e| keeps(&e.job)).map(|e| name(e.job.id)).collect();
    for name in files.list(dir)? {
        if !wanted.contains(&name) {
            let _ = files.remove(&dir.join(name));
        }
    }
    Ok(())
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
}
