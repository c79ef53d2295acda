//! Window functions against SQLite (rusqlite, bundled): the same tables in
//! both engines (our memory store and our B+tree store), then queries run
//! on both.
//!
//! Invariants pinned: rows (with storage classes, REALs by bits) and
//! column names equal SQLite's for every built-in window function, every
//! aggregate as a window function, PARTITION BY / ORDER BY (ASC, DESC,
//! NULLS FIRST/LAST, collations), frames ROWS / RANGE / GROUPS with every
//! kind of bound, FILTER, named windows, windows over aggregates and in
//! ORDER BY; a statement SQLite refuses is refused (error-ness; the
//! messages of the common refusals too).

mod values_common;

use values_common::row_key;

use asadb_sql::session::{Engine, Session};

const SETUP: &[&str] = &[
    "CREATE TABLE t(id INTEGER PRIMARY KEY, g TEXT, x INTEGER, y REAL, s TEXT)",
    "INSERT INTO t VALUES (1, 'a', 10, 1.5, 'p'), (2, 'a', 20, 2.5, 'Q'), (3, 'a', 20, NULL, 'r'), \
     (4, 'b', NULL, 4.0, 'p'), (5, 'b', 5, -1.0, NULL), (6, 'b', 7, 0.25, 'q'), \
     (7, 'c', 100, 3.0, 'x'), (8, NULL, 1, 1.0, 'y'), (9, 'a', 30, 2.0, 'P'), (10, 'b', 7, 7.0, 'z')",
    "CREATE TABLE e(n INTEGER, v)",
    "INSERT INTO e VALUES (1, 1), (2, 2.5), (3, 'txt'), (4, NULL), (5, X'01'), (6, 3), (7, 'abc'), (8, NULL)",
    "CREATE TABLE empty(a INTEGER)",
    "CREATE TABLE nc(id INTEGER PRIMARY KEY, c TEXT COLLATE NOCASE)",
    "INSERT INTO nc VALUES (1, 'b'), (2, 'A'), (3, 'a'), (4, 'B'), (5, 'c'), (6, 'C'), (7, NULL), (8, 'a')",
];

/// Queries whose rows are compared in order (all have a total ORDER BY).
const QUERIES: &[&str] = &[
    // Ranking.
    "SELECT id, row_number() OVER (ORDER BY id) FROM t ORDER BY id",
    "SELECT id, row_number() OVER (PARTITION BY g ORDER BY id DESC) FROM t ORDER BY id",
    "SELECT id, rank() OVER (ORDER BY x), dense_rank() OVER (ORDER BY x) FROM t ORDER BY id",
    "SELECT id, rank() OVER (PARTITION BY g ORDER BY x DESC) FROM t ORDER BY id",
    "SELECT id, percent_rank() OVER (ORDER BY x), cume_dist() OVER (ORDER BY x) FROM t ORDER BY id",
    "SELECT id, percent_rank() OVER (PARTITION BY g ORDER BY x), cume_dist() OVER (PARTITION BY g ORDER BY x) FROM t ORDER BY id",
    "SELECT id, rank() OVER (), dense_rank() OVER (), percent_rank() OVER (), cume_dist() OVER () FROM t ORDER BY id",
    "SELECT id, ntile(3) OVER (ORDER BY id) FROM t ORDER BY id",
    "SELECT id, ntile(4) OVER (PARTITION BY g ORDER BY id) FROM t ORDER BY id",
    "SELECT id, ntile(20) OVER (ORDER BY id), ntile(1) OVER (ORDER BY id) FROM t ORDER BY id",
    "SELECT id, ntile(2.7) OVER (ORDER BY id) FROM t ORDER BY id",
    "SELECT id, row_number() OVER (ORDER BY x NULLS LAST, id) FROM t ORDER BY id",
    "SELECT id, row_number() OVER (ORDER BY x DESC NULLS FIRST, id) FROM t ORDER BY id",
    "SELECT id, rank() OVER (ORDER BY s COLLATE NOCASE) FROM t ORDER BY id",
    "SELECT id, dense_rank() OVER (PARTITION BY s COLLATE NOCASE ORDER BY id) FROM t ORDER BY id",
    // lag / lead.
    "SELECT id, lag(x) OVER (ORDER BY id), lead(x) OVER (ORDER BY id) FROM t ORDER BY id",
    "SELECT id, lag(x, 2) OVER (PARTITION BY g ORDER BY id), lead(x, 2, -1) OVER (PARTITION BY g ORDER BY id) FROM t ORDER BY id",
    "SELECT id, lag(x, 0) OVER (ORDER BY id), lag(x, -1) OVER (ORDER BY id), lead(x, -2, 'd') OVER (ORDER BY id) FROM t ORDER BY id",
    "SELECT id, lag(x, NULL, 9) OVER (ORDER BY id), lag(x, 1.0) OVER (ORDER BY id), lag(x, 1.5, 'no') OVER (ORDER BY id), lag(x, '1') OVER (ORDER BY id) FROM t ORDER BY id",
    "SELECT id, lag(id, 1, id * 100) OVER (ORDER BY id) FROM t ORDER BY id",
    // Negative offsets: SQLite's reading order (lag sees one row ahead).
    "SELECT id, lag(x, -2) OVER (ORDER BY id), lag(x, -3, 'd') OVER (PARTITION BY g ORDER BY id), lag(x, -1, 'e') OVER (PARTITION BY g), lead(x, -3) OVER (PARTITION BY g ORDER BY id) FROM t ORDER BY id",
    "SELECT id, lag(x, -2) OVER (ORDER BY id), sum(x) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING), lag(x, -1) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM t ORDER BY id",
    "SELECT id, lag(x, id % 3 - 2) OVER (ORDER BY id), lag(x, -9223372036854775808) OVER (ORDER BY id), lead(x, -9223372036854775808, 0) OVER (ORDER BY id) FROM t ORDER BY id",
    // first/last/nth value.
    "SELECT id, first_value(x) OVER (PARTITION BY g ORDER BY id), last_value(x) OVER (PARTITION BY g ORDER BY id) FROM t ORDER BY id",
    "SELECT id, last_value(x) OVER (PARTITION BY g ORDER BY x) FROM t ORDER BY id",
    "SELECT id, nth_value(x, 2) OVER (ORDER BY id), nth_value(s, 3) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM t ORDER BY id",
    "SELECT id, first_value(s) OVER w, last_value(s) OVER w FROM t WINDOW w AS (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) ORDER BY id",
    // Aggregates as window functions.
    "SELECT id, sum(x) OVER (ORDER BY id), count(*) OVER (ORDER BY id), count(x) OVER (ORDER BY id) FROM t ORDER BY id",
    "SELECT id, sum(x) OVER (PARTITION BY g), avg(x) OVER (PARTITION BY g), total(y) OVER (PARTITION BY g) FROM t ORDER BY id",
    "SELECT id, min(x) OVER (ORDER BY id), max(s) OVER (ORDER BY id) FROM t ORDER BY id",
    "SELECT id, group_concat(s) OVER (ORDER BY id), group_concat(s, '-') OVER (PARTITION BY g ORDER BY id) FROM t ORDER BY id",
    "SELECT id, string_agg(s, ';') OVER (ORDER BY id ROWS 2 PRECEDING) FROM t ORDER BY id",
    "SELECT id, sum(x) OVER (ORDER BY x) FROM t ORDER BY id",
    "SELECT id, sum(x) OVER () , count(*) OVER () FROM t ORDER BY id",
    "SELECT id, sum(y) OVER (ORDER BY id) FROM t ORDER BY id",
    "SELECT id, avg(y) OVER (PARTITION BY g ORDER BY id) FROM t ORDER BY id",
    // min/max compare with the argument's collation (a NOCASE column,
    // an explicit COLLATE); ties keep the first value, as SQLite's.
    "SELECT id, min(c) OVER (ORDER BY id), max(c) OVER (ORDER BY id), min(c) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING), max(c) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW), max(c) OVER () FROM nc ORDER BY id",
    "SELECT id, max(c COLLATE BINARY) OVER (ORDER BY id), min(c COLLATE BINARY) OVER (ORDER BY id ROWS 1 PRECEDING), group_concat(c) OVER (ORDER BY c, id) FROM nc ORDER BY id",
    "SELECT id, max(s COLLATE NOCASE) OVER (ORDER BY id), min(s COLLATE NOCASE) OVER (ORDER BY id ROWS 2 PRECEDING), max(s) OVER (PARTITION BY g) FROM t ORDER BY id",
    // FILTER.
    "SELECT id, count(*) FILTER (WHERE x > 6) OVER (ORDER BY id), sum(x) FILTER (WHERE g = 'a') OVER () FROM t ORDER BY id",
    "SELECT id, group_concat(s) FILTER (WHERE id % 2 = 0) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM t ORDER BY id",
    // ROWS frames.
    "SELECT id, sum(x) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM t ORDER BY id",
    "SELECT id, sum(x) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM t ORDER BY id",
    "SELECT id, sum(x) OVER (ORDER BY id ROWS BETWEEN 3 PRECEDING AND 1 PRECEDING) FROM t ORDER BY id",
    "SELECT id, sum(x) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND 3 FOLLOWING) FROM t ORDER BY id",
    "SELECT id, sum(x) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND 5 PRECEDING) FROM t ORDER BY id",
    "SELECT id, count(*) OVER (ORDER BY id ROWS 2 PRECEDING), count(*) OVER (ORDER BY id ROWS UNBOUNDED PRECEDING), count(*) OVER (ORDER BY id ROWS CURRENT ROW) FROM t ORDER BY id",
    "SELECT id, sum(x) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 FOLLOWING) FROM t ORDER BY id",
    "SELECT id, sum(x) OVER (ORDER BY id ROWS BETWEEN 0 PRECEDING AND 0 FOLLOWING) FROM t ORDER BY id",
    "SELECT id, sum(x) OVER (ORDER BY id ROWS BETWEEN 100 PRECEDING AND 100 FOLLOWING) FROM t ORDER BY id",
    "SELECT id, sum(x) OVER (ORDER BY id ROWS BETWEEN '1' PRECEDING AND 1.0 FOLLOWING) FROM t ORDER BY id",
    // GROUPS frames.
    "SELECT id, x, sum(id) OVER (ORDER BY x GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM t ORDER BY id",
    "SELECT id, x, count(*) OVER (ORDER BY x GROUPS CURRENT ROW), count(*) OVER (ORDER BY x GROUPS 2 PRECEDING) FROM t ORDER BY id",
    "SELECT id, x, group_concat(id) OVER (ORDER BY x GROUPS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING) FROM t ORDER BY id",
    "SELECT id, x, sum(id) OVER (PARTITION BY g ORDER BY x DESC GROUPS BETWEEN CURRENT ROW AND 1 FOLLOWING) FROM t ORDER BY id",
    // RANGE frames.
    "SELECT id, x, sum(id) OVER (ORDER BY x RANGE BETWEEN 5 PRECEDING AND 5 FOLLOWING) FROM t ORDER BY id",
    "SELECT id, x, sum(id) OVER (ORDER BY x DESC RANGE BETWEEN 5 PRECEDING AND 10 FOLLOWING) FROM t ORDER BY id",
    "SELECT id, x, count(*) OVER (ORDER BY x RANGE BETWEEN CURRENT ROW AND 10 FOLLOWING) FROM t ORDER BY id",
    "SELECT id, x, count(*) OVER (ORDER BY x NULLS LAST RANGE BETWEEN 10 PRECEDING AND CURRENT ROW) FROM t ORDER BY id",
    "SELECT id, x, count(*) OVER (ORDER BY x RANGE BETWEEN UNBOUNDED PRECEDING AND 2.5 FOLLOWING) FROM t ORDER BY id",
    "SELECT id, y, sum(id) OVER (ORDER BY y RANGE BETWEEN 1.5 PRECEDING AND 0.5 FOLLOWING) FROM t ORDER BY id",
    "SELECT id, x, count(*) OVER (ORDER BY x RANGE CURRENT ROW), count(*) OVER (ORDER BY x RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM t ORDER BY id",
    "SELECT n, v, count(*) OVER (ORDER BY v RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING), group_concat(n) OVER (ORDER BY v RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM e ORDER BY n",
    "SELECT n, v, group_concat(n) OVER (ORDER BY v DESC RANGE BETWEEN 2 PRECEDING AND CURRENT ROW) FROM e ORDER BY n",
    "SELECT n, v, rank() OVER (ORDER BY v), dense_rank() OVER (ORDER BY v DESC) FROM e ORDER BY n",
    // Named windows.
    "SELECT id, sum(x) OVER w, row_number() OVER w FROM t WINDOW w AS (PARTITION BY g ORDER BY id) ORDER BY id",
    "SELECT id, sum(x) OVER (w ORDER BY id) FROM t WINDOW w AS (PARTITION BY g) ORDER BY id",
    "SELECT id, sum(x) OVER (w ROWS 1 PRECEDING) FROM t WINDOW w AS (PARTITION BY g ORDER BY id) ORDER BY id",
    "SELECT id, sum(x) OVER w2 FROM t WINDOW w1 AS (PARTITION BY g), w2 AS (w1 ORDER BY id DESC) ORDER BY id",
    // Several windows, windows in expressions and ORDER BY, over joins and aggregates.
    "SELECT id, row_number() OVER (ORDER BY id DESC) * 10 + rank() OVER (PARTITION BY g ORDER BY x) FROM t ORDER BY id",
    "SELECT id, x - lag(x) OVER (ORDER BY id) AS d FROM t ORDER BY d, id",
    "SELECT id FROM t ORDER BY row_number() OVER (ORDER BY s, id) DESC",
    "SELECT g, sum(x), rank() OVER (ORDER BY sum(x) DESC) FROM t GROUP BY g ORDER BY g",
    "SELECT g, count(*), sum(count(*)) OVER (ORDER BY g) FROM t GROUP BY g ORDER BY g",
    "SELECT g, max(x), lag(max(x)) OVER (ORDER BY g) FROM t GROUP BY g HAVING count(*) > 1 ORDER BY g",
    "SELECT a.id, b.id, row_number() OVER (PARTITION BY a.id ORDER BY b.id) FROM t AS a JOIN t AS b ON a.g = b.g WHERE a.id < 4 ORDER BY 1, 2",
    "SELECT DISTINCT g, count(*) OVER (PARTITION BY g) FROM t ORDER BY g",
    "SELECT id, sum(x) OVER (ORDER BY id) FROM t ORDER BY id LIMIT 3 OFFSET 2",
    "SELECT id, row_number() OVER (ORDER BY id) FROM t WHERE x > 6 ORDER BY id",
    "SELECT * FROM (SELECT id, rank() OVER (PARTITION BY g ORDER BY x DESC) AS r FROM t) WHERE r = 1 ORDER BY id",
    "SELECT id, (SELECT count(*) OVER () FROM t AS u WHERE u.id <= t.id LIMIT 1) FROM t ORDER BY id",
    "SELECT a, row_number() OVER (), sum(a) OVER () FROM empty",
    "SELECT count(*) OVER () FROM t WHERE 0",
    "SELECT row_number() OVER (), 5",
    "SELECT x, ntile(3) OVER (ORDER BY x) FROM (SELECT 1 AS x UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7) ORDER BY x",
];

/// Queries SQLite refuses (and so must we).
const REFUSED: &[(&str, &str)] = &[
    ("SELECT row_number() FROM t", "misuse of window function row_number()"),
    ("SELECT id FROM t WHERE row_number() OVER () > 1", "misuse of window function"),
    ("SELECT g FROM t GROUP BY row_number() OVER ()", "misuse of window function"),
    ("SELECT count(*) FROM t HAVING row_number() OVER () > 1", "misuse of window function"),
    ("SELECT ntile(0) OVER (ORDER BY id) FROM t", "argument of ntile must be a positive integer"),
    ("SELECT ntile(-1) OVER () FROM t", "argument of ntile must be a positive integer"),
    ("SELECT ntile(NULL) OVER () FROM t", "argument of ntile must be a positive integer"),
    (
        "SELECT nth_value(x, 0) OVER () FROM t",
        "second argument to nth_value must be a positive integer",
    ),
    (
        "SELECT nth_value(x, -1) OVER (ORDER BY id) FROM t",
        "second argument to nth_value must be a positive integer",
    ),
    (
        "SELECT nth_value(x, 'a') OVER (ORDER BY id) FROM t",
        "second argument to nth_value must be a positive integer",
    ),
    (
        "SELECT sum(x) OVER (ORDER BY id ROWS -1 PRECEDING) FROM t",
        "frame starting offset must be a non-negative integer",
    ),
    (
        "SELECT sum(x) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1.5 FOLLOWING) FROM t",
        "frame ending offset must be a non-negative integer",
    ),
    (
        "SELECT sum(x) OVER (ORDER BY id RANGE BETWEEN -1 PRECEDING AND CURRENT ROW) FROM t",
        "frame starting offset must be a non-negative number",
    ),
    (
        "SELECT sum(x) OVER (ORDER BY id RANGE BETWEEN CURRENT ROW AND 'x' FOLLOWING) FROM t",
        "frame ending offset must be a non-negative number",
    ),
    (
        "SELECT sum(x) OVER (RANGE 1 PRECEDING) FROM t",
        "RANGE with offset PRECEDING/FOLLOWING requires one ORDER BY expression",
    ),
    (
        "SELECT sum(x) OVER (ORDER BY x, id RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t",
        "RANGE with offset PRECEDING/FOLLOWING requires one ORDER BY expression",
    ),
    (
        "SELECT sum(x) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND 1 PRECEDING) FROM t",
        "unsupported frame specification",
    ),
    (
        "SELECT sum(x) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND CURRENT ROW) FROM t",
        "unsupported frame specification",
    ),
    (
        "SELECT sum(x) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND 1 PRECEDING) FROM t",
        "unsupported frame specification",
    ),
    (
        "SELECT sum(x) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED FOLLOWING AND CURRENT ROW) FROM t",
        "",
    ),
    (
        "SELECT sum(x) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED PRECEDING) FROM t",
        "",
    ),
    ("SELECT count(DISTINCT x) OVER () FROM t", "DISTINCT is not supported for window functions"),
    (
        "SELECT row_number() FILTER (WHERE x > 1) OVER () FROM t",
        "FILTER clause may only be used with aggregate window functions",
    ),
    ("SELECT abs(x) OVER () FROM t", "abs() may not be used as a window function"),
    ("SELECT nosuch(x) OVER () FROM t", "no such function: nosuch"),
    ("SELECT row_number(1) OVER () FROM t", "wrong number of arguments to function row_number()"),
    ("SELECT lag() OVER () FROM t", "wrong number of arguments to function lag()"),
    ("SELECT ntile() OVER () FROM t", "wrong number of arguments to function ntile()"),
    ("SELECT sum(x) OVER w FROM t", "no such window: w"),
    (
        "SELECT sum(x) OVER (w PARTITION BY id) FROM t WINDOW w AS (ORDER BY id)",
        "cannot override PARTITION clause of window: w",
    ),
    (
        "SELECT sum(x) OVER (w ORDER BY id) FROM t WINDOW w AS (ORDER BY x)",
        "cannot override ORDER BY clause of window: w",
    ),
    (
        "SELECT sum(x) OVER (w ORDER BY id) FROM t WINDOW w AS (ROWS 1 PRECEDING)",
        "cannot override frame specification of window: w",
    ),
    ("SELECT sum(row_number() OVER ()) OVER () FROM t", ""),
    ("SELECT abs(x) FILTER (WHERE x > 1) FROM t", ""),
    // EXCLUDE only after a frame.
    ("SELECT sum(id) OVER (ORDER BY x exclude ties) FROM t", "syntax error"),
    ("SELECT count(*) OVER (EXCLUDE TIES) FROM t", "syntax error"),
    ("SELECT count(*) OVER (ROWS CURRENT ROW EXCLUDE) FROM t", "syntax error"),
    ("SELECT count(*) OVER (ROWS CURRENT ROW EXCLUDE OTHERS) FROM t", "syntax error"),
    ("SELECT count(*) OVER (ORDER BY id EXCLUDE NO OTHERS) FROM t", "syntax error"),
];

fn compare(s: &mut Session, c: &rusqlite::Connection, sql: &str) -> Option<String> {
    let (a, b) = match (values_common::ours_query(s, sql), values_common::sqlite_query(c, sql)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(_), Err(_)) => return None,
        (a, b) => return Some(format!("{sql}\n  ours:   {a:?}\n  sqlite: {b:?}")),
    };
    let ka: Vec<String> = a.1.iter().map(|r| row_key(r)).collect();
    let kb: Vec<String> = b.1.iter().map(|r| row_key(r)).collect();
    if a.0 != b.0 || ka.len() != kb.len() {
        return Some(format!("{sql}\n  ours:   {:?} {ka:?}\n  sqlite: {:?} {kb:?}", a.0, b.0));
    }
    // The first differing row (and how many differ), short enough to read.
    let bad: Vec<usize> = (0..ka.len()).filter(|&i| ka[i] != kb[i]).collect();
    bad.first().map(|&i| {
        let (ra, rb) = (&a.1[i], &b.1[i]);
        let cols: Vec<String> = (0..ra.len())
            .filter(|&j| row_key(&ra[j..=j]) != row_key(&rb[j..=j]))
            .map(|j| {
                format!("{}: ours {} sqlite {}", a.0[j], row_key(&ra[j..=j]), row_key(&rb[j..=j]))
            })
            .collect();
        format!(
            "{sql}\n  {} rows differ; row {i} (first column {}): {cols:?}",
            bad.len(),
            row_key(&ra[..1])
        )
    })
}

fn setup(engine: &Engine) -> (Session, rusqlite::Connection) {
    values_common::loaded(engine, SETUP)
}

#[test]
fn window_queries_match_sqlite() {
    let mut diffs = Vec::new();
    for e in values_common::both_stores() {
        let (mut s, c) = setup(&e);
        diffs.extend(QUERIES.iter().filter_map(|q| compare(&mut s, &c, q)));
    }
    for d in &diffs {
        println!("{d}");
    }
    assert!(diffs.is_empty(), "{} queries differ from SQLite", diffs.len());
}

#[test]
fn refused_window_queries_are_refused_like_sqlite() {
    let mut bad = Vec::new();
    for e in values_common::both_stores() {
        let (mut s, c) = setup(&e);
        for (q, msg) in REFUSED {
            match values_common::sqlite_query(&c, q) {
                Ok(_) => bad.push(format!("SQLite accepts: {q}")),
                Err(e) if !e.contains(msg) => bad.push(format!("SQLite says {e:?} to {q}")),
                Err(_) => {}
            }
            match values_common::ours_query(&mut s, q) {
                Ok(r) => bad.push(format!("accepted: {q} -> {r:?}")),
                Err(e) if !e.contains(msg) => bad.push(format!("we say {e:?} to {q}")),
                Err(_) => {}
            }
        }
    }
    for b in &bad {
        println!("{b}");
    }
    assert!(bad.is_empty(), "{} refusals differ", bad.len());
}

/// EXCLUDE, which the parser carries to the binder (see `parse.rs`).
const EXCLUDES: &[&str] = &[
    "SELECT id, x, sum(id) OVER (ORDER BY x ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING EXCLUDE CURRENT ROW) FROM t ORDER BY id",
    "SELECT id, x, sum(id) OVER (ORDER BY x ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING EXCLUDE GROUP) FROM t ORDER BY id",
    "SELECT id, x, group_concat(id) OVER (ORDER BY x GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE TIES) FROM t ORDER BY id",
    "SELECT id, x, count(*) OVER (ORDER BY x RANGE BETWEEN 10 PRECEDING AND 10 FOLLOWING EXCLUDE NO OTHERS) FROM t ORDER BY id",
    "SELECT id, first_value(id) OVER (ORDER BY x ROWS BETWEEN CURRENT ROW AND 2 FOLLOWING EXCLUDE CURRENT ROW), last_value(id) OVER (ORDER BY x ROWS BETWEEN 2 PRECEDING AND CURRENT ROW EXCLUDE TIES), nth_value(id, 2) OVER (ORDER BY x GROUPS CURRENT ROW EXCLUDE GROUP) FROM t ORDER BY id",
    "SELECT id, sum(x) OVER w FROM t WINDOW w AS (PARTITION BY g ORDER BY x ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE CURRENT ROW) ORDER BY id",
    "SELECT id, sum(x) OVER (w ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE GROUP) FROM t WINDOW w AS (ORDER BY x) ORDER BY id",
    "SELECT id, rank() OVER (ORDER BY x ROWS CURRENT ROW EXCLUDE CURRENT ROW), row_number() OVER (ORDER BY id ROWS CURRENT ROW EXCLUDE GROUP) FROM t ORDER BY id",
];

#[test]
fn excludes_match_sqlite() {
    let mut diffs = Vec::new();
    for e in values_common::both_stores() {
        let (mut s, c) = setup(&e);
        diffs.extend(EXCLUDES.iter().filter_map(|q| compare(&mut s, &c, q)));
        // SQLite accepts every one of them.
        for q in EXCLUDES {
            assert!(values_common::sqlite_query(&c, q).is_ok(), "{q}");
        }
    }
    for d in &diffs {
        println!("{d}");
    }
    assert!(diffs.is_empty(), "{} queries differ from SQLite", diffs.len());
}

/// Without an outer ORDER BY, rows come out in the window's order (as
/// SQLite's do), and rows that tie under the window's ORDER BY keep
/// their input order in both engines.
const UNORDERED: &[&str] = &[
    "SELECT id, row_number() OVER (ORDER BY x) FROM t",
    "SELECT id, g, row_number() OVER (PARTITION BY g) FROM t",
    "SELECT id, rank() OVER (PARTITION BY g ORDER BY x DESC) FROM t",
    "SELECT id, row_number() OVER (ORDER BY g), lag(id) OVER (ORDER BY g) FROM t",
    "SELECT id, first_value(id) OVER (PARTITION BY s COLLATE NOCASE) FROM t",
    "SELECT g, sum(x), row_number() OVER (ORDER BY sum(x)) FROM t GROUP BY g",
    "SELECT id, sum(x) OVER () FROM t",
];

#[test]
fn unordered_window_queries_match_sqlite_in_order() {
    let mut diffs = Vec::new();
    for e in values_common::both_stores() {
        let (mut s, c) = setup(&e);
        diffs.extend(UNORDERED.iter().filter_map(|q| compare(&mut s, &c, q)));
    }
    for d in &diffs {
        println!("{d}");
    }
    assert!(diffs.is_empty(), "{} queries differ from SQLite", diffs.len());
}

/// Several windows: the rows come out in SQLite's order.
#[test]
fn several_windows_come_out_in_sqlite_order() {
    let mut diffs = Vec::new();
    for e in values_common::both_stores() {
        let (mut s, c) = setup(&e);
        for q in [
            "SELECT id, row_number() OVER (ORDER BY x, id), rank() OVER (ORDER BY id DESC) FROM t",
            "SELECT id, rank() OVER (ORDER BY id DESC), row_number() OVER (ORDER BY s, id) FROM t",
            "SELECT id, sum(x) OVER (PARTITION BY g), count(*) OVER (ORDER BY y, id), sum(id) OVER (PARTITION BY g) FROM t",
        ] {
            diffs.extend(compare(&mut s, &c, q));
        }
    }
    for d in &diffs {
        println!("{d}");
    }
    assert!(diffs.is_empty(), "{} queries differ from SQLite", diffs.len());
}

/// Rows of the spill tests: partition `p` 0 has 400 rows, 1 has 150, 2
/// has 30, 3 one; `k` orders them with long runs of ties and NULLs; `c`
/// is a NOCASE column in mixed case.
fn spill_setup() -> Vec<String> {
    let mut v = vec![
        "CREATE TABLE w(id INTEGER PRIMARY KEY, p INTEGER, k INTEGER, x INTEGER, y REAL, c TEXT COLLATE NOCASE)"
            .to_string(),
    ];
    let mut rows = Vec::new();
    let mut id = 0i64;
    for (p, n) in [(0i64, 400i64), (1, 150), (2, 30), (3, 1)] {
        for j in 0..n {
            id += 1;
            let k = if j % 13 == 5 { "NULL".to_string() } else { ((j * 37) % 41 / 3).to_string() };
            let x = if j % 11 == 3 {
                "NULL".to_string()
            } else {
                ((j * 7919) % 1000 - 500).to_string()
            };
            let y = ((j * 31) % 200 - 100) as f64 / 4.0;
            let c = ["apple", "Apple", "BANANA", "banana", "cherry", "Cherry", "date"]
                [(j * 3 % 7) as usize];
            rows.push(format!("({id}, {p}, {k}, {x}, {y}, '{c}{}')", j % 5));
        }
    }
    for chunk in rows.chunks(100) {
        v.push(format!("INSERT INTO w VALUES {}", chunk.join(",")));
    }
    v
}

/// Frames run over a spilled partition (every unit and bound, EXCLUDE).
const SPILL_FRAMES: &[&str] = &[
    "ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW",
    "ROWS BETWEEN 3 PRECEDING AND 2 FOLLOWING",
    "ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING",
    "ROWS BETWEEN 5 PRECEDING AND 1 PRECEDING",
    "ROWS BETWEEN 2 FOLLOWING AND 40 FOLLOWING",
    "ROWS BETWEEN 1 PRECEDING AND UNBOUNDED FOLLOWING",
    "ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING",
    "ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING EXCLUDE CURRENT ROW",
    "ROWS BETWEEN 30 PRECEDING AND 30 FOLLOWING EXCLUDE GROUP",
    "ROWS BETWEEN UNBOUNDED PRECEDING AND 3 FOLLOWING EXCLUDE TIES",
    "GROUPS BETWEEN 2 PRECEDING AND 1 FOLLOWING",
    "GROUPS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING",
    "GROUPS BETWEEN 1 FOLLOWING AND 3 FOLLOWING",
    "GROUPS BETWEEN 2 PRECEDING AND 1 PRECEDING EXCLUDE NO OTHERS",
    "GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE TIES",
    "GROUPS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW EXCLUDE GROUP",
    "RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW",
    "RANGE BETWEEN 3 PRECEDING AND 2 FOLLOWING",
    "RANGE BETWEEN CURRENT ROW AND 5 FOLLOWING",
    "RANGE BETWEEN 2 FOLLOWING AND 4 FOLLOWING",
    "RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING",
    "RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE CURRENT ROW",
    "RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING EXCLUDE TIES",
];

/// The functions run over each spill frame.
const SPILL_CALLS: &str = "sum(x) OVER f, count(x) OVER f, count(*) OVER f, total(y) OVER f, \
    avg(y) OVER f, min(c) OVER f, max(c) OVER f, group_concat(x) OVER f, \
    first_value(x) OVER f, last_value(id) OVER f, nth_value(x, 3) OVER f, \
    sum(x) FILTER (WHERE x > 0) OVER f, json_group_array(x) OVER f";

/// Queries over the spilled partitions that ignore frames.
const SPILL_QUERIES: &[&str] = &[
    "SELECT id, row_number() OVER (PARTITION BY p ORDER BY k, id), rank() OVER (PARTITION BY p ORDER BY k), dense_rank() OVER (PARTITION BY p ORDER BY k), percent_rank() OVER (PARTITION BY p ORDER BY k), cume_dist() OVER (PARTITION BY p ORDER BY k) FROM w ORDER BY id",
    "SELECT id, rank() OVER (ORDER BY k DESC NULLS FIRST), cume_dist() OVER (ORDER BY c), percent_rank() OVER (ORDER BY k NULLS LAST) FROM w ORDER BY id",
    "SELECT id, cume_dist() OVER (), rank() OVER (), ntile(7) OVER (PARTITION BY p ORDER BY id), ntile(1000) OVER (ORDER BY k, id) FROM w ORDER BY id",
    "SELECT id, lag(x) OVER (ORDER BY id), lead(x, 3, -1) OVER (PARTITION BY p ORDER BY id), lag(x, 40) OVER (PARTITION BY p ORDER BY id), lead(x, id % 5) OVER (ORDER BY id), lag(x, 500, 'none') OVER (ORDER BY id), lag(id, 1 + id % 300) OVER (ORDER BY k, id) FROM w ORDER BY id",
    "SELECT id, first_value(x) OVER w, last_value(x) OVER w, nth_value(x, 5) OVER w, nth_value(id, 300) OVER w, sum(x) OVER w, max(c) OVER w FROM w WINDOW w AS (PARTITION BY p ORDER BY k) ORDER BY id",
    "SELECT id, sum(x) OVER (ORDER BY k DESC RANGE BETWEEN 2 PRECEDING AND 1 FOLLOWING), max(c) OVER (ORDER BY k DESC NULLS FIRST RANGE BETWEEN 1 PRECEDING AND CURRENT ROW), min(c) OVER (ORDER BY k NULLS LAST RANGE BETWEEN 2 PRECEDING AND 3 FOLLOWING) FROM w ORDER BY id",
    "SELECT id, max(x) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING), min(x) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND UNBOUNDED FOLLOWING) FROM w ORDER BY id",
    "SELECT id, count(*) OVER (), sum(x) OVER (), min(c) OVER (), max(c COLLATE BINARY) OVER () FROM w ORDER BY id",
    "SELECT p, k, sum(x), rank() OVER (PARTITION BY p ORDER BY sum(x)), sum(sum(x)) OVER (ORDER BY p, k ROWS 3 PRECEDING) FROM w GROUP BY p, k ORDER BY p, k",
];

/// Every frame kind and function over partitions that spill: a memory
/// budget of a few KB makes both the sort and every partition of more
/// than a handful of rows go to spill files, with peer groups across the
/// spill boundary and cursors far apart.
#[test]
fn spilled_partitions_match_sqlite() {
    let setup = spill_setup();
    let setup: Vec<&str> = setup.iter().map(String::as_str).collect();
    let mut queries: Vec<String> = SPILL_QUERIES.iter().map(|q| q.to_string()).collect();
    for f in SPILL_FRAMES {
        queries.push(format!(
            "SELECT id, {SPILL_CALLS} FROM w WINDOW f AS (PARTITION BY p ORDER BY k {f}) ORDER BY id"
        ));
    }
    let mut diffs = Vec::new();
    for e in values_common::both_stores() {
        e.set_memory_budget(4096);
        let (mut s, c) = values_common::loaded(&e, &setup);
        diffs.extend(queries.iter().filter_map(|q| compare(&mut s, &c, q)));
    }
    for d in &diffs {
        println!("{d}");
    }
    assert!(diffs.is_empty(), "{} queries differ from SQLite", diffs.len());
}
