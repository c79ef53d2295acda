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
    Failed(JobError),
    Cancelled,
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
        // A panic (an engine bug; the panic hook has printed it) fails this
        // job, not the worker: the session and its transaction are dropped
        // (rolled back) and the next job gets a fresh one. Statements
        // committed before it stay, with their progress marker, as for any
        // failure.
        let run_job = std::panic::AssertUnwindSafe(|| execute(&res, &mut session, id));
        let ending = match std::panic::catch_unwind(run_job) {
            Ok(Ok(ending)) => ending,
            Ok(Err(err)) => Ending::Failed(JobError {
                code: err.code().into(),
                message: err.to_string(),
                statement: None,
                excerpt: None,
            }),
            Err(panic) => {
                session = engine.session();
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                Ending::Failed(JobError {
                    code: "internal_error".into(),
                    message: format!("the engine failed unexpectedly: {what}"),
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
        };
        let has_result = inner.result_path(id).exists();
        let _ = inner.transition(&mut st, id, false, |j| j.has_result = has_result);
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
    let results = ResultWriter::create(&inner.results_dir, &id.to_string(), first)?;
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
        last_persist: start_offset,
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
            return Ok(Ending::Cancelled);
        }
        let mut stmt = match stmt {
            Ok(s) => s,
            Err(StepError::Script(e)) => {
                run.rollback(session)?;
                results.discard();
                return Ok(Ending::Failed(JobError {
                    code: "script_error".into(),
                    message: e.to_string(),
                    statement: Some(run.done),
                    excerpt: None,
                }));
            }
            Err(StepError::Import(error)) => {
                // What ran before the bad input stays, as for a failing
                // statement.
                let (done, offset) = (run.done, run.offset);
                run.commit_batch_at(session, done, offset)?;
                results.finish()?;
                return Ok(Ending::Failed(error));
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
                session.execute(stmt.text(), &Params::None).map(|_| empty_summary())
            }
            TxnControl::Commit if run.script_txn => {
                run.write_marker(session, index + 1, end)?;
                let r = session.execute(stmt.text(), &Params::None).map(|_| empty_summary());
                if r.is_ok() {
                    run.script_txn = false;
                    run.committed = index + 1;
                }
                r
            }
            TxnControl::Rollback if run.script_txn => {
                run.script_txn = false;
                session.execute(stmt.text(), &Params::None).map(|_| empty_summary())
            }
            _ => {
                if !run.script_txn && !run.batch_open {
                    session.execute("BEGIN", &Params::None)?;
                    run.batch_open = true;
                }
                if run.batch_open {
                    session.execute("SAVEPOINT asadb_stmt", &Params::None)?;
                }
                let body = std::mem::replace(&mut stmt.body, StepBody::Sql(String::new()));
                let r = match body {
                    StepBody::Sql(text) => run_statement(session, &text, &mut results, interrupt),
                    StepBody::Rows(batch) => {
                        results.begin_statement();
                        crate::import::run_rows(
                            session,
                            batch,
                            interrupt,
                            stop_on_error,
                            &mut stmt.failed_line,
                            &mut row_errors,
                        )
                        .map(|rows| StatementSummary { rows_affected: rows, ..empty_summary() })
                    }
                };
                if run.batch_open {
                    if r.is_err() {
                        session.execute("ROLLBACK TO asadb_stmt", &Params::None)?;
                    }
                    session.execute("RELEASE asadb_stmt", &Params::None)?;
                }
                r
            }
        };
        if matches!(outcome, Err(asadb_sql::Error::Interrupted)) && cancel.load(Ordering::SeqCst) {
            // Cancelled inside the statement: its savepoint is already
            // rolled back; the batch goes too.
            run.rollback(session)?;
            results.discard();
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
                let failed_rows = row_errors.len() as u64;
                results.end_statement(StatementSummary {
                    statement: index,
                    excerpt,
                    elapsed_ms: elapsed_ms(began),
                    ..summary
                })?;
                run.statement_done(stmt.end - stmt.start, |p| {
                    p.rows_affected += rows;
                    p.errors += failed_rows;
                });
                for mut e in row_errors {
                    e.statement = Some(index);
                    run.record_error(e);
                }
            }
            Err(err) => {
                let error = JobError {
                    code: "sql_error".into(),
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
                run.statement_done(stmt.end - stmt.start, |p| p.errors += 1);
                if stop_on_error {
                    if run.script_txn {
                        // The script's own unit fails as a whole.
                        run.rollback(session)?;
                    } else {
                        // Everything before the failing statement stays.
                        run.commit_batch_at(session, index, stmt.start)?;
                    }
                    results.finish()?;
                    return Ok(Ending::Failed(error));
                }
                run.record_error(error);
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
        results.finish()?;
        return Ok(Ending::Failed(JobError {
            code: "open_transaction".into(),
            message: "the script ended inside its own open transaction; \
                      the statements since its BEGIN were rolled back"
                .into(),
            statement: None,
            excerpt: None,
        }));
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
    Ok(Ending::Completed)
}

/// The statement deleting every progress marker but those of `current`
/// and of interrupted jobs (the only ones `resume` may still read).
fn stale_markers(res: &Reservoir, current: JobId) -> String {
    let st = res.inner.state.lock();
    let keep: Vec<String> = st
        .jobs
        .values()
        .filter(|e| e.job.id == current || e.job.state == JobState::Interrupted)
        .map(|e| e.job.id.to_string())
        .collect();
    format!("DELETE FROM {PROGRESS_TABLE} WHERE job_id NOT IN ({})", keep.join(", "))
}

/// Executes one statement, streaming rows of a query into the result.
fn run_statement(
    session: &mut Session,
    sql: &str,
    results: &mut ResultWriter,
    interrupt: &Interrupt,
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
    last_persist: u64,
}

impl Run<'_> {
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
        self.committed = next;
        let committed = self.committed;
        self.progress(|p| p.statements_committed = committed);
        Ok(())
    }

    /// Records, inside the open transaction, that statements `< next` and
    /// the rows they affected are durable once it commits.
    fn write_marker(&mut self, session: &mut Session, next: u64, offset: u64) -> Result<()> {
        if let Some(sql) = self.cleanup.take() {
            session.execute(&sql, &Params::None)?;
        }
        let rows = {
            let st = self.res.inner.state.lock();
            st.jobs.get(&self.id).map_or(0, |e| e.job.progress.rows_affected)
        };
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

    fn rollback(&mut self, session: &mut Session) -> Result<()> {
        if self.batch_open || self.script_txn {
            session.execute("ROLLBACK", &Params::None)?;
        }
        self.batch_open = false;
        self.script_txn = false;
        Ok(())
    }

    fn record_error(&self, error: JobError) {
        let max = self.res.inner.cfg.max_recorded_errors;
        let mut st = self.res.inner.state.lock();
        if let Some(e) = st.jobs.get_mut(&self.id)
            && e.job.statement_errors.len() < max
        {
            e.job.statement_errors.push(error);
        }
    }

    /// Updates live progress in memory.
    fn progress(&self, f: impl FnOnce(&mut crate::Progress)) {
        self.apply_progress(&mut self.res.inner.state.lock(), f);
    }

    /// Counts one executed statement of `bytes` script bytes and updates
    /// the live progress, under one lock.
    fn statement_done(&self, bytes: u64, f: impl FnOnce(&mut crate::Progress)) {
        let mut st = self.res.inner.state.lock();
        st.executed_statements += 1;
        st.executed_bytes += bytes;
        self.apply_progress(&mut st, f);
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
        if self.offset - self.last_persist >= quantum {
            let inner = &self.res.inner;
            let mut st = inner.state.lock();
            let _ = inner.transition(&mut st, self.id, false, |_| {});
            self.last_persist = self.offset;
        }
    }
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
