//! Groups: consecutive plain statements sent as one simple-query string,
//! one round trip for the lot (see the worker's module docs for the rules
//! a group keeps).

use std::collections::VecDeque;
use std::time::Instant;

use asadb_reservoir::Error;
use asadb_reservoir::contract::{BATCH_BYTES, BATCH_STATEMENTS};
use asadb_reservoir::results::StatementSummary;
use asadb_sql::script::{Splitter, Statement};
use futures_util::StreamExt;
use tokio_postgres::SimpleQueryMessage;

use super::{ChunkReader, EXCERPT, Executor, Run, RunError, Signals, StmtError, sql_error};
use crate::classify::{self, Control};
use crate::results::ResultSink;

/// A group stops growing once its statements hold this many bytes.
const GROUP_BYTES: u64 = 1 << 20;

/// Whether a statement may join a group (see [`run_group`]): work bounded
/// by its text ([`classify::groupable`]), never COPY data.
pub(super) fn groupable(stmt: &Statement) -> bool {
    stmt.copy_data.is_none() && classify::groupable(&stmt.text)
}

/// Reads more groupable statements after `group[0]`, up to the
/// configured `group_statements` / [`GROUP_BYTES`] and never past the open batch's
/// own limits (so batches end exactly where they would one statement at a
/// time). The first statement that cannot join is queued back.
pub(super) async fn gather(
    group: &mut Vec<Statement>,
    queue: &mut VecDeque<std::result::Result<Statement, asadb_sql::Error>>,
    splitter: &mut Splitter<ChunkReader>,
    run: &Run<'_>,
) -> std::result::Result<(), RunError> {
    let (mut max_n, mut max_bytes) = (run.shared.cfg.group_statements.max(1), GROUP_BYTES);
    if !run.script_txn {
        max_n = max_n.min(BATCH_STATEMENTS.saturating_sub(run.batch_statements));
        max_bytes = max_bytes.min(BATCH_BYTES.saturating_sub(run.batch_bytes));
    }
    let mut bytes: u64 = group.iter().map(|s| s.end - s.start).sum();
    while (group.len() as u64) < max_n && bytes < max_bytes {
        let next = match queue.pop_front() {
            Some(s) => s,
            None => match splitter.next() {
                None => break,
                Some(Err(asadb_sql::Error::Io(e)))
                    if e.kind() == std::io::ErrorKind::WouldBlock =>
                {
                    splitter.reader_mut().fill().await?;
                    continue;
                }
                Some(r) => r,
            },
        };
        match next {
            Ok(s) if groupable(&s) && classify::control(&s.text) == Control::None => {
                bytes += s.end - s.start;
                group.push(s);
            }
            other => {
                queue.push_front(other);
                break;
            }
        }
    }
    Ok(())
}

/// How a group ended.
pub(super) enum GroupEnd {
    /// Every statement ran; their summaries are written.
    Done,
    /// `stmt` failed (the ones before it ran and are recorded; in a batch
    /// its savepoint is rolled back); `rest` never ran.
    Failed { stmt: Statement, error: StmtError, started: Instant, rest: Vec<Statement> },
}

/// Runs a group of statements as one simple-query string: one round trip
/// instead of one per statement. In a batch each statement keeps its own
/// savepoint (`RELEASE SAVEPOINT …; SAVEPOINT …;` before it, in the same
/// string), so the rules are those of one statement at a time: PostgreSQL
/// stops the string at the first error, which statement failed is known
/// from the command completions before it, its savepoint is rolled back,
/// and the statements after it — not executed — are queued to run again
/// one by one (or in new groups). Inside the script's own transaction no
/// savepoint is taken (an error aborts that transaction, as it would one
/// statement at a time). Each statement's summary is written as its
/// completion arrives; its time is the time since the previous one.
pub(super) async fn run_group(
    x: &Executor,
    run: &mut Run<'_>,
    group: Vec<Statement>,
    first: u64,
    start_offset: u64,
    results: &mut ResultSink,
    signals: &Signals,
) -> std::result::Result<GroupEnd, RunError> {
    let in_batch = !run.script_txn;
    let mut text = String::with_capacity(group.iter().map(|s| s.text.len() + 64).sum());
    // Per command completion expected: the statement it completes (None:
    // the executor's savepoint commands).
    let mut items: Vec<Option<usize>> = Vec::with_capacity(group.len() * 3);
    for (i, s) in group.iter().enumerate() {
        if in_batch {
            if run.savepoint || i > 0 {
                text.push_str("RELEASE SAVEPOINT asadb_stmt;");
                items.push(None);
            }
            text.push_str("SAVEPOINT asadb_stmt;");
            items.push(None);
        }
        // A newline first: the statement may end in a `--` comment.
        text.push_str(&s.text);
        text.push_str("\n;");
        items.push(Some(i));
    }
    let max_value = results.max_value_bytes();
    signals.in_flight.lock().await.running = true;
    let mut pos = 0usize;
    let mut columns: Option<Vec<String>> = None;
    let mut since = Instant::now();
    let mut line = String::new();
    let failure = async {
        let stream = match x.client.simple_query_raw(&text).await {
            Ok(s) => s,
            Err(e) => return Ok(Some(e)),
        };
        futures_util::pin_mut!(stream);
        while let Some(m) = stream.next().await {
            let current = items.get(pos).copied().flatten();
            match m {
                Err(e) => return Ok(Some(e)),
                Ok(SimpleQueryMessage::CommandComplete(affected)) => {
                    pos += 1;
                    let Some(i) = current else { continue };
                    let s = &group[i];
                    let index = first + s.index;
                    if columns.is_none() {
                        results.begin_statement(index);
                    }
                    let columns = columns.take();
                    let rows_affected = if columns.is_some() { 0 } else { affected };
                    let elapsed_ms = since.elapsed().as_secs_f64() * 1000.0;
                    since = Instant::now();
                    results
                        .end_statement(StatementSummary {
                            statement: index,
                            excerpt: s.text.chars().take(EXCERPT).collect(),
                            rows_affected,
                            columns,
                            row_count: 0,
                            error: None,
                            elapsed_ms,
                        })
                        .await?;
                    run.done = index + 1;
                    run.offset = start_offset + s.end;
                    run.batch_statements += 1;
                    run.batch_bytes += s.end - s.start;
                    run.statement_done(s.end - s.start, |p| p.rows_affected += rows_affected);
                }
                // Rows from a statement of a group (only a rule can make
                // plain DML return rows): kept as PostgreSQL's text.
                Ok(SimpleQueryMessage::RowDescription(cols)) => {
                    if let Some(i) = current {
                        results.begin_statement(first + group[i].index);
                        columns = Some(cols.iter().map(|c| c.name().to_string()).collect());
                    }
                }
                Ok(SimpleQueryMessage::Row(row)) => {
                    let values: Vec<asadb_sql::Value> = (0..row.len())
                        .map(|k| match row.get(k) {
                            Some(t) => asadb_sql::Value::Text(t.to_string().into()),
                            None => asadb_sql::Value::Null,
                        })
                        .collect();
                    if let Err(e) = asadb_reservoir::check_value_sizes(&values, max_value) {
                        return Err(RunError::Reservoir(Error::TooLarge(e.to_string())));
                    }
                    line.clear();
                    asadb_reservoir::row_json(&values, &mut line);
                    results.row(std::mem::take(&mut line)).await?;
                }
                Ok(_) => {}
            }
        }
        Ok::<_, RunError>(None)
    }
    .await;
    signals.in_flight.lock().await.running = false;
    let failure: Option<tokio_postgres::Error> = failure?;
    if in_batch && pos > 0 {
        run.savepoint = true;
    }
    let Some(e) = failure else {
        if pos != items.len() {
            return Err(RunError::Reservoir(Error::Internal(format!(
                "a group of {} statements answered {pos} of {} command completions",
                group.len(),
                items.len()
            ))));
        }
        return Ok(GroupEnd::Done);
    };
    // Which command failed: a statement, or the executor's own savepoint
    // command (not the script's fault: the run stops).
    let Some(Some(i)) = items.get(pos).copied() else {
        return Err(RunError::Pg(e));
    };
    let error = sql_error(e);
    if in_batch && matches!(error, StmtError::Sql(_)) {
        x.client.batch_execute("ROLLBACK TO SAVEPOINT asadb_stmt").await?;
        run.savepoint = true;
    }
    let mut rest = group;
    let tail = rest.split_off(i + 1);
    let stmt = rest.pop().expect("the failing statement");
    Ok(GroupEnd::Failed { stmt, error, started: since, rest: tail })
}
