//! [`PgReservoir`]: the contract on PostgreSQL — admission, jobs,
//! cancellation, resume, results, retention and stats — and the process's
//! background tasks (listener, heartbeat and maintenance, worker).

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use asadb_reservoir::contract::{BodyUpload, ReservoirEngine};
use asadb_reservoir::results::ResultPage;
use asadb_reservoir::{
    Advice, Config, Error, ImportFormat, Job, JobError, JobId, JobState, Progress, Result, Stats,
    SubmitOptions,
};
use async_trait::async_trait;
use deadpool_postgres::{Object, Pool};
use parking_lot::Mutex;
use tokio::sync::{broadcast, watch};
use tokio::task::JoinHandle;

use crate::config::PgConfig;
use crate::error::{pg, pool};
use crate::jobs::{self, ACTIVE, Capacity, Ending, JOB_COLUMNS};
use crate::schema::{self, Sql};
use crate::upload::PgUpload;

/// What the listener tells the process's tasks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A job changed state (from a notification: re-read the job).
    Job { id: JobId, state: JobState },
    /// The listener (re)connected: notifications sent during the gap are
    /// lost, so every consumer re-reads what it waits for.
    Reconnected,
}

/// The job this process executes, as it runs (fresher than its row).
#[derive(Debug)]
pub(crate) struct Live {
    pub id: JobId,
    pub progress: Progress,
    pub errors: Vec<JobError>,
    pub cancel: watch::Sender<bool>,
}

/// Throughput counters of this process's worker.
#[derive(Debug, Default)]
pub(crate) struct Counters {
    pub executed_bytes: u64,
    pub executed_statements: u64,
    pub executing: Duration,
    pub since: Option<Instant>,
}

/// What the engine's handle and its tasks share.
pub(crate) struct Shared {
    pub cfg: PgConfig,
    /// Connection settings for the non-pooled connections.
    pub pg: tokio_postgres::Config,
    /// Plain or TLS, for every connection.
    pub tls: crate::tls::Tls,
    pub pool: Pool,
    /// Pooled connections whose commits do not wait for the WAL flush
    /// (`synchronous_commit = off`), for writes whose durability a later
    /// synchronous commit provides: chunks of a body (the commit that
    /// queues the job flushes the WAL past them), progress snapshots,
    /// result pages (the commit that ends the job flushes past them),
    /// admission. PostgreSQL flushes the WAL in order, so a durable commit
    /// makes every earlier one durable too.
    pub lazy: Pool,
    pub sql: Sql,
    /// This process's lease id: the `owner` of the jobs it receives or runs.
    pub owner: String,
    pub stopping: AtomicBool,
    pub stop: watch::Sender<bool>,
    pub events: broadcast::Sender<Event>,
    /// Cancel flags of the uploads this process receives.
    pub uploads: Mutex<HashMap<JobId, watch::Sender<bool>>>,
    pub live: Mutex<Option<Live>>,
    pub counters: Mutex<Counters>,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shared")
            .field("schema", &self.sql.schema())
            .field("owner", &self.owner)
            .finish()
    }
}

impl Shared {
    pub(crate) async fn client(&self) -> Result<Object> {
        self.pool.get().await.map_err(pool)
    }

    /// A connection from [`Shared::lazy`].
    pub(crate) async fn lazy_client(&self) -> Result<Object> {
        self.lazy.get().await.map_err(pool)
    }

    pub(crate) fn rcfg(&self) -> &Config {
        &self.cfg.reservoir
    }

    /// The effective limits: the global caps and this front-end's own.
    pub(crate) fn limits(&self, cap: &Capacity) -> (u64, u64) {
        let r = self.rcfg();
        (cap.max_jobs.min(r.max_jobs as u64), cap.max_spool_bytes.min(r.max_spool_bytes))
    }

    /// A non-pooled connection, its driver task spawned.
    pub(crate) async fn connect(&self, role: &str) -> Result<tokio_postgres::Client> {
        let mut cfg = self.pg.clone();
        cfg.application_name(format!("asadb {role} {}", self.owner));
        let (client, _driver) = self.tls.connect(&cfg, None).await.map_err(pg)?;
        Ok(client)
    }

    /// Raises the cancel flag of a local upload or of the running job.
    pub(crate) fn flag_cancel(&self, id: JobId) {
        if let Some(flag) = self.uploads.lock().get(&id) {
            flag.send_replace(true);
        }
        if let Some(live) = self.live.lock().as_ref()
            && live.id == id
        {
            live.cancel.send_replace(true);
        }
    }

    /// Overlays the live progress of the job this process runs.
    pub(crate) fn overlay(&self, mut job: Job) -> Job {
        if let Some(live) = self.live.lock().as_ref()
            && live.id == job.id
            && job.state.is_active()
        {
            job.progress = live.progress.clone();
            job.statement_errors = live.errors.clone();
        }
        job
    }

    pub(crate) fn stopping(&self) -> bool {
        self.stopping.load(Ordering::SeqCst)
    }
}

/// The Reservoir on PostgreSQL. Dropping it without [`ReservoirEngine::
/// shutdown`] stops its tasks at once, as a process death would.
#[derive(Debug)]
pub struct PgReservoir {
    pub(crate) shared: Arc<Shared>,
    tasks: Mutex<Vec<JoinHandle<()>>>,
}

/// A connection pool; `lazy`: its sessions commit without waiting for
/// the WAL flush.
fn make_pool(
    tls: &crate::tls::Tls,
    pgc: &tokio_postgres::Config,
    name: &str,
    size: usize,
    lazy: bool,
) -> Result<Pool> {
    let mut cfg = pgc.clone();
    cfg.application_name(name);
    if lazy {
        let options = format!("{} -c synchronous_commit=off", cfg.get_options().unwrap_or(""));
        cfg.options(options.trim());
    }
    tls.pool(cfg, size)
}

/// A process id unique enough for leases: host, pid and randomness.
fn owner_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_else(|_| "host".into());
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    format!("{host}:{}:{:016x}", std::process::id(), h.finish())
}

impl PgReservoir {
    /// Connects, creates the schema when missing, takes this process's
    /// lease, recovers the jobs of processes whose lease has expired
    /// (interrupted, never replayed), reconciles the capacity counters from
    /// the durable rows, and starts the listener, the heartbeat and
    /// maintenance task and (with `cfg.worker`) the worker.
    pub async fn open(cfg: PgConfig) -> Result<PgReservoir> {
        let r = &cfg.reservoir;
        if r.max_jobs == 0 || r.receive_chunk == 0 || r.result_page_rows == 0 {
            return Err(Error::InvalidInput(
                "max_jobs, receive_chunk and result_page_rows must be positive".into(),
            ));
        }
        let pgc = cfg.connection()?;
        let owner = owner_id();
        let tls = crate::tls::Tls::from_config(&cfg, &pgc)?;
        let pool = make_pool(&tls, &pgc, &format!("asadb pool {owner}"), cfg.pool_size, false)?;
        let lazy = make_pool(&tls, &pgc, &format!("asadb lazy {owner}"), cfg.pool_size, true)?;
        let sql = Sql::new(&cfg.schema);
        {
            let mut client = pool.get().await.map_err(crate::error::pool)?;
            schema::ensure(&mut client, &sql, &cfg.reservoir).await?;
        }
        let (stop, _) = watch::channel(false);
        let (events, _) = broadcast::channel(1024);
        let shared = Arc::new(Shared {
            cfg,
            pg: pgc,
            tls,
            pool,
            lazy,
            sql,
            owner,
            stopping: AtomicBool::new(false),
            stop,
            events,
            uploads: Mutex::new(HashMap::new()),
            live: Mutex::new(None),
            counters: Mutex::new(Counters::default()),
        });
        crate::lease::heartbeat(&shared).await?;
        crate::lease::reap(&shared, false).await?;
        reconcile_with(&shared).await?;
        let mut tasks = Vec::new();
        if shared.cfg.listen {
            tasks.push(tokio::spawn(crate::listener::run(shared.clone())));
        }
        tasks.push(tokio::spawn(crate::lease::maintain(shared.clone())));
        if shared.cfg.worker {
            tasks.push(tokio::spawn(crate::worker::run(shared.clone())));
        }
        Ok(PgReservoir { shared, tasks: Mutex::new(tasks) })
    }

    /// The engine as a shareable trait object.
    pub fn into_engine(self) -> Arc<dyn ReservoirEngine> {
        Arc::new(self)
    }

    /// This process's lease id (the `owner` of the jobs it holds; part of
    /// its connections' `application_name`).
    pub fn owner(&self) -> &str {
        &self.shared.owner
    }

    /// Listener events, for consumers that push job changes (the panel's
    /// event stream): a `Job` per state change anywhere, and `Reconnected`
    /// when notifications may have been missed.
    pub fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.shared.events.subscribe()
    }

    /// Sends a notification on the engine's channel, refusing a payload
    /// over PostgreSQL's limit before the round trip.
    pub async fn notify(&self, payload: &str) -> Result<()> {
        let client = self.shared.client().await?;
        jobs::notify(&**client, &self.shared.sql, payload).await
    }

    /// Rebuilds the capacity counters from the durable per-job rows.
    /// Returns the counters before and after.
    pub async fn reconcile(&self) -> Result<(Capacity, Capacity)> {
        reconcile_with(&self.shared).await
    }

    /// The capacity rows as they are now.
    pub async fn capacity(&self) -> Result<Capacity> {
        let client = self.shared.client().await?;
        jobs::capacity(&**client, &self.shared.sql, false).await
    }

    /// Sets the global caps (the effective limits are these and each
    /// front-end's own, whichever is smaller).
    pub async fn set_caps(
        &self,
        max_jobs: Option<u64>,
        max_spool_bytes: Option<u64>,
    ) -> Result<Capacity> {
        let mut client = self.shared.client().await?;
        let tx = client.transaction().await.map_err(pg)?;
        let cap = jobs::set_caps(&*tx, &self.shared.sql, max_jobs, max_spool_bytes).await?;
        tx.commit().await.map_err(pg)?;
        Ok(cap)
    }

    /// Runs one read-only query page in the target database (for
    /// `/api/query`): see [`crate::query`].
    pub async fn read_page(
        &self,
        sql: &str,
        params: &[asadb_sql::Value],
        offset: u64,
        limit: usize,
    ) -> Result<crate::query::Page> {
        crate::query::read_page(&self.shared, sql, params, offset, limit).await
    }

    fn stop_tasks(&self) {
        for t in self.tasks.lock().drain(..) {
            t.abort();
        }
    }
}

impl Drop for PgReservoir {
    fn drop(&mut self) {
        self.stop_tasks();
    }
}

async fn reconcile_with(shared: &Shared) -> Result<(Capacity, Capacity)> {
    let mut client = shared.client().await?;
    let tx = client.transaction().await.map_err(pg)?;
    let out = jobs::reconcile(&*tx, &shared.sql).await?;
    tx.commit().await.map_err(pg)?;
    if out.0 != out.1 {
        tracing::warn!(before = ?out.0, after = ?out.1, "capacity counters reconciled");
    }
    Ok(out)
}

#[async_trait]
impl ReservoirEngine for PgReservoir {
    fn name(&self) -> &'static str {
        "postgres"
    }

    fn config(&self) -> &Config {
        self.shared.rcfg()
    }

    async fn begin_upload(&self, opts: SubmitOptions) -> Result<Box<dyn BodyUpload>> {
        // This engine runs SQL scripts: `sql`, a `sqlite3 .dump` (SQL run as
        // it is) and an undeclared format, which is taken as SQL. The
        // import readers (CSV, XLSX, MySQL and pg_dump translation) and
        // their overrides run in the embedded engine only, and are refused
        // here rather than ignored.
        let sql_like = matches!(
            opts.import.format,
            ImportFormat::Sql | ImportFormat::Sqlite | ImportFormat::Auto
        );
        if !sql_like || opts.import.options != Default::default() {
            return Err(Error::Unsupported(format!(
                "import format {} is not yet supported by the PostgreSQL backend; submit a SQL \
                 script (format sql)",
                opts.import.format.as_str()
            )));
        }
        if self.shared.stopping() {
            return Err(Error::ShuttingDown);
        }
        Ok(Box::new(PgUpload::admit(self.shared.clone(), opts).await?))
    }

    async fn job(&self, id: JobId) -> Result<Job> {
        let client = self.shared.client().await?;
        let job = jobs::get(&**client, &self.shared.sql, id, false).await?;
        Ok(self.shared.overlay(job))
    }

    async fn jobs(&self) -> Result<Vec<Job>> {
        let client = self.shared.client().await?;
        let text = self.shared.sql.q(&format!("SELECT {JOB_COLUMNS} FROM @.jobs ORDER BY id"));
        let rows = client.query(&text, &[]).await.map_err(pg)?;
        rows.iter().map(|r| jobs::job_of(r).map(|j| self.shared.overlay(j))).collect()
    }

    async fn active_jobs(&self) -> Result<Vec<Job>> {
        let client = self.shared.client().await?;
        let text = self.shared.sql.q(&format!(
            "SELECT {JOB_COLUMNS} FROM @.jobs WHERE state IN {ACTIVE} \
             ORDER BY updated_at DESC, id DESC"
        ));
        let rows = client.query(&text, &[]).await.map_err(pg)?;
        rows.iter().map(|r| jobs::job_of(r).map(|j| self.shared.overlay(j))).collect()
    }

    async fn cancel(&self, id: JobId) -> Result<Job> {
        let sql = &self.shared.sql;
        let mut client = self.shared.client().await?;
        let tx = client.transaction().await.map_err(pg)?;
        jobs::capacity(&*tx, sql, true).await?;
        let job = jobs::get(&*tx, sql, id, true).await?;
        let job = match job.state {
            JobState::Receiving | JobState::Processing => {
                let text = sql.q(&format!(
                    "UPDATE @.jobs SET state = 'cancelling', \
                     updated_at = GREATEST(updated_at, NOW_MS) WHERE id = $1 RETURNING {JOB_COLUMNS}"
                ));
                let row = tx.query_one(&text, &[&(id.0 as i64)]).await.map_err(pg)?;
                jobs::event(&*tx, sql, id, JobState::Cancelling).await?;
                jobs::job_of(&row)?
            }
            JobState::Queued => {
                let end = Ending {
                    to: JobState::Cancelled,
                    error: None,
                    keep_spool: false,
                    result: None,
                    owner: None,
                };
                jobs::finish(&*tx, sql, id, end).await?.ok_or(Error::NotFound(id))?
            }
            _ => job,
        };
        tx.commit().await.map_err(pg)?;
        // This process's own upload or run learns at once; others by the
        // notification (or their re-poll).
        if job.state == JobState::Cancelling {
            self.shared.flag_cancel(id);
        }
        Ok(self.shared.overlay(job))
    }

    async fn resume(&self, id: JobId) -> Result<Job> {
        if self.shared.stopping() {
            return Err(Error::ShuttingDown);
        }
        let sql = &self.shared.sql;
        let mut client = self.shared.client().await?;
        let tx = client.transaction().await.map_err(pg)?;
        let cap = jobs::capacity(&*tx, sql, true).await?;
        let job = jobs::get(&*tx, sql, id, true).await?;
        if !job.is_resumable() {
            return Err(Error::InvalidState(format!(
                "job {id} is {} and cannot be resumed{}",
                job.state,
                if job.state == JobState::Interrupted {
                    " (its body was not fully received: submit it again)"
                } else {
                    ""
                }
            )));
        }
        let (max_jobs, _) = self.shared.limits(&cap);
        if cap.active_jobs >= max_jobs {
            return Err(Error::CapacityExhausted(format!(
                "job limit reached: {} active jobs (max {max_jobs})",
                cap.active_jobs
            )));
        }
        let text = sql.q(&format!(
            "UPDATE @.jobs SET state = 'queued', error = NULL, owner = NULL, \
             updated_at = GREATEST(updated_at, NOW_MS) WHERE id = $1 RETURNING {JOB_COLUMNS}"
        ));
        let row = tx.query_one(&text, &[&(id.0 as i64)]).await.map_err(pg)?;
        jobs::charge(&*tx, sql, 1, 0).await?;
        jobs::event(&*tx, sql, id, JobState::Queued).await?;
        tx.commit().await.map_err(pg)?;
        jobs::job_of(&row)
    }

    async fn result(
        &self,
        id: JobId,
        statement: u64,
        offset: u64,
        limit: usize,
    ) -> Result<ResultPage> {
        crate::results::read_page(&self.shared, id, statement, offset, limit).await
    }

    async fn sweep_at(&self, now_ms: u64) -> Result<usize> {
        crate::lease::sweep(&self.shared, Some(now_ms)).await
    }

    async fn stats(&self) -> Result<Stats> {
        let sql = &self.shared.sql;
        let client = self.shared.client().await?;
        let text = sql.q("SELECT state, count(*) FROM @.jobs GROUP BY state");
        let mut by_state: std::collections::BTreeMap<&'static str, u64> =
            JobState::ALL.iter().map(|s| (s.as_str(), 0)).collect();
        for row in client.query(&text, &[]).await.map_err(pg)? {
            let state = jobs::state_of(row.get(0))?;
            by_state.insert(state.as_str(), row.get::<_, i64>(1) as u64);
        }
        let cap = jobs::capacity(&**client, sql, false).await?;
        let text = sql.q(
            "SELECT COALESCE(sum(received_bytes) FILTER (WHERE state = 'receiving'), 0)::bigint, \
             max(updated_at) FROM @.jobs \
             WHERE state IN ('receiving', 'queued', 'processing', 'cancelling')",
        );
        let live = client.query_one(&text, &[]).await.map_err(pg)?;
        let received_bytes = live.get::<_, i64>(0) as u64;
        let updated_at = live.get::<_, Option<i64>>(1).map(|t| t as u64);
        let text = sql.q(
            "SELECT id FROM @.jobs WHERE state IN ('processing', 'cancelling') ORDER BY id LIMIT 1",
        );
        let current = client
            .query_opt(&text, &[])
            .await
            .map_err(pg)?
            .map(|r| JobId(r.get::<_, i64>(0) as u64));
        let (max_jobs, max_spool_bytes) = self.shared.limits(&cap);
        let active = JobState::ALL
            .iter()
            .filter(|s| s.is_active())
            .map(|s| by_state[s.as_str()])
            .sum::<u64>() as usize;
        let effective =
            Config { max_jobs: max_jobs as usize, max_spool_bytes, ..self.shared.rcfg().clone() };
        let advice = Advice::for_load(
            &effective,
            active,
            by_state["queued"],
            cap.spool_bytes,
            current.is_some(),
        );
        let c = self.shared.counters.lock();
        let running = c.since.map_or(Duration::ZERO, |t| t.elapsed());
        let secs = (c.executing + running).as_secs_f64();
        Ok(Stats {
            // PostgreSQL holds the state: no local event log to latch.
            write_error: None,
            by_state,
            active,
            max_jobs: max_jobs as usize,
            reserved_bytes: cap.spool_bytes,
            max_spool_bytes,
            worker: if current.is_some() { "running" } else { "idle" },
            current_job: current,
            throughput_bytes_per_sec: if secs > 0.0 { c.executed_bytes as f64 / secs } else { 0.0 },
            statements_executed: c.executed_statements,
            advice,
            received_bytes,
            updated_at,
        })
    }

    async fn shutdown(&self) {
        self.shared.stopping.store(true, Ordering::SeqCst);
        self.shared.stop.send_replace(true);
        // The worker finishes (or rolls back) its batch; the others stop at
        // once. Give the worker the time a batch needs.
        let tasks: Vec<JoinHandle<()>> = self.tasks.lock().drain(..).collect();
        for t in tasks {
            let abort = t.abort_handle();
            if tokio::time::timeout(Duration::from_secs(30), t).await.is_err() {
                abort.abort();
            }
        }
        // Release the lease: this process's jobs are accounted for.
        if let Ok(client) = self.shared.client().await {
            let text = self.shared.sql.q("DELETE FROM @.leases WHERE owner = $1");
            let _ = client.execute(&text, &[&self.shared.owner]).await;
        }
        self.shared.pool.close();
        self.shared.lazy.close();
    }
}
