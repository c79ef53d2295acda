//! The facade's change counters (`Database::last_insert_rowid`,
//! `changes`, `total_changes`, and the SQL functions of the same names)
//! follow one SQLite connection: each step below runs on AsaDB's
//! `Database` and on a rusqlite `Connection`, and after it both report the
//! same three counters, through the API and through SQL.

use asadb::{Database, Params};

type Counters = (i64, u64, u64);

fn ours(db: &Database) -> Counters {
    (db.last_insert_rowid(), db.changes(), db.total_changes())
}

fn ours_sql(db: &Database) -> Counters {
    let row = db
        .query_row("SELECT last_insert_rowid(), changes(), total_changes()", Params::None)
        .unwrap()
        .unwrap();
    (row.get(0).unwrap(), row.get::<i64>(1).unwrap() as u64, row.get::<i64>(2).unwrap() as u64)
}

fn theirs(c: &rusqlite::Connection) -> Counters {
    (c.last_insert_rowid(), c.changes(), c.total_changes())
}

#[test]
fn counters_follow_one_sqlite_connection() {
    let db = Database::open_in_memory().unwrap();
    let c = rusqlite::Connection::open_in_memory().unwrap();
    let both = |sql: &str| {
        db.execute(sql, Params::None).unwrap();
        c.execute_batch(sql).unwrap();
    };
    both("CREATE TABLE t(a INTEGER PRIMARY KEY, b)");
    both("INSERT INTO t(b) VALUES (1), (2)");
    assert_eq!(ours(&db), theirs(&c));
    assert_eq!(ours_sql(&db), theirs(&c), "SQL sees what the previous call left");
    both("UPDATE t SET b = b + 1");
    assert_eq!(ours(&db), theirs(&c));

    // A streaming query on a cursor thread sees them too.
    let rows: Vec<i64> = db
        .query("SELECT last_insert_rowid() FROM t", Params::None)
        .unwrap()
        .map(|r| r.unwrap().get(0).unwrap())
        .collect();
    assert_eq!(rows, vec![c.last_insert_rowid(); 2]);

    // A transaction starts from them; rolled-back changes still count.
    let mut tx = db.transaction().unwrap();
    tx.execute("INSERT INTO t(b) VALUES (3)", Params::None).unwrap();
    c.execute_batch("BEGIN; INSERT INTO t(b) VALUES (3)").unwrap();
    assert_eq!((tx.last_insert_rowid(), tx.changes(), tx.total_changes()), theirs(&c));
    tx.rollback().unwrap();
    c.execute_batch("ROLLBACK").unwrap();
    assert_eq!(ours(&db), theirs(&c));

    // Prepared statements, and a failed one (changes stay as they were).
    let mut ins = db.prepare("INSERT INTO t(a, b) VALUES (?, ?)").unwrap();
    ins.execute([10, 1]).unwrap();
    c.execute("INSERT INTO t(a, b) VALUES (?, ?)", (10, 1)).unwrap();
    assert_eq!(ours(&db), theirs(&c));
    assert!(ins.execute([10, 2]).is_err());
    assert!(c.execute("INSERT INTO t(a, b) VALUES (?, ?)", (10, 2)).is_err());
    assert_eq!(ours(&db), theirs(&c));

    // A RETURNING statement run through `query` on a cursor thread.
    let got: Vec<i64> = db
        .query("INSERT INTO t(b) VALUES (7), (8) RETURNING a", Params::None)
        .unwrap()
        .map(|r| r.unwrap().get(0).unwrap())
        .collect();
    let want: Vec<i64> = c
        .prepare("INSERT INTO t(b) VALUES (7), (8) RETURNING a")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(|r| r.unwrap())
        .collect();
    assert_eq!(got, want);
    assert_eq!(ours(&db), theirs(&c));

    // A script, and DELETE.
    db.execute_script("INSERT INTO t(b) VALUES (1); DELETE FROM t WHERE b > 2;".as_bytes(), |_| {})
        .unwrap();
    c.execute_batch("INSERT INTO t(b) VALUES (1); DELETE FROM t WHERE b > 2;").unwrap();
    assert_eq!(ours(&db), theirs(&c));
    assert_eq!(ours_sql(&db), theirs(&c));

    // Clones share the handle's counters.
    let other = db.clone();
    other.execute("INSERT INTO t(b) VALUES (5)", Params::None).unwrap();
    c.execute_batch("INSERT INTO t(b) VALUES (5)").unwrap();
    assert_eq!(ours(&db), theirs(&c));
}
