//! DISTINCT and compound selects (UNION, EXCEPT, INTERSECT) past the
//! memory budget, against SQLite (rusqlite, bundled) on both stores.
//!
//! Invariant pinned: whether the distinct rows fit in the budget or the
//! operator sorts them on disk, the answer is SQLite's — the same rows,
//! in the same order (DISTINCT: first occurrences in arrival order;
//! compounds: key order), with the same row of each equal group shown
//! (collations make 'a' and 'A' one row; 1 and 1.0 are one row).

mod schema_common;

use schema_common::{Opts, check_script_with_budget};

const SETUP: &[&str] = &[
    "CREATE TABLE t(a INTEGER, b TEXT COLLATE NOCASE, c)",
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 4000) \
     INSERT INTO t SELECT i % 700, CASE i % 3 WHEN 0 THEN 'Key' || (i % 450) ELSE 'key' || (i % 450) END, \
     CASE i % 4 WHEN 0 THEN i % 50 WHEN 1 THEN (i % 50) * 1.0 WHEN 2 THEN NULL ELSE x'00' || (i % 9) END FROM n",
    "CREATE TABLE u(a INTEGER, b TEXT, c)",
    "INSERT INTO u SELECT a + 350, upper(b), c FROM t WHERE a % 2 = 0",
];

const QUERIES: &[&str] = &[
    "SELECT DISTINCT a FROM t",
    "SELECT DISTINCT b FROM t",
    "SELECT DISTINCT b, c FROM t",
    "SELECT DISTINCT c, a % 10 FROM t",
    "SELECT DISTINCT a, b FROM t ORDER BY b DESC, a",
    "SELECT DISTINCT b FROM t LIMIT 20 OFFSET 100",
    "SELECT count(*) FROM (SELECT DISTINCT a, b, c FROM t)",
    "SELECT a, b FROM t UNION SELECT a, b FROM u",
    "SELECT b FROM t UNION SELECT b FROM u",
    "SELECT a, c FROM t UNION SELECT a, c FROM u",
    "SELECT a, b FROM t EXCEPT SELECT a, b FROM u",
    "SELECT b, c FROM t EXCEPT SELECT b, c FROM u",
    "SELECT a, b FROM t INTERSECT SELECT a, b FROM u",
    "SELECT b FROM u INTERSECT SELECT b FROM t",
    "SELECT a, b FROM t WHERE 0 EXCEPT SELECT a, b FROM u",
    "SELECT a FROM t UNION SELECT a FROM u ORDER BY 1 DESC LIMIT 10",
    "SELECT count(*), sum(a) FROM (SELECT a, b FROM t UNION SELECT a, b FROM u)",
    "SELECT a, b FROM t UNION ALL SELECT a, b FROM u EXCEPT SELECT a, b FROM u WHERE a > 500",
];

#[test]
fn distinct_and_compounds_past_the_budget_match_sqlite() {
    let script: Vec<&str> = SETUP.iter().chain(QUERIES).copied().collect();
    for budget in [None, Some(2048)] {
        check_script_with_budget(&script, Opts::default(), budget);
    }
}
