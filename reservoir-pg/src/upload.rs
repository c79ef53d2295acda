//! Receiving a job's body into `spool` rows.
//!
//! Admission (one transaction over the locked capacity rows): the active
//! count and the spool counter are checked against the effective limits,
//! the job row is inserted `receiving` with its charge — the declared size
//! in full, else the baseline — and this process as its lease holder.
//!
//! The body is cut into chunks of `receive_chunk` bytes (256 KiB by
//! default); each chunk is one `bytea` row, committed as it arrives, so a
//! worker on any host can read it. A chunk that would pass the charge
//! first grows it, chunk by chunk, in the same transaction as the chunk's
//! row: growth that does not fit fails the upload and leaves no chunks.
//! The chunk's insert only happens while the job is still `receiving` and
//! held by this process (one statement checks both), so a cancellation
//! from any front-end, or a lease lost to the reaper, stops the upload at
//! the next chunk at the latest. The SHA-256 is computed as bytes pass.
//!
//! An upload dropped without `finish` fails its job in the background;
//! should that not run (no runtime), the maintenance task fails receiving
//! jobs of this process that no live upload holds.

use std::sync::Arc;

use asadb_reservoir::contract::{BodyUpload, CancelSignal, cancel_signal};
use asadb_reservoir::{Error, Job, JobError, JobId, JobState, Result, Submission, SubmitOptions};
use async_trait::async_trait;
use sha2::{Digest, Sha256};
use tokio::sync::watch;
use tokio_postgres::types::Type;

use crate::engine::Shared;
use crate::error::pg;
use crate::jobs::{self, Ending, JOB_COLUMNS};

/// An admitted job whose body is being received into PostgreSQL.
pub struct PgUpload {
    shared: Arc<Shared>,
    id: JobId,
    buf: Vec<u8>,
    hasher: Sha256,
    /// Bytes committed as chunks.
    written: u64,
    /// Chunks committed.
    seq: i32,
    /// The job's charge.
    reserved: u64,
    declared: Option<u64>,
    cancel: watch::Receiver<bool>,
    done: bool,
}

impl PgUpload {
    /// Admits a job (see the module docs).
    pub(crate) async fn admit(shared: Arc<Shared>, opts: SubmitOptions) -> Result<PgUpload> {
        let r = shared.rcfg();
        let sql = &shared.sql;
        // A lazy commit: until the job is queued (a durable commit) a
        // crash leaves it receiving, and it is interrupted either way.
        let mut client = shared.lazy_client().await?;
        let tx = client.transaction().await.map_err(pg)?;
        let cap = jobs::capacity(&*tx, sql, true).await?;
        let (max_jobs, max_bytes) = shared.limits(&cap);
        let initial = match opts.declared_size {
            Some(size) if size > max_bytes => {
                return Err(Error::TooLarge(format!(
                    "declared size {size} bytes exceeds the spool capacity of {max_bytes} bytes"
                )));
            }
            Some(size) => size,
            None => r.baseline_reservation.min(max_bytes),
        };
        if cap.active_jobs >= max_jobs {
            return Err(Error::CapacityExhausted(format!(
                "job limit reached: {} active jobs (max {max_jobs})",
                cap.active_jobs
            )));
        }
        if cap.spool_bytes + initial > max_bytes {
            return Err(Error::CapacityExhausted(format!(
                "spool is full: {} of {max_bytes} bytes reserved, this upload needs {initial}",
                cap.spool_bytes
            )));
        }
        let text =
            sql.q("INSERT INTO @.jobs (state, label, created_at, updated_at, idempotency_key, \
             import_format, import_original_name, import_target_table, import_mode, \
             stop_on_error, declared_size, reserved_bytes, owner) \
             VALUES ('receiving', $1, NOW_MS, NOW_MS, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
             RETURNING id");
        let declared = opts.declared_size.map(|n| n as i64);
        let row = tx
            .query_one(
                &text,
                &[
                    &opts.label,
                    &opts.idempotency_key,
                    &jobs::format_name(opts.import.format),
                    &opts.import.original_name,
                    &opts.import.target_table,
                    &jobs::mode_name(opts.import.mode),
                    &opts.stop_on_error.unwrap_or(true),
                    &declared,
                    &(initial as i64),
                    &shared.owner,
                ],
            )
            .await
            .map_err(pg)?;
        let id = JobId(row.get::<_, i64>(0) as u64);
        jobs::charge(&*tx, sql, 1, initial as i64).await?;
        jobs::event(&*tx, sql, id, JobState::Receiving).await?;
        // Registered before the commit, so the maintenance task never sees
        // a receiving job of this process without its upload.
        let (flag, cancel) = watch::channel(false);
        shared.uploads.lock().insert(id, flag);
        if let Err(e) = tx.commit().await {
            shared.uploads.lock().remove(&id);
            return Err(pg(e));
        }
        drop(client);
        let chunk = r.receive_chunk;
        Ok(PgUpload {
            shared,
            id,
            buf: Vec::with_capacity(chunk),
            hasher: Sha256::new(),
            written: 0,
            seq: 0,
            reserved: initial,
            declared: opts.declared_size,
            cancel,
            done: false,
        })
    }

    fn chunk(&self) -> usize {
        self.shared.rcfg().receive_chunk
    }

    /// Commits the buffered chunk, growing the charge first if it must.
    async fn flush_chunk(&mut self) -> Result<()> {
        let after = self.written + self.buf.len() as u64;
        let sql = &self.shared.sql;
        let insert = sql.q("WITH j AS (UPDATE @.jobs SET received_bytes = $3, \
             updated_at = GREATEST(updated_at, NOW_MS) \
             WHERE id = $1 AND state = 'receiving' AND owner = $5 RETURNING id) \
             INSERT INTO @.spool (job_id, seq, byte_offset, data) SELECT id, $2, $4, $6 FROM j");
        let types = [Type::INT8, Type::INT4, Type::INT8, Type::INT8, Type::TEXT, Type::BYTEA];
        let id = self.id.0 as i64;
        let (received, offset) = (after as i64, self.written as i64);
        // Lazy commits: the commit that queues the job flushes past them.
        let mut client = self.shared.lazy_client().await?;
        let inserted = if after <= self.reserved {
            let stmt = client.prepare_typed_cached(&insert, &types).await.map_err(pg)?;
            client
                .execute(
                    &stmt,
                    &[&id, &self.seq, &received, &offset, &self.shared.owner, &self.buf],
                )
                .await
                .map_err(pg)?
        } else {
            let chunk = self.chunk() as u64;
            let target = after.div_ceil(chunk) * chunk;
            let tx = client.transaction().await.map_err(pg)?;
            let cap = jobs::capacity(&*tx, sql, true).await?;
            let (_, max) = self.shared.limits(&cap);
            let others = cap.spool_bytes.saturating_sub(self.reserved);
            if target > max {
                drop(tx);
                drop(client);
                return Err(self
                    .fail(Error::TooLarge(format!(
                        "the body is larger than the spool capacity of {max} bytes"
                    )))
                    .await);
            }
            if others + target > max {
                drop(tx);
                drop(client);
                return Err(self
                    .fail(Error::CapacityExhausted(format!(
                        "spool is full: {others} of {max} bytes are reserved by other jobs"
                    )))
                    .await);
            }
            let grow = sql.q("UPDATE @.jobs SET reserved_bytes = $2 \
                 WHERE id = $1 AND state = 'receiving' AND owner = $3");
            let grown = tx
                .execute(&grow, &[&id, &(target as i64), &self.shared.owner])
                .await
                .map_err(pg)?;
            let inserted = if grown == 1 {
                jobs::charge(&*tx, sql, 0, target as i64 - self.reserved as i64).await?;
                let stmt = tx.prepare_typed_cached(&insert, &types).await.map_err(pg)?;
                tx.execute(
                    &stmt,
                    &[&id, &self.seq, &received, &offset, &self.shared.owner, &self.buf],
                )
                .await
                .map_err(pg)?
            } else {
                0
            };
            if inserted == 1 {
                tx.commit().await.map_err(pg)?;
                self.reserved = target;
            }
            inserted
        };
        drop(client);
        if inserted == 0 {
            return Err(self.lost().await);
        }
        self.hasher.update(&self.buf);
        self.written = after;
        self.seq += 1;
        self.buf.clear();
        Ok(())
    }

    /// The job is no longer receiving under this process: cancelled (then
    /// finish the cancellation), or interrupted by the reaper.
    async fn lost(&mut self) -> Error {
        match self.current_state().await {
            Ok(JobState::Cancelling) => self.finish_cancel().await,
            Ok(state) => {
                self.done = true;
                self.unregister();
                Error::InvalidState(format!(
                    "job {} is {state}: its upload was taken over (its lease expired)",
                    self.id
                ))
            }
            Err(e) => self.fail(e).await,
        }
    }

    async fn current_state(&self) -> Result<JobState> {
        let client = self.shared.client().await?;
        Ok(jobs::get(&**client, &self.shared.sql, self.id, false).await?.state)
    }

    fn unregister(&self) {
        self.shared.uploads.lock().remove(&self.id);
    }

    /// Ends the job (receiving or cancelling) as `to`, releasing its chunks
    /// and charge.
    async fn end_as(&mut self, to: JobState, error: Option<JobError>) -> Result<Option<Job>> {
        self.done = true;
        let ended = end_upload(&self.shared, self.id, to, error).await;
        // Only now: until the job has ended, this process's watch must
        // not take it for an abandoned upload.
        self.unregister();
        ended
    }

    /// Completes a cancellation requested while receiving.
    async fn finish_cancel(&mut self) -> Error {
        match self.end_as(JobState::Cancelled, None).await {
            Ok(_) => Error::Cancelled(self.id),
            Err(e) => e,
        }
    }

    /// Fails the job with `err` (or cancels it, when a cancellation was
    /// requested) and returns `err`.
    async fn fail(&mut self, err: Error) -> Error {
        if self.done {
            return err;
        }
        let error = JobError {
            code: err.code().into(),
            message: err.to_string(),
            statement: None,
            excerpt: None,
        };
        let _ = self.end_as(JobState::Failed, Some(error)).await;
        err
    }

    fn check_open(&self) -> Result<()> {
        if self.done {
            return Err(Error::InvalidState(format!("the upload of job {} has ended", self.id)));
        }
        Ok(())
    }
}

/// Ends a receiving (or cancelling-while-receiving) job as `to` — or as
/// cancelled, when a cancellation was requested — with its chunks and
/// charge released.
async fn end_upload(
    shared: &Shared,
    id: JobId,
    to: JobState,
    error: Option<JobError>,
) -> Result<Option<Job>> {
    let sql = &shared.sql;
    let mut client = shared.client().await?;
    let tx = client.transaction().await.map_err(pg)?;
    jobs::capacity(&*tx, sql, true).await?;
    let job = match jobs::get(&*tx, sql, id, true).await {
        Ok(job) => job,
        Err(Error::NotFound(_)) => return Ok(None),
        Err(e) => return Err(e),
    };
    let to = match job.state {
        JobState::Cancelling => JobState::Cancelled,
        JobState::Receiving => to,
        // Already ended (cancel of a queued job cannot happen here; the
        // reaper may have interrupted it).
        _ => return Ok(Some(job)),
    };
    let error = (to == JobState::Failed).then_some(error).flatten();
    let end = Ending {
        to,
        error: error.as_ref(),
        keep_spool: false,
        result: None,
        owner: Some(&shared.owner),
    };
    let job = jobs::finish(&*tx, sql, id, end).await?;
    tx.commit().await.map_err(pg)?;
    Ok(job)
}

#[async_trait]
impl BodyUpload for PgUpload {
    fn id(&self) -> JobId {
        self.id
    }

    fn received(&self) -> u64 {
        self.written + self.buf.len() as u64
    }

    fn cancelled(&self) -> CancelSignal {
        cancel_signal(self.cancel.clone())
    }

    async fn write(&mut self, mut data: &[u8]) -> Result<()> {
        self.check_open()?;
        if *self.cancel.borrow() {
            return Err(self.finish_cancel().await);
        }
        if let Some(declared) = self.declared
            && self.received() + data.len() as u64 > declared
        {
            return Err(self
                .fail(Error::TooLarge(format!(
                    "the body is larger than its declared size of {declared} bytes"
                )))
                .await);
        }
        let chunk = self.chunk();
        while !data.is_empty() {
            let take = (chunk - self.buf.len()).min(data.len());
            self.buf.extend_from_slice(&data[..take]);
            data = &data[take..];
            if self.buf.len() == chunk {
                self.flush_chunk().await?;
            }
        }
        Ok(())
    }

    async fn finish(mut self: Box<Self>) -> Result<Submission> {
        self.check_open()?;
        if *self.cancel.borrow() {
            return Err(self.finish_cancel().await);
        }
        if !self.buf.is_empty() {
            self.flush_chunk().await?;
        }
        let fingerprint = asadb_reservoir::hex(&std::mem::take(&mut self.hasher).finalize());
        let shared = self.shared.clone();
        let sql = &shared.sql;
        let id = self.id;
        let size = self.written;
        let outcome: Result<std::result::Result<Submission, Error>> = async {
            let mut client = shared.client().await?;
            let tx = client.transaction().await.map_err(pg)?;
            jobs::capacity(&*tx, sql, true).await?;
            let me = jobs::get(&*tx, sql, id, true).await?;
            match me.state {
                JobState::Receiving => {}
                JobState::Cancelling => return Ok(Err(Error::Cancelled(id))),
                state => {
                    return Ok(Err(Error::InvalidState(format!(
                        "job {id} is {state}: its upload was taken over (its lease expired)"
                    ))));
                }
            }
            if let Some(key) = &me.idempotency_key {
                let text = sql.q(&format!(
                    "SELECT {JOB_COLUMNS} FROM @.jobs WHERE idempotency_key = $1 AND id <> $2 \
                     AND state <> 'failed' ORDER BY id LIMIT 1"
                ));
                if let Some(row) = tx.query_opt(&text, &[key, &(id.0 as i64)]).await.map_err(pg)? {
                    let earlier = jobs::job_of(&row)?;
                    // A retry or a misuse of the key: either way this upload
                    // leaves no trace of its own.
                    tx.execute(&sql.q("DELETE FROM @.jobs WHERE id = $1"), &[&(id.0 as i64)])
                        .await
                        .map_err(pg)?;
                    jobs::charge(&*tx, sql, -1, -(me.reserved_bytes as i64)).await?;
                    tx.commit().await.map_err(pg)?;
                    if earlier.fingerprint.as_deref() == Some(&fingerprint)
                        && earlier.import == me.import
                    {
                        return Ok(Ok(Submission { job: earlier, reused: true }));
                    }
                    let why = if earlier.state == JobState::Receiving {
                        "is still receiving its body"
                    } else if earlier.import != me.import {
                        "has different import metadata"
                    } else {
                        "has a different body"
                    };
                    return Ok(Err(Error::Conflict(format!(
                        "idempotency key {key:?} is already used by job {} which {why}",
                        earlier.id
                    ))));
                }
            }
            let text = sql.q(&format!(
                "UPDATE @.jobs SET state = 'queued', fingerprint = $2, received_bytes = $3, \
                 reserved_bytes = $3, bytes_total = $3, owner = NULL, \
                 updated_at = GREATEST(updated_at, NOW_MS) WHERE id = $1 RETURNING {JOB_COLUMNS}"
            ));
            let row = tx
                .query_one(&text, &[&(id.0 as i64), &fingerprint, &(size as i64)])
                .await
                .map_err(pg)?;
            jobs::charge(&*tx, sql, 0, size as i64 - me.reserved_bytes as i64).await?;
            // The notification wakes idle workers everywhere at commit.
            jobs::event(&*tx, sql, id, JobState::Queued).await?;
            tx.commit().await.map_err(pg)?;
            Ok(Ok(Submission { job: jobs::job_of(&row)?, reused: false }))
        }
        .await;
        match outcome {
            Ok(Ok(sub)) => {
                self.done = true;
                self.unregister();
                Ok(sub)
            }
            Ok(Err(Error::Cancelled(_))) => Err(self.finish_cancel().await),
            Ok(Err(e @ Error::InvalidState(_))) => {
                self.done = true;
                self.unregister();
                Err(e)
            }
            Ok(Err(e)) => {
                // Reused or conflict: the job row is gone already.
                self.done = true;
                self.unregister();
                Err(e)
            }
            Err(e) => Err(self.fail(e).await),
        }
    }

    async fn abort(mut self: Box<Self>, code: &str, message: &str) {
        if self.done {
            return;
        }
        let error =
            JobError { code: code.into(), message: message.into(), statement: None, excerpt: None };
        let _ = self.end_as(JobState::Failed, Some(error)).await;
    }
}

impl Drop for PgUpload {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        self.done = true;
        let (shared, id) = (self.shared.clone(), self.id);
        let error = JobError {
            code: "upload_aborted".into(),
            message: "the upload ended before the body was complete".into(),
            statement: None,
            excerpt: None,
        };
        match tokio::runtime::Handle::try_current() {
            Ok(rt) => {
                rt.spawn(async move {
                    let ended = end_upload(&shared, id, JobState::Failed, Some(error)).await;
                    shared.uploads.lock().remove(&id);
                    if let Err(e) = ended {
                        tracing::warn!(%id, "failing an abandoned upload failed: {e}");
                    }
                });
            }
            // The maintenance task fails it: no live upload holds it.
            Err(_) => {
                self.shared.uploads.lock().remove(&id);
            }
        }
    }
}
