//! Small read-only queries in the target database (`/api/query` on the
//! PostgreSQL backend).
//!
//! Each page runs in its own `READ ONLY` transaction on a pooled
//! connection, with a 30 s `statement_timeout`: a write, DDL or any
//! statement PostgreSQL refuses in a read-only transaction fails before it
//! changes anything, and the message points to the Reservoir. One
//! statement only (the extended protocol parses exactly one). Parameters
//! are PostgreSQL's `$1 … $n`, bound positionally and sent as text, so the
//! server converts them to whatever type the statement gives them (a
//! wrong one is a clear type error). Paging re-runs the statement and
//! skips `offset` rows through a portal, fetching only the page (plus one
//! row to know whether another page follows); rows are decoded as in
//! result pages ([`crate::values`]).
//!
//! Pages obey the embedded engine's limits, with its contract: rows are
//! read from the portal as they arrive (never the whole page at once); a
//! value (text or bytea) longer than `max_value_bytes` fails the page when
//! it is on the page's first row (`TooLarge`, a 413) and otherwise ends
//! the page before it (`ended_early = "max_value_bytes"`, `next_offset` at
//! that row); a page holds at most `max_page_bytes` of row JSON (rows'
//! encodings plus a separator each): the row that would pass it ends the
//! page early (`"max_page_bytes"`) and `next_offset` continues there, or,
//! alone on its page, is refused (`TooLarge`).

use asadb_reservoir::{Error, Result};
use asadb_sql::Value;
use bytes::BytesMut;
use futures_util::StreamExt;
use tokio_postgres::error::SqlState;
use tokio_postgres::types::{Format, IsNull, ToSql, Type, to_sql_checked};

use crate::engine::Shared;
use crate::values::Cell;

/// The longest a page's statement may run.
pub const STATEMENT_TIMEOUT_MS: u64 = 30_000;

/// One page of a query's rows.
#[derive(Clone, Debug, PartialEq)]
pub struct Page {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Value>>,
    /// The offset of the next page, `None` after the last row.
    pub next_offset: Option<u64>,
    /// Why the page holds fewer rows than asked although more follow:
    /// `"max_value_bytes"` or `"max_page_bytes"` (see the module docs).
    pub ended_early: Option<&'static str>,
}

/// A parameter sent in text format: PostgreSQL parses it as the type the
/// statement gives the parameter.
#[derive(Debug)]
struct TextParam(Option<String>);

impl ToSql for TextParam {
    fn to_sql(
        &self,
        _: &Type,
        out: &mut BytesMut,
    ) -> std::result::Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match &self.0 {
            Some(t) => {
                out.extend_from_slice(t.as_bytes());
                Ok(IsNull::No)
            }
            None => Ok(IsNull::Yes),
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    fn encode_format(&self, _: &Type) -> Format {
        Format::Text
    }

    to_sql_checked!();
}

fn text_param(v: &Value) -> TextParam {
    TextParam(match v {
        Value::Null => None,
        Value::Integer(i) => Some(i.to_string()),
        Value::Real(f) if f.is_nan() => Some("NaN".into()),
        Value::Real(f) if f.is_infinite() => {
            Some(if *f > 0.0 { "Infinity" } else { "-Infinity" }.into())
        }
        Value::Real(f) => Some(format!("{f:?}")),
        // PostgreSQL's text is UTF-8: bytes that are not are sent as U+FFFD.
        Value::Text(t) => Some(t.to_str_lossy().into_owned()),
        Value::Blob(b) => Some(format!("\\x{}", asadb_reservoir::hex(b))),
    })
}

/// A query error as the contract's error.
fn query_error(e: tokio_postgres::Error) -> Error {
    let Some(code) = e.code() else { return crate::error::pg(e) };
    let msg = crate::error::message(&e);
    if *code == SqlState::READ_ONLY_SQL_TRANSACTION {
        return Error::InvalidInput(format!(
            "{msg}: /api/query runs read-only statements; submit writes and DDL through \
             the Reservoir (POST /api/reservoir/jobs)"
        ));
    }
    if *code == SqlState::QUERY_CANCELED {
        return Error::Backend(format!(
            "the query was stopped after {} s: {msg}",
            STATEMENT_TIMEOUT_MS / 1000
        ));
    }
    match &code.code()[..2] {
        // Syntax, names, data, cardinality, a statement that cannot be
        // prepared: the input's fault.
        "42" | "22" | "21" | "0A" | "2F" | "3F" | "34" => Error::InvalidInput(msg),
        _ => crate::error::pg(e),
    }
}

pub(crate) async fn read_page(
    shared: &Shared,
    sql: &str,
    params: &[Value],
    offset: u64,
    limit: usize,
) -> Result<Page> {
    let mut client = shared.client().await?;
    let tx = client.build_transaction().read_only(true).start().await.map_err(crate::error::pg)?;
    tx.batch_execute(&format!("SET LOCAL statement_timeout = {STATEMENT_TIMEOUT_MS}"))
        .await
        .map_err(crate::error::pg)?;
    let stmt = tx.prepare(sql).await.map_err(query_error)?;
    if stmt.params().len() != params.len() {
        return Err(Error::InvalidInput(format!(
            "the statement has {} parameters ($1 …), {} were given",
            stmt.params().len(),
            params.len()
        )));
    }
    let bound: Vec<TextParam> = params.iter().map(text_param).collect();
    let refs: Vec<&(dyn ToSql + Sync)> = bound.iter().map(|p| p as &(dyn ToSql + Sync)).collect();
    let columns: Vec<String> = stmt.columns().iter().map(|c| c.name().to_string()).collect();
    let portal = tx.bind(&stmt, &refs).await.map_err(query_error)?;
    let empty = |columns| Page { columns, rows: Vec::new(), next_offset: None, ended_early: None };
    let mut skipped = 0u64;
    while skipped < offset {
        let take = (offset - skipped).min(1000) as i32;
        let stream = tx.query_portal_raw(&portal, take).await.map_err(query_error)?;
        futures_util::pin_mut!(stream);
        let mut n = 0u64;
        while let Some(row) = stream.next().await {
            row.map_err(query_error)?;
            n += 1;
        }
        skipped += n;
        if n < take as u64 {
            return Ok(empty(columns));
        }
    }
    let cfg = shared.rcfg();
    let (max_value, max_page) = (cfg.max_value_bytes, cfg.max_page_bytes);
    let want = i32::try_from(limit.saturating_add(1)).unwrap_or(i32::MAX);
    let stream = tx.query_portal_raw(&portal, want).await.map_err(query_error)?;
    futures_util::pin_mut!(stream);
    let mut rows = Vec::new();
    let (mut more, mut ended_early) = (false, None);
    let (mut bytes, mut line) = (0usize, String::new());
    while let Some(row) = stream.next().await {
        let row = row.map_err(query_error)?;
        if rows.len() == limit {
            more = true;
            break;
        }
        let mut values = Vec::with_capacity(row.len());
        for i in 0..row.len() {
            match row.try_get::<_, Cell>(i) {
                Ok(Cell(v)) => values.push(v),
                Err(e) => {
                    let why = std::error::Error::source(&e)
                        .map_or_else(|| e.to_string(), |s| s.to_string());
                    return Err(Error::Unsupported(format!(
                        "column {:?}: {why}",
                        row.columns()[i].name()
                    )));
                }
            }
        }
        if let Err(e) = asadb_reservoir::check_value_sizes(&values, max_value) {
            if rows.is_empty() {
                return Err(Error::TooLarge(format!("row {offset}: {}", sql_message(e))));
            }
            (more, ended_early) = (true, Some("max_value_bytes"));
            break;
        }
        line.clear();
        asadb_reservoir::row_json(&values, &mut line);
        if bytes + line.len() > max_page {
            if rows.is_empty() {
                return Err(Error::TooLarge(format!(
                    "row {offset} is {} bytes as JSON, more than the page limit of {max_page} \
                     bytes (max-page-bytes)",
                    line.len()
                )));
            }
            (more, ended_early) = (true, Some("max_page_bytes"));
            break;
        }
        bytes += line.len() + 1;
        rows.push(values);
    }
    drop(tx);
    let next_offset = more.then_some(offset + rows.len() as u64);
    Ok(Page { columns, rows, next_offset, ended_early })
}

/// The text of an engine error, without its kind's prefix.
fn sql_message(e: asadb_sql::Error) -> String {
    match e {
        asadb_sql::Error::TooLarge(m) => m,
        other => other.to_string(),
    }
}
