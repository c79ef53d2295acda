//! Differential tests of column affinity, comparison affinity and the sort
//! order against SQLite: a value stored in a typed column reads back as
//! `Affinity::apply` says; `col <op> value` compares as
//! `comparison_affinity` + `sql_compare` say; ORDER BY sorts as `compare`.

mod values_common;

use asadb_sql::value::{self, Affinity, Collation, Value};
use proptest::prelude::*;
use values_common::*;

/// The five typed columns of table `a`, in order.
const COLUMNS: [(&str, Affinity); 5] = [
    ("i", Affinity::Integer),
    ("r", Affinity::Real),
    ("n", Affinity::Numeric),
    ("t", Affinity::Text),
    ("b", Affinity::Blob),
];

fn stored(c: &rusqlite::Connection, v: &Value) -> Vec<Value> {
    c.execute("DELETE FROM a", []).unwrap();
    let p = to_sql(v);
    c.execute("INSERT INTO a VALUES (?1, ?1, ?1, ?1, ?1)", [&p]).unwrap();
    c.query_row("SELECT i, r, n, t, b FROM a", [], |row| {
        Ok((0..5).map(|k| from_ref(row.get_ref(k).unwrap())).collect())
    })
    .unwrap()
}

fn check_store(c: &rusqlite::Connection, v: &Value) -> Result<(), String> {
    let theirs = stored(c, v);
    for (k, (name, aff)) in COLUMNS.iter().enumerate() {
        let mine = aff.apply(v.clone());
        if !same(&theirs[k], &mine) {
            return Err(format!(
                "{v:?} into {name} ({aff:?}): sqlite {:?}, ours {mine:?}",
                theirs[k]
            ));
        }
    }
    Ok(())
}

fn check_compare(c: &rusqlite::Connection, stored_v: &Value, other: &Value) -> Result<(), String> {
    stored(c, stored_v);
    for (name, aff) in COLUMNS {
        let sql = format!(
            "SELECT CASE WHEN {name} < ?1 THEN -1 WHEN {name} = ?1 THEN 0 \
             WHEN {name} > ?1 THEN 1 END FROM a"
        );
        let theirs = sqlite_eval(c, &sql, std::slice::from_ref(other)).unwrap();
        let col = aff.apply(stored_v.clone());
        let (l, r) = match value::comparison_affinity(Some(aff), None) {
            Some(cmp_aff) => (cmp_aff.apply(col), cmp_aff.apply(other.clone())),
            None => (col, other.clone()),
        };
        let mine = match value::sql_compare(&l, &r, Collation::Binary) {
            None => Value::Null,
            Some(o) => Value::Integer(o as i64),
        };
        if !same(&theirs, &mine) {
            return Err(format!(
                "{name} ({aff:?}) holding {stored_v:?} vs {other:?}: sqlite {theirs:?}, ours {mine:?}"
            ));
        }
    }
    Ok(())
}

#[test]
fn known_store_cases() {
    let c = conn();
    let cases = [
        Value::Text(" 12 ".into()),
        Value::Text("48.0".into()),
        Value::Text("1e3".into()),
        Value::Text("1e20".into()),
        Value::Text("12abc".into()),
        Value::Text("9223372036854775807".into()),
        Value::Text("9223372036854775808".into()),
        Value::Text("-0".into()),
        Value::Text("0x10".into()),
        Value::Text("".into()),
        Value::Real(3.0),
        Value::Real(3.5),
        Value::Real(-0.0),
        Value::Real(1e20),
        Value::Real(9.223372036854776e18),
        Value::Integer(i64::MAX),
        Value::Blob(b"12".to_vec()),
        Value::Null,
    ];
    let mut failures = Vec::new();
    for v in &cases {
        if let Err(e) = check_store(&c, v) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn known_comparison_cases() {
    let c = conn();
    let t = |s: &str| Value::Text(s.into());
    let cases = [
        (t("0"), Value::Integer(0)),
        (t("abc"), Value::Integer(0)),
        (Value::Integer(10), t("9")),
        (Value::Integer(10), t("10")),
        (t("10"), t("9")),
        (Value::Real(1.0), t("1")),
        (t("1.0"), Value::Integer(1)),
    ];
    let mut failures = Vec::new();
    for (a, b) in &cases {
        if let Err(e) = check_compare(&c, a, b) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn declared_types() {
    let cases = [
        ("INT", Affinity::Integer),
        ("integer primary key", Affinity::Integer),
        ("TINYINT", Affinity::Integer),
        ("CHARACTER(20)", Affinity::Text),
        ("NVARCHAR", Affinity::Text),
        ("CLOB", Affinity::Text),
        ("BLOB", Affinity::Blob),
        ("REAL", Affinity::Real),
        ("DOUBLE", Affinity::Real),
        ("FLOAT", Affinity::Real),
        ("NUMERIC", Affinity::Numeric),
        ("DECIMAL(10,5)", Affinity::Numeric),
        ("BOOLEAN", Affinity::Numeric),
        ("DATETIME", Affinity::Numeric),
        ("POINT", Affinity::Integer),
        ("STRING", Affinity::Numeric),
    ];
    for (decl, aff) in cases {
        assert_eq!(Affinity::from_declared_type(Some(decl)), aff, "{decl}");
    }
    assert_eq!(Affinity::from_declared_type(None), Affinity::Blob);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(2000), ..ProptestConfig::default() })]

    #[test]
    fn column_affinity_matches(v in arb_value()) {
        let c = conn();
        if let Err(e) = check_store(&c, &v) {
            prop_assert!(false, "{}", e);
        }
    }

    #[test]
    fn comparison_affinity_matches(a in arb_value(), b in arb_value()) {
        let c = conn();
        if let Err(e) = check_compare(&c, &a, &b) {
            prop_assert!(false, "{}", e);
        }
    }

    /// `compare` is a total order (antisymmetric, transitive) and `Hash`
    /// agrees with `==`, so sorting, BTree and hash containers are sound.
    #[test]
    fn order_is_total_and_hash_consistent(a in arb_value(), b in arb_value(), x in arb_value()) {
        use std::hash::{BuildHasher, RandomState};
        let ab = value::compare(&a, &b);
        prop_assert_eq!(ab, value::compare(&b, &a).reverse());
        let bx = value::compare(&b, &x);
        if ab == bx {
            prop_assert_eq!(value::compare(&a, &x), ab);
        }
        let h = RandomState::new();
        if a == b {
            prop_assert_eq!(h.hash_one(&a), h.hash_one(&b));
        }
        // An INTEGER equal to a REAL hashes the same.
        if let Value::Real(r) = a {
            let i = r as i64;
            if Value::Integer(i) == a {
                prop_assert_eq!(h.hash_one(Value::Integer(i)), h.hash_one(&a));
            }
        }
    }

    #[test]
    fn order_by_matches(rows in prop::collection::vec(arb_value(), 0..20)) {
        let c = conn();
        c.execute("DELETE FROM t", []).unwrap();
        for v in &rows {
            c.execute("INSERT INTO t VALUES (?1)", [to_sql(v)]).unwrap();
        }
        let mut stmt = c.prepare("SELECT x FROM t ORDER BY x").unwrap();
        let theirs: Vec<Value> = stmt
            .query_map([], |row| Ok(from_ref(row.get_ref(0).unwrap())))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let mut mine = rows.clone();
        mine.sort_by(value::compare);
        prop_assert_eq!(theirs.len(), mine.len());
        for (x, y) in theirs.iter().zip(&mine) {
            prop_assert!(value::compare(x, y).is_eq(), "sqlite {:?}\nours {:?}", theirs, mine);
        }
        // DISTINCT keeps one of each group of equal values.
        let distinct: i64 = c
            .query_row("SELECT count(*) FROM (SELECT DISTINCT x FROM t)", [], |r| r.get(0))
            .unwrap();
        mine.dedup_by(|a, b| value::compare(a, b).is_eq());
        prop_assert_eq!(distinct, mine.len() as i64);
    }
}
