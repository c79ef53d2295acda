//! The synchronous embedded API: [`Database`] and [`Transaction`].
//!
//! A `Database` is a cheap handle (`Arc`) on one engine. Every call gets a
//! session of its own (sessions are cheap: a clone of the engine handle),
//! so any number of threads can call at once: readers run alongside the one
//! writer, and a second writer waits for the write lock up to the busy
//! timeout, then fails with a retryable [`ErrorKind::Busy`](crate::ErrorKind).
//!
//! Invariant: no call but [`Database::transaction`] leaves a transaction
//! open. A text given to [`Database::execute`] or a script that ends inside
//! `BEGIN … ` is rolled back and reported as an error.

use std::io::Read;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use asadb_sql::counters::Counters;
use asadb_sql::script::{Splitter, SplitterOptions, parse_insert_fast};
use asadb_sql::session::{Engine, Outcome, Params, Session};
use parking_lot::Mutex;

pub use asadb_txn::Synchronous;

use crate::error::{Error, Result, is_busy};
use crate::rows::{CursorPool, Rows};
use crate::statement::StatementCache;
use crate::value::{IntoParams, Row};

/// Settings of an open database.
#[derive(Clone, Debug)]
pub struct Options {
    /// Buffer-pool frames of 4 KiB (file-backed databases). Default 2048.
    pub pool_frames: usize,
    /// Commit durability (file-backed databases). Default `Full`.
    pub synchronous: Synchronous,
    /// How long a writer waits for another writer's lock before `Busy`.
    /// Default 5 s.
    pub busy_timeout: Duration,
    /// Automatic checkpoint threshold in log frames (file-backed
    /// databases). Default 1000; 0 disables automatic checkpoints.
    pub checkpoint_frames: u32,
    /// Idle threads kept for streaming autocommit queries. Default 4.
    pub cursor_threads: usize,
}

impl Default for Options {
    fn default() -> Self {
        let txn = asadb_txn::Options::default();
        Options {
            pool_frames: txn.pool_frames,
            synchronous: txn.synchronous,
            busy_timeout: txn.busy_timeout,
            checkpoint_frames: txn.checkpoint_frames,
            cursor_threads: 4,
        }
    }
}

impl Options {
    /// The transaction layer's settings.
    pub fn txn_options(&self) -> asadb_txn::Options {
        asadb_txn::Options {
            pool_frames: self.pool_frames,
            synchronous: self.synchronous,
            checkpoint_frames: self.checkpoint_frames,
            busy_timeout: self.busy_timeout,
        }
    }
}

/// An open database. `Send + Sync`; clones share the same database.
#[derive(Clone)]
pub struct Database {
    shared: Arc<Shared>,
}

struct Shared {
    engine: Engine,
    /// The handle's change counters, carried from each call's session to
    /// the next one's ([`Database::last_insert_rowid`]).
    counters: Arc<Mutex<Counters>>,
    opts: Options,
    closed: AtomicBool,
    cursors: Arc<CursorPool>,
    statements: StatementCache,
}

impl Shared {
    fn close_engine(&self) -> Result<()> {
        match self.engine.db() {
            Some(db) => db.close().map_err(|e| Error::Sql(e.into())),
            None => Ok(()),
        }
    }
}

impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Database")
            .field("opts", &self.shared.opts)
            .field("closed", &self.is_closed())
            .finish_non_exhaustive()
    }
}

/// What one statement of [`Database::execute_script`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptProgress {
    /// 0-based position of the statement in the script.
    pub index: u64,
    /// Byte offset of the statement's first token.
    pub offset: u64,
    /// Byte offset just past the statement (past its `;`).
    pub end: u64,
    /// Rows the statement inserted, updated or deleted (or returned, for
    /// a query).
    pub rows_affected: u64,
    /// How long the statement ran.
    pub elapsed: Duration,
}

/// What a whole script did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScriptSummary {
    /// Statements run.
    pub statements: u64,
    /// Sum of the statements' `rows_affected`.
    pub rows_affected: u64,
    /// Bytes of the script read.
    pub bytes: u64,
}

impl Database {
    /// Opens (or creates) the database file at `path` with default options.
    pub fn open(path: impl AsRef<Path>) -> Result<Database> {
        Database::open_with(path, Options::default())
    }

    /// Opens (or creates) the database file at `path` (and its log
    /// `<path>-wal`), recovering the last commit after a crash. The file is
    /// locked while open: opening it again — from another process, or a
    /// second `open` in this one (clone the `Database` instead) — fails
    /// with [`ErrorKind::Busy`](crate::ErrorKind) until the first handle is
    /// closed.
    pub fn open_with(path: impl AsRef<Path>, opts: Options) -> Result<Database> {
        let engine = Engine::open(path.as_ref(), opts.txn_options())?;
        Ok(Database::from_engine(engine, opts))
    }

    /// A fresh database that lives in memory and ends with its last handle.
    pub fn open_in_memory() -> Result<Database> {
        Database::open_in_memory_with(Options::default())
    }

    /// [`Database::open_in_memory`] with options. The pages live in memory
    /// but go through the same transaction layer as a file (snapshot
    /// readers, one writer, busy timeout).
    pub fn open_in_memory_with(opts: Options) -> Result<Database> {
        let db = asadb_txn::Db::memory(opts.txn_options()).map_err(asadb_sql::Error::from)?;
        Ok(Database::from_engine(Engine::with_db(db), opts))
    }

    /// A database over an engine opened elsewhere (e.g. shared with the
    /// Reservoir's worker: one engine per file, never two).
    pub fn from_engine(engine: Engine, opts: Options) -> Database {
        let counters: Arc<Mutex<Counters>> = Arc::default();
        let cursors = CursorPool::new(engine.clone(), opts.cursor_threads, Arc::clone(&counters));
        Database {
            shared: Arc::new(Shared {
                engine,
                opts,
                closed: AtomicBool::new(false),
                cursors,
                statements: StatementCache::default(),
                counters,
            }),
        }
    }

    /// The engine underneath, to share it (the Reservoir's worker runs on
    /// it): one engine per file, never two. [`Database::close`] closes it
    /// for every user.
    pub fn engine(&self) -> Engine {
        self.shared.engine.clone()
    }

    /// The options the database was opened with.
    pub fn options(&self) -> &Options {
        &self.shared.opts
    }

    /// Closes the database: checkpoints the log into the main file and
    /// syncs it (waiting for a running writer up to the busy timeout).
    /// Every later call on any handle gets [`Error::Closed`]; results and
    /// transactions already handed out finish normally. Closing twice is
    /// harmless. Dropping the handles without closing is safe too (every
    /// commit is in the log, replayed on the next open); it only skips the
    /// final checkpoint, and leaves an engine shared through
    /// [`Database::engine`] open for its other users.
    pub fn close(&self) -> Result<()> {
        if self.shared.closed.swap(true, Ordering::SeqCst) {
            return Ok(());
        }
        self.shared.cursors.clear();
        self.shared.statements.clear();
        self.shared.close_engine()
    }

    pub fn is_closed(&self) -> bool {
        self.shared.closed.load(Ordering::SeqCst)
    }

    /// Why the database cannot be written right now — the message of the
    /// failed write or sync (a full disk, an IO error) that latched it —
    /// or `None` when it can. Reads keep working meanwhile.
    pub fn write_error(&self) -> Option<String> {
        self.shared.engine.db().and_then(|db| db.write_error())
    }

    /// Recovers a latched database without reopening it (see the
    /// transaction layer's `Db::recover`): `Ok(true)` when it was latched
    /// and can write again, `Ok(false)` when there was nothing to do, an
    /// error (e.g. one whose [`Error::is_disk_full`] holds) when it still
    /// cannot write. The next write transaction does the same by itself;
    /// this is for a front end that wants to know before it admits work.
    /// May wait for a running writer up to the busy timeout.
    pub fn recover(&self) -> Result<bool> {
        self.check_open()?;
        match self.shared.engine.db() {
            Some(db) => db.recover().map_err(|e| Error::Sql(e.into())),
            None => Ok(false),
        }
    }

    /// Times the database recovered by itself from a failed write since
    /// it was opened.
    pub fn recoveries(&self) -> u64 {
        self.shared.engine.db().map_or(0, |db| db.stats().recoveries)
    }

    /// Test hook: opens `path` like [`Database::open_with`], but every
    /// write and sync of the database and its log fails with `ENOSPC`
    /// while `full()` returns true — a disk that fills up and is freed
    /// again, for end-to-end tests of a whole process where no small
    /// file system can be mounted. Not for production use.
    #[doc(hidden)]
    pub fn open_full_while(
        path: impl AsRef<Path>,
        opts: Options,
        full: Arc<dyn Fn() -> bool + Send + Sync>,
    ) -> Result<Database> {
        use asadb_pager::{FileIo, FullWhile, Io};
        let path = path.as_ref();
        let io = |p: &Path| FileIo::open(p).map_err(Error::Io);
        let main = Arc::new(io(path)?);
        if !main.try_lock_exclusive().map_err(Error::Io)? {
            return Err(Error::Sql(asadb_txn::Error::Locked(path.display().to_string()).into()));
        }
        let wal = Arc::new(io(&asadb_txn::wal_path(path))?);
        let main: Arc<dyn Io> = Arc::new(FullWhile::new(main, full.clone()));
        let wal: Arc<dyn Io> = Arc::new(FullWhile::new(wal, full));
        let db = asadb_txn::Db::open_io(main, wal, opts.txn_options())
            .map_err(|e| Error::Sql(e.into()))?;
        Ok(Database::from_engine(Engine::with_db(db), opts))
    }

    pub(crate) fn check_open(&self) -> Result<()> {
        if self.is_closed() { Err(Error::Closed) } else { Ok(()) }
    }

    /// The parsed statements of [`Database::prepare_cached`].
    pub(crate) fn statement_cache(&self) -> &StatementCache {
        &self.shared.statements
    }

    /// A new session on this database (crate-internal: the async front end
    /// gives one to each worker and lane).
    pub(crate) fn session(&self) -> Result<Session> {
        self.check_open()?;
        let mut s = self.shared.engine.session();
        s.set_counters(*self.shared.counters.lock());
        Ok(s)
    }

    /// The handle's change counters as SQLite keeps them per connection:
    /// every call on this `Database` (and its clones) — `execute`,
    /// `query`, scripts, prepared statements, transactions — starts from
    /// what the previous one left, so `SELECT last_insert_rowid()` after
    /// an `execute` of an INSERT answers its rowid. Calls on several
    /// threads at once update them in the order they finish (as SQLite's
    /// counters on a connection shared by threads). Each lane or worker
    /// of [`crate::AsyncDatabase`] keeps its own.
    pub fn counters(&self) -> Counters {
        *self.shared.counters.lock()
    }

    /// The rowid of the last row an INSERT on this handle wrote into a
    /// rowid table (see [`Database::counters`]).
    pub fn last_insert_rowid(&self) -> i64 {
        self.counters().last_insert_rowid
    }

    /// The rows the last completed INSERT, UPDATE or DELETE on this handle
    /// changed (see [`Database::counters`]).
    pub fn changes(&self) -> u64 {
        self.counters().changes
    }

    /// Every row changed through this handle since it was opened (see
    /// [`Database::counters`]).
    pub fn total_changes(&self) -> u64 {
        self.counters().total_changes
    }

    /// Keeps what `session`'s statements left in the handle's counters,
    /// when they changed since `seed` (a read changes nothing: it must not
    /// put back counters another thread has moved on since).
    pub(crate) fn keep_counters(&self, seed: Counters, now: Counters) {
        keep_counters(&self.shared.counters, seed, now);
    }

    /// Runs every `;`-separated statement of `sql` (each in its own
    /// transaction unless the text has `BEGIN … COMMIT`) and returns the
    /// rows affected by the last one. The same parameters are bound to
    /// every statement.
    pub fn execute(&self, sql: &str, params: impl IntoParams) -> Result<u64> {
        let mut session = self.session()?;
        let seed = session.counters();
        let r = self.execute_on(&mut session, sql, &params.into_params());
        self.keep_counters(seed, session.counters());
        r
    }

    /// [`Database::execute`] on a caller-owned session (which must not be
    /// inside a transaction).
    pub(crate) fn execute_on(
        &self,
        session: &mut Session,
        sql: &str,
        params: &Params,
    ) -> Result<u64> {
        let mut last = 0;
        for stmt in Splitter::with_options(sql.as_bytes(), SplitterOptions::default()) {
            let stmt = stmt.map_err(|e| leave_clean(session, e.into()))?;
            if stmt.copy_data.is_some() {
                return Err(leave_clean(session, copy_unsupported()));
            }
            // Without parameters, plain `INSERT … VALUES` lists skip the
            // full SQL parser (with them, `?` is not a literal anyway).
            let fast = match params {
                Params::None => parse_insert_fast(&stmt.text, false),
                _ => None,
            };
            let run = |s: &mut Session| match &fast {
                Some(iv) => s.insert_values(iv),
                None => s.execute(&stmt.text, params),
            };
            match self.retry_busy(session, run) {
                Ok(o) => last = affected(&o),
                Err(e) => return Err(leave_clean(session, e)),
            }
        }
        if session.in_transaction() {
            return Err(leave_clean(session, Error::InvalidInput(unfinished("execute"))));
        }
        Ok(last)
    }

    /// Runs one query and streams its rows (on a cursor thread; see
    /// [`Rows`]). Anything but a query (e.g. `INSERT … RETURNING`) runs to
    /// completion first and its rows are handed out from memory.
    pub fn query(&self, sql: &str, params: impl IntoParams) -> Result<Rows<'static>> {
        self.check_open()?;
        self.shared.cursors.query(sql.to_string(), params.into_params())
    }

    /// Runs one query on the calling thread and hands its streaming rows
    /// to `f` (no cursor thread: the cheapest way to stream when the rows
    /// need not outlive the call).
    pub fn with_query<R>(
        &self,
        sql: &str,
        params: impl IntoParams,
        f: impl FnOnce(Rows<'_>) -> Result<R>,
    ) -> Result<R> {
        let mut session = self.session()?;
        let seed = session.counters();
        match session.query(sql, &params.into_params()) {
            Ok(rows) => {
                self.keep_counters(seed, rows.counters());
                f(Rows::direct(rows))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// The first row of a query, if any, read on the calling thread.
    pub fn query_row(&self, sql: &str, params: impl IntoParams) -> Result<Option<Row>> {
        self.with_query(sql, params, |mut rows| rows.next().transpose())
    }

    /// Begins a write transaction, waiting for the write lock up to the
    /// busy timeout. Dropping the [`Transaction`] rolls it back.
    pub fn transaction(&self) -> Result<Transaction> {
        let mut session = self.session()?;
        self.begin_on(&mut session)?;
        let seed = session.counters();
        Ok(Transaction { db: self.clone(), session, seed })
    }

    /// `BEGIN` on a caller-owned session, waiting out other writers.
    pub(crate) fn begin_on(&self, session: &mut Session) -> Result<()> {
        self.retry_busy(session, |s| s.execute("BEGIN", &Params::None))?;
        Ok(())
    }

    /// Runs a script read from `script`, statement by statement, without
    /// holding it in memory. `on_statement` sees every statement that ran.
    /// Stops at the first error ([`Error::Statement`] says which); what
    /// the statements before it committed stays committed, and a
    /// transaction the script left open is rolled back.
    pub fn execute_script(
        &self,
        script: impl Read,
        on_statement: impl FnMut(&ScriptProgress),
    ) -> Result<ScriptSummary> {
        self.execute_script_with(script, SplitterOptions::default(), on_statement)
    }

    /// [`Database::execute_script`] with splitter options (MySQL-style
    /// backslash escapes, chunk size, statement size limit).
    pub fn execute_script_with(
        &self,
        script: impl Read,
        opts: SplitterOptions,
        mut on_statement: impl FnMut(&ScriptProgress),
    ) -> Result<ScriptSummary> {
        let mut session = self.session()?;
        let seed = session.counters();
        let r = self.run_script(&mut session, script, opts, &mut on_statement);
        self.keep_counters(seed, session.counters());
        r
    }

    fn run_script(
        &self,
        session: &mut Session,
        script: impl Read,
        opts: SplitterOptions,
        on_statement: &mut impl FnMut(&ScriptProgress),
    ) -> Result<ScriptSummary> {
        let mut summary = ScriptSummary::default();
        let backslash_escapes = opts.backslash_escapes;
        let mut splitter = Splitter::with_options(script, opts);
        for stmt in splitter.by_ref() {
            let stmt = stmt.map_err(|e| leave_clean(session, e.into()))?;
            let wrap = |source: Error| Error::Statement {
                index: stmt.index,
                offset: stmt.start,
                source: Box::new(source),
            };
            if stmt.copy_data.is_some() {
                return Err(leave_clean(session, wrap(copy_unsupported())));
            }
            let started = Instant::now();
            // Plain `INSERT … VALUES` lists skip the full SQL parser.
            let fast = parse_insert_fast(&stmt.text, backslash_escapes);
            let outcome = self
                .retry_busy(session, |s| match &fast {
                    Some(iv) => s.insert_values(iv),
                    None => s.execute(&stmt.text, &Params::None),
                })
                .map_err(|e| leave_clean(session, wrap(e)))?;
            let progress = ScriptProgress {
                index: stmt.index,
                offset: stmt.start,
                end: stmt.end,
                rows_affected: affected(&outcome),
                elapsed: started.elapsed(),
            };
            summary.statements += 1;
            summary.rows_affected += progress.rows_affected;
            on_statement(&progress);
        }
        summary.bytes = splitter.bytes_consumed();
        if session.in_transaction() {
            return Err(leave_clean(session, Error::InvalidInput(unfinished("the script"))));
        }
        Ok(summary)
    }

    /// Runs `f`, and again while it fails because another writer holds the
    /// lock, up to the busy timeout. Only statements outside a transaction
    /// are retried: a failed autocommit statement left nothing behind.
    pub(crate) fn retry_busy<T>(
        &self,
        session: &mut Session,
        mut f: impl FnMut(&mut Session) -> asadb_sql::Result<T>,
    ) -> Result<T> {
        let started = Instant::now();
        let deadline = started + self.shared.opts.busy_timeout;
        let mut pause = Duration::from_millis(1);
        loop {
            self.check_open()?;
            match f(session) {
                Err(e) if is_busy(&e) && !session.in_transaction() => {
                    let now = Instant::now();
                    if now >= deadline {
                        return Err(match e {
                            asadb_sql::Error::Storage(_) => Error::Sql(e),
                            _ => Error::Busy { waited: now - started },
                        });
                    }
                    std::thread::sleep(pause.min(deadline - now));
                    pause = (pause * 2).min(Duration::from_millis(20));
                }
                r => return r.map_err(Error::from),
            }
        }
    }
}

pub(crate) fn affected(o: &Outcome) -> u64 {
    match o {
        Outcome::Affected(n) => *n,
        Outcome::Rows { rows, .. } => rows.len() as u64,
        Outcome::Ok => 0,
    }
}

fn copy_unsupported() -> Error {
    Error::Unsupported("COPY … FROM stdin (import it through the Reservoir)".into())
}

fn unfinished(what: &str) -> String {
    format!("{what} ended inside a transaction; it was rolled back (use Database::transaction)")
}

/// Rolls back whatever `session` left open and passes `e` on.
fn leave_clean(session: &mut Session, e: Error) -> Error {
    if session.in_transaction() {
        let _ = session.execute("ROLLBACK", &Params::None);
    }
    e
}

/// A write transaction. Statements run in order on the calling thread;
/// [`Transaction::commit`] makes them durable, [`Transaction::rollback`]
/// or dropping the handle discards them.
pub struct Transaction {
    db: Database,
    session: Session,
    /// The handle's counters when it began (see [`Database::counters`]).
    seed: Counters,
}

impl Transaction {
    /// Runs every statement of `sql` inside the transaction; returns the
    /// rows affected by the last one. A failing statement leaves no
    /// partial effects and the transaction stays usable.
    pub fn execute(&mut self, sql: &str, params: impl IntoParams) -> Result<u64> {
        self.check()?;
        let o = self.session.execute(sql, &params.into_params())?;
        Ok(affected(&o))
    }

    /// Runs one query inside the transaction and streams its rows (which
    /// see the transaction's own changes).
    pub fn query(&mut self, sql: &str, params: impl IntoParams) -> Result<Rows<'_>> {
        self.check()?;
        Ok(Rows::direct(self.session.query(sql, &params.into_params())?))
    }

    /// Commits.
    pub fn commit(mut self) -> Result<()> {
        self.check()?;
        self.session.execute("COMMIT", &Params::None)?;
        Ok(())
    }

    /// Rolls back.
    pub fn rollback(mut self) -> Result<()> {
        self.check()?;
        self.session.execute("ROLLBACK", &Params::None)?;
        Ok(())
    }

    /// The database this transaction belongs to.
    pub fn database(&self) -> &Database {
        &self.db
    }

    /// The transaction's change counters: the handle's when it began, then
    /// what its statements did (they go back to the handle when it ends,
    /// committed or not, as SQLite counts rolled-back changes too).
    pub fn counters(&self) -> Counters {
        self.session.counters()
    }

    /// The rowid of the last row an INSERT wrote into a rowid table.
    pub fn last_insert_rowid(&self) -> i64 {
        self.counters().last_insert_rowid
    }

    /// The rows the last completed INSERT, UPDATE or DELETE changed.
    pub fn changes(&self) -> u64 {
        self.counters().changes
    }

    /// Every row changed through the handle, this transaction's included.
    pub fn total_changes(&self) -> u64 {
        self.counters().total_changes
    }

    fn check(&self) -> Result<()> {
        if !self.session.in_transaction() {
            return Err(Error::InvalidInput("the transaction has already ended".into()));
        }
        Ok(())
    }
}

impl Drop for Transaction {
    fn drop(&mut self) {
        if self.session.in_transaction() {
            let _ = self.session.execute("ROLLBACK", &Params::None);
        }
        self.db.keep_counters(self.seed, self.session.counters());
    }
}

/// [`Database::keep_counters`] on the cell itself (cursor threads hold it).
pub(crate) fn keep_counters(cell: &Mutex<Counters>, seed: Counters, now: Counters) {
    if now != seed {
        *cell.lock() = now;
    }
}
