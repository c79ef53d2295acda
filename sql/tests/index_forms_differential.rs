//! Expression, partial and collated indexes serving WHERE terms, against
//! SQLite (rusqlite, bundled) on both stores.
//!
//! Invariant pinned: the planner uses an index on an expression where a
//! term compares the same expression, a partial index only where the
//! WHERE implies the index's own WHERE, and a collated index only for
//! comparisons under its collation — and whichever path it takes, the
//! rows are SQLite's (an index it may not use gives the same rows through
//! a scan). EXPLAIN QUERY PLAN says which path was taken.

mod schema_common;
mod values_common;

use asadb_sql::Value;
use asadb_sql::session::{Outcome, Params};
use schema_common::{check_script_both_orders as check, engines};
use values_common::row_key;

const SETUP: &[&str] = &[
    "CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER, b TEXT, c, n TEXT COLLATE NOCASE, r TEXT)",
    "INSERT INTO t VALUES (1, 1, 'Apple', 5, 'abc', 'x'), (2, 2, 'apple', NULL, 'ABC', 'x  '), \
     (3, 3, 'BANANA', 5, 'Abd', 'y'), (4, 4, 'banana', 7, 'b', 'x '), (5, NULL, NULL, 5.0, NULL, NULL), \
     (6, 6, 'Cherry', '5', 'aBc', 'z'), (7, 7, 'cherry ', 8, 'B', 'y '), (8, -1, '', NULL, '', ''), \
     (9, 9, 'APPLE', 6, 'abcd', 'x'), (10, 10, 'date', 5, 'ABCD', 'w')",
    "CREATE INDEX t_lower ON t(lower(b))",
    "CREATE INDEX t_plus ON t(a + 1)",
    "CREATE INDEX t_cast ON t(CAST(c AS INTEGER))",
    "CREATE INDEX t_part ON t(c) WHERE c IS NOT NULL",
    "CREATE INDEX t_bpart ON t(a) WHERE b > 'a'",
    "CREATE INDEX t_n ON t(n)",
    "CREATE INDEX t_rn ON t(r COLLATE RTRIM)",
    "CREATE INDEX t_bn ON t(b COLLATE NOCASE, a)",
];

fn with_setup(queries: &[&str]) -> Vec<String> {
    SETUP.iter().chain(queries).map(|s| s.to_string()).collect()
}

const QUERIES: &[&str] = &[
    // Expression keys.
    "SELECT id FROM t WHERE lower(b) = 'apple'",
    "SELECT id, b FROM t WHERE lower(b) IN ('banana', 'date', NULL)",
    "SELECT id FROM t WHERE lower(b) > 'b' AND lower(b) < 'cherry' ORDER BY id",
    "SELECT id FROM t WHERE 'apple' = lower(b)",
    "SELECT id FROM t WHERE upper(b) = 'APPLE'",
    "SELECT id FROM t WHERE a + 1 > 5 ORDER BY id",
    "SELECT id FROM t WHERE a + 1 = 3",
    "SELECT id FROM t WHERE a + 1 BETWEEN 2 AND 8",
    "SELECT id FROM t WHERE 1 + a = 3",
    "SELECT id FROM t WHERE CAST(c AS INTEGER) = 5",
    "SELECT id FROM t WHERE CAST(c AS INTEGER) = '5'",
    "SELECT id FROM t WHERE CAST(c AS INTEGER) >= 6",
    // Partial indexes: used where implied, the rows right either way.
    "SELECT id FROM t WHERE c = 5",
    "SELECT id FROM t WHERE c > 5",
    "SELECT id FROM t WHERE c IS NULL",
    "SELECT id FROM t WHERE b > 'a' AND a > 2",
    "SELECT id FROM t WHERE a > 2",
    "SELECT id FROM t WHERE a > 2 AND b > 'a' ORDER BY a",
    "SELECT id FROM t WHERE a > 2 AND b > 'a' COLLATE NOCASE",
    "SELECT id FROM t WHERE a = 3 AND (b > 'a' OR c = 7)",
    // Collated keys: a NOCASE column's index serves NOCASE comparisons.
    "SELECT id FROM t WHERE n = 'abc'",
    "SELECT id FROM t WHERE n = 'ABC' COLLATE BINARY",
    "SELECT id FROM t WHERE n > 'ab' AND n < 'abd' ORDER BY id",
    "SELECT id FROM t WHERE n IN ('b', 'ABCD')",
    "SELECT id, n FROM t WHERE n >= 'a' ORDER BY n, id",
    "SELECT n, count(*) FROM t WHERE n >= 'a' GROUP BY n ORDER BY n",
    "SELECT id FROM t WHERE r = 'x' COLLATE RTRIM",
    "SELECT id FROM t WHERE r = 'x'",
    "SELECT id FROM t WHERE r COLLATE RTRIM = 'y  '",
    "SELECT id FROM t WHERE b = 'apple' COLLATE NOCASE",
    "SELECT id FROM t WHERE b COLLATE NOCASE = 'BANANA' AND a = 4",
    "SELECT id FROM t WHERE b = 'apple'",
    "SELECT id, b FROM t WHERE b COLLATE NOCASE >= 'b' ORDER BY b COLLATE NOCASE, id",
    // Writes keep every form of index right.
    "UPDATE t SET b = 'Banana', c = 5 WHERE id = 8",
    "DELETE FROM t WHERE lower(b) = 'cherry'",
    "INSERT INTO t VALUES (11, 11, 'APPLE', 5, 'ABC', 'x   ')",
    "SELECT id FROM t WHERE lower(b) = 'apple' ORDER BY id",
    "SELECT id FROM t WHERE lower(b) = 'banana'",
    "SELECT id FROM t WHERE a > 2 AND b > 'a'",
    "SELECT id FROM t WHERE n = 'abc'",
    "SELECT id FROM t WHERE r = 'x' COLLATE RTRIM",
    "PRAGMA integrity_check",
];

#[test]
fn expression_partial_and_collated_indexes_give_sqlite_rows() {
    let script = with_setup(QUERIES);
    let s: Vec<&str> = script.iter().map(String::as_str).collect();
    check(&s);
}

/// The same queries with a parameter for each value: the probes are
/// converted at run time as the literals are when planning.
#[test]
fn parameters_probe_expression_and_collated_indexes() {
    for (_, e) in engines() {
        let (mut s, c) = values_common::loaded(&e, SETUP);
        for (q, p) in [
            ("SELECT id FROM t WHERE lower(b) = ?1 ORDER BY id", "apple"),
            ("SELECT id FROM t WHERE n = ?1 ORDER BY id", "ABC"),
            ("SELECT id FROM t WHERE r = ?1 COLLATE RTRIM ORDER BY id", "x  "),
        ] {
            let mut st = c.prepare(q).unwrap();
            let want: Vec<i64> =
                st.query_map([p], |r| r.get(0)).unwrap().map(Result::unwrap).collect();
            let params = Params::Positional(vec![Value::Text(p.into())]);
            let got = match s.execute(q, &params).unwrap() {
                Outcome::Rows { rows, .. } => rows,
                o => panic!("{q}: {o:?}"),
            };
            let got: Vec<i64> = got
                .iter()
                .map(|r| match r[0] {
                    Value::Integer(i) => i,
                    ref v => panic!("{v:?}"),
                })
                .collect();
            assert_eq!(got, want, "{q} with {p}");
        }
    }
}

#[test]
fn explain_names_the_index_only_where_it_may_serve() {
    for (_, e) in engines() {
        let (mut s, _) = values_common::loaded(&e, SETUP);
        let plan = |s: &mut asadb_sql::session::Session, q: &str| {
            let (_, rows) =
                values_common::ours_query(s, &format!("EXPLAIN QUERY PLAN {q}")).unwrap();
            rows.iter().map(|r| row_key(r)).collect::<Vec<_>>().join("\n")
        };
        for (q, ix) in [
            ("SELECT id FROM t WHERE lower(b) = 'apple'", "t_lower"),
            ("SELECT id FROM t WHERE a + 1 > 5", "t_plus"),
            ("SELECT id FROM t WHERE CAST(c AS INTEGER) = 5", "t_cast"),
            ("SELECT id FROM t WHERE b > 'a' AND a > 2", "t_bpart"),
            ("SELECT id FROM t WHERE c > 5", "t_part"),
            ("SELECT id FROM t WHERE n = 'abc'", "t_n"),
            ("SELECT id FROM t WHERE r = 'x' COLLATE RTRIM", "t_rn"),
            ("SELECT id FROM t WHERE b = 'apple' COLLATE NOCASE", "t_bn"),
        ] {
            let p = plan(&mut s, q);
            assert!(p.contains(&format!("USING INDEX {ix}")), "{q}:\n{p}");
        }
        for (q, ix) in [
            // Not implied: the partial index lacks rows the WHERE accepts.
            ("SELECT id FROM t WHERE a > 2", "t_bpart"),
            ("SELECT id FROM t WHERE c IS NULL", "t_part"),
            // Another collation, another expression.
            ("SELECT id FROM t WHERE n = 'abc' COLLATE BINARY", "t_n"),
            ("SELECT id FROM t WHERE r = 'x'", "t_rn"),
            ("SELECT id FROM t WHERE b = 'apple'", "t_bn"),
            ("SELECT id FROM t WHERE upper(b) = 'APPLE'", "t_lower"),
        ] {
            let p = plan(&mut s, q);
            assert!(!p.contains(&format!("INDEX {ix}")), "{q}:\n{p}");
        }
    }
}
