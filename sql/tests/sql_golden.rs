//! Golden SQL scripts (`tests/golden/*.sql`), one per area, run on the
//! engine and — to prove the expectations themselves — on SQLite.
//!
//! Format: records separated by blank lines; `#` lines are comments.
//! - `statement ok` + SQL: must succeed.
//! - `statement error <text>` + SQL: must fail with a message containing
//!   `<text>` (empty: any error).
//! - `query [cols]` + SQL + `----` + expected rows: one row per line, values
//!   joined by `|`; NULL as `NULL`, REAL as SQLite prints it, BLOB as
//!   `x'hex'`. With `cols` the first expected line is the column names.
//!   Rows are compared in order (write ORDER BY when order is not fixed).
//! - `onlyif asadb` before a record: not run on SQLite (our extensions,
//!   e.g. EXPLAIN's text).
//!
//! Scenario: each file starts from an empty database. Invariant pinned: the
//! engine's results equal the file's, and SQLite's equal the file's too.

use std::path::{Path, PathBuf};

mod values_common;

use asadb_sql::Value;
use asadb_sql::session::{Engine, Outcome, Params, Session};

struct Record {
    line: usize,
    kind: Kind,
    sql: String,
    only_asadb: bool,
}

enum Kind {
    Ok,
    Error(String),
    Query { cols: bool, expected: Vec<String> },
}

fn parse(text: &str) -> Vec<Record> {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    let mut only = false;
    while i < lines.len() {
        let l = lines[i].trim_end();
        i += 1;
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        if l == "onlyif asadb" {
            only = true;
            continue;
        }
        let start = i;
        let mut sql = Vec::new();
        while i < lines.len() && !lines[i].trim().is_empty() && lines[i].trim() != "----" {
            sql.push(lines[i]);
            i += 1;
        }
        let kind = if l == "statement ok" {
            Kind::Ok
        } else if let Some(e) = l.strip_prefix("statement error") {
            Kind::Error(e.trim().to_string())
        } else if let Some(rest) = l.strip_prefix("query") {
            let mut expected = Vec::new();
            if i < lines.len() && lines[i].trim() == "----" {
                i += 1;
                while i < lines.len() && !lines[i].trim().is_empty() {
                    expected.push(lines[i].trim_end().to_string());
                    i += 1;
                }
            }
            Kind::Query { cols: rest.trim() == "cols", expected }
        } else {
            panic!("line {start}: unknown record {l:?}");
        };
        out.push(Record { line: start, kind, sql: sql.join("\n"), only_asadb: only });
        only = false;
    }
    out
}

fn render(v: &Value) -> String {
    match v {
        Value::Null => "NULL".into(),
        Value::Blob(b) => {
            format!("x'{}'", b.iter().map(|x| format!("{x:02x}")).collect::<String>())
        }
        v => v.text().unwrap_or_default().into_owned(),
    }
}

/// What a database under test does with one record.
trait Db {
    fn exec(&mut self, sql: &str) -> Result<(), String>;
    fn query(&mut self, sql: &str) -> Result<(Vec<String>, Vec<Vec<Value>>), String>;
}

struct Ours(Session);

impl Db for Ours {
    fn exec(&mut self, sql: &str) -> Result<(), String> {
        self.0.execute(sql, &Params::None).map(|_| ()).map_err(|e| e.to_string())
    }
    fn query(&mut self, sql: &str) -> Result<(Vec<String>, Vec<Vec<Value>>), String> {
        match self.0.execute(sql, &Params::None).map_err(|e| e.to_string())? {
            Outcome::Rows { columns, rows } => Ok((columns, rows)),
            o => Err(format!("not a query: {o:?}")),
        }
    }
}

struct Sqlite(rusqlite::Connection);

impl Db for Sqlite {
    fn exec(&mut self, sql: &str) -> Result<(), String> {
        self.0.execute_batch(sql).map_err(|e| e.to_string())
    }
    fn query(&mut self, sql: &str) -> Result<(Vec<String>, Vec<Vec<Value>>), String> {
        values_common::sqlite_query(&self.0, sql)
    }
}

fn run_file(db: &mut dyn Db, path: &Path, sqlite: bool) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("read golden file");
    let name = path.file_name().unwrap_or_default().to_string_lossy().into_owned();
    let mut failures = Vec::new();
    for r in parse(&text) {
        if sqlite && r.only_asadb {
            continue;
        }
        let at = format!("{name}:{}", r.line);
        match &r.kind {
            Kind::Ok => {
                if let Err(e) = db.exec(&r.sql) {
                    failures.push(format!("{at}: expected ok, got error {e}\n  {}", r.sql));
                }
            }
            Kind::Error(want) => match db.exec(&r.sql) {
                Ok(()) => {
                    failures.push(format!("{at}: expected error {want:?}, got ok\n  {}", r.sql))
                }
                Err(e) if !e.contains(want.as_str()) => {
                    failures.push(format!("{at}: expected error {want:?}, got {e:?}"))
                }
                Err(_) => {}
            },
            Kind::Query { cols, expected } => match db.query(&r.sql) {
                Err(e) => failures.push(format!("{at}: query failed: {e}\n  {}", r.sql)),
                Ok((names, rows)) => {
                    let mut got: Vec<String> = Vec::new();
                    if *cols {
                        got.push(names.join("|"));
                    }
                    got.extend(
                        rows.iter().map(|row| row.iter().map(render).collect::<Vec<_>>().join("|")),
                    );
                    if &got != expected {
                        failures.push(format!(
                            "{at}: {}\n  expected: {expected:?}\n  got:      {got:?}",
                            r.sql
                        ));
                    }
                }
            },
        }
    }
    failures
}

fn golden_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("golden dir")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "sql"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "golden files missing from {}", dir.display());
    files
}

fn run_all(mut make: impl FnMut() -> Box<dyn Db>, sqlite: bool) {
    let mut all = Vec::new();
    for f in golden_files() {
        let fails = run_file(make().as_mut(), &f, sqlite);
        println!("{}: {} failures", f.display(), fails.len());
        all.extend(fails);
    }
    for f in &all {
        println!("{f}");
    }
    assert!(all.is_empty(), "{} golden failures (listed above)", all.len());
}

#[test]
fn golden_memstore() {
    run_all(|| Box::new(Ours(Engine::memory().session())), false);
}

/// Every sort, join and aggregation spills (a 1-byte budget): results must
/// not change.
#[test]
fn golden_memstore_everything_spills() {
    run_all(
        || {
            let e = Engine::memory();
            e.set_memory_budget(1);
            Box::new(Ours(e.session()))
        },
        false,
    );
}

#[test]
fn golden_btree_store() {
    run_all(
        || {
            let db = asadb_txn::Db::memory(asadb_txn::Options::default()).expect("memory db");
            Box::new(Ours(Engine::with_db(db).session()))
        },
        false,
    );
}

#[test]
fn golden_expectations_hold_in_sqlite() {
    run_all(|| Box::new(Sqlite(rusqlite::Connection::open_in_memory().expect("sqlite"))), true);
}
