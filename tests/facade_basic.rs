//! The embedded API end to end: CRUD with all three parameter styles,
//! lazy streaming, transactions, scripts with progress, error kinds, the
//! busy timeout between two writers, and a file that survives a reopen.

use std::time::{Duration, Instant};

use asadb::{Database, Error, ErrorKind, Options, Value, named_params, params};

fn assert_send_sync_clone<T: Send + Sync + Clone>() {}

#[test]
fn database_is_send_sync_and_clone() {
    assert_send_sync_clone::<Database>();
    assert_send_sync_clone::<asadb::AsyncDatabase>();
}

fn people() -> Database {
    let db = Database::open_in_memory().unwrap();
    db.execute(
        "CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, age INTEGER, photo BLOB)",
        (),
    )
    .unwrap();
    db
}

fn count(db: &Database, table: &str) -> i64 {
    db.query(&format!("SELECT count(*) FROM {table}"), ())
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .get(0)
        .unwrap()
}

#[test]
fn crud_with_every_parameter_style() {
    let db = people();
    // `?` from a tuple, `?N` from params!, `:name` from pairs.
    assert_eq!(db.execute("INSERT INTO people (name, age) VALUES (?, ?)", ("ann", 31)).unwrap(), 1);
    assert_eq!(
        db.execute(
            "INSERT INTO people (age, name, photo) VALUES (?2, ?1, ?3)",
            params!["bob", 42, vec![1u8, 2]]
        )
        .unwrap(),
        1
    );
    let named: &[(&str, Value)] = &[(":name", Value::Text("cy".into())), ("age", Value::Null)];
    assert_eq!(
        db.execute("INSERT INTO people (name, age) VALUES (:name, :age)", named).unwrap(),
        1
    );
    assert_eq!(
        db.execute(
            "INSERT INTO people (name, age) VALUES (:name, :age)",
            named_params! { ":name" => "dee", ":age" => Some(7) },
        )
        .unwrap(),
        1
    );
    // Arrays and slices bind positionally.
    assert_eq!(db.execute("UPDATE people SET age = age + ? WHERE age > ?", [1, 30]).unwrap(), 2);
    assert_eq!(db.execute("DELETE FROM people WHERE name = ?", &["dee"][..]).unwrap(), 1);

    let rows: Vec<_> = db
        .query("SELECT id, name, age, photo FROM people ORDER BY id", ())
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0].columns(), ["id", "name", "age", "photo"]);
    assert_eq!(rows[0].get::<String>(1).unwrap(), "ann");
    assert_eq!(rows[0].get::<i64>(2).unwrap(), 32);
    assert_eq!(rows[1].get_by_name::<i64>("AGE").unwrap(), 43);
    assert_eq!(rows[1].get::<Vec<u8>>(3).unwrap(), vec![1, 2]);
    assert_eq!(rows[2].get::<Option<i64>>(2).unwrap(), None);
    assert_eq!(rows[2].get::<Option<Vec<u8>>>(3).unwrap(), None);
    assert!(matches!(rows[2].get::<i64>(2), Err(Error::Conversion { column: 2, .. })));

    // RETURNING rows come back through query.
    let ret: Vec<i64> = db
        .query("UPDATE people SET age = 0 WHERE name = 'ann' RETURNING age", ())
        .unwrap()
        .map(|r| r.unwrap().get(0).unwrap())
        .collect();
    assert_eq!(ret, [0]);
}

fn fill(db: &Database, table: &str, n: u64) {
    db.execute(&format!("CREATE TABLE {table} (x INTEGER PRIMARY KEY, y TEXT)"), ()).unwrap();
    let mut script = String::new();
    let mut i = 1;
    while i <= n {
        script.push_str(&format!("INSERT INTO {table} VALUES "));
        let end = (i + 999).min(n);
        for k in i..=end {
            script.push_str(&format!("({k}, 'row {k}'){}", if k == end { ";\n" } else { "," }));
        }
        i = end + 1;
    }
    let s = db.execute_script(script.as_bytes(), |_| {}).unwrap();
    assert_eq!(s.rows_affected, n);
}

#[test]
fn queries_stream_lazily() {
    let db = Database::open_in_memory().unwrap();
    fill(&db, "big", 100_000);
    // The last row's expression fails (abs of i64::MIN overflows). A
    // result computed in full before the first row would fail up front;
    // a streaming one hands out 99,999 good rows first.
    let mut rows = db
        .query(
            "SELECT x, abs(CASE WHEN x = 100000 THEN -9223372036854775807 - 1 ELSE x END) FROM big",
            (),
        )
        .unwrap();
    let first = rows.next().expect("a first row").expect("the first row is fine");
    assert_eq!(first.get::<i64>(0).unwrap(), 1);
    let mut good = 1;
    let mut failed = false;
    for r in rows.by_ref() {
        match r {
            Ok(_) => good += 1,
            Err(e) => {
                assert_eq!(e.kind(), ErrorKind::InvalidInput, "{e}");
                failed = true;
            }
        }
    }
    assert_eq!((good, failed), (99_999, true));
    assert!(rows.next().is_none(), "an error ends the stream");

    // Taking a few rows and dropping the iterator releases the snapshot:
    // a writer goes ahead right after.
    let ten: Vec<_> = db.query("SELECT x FROM big", ()).unwrap().take(10).collect();
    assert_eq!(ten.len(), 10);
    assert_eq!(db.execute("DELETE FROM big WHERE x > 10", ()).unwrap(), 99_990);
    assert_eq!(count(&db, "big"), 10);
}

#[test]
fn transactions_commit_roll_back_and_roll_back_on_drop() {
    let db = people();
    let mut tx = db.transaction().unwrap();
    tx.execute("INSERT INTO people (name) VALUES ('a')", ()).unwrap();
    // The transaction sees its own rows; a failing statement inside it
    // leaves no partial effects and the transaction goes on.
    assert_eq!(
        tx.query("SELECT count(*) FROM people", ())
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .get::<i64>(0)
            .unwrap(),
        1
    );
    let dup = tx.execute("INSERT INTO people (name) VALUES ('b'), ('a')", ()).unwrap_err();
    assert_eq!(dup.kind(), ErrorKind::Constraint);
    tx.commit().unwrap();
    assert_eq!(count(&db, "people"), 1);

    let mut tx = db.transaction().unwrap();
    tx.execute("INSERT INTO people (name) VALUES ('c')", ()).unwrap();
    tx.rollback().unwrap();
    assert_eq!(count(&db, "people"), 1);

    {
        let mut tx = db.transaction().unwrap();
        tx.execute("DELETE FROM people", ()).unwrap();
    }
    assert_eq!(count(&db, "people"), 1);
    // The dropped transaction released the write lock.
    db.execute("INSERT INTO people (name) VALUES ('d')", ()).unwrap();
    assert_eq!(count(&db, "people"), 2);
}

#[test]
fn execute_leaves_no_transaction_open() {
    let db = people();
    let err = db.execute("BEGIN; INSERT INTO people (name) VALUES ('x')", ()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidInput);
    assert_eq!(count(&db, "people"), 0);
    assert_eq!(db.execute("BEGIN; INSERT INTO people (name) VALUES ('x'); COMMIT", ()).unwrap(), 0);
    assert_eq!(count(&db, "people"), 1);
}

#[test]
fn execute_script_reports_every_statement() {
    let db = Database::open_in_memory().unwrap();
    let script = "CREATE TABLE t (a INTEGER, b TEXT);\n\
                  INSERT INTO t VALUES (1, 'x'), (2, 'y;z');\n\
                  -- a comment; with a semicolon\n\
                  INSERT INTO t SELECT a + 10, b FROM t;\n\
                  UPDATE t SET b = 'u' WHERE a > 10";
    let mut seen = Vec::new();
    let summary = db.execute_script(script.as_bytes(), |p| seen.push(p.clone())).unwrap();
    assert_eq!(summary.statements, 4);
    assert_eq!(summary.rows_affected, 2 + 2 + 2);
    assert_eq!(summary.bytes, script.len() as u64);
    assert_eq!(seen.iter().map(|p| p.index).collect::<Vec<_>>(), [0, 1, 2, 3]);
    assert_eq!(seen.iter().map(|p| p.rows_affected).collect::<Vec<_>>(), [0, 2, 2, 2]);
    for p in &seen {
        let keyword = ["CREATE", "INSERT", "INSERT", "UPDATE"][p.index as usize];
        assert!(script[p.offset as usize..].starts_with(keyword), "{p:?}");
        assert!(p.end > p.offset);
    }

    // A failing statement stops the script; what ran before it stays.
    let bad = "INSERT INTO t VALUES (3, 'ok');\nINSERT INTO nope VALUES (1);\nINSERT INTO t VALUES (4, 'never');";
    let mut ran = 0;
    let err = db.execute_script(bad.as_bytes(), |_| ran += 1).unwrap_err();
    let Error::Statement { index, offset, .. } = &err else { panic!("{err:?}") };
    assert_eq!((*index, *offset, ran), (1, bad.find("INSERT INTO nope").unwrap() as u64, 1));
    assert_eq!(count(&db, "t"), 5);

    // A script that ends inside BEGIN is rolled back, not committed.
    let open = "BEGIN; DELETE FROM t;";
    assert_eq!(
        db.execute_script(open.as_bytes(), |_| {}).unwrap_err().kind(),
        ErrorKind::InvalidInput
    );
    assert_eq!(count(&db, "t"), 5);
    let closed = "BEGIN; DELETE FROM t WHERE a = 3; COMMIT;";
    db.execute_script(closed.as_bytes(), |_| {}).unwrap();
    assert_eq!(count(&db, "t"), 4);
}

#[test]
fn errors_have_kinds() {
    let db = people();
    let kind = |sql: &str| db.execute(sql, ()).unwrap_err().kind();
    assert_eq!(kind("SELEC 1"), ErrorKind::InvalidInput);
    assert_eq!(kind("INSERT INTO people (name) VALUES (NULL)"), ErrorKind::Constraint);
    db.execute("INSERT INTO people (name) VALUES ('x')", ()).unwrap();
    assert_eq!(kind("INSERT INTO people (name) VALUES ('x')"), ErrorKind::Constraint);
    let missing = db.query("SELECT * FROM no_such_table", ()).err().expect("no such table");
    assert!(matches!(missing.kind(), ErrorKind::NotFound | ErrorKind::InvalidInput), "{missing:?}");
    assert!(!missing.is_retryable());
    let row = db.query("SELECT name FROM people", ()).unwrap().next().unwrap().unwrap();
    assert_eq!(row.get::<i64>(0).unwrap_err().kind(), ErrorKind::InvalidInput);
    assert_eq!(row.get_by_name::<String>("nope").unwrap_err().kind(), ErrorKind::NotFound);

    let other = db.clone();
    db.close().unwrap();
    assert_eq!(other.execute("SELECT 1", ()).unwrap_err().kind(), ErrorKind::Closed);
    assert_eq!(other.query("SELECT 1", ()).err().unwrap().kind(), ErrorKind::Closed);
    assert_eq!(other.transaction().err().unwrap().kind(), ErrorKind::Closed);
}

#[test]
fn second_writer_waits_for_the_busy_timeout_then_gets_busy() {
    let opts = Options { busy_timeout: Duration::from_millis(300), ..Options::default() };
    second_writer_waits(Database::open_in_memory_with(opts.clone()).unwrap());
    let dir = tempfile::tempdir().unwrap();
    second_writer_waits(Database::open_with(dir.path().join("busy.db"), opts).unwrap());
}

fn second_writer_waits(db: Database) {
    db.execute("CREATE TABLE t (a INTEGER)", ()).unwrap();
    db.execute("INSERT INTO t VALUES (1)", ()).unwrap();

    let mut tx = db.transaction().unwrap();
    tx.execute("INSERT INTO t VALUES (2)", ()).unwrap();
    let other = db.clone();
    let (err, waited, seen) = std::thread::spawn(move || {
        // Readers run alongside the writer and see the last commit.
        let seen: i64 = other
            .query("SELECT count(*) FROM t", ())
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .get(0)
            .unwrap();
        let started = Instant::now();
        let err = other.execute("INSERT INTO t VALUES (3)", ()).unwrap_err();
        (err, started.elapsed(), seen)
    })
    .join()
    .unwrap();
    assert_eq!(seen, 1);
    assert_eq!(err.kind(), ErrorKind::Busy, "{err:?}");
    assert!(err.is_retryable());
    assert!(waited >= Duration::from_millis(250), "gave up after {waited:?}");
    assert!(waited < Duration::from_secs(10), "waited {waited:?}");

    // A writer that starts waiting gets the lock once the first commits.
    let other = db.clone();
    let waiter = std::thread::spawn(move || other.execute("INSERT INTO t VALUES (4)", ()));
    std::thread::sleep(Duration::from_millis(50));
    tx.commit().unwrap();
    match waiter.join().unwrap() {
        Ok(n) => assert_eq!(n, 1),
        // The 300 ms budget may run out on a loaded machine before the
        // commit above; that must still be Busy, nothing else.
        Err(e) => assert_eq!(e.kind(), ErrorKind::Busy),
    }
    assert!(count(&db, "t") >= 2);
}

#[test]
fn a_file_database_survives_a_reopen() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("test.db");
    {
        let db = Database::open(&path).unwrap();
        fill(&db, "t", 10_000);
        db.execute("UPDATE t SET y = 'changed' WHERE x % 1000 = 0", ()).unwrap();
        db.close().unwrap();
        assert_eq!(db.execute("SELECT 1", ()).unwrap_err().kind(), ErrorKind::Closed);
    }
    let db = Database::open(&path).unwrap();
    let mut n = 0;
    for (i, r) in db.query("SELECT x, y FROM t ORDER BY x", ()).unwrap().enumerate() {
        let r = r.unwrap();
        let x: i64 = r.get(0).unwrap();
        assert_eq!(x, i as i64 + 1);
        let y: String = r.get(1).unwrap();
        assert_eq!(y, if x % 1000 == 0 { "changed".to_string() } else { format!("row {x}") });
        n += 1;
    }
    assert_eq!(n, 10_000);
}

#[test]
fn calling_thread_queries() {
    let db = people();
    db.execute("INSERT INTO people (name, age) VALUES ('a', 1), ('b', 2), ('c', 3)", ()).unwrap();
    let row = db.query_row("SELECT name FROM people WHERE age = ?", (2,)).unwrap().unwrap();
    assert_eq!(row.get::<String>(0).unwrap(), "b");
    assert!(db.query_row("SELECT name FROM people WHERE age = 99", ()).unwrap().is_none());
    let total = db
        .with_query("SELECT age FROM people", (), |rows| {
            assert_eq!(rows.columns(), ["age"]);
            rows.map(|r| r?.get::<i64>(0)).sum::<asadb::Result<i64>>()
        })
        .unwrap();
    assert_eq!(total, 6);
    // Empty results and errors come through the cursor thread too.
    assert_eq!(db.query("SELECT name FROM people WHERE age > 5", ()).unwrap().count(), 0);
    let mut one = db.query("SELECT name FROM people WHERE age = 1", ()).unwrap();
    assert_eq!(one.next().unwrap().unwrap().get::<String>(0).unwrap(), "a");
    assert!(one.next().is_none());
}

#[test]
fn scripts_with_mysql_escapes_and_a_size_limit() {
    let db = Database::open_in_memory().unwrap();
    db.execute("CREATE TABLE m (s TEXT)", ()).unwrap();
    let opts = asadb::SplitterOptions { backslash_escapes: true, ..Default::default() };
    let script = r"INSERT INTO m VALUES ('it\'s; fine'); INSERT INTO m VALUES ('x');";
    let s = db.execute_script_with(script.as_bytes(), opts, |_| {}).unwrap();
    assert_eq!((s.statements, s.rows_affected), (2, 2));
    let first = db.query_row("SELECT s FROM m ORDER BY rowid", ()).unwrap().unwrap();
    assert_eq!(first.get::<String>(0).unwrap(), "it's; fine");

    let small = asadb::SplitterOptions { max_statement_size: 16, ..Default::default() };
    let long = "INSERT INTO m VALUES ('a much longer statement than sixteen bytes');";
    let err = db.execute_script_with(long.as_bytes(), small, |_| {}).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TooLarge, "{err:?}");

    // `execute` takes the literal fast path too, with the same result.
    assert_eq!(db.execute("INSERT INTO m VALUES ('f1'), ('f2'), (NULL)", ()).unwrap(), 3);
    assert_eq!(count(&db, "m"), 5);
}

#[test]
fn readers_see_whole_commits_while_a_writer_works() {
    let db = Database::open_in_memory().unwrap();
    db.execute("CREATE TABLE acct (id INTEGER PRIMARY KEY, balance INTEGER)", ()).unwrap();
    db.execute("INSERT INTO acct VALUES (1, 1000), (2, 1000)", ()).unwrap();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let readers: Vec<_> = (0..3)
        .map(|_| {
            let db = db.clone();
            let stop = stop.clone();
            std::thread::spawn(move || {
                let mut reads = 0;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) || reads == 0 {
                    // Every snapshot sees both halves of a transfer or neither.
                    let total: i64 = db
                        .query_row("SELECT sum(balance) FROM acct", ())
                        .unwrap()
                        .unwrap()
                        .get(0)
                        .unwrap();
                    assert_eq!(total, 2000);
                    reads += 1;
                }
                reads
            })
        })
        .collect();
    for i in 0..200 {
        let mut tx = db.transaction().unwrap();
        tx.execute("UPDATE acct SET balance = balance - ? WHERE id = 1", (i % 7,)).unwrap();
        tx.execute("UPDATE acct SET balance = balance + ? WHERE id = 2", (i % 7,)).unwrap();
        tx.commit().unwrap();
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for r in readers {
        assert!(r.join().unwrap() > 0);
    }
}

#[test]
fn a_file_open_elsewhere_is_busy_until_closed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("app.db");
    let db = Database::open(&path).unwrap();
    db.execute("CREATE TABLE t(a)", ()).unwrap();
    db.execute("INSERT INTO t VALUES (1)", ()).unwrap();
    let Err(err) = Database::open(&path) else { panic!("a second open of an open file") };
    assert_eq!(err.kind(), ErrorKind::Busy, "{err}");
    assert!(err.to_string().contains("in use"), "{err}");
    // Clones share the one open file.
    let clone = db.clone();
    assert_eq!(count(&clone, "t"), 1);
    db.close().unwrap();
    drop(clone);
    let again = Database::open(&path).unwrap();
    assert_eq!(count(&again, "t"), 1);
}
