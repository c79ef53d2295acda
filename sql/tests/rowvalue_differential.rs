//! Row values, correlated FROM subqueries and CTE materialization hints
//! against SQLite (rusqlite, bundled), on both of our stores.
//!
//! Invariants pinned: for row-value comparisons (`=`, `<>`, `<`, `<=`,
//! `>`, `>=`, `IS`, `IS NOT`, BETWEEN), `IN (row list)` and
//! `IN (SELECT x, y …)`, row subqueries, NULLs in every position, mixed
//! affinities and collations, the rows (with storage classes) equal
//! SQLite's; every misuse SQLite refuses is refused with its message.
//! Derived tables inside a subquery expression may read the enclosing
//! query's row; `AS [NOT] MATERIALIZED` changes no result.

mod values_common;

use values_common::row_key;

use asadb_sql::session::Session;

const SETUP: &[&str] = &[
    "CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER, b TEXT, c REAL)",
    "INSERT INTO t VALUES (1, 1, 'x', 1.0), (2, 1, 'y', 2.0), (3, 2, 'x', NULL), (4, NULL, 'x', 4.0), \
     (5, 2, NULL, 5.0), (6, 3, 'Y', 6.0), (7, 1, 'x', 7.0)",
    "CREATE INDEX t_ab ON t(a, b)",
    "CREATE TABLE s(x INTEGER, y TEXT)",
    "INSERT INTO s VALUES (1, 'x'), (2, NULL), (NULL, 'y'), (3, 'y'), (1, 'y')",
    "CREATE TABLE e(x, y)",
    "CREATE TABLE m(p TEXT, q NUMERIC)",
    "INSERT INTO m VALUES ('1', '2'), ('01', 2.0), ('a', 'b')",
    "CREATE TABLE w(id INTEGER PRIMARY KEY, g INTEGER)",
    "INSERT INTO w VALUES (1, 1), (2, 1), (3, 2), (4, 3)",
];

const QUERIES: &[&str] = &[
    // Constant comparisons with NULLs in every position.
    "SELECT (1, 2) = (1, 2), (1, 2) = (1, 3), (1, NULL) = (1, 2), (NULL, 2) = (1, 3), (NULL, 2) = (1, 2)",
    "SELECT (1, 2) <> (1, 2), (1, NULL) <> (2, NULL), (1, NULL) <> (1, NULL), (NULL, 1) <> (NULL, 2)",
    "SELECT (1, 2) < (1, 3), (1, 2) < (1, NULL), (1, 2) < (2, NULL), (NULL, 1) < (2, 3), (2, 1) < (1, NULL)",
    "SELECT (1, 2) <= (1, 2), (1, 2) <= (1, NULL), (1, 3) <= (1, 2), (0, NULL) <= (1, 0)",
    "SELECT (1, 2) > (1, 1), (1, 2) > (1, NULL), (2, NULL) > (1, 5), (1, 2, 3) > (1, 2, 2)",
    "SELECT (1, 2) >= (1, 2), (1, 2, 3) >= (1, 2, NULL), (1, 3, 0) >= (1, 2, NULL)",
    "SELECT (1, NULL) IS (1, NULL), (1, 2) IS (1, NULL), (1, 2) IS NOT (1, NULL), (NULL, 2) IS NOT (NULL, 2)",
    "SELECT (1, 2) BETWEEN (0, 1) AND (3, 4), (1, 2) BETWEEN (1, 1) AND (1, NULL), (1, 2) NOT BETWEEN (1, 3) AND (2, 0)",
    "SELECT ((1, 2)) = (1, 2), (1, 'a') = (1.0, 'A' COLLATE nocase), ('a', 1) < ('B' COLLATE nocase, 0)",
    "SELECT (1, 2) IN ((1, 2), (3, 4)), (1, 2) IN ((3, 4)), (1, 2) NOT IN ((1, 2), (3, 4)), (1, NULL) IN ((1, 2)), (1, NULL) IN ((2, 2))",
    "SELECT (1, 2) IN (VALUES (1, 2), (3, 4)), (2, NULL) IN (VALUES (1, 2), (2, NULL))",
    // Row subqueries.
    "SELECT (1, 2) = (SELECT 1, 2), (1, 2) < (SELECT 1, 3), (1, 2) > (SELECT 1, 3), (1, 2) = (SELECT 1, 2 WHERE 0)",
    "SELECT (SELECT 1, 2) = (SELECT 1, 2), (SELECT 1, 2) IN (SELECT 1, 2), (SELECT x, y FROM s ORDER BY x DESC LIMIT 1) = (3, 'y')",
    "SELECT (1, 2) IN (SELECT 1, NULL), (1, 2) NOT IN (SELECT 1, NULL), (1, 2) IN (SELECT 3, NULL), (1, 2) NOT IN (SELECT 3, NULL)",
    "SELECT (NULL, 2) IN (SELECT 1, 3), (NULL, 2) IN (SELECT 1, 2), (1, 2) IN (SELECT 1, 2 UNION SELECT 3, 4)",
    "SELECT (1, 2) IN (SELECT x, y FROM e), (1, 2) NOT IN (SELECT x, y FROM e)",
    // Over tables.
    "SELECT id FROM t WHERE (a, b) = (1, 'x') ORDER BY id",
    "SELECT id FROM t WHERE (a, b) <> (1, 'x') ORDER BY id",
    "SELECT id FROM t WHERE (a, b) > (1, 'x') ORDER BY id",
    "SELECT id FROM t WHERE (a, b) >= (1, 'y') ORDER BY id",
    "SELECT id FROM t WHERE (a, b) < (2, 'x') ORDER BY id",
    "SELECT id FROM t WHERE (a, b) <= (2, NULL) ORDER BY id",
    "SELECT id FROM t WHERE (a, b, c) > (1, 'x', 1.0) ORDER BY id",
    "SELECT id FROM t WHERE (a, b) IS (2, NULL) ORDER BY id",
    "SELECT id FROM t WHERE (a, b) IS NOT (1, 'x') ORDER BY id",
    "SELECT id FROM t WHERE (a, b) BETWEEN (1, 'y') AND (2, 'x') ORDER BY id",
    "SELECT id FROM t WHERE (a, b) IN (SELECT x, y FROM s) ORDER BY id",
    "SELECT id FROM t WHERE (a, b) NOT IN (SELECT x, y FROM s) ORDER BY id",
    "SELECT id, (a, b) IN (SELECT x, y FROM s) FROM t ORDER BY id",
    "SELECT id, (a, b) NOT IN (SELECT x, y FROM s) FROM t ORDER BY id",
    "SELECT id FROM t WHERE (a, b) IN ((1, 'y'), (2, 'x'), (NULL, 'x')) ORDER BY id",
    "SELECT id FROM t WHERE (b, a) = (SELECT y, x FROM s WHERE x = 3) ORDER BY id",
    "SELECT id, (a, b) = (SELECT x, y FROM s WHERE s.x = t.a ORDER BY y LIMIT 1) FROM t ORDER BY id",
    "SELECT id, (SELECT count(*) FROM s WHERE (s.x, s.y) = (t.a, t.b)) FROM t ORDER BY id",
    "SELECT id, (SELECT count(*) FROM s WHERE (s.x, s.y) < (t.a, t.b)) FROM t ORDER BY id",
    "SELECT id FROM t WHERE (a, b) IN (SELECT x, y FROM s WHERE s.x = t.a) ORDER BY id",
    "SELECT id FROM t WHERE (a, b COLLATE nocase) IN (SELECT x, y FROM s) ORDER BY id",
    "SELECT id FROM t WHERE (a, b) = (1, 'X' COLLATE nocase) ORDER BY id",
    // Affinity per element.
    "SELECT (p, q) = (1, 2), (p, q) IN (SELECT 1, 2), (p, q) > ('0', 1) FROM m",
    "SELECT rowid FROM m WHERE (p, q) = ('01', 2) ORDER BY rowid",
    "SELECT rowid FROM m WHERE (q, p) IN (SELECT 2, '1') ORDER BY rowid",
    // A row value as a CASE operand: row equality per WHEN.
    "SELECT CASE (1, 2) WHEN (1, 3) THEN 'a' WHEN (1, 2) THEN 'b' ELSE 'c' END, CASE (1, NULL) WHEN (1, NULL) THEN 'a' ELSE 'n' END",
    "SELECT CASE (SELECT 1, 2) WHEN (1, 2) THEN 'y' END, CASE (1, '1') WHEN (1, 1) THEN 'y' ELSE 'n' END, CASE (1, 2) WHEN (SELECT 1, 2) THEN 'y' END",
    "SELECT id, CASE (a, b) WHEN (1, 'x') THEN 'one-x' WHEN (2, 'X' COLLATE nocase) THEN 'two-x' WHEN (SELECT x, y FROM s WHERE x = t.a AND y IS t.b) THEN 's' END FROM t ORDER BY id",
    "SELECT id, CASE (p, q) WHEN ('1', 2) THEN 'a' WHEN (1, 2.0) THEN 'b' END FROM (SELECT rowid AS id, p, q FROM m) ORDER BY id",
    // Correlated FROM subqueries inside subquery expressions.
    "SELECT id, (SELECT count(*) FROM (SELECT * FROM w WHERE w.g = t.a)) FROM t ORDER BY id",
    "SELECT id, (SELECT max(z) FROM (SELECT w.id + t.id AS z FROM w)) FROM t ORDER BY id",
    "SELECT id FROM t WHERE EXISTS (SELECT 1 FROM (SELECT g FROM w WHERE g = t.a) WHERE g > 1) ORDER BY id",
    "SELECT id, (SELECT count(*) FROM (SELECT * FROM (SELECT g FROM w WHERE w.g <= t.a))) FROM t ORDER BY id",
    "SELECT id, (SELECT sum(g) FROM (SELECT g FROM w WHERE g = t.a) JOIN w AS w2 USING (g)) FROM t ORDER BY id",
    "SELECT id, (SELECT group_concat(v) FROM (SELECT t.b || w.id AS v FROM w ORDER BY w.id)) FROM t ORDER BY id",
    // CTE hints: same answers.
    "WITH x AS MATERIALIZED (SELECT a FROM t WHERE a > 1) SELECT count(*), sum(a) FROM x",
    "WITH x AS NOT MATERIALIZED (SELECT a FROM t WHERE a > 1) SELECT count(*), sum(a) FROM x",
    "WITH x(k) AS MATERIALIZED (SELECT a FROM t), y AS NOT MATERIALIZED (SELECT x FROM s) SELECT k, x FROM x JOIN y ON k = x ORDER BY 1, 2",
    "WITH RECURSIVE r(n) AS MATERIALIZED (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT sum(n) FROM r",
];

/// Statements SQLite refuses, with its message (we must say the same).
const REFUSED: &[(&str, &str)] = &[
    ("SELECT (1, 2)", "row value misused"),
    ("SELECT (1, 2) = (1, 2, 3)", "row value misused"),
    ("SELECT (1, 2) = 1", "row value misused"),
    ("SELECT 1 = (SELECT 1, 2)", "row value misused"),
    ("SELECT (SELECT 1, 2) = 1", "row value misused"),
    ("SELECT (1, 2) = (SELECT 1, 2, 3)", "row value misused"),
    ("SELECT (1, (2, 3)) = (1, (2, 3))", "row value misused"),
    ("SELECT 1 WHERE (1, 2)", "row value misused"),
    ("SELECT (1, 2) + 1", "row value misused"),
    ("SELECT (1, 2) IS NULL", "row value misused"),
    ("SELECT count((1, 2))", "row value misused"),
    ("SELECT (1, 2) BETWEEN 1 AND 2", "row value misused"),
    ("SELECT 1 IN ((1, 2))", "row value misused"),
    ("SELECT CASE (1, 2) WHEN 1 THEN 'y' END", "row value misused"),
    ("SELECT CASE 1 WHEN (1, 2) THEN 'y' END", "row value misused"),
    ("SELECT CASE (1, 2) WHEN (1, 2, 3) THEN 'y' END", "row value misused"),
    ("SELECT CASE (1, 2) WHEN (1, 2) THEN (1, 2) END", "row value misused"),
    ("SELECT (1, 2) IN ((1, 2), 3)", "IN(...) element has 1 term - expected 2"),
    ("SELECT (1, 2) IN ((1, 2, 3))", "IN(...) element has 3 terms - expected 2"),
    ("SELECT (1, 2) IN (SELECT 1)", "sub-select returns 1 columns - expected 2"),
    ("SELECT 1 IN (SELECT 1, 2)", "sub-select returns 2 columns - expected 1"),
    ("SELECT (SELECT 1, 2)", "sub-select returns 2 columns - expected 1"),
    (
        "SELECT id FROM t WHERE (a, b) IN (SELECT x FROM s)",
        "sub-select returns 1 columns - expected 2",
    ),
    // A derived table cannot read its sibling FROM items.
    ("SELECT * FROM t, (SELECT * FROM w WHERE w.g = t.a)", "no such column: t.a"),
];

fn compare(s: &mut Session, c: &rusqlite::Connection, sql: &str) -> Option<String> {
    let (a, b) = match (values_common::ours_query(s, sql), values_common::sqlite_query(c, sql)) {
        (Ok(a), Ok(b)) => (a, b),
        (a, b) => return Some(format!("{sql}\n  ours:   {a:?}\n  sqlite: {b:?}")),
    };
    let ka: Vec<String> = a.1.iter().map(|r| row_key(r)).collect();
    let kb: Vec<String> = b.1.iter().map(|r| row_key(r)).collect();
    (a.0 != b.0 || ka != kb)
        .then(|| format!("{sql}\n  ours:   {:?} {ka:?}\n  sqlite: {:?} {kb:?}", a.0, b.0))
}

#[test]
fn row_value_queries_match_sqlite() {
    let mut diffs = Vec::new();
    for e in values_common::both_stores() {
        let (mut s, c) = values_common::loaded(&e, SETUP);
        diffs.extend(QUERIES.iter().filter_map(|q| compare(&mut s, &c, q)));
    }
    for d in &diffs {
        println!("{d}");
    }
    assert!(diffs.is_empty(), "{} queries differ from SQLite", diffs.len());
}

#[test]
fn row_value_misuse_is_refused_like_sqlite() {
    let mut bad = Vec::new();
    for e in values_common::both_stores() {
        let (mut s, c) = values_common::loaded(&e, SETUP);
        for (q, msg) in REFUSED {
            match values_common::sqlite_query(&c, q) {
                Ok(_) => bad.push(format!("SQLite accepts: {q}")),
                Err(e) if !e.contains(msg) => bad.push(format!("SQLite says {e:?} to {q}")),
                Err(_) => {}
            }
            match values_common::ours_query(&mut s, q) {
                Ok(r) => bad.push(format!("we accept: {q} -> {r:?}")),
                Err(e) if !e.contains(msg) => bad.push(format!("we say {e:?} to {q}")),
                Err(_) => {}
            }
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

/// An equality on a row value is plain conjuncts: it can use an index.
#[test]
fn row_equality_uses_an_index() {
    let e = asadb_sql::session::Engine::memory();
    let (mut s, _) = values_common::loaded(&e, SETUP);
    let (_, rows) = values_common::ours_query(
        &mut s,
        "EXPLAIN QUERY PLAN SELECT id FROM t WHERE (a, b) = (1, 'x')",
    )
    .unwrap();
    let plan = rows.iter().map(|r| row_key(r)).collect::<Vec<_>>().join("\n");
    assert!(plan.contains("USING COVERING INDEX t_ab (1 prefix)"), "{plan}");
}
