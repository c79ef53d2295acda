//! AsaDB: an embedded SQL database with a durable job queue in front of it.
//!
//! This facade is what Rust programs and the `asadb` server depend on. It
//! owns the embedded API and nothing below it:
//!
//! - [`Database`]: open, [`execute`](Database::execute),
//!   [`query`](Database::query) (a streaming [`Rows`] iterator of typed
//!   [`Row`]s), [`transaction`](Database::transaction) and
//!   [`execute_script`](Database::execute_script) over any `Read`.
//! - [`Statement`]: [`prepare`](Database::prepare) /
//!   [`prepare_cached`](Database::prepare_cached) once, then
//!   [`query`](Statement::query) / [`execute`](Statement::execute) with new
//!   parameters without parsing again.
//! - [`AsyncDatabase`]: the same for tokio programs, on a bounded pool of
//!   worker threads with caller timeouts, transaction lanes, gauges and a
//!   log of the slowest recent statements.
//! - One [`Error`] whose [`kind`](Error::kind) tells callers (and the
//!   server) what to do: fix the input, retry, or give up.
//! - The [`reservoir`]: the bounded, durable job queue for bulk work.
//!
//! # A walk through the API
//!
//! ```
//! use asadb::{Database, ErrorKind, named_params, params};
//!
//! # fn main() -> asadb::Result<()> {
//! let db = Database::open_in_memory()?;
//! db.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score REAL)", ())?;
//!
//! // Parameters: `?` from a tuple, `?N` from `params!`, `:name` from pairs.
//! db.execute("INSERT INTO users (name, score) VALUES (?, ?)", ("ada", 9.5))?;
//! db.execute("INSERT INTO users (name, score) VALUES (?2, ?1)", params![7.0, "alan"])?;
//! db.execute(
//!     "INSERT INTO users (name, score) VALUES (:name, :score)",
//!     named_params! { ":name" => "grace", ":score" => None::<f64> },
//! )?;
//!
//! // Queries stream: rows are produced as the iterator is pulled.
//! let rows = db.query("SELECT id, name, score FROM users WHERE id >= ? ORDER BY id", (1,))?;
//! assert_eq!(rows.columns(), ["id", "name", "score"]);
//! let mut names = Vec::new();
//! for row in rows {
//!     let row = row?;
//!     let score: Option<f64> = row.get_by_name("score")?;
//!     names.push((row.get::<String>(1)?, score));
//! }
//! assert_eq!(names[2], ("grace".to_string(), None));
//!
//! // Transactions: commit, or roll back (dropping the handle does too).
//! let mut tx = db.transaction()?;
//! tx.execute("UPDATE users SET score = score + 1 WHERE name = ?", ("ada",))?;
//! tx.rollback()?;
//! let ada: f64 = db.query("SELECT score FROM users WHERE name = 'ada'", ())?
//!     .next().expect("one row")?.get(0)?;
//! assert_eq!(ada, 9.5);
//!
//! // Scripts stream from any `Read`, with a callback per statement.
//! let script = "INSERT INTO users (name) VALUES ('x'); DELETE FROM users WHERE name = 'x';";
//! let summary = db.execute_script(script.as_bytes(), |p| {
//!     assert_eq!(p.rows_affected, 1);
//! })?;
//! assert_eq!(summary.statements, 2);
//!
//! // Errors say what kind of failure they are.
//! let err = db.execute("INSERT INTO users (name) VALUES (NULL)", ()).unwrap_err();
//! assert_eq!(err.kind(), ErrorKind::Constraint);
//! assert!(!err.is_retryable());
//! # Ok(())
//! # }
//! ```

mod async_db;
mod db;
mod error;
mod readonly;
mod rows;
mod statement;
mod value;

pub use async_db::{
    AsyncDatabase, AsyncOptions, AsyncStats, AsyncTransaction, QueryPage, SlowStatement,
};
pub use db::{Database, Options, ScriptProgress, ScriptSummary, Synchronous, Transaction};
pub use error::{Error, ErrorKind, Result};
/// Refuses anything but one read-only statement (what `/api/query` and
/// `/api/export` accept).
pub use readonly::check_read_only;
pub use rows::Rows;
pub use statement::{STATEMENT_CACHE, Statement};
pub use value::{FromValue, IntoParams, IntoValue, Params, Row, Value};

/// Import and export formats: CSV, XLSX, dumps in; CSV, TSV, JSON lines,
/// SQL and dumps out (see its crate docs).
pub use asadb_interchange as interchange;
/// The Reservoir: the bounded, durable job queue (see its crate docs).
pub use asadb_reservoir as reservoir;
/// The SQL engine below the facade (sessions, the script splitter).
pub use asadb_sql as sql;
/// How [`Database::execute_script_with`] splits a script.
pub use asadb_sql::script::SplitterOptions;
