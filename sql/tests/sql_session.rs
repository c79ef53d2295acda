//! The session API: parameters, streaming rows, prepared statements,
//! statement atomicity, thread-safety markers, and a restart test over a
//! database file.
//!
//! Invariants pinned: a failing statement leaves no partial effects in
//! autocommit or inside a transaction; rows stream (a LIMIT query over a
//! large table does not need the whole table); everything committed to a
//! file is there after closing and reopening, and the file passes the
//! integrity check.

use asadb_sql::Value;
use asadb_sql::session::{Engine, Outcome, Params, Session};

fn rows(s: &mut Session, sql: &str) -> Vec<Vec<Value>> {
    match s.execute(sql, &Params::None).expect(sql) {
        Outcome::Rows { rows, .. } => rows,
        o => panic!("{sql}: not rows: {o:?}"),
    }
}

fn int(i: i64) -> Value {
    Value::Integer(i)
}

#[test]
fn handles_are_send_and_sync_where_promised() {
    fn send<T: Send>() {}
    fn sync<T: Sync>() {}
    send::<Engine>();
    sync::<Engine>();
    send::<Session>();
    send::<asadb_sql::session::Rows<'static>>();
}

#[test]
fn parameters_positional_numbered_and_named() {
    let mut s = Engine::memory().session();
    s.execute("CREATE TABLE t(a, b)", &Params::None).unwrap();
    s.execute("INSERT INTO t VALUES (?, ?)", &Params::Positional(vec![int(1), "x".into()]))
        .unwrap();
    s.execute("INSERT INTO t VALUES (?2, ?1)", &Params::Positional(vec!["y".into(), int(2)]))
        .unwrap();
    s.execute(
        "INSERT INTO t VALUES (:a, @b)",
        &Params::Named(vec![(":a".into(), int(3)), ("b".into(), "z".into())]),
    )
    .unwrap();
    let got = match s
        .execute(
            "SELECT b FROM t WHERE a >= $min ORDER BY a",
            &Params::Named(vec![("min".into(), int(2))]),
        )
        .unwrap()
    {
        Outcome::Rows { rows, .. } => rows,
        o => panic!("{o:?}"),
    };
    assert_eq!(got, vec![vec![Value::from("y")], vec![Value::from("z")]]);
    assert_eq!(rows(&mut s, "SELECT a, b FROM t WHERE a = 1"), vec![vec![int(1), "x".into()]]);
}

#[test]
fn query_streams_with_column_names() {
    let mut s = Engine::memory().session();
    s.execute("CREATE TABLE t(a INTEGER PRIMARY KEY, b)", &Params::None).unwrap();
    s.execute("BEGIN", &Params::None).unwrap();
    for i in 0..2000 {
        s.execute("INSERT INTO t(b) VALUES (?)", &Params::Positional(vec![int(i)])).unwrap();
    }
    s.execute("COMMIT", &Params::None).unwrap();
    let mut r = s.query("SELECT a AS id, b * 2 FROM t", &Params::None).unwrap();
    assert_eq!(r.columns(), ["id", "b * 2"]);
    let first: Vec<_> = r.by_ref().take(3).map(|x| x.unwrap()).collect();
    assert_eq!(first, vec![vec![int(1), int(0)], vec![int(2), int(2)], vec![int(3), int(4)]]);
    assert_eq!(r.count(), 1997);
}

#[test]
fn failing_statement_has_no_partial_effect() {
    let mut s = Engine::memory().session();
    s.execute("CREATE TABLE t(a INTEGER PRIMARY KEY)", &Params::None).unwrap();
    // Autocommit: the second row fails, the first must not stay.
    assert!(s.execute("INSERT INTO t VALUES (1), (1)", &Params::None).is_err());
    assert_eq!(rows(&mut s, "SELECT count(*) FROM t"), vec![vec![int(0)]]);
    // In a transaction: the statement is undone, the transaction goes on.
    s.execute("BEGIN", &Params::None).unwrap();
    s.execute("INSERT INTO t VALUES (5)", &Params::None).unwrap();
    assert!(s.execute("INSERT INTO t VALUES (6), (5)", &Params::None).is_err());
    assert!(s.in_transaction());
    s.execute("COMMIT", &Params::None).unwrap();
    assert_eq!(rows(&mut s, "SELECT a FROM t"), vec![vec![int(5)]]);
}

#[test]
fn prepared_statements_rerun_with_new_parameters() {
    let mut s = Engine::memory().session();
    s.execute("CREATE TABLE t(a)", &Params::None).unwrap();
    let p = s.prepare("INSERT INTO t VALUES (?1 * 10)").unwrap();
    for i in 1..=3 {
        assert_eq!(s.run(&p, &Params::Positional(vec![int(i)])).unwrap(), Outcome::Affected(1));
    }
    assert_eq!(rows(&mut s, "SELECT sum(a) FROM t"), vec![vec![int(60)]]);
    assert!(s.prepare("SELECT 1; SELECT 2").is_err());
}

#[test]
fn two_sessions_see_committed_schema_changes() {
    let e = Engine::memory();
    let mut a = e.session();
    let mut b = e.session();
    a.execute("CREATE TABLE t(x)", &Params::None).unwrap();
    a.execute("INSERT INTO t VALUES (1)", &Params::None).unwrap();
    assert_eq!(rows(&mut b, "SELECT x FROM t"), vec![vec![int(1)]]);
    b.execute("DROP TABLE t", &Params::None).unwrap();
    assert!(a.execute("SELECT x FROM t", &Params::None).is_err());
}

#[test]
fn restart_keeps_100k_rows_and_passes_integrity_check() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.db");
    let opts = asadb_txn::Options::default;
    {
        let e = Engine::open(&path, opts()).unwrap();
        let mut s = e.session();
        s.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, v REAL)", &Params::None)
            .unwrap();
        s.execute("CREATE INDEX tn ON t(name)", &Params::None).unwrap();
        s.execute("BEGIN", &Params::None).unwrap();
        let p = s.prepare("INSERT INTO t VALUES (?, ?, ?)").unwrap();
        for i in 0..100_000i64 {
            let params = Params::Positional(vec![
                int(i),
                Value::Text(format!("name {}", i % 1000).into()),
                Value::Real(i as f64 / 4.0),
            ]);
            s.run(&p, &params).unwrap();
        }
        s.execute("COMMIT", &Params::None).unwrap();
        e.db().unwrap().close().unwrap();
    }
    let e = Engine::open(&path, opts()).unwrap();
    let mut s = e.session();
    assert_eq!(
        rows(&mut s, "SELECT count(*), sum(id), max(v) FROM t"),
        vec![vec![int(100_000), int(4_999_950_000), Value::Real(99_999.0 / 4.0)]]
    );
    assert_eq!(rows(&mut s, "SELECT count(*) FROM t WHERE name = 'name 7'"), vec![vec![int(100)]]);
    let report = e.db().unwrap().integrity_check().unwrap();
    assert!(report.problems.is_empty(), "{:?}", report.problems);
}

#[test]
fn order_by_past_the_memory_budget_spills_and_stays_correct() {
    let e = Engine::memory();
    e.set_memory_budget(64 * 1024);
    let mut s = e.session();
    s.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v INTEGER, pad TEXT)", &Params::None)
        .unwrap();
    s.execute("BEGIN", &Params::None).unwrap();
    let p = s.prepare("INSERT INTO t VALUES (?, ?, ?)").unwrap();
    let n = 20_000i64;
    for i in 0..n {
        let v = (i * 7919) % 1009;
        s.run(&p, &Params::Positional(vec![int(i), int(v), Value::Text(("x".repeat(20)).into())]))
            .unwrap();
    }
    s.execute("COMMIT", &Params::None).unwrap();
    let got: Vec<(i64, i64)> = rows(&mut s, "SELECT v, id FROM t ORDER BY v DESC, id")
        .into_iter()
        .map(|r| match (&r[0], &r[1]) {
            (Value::Integer(v), Value::Integer(id)) => (*v, *id),
            _ => panic!("bad row {r:?}"),
        })
        .collect();
    let mut want: Vec<(i64, i64)> = (0..n).map(|i| ((i * 7919) % 1009, i)).collect();
    want.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    assert_eq!(got, want);
}

#[test]
fn group_by_past_the_memory_budget_streams_over_sorted_input() {
    let small = Engine::memory();
    small.set_memory_budget(32 * 1024);
    let big = Engine::memory();
    let sql =
        "SELECT g, count(*), sum(v), min(v), max(v), count(DISTINCT v % 10) FROM t GROUP BY g";
    let mut results = Vec::new();
    for e in [small, big] {
        let mut s = e.session();
        s.execute("CREATE TABLE t(g INTEGER, v INTEGER)", &Params::None).unwrap();
        s.execute("BEGIN", &Params::None).unwrap();
        let p = s.prepare("INSERT INTO t VALUES (?, ?)").unwrap();
        for i in 0..10_000i64 {
            s.run(&p, &Params::Positional(vec![int((i * 31) % 577), int(i)])).unwrap();
        }
        s.execute("COMMIT", &Params::None).unwrap();
        results.push(rows(&mut s, sql));
    }
    assert_eq!(results[0].len(), 577);
    assert_eq!(results[0], results[1]);
    assert_eq!(
        rows(&mut Engine::memory().session(), "SELECT count(*), sum(1)"),
        vec![vec![int(1), int(1)]]
    );
}

#[test]
fn hash_join_past_the_memory_budget_partitions_to_disk() {
    let small = Engine::memory();
    small.set_memory_budget(16 * 1024);
    let big = Engine::memory();
    let queries = [
        "SELECT a.id, b.id FROM a JOIN b ON a.k = b.k ORDER BY 1, 2",
        "SELECT a.id, b.id FROM a LEFT JOIN b ON a.k = b.k AND b.id % 3 = 0 ORDER BY 1, 2",
        "SELECT count(*), sum(b.id) FROM a, b WHERE b.k = a.k",
    ];
    let mut results = Vec::new();
    for e in [small, big] {
        let mut s = e.session();
        s.execute("CREATE TABLE a(id INTEGER PRIMARY KEY, k)", &Params::None).unwrap();
        s.execute("CREATE TABLE b(id INTEGER PRIMARY KEY, k)", &Params::None).unwrap();
        s.execute("BEGIN", &Params::None).unwrap();
        for i in 0..3000i64 {
            let k = if i % 17 == 0 { Value::Null } else { int((i * 13) % 701) };
            s.execute("INSERT INTO a VALUES (?, ?)", &Params::Positional(vec![int(i), k.clone()]))
                .unwrap();
            s.execute("INSERT INTO b VALUES (?, ?)", &Params::Positional(vec![int(i), k])).unwrap();
        }
        s.execute("COMMIT", &Params::None).unwrap();
        results.push(queries.iter().map(|q| rows(&mut s, q)).collect::<Vec<_>>());
    }
    assert!(results[0][0].len() > 3000);
    assert_eq!(results[0], results[1]);
}

#[test]
fn skip_rows_steps_over_rows_exactly_on_both_stores() {
    let db = asadb_txn::Db::memory(asadb_txn::Options::default()).unwrap();
    for engine in [Engine::memory(), Engine::with_db(db)] {
        let mut s = engine.session();
        s.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)", &Params::None).unwrap();
        let values: Vec<String> = (1..=3000).map(|i| format!("({i}, 'v{i}')")).collect();
        s.execute(&format!("INSERT INTO t VALUES {}", values.join(",")), &Params::None).unwrap();
        let cases: [(&str, u64, u64, Option<i64>); 7] = [
            // (query, skip, skipped, first id after)
            ("SELECT id, v FROM t", 0, 0, Some(1)),
            ("SELECT id, v FROM t", 1000, 1000, Some(1001)),
            ("SELECT id, v FROM t ORDER BY id DESC", 10, 10, Some(2990)),
            ("SELECT id, v FROM t WHERE id > 2500", 100, 100, Some(2601)),
            ("SELECT id, v FROM t WHERE v LIKE 'v1%'", 5, 5, Some(14)),
            ("SELECT id, v FROM t", 5000, 3000, None),
            ("SELECT id, v FROM t LIMIT 20 OFFSET 2990", 5, 5, Some(2996)),
        ];
        for (sql, skip, skipped, first) in cases {
            let mut rows = s.query(sql, &Params::None).unwrap();
            assert_eq!(rows.skip_rows(skip).unwrap(), skipped, "{sql}");
            let next = rows.next().transpose().unwrap();
            assert_eq!(next.map(|r| r[0].clone()), first.map(int), "{sql} after {skip}");
        }
        // Reading, skipping, reading again: decoded rows in the cursor's
        // buffer are skipped first, then the rest without decoding.
        let mut rows = s.query("SELECT id FROM t", &Params::None).unwrap();
        for i in 1..=3 {
            assert_eq!(rows.next().unwrap().unwrap(), vec![int(i)]);
        }
        assert_eq!(rows.skip_rows(600).unwrap(), 600);
        assert_eq!(rows.next().unwrap().unwrap(), vec![int(604)]);
        assert_eq!(rows.skip_rows(2395).unwrap(), 2395);
        assert_eq!(rows.next().unwrap().unwrap(), vec![int(3000)]);
        assert_eq!(rows.skip_rows(1).unwrap(), 0);
        assert!(rows.next().is_none());
    }
}

/// `DELETE`/`UPDATE … ORDER BY … LIMIT` are refused, as by SQLite builds
/// without SQLITE_ENABLE_UPDATE_DELETE_LIMIT — once the clauses were
/// ignored and every matching row was deleted.
#[test]
fn update_and_delete_with_order_by_or_limit_are_refused() {
    let mut s = Engine::memory().session();
    s.execute("CREATE TABLE t(a)", &Params::None).unwrap();
    s.execute("INSERT INTO t VALUES (1), (2), (3)", &Params::None).unwrap();
    for sql in
        ["DELETE FROM t ORDER BY a LIMIT 1", "DELETE FROM t LIMIT 1", "UPDATE t SET a = 9 LIMIT 1"]
    {
        let e = s.execute(sql, &Params::None).unwrap_err();
        assert!(matches!(e, asadb_sql::Error::Unsupported(_)), "{sql}: {e}");
    }
    assert_eq!(
        rows(&mut s, "SELECT a FROM t ORDER BY a"),
        vec![vec![int(1)], vec![int(2)], vec![int(3)]]
    );
}
