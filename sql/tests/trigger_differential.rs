//! Triggers against SQLite (rusqlite, bundled), on both stores: BEFORE and
//! AFTER triggers on INSERT, UPDATE [OF columns] and DELETE, FOR EACH ROW,
//! WHEN, NEW./OLD., programs of INSERT/UPDATE/DELETE/SELECT, RAISE in its
//! four kinds, recursion as `recursive_triggers` says, DROP TRIGGER, and
//! the catalog rows (`sqlite_schema` keeps each trigger's text as written;
//! a table's triggers go with it).
//!
//! Invariant pinned: after each statement of each script, AsaDB and
//! SQLite agree on error vs success (and the error's text), on every row
//! (storage classes included) and on rows affected.

mod schema_common;

use schema_common::{Opts, check_script};

fn check(script: &[&str]) {
    check_script(script, Opts { sorted: false, messages: true });
}

const SCHEMA: &str = "SELECT type, name, tbl_name, rootpage, sql FROM sqlite_schema WHERE type = 'trigger' ORDER BY name";

#[test]
fn after_triggers_log_each_change() {
    check(&[
        "CREATE TABLE t(id INTEGER PRIMARY KEY, a, b)",
        "CREATE TABLE log(ev TEXT, old_a, new_a, rid)",
        "CREATE TRIGGER ti AFTER INSERT ON t BEGIN INSERT INTO log VALUES ('ins', NULL, new.a, new.id); END",
        "CREATE TRIGGER tu AFTER UPDATE ON t FOR EACH ROW BEGIN INSERT INTO log VALUES ('upd', old.a, NEW.a, new.rowid); END",
        "CREATE TRIGGER td AFTER DELETE ON t BEGIN INSERT INTO log VALUES ('del', OLD.a, NULL, old.id); END",
        SCHEMA,
        "INSERT INTO t(a, b) VALUES (1, 'x'), (2, 'y')",
        "UPDATE t SET a = a * 10",
        "DELETE FROM t WHERE id = 1",
        "SELECT ev, typeof(old_a), old_a, new_a, rid FROM log",
        "INSERT INTO t VALUES (7, '5', 'z')",
        "SELECT * FROM log WHERE rid = 7",
    ]);
}

#[test]
fn before_triggers_when_and_update_of() {
    check(&[
        "CREATE TABLE t(id INTEGER PRIMARY KEY, a, b)",
        "CREATE TABLE log(x)",
        "CREATE TRIGGER big BEFORE INSERT ON t WHEN new.a > 10 BEGIN INSERT INTO log VALUES ('big ' || new.a); END",
        "CREATE TRIGGER ofb AFTER UPDATE OF b ON t BEGIN INSERT INTO log VALUES ('b ' || old.b || '->' || new.b); END",
        "INSERT INTO t VALUES (1, 5, 'p'), (2, 50, 'q')",
        "UPDATE t SET a = 0",
        "UPDATE t SET b = 'r' WHERE id = 2",
        "UPDATE t SET a = 1, b = 's' WHERE id = 1",
        "SELECT * FROM log",
        "CREATE TRIGGER fix BEFORE UPDATE ON t BEGIN UPDATE log SET x = x || '!'; END",
        "UPDATE t SET a = 2 WHERE id = 1",
        "SELECT * FROM log",
    ]);
}

#[test]
fn raise_in_its_four_kinds() {
    check(&[
        "CREATE TABLE t(id INTEGER PRIMARY KEY, a)",
        "CREATE TABLE log(x)",
        "CREATE TRIGGER no_neg BEFORE INSERT ON t WHEN new.a < 0 BEGIN SELECT RAISE(ABORT, 'negative a'); END",
        "CREATE TRIGGER skip BEFORE INSERT ON t WHEN new.a = 0 BEGIN SELECT RAISE(IGNORE); END",
        "INSERT INTO t VALUES (1, 1), (2, -1)",
        "SELECT count(*) FROM t",
        "INSERT INTO t VALUES (1, 1), (2, 0), (3, 3)",
        "SELECT * FROM t",
        "CREATE TRIGGER fail BEFORE INSERT ON t WHEN new.a = 99 BEGIN SELECT RAISE(FAIL, 'ninety-nine'); END",
        "INSERT INTO t VALUES (10, 10), (11, 99), (12, 12)",
        "SELECT * FROM t",
        "CREATE TRIGGER rb BEFORE DELETE ON t WHEN old.a = 3 BEGIN SELECT RAISE(ROLLBACK, 'keep three'); END",
        "BEGIN",
        "INSERT INTO log VALUES ('in txn')",
        "DELETE FROM t WHERE id = 3",
        "COMMIT",
        "SELECT * FROM log",
        "SELECT * FROM t",
        "CREATE TRIGGER keep BEFORE DELETE ON t WHEN old.a = 1 BEGIN SELECT CASE WHEN 1 THEN RAISE(IGNORE) END; END",
        "DELETE FROM t",
        "SELECT * FROM t",
        "SELECT RAISE(ABORT, 'outside')",
    ]);
}

#[test]
fn recursion_follows_the_pragma() {
    check(&[
        "CREATE TABLE n(v)",
        "CREATE TRIGGER again AFTER INSERT ON n WHEN new.v < 5 BEGIN INSERT INTO n VALUES (new.v + 1); END",
        "INSERT INTO n VALUES (1)",
        "SELECT * FROM n",
        "PRAGMA recursive_triggers = ON",
        "INSERT INTO n VALUES (1)",
        "SELECT * FROM n",
        "CREATE TABLE a(x)",
        "CREATE TABLE b(x)",
        "CREATE TRIGGER ab AFTER INSERT ON a BEGIN INSERT INTO b VALUES (new.x); END",
        "CREATE TRIGGER ba AFTER INSERT ON b WHEN new.x < 3 BEGIN INSERT INTO a VALUES (new.x + 1); END",
        "PRAGMA recursive_triggers = OFF",
        "INSERT INTO a VALUES (1)",
        "SELECT * FROM a",
        "SELECT * FROM b",
    ]);
}

#[test]
fn ddl_rules_and_catalog() {
    check(&[
        "CREATE TABLE t(a)",
        "CREATE VIEW v AS SELECT a FROM t",
        "CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END",
        "CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END",
        "CREATE TRIGGER IF NOT EXISTS tr AFTER DELETE ON t BEGIN SELECT 2; END",
        "CREATE TRIGGER   \"Odd Name\"\n  BEFORE DELETE ON [t]\nBEGIN\n  SELECT 0x10; -- keep\nEND",
        "CREATE TRIGGER nosuch AFTER INSERT ON missing BEGIN SELECT 1; END",
        "CREATE TRIGGER bv BEFORE INSERT ON v BEGIN SELECT 1; END",
        "CREATE TRIGGER it INSTEAD OF INSERT ON t BEGIN SELECT 1; END",
        "CREATE TRIGGER sys AFTER INSERT ON sqlite_schema BEGIN SELECT 1; END",
        SCHEMA,
        "DROP TRIGGER tr",
        "DROP TRIGGER tr",
        "DROP TRIGGER IF EXISTS tr",
        SCHEMA,
        "CREATE TRIGGER t2 AFTER INSERT ON t BEGIN SELECT 1; END",
        "DROP TABLE t",
        SCHEMA,
    ]);
}

#[test]
fn triggers_and_foreign_keys_together() {
    check(&[
        "PRAGMA foreign_keys = ON",
        "CREATE TABLE p(id INTEGER PRIMARY KEY)",
        "CREATE TABLE c(x REFERENCES p ON DELETE CASCADE)",
        "CREATE TABLE log(x)",
        "CREATE TRIGGER cd AFTER DELETE ON c BEGIN INSERT INTO log VALUES (old.x); END",
        "INSERT INTO p VALUES (1), (2)",
        "INSERT INTO c VALUES (1), (1), (2)",
        "DELETE FROM p WHERE id = 1",
        "SELECT * FROM log",
        "CREATE TRIGGER bad AFTER INSERT ON log BEGIN INSERT INTO c VALUES (99); END",
        "INSERT INTO log VALUES (5)",
        "SELECT count(*) FROM log",
    ]);
}

/// Triggers are catalog rows: they fire after a reopen of the file.
#[test]
fn triggers_persist_across_reopen() {
    use asadb_sql::session::{Engine, Outcome, Params};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tr.db");
    {
        let e = Engine::open(&path, Default::default()).unwrap();
        let mut s = e.session();
        for sql in [
            "CREATE TABLE t(a)",
            "CREATE TABLE log(x)",
            "CREATE TRIGGER tr AFTER INSERT ON t BEGIN INSERT INTO log VALUES (new.a * 2); END",
        ] {
            s.execute(sql, &Params::None).unwrap();
        }
    }
    let e = Engine::open(&path, Default::default()).unwrap();
    let mut s = e.session();
    s.execute("INSERT INTO t VALUES (21)", &Params::None).unwrap();
    assert_eq!(
        s.execute("SELECT x FROM log", &Params::None).unwrap(),
        Outcome::Rows {
            columns: vec!["x".into()],
            rows: vec![vec![asadb_sql::Value::Integer(42)]]
        }
    );
}

/// What AsaDB refuses, with `unsupported`: TEMP triggers.
#[test]
fn temp_triggers_are_refused() {
    use asadb_sql::session::{Engine, Params};
    let mut s = Engine::memory().session();
    s.execute("CREATE TABLE t(a)", &Params::None).unwrap();
    s.execute("CREATE VIEW v AS SELECT a FROM t", &Params::None).unwrap();
    for sql in [
        "CREATE TEMP TRIGGER tt AFTER INSERT ON t BEGIN SELECT 1; END",
        "CREATE TEMPORARY TRIGGER tt AFTER INSERT ON t BEGIN SELECT 1; END",
    ] {
        let e = s.execute(sql, &Params::None).unwrap_err();
        assert!(matches!(e, asadb_sql::Error::Unsupported(_)), "{sql}: {e}");
    }
}

/// REPLACE's deletions fire DELETE triggers (BEFORE and AFTER) exactly
/// when recursive triggers are on, for a rowid conflict and a UNIQUE one,
/// from INSERT, UPDATE and upsert alike; a BEFORE trigger's RAISE(IGNORE)
/// keeps the row and the statement fails on the conflict, undone whole.
#[test]
fn replace_deleting_under_recursive_triggers() {
    let setup = [
        "CREATE TABLE t(a INTEGER PRIMARY KEY, b UNIQUE, c)",
        "CREATE TABLE log(x)",
        "CREATE TRIGGER bd BEFORE DELETE ON t BEGIN \
         INSERT INTO log VALUES ('bd ' || old.a || ' ' || old.b); \
         SELECT RAISE(IGNORE) WHERE old.c = 'keep'; END",
        "CREATE TRIGGER ad AFTER DELETE ON t BEGIN INSERT INTO log VALUES ('ad ' || old.a); END",
        "INSERT INTO t VALUES (1, 'x', 1), (2, 'y', 2), (7, 'k', 'keep')",
    ];
    for pragma in ["PRAGMA recursive_triggers = OFF", "PRAGMA recursive_triggers = ON"] {
        let mut script = vec![pragma];
        script.extend(setup);
        script.extend([
            "REPLACE INTO t VALUES (3, 'x', 3)",
            "INSERT OR REPLACE INTO t VALUES (2, 'z', 4)",
            "INSERT OR REPLACE INTO t VALUES (5, 'y', 5), (6, 'z', 6)",
            "UPDATE OR REPLACE t SET b = 'y' WHERE a = 3",
            "INSERT INTO t VALUES (8, 'y', 8) ON CONFLICT(a) DO UPDATE SET c = 0",
            "INSERT OR REPLACE INTO t VALUES (7, 'n', 9)",
            "INSERT OR REPLACE INTO t VALUES (9, 'k', 9)",
            "SELECT * FROM t ORDER BY a",
            "SELECT * FROM log",
            "PRAGMA integrity_check",
        ]);
        check(&script);
    }
}

/// `NEW.c` compares with its column's affinity and collation.
#[test]
fn new_and_old_keep_affinity_and_collation() {
    check(&[
        "CREATE TABLE t(a INTEGER, s TEXT COLLATE NOCASE, b)",
        "CREATE TABLE log(x)",
        "CREATE TRIGGER t1 AFTER INSERT ON t WHEN new.a = '5' BEGIN INSERT INTO log VALUES ('a is 5'); END",
        "CREATE TRIGGER t2 AFTER INSERT ON t WHEN new.s = 'ABC' BEGIN INSERT INTO log VALUES ('s is abc'); END",
        "CREATE TRIGGER t3 AFTER INSERT ON t WHEN new.b = '7' BEGIN INSERT INTO log VALUES ('b is 7'); END",
        "CREATE TRIGGER t4 AFTER INSERT ON t BEGIN INSERT INTO log SELECT typeof(new.a) || typeof(new.b) || new.rowid; END",
        "INSERT INTO t VALUES (5, 'abc', 7), ('5', 'x', '7')",
        "SELECT * FROM log",
        "CREATE TRIGGER t5 BEFORE INSERT ON t BEGIN INSERT INTO log VALUES ('before ' || new.rowid); END",
        "INSERT INTO t VALUES (1, 'q', 1)",
        "INSERT INTO t(rowid, a) VALUES (10, 1)",
        "SELECT * FROM log",
    ]);
}

#[test]
fn instead_of_triggers_make_views_writable() {
    check(&[
        "CREATE TABLE t(id INTEGER PRIMARY KEY, a, b)",
        "CREATE TABLE log(x)",
        "CREATE VIEW v(k, x) AS SELECT id, a || '/' || b FROM t",
        "INSERT INTO v VALUES (1, 'p/q')",
        "UPDATE v SET x = 'z'",
        "DELETE FROM v",
        "CREATE TRIGGER vi INSTEAD OF INSERT ON v BEGIN \
         INSERT INTO t VALUES (new.k, substr(new.x, 1, instr(new.x, '/') - 1), substr(new.x, instr(new.x, '/') + 1)); END",
        "CREATE TRIGGER vu INSTEAD OF UPDATE OF x ON v BEGIN \
         UPDATE t SET a = new.x WHERE id = old.k; INSERT INTO log VALUES ('u ' || old.x || ' ' || new.x); END",
        "CREATE TRIGGER vd INSTEAD OF DELETE ON v FOR EACH ROW WHEN old.k > 1 BEGIN DELETE FROM t WHERE id = old.k; END",
        "INSERT INTO v VALUES (1, 'p/q'), (2, 'r/s'), (3, 'u/v')",
        "INSERT INTO v(x) VALUES ('no/key')",
        "SELECT * FROM t",
        "SELECT * FROM v",
        "UPDATE v SET x = 'new' WHERE k >= 2",
        "UPDATE v SET k = 9",
        "SELECT * FROM t",
        "DELETE FROM v WHERE k < 3",
        "SELECT * FROM t",
        "SELECT * FROM log",
        "CREATE TRIGGER bad INSTEAD OF INSERT ON t BEGIN SELECT 1; END",
    ]);
}
