//! Recursive common table expressions against SQLite (rusqlite, bundled):
//! the same tables in both engines (our memory store and our B+tree store),
//! then queries run on both.
//!
//! Invariants pinned: the rows (with storage classes, REALs by bits) and
//! the column names equal SQLite's, in SQLite's order where the queue
//! order decides it (FIFO, UNION skipping rows seen before); an endless
//! recursion stops under an outer LIMIT and under an interrupt; a
//! statement SQLite refuses is refused (error-ness, not messages);
//! `INSERT … SELECT` from a recursive CTE (WITH before INSERT and inside
//! its SELECT) writes what SQLite writes.

mod values_common;

use values_common::row_key;

use std::time::{Duration, Instant};

use asadb_sql::session::{Engine, Outcome, Params, Session};
use asadb_sql::storage::Interrupt;
use asadb_sql::{Error, Value};

const SETUP: &[&str] = &[
    "CREATE TABLE edge(a INTEGER, b INTEGER)",
    // A cycle 1 -> 2 -> 3 -> 1, a branch 3 -> 4 -> 5, and 6 -> 6.
    "INSERT INTO edge VALUES (1, 2), (2, 3), (3, 1), (3, 4), (4, 5), (6, 6)",
    "CREATE TABLE tree(id INTEGER PRIMARY KEY, parent INTEGER, name TEXT)",
    "INSERT INTO tree VALUES (1, NULL, 'root'), (2, 1, 'usr'), (3, 1, 'etc'), \
     (4, 2, 'bin'), (5, 2, 'lib'), (6, 4, 'asadb'), (7, 3, 'hosts'), (8, 99, 'orphan')",
    "CREATE TABLE t1(a INTEGER, b TEXT)",
    "INSERT INTO t1 VALUES (1, 'one'), (2, 'two'), (4, 'four'), (8, 'eight'), (16, NULL)",
];

/// `(query, rows compared in order)`.
const QUERIES: &[(&str, bool)] = &[
    // Counters.
    (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 10) SELECT x FROM c",
        true,
    ),
    ("WITH c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 10) SELECT x FROM c", true),
    (
        "WITH RECURSIVE c(x) AS (VALUES(1) UNION ALL SELECT x+1 FROM c WHERE x < 3) SELECT * FROM c",
        true,
    ),
    (
        "WITH RECURSIVE c AS (SELECT 1 AS n UNION ALL SELECT n+1 FROM c WHERE n < 5) SELECT n FROM c",
        true,
    ),
    (
        "WITH RECURSIVE c AS (SELECT 1 AS n UNION ALL SELECT n+1 FROM c WHERE n < 5) SELECT * FROM c",
        true,
    ),
    (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 1000) \
      SELECT count(*), sum(x), min(x), max(x) FROM c",
        true,
    ),
    (
        "WITH RECURSIVE c(x) AS (SELECT 10 UNION ALL SELECT x-3 FROM c WHERE x > 0) \
      SELECT x FROM c ORDER BY x",
        true,
    ),
    // LIMIT outside (the recursion itself is endless) and inside.
    (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x FROM c LIMIT 10",
        true,
    ),
    (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x FROM c LIMIT 5 OFFSET 7",
        true,
    ),
    ("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 7) SELECT x FROM c", true),
    (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 5 OFFSET 3) SELECT x FROM c",
        true,
    ),
    (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 5 LIMIT 3 OFFSET 100) \
      SELECT x FROM c",
        true,
    ),
    ("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 0) SELECT x FROM c", true),
    (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 4 LIMIT -1) SELECT x FROM c",
        true,
    ),
    // Several initial rows, several rows per step.
    (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT x*10 FROM c WHERE x < 100) \
      SELECT x FROM c",
        true,
    ),
    (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x*2+b FROM c, (SELECT 0 AS b UNION ALL SELECT 1) \
      WHERE x < 8) SELECT x FROM c",
        false,
    ),
    // UNION against UNION ALL: a graph with cycles.
    (
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION SELECT b FROM edge JOIN r ON edge.a = r.n) SELECT n FROM r",
        true,
    ),
    (
        "WITH RECURSIVE r(n) AS (SELECT 6 UNION SELECT b FROM edge, r WHERE edge.a = r.n) SELECT n FROM r",
        true,
    ),
    (
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT b FROM edge JOIN r ON edge.a = r.n LIMIT 20) \
      SELECT n FROM r",
        false,
    ),
    (
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT b FROM edge JOIN r ON edge.a = r.n LIMIT 20) \
      SELECT count(*), sum(n) FROM r",
        true,
    ),
    (
        "WITH RECURSIVE r(n, d) AS (SELECT 1, 0 UNION SELECT b, d+1 FROM edge JOIN r ON edge.a = r.n WHERE d < 6) \
      SELECT n, d FROM r",
        false,
    ),
    (
        "WITH RECURSIVE c(x) AS (VALUES(1),(1),(2) UNION SELECT x+2 FROM c WHERE x < 6) SELECT x FROM c",
        true,
    ),
    (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION SELECT x*1.0 FROM c) SELECT x, typeof(x) FROM c",
        true,
    ),
    ("WITH RECURSIVE c(x) AS (SELECT 1 UNION SELECT 2) SELECT x FROM c", false),
    ("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT 1) SELECT x FROM c", false),
    // Tree walks.
    (
        "WITH RECURSIVE sub(id, name, depth) AS (SELECT id, name, 0 FROM tree WHERE parent IS NULL \
      UNION ALL SELECT tree.id, tree.name, sub.depth+1 FROM tree JOIN sub ON tree.parent = sub.id) \
      SELECT * FROM sub",
        false,
    ),
    (
        "WITH RECURSIVE p(id, path) AS (SELECT id, name FROM tree WHERE id = 1 \
      UNION ALL SELECT tree.id, p.path || '/' || tree.name FROM p, tree WHERE tree.parent = p.id) \
      SELECT path FROM p ORDER BY path",
        true,
    ),
    (
        "WITH RECURSIVE up(id) AS (SELECT 6 UNION ALL SELECT parent FROM tree, up WHERE tree.id = up.id \
      AND parent IS NOT NULL) SELECT group_concat(id, ',') FROM up",
        true,
    ),
    (
        "WITH RECURSIVE sub(id) AS (SELECT 2 UNION ALL SELECT tree.id FROM tree JOIN sub ON tree.parent = sub.id) \
      SELECT count(*) FROM tree WHERE id IN sub",
        true,
    ),
    // Two columns, strings, types.
    (
        "WITH RECURSIVE fib(a, b) AS (SELECT 0, 1 UNION ALL SELECT b, a+b FROM fib WHERE a < 1000) \
      SELECT a, b FROM fib",
        true,
    ),
    (
        "WITH RECURSIVE s(str, n) AS (SELECT 'a', 1 UNION ALL SELECT str || 'b', n+1 FROM s WHERE n < 5) \
      SELECT str, n FROM s",
        true,
    ),
    (
        "WITH RECURSIVE c(x) AS (SELECT 0.5 UNION ALL SELECT x*3 FROM c WHERE x < 100) SELECT x, typeof(x) FROM c",
        true,
    ),
    (
        "WITH RECURSIVE c(x) AS (SELECT '1' UNION ALL SELECT x+1 FROM c WHERE x < 3) SELECT x, typeof(x) FROM c",
        true,
    ),
    (
        "WITH RECURSIVE c(x) AS (SELECT NULL UNION SELECT coalesce(x, 0) + 1 FROM c WHERE coalesce(x, 0) < 3) \
      SELECT x FROM c",
        true,
    ),
    // The CTE used twice; joined with a table; in subqueries.
    (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 5) \
      SELECT a.x, b.x FROM c a, c b WHERE a.x <= b.x",
        false,
    ),
    (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 5) \
      SELECT (SELECT count(*) FROM c), (SELECT sum(x) FROM c)",
        true,
    ),
    (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 20) \
      SELECT t1.b FROM t1 JOIN c ON t1.a = c.x",
        false,
    ),
    (
        "SELECT (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 10) SELECT sum(x) FROM c)",
        true,
    ),
    (
        "SELECT a FROM t1 WHERE a IN (WITH RECURSIVE c(x) AS (SELECT 2 UNION ALL SELECT x*2 FROM c WHERE x < 100) \
      SELECT x FROM c)",
        false,
    ),
    (
        "SELECT a, (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 4) \
      SELECT count(*) FROM c) FROM t1",
        false,
    ),
    (
        "SELECT * FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 4) \
      SELECT x FROM c) ORDER BY x DESC",
        true,
    ),
    // Nested CTEs.
    (
        "WITH RECURSIVE a(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM a WHERE x < 3), \
      b(y) AS (SELECT x*10 FROM a UNION ALL SELECT y+1 FROM b WHERE y % 10 < 2) SELECT y FROM b",
        true,
    ),
    (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + (WITH RECURSIVE d(y) AS \
      (SELECT 1 UNION ALL SELECT y+1 FROM d WHERE y < 3) SELECT sum(y) FROM d) FROM c WHERE x < 50) \
      SELECT x FROM c",
        true,
    ),
    (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 3) \
      SELECT x, (WITH RECURSIVE d(y) AS (SELECT 1 UNION ALL SELECT y+1 FROM d WHERE y < 2) \
      SELECT group_concat(y) FROM d) FROM c",
        true,
    ),
    ("WITH c(a, b) AS (SELECT 1, 2) SELECT a, b FROM c", true),
    (
        "WITH c AS (SELECT 1 AS k), d(x) AS (SELECT k FROM c UNION ALL SELECT x+1 FROM d WHERE x < 3) \
      SELECT x FROM d",
        true,
    ),
    (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT DISTINCT x+1 FROM c WHERE x < 3) SELECT x FROM c",
        true,
    ),
    // The recursive select's subqueries may read the working row's columns.
    (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x*2 FROM c \
      WHERE EXISTS (SELECT 1 FROM t1 WHERE t1.a = c.x)) SELECT x FROM c",
        true,
    ),
    (
        "WITH RECURSIVE c(x, s) AS (SELECT 1, 'one' UNION ALL SELECT x*2, (SELECT b FROM t1 WHERE a = x*2) \
      FROM c WHERE x < 30) SELECT x, s FROM c",
        true,
    ),
    // ORDER BY: a priority queue (ties first in, first out).
    (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 3 ORDER BY 1 DESC) \
      SELECT x FROM c",
        true,
    ),
    (
        "WITH RECURSIVE sub(id, name, depth) AS (SELECT id, name, 0 FROM tree WHERE parent IS NULL \
      UNION ALL SELECT tree.id, tree.name, sub.depth+1 FROM tree JOIN sub ON tree.parent = sub.id \
      ORDER BY 3 DESC, 2) SELECT substr('..........', 1, depth*2) || name FROM sub",
        true,
    ),
    (
        "WITH RECURSIVE sub(id, name, depth) AS (SELECT id, name, 0 FROM tree WHERE parent IS NULL \
      UNION ALL SELECT tree.id, tree.name, sub.depth+1 FROM tree JOIN sub ON tree.parent = sub.id \
      ORDER BY 3, 2 DESC) SELECT name, depth FROM sub",
        true,
    ),
    (
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION SELECT b FROM edge JOIN r ON edge.a = r.n ORDER BY 1 DESC) \
      SELECT n FROM r",
        true,
    ),
    (
        "WITH RECURSIVE c(x, d) AS (SELECT 1, 0 UNION ALL SELECT x*2+k, d+1 FROM c, \
      (SELECT 0 AS k UNION ALL SELECT 1) WHERE d < 4 ORDER BY 2 DESC, 1 LIMIT 12) SELECT x FROM c",
        true,
    ),
    (
        "WITH RECURSIVE c(x, d) AS (SELECT 1, 0 UNION ALL SELECT x*2+k, d+1 FROM c, \
      (SELECT 0 AS k UNION ALL SELECT 1) WHERE d < 3 ORDER BY d, x DESC) SELECT x FROM c",
        true,
    ),
    (
        "WITH RECURSIVE c(x) AS (SELECT 3 UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL \
      SELECT x+10 FROM c WHERE x < 10 ORDER BY x) SELECT x FROM c",
        true,
    ),
    // Several recursive selects (SQLite 3.34), each run for every queued
    // row; the last operator decides UNION or UNION ALL.
    (
        "WITH RECURSIVE c(x) AS (SELECT 'a' UNION SELECT x || 'b' FROM c WHERE length(x) < 3 \
      UNION SELECT x || 'c' FROM c WHERE length(x) < 3) SELECT x FROM c",
        true,
    ),
    (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 4 \
      UNION ALL SELECT x * 10 FROM c WHERE x < 3) SELECT x FROM c",
        true,
    ),
    (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION SELECT 2 UNION ALL SELECT x + 2 FROM c WHERE x < 6 \
      UNION ALL SELECT x + 3 FROM c WHERE x < 6) SELECT x FROM c",
        true,
    ),
    (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT 2 UNION SELECT x + 2 FROM c WHERE x < 6 \
      UNION SELECT x + 3 FROM c WHERE x < 6 ORDER BY 1) SELECT x FROM c",
        true,
    ),
    (
        "WITH RECURSIVE c(x, d) AS (SELECT 1, 0 UNION ALL SELECT x * 2, d + 1 FROM c WHERE d < 3 \
      UNION ALL SELECT x * 2 + 1, d + 1 FROM c WHERE d < 3 LIMIT 9) SELECT x, d FROM c",
        true,
    ),
    // UNION compares under the columns' collations.
    (
        "WITH RECURSIVE c(x) AS (SELECT 'a' COLLATE nocase UNION SELECT upper(x) FROM c) SELECT x FROM c",
        true,
    ),
    (
        "WITH RECURSIVE c(x) AS (SELECT 'a' UNION SELECT upper(x) COLLATE nocase FROM c) SELECT x FROM c",
        true,
    ),
    (
        "WITH RECURSIVE c(x) AS (SELECT 'a ' UNION SELECT x || ' ' COLLATE rtrim FROM c WHERE length(x) < 5) \
      SELECT x, length(x) FROM c",
        true,
    ),
    // SQLite refuses these.
    (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < (SELECT max(x) FROM c)) \
      SELECT x FROM c",
        false,
    ),
    (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM (SELECT x FROM c) WHERE x < 3) \
      SELECT x FROM c",
        false,
    ),
    ("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT count(*) FROM c) SELECT x FROM c", false),
    (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT max(x)+1 FROM c GROUP BY x) SELECT x FROM c LIMIT 3",
        false,
    ),
    (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT a.x+1 FROM c a, c b WHERE a.x < 3) SELECT x FROM c",
        false,
    ),
    ("WITH RECURSIVE c(x) AS (SELECT x FROM c UNION ALL SELECT 1) SELECT x FROM c", false),
    ("WITH c AS (SELECT * FROM c) SELECT * FROM c", false),
    (
        "WITH RECURSIVE c(x, y) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 3) SELECT x FROM c",
        false,
    ),
    (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1, 2 FROM c WHERE x < 3) SELECT x FROM c",
        false,
    ),
    ("WITH c(x, y) AS (SELECT 1) SELECT x FROM c", false),
    (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 3 ORDER BY 2) SELECT x FROM c",
        false,
    ),
    (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION SELECT x + 1 FROM c WHERE x < 4 \
      UNION ALL SELECT x FROM c WHERE x < 3) SELECT x FROM c",
        false,
    ),
    (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 4 \
      UNION SELECT x FROM c WHERE x < 3) SELECT x FROM c",
        false,
    ),
];

/// Column names and rows, or the error's text.
fn compare(s: &mut Session, c: &rusqlite::Connection, sql: &str, ordered: bool) -> Option<String> {
    let (a, b) = match (values_common::ours_query(s, sql), values_common::sqlite_query(c, sql)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(_), Err(_)) => return None,
        (a, b) => return Some(format!("{sql}\n  ours:   {a:?}\n  sqlite: {b:?}")),
    };
    let mut ka: Vec<String> = a.1.iter().map(|r| row_key(r)).collect();
    let mut kb: Vec<String> = b.1.iter().map(|r| row_key(r)).collect();
    if !ordered {
        ka.sort();
        kb.sort();
    }
    (a.0 != b.0 || ka != kb)
        .then(|| format!("{sql}\n  ours:   {:?} {ka:?}\n  sqlite: {:?} {kb:?}", a.0, b.0))
}

fn setup(engine: &Engine) -> (Session, rusqlite::Connection) {
    values_common::loaded(engine, SETUP)
}

#[test]
fn recursive_queries_match_sqlite() {
    let mut diffs = Vec::new();
    for e in values_common::both_stores() {
        let (mut s, c) = setup(&e);
        diffs.extend(QUERIES.iter().filter_map(|(q, o)| compare(&mut s, &c, q, *o)));
    }
    for d in &diffs {
        println!("{d}");
    }
    assert!(diffs.is_empty(), "{} queries differ from SQLite", diffs.len());
}

/// The refusals above are refusals of ours too, not accidents of SQLite:
/// each one errs in our engine.
#[test]
fn invalid_recursive_ctes_are_errors() {
    for e in values_common::both_stores() {
        let (mut s, c) = setup(&e);
        let refused = QUERIES.iter().skip_while(|(q, _)| !q.contains("(SELECT max(x) FROM c)"));
        assert_eq!(refused.clone().count(), 13);
        for (q, _) in refused {
            assert!(values_common::sqlite_query(&c, q).is_err(), "SQLite accepts: {q}");
            assert!(values_common::ours_query(&mut s, q).is_err(), "accepted: {q}");
        }
    }
}

fn scalar(s: &mut Session, sql: &str) -> Vec<Value> {
    values_common::ours_query(s, sql).unwrap_or_else(|e| panic!("{sql}: {e}")).1.remove(0)
}

/// 100,000 rows generated by a recursive CTE, with the WITH before the
/// INSERT and inside its SELECT, on both stores; count and sums equal
/// SQLite's. Prints the time of each side (this is a debug-profile test
/// binary; the numbers compare engines, not releases).
#[test]
fn insert_select_from_recursive_cte_matches_sqlite() {
    const N: i64 = 100_000;
    let gen_before = format!(
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < {N}) \
         INSERT INTO big SELECT x, x * 2, 'row ' || x FROM c"
    );
    let gen_inside = format!(
        "INSERT INTO big2 WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c \
         WHERE x < {N}) SELECT x, x % 7, NULL FROM c"
    );
    let check = "SELECT count(*), sum(a), sum(b), min(a), max(a), sum(length(c)) FROM big";
    let check2 = "SELECT count(*), sum(a), sum(b), count(c) FROM big2";
    let c = rusqlite::Connection::open_in_memory().unwrap();
    c.execute_batch("CREATE TABLE big(a INTEGER, b INTEGER, c TEXT); CREATE TABLE big2(a, b, c)")
        .unwrap();
    let t = Instant::now();
    c.execute_batch(&gen_before).unwrap();
    let sqlite_time = t.elapsed();
    c.execute_batch(&gen_inside).unwrap();
    let want = values_common::sqlite_query(&c, check).unwrap().1.remove(0);
    let want2 = values_common::sqlite_query(&c, check2).unwrap().1.remove(0);
    assert_eq!(want[0], Value::Integer(N));
    for e in values_common::both_stores() {
        let mut s = e.session();
        s.execute("CREATE TABLE big(a INTEGER, b INTEGER, c TEXT)", &Params::None).unwrap();
        s.execute("CREATE TABLE big2(a, b, c)", &Params::None).unwrap();
        let t = Instant::now();
        let n = s.execute(&gen_before, &Params::None).unwrap();
        let ours_time = t.elapsed();
        assert!(matches!(n, Outcome::Affected(k) if k == N as u64), "{n:?}");
        s.execute(&gen_inside, &Params::None).unwrap();
        let count = format!(
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < {N}) \
             SELECT count(*) FROM c"
        );
        let t = Instant::now();
        assert_eq!(scalar(&mut s, &count), vec![Value::Integer(N)]);
        println!("counting 100k rows of a recursive CTE: ours {:?}", t.elapsed());
        assert_eq!(scalar(&mut s, check), want);
        assert_eq!(scalar(&mut s, check2), want2);
        println!(
            "100k rows via INSERT … SELECT from a recursive CTE: ours {ours_time:?}, sqlite {sqlite_time:?}"
        );
    }
}

/// EXPLAIN names the recursive node, its initial and recursive parts, and
/// the working row the recursive part reads.
#[test]
fn explain_shows_the_recursive_node() {
    let mut s = Engine::memory().session();
    let (_, rows) = values_common::ours_query(
        &mut s,
        "EXPLAIN WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 5) \
         SELECT x FROM c",
    )
    .unwrap();
    let lines: Vec<String> = rows
        .into_iter()
        .map(|r| match &r[0] {
            Value::Text(t) => t.to_str_lossy().trim().to_string(),
            v => panic!("{v:?}"),
        })
        .collect();
    assert!(lines.iter().any(|l| l == "RECURSIVE c (UNION ALL)"), "{lines:?}");
    assert!(lines.iter().any(|l| l == "WORKING ROW c"), "{lines:?}");
}

/// An endless recursion (UNION ALL of a counter, no LIMIT) stops with
/// `Error::Interrupted` once the session's interrupt is set.
#[test]
fn endless_recursion_stops_on_interrupt() {
    for e in values_common::both_stores() {
        let mut s = e.session();
        s.set_interrupt(Some(Interrupt::at(Instant::now() + Duration::from_millis(200))));
        let t = Instant::now();
        let r = s.execute(
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c",
            &Params::None,
        );
        assert!(matches!(r, Err(Error::Interrupted)), "{r:?}");
        assert!(t.elapsed() < Duration::from_secs(10), "took {:?}", t.elapsed());
    }
}

/// UNION ALL streams its initial rows instead of queueing them all first:
/// an endless initial select (itself a recursive CTE) under an outer LIMIT
/// ends. (SQLite queues them all and would not end, so this is ours only;
/// an interrupt after 5 s turns a regression into a failure, not a hang.)
#[test]
fn union_all_streams_its_initial_rows() {
    for e in values_common::both_stores() {
        let mut s = e.session();
        s.set_interrupt(Some(Interrupt::at(Instant::now() + Duration::from_secs(5))));
        let (_, rows) = values_common::ours_query(
            &mut s,
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n), \
             c(x) AS (SELECT i * 100 FROM n UNION ALL SELECT x+1 FROM c WHERE x % 100 < 1) \
             SELECT x FROM c LIMIT 4",
        )
        .unwrap();
        let want: Vec<Vec<Value>> =
            [100, 200, 300, 400].into_iter().map(|i| vec![Value::Integer(i)]).collect();
        assert_eq!(rows, want);
    }
}
