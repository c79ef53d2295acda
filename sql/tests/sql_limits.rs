//! SQLite's structural limits: expression depth and compound SELECT terms.
//!
//! Invariants pinned: the parser builds `a OR b OR …` of any length without
//! recursion, but binding recurses; a tree up to the limit runs even on a
//! thread with a 2 MiB stack (binding grows its stack on the heap), and
//! past the limit the statement fails with a typed `TooLarge` error and
//! SQLite's message — never a stack overflow that kills the process.

use asadb_sql::session::{Engine, Outcome, Params};
use asadb_sql::{Error, Value};

fn engines() -> Vec<Engine> {
    let db = asadb_txn::Db::memory(asadb_txn::Options::default()).unwrap();
    vec![Engine::memory(), Engine::with_db(db)]
}

/// Runs `f` on a thread with a 2 MiB stack (the default for spawned
/// threads, and the size the test harness uses).
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(2 << 20).spawn(f).unwrap().join().unwrap()
}

fn or_chain(n: usize) -> String {
    let terms: Vec<String> = (0..n).map(|i| format!("x = {i}")).collect();
    format!("SELECT count(*) FROM t WHERE {}", terms.join(" OR "))
}

fn union_chain(n: usize) -> String {
    (0..n).map(|i| format!("SELECT {i}")).collect::<Vec<_>>().join(" UNION ALL ")
}

#[test]
fn deep_expression_up_to_the_limit_runs_on_a_small_stack() {
    for engine in engines() {
        let got = on_small_stack(move || {
            let mut s = engine.session();
            s.execute("CREATE TABLE t(x)", &Params::None).unwrap();
            s.execute("INSERT INTO t VALUES (5), (998), (2000)", &Params::None).unwrap();
            s.execute(&or_chain(999), &Params::None)
        });
        match got.unwrap() {
            Outcome::Rows { rows, .. } => assert_eq!(rows, vec![vec![Value::Integer(2)]]),
            o => panic!("{o:?}"),
        }
    }
}

#[test]
fn expression_past_the_limit_is_a_typed_error() {
    for engine in engines() {
        let got = on_small_stack(move || {
            let mut s = engine.session();
            s.execute("CREATE TABLE t(x)", &Params::None).unwrap();
            s.execute(&or_chain(5000), &Params::None)
        });
        match got {
            Err(Error::TooLarge(m)) => {
                assert_eq!(m, "Expression tree is too large (maximum depth 1000)")
            }
            other => panic!("{other:?}"),
        }
    }
    // SQLite refuses the same statement.
    let c = rusqlite::Connection::open_in_memory().unwrap();
    c.execute("CREATE TABLE t(x)", []).unwrap();
    let e = c.query_row(&or_chain(5000), [], |r| r.get::<_, i64>(0)).unwrap_err();
    assert!(e.to_string().contains("too large"), "{e}");
}

#[test]
fn compound_select_limit_is_sqlites() {
    for engine in engines() {
        let (ok, err) = on_small_stack(move || {
            let mut s = engine.session();
            (
                s.execute(&union_chain(500), &Params::None),
                s.execute(&union_chain(501), &Params::None),
            )
        });
        match ok.unwrap() {
            Outcome::Rows { rows, .. } => assert_eq!(rows.len(), 500),
            o => panic!("{o:?}"),
        }
        match err {
            Err(Error::TooLarge(m)) => assert_eq!(m, "too many terms in compound SELECT"),
            other => panic!("{other:?}"),
        }
        // Inside a subquery too.
        let mut s = Engine::memory().session();
        let sql = format!("SELECT count(*) FROM ({})", union_chain(2000));
        assert!(matches!(s.execute(&sql, &Params::None), Err(Error::TooLarge(_))));
    }
    let c = rusqlite::Connection::open_in_memory().unwrap();
    assert!(c.prepare(&union_chain(500)).is_ok());
    let e = c.prepare(&union_chain(501)).unwrap_err();
    assert!(e.to_string().contains("too many terms in compound SELECT"), "{e}");
}
