//! `SELECT count(*) FROM t`, which AsaDB answers from page cell counts
//! (`Node::Count`), against SQLite (rusqlite, bundled) on both stores:
//! empty tables, the transaction's own uncommitted writes, ROLLBACK,
//! WITHOUT ROWID tables, tables over many pages, and the shapes that must
//! keep the ordinary aggregate (WHERE, GROUP BY, FILTER, DISTINCT,
//! `count(*) + 1`, bare columns, LIMIT 0).
//!
//! Invariant pinned: after each statement, AsaDB and SQLite agree on every
//! row (storage classes included) and on error vs success.

mod schema_common;
mod values_common;

use asadb_sql::session::Session;
use schema_common::{Opts, check_script, engines};

fn check(script: &[&str]) {
    check_script(script, Opts { sorted: false, messages: true });
}

const FILL: &str = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 50000) \
     INSERT INTO big SELECT x, 'name' || x, x % 7 FROM c";

#[test]
fn count_empty_and_small() {
    check(&[
        "CREATE TABLE t(a INTEGER PRIMARY KEY, b, c)",
        "SELECT count(*) FROM t",
        "SELECT count() FROM t",
        "SELECT count(*), typeof(count(*)) FROM t",
        "INSERT INTO t VALUES (1, 'x', 1), (2, NULL, 2), (3, 'z', NULL)",
        "SELECT count(*) FROM t",
        "SELECT count(*) FROM t LIMIT 0",
        "SELECT count(*) FROM t LIMIT 1 OFFSET 1",
        "SELECT count(*) + 1 FROM t",
        "SELECT count(*) AS n FROM t ORDER BY n",
        "SELECT DISTINCT count(*) FROM t",
        "SELECT count(*), count(*) FROM t",
        "SELECT count(*), b FROM t",
        "SELECT count(*) FROM t WHERE b IS NOT NULL",
        "SELECT count(*) FROM t WHERE a > 1",
        "SELECT count(*) FROM t GROUP BY c IS NULL",
        "SELECT count(*) FROM t HAVING count(*) > 5",
        "SELECT count(*) FILTER (WHERE b IS NULL) FROM t",
        "SELECT count(DISTINCT b) FROM t",
        "SELECT count(b) FROM t",
        "SELECT count(*) OVER () FROM t",
        "SELECT count(*) FROM t AS x JOIN t AS y ON x.a = y.a",
        "SELECT count(*) FROM (SELECT * FROM t WHERE a < 3)",
        "CREATE VIEW v AS SELECT * FROM t WHERE b IS NOT NULL",
        "SELECT count(*) FROM v",
        "WITH w AS (SELECT 1 UNION ALL SELECT 2) SELECT count(*) FROM w",
        "SELECT count(*) FROM sqlite_schema",
        "SELECT count(*) FROM pragma_table_info('t')",
        "SELECT (SELECT count(*) FROM t) + 10",
        "SELECT count(*) FROM t UNION ALL SELECT count(*) FROM v",
    ]);
}

#[test]
fn count_sees_open_transaction_and_rollback() {
    check(&[
        "CREATE TABLE t(a INTEGER PRIMARY KEY, b)",
        "INSERT INTO t VALUES (1, 1), (2, 2), (3, 3)",
        "BEGIN",
        "INSERT INTO t VALUES (4, 4), (5, 5)",
        "SELECT count(*) FROM t",
        "DELETE FROM t WHERE a <= 2",
        "SELECT count(*) FROM t",
        "SAVEPOINT s",
        "DELETE FROM t",
        "SELECT count(*) FROM t",
        "ROLLBACK TO s",
        "SELECT count(*) FROM t",
        "ROLLBACK",
        "SELECT count(*) FROM t",
        "BEGIN",
        "DELETE FROM t WHERE a = 3",
        "COMMIT",
        "SELECT count(*) FROM t",
    ]);
}

#[test]
fn count_without_rowid_and_indexed_tables() {
    check(&[
        "CREATE TABLE w(k TEXT PRIMARY KEY, v) WITHOUT ROWID",
        "SELECT count(*) FROM w",
        "INSERT INTO w VALUES ('b', 1), ('a', 2), ('c', NULL)",
        "SELECT count(*) FROM w",
        "BEGIN",
        "DELETE FROM w WHERE k = 'a'",
        "SELECT count(*) FROM w",
        "ROLLBACK",
        "SELECT count(*) FROM w",
        "CREATE TABLE d(x, y, PRIMARY KEY(x DESC, y)) WITHOUT ROWID",
        "INSERT INTO d VALUES (1, 2), (3, 4), (1, 3)",
        "SELECT count(*) FROM d",
        "CREATE TABLE p(a, b)",
        "CREATE INDEX p_b ON p(b) WHERE b IS NOT NULL",
        "INSERT INTO p VALUES (1, NULL), (2, 3), (NULL, NULL)",
        "SELECT count(*) FROM p",
        "SELECT count(*) FROM p INDEXED BY p_b WHERE b IS NOT NULL",
        "SELECT count(*) FROM p NOT INDEXED",
    ]);
}

#[test]
fn count_over_many_pages() {
    check(&[
        "CREATE TABLE big(id INTEGER PRIMARY KEY, name TEXT, g INT)",
        FILL,
        "SELECT count(*) FROM big",
        "SELECT count(*) FROM big WHERE g = 3",
        "SELECT g, count(*) FROM big GROUP BY g ORDER BY g",
        "BEGIN",
        "DELETE FROM big WHERE id % 3 = 0",
        "SELECT count(*) FROM big",
        "INSERT INTO big SELECT id + 100000, name, g FROM big WHERE id < 1000",
        "SELECT count(*) FROM big",
        "ROLLBACK",
        "SELECT count(*) FROM big",
        "CREATE TABLE bw(id INT PRIMARY KEY, name TEXT, g INT) WITHOUT ROWID",
        "INSERT INTO bw SELECT * FROM big",
        "SELECT count(*) FROM bw",
        "DELETE FROM bw WHERE id > 20000",
        "SELECT count(*) FROM bw",
    ]);
}

/// The plan of `q`, one line per node.
fn plan(s: &mut Session, q: &str) -> String {
    let (_, rows) = values_common::ours_query(s, &format!("EXPLAIN {q}")).expect("explain");
    rows.iter().map(|r| values_common::row_key(r)).collect::<Vec<_>>().join("\n")
}

/// The shapes of `count_star` take the page count; the others keep the
/// aggregate over a scan (whose answers the tests above check).
#[test]
fn count_plan_shapes() {
    for (name, e) in engines() {
        let (mut s, _) = values_common::loaded(
            &e,
            &[
                "CREATE TABLE t(a INTEGER PRIMARY KEY, b)",
                "CREATE TABLE w(k TEXT PRIMARY KEY, v) WITHOUT ROWID",
            ],
        );
        for q in [
            "SELECT count(*) FROM t",
            "SELECT count() FROM t",
            "SELECT count(*) FROM t LIMIT 0",
            "SELECT count(*) FROM w",
        ] {
            let p = plan(&mut s, q);
            assert!(p.contains("COUNT ROWS OF"), "[{name}] {q}: {p}");
        }
        for q in [
            "SELECT count(*) FROM t WHERE b > 1",
            "SELECT count(*) FROM t WHERE a > 1",
            "SELECT count(*) FROM t GROUP BY b",
            "SELECT count(*) FROM t HAVING count(*) > 1",
            "SELECT count(*) FILTER (WHERE b > 1) FROM t",
            "SELECT count(DISTINCT b) FROM t",
            "SELECT count(*) + 1 FROM t",
            "SELECT count(*), b FROM t",
            "SELECT count(*) FROM t x JOIN t y ON x.a = y.a",
            "SELECT count(*) OVER () FROM t",
        ] {
            let p = plan(&mut s, q);
            assert!(!p.contains("COUNT ROWS OF"), "[{name}] {q}: {p}");
        }
    }
}
