//! Parser of sqllogictest scripts, reading them the way SQLite's harness does.
//!
//! A script is a sequence of records separated by blank lines (a line of only
//! whitespace is blank; a trailing `\r` is dropped). A line whose first
//! character is `#` is a comment and is skipped wherever it appears: it does
//! not end a record. A record may start with any number of `skipif NAME` /
//! `onlyif NAME` lines (further tokens, such as `# comment`, are ignored),
//! followed by one of:
//!
//! - `statement ok|error`, then the SQL (all remaining lines, joined by `\n`);
//! - `query TYPES [nosort|rowsort|valuesort] [LABEL]`, the SQL up to a `----`
//!   line, then the expected lines (one value per line, or a single
//!   `N values hashing to MD5` line); without `----` nothing is expected;
//! - `hash-threshold N`;
//! - `halt`.
//!
//! The parser yields records lazily; a malformed record is a [`ParseError`],
//! after which the runner stops reading the file (as SQLite's harness does).

use std::fmt;

use super::render::ColumnType;

/// How many characters of a label SQLite's harness keeps as its key.
const LABEL_KEY_LEN: usize = 20;

/// A `skipif` / `onlyif` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Condition {
    SkipIf(String),
    OnlyIf(String),
}

/// Order in which a query's values are compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortMode {
    /// `nosort`: values in the order the engine returned them.
    Keep,
    /// `rowsort`: rows sorted by their rendered values, column by column.
    Rows,
    /// `valuesort`: all values sorted individually.
    Values,
}

/// A `query` record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    pub types: Vec<ColumnType>,
    pub sort: SortMode,
    /// Queries sharing a label must produce the same result hash.
    pub label: Option<String>,
    pub sql: String,
    /// The lines after `----`, verbatim.
    pub expected: Vec<String>,
}

/// What a record asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordKind {
    Statement { expect_error: bool, sql: String },
    Query(Query),
    HashThreshold(usize),
    Halt,
}

/// One record and the 1-based line number of its first (non-condition) line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub line: usize,
    pub conditions: Vec<Condition>,
    pub kind: RecordKind,
}

/// A record the parser cannot read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ParseError {}

/// Iterator over the records of a script.
pub struct Parser<'a> {
    /// (line number, content) of every non-comment line, `\r` stripped and
    /// whitespace-only lines made empty.
    lines: Vec<(usize, &'a str)>,
    pos: usize,
}

impl<'a> Parser<'a> {
    pub fn new(script: &'a str) -> Self {
        let lines = script
            .split('\n')
            .enumerate()
            .map(|(i, line)| {
                let line = line.strip_suffix('\r').unwrap_or(line);
                let line = if line.trim().is_empty() { "" } else { line };
                (i + 1, line)
            })
            .filter(|(_, line)| !line.starts_with('#'))
            .collect();
        Self { lines, pos: 0 }
    }

    /// The lines of the next record, or `None` at the end of the script.
    fn next_block(&mut self) -> Option<&[(usize, &'a str)]> {
        while self.lines.get(self.pos).is_some_and(|(_, l)| l.is_empty()) {
            self.pos += 1;
        }
        let start = self.pos;
        while self.lines.get(self.pos).is_some_and(|(_, l)| !l.is_empty()) {
            self.pos += 1;
        }
        (self.pos > start).then(|| &self.lines[start..self.pos])
    }
}

impl Iterator for Parser<'_> {
    type Item = Result<Record, ParseError>;

    fn next(&mut self) -> Option<Self::Item> {
        let block = self.next_block()?;
        Some(parse_record(block))
    }
}

fn parse_record(block: &[(usize, &str)]) -> Result<Record, ParseError> {
    let mut conditions = Vec::new();
    let mut rest = block;
    loop {
        let Some(&(line, text)) = rest.first() else {
            let line = block.last().map_or(0, |(n, _)| n + 1);
            return Err(ParseError { line, message: "record has conditions only".into() });
        };
        let err = |message: String| ParseError { line, message };
        let tokens: Vec<&str> = text.split_whitespace().collect();
        let body = &rest[1..];
        let sql = || body.iter().map(|(_, l)| *l).collect::<Vec<_>>().join("\n");
        let kind = match tokens[..] {
            ["skipif" | "onlyif", name, ..] => {
                let name = name.to_owned();
                conditions.push(if tokens[0] == "skipif" {
                    Condition::SkipIf(name)
                } else {
                    Condition::OnlyIf(name)
                });
                rest = body;
                continue;
            }
            ["statement", expect, ..] => {
                let expect_error = match expect {
                    "ok" => false,
                    "error" => true,
                    other => {
                        return Err(err(format!("statement expects ok or error, not {other:?}")));
                    }
                };
                if body.is_empty() {
                    return Err(err("statement without SQL".into()));
                }
                RecordKind::Statement { expect_error, sql: sql() }
            }
            ["query", types, ref options @ ..] => {
                RecordKind::Query(parse_query(types, options, body).map_err(err)?)
            }
            ["hash-threshold", n, ..] => RecordKind::HashThreshold(
                n.parse().map_err(|_| err(format!("bad hash threshold {n:?}")))?,
            ),
            ["halt", ..] => RecordKind::Halt,
            _ => return Err(err(format!("unknown record: {text:?}"))),
        };
        return Ok(Record { line, conditions, kind });
    }
}

fn parse_query(types: &str, options: &[&str], body: &[(usize, &str)]) -> Result<Query, String> {
    let types = types
        .chars()
        .map(|c| ColumnType::from_letter(c).ok_or_else(|| format!("unknown column type {c:?}")))
        .collect::<Result<Vec<_>, _>>()?;
    let sort = match options.first() {
        None | Some(&"nosort") => SortMode::Keep,
        Some(&"rowsort") => SortMode::Rows,
        Some(&"valuesort") => SortMode::Values,
        Some(other) => return Err(format!("unknown sort mode {other:?}")),
    };
    let label = options.get(1).map(|l| l.chars().take(LABEL_KEY_LEN).collect());
    let split = body.iter().position(|(_, l)| *l == "----").unwrap_or(body.len());
    let sql: Vec<&str> = body[..split].iter().map(|(_, l)| *l).collect();
    if sql.is_empty() {
        return Err("query without SQL".into());
    }
    let expected = body.get(split + 1..).unwrap_or_default().iter().map(|(_, l)| (*l).to_owned());
    Ok(Query { types, sort, label, sql: sql.join("\n"), expected: expected.collect() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(script: &str) -> Vec<Record> {
        Parser::new(script).collect::<Result<_, _>>().expect("script parses")
    }

    #[test]
    fn parses_statements_queries_and_control_records() {
        let script = "\
# a comment before anything
statement ok\r
CREATE TABLE t1(a INTEGER,\r
  b TEXT)\r
   \t
hash-threshold 3

statement error
DROP TABLE nope

query IT rowsort lbl-1
SELECT a,
# a comment inside a record does not end it
  b FROM t1
----
1
x

halt
";
        let records = parse(script);
        assert_eq!(records.len(), 5);
        assert_eq!(records[0].line, 2);
        assert_eq!(
            records[0].kind,
            RecordKind::Statement {
                expect_error: false,
                sql: "CREATE TABLE t1(a INTEGER,\n  b TEXT)".into()
            }
        );
        assert_eq!(records[1].kind, RecordKind::HashThreshold(3));
        assert_eq!(
            records[2].kind,
            RecordKind::Statement { expect_error: true, sql: "DROP TABLE nope".into() }
        );
        assert_eq!(records[3].line, 11);
        assert_eq!(
            records[3].kind,
            RecordKind::Query(Query {
                types: vec![ColumnType::Integer, ColumnType::Text],
                sort: SortMode::Rows,
                label: Some("lbl-1".into()),
                sql: "SELECT a,\n  b FROM t1".into(),
                expected: vec!["1".into(), "x".into()],
            })
        );
        assert_eq!(records[4].kind, RecordKind::Halt);
    }

    #[test]
    fn conditions_keep_only_the_engine_name() {
        let records =
            parse("skipif mysql # empty RHS\nonlyif sqlite\nquery I\nSELECT 1\n----\n1\n");
        assert_eq!(records[0].line, 3);
        assert_eq!(
            records[0].conditions,
            vec![Condition::SkipIf("mysql".into()), Condition::OnlyIf("sqlite".into())]
        );
    }

    #[test]
    fn query_defaults_and_missing_results() {
        let records = parse("query R\nSELECT 1.5\n\nquery T valuesort\nSELECT 'a'\n----\n");
        let RecordKind::Query(q) = &records[0].kind else { panic!("not a query") };
        assert_eq!((q.sort, q.label.as_deref(), q.expected.len()), (SortMode::Keep, None, 0));
        let RecordKind::Query(q) = &records[1].kind else { panic!("not a query") };
        assert_eq!((q.sort, q.expected.len()), (SortMode::Values, 0));
    }

    #[test]
    fn long_labels_are_cut_to_the_harness_key_length() {
        let records = parse("query I nosort abcdefghijklmnopqrstuvwxyz\nSELECT 1\n");
        let RecordKind::Query(q) = &records[0].kind else { panic!("not a query") };
        assert_eq!(q.label.as_deref(), Some("abcdefghijklmnopqrst"));
    }

    #[test]
    fn malformed_records_are_errors_with_their_line() {
        let cases = [
            ("statement maybe\nSELECT 1\n", 1, "statement expects"),
            ("\n\nquery IX\nSELECT 1\n", 3, "unknown column type"),
            ("query I shuffle\nSELECT 1\n", 1, "unknown sort mode"),
            ("query I\n----\n1\n", 1, "query without SQL"),
            ("statement ok\n", 1, "statement without SQL"),
            ("hash-threshold many\n", 1, "bad hash threshold"),
            ("onlyif sqlite\n\nquery I\nSELECT 1\n", 2, "conditions only"),
            ("selekt 1\n", 1, "unknown record"),
        ];
        for (script, line, message) in cases {
            let err = Parser::new(script).next().expect("one record").expect_err(script);
            assert_eq!(err.line, line, "{script:?}");
            assert!(err.message.contains(message), "{script:?}: {}", err.message);
        }
    }
}
