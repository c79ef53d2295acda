//! ORDER BY served by a scan's order instead of a sort, checked against
//! SQLite (rusqlite, bundled) on the memory store and the B+tree store.
//!
//! Scenario: a table with NULLs, duplicates and mixed storage classes
//! (integers, integral and fractional reals, text, blobs) in an indexed
//! column, a two-column index, DESC indexes and a NOCASE column; ORDER BY
//! queries over the rowid and over indexes, with WHERE ranges, equality
//! prefixes, IN lists, and every LIMIT/OFFSET shape. Invariant pinned: the
//! rows and their order equal SQLite's exactly (storage classes too). The
//! queries avoid ties whose order SQLite leaves to its own plan choice
//! (e.g. `ORDER BY a DESC` over ties, which SQLite reads backwards through
//! its index while we sort stably).
//!
//! A second test pages a 100k-row B+tree table in `ORDER BY id LIMIT 500
//! OFFSET n` pages, as `/api/query` does, and checks every row arrives
//! once, in order, and that the plan has no sort.

mod values_common;

use values_common::Lcg;

use asadb_sql::Value;
use asadb_sql::session::{Engine, Outcome, Params, Session};

fn setup_sql() -> Vec<String> {
    let mut g = Lcg(7);
    let mut out = vec![
        "CREATE TABLE t(id INTEGER PRIMARY KEY, a, b INTEGER, c TEXT, d REAL, n TEXT COLLATE NOCASE)"
            .to_string(),
        "CREATE INDEX ta ON t(a)".to_string(),
        "CREATE INDEX tbc ON t(b, c)".to_string(),
        "CREATE INDEX tdd ON t(d DESC)".to_string(),
        "CREATE INDEX tbd ON t(b, d DESC)".to_string(),
        "CREATE INDEX tn ON t(n)".to_string(),
    ];
    let words = ["apple", "Apple", "APPLE", "b", "B", "cherry", "", "10", "2.5", "zz"];
    for i in 0..400i64 {
        // Rowids scattered, some negative, inserted out of order.
        let id = (i * 7919) % 1201 - 300;
        let a = match g.below(9) {
            0 => "NULL".to_string(),
            1 | 2 => (g.below(12) as i64 - 3).to_string(),
            3 => format!("{}.0", g.below(12) as i64 - 3),
            4 => format!("{}.25", g.below(12) as i64 - 3),
            5 | 6 => format!("'{}'", words[g.below(words.len() as u64) as usize]),
            7 => format!("x'{:02x}{:02x}'", g.below(4), g.below(256)),
            _ => format!("'{}'", g.below(12)),
        };
        let b = if g.below(8) == 0 { "NULL".to_string() } else { g.below(9).to_string() };
        let c = if g.below(6) == 0 {
            "NULL".to_string()
        } else {
            format!("'{}'", words[g.below(words.len() as u64) as usize])
        };
        let d = if g.below(7) == 0 {
            "NULL".to_string()
        } else {
            format!("{}.{}", g.below(30), g.below(4))
        };
        let n = format!("'{}'", words[g.below(words.len() as u64) as usize]);
        out.push(format!("INSERT INTO t VALUES ({id}, {a}, {b}, {c}, {d}, {n})"));
    }
    out
}

/// Queries whose ORDER BY our planner serves from the scan (checked by
/// `plans_use_the_scan_order`), then some that keep their sort.
const SCAN_ORDERED: &[&str] = &[
    "SELECT * FROM t ORDER BY id",
    "SELECT * FROM t ORDER BY id DESC",
    "SELECT * FROM t ORDER BY rowid, a",
    "SELECT id, a FROM t WHERE id > 100 ORDER BY id",
    "SELECT id, a FROM t WHERE id > 100 AND id <= 700 ORDER BY id DESC",
    "SELECT id, b FROM t WHERE id < -10.5 ORDER BY id DESC",
    "SELECT * FROM t ORDER BY a",
    "SELECT id, a FROM t ORDER BY a, id",
    "SELECT id, a FROM t WHERE a > 3 ORDER BY a",
    "SELECT id, a FROM t WHERE a >= 'b' ORDER BY a",
    "SELECT id, a FROM t WHERE a < 2 ORDER BY a",
    "SELECT id, a FROM t WHERE a BETWEEN 1 AND 5 ORDER BY a",
    "SELECT id, a FROM t WHERE a = 1 ORDER BY a",
    "SELECT id, a FROM t WHERE a IN (1, 'apple', 3.0, NULL, x'01') ORDER BY a",
    "SELECT id, b, c FROM t ORDER BY b, c",
    "SELECT id, b, c FROM t ORDER BY b",
    "SELECT id, b, c FROM t WHERE b = 3 ORDER BY c",
    "SELECT id, b, c FROM t WHERE b = 3 ORDER BY b, c",
    "SELECT id, c FROM t WHERE b = 4 AND c = 'apple' ORDER BY id",
    "SELECT id, b, c FROM t WHERE b IN (1, 3, 5) ORDER BY b, c",
    "SELECT id, b, c FROM t WHERE b > 5 ORDER BY b",
];

const SORTED: &[&str] = &[
    "SELECT d FROM t ORDER BY d",
    "SELECT d FROM t ORDER BY d DESC",
    "SELECT d FROM t WHERE b = 3 ORDER BY d DESC",
    "SELECT id, n FROM t ORDER BY n",
    "SELECT id, n FROM t ORDER BY n, id",
    // tn's keys are NOCASE, as the column: no BINARY order from it.
    "SELECT id, n FROM t ORDER BY n COLLATE BINARY",
    "SELECT id, a FROM t ORDER BY a COLLATE NOCASE, id",
    "SELECT id, a FROM t ORDER BY a + 0, id",
    "SELECT id, c FROM t ORDER BY c, id",
    "SELECT id, b FROM t ORDER BY b NULLS LAST, id",
    "SELECT DISTINCT b FROM t ORDER BY b",
    "SELECT b, count(*) FROM t GROUP BY b ORDER BY b",
    "SELECT id, b FROM t WHERE b > 2 ORDER BY id",
    "SELECT id, n FROM t WHERE id > 0 AND a IS NOT NULL ORDER BY a",
    "SELECT id, a FROM t ORDER BY a NULLS LAST, id",
    "SELECT id, a FROM t ORDER BY a DESC NULLS FIRST, id",
    "SELECT a.id FROM t AS a, t AS b WHERE a.id = b.id ORDER BY a.id",
];

/// min()/max() read one row from an end of the scan (checked by
/// `plans_use_the_scan_order`: a LIMIT the query does not have).
const MIN_MAX: &[&str] = &[
    "SELECT min(id), a FROM t",
    "SELECT max(id), a, n FROM t",
    "SELECT max(rowid) FROM t",
    "SELECT min(a), id FROM t",
    "SELECT min(b), id, c FROM t",
    "SELECT max(id), a FROM t WHERE id < 100",
    "SELECT min(id), a FROM t WHERE id >= -7",
    "SELECT min(a), id FROM t WHERE a > 2",
    "SELECT min(a), id FROM t WHERE a >= 1 AND a <= 1",
    "SELECT min(a), id FROM t WHERE a IN ('b', 3.0, x'0101')",
    "SELECT min(b), id, c FROM t WHERE b = 4",
];

/// Aggregates that still read every row.
const FULL_AGG: &[&str] = &[
    "SELECT min(n COLLATE BINARY) FROM t",
    "SELECT min(n) FROM t",
    "SELECT max(a), count(*) FROM t",
    "SELECT max(a) FROM t",
    "SELECT min(c) FROM t",
    "SELECT min(a) FROM t WHERE b = 3",
    "SELECT min(DISTINCT a) FROM t",
    "SELECT max(id) FROM t WHERE b = 3",
    "SELECT min(a) FROM t WHERE a > 2 AND b = 1",
    "SELECT min(a) FROM t WHERE a <> 2",
];

const LIMITS: &[&str] = &[
    "",
    " LIMIT 7",
    " LIMIT 7 OFFSET 13",
    " LIMIT 0",
    " LIMIT -1 OFFSET 5",
    " LIMIT 1000 OFFSET 390",
    " LIMIT 3 OFFSET 100000",
    " LIMIT 5, 9",
];

fn ours_rows(s: &mut Session, sql: &str) -> Result<Vec<Vec<Value>>, String> {
    match s.execute(sql, &Params::None).map_err(|e| e.to_string())? {
        Outcome::Rows { rows, .. } => Ok(rows),
        o => Err(format!("not rows: {o:?}")),
    }
}

/// Rows as exact, class-aware strings (REAL by bits).
fn render(rows: &[Vec<Value>]) -> Vec<String> {
    rows.iter().map(|row| values_common::row_key(row)).collect()
}

fn engines() -> Vec<(&'static str, Engine)> {
    let db = asadb_txn::Db::memory(asadb_txn::Options::default()).expect("memory db");
    vec![("memory", Engine::memory()), ("btree", Engine::with_db(db))]
}

fn load(engine: &Engine) -> (Session, rusqlite::Connection) {
    let mut ours = engine.session();
    let sqlite = rusqlite::Connection::open_in_memory().expect("sqlite");
    ours.execute("BEGIN", &Params::None).expect("begin");
    for s in setup_sql() {
        ours.execute(&s, &Params::None).unwrap_or_else(|e| panic!("{s}: {e}"));
        sqlite.execute_batch(&s).expect("sqlite setup");
    }
    ours.execute("COMMIT", &Params::None).expect("commit");
    (ours, sqlite)
}

fn explain(s: &mut Session, sql: &str) -> Vec<String> {
    ours_rows(s, &format!("EXPLAIN {sql}"))
        .expect("explain")
        .into_iter()
        .map(|r| match r.first() {
            Some(Value::Text(t)) => t.to_str_lossy().into_owned(),
            other => panic!("explain row {other:?}"),
        })
        .collect()
}

#[test]
fn ordered_queries_match_sqlite_on_both_stores() {
    let mut diffs = Vec::new();
    let mut checked = 0;
    for (name, e) in engines() {
        let (mut ours, sqlite) = load(&e);
        for q in SCAN_ORDERED.iter().chain(SORTED).chain(MIN_MAX).chain(FULL_AGG) {
            for l in LIMITS {
                let sql = format!("{q}{l}");
                let a = ours_rows(&mut ours, &sql).map(|r| render(&r));
                let b = values_common::sqlite_query(&sqlite, &sql).map(|(_, r)| render(&r));
                if a != b {
                    diffs.push(format!("[{name}] {sql}\n  ours:   {a:?}\n  sqlite: {b:?}"));
                }
                checked += 1;
            }
        }
    }
    for d in &diffs {
        println!("{d}");
    }
    assert!(checked > 200);
    assert!(diffs.is_empty(), "{} of {checked} queries differ from SQLite", diffs.len());
}

/// The first list really runs without a sort, the second really sorts, so
/// the comparison above covers both paths.
#[test]
fn plans_use_the_scan_order() {
    for (name, e) in engines() {
        let (mut ours, _) = load(&e);
        for q in SCAN_ORDERED {
            let plan = explain(&mut ours, q);
            assert!(!plan.iter().any(|l| l.contains("SORT")), "[{name}] {q}: {plan:?}");
        }
        for q in SORTED {
            let plan = explain(&mut ours, q);
            assert!(plan.iter().any(|l| l.contains("SORT")), "[{name}] {q}: {plan:?}");
        }
        for q in MIN_MAX {
            let plan = explain(&mut ours, q);
            assert!(plan.iter().any(|l| l.trim() == "LIMIT"), "[{name}] {q}: {plan:?}");
        }
        for q in FULL_AGG {
            let plan = explain(&mut ours, q);
            assert!(!plan.iter().any(|l| l.trim() == "LIMIT"), "[{name}] {q}: {plan:?}");
        }
    }
}

/// `/api/query`-style paging of a 100k-row table on the B+tree store.
#[test]
fn paging_100k_rows_by_id_returns_each_row_once_in_order() {
    const ROWS: i64 = 100_000;
    const PAGE: i64 = 500;
    let db = asadb_txn::Db::memory(asadb_txn::Options::default()).expect("memory db");
    let engine = Engine::with_db(db);
    let mut s = engine.session();
    s.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, v REAL)", &Params::None)
        .expect("create");
    s.execute("BEGIN", &Params::None).expect("begin");
    // Inserted in a scrambled order, so rowid order is not insertion order.
    for chunk in 0..ROWS / 100 {
        let vals: Vec<String> = (0..100)
            .map(|k| {
                let i = (chunk * 100 + k) * 7_919 % ROWS + 1;
                format!("({i}, 'name-{i}', {}.5)", i % 1000)
            })
            .collect();
        s.execute(&format!("INSERT INTO t VALUES {}", vals.join(",")), &Params::None)
            .expect("insert");
    }
    s.execute("COMMIT", &Params::None).expect("commit");

    let probe = format!("SELECT * FROM t ORDER BY id LIMIT {PAGE} OFFSET 1000");
    let plan = explain(&mut s, &probe);
    assert_eq!(plan, ["PROJECT 3 columns", "  LIMIT", "    SCAN t"], "{plan:?}");

    let mut expect = 1;
    let mut offset = 0;
    loop {
        let sql = format!("SELECT * FROM t ORDER BY id LIMIT {PAGE} OFFSET {offset}");
        let rows = ours_rows(&mut s, &sql).expect("page");
        if rows.is_empty() {
            break;
        }
        assert!(rows.len() as i64 <= PAGE);
        for r in &rows {
            assert_eq!(r[0], Value::Integer(expect), "offset {offset}");
            assert_eq!(r[1], Value::Text(format!("name-{expect}").into()));
            expect += 1;
        }
        offset += rows.len();
    }
    assert_eq!(expect, ROWS + 1, "rows read back");
}
