//! Interrupting a running statement (`Session::set_interrupt`).
//!
//! Invariants pinned: a statement that would run for minutes stops soon
//! after the flag is set, with `Error::Interrupted`; whatever it wrote is
//! undone (autocommit: nothing committed; inside a transaction: the
//! statement's savepoint is rolled back and the transaction stays usable);
//! streaming queries stop too; clearing the flag lets statements run again.
//! Both stores (memory, B+tree) behave the same.

use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use asadb_sql::session::{Engine, Outcome, Params, Session};
use asadb_sql::storage::Interrupt;
use asadb_sql::{Error, Value};

fn engines() -> Vec<Engine> {
    let db = asadb_txn::Db::memory(asadb_txn::Options::default()).unwrap();
    vec![Engine::memory(), Engine::with_db(db)]
}

fn count(s: &mut Session, table: &str) -> i64 {
    match s.execute(&format!("SELECT count(*) FROM {table}"), &Params::None).unwrap() {
        Outcome::Rows { rows, .. } => match rows[0][0] {
            Value::Integer(n) => n,
            ref v => panic!("count is {v:?}"),
        },
        o => panic!("not rows: {o:?}"),
    }
}

/// A session with `t` of 2,000 rows (a triple cross join of it is 8e9 rows)
/// and an empty `u`.
fn setup(engine: &Engine) -> Session {
    let mut s = engine.session();
    s.execute("CREATE TABLE t(x INTEGER PRIMARY KEY, y)", &Params::None).unwrap();
    s.execute("CREATE TABLE u(x, y)", &Params::None).unwrap();
    s.execute("BEGIN", &Params::None).unwrap();
    for i in 0..2000 {
        s.execute(&format!("INSERT INTO t VALUES ({i}, 'row {i}')"), &Params::None).unwrap();
    }
    s.execute("COMMIT", &Params::None).unwrap();
    s
}

/// Sets `interrupt` once `delay` has passed, from another thread.
fn fire_after(interrupt: &Interrupt, delay: Duration) -> thread::JoinHandle<()> {
    let i = interrupt.clone();
    thread::spawn(move || {
        thread::sleep(delay);
        i.set();
    })
}

#[test]
fn long_insert_select_stops_and_leaves_nothing_in_autocommit() {
    for engine in engines() {
        let mut s = setup(&engine);
        let interrupt = Interrupt::new();
        s.set_interrupt(Some(interrupt.clone()));
        let started = Instant::now();
        let timer = fire_after(&interrupt, Duration::from_millis(200));
        // Rows are written as they are produced: u grows until the flag.
        let err = s
            .execute("INSERT INTO u SELECT a.x, b.y FROM t a, t b, t c", &Params::None)
            .unwrap_err();
        timer.join().unwrap();
        assert!(matches!(err, Error::Interrupted), "{err:?}");
        // 8e9 rows would take hours; stopping takes well under a minute
        // even on a loaded machine (no timing bar beyond "it stopped").
        assert!(started.elapsed() < Duration::from_secs(60));
        // Still set: the next statement fails at once; cleared: it runs.
        assert!(matches!(
            s.execute("SELECT count(*) FROM t", &Params::None).unwrap_err(),
            Error::Interrupted
        ));
        interrupt.clear();
        assert_eq!(count(&mut s, "u"), 0, "the interrupted INSERT left rows behind");
        assert_eq!(count(&mut s, "t"), 2000);
    }
}

#[test]
fn interrupted_statement_inside_a_transaction_rolls_back_to_its_savepoint() {
    for engine in engines() {
        let mut s = setup(&engine);
        let interrupt = Interrupt::new();
        s.set_interrupt(Some(interrupt.clone()));
        s.execute("BEGIN", &Params::None).unwrap();
        s.execute("INSERT INTO u VALUES (1, 'kept')", &Params::None).unwrap();
        let timer = fire_after(&interrupt, Duration::from_millis(100));
        let err = s
            .execute("UPDATE u SET y = (SELECT count(*) FROM t a, t b, t c)", &Params::None)
            .unwrap_err();
        timer.join().unwrap();
        assert!(matches!(err, Error::Interrupted), "{err:?}");
        interrupt.clear();
        assert!(s.in_transaction(), "the transaction stays open for the caller");
        s.execute("DELETE FROM t WHERE x >= 1000", &Params::None).unwrap();
        s.execute("COMMIT", &Params::None).unwrap();
        assert_eq!(count(&mut s, "t"), 1000);
        match s.execute("SELECT x, y FROM u", &Params::None).unwrap() {
            Outcome::Rows { rows, .. } => {
                assert_eq!(rows, vec![vec![Value::Integer(1), Value::Text("kept".into())]])
            }
            o => panic!("{o:?}"),
        }
    }
}

#[test]
fn streaming_query_and_blocking_sort_stop() {
    for engine in engines() {
        let mut s = setup(&engine);
        let interrupt = Interrupt::new();
        s.set_interrupt(Some(interrupt.clone()));
        // A sort reads its whole input before the first row: the flag
        // stops it while it reads.
        let timer = fire_after(&interrupt, Duration::from_millis(100));
        let mut rows =
            s.query("SELECT a.x, b.x FROM t a, t b, t c ORDER BY 2, 1", &Params::None).unwrap();
        let first = rows.next().expect("an error, not the end");
        timer.join().unwrap();
        assert!(matches!(first, Err(Error::Interrupted)), "{first:?}");
        drop(rows);
        interrupt.clear();
        // A plain stream stops at the next row once the flag is set.
        let mut rows = s.query("SELECT a.x FROM t a, t b", &Params::None).unwrap();
        assert!(rows.next().unwrap().is_ok());
        interrupt.set();
        assert!(matches!(rows.next(), Some(Err(Error::Interrupted))));
    }
}

#[test]
fn sessions_without_the_flag_are_not_affected() {
    let engine = Engine::memory();
    let mut a = setup(&engine);
    let mut b = engine.session();
    let interrupt = Interrupt::from_flag(Arc::default());
    a.set_interrupt(Some(interrupt.clone()));
    interrupt.set();
    assert!(matches!(a.execute("SELECT 1 FROM t", &Params::None), Err(Error::Interrupted)));
    assert_eq!(count(&mut b, "t"), 2000);
    a.set_interrupt(None);
    assert_eq!(count(&mut a, "t"), 2000);
}
