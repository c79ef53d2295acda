//! Differential test against SQLite (rusqlite, bundled): the same
//! generated data in both engines, then a list of queries — and a set of
//! randomly generated WHERE clauses — run on both; results must be equal.
//!
//! Rows are compared as sorted lists when a query has no ORDER BY (SQL
//! leaves the order open), in order otherwise; values are compared with
//! their storage class (REALs by bits).

mod values_common;

use values_common::{Lcg, row_key};

use asadb_sql::Value;
use asadb_sql::session::{Engine, Outcome, Params, Session};

fn setup_sql() -> Vec<String> {
    let mut g = Lcg(42);
    let mut out = vec![
        "CREATE TABLE t1(a INTEGER PRIMARY KEY, b INTEGER, c TEXT, d REAL, e)".to_string(),
        "CREATE TABLE t2(x INTEGER, y TEXT, z NUMERIC)".to_string(),
        "CREATE INDEX t1b ON t1(b)".to_string(),
        "CREATE INDEX t1cd ON t1(c, d)".to_string(),
        "CREATE UNIQUE INDEX t2x ON t2(x)".to_string(),
    ];
    let words = ["apple", "Banana", "cherry", "date", "", "fig", "grape", "10", "2.5"];
    for i in 1..=300 {
        let b = if g.below(10) == 0 {
            "NULL".to_string()
        } else {
            (g.below(50) as i64 - 10).to_string()
        };
        let c = if g.below(12) == 0 {
            "NULL".to_string()
        } else {
            format!("'{}'", words[g.below(words.len() as u64) as usize])
        };
        let d = if g.below(8) == 0 {
            "NULL".to_string()
        } else {
            format!("{}.{}", g.below(100), g.below(100))
        };
        let e = match g.below(5) {
            0 => "NULL".to_string(),
            1 => g.below(20).to_string(),
            2 => format!("'{}'", g.below(20)),
            3 => format!("{}.5", g.below(20)),
            _ => format!("'w{}'", g.below(5)),
        };
        out.push(format!("INSERT INTO t1 VALUES ({i}, {b}, {c}, {d}, {e})"));
    }
    for i in 0..120 {
        let z = match g.below(3) {
            0 => format!("'{}'", g.below(30)),
            1 => g.below(30).to_string(),
            _ => "NULL".to_string(),
        };
        out.push(format!("INSERT INTO t2 VALUES ({}, 'y{}', {z})", i * 2 - 40, g.below(7)));
    }
    out
}

const QUERIES: &[&str] = &[
    "SELECT a, b, c, d, e FROM t1 ORDER BY a",
    "SELECT * FROM t1 WHERE b = 5",
    "SELECT a FROM t1 WHERE b > 10 AND b <= 20",
    "SELECT a FROM t1 WHERE b IN (1, 3, 5, NULL)",
    "SELECT a FROM t1 WHERE b NOT IN (1, 3, 5)",
    "SELECT a FROM t1 WHERE b NOT IN (1, NULL)",
    "SELECT a FROM t1 WHERE c = 'apple' AND d > 20",
    "SELECT a FROM t1 WHERE c >= 'b' AND c < 'd'",
    "SELECT a FROM t1 WHERE c LIKE 'b%' OR c GLOB '*e*'",
    "SELECT a FROM t1 WHERE e = 5",
    "SELECT a FROM t1 WHERE e = '5'",
    "SELECT a FROM t1 WHERE e > 10",
    "SELECT a FROM t1 WHERE c = 10",
    "SELECT a FROM t1 WHERE a BETWEEN 50 AND 60",
    "SELECT a FROM t1 WHERE a IN (3, 30, 300, 3000)",
    "SELECT a FROM t1 WHERE a > 295 OR a < 3",
    "SELECT b, count(*), sum(d), min(c), max(c), avg(b) FROM t1 GROUP BY b",
    "SELECT c, count(DISTINCT b), count(DISTINCT e) FROM t1 GROUP BY c HAVING count(*) > 5",
    "SELECT length(group_concat(DISTINCT e)) FROM t1",
    "SELECT count(*), count(b), count(c), total(d), sum(b) FROM t1",
    "SELECT typeof(e), count(*) FROM t1 GROUP BY typeof(e)",
    "SELECT DISTINCT c FROM t1",
    "SELECT DISTINCT b % 7 FROM t1 WHERE b IS NOT NULL",
    "SELECT a, b FROM t1 ORDER BY b DESC, a LIMIT 10 OFFSET 5",
    "SELECT c, d FROM t1 ORDER BY c, d DESC, a LIMIT 20",
    "SELECT t1.a, t2.y FROM t1 JOIN t2 ON t1.b = t2.x",
    "SELECT t1.a, t2.y FROM t1 LEFT JOIN t2 ON t1.b = t2.x WHERE t1.a < 40",
    "SELECT t1.a, t2.z FROM t1, t2 WHERE t1.e = t2.z",
    "SELECT t1.a, t2.x FROM t1, t2 WHERE t1.c = t2.z",
    "SELECT count(*) FROM t1 AS p, t1 AS q WHERE p.b = q.b AND p.a < q.a",
    "SELECT a FROM t1 WHERE b = (SELECT max(x) FROM t2 WHERE x < 10)",
    "SELECT a FROM t1 WHERE b IN (SELECT x FROM t2)",
    "SELECT a FROM t1 WHERE b NOT IN (SELECT z FROM t2)",
    "SELECT a FROM t1 WHERE EXISTS (SELECT 1 FROM t2 WHERE t2.x = t1.b * 2)",
    "SELECT a, (SELECT count(*) FROM t2 WHERE t2.x < t1.b) FROM t1 WHERE a < 30",
    "SELECT b FROM t1 UNION SELECT x FROM t2",
    "SELECT b FROM t1 UNION ALL SELECT x FROM t2",
    "SELECT b FROM t1 EXCEPT SELECT x FROM t2",
    "SELECT b FROM t1 INTERSECT SELECT x FROM t2 ORDER BY 1 DESC",
    "SELECT a, b * 2 + d, b / 3, b % 4, -b, c || '!', abs(b - 20) FROM t1",
    "SELECT a, CASE WHEN b > 20 THEN 'hi' WHEN b > 0 THEN 'mid' ELSE 'lo' END FROM t1",
    "SELECT a, coalesce(b, d, c), ifnull(c, 'none'), nullif(b, 5) FROM t1",
    "SELECT a, length(c), upper(c), substr(c, 2, 2), round(d, 1), typeof(d) FROM t1",
    "SELECT a, CAST(e AS INTEGER), CAST(d AS TEXT), CAST(c AS REAL) FROM t1",
    "SELECT a FROM t1 WHERE NOT (b > 10)",
    "SELECT a FROM t1 WHERE (b > 10) IS NOT 1",
    "SELECT max(a), min(d) FROM t1 WHERE c IS NULL",
    "SELECT z, count(*) FROM t2 GROUP BY z",
    "SELECT x FROM t2 WHERE z > 10",
    "SELECT x FROM t2 WHERE z = '5'",
    "SELECT y, sum(x) FROM t2 GROUP BY y ORDER BY 2 DESC",
    "SELECT sub.s FROM (SELECT b + 1 AS s FROM t1 WHERE b > 30) AS sub",
    "SELECT e, count(*) FROM t1 GROUP BY e",
    "SELECT a FROM t1 WHERE d IS NULL AND c IS NOT NULL",
    "SELECT count(*) FROM t1 WHERE c = ''",
    // count(*) alone counts without decoding past the first row (bare
    // columns over an empty input are NULL).
    "SELECT count(*) FROM t1",
    "SELECT count(*), count() FROM t2",
    "SELECT count(*), x FROM t2 WHERE x > 1000000",
    "SELECT count(*) FROM t1 WHERE a > 1000000",
    "SELECT count(*) FROM (SELECT b FROM t1 LIMIT 7 OFFSET 3)",
    "SELECT count(*) FROM t1 HAVING count(*) > 1000000",
    "SELECT count(*) + 1, count(*) * 2 FROM t1 AS p, t2 AS q",
    // Index nested loop joins: rowid and index lookups per left row, with
    // the comparison's affinity (text '5', reals like 12.0, NUMERIC z).
    "SELECT p.a, q.a FROM t1 AS p JOIN t1 AS q ON q.a = p.b",
    "SELECT p.a, q.a, p.e FROM t1 AS p JOIN t1 AS q ON q.a = p.e",
    "SELECT p.a, q.a FROM t1 AS p JOIN t1 AS q ON q.a = p.d",
    "SELECT count(*) FROM t1 AS p JOIN t1 AS q ON p.a = q.a + 1 WHERE p.a < 200",
    "SELECT p.a, q.a FROM t1 AS p, t1 AS q WHERE p.a = q.b + 1 AND q.a > 250",
    "SELECT p.a, x FROM t1 AS p JOIN t2 ON t2.x = p.b",
    "SELECT p.a, x, p.e FROM t1 AS p JOIN t2 ON t2.x = p.e",
    "SELECT t2.x, p.a FROM t2 JOIN t1 AS p ON p.c = t2.y",
    "SELECT t2.z, p.a FROM t2 JOIN t1 AS p ON p.b = t2.z",
    "SELECT t2.y, p.a FROM t2 JOIN t1 AS p ON p.c = t2.z || ''",
    "SELECT p.a, q.a FROM t1 AS p LEFT JOIN t1 AS q ON q.a = p.b + 100 AND q.b > 10",
    "SELECT p.a, t2.y FROM t1 AS p LEFT JOIN t2 ON t2.x = p.b WHERE p.a < 50",
    "SELECT p.a, t2.y FROM t1 AS p LEFT JOIN t2 ON t2.x = p.b WHERE t2.y IS NULL",
    "SELECT count(*), sum(q.b) FROM t1 AS p JOIN t2 ON t2.x = p.b JOIN t1 AS q ON q.a = t2.x + 40",
    "SELECT a, (SELECT count(*) FROM t2 JOIN t1 AS q ON q.a = t2.x WHERE t2.z = t1.b) FROM t1 \
     WHERE a < 60",
    "SELECT a FROM t1 WHERE EXISTS (SELECT 1 FROM t2 JOIN t1 AS q ON q.b = t2.x \
     WHERE q.a = t1.a + 1)",
    // IS [NOT] TRUE/FALSE, and IS [NOT] NULL followed by operators: SQLite
    // has only `x IS [NOT] y`, so `x IS NOT NULL >> 1` is `x IS NOT (NULL >> 1)`.
    "SELECT b, b IS TRUE, b IS NOT TRUE, b IS FALSE, b IS NOT FALSE FROM t1 WHERE a < 40",
    "SELECT a, b IS NOT NULL >> NULL, b IS NULL + 1, c IS NOT NULL COLLATE NOCASE, \
     b NOTNULL COLLATE NOCASE FROM t1 WHERE a < 40",
    "SELECT count(*) FROM t1 WHERE b IS NOT NULL = 1 AND c IS NULL = 0",
    // `x IN ()` is a constant: no row is read for a false one.
    "SELECT a FROM t1 WHERE b IN () OR a < 5",
    "SELECT a FROM t1 WHERE NULL NOT IN () AND a < 5",
    // Aggregates with ORDER BY in the call (SQLite 3.44).
    "SELECT group_concat(c ORDER BY c, a) FROM t1 WHERE a < 60",
    "SELECT b, group_concat(a, '/' ORDER BY a DESC) FROM t1 GROUP BY b",
    "SELECT json_group_array(d ORDER BY d NULLS LAST, a) FROM t1 WHERE a < 50",
    "SELECT b, string_agg(c, ',' ORDER BY c DESC NULLS FIRST, a) FILTER (WHERE a > 20) \
     FROM t1 GROUP BY b HAVING count(*) > 2",
    "SELECT max(a ORDER BY b), c FROM t1",
    "SELECT t2.x, (SELECT group_concat(q.a ORDER BY q.a) FROM t1 AS q WHERE q.b = t2.x) FROM t2",
    // EXCEPT / INTERSECT with an empty left side.
    "SELECT a FROM t1 WHERE a < 0 EXCEPT SELECT x FROM t2",
    "SELECT a FROM t1 WHERE a < 0 INTERSECT SELECT x FROM t2",
];

fn ours_rows(s: &mut Session, sql: &str) -> Result<Vec<Vec<Value>>, String> {
    match s.execute(sql, &Params::None).map_err(|e| e.to_string())? {
        Outcome::Rows { rows, .. } => Ok(rows),
        o => Err(format!("not rows: {o:?}")),
    }
}

fn sqlite_rows(c: &rusqlite::Connection, sql: &str) -> Result<Vec<Vec<Value>>, String> {
    values_common::sqlite_query(c, sql).map(|(_, rows)| rows)
}

fn compare(ours: &mut Session, sqlite: &rusqlite::Connection, sql: &str) -> Option<String> {
    let a = ours_rows(ours, sql);
    let b = sqlite_rows(sqlite, sql);
    let (a, b) = match (a, b) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(_), Err(_)) => return None,
        (a, b) => return Some(format!("{sql}\n  ours:   {a:?}\n  sqlite: {b:?}")),
    };
    let mut ka: Vec<String> = a.iter().map(|r| row_key(r)).collect();
    let mut kb: Vec<String> = b.iter().map(|r| row_key(r)).collect();
    if !sql.contains("ORDER BY") {
        ka.sort();
        kb.sort();
    }
    (ka != kb).then(|| format!("{sql}\n  ours:   {ka:?}\n  sqlite: {kb:?}"))
}

/// Our engine over the in-memory store and over B+trees in a page database.
fn ours_all() -> Vec<Engine> {
    let db = asadb_txn::Db::memory(asadb_txn::Options::default()).expect("memory db");
    vec![Engine::memory(), Engine::with_db(db)]
}

fn engines(engine: &Engine) -> (Session, rusqlite::Connection) {
    let mut ours = engine.session();
    let sqlite = rusqlite::Connection::open_in_memory().unwrap();
    ours.execute("BEGIN", &Params::None).unwrap();
    for s in setup_sql() {
        ours.execute(&s, &Params::None).unwrap_or_else(|e| panic!("{s}: {e}"));
        sqlite.execute_batch(&s).unwrap();
    }
    ours.execute("COMMIT", &Params::None).unwrap();
    (ours, sqlite)
}

#[test]
fn fixed_queries_match_sqlite() {
    let mut diffs: Vec<String> = Vec::new();
    for e in ours_all() {
        let (mut ours, sqlite) = engines(&e);
        diffs.extend(QUERIES.iter().filter_map(|q| compare(&mut ours, &sqlite, q)));
    }
    for d in &diffs {
        println!("{d}");
    }
    assert!(diffs.is_empty(), "{} of {} queries differ", diffs.len(), QUERIES.len());
}

/// A random predicate over t1's columns.
fn predicate(g: &mut Lcg, depth: u32) -> String {
    let cols = ["a", "b", "c", "d", "e"];
    let lits = ["5", "'5'", "10", "2.5", "'apple'", "NULL", "-3", "'b'", "0", "''"];
    if depth > 0 && g.below(3) == 0 {
        let op = ["AND", "OR"][g.below(2) as usize];
        return format!("({} {op} {})", predicate(g, depth - 1), predicate(g, depth - 1));
    }
    let c = cols[g.below(5) as usize];
    let l = lits[g.below(lits.len() as u64) as usize];
    match g.below(8) {
        0 => format!("{c} IS NULL"),
        1 => format!("{c} IN ({l}, {})", lits[g.below(lits.len() as u64) as usize]),
        2 => format!("{c} BETWEEN {l} AND {}", lits[g.below(lits.len() as u64) as usize]),
        3 => format!("NOT ({c} = {l})"),
        _ => {
            let op = ["=", "<>", "<", "<=", ">", ">="][g.below(6) as usize];
            format!("{c} {op} {l}")
        }
    }
}

#[test]
fn random_where_clauses_match_sqlite() {
    let mut diffs = Vec::new();
    for e in ours_all() {
        let (mut ours, sqlite) = engines(&e);
        let mut g = Lcg(7);
        for _ in 0..400 {
            let p = predicate(&mut g, 2);
            let sql = format!("SELECT a FROM t1 WHERE {p}");
            if let Some(d) = compare(&mut ours, &sqlite, &sql) {
                diffs.push(d);
            }
        }
    }
    for d in diffs.iter().take(10) {
        println!("{d}");
    }
    assert!(diffs.is_empty(), "{} random predicates differ", diffs.len());
}

/// Rowids chosen for rows that name none, in statements that also write
/// explicit rowids, replace rows, or skip rows: the same as SQLite's
/// (max + 1 at the time of each row).
#[test]
fn assigned_rowids_match_sqlite() {
    let script = [
        "CREATE TABLE r(id INTEGER PRIMARY KEY, v TEXT UNIQUE)",
        "CREATE TABLE p(v TEXT)",
        "INSERT INTO r(id, v) VALUES (NULL, 'a'), (100, 'b'), (NULL, 'c'), (50, 'd'), (NULL, 'e')",
        "INSERT INTO p(rowid, v) VALUES (7, 'x'), (NULL, 'y'), ('12', 'z')",
        "INSERT INTO p(oid, v) VALUES (7, 'taken')",
        "INSERT OR IGNORE INTO p(_rowid_, v) VALUES (7, 'ignored'), (3, 'three')",
        "INSERT OR REPLACE INTO p(ROWID, v) VALUES (8, 'replaced')",
        "INSERT INTO p(rowid, v) VALUES ('x', 'not an integer')",
        "INSERT INTO r(rowid, v) VALUES (500, 'through the alias')",
        "INSERT INTO p SELECT v FROM r",
        // REPLACE deletes the current max row (102 'e'), then a new row.
        "INSERT OR REPLACE INTO r(id, v) VALUES (NULL, 'e'), (NULL, 'f')",
        "INSERT OR IGNORE INTO r(id, v) VALUES (NULL, 'a'), (NULL, 'g')",
        "UPDATE r SET id = id + 1000 WHERE v = 'b'",
        "INSERT INTO r(v) SELECT v || '2' FROM r WHERE v IN ('a', 'b', 'c')",
        "DELETE FROM p WHERE rowid = (SELECT max(rowid) FROM p)",
        "INSERT INTO p(v) VALUES ('after delete')",
    ];
    for e in ours_all() {
        let mut ours = e.session();
        let sqlite = rusqlite::Connection::open_in_memory().unwrap();
        for s in script {
            let a = ours.execute(s, &Params::None).map(|_| ()).map_err(|e| e.to_string());
            let b = sqlite.execute_batch(s).map_err(|e| e.to_string());
            assert_eq!(a.is_ok(), b.is_ok(), "{s}: ours {a:?}, sqlite {b:?}");
        }
        for q in ["SELECT id, v FROM r ORDER BY id", "SELECT rowid, v FROM p ORDER BY rowid"] {
            assert_eq!(compare(&mut ours, &sqlite, q), None);
        }
    }
}
