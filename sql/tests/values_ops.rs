//! Differential tests of operators, CAST, truth and REAL rendering against
//! SQLite: the same expression over the same bound values must give the
//! same storage class and the same value (REALs bit for bit, text byte for
//! byte).

mod values_common;

use asadb_sql::value::Value;
use proptest::prelude::*;
use values_common::*;

const BINARY_OPS: &[&str] = &["+", "-", "*", "/", "%", "&", "|", "<<", ">>", "||", "cmp"];
const UNARY_OPS: &[&str] = &[
    "neg",
    "bitnot",
    "text",
    "cast_integer",
    "cast_real",
    "cast_numeric",
    "cast_blob",
    "cast_text",
    "truth",
];

fn i(x: i64) -> Value {
    Value::Integer(x)
}
fn r(x: f64) -> Value {
    Value::Real(x)
}
fn t(s: &str) -> Value {
    Value::Text(s.into())
}

#[test]
fn known_edge_cases() {
    let c = conn();
    let cases: Vec<(&str, Vec<Value>)> = vec![
        ("/", vec![i(7), i(2)]),
        ("/", vec![i(-7), i(2)]),
        ("%", vec![i(-7), i(2)]),
        ("%", vec![i(7), i(-2)]),
        ("+", vec![i(i64::MAX), i(1)]),
        ("-", vec![i(i64::MIN), i(1)]),
        ("*", vec![i(i64::MAX), i(-1)]),
        ("/", vec![i(i64::MIN), i(-1)]),
        ("%", vec![i(i64::MIN), i(-1)]),
        ("%", vec![i(5), i(0)]),
        ("/", vec![i(1), i(0)]),
        ("/", vec![r(1.0), r(0.0)]),
        ("%", vec![r(5.5), r(2.0)]),
        ("%", vec![t("1e3"), i(7)]),
        ("+", vec![t("12abc"), i(1)]),
        ("+", vec![t("abc"), i(1)]),
        ("+", vec![t("1e3x"), i(0)]),
        ("+", vec![t(" 12 "), i(0)]),
        ("+", vec![t("9223372036854775808"), i(0)]),
        ("+", vec![t("-9223372036854775808"), i(0)]),
        ("+", vec![t(".5"), i(0)]),
        ("+", vec![t("5."), i(0)]),
        ("+", vec![t("1e"), i(0)]),
        ("+", vec![Value::Blob(b"12".to_vec()), i(1)]),
        ("+", vec![r(f64::INFINITY), r(f64::NEG_INFINITY)]),
        ("*", vec![r(f64::INFINITY), i(0)]),
        ("cmp", vec![t("abc"), i(0)]),
        ("cmp", vec![t("0"), i(0)]),
        ("cmp", vec![i(9007199254740993), r(9007199254740992.0)]),
        ("cmp", vec![i(i64::MAX), r(9.223372036854776e18)]),
        ("cmp", vec![t("a"), Value::Blob(b"a".to_vec())]),
        ("cmp_nocase", vec![t("ABC"), t("abd")]),
        ("cmp_rtrim", vec![t("ab  "), t("ab")]),
        ("<<", vec![i(1), i(64)]),
        ("<<", vec![i(1), i(-1)]),
        (">>", vec![i(-1), i(70)]),
        (">>", vec![i(-16), i(-2)]),
        ("<<", vec![i(3), i(i64::MIN)]),
        ("neg", vec![i(i64::MIN)]),
        ("neg", vec![t("abc")]),
        ("neg", vec![t("-0")]),
        ("bitnot", vec![t("5")]),
        ("||", vec![i(1), r(2.5)]),
        ("||", vec![Value::Blob(b"ab".to_vec()), t("c")]),
        ("cast_integer", vec![t("  12  ")]),
        ("cast_integer", vec![t("1e3")]),
        ("cast_integer", vec![r(1e20)]),
        ("cast_integer", vec![r(-1e20)]),
        ("cast_integer", vec![r(-0.9)]),
        ("cast_integer", vec![t("99999999999999999999")]),
        ("cast_numeric", vec![t("1.5e3")]),
        ("cast_numeric", vec![t("12abc")]),
        ("cast_numeric", vec![t("1e20")]),
        ("cast_numeric", vec![t("-0.0")]),
        ("cast_numeric", vec![t("9223372036854775807")]),
        ("cast_numeric", vec![t("9223372036854775808")]),
        ("cast_numeric", vec![r(1.0)]),
        ("cast_real", vec![t("abc")]),
        ("cast_blob", vec![r(0.5)]),
        ("truth", vec![t("0.0")]),
        ("truth", vec![t("1abc")]),
        ("truth", vec![t("abc")]),
        ("truth", vec![r(0.1)]),
    ];
    let mut failures = Vec::new();
    for (op, args) in &cases {
        if let Err(e) = check(&c, op, args) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{} mismatches:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn real_rendering_matches_sqlite() {
    let c = conn();
    let fixed = [
        1e15,
        1e16,
        1e17,
        123456789012345678.0,
        0.1 + 0.2,
        1.0,
        0.1,
        -0.0,
        1e20,
        49.47,
        1e-5,
        1.5e-7,
        f64::MAX,
        f64::MIN_POSITIVE,
        5e-324,
        f64::INFINITY,
        f64::NEG_INFINITY,
        100.0,
        1e100,
        2.5,
        9.223372036854776e18,
    ];
    let mut failures = Vec::new();
    for x in fixed {
        if let Err(e) = check(&c, "text", &[r(x)]) {
            failures.push(e);
        }
        if let Err(e) = check(&c, "quote", &[r(x)]) {
            failures.push(e);
        }
    }
    // A deterministic sweep over many bit patterns and decimal-looking values.
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    for k in 0..20000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let x = if k % 2 == 0 {
            f64::from_bits(state)
        } else {
            (state % 2_000_000_000) as f64 / 10f64.powi((state >> 40) as i32 % 12)
        };
        if x.is_nan() {
            continue;
        }
        if let Err(e) = check(&c, "text", &[r(x)]) {
            failures.push(e);
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches, first:\n{}",
        failures.len(),
        failures.iter().take(10).cloned().collect::<Vec<_>>().join("\n")
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(3000), ..ProptestConfig::default() })]

    #[test]
    fn binary_operators_match(op in prop::sample::select(BINARY_OPS), a in arb_value(), b in arb_value()) {
        let c = conn();
        if let Err(e) = check(&c, op, &[a, b]) {
            prop_assert!(false, "{}", e);
        }
    }

    #[test]
    fn unary_operators_match(op in prop::sample::select(UNARY_OPS), a in arb_value()) {
        let c = conn();
        if let Err(e) = check(&c, op, &[a]) {
            prop_assert!(false, "{}", e);
        }
    }

    #[test]
    fn collated_comparisons_match(
        op in prop::sample::select(&["cmp_nocase", "cmp_rtrim"][..]),
        a in "[aAbB \\x00]{0,4}",
        b in "[aAbB \\x00]{0,4}",
    ) {
        let c = conn();
        if let Err(e) = check(&c, op, &[Value::Text(a.into()), Value::Text(b.into())]) {
            prop_assert!(false, "{}", e);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(1500), ..ProptestConfig::default() })]

    /// Numeric literals read as SQLite's tokenizer reads them.
    #[test]
    fn number_literals_match(
        lit in prop_oneof![
            "[0-9]{1,22}(\\.[0-9]{0,3})?([eE][+-]?[0-9]{1,3})?",
            "\\.[0-9]{1,4}([eE][0-9])?",
            "0x[0-9a-fA-F]{1,16}",
        ]
    ) {
        let c = conn();
        let theirs = sqlite_eval(&c, &format!("SELECT {lit}"), &[]);
        let mine = asadb_sql::value::parse_number_literal(&lit);
        match (theirs, mine) {
            (Ok(x), Some(y)) => prop_assert!(same(&x, &y), "{}: sqlite {:?}, ours {:?}", lit, x, y),
            (x, y) => prop_assert!(false, "{}: sqlite {:?}, ours {:?}", lit, x, y),
        }
    }
}
