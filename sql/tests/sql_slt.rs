//! sqllogictest corpus (`../shared/slt`, or `$ASADB_SLT_DIR`) on the SQL
//! engine over the in-memory store, with the workspace's own runner
//! (`tests/slt/`, shared with the facade's test).
//!
//! Scenario: each file runs on a fresh `Engine::memory()`; every record is
//! judged as SQLite's harness judges it. Invariant pinned: the engine gives
//! SQLite's answers; the per-file counts are printed and the test fails on
//! any failed record.
//!
//! One file with its failures: `ASADB_SLT_FILTER=select1 cargo test -p
//! asadb-sql --test sql_slt -- --nocapture`.

#[allow(dead_code)]
#[path = "../../tests/slt/parser.rs"]
mod parser;
#[allow(dead_code)]
#[path = "../../tests/slt/printf.rs"]
mod printf;
#[allow(dead_code)]
#[path = "../../tests/slt/render.rs"]
mod render;
#[allow(dead_code)]
#[path = "../../tests/slt/runner.rs"]
mod runner;

use asadb_sql::Value;
use asadb_sql::session::{Engine as SqlEngine, Outcome, Params, Session};
use render::SltValue;
use runner::{Engine, run_all};

struct Mem {
    session: Session,
}

fn slt_value(v: Value) -> SltValue {
    match v {
        Value::Null => SltValue::Null,
        Value::Integer(i) => SltValue::Integer(i),
        Value::Real(f) => SltValue::Real(f),
        Value::Text(s) => SltValue::Text(s),
        Value::Blob(b) => SltValue::Blob(b),
    }
}

impl Engine for Mem {
    fn statement(&mut self, sql: &str) -> Result<(), String> {
        self.session.execute(sql, &Params::None).map(|_| ()).map_err(|e| e.to_string())
    }

    fn query(&mut self, sql: &str) -> Result<Vec<Vec<SltValue>>, String> {
        let rows = self.session.query(sql, &Params::None).map_err(|e| e.to_string())?;
        let mut out = Vec::new();
        for r in rows {
            match r {
                Ok(r) => out.push(r.into_iter().map(slt_value).collect()),
                Err(_) => break,
            }
        }
        Ok(out)
    }
}

#[test]
fn slt_memstore() {
    if std::env::var_os("ASADB_SLT_DIR").is_none() {
        // The runner resolves the corpus from the manifest dir; ours is one
        // level deeper than the facade's.
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/slt");
        // SAFETY: set before any other thread of this test binary reads it.
        unsafe { std::env::set_var("ASADB_SLT_DIR", dir) };
    }
    let summary = run_all(|| Mem { session: SqlEngine::memory().session() });
    let _ = Outcome::Ok;
    assert_eq!(summary.failed(), 0, "see the failures above");
}

#[test]
fn slt_btree_store() {
    if std::env::var_os("ASADB_SLT_DIR").is_none() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/slt");
        // SAFETY: set before any other thread of this test binary reads it.
        unsafe { std::env::set_var("ASADB_SLT_DIR", dir) };
    }
    let summary = run_all(|| {
        let opts =
            asadb_txn::Options { synchronous: asadb_txn::Synchronous::Off, ..Default::default() };
        let db = asadb_txn::Db::memory(opts).expect("memory db");
        Mem { session: SqlEngine::with_db(db).session() }
    });
    assert_eq!(summary.failed(), 0, "see the failures above");
}
