//! `POST /api/query`: small read-only queries, paged by `offset`, streamed.
//!
//! The statement runs through [`asadb::AsyncDatabase::read_rows`] on the
//! same engine as the Reservoir's worker (one engine per file): anything
//! but one read-only statement is refused before it runs, with a message
//! that points writes and DDL to the Reservoir. At most
//! [`MAX_QUERY_CHARS`] characters of SQL; [`PAGE_ROWS`] rows a page. Rows
//! use the same JSON encoding as Reservoir result pages
//! (`asadb::reservoir::row_json`). With the PostgreSQL backend
//! ([`run_pg`]) the statement runs in the backend's database in a
//! `READ ONLY` transaction, with PostgreSQL's `$1 … $n` parameters.
//!
//! Bounded memory, whatever the query returns:
//! - a value (text or blob) longer than `max_value_bytes` is refused — the
//!   engine's functions do not even build one (`asadb::sql::func::
//!   set_max_length`), and any other that reaches a row is `413` before
//!   the page starts, or ends a started page early (`"ended_early":
//!   "max_value_bytes"`, `next_offset` at that row, which then gets 413);
//! - a page holds at most `max_page_bytes` of rows: past it the page ends
//!   early (`"ended_early": "max_page_bytes"`) and `next_offset` continues;
//! - the page is written while the rows are produced: the worker thread
//!   encodes rows into chunks of [`CHUNK_BYTES`] and sends them through a
//!   small channel to the response body, so at most a few chunks and one
//!   row are held at once. The status is decided before the first chunk
//!   leaves: every error up to then (bad SQL, an error on an early row) has
//!   its own status; an error after it ends the page with an `"error"`
//!   member and `"next_offset": null`.
//!
//! A caller that goes away (the connection closes, or the response body is
//! dropped) interrupts the statement: the body stream owns the task
//! running the call, and aborting it drops the call's future, which fires
//! its interrupt (see the facade's module docs).

use std::sync::Arc;

use asadb::sql::session::Rows;
use asadb::{AsyncDatabase, ErrorKind, IntoParams, Params, Value};
use axum::body::{Body, Bytes};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::value::RawValue;
use tokio::sync::mpsc;

use crate::config::Limits;
use crate::error::{Error, Result};
use crate::metrics::Metrics;

/// Longest SQL text `/api/query` accepts, in characters.
pub const MAX_QUERY_CHARS: usize = 250_000;
/// Rows in one page.
pub const PAGE_ROWS: usize = 500;
/// Largest request body: the SQL's UTF-8 bytes (up to 4 per character),
/// JSON escaping and parameters.
pub const MAX_BODY_BYTES: usize = 4 * MAX_QUERY_CHARS + (1 << 20);
/// The size of the pieces a page is sent in.
const CHUNK_BYTES: usize = 64 << 10;

/// The request body.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct QueryRequest {
    sql: String,
    /// An array (positional `?`, `?N`) or an object (named `:name`); kept
    /// raw so integers are read exactly (see [`json_params`]).
    #[serde(default)]
    params: Option<Box<RawValue>>,
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

/// What the query run needs from the server.
#[derive(Clone)]
pub struct QueryContext {
    pub db: AsyncDatabase,
    pub metrics: Arc<Metrics>,
    pub limits: Limits,
    /// Test hook (debug builds): SQL containing it panics inside the call.
    pub panic_marker: Option<String>,
}

/// Runs one page of a read-only query.
pub async fn run(cx: &QueryContext, body: Body) -> Result<Response> {
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
    let params = json_params(req.params.as_deref())?;
    let (tx, mut rx) = mpsc::channel::<Bytes>(4);
    let page = PageSpec {
        offset: req.offset,
        limits: cx.limits,
        panic: cx.panic_marker.as_ref().is_some_and(|m| req.sql.contains(m.as_str())),
    };
    let (db, metrics, sql) = (cx.db.clone(), cx.metrics.clone(), req.sql);
    let task = AbortOnDrop(tokio::spawn(async move {
        let started = std::time::Instant::now();
        let m = metrics.clone();
        // A page that was written records its run time before its last
        // chunk leaves; a call that failed before, here.
        let observe = move || m.observe_query(started.elapsed());
        let r = db.read_rows(&sql, params, move |rows| write_page(rows, page, &tx, &observe)).await;
        if r.is_err() {
            metrics.observe_query(started.elapsed());
        }
        r
    }));
    match rx.recv().await {
        Some(first) => {
            // The page has started: stream it. The body owns the task, so
            // a client that goes away stops the statement.
            let body = PageBody { first: Some(first), rx, _task: task };
            Ok(([(header::CONTENT_TYPE, "application/json")], Body::new(body)).into_response())
        }
        // Nothing was written: the call failed before the page started.
        None => match task.join().await {
            Ok(Ok(())) => Err(Error::Internal("the query ended without a page".into())),
            Ok(Err(e)) => Err(e.into()),
            Err(e) => Err(Error::Internal(format!("the query task failed: {e}"))),
        },
    }
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
    let params = match json_params(req.params.as_deref())? {
        Params::None => Vec::new(),
        Params::Positional(values) => values,
        Params::Named(_) => {
            return Err(Error::BadRequest(
                "named parameters are not supported by the PostgreSQL backend: write $1 … $n \
                 and send params as an array"
                    .into(),
            ));
        }
    };
    let started = std::time::Instant::now();
    let page = pg.read_page(&req.sql, &params, req.offset, PAGE_ROWS).await;
    metrics.observe_query(started.elapsed());
    let page = page?;
    let rows = page.rows.iter().map(|r| r.as_slice());
    Ok(page_response(&page.columns, rows, req.offset, page.next_offset, page.ended_early))
}

/// The answer's JSON, built by hand so every value is encoded like
/// Reservoir result rows.
fn page_response<'a>(
    columns: &[String],
    rows: impl ExactSizeIterator<Item = &'a [Value]>,
    offset: u64,
    next_offset: Option<u64>,
    ended_early: Option<&str>,
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
    out.push_str(",\"ended_early\":");
    match ended_early {
        Some(why) => out.push_str(&format!("\"{why}\"")),
        None => out.push_str("null"),
    }
    out.push('}');
    ([(header::CONTENT_TYPE, "application/json")], out).into_response()
}

/// What one page is.
#[derive(Clone, Copy)]
struct PageSpec {
    offset: u64,
    limits: Limits,
    panic: bool,
}

/// Writes one page of `rows` as JSON chunks into `tx` (on the worker
/// thread). Returns an error only while nothing was sent; afterwards
/// errors end the page in-band.
fn write_page(
    rows: &mut Rows<'_>,
    page: PageSpec,
    tx: &mpsc::Sender<Bytes>,
    observe: &dyn Fn(),
) -> asadb::Result<()> {
    if page.panic {
        panic!("test panic: the query contains the panic marker");
    }
    let mut out = PageOut { buf: String::with_capacity(CHUNK_BYTES), sent: false, tx };
    out.buf.push_str("{\"columns\":");
    out.buf.push_str(&serde_json::to_string(rows.columns()).unwrap_or_else(|_| "[]".into()));
    out.buf.push_str(",\"rows\":[");
    let limits = page.limits;
    let mut row_text = String::new();
    let mut n = 0usize;
    let mut bytes = 0usize;
    let mut next_offset = None;
    let mut ended_early = None;
    let mut failure: Option<asadb::Error> = None;
    let skipped = rows.skip_rows(page.offset)?;
    if skipped == page.offset {
        loop {
            let row = match rows.next() {
                None => break,
                Some(Ok(r)) => r,
                Some(Err(e)) => {
                    failure = Some(e.into());
                    break;
                }
            };
            if n == PAGE_ROWS {
                next_offset = Some(page.offset + n as u64);
                break;
            }
            if let Err(e) = asadb::reservoir::check_value_sizes(&row, limits.max_value_bytes) {
                if n == 0 {
                    return Err(e.into());
                }
                next_offset = Some(page.offset + n as u64);
                ended_early = Some("max_value_bytes");
                break;
            }
            row_text.clear();
            asadb::reservoir::row_json(&row, &mut row_text);
            if bytes + row_text.len() > limits.max_page_bytes {
                if n == 0 {
                    return Err(asadb::Error::Sql(asadb::sql::Error::TooLarge(format!(
                        "row {} is {} bytes as JSON, more than the page limit of {} bytes \
                         (max-page-bytes)",
                        page.offset,
                        row_text.len(),
                        limits.max_page_bytes
                    ))));
                }
                next_offset = Some(page.offset + n as u64);
                ended_early = Some("max_page_bytes");
                break;
            }
            if n > 0 {
                out.buf.push(',');
            }
            out.buf.push_str(&row_text);
            bytes += row_text.len() + 1;
            n += 1;
            if out.buf.len() >= CHUNK_BYTES && !out.flush() {
                observe();
                return Ok(()); // the client went away
            }
        }
    }
    if let Some(e) = failure {
        if !out.sent {
            return Err(e);
        }
        let (_, code) = engine_status(&e);
        out.buf.push_str(&format!(
            "],\"offset\":{},\"next_offset\":null,\"ended_early\":null,\"error\":{}}}",
            page.offset,
            serde_json::json!({"code": code, "message": e.to_string(), "retryable": e.is_retryable()})
        ));
        observe();
        out.flush();
        return Ok(());
    }
    out.buf.push_str(&format!("],\"offset\":{},\"next_offset\":", page.offset));
    match next_offset {
        Some(o) => out.buf.push_str(&o.to_string()),
        None => out.buf.push_str("null"),
    }
    out.buf.push_str(",\"ended_early\":");
    match ended_early {
        Some(why) => out.buf.push_str(&format!("\"{why}\"")),
        None => out.buf.push_str("null"),
    }
    out.buf.push('}');
    observe();
    out.flush();
    Ok(())
}

/// The page being written and where its chunks go.
struct PageOut<'a> {
    buf: String,
    sent: bool,
    tx: &'a mpsc::Sender<Bytes>,
}

impl PageOut<'_> {
    /// Sends the buffered text; false when the receiver is gone.
    fn flush(&mut self) -> bool {
        let chunk =
            Bytes::from(std::mem::replace(&mut self.buf, String::with_capacity(CHUNK_BYTES)));
        self.sent = true;
        self.tx.blocking_send(chunk).is_ok()
    }
}

/// Aborts its task when dropped (a client that went away).
struct AbortOnDrop<T>(tokio::task::JoinHandle<T>);

impl<T> AbortOnDrop<T> {
    async fn join(mut self) -> std::result::Result<T, tokio::task::JoinError> {
        (&mut self.0).await
    }
}

impl<T> Drop for AbortOnDrop<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The body of a started page: its first chunk, then the channel's chunks
/// until the writer is done. It owns the task running the call, so a body
/// dropped by hyper (the client went away) stops the statement.
struct PageBody {
    first: Option<Bytes>,
    rx: mpsc::Receiver<Bytes>,
    _task: AbortOnDrop<asadb::Result<()>>,
}

impl http_body::Body for PageBody {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<std::result::Result<http_body::Frame<Bytes>, Self::Error>>> {
        if let Some(first) = self.first.take() {
            return std::task::Poll::Ready(Some(Ok(http_body::Frame::data(first))));
        }
        self.rx.poll_recv(cx).map(|c| c.map(|b| Ok(http_body::Frame::data(b))))
    }
}

/// JSON parameters: an array binds `?`/`?N`, an object binds `:name`
/// (each name once). `/api/query` and `asadb sql --jsonl` both read them
/// here.
pub(crate) fn json_params(params: Option<&RawValue>) -> Result<Params> {
    let Some(raw) = params else { return Ok(Params::None) };
    let text = raw.get().trim_start();
    if text.starts_with('[') {
        let items: Vec<Box<RawValue>> = serde_json::from_str(raw.get())
            .map_err(|e| Error::BadRequest(format!("invalid params: {e}")))?;
        let values = items.iter().map(|v| json_value(v)).collect::<Result<Vec<Value>>>()?;
        Ok(values.into_params())
    } else if text.starts_with('{') {
        let named: NamedParams = serde_json::from_str(raw.get())
            .map_err(|e| Error::BadRequest(format!("invalid params: {e}")))?;
        let named = named
            .0
            .into_iter()
            .map(|(k, v)| Ok((k, json_value(&v)?)))
            .collect::<Result<Vec<(String, Value)>>>()?;
        Ok(named.into_params())
    } else if text == "null" {
        Ok(Params::None)
    } else {
        Err(Error::BadRequest("params must be an array or an object".into()))
    }
}

/// Named parameters in the order given; a name given twice is refused
/// (which one was meant?).
struct NamedParams(Vec<(String, Box<RawValue>)>);

impl<'de> Deserialize<'de> for NamedParams {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = NamedParams;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object of named parameters")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<NamedParams, A::Error> {
                let mut out: Vec<(String, Box<RawValue>)> = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, Box<RawValue>>()? {
                    let bare = k.trim_start_matches([':', '@', '$']);
                    if out.iter().any(|(o, _)| o.trim_start_matches([':', '@', '$']) == bare) {
                        return Err(serde::de::Error::custom(format!(
                            "parameter {k:?} is given more than once"
                        )));
                    }
                    out.push((k, v));
                }
                Ok(NamedParams(out))
            }
        }
        d.deserialize_map(V)
    }
}

/// One parameter: null, a boolean (1/0), a number, a string, or
/// `{"hex": "…"}` for a blob (the encoding result rows use). A number
/// written as an integer must fit a 64-bit signed integer — SQLite binds
/// no other — or it is refused, never silently made a real; a number with
/// a fraction or an exponent is a real.
fn json_value(raw: &RawValue) -> Result<Value> {
    use serde_json::Value as J;
    let text = raw.get().trim();
    if text.starts_with(['-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9']) {
        let integer =
            text.bytes().enumerate().all(|(i, b)| b.is_ascii_digit() || (i == 0 && b == b'-'));
        if integer {
            return text.parse::<i64>().map(Value::Integer).map_err(|_| {
                Error::BadRequest(format!(
                    "integer parameter {text:.40} does not fit a 64-bit signed integer \
                     (-9223372036854775808..9223372036854775807): send it as a string, or as \
                     a real with a decimal point"
                ))
            });
        }
    }
    let v: J = serde_json::from_str(text)
        .map_err(|e| Error::BadRequest(format!("invalid parameter {text:.40}: {e}")))?;
    Ok(match v {
        J::Null => Value::Null,
        J::Bool(b) => Value::Integer(b.into()),
        J::Number(n) => Value::Real(n.as_f64().unwrap_or(f64::NAN)),
        J::String(s) => Value::Text(s.into()),
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
        ErrorKind::StatementTimeout => (S::UNPROCESSABLE_ENTITY, "statement_timeout"),
        ErrorKind::TooLarge => (S::PAYLOAD_TOO_LARGE, "too_large"),
        ErrorKind::Unsupported => (S::BAD_REQUEST, "unsupported"),
        ErrorKind::Closed => (S::SERVICE_UNAVAILABLE, "shutting_down"),
        ErrorKind::Corrupt => (S::INTERNAL_SERVER_ERROR, "corrupt"),
        ErrorKind::Internal => (S::INTERNAL_SERVER_ERROR, "internal_error"),
        _ => (S::INTERNAL_SERVER_ERROR, "io"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(v: &str) -> Result<Params> {
        let raw: Box<RawValue> = serde_json::from_str(v).unwrap();
        json_params(Some(&raw))
    }

    #[test]
    fn params_from_json() {
        let p = params(r#"[1, 2.5, "x", null, true, {"hex": "00ff"}, -7, 1e3]"#);
        let Params::Positional(v) = p.unwrap() else { panic!("positional expected") };
        assert_eq!(
            v,
            [
                Value::Integer(1),
                Value::Real(2.5),
                Value::Text("x".into()),
                Value::Null,
                Value::Integer(1),
                Value::Blob(vec![0, 255]),
                Value::Integer(-7),
                Value::Real(1000.0),
            ]
        );
        let p = params(r#"{":a": 1}"#).unwrap();
        assert!(matches!(p, Params::Named(ref n) if n[0].0 == ":a"));
        for bad in [r#"[[1]]"#, "3", r#"[{"hex": "0"}]"#, r#"{":a": 1, "a": 2}"#, r#""x""#] {
            assert!(params(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn integers_past_64_bits_are_refused_not_made_reals() {
        assert!(matches!(
            params("[9223372036854775807, -9223372036854775808]").unwrap(),
            Params::Positional(ref v) if v == &[Value::Integer(i64::MAX), Value::Integer(i64::MIN)]
        ));
        for big in [
            "[9223372036854775808]",
            "[-9223372036854775809]",
            "[18446744073709551616]",
            "[123456789012345678901234567890]",
        ] {
            let err = params(big).unwrap_err();
            assert_eq!(err.status(), axum::http::StatusCode::BAD_REQUEST, "{big}");
        }
        // Written as a real, a large number is a real.
        assert!(matches!(
            params("[9223372036854775808.0]").unwrap(),
            Params::Positional(ref v) if v == &[Value::Real(9223372036854775808.0)]
        ));
    }
}
