//! Runs sqllogictest scripts against an [`Engine`] and judges the results.
//!
//! The life of a script:
//! 1. [`Parser`] yields records; a malformed one is a failure and ends the
//!    file, as does `halt`.
//! 2. Records whose conditions exclude us are skipped. We take SQLite's
//!    branches: `onlyif sqlite` runs and `skipif sqlite` skips, any other
//!    engine name is "not us".
//! 3. `statement ok|error` passes when the engine's result agrees.
//! 4. `query` fails only when the engine cannot prepare it (an error while it
//!    runs just ends its rows, so the engine returns the rows it got). The
//!    values are rendered by declared type ([`render`]), sorted as the record
//!    asks, and compared: one value per expected line, or — past the hash
//!    threshold (default 8, `hash-threshold 0` = never) — as the line
//!    `N values hashing to MD5`, the MD5 of every value followed by `\n`.
//!    Queries sharing a label must hash the same.
//!
//! Where SQLite's harness is lax we are strict, so an engine cannot pass by
//! accident: a result with more or fewer values than expected lines fails
//! (the C harness compares only the common prefix), and so does a row whose
//! width differs from the type string.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use md5::{Digest, Md5};

use super::parser::{Condition, Parser, Query, RecordKind, SortMode};
use super::render::{SltValue, render};

/// The name we answer to in `skipif` / `onlyif`: we take SQLite's branches.
pub const ENGINE_NAME: &str = "sqlite";

/// Hash threshold in force until a `hash-threshold` record changes it.
pub const DEFAULT_HASH_THRESHOLD: usize = 8;

/// Failures kept per file for the report (all are counted).
const FAILURES_KEPT: usize = 5;

/// Values of a result shown in a failure message.
const VALUES_SHOWN: usize = 12;

/// The seam between the runner and a database engine. One engine instance
/// runs one file, starting from an empty database.
pub trait Engine {
    /// Runs the SQL of a `statement` record (it may hold several statements
    /// separated by `;`, as SQLite's harness runs it with `sqlite3_exec`).
    fn statement(&mut self, sql: &str) -> Result<(), String>;

    /// Runs a `query`. `Err` only if the query cannot be prepared; an error
    /// while it runs ends it and the rows obtained so far are returned.
    /// Each row holds one value per result column; the runner checks that
    /// against the record's type string (an empty result cannot be checked).
    fn query(&mut self, sql: &str) -> Result<Vec<Vec<SltValue>>, String>;
}

/// Why a record failed.
#[derive(Debug, Clone, PartialEq)]
pub enum FailureKind {
    /// The file cannot be parsed from here on.
    Parse(String),
    StatementFailed(String),
    StatementSucceeded,
    QueryFailed(String),
    WrongColumnCount {
        expected: usize,
        got: usize,
    },
    /// Rendered and sorted values, or the hash line, that differ.
    WrongResult {
        expected: Vec<String>,
        got: Vec<String>,
    },
    /// A labelled query hashed differently from an earlier one.
    LabelMismatch {
        label: String,
        first_line: usize,
    },
}

impl fmt::Display for FailureKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Parse(msg) => write!(f, "parse error: {msg}"),
            Self::StatementFailed(err) => write!(f, "statement failed: {err}"),
            Self::StatementSucceeded => {
                f.write_str("statement succeeded but an error was expected")
            }
            Self::QueryFailed(err) => write!(f, "query failed: {err}"),
            Self::WrongColumnCount { expected, got } => {
                write!(f, "wrong column count: expected {expected}, got {got}")
            }
            Self::WrongResult { expected, got } => {
                write!(
                    f,
                    "wrong result\n  expected: {}\n  got:      {}",
                    shown(expected),
                    shown(got)
                )
            }
            Self::LabelMismatch { label, first_line } => {
                write!(f, "result of label {label:?} differs from the one at line {first_line}")
            }
        }
    }
}

fn shown(values: &[String]) -> String {
    let mut s = values.iter().take(VALUES_SHOWN).cloned().collect::<Vec<_>>().join(" | ");
    if values.len() > VALUES_SHOWN {
        s.push_str(&format!(" | … ({} values)", values.len()));
    }
    if values.is_empty() { "(no values)".to_owned() } else { s }
}

/// A failed record.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    /// 1-based line of the record's first line after its conditions.
    pub line: usize,
    pub sql: String,
    pub kind: FailureKind,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}: {}\n  sql: {}",
            self.line,
            self.kind,
            self.sql.replace('\n', "\n       ")
        )
    }
}

/// What running one script produced.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Outcome {
    pub passed: usize,
    pub failed: usize,
    /// Statements and queries excluded by `skipif` / `onlyif`.
    pub skipped: usize,
    /// The first failures, at most [`FAILURES_KEPT`].
    pub failures: Vec<Failure>,
}

impl Outcome {
    fn fail(&mut self, line: usize, sql: &str, kind: FailureKind) {
        self.failed += 1;
        if self.failures.len() < FAILURES_KEPT {
            self.failures.push(Failure { line, sql: sql.to_owned(), kind });
        }
    }
}

/// Whether a record with these conditions is for us.
fn applies(conditions: &[Condition]) -> bool {
    conditions.iter().all(|c| match c {
        Condition::SkipIf(name) => !name.eq_ignore_ascii_case(ENGINE_NAME),
        Condition::OnlyIf(name) => name.eq_ignore_ascii_case(ENGINE_NAME),
    })
}

/// Runs a whole script on `engine`.
pub fn run_script(engine: &mut dyn Engine, script: &str) -> Outcome {
    let mut outcome = Outcome::default();
    let mut hash_threshold = DEFAULT_HASH_THRESHOLD;
    // label → (hash, line of the query that set it)
    let mut labels: HashMap<String, (String, usize)> = HashMap::new();
    for record in Parser::new(script) {
        let record = match record {
            Ok(record) => record,
            Err(err) => {
                outcome.fail(err.line, "", FailureKind::Parse(err.message));
                break;
            }
        };
        if !applies(&record.conditions) {
            if matches!(record.kind, RecordKind::Statement { .. } | RecordKind::Query(_)) {
                outcome.skipped += 1;
            }
            continue;
        }
        match record.kind {
            RecordKind::Halt => break,
            RecordKind::HashThreshold(n) => hash_threshold = n,
            RecordKind::Statement { expect_error, sql } => {
                match (engine.statement(&sql), expect_error) {
                    (Ok(()), false) | (Err(_), true) => outcome.passed += 1,
                    (Err(err), false) => {
                        outcome.fail(record.line, &sql, FailureKind::StatementFailed(err));
                    }
                    (Ok(()), true) => {
                        outcome.fail(record.line, &sql, FailureKind::StatementSucceeded)
                    }
                }
            }
            RecordKind::Query(query) => {
                let judged = judge_query(engine, &query, hash_threshold);
                let judged =
                    judged.and_then(|hash| check_label(&mut labels, &query, hash, record.line));
                match judged {
                    Ok(()) => outcome.passed += 1,
                    Err(kind) => outcome.fail(record.line, &query.sql, kind),
                }
            }
        }
    }
    outcome
}

/// Runs and compares one query; returns the hash of its values.
fn judge_query(
    engine: &mut dyn Engine,
    query: &Query,
    threshold: usize,
) -> Result<String, FailureKind> {
    let rows = engine.query(&query.sql).map_err(FailureKind::QueryFailed)?;
    let width = query.types.len();
    if let Some(row) = rows.iter().find(|row| row.len() != width) {
        return Err(FailureKind::WrongColumnCount { expected: width, got: row.len() });
    }
    let mut rendered: Vec<Vec<String>> = rows
        .iter()
        .map(|row| row.iter().zip(&query.types).map(|(v, &ty)| render(v, ty)).collect())
        .collect();
    let values: Vec<String> = match query.sort {
        SortMode::Keep => rendered.into_iter().flatten().collect(),
        SortMode::Rows => {
            rendered.sort();
            rendered.into_iter().flatten().collect()
        }
        SortMode::Values => {
            let mut values: Vec<String> = rendered.into_iter().flatten().collect();
            values.sort();
            values
        }
    };
    let hash = md5_of_values(&values);
    let got = if threshold > 0 && values.len() > threshold {
        vec![format!("{} values hashing to {hash}", values.len())]
    } else {
        values
    };
    if got == query.expected {
        Ok(hash)
    } else {
        Err(FailureKind::WrongResult { expected: query.expected.clone(), got })
    }
}

fn check_label(
    labels: &mut HashMap<String, (String, usize)>,
    query: &Query,
    hash: String,
    line: usize,
) -> Result<(), FailureKind> {
    let Some(label) = &query.label else { return Ok(()) };
    match labels.get(label) {
        Some((first, _)) if *first == hash => Ok(()),
        Some((_, first_line)) => {
            Err(FailureKind::LabelMismatch { label: label.clone(), first_line: *first_line })
        }
        None => {
            labels.insert(label.clone(), (hash, line));
            Ok(())
        }
    }
}

/// MD5 (lowercase hex) of every value followed by `\n`.
pub fn md5_of_values(values: &[String]) -> String {
    let mut hasher = Md5::new();
    for value in values {
        hasher.update(value.as_bytes());
        hasher.update(b"\n");
    }
    format!("{:x}", hasher.finalize())
}

/// The corpus directory: `$ASADB_SLT_DIR`, else `../shared/slt` beside the
/// repository (the layout of developer machines and CI alike).
pub fn slt_dir() -> PathBuf {
    match std::env::var_os("ASADB_SLT_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/slt"),
    }
}

/// Every `*.test` file under `dir`, sorted, so runs are reproducible.
pub fn test_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        for entry in std::fs::read_dir(&d)? {
            let path = entry?.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "test") {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
}

/// The outcome of one file of a run.
#[derive(Debug, Clone)]
pub struct FileOutcome {
    /// Path relative to the corpus directory.
    pub path: PathBuf,
    pub outcome: Outcome,
    pub elapsed: Duration,
}

/// The outcome of [`run_all`].
#[derive(Debug, Clone, Default)]
pub struct Summary {
    pub files: Vec<FileOutcome>,
}

impl Summary {
    pub fn passed(&self) -> usize {
        self.files.iter().map(|f| f.outcome.passed).sum()
    }

    pub fn failed(&self) -> usize {
        self.files.iter().map(|f| f.outcome.failed).sum()
    }

    pub fn skipped(&self) -> usize {
        self.files.iter().map(|f| f.outcome.skipped).sum()
    }
}

/// Runs every corpus file, each on a fresh engine from `engine_factory`, and
/// prints `<path>: N passed, N failed` per file (with its first failures)
/// and a closing `slt total: N passed, N failed`.
///
/// `ASADB_SLT_FILTER=substring` limits the run to matching paths.
///
/// This is the place to plug in another engine: the AsaDB test
/// (`slt_asadb`) is `run_all(|| AsaDbEngine::new())` plus its assertions.
///
/// Panics if the corpus cannot be read: a run over no files would prove
/// nothing.
pub fn run_all<E: Engine>(mut engine_factory: impl FnMut() -> E) -> Summary {
    let dir = slt_dir();
    let files = test_files(&dir)
        .unwrap_or_else(|e| panic!("cannot read the slt corpus at {}: {e}", dir.display()));
    let filter = std::env::var("ASADB_SLT_FILTER").unwrap_or_default();
    let mut summary = Summary::default();
    for path in files {
        let rel = path.strip_prefix(&dir).unwrap_or(&path).to_path_buf();
        if !rel.to_string_lossy().contains(&filter) {
            continue;
        }
        let script = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let start = Instant::now();
        let mut engine = engine_factory();
        let outcome = run_script(&mut engine, &script);
        let elapsed = start.elapsed();
        println!("{}: {} passed, {} failed", rel.display(), outcome.passed, outcome.failed);
        for failure in &outcome.failures {
            println!("  {}", failure.to_string().replace('\n', "\n  "));
        }
        summary.files.push(FileOutcome { path: rel, outcome, elapsed });
    }
    assert!(!summary.files.is_empty(), "no slt files under {} (filter {filter:?})", dir.display());
    println!("slt total: {} passed, {} failed", summary.passed(), summary.failed());
    summary
}

#[cfg(test)]
mod tests {
    use super::*;

    type Answer = Result<Vec<Vec<SltValue>>, String>;

    /// An engine that replays canned answers, to test the judging alone.
    struct Canned {
        answers: HashMap<&'static str, Answer>,
        statements: Vec<String>,
    }

    impl Canned {
        fn new(answers: Vec<(&'static str, Answer)>) -> Self {
            Self { answers: answers.into_iter().collect(), statements: Vec::new() }
        }
    }

    impl Engine for Canned {
        fn statement(&mut self, sql: &str) -> Result<(), String> {
            self.statements.push(sql.to_owned());
            if sql.starts_with("BAD") { Err("syntax error".into()) } else { Ok(()) }
        }

        fn query(&mut self, sql: &str) -> Result<Vec<Vec<SltValue>>, String> {
            self.answers.get(sql).cloned().unwrap_or_else(|| Err(format!("no answer for {sql}")))
        }
    }

    fn ints(rows: &[&[i64]]) -> Answer {
        Ok(rows.iter().map(|r| r.iter().map(|&i| SltValue::Integer(i)).collect()).collect())
    }

    #[test]
    fn md5_of_a_known_result() {
        // `printf '1\n2\n3\n' | md5sum`
        let values: Vec<String> = ["1", "2", "3"].map(String::from).into();
        assert_eq!(md5_of_values(&values), "c0710d6b4f15dfa88f600b0e6b624077");
        // The hash of no values is the MD5 of the empty string.
        assert_eq!(md5_of_values(&[]), "d41d8cd98f00b204e9800998ecf8427e");
    }

    #[test]
    fn statements_pass_on_the_expected_outcome() {
        let mut engine = Canned::new(vec![]);
        let script = "statement ok\nCREATE x\n\nstatement error\nBAD x\n\n\
                       statement ok\nBAD y\n\nstatement error\nCREATE y\n";
        let outcome = run_script(&mut engine, script);
        assert_eq!((outcome.passed, outcome.failed), (2, 2));
        assert_eq!(outcome.failures[0].line, 7);
        assert_eq!(outcome.failures[0].kind, FailureKind::StatementFailed("syntax error".into()));
        assert_eq!(outcome.failures[1].kind, FailureKind::StatementSucceeded);
    }

    #[test]
    fn rowsort_sorts_rows_by_rendered_strings() {
        // Sorted as strings, "10" comes before "9".
        let mut engine = Canned::new(vec![("q", ints(&[&[9, 1], &[10, 2], &[9, 0]]))]);
        let pass = "query II rowsort\nq\n----\n10\n2\n9\n0\n9\n1\n";
        assert_eq!(run_script(&mut engine, pass).passed, 1);
        let fail = "query II nosort\nq\n----\n10\n2\n9\n0\n9\n1\n";
        assert_eq!(run_script(&mut engine, fail).failed, 1);
    }

    #[test]
    fn valuesort_sorts_all_values() {
        let rows = Ok(vec![
            vec![SltValue::Text("b".into()), SltValue::Null],
            vec![SltValue::Text("a".into()), SltValue::Text(String::new())],
        ]);
        let mut engine = Canned::new(vec![("q", rows)]);
        let script = "query TT valuesort\nq\n----\n(empty)\nNULL\na\nb\n";
        let outcome = run_script(&mut engine, script);
        assert_eq!((outcome.passed, outcome.failed), (1, 0), "{:?}", outcome.failures);
    }

    #[test]
    fn results_past_the_threshold_compare_as_a_hash() {
        let mut engine = Canned::new(vec![("q", ints(&[&[3], &[1], &[2]]))]);
        let hash = "3 values hashing to c0710d6b4f15dfa88f600b0e6b624077";
        let script = format!("hash-threshold 2\n\nquery I valuesort\nq\n----\n{hash}\n");
        assert_eq!(run_script(&mut engine, &script).passed, 1);
        // Under the default threshold of 8 the same values are listed.
        let listed = "query I valuesort\nq\n----\n1\n2\n3\n";
        assert_eq!(run_script(&mut engine, listed).passed, 1);
        let outcome = run_script(&mut engine, &format!("query I valuesort\nq\n----\n{hash}\n"));
        assert_eq!(outcome.failed, 1);
        // Threshold 0 never hashes.
        let never = "hash-threshold 0\n\nquery I valuesort\nq\n----\n1\n2\n3\n";
        assert_eq!(run_script(&mut engine, never).passed, 1);
    }

    #[test]
    fn value_count_must_match_exactly() {
        let mut engine = Canned::new(vec![("q", ints(&[&[1], &[2]]))]);
        for expected in ["1", "1\n2\n3"] {
            let outcome =
                run_script(&mut engine, &format!("query I nosort\nq\n----\n{expected}\n"));
            assert_eq!(outcome.failed, 1, "{expected:?}");
        }
    }

    #[test]
    fn labels_must_agree_on_the_hash() {
        let mut engine = Canned::new(vec![
            ("a", ints(&[&[1], &[2]])),
            ("b", ints(&[&[2], &[1]])),
            ("c", ints(&[&[7]])),
        ]);
        let script = "query I rowsort L\na\n----\n1\n2\n\nquery I rowsort L\nb\n----\n1\n2\n\n\
                      query I nosort L\nc\n----\n7\n";
        let outcome = run_script(&mut engine, script);
        assert_eq!((outcome.passed, outcome.failed), (2, 1));
        assert_eq!(
            outcome.failures[0].kind,
            FailureKind::LabelMismatch { label: "L".into(), first_line: 1 }
        );
    }

    #[test]
    fn query_errors_and_wrong_widths_fail() {
        let mut engine = Canned::new(vec![("q", ints(&[&[1, 2]]))]);
        let outcome = run_script(&mut engine, "query I\nq\n----\n1\n\nquery I\nnope\n----\n");
        assert_eq!(outcome.failed, 2);
        assert_eq!(outcome.failures[0].kind, FailureKind::WrongColumnCount { expected: 1, got: 2 });
        assert!(matches!(outcome.failures[1].kind, FailureKind::QueryFailed(_)));
    }

    #[test]
    fn conditions_select_sqlite_branches_and_halt_stops() {
        let mut engine = Canned::new(vec![]);
        let script = "onlyif sqlite # only us\nstatement ok\nA\n\nskipif sqlite\nstatement ok\nB\n\n\
                      onlyif mysql\nstatement ok\nC\n\nskipif postgresql\nstatement ok\nD\n\n\
                      onlyif mysql\nhalt\n\nhalt\n\nstatement ok\nE\n";
        let outcome = run_script(&mut engine, script);
        assert_eq!(engine.statements, ["A", "D"]);
        // The skipped `halt` is not a test, so it is not counted.
        assert_eq!((outcome.passed, outcome.skipped), (2, 2));
    }

    #[test]
    fn a_parse_error_fails_and_ends_the_file() {
        let mut engine = Canned::new(vec![]);
        let outcome = run_script(&mut engine, "statement ok\nA\n\nfrobnicate\n\nstatement ok\nB\n");
        assert_eq!((outcome.passed, outcome.failed), (1, 1));
        assert_eq!(outcome.failures[0].line, 4);
        assert_eq!(engine.statements, ["A"]);
    }
}
