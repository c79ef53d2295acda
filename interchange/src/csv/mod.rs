//! CSV (and any delimited text) import.
//!
//! [`CsvReader::open`] reads the body's first bytes for its encoding
//! ([`crate::text`]), sniffs the dialect, header and column types from a
//! sample ([`sniff`]), then streams the records ([`records`]) into units:
//! 1. `CREATE TABLE IF NOT EXISTS` the target with the inferred columns
//!    (always emitted, so the units are the same on a resume, when the
//!    table exists already);
//! 2. with mode replace, `DELETE FROM` the target;
//! 3. row batches of at most [`BATCH_ROWS`](crate::BATCH_ROWS) rows.
//!
//! Values: an unquoted empty field is NULL (or, with a NULL text given,
//! an unquoted field equal to it), a quoted empty field `""` is the empty
//! string — except in a one-column file without a NULL text, where a
//! lone `""` is NULL (see [`sniff::is_null`]) — anything else is TEXT
//! that the column's affinity converts as SQLite would (`'12'` into an
//! INTEGER column is 12). Into a new table the columns get the inferred
//! types; into an existing table the header is matched to the table's
//! columns by name when every name matches, else the fields go by
//! position when the counts agree.
//!
//! Rows with another field count than the header are *ragged*: refused
//! by default (the job fails naming the line), padded with NULLs or
//! skipped on request (`X-AsaDB-CSV-Ragged`). Records that only differ at
//! the end of the file — a footnote, a "Total" line, a short empty row —
//! are not ragged rows but footnotes: skipped and counted. A record of
//! bare delimiters with the header's field count (`,,,`) is a row of
//! NULLs wherever it is — that is how an all-NULL row is exported, so
//! export then import gives the same table. Blank lines are skipped;
//! a one-column table's NULL exports as `""`, never as a blank line.

pub mod records;
pub mod sniff;

use std::collections::VecDeque;
use std::io::{Read, SeekFrom};

use asadb_sql::Value;
use asadb_sql::value::{Affinity, parse_numeric_text};

use self::records::{EscapeMode, Record, Records};
use self::sniff::{ColType, Sniffed, is_null};
use crate::error::malformed;
use crate::report::{RAGGED_LINES_KEPT, RaggedRows, SkipCounter};
use crate::text::{Decoder, Encoding, sniff_encoding};
use crate::{
    BATCH_BYTES, BATCH_ROWS, Body, Error, InsertValues, Mode, Ragged, Reader, Report, Result,
    RowBatch, Source, Spec, TableLookup, Unit, quote_ident, table_from_file_name,
};

/// The longest record accepted (a field that never closes its quote
/// fails here instead of filling memory).
pub const MAX_RECORD: usize = 16 << 20;
/// Non-conforming records held back at most while deciding whether they
/// are footnotes (only records at the very end are).
const MAX_HELD: usize = 64;

/// A record held back: maybe a footnote, maybe a ragged row.
struct Held {
    values: Vec<Value>,
    line: u64,
    bytes: usize,
    /// All fields empty and unquoted, with the right count.
    empty: bool,
}

/// The CSV import reader.
pub struct CsvReader {
    records: Records<Decoder<Box<dyn Source>>>,
    encoding: Encoding,
    rec: Record,
    sniffed: Sniffed,
    table: String,
    /// The insert's column list (`None`: by position).
    columns: Option<Vec<String>>,
    /// Into a new table: each column's affinity, applied here to numeric
    /// fields (the engine would apply it to the text anyway; applying it
    /// first spares a string per number). `None` into an existing table,
    /// whose own affinities the engine applies.
    affinities: Option<Vec<Affinity>>,
    null: Option<String>,
    ragged: Ragged,
    prelude: VecDeque<Unit>,
    held: Vec<Held>,
    skips: SkipCounter,
    ragged_rows: RaggedRows,
    csv_report: serde_json::Value,
    /// An error to return after the rows before it went out.
    deferred: Option<Error>,
    done: bool,
}

impl CsvReader {
    /// Sniffs the body and prepares the units (see the module docs).
    pub fn open(
        spec: &Spec,
        mut source: Box<dyn Source>,
        lookup: TableLookup<'_>,
    ) -> Result<CsvReader> {
        let opts = &spec.options.csv;
        let table = match (&spec.target_table, &spec.original_name) {
            (Some(t), _) => t.clone(),
            (None, Some(n)) => table_from_file_name(n).ok_or_else(|| {
                Error::InvalidOption(format!("no table name can be made from the file name {n:?}"))
            })?,
            (None, None) => {
                return Err(Error::InvalidOption(
                    "a csv import needs a target table or an original file name to name it".into(),
                ));
            }
        };
        source.seek(SeekFrom::Start(0))?;
        let mut head = vec![0u8; 64 * 1024];
        let n = read_full(&mut source, &mut head)?;
        head.truncate(n);
        let encoding = sniff_encoding(&head, n < 64 * 1024)?;
        // The sample, decoded.
        source.seek(SeekFrom::Start(encoding.bom_len()))?;
        let mut decoder = Decoder::new(source, encoding);
        let mut sample = vec![0u8; sniff::SAMPLE_BYTES];
        let got = read_full(&mut decoder, &mut sample)?;
        sample.truncate(got);
        let whole = got < sniff::SAMPLE_BYTES;
        if let Err(e) = std::str::from_utf8(&sample)
            && (whole || e.error_len().is_some())
        {
            return Err(crate::text::not_utf8(&sample, e.valid_up_to()));
        }
        if let Some(p) = sample.iter().position(|&b| b == 0) {
            return Err(malformed!(
                crate::text::line_of(&sample, p),
                "binary data (a NUL byte): this is not a CSV file"
            ));
        }
        if sample.iter().all(|b| b.is_ascii_whitespace()) {
            return Err(malformed!(1, "the CSV body is empty"));
        }
        let sniffed = sniff::sniff(&sample, whole, opts)?;
        drop(sample);
        let mut source = decoder.into_inner();
        source.seek(SeekFrom::Start(encoding.bom_len()))?;
        let decoder = Decoder::new(source, encoding);
        let mut records = Records::new(decoder, sniffed.syntax, 0, MAX_RECORD);
        let mut rec = Record::default();
        let mut skips = SkipCounter::default();
        for _ in 0..sniffed.preamble {
            if records.next_record(&mut rec)? {
                skips.add("csv preamble line", rec.line);
            }
        }
        if sniffed.header && records.next_record(&mut rec)? {
            refuse_malformed(&rec, &sniffed.syntax)?;
        }
        // Where the rows go.
        let existing = lookup(&table);
        let (columns, mapping) = match &existing {
            None => (None, "new table"),
            Some(cols) => {
                let all_named = sniffed.header
                    && sniffed.names.iter().all(|n| cols.iter().any(|c| c.eq_ignore_ascii_case(n)));
                if all_named {
                    (Some(sniffed.names.clone()), "by name")
                } else if cols.len() == sniffed.columns {
                    (None, "by position")
                } else {
                    return Err(malformed!(
                        1,
                        "the CSV has {} columns ({}) and table {table} has {} ({}); the header \
                         does not name the table's columns either",
                        sniffed.columns,
                        sniffed.names.join(", "),
                        cols.len(),
                        cols.join(", ")
                    ));
                }
            }
        };
        let mut prelude = VecDeque::new();
        let defs: Vec<String> = sniffed
            .names
            .iter()
            .zip(&sniffed.types)
            .map(|(n, t)| format!("{} {}", quote_ident(n), t.sql()))
            .collect();
        prelude.push_back(Unit {
            body: Body::Sql(format!(
                "CREATE TABLE IF NOT EXISTS {} ({})",
                quote_ident(&table),
                defs.join(", ")
            )),
            line: 1,
            start: 0,
            end: 0,
        });
        if spec.mode == Mode::Replace {
            prelude.push_back(Unit {
                body: Body::Sql(format!("DELETE FROM {}", quote_ident(&table))),
                line: 1,
                start: 0,
                end: 0,
            });
        }
        let syntax = sniffed.syntax;
        let csv_report = serde_json::json!({
            "encoding": encoding.name(),
            "delimiter": (syntax.delimiter as char).to_string(),
            "quote": syntax.quote.map(|q| (q as char).to_string()),
            "escape": match syntax.escape {
                EscapeMode::Double => syntax.quote.map(|q| (q as char).to_string()),
                EscapeMode::Char(e) => Some((e as char).to_string()),
                EscapeMode::None => None,
            },
            "header": sniffed.header,
            "null": opts.null.clone().unwrap_or_default(),
            "line_ending": sniffed.line_ending,
            "preamble_lines": sniffed.preamble,
            "table": table,
            "mapping": mapping,
            "columns": sniffed.names.iter().zip(&sniffed.types)
                .map(|(n, t)| serde_json::json!({"name": n, "type": t.sql()}))
                .collect::<Vec<_>>(),
        });
        Ok(CsvReader {
            records,
            encoding,
            rec,
            table,
            columns,
            affinities: existing.is_none().then(|| {
                sniffed
                    .types
                    .iter()
                    .map(|t| match t {
                        ColType::Integer => Affinity::Integer,
                        ColType::Real => Affinity::Real,
                        ColType::Text => Affinity::Text,
                    })
                    .collect()
            }),
            null: opts.null.clone(),
            ragged: opts.ragged.unwrap_or_default(),
            prelude,
            held: Vec::new(),
            skips,
            ragged_rows: RaggedRows::default(),
            csv_report,
            deferred: None,
            done: false,
            sniffed,
        })
    }

    /// The source offset of decoded offset `decoded`.
    fn source_offset(&self, decoded: u64) -> u64 {
        match self.encoding {
            Encoding::Utf8 | Encoding::Utf8Bom => decoded + self.encoding.bom_len(),
            Encoding::Utf16Le | Encoding::Utf16Be => self.records.get_ref().source_pos(),
        }
    }

    /// The current record's values.
    fn values(&self) -> Result<Vec<Value>> {
        let rec = &self.rec;
        refuse_malformed(rec, &self.sniffed.syntax)?;
        let mut out = Vec::with_capacity(rec.len());
        for i in 0..rec.len() {
            if is_null(rec, i, self.null.as_deref()) {
                out.push(Value::Null);
                continue;
            }
            match std::str::from_utf8(rec.field(i)) {
                Ok(s) => {
                    let affinity = self.affinities.as_ref().and_then(|a| a.get(i).copied());
                    let number = match affinity {
                        Some(a @ (Affinity::Integer | Affinity::Real)) => {
                            parse_numeric_text(s).map(|n| a.apply(n))
                        }
                        _ => None,
                    };
                    out.push(number.unwrap_or_else(|| Value::Text(s.to_string().into())));
                }
                Err(e) => {
                    let f = rec.field(i);
                    let extra = f[..e.valid_up_to()].iter().filter(|&&b| b == b'\n').count();
                    return Err(malformed!(
                        rec.line + extra as u64,
                        "the text is not UTF-8 (byte 0x{:02X} in field {}); AsaDB reads UTF-8 \
                         and UTF-16 with a byte-order mark: convert it first, e.g. \
                         `iconv -f latin1 -t utf-8`",
                        f[e.valid_up_to()],
                        i + 1
                    ));
                }
            }
        }
        Ok(out)
    }

    /// Held records followed by a conforming one: ragged rows (or, for
    /// empty ones, plain rows of NULLs).
    fn flush_held(&mut self, rows: &mut Vec<Vec<Value>>, lines: &mut Vec<u64>) -> Result<()> {
        let columns = self.sniffed.columns;
        for h in std::mem::take(&mut self.held) {
            if h.empty {
                rows.push(h.values);
                lines.push(h.line);
                continue;
            }
            let n = h.values.len();
            match self.ragged {
                Ragged::Pad if n < columns => {
                    let mut v = h.values;
                    v.resize(columns, Value::Null);
                    rows.push(v);
                    lines.push(h.line);
                    self.note_ragged(h.line, "padded");
                }
                Ragged::Skip => self.note_ragged(h.line, "skipped"),
                _ => {
                    return Err(malformed!(
                        h.line,
                        "a row with {n} fields where the header has {columns}{}",
                        match self.ragged {
                            Ragged::Pad => " (padding adds fields, it never drops them)",
                            _ => "; send X-AsaDB-CSV-Ragged: pad or skip to load the file anyway",
                        }
                    ));
                }
            }
        }
        Ok(())
    }

    fn note_ragged(&mut self, line: u64, action: &str) {
        let r = &mut self.ragged_rows;
        r.count += 1;
        r.action = action.to_string();
        if r.lines.len() < RAGGED_LINES_KEPT {
            r.lines.push(line);
        }
    }

    fn next_batch(&mut self) -> Result<Option<Unit>> {
        if let Some(u) = self.prelude.pop_front() {
            return Ok(Some(u));
        }
        if let Some(e) = self.deferred.take() {
            self.done = true;
            return Err(e);
        }
        if self.done {
            return Ok(None);
        }
        let mut rows: Vec<Vec<Value>> = Vec::new();
        let mut lines: Vec<u64> = Vec::new();
        let start = self.source_offset(self.records.offset());
        let mut bytes = 0usize;
        let columns = self.sniffed.columns;
        let mut end = start;
        while rows.len() < BATCH_ROWS && bytes < BATCH_BYTES {
            let got = match self.records.next_record(&mut self.rec) {
                Ok(g) => g,
                Err(e) => {
                    if rows.is_empty() {
                        self.done = true;
                        return Err(e);
                    }
                    self.deferred = Some(e);
                    break;
                }
            };
            if !got {
                // What is still held is the file's tail: footnotes.
                for h in std::mem::take(&mut self.held) {
                    let kind =
                        if h.empty { "csv empty row at the end" } else { "csv footnote line" };
                    self.skips.add(kind, h.line);
                }
                self.done = true;
                break;
            }
            let values = match self.values() {
                Ok(v) => v,
                Err(e) if rows.is_empty() => {
                    self.done = true;
                    return Err(e);
                }
                Err(e) => {
                    self.deferred = Some(e);
                    break;
                }
            };
            let size = (self.rec.end - self.rec.start) as usize;
            let conforming = self.rec.len() == columns;
            let mut values = Some(values);
            if !conforming {
                self.held.push(Held {
                    values: values.take().unwrap_or_default(),
                    line: self.rec.line,
                    bytes: size,
                    empty: self.rec.len() == columns,
                });
                let held_bytes: usize = self.held.iter().map(|h| h.bytes).sum();
                if self.held.len() <= MAX_HELD && held_bytes <= BATCH_BYTES {
                    continue;
                }
            }
            if let Err(e) = self.flush_held(&mut rows, &mut lines) {
                if rows.is_empty() {
                    self.done = true;
                    return Err(e);
                }
                self.deferred = Some(e);
                break;
            }
            if let Some(values) = values {
                rows.push(values);
                lines.push(self.rec.line);
            }
            bytes += size;
            end = self.source_offset(self.rec.end);
        }
        if rows.is_empty() {
            return match self.deferred.take() {
                Some(e) => {
                    self.done = true;
                    Err(e)
                }
                None => Ok(None),
            };
        }
        let line = lines[0];
        Ok(Some(Unit {
            body: Body::Rows(RowBatch {
                insert: InsertValues {
                    or_action: None,
                    schema: None,
                    table: self.table.clone(),
                    columns: self.columns.clone(),
                    rows,
                },
                lines,
            }),
            line,
            start,
            end,
        }))
    }
}

impl Reader for CsvReader {
    fn next_unit(&mut self) -> Option<Result<Unit>> {
        self.next_batch().transpose()
    }

    fn report(&self) -> Report {
        Report {
            format: "csv".into(),
            tables: vec![self.table.clone()],
            skipped: self.skips.list(),
            csv: Some(self.csv_report.clone()),
            ragged_rows: (self.ragged_rows.count > 0).then(|| self.ragged_rows.clone()),
            notes: Vec::new(),
        }
    }
}

/// Fails on a record with a malformed quoted field under the dialect in
/// use (detected or forced): text after its closing quote, or an escape
/// the dialect does not have (`"a\"b"` read with doubled quotes). The
/// field is never kept as it was mangled; the error names its line and
/// column and the escape in use, so a wrong `X-AsaDB-CSV-Escape` or
/// `-Quote` is found at once.
fn refuse_malformed(rec: &Record, syntax: &records::Syntax) -> Result<()> {
    let Some(i) = rec.first_anomaly else { return Ok(()) };
    let quote = syntax.quote.map(|q| q as char).unwrap_or('"');
    let escape = match syntax.escape {
        EscapeMode::Double => format!("a doubled quote ({quote}{quote})"),
        EscapeMode::Char(e) => format!("{:?}", e as char),
        EscapeMode::None => "none".to_string(),
    };
    Err(malformed!(
        rec.field_line(i, syntax.cr_lines),
        "field {} is a malformed quoted field: it does not end at its closing quote {quote:?} \
         with the escape {escape} (the wrong X-AsaDB-CSV-Escape or X-AsaDB-CSV-Quote?)",
        i + 1
    ))
}

/// Reads until `buf` is full or the input ends; the bytes read.
pub(crate) fn read_full(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}
