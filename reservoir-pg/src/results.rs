//! Result pages as rows: `results` holds one summary per statement,
//! `result_pages` the rows of row-returning statements, `page_rows` rows
//! (250 by default) per row, as a JSON array of JSON row arrays — the
//! encoding of the embedded engine's result files.
//!
//! A run writes its result through a pooled connection as the statements
//! finish (memory: one page and a block of summaries), deleting what an
//! earlier run of the same job left first; the job is marked as having a
//! result only in the transaction that ends it, so a result that is
//! visible is complete. Any front-end serves any page with two indexed
//! reads: the summary, and the one or two page rows the range spans.
//!
//! A page served obeys `max_page_bytes` as the embedded engine's does: it
//! holds at most that many bytes of row JSON (each row's encoding plus a
//! separator); the row that would pass the limit ends the page early
//! (`ended_early = "max_page_bytes"`, `next_offset` at that row), and a
//! row that alone is larger is refused (`TooLarge`). A row whose value is
//! longer than `max_value_bytes` never reaches a page: it fails its
//! statement when it is produced (see the worker).

use std::sync::Arc;

use asadb_reservoir::results::{ResultPage, StatementSummary};
use asadb_reservoir::{Error, JobId, JobState, Result};

use crate::engine::Shared;
use crate::error::pg;
use crate::jobs;

/// Summaries buffered before they are written.
const SUMMARY_BLOCK: usize = 500;

/// Streams one run's result into the tables.
pub(crate) struct ResultSink {
    shared: Arc<Shared>,
    id: JobId,
    page_rows: usize,
    first: u64,
    statements: u64,
    summaries: Vec<(i64, serde_json::Value)>,
    /// The statement being written: its index, rows so far, the page
    /// being filled.
    current: Option<(u64, u64, Vec<String>)>,
}

impl ResultSink {
    /// Starts the result of a run beginning at statement `first`, removing
    /// an earlier run's result.
    pub async fn create(shared: Arc<Shared>, id: JobId, first: u64) -> Result<ResultSink> {
        discard(&shared, id).await?;
        let page_rows = shared.rcfg().result_page_rows;
        Ok(ResultSink {
            shared,
            id,
            page_rows,
            first,
            statements: 0,
            summaries: Vec::new(),
            current: None,
        })
    }

    /// The longest value a result row may hold.
    pub fn max_value_bytes(&self) -> usize {
        self.shared.rcfg().max_value_bytes
    }

    /// Starts statement `index`'s rows.
    pub fn begin_statement(&mut self, index: u64) {
        self.current = Some((index, 0, Vec::new()));
    }

    /// Appends one row (a JSON array).
    pub async fn row(&mut self, json: String) -> Result<()> {
        let Some((_, count, page)) = self.current.as_mut() else {
            return Err(Error::Internal("result row outside a statement".into()));
        };
        page.push(json);
        *count += 1;
        if page.len() == self.page_rows {
            self.flush_page().await?;
        }
        Ok(())
    }

    async fn flush_page(&mut self) -> Result<()> {
        let Some((index, count, page)) = self.current.as_mut() else { return Ok(()) };
        if page.is_empty() {
            return Ok(());
        }
        let number = ((*count - 1) / self.page_rows as u64) as i64;
        let text = format!("[{}]", page.join(","));
        page.clear();
        let index = *index as i64;
        // Lazy: the commit that ends the job flushes the WAL past it.
        let client = self.shared.lazy_client().await?;
        let sql = self.shared.sql.q(
            "INSERT INTO @.result_pages (job_id, statement, page, rows) VALUES ($1, $2, $3, $4)",
        );
        client.execute(&sql, &[&(self.id.0 as i64), &index, &number, &text]).await.map_err(pg)?;
        Ok(())
    }

    /// Ends the current statement with its summary; `row_count` is set
    /// from the rows written.
    pub async fn end_statement(&mut self, mut summary: StatementSummary) -> Result<()> {
        self.flush_page().await?;
        let rows = self.current.take().map_or(0, |(_, n, _)| n);
        summary.row_count = rows;
        let json = serde_json::to_value(&summary)
            .map_err(|e| Error::Internal(format!("cannot encode a statement summary: {e}")))?;
        self.summaries.push((summary.statement as i64, json));
        self.statements += 1;
        if self.summaries.len() >= SUMMARY_BLOCK {
            self.flush_summaries().await?;
        }
        Ok(())
    }

    async fn flush_summaries(&mut self) -> Result<()> {
        if self.summaries.is_empty() {
            return Ok(());
        }
        let (statements, summaries): (Vec<i64>, Vec<serde_json::Value>) =
            std::mem::take(&mut self.summaries).into_iter().unzip();
        let client = self.shared.lazy_client().await?;
        let sql = self.shared.sql.q("INSERT INTO @.results (job_id, statement, summary) \
             SELECT $1, s, j FROM unnest($2::bigint[], $3::jsonb[]) AS u(s, j)");
        client.execute(&sql, &[&(self.id.0 as i64), &statements, &summaries]).await.map_err(pg)?;
        Ok(())
    }

    /// Writes what is buffered; returns the result's shape
    /// (statements, first statement, rows per page) for the job row.
    pub async fn finish(mut self) -> Result<(u64, u64, usize)> {
        self.flush_page().await?;
        self.flush_summaries().await?;
        Ok((self.statements, self.first, self.page_rows))
    }
}

/// Removes a job's result rows.
pub(crate) async fn discard(shared: &Shared, id: JobId) -> Result<()> {
    let client = shared.lazy_client().await?;
    let job = id.0 as i64;
    let pages = shared.sql.q("DELETE FROM @.result_pages WHERE job_id = $1");
    let summaries = shared.sql.q("DELETE FROM @.results WHERE job_id = $1");
    client.execute(&pages, &[&job]).await.map_err(pg)?;
    client.execute(&summaries, &[&job]).await.map_err(pg)?;
    Ok(())
}

/// One page of a job's result (see `ReservoirEngine::result`). Reading a
/// completed job's result marks it delivered.
pub(crate) async fn read_page(
    shared: &Shared,
    id: JobId,
    statement: u64,
    offset: u64,
    limit: usize,
) -> Result<ResultPage> {
    let sql = &shared.sql;
    let page_limit = shared.rcfg().result_page_rows;
    let limit = if limit == 0 { page_limit } else { limit.min(page_limit) };
    let client = shared.client().await?;
    let text = sql
        .q("SELECT state, has_result, result_statements, result_first, result_page_rows \
         FROM @.jobs WHERE id = $1");
    let row =
        client.query_opt(&text, &[&(id.0 as i64)]).await.map_err(pg)?.ok_or(Error::NotFound(id))?;
    let state = jobs::state_of(row.get(0))?;
    let has_result: bool = row.get(1);
    if !has_result {
        return Err(Error::InvalidState(format!(
            "job {id} is {state} and has no result{}",
            if state.is_active() { " yet" } else { "" }
        )));
    }
    let count = row.get::<_, Option<i64>>(2).unwrap_or(0) as u64;
    let first = row.get::<_, Option<i64>>(3).unwrap_or(0) as u64;
    let stored_rows = row.get::<_, Option<i32>>(4).unwrap_or(250).max(1) as u64;
    if statement < first || statement - first >= count {
        return Err(Error::InvalidInput(format!(
            "statement {statement} is not in this result (it holds statements {first}..{})",
            first + count
        )));
    }
    let text = sql.q("SELECT summary FROM @.results WHERE job_id = $1 AND statement = $2");
    let summary_row = client
        .query_opt(&text, &[&(id.0 as i64), &(statement as i64)])
        .await
        .map_err(pg)?
        .ok_or_else(|| {
            Error::Corrupt(format!("job {id}: the summary of statement {statement} is missing"))
        })?;
    let summary: StatementSummary = serde_json::from_value(summary_row.get(0))
        .map_err(|e| Error::Corrupt(format!("job {id}: a statement summary: {e}")))?;
    let columns = summary.columns.clone().unwrap_or_default();
    let mut rows = Vec::new();
    let mut ended_early = None;
    if offset < summary.row_count && limit > 0 {
        let want = (limit as u64).min(summary.row_count - offset);
        let (p0, p1) = (offset / stored_rows, (offset + want - 1) / stored_rows);
        let text = sql
            .q("SELECT page, rows FROM @.result_pages WHERE job_id = $1 AND statement = $2 \
             AND page BETWEEN $3 AND $4 ORDER BY page");
        let pages = client
            .query(&text, &[&(id.0 as i64), &(statement as i64), &(p0 as i64), &(p1 as i64)])
            .await
            .map_err(pg)?;
        let max_bytes = shared.rcfg().max_page_bytes;
        let mut bytes = 0usize;
        let mut expect = offset;
        'pages: for page in pages {
            let number = page.get::<_, i64>(0) as u64;
            let text: String = page.get(1);
            let parsed: Vec<serde_json::Value> = serde_json::from_str(&text)
                .map_err(|e| Error::Corrupt(format!("job {id}: result page {number}: {e}")))?;
            let base = number * stored_rows;
            for (i, r) in parsed.into_iter().enumerate() {
                let at = base + i as u64;
                if at < offset || at >= offset + want {
                    continue;
                }
                if at != expect {
                    break 'pages;
                }
                // The row's length as it is sent (the JSON of the page).
                let len = serde_json::to_string(&r).map_or(0, |t| t.len());
                if bytes + len > max_bytes {
                    if rows.is_empty() {
                        return Err(Error::TooLarge(format!(
                            "row {offset} of statement {statement} is {len} bytes, more than the \
                             page limit of {max_bytes} bytes (max-page-bytes)"
                        )));
                    }
                    ended_early = Some("max_page_bytes");
                    break 'pages;
                }
                bytes += len + 1;
                rows.push(r);
                expect += 1;
            }
        }
        if ended_early.is_none() && rows.len() as u64 != want {
            return Err(Error::Corrupt(format!(
                "job {id}: statement {statement} has {} of rows {offset}..{}",
                rows.len(),
                offset + want
            )));
        }
    }
    let end = offset + rows.len() as u64;
    let next_offset = (end < summary.row_count && !rows.is_empty()).then_some(end);
    if state == JobState::Completed {
        // One statement: the state change, its event and its notification.
        let payload = format!("{id} delivered");
        jobs::check_payload(&payload)?;
        let text = sql.q("WITH u AS (UPDATE @.jobs SET state = 'delivered', \
             updated_at = GREATEST(updated_at, NOW_MS) WHERE id = $1 AND state = 'completed' \
             RETURNING id), \
             e AS (INSERT INTO @.events (job_id, at, state) SELECT id, NOW_MS, 'delivered' FROM u) \
             SELECT pg_notify($2, $3) FROM u");
        client.execute(&text, &[&(id.0 as i64), &sql.channel(), &payload]).await.map_err(pg)?;
    }
    Ok(ResultPage {
        statement: summary,
        columns,
        rows,
        offset,
        next_offset,
        statements: count,
        first_statement: first,
        ended_early,
    })
}
