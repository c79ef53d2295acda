//! The math functions (SQLite's `SQLITE_ENABLE_MATH_FUNCTIONS` set, and
//! `sign`) against SQLite 3.54 (rusqlite, bundled).
//!
//! Invariants pinned: every function gives SQLite's value, bit for bit,
//! with SQLite's storage class — INTEGER in, INTEGER out for ceil, floor
//! and trunc; NULL for domain errors, non-numeric text, blobs and NULL;
//! text that is wholly a number is that number — for the documented edge
//! cases, for random values of every class, and through SQL over a table on
//! both stores (the memory store and the B+tree store); wrong argument
//! counts are errors in both.
//!
//! The oracle must have the math functions, which rusqlite's bundled
//! SQLite compiles only with `SQLITE_ENABLE_MATH_FUNCTIONS`: the
//! workspace's `.cargo/config.toml` sets `LIBSQLITE3_FLAGS` for that.

mod values_common;

use asadb_sql::session::{Engine, Outcome, Params, Session};
use asadb_sql::value::Value;
use proptest::prelude::*;
use values_common::*;

const ONE_ARG: &[&str] = &[
    "acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "ceiling", "cos", "cosh", "degrees",
    "exp", "floor", "ln", "log", "log10", "log2", "radians", "sin", "sinh", "sqrt", "tan", "tanh",
    "trunc", "sign",
];
const TWO_ARGS: &[&str] = &["atan2", "log", "mod", "pow", "power"];

/// Arguments every function meets.
fn special_values() -> Vec<Value> {
    let t = |s: &str| Value::Text(s.into());
    vec![
        Value::Null,
        Value::Integer(0),
        Value::Integer(1),
        Value::Integer(-1),
        Value::Integer(2),
        Value::Integer(10),
        Value::Integer(-7),
        Value::Integer(1000),
        Value::Integer(i64::MAX),
        Value::Integer(i64::MIN),
        Value::Integer(1 << 53),
        Value::Real(0.0),
        Value::Real(-0.0),
        Value::Real(0.5),
        Value::Real(-0.5),
        Value::Real(1.5),
        Value::Real(-2.5),
        Value::Real(0.9999999999999999),
        Value::Real(1.0000000000000002),
        Value::Real(std::f64::consts::PI),
        Value::Real(std::f64::consts::E),
        Value::Real(1e-300),
        Value::Real(5e-324),
        Value::Real(1e300),
        Value::Real(f64::MAX),
        Value::Real(f64::INFINITY),
        Value::Real(f64::NEG_INFINITY),
        Value::Real(4503599627370496.5),
        Value::Real(-9.223372036854776e18),
        t("2"),
        t(" 2 "),
        t("2.0"),
        t("-3.5"),
        t("1e3"),
        t("0x10"),
        t("2abc"),
        t("abc"),
        t(""),
        t(" "),
        t("9223372036854775808"),
        t("-9223372036854775809"),
        t("1e400"),
        t("."),
        Value::Blob(b"2".to_vec()),
        Value::Blob(vec![]),
    ]
}

/// A connection to an SQLite that has the math functions (else a clear
/// failure: an oracle without them would make every case an error).
fn oracle() -> rusqlite::Connection {
    let c = conn();
    assert!(
        sqlite_query(&c, "SELECT pi()").is_ok(),
        "the bundled SQLite lacks the math functions: build with \
         LIBSQLITE3_FLAGS=-DSQLITE_ENABLE_MATH_FUNCTIONS"
    );
    c
}

#[test]
fn every_function_on_special_values() {
    let c = oracle();
    let mut diffs = Vec::new();
    let vals = special_values();
    for f in ONE_ARG {
        for a in &vals {
            diffs.extend(check(&c, f, std::slice::from_ref(a)).err());
        }
    }
    for f in TWO_ARGS {
        for a in &vals {
            for b in &vals {
                diffs.extend(check(&c, f, &[a.clone(), b.clone()]).err());
            }
        }
    }
    diffs.extend(check(&c, "pi", &[]).err());
    for d in diffs.iter().take(40) {
        println!("{d}");
    }
    assert!(diffs.is_empty(), "{} calls differ from SQLite", diffs.len());
}

/// The same error (SQLite's message) for a wrong argument count.
#[test]
fn arity_errors_match() {
    let c = oracle();
    let one = [Value::Integer(1)];
    let two = [Value::Integer(1), Value::Integer(2)];
    let three = [Value::Integer(1), Value::Integer(2), Value::Integer(3)];
    let mut calls: Vec<(&str, &[Value])> = vec![("pi", &one), ("log", &three), ("log", &[])];
    calls.extend(ONE_ARG.iter().filter(|f| **f != "log").map(|f| (*f, &two[..])));
    calls.extend(ONE_ARG.iter().map(|f| (*f, &[][..])));
    calls.extend(TWO_ARGS.iter().filter(|f| **f != "log").map(|f| (*f, &one[..])));
    for (f, args) in calls {
        let sql = op_sql(f, args.len());
        assert!(sqlite_eval(&c, &sql, args).is_err(), "SQLite accepts {sql}");
        check(&c, f, args).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(4000), ..ProptestConfig::default() })]

    #[test]
        fn one_arg_functions_match(name in prop::sample::select(ONE_ARG), a in arb_value()) {
        let c = oracle();
        let r = check(&c, name, &[a]);
        prop_assert!(r.is_ok(), "{}", r.err().unwrap_or_default());
    }

    #[test]
        fn two_arg_functions_match(name in prop::sample::select(TWO_ARGS), a in arb_value(), b in arb_value()) {
        let c = oracle();
        let r = check(&c, name, &[a, b]);
        prop_assert!(r.is_ok(), "{}", r.err().unwrap_or_default());
    }

    /// Moderate numbers, where the results are ordinary REALs (the random
    /// values above are mostly extreme).
    #[test]
        fn functions_of_moderate_numbers_match(
        name in prop::sample::select(ONE_ARG),
        x in -1000.0f64..1000.0,
        y in -50.0f64..50.0,
        two in prop::sample::select(TWO_ARGS),
    ) {
        let c = oracle();
        for args in [vec![Value::Real(x / 997.0)], vec![Value::Real(x)], vec![Value::Integer(x as i64)]] {
            let r = check(&c, name, &args);
            prop_assert!(r.is_ok(), "{}", r.err().unwrap_or_default());
        }
        let r = check(&c, two, &[Value::Real(x), Value::Real(y)]);
        prop_assert!(r.is_ok(), "{}", r.err().unwrap_or_default());
    }
}

fn engines() -> Vec<Engine> {
    let db = asadb_txn::Db::memory(asadb_txn::Options::default()).expect("memory db");
    vec![Engine::memory(), Engine::with_db(db)]
}

fn rows(s: &mut Session, sql: &str) -> Result<Vec<String>, String> {
    match s.execute(sql, &Params::None).map_err(|e| e.to_string())? {
        Outcome::Rows { rows, .. } => Ok(rows.iter().map(|r| row_key(r)).collect()),
        o => Err(format!("not rows: {o:?}")),
    }
}

/// Values stored in columns of every affinity, read back and fed to every
/// function through SQL.
#[test]
fn functions_over_a_table_match_sqlite() {
    let setup = [
        "CREATE TABLE v(id INTEGER PRIMARY KEY, x, i INTEGER, r REAL, t TEXT, n NUMERIC)",
        "INSERT INTO v(x, i, r, t, n) VALUES \
         (0, 0, 0, 0, 0), (1, 1, 1, 1, 1), (-1, -1, -1, -1, -1), (2.5, 2.5, 2.5, 2.5, 2.5), \
         (-0.75, -0.75, -0.75, -0.75, -0.75), ('10', '10', '10', '10', '10'), \
         ('3.0', '3.0', '3.0', '3.0', '3.0'), ('abc', 'abc', 'abc', 'abc', 'abc'), \
         (NULL, NULL, NULL, NULL, NULL), (x'31', x'31', x'31', x'31', x'31'), \
         (1e308, 1e308, 1e308, 1e308, 1e308), (9223372036854775807, 9223372036854775807, \
         9223372036854775807, 9223372036854775807, 9223372036854775807), \
         (' 7 ', ' 7 ', ' 7 ', ' 7 ', ' 7 ')",
    ];
    let c = oracle();
    for q in setup {
        c.execute_batch(q).unwrap();
    }
    let mut queries: Vec<String> = Vec::new();
    for f in ONE_ARG {
        queries
            .push(format!("SELECT id, {f}(x), {f}(i), {f}(r), {f}(t), {f}(n) FROM v ORDER BY id"));
    }
    for f in TWO_ARGS {
        queries.push(format!(
            "SELECT a.id, b.id, {f}(a.x, b.x), {f}(a.n, b.r), {f}(a.t, 2) FROM v a, v b ORDER BY 1, 2"
        ));
    }
    queries.push("SELECT pi(), typeof(pi()), pi() * 2".into());
    queries.push("SELECT id FROM v WHERE floor(r) = r AND ceil(r) = r ORDER BY id".into());
    queries.push("SELECT sum(sqrt(abs(r))), max(ln(r)), count(log(2, r)) FROM v".into());
    queries.push("SELECT trunc(r) AS k, count(*) FROM v GROUP BY k ORDER BY k".into());
    let mut diffs = Vec::new();
    for e in engines() {
        let mut s = e.session();
        for q in setup {
            s.execute(q, &Params::None).unwrap();
        }
        for q in &queries {
            let theirs =
                sqlite_query(&c, q).map(|r| r.1.iter().map(|r| row_key(r)).collect::<Vec<_>>());
            let ours = rows(&mut s, q);
            if ours != theirs {
                diffs.push(format!("{q}\n  ours:   {ours:?}\n  sqlite: {theirs:?}"));
            }
        }
    }
    for d in &diffs {
        println!("{d}");
    }
    assert!(diffs.is_empty(), "{} queries differ from SQLite", diffs.len());
}

/// Through SQL text: sqlparser's own CEIL/FLOOR forms are refused where
/// SQLite refuses them, and any spelling of the names works.
#[test]
fn sql_spellings_match_sqlite() {
    let c = oracle();
    for e in engines() {
        let mut s = e.session();
        for q in [
            "SELECT CEIL(1.5), Floor(-1.5), CEILING(2.1), TRUNC(-2.5), ceil(7), floor('7')",
            "SELECT LOG(100), Log(2, 8), LN(1), POW(2, 10), POWER(2, 0.5), MOD(7, -3), MOD(-7.5, 2)",
            "SELECT PI(), DEGREES(PI()), RADIANS(180), SIGN(-0.0), SIGN('3')",
        ] {
            let theirs =
                sqlite_query(&c, q).map(|r| r.1.iter().map(|r| row_key(r)).collect::<Vec<_>>());
            assert_eq!(rows(&mut s, q), theirs, "{q}");
        }
        for q in ["SELECT ceil(1, 2)", "SELECT floor(1.5 TO DAY)", "SELECT ceil()", "SELECT pi(1)"]
        {
            assert!(sqlite_query(&c, q).is_err(), "SQLite accepts {q}");
            assert!(rows(&mut s, q).is_err(), "we accept {q}");
        }
    }
}

/// SQLite's answers, recorded: the SQL forms, the classes, the domain
/// NULLs, pinned even where the oracle is built without the math functions.
const RECORDED: &[(&str, &str)] = &[
    (
        "SELECT ceil(1.5), floor(-1.5), ceiling('2.1'), trunc(-2.5), ceil(7), floor('7'), \
         trunc(' 8 '), ceil('x'), floor(NULL), ceil(x'31')",
        "R4000000000000000,Rc000000000000000,R4008000000000000,Rc000000000000000,I7,I7,I8,N,N,N",
    ),
    (
        "SELECT log(100), log(2, 8), ln(1), log10(1000), log2(1024), ln(0), log(1, 10), \
         log(10, '100x'), log(-1)",
        "R4000000000000000,R4008000000000000,R0,R4008000000000000,R4024000000000000,N,N,\
         R4000000000000000,N",
    ),
    (
        "SELECT pow(2, 10), power(2, 0.5), mod(7, -3), mod(-7.5, 2), mod(1, 0), atan2(1, 1), \
         pow(0, -1)",
        "R4090000000000000,R3ff6a09e667f3bcd,R3ff0000000000000,Rbff8000000000000,N,\
         R3fe921fb54442d18,R7ff0000000000000",
    ),
    (
        "SELECT pi(), degrees(pi()), radians(180), sqrt(2), sqrt(-1), exp(1), exp(1000), \
         acos(2), asin(1)",
        "R400921fb54442d18,R4066800000000000,R400921fb54442d18,R3ff6a09e667f3bcd,N,\
         R4005bf0a8b145769,R7ff0000000000000,N,R3ff921fb54442d18",
    ),
    (
        "SELECT sin(1), cos(1), tan(1), sinh(1), cosh(1), tanh(1), asinh(1), acosh(2), \
         atanh(0.5), atan(1)",
        "R3feaed548f090cee,R3fe14a280fb5068c,R3ff8eb245cbee3a6,R3ff2cd9fc44eb982,\
         R3ff8b07551d9f550,R3fe85efab514f394,R3fec34366179d427,R3ff5124271980434,\
         R3fe193ea7aad030a,R3fe921fb54442d18",
    ),
    (
        "SELECT typeof(ceil(7)), typeof(ceil(7.0)), typeof(ceil('7')), typeof(ceil('7.0')), \
         typeof(sqrt(4)), sign(-0.0), sign('3'), sign('x')",
        "T\"integer\",T\"real\",T\"integer\",T\"real\",T\"real\",I0,I1,N",
    ),
];

#[test]
fn recorded_sqlite_answers() {
    for e in engines() {
        let mut s = e.session();
        for (q, want) in RECORDED {
            assert_eq!(rows(&mut s, q).unwrap(), vec![want.to_string()], "{q}");
        }
        for q in ["SELECT ceil(1, 2)", "SELECT floor(1.5 TO DAY)", "SELECT ceil()", "SELECT pi(1)"]
        {
            assert!(rows(&mut s, q).is_err(), "we accept {q}");
        }
    }
}
