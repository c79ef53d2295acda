//! Joins against SQLite (rusqlite, bundled): RIGHT and FULL joins (SQLite
//! 3.39 semantics) in every position of a chain, with ON, USING and
//! NATURAL, mixed with LEFT / INNER / CROSS joins, constant ON terms,
//! WHERE terms over the NULL-extended side, and through each join
//! operator (nested loop, index lookup, hash join, a spilled hash join),
//! on both of our stores.
//!
//! Invariants pinned: the rows (storage classes included, as a multiset
//! unless the query orders them totally) and column names equal SQLite's;
//! a statement SQLite refuses is refused.

mod values_common;

use values_common::row_key;

use asadb_sql::session::{Engine, Session};

const SETUP: &[&str] = &[
    "CREATE TABLE a(id INTEGER PRIMARY KEY, k INTEGER, v TEXT)",
    "INSERT INTO a VALUES (1, 1, 'a1'), (2, 2, 'a2'), (3, 2, 'a3'), (4, NULL, 'a4'), (5, 9, NULL)",
    "CREATE TABLE b(id INTEGER PRIMARY KEY, k INTEGER, w TEXT)",
    "INSERT INTO b VALUES (10, 2, 'b2'), (11, 3, 'b3'), (12, NULL, 'bn'), (13, 2, 'b2x'), (14, 7, NULL)",
    "CREATE TABLE c(id INTEGER PRIMARY KEY, k INTEGER, x REAL)",
    "INSERT INTO c VALUES (20, 3, 0.5), (21, 1, 1.5), (22, 8, NULL), (23, NULL, 2.5)",
    "CREATE INDEX c_k ON c(k)",
    "CREATE TABLE e(k INTEGER, z TEXT)",
    "CREATE TABLE n(k INTEGER, v TEXT)",
    "INSERT INTO n VALUES (NULL, 'x'), (NULL, 'y')",
    // USING / NATURAL: same names, different affinities.
    "CREATE TABLE u1(k INT, p TEXT)",
    "INSERT INTO u1 VALUES (1, 'x'), (5, 'y'), (NULL, 'n')",
    "CREATE TABLE u2(k TEXT, q TEXT)",
    "INSERT INTO u2 VALUES ('1', 'p'), ('3', 'q'), (NULL, 'm')",
    "CREATE TABLE u3(k BLOB, r TEXT)",
    "INSERT INTO u3 VALUES (1, 'r'), (7, 's'), ('3', 't')",
    "CREATE TABLE big(id INTEGER PRIMARY KEY, k INTEGER, pad TEXT)",
    "INSERT INTO big WITH RECURSIVE s(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM s WHERE value < 3000) \
     SELECT value, value % 37, printf('%050d', value) FROM s",
    "CREATE TABLE big2(id INTEGER PRIMARY KEY, k INTEGER, pad TEXT)",
    "INSERT INTO big2 WITH RECURSIVE s(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM s WHERE value < 2000) \
     SELECT value, CASE WHEN value % 11 = 0 THEN NULL ELSE value % 53 END, printf('%040d', value) FROM s",
];

const QUERIES: &[&str] = &[
    // Two-way RIGHT / FULL with ON.
    "SELECT * FROM a RIGHT JOIN b ON a.k = b.k",
    "SELECT * FROM a RIGHT OUTER JOIN b ON a.k = b.k",
    "SELECT * FROM a FULL JOIN b ON a.k = b.k",
    "SELECT * FROM a FULL OUTER JOIN b ON a.k = b.k",
    "SELECT a.v, b.w FROM a RIGHT JOIN b ON a.k < b.k",
    "SELECT a.v, b.w FROM a FULL JOIN b ON a.k > b.k AND b.w IS NOT NULL",
    "SELECT * FROM a RIGHT JOIN b ON a.k = b.k AND a.v <> 'a2'",
    "SELECT * FROM a FULL JOIN b ON a.k = b.k AND b.id > 10",
    "SELECT * FROM a FULL JOIN b ON a.k + 0 = b.k - 0",
    "SELECT * FROM b RIGHT JOIN a ON a.id = b.id - 9",
    "SELECT * FROM a RIGHT JOIN c ON c.k = a.k",
    "SELECT * FROM c RIGHT JOIN a ON c.k = a.k",
    "SELECT * FROM c FULL JOIN a ON c.k = a.k",
    "SELECT * FROM a RIGHT JOIN c ON c.id = a.id + 19",
    // Constant ON terms.
    "SELECT * FROM a RIGHT JOIN b ON 1",
    "SELECT * FROM a RIGHT JOIN b ON 0",
    "SELECT * FROM a FULL JOIN b ON 0",
    "SELECT * FROM a FULL JOIN b ON NULL",
    "SELECT * FROM a FULL JOIN b ON a.k = b.k AND 0",
    "SELECT * FROM a RIGHT JOIN b ON a.k = b.k AND 1",
    "SELECT * FROM a FULL JOIN b ON b.k = 2",
    "SELECT * FROM a FULL JOIN b ON a.k = 2",
    "SELECT * FROM a RIGHT JOIN b ON a.k IS b.k",
    // WHERE over the NULL-extended side.
    "SELECT * FROM a RIGHT JOIN b ON a.k = b.k WHERE a.id IS NULL",
    "SELECT * FROM a RIGHT JOIN b ON a.k = b.k WHERE a.v = 'a2'",
    "SELECT * FROM a FULL JOIN b ON a.k = b.k WHERE a.id IS NULL OR b.id IS NULL",
    "SELECT * FROM a FULL JOIN b ON a.k = b.k WHERE b.k = 2",
    "SELECT * FROM a FULL JOIN b ON a.k = b.k WHERE coalesce(a.k, b.k) > 2",
    "SELECT * FROM a RIGHT JOIN b ON a.k = b.k WHERE b.id = 12",
    "SELECT * FROM a RIGHT JOIN b ON a.k = b.k WHERE 1",
    "SELECT * FROM a RIGHT JOIN b ON a.k = b.k WHERE 0",
    "SELECT * FROM a RIGHT JOIN b ON a.k = b.k WHERE a.k IS NOT b.k",
    // Empty and all-NULL sides.
    "SELECT * FROM e RIGHT JOIN a ON e.k = a.k",
    "SELECT * FROM a RIGHT JOIN e ON e.k = a.k",
    "SELECT * FROM e FULL JOIN a ON e.k = a.k",
    "SELECT * FROM a FULL JOIN e ON e.k = a.k",
    "SELECT * FROM e FULL JOIN e AS e2 ON e.k = e2.k",
    "SELECT * FROM n FULL JOIN a ON n.k = a.k",
    "SELECT * FROM n RIGHT JOIN n AS n2 ON n.k = n2.k",
    "SELECT * FROM n FULL JOIN n AS n2 USING (k)",
    "SELECT count(*) FROM e RIGHT JOIN e AS e2 ON 1",
    // Self joins and duplicates.
    "SELECT x.id, y.id FROM a AS x RIGHT JOIN a AS y ON x.k = y.k",
    "SELECT x.id, y.id FROM a AS x FULL JOIN a AS y ON x.k = y.k AND x.id < y.id",
    "SELECT x.id, y.id FROM b AS x FULL JOIN b AS y ON x.k = y.k + 1",
    // Three-way chains: RIGHT / FULL in every position.
    "SELECT a.id, b.id, c.id FROM a RIGHT JOIN b ON a.k = b.k RIGHT JOIN c ON b.k = c.k",
    "SELECT a.id, b.id, c.id FROM a FULL JOIN b ON a.k = b.k FULL JOIN c ON b.k = c.k",
    "SELECT a.id, b.id, c.id FROM a FULL JOIN b ON a.k = b.k FULL JOIN c ON a.k = c.k",
    "SELECT a.id, b.id, c.id FROM a LEFT JOIN b ON a.k = b.k RIGHT JOIN c ON a.k = c.k",
    "SELECT a.id, b.id, c.id FROM a RIGHT JOIN b ON a.k = b.k LEFT JOIN c ON b.k = c.k",
    "SELECT a.id, b.id, c.id FROM a JOIN b ON a.k = b.k RIGHT JOIN c ON b.k + 1 = c.k",
    "SELECT a.id, b.id, c.id FROM a RIGHT JOIN b ON a.k = b.k JOIN c ON c.k = b.k",
    "SELECT a.id, b.id, c.id FROM a RIGHT JOIN b ON a.k = b.k JOIN c ON c.k = a.k",
    "SELECT a.id, b.id, c.id FROM a FULL JOIN b ON a.k = b.k JOIN c ON c.k = coalesce(a.k, b.k)",
    "SELECT a.id, b.id, c.id FROM a CROSS JOIN b RIGHT JOIN c ON a.k = c.k AND b.k = c.k",
    "SELECT a.id, b.id, c.id FROM a, b RIGHT JOIN c ON b.k = c.k WHERE a.id = 1",
    "SELECT a.id, b.id, c.id FROM a FULL JOIN b ON a.k = b.k LEFT JOIN c ON c.k = b.k",
    "SELECT a.id, b.id, c.id FROM a LEFT JOIN b ON a.k = b.k FULL JOIN c ON c.k = b.k",
    "SELECT a.id, b.id, c.id FROM a JOIN b ON a.k = b.k AND a.v = 'a2' FULL JOIN c ON c.k = b.k",
    "SELECT a.id, b.id, c.id FROM a JOIN b ON b.w = 'b2' RIGHT JOIN c ON c.k = b.k",
    "SELECT a.id, b.id, c.id FROM a RIGHT JOIN b ON a.k = b.k FULL JOIN c ON c.k = b.k WHERE c.id IS NULL",
    "SELECT a.id, b.id, c.id FROM a RIGHT JOIN b ON a.k = b.k RIGHT JOIN c ON c.k = a.k WHERE b.id IS NOT NULL OR c.x > 1",
    "SELECT a.id, b.id, c.id, e.k FROM a FULL JOIN b ON a.k = b.k RIGHT JOIN c ON c.k = a.k FULL JOIN e ON e.k = c.k",
    "SELECT * FROM a RIGHT JOIN b ON a.k = b.k RIGHT JOIN c ON 0",
    "SELECT * FROM a FULL JOIN b ON 0 FULL JOIN c ON 0",
    "SELECT a.id, b.id, c.id FROM c RIGHT JOIN a ON c.k = a.k RIGHT JOIN b ON a.k = b.k",
    // USING and NATURAL.
    "SELECT * FROM u1 RIGHT JOIN u2 USING (k)",
    "SELECT k, typeof(k), u1.k, u2.k FROM u1 RIGHT JOIN u2 USING (k)",
    "SELECT * FROM u1 FULL JOIN u2 USING (k)",
    "SELECT k, typeof(k) FROM u1 FULL JOIN u2 USING (k)",
    "SELECT * FROM u1 NATURAL FULL JOIN u2",
    "SELECT * FROM u1 NATURAL RIGHT JOIN u2",
    "SELECT * FROM u1 FULL JOIN u2 USING (k) FULL JOIN u3 USING (k)",
    "SELECT k, typeof(k) FROM u1 FULL JOIN u2 USING (k) FULL JOIN u3 USING (k)",
    "SELECT * FROM u1 LEFT JOIN u2 USING (k) RIGHT JOIN u3 USING (k)",
    "SELECT * FROM u1 RIGHT JOIN u2 USING (k) LEFT JOIN u3 USING (k)",
    "SELECT * FROM u1 JOIN u2 USING (k) FULL JOIN u3 USING (k)",
    "SELECT * FROM u1 FULL JOIN u2 USING (k) JOIN u3 USING (k)",
    "SELECT * FROM u1 RIGHT JOIN u2 USING (k) RIGHT JOIN u3 USING (k)",
    "SELECT u1.*, u2.* FROM u1 FULL JOIN u2 USING (k)",
    "SELECT * FROM u1 FULL JOIN u2 USING (k) WHERE k IS NULL",
    "SELECT * FROM u1 FULL JOIN u2 USING (k) WHERE k = 3",
    "SELECT * FROM a NATURAL FULL JOIN b",
    "SELECT * FROM a FULL JOIN b USING (id, k)",
    // Index lookups, hash joins and nested loops after an outer join.
    "SELECT a.id, b.id, c.id FROM a RIGHT JOIN b ON a.k = b.k LEFT JOIN c ON c.k = b.k",
    "SELECT a.id, b.id, c.id FROM a RIGHT JOIN b ON a.k = b.k LEFT JOIN c ON c.id = b.id + 10",
    "SELECT a.id, b.id, c.id FROM a FULL JOIN b ON a.k = b.k JOIN c ON c.id = coalesce(a.id, b.id) + 19",
    // ORDER BY, GROUP BY, aggregates over the NULL-extended side.
    "SELECT a.id, b.id FROM a FULL JOIN b ON a.k = b.k ORDER BY a.id, b.id",
    "SELECT a.id, b.id FROM a FULL JOIN b ON a.k = b.k ORDER BY b.id DESC, a.id DESC",
    "SELECT a.id, b.id FROM a FULL JOIN b ON a.k = b.k ORDER BY a.id NULLS LAST, b.id LIMIT 4",
    "SELECT a.id, b.id FROM a FULL JOIN b ON a.k = b.k ORDER BY 1, 2 LIMIT 3 OFFSET 2",
    "SELECT b.k, count(*), count(a.id), sum(a.id), group_concat(a.v) FROM a RIGHT JOIN b ON a.k = b.k GROUP BY b.k",
    "SELECT a.k, count(*), count(b.id), max(b.w), total(b.id) FROM a FULL JOIN b ON a.k = b.k GROUP BY a.k ORDER BY a.k",
    "SELECT count(*), count(a.id), count(b.id), sum(a.k), avg(b.k) FROM a FULL JOIN b ON a.k = b.k",
    "SELECT coalesce(a.k, b.k) AS kk, count(*) FROM a FULL JOIN b ON a.k = b.k GROUP BY kk HAVING count(*) > 1",
    "SELECT DISTINCT a.k FROM a RIGHT JOIN b ON a.k = b.k",
    "SELECT DISTINCT b.k FROM a FULL JOIN b ON a.k = b.k ORDER BY 1",
    "SELECT count(*) FROM a FULL JOIN b ON a.k = b.k WHERE a.id IS NULL",
    "SELECT (SELECT count(*) FROM a RIGHT JOIN b ON a.k = b.k WHERE b.k = c.k) FROM c",
    "SELECT * FROM (SELECT a.id AS ai, b.id AS bi FROM a FULL JOIN b ON a.k = b.k) WHERE ai IS NULL",
    "WITH x AS (SELECT * FROM a RIGHT JOIN b ON a.k = b.k) SELECT count(*) FROM x",
    "SELECT a.id, b.id FROM a FULL JOIN b ON a.k = b.k UNION SELECT 0, 0",
    "SELECT a.id, s.k FROM a RIGHT JOIN (SELECT k FROM b UNION ALL SELECT 1) AS s ON a.k = s.k",
    "SELECT a.id, s.value FROM a FULL JOIN json_each('[1, 2, 7]') AS s ON a.id = s.value",
    // Larger: hash joins (and a spilled one, see below).
    "SELECT count(*), count(big.id), count(big2.id), sum(big.k), sum(big2.k) FROM big FULL JOIN big2 ON big.k = big2.k AND big.id % 100 = big2.id % 100",
    "SELECT count(*), count(big.id), sum(big2.id) FROM big RIGHT JOIN big2 ON big.id = big2.k * 60",
    "SELECT count(*), max(big.id), min(big2.id) FROM big2 RIGHT JOIN big ON big.k = big2.k AND big2.id < 50",
];

/// Where SQLite evaluates a term decides whether a query that could fail
/// (malformed JSON here) fails: rules of its code generator whatever the
/// plan's join order, each pinned with a query that fails if the term is
/// evaluated anywhere else (see `planner::select` and `planner::from`).
const EVAL_SETUP: &[&str] = &[
    "CREATE TABLE d(id INTEGER PRIMARY KEY, doc TEXT, n INTEGER)",
    "INSERT INTO d VALUES (1, 'not json', 1), (2, '[1,2]', 2), (3, '{\"a\":3}', 3)",
    "CREATE TABLE empty(k INTEGER, doc TEXT)",
];

const EVAL_QUERIES: &[&str] = &[
    // An EXISTS body's select list, DISTINCT and ORDER BY are never
    // evaluated; its GROUP BY, HAVING and aggregate arguments are.
    "SELECT 1 WHERE EXISTS (SELECT json('bad'))",
    "SELECT n FROM d WHERE EXISTS (SELECT json(doc) FROM d)",
    "SELECT n FROM d WHERE EXISTS (SELECT DISTINCT json(doc) FROM d ORDER BY json(doc) DESC)",
    "SELECT 1 WHERE EXISTS (SELECT 1 FROM d ORDER BY json(doc))",
    "SELECT 1 WHERE EXISTS (SELECT count(*), json(doc) FROM d)",
    "SELECT 1 WHERE EXISTS (SELECT json(doc) FROM d GROUP BY n)",
    "SELECT 1 WHERE EXISTS (SELECT count(json(doc)) FROM d)",
    "SELECT 1 WHERE EXISTS (SELECT n FROM d GROUP BY json(doc))",
    "SELECT 1 WHERE EXISTS (SELECT n FROM d GROUP BY n HAVING json(doc))",
    "SELECT 1 WHERE NOT EXISTS (SELECT json(doc) FROM d WHERE n > 5)",
    "SELECT 1 WHERE EXISTS (SELECT n FROM d LIMIT 1 OFFSET 2)",
    "SELECT 1 WHERE EXISTS (SELECT n FROM d LIMIT 0)",
    // A UNION [ALL] with LIMIT 1 (EXISTS's own) runs its parts one by one;
    // any other LIMIT makes a UNION a merge, which evaluates; EXCEPT and
    // INTERSECT always do.
    "SELECT 1 WHERE EXISTS (SELECT json(doc) FROM d UNION SELECT 2 UNION SELECT 3)",
    "SELECT 1 WHERE EXISTS (SELECT json(doc) FROM d UNION ALL SELECT 2 UNION SELECT 3)",
    "SELECT 1 WHERE EXISTS (SELECT json(doc) FROM d UNION SELECT 2 LIMIT 1)",
    "SELECT 1 WHERE EXISTS (SELECT json(doc) FROM d UNION SELECT 2 ORDER BY 1)",
    "SELECT 1 WHERE EXISTS (SELECT json(doc) FROM d UNION SELECT 2 LIMIT 2)",
    "SELECT 1 WHERE EXISTS (SELECT json(doc) FROM d UNION ALL SELECT 2 LIMIT 2)",
    "SELECT 1 WHERE EXISTS (SELECT json(doc) FROM d EXCEPT SELECT 2)",
    "SELECT 1 WHERE EXISTS (SELECT json(doc) FROM d INTERSECT SELECT 2 UNION SELECT 3)",
    "SELECT 1 WHERE EXISTS (SELECT n FROM d WHERE 0 UNION ALL SELECT json(doc) FROM d)",
    // A term runs in the outermost loop that has what it reads: before the
    // table-valued function the next relation calls.
    "SELECT d.n, j.key FROM d JOIN json_each(d.doc) AS j WHERE d.n <> 1",
    "SELECT d.n FROM d JOIN json_each(d.doc) AS j WHERE NOT EXISTS (SELECT d.n FROM json_each('[1]'))",
    "SELECT d.n FROM d LEFT JOIN json_each(d.doc) AS j WHERE d.n IN (SELECT 1 UNION SELECT 3)",
    // A constant term (date and time functions included) is tested once,
    // before any row: an empty table does not hide its error.
    "SELECT 1 FROM empty WHERE julianday('2024-01-01') = json_extract('[1]', '$[')",
    "SELECT 1 FROM empty LEFT JOIN d ON NULL WHERE date('now') = json('x')",
    "SELECT 1 FROM d WHERE date('2024-13-01') AND json(d.doc)",
    // Terms with a correlated subquery are tested after the others.
    "SELECT n FROM d WHERE (SELECT json(d.doc)) IS NOT NULL AND d.n <> 1",
    "SELECT n FROM d WHERE EXISTS (SELECT json(d.doc) WHERE json_valid(d.doc) = 0) AND d.n <> 1",
    // LEFT JOIN strength reduction: a WHERE term that cannot hold over the
    // NULL row makes the LEFT join inner (ON 0 then a constant term)...
    "SELECT 1 FROM json_each('[1,2') AS j LEFT JOIN empty AS e ON 0 WHERE e.k",
    "SELECT 1 FROM json_each('[1,2') AS j LEFT JOIN empty AS e ON 0 WHERE e.k + 1 > 0",
    "SELECT 1 FROM json_each('[1,2') AS j LEFT JOIN empty AS e ON 0 WHERE e.k IN (1, 2)",
    "SELECT 1 FROM json_each('[1,2') AS j LEFT JOIN empty AS e ON 0 WHERE NOT (e.k = 1)",
    // ... one that can does not (these fail: the call runs).
    "SELECT 1 FROM json_each('[1,2') AS j LEFT JOIN empty AS e ON 0 WHERE e.k IS NULL",
    "SELECT 1 FROM json_each('[1,2') AS j LEFT JOIN empty AS e ON 0 WHERE coalesce(e.k, 1)",
    "SELECT 1 FROM json_each('[1,2') AS j LEFT JOIN empty AS e ON 0 WHERE e.k > 0 OR j.key >= 0",
    "SELECT 1 FROM json_each('[1,2') AS j LEFT JOIN empty AS e ON 0 WHERE CASE WHEN e.k THEN 1 ELSE 1 END",
    "SELECT 1 FROM json_each('[1,2') AS j LEFT JOIN empty AS e ON 0 WHERE e.k IS NOT 5",
    // Reduced joins still answer as outer joins would have.
    "SELECT * FROM a LEFT JOIN b ON a.k = b.k WHERE b.w = 'b2'",
    "SELECT * FROM a LEFT JOIN b ON a.k = b.k WHERE b.w IS NULL",
    "SELECT * FROM a LEFT JOIN b ON a.k = b.k LEFT JOIN c ON b.k = c.k WHERE c.x > 1",
    "SELECT * FROM a LEFT JOIN b ON a.k = b.k LEFT JOIN c ON c.k = a.k WHERE b.id + c.id > 0",
    "SELECT * FROM a LEFT JOIN b ON a.k = b.k JOIN c ON b.id = c.id - 10",
    "SELECT * FROM a LEFT JOIN b ON a.k = b.k WHERE b.k BETWEEN 1 AND 2",
    "SELECT * FROM a LEFT JOIN b ON a.k = b.k WHERE b.k NOT BETWEEN a.k AND 2",
    "SELECT * FROM a LEFT JOIN b ON a.k = b.k WHERE b.k IN (SELECT k FROM c)",
    "SELECT a.v, j.value FROM a LEFT JOIN json_each('[1,2,9]') AS j ON j.value = a.k WHERE j.value = a.k",
    "SELECT a.v, j.value FROM a LEFT JOIN json_each('[1,2,9]') AS j ON j.value = a.k WHERE j.value > 0",
];

/// Statements SQLite refuses (and so must we), with its message.
const REFUSED: &[(&str, &str)] = &[
    ("SELECT * FROM u1 JOIN u2 ON 1 FULL JOIN u3 USING (k)", "ambiguous reference to k in USING()"),
    ("SELECT * FROM a RIGHT JOIN b USING (nosuch)", "cannot join using column nosuch"),
    ("SELECT * FROM a FULL JOIN b ON nosuch = 1", "no such column: nosuch"),
    ("SELECT id FROM a FULL JOIN b ON a.k = b.k", "ambiguous column name: id"),
];

/// Row keys as SQLite and we give them; sorted unless the query orders
/// its rows totally (every ORDER BY here does).
fn compare(s: &mut Session, c: &rusqlite::Connection, sql: &str) -> Option<String> {
    let (a, b) = match (values_common::ours_query(s, sql), values_common::sqlite_query(c, sql)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(_), Err(_)) => return None,
        (a, b) => return Some(format!("{sql}\n  ours:   {a:?}\n  sqlite: {b:?}")),
    };
    let mut ka: Vec<String> = a.1.iter().map(|r| row_key(r)).collect();
    let mut kb: Vec<String> = b.1.iter().map(|r| row_key(r)).collect();
    if !sql.contains("ORDER BY") {
        ka.sort();
        kb.sort();
    }
    (a.0 != b.0 || ka != kb)
        .then(|| format!("{sql}\n  ours:   {:?} {ka:?}\n  sqlite: {:?} {kb:?}", a.0, b.0))
}

#[test]
fn join_queries_match_sqlite() {
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
fn terms_are_evaluated_where_sqlite_evaluates_them() {
    let setup: Vec<&str> = SETUP.iter().chain(EVAL_SETUP).copied().collect();
    let mut diffs = Vec::new();
    for e in values_common::both_stores() {
        let (mut s, c) = values_common::loaded(&e, &setup);
        diffs.extend(EVAL_QUERIES.iter().filter_map(|q| compare(&mut s, &c, q)));
    }
    for d in &diffs {
        println!("{d}");
    }
    assert!(diffs.is_empty(), "{} queries differ from SQLite", diffs.len());
}

/// The same queries with a memory budget small enough that every hash
/// join of the big tables spills into partitions.
#[test]
fn spilled_outer_hash_joins_match_sqlite() {
    let mut diffs = Vec::new();
    for e in values_common::both_stores() {
        let (mut s, c) = values_common::loaded(&e, SETUP);
        e.set_memory_budget(16 * 1024);
        diffs.extend(QUERIES.iter().filter_map(|q| compare(&mut s, &c, q)));
    }
    for d in &diffs {
        println!("{d}");
    }
    assert!(diffs.is_empty(), "{} queries differ from SQLite", diffs.len());
}

#[test]
fn refused_joins_are_refused_like_sqlite() {
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

/// EXPLAIN names the join kind, and a RIGHT/FULL join is hashed (or a
/// nested loop), never an index lookup.
#[test]
fn explain_shows_outer_join_kinds() {
    let e = Engine::memory();
    let (mut s, _) = values_common::loaded(&e, SETUP);
    let plan = |s: &mut Session, q: &str| -> String {
        let (_, rows) = values_common::ours_query(s, &format!("EXPLAIN QUERY PLAN {q}")).unwrap();
        rows.iter().map(|r| row_key(r)).collect::<Vec<_>>().join("\n")
    };
    let p = plan(&mut s, "SELECT * FROM a RIGHT JOIN c ON c.k = a.k");
    assert!(p.contains("HASH RIGHT JOIN"), "{p}");
    let p = plan(&mut s, "SELECT * FROM a FULL JOIN b ON a.k < b.k");
    assert!(p.contains("NESTED LOOP FULL JOIN"), "{p}");
}
