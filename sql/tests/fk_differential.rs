//! Foreign keys against SQLite (rusqlite, bundled), on both stores: with
//! `PRAGMA foreign_keys = ON`, REFERENCES and table-level FOREIGN KEY
//! constraints are enforced — child rows need their parents, parent
//! changes run ON DELETE / ON UPDATE actions (CASCADE, SET NULL, SET
//! DEFAULT, RESTRICT, NO ACTION), immediate keys are checked at the end of
//! each statement and deferred ones at COMMIT; off by default.
//!
//! Invariant pinned: after each statement of each script, AsaDB and
//! SQLite agree on error vs success (and the error's text), on every row
//! (storage classes included) and on rows affected.

mod schema_common;

use schema_common::{Opts, check_script};

fn check(script: &[&str]) {
    check_script(script, Opts { sorted: false, messages: true });
}

const PARENT_CHILD: &[&str] = &[
    "PRAGMA foreign_keys = ON",
    "CREATE TABLE artist(id INTEGER PRIMARY KEY, name TEXT)",
    "CREATE TABLE album(id INTEGER PRIMARY KEY, title TEXT, artist INTEGER REFERENCES artist(id))",
    "INSERT INTO artist VALUES (1, 'a'), (2, 'b'), (3, 'c')",
    "INSERT INTO album VALUES (10, 'x', 1), (11, 'y', 1), (12, 'z', 2), (13, 'n', NULL)",
];

fn with_setup(rest: &[&'static str]) -> Vec<&'static str> {
    let mut v = PARENT_CHILD.to_vec();
    v.extend_from_slice(rest);
    v
}

#[test]
fn off_by_default_and_the_pragma_reads_back() {
    check(&[
        "PRAGMA foreign_keys",
        "CREATE TABLE p(a PRIMARY KEY)",
        "CREATE TABLE c(x REFERENCES p)",
        "INSERT INTO c VALUES (1)",
        "PRAGMA foreign_keys = ON",
        "PRAGMA foreign_keys",
        "SELECT * FROM pragma_foreign_keys",
        "INSERT INTO c VALUES (2)",
        "PRAGMA foreign_key_check",
        "DELETE FROM c WHERE x = 1",
        "PRAGMA foreign_keys = OFF",
        "INSERT INTO c VALUES (2)",
        "SELECT * FROM c",
    ]);
}

#[test]
fn child_rows_need_parents() {
    check(&with_setup(&[
        "INSERT INTO album VALUES (20, 'bad', 9)",
        "INSERT INTO album VALUES (20, 'ok', 3)",
        "INSERT INTO album VALUES (21, 'null parent', NULL)",
        "INSERT INTO album VALUES (22, 'text key', '2')",
        "SELECT id, typeof(artist), artist FROM album ORDER BY id",
        "UPDATE album SET artist = 7 WHERE id = 10",
        "UPDATE album SET artist = 3 WHERE id = 10",
        "UPDATE album SET title = 'renamed' WHERE id = 11",
        "INSERT INTO album SELECT 30, 'many', 1 UNION ALL SELECT 31, 'bad', 99",
        "SELECT count(*) FROM album",
        "INSERT OR IGNORE INTO album VALUES (40, 'ignored?', 99)",
        "SELECT * FROM album ORDER BY id",
    ]));
}

#[test]
fn a_statement_may_pass_through_a_violation() {
    check(&[
        "PRAGMA foreign_keys = ON",
        "CREATE TABLE node(id INTEGER PRIMARY KEY, parent INTEGER REFERENCES node(id))",
        "INSERT INTO node SELECT 1, 2 UNION ALL SELECT 2, 1",
        "INSERT INTO node VALUES (3, 3)",
        "INSERT INTO node VALUES (4, 5)",
        "SELECT * FROM node ORDER BY id",
        "DELETE FROM node WHERE id = 1",
        "DELETE FROM node WHERE id IN (1, 2)",
        "SELECT * FROM node ORDER BY id",
        "UPDATE node SET id = 30 WHERE id = 3",
    ]);
}

#[test]
fn no_action_and_restrict_on_the_parent() {
    check(&with_setup(&[
        "DELETE FROM artist WHERE id = 3",
        "DELETE FROM artist WHERE id = 1",
        "UPDATE artist SET id = 5 WHERE id = 2",
        "UPDATE artist SET name = 'B' WHERE id = 2",
        "UPDATE artist SET id = 2 WHERE id = 2",
        "SELECT * FROM artist ORDER BY id",
        "CREATE TABLE r(x REFERENCES artist ON DELETE RESTRICT ON UPDATE RESTRICT)",
        "INSERT INTO r VALUES (3)",
        "DELETE FROM artist WHERE id = 3",
        "UPDATE artist SET id = 33 WHERE id = 3",
        "DELETE FROM r",
        "DELETE FROM artist WHERE id = 3",
        "SELECT * FROM artist ORDER BY id",
    ]));
}

#[test]
fn cascade_set_null_set_default() {
    check(&[
        "PRAGMA foreign_keys = ON",
        "CREATE TABLE p(id INTEGER PRIMARY KEY, k TEXT UNIQUE)",
        "CREATE TABLE cas(x REFERENCES p ON DELETE CASCADE ON UPDATE CASCADE, y)",
        "CREATE TABLE nul(x REFERENCES p(id) ON DELETE SET NULL ON UPDATE SET NULL)",
        "CREATE TABLE def(x INTEGER DEFAULT 0 REFERENCES p ON DELETE SET DEFAULT ON UPDATE SET DEFAULT)",
        "CREATE TABLE byk(k TEXT REFERENCES p(k) ON UPDATE CASCADE ON DELETE CASCADE)",
        "INSERT INTO p VALUES (0, 'zero'), (1, 'one'), (2, 'two'), (3, 'three')",
        "INSERT INTO cas VALUES (1, 'a'), (1, 'b'), (2, 'c')",
        "INSERT INTO nul VALUES (1), (2)",
        "INSERT INTO def VALUES (1), (2)",
        "INSERT INTO byk VALUES ('one'), ('two')",
        "DELETE FROM p WHERE id = 1",
        "SELECT * FROM cas",
        "SELECT * FROM nul",
        "SELECT * FROM def",
        "SELECT * FROM byk",
        "UPDATE p SET id = 20 WHERE id = 2",
        "SELECT * FROM cas",
        "SELECT * FROM nul",
        "SELECT * FROM def",
        "UPDATE p SET k = 'TWO' WHERE id = 20",
        "SELECT * FROM byk",
        "DELETE FROM p WHERE id = 0",
        "SELECT * FROM p ORDER BY id",
        "SELECT * FROM def",
    ]);
}

#[test]
fn cascades_chain_and_recurse() {
    check(&[
        "PRAGMA foreign_keys = ON",
        "CREATE TABLE a(id INTEGER PRIMARY KEY)",
        "CREATE TABLE b(id INTEGER PRIMARY KEY, a REFERENCES a ON DELETE CASCADE)",
        "CREATE TABLE c(id INTEGER PRIMARY KEY, b REFERENCES b ON DELETE CASCADE)",
        "CREATE TABLE d(c REFERENCES c)",
        "INSERT INTO a VALUES (1), (2)",
        "INSERT INTO b VALUES (1, 1), (2, 1), (3, 2)",
        "INSERT INTO c VALUES (1, 1), (2, 2), (3, 3)",
        "INSERT INTO d VALUES (3)",
        "DELETE FROM a WHERE id = 2",
        "DELETE FROM d",
        "DELETE FROM a WHERE id = 2",
        "SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM b), (SELECT count(*) FROM c)",
        "CREATE TABLE tree(id INTEGER PRIMARY KEY, up REFERENCES tree ON DELETE CASCADE)",
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200) \
         INSERT INTO tree SELECT i, CASE WHEN i > 1 THEN i - 1 END FROM n",
        "DELETE FROM tree WHERE id = 1",
        "SELECT count(*) FROM tree",
        "DELETE FROM a",
        "SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM b), (SELECT count(*) FROM c)",
    ]);
}

/// SQLite's depth limit for nested actions: a cascade through 1,000 rows
/// of a self-referencing table runs, one more level fails.
#[test]
fn cascade_depth_limit() {
    for n in [1000, 1001] {
        let fill = format!(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {n}) \
             INSERT INTO tree SELECT i, CASE WHEN i > 1 THEN i - 1 END FROM n"
        );
        check(&[
            "PRAGMA foreign_keys = ON",
            "CREATE TABLE tree(id INTEGER PRIMARY KEY, up REFERENCES tree ON DELETE CASCADE)",
            &fill,
            "DELETE FROM tree WHERE id = 1",
            "SELECT count(*) FROM tree",
        ]);
    }
}

#[test]
fn table_level_and_composite_keys() {
    check(&[
        "PRAGMA foreign_keys = ON",
        "CREATE TABLE p(a, b, c, PRIMARY KEY(a, b))",
        "CREATE TABLE ch(x, y, z, FOREIGN KEY (x, y) REFERENCES p(a, b) ON UPDATE CASCADE)",
        "INSERT INTO p VALUES (1, 1, 'p11'), (1, 2, 'p12')",
        "INSERT INTO ch VALUES (1, 1, 'ok'), (1, NULL, 'half null'), (1, 3, 'bad')",
        "INSERT INTO ch VALUES (1, 1, 'ok'), (1, NULL, 'half null')",
        "UPDATE p SET b = 5 WHERE b = 1",
        "SELECT * FROM ch",
        "DELETE FROM p",
        "DELETE FROM p WHERE b = 2",
        "SELECT * FROM p",
    ]);
}

#[test]
fn deferred_keys_are_checked_at_commit() {
    check(&[
        "PRAGMA foreign_keys = ON",
        "CREATE TABLE p(id INTEGER PRIMARY KEY)",
        "CREATE TABLE c(x REFERENCES p DEFERRABLE INITIALLY DEFERRED)",
        "INSERT INTO c VALUES (1)",
        "BEGIN",
        "INSERT INTO c VALUES (1)",
        "SELECT * FROM c",
        "COMMIT",
        "SELECT * FROM c",
        "INSERT INTO p VALUES (1)",
        "COMMIT",
        "SELECT * FROM c",
        "BEGIN",
        "DELETE FROM p",
        "COMMIT",
        "DELETE FROM c",
        "COMMIT",
        "SELECT (SELECT count(*) FROM p), (SELECT count(*) FROM c)",
        "BEGIN",
        "INSERT INTO c VALUES (5)",
        "ROLLBACK",
        "SELECT count(*) FROM c",
    ]);
}

#[test]
fn defer_foreign_keys_pragma() {
    check(&[
        "PRAGMA foreign_keys = ON",
        "CREATE TABLE p(id INTEGER PRIMARY KEY)",
        "CREATE TABLE c(x REFERENCES p)",
        "BEGIN",
        "PRAGMA defer_foreign_keys = ON",
        "PRAGMA defer_foreign_keys",
        "INSERT INTO c VALUES (7)",
        "COMMIT",
        "PRAGMA defer_foreign_keys",
        "INSERT INTO p VALUES (7)",
        "COMMIT",
        "PRAGMA defer_foreign_keys",
        "SELECT * FROM c",
        "BEGIN",
        "PRAGMA defer_foreign_keys = 1",
        "DELETE FROM p",
        "ROLLBACK",
        "PRAGMA defer_foreign_keys",
        "SELECT * FROM p",
    ]);
}

#[test]
fn the_pragma_does_not_change_inside_a_transaction() {
    check(&[
        "CREATE TABLE p(id INTEGER PRIMARY KEY)",
        "CREATE TABLE c(x REFERENCES p)",
        "BEGIN",
        "PRAGMA foreign_keys = ON",
        "PRAGMA foreign_keys",
        "INSERT INTO c VALUES (1)",
        "COMMIT",
        "PRAGMA foreign_keys = ON",
        "BEGIN",
        "PRAGMA foreign_keys = OFF",
        "PRAGMA foreign_keys",
        "INSERT INTO c VALUES (2)",
        "ROLLBACK",
        "SELECT * FROM c",
    ]);
}

#[test]
fn schema_errors_when_the_key_is_used() {
    check(&[
        "PRAGMA foreign_keys = ON",
        "CREATE TABLE c(x REFERENCES nosuch, y)",
        "INSERT INTO c VALUES (NULL, 1)",
        "UPDATE c SET y = 2",
        "UPDATE c SET x = 2",
        "DELETE FROM c",
        "CREATE TABLE p(a PRIMARY KEY, b)",
        "CREATE TABLE c2(x REFERENCES p(b), y)",
        "INSERT INTO c2 VALUES (1, 1)",
        "DELETE FROM c2",
        "UPDATE c2 SET y = 1",
        "INSERT INTO p VALUES (1, 2)",
        "DELETE FROM p",
        "SELECT * FROM p",
    ]);
}

#[test]
fn drop_table_deletes_first() {
    check(&with_setup(&[
        "DROP TABLE artist",
        "SELECT count(*) FROM artist",
        "DELETE FROM album WHERE artist IS NOT NULL",
        "DROP TABLE artist",
        "SELECT name FROM sqlite_schema ORDER BY name",
        "INSERT INTO album VALUES (50, 'n', NULL)",
        "CREATE TABLE p(id INTEGER PRIMARY KEY)",
        "CREATE TABLE c(x REFERENCES p ON DELETE CASCADE)",
        "INSERT INTO p VALUES (1)",
        "INSERT INTO c VALUES (1)",
        "DROP TABLE p",
        "SELECT count(*) FROM c",
        "DROP TABLE c",
    ]));
}

#[test]
fn replace_and_upsert_nothing() {
    check(&with_setup(&[
        "REPLACE INTO artist VALUES (1, 'a again')",
        "INSERT OR REPLACE INTO album VALUES (10, 'x2', 3)",
        "INSERT OR REPLACE INTO album VALUES (10, 'x3', 77)",
        "INSERT INTO album VALUES (12, 'z', 2) ON CONFLICT DO NOTHING",
        "SELECT * FROM album ORDER BY id",
        "CREATE TABLE pc(id INTEGER PRIMARY KEY, v UNIQUE)",
        "CREATE TABLE cc(x REFERENCES pc ON DELETE CASCADE)",
        "INSERT INTO pc VALUES (1, 'a'), (2, 'b')",
        "INSERT INTO cc VALUES (1), (2)",
        "INSERT OR REPLACE INTO pc VALUES (3, 'a')",
        "SELECT * FROM cc",
    ]));
}

#[test]
fn affinity_and_collation_of_the_parent_key() {
    check(&[
        "PRAGMA foreign_keys = ON",
        "CREATE TABLE p(k TEXT COLLATE NOCASE PRIMARY KEY, n INTEGER UNIQUE)",
        "CREATE TABLE c(k REFERENCES p ON UPDATE CASCADE, n TEXT REFERENCES p(n))",
        "INSERT INTO p VALUES ('Abc', 1), ('x', 2)",
        "INSERT INTO c VALUES ('ABC', NULL)",
        "INSERT INTO c VALUES (NULL, '1')",
        "INSERT INTO c VALUES (NULL, '1.0')",
        "INSERT INTO c VALUES (NULL, 'one')",
        "UPDATE p SET k = 'abd' WHERE k = 'abc'",
        "SELECT * FROM c",
        "DELETE FROM p WHERE n = 1",
    ]);
}

#[test]
fn foreign_key_check_under_enforcement() {
    check(&[
        "CREATE TABLE p(id INTEGER PRIMARY KEY)",
        "CREATE TABLE c(x REFERENCES p)",
        "INSERT INTO c VALUES (1), (2), (NULL)",
        "PRAGMA foreign_keys = ON",
        "PRAGMA foreign_key_check",
        "INSERT INTO p VALUES (1)",
        "PRAGMA foreign_key_check(c)",
        "UPDATE c SET x = x WHERE x = 2",
        "DELETE FROM c WHERE x = 2",
        "PRAGMA foreign_key_check",
    ]);
}

#[test]
fn savepoints_and_failed_statements_keep_deferred_state() {
    check(&[
        "PRAGMA foreign_keys = ON",
        "CREATE TABLE p(id INTEGER PRIMARY KEY)",
        "CREATE TABLE c(x REFERENCES p DEFERRABLE INITIALLY DEFERRED, y CHECK (y > 0))",
        "BEGIN",
        "INSERT INTO c VALUES (1, 0)",
        "COMMIT",
        "BEGIN",
        "SAVEPOINT s",
        "INSERT INTO c VALUES (1, 1)",
        "ROLLBACK TO s",
        "RELEASE s",
        "COMMIT",
        "SAVEPOINT outer_sp",
        "INSERT INTO c VALUES (2, 1)",
        "RELEASE outer_sp",
        "INSERT INTO p VALUES (2)",
        "RELEASE outer_sp",
        "SELECT * FROM c",
    ]);
}

#[test]
fn more_parent_forms() {
    check(&[
        "PRAGMA foreign_keys = ON",
        "CREATE TABLE w(a TEXT, b INT, PRIMARY KEY(a, b)) WITHOUT ROWID",
        "CREATE TABLE wc(a, b, FOREIGN KEY(a, b) REFERENCES w ON DELETE SET NULL)",
        "INSERT INTO w VALUES ('x', 1), ('y', 2)",
        "INSERT INTO wc VALUES ('x', 1), ('y', 2), ('z', 3)",
        "INSERT INTO wc VALUES ('x', 1), ('y', 2)",
        "DELETE FROM w WHERE a = 'x'",
        "SELECT * FROM wc",
        "CREATE TABLE p(id INTEGER PRIMARY KEY)",
        "CREATE TABLE sd(x INTEGER DEFAULT 42 REFERENCES p ON DELETE SET DEFAULT)",
        "INSERT INTO p VALUES (1)",
        "INSERT INTO sd VALUES (1)",
        "DELETE FROM p WHERE id = 1",
        "INSERT INTO p VALUES (42)",
        "DELETE FROM p WHERE id = 1",
        "SELECT * FROM sd",
        "CREATE TABLE self(id INTEGER PRIMARY KEY, up REFERENCES self ON UPDATE CASCADE)",
        "INSERT INTO self VALUES (1, NULL), (2, 1), (3, 2)",
        "UPDATE self SET id = id + 10",
        "SELECT * FROM self ORDER BY id",
        "UPDATE self SET id = 100 WHERE id = 11",
        "SELECT * FROM self ORDER BY id",
        "DELETE FROM self WHERE id = 100 RETURNING id",
        "CREATE TABLE dr(x REFERENCES p ON DELETE RESTRICT DEFERRABLE INITIALLY DEFERRED)",
        "INSERT INTO dr VALUES (42)",
        "BEGIN",
        "DELETE FROM p",
        "COMMIT",
        "SELECT count(*) FROM p",
    ]);
}

/// Foreign keys hold across a reopen of a database file (they are part of
/// the stored CREATE TABLE text; the setting is the session's).
#[test]
fn enforcement_after_reopen() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fk.db");
    {
        let e = asadb_sql::session::Engine::open(&path, Default::default()).unwrap();
        let mut s = e.session();
        for sql in [
            "CREATE TABLE p(id INTEGER PRIMARY KEY)",
            "CREATE TABLE c(x REFERENCES p ON DELETE CASCADE)",
            "INSERT INTO p VALUES (1)",
            "INSERT INTO c VALUES (1), (1)",
        ] {
            s.execute(sql, &asadb_sql::session::Params::None).unwrap();
        }
    }
    let e = asadb_sql::session::Engine::open(&path, Default::default()).unwrap();
    let mut s = e.session();
    let run = |s: &mut asadb_sql::session::Session, sql: &str| {
        s.execute(sql, &asadb_sql::session::Params::None).map_err(|e| e.to_string())
    };
    assert!(run(&mut s, "INSERT INTO c VALUES (2)").is_ok(), "off by default");
    run(&mut s, "DELETE FROM c WHERE x = 2").unwrap();
    run(&mut s, "PRAGMA foreign_keys = ON").unwrap();
    let err = run(&mut s, "INSERT INTO c VALUES (2)").unwrap_err();
    assert!(err.contains("FOREIGN KEY constraint failed"), "{err}");
    run(&mut s, "DELETE FROM p").unwrap();
    assert_eq!(
        run(&mut s, "SELECT count(*) FROM c").unwrap(),
        asadb_sql::session::Outcome::Rows {
            columns: vec!["count(*)".into()],
            rows: vec![vec![asadb_sql::Value::Integer(0)]]
        }
    );
}
