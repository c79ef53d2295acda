//! The INSERT fast path against its two references.
//!
//! 1. `sqlparser` (`parse_insert_slow_with`): for generated INSERT
//!    statements — random literals of every kind, spacing, comments, case,
//!    identifier quoting, column lists, conflict clauses — whenever the fast
//!    path accepts, the slow path gives exactly the same table, columns and
//!    values (same variants, same f64 bits). Statements made only of plain
//!    literals must be accepted; those with an expression in them may be
//!    declined but never misread.
//! 2. SQLite itself (via rusqlite): every generated literal means what
//!    `SELECT <literal>` means to SQLite.

use asadb_sql::Value;
use asadb_sql::script::{parse_insert_fast, parse_insert_slow, parse_insert_slow_with};
use proptest::prelude::*;

/// A literal's spelling; `plain` = the fast path must accept it.
#[derive(Clone, Debug)]
struct Lit {
    sql: String,
    plain: bool,
}

fn quote_sql(content: &str, bs: bool) -> String {
    let mut s = String::from("'");
    for c in content.chars() {
        match c {
            '\'' => s.push_str("''"),
            '\\' if bs => s.push_str("\\\\"),
            c => s.push(c),
        }
    }
    s.push('\'');
    s
}

fn sign() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["", "", "-", "+", "- ", "-/* c */", "+\n"])
}

fn literal(bs: bool) -> impl Strategy<Value = Lit> {
    let int = (sign(), any::<i64>(), 0usize..3).prop_map(|(s, v, zeros)| Lit {
        sql: format!("{s}{}{}", "0".repeat(zeros), v.unsigned_abs()),
        plain: true,
    });
    let small = (sign(), 0u32..1000).prop_map(|(s, v)| Lit { sql: format!("{s}{v}"), plain: true });
    let big = (sign(), "[1-9][0-9]{18,25}")
        .prop_map(|(s, d)| Lit { sql: format!("{s}{d}"), plain: true });
    let real = (sign(), any::<f64>().prop_filter("finite", |f| f.is_finite()), 0..5).prop_map(
        |(s, f, style)| {
            let f = f.abs();
            let body = match style {
                0 => format!("{f:?}"),
                1 => format!("{f:e}"),
                2 => format!("{f:E}"),
                3 => format!("{:.3}", f % 1000.0),
                _ => format!("{}e+{}", (f % 10.0) as u32, (f as u64) % 30),
            };
            Lit { sql: format!("{s}{body}"), plain: true }
        },
    );
    let odd_real = prop::sample::select(vec![
        ".5",
        "5.",
        "1.e5",
        "0.0",
        "00.100",
        "1e-3",
        "7E2",
        "123456789012345678901234567890.5",
    ])
    .prop_flat_map(|r| sign().prop_map(move |s| Lit { sql: format!("{s}{r}"), plain: true }));
    let hex = (sign(), "[0-9a-fA-F]{1,16}").prop_map(|(s, h)| {
        // Negating 0x8000000000000000 is an error in SQLite.
        let plain = !(s.starts_with('-') && u64::from_str_radix(&h, 16) == Ok(1 << 63));
        Lit { sql: format!("{s}0x{h}"), plain }
    });
    let string = prop::collection::vec(
        prop::sample::select(vec![
            "a", "Z", " ", "'", "\\", ";", "--", "/*", "é", "😀", "\n", "%", "_", "\"", "0",
        ]),
        0..10,
    )
    .prop_map(move |v| Lit { sql: quote_sql(&v.concat(), bs), plain: true });
    // In MySQL mode, raw escape sequences too.
    let escapes = prop::collection::vec(
        prop::sample::select(vec![
            "\\n", "\\0", "\\t", "\\Z", "\\'", "\\\"", "\\%", "\\_", "\\q", "x",
        ]),
        0..6,
    )
    .prop_map(move |v| {
        if bs {
            Lit { sql: format!("'{}'", v.concat()), plain: true }
        } else {
            Lit { sql: "'x'".into(), plain: true }
        }
    });
    let keyword =
        prop::sample::select(vec!["NULL", "null", "Null", "TRUE", "true", "FALSE", "False"])
            .prop_map(|k| Lit { sql: k.into(), plain: true });
    let blob = (prop::collection::vec(any::<u8>(), 0..8), any::<bool>(), any::<bool>()).prop_map(
        |(b, upper_x, upper)| {
            let hex: String = b
                .iter()
                .map(|x| if upper { format!("{x:02X}") } else { format!("{x:02x}") })
                .collect();
            Lit { sql: format!("{}'{hex}'", if upper_x { 'X' } else { 'x' }), plain: true }
        },
    );
    let other = prop::sample::select(vec![
        "1+2",
        "abs(-1)",
        "DEFAULT",
        "?",
        "?1",
        ":a",
        "'a' || 'b'",
        "(1)",
        "- -1",
        "CURRENT_TIMESTAMP",
        "\"dq\"",
        "N'x'",
        "E'x'",
        "-'1'",
        "-NULL",
        "X'ABC'",
        "CAST(1 AS TEXT)",
        "1 IS NULL",
    ])
    .prop_map(|o| Lit { sql: o.into(), plain: false });
    prop_oneof![
        3 => int, 2 => small, 1 => big, 3 => real, 1 => odd_real, 2 => hex,
        4 => string, 1 => escapes, 2 => keyword, 2 => blob, 1 => other,
    ]
}

/// Whitespace and comments between tokens.
fn space() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![" ", " ", "", "\n", "\t", " /* c; ' */ ", " -- c ;\n", "\r\n  "])
}

/// A table or column name; MySQL knows only bare and backquoted ones.
fn name(bs: bool) -> impl Strategy<Value = String> {
    let bare = prop::sample::select(vec!["t", "T1", "my_table", "data$x", "é_t", "Foo"])
        .prop_map(str::to_owned);
    let backquoted =
        "[a-z]{1,3}( |`|;)?[a-z]{0,2}".prop_map(|n| format!("`{}`", n.replace('`', "``")));
    let double =
        "[a-z]{1,3}( |\"|;)?[a-z]{0,2}".prop_map(|n| format!("\"{}\"", n.replace('"', "\"\"")));
    let bracket = "[a-z]{1,3}( |;)?[a-z]{0,2}".prop_map(|n| format!("[{n}]"));
    if bs {
        prop_oneof![bare, backquoted].boxed()
    } else {
        prop_oneof![bare, backquoted, double, bracket].boxed()
    }
}

fn case(word: &str, upper: bool) -> String {
    if upper { word.to_uppercase() } else { word.to_lowercase() }
}

#[derive(Debug)]
struct Insert {
    sql: String,
    plain: bool,
}

fn insert(bs: bool) -> impl Strategy<Value = Insert> {
    let mut heads = vec![
        "INSERT",
        "INSERT OR IGNORE",
        "INSERT OR REPLACE",
        "INSERT OR ABORT",
        "INSERT OR FAIL",
        "INSERT OR ROLLBACK",
        "REPLACE",
    ];
    if bs {
        heads.push("INSERT IGNORE");
    }
    let head = prop::sample::select(heads);
    let rows =
        prop::collection::vec(prop::collection::vec((literal(bs), space(), space()), 1..5), 1..5);
    (
        head,
        any::<bool>(),
        (prop::option::of(name(bs)), name(bs)),
        prop::option::of(prop::collection::vec(name(bs), 1..4)),
        rows,
        (space(), space(), space()),
        prop::sample::select(vec!["", ";", " ; ", ";\n-- end\n"]),
    )
        .prop_map(move |(head, upper, (schema, table), cols, rows, (s1, s2, s3), tail)| {
            let mut sql = String::new();
            sql.push_str(s1);
            // REPLACE is not a MySQL-dialect-free keyword for every head;
            // keep head words in one case.
            sql.push_str(&case(head, upper));
            sql.push(' ');
            sql.push_str(&case("INTO", !upper));
            sql.push(' ');
            if let Some(s) = schema {
                sql.push_str(&s);
                sql.push_str(s2);
                sql.push('.');
                sql.push_str(s2);
            }
            sql.push_str(&table);
            sql.push_str(s3);
            if let Some(cols) = cols {
                sql.push('(');
                sql.push_str(&cols.join(&format!(",{s2}")));
                sql.push(')');
                sql.push_str(s1);
            } else {
                sql.push(' ');
            }
            sql.push_str(&case("VALUES", upper));
            let mut plain = true;
            for (r, row) in rows.iter().enumerate() {
                sql.push_str(if r == 0 { s1 } else { ",\n" });
                sql.push('(');
                for (k, (lit, a, b)) in row.iter().enumerate() {
                    if k > 0 {
                        sql.push(',');
                    }
                    sql.push_str(a);
                    sql.push_str(&lit.sql);
                    sql.push_str(b);
                    plain &= lit.plain;
                }
                sql.push(')');
            }
            sql.push_str(tail);
            Insert { sql, plain }
        })
}

/// Exact equality (same variants, same f64 bits): the fuzz target's rule.
use asadb_sql::fuzz::same_insert as same;

fn check(ins: &Insert, bs: bool) -> Result<(), TestCaseError> {
    let fast = parse_insert_fast(&ins.sql, bs);
    if ins.plain {
        prop_assert!(fast.is_some(), "plain INSERT declined: {}", ins.sql);
    }
    if let Some(fast) = fast {
        let slow = parse_insert_slow_with(&ins.sql, bs);
        match slow {
            Ok(Some(slow)) => {
                prop_assert!(same(&fast, &slow), "{}\nfast {fast:?}\nslow {slow:?}", ins.sql)
            }
            other => prop_assert!(false, "fast accepted, slow gave {other:?}: {}", ins.sql),
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn fast_path_equals_sqlparser(ins in insert(false)) {
        check(&ins, false)?;
    }

    #[test]
    fn fast_path_equals_sqlparser_mysql(ins in insert(true)) {
        check(&ins, true)?;
    }

    #[test]
    fn literals_mean_what_sqlite_says(lit in literal(false)) {
        prop_assume!(lit.plain);
        same_as_sqlite(&lit.sql)?;
    }

    /// Long numbers, where rounding to f64 is where parsers part.
    #[test]
    fn long_numbers_mean_what_sqlite_says(
        int in "[1-9][0-9]{17,40}",
        frac in "[0-9]{0,25}",
        exp in prop::option::of(-330i32..330),
    ) {
        same_as_sqlite(&int)?;
        let real = match exp {
            Some(e) => format!("{int}.{frac}e{e}"),
            None => format!("{int}.{frac}"),
        };
        same_as_sqlite(&real)?;
    }
}

/// `SELECT <lit>` in SQLite and the fast path give the same value.
fn same_as_sqlite(lit: &str) -> Result<(), TestCaseError> {
    use rusqlite::types::Value as S;
    let conn = rusqlite::Connection::open_in_memory().unwrap();
    let want: S = conn.query_row(&format!("SELECT {lit}"), [], |r| r.get(0)).unwrap();
    let got = parse_insert_fast(&format!("INSERT INTO t VALUES ({lit})"), false)
        .expect("plain literal accepted");
    let ok = match (&got.rows[0][0], &want) {
        (Value::Null, S::Null) => true,
        (Value::Integer(a), S::Integer(b)) => a == b,
        // SQLite folds -0.0 into 0.0 on output; compare numerically.
        (Value::Real(a), S::Real(b)) => a == b,
        (Value::Text(a), S::Text(b)) => a == b,
        (Value::Blob(a), S::Blob(b)) => a == b,
        _ => false,
    };
    prop_assert!(ok, "{}: ours {:?}, SQLite {:?}", lit, got.rows[0][0], want);
    Ok(())
}

#[test]
fn declines_what_it_does_not_fully_understand() {
    for sql in [
        "INSERT INTO t VALUES (1) ON CONFLICT DO NOTHING",
        "INSERT INTO t VALUES (1) RETURNING *",
        "INSERT INTO t SELECT 1",
        "INSERT INTO t DEFAULT VALUES",
        "INSERT INTO t VALUES (1); SELECT 2",
        "INSERT INTO t VALUES (abs(1))",
        "INSERT INTO t VALUES (1), ",
        "INSERT INTO t VALUES ()",
        "INSERT INTO t () VALUES (1)",
        "INSERT INTO a.b.c VALUES (1)",
        "INSERT t VALUES (1)",
        "INSERT IGNORE INTO t VALUES (1)",
        "INSERT INTO t VALUES (1 /* unterminated",
        "INSERT INTO t VALUES ('unterminated)",
        "INSERT INTO t VALUES (0X1F)",
        "INSERT INTO t VALUES (0x)",
        "INSERT INTO t VALUES (0x10000000000000000)",
        "INSERT INTO t VALUES (1abc)",
        "INSERT INTO t VALUES (1.2.3)",
        "INSERT INTO t VALUES (X'123')",
        "INSERT INTO values VALUES (1)",
        "SELECT 1",
        "",
    ] {
        assert!(parse_insert_fast(sql, false).is_none(), "accepted: {sql}");
    }
    // MySQL `--` needs a following space, as in sqlparser's MySQL dialect.
    assert!(parse_insert_fast("INSERT INTO t VALUES (1 --x\n)", true).is_none());
    assert!(parse_insert_fast("INSERT INTO t VALUES (1 -- x\n)", true).is_some());
}

#[test]
fn slow_path_reports_syntax_errors_and_declines_non_literals() {
    assert!(matches!(
        parse_insert_slow("INSERT INTO t VALUES (1"),
        Err(asadb_sql::Error::Parse(_))
    ));
    assert!(matches!(parse_insert_slow("INSERT INTO t VALUES (1+2)"), Ok(None)));
    assert!(matches!(parse_insert_slow("SELECT 1"), Ok(None)));
    assert!(parse_insert_slow("INSERT INTO t VALUES (X'123')").is_err());
    let v = parse_insert_slow("INSERT INTO t VALUES (0x1F, X'1F', -0x1F)").unwrap().unwrap();
    assert!(
        matches!(v.rows[0][..], [Value::Integer(31), Value::Blob(ref b), Value::Integer(-31)] if b == &[0x1f])
    );
}

/// Token soup around an INSERT skeleton: literal lists where one item in
/// ten is junk or an odd spelling, and pure soup.
fn insert_soup() -> impl Strategy<Value = String> {
    let good = prop::sample::select(vec![
        "1",
        "-1",
        "+ 2",
        "'a'",
        "''''",
        "'a''b'",
        "X'0A'",
        "x''",
        "0x1F",
        "-0x1",
        "1e5",
        ".5",
        "5.",
        "1.e3",
        "NULL",
        "TRUE",
        "false",
        "'\\'",
        "'é'",
        "1 /* c */",
        "1 -- c\n",
    ]);
    let junk = prop::sample::select(vec![
        "- -1", "1e", "0x", "'a", "1.2.3", "x'0'", "\"c\"", "[c]", "(", ")", "e", "E'a'", "?",
        "$1", "\\", "--", "/*", ";", "é", "0X1", "1L", "DEFAULT", "N'a'", "", ",", "1 2",
    ]);
    let item = prop_oneof![9 => good, 1 => junk];
    let list = prop::collection::vec((item.clone(), space()), 1..6)
        .prop_map(|v| v.iter().map(|(i, s)| format!("{i}{s}")).collect::<Vec<_>>().join(","))
        .boxed();
    let soup = prop::collection::vec(item, 0..12).prop_map(|v| v.concat());
    prop_oneof![
        1 => soup,
        4 => list.clone().prop_map(|l| format!("INSERT INTO t VALUES ({l})")),
        1 => (list.clone(), list).prop_map(|(a, b)| format!("INSERT INTO t VALUES ({a}),({b});")),
    ]
}

/// The fast path must never panic on soup, and whatever it accepts the
/// slow path must read the same way; a fair share must be accepted for
/// the check to mean something.
#[test]
fn fast_path_on_soup_never_disagrees() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = (insert_soup(), any::<bool>());
    let (mut cases, mut accepted) = (0, 0);
    for _ in 0..20_000 {
        let (sql, bs) = strategy.new_tree(&mut runner).unwrap().current();
        cases += 1;
        if let Some(fast) = parse_insert_fast(&sql, bs) {
            accepted += 1;
            match parse_insert_slow_with(&sql, bs) {
                Ok(Some(slow)) => {
                    assert!(same(&fast, &slow), "{sql}\nfast {fast:?}\nslow {slow:?}")
                }
                other => panic!("fast accepted, slow gave {other:?}: {sql}"),
            }
        }
    }
    assert!(accepted * 4 > cases, "only {accepted} of {cases} accepted");
    eprintln!("soup: {accepted} of {cases} accepted");
}
