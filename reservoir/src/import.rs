//! Imports in the worker: which units a job runs, and how a batch of
//! rows runs.
//!
//! A job's body is either a script (format sql or sqlite: the script
//! splitter's statements, resumed from the marker's byte offset) or an
//! import (csv, xlsx, mysql, postgresql: the units of an
//! `asadb_interchange` reader). Either way the worker sees [`Step`]s with
//! a durable index, so batching, stop-on-error, cancellation and the
//! progress marker work the same for both.
//!
//! Resume of an import: the marker counts units. A reader is
//! deterministic for the same bytes and options, so `resume` opens it
//! again from the start and skips the units the marker says are durable
//! (reading them costs parsing, never executing), then runs the rest:
//! each unit exactly once. The skip counts of the report are rebuilt by
//! that same replay.
//!
//! A batch of rows is one statement: it commits or rolls back as a whole.
//! When it fails, its rows are tried one at a time to name the line of the
//! failing row; with stop-on-error off, the good rows stay and each bad
//! row is recorded as an error. The rows for that second try are a copy
//! kept without stop-on-error, and with it (the default, where a failure
//! ends the job) the failing batch read again from the spool by the
//! resume replay — so a batch that succeeds is never copied. A row holding
//! a value over `max_value_bytes` fails as `too_large` before the batch
//! runs.

use std::io::{BufReader, Read, Seek, SeekFrom};

use asadb_interchange::{Body, Format, Reader, Report, RowBatch, Spec};
use asadb_sql::script::{Splitter, SplitterOptions};
use asadb_sql::session::{Outcome, Params, Session};
use asadb_sql::storage::Interrupt;

use crate::core::Reservoir;
use crate::files::{IoCursor, Open};
use crate::job::{ImportMeta, ImportMode, JobError, JobId};
use crate::worker::oversize_value;
use crate::{Error, Result};

/// Refuses import metadata that cannot work, before the body is read.
pub(crate) fn admit(meta: &ImportMeta) -> Result<()> {
    let Some(format) = meta.format.known() else {
        // Detected later; options of two formats cannot both apply.
        if !meta.options.csv.is_empty() && !meta.options.xlsx.is_empty() {
            return Err(Error::InvalidInput(
                "CSV and XLSX options cannot both apply to one body".into(),
            ));
        }
        return Ok(());
    };
    check(format, meta).map_err(|e| Error::InvalidInput(e.to_string()))
}

fn check(format: Format, meta: &ImportMeta) -> asadb_interchange::Result<()> {
    asadb_interchange::check(
        format,
        meta.target_table.as_deref(),
        meta.original_name.as_deref(),
        meta.mode == ImportMode::Replace,
        &meta.options,
    )
}

/// One thing to run, with its durable index and source position.
pub(crate) struct Step {
    pub index: u64,
    pub start: u64,
    pub end: u64,
    /// Source line (imports; 0 for scripts).
    pub line: u64,
    pub body: StepBody,
    /// Set by [`run_rows`]: the line of the row that failed.
    pub failed_line: Option<u64>,
}

pub(crate) enum StepBody {
    Sql(String),
    Rows(RowBatch),
}

impl Step {
    /// The SQL text (empty for rows).
    pub fn text(&self) -> &str {
        match &self.body {
            StepBody::Sql(t) => t,
            StepBody::Rows(_) => "",
        }
    }

    /// The start of the text, or a description of the rows.
    pub fn excerpt(&self, max_chars: usize) -> String {
        match &self.body {
            StepBody::Sql(t) => t.chars().take(max_chars).collect(),
            StepBody::Rows(b) => b.describe(self.line != 0),
        }
    }

    /// An error message with the source line it is about.
    pub fn locate(&self, message: String) -> String {
        match self.failed_line.or((self.line > 0).then_some(self.line)) {
            Some(line) => format!("line {line}: {message}"),
            None => message,
        }
    }
}

/// Why the next step could not be read.
pub(crate) enum StepError {
    /// The script splitter failed.
    Script(asadb_sql::Error),
    /// The import reader failed: the job's error.
    Import(JobError),
}

/// The units of one job.
pub(crate) enum Units {
    Script {
        splitter: Box<Splitter<BufReader<IoCursor>>>,
        first: u64,
        start_offset: u64,
        format: Format,
    },
    Import {
        reader: Box<dyn Reader>,
        next: u64,
    },
}

/// A UTF-8 byte order mark.
const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];

impl Units {
    /// Opens job `id`'s body at its durable position: statement `first`
    /// at byte `start_offset` for scripts, unit `first` for imports.
    pub fn open(
        res: &Reservoir,
        session: &mut Session,
        id: JobId,
        first: u64,
        start_offset: u64,
    ) -> std::result::Result<Units, JobError> {
        let meta = {
            let st = res.inner.state.lock();
            st.jobs[&id].job.import.clone()
        };
        let job_error = |code: &str, message: String| JobError {
            code: code.into(),
            message,
            statement: Some(first),
            excerpt: None,
        };
        let io =
            |e: std::io::Error| job_error("io", format!("reading the spooled body failed: {e}"));
        let file = res.inner.files.open(&res.inner.spool_path(id), Open::Read).map_err(io)?;
        let mut file = IoCursor::new(file);
        let format = match meta.format.known() {
            Some(f) => f,
            None => {
                let mut head = vec![0u8; asadb_interchange::detect::DETECT_BYTES];
                let n = read_full(&mut file, &mut head).map_err(io)?;
                let f = asadb_interchange::detect(&head[..n], meta.original_name.as_deref());
                check(f, &meta).map_err(|e| {
                    job_error("invalid_input", format!("the body was detected as {f}: {e}"))
                })?;
                f
            }
        };
        if format.is_plain_sql() {
            let mut start_offset = start_offset;
            if start_offset == 0 {
                // A UTF-8 byte order mark before the first statement is not
                // SQL: skip it (as done), like sqlite3 and psql do.
                let mut bom = [0u8; 3];
                file.seek(SeekFrom::Start(0)).map_err(io)?;
                if read_full(&mut file, &mut bom).map_err(io)? == 3 && bom == BOM {
                    start_offset = BOM.len() as u64;
                }
            }
            file.seek(SeekFrom::Start(start_offset)).map_err(io)?;
            let splitter =
                Box::new(Splitter::with_options(BufReader::new(file), SplitterOptions::default()));
            return Ok(Units::Script { splitter, first, start_offset, format });
        }
        let spec = Spec {
            format,
            original_name: meta.original_name.clone(),
            target_table: meta.target_table.clone(),
            mode: match meta.mode {
                ImportMode::Append => asadb_interchange::Mode::Append,
                ImportMode::Replace => asadb_interchange::Mode::Replace,
            },
            options: meta.options.clone(),
        };
        let mut lookup = |name: &str| table_columns(session, name);
        let mut reader = asadb_interchange::open(&spec, Box::new(file), &mut lookup)
            .map_err(|e| job_error(e.code(), e.to_string()))?;
        // A resumed import: replay the units already durable.
        for skipped in 0..first {
            match reader.next_unit() {
                Some(Ok(_)) => {}
                Some(Err(e)) => {
                    return Err(JobError {
                        code: e.code().into(),
                        message: e.to_string(),
                        statement: Some(skipped),
                        excerpt: None,
                    });
                }
                None => break,
            }
        }
        Ok(Units::Import { reader, next: first })
    }

    /// The next step, `None` at the end.
    pub fn next(&mut self) -> Option<std::result::Result<Step, StepError>> {
        match self {
            Units::Script { splitter, first, start_offset, .. } => {
                let stmt = match splitter.next()? {
                    Ok(s) => s,
                    Err(e) => return Some(Err(StepError::Script(e))),
                };
                Some(Ok(Step {
                    index: *first + stmt.index,
                    start: *start_offset + stmt.start,
                    end: *start_offset + stmt.end,
                    line: 0,
                    body: StepBody::Sql(stmt.text),
                    failed_line: None,
                }))
            }
            Units::Import { reader, next } => {
                let index = *next;
                let unit = match reader.next_unit()? {
                    Ok(u) => u,
                    Err(e) => {
                        return Some(Err(StepError::Import(JobError {
                            code: e.code().into(),
                            message: e.to_string(),
                            statement: Some(index),
                            excerpt: None,
                        })));
                    }
                };
                *next += 1;
                Some(Ok(Step {
                    index,
                    start: unit.start,
                    end: unit.end,
                    line: unit.line,
                    body: match unit.body {
                        Body::Sql(s) => StepBody::Sql(s),
                        Body::Rows(b) => StepBody::Rows(b),
                    },
                    failed_line: None,
                }))
            }
        }
    }

    /// The import's report (`None` for a plain SQL script).
    pub fn report(&self) -> Option<Report> {
        match self {
            Units::Script { format: Format::Sql, .. } => None,
            Units::Script { format, .. } => {
                Some(Report { format: format.as_str().into(), ..Report::default() })
            }
            Units::Import { reader, .. } => Some(reader.report()),
        }
    }
}

/// The rows of import unit `index` of job `id`, read again from the
/// spool: the reader is opened and replayed up to that unit, as `resume`
/// does (deterministic: the same rows, up to the affinity the engine
/// applies anyway). `None` when it cannot be read again.
pub(crate) fn refetch_rows(
    res: &Reservoir,
    session: &mut Session,
    id: JobId,
    index: u64,
) -> Option<RowBatch> {
    let mut units = Units::open(res, session, id, index, 0).ok()?;
    match units.next()? {
        Ok(Step { index: i, body: StepBody::Rows(b), .. }) if i == index => Some(b),
        _ => None,
    }
}

/// An existing table's column names, `None` when there is no such table.
fn table_columns(session: &mut Session, name: &str) -> Option<Vec<String>> {
    let sql = format!("SELECT * FROM {} LIMIT 0", asadb_interchange::quote_ident(name));
    match session.execute(&sql, &Params::None) {
        Ok(Outcome::Rows { columns, .. }) => Some(columns),
        _ => None,
    }
}

/// Runs a batch of rows (see the module docs); the rows written. With
/// stop-on-error the first failing row fails the batch (its line in
/// `failed_line`); without, each failing row is appended to `row_errors`
/// and the others are written. A row holding a value longer than
/// `max_value` bytes (the limit every result row is held to, so whatever
/// is imported can be read back) fails as a `too_large` row, before
/// anything of the batch is written.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run_rows(
    session: &mut Session,
    batch: RowBatch,
    interrupt: &Interrupt,
    stop_on_error: bool,
    max_value: usize,
    refetch: &mut dyn FnMut(&mut Session) -> Option<RowBatch>,
    failed_line: &mut Option<u64>,
    row_errors: &mut Vec<JobError>,
) -> asadb_sql::Result<u64> {
    let RowBatch { mut insert, mut lines } = batch;
    if insert.rows.iter().any(|r| oversize_value(r, max_value).is_some()) {
        let too_large = |(col, len): (usize, usize)| {
            asadb_sql::Error::TooLarge(format!(
                "column {} holds a {len}-byte value, more than the limit of {max_value} bytes \
                 (max-value-bytes)",
                col + 1
            ))
        };
        let mut kept_rows = Vec::with_capacity(insert.rows.len());
        let mut kept_lines = Vec::with_capacity(lines.len());
        for (row, line) in std::mem::take(&mut insert.rows).into_iter().zip(lines) {
            match oversize_value(&row, max_value) {
                None => {
                    kept_rows.push(row);
                    kept_lines.push(line);
                }
                Some(big) if stop_on_error => {
                    *failed_line = Some(line);
                    return Err(too_large(big));
                }
                Some(big) => row_errors.push(JobError {
                    code: "too_large".into(),
                    message: format!("line {line}: {}", too_large(big)),
                    statement: None,
                    excerpt: None,
                }),
            }
        }
        insert.rows = kept_rows;
        lines = kept_lines;
        if insert.rows.is_empty() {
            return Ok(0);
        }
    }
    // The rows are needed again only when the batch fails. Without
    // stop-on-error failures are expected and each is recorded: a copy is
    // kept. With it (the default) a failure ends the job, so the rows are
    // not copied on every batch: the failing batch is read again from the
    // spool instead (`refetch`, the resume replay of the reader).
    let spare = (!stop_on_error).then(|| (insert.clone(), lines.clone()));
    session.set_interrupt(Some(interrupt.clone()));
    let first = session.insert_values_owned(insert);
    let result = match first {
        Ok(outcome) => Ok(affected(outcome)),
        Err(asadb_sql::Error::Interrupted) => Err(asadb_sql::Error::Interrupted),
        Err(batch_error) => 'failed: {
            let again = match spare {
                Some(kept) => Some(kept),
                None => refetch(session).map(|b| (b.insert, b.lines)),
            };
            let Some((spare, lines)) = again else {
                // The batch cannot be read again: its error stands, at
                // the batch's first line.
                break 'failed Err(batch_error);
            };
            let asadb_interchange::InsertValues { or_action, schema, table, columns, rows } = spare;
            let mut written = 0;
            let mut outcome = Err(batch_error);
            let mut any_failed = false;
            for (row, line) in rows.into_iter().zip(lines) {
                let one = asadb_interchange::InsertValues {
                    or_action,
                    schema: schema.clone(),
                    table: table.clone(),
                    columns: columns.clone(),
                    rows: vec![row],
                };
                match session.insert_values_owned(one) {
                    Ok(o) => written += affected(o),
                    Err(asadb_sql::Error::Interrupted) => {
                        outcome = Err(asadb_sql::Error::Interrupted);
                        any_failed = true;
                        break;
                    }
                    Err(e) if stop_on_error => {
                        *failed_line = Some(line);
                        outcome = Err(e);
                        any_failed = true;
                        break;
                    }
                    Err(e) => {
                        any_failed = true;
                        row_errors.push(JobError {
                            code: "sql_error".into(),
                            message: format!("line {line}: {e}"),
                            statement: None,
                            excerpt: None,
                        });
                    }
                }
            }
            if stop_on_error || !any_failed {
                // `!any_failed`: the batch failed but no row alone does;
                // the batch's error stands.
                outcome
            } else {
                Ok(written)
            }
        }
    };
    session.set_interrupt(None);
    result
}

fn affected(o: Outcome) -> u64 {
    match o {
        Outcome::Affected(n) => n,
        _ => 0,
    }
}

fn read_full(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
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
