//! The Reservoir's contract: what every engine behind `asadb serve`
//! promises, as one async trait pair, and the embedded engine's
//! implementation of it.
//!
//! Two engines implement it:
//! - [`Embedded`]: the process-local [`Reservoir`] of this crate (spool
//!   files, `events.log`, one worker thread over the embedded database);
//! - `asadb_reservoir_pg::PgReservoir` (crate `reservoir-pg`): the queue,
//!   spool chunks, capacity counters, results and target data in
//!   PostgreSQL, shared by any number of front-end processes.
//!
//! The promises (the rules of [`crate`]'s docs, engine-neutral):
//! 1. *Admission* checks the active-job count and the spool reservation
//!    (the declared size in full, else a baseline) and records the job,
//!    atomically; a declared size past the spool capacity is `TooLarge`,
//!    a full queue or spool is `CapacityExhausted` (retryable).
//! 2. *Receiving* grows the reservation chunk by chunk before the bytes are
//!    kept, so the ceiling holds when the declared size lies or is absent;
//!    a body past its declared size is `TooLarge`; a failed or cancelled
//!    upload keeps no bytes and no reservation.
//! 3. The body's SHA-256 is computed while receiving. An idempotency key
//!    with the same body and import metadata as a non-failed job returns
//!    that job (`reused`); with another body or metadata it is `Conflict`.
//! 4. *Cancellation*: queued → cancelled at once; receiving and processing
//!    → cancelling, then cancelled at the next check (the open batch is
//!    rolled back); a terminal job is unchanged.
//! 5. *Execution* runs statements in batches, each committing its rows and
//!    the job's progress marker together; stop-on-error keeps exactly the
//!    statements before the failing one.
//! 6. *Recovery* never replays: a job whose runner died is `interrupted`;
//!    only [`ReservoirEngine::resume`] continues it, after its last durable
//!    statement, exactly once.
//! 7. *Results* are read a bounded page at a time; reading a completed
//!    job's result marks it delivered. *Retention* removes terminal jobs
//!    after the window.
//!
//! One behavioural suite (`reservoir/tests/contract/`) runs against both
//! engines through this trait.
//!
//! The server is async and the embedded engine is not: [`Embedded`] runs
//! every call on tokio's blocking pool, never on a runtime thread (even
//! in-memory reads: the Reservoir's lock may be held across an fsync).

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use async_trait::async_trait;
use parking_lot::Mutex;
use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::sync::watch;

use crate::core::{Config, Reservoir, Stats, Submission};
use crate::job::{Job, JobId, SubmitOptions};
use crate::results::ResultPage;
use crate::upload::Upload;
use crate::{Error, Result};

/// Most statements in one batch transaction (both engines).
pub const BATCH_STATEMENTS: u64 = 1000;
/// Most script bytes in one batch transaction (both engines).
pub const BATCH_BYTES: u64 = 16 << 20;

/// A Reservoir engine: admission, jobs, cancellation, resume, results,
/// retention and stats. Cheap to share (`Arc<dyn ReservoirEngine>`).
#[async_trait]
pub trait ReservoirEngine: Send + Sync + 'static {
    /// `"embedded"` or `"postgres"`: for logs, stats and metrics.
    fn name(&self) -> &'static str;

    /// The settings in force (limits, chunk size, page size, retention).
    fn config(&self) -> &Config;

    /// Admits a new job and returns the upload that receives its body.
    async fn begin_upload(&self, opts: SubmitOptions) -> Result<Box<dyn BodyUpload>>;

    /// The job's current snapshot; `NotFound` for an unknown or expired id.
    async fn job(&self, id: JobId) -> Result<Job>;

    /// Every job still known, oldest first.
    async fn jobs(&self) -> Result<Vec<Job>>;

    /// Receiving, queued, processing and cancelling jobs, most recently
    /// updated first.
    async fn active_jobs(&self) -> Result<Vec<Job>>;

    /// Requests cancellation; returns the snapshot after the request.
    async fn cancel(&self, id: JobId) -> Result<Job>;

    /// Queues an interrupted job to continue after its last durable
    /// statement.
    async fn resume(&self, id: JobId) -> Result<Job>;

    /// One page of a job's result: statement `statement`'s summary and up
    /// to `limit` rows from `offset` (0 or more than the page size means a
    /// full page).
    async fn result(
        &self,
        id: JobId,
        statement: u64,
        offset: u64,
        limit: usize,
    ) -> Result<ResultPage>;

    /// Removes terminal jobs last updated more than the retention window
    /// before `now_ms`; returns how many were removed.
    async fn sweep_at(&self, now_ms: u64) -> Result<usize>;

    /// Queue and spool pressure, with advice for clients.
    async fn stats(&self) -> Result<Stats>;

    /// Stops admitting, lets the running batch finish (the running job is
    /// rolled back to its last durable batch) and stops the workers.
    async fn shutdown(&self);
}

/// An admitted job whose body is being received. Dropping it without
/// [`BodyUpload::finish`] fails the job (the client went away).
#[async_trait]
pub trait BodyUpload: Send {
    /// The job receiving this body.
    fn id(&self) -> JobId;

    /// Body bytes accepted so far.
    fn received(&self) -> u64;

    /// Resolves once cancellation of this job has been requested — through
    /// this engine handle or, for an engine shared by several processes,
    /// any other. The receiver then calls `write` (even with no bytes) to
    /// let the upload finish the cancellation without waiting for a quiet
    /// client's next bytes.
    fn cancelled(&self) -> CancelSignal;

    /// Accepts more of the body. On error the upload has already failed
    /// (or finished cancelling) its job and released what it held.
    async fn write(&mut self, data: &[u8]) -> Result<()>;

    /// Ends the body: the job is queued, or an earlier job with the same
    /// idempotency key, body and metadata is returned instead.
    async fn finish(self: Box<Self>) -> Result<Submission>;

    /// [`BodyUpload::finish`], but the job may be held (still `receiving`)
    /// until the caller has seen that nothing followed the body on its
    /// connection: the embedded engine holds it until
    /// [`crate::Reservoir::release`] or [`crate::Reservoir::refuse`]. An
    /// engine without holding queues the job at once, like `finish`.
    async fn finish_held(self: Box<Self>) -> Result<Submission> {
        self.finish().await
    }

    /// Ends the upload as failed, with this error code and message.
    async fn abort(self: Box<Self>, code: &str, message: &str);
}

/// A future that resolves when a cancellation is requested.
pub type CancelSignal = Pin<Box<dyn Future<Output = ()> + Send + 'static>>;

/// The future of a `watch` flag turning true (never, when the flag's
/// owner is gone without setting it).
pub fn cancel_signal(mut flag: watch::Receiver<bool>) -> CancelSignal {
    Box::pin(async move {
        if flag.wait_for(|set| *set).await.is_err() {
            std::future::pending::<()>().await;
        }
    })
}

/// Submits a whole body from a reader: `begin_upload`, copy, `finish`.
pub async fn submit(
    engine: &dyn ReservoirEngine,
    opts: SubmitOptions,
    body: &mut (dyn AsyncRead + Unpin + Send),
) -> Result<Submission> {
    let mut upload = engine.begin_upload(opts).await?;
    let mut buf = vec![0u8; engine.config().receive_chunk.clamp(4096, 1 << 20)];
    loop {
        let n = match body.read(&mut buf).await {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                upload.abort("upload_failed", &format!("reading the body failed: {e}")).await;
                return Err(e.into());
            }
        };
        upload.write(&buf[..n]).await?;
    }
    upload.finish().await
}

/// The embedded engine behind the contract: a [`Reservoir`] whose worker,
/// if any, was started with [`Reservoir::start_worker`].
#[derive(Clone, Debug)]
pub struct Embedded {
    res: Reservoir,
    /// The cancel flags of the uploads in flight, raised by `cancel`.
    uploads: Arc<Mutex<HashMap<JobId, watch::Sender<bool>>>>,
}

impl Embedded {
    /// Wraps an open Reservoir.
    pub fn new(res: Reservoir) -> Self {
        Embedded { res, uploads: Arc::default() }
    }

    /// The Reservoir itself (engine-specific operations: `start_worker`).
    pub fn reservoir(&self) -> &Reservoir {
        &self.res
    }

    /// The engine as a shareable trait object.
    pub fn into_engine(self) -> Arc<dyn ReservoirEngine> {
        Arc::new(self)
    }
}

/// Runs a blocking Reservoir call on tokio's blocking pool.
async fn blocking<T: Send + 'static>(f: impl FnOnce() -> Result<T> + Send + 'static) -> Result<T> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| Error::Internal(format!("a blocking reservoir task failed: {e}")))?
}

#[async_trait]
impl ReservoirEngine for Embedded {
    fn name(&self) -> &'static str {
        "embedded"
    }

    fn config(&self) -> &Config {
        self.res.config()
    }

    async fn begin_upload(&self, opts: SubmitOptions) -> Result<Box<dyn BodyUpload>> {
        let res = self.res.clone();
        let upload = blocking(move || res.begin_upload(opts)).await?;
        let id = upload.id();
        let (flag, cancel) = watch::channel(false);
        self.uploads.lock().insert(id, flag);
        Ok(Box::new(EmbeddedUpload {
            id,
            received: 0,
            upload: Some(upload),
            cancel,
            registry: self.uploads.clone(),
        }))
    }

    async fn job(&self, id: JobId) -> Result<Job> {
        let res = self.res.clone();
        blocking(move || res.job(id)).await
    }

    async fn jobs(&self) -> Result<Vec<Job>> {
        let res = self.res.clone();
        blocking(move || Ok(res.jobs())).await
    }

    async fn active_jobs(&self) -> Result<Vec<Job>> {
        let res = self.res.clone();
        blocking(move || Ok(res.active_jobs())).await
    }

    async fn cancel(&self, id: JobId) -> Result<Job> {
        let res = self.res.clone();
        let job = blocking(move || res.cancel(id)).await?;
        // A receiving upload finishes its cancellation itself: wake it in
        // case its client has gone quiet.
        if let Some(flag) = self.uploads.lock().get(&id) {
            flag.send_replace(true);
        }
        Ok(job)
    }

    async fn resume(&self, id: JobId) -> Result<Job> {
        let res = self.res.clone();
        blocking(move || res.resume(id)).await
    }

    async fn result(
        &self,
        id: JobId,
        statement: u64,
        offset: u64,
        limit: usize,
    ) -> Result<ResultPage> {
        let res = self.res.clone();
        blocking(move || res.result(id, statement, offset, limit)).await
    }

    async fn sweep_at(&self, now_ms: u64) -> Result<usize> {
        let res = self.res.clone();
        blocking(move || res.sweep_at(now_ms)).await
    }

    async fn stats(&self) -> Result<Stats> {
        let res = self.res.clone();
        blocking(move || Ok(res.stats())).await
    }

    async fn shutdown(&self) {
        let res = self.res.clone();
        // Joining the worker thread blocks: not on a runtime thread.
        let _ = tokio::task::spawn_blocking(move || res.shutdown()).await;
    }
}

/// An embedded [`Upload`], moved onto the blocking pool for each call that
/// may write to the spool.
struct EmbeddedUpload {
    id: JobId,
    received: u64,
    /// `None` only while a call has it on the blocking pool, or after
    /// `finish`/`abort`.
    upload: Option<Upload>,
    cancel: watch::Receiver<bool>,
    registry: Arc<Mutex<HashMap<JobId, watch::Sender<bool>>>>,
}

impl EmbeddedUpload {
    fn take(&mut self) -> Result<Upload> {
        self.upload
            .take()
            .ok_or_else(|| Error::Internal(format!("upload {} used after it failed", self.id)))
    }
}

#[async_trait]
impl BodyUpload for EmbeddedUpload {
    fn id(&self) -> JobId {
        self.id
    }

    fn received(&self) -> u64 {
        self.received
    }

    fn cancelled(&self) -> CancelSignal {
        cancel_signal(self.cancel.clone())
    }

    async fn write(&mut self, data: &[u8]) -> Result<()> {
        let mut upload = self.take()?;
        let data = data.to_vec();
        let (upload, outcome) = tokio::task::spawn_blocking(move || {
            let outcome = upload.write(&data);
            (upload, outcome)
        })
        .await
        .map_err(|e| Error::Internal(format!("the upload task failed: {e}")))?;
        self.received = upload.received();
        self.upload = Some(upload);
        outcome
    }

    async fn finish(mut self: Box<Self>) -> Result<Submission> {
        let upload = self.take()?;
        blocking(move || upload.finish()).await
    }

    async fn finish_held(mut self: Box<Self>) -> Result<Submission> {
        let upload = self.take()?;
        blocking(move || upload.finish_held()).await
    }

    async fn abort(mut self: Box<Self>, code: &str, message: &str) {
        if let Ok(upload) = self.take() {
            let (code, message) = (code.to_string(), message.to_string());
            let _ = blocking(move || {
                upload.abort(&code, &message);
                Ok(())
            })
            .await;
        }
    }
}

impl Drop for EmbeddedUpload {
    fn drop(&mut self) {
        self.registry.lock().remove(&self.id);
        // Dropping an unfinished `Upload` fails its job and removes its
        // spool file: file IO, so off the runtime thread when there is one.
        if let Some(upload) = self.upload.take() {
            match tokio::runtime::Handle::try_current() {
                Ok(rt) => {
                    rt.spawn_blocking(move || drop(upload));
                }
                Err(_) => drop(upload),
            }
        }
    }
}
