//! The one worker: runs queued jobs, oldest first, through the script
//! splitter and the engine's session API.
//!
//! Execution rules:
//! - statements without explicit transaction control run in batches: one
//!   transaction per batch (bounded by statements, bytes and rows), a savepoint
//!   per statement, so a failing statement leaves no partial effects;
//! - every batch commit also writes the job's progress marker (next
//!   statement index, byte offset) into `_asadb_reservoir_progress` in the
//!   same transaction: the database itself knows which statements of a job
//!   are durable, and `resume` continues exactly after them;
//! - a script's own `BEGIN … COMMIT` is one unit: the open batch is
//!   committed first, the marker is written just before the script's
//!   `COMMIT`;
//! - stop-on-error (default): the first error commits the statements
//!   before it and fails the job, naming the statement; otherwise errors
//!   are recorded (bounded) and execution goes on;
//! - cancellation is checked between statements and batches, and inside a
//!   statement at every row it reads or writes (the job's cancel flag is
//!   the session's [`Interrupt`] while a script statement runs, never while
//!   the worker's own bookkeeping runs); the open batch is rolled back,
//!   then the job is cancelled.

use std::sync::atomic::Ordering;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use asadb_sql::Value;
use asadb_sql::session::{Engine, Outcome, Params, Session};
use asadb_sql::storage::Interrupt;

use crate::core::Reservoir;
use crate::import::{StepBody, StepError, Units};
use crate::job::{JobError, JobId, JobState};
use crate::results::{ResultWriter, StatementSummary};
use crate::{Error, Result};

/// The system table holding each running job's durable position.
pub const PROGRESS_TABLE: &str = "_asadb_reservoir_progress";

use crate::contract::{BATCH_BYTES, BATCH_STATEMENTS};
/// Most rows written by one batch transaction (an import's row batches
/// are statements of up to a thousand rows each).
const BATCH_ROWS: u64 = 100_000;
/// Longest statement excerpt kept in errors and summaries.
const EXCERPT: usize = 120;

/// How a job run ended.
enum Ending {
    Completed,
    /// The script failed (a statement with stop-on-error, a lexical error,
    /// an unclosed transaction).
    Failed(JobError),
    Cancelled,
    /// The run stopped for a reason outside the script; resumable.
    Interrupted(JobError),
}

/// Starts the worker thread.
pub(crate) fn spawn(res: Reservoir, engine: Engine) -> Result<JoinHandle<()>> {
    let mut session = engine.session();
    session.execute(
        &format!(
            "CREATE TABLE IF NOT EXISTS {PROGRESS_TABLE} (job_id INTEGER PRIMARY KEY, \
             statement INTEGER NOT NULL, byte_offset INTEGER NOT NULL, \
             rows_affected INTEGER NOT NULL DEFAULT 0)"
        ),
        &Params::None,
    )?;
    reconcile_interrupted(&res, &mut session)?;
    drop(session);
    // The session is made on the worker thread: it owns the thread's
    // transaction and need not be `Send`.
    let handle = std::thread::Builder::new()
        .name("asadb-reservoir-worker".into())
        .spawn(move || run(res, engine))?;
    Ok(handle)
}

fn run(res: Reservoir, engine: Engine) {
    let mut session = engine.session();
    let inner = res.inner.clone();
    let mut last_sweep = Instant::now();
    loop {
        let id = {
            let mut st = inner.state.lock();
            loop {
                if st.shutting_down {
                    return;
                }
                let next = st
                    .jobs
                    .values()
                    .filter(|e| e.job.state == JobState::Queued)
                    .min_by_key(|e| (e.job.created_at, e.job.id))
                    .map(|e| e.job.id);
                if let Some(id) = next
                    && inner
                        .transition(&mut st, id, true, |j| j.state = JobState::Processing)
                        .is_ok()
                {
                    st.current = Some(id);
                    st.current_since = Some(Instant::now());
                    break id;
                }
                inner.wake.wait_for(&mut st, Duration::from_secs(5));
                if last_sweep.elapsed() > Duration::from_secs(30) {
                    drop(st);
                    let _ = res.sweep();
                    last_sweep = Instant::now();
                    st = inner.state.lock();
                }
            }
        };
        let started = Instant::now();
        // A panic in one statement is that statement's error (see
        // `guarded`). A panic anywhere else (the worker's own bookkeeping,
        // a transaction-control statement) or an error outside a statement
        // (committing a batch, writing the result, reading the spool) ends
        // the run: the session and its open transaction are dropped
        // (rolled back) and the job becomes interrupted — what it
        // committed stays, with its progress marker, and `resume`
        // continues after it. Such failures come from the environment (a
        // full disk, an IO error) or a bug, never from the script, and a
        // failed COMMIT's outcome is unknown: never `failed`.
        let run_job = std::panic::AssertUnwindSafe(|| execute(&res, &mut session, id));
        let ending = match std::panic::catch_unwind(run_job) {
            Ok(Ok(ending)) => ending,
            Ok(Err(err)) => Ending::Interrupted(JobError {
                code: err.code().into(),
                message: format!(
                    "the job stopped: {err}; its committed statements stay, resume it to \
                     continue after them"
                ),
                statement: None,
                excerpt: None,
            }),
            Err(panic) => {
                session = engine.session();
                Ending::Interrupted(JobError {
                    code: "internal_error".into(),
                    message: format!(
                        "the engine failed unexpectedly: {}; the job's uncommitted \
                         statements were rolled back, resume it to continue",
                        panic_message(&panic)
                    ),
                    statement: None,
                    excerpt: None,
                })
            }
        };
        // Whatever happened, leave no transaction open on the session.
        if session.in_transaction() {
            let _ = session.execute("ROLLBACK", &Params::None);
        }
        let mut st = inner.state.lock();
        st.current = None;
        st.current_since = None;
        st.executing_time += started.elapsed();
        let (to, error) = match ending {
            Ending::Completed => (JobState::Completed, None),
            Ending::Failed(e) => (JobState::Failed, Some(e)),
            Ending::Cancelled => (JobState::Cancelled, None),
            Ending::Interrupted(e) => (JobState::Interrupted, Some(e)),
        };
        // Whether the result is in place is logged in the same record as
        // the job's end: a separate record could fail on its own and leave
        // a completed job without its result.
        let has_result = inner.files.exists(&inner.result_path(id));
        if let Some(e) = st.jobs.get_mut(&id) {
            e.job.has_result = has_result;
        }
        let _ = inner.finish_job(&mut st, id, to, error);
    }
}

/// Runs one job from its durable position to its end.
fn execute(res: &Reservoir, session: &mut Session, id: JobId) -> Result<Ending> {
    let inner = &res.inner;
    let (cancel, stop_on_error, total) = {
        let st = inner.state.lock();
        let e = &st.jobs[&id];
        (e.cancel.clone(), e.job.stop_on_error, e.job.received_bytes)
    };
    let interrupt = Interrupt::from_flag(cancel.clone());
    let (first, start_offset, rows_before) = read_marker(session, id)?;
    // The statements of a script, or the units of an import's reader; a
    // resumed import replays its reader past the units already durable.
    let mut units = match Units::open(res, session, id, first, start_offset) {
        Ok(u) => u,
        Err(error) => return Ok(Ending::Failed(error)),
    };
    let results =
        ResultWriter::create(inner.files.clone(), &inner.results_dir, &id.to_string(), first)?;
    let mut run = Run {
        res,
        id,
        cleanup: Some(stale_markers(res, id)),
        total,
        batch_open: false,
        script_txn: false,
        batch_statements: 0,
        batch_bytes: 0,
        batch_rows: 0,
        done: first,
        committed: first,
        offset: start_offset,
        committed_offset: start_offset,
        last_persist: start_offset,
        rows_committed: rows_before,
        rows_pending: 0,
        error_count_pending: 0,
        recorded_pending: 0,
        settled: false,
    };
    // A resumed job continues its counters from the durable marker.
    run.progress(|p| {
        p.rows_affected = rows_before;
        p.statements_committed = first;
    });
    let ending =
        run_units(&mut run, session, &mut units, results, &interrupt, &cancel, stop_on_error);
    run.set_report(units.report());
    ending
}

/// Runs the units one by one (see the module docs for the rules).
#[allow(clippy::too_many_arguments)]
fn run_units(
    run: &mut Run<'_>,
    session: &mut Session,
    units: &mut Units,
    mut results: ResultWriter,
    interrupt: &Interrupt,
    cancel: &std::sync::atomic::AtomicBool,
    stop_on_error: bool,
) -> Result<Ending> {
    let total = run.total;
    while let Some(stmt) = units.next() {
        if cancel.load(Ordering::SeqCst) {
            run.rollback(session)?;
            results.discard();
            run.settled = true;
            return Ok(Ending::Cancelled);
        }
        let mut stmt = match stmt {
            Ok(s) => s,
            Err(StepError::Script(e)) => {
                // The script cannot be split past here (an unterminated
                // string or comment, an oversized statement): the same rule
                // as a failing statement — what came before stays.
                let error = JobError {
                    code: "script_error".into(),
                    message: e.to_string(),
                    statement: Some(run.done),
                    excerpt: None,
                };
                if run.script_txn {
                    run.rollback(session)?;
                } else {
                    let (next, offset) = (run.done, run.offset);
                    run.commit_batch_at(session, next, offset)?;
                }
                return run.fail_with_result(results, error);
            }
            Err(StepError::Import(error)) => {
                // What ran before the bad input stays, as for a failing
                // statement.
                let (done, offset) = (run.done, run.offset);
                run.commit_batch_at(session, done, offset)?;
                return run.fail_with_result(results, error);
            }
        };
        let index = stmt.index;
        let end = stmt.end;
        let excerpt = stmt.excerpt(EXCERPT);
        let control = match &stmt.body {
            StepBody::Sql(text) => TxnControl::of(text),
            StepBody::Rows(_) => TxnControl::None,
        };
        let mut row_errors = Vec::new();
        let began = Instant::now();
        let outcome = match control {
            TxnControl::Begin => {
                run.commit_batch(session)?;
                run.script_txn = true;
                control_statement(session, stmt.text())
            }
            TxnControl::Commit if run.script_txn => {
                run.write_marker(session, index + 1, end)?;
                let r = control_statement(session, stmt.text());
                if r.is_ok() {
                    run.script_txn = false;
                    run.committed_at(index + 1, end);
                }
                r
            }
            TxnControl::Rollback if run.script_txn => {
                run.script_txn = false;
                run.discard_pending();
                control_statement(session, stmt.text())
            }
            _ => {
                if !run.script_txn && !run.batch_open {
                    session.execute("BEGIN", &Params::None)?;
                    run.batch_open = true;
                }
                // Every statement runs inside a savepoint of its own (but a
                // script's savepoint statements, which a savepoint around
                // them would undo): a failing — or panicking — statement is
                // rolled back alone.
                let savepoint = run.batch_open
                    || !matches!(&stmt.body, StepBody::Sql(text) if is_savepoint_control(text));
                if savepoint {
                    session.execute("SAVEPOINT asadb_stmt", &Params::None)?;
                }
                let marker = run.res.inner.cfg.test_panic_marker.as_deref();
                let max_value = run.res.inner.cfg.max_value_bytes;
                let (res, id) = (run.res, run.id);
                let body = std::mem::replace(&mut stmt.body, StepBody::Sql(String::new()));
                let failed_line = &mut stmt.failed_line;
                let r = guarded(session, |s| match body {
                    StepBody::Sql(text) => {
                        if let Some(m) = marker
                            && text.contains(m)
                        {
                            panic!("test panic: the statement contains {m:?}");
                        }
                        run_statement(s, &text, &mut results, interrupt, max_value)
                    }
                    StepBody::Rows(batch) => {
                        results.begin_statement();
                        let mut refetch =
                            |s: &mut Session| crate::import::refetch_rows(res, s, id, index);
                        crate::import::run_rows(
                            s,
                            batch,
                            interrupt,
                            stop_on_error,
                            max_value,
                            &mut refetch,
                            failed_line,
                            &mut row_errors,
                        )
                        .map(|rows| StatementSummary { rows_affected: rows, ..empty_summary() })
                    }
                });
                // Whatever happened, the job's cancel flag is not the
                // session's interrupt outside a script statement.
                session.set_interrupt(None);
                let r = match r {
                    Ok(r) => r,
                    // A panic: its statement's savepoint undoes what it
                    // did. Without one to roll back to (a savepoint
                    // statement of the script), the session cannot be
                    // trusted: the caller rolls everything back.
                    Err(panic) if !savepoint => std::panic::resume_unwind(panic),
                    Err(panic) => Err(panic_error(panic)),
                };
                if savepoint {
                    if r.is_err() {
                        session.execute("ROLLBACK TO asadb_stmt", &Params::None)?;
                    }
                    session.execute("RELEASE asadb_stmt", &Params::None)?;
                }
                r
            }
        };
        if matches!(outcome, Err(StatementError::Sql(asadb_sql::Error::Interrupted)))
            && cancel.load(Ordering::SeqCst)
        {
            // Cancelled inside the statement: its savepoint is already
            // rolled back; the batch goes too.
            run.rollback(session)?;
            results.discard();
            run.settled = true;
            return Ok(Ending::Cancelled);
        }
        run.done = index + 1;
        run.offset = end;
        run.batch_statements += 1;
        run.batch_bytes += stmt.end - stmt.start;
        match outcome {
            Ok(summary) => {
                if !matches!(control, TxnControl::None) {
                    results.begin_statement();
                }
                let rows = summary.rows_affected;
                run.batch_rows += rows;
                results.end_statement(StatementSummary {
                    statement: index,
                    excerpt,
                    elapsed_ms: elapsed_ms(began),
                    ..summary
                })?;
                // An import's skipped rows are errors of the statement that
                // carried them, recorded like a statement's.
                for e in &mut row_errors {
                    e.statement = Some(index);
                }
                run.statement_done(stmt.end - stmt.start, rows, row_errors, true);
            }
            Err(err) => {
                let error = JobError {
                    code: err.code().into(),
                    message: stmt.locate(err.to_string()),
                    statement: Some(index),
                    excerpt: Some(excerpt.clone()),
                };
                results.end_statement(StatementSummary {
                    statement: index,
                    excerpt,
                    rows_affected: 0,
                    columns: None,
                    row_count: 0,
                    error: Some(error.clone()),
                    elapsed_ms: elapsed_ms(began),
                })?;
                // With stop-on-error the job's own error names it.
                run.statement_done(stmt.end - stmt.start, 0, vec![error.clone()], !stop_on_error);
                if stop_on_error {
                    if run.script_txn {
                        // The script's own unit fails as a whole.
                        run.rollback(session)?;
                    } else {
                        // Everything before the failing statement stays.
                        run.commit_batch_at(session, index, stmt.start)?;
                    }
                    return run.fail_with_result(results, error);
                }
            }
        }
        if run.batch_open
            && (run.batch_statements >= BATCH_STATEMENTS
                || run.batch_bytes >= BATCH_BYTES
                || run.batch_rows >= BATCH_ROWS)
        {
            run.commit_batch(session)?;
        }
        run.maybe_persist();
    }
    if run.script_txn {
        run.rollback(session)?;
        let error = JobError {
            code: "open_transaction".into(),
            message: "the script ended inside its own open transaction; \
                      the statements since its BEGIN were rolled back"
                .into(),
            statement: None,
            excerpt: None,
        };
        return run.fail_with_result(results, error);
    }
    // The last batch commits with a marker past the last statement. It
    // stays until a later job's first commit removes it (see
    // `stale_markers`): should the process die before the job is recorded
    // as completed, `resume` finds nothing left to run instead of
    // replaying the script.
    run.commit_batch(session)?;
    results.finish()?;
    // Whatever follows the last statement (whitespace, comments) is done too.
    run.offset = total.max(run.offset);
    run.progress(|p| p.percent = 100.0);
    run.settled = true;
    Ok(Ending::Completed)
}

/// Why one statement of a script failed.
#[derive(Debug)]
enum StatementError {
    /// The engine refused or failed it.
    Sql(asadb_sql::Error),
    /// The engine panicked while running it (a bug): the statement's
    /// savepoint was rolled back and the job goes on like after an error.
    Panic(String),
}

impl StatementError {
    fn code(&self) -> &'static str {
        match self {
            StatementError::Sql(asadb_sql::Error::Internal(_)) | StatementError::Panic(_) => {
                "internal_error"
            }
            StatementError::Sql(asadb_sql::Error::TooLarge(_)) => "too_large",
            StatementError::Sql(_) => "sql_error",
        }
    }
}

impl std::fmt::Display for StatementError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StatementError::Sql(e) => e.fmt(f),
            StatementError::Panic(what) => {
                write!(f, "internal error: the engine failed unexpectedly: {what}")
            }
        }
    }
}

impl From<asadb_sql::Error> for StatementError {
    fn from(e: asadb_sql::Error) -> Self {
        StatementError::Sql(e)
    }
}

/// The payload of a caught panic.
type Panic = Box<dyn std::any::Any + Send>;

/// Runs `f` (one statement on the session) and catches a panic in it, so
/// one statement's engine bug cannot end the job, let alone the worker.
fn guarded<T>(
    session: &mut Session,
    f: impl FnOnce(&mut Session) -> asadb_sql::Result<T>,
) -> std::result::Result<std::result::Result<T, StatementError>, Panic> {
    let call = std::panic::AssertUnwindSafe(|| f(session));
    std::panic::catch_unwind(call).map(|r| r.map_err(StatementError::Sql))
}

/// Runs a transaction-control statement of the script. A panic in one
/// leaves the session's transaction state unknown: it is passed on, so the
/// job's whole run is abandoned (everything uncommitted rolled back) and
/// the job becomes interrupted, to be resumed from its durable marker.
fn control_statement(
    session: &mut Session,
    sql: &str,
) -> std::result::Result<StatementSummary, StatementError> {
    guarded(session, |s| s.execute(sql, &Params::None).map(|_| empty_summary()))
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// The message of a caught panic, as a statement error.
fn panic_error(panic: Panic) -> StatementError {
    StatementError::Panic(panic_message(&panic))
}

/// The text a panic carried.
pub(crate) fn panic_message(panic: &Panic) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}

/// `SAVEPOINT x`, `RELEASE [SAVEPOINT] x`, `ROLLBACK [TRANSACTION] TO x`:
/// statements a savepoint of the worker's around them would undo (from the
/// parser, like [`TxnControl`]).
fn is_savepoint_control(sql: &str) -> bool {
    use asadb_sql::parse::{StatementKind as K, transaction_control};
    matches!(transaction_control(sql), Some(K::Savepoint | K::Release | K::RollbackTo))
}

/// The statement deleting every progress marker but those of `current`
/// and of every job that may still run: interrupted ones (`resume` reads
/// their marker) and active ones — a resumed job is queued again and
/// starts from its marker, so deleting it would run its committed
/// statements a second time (found by the kill loop).
fn stale_markers(res: &Reservoir, current: JobId) -> String {
    let st = res.inner.state.lock();
    let keep: Vec<String> = st
        .jobs
        .values()
        .filter(|e| {
            e.job.id == current || e.job.state == JobState::Interrupted || e.job.state.is_active()
        })
        .map(|e| e.job.id.to_string())
        .collect();
    format!("DELETE FROM {PROGRESS_TABLE} WHERE job_id NOT IN ({})", keep.join(", "))
}

/// Executes one statement, streaming rows of a query into the result. A
/// row with a value longer than `max_value` fails the statement.
fn run_statement(
    session: &mut Session,
    sql: &str,
    results: &mut ResultWriter,
    interrupt: &Interrupt,
    max_value: usize,
) -> asadb_sql::Result<StatementSummary> {
    results.begin_statement();
    session.set_interrupt(Some(interrupt.clone()));
    let outcome = session.execute(sql, &Params::None);
    session.set_interrupt(None);
    let outcome = outcome?;
    let mut summary = empty_summary();
    match outcome {
        Outcome::Rows { columns, rows } => {
            let mut line = String::new();
            for row in rows {
                check_value_sizes(&row, max_value)?;
                line.clear();
                row_json(&row, &mut line);
                results.row(&line).map_err(|e| asadb_sql::Error::InvalidInput(e.to_string()))?;
            }
            summary.columns = Some(columns);
        }
        Outcome::Affected(n) => summary.rows_affected = n,
        Outcome::Ok => {}
    }
    Ok(summary)
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

/// Milliseconds since `began`, to the microsecond.
fn elapsed_ms(began: Instant) -> f64 {
    began.elapsed().as_micros() as f64 / 1000.0
}

/// The running state of one job's execution.
struct Run<'a> {
    res: &'a Reservoir,
    id: JobId,
    /// Removes the markers of finished jobs; runs in this job's first
    /// commit, so it costs no transaction of its own.
    cleanup: Option<String>,
    total: u64,
    batch_open: bool,
    script_txn: bool,
    batch_statements: u64,
    batch_bytes: u64,
    batch_rows: u64,
    /// Statements executed (next index to run).
    done: u64,
    /// Statements durably committed.
    committed: u64,
    /// Byte offset after the last executed statement.
    offset: u64,
    /// Byte offset after the last committed statement.
    committed_offset: u64,
    last_persist: u64,
    /// Rows affected by committed statements, and by executed ones not
    /// committed yet (undone if their transaction is rolled back).
    rows_committed: u64,
    rows_pending: u64,
    /// Failed statements not committed yet, and how many of their errors
    /// were recorded in the job's `statement_errors` (live, and removed
    /// again if their transaction is rolled back).
    error_count_pending: u64,
    recorded_pending: usize,
    /// The run reached its ending (every counter is final); otherwise
    /// dropping it (an error or a panic) puts the counters back to what is
    /// durable.
    settled: bool,
}

impl Drop for Run<'_> {
    fn drop(&mut self) {
        if !self.settled {
            self.discard_pending();
        }
    }
}

impl Run<'_> {
    /// Ends the job as failed, with its result. The failure is logged
    /// first — durably, the job still processing, its `error` set — and
    /// only then is the result renamed into place: recovery completes a
    /// processing job whose result exists, and this record is how it tells
    /// a failed one from a completed one (a failed job never comes back
    /// completed). If the record cannot be written, the result is dropped
    /// (its temporary files removed) and the job ends interrupted.
    fn fail_with_result(&mut self, results: ResultWriter, error: JobError) -> Result<Ending> {
        let inner = &self.res.inner;
        {
            let mut st = inner.state.lock();
            inner.transition(&mut st, self.id, true, |j| j.error = Some(error.clone()))?;
        }
        results.finish()?;
        self.settled = true;
        Ok(Ending::Failed(error))
    }

    fn commit_batch(&mut self, session: &mut Session) -> Result<()> {
        let (done, offset) = (self.done, self.offset);
        self.commit_batch_at(session, done, offset)
    }

    /// Commits the open batch with a marker saying statements `< next` are
    /// durable and the script continues at byte `offset`.
    fn commit_batch_at(&mut self, session: &mut Session, next: u64, offset: u64) -> Result<()> {
        if !self.batch_open {
            return Ok(());
        }
        self.write_marker(session, next, offset)?;
        session.execute("COMMIT", &Params::None)?;
        self.batch_open = false;
        self.batch_statements = 0;
        self.batch_bytes = 0;
        self.batch_rows = 0;
        self.committed_at(next, offset);
        Ok(())
    }

    /// Statements `< next` (ending at byte `offset`) are now durable, with
    /// the rows and errors counted for them so far.
    fn committed_at(&mut self, next: u64, offset: u64) {
        self.committed = next;
        self.committed_offset = offset;
        self.rows_committed += std::mem::take(&mut self.rows_pending);
        self.error_count_pending = 0;
        self.recorded_pending = 0;
        self.progress(|p| p.statements_committed = next);
    }

    /// Records, inside the open transaction, that statements `< next` and
    /// the rows they affected are durable once it commits.
    fn write_marker(&mut self, session: &mut Session, next: u64, offset: u64) -> Result<()> {
        if let Some(sql) = self.cleanup.take() {
            session.execute(&sql, &Params::None)?;
        }
        let rows = self.rows_committed + self.rows_pending;
        session.execute(
            &format!(
                "INSERT OR REPLACE INTO {PROGRESS_TABLE} \
                 (job_id, statement, byte_offset, rows_affected) \
                 VALUES ({}, {next}, {offset}, {rows})",
                self.id
            ),
            &Params::None,
        )?;
        Ok(())
    }

    /// Rolls back the open batch or script transaction; the live counters
    /// go back to what is durable.
    fn rollback(&mut self, session: &mut Session) -> Result<()> {
        let open = self.batch_open || self.script_txn;
        self.batch_open = false;
        self.script_txn = false;
        self.discard_pending();
        if open {
            session.execute("ROLLBACK", &Params::None)?;
        }
        Ok(())
    }

    /// Forgets the counters of statements since the last commit (their
    /// transaction is being rolled back): the live progress goes back to
    /// what is durable.
    fn discard_pending(&mut self) {
        let (rows, errors) = (self.rows_pending, self.error_count_pending);
        let recorded = std::mem::take(&mut self.recorded_pending);
        self.rows_pending = 0;
        self.error_count_pending = 0;
        self.done = self.committed;
        self.offset = self.committed_offset;
        let mut st = self.res.inner.state.lock();
        if let Some(e) = st.jobs.get_mut(&self.id) {
            let keep = e.job.statement_errors.len().saturating_sub(recorded);
            e.job.statement_errors.truncate(keep);
        }
        self.apply_progress(&mut st, |p| {
            p.rows_affected = p.rows_affected.saturating_sub(rows);
            p.errors = p.errors.saturating_sub(errors);
        });
    }

    /// Updates live progress in memory.
    fn progress(&self, f: impl FnOnce(&mut crate::Progress)) {
        self.apply_progress(&mut self.res.inner.state.lock(), f);
    }

    /// Counts one executed statement of `bytes` script bytes that affected
    /// `rows` rows, with `errors` (the statement's own failure, or the rows
    /// an import skipped; recorded in the job when `record`), and updates
    /// the live progress, under one lock.
    fn statement_done(&mut self, bytes: u64, rows: u64, errors: Vec<JobError>, record: bool) {
        self.rows_pending += rows;
        let failed = errors.len() as u64;
        let max = self.res.inner.cfg.max_recorded_errors;
        let mut st = self.res.inner.state.lock();
        for e in errors {
            self.error_count_pending += 1;
            if let Some(entry) = st.jobs.get_mut(&self.id)
                && record
                && entry.job.statement_errors.len() < max
            {
                entry.job.statement_errors.push(e);
                self.recorded_pending += 1;
            }
        }
        st.executed_statements += 1;
        st.executed_bytes += bytes;
        self.apply_progress(&mut st, |p| {
            p.rows_affected += rows;
            p.errors += failed;
        });
    }

    fn apply_progress(&self, st: &mut crate::core::State, f: impl FnOnce(&mut crate::Progress)) {
        if let Some(e) = st.jobs.get_mut(&self.id) {
            let p = &mut e.job.progress;
            p.bytes_done = self.offset;
            p.bytes_total = self.total;
            p.statements_done = self.done;
            p.percent = if self.total == 0 {
                100.0
            } else {
                (self.offset as f64 * 100.0 / self.total as f64).min(100.0)
            };
            f(p);
            // Live, like the progress: a job of a few long statements
            // must not look frozen between persisted snapshots.
            e.job.updated_at = crate::core::now_ms().max(e.job.updated_at);
            self.res.inner.changes.notify(self.id, Some(&e.job));
        }
    }

    /// Attaches an import's report to the job (kept with its next
    /// snapshot).
    fn set_report(&self, report: Option<asadb_interchange::Report>) {
        if report.is_none() {
            return;
        }
        let inner = &self.res.inner;
        let mut st = inner.state.lock();
        let _ = inner.transition(&mut st, self.id, false, |j| j.report = report);
    }

    /// Persists the snapshot every progress quantum of script bytes.
    fn maybe_persist(&mut self) {
        let quantum = self.res.inner.cfg.progress_quantum_bytes.max(1);
        if self.offset.saturating_sub(self.last_persist) >= quantum {
            let inner = &self.res.inner;
            let mut st = inner.state.lock();
            let _ = inner.transition(&mut st, self.id, false, |_| {});
            self.last_persist = self.offset;
        }
    }
}

/// Brings the progress of every interrupted job in line with its durable
/// marker: the snapshot persisted before the stop may lag (progress is
/// logged every quantum) or count statements whose batch was rolled back;
/// the marker, committed with the rows, is the truth.
fn reconcile_interrupted(res: &Reservoir, session: &mut Session) -> Result<()> {
    let interrupted: Vec<JobId> = {
        let st = res.inner.state.lock();
        st.jobs
            .values()
            .filter(|e| e.job.state == JobState::Interrupted)
            .map(|e| e.job.id)
            .collect()
    };
    for id in interrupted {
        let (next, offset, rows) = read_marker(session, id)?;
        let inner = &res.inner;
        let mut st = inner.state.lock();
        inner.transition(&mut st, id, true, |job| {
            let p = &mut job.progress;
            p.statements_done = next;
            p.statements_committed = next;
            p.bytes_done = offset;
            p.rows_affected = rows;
            p.percent = if p.bytes_total == 0 {
                0.0
            } else {
                (offset as f64 * 100.0 / p.bytes_total as f64).min(100.0)
            };
        })?;
    }
    Ok(())
}

/// Reads a job's durable position: (next statement, byte offset, rows
/// affected by the durable statements).
fn read_marker(session: &mut Session, id: JobId) -> Result<(u64, u64, u64)> {
    let outcome = session.execute(
        &format!(
            "SELECT statement, byte_offset, rows_affected FROM {PROGRESS_TABLE} \
             WHERE job_id = {id}"
        ),
        &Params::None,
    )?;
    if let Outcome::Rows { rows, .. } = outcome
        && let Some(row) = rows.first()
        && let [Value::Integer(stmt), Value::Integer(off), Value::Integer(n)] = row.as_slice()
    {
        return Ok((*stmt as u64, *off as u64, *n as u64));
    }
    Ok((0, 0, 0))
}

/// Transaction-control statements the worker must see.
#[derive(Clone, Copy, PartialEq, Eq)]
enum TxnControl {
    None,
    Begin,
    Commit,
    Rollback,
}

impl TxnControl {
    /// From the parser (`asadb_sql::parse`), never from the text: a
    /// `ROLLBACK TO` savepoint, however it is spelt, is not the end of the
    /// script's transaction.
    fn of(sql: &str) -> TxnControl {
        use asadb_sql::parse::{StatementKind as K, transaction_control};
        match transaction_control(sql) {
            Some(K::Begin) => TxnControl::Begin,
            Some(K::Commit) => TxnControl::Commit,
            Some(K::Rollback) => TxnControl::Rollback,
            _ => TxnControl::None,
        }
    }
}

/// Fails with `TooLarge` when a value of `row` (text or blob) is longer
/// than `max` bytes: the one rule for query pages and job results.
pub fn check_value_sizes(row: &[Value], max: usize) -> asadb_sql::Result<()> {
    match oversize_value(row, max) {
        Some((i, len)) => Err(asadb_sql::Error::TooLarge(format!(
            "column {} of a result row holds a {len}-byte value, more than the limit of \
             {max} bytes (max-value-bytes)",
            i + 1
        ))),
        None => Ok(()),
    }
}

/// The first value of `row` (text or blob) longer than `max` bytes: its
/// 0-based column and length. The one size rule for result rows and
/// imported rows.
pub(crate) fn oversize_value(row: &[Value], max: usize) -> Option<(usize, usize)> {
    row.iter().enumerate().find_map(|(i, v)| {
        let len = match v {
            Value::Text(t) => t.len(),
            Value::Blob(b) => b.len(),
            _ => 0,
        };
        (len > max).then_some((i, len))
    })
}

/// Appends a row as a JSON array: NULL → null, integers, floats always
/// with a decimal point or exponent, text as strings, blobs as
/// `{"hex": "…"}`.
pub fn row_json(row: &[Value], out: &mut String) {
    out.push('[');
    for (i, v) in row.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        value_json(v, out);
    }
    out.push(']');
}

fn value_json(v: &Value, out: &mut String) {
    asadb_interchange::export::value_json(v, out);
}

impl From<asadb_sql::Error> for Error {
    fn from(e: asadb_sql::Error) -> Self {
        Error::Sql(e)
    }
}
