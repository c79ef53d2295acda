//! Shared harness of the schema-layer differential tests: one script run
//! statement by statement on SQLite (rusqlite, bundled) and on AsaDB's two
//! stores (memory, B+tree), every outcome compared — error vs success,
//! rows with their storage classes (REAL by bits), rows affected.
#![allow(dead_code)]

use asadb_sql::Value;
use asadb_sql::session::{Engine, Outcome, Params, Session};
use rusqlite::types::ValueRef;

/// Both stores, fresh.
pub fn engines() -> Vec<(&'static str, Engine)> {
    let db = asadb_txn::Db::memory(asadb_txn::Options::default()).expect("memory db");
    vec![("memory", Engine::memory()), ("btree", Engine::with_db(db))]
}

/// A fresh SQLite connection with SQLite's own defaults (rusqlite's
/// bundled build turns foreign keys on; SQLite has them off).
pub fn sqlite() -> rusqlite::Connection {
    let c = rusqlite::Connection::open_in_memory().expect("sqlite");
    c.execute_batch("PRAGMA foreign_keys = OFF").expect("pragma");
    c
}

fn from_ref(v: ValueRef<'_>) -> Value {
    match v {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => Value::Integer(i),
        ValueRef::Real(f) => Value::Real(f),
        ValueRef::Text(t) => Value::Text(asadb_sql::value::Text::from_bytes(t.to_vec())),
        ValueRef::Blob(b) => Value::Blob(b.to_vec()),
    }
}

/// What one statement did, comparably.
#[derive(Clone, Debug, PartialEq)]
pub enum Got {
    Rows(Vec<String>),
    Affected(u64),
    Done,
    Error(String),
}

pub fn render(v: &Value) -> String {
    match v {
        Value::Null => "NULL".into(),
        Value::Integer(i) => format!("{i}"),
        Value::Real(f) => format!("R{f:?}#{:x}", f.to_bits()),
        // Exact: text that is not UTF-8 shows its bytes too.
        Value::Text(s) => match s.to_str() {
            Some(t) => format!("'{t}'"),
            None => format!("{s:?}"),
        },
        Value::Blob(b) => {
            format!("x'{}'", b.iter().map(|x| format!("{x:02x}")).collect::<String>())
        }
    }
}

fn row_text(r: &[Value]) -> String {
    r.iter().map(render).collect::<Vec<_>>().join("|")
}

fn is_dml(sql: &str) -> bool {
    let w = sql.split_whitespace().next().unwrap_or("").to_ascii_uppercase();
    matches!(w.as_str(), "INSERT" | "UPDATE" | "DELETE" | "REPLACE")
}

/// Runs one statement on SQLite.
pub fn run_sqlite(c: &rusqlite::Connection, sql: &str) -> Got {
    let mut st = match c.prepare(sql) {
        Ok(s) => s,
        Err(e) => return Got::Error(e.to_string()),
    };
    let n = st.column_count();
    if n == 0 {
        return match st.raw_execute() {
            Ok(k) if is_dml(sql) => Got::Affected(k as u64),
            Ok(_) => Got::Done,
            Err(e) => Got::Error(e.to_string()),
        };
    }
    let mut rows = st.raw_query();
    let mut out = Vec::new();
    loop {
        match rows.next() {
            Ok(Some(r)) => {
                let row: Vec<Value> = (0..n).map(|i| from_ref(r.get_ref(i).unwrap())).collect();
                out.push(row_text(&row));
            }
            Ok(None) => break,
            Err(e) => return Got::Error(e.to_string()),
        }
    }
    Got::Rows(out)
}

/// Runs one statement on AsaDB.
pub fn run_ours(s: &mut Session, sql: &str) -> Got {
    let r =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| s.execute(sql, &Params::None)));
    match r {
        Err(_) => Got::Error("PANIC".into()),
        Ok(Err(e)) => Got::Error(e.to_string()),
        Ok(Ok(Outcome::Rows { rows, .. })) => Got::Rows(rows.iter().map(|r| row_text(r)).collect()),
        Ok(Ok(Outcome::Affected(n))) if is_dml(sql) => Got::Affected(n),
        Ok(Ok(_)) => Got::Done,
    }
}

/// Same outcome: rows (in order, or as multisets when `sorted`), counts,
/// and error-ness (messages may differ unless `messages`).
pub fn agree(a: &Got, b: &Got, sorted: bool, messages: bool) -> bool {
    match (a, b) {
        (Got::Error(x), Got::Error(y)) => {
            !messages || x.contains(y.as_str()) || y.contains(x.as_str())
        }
        (Got::Rows(x), Got::Rows(y)) if sorted => {
            let (mut x, mut y) = (x.clone(), y.clone());
            x.sort();
            y.sort();
            x == y
        }
        // A statement with no rows is "done" either way.
        (Got::Rows(x), Got::Done) | (Got::Done, Got::Rows(x)) => x.is_empty(),
        _ => a == b,
    }
}

/// Options of one script run.
#[derive(Clone, Copy, Default)]
pub struct Opts {
    /// Compare rows as multisets.
    pub sorted: bool,
    /// Our error message must contain SQLite's (or the reverse).
    pub messages: bool,
}

/// Runs `script` on SQLite and on both stores; returns every difference.
pub fn diff_script(script: &[&str], opts: Opts) -> Vec<String> {
    diff_script_with_budget(script, opts, None)
}

/// [`diff_script`] with the stores' memory budget set to `budget` bytes
/// (operators past it spill to disk).
pub fn diff_script_with_budget(script: &[&str], opts: Opts, budget: Option<usize>) -> Vec<String> {
    let mut diffs = Vec::new();
    for (name, e) in engines() {
        if let Some(b) = budget {
            e.set_memory_budget(b);
        }
        let c = sqlite();
        let mut s = e.session();
        for sql in script {
            let want = run_sqlite(&c, sql);
            let got = run_ours(&mut s, sql);
            if !agree(&got, &want, opts.sorted, opts.messages) {
                diffs.push(format!("[{name}] {sql}\n    ours:   {got:?}\n    sqlite: {want:?}"));
            }
        }
    }
    diffs
}

/// Asserts that `script` runs the same everywhere.
pub fn check_script(script: &[&str], opts: Opts) {
    check_script_with_budget(script, opts, None);
}

/// Rows as multisets (an unordered query's order is left open, as the
/// fuzzer leaves it), then the statements other than unordered SELECTs
/// again with their order compared; error messages must agree.
pub fn check_script_both_orders(script: &[&str]) {
    check_script(script, Opts { sorted: true, messages: true });
    let ordered: Vec<&str> = script
        .iter()
        .copied()
        .filter(|q| !q.starts_with("SELECT") || q.contains("ORDER BY"))
        .collect();
    check_script(&ordered, Opts { sorted: false, messages: true });
}

/// [`check_script`] under a memory budget ([`diff_script_with_budget`]).
pub fn check_script_with_budget(script: &[&str], opts: Opts, budget: Option<usize>) {
    let d = diff_script_with_budget(script, opts, budget);
    let shown: Vec<String> = d
        .iter()
        .take(16)
        .map(|s| {
            if s.chars().count() > 1500 {
                format!("{}…", s.chars().take(1500).collect::<String>())
            } else {
                s.clone()
            }
        })
        .collect();
    assert!(d.is_empty(), "{} statements differ from SQLite:\n{}", d.len(), shown.join("\n"));
}
