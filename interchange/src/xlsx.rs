//! XLSX import, on `calamine`'s streaming cell reader: a sheet is read
//! cell by cell in XML order, never whole.
//!
//! - Sheets: the first by default, one by name or 1-based position, or
//!   every sheet into a table named after it (`X-AsaDB-XLSX-Sheet`). A
//!   single sheet goes into the target table, or one named after it.
//! - Cells: numbers are INTEGER when integral, else REAL; shared and
//!   inline strings are TEXT; booleans are 1/0; formulas give their
//!   cached value; error cells give their text (`#N/A`); empty cells are
//!   NULL. A number whose format code is a date or time format — custom
//!   codes included, escaped ones like LibreOffice's `yyyy\-mm\-dd` too —
//!   is ISO-8601 text: `YYYY-MM-DD HH:MM:SS` when the format shows both,
//!   `YYYY-MM-DD` or `HH:MM:SS` when it shows one (milliseconds when not
//!   zero); durations (`[h]:mm:ss`) are `H:MM:SS`.
//! - Merged cells: every cell of a merged range takes the value of its
//!   top-left cell.
//! - Rows: fully empty rows (anywhere, trailing ones included) are
//!   skipped and counted. The header is the first non-empty row when it
//!   is all text and (DuckDB's rule) the columns below are either all
//!   TEXT or it does not fit their types. A value right of the last
//!   column fails the import, naming its cell.
//! - Types of a new table: inferred over the first 1,000 rows (fewer
//!   when they hold more than a batch's bytes). Batches end at 1,000 rows
//!   or 1 MiB of values, whichever comes first.
//!
//! Reading runs on a thread of its own that owns the workbook (calamine's
//! cell reader borrows it) and hands finished units over a channel of
//! two; dropping the reader stops it.

use std::collections::VecDeque;
use std::io::{BufReader, SeekFrom};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use asadb_sql::Value;
use calamine::{DataRef, Reader as _, Xlsx};

use crate::csv::sniff::ColType;
use crate::error::malformed;
use crate::report::SkipCounter;
use crate::{
    BATCH_BYTES, BATCH_ROWS, Body, Error, InsertValues, Mode, Reader, Report, Result, RowBatch,
    Sheet, Source, Spec, TableLookup, Unit, quote_ident,
};

/// Rows read before the column types of a new table are decided.
const SAMPLE_ROWS: usize = 1000;

type Book = Xlsx<BufReader<Box<dyn Source>>>;

/// One sheet to import.
struct Job {
    sheet: String,
    table: String,
    existing: Option<Vec<String>>,
}

enum Msg {
    Unit(Unit),
    Report(Report),
    Error(Error),
}

/// The XLSX import reader: units come from the reading thread.
pub struct XlsxReader {
    rx: Receiver<Msg>,
    report: Report,
    done: bool,
}

/// Opens the workbook and starts reading (see the module docs).
pub fn open(
    spec: &Spec,
    mut source: Box<dyn Source>,
    lookup: TableLookup<'_>,
) -> Result<Box<dyn Reader>> {
    let total = source.seek(SeekFrom::End(0))?;
    source.seek(SeekFrom::Start(0))?;
    let mut magic = [0u8; 4];
    let n = crate::csv::read_full(&mut source, &mut magic)?;
    if n < 4 || &magic != b"PK\x03\x04" {
        let what = if magic.starts_with(&[0xD0, 0xCF, 0x11, 0xE0]) {
            "an old binary .xls workbook (save it as .xlsx)"
        } else {
            "not a ZIP archive"
        };
        return Err(malformed!(1, "this is not an XLSX workbook: {what}"));
    }
    source.seek(SeekFrom::Start(0))?;
    let mut book: Book = Xlsx::new(BufReader::new(source))
        .map_err(|e| malformed!(1, "this is not a readable XLSX workbook: {e}"))?;
    let names = book.sheet_names();
    if names.is_empty() {
        return Err(malformed!(1, "the workbook has no sheets"));
    }
    let chosen: Vec<String> = match &spec.options.xlsx.sheet {
        None => vec![names[0].clone()],
        Some(Sheet::All) => names.clone(),
        Some(Sheet::Index(i)) => match names.get(*i as usize - 1) {
            Some(n) => vec![n.clone()],
            None => {
                return Err(malformed!(
                    1,
                    "the workbook has {} sheets, not {i} ({})",
                    names.len(),
                    names.join(", ")
                ));
            }
        },
        Some(Sheet::Name(want)) => {
            match names.iter().find(|n| *n == want || n.eq_ignore_ascii_case(want)) {
                Some(n) => vec![n.clone()],
                None => {
                    return Err(malformed!(
                        1,
                        "the workbook has no sheet {want:?} (it has {})",
                        names.join(", ")
                    ));
                }
            }
        }
    };
    let jobs: Vec<Job> = chosen
        .into_iter()
        .map(|sheet| {
            let table = match (&spec.options.xlsx.sheet, &spec.target_table) {
                (Some(Sheet::All), _) | (_, None) => sheet.clone(),
                (_, Some(t)) => t.clone(),
            };
            let existing = lookup(&table);
            Job { sheet, table, existing }
        })
        .collect();
    let (tx, rx) = sync_channel(2);
    let header = spec.options.xlsx.header;
    let replace = spec.mode == Mode::Replace;
    std::thread::Builder::new()
        .name("asadb-xlsx-reader".into())
        .spawn(move || {
            let mut state = Sheets {
                tx,
                report: Report { format: "xlsx".into(), ..Report::default() },
                skips: SkipCounter::default(),
            };
            let count = jobs.len() as u64;
            for (k, job) in jobs.into_iter().enumerate() {
                let span = (total * k as u64 / count, total * (k as u64 + 1) / count);
                if let Err(e) = state.sheet(&mut book, job, header, replace, span) {
                    state.send_report();
                    let _ = state.tx.send(Msg::Error(e));
                    return;
                }
            }
            state.send_report();
        })
        .map_err(Error::Io)?;
    Ok(Box::new(XlsxReader {
        rx,
        report: Report { format: "xlsx".into(), ..Report::default() },
        done: false,
    }))
}

impl Reader for XlsxReader {
    fn next_unit(&mut self) -> Option<Result<Unit>> {
        if self.done {
            return None;
        }
        loop {
            match self.rx.recv() {
                Ok(Msg::Unit(u)) => return Some(Ok(u)),
                Ok(Msg::Report(r)) => self.report = r,
                Ok(Msg::Error(e)) => {
                    self.done = true;
                    // The report sent just before the error.
                    while let Ok(Msg::Report(r)) = self.rx.try_recv() {
                        self.report = r;
                    }
                    return Some(Err(e));
                }
                Err(_) => {
                    self.done = true;
                    return None;
                }
            }
        }
    }

    fn report(&self) -> Report {
        self.report.clone()
    }
}

/// The reading thread's state.
struct Sheets {
    tx: SyncSender<Msg>,
    report: Report,
    skips: SkipCounter,
}

/// A stop: the receiving side went away (the reader was dropped).
struct Gone;

impl From<Gone> for Error {
    fn from(_: Gone) -> Error {
        Error::InvalidOption("the import was stopped".into())
    }
}

impl Sheets {
    fn send(&self, u: Unit) -> std::result::Result<(), Gone> {
        self.tx.send(Msg::Unit(u)).map_err(|_| Gone)
    }

    fn send_report(&mut self) {
        self.report.skipped = self.skips.list();
        let _ = self.tx.send(Msg::Report(self.report.clone()));
    }

    fn sheet(
        &mut self,
        book: &mut Book,
        job: Job,
        header: Option<bool>,
        replace: bool,
        span: (u64, u64),
    ) -> Result<()> {
        let bad = |e: calamine::XlsxError| malformed!(0, "sheet {:?}: {e}", job.sheet);
        let merges = book.merge_cells_by_sheet_name(&job.sheet).map_err(bad)?;
        let mut cells = book.worksheet_cells_reader(&job.sheet).map_err(bad)?;
        let rows_total = u64::from(cells.dimensions().end.0) + 1;
        let formats: Vec<Option<String>> = cells
            .styles()
            .iter()
            .map(|s| s.number_format.as_ref().map(|f| f.format_code.clone()))
            .collect();
        let mut rows = Rows {
            cells: &mut cells,
            formats,
            merges: merges.iter().map(|d| (d.start, d.end, Value::Null)).collect(),
            next: None,
            done: false,
            sheet: job.sheet.clone(),
        };
        // The sample: the first non-empty rows.
        let mut sample: VecDeque<(u32, Vec<Value>)> = VecDeque::new();
        let mut sample_bytes = 0;
        while sample.len() < SAMPLE_ROWS && sample_bytes < BATCH_BYTES {
            match rows.next_row()? {
                Some((r, v)) if v.iter().all(Value::is_null) => {
                    self.skips.add("xlsx empty row", u64::from(r) + 1)
                }
                Some(row) => {
                    sample_bytes += row_bytes(&row.1);
                    sample.push_back(row);
                }
                None => break,
            }
        }
        let Some((_, first)) = sample.front().cloned() else {
            self.skips.add("xlsx empty sheet", 0);
            return Ok(());
        };
        let width_of = |v: &[Value]| v.iter().rposition(|x| !x.is_null()).map_or(0, |p| p + 1);
        let first_all_text = first.iter().all(|v| matches!(v, Value::Text(_) | Value::Null));
        let types_below = infer(sample.iter().skip(1).map(|(_, v)| v.as_slice()));
        let has_header = header.unwrap_or_else(|| {
            first_all_text
                && (types_below.iter().all(|t| *t == ColType::Text)
                    || first
                        .iter()
                        .zip(&types_below)
                        .any(|(v, t)| !v.is_null() && *t != ColType::Text))
        });
        let width = if has_header {
            width_of(&first)
        } else {
            sample.iter().map(|(_, v)| width_of(v)).max().unwrap_or(0)
        };
        if has_header {
            sample.pop_front();
        }
        let types: Vec<ColType> = {
            let mut t = infer(sample.iter().map(|(_, v)| v.as_slice()));
            t.resize(width, ColType::Text);
            t.truncate(width);
            t
        };
        let mut names: Vec<String> = if has_header {
            first
                .iter()
                .take(width)
                .map(|v| match v {
                    Value::Text(s) => s.to_str_lossy().trim().to_string(),
                    _ => String::new(),
                })
                .collect()
        } else {
            Vec::new()
        };
        names.resize(width, String::new());
        let names = crate::csv::sniff::unique_names(names);
        let columns = match &job.existing {
            None => None,
            Some(cols)
                if has_header
                    && names.iter().all(|n| cols.iter().any(|c| c.eq_ignore_ascii_case(n))) =>
            {
                Some(names.clone())
            }
            Some(cols) if cols.len() == width => None,
            Some(cols) => {
                return Err(malformed!(
                    0,
                    "sheet {:?} has {width} columns ({}) and table {} has {} ({})",
                    job.sheet,
                    names.join(", "),
                    job.table,
                    cols.len(),
                    cols.join(", ")
                ));
            }
        };
        if !self.report.tables.contains(&job.table) {
            self.report.tables.push(job.table.clone());
        }
        let defs: Vec<String> = names
            .iter()
            .zip(&types)
            .map(|(n, t)| format!("{} {}", quote_ident(n), t.sql()))
            .collect();
        self.send(Unit {
            body: Body::Sql(format!(
                "CREATE TABLE IF NOT EXISTS {} ({})",
                quote_ident(&job.table),
                defs.join(", ")
            )),
            line: 1,
            start: span.0,
            end: span.0,
        })?;
        if replace {
            self.send(Unit {
                body: Body::Sql(format!("DELETE FROM {}", quote_ident(&job.table))),
                line: 1,
                start: span.0,
                end: span.0,
            })?;
        }
        let mut batch: Vec<Vec<Value>> = Vec::new();
        let mut batch_bytes = 0;
        let mut lines: Vec<u64> = Vec::new();
        let mut start = span.0;
        let at = |r: u32| {
            span.0 + (span.1 - span.0) * (u64::from(r) + 1).min(rows_total) / rows_total.max(1)
        };
        loop {
            let row = match sample.pop_front() {
                Some(r) => Some(r),
                None => rows.next_row()?,
            };
            let flush = |batch: &mut Vec<Vec<Value>>,
                         lines: &mut Vec<u64>,
                         start: u64,
                         end: u64|
             -> std::result::Result<(), Gone> {
                if batch.is_empty() {
                    return Ok(());
                }
                let line = lines[0];
                self.send(Unit {
                    body: Body::Rows(RowBatch {
                        insert: InsertValues {
                            or_action: None,
                            schema: None,
                            table: job.table.clone(),
                            columns: columns.clone(),
                            rows: std::mem::take(batch),
                        },
                        lines: std::mem::take(lines),
                    }),
                    line,
                    start,
                    end,
                })
            };
            let Some((r, mut values)) = row else {
                flush(&mut batch, &mut lines, start, span.1)?;
                return Ok(());
            };
            if values.iter().all(Value::is_null) {
                self.skips.add("xlsx empty row", u64::from(r) + 1);
                continue;
            }
            if let Some(p) = values.iter().skip(width).position(|v| !v.is_null()) {
                return Err(malformed!(
                    u64::from(r) + 1,
                    "sheet {:?}: cell {}{} has a value right of the table's last column",
                    job.sheet,
                    column_letters(width + p),
                    r + 1
                ));
            }
            values.resize(width, Value::Null);
            batch_bytes += row_bytes(&values);
            batch.push(values);
            lines.push(u64::from(r) + 1);
            if batch.len() >= BATCH_ROWS || batch_bytes >= BATCH_BYTES {
                let end = at(r);
                flush(&mut batch, &mut lines, start, end)?;
                batch_bytes = 0;
                start = end;
            }
        }
    }
}

/// About the bytes a row's values hold (text and blobs; 8 for a number):
/// a sample and a batch end past [`BATCH_BYTES`], as a CSV batch does.
fn row_bytes(row: &[Value]) -> usize {
    row.iter()
        .map(|v| match v {
            Value::Text(t) => t.len(),
            Value::Blob(b) => b.len(),
            _ => 8,
        })
        .sum()
}

/// Column types over rows: INTEGER, REAL or TEXT (empty columns TEXT).
fn infer<'a>(rows: impl Iterator<Item = &'a [Value]>) -> Vec<ColType> {
    let mut seen: Vec<Option<ColType>> = Vec::new();
    for row in rows {
        if seen.len() < row.len() {
            seen.resize(row.len(), None);
        }
        for (s, v) in seen.iter_mut().zip(row) {
            let t = match v {
                Value::Null => continue,
                Value::Integer(_) => ColType::Integer,
                Value::Real(_) => ColType::Real,
                _ => ColType::Text,
            };
            *s = Some(s.map_or(t, |x| x.max(t)));
        }
    }
    seen.into_iter().map(|s| s.unwrap_or(ColType::Text)).collect()
}

/// `A`, `B`, … `AA` for a 0-based column.
fn column_letters(mut c: usize) -> String {
    let mut s = Vec::new();
    loop {
        s.push(b'A' + (c % 26) as u8);
        if c < 26 {
            break;
        }
        c = c / 26 - 1;
    }
    s.reverse();
    String::from_utf8(s).unwrap_or_default()
}

/// A merged range: top-left, bottom-right, and the top-left's value.
type Merged = ((u32, u32), (u32, u32), Value);

/// Rows out of the cell stream.
struct Rows<'c, 'a, R: std::io::Read + std::io::Seek> {
    cells: &'c mut calamine::XlsxCellReader<'a, R>,
    formats: Vec<Option<String>>,
    /// Merged ranges: (top-left, bottom-right, the top-left's value).
    merges: Vec<Merged>,
    /// The first cell of the next row.
    next: Option<(u32, u32, Value)>,
    done: bool,
    sheet: String,
}

impl<R: std::io::Read + std::io::Seek> Rows<'_, '_, R> {
    fn cell(&mut self) -> Result<Option<(u32, u32, Value)>> {
        let got = self
            .cells
            .next_cell_with_style_id()
            .map_err(|e| malformed!(0, "sheet {:?}: {e}", self.sheet))?;
        Ok(got.map(|(c, style)| {
            let (r, col) = c.get_position();
            let format = self.formats.get(style).and_then(|f| f.as_deref());
            (r, col, cell_value(c.get_value(), format))
        }))
    }

    /// The next row that has cells: its 0-based index and values.
    fn next_row(&mut self) -> Result<Option<(u32, Vec<Value>)>> {
        if self.done {
            return Ok(None);
        }
        let first = match self.next.take() {
            Some(c) => c,
            None => match self.cell()? {
                Some(c) => c,
                None => {
                    self.done = true;
                    return Ok(None);
                }
            },
        };
        let row = first.0;
        let mut values: Vec<Value> = Vec::new();
        let put = |values: &mut Vec<Value>, col: u32, v: Value| {
            let c = col as usize;
            if values.len() <= c {
                values.resize(c + 1, Value::Null);
            }
            values[c] = v;
        };
        put(&mut values, first.1, first.2);
        loop {
            match self.cell()? {
                Some((r, c, v)) if r == row => put(&mut values, c, v),
                Some(other) => {
                    self.next = Some(other);
                    break;
                }
                None => {
                    self.done = true;
                    break;
                }
            }
        }
        // Merged ranges take their top-left value.
        for (start, end, value) in &mut self.merges {
            if row == start.0 {
                *value = values.get(start.1 as usize).cloned().unwrap_or(Value::Null);
            }
            if row >= start.0 && row <= end.0 && !value.is_null() {
                for c in start.1..=end.1 {
                    if (row, c) == *start {
                        continue;
                    }
                    let c = c as usize;
                    if values.len() <= c {
                        values.resize(c + 1, Value::Null);
                    }
                    if values[c].is_null() {
                        values[c] = value.clone();
                    }
                }
            }
        }
        Ok(Some((row, values)))
    }
}

/// A cell's value (see the module docs).
fn cell_value(v: &DataRef<'_>, format: Option<&str>) -> Value {
    match v {
        DataRef::Empty => Value::Null,
        DataRef::Int(i) => Value::Integer(*i),
        DataRef::Float(f) => {
            if f.fract() == 0.0 && f.abs() < 9.0e15 {
                Value::Integer(*f as i64)
            } else {
                Value::Real(*f)
            }
        }
        DataRef::String(s) => Value::Text(s.clone().into()),
        DataRef::SharedString(s) => Value::Text(((*s).to_string()).into()),
        DataRef::Bool(b) => Value::Integer(i64::from(*b)),
        DataRef::DateTime(d) => Value::Text(datetime_text(d, format).into()),
        DataRef::DateTimeIso(s) | DataRef::DurationIso(s) => Value::Text(s.clone().into()),
        DataRef::Error(e) => Value::Text(e.to_string().into()),
    }
}

/// Which parts a date format code shows: (date, time).
fn format_parts(code: &str) -> (bool, bool) {
    let mut date = false;
    let mut time = false;
    let mut chars = code.chars().peekable();
    let mut quoted = false;
    let mut prev_time = false;
    while let Some(c) = chars.next() {
        if quoted {
            if c == '"' {
                quoted = false;
            }
            continue;
        }
        match c {
            '"' => quoted = true,
            '\\' | '_' | '*' => {
                chars.next();
            }
            '[' => {
                // [h] elapsed time, or [Red] / [$-409] modifiers.
                let inner: String = chars.by_ref().take_while(|&x| x != ']').collect();
                if inner.chars().all(|x| matches!(x.to_ascii_lowercase(), 'h' | 'm' | 's'))
                    && !inner.is_empty()
                {
                    time = true;
                }
            }
            ';' => break,
            'a' | 'A' => {
                // AM/PM and A/P markers.
                let rest: String = chars.clone().take(4).collect::<String>().to_ascii_uppercase();
                if rest.starts_with("M/PM") {
                    chars.nth(3);
                } else if rest.starts_with("/P") {
                    chars.nth(1);
                }
                time = true;
            }
            'y' | 'Y' | 'd' | 'D' | 'e' => date = true,
            'h' | 'H' | 's' | 'S' => {
                time = true;
                prev_time = true;
                continue;
            }
            'm' | 'M' => {
                // Minutes right after hours or before seconds, else month.
                let next_s = {
                    let rest: String = chars.clone().take(4).collect();
                    rest.trim_start_matches(['m', 'M']).starts_with([':', 's', 'S'])
                        && rest.contains(['s', 'S'])
                };
                if prev_time || next_s {
                    time = true;
                } else {
                    date = true;
                }
            }
            _ => {}
        }
        if !matches!(c, ':' | ' ' | 'm' | 'M') {
            prev_time = false;
        }
    }
    if !date && !time {
        date = true;
    }
    (date, time)
}

fn datetime_text(d: &calamine::ExcelDateTime, format: Option<&str>) -> String {
    if d.is_duration() {
        let total_ms = (d.as_f64() * 86_400_000.0).round() as i64;
        let sign = if total_ms < 0 { "-" } else { "" };
        let ms = total_ms.unsigned_abs();
        let (h, m, s, milli) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000);
        return if milli == 0 {
            format!("{sign}{h}:{m:02}:{s:02}")
        } else {
            format!("{sign}{h}:{m:02}:{s:02}.{milli:03}")
        };
    }
    let (y, mo, da, h, mi, s, milli) = d.to_ymd_hms_milli();
    let (show_date, show_time) = format.map_or((true, true), format_parts);
    let date = format!("{y:04}-{mo:02}-{da:02}");
    let mut time = format!("{h:02}:{mi:02}:{s:02}");
    if milli != 0 {
        time.push_str(&format!(".{milli:03}"));
    }
    match (show_date, show_time) {
        (true, true) => format!("{date} {time}"),
        (false, true) => time,
        _ if h != 0 || mi != 0 || s != 0 || milli != 0 => format!("{date} {time}"),
        _ => date,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn date_format_codes() {
        assert_eq!(format_parts("yyyy-mm-dd hh:mm:ss"), (true, true));
        assert_eq!(format_parts("yyyy\\-mm\\-dd\\ hh:mm:ss"), (true, true));
        assert_eq!(format_parts("yyyy-mm-dd"), (true, false));
        assert_eq!(format_parts("mm-dd-yy"), (true, false));
        assert_eq!(format_parts("h:mm AM/PM"), (false, true));
        assert_eq!(format_parts("mm:ss"), (false, true));
        assert_eq!(format_parts("[h]:mm:ss"), (false, true));
        assert_eq!(format_parts("[$-409]d-mmm-yy;@"), (true, false));
        assert_eq!(format_parts("\"Day\" d"), (true, false));
        assert_eq!(column_letters(0), "A");
        assert_eq!(column_letters(27), "AB");
    }
}
