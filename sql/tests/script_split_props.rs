//! Property tests of the streaming splitter.
//!
//! Scripts are built from random statements (quoted strings, identifiers,
//! comments and dollar quotes holding `;`, E-strings, triggers with
//! `CASE … END` in their bodies, COPY data blocks) joined by random gaps
//! (`;`, whitespace, comments). Because the generator knows every
//! statement's text and offsets, it is the reference: splitting with any
//! chunk size must give exactly those statements, the same as splitting the
//! whole text at once, and the gaps between them must hold no statement.

use asadb_sql::script::{Splitter, SplitterOptions, Statement};
use proptest::prelude::*;

/// One expected statement: its text, optional COPY data, and the bytes
/// that follow the text up to its end (`;`, or `;\n…\\.` for COPY).
#[derive(Clone, Debug)]
struct Expected {
    text: String,
    copy_data: Option<String>,
    terminator: String,
}

fn quoted(q: char, content: &str) -> String {
    let mut s = String::from(q);
    for c in content.chars() {
        if c == q {
            s.push(q);
        }
        s.push(c);
    }
    s.push(q);
    s
}

/// Characters that make quoting interesting.
fn content(extra: &'static [&'static str]) -> impl Strategy<Value = String> {
    let mut alphabet =
        vec!["a", ";", " ", "'", "\"", "`", "-", "--", "/*", "*/", "$", "é", "\n", "E"];
    alphabet.extend_from_slice(extra);
    prop::collection::vec(prop::sample::select(alphabet), 0..8).prop_map(|v| v.concat())
}

/// One token; `bs` = MySQL backslash mode.
fn token(bs: bool) -> impl Strategy<Value = String> {
    let plain = prop::sample::select(vec![
        "SELECT", "x", "e", "E", "1", "2.5", "(", ")", ",", "+", "-", "*", "/", "=", "$1", "?",
        ":a", "a$b", "CASE", "END", "BEGIN", "TRIGGER", "é",
    ])
    .prop_map(str::to_owned);
    let single = content(&["\\"]).prop_map(move |c| {
        if bs {
            // Backslashes only as escape pairs in MySQL mode.
            quoted('\'', &c.replace('\\', "\\\\"))
        } else {
            quoted('\'', &c)
        }
    });
    let double = content(&[]).prop_map(move |c| {
        let c = if bs { c.replace('\\', "\\\\") } else { c };
        quoted('"', &c)
    });
    let backtick = content(&[]).prop_map(|c| quoted('`', &c));
    let bracket = content(&[]).prop_map(|c| format!("[{}]", c.replace(']', "")));
    let escaped = prop::collection::vec(
        prop::sample::select(vec!["a", ";", "\\'", "\\\\", "''", "\\;", "é"]),
        0..6,
    )
    .prop_map(|v| format!("E'{}'", v.concat()));
    let dollar = (prop::sample::select(vec!["", "t", "fn_1"]), content(&["$$", "$t$"])).prop_map(
        |(tag, c)| {
            let delim = format!("${tag}$");
            let mut c = c;
            while c.contains(&delim) {
                c = c.replace(&delim, "");
            }
            // A space keeps a `$` at the end of the content from joining
            // the closing tag.
            format!("{delim}{c} {delim}")
        },
    );
    // Words glued to quotes: only a whole word `E` makes an E-string, so
    // in standard mode each `\'` here ends its string. (In MySQL mode the
    // backslash escapes the quote, so these only make sense in standard.)
    let glued = prop::sample::select(if bs {
        vec!["xe'a'", "é'b'"]
    } else {
        vec!["xe'\\'", "1e'\\'", "$e'\\'", "a$b$'\\'", "é'\\'", "_E'\\'"]
    })
    .prop_map(str::to_owned);
    prop_oneof![
        4 => plain,
        1 => glued,
        2 => single,
        1 => double,
        1 => backtick,
        1 => bracket,
        1 => escaped,
        1 => dollar,
    ]
}

/// Whitespace or a comment, as found between tokens.
fn separator() -> impl Strategy<Value = String> {
    prop::sample::select(vec![" ", "\n", "\t ", " /* c;' */ ", " -- c;'$$\n", "\r\n"])
        .prop_map(str::to_owned)
}

fn tokens_joined(bs: bool, n: std::ops::Range<usize>) -> impl Strategy<Value = String> {
    prop::collection::vec((token(bs), separator()), n).prop_map(|v| {
        let mut s = String::new();
        for (i, (tok, sep)) in v.iter().enumerate() {
            if i > 0 {
                s.push_str(sep);
            }
            s.push_str(tok);
        }
        s
    })
}

fn statement(bs: bool) -> impl Strategy<Value = Expected> {
    let simple = (
        prop::sample::select(vec!["SELECT", "INSERT", "UPDATE", "CREATE TABLE", "x"]),
        separator(),
        tokens_joined(bs, 0..10),
    )
        .prop_map(|(kw, sep, rest)| Expected {
            text: if rest.is_empty() { kw.to_owned() } else { format!("{kw}{sep}{rest}") },
            copy_data: None,
            terminator: ";".into(),
        });
    let body_stmt = (tokens_joined(bs, 0..5), any::<bool>()).prop_map(|(t, case)| {
        if case {
            format!("UPDATE u SET a = CASE WHEN {t} THEN 1 END")
        } else {
            format!("SELECT 1 {t}")
        }
    });
    let trigger = (prop::collection::vec(body_stmt, 1..4), separator(), any::<bool>()).prop_map(
        |(body, sep, temp)| {
            let temp = if temp { "TEMP " } else { "" };
            let mut text = format!("CREATE {temp}TRIGGER tr AFTER INSERT ON t BEGIN");
            for s in body {
                text.push_str(&sep);
                text.push_str(&s);
                text.push(';');
            }
            text.push_str(&sep);
            text.push_str("END");
            Expected { text, copy_data: None, terminator: ";".into() }
        },
    );
    let copy = prop::collection::vec(
        content(&["\\.", "\t", "\\N"]).prop_map(|c| {
            // A line that is exactly `\.` would end the data early.
            let c = c.replace('\n', " ");
            if c == "\\." { "x".to_owned() } else { c }
        }),
        0..4,
    )
    .prop_map(|lines| {
        let data: String = lines.iter().map(|l| format!("{l}\n")).collect();
        Expected {
            text: "COPY t (a, b) FROM stdin".into(),
            terminator: format!(";\n{data}\\."),
            copy_data: Some(data),
        }
    });
    prop_oneof![6 => simple, 1 => trigger, 1 => copy]
}

/// What lies between statements: whitespace, comments, empty statements.
fn gap() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec![" ", "\n", ";", "-- c;'\n", "/* ;' */", "\t"]),
        0..4,
    )
    .prop_map(|v| v.concat())
}

#[derive(Debug)]
struct Script {
    bytes: String,
    expected: Vec<Statement>,
}

fn script(bs: bool) -> impl Strategy<Value = Script> {
    (gap(), prop::collection::vec((statement(bs), gap()), 0..8), any::<bool>()).prop_map(
        |(lead, stmts, open_end)| {
            let mut bytes = lead;
            let mut expected = Vec::new();
            let n = stmts.len();
            for (i, (st, mut gap)) in stmts.into_iter().enumerate() {
                let start = bytes.len() as u64;
                bytes.push_str(&st.text);
                // The last plain statement may end at EOF without `;`.
                let last_open = open_end && i + 1 == n && st.copy_data.is_none();
                if last_open {
                    gap = String::new();
                } else {
                    bytes.push_str(&st.terminator);
                }
                expected.push(Statement {
                    index: i as u64,
                    text: st.text,
                    start,
                    end: bytes.len() as u64,
                    copy_data: st.copy_data,
                });
                let is_copy = expected.last().is_some_and(|e: &Statement| e.copy_data.is_some());
                if is_copy && (i + 1 < n || !gap.is_empty()) {
                    // `\.` must be alone on its line (or at EOF).
                    bytes.push('\n');
                }
                bytes.push_str(&gap);
            }
            Script { bytes, expected }
        },
    )
}

fn split(bytes: &[u8], bs: bool, chunk: usize) -> Result<Vec<Statement>, String> {
    let opts = SplitterOptions { backslash_escapes: bs, chunk_size: chunk, ..Default::default() };
    Splitter::with_options(bytes, opts).collect::<Result<Vec<_>, _>>().map_err(|e| e.to_string())
}

fn check(s: &Script, bs: bool, chunks: &[usize]) -> Result<(), TestCaseError> {
    let whole = split(s.bytes.as_bytes(), bs, 1 << 20);
    prop_assert_eq!(whole.as_ref(), Ok(&s.expected), "script {:?}", s.bytes);
    for &chunk in chunks {
        let got = split(s.bytes.as_bytes(), bs, chunk);
        prop_assert_eq!(&got, &whole, "chunk size {}", chunk);
    }
    // Reconstruction: statements and the gaps between them tile the input,
    // and no gap holds a statement.
    let mut at = 0usize;
    let mut rebuilt = String::new();
    for st in &s.expected {
        let gap = &s.bytes[at..st.start as usize];
        prop_assert_eq!(split(gap.as_bytes(), bs, 1 << 20), Ok(vec![]), "gap {:?}", gap);
        rebuilt.push_str(gap);
        rebuilt.push_str(&s.bytes[st.start as usize..st.end as usize]);
        at = st.end as usize;
    }
    rebuilt.push_str(&s.bytes[at..]);
    prop_assert_eq!(&rebuilt, &s.bytes);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn standard_scripts_split_the_same_for_any_chunk_size(
        s in script(false),
        chunks in prop::collection::vec(1usize..64, 1..4),
    ) {
        check(&s, false, &chunks)?;
    }

    #[test]
    fn mysql_scripts_split_the_same_for_any_chunk_size(
        s in script(true),
        chunks in prop::collection::vec(1usize..64, 1..4),
    ) {
        check(&s, true, &chunks)?;
    }
}

/// Splits with every option fixed but the chunk size; errors compared by text.
fn split_any(bytes: &[u8], bs: bool, max: usize, chunk: usize) -> (Vec<Statement>, Option<String>) {
    let opts =
        SplitterOptions { backslash_escapes: bs, chunk_size: chunk, max_statement_size: max };
    let mut out = Vec::new();
    for s in Splitter::with_options(bytes, opts) {
        match s {
            Ok(s) => out.push(s),
            Err(e) => return (out, Some(e.to_string())),
        }
    }
    (out, None)
}

/// Byte soup: fragments that mean something to the lexer, invalid UTF-8
/// and keywords, in any order.
fn soup() -> impl Strategy<Value = Vec<u8>> {
    let pieces: Vec<&'static [u8]> = vec![
        b"'",
        b"\"",
        b"`",
        b"[",
        b"]",
        b"-",
        b"--",
        b"/",
        b"/*",
        b"*/",
        b"*",
        b"$",
        b"$t$",
        b"$$",
        b";",
        b"\\",
        b"\\.",
        b"\n",
        b"\r\n",
        b" ",
        b"e",
        b"E'",
        b"a",
        b"1",
        b"\xff",
        b"\xc3",
        b"\xa9",
        b"\xc3\xa9",
        b"COPY t FROM stdin",
        b"CREATE TRIGGER",
        b"BEGIN",
        b"END",
        b"CASE",
    ];
    prop::collection::vec(prop::sample::select(pieces), 0..40).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Whatever the input — unterminated quotes, invalid UTF-8, oversized
    /// statements, COPY without `\.` — the outcome (statements, then the
    /// error if any) does not depend on the chunk size, and nothing panics.
    #[test]
    fn any_bytes_split_the_same_for_any_chunk_size(
        bytes in soup(),
        bs in any::<bool>(),
        max in prop_oneof![Just(1usize << 20), 5usize..60],
        chunks in prop::collection::vec(1usize..16, 1..4),
    ) {
        let whole = split_any(&bytes, bs, max, 1 << 20);
        for &chunk in &chunks {
            let got = split_any(&bytes, bs, max, chunk);
            prop_assert_eq!(&got, &whole, "chunk size {} on {:?}", chunk, String::from_utf8_lossy(&bytes));
        }
        // Offsets are increasing and inside the input.
        let mut at = 0;
        for st in &whole.0 {
            prop_assert!(at <= st.start && st.start < st.end && st.end <= bytes.len() as u64);
            at = st.end;
        }
    }
}
