//! The worker: claims queued jobs and runs them in the target database.
//!
//! One executor per target database, cluster wide (whatever Reservoir
//! schemas share the database): a process's worker runs jobs only while its
//! executor connection — dedicated, outside the pool — holds the session
//! advisory lock `executor_lock_key()` (taken to claim a job, given back
//! when there is none, released with the connection after each job); the
//! workers of other processes stand by, retry on every wake, and take over
//! when the holder's connection goes away. A
//! job is claimed with `FOR UPDATE SKIP LOCKED` (oldest first), becomes
//! `processing` with this process as its `owner`, and runs on a fresh
//! session (the executor connection is replaced after every job, so a
//! script's `SET`, temporary tables or prepared statements never reach the
//! next job).
//!
//! Execution mirrors the embedded worker: statements without explicit
//! transaction control run in batches (a transaction per batch of
//! [`BATCH_STATEMENTS`] statements or [`BATCH_BYTES`] bytes, a savepoint
//! per statement, so a failing statement leaves no partial effects); each
//! batch's commit carries the job's progress marker (`progress` row) and
//! checks, in the same transaction, that this process still holds the job
//! — after any crash the marker says exactly which statements are durable,
//! and a process whose lease was taken cannot commit. A script's own
//! `BEGIN … COMMIT` is one unit, its marker written just before its
//! `COMMIT`. `COPY … FROM stdin` data goes through the copy-in protocol.
//! Stop-on-error commits the statements before the failing one.
//!
//! Round trips: consecutive statements whose work is bounded by their
//! text (`INSERT … VALUES`, `CREATE TABLE …(…)`: [`classify::groupable`])
//! go as one *group* — one simple-query
//! string of up to `group_statements` statements (100 by default) or 1 MiB,
//! never past the open batch's limits — instead of one round trip each.
//! In a batch every statement of the group keeps its own savepoint inside
//! the string; PostgreSQL stops the string at the first error, the
//! command completions before it say which statement failed, that
//! statement's savepoint is rolled back and it is reported as a single
//! statement would be, and the statements after it (never executed) are
//! queued again (they may form a new group). So a group obeys
//! exactly the rules of one statement at a time: the same batches and
//! markers, the same errors on the same statements, the same stop-on-error
//! and resume points; only live progress moves per group (PostgreSQL
//! sends a string's completions together at its end). Everything else —
//! queries, `RETURNING`, `INSERT … SELECT`, `UPDATE`, `DELETE`, other DDL,
//! `COPY`, savepoint and transaction statements, anything after a failure
//! inside the script's own transaction — runs one at a time (so a long
//! statement shows the progress before it and is cancelled alone) (extended protocol, binary
//! rows). A row whose value is longer than `max_value_bytes` fails its
//! statement, as in the embedded engine.
//!
//! Cancellation is checked between statements and batches; a statement
//! that runs when it is requested (from any front-end: the notification or
//! the watcher's re-poll brings it) is stopped with `pg_cancel_backend`.
//! The open batch is rolled back. A lost connection or a shutdown leaves
//! the job `interrupted` at its last durable batch.

use std::collections::VecDeque;
use std::io::Read;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use asadb_reservoir::contract::{BATCH_BYTES, BATCH_STATEMENTS};
use asadb_reservoir::results::StatementSummary;
use asadb_reservoir::{Error, Job, JobError, JobId, JobState, Progress, Result};
use asadb_sql::script::{Splitter, SplitterOptions, Statement};
use bytes::Bytes;
use futures_util::{SinkExt, StreamExt};
use tokio::sync::{mpsc, watch};
use tokio_postgres::types::{ToSql, Type};

use crate::classify::{self, Control, Rows};
use crate::engine::{Event, Live, Shared};
use crate::error::{is_connection_lost, message, pg};
use crate::jobs::{self, Ending, JOB_COLUMNS};
use crate::results::ResultSink;
use crate::values::Cell;

mod group;

use group::{GroupEnd, gather, groupable, run_group};

/// Longest statement excerpt kept in errors and summaries.
const EXCERPT: usize = 120;
/// The watcher's re-poll of the running job's row.
const WATCH_EVERY: Duration = Duration::from_millis(250);
/// Live progress reaches the job row at least this often.
const PERSIST_EVERY: Duration = Duration::from_millis(250);

/// How a run ended.
enum Outcome {
    Completed,
    Failed(JobError),
    Cancelled,
    /// Stopped at its last durable batch (connection lost, shutdown).
    Interrupted(String),
    /// Another process holds the job now (this one's lease expired).
    Lost,
}

/// The executor connection and whether it holds the executor lock.
struct Executor {
    client: tokio_postgres::Client,
    pid: i32,
    locked: bool,
}

impl Executor {
    async fn connect(shared: &Shared) -> Result<Executor> {
        let client = shared.connect("executor").await?;
        let idle = shared.cfg.lease.as_millis() * 3;
        client
            .batch_execute(&format!("SET idle_in_transaction_session_timeout = {idle}"))
            .await
            .map_err(pg)?;
        let pid = client.query_one("SELECT pg_backend_pid()", &[]).await.map_err(pg)?.get(0);
        Ok(Executor { client, pid, locked: false })
    }

    /// Tries to take the executor lock (kept while a job runs: the
    /// connection is replaced after every job; given back when the queue
    /// is empty).
    async fn lock(&mut self) -> Result<bool> {
        if !self.locked {
            let key = crate::schema::executor_lock_key();
            let row = self
                .client
                .query_one("SELECT pg_try_advisory_lock($1)", &[&key])
                .await
                .map_err(pg)?;
            self.locked = row.get(0);
        }
        Ok(self.locked)
    }

    /// Gives the executor lock back (held only while a job is claimed and
    /// runs).
    async fn unlock(&mut self) -> Result<()> {
        if self.locked {
            self.client
                .query_one("SELECT pg_advisory_unlock($1)", &[&crate::schema::executor_lock_key()])
                .await
                .map_err(pg)?;
            self.locked = false;
        }
        Ok(())
    }

    /// Claims the oldest queued job.
    async fn claim(&mut self, shared: &Shared) -> Result<Option<Job>> {
        let sql = &shared.sql;
        let tx = self.client.transaction().await.map_err(pg)?;
        // Not waiting for the WAL flush: the job's first durable batch
        // flushes past the claim; a claim lost in a crash (nothing durable
        // ran yet) leaves the job queued.
        tx.batch_execute("SET LOCAL synchronous_commit = off").await.map_err(pg)?;
        let text = sql.q(&format!(
            "UPDATE @.jobs SET state = 'processing', owner = $1, executor_pid = pg_backend_pid(), \
             updated_at = GREATEST(updated_at, NOW_MS) WHERE id = \
             (SELECT id FROM @.jobs WHERE state = 'queued' ORDER BY created_at, id \
              LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING {JOB_COLUMNS}"
        ));
        let Some(row) = tx.query_opt(&text, &[&shared.owner]).await.map_err(pg)? else {
            return Ok(None);
        };
        let job = jobs::job_of(&row)?;
        jobs::event(&tx, sql, job.id, JobState::Processing).await?;
        tx.commit().await.map_err(pg)?;
        Ok(Some(job))
    }
}

pub(crate) async fn run(shared: Arc<Shared>) {
    let mut stop = shared.stop.subscribe();
    let mut events = shared.events.subscribe();
    let mut exec: Option<Executor> = None;
    loop {
        if shared.stopping() {
            return;
        }
        if exec.as_ref().is_some_and(|x| x.client.is_closed()) {
            exec = None;
        }
        if exec.is_none() {
            match Executor::connect(&shared).await {
                Ok(x) => exec = Some(x),
                Err(e) => tracing::warn!("reservoir worker: no executor connection: {e}"),
            }
        }
        if let Some(x) = exec.as_mut() {
            let claimed = match x.lock().await {
                Ok(true) => x.claim(&shared).await,
                Ok(false) => Ok(None),
                Err(e) => Err(e),
            };
            match claimed {
                Ok(Some(job)) => {
                    let x = exec.take().expect("held above");
                    run_job(&shared, x, job).await;
                    continue;
                }
                Ok(None) => {
                    // Nothing to run here: give the database's executor
                    // lock back, so a Reservoir of another schema on the
                    // same database can run its jobs meanwhile.
                    if let Err(e) = x.unlock().await {
                        tracing::warn!("reservoir worker: releasing the executor lock: {e}");
                        exec = None;
                    }
                }
                Err(e) => {
                    tracing::warn!("reservoir worker: claiming failed: {e}");
                    exec = None;
                }
            }
        }
        // Idle until a job is queued anywhere, the listener reconnects, or
        // the safety-net re-poll.
        let deadline = tokio::time::Instant::now() + shared.cfg.poll_interval;
        loop {
            tokio::select! {
                _ = stop.wait_for(|s| *s) => return,
                _ = tokio::time::sleep_until(deadline) => break,
                ev = events.recv() => match ev {
                    Ok(Event::Job { state: JobState::Queued, .. }) | Ok(Event::Reconnected) => break,
                    Ok(_) => {}
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => break,
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
                },
            }
        }
    }
}

/// A task aborted when this handle is dropped.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Whether a script statement is in flight on the executor connection,
/// so the watcher cancels script statements only, never the executor's
/// own bookkeeping.
#[derive(Default)]
struct InFlight {
    running: bool,
}

/// Shared by the run and its watcher.
struct Signals {
    cancel: watch::Receiver<bool>,
    lost: AtomicBool,
    in_flight: tokio::sync::Mutex<InFlight>,
}

async fn run_job(shared: &Arc<Shared>, mut x: Executor, job: Job) {
    let id = job.id;
    let (cancel_tx, cancel_rx) = watch::channel(false);
    *shared.live.lock() = Some(Live {
        id,
        progress: job.progress.clone(),
        errors: job.statement_errors.clone(),
        cancel: cancel_tx,
    });
    shared.counters.lock().since = Some(Instant::now());
    let signals = Arc::new(Signals {
        cancel: cancel_rx,
        lost: AtomicBool::new(false),
        in_flight: tokio::sync::Mutex::new(InFlight::default()),
    });
    // Aborted with the run, however the run ends (even when the worker
    // itself is aborted).
    let watcher = AbortOnDrop(tokio::spawn(watch_job(shared.clone(), id, x.pid, signals.clone())));
    let mut results = None;
    let outcome = execute(shared, &mut x, &job, &signals, &mut results).await;
    drop(watcher);
    let outcome = match outcome {
        Ok(o) => o,
        Err(RunError::Lost) => Outcome::Lost,
        Err(RunError::Pg(e)) if signals.lost.load(Ordering::SeqCst) => {
            tracing::debug!("run of job {id} ended after its lease was lost: {e}");
            Outcome::Lost
        }
        Err(RunError::Pg(e)) if *signals.cancel.borrow() => {
            tracing::debug!("run of job {id} cancelled: {e}");
            Outcome::Cancelled
        }
        Err(RunError::Pg(e)) if is_connection_lost(&e) || shared.stopping() => {
            Outcome::Interrupted(format!(
                "the connection running the job was lost: {}",
                message(&e)
            ))
        }
        // A failure outside the script's own statements (the engine's
        // bookkeeping, the spool, the result tables) is not the script's
        // fault: the job stops at its last durable batch, resumable.
        Err(RunError::Pg(e)) => {
            Outcome::Interrupted(format!("the engine's bookkeeping failed: {}", message(&e)))
        }
        Err(RunError::Reservoir(e)) => Outcome::Interrupted(format!("the engine failed: {e}")),
    };
    // A batch still open is rolled back now; the executor's session (and
    // with it the executor lock) ends only once the ending is recorded, so
    // no executor anywhere claims a job while this one still shows as
    // processing. A fresh session serves the next job.
    if let Err(e) = x.client.batch_execute("ROLLBACK").await {
        tracing::debug!("rolling back after job {id}: {e}");
    }
    {
        let mut c = shared.counters.lock();
        if let Some(since) = c.since.take() {
            c.executing += since.elapsed();
        }
    }
    // The live entry stays until the ending is recorded: this process's
    // watch never mistakes the job for an abandoned upload meanwhile.
    let progress = shared
        .live
        .lock()
        .as_ref()
        .filter(|l| l.id == id)
        .map(|l| (l.progress.clone(), l.errors.clone()));
    // The ending is recorded with retries: a brief outage must not leave
    // the job processing until its lease expires.
    for attempt in 0..5 {
        match record_ending(shared, id, &outcome, progress.as_ref(), results).await {
            Ok(()) => break,
            Err(e) => {
                tracing::warn!("recording the end of job {id} failed (attempt {attempt}): {e}");
                tokio::time::sleep(Duration::from_millis(200 << attempt)).await;
            }
        }
    }
    drop(x);
    shared.live.lock().take();
}

/// A finished result's shape (statements, first statement, rows per
/// page), recorded with the job's end.
type Shape = (u64, u64, usize);

async fn record_ending(
    shared: &Shared,
    id: JobId,
    outcome: &Outcome,
    progress: Option<&(Progress, Vec<JobError>)>,
    result: Option<Shape>,
) -> Result<()> {
    let sql = &shared.sql;
    let (to, error, keep_spool) = match outcome {
        Outcome::Lost => return Ok(()),
        Outcome::Completed => (JobState::Completed, None, false),
        Outcome::Failed(e) => (JobState::Failed, Some(e.clone()), false),
        Outcome::Cancelled => (JobState::Cancelled, None, false),
        Outcome::Interrupted(why) => (
            JobState::Interrupted,
            Some(JobError {
                code: "interrupted".into(),
                message: format!("{why}; resume it to continue after its last durable statement"),
                statement: None,
                excerpt: None,
            }),
            true,
        ),
    };
    if !matches!(to, JobState::Completed | JobState::Failed) || result.is_none() {
        crate::results::discard(shared, id).await?;
    }
    let mut client = shared.client().await?;
    let tx = client.transaction().await.map_err(pg)?;
    jobs::capacity(&*tx, sql, true).await?;
    if let Some((p, errors)) = progress {
        write_progress(&*tx, shared, id, p, errors, None).await?;
    }
    let result = if matches!(to, JobState::Completed | JobState::Failed) { result } else { None };
    let end = Ending { to, error: error.as_ref(), keep_spool, result, owner: Some(&shared.owner) };
    if jobs::finish(&*tx, sql, id, end).await?.is_some() && !keep_spool {
        // A finished job needs no marker: nothing can resume it.
        tx.execute(&sql.q("DELETE FROM @.progress WHERE job_id = $1"), &[&(id.0 as i64)])
            .await
            .map_err(pg)?;
    }
    tx.commit().await.map_err(pg)
}

/// Writes a job's progress columns (and, with `committed`, the durable
/// statement count) while this process holds the job. Returns whether it
/// still does.
async fn write_progress(
    c: &impl tokio_postgres::GenericClient,
    shared: &Shared,
    id: JobId,
    p: &Progress,
    errors: &[JobError],
    committed: Option<u64>,
) -> Result<bool> {
    let text =
        shared.sql.q("UPDATE @.jobs SET bytes_done = $3, bytes_total = $4, statements_done = $5, \
         statements_committed = COALESCE($6, statements_committed), rows_affected = $7, \
         errors = $8, percent = $9, statement_errors = $10, \
         updated_at = GREATEST(updated_at, NOW_MS) \
         WHERE id = $1 AND owner = $2 AND state IN ('processing', 'cancelling')");
    let errors = serde_json::to_value(errors).unwrap_or(serde_json::Value::Array(Vec::new()));
    let committed = committed.map(|n| n as i64);
    let params: [(&(dyn ToSql + Sync), Type); 10] = [
        (&(id.0 as i64), Type::INT8),
        (&shared.owner, Type::TEXT),
        (&(p.bytes_done as i64), Type::INT8),
        (&(p.bytes_total as i64), Type::INT8),
        (&(p.statements_done as i64), Type::INT8),
        (&committed, Type::INT8),
        (&(p.rows_affected as i64), Type::INT8),
        (&(p.errors as i64), Type::INT8),
        (&p.percent, Type::FLOAT8),
        (&errors, Type::JSONB),
    ];
    let n = c.execute_typed(&text, &params).await.map_err(pg)?;
    Ok(n == 1)
}

/// Re-reads the running job's row (and wakes on its notifications):
/// raises the cancel flag when it says `cancelling`, notices a lost
/// lease, and stops a script statement in flight with `pg_cancel_backend`
/// while a cancel, a shutdown or a lost lease stands.
async fn watch_job(shared: Arc<Shared>, id: JobId, pid: i32, signals: Arc<Signals>) {
    let mut events = shared.events.subscribe();
    let mut cancel = signals.cancel.clone();
    loop {
        tokio::select! {
            _ = tokio::time::sleep(WATCH_EVERY) => {}
            _ = cancel.changed() => {}
            ev = events.recv() => {
                if !matches!(ev, Ok(Event::Job { id: j, .. }) if j == id)
                    && !matches!(ev, Ok(Event::Reconnected))
                {
                    continue;
                }
            }
        }
        if let Ok(client) = shared.client().await {
            let text = shared.sql.q("SELECT state, owner FROM @.jobs WHERE id = $1");
            match client.query_opt(&text, &[&(id.0 as i64)]).await {
                Ok(Some(row)) => {
                    let state: String = row.get(0);
                    let owner: Option<String> = row.get(1);
                    if state == "cancelling" {
                        shared.flag_cancel(id);
                    } else if state != "processing" || owner.as_deref() != Some(&shared.owner) {
                        signals.lost.store(true, Ordering::SeqCst);
                    }
                }
                Ok(None) => signals.lost.store(true, Ordering::SeqCst),
                Err(_) => {}
            }
        }
        let stop =
            *signals.cancel.borrow() || shared.stopping() || signals.lost.load(Ordering::SeqCst);
        if stop {
            let in_flight = signals.in_flight.lock().await;
            if in_flight.running
                && let Ok(client) = shared.client().await
            {
                let _ = client.execute("SELECT pg_cancel_backend($1)", &[&pid]).await;
            }
        }
    }
}

/// Why a run stopped early.
enum RunError {
    Pg(tokio_postgres::Error),
    Reservoir(Error),
    Lost,
}

impl From<tokio_postgres::Error> for RunError {
    fn from(e: tokio_postgres::Error) -> Self {
        RunError::Pg(e)
    }
}

impl From<Error> for RunError {
    fn from(e: Error) -> Self {
        RunError::Reservoir(e)
    }
}

/// Spool chunks for the splitter: a synchronous `Read` over chunks that an
/// async task fetches ahead, `WouldBlock` while the next one is on its way.
struct ChunkReader {
    chunk: Bytes,
    eof: bool,
    rx: mpsc::Receiver<Result<Bytes>>,
}

impl Read for ChunkReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.chunk.is_empty() {
            return if self.eof { Ok(0) } else { Err(std::io::ErrorKind::WouldBlock.into()) };
        }
        let n = buf.len().min(self.chunk.len());
        buf[..n].copy_from_slice(&self.chunk.split_to(n));
        Ok(n)
    }
}

impl ChunkReader {
    /// Waits for the next chunk.
    async fn fill(&mut self) -> Result<()> {
        match self.rx.recv().await {
            Some(Ok(chunk)) => self.chunk = chunk,
            Some(Err(e)) => return Err(e),
            None => self.eof = true,
        }
        Ok(())
    }
}

/// Fetches a job's chunks from byte `from` on, in order, two ahead.
fn spool_reader(shared: Arc<Shared>, id: JobId, from: u64, total: u64) -> ChunkReader {
    let (tx, rx) = mpsc::channel(2);
    tokio::spawn(async move {
        let fetch = async {
            let client = shared.client().await?;
            let text =
                shared.sql.q("SELECT seq, byte_offset, data FROM @.spool WHERE job_id = $1 \
                 AND byte_offset + length(data) > $2 ORDER BY seq LIMIT 1");
            let next = shared
                .sql
                .q("SELECT seq, byte_offset, data FROM @.spool WHERE job_id = $1 AND seq = $2");
            let mut at = from;
            let mut row =
                client.query_opt(&text, &[&(id.0 as i64), &(from as i64)]).await.map_err(pg)?;
            while at < total {
                let Some(r) = row.take() else {
                    return Err(Error::Corrupt(format!(
                        "job {id}: the spool ends at byte {at} of {total}"
                    )));
                };
                let (seq, offset, data): (i32, i64, Vec<u8>) = (r.get(0), r.get(1), r.get(2));
                let offset = offset as u64;
                if offset > at || offset + data.len() as u64 <= at {
                    return Err(Error::Corrupt(format!(
                        "job {id}: spool chunk {seq} starts at {offset}, expected {at}"
                    )));
                }
                let chunk = Bytes::from(data).slice((at - offset) as usize..);
                at += chunk.len() as u64;
                if tx.send(Ok(chunk)).await.is_err() {
                    return Ok(());
                }
                if at < total {
                    row =
                        client.query_opt(&next, &[&(id.0 as i64), &(seq + 1)]).await.map_err(pg)?;
                }
            }
            Ok(())
        };
        if let Err(e) = fetch.await {
            let _ = tx.send(Err(e)).await;
        }
    });
    ChunkReader { chunk: Bytes::new(), eof: false, rx }
}

/// The running state of one job's execution (see the embedded worker's
/// `Run`, whose rules this mirrors).
struct Run<'a> {
    shared: &'a Arc<Shared>,
    id: JobId,
    total: u64,
    batch_open: bool,
    /// The per-statement savepoint exists in the open batch.
    savepoint: bool,
    script_txn: bool,
    /// A statement inside the script's own transaction failed: PostgreSQL
    /// has aborted it, and its COMMIT can only roll it back.
    script_failed: bool,
    batch_statements: u64,
    batch_bytes: u64,
    done: u64,
    committed: u64,
    offset: u64,
    last_persist: u64,
    last_persist_at: Instant,
}

impl Run<'_> {
    async fn begin_batch(&mut self, x: &Executor) -> std::result::Result<(), RunError> {
        x.client.batch_execute("BEGIN").await?;
        self.batch_open = true;
        self.savepoint = false;
        Ok(())
    }

    async fn commit_batch(&mut self, x: &Executor) -> std::result::Result<(), RunError> {
        let (done, offset) = (self.done, self.offset);
        self.commit_batch_at(x, done, offset).await
    }

    /// Commits the open batch with a marker saying statements `< next` are
    /// durable and the script continues at byte `offset`.
    async fn commit_batch_at(
        &mut self,
        x: &Executor,
        next: u64,
        offset: u64,
    ) -> std::result::Result<(), RunError> {
        if !self.batch_open {
            return Ok(());
        }
        self.write_marker(x, next, offset).await?;
        x.client.batch_execute("COMMIT").await?;
        self.batch_open = false;
        self.savepoint = false;
        self.batch_statements = 0;
        self.batch_bytes = 0;
        self.committed = next;
        let committed = self.committed;
        self.progress(|p| p.statements_committed = committed);
        Ok(())
    }

    /// Inside the open transaction: the marker, and the job's progress
    /// with the check that this process still holds the job (one round
    /// trip for both).
    async fn write_marker(
        &mut self,
        x: &Executor,
        next: u64,
        offset: u64,
    ) -> std::result::Result<(), RunError> {
        let (p, errors) = self.snapshot();
        let rows = p.rows_affected as i64;
        let marker = self.shared.sql.q(
            "INSERT INTO @.progress (job_id, statement, byte_offset, rows_affected) \
             VALUES ($1, $2, $3, $4) ON CONFLICT (job_id) DO UPDATE SET \
             statement = EXCLUDED.statement, byte_offset = EXCLUDED.byte_offset, \
             rows_affected = EXCLUDED.rows_affected",
        );
        let (id, next_i, offset_i) = (self.id.0 as i64, next as i64, offset as i64);
        let params: [(&(dyn ToSql + Sync), Type); 4] = [
            (&id, Type::INT8),
            (&next_i, Type::INT8),
            (&offset_i, Type::INT8),
            (&rows, Type::INT8),
        ];
        let (_, held) = tokio::try_join!(
            async { x.client.execute_typed(&marker, &params).await.map_err(RunError::Pg) },
            async {
                write_progress(&x.client, self.shared, self.id, &p, &errors, Some(next))
                    .await
                    .map_err(RunError::Reservoir)
            },
        )?;
        if !held {
            return Err(RunError::Lost);
        }
        Ok(())
    }

    async fn rollback(&mut self, x: &Executor) -> std::result::Result<(), RunError> {
        if self.batch_open || self.script_txn {
            x.client.batch_execute("ROLLBACK").await?;
        }
        self.batch_open = false;
        self.savepoint = false;
        self.script_txn = false;
        self.script_failed = false;
        Ok(())
    }

    fn snapshot(&self) -> (Progress, Vec<JobError>) {
        let live = self.shared.live.lock();
        match live.as_ref() {
            Some(l) if l.id == self.id => (l.progress.clone(), l.errors.clone()),
            _ => (Progress::default(), Vec::new()),
        }
    }

    fn record_error(&self, error: JobError) {
        let max = self.shared.rcfg().max_recorded_errors;
        if let Some(l) = self.shared.live.lock().as_mut()
            && l.id == self.id
            && l.errors.len() < max
        {
            l.errors.push(error);
        }
    }

    fn progress(&self, f: impl FnOnce(&mut Progress)) {
        if let Some(l) = self.shared.live.lock().as_mut()
            && l.id == self.id
        {
            let p = &mut l.progress;
            p.bytes_done = self.offset;
            p.bytes_total = self.total;
            p.statements_done = self.done;
            p.percent = if self.total == 0 {
                100.0
            } else {
                (self.offset as f64 * 100.0 / self.total as f64).min(100.0)
            };
            f(p);
        }
    }

    fn statement_done(&self, bytes: u64, f: impl FnOnce(&mut Progress)) {
        {
            let mut c = self.shared.counters.lock();
            c.executed_statements += 1;
            c.executed_bytes += bytes;
        }
        self.progress(f);
    }

    /// Persists live progress every quantum of script bytes or every
    /// [`PERSIST_EVERY`], so other front-ends see it move.
    async fn maybe_persist(&mut self) -> std::result::Result<(), RunError> {
        let quantum = self.shared.rcfg().progress_quantum_bytes.max(1);
        if self.offset - self.last_persist >= quantum
            || self.last_persist_at.elapsed() >= PERSIST_EVERY
        {
            let (p, errors) = self.snapshot();
            // A progress snapshot need not be durable (a batch commit
            // writes the durable one).
            let client = self.shared.lazy_client().await?;
            if !write_progress(&**client, self.shared, self.id, &p, &errors, None).await? {
                return Err(RunError::Lost);
            }
            self.last_persist = self.offset;
            self.last_persist_at = Instant::now();
        }
        Ok(())
    }
}

/// What one statement did, or why it failed.
enum StmtError {
    /// The statement's own error: recorded, the job goes on or stops.
    Sql(String),
    /// Anything else (the connection, the result tables): ends the run.
    Run(RunError),
}

/// Runs one job from its durable position to its end.
async fn execute(
    shared: &Arc<Shared>,
    x: &mut Executor,
    job: &Job,
    signals: &Arc<Signals>,
    shape: &mut Option<Shape>,
) -> std::result::Result<Outcome, RunError> {
    let id = job.id;
    let sql = &shared.sql;
    let marker = x
        .client
        .query_opt(
            &sql.q(
                "SELECT statement, byte_offset, rows_affected FROM @.progress WHERE job_id = $1",
            ),
            &[&(id.0 as i64)],
        )
        .await?;
    let (first, start_offset, rows_before) = marker.map_or((0, 0, 0), |r| {
        (r.get::<_, i64>(0) as u64, r.get::<_, i64>(1) as u64, r.get::<_, i64>(2) as u64)
    });
    let total = job.received_bytes;
    let mut results = ResultSink::create(shared.clone(), id, first).await?;
    let reader = spool_reader(shared.clone(), id, start_offset, total);
    let mut splitter = Splitter::with_options(reader, SplitterOptions::default());
    let mut run = Run {
        shared,
        id,
        total,
        batch_open: false,
        savepoint: false,
        script_txn: false,
        script_failed: false,
        batch_statements: 0,
        batch_bytes: 0,
        done: first,
        committed: first,
        offset: start_offset,
        last_persist: start_offset,
        last_persist_at: Instant::now(),
    };
    // A resumed job continues its counters from the durable marker.
    run.progress(|p| {
        p.rows_affected = rows_before;
        p.statements_committed = first;
    });
    let stop_on_error = job.stop_on_error;
    // Statements read ahead (a group's look-ahead, or the unexecuted rest
    // of a group that failed): they come before the splitter's next.
    let mut queue: VecDeque<std::result::Result<Statement, asadb_sql::Error>> = VecDeque::new();
    loop {
        if *signals.cancel.borrow() {
            run.rollback(x).await?;
            return Ok(Outcome::Cancelled);
        }
        if signals.lost.load(Ordering::SeqCst) {
            return Ok(Outcome::Lost);
        }
        if shared.stopping() {
            run.rollback(x).await?;
            return Ok(Outcome::Interrupted("the server shut down".into()));
        }
        let next = match queue.pop_front() {
            Some(s) => Some(s),
            None => match splitter.next() {
                Some(Err(asadb_sql::Error::Io(e)))
                    if e.kind() == std::io::ErrorKind::WouldBlock =>
                {
                    splitter.reader_mut().fill().await?;
                    continue;
                }
                other => other,
            },
        };
        let mut stmt = match next {
            None => break,
            Some(Err(e)) => {
                run.rollback(x).await?;
                return Ok(Outcome::Failed(JobError {
                    code: "script_error".into(),
                    message: e.to_string(),
                    statement: Some(run.done),
                    excerpt: None,
                }));
            }
            Some(Ok(s)) => s,
        };
        let control = classify::control(&stmt.text);
        // A run of plain statements goes as one group; its failing
        // statement (if any) is reported below like a single one.
        let mut group_failure = None;
        if control == Control::None && groupable(&stmt) && !run.script_failed {
            let mut group = vec![stmt];
            gather(&mut group, &mut queue, &mut splitter, &run).await?;
            if group.len() == 1 {
                stmt = group.pop().expect("one statement");
            } else {
                if !run.script_txn && !run.batch_open {
                    run.begin_batch(x).await?;
                }
                let r = run_group(x, &mut run, group, first, start_offset, &mut results, signals);
                match r.await? {
                    GroupEnd::Done => {
                        if run.batch_open
                            && (run.batch_statements >= BATCH_STATEMENTS
                                || run.batch_bytes >= BATCH_BYTES)
                        {
                            run.commit_batch(x).await?;
                        }
                        run.maybe_persist().await?;
                        continue;
                    }
                    GroupEnd::Failed { stmt: failed, error, started, rest } => {
                        for s in rest.into_iter().rev() {
                            queue.push_front(Ok(s));
                        }
                        stmt = failed;
                        group_failure = Some((error, started));
                    }
                }
            }
        }
        let index = first + stmt.index;
        let end = start_offset + stmt.end;
        let excerpt: String = stmt.text.chars().take(EXCERPT).collect();
        let started = group_failure.as_ref().map_or_else(Instant::now, |f| f.1);
        let outcome: std::result::Result<StatementSummary, StmtError> = match control {
            // The failing statement of a group (its savepoint, in a batch,
            // is rolled back already).
            _ if group_failure.is_some() => {
                Err(group_failure.take().map(|f| f.0).expect("checked above"))
            }
            Control::Begin if !run.script_txn => {
                run.commit_batch(x).await?;
                match x.client.batch_execute(&stmt.text).await {
                    Ok(()) => {
                        run.script_txn = true;
                        Ok(empty_summary())
                    }
                    Err(e) => Err(sql_error(e)),
                }
            }
            Control::Commit if run.script_txn && run.script_failed => {
                run.rollback(x).await?;
                Err(StmtError::Sql(
                    "the script's transaction was rolled back: a statement inside it failed".into(),
                ))
            }
            Control::Commit if run.script_txn => {
                run.write_marker(x, index + 1, end).await?;
                match x.client.batch_execute(&stmt.text).await {
                    Ok(()) => {
                        run.script_txn = false;
                        run.committed = index + 1;
                        let committed = run.committed;
                        run.progress(|p| p.statements_committed = committed);
                        Ok(empty_summary())
                    }
                    Err(e) => Err(sql_error(e)),
                }
            }
            Control::Rollback if run.script_txn => {
                run.script_txn = false;
                run.script_failed = false;
                x.client
                    .batch_execute(&stmt.text)
                    .await
                    .map_err(sql_error)
                    .map(|()| empty_summary())
            }
            // Outside the script's own transaction a COMMIT or ROLLBACK
            // has nothing to end (PostgreSQL only warns); sending it would
            // end the batch without its marker.
            Control::Commit | Control::Rollback => Ok(empty_summary()),
            Control::Refused(what) => {
                Err(StmtError::Sql(format!("{what} is not supported in a Reservoir job")))
            }
            Control::Begin | Control::None => {
                if !run.script_txn && !run.batch_open {
                    run.begin_batch(x).await?;
                }
                let r = run_statement(x, &mut run, &stmt, index, &mut results, signals).await;
                if r.is_err() && run.batch_open && run.savepoint {
                    x.client.batch_execute("ROLLBACK TO SAVEPOINT asadb_stmt").await?;
                }
                r
            }
        };
        let outcome = match outcome {
            Err(StmtError::Run(e)) => return Err(e),
            Err(StmtError::Sql(_)) if *signals.cancel.borrow() => {
                run.rollback(x).await?;
                return Ok(Outcome::Cancelled);
            }
            Err(StmtError::Sql(_)) if signals.lost.load(Ordering::SeqCst) => {
                return Ok(Outcome::Lost);
            }
            Err(StmtError::Sql(_)) if shared.stopping() => {
                run.rollback(x).await?;
                return Ok(Outcome::Interrupted("the server shut down".into()));
            }
            other => other,
        };
        let elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
        run.done = index + 1;
        run.offset = end;
        run.batch_statements += 1;
        run.batch_bytes += stmt.end - stmt.start;
        match outcome {
            Ok(summary) => {
                if !matches!(control, Control::None) {
                    results.begin_statement(index);
                }
                let rows = summary.rows_affected;
                results
                    .end_statement(StatementSummary {
                        statement: index,
                        excerpt,
                        elapsed_ms,
                        ..summary
                    })
                    .await?;
                run.statement_done(stmt.end - stmt.start, |p| p.rows_affected += rows);
            }
            Err(StmtError::Sql(message)) => {
                let error = JobError {
                    code: "sql_error".into(),
                    message,
                    statement: Some(index),
                    excerpt: Some(excerpt.clone()),
                };
                if !matches!(control, Control::None) {
                    results.begin_statement(index);
                }
                results
                    .end_statement(StatementSummary {
                        statement: index,
                        excerpt,
                        rows_affected: 0,
                        columns: None,
                        row_count: 0,
                        error: Some(error.clone()),
                        elapsed_ms,
                    })
                    .await?;
                run.statement_done(stmt.end - stmt.start, |p| p.errors += 1);
                if stop_on_error {
                    if run.script_txn {
                        run.rollback(x).await?;
                    } else {
                        run.commit_batch_at(x, index, stmt.start + start_offset).await?;
                    }
                    *shape = Some(results.finish().await?);
                    return Ok(Outcome::Failed(error));
                }
                if run.script_txn {
                    run.script_failed = true;
                }
                run.record_error(error);
            }
            Err(StmtError::Run(_)) => unreachable!("returned above"),
        }
        if run.batch_open
            && (run.batch_statements >= BATCH_STATEMENTS || run.batch_bytes >= BATCH_BYTES)
        {
            run.commit_batch(x).await?;
        }
        run.maybe_persist().await?;
    }
    if run.script_txn {
        run.rollback(x).await?;
        *shape = Some(results.finish().await?);
        return Ok(Outcome::Failed(JobError {
            code: "open_transaction".into(),
            message: "the script ended inside its own open transaction; \
                      the statements since its BEGIN were rolled back"
                .into(),
            statement: None,
            excerpt: None,
        }));
    }
    run.commit_batch(x).await?;
    *shape = Some(results.finish().await?);
    run.offset = total.max(run.offset);
    run.progress(|p| p.percent = 100.0);
    Ok(Outcome::Completed)
}

fn sql_error(e: tokio_postgres::Error) -> StmtError {
    if is_connection_lost(&e) {
        StmtError::Run(RunError::Pg(e))
    } else {
        StmtError::Sql(message(&e))
    }
}

fn empty_summary() -> StatementSummary {
    StatementSummary {
        statement: 0,
        excerpt: String::new(),
        rows_affected: 0,
        columns: None,
        row_count: 0,
        error: None,
        elapsed_ms: 0.0,
    }
}

/// Runs one ordinary statement under its savepoint (pipelined with it:
/// one round trip), streaming any rows into the result.
async fn run_statement(
    x: &Executor,
    run: &mut Run<'_>,
    stmt: &asadb_sql::script::Statement,
    index: u64,
    results: &mut ResultSink,
    signals: &Signals,
) -> std::result::Result<StatementSummary, StmtError> {
    let prefix = match (run.batch_open, run.savepoint) {
        (false, _) => None,
        (true, false) => Some("SAVEPOINT asadb_stmt"),
        (true, true) => Some("RELEASE SAVEPOINT asadb_stmt; SAVEPOINT asadb_stmt"),
    };
    let savepoint = async {
        match prefix {
            Some(p) => x.client.batch_execute(p).await,
            None => Ok(()),
        }
    };
    signals.in_flight.lock().await.running = true;
    let outcome = statement_body(x, savepoint, stmt, index, results).await;
    signals.in_flight.lock().await.running = false;
    if prefix.is_some() {
        // The savepoint exists unless its own command failed.
        run.savepoint = !matches!(outcome, Err(StmtError::Run(_)));
    }
    outcome
}

async fn statement_body(
    x: &Executor,
    savepoint: impl std::future::Future<Output = std::result::Result<(), tokio_postgres::Error>>,
    stmt: &asadb_sql::script::Statement,
    index: u64,
    results: &mut ResultSink,
) -> std::result::Result<StatementSummary, StmtError> {
    let mut summary = empty_summary();
    if let Some(data) = &stmt.copy_data {
        let (sp, sink) = tokio::join!(savepoint, x.client.copy_in::<_, Bytes>(&stmt.text));
        sp.map_err(|e| StmtError::Run(RunError::Pg(e)))?;
        let mut sink = Box::pin(sink.map_err(sql_error)?);
        sink.send(Bytes::from(data.clone().into_bytes())).await.map_err(sql_error)?;
        summary.rows_affected = sink.as_mut().finish().await.map_err(sql_error)?;
        return Ok(summary);
    }
    let class = classify::rows(&stmt.text);
    let no_params: [(&(dyn ToSql + Sync), Type); 0] = [];
    let (sp, stream) = tokio::join!(savepoint, x.client.query_typed_raw(&stmt.text, no_params));
    sp.map_err(|e| StmtError::Run(RunError::Pg(e)))?;
    let stream = stream.map_err(sql_error)?;
    futures_util::pin_mut!(stream);
    results.begin_statement(index);
    let mut columns: Option<Vec<String>> = None;
    let max_value = results.max_value_bytes();
    let mut line = String::new();
    let mut values = Vec::new();
    while let Some(row) = stream.next().await {
        let row = row.map_err(sql_error)?;
        if columns.is_none() {
            columns = Some(row.columns().iter().map(|c| c.name().to_string()).collect());
        }
        values.clear();
        for i in 0..row.len() {
            match row.try_get::<_, Cell>(i) {
                Ok(Cell(v)) => values.push(v),
                Err(e) => {
                    let why = std::error::Error::source(&e)
                        .map_or_else(|| e.to_string(), |s| s.to_string());
                    return Err(StmtError::Sql(format!(
                        "column {:?}: {why}",
                        row.columns()[i].name()
                    )));
                }
            }
        }
        // A value the server would refuse to send fails its statement (as
        // in the embedded engine).
        asadb_reservoir::check_value_sizes(&values, max_value)
            .map_err(|e| StmtError::Sql(e.to_string()))?;
        line.clear();
        asadb_reservoir::row_json(&values, &mut line);
        results.row(std::mem::take(&mut line)).await.map_err(|e| StmtError::Run(e.into()))?;
    }
    let affected = stream.rows_affected().unwrap_or(0);
    if columns.is_none() && class != Rows::Never {
        // No row to read the names from: describe the statement (parse
        // only, nothing runs again).
        columns = Some(match x.client.prepare(&stmt.text).await {
            Ok(s) => s.columns().iter().map(|c| c.name().to_string()).collect(),
            Err(_) => Vec::new(),
        });
    }
    summary.rows_affected = if class == Rows::Query || (columns.is_some() && class == Rows::Never) {
        0
    } else {
        affected
    };
    summary.columns = columns;
    Ok(summary)
}
