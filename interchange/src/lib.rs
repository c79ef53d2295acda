//! Interchange: the formats AsaDB imports and exports.
//!
//! Imports. Each format is a *dialect reader*: it reads a spooled body
//! (any `Read + Seek`, in practice the Reservoir's spool file) chunk by
//! chunk and yields [`Unit`]s — SQL text our engine runs, or batches of
//! rows for one table ([`RowBatch`], run through the engine's literal
//! insert path). The Reservoir's worker runs the units exactly as it runs
//! a script's statements, so batching, stop-on-error, progress,
//! cancellation and resume are the worker's, never re-implemented here.
//!
//! The life of an import:
//! 1. [`ImportOptions::validate`] refuses impossible combinations before
//!    the body is read (a CSV delimiter for a dump, a sheet for a CSV …).
//! 2. When the format is not given, [`detect`] picks it from the first
//!    bytes and the original file name.
//! 3. [`open`] builds the reader: CSV sniffs its dialect and column types
//!    from a sample ([`csv`]), XLSX opens the workbook ([`xlsx`]), dumps
//!    pre-scan the body for what pg_dump writes after the data ([`dump`]).
//! 4. [`Reader::next_unit`] yields units until the body ends; an error
//!    names the line of the source it is about.
//! 5. [`Reader::report`] says what was detected and what was skipped:
//!    every statement kind a dump reader does not run is counted, with the
//!    line of its first occurrence.
//!
//! Determinism is the resume rule: for the same bytes, options and
//! target-table shape, a reader yields the same units in the same order.
//! The worker's durable marker counts units, so resuming an interrupted
//! import replays the reader and skips the units already committed — each
//! unit runs exactly once. Nothing a reader decides depends on what the
//! units before it did to the database.
//!
//! Exports ([`export`]) turn rows back into CSV, TSV, JSON lines, SQL
//! INSERTs and whole-database dumps that the `sqlite3` CLI loads.

pub mod csv;
pub mod detect;
pub mod dump;
mod error;
pub mod export;
mod options;
mod report;
mod text;
pub mod xlsx;

use std::io::{Read, Seek};

pub use asadb_sql::script::{Conflict, InsertValues};
pub use detect::detect;
pub use error::{Error, Result};
pub use options::{
    CsvOptions, Escape, ImportOptions, Quote, Ragged, Sheet, XlsxOptions, parse_char_option,
};
pub use report::{Report, Skipped};

/// Rows per [`RowBatch`]: large enough that per-unit costs (a savepoint,
/// a progress update) vanish, small enough to stay a few hundred KiB.
pub const BATCH_ROWS: usize = 1000;
/// Source bytes per [`RowBatch`] at most (a batch of wide rows ends early).
pub const BATCH_BYTES: usize = 1 << 20;

/// An import format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// A plain SQL script in our dialect.
    Sql,
    /// A `sqlite3 .dump`: SQL our engine runs as it is.
    Sqlite,
    /// A mysqldump / mariadb-dump script.
    Mysql,
    /// A pg_dump plain-format script.
    Postgresql,
    /// Delimited text.
    Csv,
    /// An Office Open XML workbook.
    Xlsx,
}

impl Format {
    /// The lowercase name used in headers and JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Sql => "sql",
            Format::Sqlite => "sqlite",
            Format::Mysql => "mysql",
            Format::Postgresql => "postgresql",
            Format::Csv => "csv",
            Format::Xlsx => "xlsx",
        }
    }

    /// True for the formats that are SQL text run as it is (the worker's
    /// script path: the splitter, the script's own transactions).
    pub fn is_plain_sql(self) -> bool {
        matches!(self, Format::Sql | Format::Sqlite)
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whether an import replaces its target table's rows or adds to them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    #[default]
    Append,
    /// The table's rows are deleted, in the job's transaction chain,
    /// before the first row is written.
    Replace,
}

/// What to import: the format (already detected), where it goes and how.
#[derive(Clone, Debug)]
pub struct Spec {
    pub format: Format,
    /// The file name the client gave (a CSV's table is named after it
    /// when no target is given).
    pub original_name: Option<String>,
    pub target_table: Option<String>,
    pub mode: Mode,
    pub options: ImportOptions,
}

/// One piece of work for the worker.
#[derive(Clone, Debug)]
pub struct Unit {
    pub body: Body,
    /// 1-based line of the source where the unit starts (0: no lines,
    /// e.g. a workbook; then `row` numbers are used in messages).
    pub line: u64,
    /// Byte offset in the source where the unit starts.
    pub start: u64,
    /// Byte offset in the source just past the unit.
    pub end: u64,
}

/// What a unit does.
#[derive(Clone, Debug)]
pub enum Body {
    /// One SQL statement in our dialect.
    Sql(String),
    /// Rows for one table.
    Rows(RowBatch),
}

/// Rows for one table, with where each came from.
#[derive(Clone, Debug)]
pub struct RowBatch {
    pub insert: InsertValues,
    /// The source line (or sheet row) of each row, for error messages.
    pub lines: Vec<u64>,
}

impl RowBatch {
    /// `INSERT INTO t (N rows, lines a-b)`; `line_based`: false for
    /// sources without lines (workbooks count rows).
    pub fn describe(&self, line_based: bool) -> String {
        let first = self.lines.first().copied().unwrap_or(0);
        let last = self.lines.last().copied().unwrap_or(0);
        format!(
            "INSERT INTO {} ({} rows, {} {first}-{last})",
            self.insert.table,
            self.lines.len(),
            if line_based { "lines" } else { "rows" },
        )
    }
}

impl Unit {
    /// A short description for summaries and error excerpts.
    pub fn excerpt(&self, max_chars: usize) -> String {
        match &self.body {
            Body::Sql(sql) => sql.chars().take(max_chars).collect(),
            Body::Rows(b) => b.describe(self.line != 0),
        }
    }
}

/// An import in progress: units out, a report at any time.
pub trait Reader {
    /// The next unit, `None` at the end of the body.
    fn next_unit(&mut self) -> Option<Result<Unit>>;
    /// What was detected and skipped so far.
    fn report(&self) -> Report;
}

/// A source the readers can read twice (sniffing and pre-scans read the
/// beginning, then the reader starts over).
pub trait Source: Read + Seek + Send {}
impl<T: Read + Seek + Send> Source for T {}

/// Looks up an existing table's column names (`None`: no such table).
pub type TableLookup<'a> = &'a mut dyn FnMut(&str) -> Option<Vec<String>>;

/// Opens the reader for `spec` over `source`. `lookup` is asked about
/// target tables that may exist already (a CSV into an existing table
/// maps its header onto the table's columns); it is called before the
/// first unit only, so the units depend on the database as it was when
/// the import started.
pub fn open(
    spec: &Spec,
    source: Box<dyn Source>,
    lookup: TableLookup<'_>,
) -> Result<Box<dyn Reader>> {
    spec.options.validate_for(
        spec.format,
        spec.target_table.is_some(),
        spec.mode == Mode::Replace,
    )?;
    match spec.format {
        Format::Csv => Ok(Box::new(csv::CsvReader::open(spec, source, lookup)?)),
        Format::Xlsx => xlsx::open(spec, source, lookup),
        Format::Mysql => Ok(Box::new(dump::DumpReader::open(dump::Dialect::Mysql, spec, source)?)),
        Format::Postgresql => {
            Ok(Box::new(dump::DumpReader::open(dump::Dialect::Postgres, spec, source)?))
        }
        Format::Sql | Format::Sqlite => Err(Error::InvalidOption(format!(
            "{} is run by the script splitter, not an import reader",
            spec.format
        ))),
    }
}

/// Checks that an import of `format` with these settings can work, before
/// the body is read: the options fit the format, a target table or mode
/// is only given where it means something, and a CSV or a single sheet
/// has a table name (the target, or one made from the file name).
pub fn check(
    format: Format,
    target: Option<&str>,
    original_name: Option<&str>,
    replace: bool,
    options: &ImportOptions,
) -> Result<()> {
    options.validate_for(format, target.is_some(), replace)?;
    let all_sheets = options.xlsx.sheet == Some(Sheet::All);
    let needs_name = format == Format::Csv || (format == Format::Xlsx && !all_sheets);
    if needs_name
        && target.is_none()
        && original_name.and_then(table_from_file_name).is_none()
        && format == Format::Csv
    {
        return Err(Error::InvalidOption(
            "a csv import needs a target table (X-AsaDB-Import-Target-Table) or an original \
             file name (X-AsaDB-Import-Original-Name) to name its table"
                .into(),
        ));
    }
    if target.is_some_and(|t| t.trim().is_empty()) {
        return Err(Error::InvalidOption("the target table name is empty".into()));
    }
    Ok(())
}

/// `"name"` with embedded quotes doubled: an identifier our engine (and
/// SQLite) reads back as `name`, whatever it contains.
pub fn quote_ident(name: &str) -> String {
    let mut s = String::with_capacity(name.len() + 2);
    s.push('"');
    for c in name.chars() {
        if c == '"' {
            s.push('"');
        }
        s.push(c);
    }
    s.push('"');
    s
}

/// The table an import of `original_name` creates when no target is
/// given: the file name without directories and without everything from
/// its first dot (`data/track.semicolon.csv` → `track`).
pub fn table_from_file_name(original_name: &str) -> Option<String> {
    let base = original_name.rsplit(['/', '\\']).next().unwrap_or(original_name);
    let stem = base.split('.').next().unwrap_or("").trim();
    (!stem.is_empty()).then(|| stem.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_are_quoted_and_file_names_become_tables() {
        assert_eq!(quote_ident("a\"b"), "\"a\"\"b\"");
        assert_eq!(table_from_file_name("dir/track.semicolon.csv").as_deref(), Some("track"));
        assert_eq!(table_from_file_name("C:\\x\\Sales 2024.xlsx").as_deref(), Some("Sales 2024"));
        assert_eq!(table_from_file_name(".csv"), None);
    }
}
