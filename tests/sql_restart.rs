//! Restart through the SQL layer: a file database gets a table (with a
//! secondary index) and 100,000 rows in ten transactions, is closed, and is
//! reopened.
//!
//! Invariant: after the reopen every inserted row reads back exactly (by a
//! full scan in rowid order, by primary-key lookups, and through the
//! index), the transaction layer's integrity check passes, and the SQL
//! layer's tree check passes: every table and index tree named in the
//! catalog is well formed, and every page of the file is exactly one of
//! the header, a free page or a page of one tree (nothing leaked, nothing
//! used twice).

use std::path::Path;

use asadb_sql::Value;
use asadb_sql::session::{Engine, Outcome, Params, Session};
use asadb_txn::{Db, Options, Synchronous};

const ROWS: i64 = 100_000;
const TXNS: i64 = 10;
const PER_INSERT: i64 = 500;

/// The row with primary key `id`: a deterministic function of `id`, so the
/// check needs no copy of what was inserted. Every fifth note is NULL and
/// some notes are long (overflow pages).
fn row(id: i64) -> Vec<Value> {
    let name = format!("name{}", id.wrapping_mul(2_654_435_761) % 1000);
    let score = (id % 10_007) as f64 / 8.0;
    let note = match id % 5 {
        0 => Value::Null,
        _ if id % 997 == 0 => Value::Text(format!("long-{id}-").repeat(600).into()),
        _ => Value::Text(format!("note {id} it's").into()),
    };
    vec![Value::Integer(id), Value::Text(name.into()), Value::Real(score), note]
}

fn literal(v: &Value) -> String {
    match v {
        Value::Null => "NULL".into(),
        Value::Integer(i) => i.to_string(),
        Value::Real(r) => format!("{r:?}"),
        Value::Text(s) => format!("'{}'", s.to_str_lossy().replace('\'', "''")),
        Value::Blob(b) => {
            format!("X'{}'", b.iter().map(|x| format!("{x:02x}")).collect::<String>())
        }
    }
}

fn insert_all(s: &mut Session) {
    s.execute(
        "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT NOT NULL, score REAL, note TEXT);
         CREATE INDEX t_name ON t(name);",
        &Params::None,
    )
    .unwrap();
    let per_txn = ROWS / TXNS;
    for txn in 0..TXNS {
        s.execute("BEGIN", &Params::None).unwrap();
        for chunk in 0..per_txn / PER_INSERT {
            let first = txn * per_txn + chunk * PER_INSERT + 1;
            let values: Vec<String> = (first..first + PER_INSERT)
                .map(|id| {
                    let r: Vec<String> = row(id).iter().map(literal).collect();
                    format!("({})", r.join(","))
                })
                .collect();
            let sql = format!("INSERT INTO t VALUES {}", values.join(","));
            let out = s.execute(&sql, &Params::None).unwrap();
            assert_eq!(out, Outcome::Affected(PER_INSERT as u64));
        }
        s.execute("COMMIT", &Params::None).unwrap();
    }
}

/// The whole-database check: page checksums and free list, every tree's
/// invariants, page accounting, and the index against its table.
fn sql_tree_check(db: &Db) {
    let report = Engine::with_db(db.clone()).integrity_check().unwrap();
    assert!(report.is_ok(), "integrity check: {:?}", report.problems);
    assert_eq!((report.tables, report.indexes), (1, 1), "the table and its index");
}

fn verify(s: &mut Session) {
    // Every row, in rowid order.
    let rows = s.query("SELECT id, name, score, note FROM t ORDER BY id", &Params::None).unwrap();
    let mut n = 0;
    for (i, r) in rows.enumerate() {
        let id = i as i64 + 1;
        assert_eq!(r.unwrap(), row(id), "row {id}");
        n += 1;
    }
    assert_eq!(n, ROWS);
    // Point lookups by primary key, including the first, last and missing.
    for id in [1, 2, 997, 50_000, 99_999, ROWS] {
        let got: Vec<_> = s
            .query("SELECT * FROM t WHERE id = ?", &Params::Positional(vec![Value::Integer(id)]))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(got, vec![row(id)]);
    }
    let missing = s
        .query("SELECT * FROM t WHERE id = ?", &Params::Positional(vec![Value::Integer(ROWS + 1)]))
        .unwrap()
        .count();
    assert_eq!(missing, 0);
    // Through the index: every name's count matches the model.
    let mut expect = std::collections::BTreeMap::<String, i64>::new();
    for id in 1..=ROWS {
        let Value::Text(name) = row(id).swap_remove(1) else { unreachable!() };
        *expect.entry(name.into_string_lossy()).or_default() += 1;
    }
    for name in ["name0", "name1", "name500", "name999"] {
        let got = s
            .query(
                "SELECT count(*) FROM t WHERE name = ?",
                &Params::Positional(vec![Value::Text(name.into())]),
            )
            .unwrap()
            .next()
            .unwrap()
            .unwrap();
        assert_eq!(got, vec![Value::Integer(expect.get(name).copied().unwrap_or(0))], "{name}");
    }
}

fn opts() -> Options {
    Options { synchronous: Synchronous::Full, ..Options::default() }
}

fn open(path: &Path) -> Engine {
    Engine::with_db(Db::open(path, opts()).unwrap())
}

#[test]
fn hundred_thousand_rows_survive_close_and_reopen() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("restart.db");
    {
        let engine = open(&path);
        insert_all(&mut engine.session());
        let db = engine.db().unwrap();
        sql_tree_check(db);
        db.close().unwrap();
    }
    let engine = open(&path);
    verify(&mut engine.session());
    sql_tree_check(engine.db().unwrap());
    engine.db().unwrap().close().unwrap();
    // A second restart after a further commit keeps both.
    let engine = open(&path);
    let mut s = engine.session();
    s.execute("DELETE FROM t WHERE id > ?", &Params::Positional(vec![Value::Integer(ROWS)]))
        .unwrap();
    let out = s.execute("UPDATE t SET score = score WHERE id <= 10", &Params::None).unwrap();
    assert_eq!(out, Outcome::Affected(10));
    drop(s);
    engine.db().unwrap().close().unwrap();
    let engine = open(&path);
    verify(&mut engine.session());
    sql_tree_check(engine.db().unwrap());
}
