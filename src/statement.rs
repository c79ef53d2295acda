//! Prepared statements: parse once, run many times.
//!
//! [`Database::prepare`] parses one statement and checks it against the
//! current schema (a query is planned once, so `no such table` or `no such
//! column` is reported there, as by `sqlite3_prepare`); the [`Statement`]
//! it returns runs with new parameters on every [`Statement::query`] /
//! [`Statement::execute`] without parsing again. [`Database::prepare_cached`]
//! keeps the parsed text in a per-database cache (the last
//! [`STATEMENT_CACHE`] distinct texts), so code that prepares the same text
//! in a loop parses it once.
//!
//! Each run is planned against the schema of that moment: a statement
//! prepared before an `ALTER TABLE`, `CREATE INDEX` or `DROP` sees the new
//! schema (a `SELECT *` gains the added column; a dropped table is a
//! `NotFound` error until it exists again), as SQLite re-prepares a
//! statement whose schema changed.
//!
//! A `Statement` runs in autocommit: each run is its own transaction (use
//! [`Database::transaction`] for several statements in one). Transaction
//! control (`BEGIN`, `COMMIT`, `SAVEPOINT` …) cannot be prepared: it would
//! leave the statement's session inside a transaction.

use std::collections::VecDeque;
use std::sync::Arc;

use asadb_sql::parse::StatementKind;
use asadb_sql::session::{Prepared, Session};
use parking_lot::Mutex;

use crate::db::{Database, affected};
use crate::error::{Error, Result};
use crate::rows::Rows;
use crate::value::{IntoParams, Row};

/// Distinct statement texts [`Database::prepare_cached`] keeps parsed.
pub const STATEMENT_CACHE: usize = 64;

/// The parsed statements of [`Database::prepare_cached`], most recently
/// used last.
#[derive(Default)]
pub(crate) struct StatementCache {
    entries: Mutex<VecDeque<(Arc<str>, Arc<Prepared>)>>,
}

impl StatementCache {
    fn get(&self, sql: &str) -> Option<Arc<Prepared>> {
        let mut entries = self.entries.lock();
        let pos = entries.iter().rposition(|(k, _)| &**k == sql)?;
        let e = entries.remove(pos).expect("the position was just found");
        let p = e.1.clone();
        entries.push_back(e);
        Some(p)
    }

    fn put(&self, sql: &str, p: Arc<Prepared>) {
        let mut entries = self.entries.lock();
        if entries.iter().any(|(k, _)| &**k == sql) {
            return;
        }
        if entries.len() >= STATEMENT_CACHE {
            entries.pop_front();
        }
        entries.push_back((sql.into(), p));
    }

    pub(crate) fn clear(&self) {
        self.entries.lock().clear();
    }
}

/// A prepared statement (see the module docs). `Send`; not `Sync` (one
/// run at a time: the runs share one session).
pub struct Statement {
    db: Database,
    session: Session,
    prepared: Arc<Prepared>,
    columns: Vec<String>,
}

impl std::fmt::Debug for Statement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Statement").field("sql", &self.prepared.sql()).finish_non_exhaustive()
    }
}

impl Database {
    /// Parses one statement (and plans it, if it is a query, to check it
    /// against the schema) for running any number of times.
    pub fn prepare(&self, sql: &str) -> Result<Statement> {
        let mut session = self.session()?;
        let prepared = Arc::new(session.prepare(sql)?);
        self.statement(session, prepared)
    }

    /// [`Database::prepare`] through the database's cache of parsed
    /// statements: a text prepared before is not parsed again (it is still
    /// checked against the current schema).
    pub fn prepare_cached(&self, sql: &str) -> Result<Statement> {
        let mut session = self.session()?;
        let prepared = match self.statement_cache().get(sql) {
            Some(p) => p,
            None => {
                let p = Arc::new(session.prepare(sql)?);
                self.statement_cache().put(sql, p.clone());
                p
            }
        };
        self.statement(session, prepared)
    }

    fn statement(&self, mut session: Session, prepared: Arc<Prepared>) -> Result<Statement> {
        let columns = match prepared.kind() {
            StatementKind::Begin
            | StatementKind::Commit
            | StatementKind::Rollback
            | StatementKind::Savepoint
            | StatementKind::Release
            | StatementKind::RollbackTo => {
                return Err(Error::InvalidInput(format!(
                    "transaction control cannot be prepared (use Database::transaction): {}",
                    prepared.sql()
                )));
            }
            StatementKind::Query => {
                // Planned once, never pulled: checks names against the
                // schema and gives the column names.
                let rows = session.query_prepared(&prepared, &asadb_sql::session::Params::None);
                match rows {
                    Ok(rows) => rows.columns().to_vec(),
                    Err(e) => return Err(e.into()),
                }
            }
            _ => Vec::new(),
        };
        Ok(Statement { db: self.clone(), session, prepared, columns })
    }
}

impl Statement {
    /// The statement's text.
    pub fn sql(&self) -> &str {
        self.prepared.sql()
    }

    /// The result's column names as of preparing (empty for a statement
    /// that is not a query; a schema change since may change them: the
    /// [`Rows`] of a run always tell the current ones).
    pub fn column_names(&self) -> &[String] {
        &self.columns
    }

    /// Runs the query with `params` and streams its rows on the calling
    /// thread (they borrow the statement until dropped). A statement that
    /// is not a query runs to completion and hands out its rows
    /// (`RETURNING`) from memory.
    pub fn query(&mut self, params: impl IntoParams) -> Result<Rows<'_>> {
        self.db.check_open()?;
        let seed = self.db.counters();
        self.session.set_counters(seed);
        let rows = self.session.query_prepared(&self.prepared, &params.into_params())?;
        self.db.keep_counters(seed, rows.counters());
        Ok(Rows::direct(rows))
    }

    /// The first row of [`Statement::query`], if any.
    pub fn query_row(&mut self, params: impl IntoParams) -> Result<Option<Row>> {
        self.query(params)?.next().transpose()
    }

    /// Runs the statement with `params` in its own transaction (waiting
    /// out another writer up to the busy timeout) and returns the rows it
    /// inserted, updated or deleted (a query: the rows it returned).
    pub fn execute(&mut self, params: impl IntoParams) -> Result<u64> {
        let params = params.into_params();
        let prepared = &self.prepared;
        let seed = self.db.counters();
        self.session.set_counters(seed);
        let outcome = self.db.retry_busy(&mut self.session, |s| s.run(prepared, &params));
        self.db.keep_counters(seed, self.session.counters());
        Ok(affected(&outcome?))
    }
}
