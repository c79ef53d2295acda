//! Index-driven plans against SQLite (rusqlite, bundled) on both stores:
//! index-only (covering) scans, correlated `EXISTS` / `NOT EXISTS` / `IN`
//! probes and uncorrelated `IN (subquery)` sets, and CREATE INDEX (built
//! from sorted entries, spilling past the memory budget).
//!
//! Invariant pinned: a query answered from an index alone, or through a
//! probe per outer row, gives exactly SQLite's rows — storage classes
//! (`1` vs `1.0`, `-0.0` by bits), NULLs, text and blobs, duplicates —
//! and the plan shapes say which path was taken.

mod schema_common;
mod values_common;

use schema_common::{Opts, check_script_both_orders as check, check_script_with_budget, engines};
use values_common::row_key;

/// Rows of every storage class, equal keys of different classes, NULLs,
/// a signed zero, and a column added after the rows were written.
const SETUP: &[&str] = &[
    "CREATE TABLE t(id INTEGER PRIMARY KEY, a, b, c TEXT, d REAL)",
    "INSERT INTO t VALUES (1, 1, 'x', 'p', 1.5), (2, 1.0, 'y', 'q', -0.0), \
     (3, NULL, 'x', NULL, 0.0), (4, 'one', x'01', 'p', NULL), (5, x'00ff', 2, 'r', 2.0), \
     (6, 2, NULL, 'q', 3.25), (7, -0.0, 'z', 'p', -1.0), (8, 0, 'z', 'Q', 1e300), \
     (9, 9223372036854775807, 'w', 'p', 0.5), (10, -9223372036854775808, 'w', 'p', -2.5)",
    "CREATE INDEX ta ON t(a)",
    "CREATE INDEX tbc ON t(b, c)",
    "CREATE INDEX td ON t(d)",
    "ALTER TABLE t ADD COLUMN e DEFAULT 7",
    "CREATE INDEX te ON t(e, a)",
    "INSERT INTO t(id, a, b, c, d, e) VALUES (11, 1, 'x', 'p', 1.5, NULL), (12, 3, 'v', 'p', 4.0, 8)",
];

fn with_setup(queries: &[&str]) -> Vec<String> {
    SETUP.iter().chain(queries).map(|s| s.to_string()).collect()
}

#[test]
fn covering_scans_give_sqlite_rows() {
    let script = with_setup(&[
        "SELECT a, id FROM t WHERE a = 1",
        "SELECT a, typeof(a), id FROM t WHERE a >= 0 ORDER BY a, id",
        "SELECT a FROM t WHERE a > 0 AND a < 3",
        "SELECT count(*), min(id), max(id) FROM t WHERE a BETWEEN 0 AND 2",
        "SELECT id FROM t WHERE a IN (1, 2, 'one')",
        "SELECT a FROM t ORDER BY a, id",
        "SELECT min(a) FROM t",
        "SELECT min(a) FROM t WHERE a > 0",
        "SELECT b, c, id FROM t WHERE b = 'x'",
        "SELECT c FROM t WHERE b = 'x' AND c >= 'p' ORDER BY c",
        "SELECT b, count(*) FROM t WHERE b >= 'w' GROUP BY b",
        "SELECT d, typeof(d), printf('%g', d) FROM t WHERE d <= 0.0 ORDER BY d",
        "SELECT id, d FROM t WHERE d = 0",
        "SELECT d FROM t WHERE d > -1 ORDER BY d",
        "SELECT e, a, id FROM t WHERE e = 7 ORDER BY a, id",
        "SELECT e, a FROM t WHERE e >= 7",
        "SELECT count(*) FROM t WHERE e IS NULL",
        "SELECT a, (SELECT count(*) FROM t AS u WHERE u.a = t.a) FROM t WHERE a = 1",
        "SELECT x.id, y.id FROM t AS x JOIN t AS y ON y.a = x.a WHERE x.id < 4 ORDER BY 1, 2",
        "SELECT x.id, y.b FROM t AS x JOIN t AS y ON y.b = x.c ORDER BY 1, 2",
        "SELECT x.id FROM t AS x LEFT JOIN t AS y ON y.a = x.id ORDER BY 1",
        // Columns outside the index: the table is read.
        "SELECT a, b FROM t WHERE a = 1",
        "SELECT a FROM t WHERE a = 1 AND b = 'x'",
        "SELECT a, e FROM t WHERE a = 1",
        "SELECT b, group_concat(c) FROM t WHERE b = 'x' GROUP BY b",
        "UPDATE t SET a = a WHERE a = 1",
        "SELECT a, id FROM t WHERE a = 1",
        "DELETE FROM t WHERE a = 2",
        "SELECT a, id FROM t WHERE a >= 1 ORDER BY a, id",
    ]);
    let s: Vec<&str> = script.iter().map(String::as_str).collect();
    check(&s);
}

/// EXPLAIN names the index-only path, and only where every column read is
/// in the index.
#[test]
fn explain_shows_covering_only_when_covered() {
    for (_, e) in engines() {
        let (mut s, _) = values_common::loaded(&e, SETUP);
        let plan = |s: &mut asadb_sql::session::Session, q: &str| {
            let (_, rows) =
                values_common::ours_query(s, &format!("EXPLAIN QUERY PLAN {q}")).unwrap();
            rows.iter().map(|r| row_key(r)).collect::<Vec<_>>().join("\n")
        };
        for q in [
            "SELECT id FROM t WHERE a = 1",
            "SELECT count(*), min(id) FROM t WHERE a BETWEEN 0 AND 2",
            "SELECT c FROM t WHERE b = 'x'",
        ] {
            let p = plan(&mut s, q);
            assert!(p.contains("COVERING INDEX"), "{q}:\n{p}");
        }
        let p = plan(&mut s, "SELECT a FROM t WHERE id IN (SELECT a FROM t WHERE b = 'x')");
        assert!(p.contains("SEARCH t USING ROWID IN (subquery)"), "{p}");
        for q in ["SELECT b FROM t WHERE a = 1", "SELECT * FROM t WHERE a = 1"] {
            let p = plan(&mut s, q);
            assert!(p.contains("USING INDEX ta") && !p.contains("COVERING"), "{q}:\n{p}");
        }
    }
}

#[test]
fn correlated_and_uncorrelated_subqueries() {
    let script = with_setup(&[
        "CREATE TABLE o(id INTEGER PRIMARY KEY, tid, v)",
        "INSERT INTO o VALUES (1, 1, 10), (2, 1, NULL), (3, 3, 5), (4, NULL, 7), (5, 1.0, 1), \
         (6, '2', 2), (7, 12, 3), (8, 99, 4)",
        "CREATE INDEX otid ON o(tid)",
        "SELECT count(*) FROM t WHERE EXISTS (SELECT 1 FROM o WHERE o.tid = t.id)",
        "SELECT id FROM t WHERE NOT EXISTS (SELECT 1 FROM o WHERE o.tid = t.id) ORDER BY id",
        "SELECT id FROM t WHERE EXISTS (SELECT 1 FROM o WHERE o.tid = t.a) ORDER BY id",
        "SELECT id FROM t WHERE EXISTS (SELECT 1 FROM o WHERE o.tid = t.id AND o.v > 4)",
        "SELECT id FROM t WHERE id IN (SELECT tid FROM o) ORDER BY id",
        "SELECT id FROM t WHERE id NOT IN (SELECT tid FROM o) ORDER BY id",
        "SELECT id FROM t WHERE id NOT IN (SELECT tid FROM o WHERE tid IS NOT NULL) ORDER BY id",
        "SELECT id, a IN (SELECT tid FROM o) FROM t ORDER BY id",
        "SELECT id, a NOT IN (SELECT tid FROM o WHERE v > 1) FROM t ORDER BY id",
        "SELECT id FROM t WHERE a IN (SELECT tid FROM o WHERE v > 100) ORDER BY id",
        "SELECT id, NULL IN (SELECT tid FROM o WHERE v > 100) FROM t WHERE id < 3",
        "SELECT count(*), sum(a) FROM t WHERE id IN (SELECT tid FROM o WHERE v > 2)",
        "SELECT count(*) FROM o WHERE o.tid IN (SELECT t.id FROM t WHERE t.a = o.v)",
        "SELECT o.id FROM o WHERE o.tid IN (SELECT t.a FROM t WHERE t.id = o.id) ORDER BY 1",
        "SELECT o.id FROM o WHERE o.tid NOT IN (SELECT t.a FROM t WHERE t.b = 'x') ORDER BY 1",
        "SELECT id FROM t WHERE c IN (SELECT 'Q' UNION SELECT 'p') ORDER BY id",
        "SELECT id FROM t WHERE b IN (SELECT b FROM t WHERE id > 10) ORDER BY id",
        // A rowid IN an uncorrelated subquery drives the scan.
        "SELECT id FROM t WHERE id IN (SELECT v FROM o) ORDER BY id",
        "SELECT id FROM t WHERE id IN (SELECT '3' UNION SELECT 2.0 UNION SELECT NULL \
         UNION SELECT x'01' UNION SELECT 'abc' UNION SELECT 4.5 UNION SELECT ' 5')",
        "SELECT id FROM t WHERE id NOT IN (SELECT '3' UNION SELECT 2.0) ORDER BY id",
        "SELECT id FROM t WHERE id IN (SELECT c FROM t) OR id = 1",
        "SELECT t.id, o.id FROM t JOIN o ON o.v = t.a WHERE t.id IN (SELECT tid FROM o WHERE v < 8) \
         ORDER BY 1, 2",
        "SELECT o.id FROM o JOIN t ON t.id = o.v WHERE t.id IN (SELECT tid FROM o) ORDER BY 1",
        "SELECT id FROM t WHERE id IN (SELECT tid FROM o) AND a IS NOT NULL",
        "SELECT count(*) FROM t WHERE id IN (SELECT id FROM t WHERE b = 'x') \
         AND id IN (SELECT tid FROM o)",
        "SELECT min(id), max(id) FROM t WHERE id IN (SELECT tid FROM o)",
        "SELECT id, (SELECT count(*) FROM o WHERE o.id IN (SELECT id FROM t WHERE a = 1)) FROM t \
         WHERE id < 3",
        "SELECT id FROM t AS x WHERE EXISTS (SELECT 1 FROM o WHERE o.id IN (SELECT tid FROM o) \
         AND o.v = x.id)",
        "CREATE TABLE u(x)",
        "INSERT INTO u VALUES ('a'), ('b'), ('c'), ('d')",
        "SELECT rowid, x FROM u WHERE rowid IN (SELECT tid FROM o) ORDER BY 1",
        "SELECT x FROM u WHERE _rowid_ IN (SELECT CAST(tid AS TEXT) FROM o)",
    ]);
    let s: Vec<&str> = script.iter().map(String::as_str).collect();
    check(&s);
}

/// CREATE INDEX and REINDEX on a table of many pages, with a memory
/// budget so small that the entries' sort spills many runs: every kind of
/// index (DESC, NOCASE, expression, partial, UNIQUE with and without a
/// duplicate) answers as SQLite's does and passes the integrity check.
#[test]
fn create_index_from_sorted_entries_within_the_budget() {
    let script = [
        "CREATE TABLE big(id INTEGER PRIMARY KEY, k, s TEXT, r REAL)",
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 20000) \
         INSERT INTO big SELECT x, (x * 7919) % 1000, \
         CASE x % 3 WHEN 0 THEN 'Name' || (x % 500) ELSE 'name' || (x % 700) END, \
         CASE WHEN x % 11 = 0 THEN NULL ELSE (x % 37) * 1.0 END FROM c",
        "INSERT INTO big VALUES (20001, 5.0, 'x', -0.0), (20002, 5, 'X', 0.0)",
        "CREATE INDEX bk ON big(k)",
        "CREATE INDEX bks ON big(k DESC, s)",
        "CREATE INDEX bs ON big(s COLLATE NOCASE)",
        "CREATE INDEX be ON big(k + r)",
        "CREATE INDEX bp ON big(r) WHERE r > 30",
        "CREATE UNIQUE INDEX bu ON big(s, k)",
        "CREATE UNIQUE INDEX bid ON big(id, r)",
        "PRAGMA integrity_check",
        "REINDEX",
        "PRAGMA integrity_check",
        "SELECT count(*), sum(id) FROM big WHERE k = 5",
        "SELECT id, typeof(k) FROM big WHERE k = 5 ORDER BY id LIMIT 5",
        "SELECT k, s, id FROM big WHERE k BETWEEN 10 AND 12 ORDER BY k, id",
        "SELECT count(*) FROM big WHERE s = 'NAME7' COLLATE NOCASE",
        "SELECT count(*) FROM big WHERE k + r = 40",
        "SELECT count(*), min(r), max(r) FROM big WHERE r > 30",
        "SELECT count(*) FROM big WHERE s = 'name1' AND k = 1",
        "SELECT id, r FROM big WHERE r = 0 ORDER BY id LIMIT 4",
        "CREATE TABLE dup(a, b)",
        "INSERT INTO dup VALUES (1, 'x'), (2, 'y'), (NULL, 'z'), (NULL, 'z'), (1.0, 'w')",
        "CREATE UNIQUE INDEX da ON dup(a)",
        "CREATE UNIQUE INDEX db ON dup(b)",
        "CREATE UNIQUE INDEX dab ON dup(a, b)",
        "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'dup' ORDER BY name",
        "PRAGMA integrity_check",
    ];
    check_script_with_budget(&script, Opts::default(), Some(64 << 10));
}
