//! Jobs: identity, lifecycle states, import metadata, progress.
//!
//! A job's snapshot ([`Job`]) is what the event log stores and what the API
//! returns. The lifecycle:
//!
//! ```text
//! receiving -> queued -> processing -> completed -> delivered
//!     |          |           |
//!     |          +-> cancelled
//!     +-> failed             +-> cancelling -> cancelled
//!     +-> cancelling         +-> failed
//!                            +-> interrupted (found after a restart)
//! ```
//!
//! Active states (counted against `max_jobs`): receiving, queued,
//! processing, cancelling. Terminal states (removed after the retention
//! window): completed, delivered, cancelled, failed, interrupted. An
//! interrupted job is terminal for retention but can be resumed explicitly.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A job number, unique for the lifetime of a data directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct JobId(pub u64);

impl fmt::Display for JobId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl FromStr for JobId {
    type Err = crate::Error;

    /// Parses a decimal job id; anything else is invalid input.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.trim()
            .parse::<u64>()
            .ok()
            .filter(|&n| n > 0)
            .map(JobId)
            .ok_or_else(|| crate::Error::InvalidInput(format!("invalid job id {s:?}")))
    }
}

/// Where a job is in its lifecycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JobState {
    Receiving,
    Queued,
    Processing,
    Cancelling,
    Completed,
    Delivered,
    Cancelled,
    Failed,
    Interrupted,
}

impl JobState {
    /// All states, in lifecycle order (for stats).
    pub const ALL: [JobState; 9] = [
        JobState::Receiving,
        JobState::Queued,
        JobState::Processing,
        JobState::Cancelling,
        JobState::Completed,
        JobState::Delivered,
        JobState::Cancelled,
        JobState::Failed,
        JobState::Interrupted,
    ];

    /// Counted against the job limit.
    pub fn is_active(self) -> bool {
        matches!(
            self,
            JobState::Receiving | JobState::Queued | JobState::Processing | JobState::Cancelling
        )
    }

    /// Subject to retention.
    pub fn is_terminal(self) -> bool {
        !self.is_active()
    }

    /// The lowercase name used in JSON and metrics.
    pub fn as_str(self) -> &'static str {
        match self {
            JobState::Receiving => "receiving",
            JobState::Queued => "queued",
            JobState::Processing => "processing",
            JobState::Cancelling => "cancelling",
            JobState::Completed => "completed",
            JobState::Delivered => "delivered",
            JobState::Cancelled => "cancelled",
            JobState::Failed => "failed",
            JobState::Interrupted => "interrupted",
        }
    }
}

impl fmt::Display for JobState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The format of a job's body.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ImportFormat {
    /// Not given: detected from the body's first bytes and the original
    /// name when the job starts (see `asadb_interchange::detect`).
    #[default]
    Auto,
    /// A plain SQL script.
    Sql,
    /// A `sqlite3 .dump` (SQL run as it is).
    Sqlite,
    /// A mysqldump / mariadb-dump script.
    Mysql,
    /// A pg_dump plain-text script.
    Postgresql,
    /// Comma-separated (or otherwise delimited) values.
    Csv,
    /// An Excel workbook.
    Xlsx,
}

impl ImportFormat {
    /// The interchange format, `None` for `Auto`.
    pub fn known(self) -> Option<asadb_interchange::Format> {
        use asadb_interchange::Format as F;
        Some(match self {
            ImportFormat::Auto => return None,
            ImportFormat::Sql => F::Sql,
            ImportFormat::Sqlite => F::Sqlite,
            ImportFormat::Mysql => F::Mysql,
            ImportFormat::Postgresql => F::Postgresql,
            ImportFormat::Csv => F::Csv,
            ImportFormat::Xlsx => F::Xlsx,
        })
    }

    /// The formats the API lists, in its order (`auto`, detection, is
    /// not a format; `sqlite`, a `sqlite3 .dump`, runs as `sql` does).
    pub const ALL: [ImportFormat; 5] = [
        ImportFormat::Sql,
        ImportFormat::Mysql,
        ImportFormat::Postgresql,
        ImportFormat::Csv,
        ImportFormat::Xlsx,
    ];

    /// The canonical lowercase name (as in JSON).
    pub fn as_str(self) -> &'static str {
        match self {
            ImportFormat::Auto => "auto",
            ImportFormat::Sql => "sql",
            ImportFormat::Sqlite => "sqlite",
            ImportFormat::Mysql => "mysql",
            ImportFormat::Postgresql => "postgresql",
            ImportFormat::Csv => "csv",
            ImportFormat::Xlsx => "xlsx",
        }
    }

    /// Whether this build imports the format: every one (admission still
    /// refuses settings that cannot work, such as a CSV with no table name).
    pub fn is_supported(self) -> bool {
        true
    }

    /// Whether the format loads rows into a target table, and so takes
    /// `target_table` and `mode` (a script names its own tables).
    pub fn takes_target(self) -> bool {
        matches!(self, ImportFormat::Csv | ImportFormat::Xlsx)
    }
}

impl FromStr for ImportFormat {
    type Err = crate::Error;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(ImportFormat::Auto),
            "sql" => Ok(ImportFormat::Sql),
            "sqlite" | "sqlite3" => Ok(ImportFormat::Sqlite),
            "mysql" | "mariadb" => Ok(ImportFormat::Mysql),
            "postgresql" | "postgres" | "pg" => Ok(ImportFormat::Postgresql),
            "csv" | "tsv" => Ok(ImportFormat::Csv),
            "xlsx" => Ok(ImportFormat::Xlsx),
            other @ ("xls" | "xlsb" | "ods" | "numbers") => Err(crate::Error::Unsupported(
                format!("import format {other:?} is not supported: save the workbook as xlsx"),
            )),
            other => Err(crate::Error::InvalidInput(format!(
                "unknown import format {other:?} (expected auto, sql, sqlite, mysql, postgresql, \
                 csv or xlsx)"
            ))),
        }
    }
}

/// Whether an import replaces or appends to its target table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ImportMode {
    #[default]
    Append,
    Replace,
}

impl FromStr for ImportMode {
    type Err = crate::Error;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "append" => Ok(ImportMode::Append),
            "replace" => Ok(ImportMode::Replace),
            other => Err(crate::Error::InvalidInput(format!(
                "unknown import mode {other:?} (expected replace or append)"
            ))),
        }
    }
}

/// What the body is and where it goes. Persisted with the job and part of
/// idempotency matching: the same bytes imported into another table are
/// another request.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ImportMeta {
    pub format: ImportFormat,
    pub original_name: Option<String>,
    pub target_table: Option<String>,
    pub mode: ImportMode,
    /// Format overrides (CSV dialect, XLSX sheet); empty when all is
    /// detected.
    #[serde(default, skip_serializing_if = "is_default_options")]
    pub options: asadb_interchange::ImportOptions,
}

fn is_default_options(o: &asadb_interchange::ImportOptions) -> bool {
    *o == asadb_interchange::ImportOptions::default()
}

/// Live counters of a job's execution.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    /// Script bytes executed (the splitter's position).
    pub bytes_done: u64,
    /// Script bytes in all (the spool size once received).
    pub bytes_total: u64,
    /// Statements executed (committed or not).
    pub statements_done: u64,
    /// Statements whose effects are durably committed.
    pub statements_committed: u64,
    /// Rows inserted, updated or deleted.
    pub rows_affected: u64,
    /// Statements that failed.
    pub errors: u64,
    /// `bytes_done / bytes_total` in percent, 0–100.
    pub percent: f64,
}

/// Why a job failed (or one statement's error when execution goes on).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobError {
    /// A stable machine code, e.g. `too_large`, `sql_error`, `io`.
    pub code: String,
    /// A human-readable message.
    pub message: String,
    /// The 0-based index of the failing statement, if any.
    pub statement: Option<u64>,
    /// The start of the failing statement's text, if any.
    pub excerpt: Option<String>,
}

/// The submitter's options for a new job.
#[derive(Clone, Debug, Default)]
pub struct SubmitOptions {
    pub label: Option<String>,
    pub idempotency_key: Option<String>,
    /// Stop at the first failing statement (default true).
    pub stop_on_error: Option<bool>,
    /// The size the client announced (Content-Length); a hard bound.
    pub declared_size: Option<u64>,
    pub import: ImportMeta,
    /// The body's SHA-256 as the client states it (lowercase hex): the
    /// upload fails unless the received bytes have exactly this
    /// fingerprint.
    pub content_sha256: Option<String>,
}

/// A job's durable snapshot: the unit the event log stores.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Job {
    pub id: JobId,
    pub state: JobState,
    pub label: Option<String>,
    /// Unix time in milliseconds.
    pub created_at: u64,
    /// Unix time in milliseconds of the last state or progress change.
    pub updated_at: u64,
    pub idempotency_key: Option<String>,
    /// Hex SHA-256 of the body, known once it is fully received.
    pub fingerprint: Option<String>,
    pub import: ImportMeta,
    pub stop_on_error: bool,
    pub declared_size: Option<u64>,
    /// Spool bytes charged to this job; the capacity counters are the sum
    /// of these over the jobs that still hold a spool file.
    pub reserved_bytes: u64,
    /// Body bytes received so far.
    pub received_bytes: u64,
    /// Whether the spool file is still kept (it is removed when the job
    /// can no longer run: on success, cancel, failure, expiry).
    pub has_spool: bool,
    /// Whether a complete result file exists.
    pub has_result: bool,
    pub progress: Progress,
    /// The error that ended the job, if it failed.
    pub error: Option<JobError>,
    /// Statement errors recorded when `stop_on_error` is false (bounded).
    pub statement_errors: Vec<JobError>,
    /// What an import detected and skipped (`None` for plain SQL).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report: Option<asadb_interchange::Report>,
}

impl Job {
    /// True when the job can be resumed with `resume`.
    pub fn is_resumable(&self) -> bool {
        self.state == JobState::Interrupted && self.has_spool && self.fingerprint.is_some()
    }
}
