//! Job rows, capacity rows and the transitions between states.
//!
//! Lock order, kept by every transaction of the engine: the two capacity
//! rows first (`ORDER BY name FOR UPDATE`), then job rows. A transaction
//! that changes what a job is charged (`reserved_bytes`) or whether it is
//! active takes the capacity rows, so the counters always equal the sum
//! of the durable per-job charges at every commit — which is what makes
//! [`reconcile`] exact at any moment, with other processes running.
//!
//! Every state change also appends to `events` and sends
//! `pg_notify(<schema>_reservoir, '<job id> <state>')` in the same
//! transaction: the notification is delivered when (and only if) the
//! change commits, and carries ids, never data.

use asadb_reservoir::{
    Error, ImportFormat, ImportMeta, ImportMode, Job, JobError, JobId, JobState, Progress, Result,
};
use tokio_postgres::GenericClient;
use tokio_postgres::Row;

use crate::error::pg;
use crate::schema::Sql;

/// PostgreSQL's limit on a notification payload, in bytes (exclusive).
pub const MAX_PAYLOAD: usize = 8000;

/// The columns [`job_of`] reads, in order.
pub const JOB_COLUMNS: &str = "id, state, label, created_at, updated_at, idempotency_key, \
    fingerprint, import_format, import_original_name, import_target_table, import_mode, \
    stop_on_error, declared_size, reserved_bytes, received_bytes, has_spool, has_result, \
    bytes_done, bytes_total, statements_done, statements_committed, rows_affected, errors, \
    percent, error, statement_errors";

/// The active states as a SQL list.
pub const ACTIVE: &str = "('receiving', 'queued', 'processing', 'cancelling')";
/// The terminal states as a SQL list.
pub const TERMINAL: &str = "('completed', 'delivered', 'cancelled', 'failed', 'interrupted')";

fn u(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

pub fn state_of(text: &str) -> Result<JobState> {
    JobState::ALL
        .into_iter()
        .find(|s| s.as_str() == text)
        .ok_or_else(|| Error::Corrupt(format!("unknown job state {text:?} in the jobs table")))
}

pub fn format_name(f: ImportFormat) -> &'static str {
    f.as_str()
}

pub fn mode_name(m: ImportMode) -> &'static str {
    match m {
        ImportMode::Append => "append",
        ImportMode::Replace => "replace",
    }
}

/// A job snapshot from a row of [`JOB_COLUMNS`].
pub fn job_of(row: &Row) -> Result<Job> {
    let json = |i: usize| -> Option<serde_json::Value> { row.get(i) };
    let error = match json(24) {
        Some(v) => Some(
            serde_json::from_value::<JobError>(v)
                .map_err(|e| Error::Corrupt(format!("job error column: {e}")))?,
        ),
        None => None,
    };
    let statement_errors = match json(25) {
        Some(v) => serde_json::from_value::<Vec<JobError>>(v)
            .map_err(|e| Error::Corrupt(format!("statement errors column: {e}")))?,
        None => Vec::new(),
    };
    let format: String = row.get(7);
    let mode: String = row.get(10);
    Ok(Job {
        id: JobId(u(row.get(0))),
        state: state_of(row.get(1))?,
        label: row.get(2),
        created_at: u(row.get(3)),
        updated_at: u(row.get(4)),
        idempotency_key: row.get(5),
        fingerprint: row.get(6),
        import: ImportMeta {
            format: format.parse()?,
            original_name: row.get(8),
            target_table: row.get(9),
            mode: mode.parse()?,
            // Only SQL scripts are admitted here (see `begin_upload`).
            options: Default::default(),
        },
        stop_on_error: row.get(11),
        declared_size: row.get::<_, Option<i64>>(12).map(u),
        reserved_bytes: u(row.get(13)),
        received_bytes: u(row.get(14)),
        has_spool: row.get(15),
        has_result: row.get(16),
        progress: Progress {
            bytes_done: u(row.get(17)),
            bytes_total: u(row.get(18)),
            statements_done: u(row.get(19)),
            statements_committed: u(row.get(20)),
            rows_affected: u(row.get(21)),
            errors: u(row.get(22)),
            percent: row.get(23),
        },
        error,
        statement_errors,
        report: None,
    })
}

/// A job error as the JSON the `error` column holds.
pub fn error_json(e: &JobError) -> serde_json::Value {
    serde_json::to_value(e).unwrap_or(serde_json::Value::Null)
}

/// The capacity rows, as read (and locked) by one transaction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capacity {
    pub max_jobs: u64,
    pub active_jobs: u64,
    pub max_spool_bytes: u64,
    pub spool_bytes: u64,
}

/// Reads the capacity rows; with `lock`, `FOR UPDATE` (in lock order).
pub async fn capacity(c: &impl GenericClient, sql: &Sql, lock: bool) -> Result<Capacity> {
    let text = sql.q(&format!(
        "SELECT name, max_value, used FROM @.capacity ORDER BY name{}",
        if lock { " FOR UPDATE" } else { "" }
    ));
    let rows = c.query(&text, &[]).await.map_err(pg)?;
    let mut cap = Capacity { max_jobs: 0, active_jobs: 0, max_spool_bytes: 0, spool_bytes: 0 };
    let mut seen = 0;
    for row in rows {
        let (name, max, used): (String, i64, i64) = (row.get(0), row.get(1), row.get(2));
        match name.as_str() {
            "active_jobs" => (cap.max_jobs, cap.active_jobs) = (u(max), u(used)),
            "spool_bytes" => (cap.max_spool_bytes, cap.spool_bytes) = (u(max), u(used)),
            _ => continue,
        }
        seen += 1;
    }
    if seen != 2 {
        return Err(Error::Corrupt(format!(
            "schema {:?} lacks its capacity rows: run `asadb reservoir reconcile`",
            sql.schema()
        )));
    }
    Ok(cap)
}

/// Adds to the counters (inside a transaction holding the capacity rows).
pub async fn charge(c: &impl GenericClient, sql: &Sql, jobs: i64, bytes: i64) -> Result<()> {
    if jobs == 0 && bytes == 0 {
        return Ok(());
    }
    let text = sql.q(
        "UPDATE @.capacity SET used = used + CASE name WHEN 'active_jobs' THEN $1::bigint ELSE $2::bigint END",
    );
    c.execute(&text, &[&jobs, &bytes]).await.map_err(|e| {
        // The counters never go below zero: a bug, not bad input.
        if e.code() == Some(&tokio_postgres::error::SqlState::CHECK_VIOLATION) {
            Error::Internal(format!("capacity counter would go negative ({jobs}, {bytes})"))
        } else {
            pg(e)
        }
    })?;
    Ok(())
}

/// Checks a notification payload against PostgreSQL's limit before it is
/// sent (the server would refuse it only at the round trip).
pub fn check_payload(payload: &str) -> Result<()> {
    if payload.len() >= MAX_PAYLOAD {
        return Err(Error::InvalidInput(format!(
            "a notification payload of {} bytes exceeds PostgreSQL's limit of {} bytes: \
             notifications carry ids, never data",
            payload.len(),
            MAX_PAYLOAD - 1
        )));
    }
    Ok(())
}

/// Sends a notification on the schema's channel (delivered at commit).
pub async fn notify(c: &impl GenericClient, sql: &Sql, payload: &str) -> Result<()> {
    check_payload(payload)?;
    c.execute("SELECT pg_notify($1, $2)", &[&sql.channel(), &payload]).await.map_err(pg)?;
    Ok(())
}

/// Records a state change: an `events` row and its notification.
pub async fn event(c: &impl GenericClient, sql: &Sql, id: JobId, state: JobState) -> Result<()> {
    let payload = format!("{id} {state}");
    check_payload(&payload)?;
    let text = sql
        .q("WITH e AS (INSERT INTO @.events (job_id, at, state) VALUES ($1, NOW_MS, $2)) \
         SELECT pg_notify($3, $4)");
    c.execute(&text, &[&(id.0 as i64), &state.as_str(), &sql.channel(), &payload])
        .await
        .map_err(pg)?;
    Ok(())
}

/// The job's snapshot, `NotFound` when there is none; with `lock`, its
/// row is locked `FOR UPDATE`.
pub async fn get(c: &impl GenericClient, sql: &Sql, id: JobId, lock: bool) -> Result<Job> {
    let text = sql.q(&format!(
        "SELECT {JOB_COLUMNS} FROM @.jobs WHERE id = $1{}",
        if lock { " FOR UPDATE" } else { "" }
    ));
    match c.query_opt(&text, &[&(id.0 as i64)]).await.map_err(pg)? {
        Some(row) => job_of(&row),
        None => Err(Error::NotFound(id)),
    }
}

/// How a job ends (see [`finish`]).
pub struct Ending<'a> {
    pub to: JobState,
    pub error: Option<&'a JobError>,
    /// Keep the spool and the charge (an interrupted job that ran, for
    /// `resume`).
    pub keep_spool: bool,
    /// The result's shape, when the job leaves a complete result.
    pub result: Option<(u64, u64, usize)>,
    /// The change applies only while this process holds the job.
    pub owner: Option<&'a str>,
}

/// Moves a job to a terminal state inside a transaction that holds the
/// capacity rows: its spool chunks are removed and its charge released
/// (unless `keep_spool`), it stops counting as active, its lease holder is
/// cleared, and the change is recorded as an event. Returns `None` when
/// the job is gone or (with `owner`) no longer held by that owner.
pub async fn finish(
    c: &impl GenericClient,
    sql: &Sql,
    id: JobId,
    end: Ending<'_>,
) -> Result<Option<Job>> {
    let before = match get(c, sql, id, true).await {
        Ok(job) => job,
        Err(Error::NotFound(_)) => return Ok(None),
        Err(e) => return Err(e),
    };
    if let Some(owner) = end.owner {
        let text = sql.q("SELECT owner FROM @.jobs WHERE id = $1");
        let row = c.query_one(&text, &[&(id.0 as i64)]).await.map_err(pg)?;
        if row.get::<_, Option<String>>(0).as_deref() != Some(owner) {
            return Ok(None);
        }
    }
    let released = if end.keep_spool { 0 } else { before.reserved_bytes as i64 };
    if !end.keep_spool {
        c.execute(&sql.q("DELETE FROM @.spool WHERE job_id = $1"), &[&(id.0 as i64)])
            .await
            .map_err(pg)?;
    }
    let error = end.error.map(error_json);
    let (statements, first, page_rows) = match end.result {
        Some((s, f, p)) => (Some(s as i64), Some(f as i64), Some(p as i32)),
        None => (None, None, None),
    };
    let text = sql.q(&format!(
        "UPDATE @.jobs SET state = $2, updated_at = GREATEST(updated_at, NOW_MS), \
         has_spool = has_spool AND $3::boolean, reserved_bytes = CASE WHEN $3::boolean THEN reserved_bytes ELSE 0 END, \
         error = COALESCE($4::jsonb, error), owner = NULL, executor_pid = NULL, \
         has_result = has_result OR $5::bigint IS NOT NULL, \
         result_statements = COALESCE($5::bigint, result_statements), \
         result_first = COALESCE($6::bigint, result_first), \
         result_page_rows = COALESCE($7::integer, result_page_rows) \
         WHERE id = $1 RETURNING {JOB_COLUMNS}"
    ));
    let row = c
        .query_one(
            &text,
            &[
                &(id.0 as i64),
                &end.to.as_str(),
                &end.keep_spool,
                &error,
                &statements,
                &first,
                &page_rows,
            ],
        )
        .await
        .map_err(pg)?;
    let active = i64::from(before.state.is_active()) - i64::from(end.to.is_active());
    charge(c, sql, -active, -released).await?;
    event(c, sql, id, end.to).await?;
    job_of(&row).map(Some)
}

/// Rebuilds both counters from the durable per-job rows (inside a
/// transaction, under the capacity rows' lock): active jobs counted,
/// charges summed. Returns the counters before and after.
pub async fn reconcile(c: &impl GenericClient, sql: &Sql) -> Result<(Capacity, Capacity)> {
    let before = capacity(c, sql, true).await?;
    let text = sql.q(&format!(
        "SELECT count(*) FILTER (WHERE state IN {ACTIVE}), \
         COALESCE(sum(reserved_bytes), 0)::bigint FROM @.jobs"
    ));
    let row = c.query_one(&text, &[]).await.map_err(pg)?;
    let (active, bytes): (i64, i64) = (row.get(0), row.get(1));
    let text = sql.q(
        "UPDATE @.capacity SET used = CASE name WHEN 'active_jobs' THEN $1::bigint ELSE $2::bigint END",
    );
    c.execute(&text, &[&active, &bytes]).await.map_err(pg)?;
    let after = Capacity { active_jobs: u(active), spool_bytes: u(bytes), ..before };
    Ok((before, after))
}

/// Sets the global caps (inside a transaction): `None` keeps one.
pub async fn set_caps(
    c: &impl GenericClient,
    sql: &Sql,
    max_jobs: Option<u64>,
    max_spool_bytes: Option<u64>,
) -> Result<Capacity> {
    for n in [max_jobs, max_spool_bytes].into_iter().flatten() {
        if n == 0 || n > i64::MAX as u64 {
            return Err(Error::InvalidInput(format!("a cap must be between 1 and {}", i64::MAX)));
        }
    }
    capacity(c, sql, true).await?;
    let text = sql.q("UPDATE @.capacity SET max_value = $2 WHERE name = $1");
    if let Some(n) = max_jobs {
        c.execute(&text, &[&"active_jobs", &(n as i64)]).await.map_err(pg)?;
    }
    if let Some(n) = max_spool_bytes {
        c.execute(&text, &[&"spool_bytes", &(n as i64)]).await.map_err(pg)?;
    }
    capacity(c, sql, false).await
}
