//! ALTER TABLE against SQLite (rusqlite, bundled), on both stores:
//! DROP COLUMN (its refusals with SQLite's messages, and the rows after
//! it), RENAME COLUMN and RENAME TO (the stored texts of every object that
//! names the column or table rewritten token by token, as SQLite does),
//! ADD COLUMN (inserted where SQLite inserts it).
//!
//! Invariant pinned: after each statement, `sqlite_schema` (its `sql`
//! texts byte for byte), the rows, and error vs success with SQLite's
//! message agree with SQLite.

mod schema_common;

use schema_common::{Opts, check_script};

const SCHEMA: &str = "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name";

/// Runs `stmts`, reading the catalog after each, messages compared.
fn check_each(stmts: &[&str]) {
    let mut v = Vec::new();
    for s in stmts {
        v.push(s.to_string());
        v.push(SCHEMA.to_string());
    }
    let refs: Vec<&str> = v.iter().map(String::as_str).collect();
    check_script(&refs, Opts { messages: true, ..Opts::default() });
}

#[test]
fn drop_column_refusals() {
    check_each(&[
        "CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT UNIQUE, c, d CHECK (d > 0), e, f, \
         g AS (e*2), h, i, \"x y\" REAL, k, CHECK (i <> 0))",
        "INSERT INTO t(a, b, c, d, e, f, h, i, \"x y\", k) VALUES \
         (1, 'p', 3, 4, 5, 6, 7, 8, 9.5, 10), (2, 'q', 13, 14, 15, 16, 17, 18, 19.5, 20)",
        "CREATE INDEX ti ON t(f)",
        "CREATE INDEX tp ON t(a) WHERE h > 0",
        "CREATE VIEW v AS SELECT c FROM t",
        "CREATE TRIGGER tr AFTER UPDATE ON t BEGIN SELECT new.k; END",
        "ALTER TABLE t DROP COLUMN a",
        "ALTER TABLE t DROP COLUMN b",
        "ALTER TABLE t DROP COLUMN f",
        "ALTER TABLE t DROP COLUMN h",
        "ALTER TABLE t DROP COLUMN e",
        "ALTER TABLE t DROP COLUMN c",
        "ALTER TABLE t DROP COLUMN i",
        "ALTER TABLE t DROP COLUMN k",
        "ALTER TABLE t DROP COLUMN zz",
        "ALTER TABLE t DROP COLUMN \"zz\"",
        "ALTER TABLE nosuch DROP COLUMN a",
        "ALTER TABLE v DROP COLUMN c",
        "ALTER TABLE sqlite_schema DROP COLUMN sql",
        "SELECT * FROM t",
        "ALTER TABLE t DROP COLUMN d",
        "SELECT * FROM t",
        "ALTER TABLE t DROP COLUMN \"x y\"",
        "ALTER TABLE t DROP g",
        "SELECT * FROM t",
        "SELECT * FROM v",
        "CREATE TABLE one(x)",
        "ALTER TABLE one DROP COLUMN x",
        "CREATE TABLE p(id INTEGER PRIMARY KEY, r)",
        "CREATE TABLE ch(x, pid REFERENCES p(id), y, FOREIGN KEY (y) REFERENCES p(id))",
        "ALTER TABLE ch DROP COLUMN pid",
        "ALTER TABLE ch DROP COLUMN y",
        "ALTER TABLE p DROP COLUMN r",
        "CREATE TABLE w(a, b, c, PRIMARY KEY (a, b)) WITHOUT ROWID",
        "INSERT INTO w VALUES (1, 2, 3), (4, 5, 6)",
        "ALTER TABLE w DROP COLUMN b",
        "ALTER TABLE w DROP COLUMN c",
        "SELECT * FROM w",
    ]);
}

#[test]
fn drop_column_rewrites_text_and_rows() {
    check_each(&[
        "CREATE TABLE t(\n  a INT,\n  b TEXT DEFAULT 'x', -- note\n  c  BLOB,\n  d\n)",
        "INSERT INTO t VALUES (1, 'one', x'01', 1.5), (2, 'two', NULL, 'd')",
        "ALTER TABLE t DROP COLUMN b",
        "SELECT *, typeof(d) FROM t",
        "ALTER TABLE t DROP COLUMN d",
        "SELECT * FROM t",
        "ALTER TABLE t ADD COLUMN e DEFAULT 7",
        "SELECT * FROM t",
        "ALTER TABLE t DROP COLUMN a",
        "SELECT * FROM t",
        "INSERT INTO t VALUES (x'02', 8)",
        "SELECT rowid, * FROM t",
        "CREATE TABLE u(a, b, CONSTRAINT ck CHECK (a > 0), UNIQUE (a))",
        "INSERT INTO u VALUES (1, 2)",
        "ALTER TABLE u DROP COLUMN b",
        "SELECT * FROM u",
        "PRAGMA table_info(u)",
        "PRAGMA integrity_check",
    ]);
}

#[test]
fn rename_column_rewrites_every_mention() {
    check_each(&[
        "CREATE TABLE t(a INTEGER PRIMARY KEY, \"b\" TEXT CHECK (b <> ''), c AS (b || 'x'), \
         d, UNIQUE (b, d), CHECK (length(b) < 10))",
        "CREATE TABLE ch(x REFERENCES t(b), y, FOREIGN KEY (y) REFERENCES t (d))",
        "CREATE INDEX tb ON t(b COLLATE NOCASE, d) WHERE b IS NOT NULL",
        "CREATE INDEX te ON t(lower(b))",
        "CREATE VIEW v AS SELECT b, t.b AS bb, d FROM t WHERE b > 'a'",
        "CREATE VIEW v2 AS SELECT x.b FROM t AS x",
        "CREATE TRIGGER tr AFTER UPDATE OF b ON t WHEN new.b <> old.b BEGIN \
         INSERT INTO ch(x) VALUES (new.b); UPDATE t SET d = 1 WHERE b = 'z'; END",
        "INSERT INTO t(a, b, d) VALUES (1, 'p', 2)",
        "ALTER TABLE t RENAME COLUMN b TO bee",
        "ALTER TABLE t RENAME b TO \"quoted name\"",
        "ALTER TABLE t RENAME COLUMN bee TO \"B2\"",
        "ALTER TABLE t RENAME COLUMN d TO a",
        "ALTER TABLE t RENAME COLUMN nosuch TO z",
        "SELECT * FROM v",
        "SELECT * FROM v2",
        "UPDATE t SET B2 = 'q'",
        "SELECT * FROM ch",
        "PRAGMA foreign_key_list(ch)",
        "PRAGMA index_info(tb)",
    ]);
}

/// A view's names are resolved, as SQLite's rename does: a subquery's
/// own column of the same name, another table's, a CTE's column list and
/// a result alias stay; a view the rename would break fails the ALTER
/// (`error in view … after rename`) and changes nothing.
#[test]
fn rename_column_in_views_follows_name_resolution() {
    check_each(&[
        "CREATE TABLE t(x, y)",
        "CREATE TABLE o(x, z)",
        "CREATE VIEW v1 AS SELECT x, (SELECT x FROM o WHERE o.z = t.y) AS ox FROM t",
        "CREATE VIEW v2 AS SELECT t.x AS tx, o.x AS ox FROM t JOIN o ON o.z = t.y",
        "CREATE VIEW v3 AS SELECT y FROM t WHERE EXISTS (SELECT 1 FROM o WHERE x = 1)",
        "CREATE VIEW v4 AS SELECT x AS y, 'x' AS s, \"x\" FROM t",
        "CREATE VIEW v5 AS WITH c(x) AS (SELECT z FROM o) SELECT c.x, t.x FROM c, t",
        "CREATE VIEW v6 AS SELECT x FROM o WHERE z IN (SELECT y FROM t WHERE x > 0)",
        "CREATE VIEW v7 AS SELECT s.x FROM (SELECT x, y FROM t WHERE t.x IS NOT NULL) AS s",
        "CREATE VIEW v8 AS SELECT y FROM t WHERE x IN (SELECT z FROM o WHERE o.x = t.x)",
        "CREATE VIEW on_v AS SELECT * FROM v2 WHERE tx > 0",
        "INSERT INTO t VALUES (1, 2)",
        "INSERT INTO o VALUES (3, 2)",
        "ALTER TABLE t RENAME COLUMN x TO w",
        "SELECT * FROM v1",
        "SELECT * FROM v6",
        "ALTER TABLE o RENAME COLUMN x TO q",
        "SELECT * FROM v8",
        // A derived table's column that a rename would take from its outer query.
        "CREATE TABLE u(k)",
        "CREATE VIEW v10 AS SELECT k FROM (SELECT k FROM u)",
        "ALTER TABLE u RENAME COLUMN k TO kk",
    ]);
}

/// A trigger program's names resolve statement by statement: a SELECT's
/// own FROM items first (another table's column of the same name stays),
/// then the statement's target; the header counts only on the table.
#[test]
fn rename_column_in_triggers_follows_name_resolution() {
    check_each(&[
        "CREATE TABLE t(x, y)",
        "CREATE TABLE o(x, z)",
        "CREATE TABLE lg(x, m)",
        "CREATE TRIGGER tr AFTER INSERT ON o BEGIN UPDATE t SET x = new.x WHERE x = new.z; \
         INSERT INTO t(x) SELECT x FROM o; \
         INSERT INTO lg(x) SELECT x FROM t WHERE y IN (SELECT z FROM o WHERE o.x = t.x); \
         DELETE FROM lg WHERE x = 1; END",
        "CREATE TRIGGER tr2 AFTER UPDATE OF x ON t WHEN new.x > old.x BEGIN \
         INSERT INTO lg VALUES (new.x, (SELECT count(*) FROM o WHERE x = new.x)); \
         UPDATE o SET x = 0 WHERE z = new.y; SELECT x FROM t AS tt WHERE tt.x = 2; END",
        "CREATE TRIGGER tr3 AFTER UPDATE OF x ON o BEGIN \
         INSERT INTO lg SELECT a.x, b.x FROM t AS a JOIN o b ON a.y = b.z WHERE a.x > 0; END",
        "ALTER TABLE t RENAME COLUMN x TO w",
        "ALTER TABLE o RENAME COLUMN x TO q",
        "INSERT INTO t VALUES (5, 2)",
        "INSERT INTO o VALUES (1, 2)",
        "UPDATE t SET w = 9",
        "UPDATE o SET q = 3",
        "SELECT * FROM lg ORDER BY rowid",
        "SELECT * FROM t ORDER BY rowid",
    ]);
}

/// `PRAGMA legacy_alter_table = ON`: RENAME TO rewrites tables, indexes
/// and a trigger's `ON t`, never views or trigger bodies (SQLite 3.24).
#[test]
fn legacy_alter_table_renames_as_sqlite_3_24() {
    check_each(&[
        "PRAGMA legacy_alter_table = ON",
        "CREATE TABLE t(a PRIMARY KEY, b)",
        "CREATE TABLE c(x REFERENCES t(a))",
        "CREATE INDEX tb ON t(b)",
        "CREATE VIEW v AS SELECT a FROM t",
        "CREATE TRIGGER tr AFTER INSERT ON t BEGIN INSERT INTO c VALUES (new.a); SELECT a FROM t; END",
        "CREATE TRIGGER tr2 AFTER INSERT ON c BEGIN DELETE FROM t WHERE a = 0; END",
        "ALTER TABLE t RENAME TO t2",
        "PRAGMA legacy_alter_table = OFF",
        "CREATE TABLE u(k)",
        "CREATE VIEW vu AS SELECT k FROM u",
        "ALTER TABLE u RENAME TO u2",
    ]);
}

#[test]
fn rename_table_rewrites_every_mention() {
    check_each(&[
        "CREATE TABLE t(a INTEGER PRIMARY KEY AUTOINCREMENT, b UNIQUE)",
        "CREATE TABLE [quoted t](x)",
        "CREATE TABLE ch(x REFERENCES t(a), y REFERENCES \"t\")",
        "CREATE INDEX tb ON t(b)",
        "CREATE VIEW v AS SELECT t.a, b FROM t JOIN ch ON ch.x = t.a",
        "CREATE TRIGGER tr AFTER INSERT ON t BEGIN INSERT INTO ch VALUES (new.a, NULL); END",
        "CREATE TRIGGER tr2 AFTER INSERT ON ch BEGIN UPDATE t SET b = b WHERE a = new.x; END",
        "INSERT INTO t(b) VALUES ('one')",
        "ALTER TABLE t RENAME TO t2",
        "SELECT * FROM sqlite_sequence",
        "ALTER TABLE t2 RENAME TO \"New Name\"",
        "ALTER TABLE [quoted t] RENAME TO plain",
        "ALTER TABLE plain RENAME TO ch",
        "ALTER TABLE nosuch RENAME TO z",
        "INSERT INTO \"New Name\"(b) VALUES ('two')",
        "SELECT * FROM v",
        "SELECT * FROM ch",
        "PRAGMA foreign_key_list(ch)",
    ]);
}

#[test]
fn add_column_is_inserted_where_sqlite_inserts_it() {
    check_each(&[
        "CREATE TABLE t(a INT, b TEXT , CHECK (a > 0))",
        "ALTER TABLE t ADD COLUMN c  REAL DEFAULT 1.5 ;",
        "ALTER TABLE t ADD d",
        "CREATE TABLE u(\n  x\n)",
        "ALTER TABLE u ADD COLUMN y TEXT NOT NULL DEFAULT 'q'",
        "ALTER TABLE u ADD COLUMN [z z] CHECK (\"z z\" > 0)",
    ]);
}
