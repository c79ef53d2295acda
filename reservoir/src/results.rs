//! Result files: per-statement summaries and the rows of statements that
//! return rows, paged without reading the whole file.
//!
//! A result is written to `<id>.result.tmp` (plus two side files for the
//! summaries and the statement table, so memory stays bounded however many
//! statements a script has), then assembled, fsynced and renamed to
//! `<id>.result`: a result file that exists is complete.
//!
//! Layout of `<id>.result` (integers u64 LE):
//!
//! ```text
//! MAGIC                       b"ASARSLT1"
//! rows                        per statement, its rows as JSON arrays, one per line ("\n")
//! summaries                   one JSON object per statement, one per line
//! row index                   for each statement with rows: the offset of rows 0, S, 2S, …
//!                             (S = INDEX_STEP)
//! statement table             per statement, 32 bytes:
//!                               summary offset, summary length, row-index offset,
//!                               offset of the statement's first row
//! trailer (32 bytes)          statement-table offset, statement count,
//!                             first statement index, TRAILER_MAGIC b"ASARSEND"
//! ```
//!
//! Reading a page seeks to the statement's table entry, its summary, the
//! nearest row-index entry at or before `offset`, and skips at most
//! `INDEX_STEP - 1` lines: the cost is independent of the result's size.

use std::io::{BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::files::{Files, IoCursor, Open};

use crate::job::JobError;
use crate::{Error, Result};

const MAGIC: &[u8; 8] = b"ASARSLT1";
const TRAILER_MAGIC: &[u8; 8] = b"ASARSEND";
const TRAILER: u64 = 32;
const ENTRY: u64 = 32;
/// Rows between two row-index entries.
pub const INDEX_STEP: u64 = 64;

/// What one statement did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StatementSummary {
    /// 0-based index of the statement in the script.
    pub statement: u64,
    /// The start of the statement's text.
    pub excerpt: String,
    /// Rows inserted, updated or deleted.
    pub rows_affected: u64,
    /// Column names, for a statement that returns rows.
    pub columns: Option<Vec<String>>,
    /// Rows returned.
    pub row_count: u64,
    /// The statement's error, if it failed.
    pub error: Option<JobError>,
    /// How long the statement ran, in milliseconds (0 in results written
    /// before this field existed).
    #[serde(default)]
    pub elapsed_ms: f64,
}

/// One page of a statement's result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ResultPage {
    pub statement: StatementSummary,
    pub columns: Vec<String>,
    pub rows: Vec<serde_json::Value>,
    pub offset: u64,
    /// The offset of the next page, or `None` after the last row.
    pub next_offset: Option<u64>,
    /// Why the page holds fewer rows than asked although more follow:
    /// `"max_page_bytes"` when the next row would have taken it past the
    /// page byte limit; `None` otherwise.
    pub ended_early: Option<&'static str>,
    /// How many statements the result describes, and the first one's index
    /// (a resumed job's result starts after its last durable statement).
    pub statements: u64,
    pub first_statement: u64,
}

/// Streams a job's result to disk.
#[derive(Debug)]
pub struct ResultWriter {
    files: Arc<dyn Files>,
    final_path: PathBuf,
    tmp_path: PathBuf,
    /// Summaries, row index and statement table, assembled at the end.
    side_paths: [PathBuf; 3],
    rows: BufWriter<IoCursor>,
    rows_len: u64,
    summaries: BufWriter<IoCursor>,
    summaries_len: u64,
    /// Row-index entries: (statement-local) offsets of every INDEX_STEP-th row.
    index: BufWriter<IoCursor>,
    index_len: u64,
    table: Vec<u8>,
    table_file: BufWriter<IoCursor>,
    first_statement: u64,
    statements: u64,
    /// The statement being written: its row count, first row offset and
    /// row-index offset.
    current: Option<(u64, u64, u64)>,
    /// Set once the result is renamed into place.
    finished: bool,
}

/// Every way a result ends without [`ResultWriter::finish`] succeeding —
/// a failed write (a full disk), an error of the job, a panic — removes
/// its temporary files, so a failure never leaves megabytes behind that
/// keep the disk full. (What a crash leaves is swept when the Reservoir
/// opens: files no job references are removed.)
impl Drop for ResultWriter {
    fn drop(&mut self) {
        if !self.finished {
            let _ = self.files.remove(&self.tmp_path);
        }
        self.remove_side_files();
    }
}

impl ResultWriter {
    /// Starts the result of job file stem `stem` (e.g. `"12"`) in `dir`.
    pub fn create(
        files: Arc<dyn Files>,
        dir: &Path,
        stem: &str,
        first_statement: u64,
    ) -> Result<Self> {
        let final_path = dir.join(format!("{stem}.result"));
        let tmp_path = dir.join(format!("{stem}.result.tmp"));
        let side_paths = [
            dir.join(format!("{stem}.sum.tmp")),
            dir.join(format!("{stem}.idx.tmp")),
            dir.join(format!("{stem}.tbl.tmp")),
        ];
        let open = |p: &Path| -> Result<BufWriter<IoCursor>> {
            let f = files.open(p, Open::Truncate)?;
            Ok(BufWriter::with_capacity(64 << 10, IoCursor::new(f)))
        };
        let opened = (|| -> Result<_> {
            let mut rows = open(&tmp_path)?;
            rows.write_all(MAGIC)?;
            Ok((rows, open(&side_paths[0])?, open(&side_paths[1])?, open(&side_paths[2])?))
        })();
        let (rows, summaries, index, table_file) = match opened {
            Ok(files) => files,
            Err(e) => {
                for p in std::iter::once(&tmp_path).chain(&side_paths) {
                    let _ = files.remove(p);
                }
                return Err(e);
            }
        };
        let w = ResultWriter {
            files,
            final_path,
            tmp_path,
            side_paths,
            rows,
            rows_len: MAGIC.len() as u64,
            summaries,
            summaries_len: 0,
            index,
            index_len: 0,
            table: Vec::with_capacity(ENTRY as usize),
            table_file,
            first_statement,
            statements: 0,
            current: None,
            finished: false,
        };
        Ok(w)
    }

    /// Starts the next statement's rows.
    pub fn begin_statement(&mut self) {
        self.current = Some((0, self.rows_len, self.index_len));
    }

    /// Appends one row, already serialized as a JSON array.
    pub fn row(&mut self, json_array: &str) -> Result<()> {
        let Some((count, _, _)) = self.current.as_mut() else {
            return Err(Error::InvalidState("row written outside a statement".into()));
        };
        if *count % INDEX_STEP == 0 {
            self.index.write_all(&self.rows_len.to_le_bytes())?;
            self.index_len += 8;
        }
        *count += 1;
        self.rows.write_all(json_array.as_bytes())?;
        self.rows.write_all(b"\n")?;
        self.rows_len += json_array.len() as u64 + 1;
        Ok(())
    }

    /// Ends the current statement with its summary (`row_count` is set
    /// from the rows written).
    pub fn end_statement(&mut self, mut summary: StatementSummary) -> Result<()> {
        let (count, first_row, index_at) = self.current.take().unwrap_or((0, self.rows_len, 0));
        summary.row_count = count;
        let line = serde_json::to_vec(&summary)
            .map_err(|e| Error::Corrupt(format!("cannot encode a statement summary: {e}")))?;
        self.table.clear();
        self.table.extend_from_slice(&self.summaries_len.to_le_bytes());
        self.table.extend_from_slice(&(line.len() as u64).to_le_bytes());
        self.table.extend_from_slice(&index_at.to_le_bytes());
        self.table.extend_from_slice(&first_row.to_le_bytes());
        self.table_file.write_all(&self.table)?;
        self.summaries.write_all(&line)?;
        self.summaries.write_all(b"\n")?;
        self.summaries_len += line.len() as u64 + 1;
        self.statements += 1;
        Ok(())
    }

    /// Statements ended so far.
    pub fn statements(&self) -> u64 {
        self.statements
    }

    /// Assembles, fsyncs and renames the result into place.
    pub fn finish(mut self) -> Result<()> {
        let summaries_at = self.rows_len;
        let index_at = summaries_at + self.summaries_len;
        let table_at = index_at + self.index_len;
        append_side(&mut self.rows, &mut self.summaries)?;
        append_side(&mut self.rows, &mut self.index)?;
        // Table entries hold section-relative offsets; rebase them.
        self.table_file.flush()?;
        let table = self.table_file.get_mut();
        table.seek(SeekFrom::Start(0))?;
        let mut entry = [0u8; ENTRY as usize];
        let mut reader = BufReader::new(table);
        for _ in 0..self.statements {
            reader.read_exact(&mut entry)?;
            let get = |i: usize| u64::from_le_bytes(entry[i * 8..i * 8 + 8].try_into().unwrap());
            let (sum, len, idx, first) = (get(0), get(1), get(2), get(3));
            self.rows.write_all(&(summaries_at + sum).to_le_bytes())?;
            self.rows.write_all(&len.to_le_bytes())?;
            self.rows.write_all(&(index_at + idx).to_le_bytes())?;
            self.rows.write_all(&first.to_le_bytes())?;
        }
        self.rows.write_all(&table_at.to_le_bytes())?;
        self.rows.write_all(&self.statements.to_le_bytes())?;
        self.rows.write_all(&self.first_statement.to_le_bytes())?;
        self.rows.write_all(TRAILER_MAGIC)?;
        self.rows.flush()?;
        self.rows.get_ref().io().sync()?;
        self.files.rename(&self.tmp_path, &self.final_path)?;
        self.finished = true;
        if let Err(e) = crate::eventlog::sync_dir(&*self.files, &self.final_path) {
            // Not durable: the job will not report it, so it must not stay.
            let _ = self.files.remove(&self.final_path);
            return Err(e.into());
        }
        Ok(())
    }

    /// Drops an unfinished result and its temporary files.
    pub fn discard(self) {
        drop(self);
    }

    fn remove_side_files(&self) {
        for p in &self.side_paths {
            let _ = self.files.remove(p);
        }
    }
}

fn append_side(out: &mut BufWriter<IoCursor>, side: &mut BufWriter<IoCursor>) -> Result<()> {
    side.flush()?;
    let f = side.get_mut();
    f.seek(SeekFrom::Start(0))?;
    std::io::copy(f, out)?;
    Ok(())
}

/// Reads `limit` rows of statement `statement` from `offset` in a result
/// file, at most `max_bytes` bytes of them (a first row longer than that is
/// `TooLarge`). Memory and IO are bounded by the page, not the file.
pub fn read_page(
    files: &dyn Files,
    path: &Path,
    statement: u64,
    offset: u64,
    limit: usize,
    max_bytes: usize,
) -> Result<ResultPage> {
    let mut f = IoCursor::new(files.open(path, Open::Read)?);
    let len = f.io().len()?;
    let bad = |what: &str| Error::Corrupt(format!("result file {}: {what}", path.display()));
    if len < MAGIC.len() as u64 + TRAILER {
        return Err(bad("too short"));
    }
    f.seek(SeekFrom::Start(len - TRAILER))?;
    let mut trailer = [0u8; TRAILER as usize];
    f.read_exact(&mut trailer)?;
    if &trailer[24..32] != TRAILER_MAGIC {
        return Err(bad("missing trailer"));
    }
    let get = |b: &[u8], i: usize| u64::from_le_bytes(b[i * 8..i * 8 + 8].try_into().unwrap());
    let (table_at, count, first) = (get(&trailer, 0), get(&trailer, 1), get(&trailer, 2));
    if table_at.checked_add(count.saturating_mul(ENTRY)) != Some(len - TRAILER) {
        return Err(bad("statement table does not fit"));
    }
    if statement < first || statement - first >= count {
        return Err(Error::InvalidInput(format!(
            "statement {statement} is not in this result (it holds statements {first}..{})",
            first + count
        )));
    }
    f.seek(SeekFrom::Start(table_at + (statement - first) * ENTRY))?;
    let mut entry = [0u8; ENTRY as usize];
    f.read_exact(&mut entry)?;
    let (sum_at, sum_len, index_at, first_row) =
        (get(&entry, 0), get(&entry, 1), get(&entry, 2), get(&entry, 3));
    if sum_at.saturating_add(sum_len) > table_at || sum_len > 16 << 20 {
        return Err(bad("summary out of range"));
    }
    f.seek(SeekFrom::Start(sum_at))?;
    let mut line = vec![0u8; sum_len as usize];
    f.read_exact(&mut line)?;
    let summary: StatementSummary =
        serde_json::from_slice(&line).map_err(|_| bad("summary does not decode"))?;
    let columns = summary.columns.clone().unwrap_or_default();
    let mut rows = Vec::new();
    let mut ended_early = None;
    if offset < summary.row_count && limit > 0 {
        let step = offset / INDEX_STEP;
        let start = if step == 0 {
            first_row
        } else {
            f.seek(SeekFrom::Start(index_at + step * 8))?;
            let mut b = [0u8; 8];
            f.read_exact(&mut b)?;
            u64::from_le_bytes(b)
        };
        f.seek(SeekFrom::Start(start))?;
        let mut reader = BufReader::new(f);
        let mut buf = String::new();
        let want = (limit as u64).min(summary.row_count - offset);
        let mut bytes = 0usize;
        for i in 0..(offset - step * INDEX_STEP) + want {
            buf.clear();
            if reader.read_line(&mut buf)? == 0 {
                return Err(bad("rows end early"));
            }
            if i >= offset - step * INDEX_STEP {
                let line = buf.trim_end();
                if bytes + line.len() > max_bytes {
                    if rows.is_empty() {
                        return Err(Error::TooLarge(format!(
                            "row {offset} of statement {statement} is {} bytes, more than the \
                             page limit of {max_bytes} bytes (max-page-bytes)",
                            line.len()
                        )));
                    }
                    ended_early = Some("max_page_bytes");
                    break;
                }
                bytes += line.len() + 1;
                rows.push(serde_json::from_str(line).map_err(|_| bad("bad row"))?);
            }
        }
    }
    let end = offset + rows.len() as u64;
    let next_offset = (end < summary.row_count && !rows.is_empty()).then_some(end);
    Ok(ResultPage {
        statement: summary,
        columns,
        rows,
        offset,
        next_offset,
        ended_early,
        statements: count,
        first_statement: first,
    })
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;
    use crate::files::OsFiles;

    fn create(dir: &Path, stem: &str, first_statement: u64) -> Result<ResultWriter> {
        ResultWriter::create(Arc::new(OsFiles), dir, stem, first_statement)
    }

    fn read_page(
        path: &Path,
        statement: u64,
        offset: u64,
        limit: usize,
        max_bytes: usize,
    ) -> Result<ResultPage> {
        super::read_page(&OsFiles, path, statement, offset, limit, max_bytes)
    }

    fn summary(i: u64, columns: Option<Vec<String>>) -> StatementSummary {
        StatementSummary {
            statement: i,
            excerpt: format!("stmt {i}"),
            rows_affected: i,
            columns,
            row_count: 0,
            error: None,
            elapsed_ms: 1.5,
        }
    }

    fn read_page_all(path: &Path, statement: u64, offset: u64, limit: usize) -> Result<ResultPage> {
        read_page(path, statement, offset, limit, usize::MAX)
    }

    #[test]
    fn an_unfinished_or_failed_result_leaves_no_file_behind() {
        let dir = tempfile::tempdir().unwrap();
        let names = || {
            let mut v: Vec<String> = fs::read_dir(dir.path())
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            v.sort();
            v
        };
        // Dropped mid-statement (an error of the job, a failed write).
        let mut w = create(dir.path(), "4", 0).unwrap();
        w.begin_statement();
        w.row(&format!("[\"{}\"]", "x".repeat(100_000))).unwrap();
        assert_eq!(names().len(), 4, "{:?}", names());
        drop(w);
        assert!(names().is_empty(), "{:?}", names());
        // Discarded.
        let w = create(dir.path(), "5", 0).unwrap();
        w.discard();
        assert!(names().is_empty(), "{:?}", names());
        // A failed create removes what it had opened: a side file's name
        // taken by a directory makes its open fail.
        fs::create_dir(dir.path().join("6.idx.tmp")).unwrap();
        assert!(create(dir.path(), "6", 0).is_err());
        assert_eq!(names(), vec!["6.idx.tmp".to_string()]);
        fs::remove_dir(dir.path().join("6.idx.tmp")).unwrap();
        // Finished: only the result stays.
        let mut w = create(dir.path(), "7", 0).unwrap();
        w.begin_statement();
        w.end_statement(summary(0, None)).unwrap();
        w.finish().unwrap();
        assert_eq!(names(), vec!["7.result".to_string()]);
    }

    #[test]
    fn pages_end_early_at_their_byte_limit_and_continue() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = create(dir.path(), "3", 0).unwrap();
        w.begin_statement();
        for r in 0..100 {
            w.row(&format!("[{r},\"{}\"]", "x".repeat(90))).unwrap();
        }
        w.end_statement(summary(0, Some(vec!["a".into(), "b".into()]))).unwrap();
        w.finish().unwrap();
        let path = dir.path().join("3.result");
        // Rows are about 98 bytes: 1000 bytes hold 10 of them.
        let mut offset = 0;
        let mut seen = 0;
        loop {
            let at = offset;
            let p = read_page(&path, 0, at, 250, 1000).unwrap();
            assert!(p.rows.len() <= 10, "{}", p.rows.len());
            assert_eq!(p.rows[0][0], serde_json::json!(at));
            seen += p.rows.len();
            match p.next_offset {
                Some(n) => {
                    assert_eq!(p.ended_early, Some("max_page_bytes"));
                    offset = n;
                }
                None => {
                    assert_eq!(p.ended_early, None);
                    break;
                }
            }
        }
        assert_eq!(seen, 100);
        let err = read_page(&path, 0, 0, 250, 50).unwrap_err();
        assert!(matches!(err, Error::TooLarge(_)), "{err}");
    }

    #[test]
    fn pages_over_many_statements_and_rows() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = create(dir.path(), "7", 3).unwrap();
        // Statement 3: no rows; 4: 1000 rows; 5: 1 row; 6: none.
        w.begin_statement();
        w.end_statement(summary(3, None)).unwrap();
        w.begin_statement();
        for r in 0..1000 {
            w.row(&format!("[{r},\"r{r}\"]")).unwrap();
        }
        w.end_statement(summary(4, Some(vec!["a".into(), "b".into()]))).unwrap();
        w.begin_statement();
        w.row("[null]").unwrap();
        w.end_statement(summary(5, Some(vec!["x".into()]))).unwrap();
        w.begin_statement();
        w.end_statement(summary(6, None)).unwrap();
        w.finish().unwrap();
        let names: Vec<_> =
            fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from("7.result")], "no temporary file left");
        let path = dir.path().join("7.result");

        let p = read_page_all(&path, 4, 0, 250).unwrap();
        assert_eq!(p.rows.len(), 250);
        assert_eq!(p.rows[0], serde_json::json!([0, "r0"]));
        assert_eq!(p.next_offset, Some(250));
        assert_eq!(p.columns, vec!["a", "b"]);
        assert_eq!(p.statement.row_count, 1000);
        for offset in [1, 63, 64, 65, 127, 128, 999] {
            let p = read_page_all(&path, 4, offset, 3).unwrap();
            assert_eq!(p.rows[0], serde_json::json!([offset, format!("r{offset}")]), "{offset}");
        }
        let last = read_page_all(&path, 4, 990, 250).unwrap();
        assert_eq!(last.rows.len(), 10);
        assert_eq!(last.next_offset, None);
        assert!(read_page_all(&path, 4, 1000, 250).unwrap().rows.is_empty());
        let one = read_page_all(&path, 5, 0, 250).unwrap();
        assert_eq!(one.rows, vec![serde_json::json!([null])]);
        let none = read_page_all(&path, 6, 0, 250).unwrap();
        assert!(none.rows.is_empty());
        assert_eq!(none.statement.rows_affected, 6);
        assert_eq!((none.statements, none.first_statement), (4, 3));
        assert!(matches!(read_page_all(&path, 2, 0, 1), Err(Error::InvalidInput(_))));
        assert!(matches!(read_page_all(&path, 7, 0, 1), Err(Error::InvalidInput(_))));
    }

    #[test]
    fn truncated_result_is_corrupt_not_a_panic() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = create(dir.path(), "1", 0).unwrap();
        w.begin_statement();
        for r in 0..100 {
            w.row(&format!("[{r}]")).unwrap();
        }
        w.end_statement(summary(0, Some(vec!["a".into()]))).unwrap();
        w.finish().unwrap();
        let path = dir.path().join("1.result");
        let bytes = fs::read(&path).unwrap();
        for cut in 0..bytes.len() {
            fs::write(&path, &bytes[..cut]).unwrap();
            assert!(read_page_all(&path, 0, 0, 10).is_err(), "cut at {cut}");
        }
    }
}
