//! The schema layer against SQLite (rusqlite, bundled), on both stores:
//! `sqlite_schema` after every kind of DDL (its `sql` column the text as
//! written), and the table forms SQLite has — AUTOINCREMENT with
//! `sqlite_sequence`, STRICT, generated columns, WITHOUT ROWID, CREATE
//! TABLE … AS SELECT, indexes with collations, partial and expression
//! indexes.
//!
//! Invariant pinned: after each statement of each script, AsaDB and
//! SQLite agree on error vs success, on every row (storage classes
//! included) and on rows affected.

mod schema_common;

use schema_common::{Opts, check_script};

/// The catalog as SQLite shows it (root pages differ between engines:
/// only whether there is one is compared).
const SCHEMA: &str = "SELECT type, name, tbl_name, rootpage > 0, sql FROM sqlite_schema";

fn with_schema_after_each(stmts: &[&str]) -> Vec<String> {
    let mut v = Vec::new();
    for s in stmts {
        v.push(s.to_string());
        v.push(SCHEMA.to_string());
    }
    v
}

fn check_each(stmts: &[&str]) {
    let script = with_schema_after_each(stmts);
    let refs: Vec<&str> = script.iter().map(String::as_str).collect();
    check_script(&refs, Opts::default());
}

#[test]
fn sqlite_schema_keeps_create_texts_as_written() {
    check_each(&[
        "CREATE TABLE [Album]\n(\n    [AlbumId] INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,\n    \
         [Title] NVARCHAR(160)  NOT NULL\n)",
        "CREATE TABLE   IF NOT EXISTS main.\"q\"  ( x  /* c */ INT , y TEXT DEFAULT 'a;b' )  ;",
        "CREATE TABLE IF NOT EXISTS q(z)",
        "create table `lower` (a unsigned   big  int, b VARCHAR( 10 , 2 ) default (1+2)) -- after",
        "CREATE INDEX [IFK_AlbumTitle] ON [Album] ([Title])",
        "CREATE UNIQUE INDEX IF NOT EXISTS ux ON q(x DESC, y COLLATE NOCASE)",
        "CREATE INDEX IF NOT EXISTS ux ON q(y)",
        "CREATE INDEX partial ON q(y) WHERE x > 0x10",
        "CREATE INDEX expr ON q(lower(y), x + 1)",
        "CREATE VIEW v1 AS SELECT 0x10 AS h, x'10' AS b, x+1 FROM q",
        "CREATE VIEW IF NOT EXISTS \"v 2\"(a, b) AS\n  SELECT 1, 2",
        "CREATE TABLE t1(a INTEGER PRIMARY KEY, b UNIQUE, c, UNIQUE(c,b), UNIQUE(b))",
        "CREATE TABLE t2(a PRIMARY KEY, b) ",
        "CREATE TABLE w(a INT, b TEXT, c, PRIMARY KEY(b,a)) WITHOUT ROWID",
        "CREATE TABLE w2(k INTEGER PRIMARY KEY, v UNIQUE) WITHOUT ROWID",
        "CREATE TABLE s(a INTEGER, b TEXT, c ANY) STRICT",
        "CREATE TABLE g(a, b AS (a*2), c INT GENERATED ALWAYS AS (b+1) STORED)",
        "DROP INDEX partial",
        "DROP VIEW v1",
        "DROP TABLE t2",
        "CREATE TABLE t3(x)",
        "CREATE INDEX t3x ON t3(x)",
        "DROP TABLE IF EXISTS nosuch",
    ]);
}

#[test]
fn views_keep_their_literals_and_names() {
    check_script(
        &[
            "CREATE TABLE t(a, b)",
            "INSERT INTO t VALUES (1, 'x'), (2, 'y')",
            "CREATE VIEW v AS SELECT 0x10 AS h, a+1, typeof(0x10) AS k, b || 'z' FROM t",
            "SELECT * FROM v",
            "SELECT h, typeof(h), k FROM v",
            "CREATE VIEW v2 AS SELECT * FROM v WHERE h = 16",
            "SELECT count(*) FROM v2",
        ],
        Opts { sorted: true, ..Opts::default() },
    );
}

/// A view's names are resolved when it is used, as in SQLite: a view of a
/// table that does not exist (yet), or with a wrong column, is created and
/// fails at use; a column list of the wrong length fails at use; a
/// parameter is refused at once (SQLite's parser does).
#[test]
fn views_resolve_when_used() {
    check_script(
        &[
            "CREATE TABLE o(z)",
            "CREATE VIEW v AS SELECT ? FROM o",
            "CREATE VIEW v1(a, b) AS SELECT z FROM o",
            "SELECT * FROM v1",
            "CREATE VIEW v2 AS SELECT z FROM o GROUP BY max(z)",
            "CREATE VIEW v3 AS SELECT abs(1, 2) FROM o",
            "CREATE VIEW later AS SELECT x FROM t_later",
            "SELECT count(*) FROM later",
            "CREATE TABLE t_later(x)",
            "INSERT INTO t_later VALUES (1)",
            "SELECT * FROM later",
            // A hex integer stays one in a view's derived table and in a
            // trigger's program (one width rule, no statement text needed).
            "CREATE VIEW hx AS SELECT * FROM (SELECT 0x10 AS a, X'10' AS b, -0x10 AS c)",
            "SELECT a, typeof(a), b, typeof(b), c FROM hx",
            "CREATE TABLE lg(v)",
            "CREATE TRIGGER tg AFTER INSERT ON t_later BEGIN INSERT INTO lg VALUES (0x1F + 1), (X'1F'); END",
            "INSERT INTO t_later VALUES (2)",
            "SELECT v, typeof(v) FROM lg",
            "SELECT name FROM sqlite_schema ORDER BY name",
        ],
        Opts::default(),
    );
}

#[test]
fn autoincrement_never_reuses_ids() {
    check_script(
        &[
            "CREATE TABLE a(id INTEGER PRIMARY KEY AUTOINCREMENT, v)",
            "SELECT * FROM sqlite_sequence",
            "INSERT INTO a(v) VALUES ('x'), ('y'), ('z')",
            "SELECT * FROM sqlite_sequence",
            "DELETE FROM a WHERE id = 3",
            "INSERT INTO a(v) VALUES ('w')",
            "SELECT id, v FROM a ORDER BY id",
            "DELETE FROM a",
            "INSERT INTO a(v) VALUES ('after')",
            "SELECT id, v FROM a",
            "INSERT INTO a VALUES (100, 'explicit')",
            "INSERT INTO a(v) VALUES ('next')",
            "INSERT INTO a VALUES (50, 'lower')",
            "INSERT INTO a(v) VALUES ('next2')",
            "SELECT id, v FROM a ORDER BY id",
            "SELECT name, seq FROM sqlite_sequence",
            "UPDATE sqlite_sequence SET seq = 1000 WHERE name = 'a'",
            "INSERT INTO a(v) VALUES ('jumped')",
            "SELECT max(id) FROM a",
            "DELETE FROM sqlite_sequence",
            "INSERT INTO a(v) VALUES ('reset')",
            "SELECT max(id) FROM a",
            "SELECT * FROM sqlite_sequence",
            "CREATE TABLE b(id INTEGER PRIMARY KEY AUTOINCREMENT)",
            "INSERT INTO b DEFAULT VALUES",
            "INSERT OR REPLACE INTO a VALUES (5000, 'r')",
            "SELECT * FROM sqlite_sequence ORDER BY name",
            "DROP TABLE a",
            "SELECT * FROM sqlite_sequence",
            "DROP TABLE sqlite_sequence",
            "CREATE TABLE sqlite_x(a)",
            "CREATE TABLE bad(id TEXT PRIMARY KEY AUTOINCREMENT)",
            "CREATE TABLE bad2(id INTEGER PRIMARY KEY AUTOINCREMENT) WITHOUT ROWID",
            "INSERT INTO sqlite_master VALUES ('table', 'x', 'x', 0, '')",
            "DELETE FROM sqlite_schema",
        ],
        Opts::default(),
    );
}

#[test]
fn strict_tables_enforce_types() {
    check_script(
        &[
            "CREATE TABLE s(a INT NOT NULL, b INTEGER, c REAL, d TEXT, e BLOB, f ANY) STRICT",
            "INSERT INTO s VALUES (1, '12', 3, 4, x'00', '5')",
            "SELECT a, typeof(a), b, typeof(b), c, typeof(c), d, typeof(d), typeof(e), f, typeof(f) FROM s",
            "INSERT INTO s VALUES (1, 'x', NULL, NULL, NULL, NULL)",
            "INSERT INTO s VALUES (1, 1.5, NULL, NULL, NULL, NULL)",
            "INSERT INTO s VALUES (1, 2.0, NULL, NULL, NULL, NULL)",
            "INSERT INTO s VALUES (1, NULL, 'abc', NULL, NULL, NULL)",
            "INSERT INTO s VALUES (1, NULL, '1.5', NULL, NULL, NULL)",
            "INSERT INTO s VALUES (1, NULL, NULL, x'01', NULL, NULL)",
            "INSERT INTO s VALUES (1, NULL, NULL, NULL, 'text', NULL)",
            "INSERT INTO s VALUES (NULL, 'x', NULL, NULL, NULL, NULL)",
            "INSERT OR IGNORE INTO s VALUES (1, 'x', NULL, NULL, NULL, NULL)",
            "UPDATE s SET b = 'nope'",
            "UPDATE s SET b = '77'",
            "SELECT b, typeof(b) FROM s",
            "CREATE TABLE s2(a FOO) STRICT",
            "CREATE TABLE s3(a) STRICT",
            "CREATE TABLE s4(a VARCHAR(10)) STRICT",
            "CREATE TABLE s5(id INTEGER PRIMARY KEY, v TEXT) STRICT",
            "INSERT INTO s5 VALUES ('7', 8)",
            "SELECT id, typeof(id), v, typeof(v) FROM s5",
            "INSERT INTO s5 VALUES ('x', 8)",
        ],
        Opts::default(),
    );
}

#[test]
fn generated_columns_are_computed() {
    check_script(
        &[
            "CREATE TABLE g(a, b AS (a*2), c INT AS (b+1) STORED CHECK (c < 100), d AS (e), e AS (a || ''))",
            "INSERT INTO g VALUES (1)",
            "INSERT INTO g(a) VALUES (2.5)",
            "INSERT INTO g VALUES ('3')",
            "SELECT a, b, c, d, e, typeof(b), typeof(c), typeof(d) FROM g",
            "INSERT INTO g(a, b) VALUES (1, 2)",
            "INSERT INTO g VALUES (1, 2)",
            "INSERT INTO g VALUES (60)",
            "UPDATE g SET b = 1",
            "UPDATE g SET a = a + 10 WHERE a = 1",
            "SELECT a, b, c, d, e FROM g ORDER BY a",
            "SELECT * FROM g WHERE b = 22",
            "CREATE TABLE g2(a, b AS (b))",
            "CREATE TABLE g3(a AS (1))",
            "CREATE TABLE g4(a, b AS (a) DEFAULT 1)",
            "CREATE TABLE g5(a, b AS (a), PRIMARY KEY(b))",
            "CREATE TABLE g6(a INTEGER PRIMARY KEY, b AS (a * 10) UNIQUE, c TEXT AS (upper(d)), d)",
            "INSERT INTO g6(a, d) VALUES (1, 'x'), (2, 'y')",
            "INSERT INTO g6(a, d) VALUES (3, 'z'), (1, 'dup')",
            "INSERT OR REPLACE INTO g6(a, d) VALUES (1, 'new')",
            "SELECT * FROM g6 ORDER BY a",
            "DELETE FROM g6 WHERE b = 20",
            "SELECT * FROM g6 ORDER BY a",
        ],
        Opts::default(),
    );
}

#[test]
fn without_rowid_tables() {
    check_script(
        &[
            "CREATE TABLE w(a INT, b TEXT, c, PRIMARY KEY(b, a)) WITHOUT ROWID",
            "INSERT INTO w VALUES (1, 'x', 'one'), (2, 'x', 'two'), (1, 'a', 'three')",
            "INSERT INTO w VALUES (1, NULL, 'null key')",
            "INSERT INTO w VALUES (1, 'x', 'dup')",
            "INSERT OR REPLACE INTO w VALUES (1, 'x', 'replaced')",
            "INSERT OR IGNORE INTO w VALUES (2, 'x', 'ignored')",
            "SELECT * FROM w ORDER BY b, a",
            "SELECT rowid FROM w",
            "SELECT _rowid_, * FROM w",
            "INSERT INTO w(rowid, a, b) VALUES (5, 5, 'z')",
            "UPDATE w SET c = 'upd' WHERE a = 2",
            "UPDATE w SET a = 1 WHERE a = 2",
            "DELETE FROM w WHERE b = 'a'",
            "SELECT * FROM w ORDER BY b, a",
            "CREATE TABLE w2(k INTEGER PRIMARY KEY, v) WITHOUT ROWID",
            "INSERT INTO w2 VALUES (NULL, 1)",
            "INSERT INTO w2(v) VALUES (1)",
            "INSERT INTO w2 VALUES ('7', 1)",
            "SELECT k, typeof(k) FROM w2",
            "CREATE TABLE w3(a) WITHOUT ROWID",
            "SELECT count(*) FROM sqlite_schema WHERE tbl_name LIKE 'w%'",
        ],
        Opts::default(),
    );
}

/// `PRIMARY KEY ASC|DESC` written on the column: the key's direction,
/// and SQLite's quirk that `INTEGER PRIMARY KEY DESC` is not the rowid
/// (a NULL is kept, a rowid is assigned beside it); a direction anywhere
/// else is a syntax error.
#[test]
fn column_primary_key_directions() {
    check_each(&[
        "CREATE TABLE d(k TEXT PRIMARY KEY DESC, v) WITHOUT ROWID",
        "CREATE TABLE r(id INTEGER PRIMARY KEY DESC, v)",
        "CREATE TABLE a(id INTEGER PRIMARY KEY ASC, v)",
        "CREATE TABLE u(id TEXT PRIMARY KEY DESC UNIQUE, v)",
        "CREATE TABLE bad(id INTEGER DESC)",
        "CREATE TABLE bad2(id INTEGER NOT NULL ASC)",
        "CREATE TABLE bad3(id INTEGER PRIMARY KEY DESC AUTOINCREMENT)",
    ]);
    check_script(
        &[
            "CREATE TABLE d(k TEXT PRIMARY KEY DESC, v) WITHOUT ROWID",
            "INSERT INTO d VALUES ('a', 1), ('c', 2), ('b', 3)",
            "INSERT INTO d VALUES ('a', 9)",
            "SELECT * FROM d ORDER BY k DESC",
            "SELECT k FROM d WHERE k > 'a' ORDER BY k",
            "CREATE TABLE r(id INTEGER PRIMARY KEY DESC, v)",
            "INSERT INTO r VALUES (5, 1)",
            "INSERT INTO r(v) VALUES (2)",
            "INSERT INTO r VALUES (5, 3)",
            "SELECT id, typeof(id), rowid FROM r ORDER BY rowid",
            "CREATE TABLE a(id INTEGER PRIMARY KEY ASC, v)",
            "INSERT INTO a(v) VALUES (2)",
            "SELECT id, rowid FROM a",
            "SELECT * FROM pragma_index_xinfo('sqlite_autoindex_r_1')",
            "SELECT * FROM pragma_index_xinfo('sqlite_autoindex_d_1')",
        ],
        Opts::default(),
    );
}

#[test]
fn create_table_as_select_types_its_columns() {
    check_script(
        &[
            "CREATE TABLE s(a INTEGER, b TEXT, c REAL, d NUMERIC, e BLOB, f)",
            "INSERT INTO s VALUES (1, '2', 3.5, '4', x'05', 6)",
            "CREATE TABLE c1 AS SELECT a, b, c, d, e, f, 1, 'x', 1.5, a+1, CAST(a AS TEXT), \
             a AS \"my col\", b AS b, NULL FROM s",
            "SELECT sql FROM sqlite_schema WHERE name = 'c1'",
            "SELECT * FROM c1",
            "CREATE TABLE c2 AS SELECT 1 AS verylongcolumnnamenumberone, 2 AS verylongcolumnnamenumbertwo, 3 AS x3",
            "SELECT sql FROM sqlite_schema WHERE name = 'c2'",
            "CREATE TABLE c3 AS SELECT 1 AS \"select\", 2 AS \"1abc\", 3 AS a_b, 4 AS [x y]",
            "SELECT sql FROM sqlite_schema WHERE name = 'c3'",
            "CREATE TABLE c4 AS SELECT * FROM s UNION SELECT * FROM s",
            "SELECT sql FROM sqlite_schema WHERE name = 'c4'",
            "CREATE TABLE IF NOT EXISTS c4 AS SELECT 1",
            "CREATE TABLE c4 AS SELECT 1",
            "CREATE TABLE c5 AS SELECT * FROM s WHERE 0",
            "SELECT count(*), (SELECT sql FROM sqlite_schema WHERE name = 'c5') FROM c5",
            "SELECT typeof(a), typeof(b), typeof(d) FROM c1",
        ],
        Opts::default(),
    );
}

#[test]
fn index_collations_partial_and_expression_indexes() {
    check_script(
        &[
            "CREATE TABLE u(a TEXT UNIQUE COLLATE NOCASE, b TEXT, c INT)",
            "INSERT INTO u VALUES ('abc', 'x', 1)",
            "INSERT INTO u VALUES ('ABC', 'y', 2)",
            "INSERT OR REPLACE INTO u VALUES ('Abc', 'z', 3)",
            "SELECT * FROM u",
            "CREATE TABLE r(a TEXT COLLATE RTRIM PRIMARY KEY, b)",
            "INSERT INTO r VALUES ('x', 1)",
            "INSERT INTO r VALUES ('x  ', 2)",
            "CREATE UNIQUE INDEX ub ON u(b COLLATE NOCASE)",
            "INSERT INTO u VALUES ('q', 'Z', 4)",
            "CREATE TABLE p(a, b, active)",
            "CREATE UNIQUE INDEX pa ON p(a) WHERE active = 1",
            "INSERT INTO p VALUES (1, 'x', 1), (1, 'y', 0), (1, 'z', 0)",
            "INSERT INTO p VALUES (1, 'w', 1)",
            "UPDATE p SET active = 1 WHERE b = 'y'",
            "UPDATE p SET active = 0 WHERE b = 'x'",
            "UPDATE p SET active = 1 WHERE b = 'y'",
            "SELECT * FROM p ORDER BY b",
            "CREATE TABLE e(a TEXT, b INT)",
            "CREATE UNIQUE INDEX el ON e(lower(a))",
            "INSERT INTO e VALUES ('Hello', 1)",
            "INSERT INTO e VALUES ('HELLO', 2)",
            "INSERT INTO e VALUES ('world', 3)",
            "CREATE UNIQUE INDEX eb ON e(b % 2)",
            "CREATE INDEX ebad ON e(nosuch)",
            "CREATE INDEX ebad2 ON e((SELECT 1))",
            "CREATE TABLE dup(a COLLATE NOCASE)",
            "INSERT INTO dup VALUES ('a'), ('A')",
            "CREATE UNIQUE INDEX dupa ON dup(a)",
            "CREATE UNIQUE INDEX dupb ON dup(a COLLATE BINARY)",
            "INSERT INTO dup VALUES ('a')",
            "SELECT count(*) FROM dup",
        ],
        Opts { sorted: true, ..Opts::default() },
    );
}

/// `no such table` names the table as SQLite does: with the schema the
/// statement wrote, and as `main.` in a CREATE INDEX and inside a view's
/// or trigger's body (SQLite binds those names to the view's schema).
#[test]
fn missing_tables_are_named_as_sqlite_names_them() {
    check_script(
        &[
            "CREATE TABLE t(a)",
            "SELECT * FROM nosuch",
            "SELECT * FROM Main.nosuch",
            "SELECT * FROM temp.nosuch",
            "INSERT INTO nosuch VALUES (1)",
            "INSERT INTO main.nosuch VALUES (1)",
            "INSERT INTO Main.nosuch(a) SELECT 1",
            "UPDATE main.nosuch SET a = 1",
            "DELETE FROM temp.nosuch",
            "CREATE INDEX i ON nosuch(a)",
            "CREATE VIEW v AS SELECT * FROM (SELECT * FROM nosuch)",
            "SELECT * FROM v",
            "CREATE VIEW v2 AS SELECT * FROM v",
            "SELECT * FROM v2",
            "CREATE TRIGGER tr AFTER INSERT ON t BEGIN INSERT INTO nosuch VALUES (1); END",
            "INSERT INTO t VALUES (1)",
            "DROP TRIGGER tr",
            "CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT * FROM nosuch; END",
            "INSERT INTO t VALUES (1)",
            "DROP TRIGGER tr",
            "CREATE TRIGGER tr AFTER INSERT ON t BEGIN DELETE FROM nosuch; END",
            "INSERT INTO t VALUES (1)",
            "SELECT count(*) FROM t",
        ],
        Opts { sorted: false, messages: true },
    );
}

/// `PRAGMA schema_version` moves by one per schema-changing statement, as
/// SQLite's: a CREATE TABLE writing automatic indexes and
/// `sqlite_sequence`, a DROP TABLE taking indexes and triggers along, a
/// RENAME rewriting views — each counts once; VACUUM counts; a rolled-back
/// transaction and a failed statement do not.
#[test]
fn schema_version_moves_once_per_statement() {
    let cases: &[&[&str]] = &[
        &["CREATE TABLE t(a UNIQUE, b)"],
        &[
            "CREATE TABLE t(a INTEGER PRIMARY KEY AUTOINCREMENT, b UNIQUE, c UNIQUE)",
            "INSERT INTO t VALUES (NULL, 1, 2)",
        ],
        &["CREATE TABLE t(a, b, PRIMARY KEY(a, b)) WITHOUT ROWID"],
        &[
            "CREATE TABLE t(a UNIQUE, b)",
            "CREATE INDEX i ON t(b)",
            "CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END",
            "DROP TABLE t",
        ],
        &["CREATE TABLE t(a UNIQUE, b)", "ALTER TABLE t RENAME TO u"],
        &["CREATE TABLE t(a)", "CREATE VIEW v AS SELECT * FROM t", "ALTER TABLE t RENAME TO u"],
        &["CREATE TABLE t(a UNIQUE, b)", "ALTER TABLE t RENAME COLUMN b TO c"],
        &[
            "CREATE TABLE t(a UNIQUE, b)",
            "ALTER TABLE t ADD COLUMN c",
            "ALTER TABLE t DROP COLUMN b",
        ],
        &["CREATE TABLE t AS SELECT 1 AS a"],
        &[
            "CREATE TABLE t(a)",
            "INSERT INTO t VALUES (1)",
            "ANALYZE",
            "ANALYZE",
            "DROP TABLE sqlite_stat1",
        ],
        &["CREATE TABLE t(a)", "CREATE INDEX i ON t(a)", "REINDEX", "DROP INDEX i"],
        &["CREATE TABLE t(a)", "BEGIN", "CREATE TABLE u(a)", "CREATE TABLE w(b)", "COMMIT"],
        &["CREATE TABLE t(a)", "BEGIN", "CREATE TABLE u(a)", "ROLLBACK"],
        &["CREATE TABLE t(a)", "CREATE TABLE t(b)", "CREATE INDEX i ON t(nosuch)"],
        &["CREATE TABLE t(a)", "VACUUM", "INSERT INTO t VALUES (1)", "DELETE FROM t", "VACUUM"],
    ];
    for case in cases {
        let script: Vec<&str> = case.iter().flat_map(|s| [*s, "PRAGMA schema_version"]).collect();
        check_script(&script, Opts::default());
    }
}
