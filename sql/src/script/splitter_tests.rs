//! Unit tests of the splitter. Every case runs with chunk sizes 1..=7 and
//! one large chunk, and the results must agree: chunk boundaries must never
//! change where statements split.

use std::io::Read;

use super::{Splitter, SplitterOptions, Statement};
use crate::Error;

/// Splits `text` with many chunk sizes; asserts that all agree and returns
/// the statements, or the error message (also identical for all sizes).
fn split_with(text: &[u8], backslash: bool) -> Result<Vec<Statement>, String> {
    let run = |chunk: usize| -> Result<Vec<Statement>, String> {
        let opts = SplitterOptions {
            backslash_escapes: backslash,
            chunk_size: chunk,
            ..Default::default()
        };
        let mut out = Vec::new();
        for s in Splitter::with_options(text, opts) {
            match s {
                Ok(s) => out.push(s),
                Err(e) => return Err(format!("{e} [{out:?}]")),
            }
        }
        Ok(out)
    };
    let whole = run(1 << 20);
    for chunk in 1..=7 {
        assert_eq!(
            run(chunk),
            whole,
            "chunk size {chunk} differs on {:?}",
            String::from_utf8_lossy(text)
        );
    }
    whole
}

fn texts(text: &str) -> Vec<String> {
    split_with(text.as_bytes(), false).unwrap().into_iter().map(|s| s.text).collect()
}

fn texts_bs(text: &str) -> Vec<String> {
    split_with(text.as_bytes(), true).unwrap().into_iter().map(|s| s.text).collect()
}

fn err(text: &[u8]) -> String {
    split_with(text, false).unwrap_err()
}

#[test]
fn splits_simple_statements_with_offsets() {
    let script = "  SELECT 1;\n\tSELECT 2 ;  ";
    let stmts = split_with(script.as_bytes(), false).unwrap();
    assert_eq!(stmts.len(), 2);
    assert_eq!(
        (stmts[0].index, stmts[0].text.as_str(), stmts[0].start, stmts[0].end),
        (0, "SELECT 1", 2, 11)
    );
    assert_eq!(
        (stmts[1].index, stmts[1].text.as_str(), stmts[1].start, stmts[1].end),
        (1, "SELECT 2", 13, 23)
    );
    assert_eq!(&script[13..23], "SELECT 2 ;");
    assert!(stmts.iter().all(|s| s.copy_data.is_none()));
}

#[test]
fn skips_empty_and_comment_only_statements() {
    assert_eq!(texts(";;  ; -- only a comment;\n; /* ; */ ;SELECT 1;;"), ["SELECT 1"]);
    assert!(texts("").is_empty());
    assert!(texts("  \n -- x").is_empty());
    assert!(texts("/* a */ /* b */").is_empty());
}

#[test]
fn leading_comments_lie_between_statements_inner_ones_are_kept() {
    let stmts = split_with(b"-- head;\n/* c; */ SELECT /* ; */ 1 -- t;\n;", false).unwrap();
    assert_eq!(stmts.len(), 1);
    assert_eq!(stmts[0].text, "SELECT /* ; */ 1 -- t;");
    assert_eq!(stmts[0].start, 18);
}

#[test]
fn final_statement_without_semicolon_is_returned() {
    let stmts = split_with(b"SELECT 1; SELECT 2 \n", false).unwrap();
    assert_eq!(stmts[1].text, "SELECT 2");
    assert_eq!((stmts[1].start, stmts[1].end), (10, 20));
    assert_eq!(texts("SELECT 'a' -- done"), ["SELECT 'a' -- done"]);
}

#[test]
fn semicolons_inside_quotes_do_not_split() {
    assert_eq!(
        texts("INSERT INTO t VALUES ('a;b', 'it''s;', \"c;\"\"d\", `e;``f`, [g;h]); SELECT 2"),
        ["INSERT INTO t VALUES ('a;b', 'it''s;', \"c;\"\"d\", `e;``f`, [g;h])", "SELECT 2"]
    );
    // Adjacent quotes: `''` is an escaped quote, not two strings.
    assert_eq!(texts("SELECT '';SELECT ''';';"), ["SELECT ''", "SELECT ''';'"]);
}

#[test]
fn backslash_is_ordinary_in_standard_mode_and_escapes_in_mysql_mode() {
    // Standard: 'a\' is a complete string, so the ; after it splits.
    assert_eq!(texts("SELECT 'a\\'; SELECT 'b'"), ["SELECT 'a\\'", "SELECT 'b'"]);
    // MySQL: \' does not close; \\ is one backslash.
    assert_eq!(
        texts_bs("SELECT 'a\\'; b'; SELECT 'c\\\\'; SELECT 1"),
        ["SELECT 'a\\'; b'", "SELECT 'c\\\\'", "SELECT 1"]
    );
    assert_eq!(texts_bs("SELECT \"x\\\";\"; SELECT 1"), ["SELECT \"x\\\";\"", "SELECT 1"]);
}

#[test]
fn e_strings_use_backslash_escapes_in_standard_mode() {
    assert_eq!(texts("SELECT E'a\\';b'; SELECT 1"), ["SELECT E'a\\';b'", "SELECT 1"]);
    assert_eq!(texts("SELECT e'x\\\\'; SELECT 1"), ["SELECT e'x\\\\'", "SELECT 1"]);
    // `E` that is part of a longer word is not a prefix.
    assert_eq!(texts("SELECT ee'a\\'; SELECT 1"), ["SELECT ee'a\\'", "SELECT 1"]);
    // Doubled quote inside an E-string keeps it an E-string.
    assert_eq!(texts("SELECT E'a''\\';'; SELECT 1"), ["SELECT E'a''\\';'", "SELECT 1"]);
}

#[test]
fn dollar_quotes() {
    assert_eq!(
        texts("CREATE FUNCTION f() AS $$ SELECT 1; $$; SELECT $fn$ a;$$;$ $fn$; SELECT 2"),
        ["CREATE FUNCTION f() AS $$ SELECT 1; $$", "SELECT $fn$ a;$$;$ $fn$", "SELECT 2"]
    );
    // Parameters and identifiers with `$` are not quotes.
    assert_eq!(
        texts("SELECT $1; SELECT a$b$, $x; SELECT 3"),
        ["SELECT $1", "SELECT a$b$, $x", "SELECT 3"]
    );
    assert_eq!(texts("SELECT $t$ $T$; $t$;"), ["SELECT $t$ $T$; $t$"]);
}

#[test]
fn trigger_bodies_keep_their_semicolons() {
    let script = "CREATE TRIGGER tr AFTER INSERT ON t BEGIN\n  UPDATE u SET x = CASE WHEN new.a THEN 1 ELSE 2 END;\n  INSERT INTO log VALUES ('end;');\nEND;\nSELECT 1;";
    let t = texts(script);
    assert_eq!(t.len(), 2, "{t:?}");
    assert!(t[0].starts_with("CREATE TRIGGER") && t[0].ends_with("END"));
    assert_eq!(t[1], "SELECT 1");
    // TEMP trigger, lower case, comments between ; and END.
    let t =
        texts("create temp trigger x before delete on t begin select 1; /* ; */ end ; select 2");
    assert_eq!(
        t,
        ["create temp trigger x before delete on t begin select 1; /* ; */ end", "select 2"]
    );
    // `END IF;` inside a body does not end it; `END;` after a `;` does.
    let t = texts(
        "CREATE TRIGGER x BEFORE INSERT ON t FOR EACH ROW BEGIN IF 1 THEN SET @a = 1; END IF; END; SELECT 3",
    );
    assert_eq!(t.len(), 2, "{t:?}");
    // A PostgreSQL trigger has no body: it ends at its first `;`.
    let t =
        texts("CREATE TRIGGER x AFTER INSERT ON t FOR EACH ROW EXECUTE FUNCTION f(); SELECT 4;");
    assert_eq!(
        t,
        ["CREATE TRIGGER x AFTER INSERT ON t FOR EACH ROW EXECUTE FUNCTION f()", "SELECT 4"]
    );
    // Quoted "END" is not the keyword.
    let t = texts("CREATE TRIGGER x AFTER INSERT ON t BEGIN SELECT 1; \"END\"; END; SELECT 5");
    assert_eq!(t.len(), 2, "{t:?}");
    // Not a trigger: `CREATE TABLE trigger_log` and a column named begin.
    assert_eq!(
        texts("CREATE TABLE trigger (begin); SELECT 6"),
        ["CREATE TABLE trigger (begin)", "SELECT 6"]
    );
}

#[test]
fn copy_from_stdin_carries_its_data() {
    let script = "COPY public.t (a, b) FROM stdin;\n1\t'x;y\n2\t\\N\n\\.\nSELECT 1;";
    let stmts = split_with(script.as_bytes(), false).unwrap();
    assert_eq!(stmts.len(), 2);
    assert_eq!(stmts[0].text, "COPY public.t (a, b) FROM stdin");
    assert_eq!(stmts[0].copy_data.as_deref(), Some("1\t'x;y\n2\t\\N\n"));
    assert_eq!(
        &script[stmts[0].start as usize..stmts[0].end as usize],
        &script[..script.find("\\.").unwrap() + 2]
    );
    assert_eq!(stmts[1].text, "SELECT 1");
    // Empty data, CRLF, and `\.` at EOF.
    let stmts =
        split_with(b"copy t from STDIN;\r\n\\.\r\ncopy t from stdin;\nz\n\\.", false).unwrap();
    assert_eq!(stmts[0].copy_data.as_deref(), Some(""));
    assert_eq!(stmts[1].copy_data.as_deref(), Some("z\n"));
    // A data line that starts with `\.` but has more is data.
    let stmts = split_with(b"COPY t FROM stdin;\n\\.x\n\\.\n", false).unwrap();
    assert_eq!(stmts[0].copy_data.as_deref(), Some("\\.x\n"));
    // COPY to a file, or from a file, has no data.
    assert_eq!(
        texts("COPY t TO STDOUT; COPY t FROM '/tmp/x'; SELECT 1"),
        ["COPY t TO STDOUT", "COPY t FROM '/tmp/x'", "SELECT 1"]
    );
}

#[test]
fn copy_without_terminator_is_an_error() {
    let e = err(b"SELECT 0; COPY t FROM stdin;\n1\n2\n");
    assert!(e.contains("statement 1") && e.contains("\\."), "{e}");
}

#[test]
fn unterminated_tokens_are_errors_with_the_statement_index() {
    for (script, what) in [
        (&b"SELECT 1; SELECT 'abc"[..], "string literal"),
        (b"SELECT 1; SELECT \"abc", "quoted identifier"),
        (b"SELECT 1; SELECT [abc", "quoted identifier"),
        (b"SELECT 1; SELECT 1 /* abc *", "block comment"),
        (b"SELECT 1; SELECT $q$ abc $q", "dollar-quoted string"),
        (b"SELECT 1; /* x", "block comment"),
    ] {
        let e = err(script);
        assert!(e.contains(what) && e.contains("statement 1"), "{e}");
    }
    // The statement before the error is still returned.
    let mut it = Splitter::new(&b"SELECT 1; SELECT 'x"[..]);
    assert_eq!(it.next().unwrap().unwrap().text, "SELECT 1");
    assert!(matches!(it.next(), Some(Err(Error::Parse(_)))));
    assert!(it.next().is_none(), "the iterator ends after an error");
}

#[test]
fn invalid_utf8_names_the_byte_offset() {
    let mut script = b"SELECT 1; SELECT '".to_vec();
    script.push(0xff);
    script.extend_from_slice(b"';");
    let e = err(&script);
    assert!(e.contains("invalid UTF-8 at byte offset 18 (statement 1)"), "{e}");
    assert!(e.contains("SELECT 1"), "earlier statements come first: {e}");
    // A multi-byte character split across chunks is fine; a truncated one
    // at EOF is not.
    assert_eq!(texts("SELECT 'é€😀'; SELECT 2"), ["SELECT 'é€😀'", "SELECT 2"]);
    let e = err("SELECT 'é".as_bytes().split_last().unwrap().1);
    assert!(e.contains("invalid UTF-8 at byte offset 8"), "{e}");
}

#[test]
fn oversized_statement_is_too_large_without_reading_it_all() {
    /// A reader of one endless statement that counts what it gave out.
    struct Endless(u64);
    impl Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let start = b"INSERT INTO t VALUES ";
            let n = buf.len().min(1000);
            for (i, b) in buf[..n].iter_mut().enumerate() {
                let at = self.0 as usize + i;
                *b = if at < start.len() { start[at] } else { b'1' };
            }
            self.0 += n as u64;
            Ok(n)
        }
    }
    let opts =
        SplitterOptions { chunk_size: 4096, max_statement_size: 100_000, ..Default::default() };
    let mut reader = Endless(0);
    let mut it = Splitter::with_options(&mut reader, opts);
    match it.next() {
        Some(Err(Error::TooLarge(m))) => assert!(m.contains("statement 0"), "{m}"),
        other => panic!("expected TooLarge, got {other:?}"),
    }
    drop(it);
    assert!(reader.0 <= 100_000 + 4096 + 1000, "read {} bytes", reader.0);

    // The limit is on the statement, whatever the chunk size.
    let script = b"SELECT 1; SELECT 12345678; SELECT 2;";
    for chunk in 1..=8 {
        let opts =
            SplitterOptions { chunk_size: chunk, max_statement_size: 12, ..Default::default() };
        let got: Vec<_> = Splitter::with_options(&script[..], opts).collect();
        assert_eq!(got.len(), 2, "chunk {chunk}");
        assert_eq!(got[0].as_ref().unwrap().text, "SELECT 1");
        assert!(matches!(&got[1], Err(Error::TooLarge(m)) if m.contains("statement 1")));
    }
}

#[test]
fn bytes_consumed_tracks_progress() {
    let script = b"SELECT 1;  SELECT 2;  \n";
    let mut it = Splitter::new(&script[..]);
    assert_eq!(it.bytes_consumed(), 0);
    it.next().unwrap().unwrap();
    assert_eq!(it.bytes_consumed(), 9);
    assert_eq!(it.next_index(), 1);
    it.next().unwrap().unwrap();
    assert_eq!(it.bytes_consumed(), 20);
    assert!(it.next().is_none());
    assert_eq!(it.bytes_consumed(), script.len() as u64);
}

#[test]
fn read_errors_keep_their_kind() {
    struct Broken;
    impl Read for Broken {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::new(std::io::ErrorKind::ConnectionReset, "gone"))
        }
    }
    match Splitter::new(Broken).next() {
        Some(Err(Error::Io(e))) => assert_eq!(e.kind(), std::io::ErrorKind::ConnectionReset),
        other => panic!("expected Io, got {other:?}"),
    }
}

#[test]
fn minus_and_slash_that_are_not_comments() {
    assert_eq!(texts("SELECT 4-2; SELECT 4/2;-1;/2"), ["SELECT 4-2", "SELECT 4/2", "-1", "/2"]);
}

/// A reader that says `WouldBlock` before every byte it gives, as an
/// async producer with nothing buffered yet would.
struct Trickle<'a> {
    data: &'a [u8],
    ready: bool,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.data.is_empty() {
            return Ok(0);
        }
        if !std::mem::replace(&mut self.ready, false) {
            return Err(std::io::ErrorKind::WouldBlock.into());
        }
        buf[0] = self.data[0];
        self.data = &self.data[1..];
        Ok(1)
    }
}

#[test]
fn would_block_resumes_with_the_same_statements() {
    let script = "CREATE TABLE t(a);\n-- note; here\nINSERT INTO t VALUES ('x;y''z'), ($q$;$q$);\n\
                  COPY t (a) FROM stdin;\n1\n2\n\\.\nSELECT 'é' /* ; */;\nSELECT 2";
    let expected: Vec<Statement> =
        Splitter::new(script.as_bytes()).collect::<Result<_, _>>().unwrap();
    let mut it = Splitter::new(Trickle { data: script.as_bytes(), ready: false });
    let (mut got, mut blocked) = (Vec::new(), 0);
    while let Some(next) = it.next() {
        match next {
            Ok(s) => got.push(s),
            Err(Error::Io(e)) if e.kind() == std::io::ErrorKind::WouldBlock => {
                blocked += 1;
                // The producer fetched more: the next read gives a byte.
                it.reader_mut().ready = true;
            }
            Err(e) => panic!("{e}"),
        }
    }
    assert_eq!(got, expected);
    assert!(blocked > script.len() / 2, "the reader blocked {blocked} times");
    assert_eq!(it.bytes_consumed(), script.len() as u64);
}
