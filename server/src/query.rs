//! `POST /api/query`: small read-only queries, paged by `offset`.
//!
//! The statement runs through [`asadb::AsyncDatabase::read_page`] on the
//! same engine as the Reservoir's worker (one engine per file): anything
//! but one read-only statement is refused before it runs, with a message
//! that points writes and DDL to the Reservoir. At most
//! [`MAX_QUERY_CHARS`] characters of SQL; [`PAGE_ROWS`] rows a page, only
//! the page held in memory. Rows use the same JSON encoding as Reservoir
//! result pages (`asadb::reservoir::row_json`). With the PostgreSQL
//! backend ([`run_pg`]) the statement runs in the backend's database in a
//! `READ ONLY` transaction, with PostgreSQL's `$1 … $n` parameters.

use asadb::{AsyncDatabase, ErrorKind, IntoParams, Params, Value};
use axum::body::Body;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use crate::error::{Error, Result};
use crate::metrics::Metrics;

/// Longest SQL text `/api/query` accepts, in characters.
pub const MAX_QUERY_CHARS: usize = 250_000;
/// Rows in one page.
pub const PAGE_ROWS: usize = 500;
/// Largest request body: the SQL's UTF-8 bytes (up to 4 per character),
/// JSON escaping and parameters.
pub const MAX_BODY_BYTES: usize = 4 * MAX_QUERY_CHARS + (1 << 20);

/// The request body.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct QueryRequest {
    sql: String,
    /// An array (positional `?`, `?N`) or an object (named `:name`).
    #[serde(default)]
    params: Option<serde_json::Value>,
    #[serde(default)]
    offset: u64,
}

/// Reads a whole small request body; over `limit` bytes is a 413.
pub async fn small_body(body: Body, limit: usize) -> Result<bytes::Bytes> {
    axum::body::to_bytes(body, limit).await.map_err(|e| {
        let too_large = std::error::Error::source(&e)
            .is_some_and(|s| s.is::<http_body_util::LengthLimitError>());
        if too_large {
            Error::RequestTooLarge(format!("the request body exceeds {limit} bytes"))
        } else {
            Error::BodyRead(e.to_string())
        }
    })
}

/// Runs one page of a read-only query.
pub async fn run(db: &AsyncDatabase, metrics: &Metrics, body: Body) -> Result<Response> {
    let bytes = small_body(body, MAX_BODY_BYTES).await?;
    let req: QueryRequest = serde_json::from_slice(&bytes)
        .map_err(|e| Error::BadRequest(format!("invalid JSON body: {e}")))?;
    let chars = req.sql.chars().count();
    if chars > MAX_QUERY_CHARS {
        return Err(Error::RequestTooLarge(format!(
            "the query has {chars} characters, more than {MAX_QUERY_CHARS}: \
             submit large scripts through the Reservoir (POST /api/reservoir/jobs)"
        )));
    }
    let params = json_params(req.params)?;
    let offset = usize::try_from(req.offset).unwrap_or(usize::MAX);
    let started = std::time::Instant::now();
    let page = db.read_page(&req.sql, params, offset, PAGE_ROWS).await;
    metrics.observe_query(started.elapsed());
    let page = page?;
    let rows = page.rows.iter().map(|r| r.values());
    Ok(page_response(&page.columns[..], rows, offset as u64, page.next_offset.map(|n| n as u64)))
}

/// `POST /api/query` on the PostgreSQL backend: the same request and
/// answer; the statement runs in the backend's database in a `READ ONLY`
/// transaction (see `asadb_reservoir_pg::PgReservoir::read_page`), and its
/// parameters are PostgreSQL's `$1 … $n`, given as a JSON array (named
/// parameters are refused).
pub async fn run_pg(
    pg: &asadb_reservoir_pg::PgReservoir,
    metrics: &Metrics,
    body: Body,
) -> Result<Response> {
    let bytes = small_body(body, MAX_BODY_BYTES).await?;
    let req: QueryRequest = serde_json::from_slice(&bytes)
        .map_err(|e| Error::BadRequest(format!("invalid JSON body: {e}")))?;
    let chars = req.sql.chars().count();
    if chars > MAX_QUERY_CHARS {
        return Err(Error::RequestTooLarge(format!(
            "the query has {chars} characters, more than {MAX_QUERY_CHARS}: \
             submit large scripts through the Reservoir (POST /api/reservoir/jobs)"
        )));
    }
    let params = match req.params {
        None | Some(serde_json::Value::Null) => Vec::new(),
        Some(serde_json::Value::Array(items)) => {
            items.into_iter().map(json_value).collect::<Result<Vec<Value>>>()?
        }
        Some(serde_json::Value::Object(_)) => {
            return Err(Error::BadRequest(
                "named parameters are not supported by the PostgreSQL backend: write $1 … $n \
                 and send params as an array"
                    .into(),
            ));
        }
        Some(_) => return Err(Error::BadRequest("params must be an array or an object".into())),
    };
    let started = std::time::Instant::now();
    let page = pg.read_page(&req.sql, &params, req.offset, PAGE_ROWS).await;
    metrics.observe_query(started.elapsed());
    let page = page?;
    let rows = page.rows.iter().map(|r| r.as_slice());
    Ok(page_response(&page.columns, rows, req.offset, page.next_offset))
}

/// The answer's JSON, built by hand so every value is encoded like
/// Reservoir result rows.
fn page_response<'a>(
    columns: &[String],
    rows: impl ExactSizeIterator<Item = &'a [Value]>,
    offset: u64,
    next_offset: Option<u64>,
) -> Response {
    let mut out = String::with_capacity(256 + rows.len() * 32);
    out.push_str("{\"columns\":");
    out.push_str(&serde_json::to_string(columns).unwrap_or_else(|_| "[]".into()));
    out.push_str(",\"rows\":[");
    for (i, row) in rows.enumerate() {
        if i > 0 {
            out.push(',');
        }
        asadb::reservoir::row_json(row, &mut out);
    }
    out.push_str(&format!("],\"offset\":{offset},\"next_offset\":"));
    match next_offset {
        Some(n) => out.push_str(&n.to_string()),
        None => out.push_str("null"),
    }
    out.push('}');
    ([(header::CONTENT_TYPE, "application/json")], out).into_response()
}

/// JSON parameters: an array binds `?`/`?N`, an object binds `:name`.
fn json_params(params: Option<serde_json::Value>) -> Result<Params> {
    match params {
        None | Some(serde_json::Value::Null) => Ok(Params::None),
        Some(serde_json::Value::Array(items)) => {
            let values = items.into_iter().map(json_value).collect::<Result<Vec<Value>>>()?;
            Ok(values.into_params())
        }
        Some(serde_json::Value::Object(map)) => {
            let named = map
                .into_iter()
                .map(|(k, v)| Ok((k, json_value(v)?)))
                .collect::<Result<Vec<(String, Value)>>>()?;
            Ok(named.into_params())
        }
        Some(_) => Err(Error::BadRequest("params must be an array or an object".into())),
    }
}

/// One parameter: null, a boolean (1/0), a number, a string, or
/// `{"hex": "…"}` for a blob (the encoding result rows use).
fn json_value(v: serde_json::Value) -> Result<Value> {
    use serde_json::Value as J;
    Ok(match v {
        J::Null => Value::Null,
        J::Bool(b) => Value::Integer(b.into()),
        J::Number(n) => match n.as_i64() {
            Some(i) => Value::Integer(i),
            None => Value::Real(n.as_f64().unwrap_or(f64::NAN)),
        },
        J::String(s) => Value::Text(s),
        J::Object(map) if map.len() == 1 && map.get("hex").is_some_and(J::is_string) => {
            let hex = map["hex"].as_str().unwrap_or_default();
            Value::Blob(unhex(hex).ok_or_else(|| {
                Error::BadRequest(format!("invalid hex blob parameter {hex:.40?}"))
            })?)
        }
        other => {
            return Err(Error::BadRequest(format!(
                "parameter {other:.40} is not a scalar (or {{\"hex\": \"…\"}} for a blob)"
            )));
        }
    })
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok()).collect()
}

/// The status and code of an engine error (see the facade's `ErrorKind`).
pub fn engine_status(e: &asadb::Error) -> (axum::http::StatusCode, &'static str) {
    use axum::http::StatusCode as S;
    match e.kind() {
        ErrorKind::InvalidInput => (S::BAD_REQUEST, "invalid_input"),
        ErrorKind::NotFound => (S::BAD_REQUEST, "not_found"),
        ErrorKind::Constraint => (S::CONFLICT, "constraint"),
        ErrorKind::Busy => (S::SERVICE_UNAVAILABLE, "busy"),
        ErrorKind::Timeout => (S::SERVICE_UNAVAILABLE, "timeout"),
        ErrorKind::TooLarge => (S::PAYLOAD_TOO_LARGE, "too_large"),
        ErrorKind::Unsupported => (S::BAD_REQUEST, "unsupported"),
        ErrorKind::Closed => (S::SERVICE_UNAVAILABLE, "shutting_down"),
        ErrorKind::Corrupt => (S::INTERNAL_SERVER_ERROR, "corrupt"),
        _ => (S::INTERNAL_SERVER_ERROR, "io"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_from_json() {
        let p = json_params(Some(serde_json::json!([1, 2.5, "x", null, true, {"hex": "00ff"}])));
        let Params::Positional(v) = p.unwrap() else { panic!("positional expected") };
        assert_eq!(
            v,
            [
                Value::Integer(1),
                Value::Real(2.5),
                Value::Text("x".into()),
                Value::Null,
                Value::Integer(1),
                Value::Blob(vec![0, 255])
            ]
        );
        let p = json_params(Some(serde_json::json!({":a": 1}))).unwrap();
        assert!(matches!(p, Params::Named(ref n) if n[0].0 == ":a"));
        for bad in
            [serde_json::json!([[1]]), serde_json::json!(3), serde_json::json!([{"hex": "0"}])]
        {
            assert!(json_params(Some(bad.clone())).is_err(), "{bad}");
        }
    }
}
