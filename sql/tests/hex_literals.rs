//! `0x1F` is an integer and `X'1F'` a blob, as in SQLite, though sqlparser
//! gives both the same token: the executor's literals agree with SQLite
//! and with the INSERT fast path.

use asadb_sql::Value;
use asadb_sql::session::{Engine, Outcome, Params};

fn row(sql: &str) -> Vec<Value> {
    let mut s = Engine::memory().session();
    match s.execute(sql, &Params::None).unwrap() {
        Outcome::Rows { mut rows, .. } => rows.remove(0),
        o => panic!("{o:?}"),
    }
}

#[test]
fn hex_integers_and_blobs() {
    let r = row("SELECT 0x10, X'10', -0x10, typeof(0x1f), 0xFFFFFFFFFFFFFFFF, x'00ff'");
    assert!(r[0].is_identical(&Value::Integer(16)), "{:?}", r[0]);
    assert!(r[1].is_identical(&Value::Blob(vec![0x10])), "{:?}", r[1]);
    assert!(r[2].is_identical(&Value::Integer(-16)), "{:?}", r[2]);
    assert!(r[3].is_identical(&Value::Text("integer".into())), "{:?}", r[3]);
    assert!(r[4].is_identical(&Value::Integer(-1)), "{:?}", r[4]);
    assert!(r[5].is_identical(&Value::Blob(vec![0, 255])), "{:?}", r[5]);
    let mut s = Engine::memory().session();
    assert!(s.execute("SELECT 0x1FFFFFFFFFFFFFFFF", &Params::None).is_err(), "too big");
}

#[test]
fn fast_and_slow_inserts_agree_on_hex() {
    let mut s = Engine::memory().session();
    s.execute("CREATE TABLE t(a, b)", &Params::None).unwrap();
    // Plain literals: the fast path.
    s.execute("INSERT INTO t VALUES (0x10, X'10')", &Params::None).unwrap();
    // An expression forces sqlparser.
    s.execute("INSERT INTO t VALUES (0x10 + 0, X'10' || '')", &Params::None).unwrap();
    let rows = match s.execute("SELECT typeof(a), a FROM t", &Params::None).unwrap() {
        Outcome::Rows { rows, .. } => rows,
        o => panic!("{o:?}"),
    };
    for r in &rows {
        assert!(r[0].is_identical(&Value::Text("integer".into())), "{r:?}");
        assert!(r[1].is_identical(&Value::Integer(16)), "{r:?}");
    }
}
