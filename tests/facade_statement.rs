//! Prepared statements through the facade (`Database::prepare`,
//! `prepare_cached`, `Statement::query` / `execute`): rows and parameters
//! as the same text gives through `Database::query`, errors at prepare and
//! at run, and a statement that stays right across schema changes. Each
//! runs on the B+tree file store and on the in-memory database.

use asadb::{Database, ErrorKind, Value, named_params, params};

fn databases() -> Vec<(Database, Option<tempfile::TempDir>)> {
    let dir = tempfile::tempdir().unwrap();
    let file = Database::open(dir.path().join("p.db")).unwrap();
    vec![(file, Some(dir)), (Database::open_in_memory().unwrap(), None)]
}

fn setup(db: &Database) {
    db.execute(
        "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, score REAL);
         CREATE INDEX t_name ON t(name);",
        (),
    )
    .unwrap();
    for i in 1..=50i64 {
        db.execute("INSERT INTO t VALUES (?, ?, ?)", (i, format!("n{}", i % 7), i as f64 / 2.0))
            .unwrap();
    }
}

fn all(rows: asadb::Rows<'_>) -> Vec<Vec<Value>> {
    rows.map(|r| r.unwrap().into_values()).collect()
}

#[test]
fn rows_and_positional_parameters_match_a_plain_query() {
    for (db, _dir) in databases() {
        setup(&db);
        let mut st =
            db.prepare("SELECT id, name, score FROM t WHERE name = ?1 AND id > ?2").unwrap();
        assert_eq!(st.column_names(), ["id", "name", "score"]);
        for (name, min) in [("n3", 0i64), ("n0", 20), ("none", 0)] {
            let got = all(st.query((name, min)).unwrap());
            let want = all(db
                .query("SELECT id, name, score FROM t WHERE name = ?1 AND id > ?2", (name, min))
                .unwrap());
            assert_eq!(got, want, "{name} {min}");
        }
        let n3: Vec<i64> =
            st.query(("n3", 0)).unwrap().map(|r| r.unwrap().get(0).unwrap()).collect();
        assert_eq!(n3, [3, 10, 17, 24, 31, 38, 45]);
        // `?` slots numbered left to right; a row by itself.
        let mut one = db.prepare("SELECT name, score FROM t WHERE id = ?").unwrap();
        let row = one.query_row([7]).unwrap().unwrap();
        assert_eq!(row.get::<String>(0).unwrap(), "n0");
        assert_eq!(row.get::<f64>(1).unwrap(), 3.5);
        assert!(one.query_row([999]).unwrap().is_none());
    }
}

#[test]
fn named_parameters_with_or_without_their_prefix() {
    for (db, _dir) in databases() {
        setup(&db);
        let mut st =
            db.prepare("SELECT count(*) FROM t WHERE name = :name AND score >= $min").unwrap();
        let count = |st: &mut asadb::Statement, p| -> i64 {
            st.query_row(p).unwrap().unwrap().get(0).unwrap()
        };
        assert_eq!(count(&mut st, named_params! { ":name" => "n1", "$min" => 10.0 }), 5);
        assert_eq!(count(&mut st, named_params! { "name" => "n1", "min" => 0 }), 8);
        // An unbound parameter is NULL, as in SQLite: nothing equals it.
        assert_eq!(count(&mut st, named_params! { ":name" => "n1" }), 0);
    }
}

#[test]
fn execute_runs_writes_and_counts_rows() {
    for (db, _dir) in databases() {
        setup(&db);
        let mut ins = db.prepare("INSERT INTO t(name, score) VALUES (?, ?)").unwrap();
        assert!(ins.column_names().is_empty());
        for i in 0..10 {
            assert_eq!(ins.execute(params!["new", i]).unwrap(), 1);
        }
        let mut upd = db.prepare("UPDATE t SET score = score + :d WHERE name = :n").unwrap();
        assert_eq!(upd.execute(named_params! { ":d" => 1, ":n" => "new" }).unwrap(), 10);
        let sum: f64 = db
            .query_row("SELECT sum(score) FROM t WHERE name = 'new'", ())
            .unwrap()
            .unwrap()
            .get(0)
            .unwrap();
        assert_eq!(sum, 55.0);
        let mut del = db.prepare("DELETE FROM t WHERE id <= ?").unwrap();
        assert_eq!(del.execute([5]).unwrap(), 5);
        assert_eq!(del.execute([5]).unwrap(), 0);
        // RETURNING rows come out of `query`.
        let mut ret = db.prepare("DELETE FROM t WHERE id = ? RETURNING name").unwrap();
        assert_eq!(all(ret.query([6]).unwrap()), [[Value::Text("n6".into())]]);
        // A constraint error leaves nothing behind and the statement usable.
        let mut dup = db.prepare("INSERT INTO t(id, name) VALUES (?, 'x')").unwrap();
        assert_eq!(dup.execute([7]).unwrap_err().kind(), ErrorKind::Constraint);
        assert_eq!(dup.execute([1000]).unwrap(), 1);
    }
}

#[test]
fn bad_statements_fail_at_prepare() {
    for (db, _dir) in databases() {
        setup(&db);
        for (sql, kind) in [
            ("SELEC 1", ErrorKind::InvalidInput),
            ("SELECT 1; SELECT 2", ErrorKind::InvalidInput),
            ("", ErrorKind::InvalidInput),
            ("SELECT * FROM nope", ErrorKind::NotFound),
            ("SELECT nope FROM t", ErrorKind::InvalidInput),
            ("BEGIN", ErrorKind::InvalidInput),
            ("COMMIT", ErrorKind::InvalidInput),
            ("SAVEPOINT a", ErrorKind::InvalidInput),
        ] {
            let e = db.prepare(sql).unwrap_err();
            assert_eq!(e.kind(), kind, "{sql}: {e}");
            let e = db.prepare_cached(sql).unwrap_err();
            assert_eq!(e.kind(), kind, "{sql} (cached): {e}");
        }
        // Errors of a run: a value that fails a NOT NULL, a division
        // by a text is NULL (no error), a wrong read type.
        db.execute("CREATE TABLE nn(x NOT NULL)", ()).unwrap();
        let mut st = db.prepare("INSERT INTO nn VALUES (?)").unwrap();
        assert_eq!(st.execute([None::<i64>]).unwrap_err().kind(), ErrorKind::Constraint);
        let mut q = db.prepare("SELECT ? + 1").unwrap();
        let row = q.query_row(["x"]).unwrap().unwrap();
        assert_eq!(row.get::<i64>(0).unwrap(), 1);
        assert!(row.get::<String>(0).is_err());
    }
}

#[test]
fn statements_follow_schema_changes() {
    for (db, _dir) in databases() {
        setup(&db);
        let mut star = db.prepare("SELECT * FROM t WHERE id = ?").unwrap();
        assert_eq!(star.query([1]).unwrap().columns(), ["id", "name", "score"]);
        db.execute("ALTER TABLE t ADD COLUMN extra TEXT DEFAULT 'd'", ()).unwrap();
        let rows = star.query([1]).unwrap();
        assert_eq!(rows.columns(), ["id", "name", "score", "extra"]);
        assert_eq!(
            all(rows),
            [[
                Value::Integer(1),
                Value::Text("n1".into()),
                Value::Real(0.5),
                Value::Text("d".into())
            ]]
        );
        // Dropped: a typed error; created again: right again.
        let mut ins = db.prepare_cached("INSERT INTO t(name) VALUES (?)").unwrap();
        db.execute("DROP TABLE t", ()).unwrap();
        assert_eq!(star.query([1]).err().unwrap().kind(), ErrorKind::NotFound);
        assert_eq!(ins.execute(["a"]).unwrap_err().kind(), ErrorKind::NotFound);
        db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT)", ()).unwrap();
        assert_eq!(ins.execute(["a"]).unwrap(), 1);
        assert_eq!(all(star.query([1]).unwrap()), [[Value::Integer(1), Value::Text("a".into())]]);
        // A new index is used by the next run; the answer is the same.
        let mut by_name = db.prepare_cached("SELECT id FROM t WHERE name = ?").unwrap();
        assert_eq!(all(by_name.query(["a"]).unwrap()), [[Value::Integer(1)]]);
        db.execute("CREATE INDEX t_name2 ON t(name)", ()).unwrap();
        assert_eq!(all(by_name.query(["a"]).unwrap()), [[Value::Integer(1)]]);
    }
}

#[test]
fn the_cache_keeps_texts_and_checks_each_prepare() {
    let (db, _dir) = databases().remove(0);
    setup(&db);
    // Many distinct texts (more than the cache holds) and repeats: every
    // statement answers for its own text.
    for round in 0..3 {
        for k in 0..(asadb::STATEMENT_CACHE as i64 + 10) {
            let sql = format!("SELECT {k} + ?, {round}");
            let mut st = db.prepare_cached(&sql).unwrap();
            let row = st.query_row([1]).unwrap().unwrap();
            assert_eq!(row.get::<i64>(0).unwrap(), k + 1);
            assert_eq!(row.get::<i64>(1).unwrap(), round);
        }
    }
    // A cached text is checked against the schema of each prepare.
    db.prepare_cached("SELECT name FROM t").unwrap();
    db.execute("DROP TABLE t", ()).unwrap();
    assert_eq!(db.prepare_cached("SELECT name FROM t").unwrap_err().kind(), ErrorKind::NotFound);
    // Statements stop with the database.
    let mut st = db.prepare("SELECT 1").unwrap();
    db.close().unwrap();
    assert_eq!(st.query(()).err().unwrap().kind(), ErrorKind::Closed);
    assert_eq!(st.execute(()).unwrap_err().kind(), ErrorKind::Closed);
    assert_eq!(db.prepare_cached("SELECT 1").unwrap_err().kind(), ErrorKind::Closed);
}

#[test]
fn statements_are_send_and_run_on_other_threads() {
    fn is_send<T: Send>() {}
    is_send::<asadb::Statement>();
    let (db, _dir) = databases().remove(0);
    setup(&db);
    let handles: Vec<_> = (0..4i64)
        .map(|t| {
            let db = db.clone();
            std::thread::spawn(move || {
                let mut st = db.prepare_cached("SELECT name FROM t WHERE id = ?").unwrap();
                for i in 1..=50i64 {
                    let name: String = st.query_row([i]).unwrap().unwrap().get(0).unwrap();
                    assert_eq!(name, format!("n{}", i % 7), "thread {t}");
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
}
