//! Shared harness for the differential value tests: evaluate an operation
//! both in SQLite (rusqlite, bundled 3.54) and with `asadb_sql::value` /
//! `asadb_sql::func`, and compare storage class and value exactly.
#![allow(dead_code)]

use asadb_sql::func::{self, Aggregate};
use asadb_sql::value::{self, Affinity, Collation, Value};
use proptest::prelude::*;
use rusqlite::types::{Value as SqlValue, ValueRef};

/// A tiny deterministic generator (no dependency on `rand` needed).
pub struct Lcg(pub u64);

impl Lcg {
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A row as an exact, class-aware string (REAL by bits), for comparing
/// results with SQLite's.
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

/// A connection with the tables the tests use.
pub fn conn() -> rusqlite::Connection {
    let c = rusqlite::Connection::open_in_memory().unwrap();
    c.execute_batch(
        "CREATE TABLE t(x);
         CREATE TABLE a(i INTEGER, r REAL, n NUMERIC, t TEXT, b BLOB);",
    )
    .unwrap();
    c
}

pub fn to_sql(v: &Value) -> SqlValue {
    match v {
        Value::Null => SqlValue::Null,
        Value::Integer(i) => SqlValue::Integer(*i),
        Value::Real(r) => SqlValue::Real(*r),
        // The generators make UTF-8 text only.
        Value::Text(s) => SqlValue::Text(s.to_str_lossy().into_owned()),
        Value::Blob(b) => SqlValue::Blob(b.clone()),
    }
}

/// SQLite's result as our value; TEXT that is not UTF-8 is converted
/// lossily (our documented deviation), so the comparison stays exact
/// otherwise.
pub fn from_ref(v: ValueRef<'_>) -> Value {
    match v {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => Value::Integer(i),
        ValueRef::Real(r) => Value::Real(r),
        ValueRef::Text(t) => Value::Text(asadb_sql::value::Text::from_bytes(t.to_vec())),
        ValueRef::Blob(b) => Value::Blob(b.to_vec()),
    }
}

/// Runs a query in SQLite: its column names and rows as our values.
pub fn sqlite_query(
    c: &rusqlite::Connection,
    sql: &str,
) -> Result<(Vec<String>, Vec<Vec<Value>>), String> {
    let mut st = c.prepare(sql).map_err(|e| e.to_string())?;
    let cols: Vec<String> = st.column_names().map(|s| s.to_string()).collect();
    let n = cols.len();
    let mut rows = st.query([]).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    while let Some(r) = rows.next().map_err(|e| e.to_string())? {
        let row = (0..n).map(|i| r.get_ref(i).map(from_ref)).collect::<Result<Vec<_>, _>>();
        out.push(row.map_err(|e| e.to_string())?);
    }
    Ok((cols, out))
}

/// A query on our engine, as [`sqlite_query`] gives SQLite's: the column
/// names and rows, or the error's text.
pub fn ours_query(
    s: &mut asadb_sql::session::Session,
    sql: &str,
) -> Result<(Vec<String>, Vec<Vec<Value>>), String> {
    use asadb_sql::session::{Outcome, Params};
    match s.execute(sql, &Params::None).map_err(|e| e.to_string())? {
        Outcome::Rows { columns, rows } => Ok((columns, rows)),
        o => Err(format!("not rows: {o:?}")),
    }
}

/// Exact equality: same storage class; REAL by bits; TEXT/BLOB by bytes.
pub fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Integer(x), Value::Integer(y)) => x == y,
        (Value::Real(x), Value::Real(y)) => x.to_bits() == y.to_bits(),
        (Value::Text(x), Value::Text(y)) => x == y,
        (Value::Blob(x), Value::Blob(y)) => x == y,
        _ => false,
    }
}

/// Runs `sql` with `args` bound as ?1.. and returns the single result value
/// or SQLite's error message.
pub fn sqlite_eval(c: &rusqlite::Connection, sql: &str, args: &[Value]) -> Result<Value, String> {
    let mut stmt = c.prepare_cached(sql).map_err(|e| sqlite_msg(&e))?;
    let params: Vec<SqlValue> = args.iter().map(to_sql).collect();
    let mut rows =
        stmt.query(rusqlite::params_from_iter(params.iter())).map_err(|e| sqlite_msg(&e))?;
    match rows.next() {
        Ok(Some(row)) => Ok(from_ref(row.get_ref(0).unwrap())),
        Ok(None) => Ok(Value::Null),
        Err(e) => Err(sqlite_msg(&e)),
    }
}

/// SQLite's error text without the " in <sql> at offset N" that prepare
/// errors carry.
pub fn sqlite_msg(e: &rusqlite::Error) -> String {
    let m = match e {
        rusqlite::Error::SqliteFailure(_, Some(m)) => m.clone(),
        other => other.to_string(),
    };
    match m.find(" in SELECT") {
        Some(p) => m[..p].to_string(),
        None => m,
    }
}

/// Our error text as SQLite would word it (TooLarge displays a prefix).
pub fn our_msg(e: &asadb_sql::Error) -> String {
    let m = e.to_string();
    m.strip_prefix("too large: ").map(str::to_string).unwrap_or(m)
}

fn params(n: usize) -> String {
    (1..=n).map(|i| format!("?{i}")).collect::<Vec<_>>().join(", ")
}

/// The SQL for an operation name with `n` arguments.
pub fn op_sql(op: &str, n: usize) -> String {
    match op {
        "+" | "-" | "*" | "/" | "%" | "&" | "|" | "<<" | ">>" | "||" => {
            format!("SELECT ?1 {op} ?2")
        }
        "neg" => "SELECT -?1".into(),
        "bitnot" => "SELECT ~?1".into(),
        "text" => "SELECT CAST(?1 AS TEXT)".into(),
        "cast_integer" => "SELECT CAST(?1 AS INTEGER)".into(),
        "cast_real" => "SELECT CAST(?1 AS REAL)".into(),
        "cast_numeric" => "SELECT CAST(?1 AS NUMERIC)".into(),
        "cast_blob" => "SELECT CAST(?1 AS BLOB)".into(),
        "cast_text" => "SELECT CAST(?1 AS TEXT)".into(),
        "truth" => "SELECT CASE WHEN ?1 THEN 1 WHEN NOT ?1 THEN 0 END".into(),
        "cmp" => {
            "SELECT CASE WHEN ?1 < ?2 THEN -1 WHEN ?1 = ?2 THEN 0 WHEN ?1 > ?2 THEN 1 END".into()
        }
        "cmp_nocase" => "SELECT CASE WHEN ?1 < ?2 COLLATE NOCASE THEN -1 \
                         WHEN ?1 = ?2 COLLATE NOCASE THEN 0 WHEN ?1 > ?2 COLLATE NOCASE THEN 1 END"
            .into(),
        "cmp_rtrim" => "SELECT CASE WHEN ?1 < ?2 COLLATE RTRIM THEN -1 \
                        WHEN ?1 = ?2 COLLATE RTRIM THEN 0 WHEN ?1 > ?2 COLLATE RTRIM THEN 1 END"
            .into(),
        "like_op" => "SELECT ?2 LIKE ?1".into(),
        "like_esc_op" => "SELECT ?2 LIKE ?1 ESCAPE ?3".into(),
        "glob_op" => "SELECT ?2 GLOB ?1".into(),
        func => format!("SELECT {func}({})", params(n)),
    }
}

fn ord_value(o: Option<std::cmp::Ordering>) -> Value {
    match o {
        None => Value::Null,
        Some(o) => Value::Integer(o as i64),
    }
}

/// Our evaluation of the same operation.
pub fn ours(op: &str, args: &[Value]) -> Result<Value, String> {
    let a = || &args[0];
    let b = || &args[1];
    Ok(match op {
        "+" => value::add(a(), b()),
        "-" => value::sub(a(), b()),
        "*" => value::mul(a(), b()),
        "/" => value::div(a(), b()),
        "%" => value::rem(a(), b()),
        "&" => value::bit_and(a(), b()),
        "|" => value::bit_or(a(), b()),
        "<<" => value::shift_left(a(), b()),
        ">>" => value::shift_right(a(), b()),
        "||" => value::concat(a(), b()),
        "neg" => value::negate(a()),
        "bitnot" => value::bit_not(a()),
        "text" | "cast_text" => a().cast(Affinity::Text),
        "cast_integer" => a().cast(Affinity::Integer),
        "cast_real" => a().cast(Affinity::Real),
        "cast_numeric" => a().cast(Affinity::Numeric),
        "cast_blob" => a().cast(Affinity::Blob),
        "truth" => match a().truthy() {
            None => Value::Null,
            Some(t) => Value::Integer(t as i64),
        },
        "cmp" => ord_value(value::sql_compare(a(), b(), Collation::Binary)),
        "cmp_nocase" => ord_value(value::sql_compare(a(), b(), Collation::NoCase)),
        "cmp_rtrim" => ord_value(value::sql_compare(a(), b(), Collation::RTrim)),
        "like_op" => func::like_values(a(), b(), None).map_err(|e| our_msg(&e))?,
        "like_esc_op" => func::like_values(a(), b(), Some(&args[2])).map_err(|e| our_msg(&e))?,
        "glob_op" => func::glob_values(a(), b()).map_err(|e| our_msg(&e))?,
        name => func::scalar(name, args).map_err(|e| our_msg(&e))?,
    })
}

/// Evaluates `op(args)` both ways; returns a description of a mismatch.
pub fn check(c: &rusqlite::Connection, op: &str, args: &[Value]) -> Result<(), String> {
    let sql = op_sql(op, args.len());
    let theirs = sqlite_eval(c, &sql, args);
    let mine = ours(op, args);
    let ok = match (&theirs, &mine) {
        (Ok(x), Ok(y)) => same(x, y),
        (Err(x), Err(y)) => x == y,
        _ => false,
    };
    if ok { Ok(()) } else { Err(format!("{sql} with {args:?}: sqlite {theirs:?}, ours {mine:?}")) }
}

/// Runs an aggregate over `rows` (one value each) both ways.
pub fn check_aggregate(
    c: &rusqlite::Connection,
    name: &str,
    distinct: bool,
    extra: Option<&Value>,
    rows: &[Value],
) -> Result<(), String> {
    c.execute("DELETE FROM t", []).unwrap();
    for v in rows {
        c.execute("INSERT INTO t VALUES (?1)", [to_sql(v)]).unwrap();
    }
    let d = if distinct { "DISTINCT " } else { "" };
    let (sql, nargs) = match extra {
        Some(_) => (format!("SELECT {name}({d}x, ?1) FROM t"), 2),
        None => (format!("SELECT {name}({d}x) FROM t"), 1),
    };
    let theirs = sqlite_eval(c, &sql, extra.map(std::slice::from_ref).unwrap_or(&[]));
    let mine = (|| {
        let mut agg = Aggregate::new(name, distinct, nargs)?;
        for v in rows {
            let mut args = vec![v.clone()];
            args.extend(extra.cloned());
            agg.step(&args)?;
        }
        agg.finish()
    })()
    .map_err(|e| our_msg(&e));
    let ok = match (&theirs, &mine) {
        (Ok(x), Ok(y)) => same(x, y),
        (Err(x), Err(y)) => x == y,
        _ => false,
    };
    if ok { Ok(()) } else { Err(format!("{sql} over {rows:?}: sqlite {theirs:?}, ours {mine:?}")) }
}

// ---- generators ----

pub fn arb_int() -> impl Strategy<Value = i64> {
    prop_oneof![
        4 => -20i64..20,
        2 => any::<i64>(),
        1 => prop::sample::select(vec![
            i64::MIN, i64::MIN + 1, i64::MAX, i64::MAX - 1, 1 << 53, (1 << 53) + 1,
            -(1 << 53) - 1, 4503599627370496, 4503599627370497, 1 << 62, 1 << 32, -1, 0
        ]),
        1 => (0u32..63).prop_map(|k| 1i64 << k),
    ]
}

pub fn arb_real() -> impl Strategy<Value = f64> {
    prop_oneof![
        3 => any::<u64>().prop_map(f64::from_bits).prop_filter("no NaN", |r| !r.is_nan()),
        3 => (-4000i32..4000, 0u32..4).prop_map(|(x, d)| x as f64 / 10f64.powi(d as i32)),
        2 => (any::<i32>(), -30i32..30).prop_map(|(m, e)| m as f64 * 10f64.powi(e)),
        1 => prop::sample::select(vec![
            0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 1e15, 1e16, 1e17, 1e20, 1e-5, 0.1, 0.3,
            9.223372036854776e18, -9.223372036854776e18, 4503599627370496.5, f64::INFINITY,
            f64::NEG_INFINITY, f64::MAX, f64::MIN_POSITIVE, 5e-324, 123456789012345678.0,
        ]),
    ]
}

pub fn arb_numeric_text() -> impl Strategy<Value = String> {
    "[ \t]{0,1}[+-]?[0-9]{0,21}(\\.[0-9]{0,4})?([eE][+-]?[0-9]{0,3})?[ ]{0,1}(x|ab|\\.)?"
}

pub fn arb_text() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => arb_numeric_text(),
        2 => "[a-cA-C%_ *?\\[\\]^é-]{0,6}",
        1 => "\\PC{0,6}",
        1 => "[ a\\x00]{0,4}",
    ]
}

pub fn arb_blob() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        2 => arb_numeric_text().prop_map(String::into_bytes),
        1 => prop::collection::vec(any::<u8>(), 0..6),
    ]
}

pub fn arb_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        1 => Just(Value::Null),
        4 => arb_int().prop_map(Value::Integer),
        3 => arb_real().prop_map(Value::Real),
        4 => arb_text().prop_map(|s| Value::Text(s.into())),
        1 => arb_blob().prop_map(Value::Blob),
    ]
}

/// Small non-negative or negative integers (for counts and positions).
pub fn arb_small() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => (-8i64..12).prop_map(Value::Integer),
        1 => arb_value(),
    ]
}

/// Proptest case count: `default`, or `VALUES_CASES` from the environment
/// for a deeper run.
pub fn cases(default: u32) -> u32 {
    std::env::var("VALUES_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

/// Our engine over the in-memory store and over B+trees in a page database.
pub fn both_stores() -> Vec<asadb_sql::session::Engine> {
    let db = asadb_txn::Db::memory(asadb_txn::Options::default()).expect("memory db");
    vec![asadb_sql::session::Engine::memory(), asadb_sql::session::Engine::with_db(db)]
}

/// A session of `engine` and a SQLite connection, both after `setup`.
pub fn loaded(
    engine: &asadb_sql::session::Engine,
    setup: &[&str],
) -> (asadb_sql::session::Session, rusqlite::Connection) {
    let mut s = engine.session();
    let c = rusqlite::Connection::open_in_memory().unwrap();
    for q in setup {
        s.execute(q, &asadb_sql::session::Params::None).unwrap_or_else(|e| panic!("{q}: {e}"));
        c.execute_batch(q).unwrap();
    }
    (s, c)
}
