//! The engine-owned schema: its tables, created on first start.
//!
//! Every statement of the engine names its tables through [`Sql`], which
//! qualifies them with the (validated, quoted) schema: a script's
//! `search_path` cannot redirect the engine's bookkeeping.
//!
//! Tables (default schema `asadb`; `docs/scale-out.md` has the columns):
//! - `meta` — `schema_version`;
//! - `capacity` — two rows, `active_jobs` and `spool_bytes`: the global
//!   cap (`max_value`) and the counter (`used`), locked `FOR UPDATE` by
//!   every change of a job's charge or activity;
//! - `leases` — one row per live process, its heartbeat's expiry;
//! - `jobs` — one row per job: the snapshot the API answers, the charge
//!   (`reserved_bytes`) and the lease holder (`owner`);
//! - `spool` — the body, one `bytea` row per received chunk;
//! - `events` — every state change of every job (the history, and what
//!   `pg_notify` announces);
//! - `results`, `result_pages` — per-statement summaries and result rows,
//!   a page of rows per row;
//! - `progress` — each running or interrupted job's durable position,
//!   written in the same transaction as the batch it ends.

use asadb_reservoir::{Config, Error, Result};
use tokio_postgres::Client;

use crate::error::pg;

/// The layout version this code writes and reads.
pub const SCHEMA_VERSION: i64 = 1;

/// Milliseconds since the Unix epoch on the database server's clock: every
/// host stamps jobs with the same clock.
pub const NOW_MS: &str = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

/// Qualifies table names with the schema: `@.jobs` → `"asadb".jobs`.
#[derive(Clone, Debug)]
pub struct Sql {
    prefix: String,
    schema: String,
}

impl Sql {
    pub fn new(schema: &str) -> Self {
        Sql { prefix: format!("\"{schema}\"."), schema: schema.to_string() }
    }

    /// `text` with every `@.` replaced by the schema prefix and every
    /// `NOW_MS` by [`NOW_MS`].
    pub fn q(&self, text: &str) -> String {
        text.replace("@.", &self.prefix).replace("NOW_MS", NOW_MS)
    }

    /// The schema's name.
    pub fn schema(&self) -> &str {
        &self.schema
    }

    /// The notification channel of this schema.
    pub fn channel(&self) -> String {
        format!("{}_reservoir", self.schema)
    }

    /// An advisory-lock key of this schema for `purpose`: FNV-1a of
    /// `asadb:<schema>:<purpose>` (advisory locks live in the current
    /// database, so the key is per database and per schema).
    pub fn lock_key(&self, purpose: &str) -> i64 {
        fnv_key(&format!("asadb:{}:{purpose}", self.schema))
    }
}

/// The executor lock's key: FNV-1a of `asadb:executor`, the same for every
/// schema. Advisory locks live in the current database, so this is one
/// lock per *target database*: at most one job executes against a
/// database at a time, even when several Reservoir schemas share it.
pub fn executor_lock_key() -> i64 {
    fnv_key("asadb:executor")
}

fn fnv_key(text: &str) -> i64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h as i64
}

const DDL: &str = r#"
CREATE SCHEMA IF NOT EXISTS "{schema}";
CREATE TABLE IF NOT EXISTS @.meta (
    key text PRIMARY KEY,
    value text NOT NULL
);
CREATE TABLE IF NOT EXISTS @.capacity (
    name text PRIMARY KEY CHECK (name IN ('active_jobs', 'spool_bytes')),
    max_value bigint NOT NULL CHECK (max_value > 0),
    used bigint NOT NULL DEFAULT 0 CHECK (used >= 0)
);
CREATE TABLE IF NOT EXISTS @.leases (
    owner text PRIMARY KEY,
    host text NOT NULL,
    pid integer NOT NULL,
    started_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL
);
CREATE TABLE IF NOT EXISTS @.jobs (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    state text NOT NULL CHECK (state IN ('receiving', 'queued', 'processing', 'cancelling',
        'completed', 'delivered', 'cancelled', 'failed', 'interrupted')),
    label text,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    idempotency_key text,
    fingerprint text,
    import_format text NOT NULL,
    import_original_name text,
    import_target_table text,
    import_mode text NOT NULL,
    stop_on_error boolean NOT NULL,
    declared_size bigint,
    reserved_bytes bigint NOT NULL DEFAULT 0 CHECK (reserved_bytes >= 0),
    received_bytes bigint NOT NULL DEFAULT 0,
    has_spool boolean NOT NULL DEFAULT true,
    has_result boolean NOT NULL DEFAULT false,
    bytes_done bigint NOT NULL DEFAULT 0,
    bytes_total bigint NOT NULL DEFAULT 0,
    statements_done bigint NOT NULL DEFAULT 0,
    statements_committed bigint NOT NULL DEFAULT 0,
    rows_affected bigint NOT NULL DEFAULT 0,
    errors bigint NOT NULL DEFAULT 0,
    percent double precision NOT NULL DEFAULT 0,
    error jsonb,
    statement_errors jsonb NOT NULL DEFAULT '[]',
    owner text,
    executor_pid integer,
    result_statements bigint,
    result_first bigint,
    result_page_rows integer
);
CREATE INDEX IF NOT EXISTS jobs_queued ON @.jobs (created_at, id) WHERE state = 'queued';
CREATE INDEX IF NOT EXISTS jobs_key ON @.jobs (idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX IF NOT EXISTS jobs_owned ON @.jobs (owner) WHERE owner IS NOT NULL;
CREATE INDEX IF NOT EXISTS jobs_updated ON @.jobs (updated_at);
CREATE TABLE IF NOT EXISTS @.spool (
    job_id bigint NOT NULL REFERENCES @.jobs (id) ON DELETE CASCADE,
    seq integer NOT NULL,
    byte_offset bigint NOT NULL,
    data bytea NOT NULL,
    PRIMARY KEY (job_id, seq)
);
ALTER TABLE @.spool ALTER COLUMN data SET STORAGE EXTERNAL;
CREATE TABLE IF NOT EXISTS @.events (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    job_id bigint NOT NULL REFERENCES @.jobs (id) ON DELETE CASCADE,
    at bigint NOT NULL,
    state text NOT NULL
);
CREATE INDEX IF NOT EXISTS events_job ON @.events (job_id, id);
CREATE TABLE IF NOT EXISTS @.results (
    job_id bigint NOT NULL REFERENCES @.jobs (id) ON DELETE CASCADE,
    statement bigint NOT NULL,
    summary jsonb NOT NULL,
    PRIMARY KEY (job_id, statement)
);
CREATE TABLE IF NOT EXISTS @.result_pages (
    job_id bigint NOT NULL REFERENCES @.jobs (id) ON DELETE CASCADE,
    statement bigint NOT NULL,
    page bigint NOT NULL,
    rows text NOT NULL,
    PRIMARY KEY (job_id, statement, page)
);
CREATE TABLE IF NOT EXISTS @.progress (
    job_id bigint PRIMARY KEY,
    statement bigint NOT NULL,
    byte_offset bigint NOT NULL,
    rows_affected bigint NOT NULL
);
"#;

/// Creates the schema if it is missing (under an advisory lock, so
/// processes starting together do not race), checks its version, and
/// creates the capacity rows from `cfg` when they do not exist yet (later
/// starts never change the global caps).
pub async fn ensure(client: &mut Client, sql: &Sql, cfg: &Config) -> Result<()> {
    let tx = client.transaction().await.map_err(pg)?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&sql.lock_key("schema")]).await.map_err(pg)?;
    tx.batch_execute(&sql.q(&DDL.replace("{schema}", sql.schema()))).await.map_err(pg)?;
    let version = sql.q("INSERT INTO @.meta (key, value) VALUES ('schema_version', $1) \
                         ON CONFLICT (key) DO UPDATE SET value = @.meta.value RETURNING value");
    let row = tx.query_one(&version, &[&SCHEMA_VERSION.to_string()]).await.map_err(pg)?;
    let found: String = row.get(0);
    if found != SCHEMA_VERSION.to_string() {
        return Err(Error::Corrupt(format!(
            "schema {:?} has layout version {found}; this build reads version {SCHEMA_VERSION}",
            sql.schema()
        )));
    }
    let caps = sql.q("INSERT INTO @.capacity (name, max_value) VALUES \
                      ('active_jobs', $1), ('spool_bytes', $2) ON CONFLICT (name) DO NOTHING");
    let max_jobs = i64::try_from(cfg.max_jobs).unwrap_or(i64::MAX);
    let max_bytes = i64::try_from(cfg.max_spool_bytes).unwrap_or(i64::MAX);
    tx.execute(&caps, &[&max_jobs, &max_bytes]).await.map_err(pg)?;
    tx.commit().await.map_err(pg)
}
