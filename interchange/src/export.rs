//! Exports: rows out as CSV, TSV, JSON lines or SQL INSERTs, streamed one
//! row at a time into any `Write` (the caller pulls rows from a query, so
//! memory holds one row); and [`dump`], a whole database as a script the
//! `sqlite3` CLI and AsaDB both load.
//!
//! Value encodings:
//! - CSV (RFC 4180, `\r\n`-free: rows end with `\n`): NULL is an empty
//!   unquoted field, the empty string is `""` (what our CSV import, psql
//!   and DuckDB read back as NULL and ''); a field is quoted when it is
//!   empty text or contains the delimiter, a quote, CR or LF, starts with
//!   `'` (which a sniffer could take for the quote), or starts or ends
//!   with a space; reals are written so they read back as the same
//!   double and as REAL (`0.1`, `1.0e+20`); blobs are `\x` and hex (CSV
//!   has no binary type). The header line names the columns.
//!   One-column rows are the exception, because a row of one NULL would
//!   be an empty line and CSV readers (the `csv` crate, pandas, sqlite3)
//!   skip empty lines: there NULL is written `""`, as the `csv` crate and
//!   pandas write a lone empty field, and our CSV import reads a lone
//!   `""` in a one-column file as NULL (as pandas and DuckDB do). The
//!   empty string in a one-column table is written `""` too, so it reads
//!   back as NULL: in one column, CSV can keep every row or tell NULL
//!   from '', not both, and rows win. One-column text is also quoted when
//!   it holds any delimiter or quote a sniffer tries (`;` `|` tab `'` …),
//!   so the lone column cannot be read as several.
//! - TSV: the same rules with a tab as the delimiter.
//! - JSON lines: one object per row, `{"column": value}`; integers and
//!   reals as JSON numbers (non-finite reals as `null`), text as strings,
//!   blobs as `{"hex": "…"}` — the encoding of the API's result pages.
//! - SQL: `INSERT INTO "t" VALUES(…);` per row with SQLite's literals
//!   (`quote()`): text `'…'` with quotes doubled, blobs `X'…'`.

use std::io::Write;

use asadb_sql::Value;
use asadb_sql::func::quote;

use crate::{Error, Result, quote_ident};

/// An export format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    Csv,
    Tsv,
    Jsonl,
    Sql,
}

impl std::str::FromStr for ExportFormat {
    type Err = Error;
    fn from_str(s: &str) -> Result<ExportFormat> {
        match s.trim().to_ascii_lowercase().as_str() {
            "csv" => Ok(ExportFormat::Csv),
            "tsv" | "tab" => Ok(ExportFormat::Tsv),
            "jsonl" | "ndjson" | "json-lines" => Ok(ExportFormat::Jsonl),
            "sql" | "insert" => Ok(ExportFormat::Sql),
            other => Err(Error::InvalidOption(format!(
                "unknown export format {other:?} (expected csv, tsv, jsonl or sql)"
            ))),
        }
    }
}

impl ExportFormat {
    /// The HTTP content type.
    pub fn content_type(self) -> &'static str {
        match self {
            ExportFormat::Csv => "text/csv; charset=utf-8",
            ExportFormat::Tsv => "text/tab-separated-values; charset=utf-8",
            ExportFormat::Jsonl => "application/x-ndjson",
            ExportFormat::Sql => "application/sql; charset=utf-8",
        }
    }

    /// The usual file extension.
    pub fn extension(self) -> &'static str {
        match self {
            ExportFormat::Csv => "csv",
            ExportFormat::Tsv => "tsv",
            ExportFormat::Jsonl => "jsonl",
            ExportFormat::Sql => "sql",
        }
    }
}

/// Writes rows in one format.
pub struct Exporter<W: Write> {
    out: W,
    format: ExportFormat,
    columns: Vec<String>,
    /// `INSERT INTO "t" VALUES(` for SQL.
    insert: String,
    line: String,
    rows: u64,
}

impl<W: Write> Exporter<W> {
    /// Starts an export of rows with `columns` (CSV and TSV write their
    /// header now); `table` names the INSERTs of SQL.
    pub fn new(
        out: W,
        format: ExportFormat,
        columns: Vec<String>,
        table: &str,
    ) -> Result<Exporter<W>> {
        let mut e = Exporter {
            out,
            format,
            insert: format!("INSERT INTO {} VALUES(", quote_ident(table)),
            columns,
            line: String::new(),
            rows: 0,
        };
        if let Some(d) = e.delimiter() {
            let names: Vec<Value> =
                e.columns.iter().map(|c| Value::Text(c.clone().into())).collect();
            e.line.clear();
            delimited(&names, d, &mut e.line);
            e.out.write_all(e.line.as_bytes())?;
        }
        Ok(e)
    }

    fn delimiter(&self) -> Option<char> {
        match self.format {
            ExportFormat::Csv => Some(','),
            ExportFormat::Tsv => Some('\t'),
            _ => None,
        }
    }

    /// Writes one row.
    pub fn row(&mut self, row: &[Value]) -> Result<()> {
        self.line.clear();
        match self.format {
            ExportFormat::Csv | ExportFormat::Tsv => {
                let d = self.delimiter().unwrap_or(',');
                delimited(row, d, &mut self.line);
            }
            ExportFormat::Jsonl => {
                self.line.push('{');
                for (i, (c, v)) in self.columns.iter().zip(row).enumerate() {
                    if i > 0 {
                        self.line.push(',');
                    }
                    self.line.push_str(&serde_json::to_string(c).unwrap_or_else(|_| "\"\"".into()));
                    self.line.push(':');
                    value_json(v, &mut self.line);
                }
                self.line.push_str("}\n");
            }
            ExportFormat::Sql => {
                self.line.push_str(&self.insert);
                for (i, v) in row.iter().enumerate() {
                    if i > 0 {
                        self.line.push(',');
                    }
                    self.line.push_str(&script_literal(v));
                }
                self.line.push_str(");\n");
            }
        }
        self.out.write_all(self.line.as_bytes())?;
        self.rows += 1;
        Ok(())
    }

    /// Rows written so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Flushes and hands the writer back.
    pub fn finish(mut self) -> Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

/// One CSV/TSV line (the export encoding), ending in `\n`.
pub fn delimited(row: &[Value], d: char, out: &mut String) {
    if let [Value::Null] = row {
        // A one-column NULL as an empty field would be a blank line, which
        // every CSV reader skips: `""` keeps the row (module docs).
        out.push_str("\"\"\n");
        return;
    }
    for (i, v) in row.iter().enumerate() {
        if i > 0 {
            out.push(d);
        }
        match v {
            Value::Null => {}
            Value::Integer(n) => out.push_str(&n.to_string()),
            Value::Real(_) => out.push_str(&quote(v)),
            // CSV is text: bytes that are not UTF-8 are written as U+FFFD.
            Value::Text(s) => field(&s.to_str_lossy(), d, row.len() == 1, out),
            Value::Blob(b) => {
                out.push_str("\\x");
                for x in b {
                    out.push_str(&format!("{x:02x}"));
                }
            }
        }
    }
    out.push('\n');
}

/// A text field, quoted when it must be. In a one-column export also
/// when it holds another delimiter or quote a CSV sniffer tries (`;`,
/// `|`, `'` …): a lone column gives a sniffer no field count to go by, so
/// `a|b` unquoted would read as two columns.
fn field(s: &str, d: char, one_column: bool, out: &mut String) {
    let needs = s.is_empty()
        || s.contains([d, '"', '\r', '\n'])
        || s.starts_with([' ', '\''])
        || s.ends_with(' ')
        || (one_column && s.contains([',', ';', '\t', '|', ':', '^', '~', '#', '\'']));
    if !needs {
        out.push_str(s);
        return;
    }
    out.push('"');
    for c in s.chars() {
        if c == '"' {
            out.push('"');
        }
        out.push(c);
    }
    out.push('"');
}

/// A value as an SQL literal for scripts the `sqlite3` CLI reads: like
/// `quote()`, but text holding CR or LF is written as `sqlite3 .dump`
/// writes it — `replace('a\nb','\n',char(10))` — because the CLI's line
/// reader drops a CR at a line's end. The marker is one the text does
/// not contain (`\n`, else `\012`, else `\n_1` …).
pub fn script_literal(v: &Value) -> String {
    // Text that is not UTF-8 is quote()'s `CAST(X'…' AS TEXT)`.
    let Some(s) = (match v {
        Value::Text(t) => t.to_str(),
        _ => None,
    }) else {
        return quote(v);
    };
    if !s.contains(['\n', '\r']) {
        return quote(v);
    }
    let marker = |base: &str, alt: &str| -> String {
        if !s.contains(base) {
            return base.to_string();
        }
        if !s.contains(alt) {
            return alt.to_string();
        }
        (1..).map(|k| format!("{base}_{k}")).find(|m| !s.contains(m.as_str())).unwrap_or_default()
    };
    let (nl, cr) = (marker("\\n", "\\012"), marker("\\r", "\\015"));
    let mut body = s.replace('\r', &cr).replace('\n', &nl);
    body = quote(&Value::Text(body.into()));
    if s.contains('\r') {
        body = format!("replace({body},'{cr}',char(13))");
    }
    if s.contains('\n') {
        body = format!("replace({body},'{nl}',char(10))");
    }
    body
}

/// A value as JSON: the encoding of the API's result pages.
pub fn value_json(v: &Value, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Integer(i) => out.push_str(&i.to_string()),
        Value::Real(f) if f.is_finite() => out.push_str(&format!("{f:?}")),
        Value::Real(_) => out.push_str("null"),
        // JSON is UTF-8: bytes that are not are sent as U+FFFD.
        Value::Text(s) => out
            .push_str(&serde_json::to_string(&*s.to_str_lossy()).unwrap_or_else(|_| "null".into())),
        Value::Blob(b) => {
            out.push_str("{\"hex\":\"");
            for x in b {
                out.push_str(&format!("{x:02x}"));
            }
            out.push_str("\"}");
        }
    }
}

/// What [`dump`] needs from a database.
pub trait DumpSource {
    /// Tables (name, CREATE TABLE text), views (name, CREATE VIEW text)
    /// and indexes (CREATE INDEX text, for those not made by constraints),
    /// each in name order.
    fn schema(&mut self) -> Result<DumpSchema>;
    /// Streams a table's rows in rowid order into `each`.
    fn rows(&mut self, table: &str, each: &mut dyn FnMut(&[Value]) -> Result<()>) -> Result<()>;
}

/// The schema objects a dump writes.
#[derive(Clone, Debug, Default)]
pub struct DumpSchema {
    pub tables: Vec<(String, String)>,
    pub views: Vec<(String, String)>,
    pub indexes: Vec<String>,
}

/// Tables a dump leaves out: the Reservoir's progress markers are the
/// server's own bookkeeping, not data.
pub const DUMP_EXCLUDED: [&str; 1] = ["_asadb_reservoir_progress"];

/// Writes the whole database as one script: `BEGIN TRANSACTION;`, each
/// table's CREATE TABLE and its rows as INSERTs, then indexes and views,
/// `COMMIT;` — the shape of `sqlite3 .dump`, which the `sqlite3` CLI and
/// AsaDB both load into the same tables and rows.
pub fn dump(src: &mut dyn DumpSource, out: &mut dyn Write) -> Result<()> {
    let schema = src.schema()?;
    out.write_all(b"BEGIN TRANSACTION;\n")?;
    let mut sequence = false;
    for (name, sql) in &schema.tables {
        if DUMP_EXCLUDED.iter().any(|x| x.eq_ignore_ascii_case(name)) {
            continue;
        }
        // SQLite's own tables are not created by a script: sqlite_sequence
        // is refilled after the tables (as `sqlite3 .dump` does).
        if name.eq_ignore_ascii_case("sqlite_sequence") {
            sequence = true;
            continue;
        }
        if name.to_ascii_lowercase().starts_with("sqlite_") {
            continue;
        }
        out.write_all(sql.trim_end_matches(';').as_bytes())?;
        out.write_all(b";\n")?;
        let insert = format!("INSERT INTO {} VALUES(", quote_ident(name));
        let mut line = String::new();
        src.rows(name, &mut |row| {
            line.clear();
            line.push_str(&insert);
            for (i, v) in row.iter().enumerate() {
                if i > 0 {
                    line.push(',');
                }
                line.push_str(&script_literal(v));
            }
            line.push_str(");\n");
            out.write_all(line.as_bytes())?;
            Ok(())
        })?;
    }
    if sequence {
        out.write_all(b"DELETE FROM sqlite_sequence;\n")?;
        let mut line = String::new();
        src.rows("sqlite_sequence", &mut |row| {
            line.clear();
            line.push_str("INSERT INTO sqlite_sequence VALUES(");
            let parts: Vec<String> = row.iter().map(quote).collect();
            line.push_str(&parts.join(","));
            line.push_str(");\n");
            out.write_all(line.as_bytes())?;
            Ok(())
        })?;
    }
    for sql in &schema.indexes {
        out.write_all(sql.trim_end_matches(';').as_bytes())?;
        out.write_all(b";\n")?;
    }
    for (_, sql) in &schema.views {
        out.write_all(sql.trim_end_matches(';').as_bytes())?;
        out.write_all(b";\n")?;
    }
    out.write_all(b"COMMIT;\n")?;
    out.flush()?;
    Ok(())
}

/// A [`DumpSource`] over an engine session.
pub struct SessionDump<'a> {
    pub session: &'a mut asadb_sql::session::Session,
}

impl DumpSource for SessionDump<'_> {
    fn schema(&mut self) -> Result<DumpSchema> {
        let s = self.session.schema()?;
        Ok(DumpSchema {
            tables: s.tables.values().map(|t| (t.name.clone(), t.sql.clone())).collect(),
            views: s.views.values().map(|v| (v.name.clone(), v.sql.clone())).collect(),
            indexes: s.indexes.values().filter_map(|i| i.sql.clone()).collect(),
        })
    }

    fn rows(&mut self, table: &str, each: &mut dyn FnMut(&[Value]) -> Result<()>) -> Result<()> {
        let sql = format!("SELECT * FROM {}", quote_ident(table));
        let rows = self.session.query(&sql, &asadb_sql::session::Params::None)?;
        for row in rows {
            each(&row?)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn export(format: ExportFormat, rows: &[Vec<Value>]) -> String {
        let mut e = Exporter::new(Vec::new(), format, vec!["a".into(), "b c".into()], "t").unwrap();
        for r in rows {
            e.row(r).unwrap();
        }
        String::from_utf8(e.finish().unwrap()).unwrap()
    }

    #[test]
    fn encodings() {
        let rows = vec![
            vec![Value::Null, Value::Text(String::new().into())],
            vec![Value::Integer(-7), Value::Text("x,\"y\"\nz".into())],
            vec![Value::Real(0.1), Value::Real(1e20)],
            vec![Value::Blob(vec![0, 255]), Value::Text(" pad".into())],
        ];
        assert_eq!(
            export(ExportFormat::Csv, &rows),
            "a,b c\n,\"\"\n-7,\"x,\"\"y\"\"\nz\"\n0.1,1.0e+20\n\\x00ff,\" pad\"\n"
        );
        assert_eq!(export(ExportFormat::Tsv, &rows[..1]), "a\tb c\n\t\"\"\n");
        assert_eq!(
            export(ExportFormat::Jsonl, &rows),
            "{\"a\":null,\"b c\":\"\"}\n{\"a\":-7,\"b c\":\"x,\\\"y\\\"\\nz\"}\n{\"a\":0.1,\"b c\":1e20}\n{\"a\":{\"hex\":\"00ff\"},\"b c\":\" pad\"}\n"
        );
        assert_eq!(
            export(ExportFormat::Sql, &rows[..2]),
            "INSERT INTO \"t\" VALUES(NULL,'');\nINSERT INTO \"t\" VALUES(-7,replace('x,\"y\"\\nz','\\n',char(10)));\n"
        );
        assert_eq!(
            script_literal(&Value::Text("a\r\nb".into())),
            "replace(replace('a\\r\\nb','\\r',char(13)),'\\n',char(10))"
        );
        assert_eq!(
            script_literal(&Value::Text("\\n\n".into())),
            "replace('\\n\\012','\\012',char(10))"
        );
    }
}
