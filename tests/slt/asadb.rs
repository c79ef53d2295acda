//! The AsaDB engine behind the runner's `Engine` trait: one in-memory
//! session per file.

use asadb_sql::Value;
use asadb_sql::session::{Engine as SqlEngine, Params, Session};

use super::render::SltValue;
use super::runner::Engine;

pub struct AsaDbEngine {
    session: Session,
}

impl AsaDbEngine {
    /// The engine over its in-memory row store.
    pub fn new() -> Self {
        AsaDbEngine { session: SqlEngine::memory().session() }
    }

    /// The engine over the real storage stack (B+trees, log, buffer pool)
    /// on in-memory files.
    pub fn btree() -> Self {
        let db = asadb_txn::Db::memory(asadb_txn::Options::default()).expect("in-memory database");
        AsaDbEngine { session: SqlEngine::with_db(db).session() }
    }
}

impl Engine for AsaDbEngine {
    fn statement(&mut self, sql: &str) -> Result<(), String> {
        self.session.execute(sql, &Params::None).map(|_| ()).map_err(|e| e.to_string())
    }

    /// As SQLite's harness: a query fails only if it cannot be prepared;
    /// an error while it runs (e.g. `sum` overflowing) just ends its rows.
    fn query(&mut self, sql: &str) -> Result<Vec<Vec<SltValue>>, String> {
        let rows = self.session.query(sql, &Params::None).map_err(|e| e.to_string())?;
        Ok(rows
            .map_while(|row| row.ok())
            .map(|row| row.into_iter().map(to_slt).collect())
            .collect())
    }
}

fn to_slt(v: Value) -> SltValue {
    match v {
        Value::Null => SltValue::Null,
        Value::Integer(i) => SltValue::Integer(i),
        Value::Real(f) => SltValue::Real(f),
        Value::Text(s) => SltValue::Text(s.into_string_lossy()),
        Value::Blob(b) => SltValue::Blob(b),
    }
}
