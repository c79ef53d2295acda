//! ANALYZE against SQLite (rusqlite, bundled), on both stores: the rows
//! of `sqlite_stat1` after `ANALYZE`, `ANALYZE t`, `ANALYZE idx` and
//! `ANALYZE main` over indexes with repeated keys, NULLs, collations,
//! partial and multi-column indexes, WITHOUT ROWID tables, tables without
//! indexes and empty tables; and `sqlite_stat1`'s catalog row.
//!
//! Invariant pinned: `SELECT * FROM sqlite_stat1` (ordered) and the
//! catalog are SQLite's after each statement.

mod schema_common;

use schema_common::{Opts, check_script};

const STAT: &str = "SELECT tbl, idx, stat FROM sqlite_stat1 ORDER BY tbl, idx";

#[test]
fn analyze_writes_sqlite_stat1_as_sqlite() {
    let mut script: Vec<String> = vec![
        "CREATE TABLE t(a, b, c TEXT COLLATE NOCASE, d)".into(),
        "CREATE INDEX ta ON t(a)".into(),
        "CREATE INDEX tab ON t(a, b)".into(),
        "CREATE INDEX tc ON t(c)".into(),
        "CREATE UNIQUE INDEX td ON t(d)".into(),
        "CREATE INDEX tp ON t(b) WHERE a > 5".into(),
        "CREATE TABLE plain(x)".into(),
        "CREATE TABLE empty(y)".into(),
        "CREATE INDEX empty_y ON empty(y)".into(),
        "CREATE TABLE w(k, v, PRIMARY KEY (k, v)) WITHOUT ROWID".into(),
        "CREATE TABLE uq(p UNIQUE, q)".into(),
        STAT.into(),
        "ANALYZE".into(),
    ];
    for i in 0..60 {
        let b = if i % 7 == 0 { "NULL".to_string() } else { (i % 4).to_string() };
        let c = if i % 2 == 0 { "'Abc'" } else { "'abc'" };
        script.push(format!("INSERT INTO t VALUES ({}, {b}, {c}, {i})", i % 9));
        script.push(format!("INSERT INTO w VALUES ({}, {i})", i % 3));
        if i < 25 {
            script.push(format!("INSERT INTO plain VALUES ({i})"));
            script.push(format!("INSERT INTO uq VALUES ({i}, {})", i % 2));
        }
    }
    for s in [
        "ANALYZE",
        STAT,
        "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name = 'sqlite_stat1'",
        "INSERT INTO plain VALUES (100)",
        "DELETE FROM t WHERE a = 1",
        "ANALYZE plain",
        STAT,
        "ANALYZE ta",
        STAT,
        "ANALYZE t",
        STAT,
        "ANALYZE main",
        STAT,
        "ANALYZE nosuch",
        "DELETE FROM sqlite_stat1",
        "ANALYZE w",
        STAT,
        "SELECT count(*) FROM sqlite_stat1",
    ] {
        script.push(s.into());
    }
    let refs: Vec<&str> = script.iter().map(String::as_str).collect();
    check_script(&refs, Opts { messages: true, ..Opts::default() });
}

/// Partial indexes: each gets its row even when no entry satisfies its
/// WHERE (`0 0`), and a table whose indexes are all partial also gets its
/// row count — SQLite's `analyzeOneTable`.
#[test]
fn partial_indexes_and_their_tables_get_rows() {
    check_script(
        &[
            "CREATE TABLE p(a, b)",
            "CREATE INDEX pi ON p(a) WHERE b > 0",
            "CREATE INDEX pj ON p(a)",
            "ANALYZE",
            "SELECT * FROM sqlite_stat1 ORDER BY tbl, idx",
            "INSERT INTO p VALUES (1, -1), (2, -2)",
            "ANALYZE",
            "SELECT * FROM sqlite_stat1 ORDER BY tbl, idx",
            "INSERT INTO p VALUES (1, 5)",
            "ANALYZE",
            "SELECT * FROM sqlite_stat1 ORDER BY tbl, idx",
            "CREATE TABLE q(a, b)",
            "CREATE INDEX qi ON q(a, b) WHERE a > 0",
            "INSERT INTO q VALUES (-1, 2), (-2, 3)",
            "ANALYZE q",
            "SELECT * FROM sqlite_stat1 ORDER BY tbl, idx",
            "ANALYZE qi",
            "SELECT * FROM sqlite_stat1 ORDER BY tbl, idx",
            "DELETE FROM q",
            "ANALYZE",
            "SELECT * FROM sqlite_stat1 ORDER BY tbl, idx",
        ],
        Opts::default(),
    );
}
