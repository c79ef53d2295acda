//! Differential tests of the built-in scalar and aggregate functions
//! against SQLite: same arguments, same storage class and value, and the
//! same error text where SQLite raises one.

mod values_common;

use asadb_sql::func::{self, Aggregate};
use asadb_sql::value::Value;
use proptest::prelude::*;
use values_common::*;

fn i(x: i64) -> Value {
    Value::Integer(x)
}
fn r(x: f64) -> Value {
    Value::Real(x)
}
fn t(s: &str) -> Value {
    Value::Text(s.into())
}
fn b(x: &[u8]) -> Value {
    Value::Blob(x.to_vec())
}

#[test]
fn known_edge_cases() {
    let c = conn();
    let n = Value::Null;
    let cases: Vec<(&str, Vec<Value>)> = vec![
        ("round", vec![r(2.5)]),
        ("round", vec![r(-2.5)]),
        ("round", vec![r(0.5)]),
        ("round", vec![r(1.005), i(2)]),
        ("round", vec![r(2.675), i(2)]),
        ("round", vec![r(-1.5), i(0)]),
        ("round", vec![r(123.456), i(-1)]),
        ("round", vec![t("3.7")]),
        ("round", vec![i(3), n.clone()]),
        ("round", vec![r(1e300), i(3)]),
        ("substr", vec![t("hello"), i(0)]),
        ("substr", vec![t("hello"), i(0), i(2)]),
        ("substr", vec![t("hello"), i(-2)]),
        ("substr", vec![t("hello"), i(-10), i(3)]),
        ("substr", vec![t("hello"), i(-10), i(-3)]),
        ("substr", vec![t("hello"), i(4), i(-3)]),
        ("substr", vec![t("hello"), i(2), i(-10)]),
        ("substr", vec![t("héllo"), i(2), i(2)]),
        ("substr", vec![b(b"hello"), i(-3), i(2)]),
        ("substr", vec![b(b"hello"), i(9)]),
        ("substr", vec![i(12345), i(2), i(2)]),
        ("substr", vec![t("abc"), n.clone()]),
        ("substring", vec![t("abc"), i(2)]),
        ("length", vec![b(&[0xc3, 0xa9])]),
        ("length", vec![t("é")]),
        ("length", vec![r(1.5)]),
        ("length", vec![n.clone()]),
        ("octet_length", vec![t("é")]),
        ("hex", vec![i(12)]),
        ("hex", vec![r(1.5)]),
        ("hex", vec![n.clone()]),
        ("hex", vec![t("é")]),
        ("abs", vec![i(i64::MIN)]),
        ("abs", vec![i(-5)]),
        ("abs", vec![t("-5")]),
        ("abs", vec![t("abc")]),
        ("abs", vec![n.clone()]),
        ("max", vec![i(1), n.clone()]),
        ("max", vec![i(1), r(1.0)]),
        ("min", vec![i(1), r(1.0)]),
        ("max", vec![i(1), t("a"), b(b"")]),
        ("typeof", vec![n.clone()]),
        ("coalesce", vec![n.clone(), n.clone(), i(3)]),
        ("coalesce", vec![i(1)]),
        ("ifnull", vec![n.clone(), t("x")]),
        ("nullif", vec![i(1), r(1.0)]),
        ("nullif", vec![n.clone(), i(1)]),
        ("iif", vec![t("1abc"), i(1), i(2)]),
        ("iif", vec![n.clone(), i(1), i(2)]),
        ("iif", vec![i(0), i(1)]),
        ("iif", vec![i(0), i(1), i(1), i(2), i(3)]),
        ("instr", vec![t("héllo"), t("llo")]),
        ("instr", vec![b(b"abc"), b(b"c")]),
        ("instr", vec![t("abc"), t("")]),
        ("instr", vec![i(12345), i(34)]),
        ("char", vec![i(72), i(0x1F600), i(-1), n.clone()]),
        ("char", vec![]),
        ("unicode", vec![t("")]),
        ("unicode", vec![t("€uro")]),
        ("quote", vec![t("it's")]),
        ("quote", vec![b(&[0, 255])]),
        ("quote", vec![r(f64::INFINITY)]),
        ("quote", vec![r(-0.0)]),
        ("quote", vec![n.clone()]),
        ("zeroblob", vec![i(3)]),
        ("zeroblob", vec![i(-3)]),
        ("sign", vec![t("-0.0")]),
        ("sign", vec![t("1x")]),
        ("sign", vec![b(b"1")]),
        ("unistr", vec![t("a\\0041\\u00e9\\+01F600\\U0001F600\\\\z")]),
        ("unistr", vec![t("plain")]),
        ("unistr", vec![t("bad \\x")]),
        ("unistr", vec![t("short \\12")]),
        ("unistr", vec![t("end \\")]),
        ("unistr", vec![t("\\u0000x")]),
        ("unistr", vec![i(12)]),
        ("unistr", vec![n.clone()]),
        ("unistr", vec![b(b"\\0041")]),
        ("unistr_quote", vec![t("it's\ttab\nnl\\")]),
        ("unistr_quote", vec![t("plain")]),
        ("unistr_quote", vec![i(3)]),
        ("unistr_quote", vec![r(1.5)]),
        ("unistr_quote", vec![b(b"ab")]),
        ("unistr_quote", vec![n.clone()]),
        ("sqlite_version", vec![]),
        ("unhex", vec![t("ABcd")]),
        ("unhex", vec![t("AB CD")]),
        ("unhex", vec![t("AB CD"), t(" ")]),
        ("unhex", vec![t("A BCD"), t(" ")]),
        ("unhex", vec![t("ABC")]),
        ("unhex", vec![t("AB-€CD"), t("€-")]),
        ("trim", vec![t("  x  ")]),
        ("ltrim", vec![t("xxyxz"), t("xy")]),
        ("rtrim", vec![t("abcé"), t("é")]),
        ("trim", vec![t("abc"), t("")]),
        ("trim", vec![t("abc"), n.clone()]),
        ("replace", vec![t("aaa"), t("a"), t("bb")]),
        ("replace", vec![t("abc"), t(""), t("x")]),
        ("replace", vec![i(1221), i(2), r(0.5)]),
        ("upper", vec![t("héllo")]),
        ("lower", vec![t("ÀBC")]),
        ("concat", vec![n.clone()]),
        ("concat", vec![i(1), n.clone(), r(2.0)]),
        ("concat_ws", vec![n.clone(), i(1)]),
        ("concat_ws", vec![t("-"), i(1), n.clone(), t("x")]),
        ("printf", vec![t("%d %5.2f %s %x %%"), i(42), r(3.24159), t("hi"), i(255)]),
        ("printf", vec![t("%.3s|%-6d|%06.1f|%+d|% d"), t("abcdef"), i(7), r(-2.25), i(5), i(5)]),
        ("printf", vec![t("%e %g %G %E"), r(123456.789), r(0.0001), r(1e-10), r(0.5)]),
        ("printf", vec![t("%q %Q %w"), t("a'b"), n.clone(), t("x\"y")]),
        ("printf", vec![t("%c|%5c|%-3c|%.3c"), t("é"), t("x"), t("y"), t("z")]),
        ("printf", vec![t("%,d %,d %,.2f"), i(1234567), i(-999), r(1234567.891)]),
        ("printf", vec![t("%#x %#o %#X %p"), i(255), i(8), i(255), i(255)]),
        ("printf", vec![t("%*d|%-*d|%.*f"), i(5), i(1), i(4), i(2), i(2), r(3.24159)]),
        ("printf", vec![t("%!.3s|%!5s"), t("héllo"), t("é")]),
        ("printf", vec![t("%r %r %r %r %r"), i(1), i(2), i(3), i(11), i(112)]),
        ("printf", vec![t("%s %d"), n.clone(), n.clone()]),
        ("printf", vec![t("%j %J %J"), t("a\"b\n"), t("x\\"), n.clone()]),
        ("printf", vec![t("%#q %#Q %#Q"), t("a\\b\x01"), t("plain"), t("c\x1f")]),
        ("printf", vec![t("%z %n %lld %ld"), t("z"), i(9), i(8)]),
        (
            "printf",
            vec![
                t("%5.1e|%-12g|%012.3f|%+.0f|%#.0f"),
                r(12345.0),
                r(0.5),
                r(-3.24159),
                r(2.5),
                r(3.0),
            ],
        ),
        ("printf", vec![t("%.20f %.0e %g %g"), r(0.1), r(15.0), r(1e16), r(123456789.0)]),
        (
            "printf",
            vec![
                t("%f %e %g %010f %-8f|"),
                r(f64::INFINITY),
                r(f64::NEG_INFINITY),
                r(f64::INFINITY),
                r(f64::INFINITY),
                r(f64::NEG_INFINITY),
            ],
        ),
        ("printf", vec![t("abc%")]),
        ("printf", vec![t("%k %d"), i(1)]),
        ("printf", vec![n.clone(), i(1)]),
        ("printf", vec![]),
        ("format", vec![t("%s-%s"), i(1), r(2.5)]),
        ("like", vec![t("a%"), t("ABC")]),
        ("like", vec![t("a\\%"), t("a%"), t("\\")]),
        ("like", vec![t("a%"), t("abc"), t("ab")]),
        ("like", vec![t("a%"), n.clone()]),
        ("like", vec![t("%b_"), b(b"abc")]),
        ("glob", vec![t("[a-c]*"), t("bcd")]),
        ("glob", vec![t("*[]]"), t("x]")]),
        ("glob", vec![t("[^a]?"), t("ba")]),
        ("likely", vec![i(5)]),
        ("unlikely", vec![t("x")]),
        // errors
        ("abs", vec![]),
        ("substr", vec![t("x")]),
        ("coalesce", vec![]),
        ("nosuchfn", vec![i(1)]),
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
fn random_functions_have_the_right_shape() {
    for _ in 0..100 {
        let v = func::scalar("random", &[]).unwrap();
        assert!(matches!(v, Value::Integer(x) if x != i64::MIN));
    }
    let a = func::scalar("randomblob", &[i(16)]).unwrap();
    let b2 = func::scalar("randomblob", &[i(16)]).unwrap();
    assert!(matches!(&a, Value::Blob(x) if x.len() == 16));
    assert_ne!(a, b2, "two 16-byte random blobs should differ");
}

#[test]
fn aggregate_edge_cases() {
    let c = conn();
    let n = Value::Null;
    let cases: Vec<(&str, bool, Option<Value>, Vec<Value>)> = vec![
        ("sum", false, None, vec![]),
        ("sum", false, None, vec![n.clone()]),
        ("sum", false, None, vec![i(1), i(2)]),
        ("sum", false, None, vec![i(1), r(2.5)]),
        ("sum", false, None, vec![i(i64::MAX), i(1)]),
        ("sum", false, None, vec![i(i64::MAX), i(1), r(1.0)]),
        ("sum", false, None, vec![i(i64::MAX), i(1), i(-1)]),
        ("sum", false, None, vec![t("12"), t("1.5"), t("abc"), t("3x")]),
        ("sum", false, None, vec![r(0.1), r(0.2), r(0.3)]),
        ("sum", false, None, vec![r(1e308), r(1e308)]),
        ("sum", true, None, vec![i(1), r(1.0), i(2)]),
        ("total", false, None, vec![]),
        ("total", false, None, vec![i(1), i(2)]),
        ("avg", false, None, vec![i(1), i(2)]),
        ("avg", false, None, vec![]),
        ("avg", false, None, vec![i(i64::MAX), i(i64::MAX)]),
        ("count", false, None, vec![i(1), n.clone(), t("")]),
        ("count", true, None, vec![i(1), r(1.0), t("1"), n.clone()]),
        ("min", false, None, vec![t("b"), i(3), n.clone(), r(2.5)]),
        ("max", false, None, vec![t("b"), i(3), b(b""), r(2.5)]),
        ("max", false, None, vec![i(1), r(1.0)]),
        ("min", false, None, vec![n.clone()]),
        ("group_concat", false, None, vec![i(1), n.clone(), t("b"), r(2.0)]),
        ("group_concat", false, Some(t("; ")), vec![i(1), t("x"), i(3)]),
        ("group_concat", false, Some(n.clone()), vec![i(1), t("x")]),
        ("group_concat", false, None, vec![t("")]),
        ("group_concat", false, None, vec![]),
        ("group_concat", true, None, vec![i(1), i(1), t("a"), r(1.0), t("a")]),
        ("string_agg", false, Some(t("|")), vec![t("a"), t("b")]),
    ];
    let mut failures = Vec::new();
    for (name, distinct, extra, rows) in &cases {
        if let Err(e) = check_aggregate(&c, name, *distinct, extra.as_ref(), rows) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{} mismatches:\n{}", failures.len(), failures.join("\n"));
}

const ONE_ARG: &[&str] = &[
    "abs",
    "unistr",
    "unistr_quote",
    "length",
    "octet_length",
    "lower",
    "upper",
    "trim",
    "ltrim",
    "rtrim",
    "round",
    "typeof",
    "hex",
    "unhex",
    "char",
    "unicode",
    "quote",
    "sign",
    "likely",
    "concat",
];
const TWO_ARGS: &[&str] = &[
    "substr",
    "trim",
    "ltrim",
    "rtrim",
    "round",
    "instr",
    "unhex",
    "min",
    "max",
    "char",
    "coalesce",
    "ifnull",
    "nullif",
    "concat",
    "concat_ws",
    "like",
    "glob",
    "iif",
    "printf",
];
const THREE_ARGS: &[&str] =
    &["substr", "replace", "min", "max", "coalesce", "concat", "concat_ws", "iif", "printf"];

fn arb_format() -> impl Strategy<Value = String> {
    let spec = (
        "[-+ #!0,]{0,2}",
        prop_oneof![Just(String::new()), "[1-9][0-9]?", Just("*".to_string())],
        prop_oneof![Just(String::new()), "\\.[0-9]{0,2}", Just(".*".to_string())],
        "[dixXofeEgGscqQwr%]",
    )
        .prop_map(|(f, w, p, c)| format!("%{f}{w}{p}{c}"));
    prop::collection::vec(prop_oneof![spec, "[a-z ]{0,2}"], 1..4).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(2500), ..ProptestConfig::default() })]

    #[test]
    fn one_arg_functions_match(name in prop::sample::select(ONE_ARG), a in arb_value()) {
        let c = conn();
        if let Err(e) = check(&c, name, &[a]) {
            prop_assert!(false, "{}", e);
        }
    }

    #[test]
    fn two_arg_functions_match(name in prop::sample::select(TWO_ARGS), a in arb_value(), b in arb_small()) {
        let c = conn();
        if let Err(e) = check(&c, name, &[a, b]) {
            prop_assert!(false, "{}", e);
        }
    }

    #[test]
    fn three_arg_functions_match(
        name in prop::sample::select(THREE_ARGS),
        a in arb_value(),
        b in arb_small(),
        x in arb_small(),
    ) {
        let c = conn();
        if let Err(e) = check(&c, name, &[a, b, x]) {
            prop_assert!(false, "{}", e);
        }
    }

    #[test]
    fn printf_matches(fmt in arb_format(), args in prop::collection::vec(arb_value(), 0..4)) {
        let c = conn();
        // Keep `*` widths/precisions small: SQLite happily pads to 1e9 bytes.
        let star = fmt.contains('*');
        let mut all = vec![Value::Text(fmt.into())];
        all.extend(args.into_iter().map(|a| {
            if star && (a.to_i64() as i32).unsigned_abs() > 1000 { Value::Integer(7) } else { a }
        }));
        if let Err(e) = check(&c, "printf", &all) {
            prop_assert!(false, "{}", e);
        }
    }

    #[test]
    fn patterns_match(
        pat in "[abAB%_*?\\[\\]^\\\\-]{0,6}",
        text in "[abAB%_\\]\\\\-]{0,6}",
        esc in prop::option::of("[\\\\%_a]"),
    ) {
        let c = conn();
        for op in ["like_op", "glob_op"] {
            if let Err(e) = check(&c, op, &[Value::Text(pat.clone().into()), Value::Text(text.clone().into())]) {
                prop_assert!(false, "{}", e);
            }
        }
        if let Some(esc) = esc {
            let args = [Value::Text(pat.into()), Value::Text(text.into()), Value::Text(esc.into())];
            if let Err(e) = check(&c, "like_esc_op", &args) {
                prop_assert!(false, "{}", e);
            }
        }
    }

    #[test]
    fn aggregates_match(
        name in prop::sample::select(&["count", "sum", "total", "avg", "min", "max", "group_concat"][..]),
        distinct in any::<bool>(),
        rows in prop::collection::vec(arb_value(), 0..12),
    ) {
        let c = conn();
        if let Err(e) = check_aggregate(&c, name, distinct, None, &rows) {
            prop_assert!(false, "{}", e);
        }
    }
}

/// min/max/nullif and DISTINCT under NOCASE and RTRIM, as SQLite applies a
/// `COLLATE` on the argument.
#[test]
fn collated_functions_and_aggregates() {
    use asadb_sql::value::Collation;
    let c = conn();
    let rows = [t("b"), t("A"), t("a"), t("B "), t("b"), i(3), t("c  ")];
    let mut failures = Vec::new();
    for (coll, cname) in [(Collation::NoCase, "NOCASE"), (Collation::RTrim, "RTRIM")] {
        c.execute("DELETE FROM t", []).unwrap();
        for v in &rows {
            c.execute("INSERT INTO t VALUES (?1)", [to_sql(v)]).unwrap();
        }
        for (name, distinct) in
            [("max", false), ("min", false), ("count", true), ("group_concat", true)]
        {
            let d = if distinct { "DISTINCT " } else { "" };
            let sql = format!("SELECT {name}({d}x COLLATE {cname}) FROM t");
            let theirs = sqlite_eval(&c, &sql, &[]).unwrap();
            let mut agg = Aggregate::new(name, distinct, 1).unwrap().with_collation(coll);
            for v in &rows {
                agg.step(std::slice::from_ref(v)).unwrap();
            }
            let mine = agg.finish().unwrap();
            if !same(&theirs, &mine) {
                failures.push(format!("{sql}: sqlite {theirs:?}, ours {mine:?}"));
            }
        }
        for (name, a, b) in
            [("max", t("a"), t("A")), ("min", t("B"), t("b")), ("nullif", t("x "), t("X"))]
        {
            let sql = format!("SELECT {name}(?1 COLLATE {cname}, ?2)");
            let theirs = sqlite_eval(&c, &sql, &[a.clone(), b.clone()]).unwrap();
            let mine = func::scalar_collated(name, &[a.clone(), b.clone()], coll).unwrap();
            if !same(&theirs, &mine) {
                failures.push(format!("{sql} {a:?} {b:?}: sqlite {theirs:?}, ours {mine:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
