//! The DML forms of SQLite's lang_upsert, lang_update ("UPDATE FROM"),
//! lang_with (WITH … INSERT/UPDATE/DELETE), lang_replace and
//! lang_returning, and the counters of c3ref/changes,
//! c3ref/total_changes and c3ref/last_insert_rowid, against SQLite
//! (rusqlite, bundled) on both stores.
//!
//! Invariant pinned: after each statement of each script, AsaDB and
//! SQLite agree on error vs success (and the error's text), on every row
//! (storage classes included) and on rows affected.

mod schema_common;

use schema_common::{Opts, check_script};

fn check(script: &[&str]) {
    check_script(script, Opts { sorted: false, messages: true });
}

/// Unordered rows (UPDATE FROM's join order is the planner's).
fn check_sorted(script: &[&str]) {
    check_script(script, Opts { sorted: true, messages: true });
}

const COUNTERS: &str = "SELECT changes(), total_changes(), last_insert_rowid()";

#[test]
fn upsert_do_update_with_excluded() {
    check(&[
        "CREATE TABLE vocab(word TEXT PRIMARY KEY, count INT DEFAULT 0)",
        "INSERT INTO vocab(word) VALUES ('jovial') ON CONFLICT(word) DO UPDATE SET count = count + 1",
        "INSERT INTO vocab(word) VALUES ('jovial') ON CONFLICT(word) DO UPDATE SET count = count + 1",
        "INSERT INTO vocab(word) VALUES ('jovial'), ('x'), ('jovial') ON CONFLICT(word) DO UPDATE SET count = count + 1",
        "SELECT * FROM vocab",
        COUNTERS,
        "CREATE TABLE phonebook(name TEXT PRIMARY KEY, phonenumber TEXT)",
        "INSERT INTO phonebook(name, phonenumber) VALUES ('Alice', '704-555-1212') ON CONFLICT(name) DO UPDATE SET phonenumber = excluded.phonenumber",
        "INSERT INTO phonebook(name, phonenumber) VALUES ('Alice', '704-555-9999') ON CONFLICT(name) DO UPDATE SET phonenumber = excluded.phonenumber",
        "SELECT * FROM phonebook",
        "CREATE TABLE phonebook2(name TEXT PRIMARY KEY, phonenumber TEXT, validDate DATE)",
        "INSERT INTO phonebook2(name, phonenumber, validDate) VALUES ('Alice', '704-555-1212', '2018-05-08') ON CONFLICT(name) DO UPDATE SET phonenumber = excluded.phonenumber, validDate = excluded.validDate WHERE excluded.validDate > phonebook2.validDate",
        "INSERT INTO phonebook2(name, phonenumber, validDate) VALUES ('Alice', '111', '2017-01-01') ON CONFLICT(name) DO UPDATE SET phonenumber = excluded.phonenumber, validDate = excluded.validDate WHERE excluded.validDate > phonebook2.validDate",
        COUNTERS,
        "INSERT INTO phonebook2(name, phonenumber, validDate) VALUES ('Alice', '222', '2019-01-01') ON CONFLICT(name) DO UPDATE SET phonenumber = excluded.phonenumber, validDate = excluded.validDate WHERE excluded.validDate > phonebook2.validDate",
        "SELECT * FROM phonebook2",
    ]);
}

#[test]
fn upsert_targets_rowid_and_unique() {
    check(&[
        "CREATE TABLE t(a INTEGER PRIMARY KEY, b UNIQUE, c)",
        "INSERT INTO t VALUES (1, 'x', 0), (2, 'y', 0)",
        // The target is checked first: b conflicts with row 2, a with row 1.
        "INSERT INTO t VALUES (1, 'y', 5) ON CONFLICT(b) DO UPDATE SET c = excluded.c",
        "SELECT * FROM t",
        "INSERT INTO t VALUES (1, 'q', 6) ON CONFLICT(b) DO UPDATE SET c = excluded.c",
        "INSERT INTO t VALUES (1, 'y', 7) ON CONFLICT DO UPDATE SET c = excluded.c",
        "INSERT INTO t VALUES (1, 'new', 8) ON CONFLICT(a) DO UPDATE SET c = excluded.c, b = excluded.b",
        "INSERT INTO t VALUES (NULL, 'y', 10) ON CONFLICT(b) DO UPDATE SET c = excluded.a RETURNING *",
        "INSERT INTO t VALUES (2, 'z', 11) ON CONFLICT(rowid) DO UPDATE SET c = excluded.rowid",
        "SELECT * FROM t",
        "INSERT INTO t VALUES (5, 'y', 9) ON CONFLICT(c) DO NOTHING",
        "INSERT INTO t VALUES (5, 'y', 9) ON CONFLICT(a, b) DO NOTHING",
        "INSERT INTO t VALUES (5, 'y', 9) ON CONFLICT(nosuch) DO NOTHING",
        // DO UPDATE may itself violate a constraint: ABORT.
        "INSERT INTO t VALUES (1, 'w', 0) ON CONFLICT(a) DO UPDATE SET b = 'y'",
        "INSERT INTO t VALUES (1, 'w', 0) ON CONFLICT(a) DO UPDATE SET a = 2",
        "INSERT INTO t VALUES (1, 'w', 0) ON CONFLICT(a) DO UPDATE SET a = 50",
        "INSERT INTO t(b) VALUES ('auto')",
        "SELECT * FROM t",
        COUNTERS,
    ]);
}

#[test]
fn upsert_do_nothing_only_covers_uniqueness() {
    check(&[
        "CREATE TABLE t(a INTEGER PRIMARY KEY, b UNIQUE NOT NULL, c CHECK (c >= 0))",
        "INSERT INTO t VALUES (1, 'x', 0)",
        "INSERT INTO t VALUES (1, 'y', 0) ON CONFLICT DO NOTHING",
        "INSERT INTO t VALUES (2, 'x', 0) ON CONFLICT DO NOTHING",
        "INSERT INTO t VALUES (3, NULL, 0) ON CONFLICT DO NOTHING",
        "INSERT INTO t VALUES (1, 'x', -1) ON CONFLICT DO NOTHING",
        // With a target, other uniqueness constraints still fail.
        "INSERT INTO t VALUES (2, 'x', 0) ON CONFLICT(a) DO NOTHING",
        "INSERT INTO t VALUES (1, 'q', 0) ON CONFLICT(b) DO NOTHING",
        "INSERT OR IGNORE INTO t VALUES (1, 'q', 0) ON CONFLICT(b) DO NOTHING",
        "INSERT OR REPLACE INTO t VALUES (1, 'q', 5) ON CONFLICT(b) DO NOTHING",
        "INSERT INTO t VALUES (7, 'q', 0) ON CONFLICT(b) DO UPDATE SET c = -1",
        "SELECT * FROM t",
        COUNTERS,
    ]);
}

#[test]
fn several_on_conflict_clauses() {
    check(&[
        "CREATE TABLE t(a INTEGER PRIMARY KEY, b UNIQUE, c)",
        "INSERT INTO t VALUES (1, 'x', 0), (2, 'y', 0)",
        "INSERT INTO t VALUES (3, 'y', 8) ON CONFLICT(a) DO NOTHING ON CONFLICT(b) DO UPDATE SET c = 9 ON CONFLICT DO NOTHING",
        "INSERT INTO t VALUES (1, 'p', 8) ON CONFLICT(b) DO UPDATE SET c = 10 ON CONFLICT(a) DO UPDATE SET c = 11 RETURNING a, c",
        "INSERT INTO t VALUES (1, 'y', 8) ON CONFLICT(b) DO UPDATE SET c = 12 ON CONFLICT(a) DO UPDATE SET c = 13 RETURNING a, c",
        "INSERT INTO t VALUES (9, 'z', 8) ON CONFLICT(b) DO UPDATE SET c = 12 ON CONFLICT(a) DO UPDATE SET c = 13 RETURNING *",
        "INSERT INTO t VALUES (1, 'x', 0) ON CONFLICT(b) DO UPDATE SET c = 14 WHERE 0 ON CONFLICT DO UPDATE SET c = 15",
        "SELECT * FROM t",
        COUNTERS,
    ]);
}

#[test]
fn partial_index_targets() {
    check(&[
        "CREATE TABLE u(x, y, z, UNIQUE(x, y))",
        "CREATE UNIQUE INDEX uz ON u(z) WHERE z > 0",
        "INSERT INTO u VALUES (1, 2, 3)",
        "INSERT INTO u VALUES (1, 2, 4) ON CONFLICT(y, x) DO UPDATE SET z = z + 10",
        "INSERT INTO u VALUES (5, 6, 13) ON CONFLICT(z) DO NOTHING",
        "INSERT INTO u VALUES (5, 6, 13) ON CONFLICT(z) WHERE z > 0 DO UPDATE SET x = 100",
        "INSERT INTO u VALUES (5, 6, 13) ON CONFLICT(z) WHERE z>0 DO UPDATE SET x = 101",
        "INSERT INTO u VALUES (5, 6, 13) ON CONFLICT(z) WHERE 0 < z DO UPDATE SET x = 102",
        "INSERT INTO u VALUES (5, 6, 13) ON CONFLICT(x, y) WHERE 0 < z DO UPDATE SET x = 103",
        "INSERT INTO u VALUES (5, 6, -1), (5, 7, -1) ON CONFLICT(z) WHERE z > 0 DO NOTHING",
        "SELECT * FROM u ORDER BY rowid",
        "INSERT INTO u AS w VALUES (1000, 6, 13) ON CONFLICT(z) WHERE z > 0 DO UPDATE SET x = w.x + excluded.x WHERE w.x < 500 RETURNING *",
        "INSERT INTO u AS w VALUES (1000, 6, 13) ON CONFLICT(z) WHERE z > 0 DO UPDATE SET x = w.x + excluded.x WHERE w.x < 500 RETURNING *",
        "INSERT INTO u AS w VALUES (1000, 6, 13) ON CONFLICT(z) WHERE z > 0 DO UPDATE SET x = 1 RETURNING excluded.x",
        "SELECT * FROM u ORDER BY rowid",
        "CREATE TABLE k(a, b, PRIMARY KEY(a, b)) WITHOUT ROWID",
        "INSERT INTO k VALUES (1, 2)",
        "INSERT INTO k VALUES (1, 2) ON CONFLICT(b, a) DO UPDATE SET b = b + 1 RETURNING *",
        "INSERT INTO k VALUES (1, 3) ON CONFLICT DO NOTHING",
        "SELECT * FROM k",
        COUNTERS,
    ]);
}

#[test]
fn insert_select_needs_where_before_on_conflict() {
    check(&[
        "CREATE TABLE t(a INTEGER PRIMARY KEY, b UNIQUE, c)",
        "CREATE TABLE s(a, b, c)",
        "INSERT INTO s VALUES (1, 2, 3), (1, 5, 6), (4, 2, 7)",
        "INSERT INTO t SELECT * FROM s WHERE true ON CONFLICT DO NOTHING",
        "SELECT * FROM t",
        "INSERT INTO t SELECT * FROM s WHERE true ON CONFLICT(a) DO UPDATE SET c = t.c + excluded.c",
        "INSERT INTO t SELECT 9, 2, 0 ON CONFLICT(b) DO UPDATE SET c = 100",
        "INSERT INTO t SELECT * FROM s ORDER BY 1 ON CONFLICT DO NOTHING",
        "SELECT * FROM t",
    ]);
}

#[test]
fn upsert_fires_update_triggers_and_keeps_foreign_keys() {
    check(&[
        "PRAGMA foreign_keys = ON",
        "CREATE TABLE p(id INTEGER PRIMARY KEY, name UNIQUE)",
        "CREATE TABLE c(pid REFERENCES p(id) ON UPDATE CASCADE, note)",
        "CREATE TABLE log(ev)",
        "CREATE TRIGGER bi BEFORE INSERT ON p BEGIN INSERT INTO log VALUES ('bi ' || new.name); END",
        "CREATE TRIGGER ai AFTER INSERT ON p BEGIN INSERT INTO log VALUES ('ai ' || new.name); END",
        "CREATE TRIGGER bu BEFORE UPDATE ON p BEGIN INSERT INTO log VALUES ('bu ' || old.id || '->' || new.id); END",
        "CREATE TRIGGER au AFTER UPDATE OF id ON p BEGIN INSERT INTO log VALUES ('au ' || old.id || '->' || new.id); END",
        "INSERT INTO p VALUES (1, 'a'), (2, 'b')",
        "INSERT INTO c VALUES (1, 'one'), (2, 'two')",
        "INSERT INTO p VALUES (3, 'a') ON CONFLICT(name) DO UPDATE SET id = excluded.id",
        COUNTERS,
        "SELECT * FROM p",
        "SELECT * FROM c",
        "SELECT * FROM log",
        "INSERT INTO p VALUES (9, 'b') ON CONFLICT(name) DO UPDATE SET name = 'bb'",
        "SELECT * FROM log",
        COUNTERS,
        "CREATE TABLE child(pid REFERENCES p(id))",
        "INSERT INTO child VALUES (3)",
        "INSERT INTO p VALUES (10, 'a') ON CONFLICT(name) DO UPDATE SET id = 10",
        "SELECT * FROM p",
        "INSERT INTO child VALUES (77) ON CONFLICT DO NOTHING",
    ]);
}

#[test]
fn counters_follow_sqlite() {
    check(&[
        COUNTERS,
        "CREATE TABLE t(a INTEGER PRIMARY KEY, b UNIQUE)",
        "CREATE TABLE log(x)",
        "CREATE VIEW v AS SELECT * FROM t",
        "CREATE TRIGGER vi INSTEAD OF INSERT ON v BEGIN INSERT INTO t VALUES (new.a, new.b); INSERT INTO log VALUES (changes()); INSERT INTO log VALUES (last_insert_rowid()); END",
        "INSERT INTO t VALUES (1, 1), (2, 2)",
        COUNTERS,
        "INSERT INTO t VALUES (3, 3), (4, 1)",
        COUNTERS,
        "INSERT INTO v VALUES (10, 10), (11, 11)",
        COUNTERS,
        "SELECT * FROM log",
        "UPDATE t SET b = b WHERE a > 100",
        COUNTERS,
        "UPDATE t SET b = b + 0 WHERE a > 1",
        COUNTERS,
        "CREATE TABLE w(a PRIMARY KEY, b) WITHOUT ROWID",
        "INSERT INTO w VALUES (5, 5)",
        COUNTERS,
        "INSERT INTO t VALUES (20, 20) ON CONFLICT DO NOTHING",
        "INSERT INTO t VALUES (20, 21) ON CONFLICT DO UPDATE SET b = 22",
        COUNTERS,
        "INSERT INTO t VALUES (20, 21) ON CONFLICT DO NOTHING",
        COUNTERS,
        "CREATE TABLE x(a)",
        COUNTERS,
        "SELECT count(*) FROM t",
        COUNTERS,
        "DELETE FROM t WHERE a >= 10",
        COUNTERS,
        "CREATE TRIGGER ta AFTER INSERT ON t BEGIN INSERT INTO log VALUES (new.a); INSERT INTO log VALUES (new.a); END",
        "INSERT INTO t VALUES (30, 30)",
        COUNTERS,
        "INSERT INTO log VALUES (changes())",
        "SELECT * FROM log",
        "REPLACE INTO t VALUES (30, 31)",
        COUNTERS,
        "INSERT OR IGNORE INTO t VALUES (30, 32)",
        COUNTERS,
        "UPDATE t SET b = changes() + 100 WHERE a = 1",
        "SELECT * FROM t WHERE a = 1",
        "BEGIN",
        "INSERT INTO x VALUES (1), (2), (3)",
        COUNTERS,
        "ROLLBACK",
        COUNTERS,
    ]);
}

#[test]
fn counters_and_foreign_key_actions() {
    check(&[
        "PRAGMA foreign_keys = ON",
        "CREATE TABLE p(id INTEGER PRIMARY KEY)",
        "CREATE TABLE c(pid REFERENCES p ON DELETE CASCADE)",
        "INSERT INTO p VALUES (1), (2)",
        "INSERT INTO c VALUES (1), (1), (2)",
        COUNTERS,
        "DELETE FROM p WHERE id = 1",
        COUNTERS,
        "INSERT INTO c VALUES (99)",
        COUNTERS,
    ]);
}

#[test]
fn update_from() {
    check_sorted(&[
        "CREATE TABLE inventory(itemId INTEGER PRIMARY KEY, quantity INT)",
        "CREATE TABLE sales(itemId INT, quantity INT)",
        "INSERT INTO inventory VALUES (1, 100), (2, 50), (3, 10)",
        "INSERT INTO sales VALUES (1, 5), (1, 7), (2, 50), (9, 1)",
        "UPDATE inventory SET quantity = quantity - daily.amt FROM (SELECT sum(quantity) AS amt, itemId FROM sales GROUP BY 2) AS daily WHERE inventory.itemId = daily.itemId",
        "SELECT * FROM inventory",
        COUNTERS,
        "UPDATE inventory SET quantity = s.quantity FROM sales AS s WHERE s.itemId = inventory.itemId AND s.quantity = 50 RETURNING *",
        "UPDATE inventory AS i SET quantity = i.quantity + s.quantity FROM sales s WHERE s.itemId = i.itemId AND s.itemId = 2",
        "SELECT * FROM inventory",
        // A self-join needs another name.
        "UPDATE inventory SET quantity = o.quantity FROM inventory AS o WHERE o.itemId = inventory.itemId + 1",
        "SELECT * FROM inventory",
        "UPDATE inventory SET quantity = -1 FROM sales WHERE 0",
        COUNTERS,
        "UPDATE inventory SET quantity = s.x FROM (SELECT 7 AS x) AS s, (SELECT 1 AS y) AS t WHERE inventory.itemId = t.y",
        "UPDATE inventory SET quantity = s.quantity FROM sales s JOIN inventory AS i2 ON i2.itemId = s.itemId WHERE inventory.itemId = 3 AND s.itemId = 1 AND s.quantity = 5",
        "SELECT * FROM inventory",
        "UPDATE inventory SET nosuch = 1 FROM sales",
        "UPDATE inventory SET quantity = sales.nosuch FROM sales",
    ]);
}

#[test]
fn update_from_with_triggers() {
    check(&[
        "CREATE TABLE t(id INTEGER PRIMARY KEY, v)",
        "CREATE TABLE src(id, v)",
        "CREATE TABLE log(x)",
        "CREATE TRIGGER tu AFTER UPDATE ON t BEGIN INSERT INTO log VALUES (old.v || '->' || new.v); END",
        "INSERT INTO t VALUES (1, 'a'), (2, 'b')",
        "INSERT INTO src VALUES (1, 'A'), (2, 'B'), (3, 'C')",
        "UPDATE t SET v = src.v FROM src WHERE src.id = t.id",
        COUNTERS,
        "SELECT * FROM t",
        "SELECT * FROM log ORDER BY x",
    ]);
}

#[test]
fn with_insert_update_delete() {
    check(&[
        "CREATE TABLE t(a INTEGER PRIMARY KEY, b)",
        "WITH c(x) AS (VALUES (1), (2), (3)) INSERT INTO t SELECT x, x * 10 FROM c",
        COUNTERS,
        "SELECT * FROM t",
        "WITH big AS (SELECT a FROM t WHERE b > 10) UPDATE t SET b = -b WHERE a IN (SELECT a FROM big)",
        COUNTERS,
        "SELECT * FROM t",
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2) DELETE FROM t WHERE a IN n",
        COUNTERS,
        "SELECT * FROM t",
        "WITH c(x) AS (VALUES (3, 'three')) UPDATE t SET b = c.column2 FROM (SELECT * FROM c) AS c WHERE t.a = c.column1",
        "WITH c(k, v) AS (VALUES (3, 'three')) UPDATE t SET b = c.v FROM c WHERE t.a = c.k RETURNING *",
        "WITH c(k, v) AS (VALUES (3, 'x'), (4, 'y')) INSERT INTO t SELECT k, v FROM c WHERE true ON CONFLICT(a) DO UPDATE SET b = excluded.b || '!' RETURNING *",
        "SELECT * FROM t",
        "WITH c AS (SELECT 1) DELETE FROM t WHERE a = 4 RETURNING *",
        COUNTERS,
    ]);
}

#[test]
fn replace_into_and_set_tuples() {
    check(&[
        "CREATE TABLE t(a INTEGER PRIMARY KEY, b UNIQUE, c)",
        "REPLACE INTO t VALUES (1, 'x', 0)",
        "REPLACE INTO t VALUES (2, 'x', 1)",
        COUNTERS,
        "SELECT * FROM t",
        "REPLACE INTO t(a, b, c) SELECT 3, 'y', 2",
        "REPLACE INTO t VALUES (3, 'y', 3) RETURNING *",
        "UPDATE t SET (b, c) = ('z', c + 100) WHERE a = 3",
        "UPDATE t SET (c, b) = (b, c) RETURNING *",
        "UPDATE t SET (b, c) = (1, 2, 3)",
        "UPDATE t SET (b) = ('solo')",
        "INSERT INTO t VALUES (3, 'q', 0) ON CONFLICT(a) DO UPDATE SET (b, c) = (excluded.b, excluded.c + 1) RETURNING *",
        "SELECT * FROM t",
    ]);
}

/// `SET (a, b) = (SELECT …)`: the subquery's first row (NULLs without
/// one), correlated or not, its size checked against the column list; one
/// evaluation per row serves every column (`random()` twice is one value).
#[test]
fn set_tuples_from_a_row_subquery() {
    check(&[
        "CREATE TABLE t(a INTEGER PRIMARY KEY, b, c TEXT)",
        "INSERT INTO t VALUES (1, 2, 3), (4, 5, 6), (7, 8, 9)",
        "CREATE TABLE u(x, y)",
        "INSERT INTO u VALUES (1, 10), (4, 40), (4, 41)",
        "UPDATE t SET (b, c) = (SELECT 1, 2, 3)",
        "UPDATE t SET (b, c) = (SELECT 7)",
        "UPDATE t SET (b, c) = (SELECT y, x + 100 FROM u WHERE u.x = t.a ORDER BY y DESC)",
        "SELECT a, b, typeof(b), c, typeof(c) FROM t ORDER BY a",
        "UPDATE t SET (c) = (SELECT 'solo'), b = b * 2 WHERE a = 1 RETURNING *",
        "UPDATE t SET (b, c) = (SELECT x, y FROM u WHERE 0) WHERE a = 7",
        "SELECT * FROM t ORDER BY a",
        "UPDATE t SET (b, c) = (SELECT r, r FROM (SELECT random() AS r))",
        "SELECT count(*) FROM t WHERE b IS c",
        "UPDATE t SET (b, c) = (SELECT max(x), count(*) FROM u WHERE u.x <= t.a)",
        "SELECT * FROM t ORDER BY a",
        "INSERT INTO t VALUES (4, 0, 0) ON CONFLICT(a) DO UPDATE SET (b, c) = (SELECT y, excluded.b FROM u WHERE x = excluded.a ORDER BY y) RETURNING *",
        "SELECT * FROM t ORDER BY a",
    ]);
}

/// Syntax errors SQLite's grammar gives (SQLite's messages add the
/// statement and an offset: only error-ness is compared).
#[test]
fn upsert_syntax_errors() {
    check_script(
        &[
            "CREATE TABLE t(a INTEGER PRIMARY KEY, b UNIQUE, c)",
            "CREATE TABLE s(a, b, c)",
            "INSERT INTO s VALUES (1, 2, 3)",
            // The parse ambiguity of lang_upsert: ON after FROM is a join's.
            "INSERT INTO t SELECT * FROM s ON CONFLICT DO NOTHING",
            "INSERT INTO t SELECT * FROM s ON CONFLICT(a) DO NOTHING",
            "INSERT INTO t SELECT * FROM s WHERE 1 ON CONFLICT(a) DO NOTHING",
            // Only the last clause may omit its target.
            "INSERT INTO t VALUES (3, 'y', 8) ON CONFLICT DO NOTHING ON CONFLICT(b) DO NOTHING",
            "INSERT INTO t VALUES (3, 'y', 8) ON CONFLICT DO UPDATE SET c = 1 ON CONFLICT(b) DO NOTHING",
            // An INSERT's alias needs AS.
            "INSERT INTO t w VALUES (1, 1, 1)",
            "INSERT INTO t AS w VALUES (1, 1, 1) ON CONFLICT DO UPDATE SET c = w.c + 1",
            "INSERT INTO t VALUES (4, 4, 4) ON CONFLICT(a) DO UPDATE SET c = 1 WHERE",
            "SELECT * FROM t",
        ],
        Opts { sorted: false, messages: false },
    );
}

/// UPDATE and DELETE over more rows than the memory budget holds: the
/// picked rows wait on disk, and the result — with triggers, foreign key
/// actions, OR REPLACE and RETURNING re-reading rows as they go — is
/// SQLite's.
#[test]
fn update_and_delete_past_the_memory_budget() {
    let script = [
        "CREATE TABLE p(id INTEGER PRIMARY KEY, v TEXT, w REAL)",
        "CREATE TABLE c(id INTEGER PRIMARY KEY, pid REFERENCES p(id) ON DELETE CASCADE ON UPDATE CASCADE, x)",
        "CREATE TABLE log(what, n)",
        "CREATE TRIGGER pu AFTER UPDATE OF w ON p WHEN NEW.id % 97 = 0 BEGIN \
         INSERT INTO log VALUES ('u', NEW.id); DELETE FROM p WHERE id = NEW.id + 1; END",
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) \
         INSERT INTO p SELECT i, printf('value-%05d', i), i * 0.5 FROM n",
        "INSERT INTO c SELECT id, id, 'x' || id FROM p WHERE id % 3 = 0",
        "PRAGMA foreign_keys = ON",
        "UPDATE p SET w = w + 1, v = upper(v) WHERE id % 2 = 1",
        "SELECT count(*), sum(w), min(v), max(v) FROM p",
        "SELECT * FROM log ORDER BY n",
        "UPDATE p SET id = id + 10000 WHERE id % 5 = 0",
        "SELECT count(*), sum(pid) FROM c",
        "UPDATE OR REPLACE p SET id = id - 1 WHERE id BETWEEN 100 AND 400",
        "SELECT count(*), sum(id), sum(w) FROM p",
        "DELETE FROM p WHERE id % 7 <> 0",
        "SELECT count(*), sum(id) FROM p",
        "SELECT count(*), sum(pid) FROM c",
        "DELETE FROM p WHERE w > 0 RETURNING id",
        "SELECT count(*) FROM p",
    ];
    let opts = Opts { sorted: true, ..Opts::default() };
    schema_common::check_script_with_budget(&script, opts, Some(4096));
}

/// An UPDATE that keeps the rowid rewrites the row in place and moves only
/// the index entries whose key changed: a key changing storage class
/// (`1` to `1.0`, `0.0` to `-0.0`) or case under NOCASE still moves, a
/// partial index gains and loses rows, expression indexes follow their
/// columns, UNIQUE conflicts fail or are ignored — and index-only reads
/// and the integrity check agree with SQLite afterwards.
#[test]
fn updates_in_place_keep_every_index_right() {
    check(&[
        "CREATE TABLE t(id INTEGER PRIMARY KEY, a, b TEXT COLLATE NOCASE UNIQUE, c REAL, d)",
        "CREATE INDEX ta ON t(a)",
        "CREATE INDEX tc ON t(c) WHERE c > 0",
        "CREATE INDEX td ON t(lower(d))",
        "INSERT INTO t VALUES (1, 1, 'x', 0.0, 'P'), (2, 2, 'y', 1.5, 'q'), (3, 3, 'z', -1.0, 'R')",
        "UPDATE t SET a = 1.0 WHERE id = 1",
        "SELECT a, typeof(a) FROM t WHERE a = 1",
        "UPDATE t SET c = -0.0 WHERE id = 1",
        "SELECT c, printf('%!.1f', c), 1 / c FROM t WHERE id = 1",
        "UPDATE t SET b = 'X' WHERE id = 1",
        "SELECT b FROM t WHERE b = 'x'",
        "UPDATE t SET b = 'Y' WHERE id = 1",
        "UPDATE OR IGNORE t SET b = 'Y' WHERE id = 1",
        "SELECT id, b FROM t ORDER BY id",
        "UPDATE t SET c = c + 2",
        "SELECT id, c FROM t WHERE c > 0 ORDER BY c",
        "UPDATE t SET c = -5 WHERE id = 2",
        "SELECT id FROM t WHERE c > 0 ORDER BY id",
        "UPDATE t SET d = 'p2' WHERE id = 1",
        "SELECT id FROM t WHERE lower(d) = 'p2'",
        "SELECT id FROM t WHERE lower(d) = 'p'",
        "UPDATE t SET a = a, d = d",
        "UPDATE t SET id = id + 10 WHERE id = 3",
        "SELECT id, a FROM t WHERE a >= 1 ORDER BY a, id",
        "PRAGMA integrity_check",
    ]);
}
