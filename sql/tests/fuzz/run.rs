//! Running one session on SQLite and on AsaDB (both stores), statement by
//! statement, and comparing what each statement did.
//!
//! Compared: error vs success (not the messages), rows as multisets (in
//! order when the statement ends in ORDER BY, up to rows that tie under
//! it), the storage class of every value, rows affected by INSERT, UPDATE
//! and DELETE, and that AsaDB never panics. What SQL leaves to the plan is
//! not compared: the order rows reach `group_concat`/`json_group_array`
//! ([`order_noise`]) and which of equal values a deduplicating query shows
//! ([`representative_noise`]).

use std::panic::{AssertUnwindSafe, catch_unwind};

use asadb_sql::Value;
use asadb_sql::session::{Engine, Outcome, Params, Session};
use rusqlite::types::ValueRef;

/// What one statement did.
#[derive(Clone, Debug)]
pub enum Res {
    Rows(Vec<Vec<Value>>),
    Affected(u64),
    Done,
    Err(String),
    Panic(String),
}

/// The kind of a difference, kept equal while a case is shrunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Panic,
    /// AsaDB refused what SQLite ran.
    OursFailed,
    /// AsaDB ran what SQLite refused.
    OursSucceeded,
    Rows,
    Affected,
}

#[derive(Clone, Debug)]
pub struct Mismatch {
    pub class: Class,
    /// Index of the statement in the session.
    pub at: usize,
    pub store: &'static str,
    pub detail: String,
}

/// SQLite and our engines, each on a fresh database.
pub struct Engines {
    sqlite: rusqlite::Connection,
    ours: Vec<(&'static str, Session)>,
    /// A rowid table holds the largest rowid: both engines now pick the
    /// next one at random (SQLite's documented rule, which AsaDB follows),
    /// so their states may legitimately differ and the session is over.
    random_rowids: bool,
}

impl Engines {
    pub fn new() -> Engines {
        let db = asadb_txn::Db::memory(asadb_txn::Options::default()).expect("memory db");
        Engines {
            sqlite: rusqlite::Connection::open_in_memory().expect("sqlite"),
            ours: vec![
                ("memory", Engine::memory().session()),
                ("btree", Engine::with_db(db).session()),
            ],
            random_rowids: false,
        }
    }

    /// True when a rowid table of SQLite's database holds rowid 2^63-1.
    fn holds_max_rowid(&self) -> bool {
        let Ok(mut st) = self.sqlite.prepare(
            "SELECT name FROM sqlite_schema WHERE type = 'table' \
             AND sql NOT LIKE '%WITHOUT%ROWID%' AND name NOT LIKE 'sqlite%'",
        ) else {
            return false;
        };
        let names: Vec<String> = match st.query_map([], |r| r.get(0)) {
            Ok(rows) => rows.filter_map(Result::ok).collect(),
            Err(_) => return false,
        };
        names.iter().any(|n| {
            let q = format!("SELECT max(rowid) FROM \"{}\"", n.replace('"', "\"\""));
            self.sqlite.query_row(&q, [], |r| r.get::<_, Option<i64>>(0)).ok().flatten()
                == Some(i64::MAX)
        })
    }

    /// Runs one statement everywhere: SQLite's result, then each store's.
    pub fn results(&mut self, sql: &str) -> (Res, Vec<(&'static str, Res)>) {
        let want = sqlite_run(&self.sqlite, sql);
        let got = self.ours.iter_mut().map(|(store, s)| (*store, ours_run(s, sql))).collect();
        (want, got)
    }

    /// Runs one statement everywhere; the first difference, if any.
    /// After a statement that left a table at the largest rowid, the
    /// rest of the session is not compared (see `random_rowids`).
    pub fn step(&mut self, sql: &str, at: usize) -> Option<Mismatch> {
        if self.random_rowids {
            return None;
        }
        let want = sqlite_run(&self.sqlite, sql);
        for (store, s) in &mut self.ours {
            let got = ours_run(s, sql);
            if let Some((class, detail)) = compare(sql, &want, &got) {
                return Some(Mismatch { class, at, store, detail });
            }
        }
        if is_dml(sql) && self.holds_max_rowid() {
            self.random_rowids = true;
        }
        None
    }
}

impl Default for Engines {
    fn default() -> Self {
        Engines::new()
    }
}

/// Runs `stmts` in fresh engines; the first mismatch.
pub fn run_session(stmts: &[String]) -> Option<Mismatch> {
    let mut e = Engines::new();
    for (i, s) in stmts.iter().enumerate() {
        if let Some(m) = e.step(s, i) {
            return Some(m);
        }
    }
    None
}

fn is_dml(sql: &str) -> bool {
    let w = sql.split_whitespace().next().unwrap_or("").to_ascii_uppercase();
    matches!(w.as_str(), "INSERT" | "UPDATE" | "DELETE" | "REPLACE")
}

fn sqlite_run(c: &rusqlite::Connection, sql: &str) -> Res {
    let mut st = match c.prepare(sql) {
        Ok(st) => st,
        Err(e) => return Res::Err(e.to_string()),
    };
    let n = st.column_count();
    if n == 0 {
        return match st.raw_execute() {
            Ok(_) if is_dml(sql) => Res::Affected(c.changes()),
            Ok(_) => Res::Done,
            Err(e) => Res::Err(e.to_string()),
        };
    }
    let mut rows = st.raw_query();
    let mut out = Vec::new();
    loop {
        match rows.next() {
            Ok(Some(r)) => {
                let row = (0..n).map(|i| r.get_ref(i).map(from_ref)).collect::<Result<Vec<_>, _>>();
                match row {
                    Ok(row) => out.push(row),
                    Err(e) => return Res::Err(e.to_string()),
                }
            }
            Ok(None) => return Res::Rows(out),
            Err(e) => return Res::Err(e.to_string()),
        }
    }
}

/// SQLite's value as ours, TEXT with its bytes as they are (UTF-8 or
/// not).
fn from_ref(v: ValueRef<'_>) -> Value {
    match v {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => Value::Integer(i),
        ValueRef::Real(r) => Value::Real(r),
        ValueRef::Text(t) => Value::Text(asadb_sql::value::Text::from_bytes(t.to_vec())),
        ValueRef::Blob(b) => Value::Blob(b.to_vec()),
    }
}

fn ours_run(s: &mut Session, sql: &str) -> Res {
    let r = catch_unwind(AssertUnwindSafe(|| s.execute(sql, &Params::None)));
    match r {
        Err(p) => Res::Panic(
            p.downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default(),
        ),
        Ok(Err(e)) => Res::Err(e.to_string()),
        Ok(Ok(Outcome::Rows { rows, .. })) => Res::Rows(rows),
        Ok(Ok(Outcome::Affected(n))) if is_dml(sql) => Res::Affected(n),
        Ok(Ok(_)) => Res::Done,
    }
}

/// An exact, class-aware rendering of a row (REAL by bits).
pub fn row_key(row: &[Value]) -> String {
    row.iter()
        .map(|v| match v {
            Value::Null => "N".to_string(),
            Value::Integer(i) => format!("I{i}"),
            Value::Real(f) => format!("R{:x}", f.to_bits()),
            Value::Text(s) => format!("T{s:?}"),
            Value::Blob(b) => format!("B{b:?}"),
        })
        .collect::<Vec<_>>()
        .join(",")
}

pub fn show(r: &Res) -> String {
    match r {
        Res::Rows(rows) => {
            let mut s = format!("{} rows", rows.len());
            for row in rows.iter().take(12) {
                s.push_str(&format!("\n      {row:?}"));
            }
            s
        }
        other => format!("{other:?}"),
    }
}

fn compare(sql: &str, want: &Res, got: &Res) -> Option<(Class, String)> {
    let detail = || format!("sqlite: {}\n    asadb:  {}", show(want), show(got));
    match (want, got) {
        (_, Res::Panic(m)) => Some((Class::Panic, format!("panic: {m}"))),
        (Res::Err(_), Res::Err(_)) => None,
        (Res::Err(_), _) => Some((Class::OursSucceeded, detail())),
        (_, Res::Err(_)) => Some((Class::OursFailed, detail())),
        (Res::Rows(a), Res::Rows(b)) => {
            (!same_rows(sql, a, b) && !order_noise(a, b) && !representative_noise(sql, a, b))
                .then(|| (Class::Rows, detail()))
        }
        (Res::Affected(a), Res::Affected(b)) => (a != b).then(|| (Class::Affected, detail())),
        (Res::Done, Res::Done) => None,
        // A statement that is rows in one and not in the other.
        _ => Some((Class::Rows, detail())),
    }
}

/// The ORDER BY / LIMIT of the statement's top level, as the generator
/// writes them: ` ORDER BY` after the last closing parenthesis.
fn ordering(sql: &str) -> (bool, bool) {
    let tail = &sql[sql.rfind(')').map_or(0, |p| p + 1)..];
    let ordered =
        tail.contains(" ORDER BY ") && !sql.trim_start().to_ascii_uppercase().starts_with("INSERT");
    (ordered, ordered && tail.contains(" LIMIT "))
}

fn same_rows(sql: &str, a: &[Vec<Value>], b: &[Vec<Value>]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let (ordered, limited) = ordering(sql);
    if !ordered {
        return same_multiset(a, b);
    }
    // Runs of rows that tie under the ORDER BY may come in any order.
    let mut i = 0;
    while i < a.len() {
        let mut j = i + 1;
        while j < a.len() && ties(&a[i], &a[j]) {
            j += 1;
        }
        if !(i..j).all(|k| ties(&a[i], &b[k])) {
            return false;
        }
        // A LIMIT may cut the last run anywhere: which tied rows made it is
        // not fixed.
        let last = j == a.len();
        let cut = last && limited;
        if !cut && !same_multiset(&a[i..j], &b[i..j]) {
            return false;
        }
        i = j;
    }
    true
}

/// Differences that only the order rows reach an aggregate makes, which
/// SQL leaves open and the two engines' plans choose differently:
/// `group_concat` pieces or `json_group_array`/`json_group_object`
/// elements in another order, REAL sums rounded differently in the last
/// digits. Rows are compared as multisets of such order-free keys.
fn order_noise(a: &[Vec<Value>], b: &[Vec<Value>]) -> bool {
    fn key(row: &[Value]) -> String {
        row.iter()
            .map(|v| match v {
                Value::Real(f) => format!("R{f:.9e}"),
                Value::Text(t) if t.to_str().is_some() => {
                    let s = t.to_str().unwrap_or_default();
                    let inner = s
                        .strip_prefix('[')
                        .and_then(|s| s.strip_suffix(']'))
                        .or_else(|| s.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
                        .unwrap_or(s);
                    let mut parts: Vec<&str> = inner.split([',', '|']).collect();
                    parts.sort_unstable();
                    format!("T{parts:?}")
                }
                other => row_key(std::slice::from_ref(other)),
            })
            .collect::<Vec<_>>()
            .join(",")
    }
    let mut ka: Vec<String> = a.iter().map(|r| key(r)).collect();
    let mut kb: Vec<String> = b.iter().map(|r| key(r)).collect();
    ka.sort();
    kb.sort();
    a.len() == b.len() && ka == kb
}

/// Differences in which of several equal values a deduplicating query
/// (DISTINCT, GROUP BY, UNION, EXCEPT, INTERSECT) shows: SQLite keeps "an
/// arbitrary one", in practice the first or last its plan meets, and its
/// plan may read a covering index where AsaDB reads the table (SQLite's
/// cost model picks by estimated row widths; AsaDB does not copy it, see
/// `planner::access`). Equal values are numbers that compare equal (`0`
/// and `-0.0`, `9210000000000000000` and `9.21e18`) and texts equal under
/// NOCASE or RTRIM. Rows are compared as multisets of such keys; the
/// counts and everything else still must agree.
fn representative_noise(sql: &str, a: &[Vec<Value>], b: &[Vec<Value>]) -> bool {
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    let up = sql.to_ascii_uppercase();
    let dedupes = ["DISTINCT", "GROUP BY", " UNION ", " EXCEPT ", " INTERSECT "]
        .iter()
        .any(|k| up.contains(k));
    if !dedupes || a.len() != b.len() {
        return false;
    }
    fn key(row: &[Value]) -> String {
        row.iter()
            .map(|v| match v {
                // Integral and in i64's range: exactly that integer.
                Value::Real(r) if r.fract() == 0.0 && (-TWO_63..TWO_63).contains(r) => {
                    format!("N{}", *r as i64)
                }
                Value::Integer(i) => format!("N{i}"),
                Value::Text(s) => format!("T{:?}", trim_spaces_end(s).to_ascii_lowercase()),
                other => row_key(std::slice::from_ref(other)),
            })
            .collect::<Vec<_>>()
            .join(",")
    }
    let mut ka: Vec<String> = a.iter().map(|r| key(r)).collect();
    let mut kb: Vec<String> = b.iter().map(|r| key(r)).collect();
    ka.sort();
    kb.sort();
    ka == kb
}

fn trim_spaces_end(mut s: &[u8]) -> &[u8] {
    while let [rest @ .., b' '] = s {
        s = rest;
    }
    s
}

fn same_multiset(a: &[Vec<Value>], b: &[Vec<Value>]) -> bool {
    let mut ka: Vec<String> = a.iter().map(|r| row_key(r)).collect();
    let mut kb: Vec<String> = b.iter().map(|r| row_key(r)).collect();
    ka.sort();
    kb.sort();
    ka == kb
}

/// Rows that an ORDER BY over all columns may not tell apart: equal
/// numbers of either class, texts equal ignoring ASCII case and trailing
/// spaces (NOCASE, RTRIM), equal blobs.
fn ties(x: &[Value], y: &[Value]) -> bool {
    x.iter().zip(y).all(|(a, b)| match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Integer(_) | Value::Real(_), Value::Integer(_) | Value::Real(_)) => {
            asadb_sql::value::compare(a, b).is_eq()
        }
        (Value::Text(s), Value::Text(t)) => {
            trim_spaces_end(s).eq_ignore_ascii_case(trim_spaces_end(t))
        }
        (Value::Blob(s), Value::Blob(t)) => s == t,
        _ => false,
    })
}
