//! The async entry point for tokio programs: [`AsyncDatabase`].
//!
//! # Where work runs
//! - Autocommit calls ([`query`](AsyncDatabase::query),
//!   [`execute`](AsyncDatabase::execute)) go to a bounded pool of worker
//!   threads (plain std threads fed by a channel, each with its own
//!   session); the caller awaits the result on a oneshot channel. Nothing
//!   blocking ever runs on the runtime's threads, so a slow query only
//!   occupies one worker.
//! - A transaction ([`begin`](AsyncDatabase::begin)) gets a *lane*: a
//!   thread of its own that owns the transaction's session and runs its
//!   statements in the order they were sent. Lanes are not shared with the
//!   pool or with each other, so a crowd of new transactions waiting for
//!   the write lock can never stand in front of the COMMIT of the one
//!   holding it. At most `max_transactions` lanes exist at once.
//!
//! # Timeouts and abandonment
//! Every call has a caller timeout (default: the statement timeout plus
//! headroom). When it passes — or when the caller drops the call's future
//! (a client that went away) — the caller's interrupt fires: the running
//! statement stops within a row and is undone, and a caller still waiting
//! gets a retryable [`Error::Timeout`] (the pool may just have been busy).
//! Every statement also stops itself once it runs past the statement
//! timeout (a deadline interrupt on the session: scans, joins, sorts
//! reading their input and every write check it), with
//! [`Error::StatementTimeout`] — not retryable: the same statement will
//! run as long again — and its effects undone as for any failed statement
//! (inside a transaction, the transaction stays open). A panic inside a
//! call (an engine bug) answers that call with [`Error::Internal`]; the
//! worker goes on with a fresh session. A transaction whose call timed
//! out is
//! aborted: its lane rolls it back right after the running statement, and
//! later calls on the handle get [`Error::Aborted`]. Dropping an
//! [`AsyncTransaction`] without commit does the same, so an abandoned
//! transaction never keeps the write lock.
//!
//! # Shutdown
//! [`shutdown`](AsyncDatabase::shutdown) closes the gate (new calls get
//! [`Error::Closed`]), tells every lane to roll back once its running
//! statement is done, waits for all in-flight calls and lanes to finish,
//! stops the workers and closes the database.
//!
//! # Gauges
//! [`stats`](AsyncDatabase::stats) reports in-flight calls and held
//! transactions; [`slowest`](AsyncDatabase::slowest) the slowest
//! statements among the most recent ones.
//!
//! # Example
//! ```
//! use std::time::Duration;
//! use asadb::{AsyncDatabase, ErrorKind};
//!
//! # fn main() -> asadb::Result<()> {
//! let rt = tokio::runtime::Builder::new_current_thread().enable_time().build()?;
//! rt.block_on(async {
//!     let db = AsyncDatabase::open_in_memory()?;
//!     db.execute("CREATE TABLE kv (k TEXT PRIMARY KEY, v INTEGER)", ()).await?;
//!
//!     let tx = db.begin().await?;
//!     tx.execute("INSERT INTO kv VALUES (?, ?)", ("a", 1)).await?;
//!     tx.execute("INSERT INTO kv VALUES (?, ?)", ("b", 2)).await?;
//!     tx.commit().await?;
//!
//!     let page = db.query_page("SELECT k, v FROM kv ORDER BY k", (), 0, 1).await?;
//!     assert_eq!(page.rows[0].get::<String>(0)?, "a");
//!     assert_eq!(page.next_offset, Some(1));
//!
//!     // Writes are refused where only reads belong.
//!     let err = db.read_page("DELETE FROM kv", (), 0, 10).await.unwrap_err();
//!     assert_eq!(err.kind(), ErrorKind::InvalidInput);
//!
//!     // A caller that cannot wait gets a retryable timeout.
//!     let impatient = db.with_timeout(Duration::from_nanos(1));
//!     if let Err(e) = impatient.query("SELECT count(*) FROM kv", ()).await {
//!         assert!(e.is_retryable());
//!     }
//!
//!     db.shutdown().await?;
//!     assert_eq!(db.query("SELECT 1", ()).await.unwrap_err().kind(), ErrorKind::Closed);
//!     Ok(())
//! })
//! # }
//! ```

mod lane;
mod slow;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use asadb_sql::session::{Params, Session};
use asadb_sql::storage::Interrupt;
use parking_lot::Mutex;
use tokio::sync::{Notify, Semaphore, oneshot};

pub use lane::AsyncTransaction;
pub use slow::SlowStatement;

use crate::db::{Database, Options};
use crate::error::{Error, Result};
use crate::value::{IntoParams, Row};
use slow::SlowLog;

/// Settings of the async front end.
#[derive(Clone, Debug)]
pub struct AsyncOptions {
    /// Worker threads for autocommit calls. Default 4.
    pub workers: usize,
    /// A statement (query, DML, DDL) that runs longer stops and is undone,
    /// with [`Error::StatementTimeout`] (kind
    /// [`ErrorKind::StatementTimeout`](crate::ErrorKind), not retryable).
    /// Default 30 s.
    pub statement_timeout: Duration,
    /// The caller's timeout for one call. Default: `statement_timeout` +
    /// 5 s of headroom (so a statement that times out itself reports that,
    /// rather than the caller giving up first).
    pub call_timeout: Option<Duration>,
    /// Transactions (lanes) open at once; `begin` waits for a free one up
    /// to the call timeout. Default 64.
    pub max_transactions: usize,
    /// How many recent statements the slow log keeps. Default 1024.
    pub slow_log_window: usize,
}

impl Default for AsyncOptions {
    fn default() -> Self {
        AsyncOptions {
            workers: 4,
            statement_timeout: Duration::from_secs(30),
            call_timeout: None,
            max_transactions: 64,
            slow_log_window: 1024,
        }
    }
}

impl AsyncOptions {
    /// The effective caller timeout.
    pub fn call_timeout(&self) -> Duration {
        self.call_timeout.unwrap_or(self.statement_timeout + Duration::from_secs(5))
    }
}

/// A page of a query's result.
#[derive(Clone, Debug, PartialEq)]
pub struct QueryPage {
    pub columns: Arc<[String]>,
    pub rows: Vec<Row>,
    /// The offset of the next page, `None` when this page is the last.
    pub next_offset: Option<usize>,
}

/// Gauges of the async front end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AsyncStats {
    /// Calls submitted whose work has not finished yet (including calls
    /// whose caller already timed out).
    pub in_flight: usize,
    /// Transactions that currently hold the write lock (begun, not yet
    /// committed or rolled back).
    pub held_transactions: usize,
    /// Lanes alive (transactions begun or beginning).
    pub lanes: usize,
    /// Worker threads of the pool.
    pub workers: usize,
    /// The gate is closed.
    pub closed: bool,
}

type Job = Box<dyn FnOnce(&mut Session) + Send>;

/// An async handle on a [`Database`]. Cheap to clone; clones share the
/// workers, lanes and gauges.
#[derive(Clone)]
pub struct AsyncDatabase {
    inner: Arc<Inner>,
    timeout: Duration,
}

struct Inner {
    db: Database,
    opts: AsyncOptions,
    jobs: Mutex<Option<mpsc::Sender<Job>>>,
    closed: AtomicBool,
    in_flight: AtomicUsize,
    held: AtomicUsize,
    live_lanes: AtomicUsize,
    /// Signalled whenever `in_flight` or `live_lanes` drops to zero.
    quiet: Notify,
    lanes: Mutex<std::collections::HashMap<u64, Arc<lane::LaneLink>>>,
    next_lane: AtomicU64,
    lane_permits: Arc<Semaphore>,
    slow: Mutex<SlowLog>,
}

/// One unit of in-flight work; dropping it (when the work is done, or the
/// job is discarded unrun) takes it off the gauge.
struct InFlight(Arc<Inner>);

impl Drop for InFlight {
    fn drop(&mut self) {
        if self.0.in_flight.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.0.quiet.notify_waiters();
        }
    }
}

impl Inner {
    /// Passes the gate: counts the call in flight unless the gate is closed.
    /// (Count first, then check: `shutdown` closes first, then waits for
    /// the count, so no call slips past it.)
    fn enter(self: &Arc<Self>) -> Result<InFlight> {
        self.in_flight.fetch_add(1, Ordering::SeqCst);
        let token = InFlight(self.clone());
        if self.closed.load(Ordering::SeqCst) {
            return Err(Error::Closed);
        }
        Ok(token)
    }

    fn record(&self, sql: &str, took: Duration) {
        self.slow.lock().record(sql, took);
    }
}

impl AsyncDatabase {
    /// Serves `db` on a pool of `opts.workers` threads.
    pub fn new(db: Database, opts: AsyncOptions) -> Result<AsyncDatabase> {
        let (tx, rx) = mpsc::channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        let inner = Arc::new(Inner {
            db,
            jobs: Mutex::new(Some(tx)),
            closed: AtomicBool::new(false),
            in_flight: AtomicUsize::new(0),
            held: AtomicUsize::new(0),
            live_lanes: AtomicUsize::new(0),
            quiet: Notify::new(),
            lanes: Mutex::new(Default::default()),
            next_lane: AtomicU64::new(1),
            lane_permits: Arc::new(Semaphore::new(opts.max_transactions.max(1))),
            slow: Mutex::new(SlowLog::new(opts.slow_log_window)),
            opts,
        });
        for i in 0..inner.opts.workers.max(1) {
            let rx = rx.clone();
            let db = inner.db.clone();
            std::thread::Builder::new().name(format!("asadb-worker-{i}")).spawn(move || {
                // Sessions are made on the thread that uses them.
                let Ok(mut session) = db.session() else { return };
                loop {
                    // The lock is held only while waiting for the next job.
                    let job = rx.lock().recv();
                    match job {
                        Ok(job) => {
                            // A panic (an engine bug) loses this call only:
                            // its caller hears `Internal` (see `timed`),
                            // the worker goes on with a fresh session.
                            let run = std::panic::AssertUnwindSafe(|| job(&mut session));
                            if std::panic::catch_unwind(run).is_err() {
                                match db.session() {
                                    Ok(s) => session = s,
                                    Err(_) => return,
                                }
                            }
                        }
                        Err(_) => return,
                    }
                }
            })?;
        }
        let timeout = inner.opts.call_timeout();
        Ok(AsyncDatabase { inner, timeout })
    }

    /// Opens the database file at `path` and serves it.
    pub fn open(
        path: impl AsRef<std::path::Path>,
        opts: Options,
        async_opts: AsyncOptions,
    ) -> Result<AsyncDatabase> {
        AsyncDatabase::new(Database::open_with(path, opts)?, async_opts)
    }

    /// A fresh in-memory database with default options.
    pub fn open_in_memory() -> Result<AsyncDatabase> {
        AsyncDatabase::new(Database::open_in_memory()?, AsyncOptions::default())
    }

    /// The synchronous handle underneath.
    pub fn database(&self) -> &Database {
        &self.inner.db
    }

    /// A handle whose calls (and transactions begun through it) use
    /// `timeout` as the caller timeout.
    pub fn with_timeout(&self, timeout: Duration) -> AsyncDatabase {
        AsyncDatabase { inner: self.inner.clone(), timeout }
    }

    /// The caller timeout of this handle.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// Runs every statement of `sql` (autocommit) and returns the rows
    /// affected by the last one.
    pub async fn execute(&self, sql: &str, params: impl IntoParams) -> Result<u64> {
        let params = params.into_params();
        let text = sql.to_string();
        self.call(sql, move |session, db| db.execute_on(session, &text, &params)).await
    }

    /// Runs a query and returns all its rows.
    pub async fn query(&self, sql: &str, params: impl IntoParams) -> Result<QueryPage> {
        self.query_page(sql, params, 0, usize::MAX).await
    }

    /// Runs a query and returns at most `limit` rows after skipping
    /// `offset`; the rows are streamed on the worker, so only the page is
    /// ever held in memory.
    pub async fn query_page(
        &self,
        sql: &str,
        params: impl IntoParams,
        offset: usize,
        limit: usize,
    ) -> Result<QueryPage> {
        let params = params.into_params();
        let text = sql.to_string();
        let limit_time = self.inner.opts.statement_timeout;
        self.call(sql, move |session, _| {
            run_query(session, &text, &params, offset, limit, limit_time)
        })
        .await
    }

    /// [`query_page`](Self::query_page) for callers that must not write:
    /// anything but one SELECT / VALUES / EXPLAIN is refused with
    /// [`ErrorKind::InvalidInput`](crate::ErrorKind) before it runs.
    pub async fn read_page(
        &self,
        sql: &str,
        params: impl IntoParams,
        offset: usize,
        limit: usize,
    ) -> Result<QueryPage> {
        crate::readonly::check_read_only(sql)?;
        self.query_page(sql, params, offset, limit).await
    }

    /// Begins a write transaction on a lane of its own (waiting for the
    /// write lock up to the busy timeout, and for a free lane up to the
    /// call timeout).
    pub async fn begin(&self) -> Result<AsyncTransaction> {
        lane::begin(self).await
    }

    /// Current gauges.
    pub fn stats(&self) -> AsyncStats {
        let i = &self.inner;
        AsyncStats {
            in_flight: i.in_flight.load(Ordering::SeqCst),
            held_transactions: i.held.load(Ordering::SeqCst),
            lanes: i.live_lanes.load(Ordering::SeqCst),
            workers: i.opts.workers.max(1),
            closed: i.closed.load(Ordering::SeqCst),
        }
    }

    /// The `n` slowest statements among the most recent
    /// `slow_log_window` ones, slowest first.
    pub fn slowest(&self, n: usize) -> Vec<SlowStatement> {
        self.inner.slow.lock().slowest(n)
    }

    /// Closes the gate, rolls back open transactions (each after its
    /// running statement), waits for in-flight work, stops the workers and
    /// closes the database. Calls after it get [`Error::Closed`].
    pub async fn shutdown(&self) -> Result<()> {
        let inner = &self.inner;
        inner.closed.store(true, Ordering::SeqCst);
        // A `begin` waiting for a free lane gives up now.
        inner.lane_permits.close();
        lane::abort_all(inner, "the database is shutting down");
        wait_until(inner, || inner.in_flight.load(Ordering::SeqCst) == 0).await;
        // A `begin` that passed the gate just before it closed may have
        // registered its lane after the first pass.
        lane::abort_all(inner, "the database is shutting down");
        wait_until(inner, || inner.live_lanes.load(Ordering::SeqCst) == 0).await;
        // Dropping the sender ends the workers once the queue is empty.
        inner.jobs.lock().take();
        inner.db.close()
    }

    /// [`read_page`](Self::read_page) for callers that stream the rows
    /// themselves: `f` runs on a pool worker with the query's row cursor
    /// (nothing is read before `f` pulls it) and its result is the call's.
    /// The statement timeout, the caller timeout and abandonment work as
    /// for every call (see the module docs): a caller that stops waiting
    /// interrupts the statement inside `f`'s next pull.
    pub async fn read_rows<T: Send + 'static>(
        &self,
        sql: &str,
        params: impl IntoParams,
        f: impl FnOnce(&mut asadb_sql::session::Rows<'_>) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        crate::readonly::check_read_only(sql)?;
        let params = params.into_params();
        let text = sql.to_string();
        self.call(sql, move |session, _| {
            let mut rows = session.query(&text, &params)?;
            f(&mut rows)
        })
        .await
    }

    /// Runs `work` on a worker and waits for it up to the caller timeout.
    /// When the caller stops waiting — the timeout passes, or the future is
    /// dropped — the statement is interrupted (it stops within a row and is
    /// undone).
    async fn call<T: Send + 'static>(
        &self,
        sql: &str,
        work: impl FnOnce(&mut Session, &Database) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        let token = self.inner.enter()?;
        let (tx, rx) = oneshot::channel();
        let excerpt = sql.to_string();
        let db = self.inner.db.clone();
        let abandon = InterruptOnDrop(Some(Interrupt::new()));
        let caller = abandon.interrupt();
        let limit = self.inner.opts.statement_timeout;
        let job: Job = Box::new(move |session| {
            let started = Instant::now();
            let r = timed(session, limit, &caller, |session| work(session, &db));
            token.0.record(&excerpt, started.elapsed());
            // The work is done: off the gauge before the caller hears.
            drop(token);
            match r {
                Ok(r) => {
                    let _ = tx.send(r);
                }
                Err(panic) => {
                    let _ = tx.send(Err(Error::Internal(panic_message(&*panic))));
                    // The session may be inconsistent: the worker replaces it.
                    std::panic::resume_unwind(panic);
                }
            }
        });
        {
            let jobs = self.inner.jobs.lock();
            let sent = jobs.as_ref().map(|s| s.send(job));
            if !matches!(sent, Some(Ok(()))) {
                return Err(Error::Closed);
            }
        }
        let r = wait_reply(rx, self.timeout).await;
        if !matches!(r, Err(Error::Timeout { .. })) {
            abandon.disarm();
        }
        r
    }
}

/// An interrupt that fires when dropped, unless disarmed: the caller's side
/// of a call, so a caller that goes away stops its statement.
struct InterruptOnDrop(Option<Interrupt>);

impl InterruptOnDrop {
    fn interrupt(&self) -> Interrupt {
        self.0.clone().expect("armed")
    }

    fn disarm(mut self) {
        self.0 = None;
    }
}

impl Drop for InterruptOnDrop {
    fn drop(&mut self) {
        if let Some(i) = self.0.take() {
            i.set();
        }
    }
}

/// The text a panic carried.
pub(crate) fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}

/// Runs `work` with the statement timeout armed on the session, through
/// the caller's interrupt (which the caller may fire earlier): every
/// statement stops within a row once `limit` has passed (a sort or a DML
/// statement too, not only a query between rows) and fails with
/// [`Error::StatementTimeout`]; its effects are undone like any failed
/// statement's. A panic in `work` is caught and returned (`Err`), with the
/// session's interrupt cleared.
pub(crate) fn timed<T>(
    session: &mut Session,
    limit: Duration,
    caller: &Interrupt,
    work: impl FnOnce(&mut Session) -> Result<T>,
) -> std::result::Result<Result<T>, Box<dyn std::any::Any + Send>> {
    let deadline = Instant::now().checked_add(limit);
    let interrupt = match deadline {
        Some(at) => caller.with_deadline(at),
        None => caller.clone(),
    };
    session.set_interrupt(Some(interrupt));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(session)));
    session.set_interrupt(None);
    let timed_out = || deadline.is_some_and(|d| Instant::now() >= d);
    r.map(|r| match r {
        Err(e) if is_interrupted(&e) && timed_out() => {
            Err(Error::StatementTimeout { after: limit })
        }
        r => r,
    })
}

/// The statement was stopped by its interrupt.
fn is_interrupted(e: &Error) -> bool {
    matches!(e, Error::Sql(asadb_sql::Error::Interrupted))
        || matches!(e, Error::Statement { source, .. } if is_interrupted(source))
}

/// Awaits a worker's or lane's reply up to `timeout`.
async fn wait_reply<T>(rx: oneshot::Receiver<Result<T>>, timeout: Duration) -> Result<T> {
    match tokio::time::timeout(timeout, rx).await {
        Ok(Ok(r)) => r,
        // The job was dropped without an answer: unrun because its lane
        // ended, or its thread panicked.
        Ok(Err(_)) => Err(Error::WorkerLost("the worker or lane running it")),
        Err(_) => Err(Error::Timeout { after: timeout, what: "the caller stopped waiting" }),
    }
}

/// Waits until `done()` holds, woken by `quiet`.
async fn wait_until(inner: &Inner, done: impl Fn() -> bool) {
    loop {
        let notified = inner.quiet.notified();
        tokio::pin!(notified);
        notified.as_mut().enable();
        if done() {
            return;
        }
        // The timeout only guards against a missed wake-up.
        let _ = tokio::time::timeout(Duration::from_millis(100), notified).await;
    }
}

/// Streams a query on the current thread, keeping only the requested page.
fn run_query(
    session: &mut Session,
    sql: &str,
    params: &Params,
    offset: usize,
    limit: usize,
    statement_timeout: Duration,
) -> Result<QueryPage> {
    let deadline = Instant::now() + statement_timeout;
    let mut rows = session.query(sql, params)?;
    let columns: Arc<[String]> = rows.columns().to_vec().into();
    let mut page = Vec::new();
    let mut next_offset = None;
    // The rows before the page are stepped over, not produced (a plain
    // scan skips them without decoding).
    let skipped = rows.skip_rows(offset as u64)? as usize;
    if skipped == offset {
        for (i, r) in rows.enumerate() {
            let r = r?;
            if i % 64 == 63 && Instant::now() > deadline {
                return Err(Error::StatementTimeout { after: statement_timeout });
            }
            if page.len() == limit {
                next_offset = Some(offset + i);
                break;
            }
            page.push(Row::new(columns.clone(), r));
        }
    }
    Ok(QueryPage { columns, rows: page, next_offset })
}
