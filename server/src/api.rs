//! The HTTP API: routes, the token check, request metrics and the
//! handlers of `/api/reservoir/*` and `/metrics`.
//!
//! Every request passes two layers before its handler: `track` (outermost:
//! counts the request and its latency by matched route) and `auth` (the
//! bearer token, checked before anything else — routing errors included —
//! so an unauthenticated caller learns nothing but 401; the one exception
//! is `GET` of the panel's static files, see [`crate::panel`]). Handlers
//! talk to the Reservoir through its contract
//! ([`asadb::reservoir::contract::ReservoirEngine`]): the embedded engine
//! (which runs its blocking calls on tokio's blocking pool) or the
//! PostgreSQL one (`--backend`, natively async) — the handlers do not know
//! which. Request bodies are streamed by [`crate::upload`].
//!
//! Contract: `docs/api.md`.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use asadb::AsyncDatabase;
use asadb::reservoir::contract::ReservoirEngine;
use asadb::reservoir::{
    self, ImportFormat, ImportMeta, ImportMode, Job, JobId, Submission, SubmitOptions,
};
use asadb_reservoir_pg::PgReservoir;
use axum::body::Body;
use axum::extract::{MatchedPath, Query, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use serde::Deserialize;

use crate::error::{Error, Result};
use crate::framing::ConnHandle;
use crate::metrics::Metrics;
use crate::token::Token;
use crate::upload::Finish;

/// Longest accepted idempotency key, label, file name or table name.
pub(crate) const MAX_HEADER_TEXT: usize = 1024;

/// Where `/api/query` reads: the database the worker writes.
pub enum Queries {
    /// The embedded database `DIR/asadb.db`.
    Embedded(AsyncDatabase),
    /// The backend's PostgreSQL database (read-only transactions).
    Postgres(Arc<PgReservoir>),
}

/// What every handler shares.
pub struct AppState {
    /// The Reservoir engine, embedded or PostgreSQL.
    pub reservoir: Arc<dyn ReservoirEngine>,
    /// The database, for `/api/query` (the same one the worker uses).
    pub queries: Queries,
    pub token: Token,
    pub metrics: Arc<Metrics>,
    /// What one request or connection may cost.
    pub limits: crate::config::Limits,
    /// Test hook (debug builds only, from `ASADB_TEST_PANIC_MARKER`): a
    /// query or statement containing it panics inside the engine call.
    pub panic_marker: Option<String>,
    /// Canonical directories `POST /api/reservoir/file` may read from.
    pub allow_file_dirs: Vec<PathBuf>,
    /// Whether the Reservoir's worker runs (jobs can end).
    pub worker: bool,
    /// Change notification for `/api/reservoir/events`.
    pub events: crate::events::Hub,
}

/// The shared state handle.
pub type App = Arc<AppState>;

impl AppState {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        reservoir: Arc<dyn ReservoirEngine>,
        queries: Queries,
        token: Token,
        allow_file_dirs: Vec<PathBuf>,
        worker: bool,
        events: crate::events::Hub,
        limits: crate::config::Limits,
        panic_marker: Option<String>,
    ) -> App {
        Arc::new(AppState {
            events,
            reservoir,
            queries,
            token,
            metrics: Arc::new(Metrics::default()),
            limits,
            panic_marker,
            allow_file_dirs,
            worker,
        })
    }
}

/// The router with every route and both layers.
pub fn router(app: App) -> Router {
    let guard = middleware::from_fn_with_state(app.clone(), auth);
    let codings = middleware::from_fn(codings);
    let api = Router::new()
        .route("/api/reservoir/jobs", post(submit_job).get(list_jobs))
        .route("/api/reservoir/job", get(get_job))
        .route("/api/reservoir/cancel", post(cancel_job))
        .route("/api/reservoir/resume", post(resume_job))
        .route("/api/reservoir/stats", get(stats))
        .route("/api/reservoir/events", get(crate::events::stream))
        .route("/api/reservoir/result", get(result_page))
        .route("/api/reservoir/file", post(submit_file))
        .route("/api/execute_stream", post(execute_stream))
        .route("/api/query", post(run_query))
        .route("/api/export", get(crate::export::http))
        .route("/api/schema", get(crate::schema::get))
        .route("/api/import/formats", get(crate::formats::list))
        .route("/metrics", get(metrics))
        .fallback(|| async { Error::NotFound("no such endpoint".into()) })
        .method_not_allowed_fallback(|| async { Error::MethodNotAllowed })
        .layer(codings)
        .layer(guard.clone());
    // The panel's static files (no data) are the only routes outside the
    // token check; other methods on their paths stay behind it.
    crate::panel::routes(|refused| refused.layer(guard.clone()))
        .merge(api)
        .layer(middleware::from_fn_with_state(app.clone(), track))
        .with_state(app)
}

/// Refuses any request without the right bearer token.
async fn auth(State(app): State<App>, req: Request, next: Next) -> Response {
    let presented = req.headers().get(header::AUTHORIZATION).and_then(|v| bearer(v.as_bytes()));
    if presented.is_some_and(|t| app.token.matches(t)) {
        return next.run(req).await;
    }
    let mut resp = Error::Unauthorized.into_response();
    resp.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    resp
}

/// The token of an `Authorization: Bearer <token>` value. The scheme is
/// case-insensitive (RFC 9110 §11.1), spaces around the token are ignored.
pub(crate) fn bearer(value: &[u8]) -> Option<&[u8]> {
    let value = value.trim_ascii();
    let split = value.iter().position(|b| b.is_ascii_whitespace())?;
    let (scheme, token) = value.split_at(split);
    scheme.eq_ignore_ascii_case(b"bearer").then(|| token.trim_ascii())
}

/// Refuses request bodies the server cannot read as sent (see
/// [`refused_coding`]). Runs behind the token check.
async fn codings(req: Request, next: Next) -> Response {
    match refused_coding(req.headers()) {
        Some(err) => closing(err.into_response()),
        None => next.run(req).await,
    }
}

/// Why a request's body cannot be read as sent, or `None` when it can: a
/// transfer coding other than `chunked` alone, once (`Transfer-Encoding:
/// gzip, chunked`, or `chunked` in two headers), is `501 not_implemented`
/// (RFC 9112 §6.1), a content coding other than `identity` is
/// `415 unsupported_media_type` — never spooled as if the bytes were SQL.
pub(crate) fn refused_coding(headers: &HeaderMap) -> Option<Error> {
    // Repeated headers are one list (RFC 9110 §5.3): `chunked` twice is
    // two codings, not one.
    let tes: Vec<String> = headers
        .get_all(header::TRANSFER_ENCODING)
        .iter()
        .map(|te| String::from_utf8_lossy(te.as_bytes()).to_ascii_lowercase())
        .collect();
    if !tes.is_empty() {
        let text = tes.join(", ");
        let codings: Vec<&str> = text.split(',').map(str::trim).filter(|c| !c.is_empty()).collect();
        if codings != ["chunked"] {
            return Some(Error::NotImplemented(format!(
                "Transfer-Encoding {text:?} is not supported: send the body plain or \
                 `Transfer-Encoding: chunked` alone"
            )));
        }
    }
    for ce in headers.get_all(header::CONTENT_ENCODING) {
        let text = String::from_utf8_lossy(ce.as_bytes()).to_ascii_lowercase();
        if text.split(',').map(str::trim).any(|c| !c.is_empty() && c != "identity") {
            return Some(Error::UnsupportedMedia(format!(
                "Content-Encoding {text:?} is not supported: send the body uncompressed"
            )));
        }
    }
    None
}

/// Counts every request by method, matched route and status. Every label
/// comes from a fixed set — the standard methods and the router's own
/// routes, anything else `other` — so no request can add a series.
async fn track(State(app): State<App>, req: Request, next: Next) -> Response {
    let start = Instant::now();
    let method = crate::metrics::method_label(req.method());
    let route = req.extensions().get::<MatchedPath>().map(|m| m.as_str().to_string());
    let resp = next.run(req).await;
    let route = route.as_deref().unwrap_or(crate::metrics::OTHER);
    app.metrics.observe_request(method, route, resp.status().as_u16(), start.elapsed());
    resp
}

/// The query string as a map; a malformed one, or one naming a parameter
/// twice (`id=7&id=8`: which one?), is a 400.
pub(crate) fn query(uri: &Uri) -> Result<HashMap<String, String>> {
    let pairs = Query::<Vec<(String, String)>>::try_from_uri(uri)
        .map(|q| q.0)
        .map_err(|e| Error::BadRequest(format!("malformed query string: {e}")))?;
    let mut map = HashMap::with_capacity(pairs.len());
    for (k, v) in pairs {
        if map.contains_key(&k) {
            return Err(Error::BadRequest(format!(
                "query parameter {k:?} is given more than once"
            )));
        }
        map.insert(k, v);
    }
    Ok(map)
}

/// The required `id` query parameter.
pub(crate) fn job_id(uri: &Uri) -> Result<JobId> {
    let q = query(uri)?;
    let raw = q.get("id").ok_or_else(|| Error::BadRequest("missing query parameter id".into()))?;
    Ok(raw.parse::<JobId>()?)
}

/// An optional non-negative integer query parameter.
fn number(q: &HashMap<String, String>, name: &str) -> Result<Option<u64>> {
    q.get(name)
        .map(|v| {
            v.parse::<u64>().map_err(|_| {
                Error::BadRequest(format!("query parameter {name} must be a non-negative integer"))
            })
        })
        .transpose()
}

/// A job snapshot with 201 (new) or 200 (an earlier job reused).
fn submitted(sub: Submission) -> Response {
    let status = if sub.reused { StatusCode::OK } else { StatusCode::CREATED };
    (status, Json(sub.job)).into_response()
}

/// `POST /api/reservoir/jobs`: the body streams into a new job. Without a
/// stated fingerprint the job is queued only once the connection has shown
/// nothing after the body (see [`crate::framing`]): it is answered
/// `receiving`, with `Connection: close`.
async fn submit_job(
    State(app): State<App>,
    conn: Option<Extension<ConnHandle>>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let finish = |conn: Option<ConnHandle>| conn.map_or(Finish::Now, Finish::OnClose);
    match upload_job(&app, conn.map(|c| c.0), &headers, body, finish).await {
        Ok(sub) => closing(submitted(sub)),
        Err(resp) => resp,
    }
}

/// `POST /api/execute_stream` (legacy): like `POST /api/reservoir/jobs`,
/// then waits for the job to end and answers its final snapshot (200,
/// whatever the job's outcome: read `state` and `error`). It cannot wait
/// for its connection to close before the job runs, so without a stated
/// fingerprint it watches the connection for [`crate::upload::SETTLE`]
/// after the body instead.
async fn execute_stream(
    State(app): State<App>,
    conn: Option<Extension<ConnHandle>>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    if !app.worker {
        return closing(
            Error::from(reservoir::Error::InvalidState(
                "this server runs without a worker (--no-worker): jobs would never end".into(),
            ))
            .into_response(),
        );
    }
    let finish = |conn: Option<ConnHandle>| conn.map_or(Finish::Now, Finish::Settled);
    let id = match upload_job(&app, conn.map(|c| c.0), &headers, body, finish).await {
        Ok(sub) => sub.job.id,
        Err(resp) => return resp,
    };
    let mut delay = std::time::Duration::from_millis(5);
    loop {
        match app.reservoir.job(id).await {
            Ok(job) if job.state.is_terminal() => return closing(Json(job).into_response()),
            Ok(_) => {}
            Err(e) => return closing(Error::from(e).into_response()),
        }
        tokio::time::sleep(delay).await;
        delay = (delay * 2).min(std::time::Duration::from_millis(200));
    }
}

/// Marks an upload's answer `Connection: close`: whatever the client sends
/// after its body is never read as another request.
fn closing(mut resp: Response) -> Response {
    resp.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
    resp
}

/// Admits a job from the request's headers and streams the body into it.
/// Every answer is `Connection: close`: after a failure the rest of the
/// body (if any) is not read, so the connection is in an unknown position;
/// after a success, bytes past the body are the close check's business.
async fn upload_job(
    app: &App,
    conn: Option<ConnHandle>,
    headers: &HeaderMap,
    body: Body,
    finish: impl FnOnce(Option<ConnHandle>) -> Finish,
) -> std::result::Result<Submission, Response> {
    let result = async {
        let opts = submit_options(headers)?;
        // A stated fingerprint is checked exactly: no need to watch the
        // connection for surplus bytes.
        let finish = if opts.content_sha256.is_some() { Finish::Now } else { finish(conn) };
        let declared = opts.declared_size;
        ensure_writable(app).await?;
        let upload = app.reservoir.begin_upload(opts).await?;
        crate::upload::receive(app, upload, body, declared, finish).await
    }
    .await;
    result.map_err(|err| closing(err.into_response()))
}

/// Reads a header as UTF-8 text; repeated, non-UTF-8, empty or overlong
/// values are a 400.
fn header_text(headers: &HeaderMap, name: &str) -> Result<Option<String>> {
    let mut values = headers.get_all(name).iter();
    let Some(value) = values.next() else { return Ok(None) };
    if values.next().is_some() {
        return Err(Error::BadRequest(format!("header {name} is given more than once")));
    }
    let text = std::str::from_utf8(value.as_bytes())
        .map_err(|_| Error::BadRequest(format!("header {name} is not valid UTF-8")))?
        .trim();
    if text.is_empty() {
        return Err(Error::BadRequest(format!("header {name} is empty")));
    }
    if text.len() > MAX_HEADER_TEXT {
        return Err(Error::BadRequest(format!(
            "header {name} is longer than {MAX_HEADER_TEXT} bytes"
        )));
    }
    Ok(Some(text.to_string()))
}

/// `true` or `false`, case-insensitively.
fn parse_bool(name: &str, text: &str) -> Result<bool> {
    match text.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(Error::BadRequest(format!("{name} must be true or false, not {text:?}"))),
    }
}

/// The job options carried by an upload's headers.
pub(crate) fn submit_options(headers: &HeaderMap) -> Result<SubmitOptions> {
    let stop_on_error = header_text(headers, "x-asadb-stop-on-error")?
        .map(|t| parse_bool("X-AsaDB-Stop-On-Error", &t))
        .transpose()?;
    let format = match header_text(headers, "x-asadb-import-format")? {
        Some(t) => t.parse::<ImportFormat>()?,
        None => ImportFormat::default(),
    };
    let mode = match header_text(headers, "x-asadb-import-mode")? {
        Some(t) => t.parse::<ImportMode>()?,
        None => ImportMode::default(),
    };
    // A chunked body has no declared size, whatever else was sent.
    let declared_size = if headers.contains_key(header::TRANSFER_ENCODING) {
        None
    } else {
        header_text(headers, header::CONTENT_LENGTH.as_str())?
            .map(|t| {
                t.parse::<u64>()
                    .map_err(|_| Error::BadRequest(format!("invalid Content-Length {t:?}")))
            })
            .transpose()?
    };
    let content_sha256 = header_text(headers, "x-asadb-content-sha256")?
        .map(|t| {
            let hex = t.to_ascii_lowercase();
            if hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                Ok(hex)
            } else {
                Err(Error::BadRequest(format!(
                    "X-AsaDB-Content-SHA256 must be 64 hex digits (the SHA-256 of the body), \
                     not {t:.80?}"
                )))
            }
        })
        .transpose()?;
    Ok(SubmitOptions {
        content_sha256,
        label: header_text(headers, "x-asadb-job-label")?,
        idempotency_key: header_text(headers, "x-asadb-idempotency-key")?,
        stop_on_error,
        declared_size,
        import: ImportMeta {
            format,
            original_name: header_text(headers, "x-asadb-import-original-name")?,
            target_table: header_text(headers, "x-asadb-import-target-table")?,
            mode,
            options: crate::import_opts::OptionTexts::from_headers(|h| header_text(headers, h))?
                .parse()?,
        },
    })
}

/// `GET /api/reservoir/jobs`: active jobs, newest update first.
async fn list_jobs(State(app): State<App>) -> Result<Json<serde_json::Value>> {
    let jobs: Vec<Job> = app.reservoir.active_jobs().await?;
    Ok(Json(serde_json::json!({ "jobs": jobs })))
}

/// `GET /api/reservoir/job?id=`
async fn get_job(State(app): State<App>, uri: Uri) -> Result<Json<Job>> {
    let id = job_id(&uri)?;
    Ok(Json(app.reservoir.job(id).await?))
}

/// `POST /api/reservoir/cancel?id=`
async fn cancel_job(State(app): State<App>, uri: Uri) -> Result<Json<Job>> {
    let id = job_id(&uri)?;
    // A receiving upload learns of it through its cancel signal and
    // finishes the cancellation itself (see `crate::upload`).
    Ok(Json(app.reservoir.cancel(id).await?))
}

/// `POST /api/reservoir/resume?id=`
async fn resume_job(State(app): State<App>, uri: Uri) -> Result<Json<Job>> {
    let id = job_id(&uri)?;
    Ok(Json(app.reservoir.resume(id).await?))
}

/// `GET /api/reservoir/stats`: the Reservoir's figures and the
/// database's write state.
async fn stats(State(app): State<App>) -> Result<Json<StatsBody>> {
    let stats = app.reservoir.stats().await?;
    let (database_write_error, database_recoveries) = match &app.queries {
        Queries::Embedded(adb) => (adb.database().write_error(), adb.database().recoveries()),
        Queries::Postgres(_) => (None, 0),
    };
    Ok(Json(StatsBody { stats, database_write_error, database_recoveries }))
}

/// The body of `GET /api/reservoir/stats`.
#[derive(serde::Serialize)]
struct StatsBody {
    #[serde(flatten)]
    stats: reservoir::Stats,
    /// Why the database cannot be written right now (the failed write or
    /// sync that latched it, e.g. a full disk), or `None`. While set, new
    /// jobs are refused with 507 `disk_full` (or the error the write hit);
    /// it clears by itself once a write succeeds again.
    database_write_error: Option<String>,
    /// Times the database recovered by itself since the server started.
    database_recoveries: u64,
}

/// Refuses new work while the embedded database cannot write: a latched
/// database first tries to recover (off the runtime: it may wait for the
/// writer and sync), and when that fails the answer is its error — 507
/// `disk_full` for a full disk — instead of a job that would fail.
pub(crate) async fn ensure_writable(app: &App) -> Result<()> {
    let Queries::Embedded(adb) = &app.queries else { return Ok(()) };
    if adb.database().write_error().is_none() {
        return Ok(());
    }
    let db = adb.database().clone();
    let recovered = tokio::task::spawn_blocking(move || db.recover())
        .await
        .map_err(|e| Error::Internal(format!("blocking task failed: {e}")))?;
    match recovered {
        Ok(_) => Ok(()),
        Err(e) if e.is_disk_full() => {
            Err(Error::Reservoir(reservoir::Error::Io(std::io::Error::new(
                std::io::ErrorKind::StorageFull,
                format!("the database cannot be written: {e}"),
            ))))
        }
        Err(e) => Err(Error::Engine(e)),
    }
}

/// `GET /api/reservoir/result?id=&statement=&offset=&limit=`
async fn result_page(
    State(app): State<App>,
    uri: Uri,
) -> Result<Json<reservoir::results::ResultPage>> {
    let id = job_id(&uri)?;
    let q = query(&uri)?;
    let statement = number(&q, "statement")?.unwrap_or(0);
    let offset = number(&q, "offset")?.unwrap_or(0);
    let limit = number(&q, "limit")?.unwrap_or(0);
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    Ok(Json(app.reservoir.result(id, statement, offset, limit).await?))
}

/// `POST /api/query`
async fn run_query(State(app): State<App>, body: Body) -> Result<Response> {
    match &app.queries {
        Queries::Embedded(db) => {
            let cx = crate::query::QueryContext {
                db: db.clone(),
                metrics: app.metrics.clone(),
                limits: app.limits,
                panic_marker: app.panic_marker.clone(),
            };
            crate::query::run(&cx, body).await
        }
        Queries::Postgres(pg) => crate::query::run_pg(pg, &app.metrics, body).await,
    }
}

/// `GET /metrics`
async fn metrics(State(app): State<App>) -> Result<Response> {
    let mut engine = crate::metrics::EngineGauges::default();
    if let Queries::Embedded(adb) = &app.queries {
        let a = adb.stats();
        engine.async_in_flight = a.in_flight;
        engine.async_held_transactions = a.held_transactions;
    }
    if let Queries::Embedded(adb) = &app.queries
        && let Some(db) = adb.database().engine().db()
    {
        let d = db.stats();
        engine.pool_frames = d.pool.capacity;
        engine.pool_cached_frames = d.pool.cached;
        engine.pool_hits = d.pool.hits;
        engine.pool_misses = d.pool.misses;
        engine.pool_evictions = d.pool.evictions;
        engine.wal_bytes = d.log_bytes;
        engine.wal_frames = d.log_frames;
        engine.commits = d.commits;
        engine.checkpoints = d.checkpoints;
        engine.write_blocked = db.write_error().is_some();
        engine.recoveries = d.recoveries;
    }
    let text = app.metrics.render(&app.reservoir.stats().await?, &engine);
    Ok(([(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], text).into_response())
}

/// The JSON body of `POST /api/reservoir/file`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct FileRequest {
    /// Absolute path of a file under an allowed directory.
    path: String,
    label: Option<String>,
    idempotency_key: Option<String>,
    stop_on_error: Option<bool>,
    format: Option<String>,
    original_name: Option<String>,
    target_table: Option<String>,
    mode: Option<String>,
    /// `csv_delimiter`, `csv_quote`, … as the `X-AsaDB-CSV-*` headers.
    #[serde(flatten)]
    options: crate::import_opts::OptionTexts,
}

/// `POST /api/reservoir/file`: submits a server-side file.
///
/// Everything that touches the file system — resolving the path, opening,
/// checking and reading the file — runs on a blocking thread: a FIFO, a
/// device or a hung network mount can stall that thread, never the
/// runtime. See [`open_allowed_file`] for the rules a file must meet.
async fn submit_file(State(app): State<App>, body: Body) -> Result<Response> {
    let body = crate::query::small_body(body, 64 << 10).await?;
    ensure_writable(&app).await?;
    let req: FileRequest = serde_json::from_slice(&body)
        .map_err(|e| Error::BadRequest(format!("invalid JSON body: {e}")))?;
    check_path_text(&req.path)?;
    let import = ImportMeta {
        format: req.format.as_deref().map(str::parse).transpose()?.unwrap_or_default(),
        original_name: req.original_name,
        target_table: req.target_table,
        mode: req.mode.as_deref().map(str::parse).transpose()?.unwrap_or_default(),
        options: req.options.parse()?,
    };
    // Opening and checking the file may block (a FIFO, a slow disk): off
    // the runtime's threads.
    let dirs = app.allow_file_dirs.clone();
    let (file, path, len) =
        tokio::task::spawn_blocking(move || open_allowed_file(&dirs, &req.path))
            .await
            .map_err(|e| Error::Internal(format!("blocking task failed: {e}")))??;
    let mut import = import;
    if import.original_name.is_none() {
        import.original_name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    }
    let opts = SubmitOptions {
        label: req.label,
        idempotency_key: req.idempotency_key,
        stop_on_error: req.stop_on_error,
        declared_size: Some(len),
        import,
        content_sha256: None,
    };
    let mut counted = Counted { inner: tokio::fs::File::from_std(file), app: app.clone() };
    let sub = reservoir::contract::submit(&*app.reservoir, opts, &mut counted).await?;
    Ok(submitted(sub))
}

/// A file reader that feeds the bytes-received counter.
struct Counted<R> {
    inner: R,
    app: App,
}

impl<R: tokio::io::AsyncRead + Unpin> tokio::io::AsyncRead for Counted<R> {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = std::pin::Pin::new(&mut self.inner).poll_read(cx, buf);
        let n = buf.filled().len() - before;
        self.app.metrics.add_bytes_received(n as u64);
        polled
    }
}

/// Longest path `POST /api/reservoir/file` accepts (Linux's `PATH_MAX`).
const MAX_PATH_BYTES: usize = 4096;
/// Longest path component (Linux's `NAME_MAX`).
const MAX_NAME_BYTES: usize = 255;

/// Refuses path texts no file can have, before the file system is asked:
/// a NUL byte, a component over 255 bytes, a path over 4096 bytes, or a
/// trailing `/` (which names a directory). Each is a 400 with a message
/// that says which.
fn check_path_text(requested: &str) -> Result<()> {
    if requested.contains('\0') {
        return Err(Error::BadRequest("path must not contain a NUL byte".into()));
    }
    if requested.len() > MAX_PATH_BYTES {
        return Err(Error::BadRequest(format!(
            "path is {} bytes, longer than {MAX_PATH_BYTES}",
            requested.len()
        )));
    }
    if let Some(long) = requested.split('/').find(|c| c.len() > MAX_NAME_BYTES) {
        return Err(Error::BadRequest(format!(
            "path component {:.40?}… is {} bytes, longer than {MAX_NAME_BYTES}",
            long,
            long.len()
        )));
    }
    if requested.len() > 1 && requested.ends_with('/') {
        return Err(Error::BadRequest(format!(
            "path {requested:?} ends with `/`: it names a directory, not a file"
        )));
    }
    Ok(())
}

/// Opens a requested file for submission, if and only if:
/// - its canonical path (symlinks resolved) lies under one of the
///   canonical `allowed` directories, and no `..` component is used;
/// - it is opened without blocking (`O_NONBLOCK`: a FIFO is not waited
///   for) and without following a symlink swapped in for its last
///   component (`O_NOFOLLOW`), and the opened descriptor's real path is
///   still inside (a directory swapped for a symlink between the check and
///   the open cannot escape);
/// - it is a regular file (not a FIFO, socket, device or directory);
/// - it has exactly one hard link: a second link could live outside the
///   allowed tree (a link made by someone who cannot read the target's
///   directory but can write an allowed one), and the server cannot tell
///   where the other names are.
///
/// Returns the file, its canonical path and its length.
fn open_allowed_file(
    allowed: &[PathBuf],
    requested: &str,
) -> Result<(std::fs::File, PathBuf, u64)> {
    let path = allowed_file(allowed, requested)?;
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(
        &mut opts,
        libc::O_NONBLOCK | libc::O_NOFOLLOW | libc::O_NOCTTY,
    );
    let file = opts.open(&path).map_err(|e| file_error(&path, e))?;
    #[cfg(target_os = "linux")]
    check_opened_path(allowed, &file)?;
    let meta = file.metadata().map_err(|e| file_error(&path, e))?;
    if !meta.is_file() {
        return Err(Error::BadRequest(format!(
            "{} is not a regular file ({})",
            path.display(),
            file_kind(&meta)
        )));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.nlink() != 1 {
            return Err(Error::Forbidden(format!(
                "{} has {} hard links: only a file with exactly one link can be shown to \
                 lie inside an allowed directory (copy it instead of linking it)",
                path.display(),
                meta.nlink()
            )));
        }
    }
    Ok((file, path, meta.len()))
}

/// What kind of non-regular file `meta` describes, for error messages.
fn file_kind(meta: &std::fs::Metadata) -> &'static str {
    let t = meta.file_type();
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
    }
    if t.is_dir() { "a directory" } else { "not a regular file" }
}

/// Resolves a requested path to its canonical form if, and only if, it
/// lies under one of the canonical `allowed` directories: no `..`
/// component, and symlinks resolved before the check, so neither can step
/// outside.
fn allowed_file(allowed: &[PathBuf], requested: &str) -> Result<PathBuf> {
    check_path_text(requested)?;
    let path = Path::new(requested);
    if !path.is_absolute() {
        return Err(Error::BadRequest(format!("path {requested:?} must be absolute")));
    }
    if path.components().any(|c| c == Component::ParentDir) {
        return Err(Error::Forbidden(format!("path {requested:?} must not contain `..`")));
    }
    if allowed.is_empty() {
        return Err(Error::Forbidden(
            "no directory is allowed for file submission: start the server with --allow-file-dir"
                .into(),
        ));
    }
    let canonical = path.canonicalize().map_err(|e| file_error(path, e))?;
    if !allowed.iter().any(|dir| canonical.starts_with(dir)) {
        return Err(Error::Forbidden(format!("{requested:?} is not inside an allowed directory")));
    }
    Ok(canonical)
}

/// Re-checks the opened file's real path, so a directory swapped for a
/// symlink between the check and the open cannot escape either.
#[cfg(target_os = "linux")]
fn check_opened_path(allowed: &[PathBuf], file: &std::fs::File) -> Result<()> {
    use std::os::fd::AsRawFd;
    let real = std::fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd()))?;
    if !allowed.iter().any(|dir| real.starts_with(dir)) {
        return Err(Error::Forbidden("the file moved outside the allowed directories".into()));
    }
    Ok(())
}

/// The answer for a file-system error on a requested path: missing → 404,
/// permission → 403, a symlink met by `O_NOFOLLOW` → 403, a name or path
/// the kernel finds too long, or a non-directory used as one → 400;
/// anything else is a server-side `io` failure.
fn file_error(path: &Path, e: std::io::Error) -> Error {
    use std::io::ErrorKind as K;
    match e.kind() {
        K::NotFound => Error::NotFound(format!("no such file: {}", path.display())),
        K::PermissionDenied => Error::Forbidden(format!("permission denied: {}", path.display())),
        K::InvalidFilename => Error::BadRequest(format!("invalid file name: {}", path.display())),
        K::NotADirectory => {
            Error::BadRequest(format!("a component of {} is not a directory", path.display()))
        }
        K::IsADirectory => Error::BadRequest(format!("{} is a directory", path.display())),
        _ if e.raw_os_error() == Some(libc::ELOOP) => Error::Forbidden(format!(
            "{} is a symlink (swapped in after the check?)",
            path.display()
        )),
        _ => Error::Io(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&str, &[u8])]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(
                axum::http::HeaderName::from_bytes(k.as_bytes()).unwrap(),
                HeaderValue::from_bytes(v).unwrap(),
            );
        }
        h
    }

    #[test]
    fn submit_options_read_every_header() {
        let h = headers(&[
            ("x-asadb-job-label", "nightly load".as_bytes()),
            ("x-asadb-idempotency-key", b"k1"),
            ("x-asadb-stop-on-error", b"False"),
            ("x-asadb-import-format", b"sql"),
            ("x-asadb-import-original-name", "dump é.sql".as_bytes()),
            ("x-asadb-import-target-table", b"t"),
            ("x-asadb-import-mode", b"replace"),
            ("content-length", b"42"),
        ]);
        let o = submit_options(&h).unwrap();
        assert_eq!(o.label.as_deref(), Some("nightly load"));
        assert_eq!(o.idempotency_key.as_deref(), Some("k1"));
        assert_eq!(o.stop_on_error, Some(false));
        assert_eq!(o.declared_size, Some(42));
        assert_eq!(o.import.original_name.as_deref(), Some("dump é.sql"));
        assert_eq!(o.import.target_table.as_deref(), Some("t"));
        assert_eq!(o.import.mode, ImportMode::Replace);
    }

    #[test]
    fn malformed_headers_are_bad_requests() {
        let bad: [&[(&str, &[u8])]; 6] = [
            &[("x-asadb-stop-on-error", b"yes")],
            &[("x-asadb-import-format", b"parquet")],
            &[("x-asadb-import-mode", b"merge")],
            &[("x-asadb-job-label", b"\xff\xfe")],
            &[("x-asadb-idempotency-key", b"a"), ("x-asadb-idempotency-key", b"b")],
            &[("x-asadb-idempotency-key", b"  ")],
        ];
        for h in bad {
            let err = submit_options(&headers(h)).unwrap_err();
            assert_eq!(err.status(), StatusCode::BAD_REQUEST, "{h:?}: {err}");
        }
    }

    #[test]
    fn only_plain_and_chunked_bodies_are_read() {
        let status = |h: &[(&str, &[u8])]| refused_coding(&headers(h)).map(|e| e.status());
        assert_eq!(status(&[]), None);
        assert_eq!(status(&[("transfer-encoding", b"Chunked")]), None);
        assert_eq!(status(&[("content-encoding", b"identity, ")]), None);
        assert_eq!(
            status(&[("transfer-encoding", b"gzip, chunked")]),
            Some(StatusCode::NOT_IMPLEMENTED)
        );
        assert_eq!(
            status(&[("transfer-encoding", b"chunked"), ("transfer-encoding", b"chunked")]),
            Some(StatusCode::NOT_IMPLEMENTED)
        );
        assert_eq!(
            status(&[("content-encoding", b"gzip")]),
            Some(StatusCode::UNSUPPORTED_MEDIA_TYPE)
        );
    }

    #[test]
    fn chunked_bodies_have_no_declared_size() {
        let h = headers(&[("transfer-encoding", b"chunked"), ("content-length", b"5")]);
        assert_eq!(submit_options(&h).unwrap().declared_size, None);
    }

    #[test]
    fn ids_must_be_positive_integers() {
        for bad in ["/x", "/x?id=", "/x?id=abc", "/x?id=0", "/x?id=-1", "/x?other=1"] {
            let err = job_id(&bad.parse().unwrap()).unwrap_err();
            assert_eq!(err.status(), StatusCode::BAD_REQUEST, "{bad}");
        }
        assert_eq!(job_id(&"/x?id=17".parse().unwrap()).unwrap(), JobId(17));
    }

    #[cfg(unix)]
    #[test]
    fn files_must_stay_inside_allowed_directories() {
        let root = tempfile::tempdir().unwrap();
        let allowed = root.path().join("in");
        let outside = root.path().join("out");
        std::fs::create_dir_all(&allowed).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(allowed.join("a.sql"), "select 1;").unwrap();
        std::fs::write(outside.join("secret.sql"), "select 2;").unwrap();
        std::os::unix::fs::symlink(outside.join("secret.sql"), allowed.join("link.sql")).unwrap();
        let dirs = vec![allowed.canonicalize().unwrap()];
        let s = |p: PathBuf| p.to_string_lossy().into_owned();

        assert!(allowed_file(&dirs, &s(allowed.join("a.sql"))).is_ok());
        let status = |p: String| allowed_file(&dirs, &p).unwrap_err().status();
        assert_eq!(status(s(allowed.join("../out/secret.sql"))), StatusCode::FORBIDDEN);
        assert_eq!(status(s(allowed.join("link.sql"))), StatusCode::FORBIDDEN);
        assert_eq!(status(s(outside.join("secret.sql"))), StatusCode::FORBIDDEN);
        assert_eq!(status(s(allowed.join("missing.sql"))), StatusCode::NOT_FOUND);
        assert_eq!(status("a.sql".into()), StatusCode::BAD_REQUEST);
        assert_eq!(
            allowed_file(&[], &s(allowed.join("a.sql"))).unwrap_err().status(),
            StatusCode::FORBIDDEN
        );
    }

    #[test]
    fn impossible_path_texts_are_bad_requests() {
        let long_name = format!("/srv/{}", "a".repeat(300));
        let long_path = format!("/{}", "ab/".repeat(1400));
        for bad in ["/srv/a\0b.sql", &long_name, &long_path, "/srv/imports/"] {
            let err = check_path_text(bad).unwrap_err();
            assert_eq!(err.status(), StatusCode::BAD_REQUEST, "{bad:.60}: {err}");
        }
        assert!(check_path_text("/srv/imports/load.sql").is_ok());
        assert!(check_path_text("/").is_ok());
    }

    #[cfg(unix)]
    #[test]
    fn fifos_devices_and_hard_links_are_refused_without_blocking() {
        let root = tempfile::tempdir().unwrap();
        let allowed = root.path().join("in");
        let outside = root.path().join("out");
        std::fs::create_dir_all(&allowed).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        let dirs = vec![allowed.canonicalize().unwrap()];
        let s = |p: PathBuf| p.to_string_lossy().into_owned();

        let fifo = allowed.join("pipe.sql");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo(3) with a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        // Nobody ever opens the FIFO's other end: a blocking open would hang.
        let err = open_allowed_file(&dirs, &s(fifo)).unwrap_err();
        assert_eq!(err.status(), StatusCode::BAD_REQUEST, "{err}");
        assert!(err.to_string().contains("FIFO"), "{err}");

        std::fs::write(outside.join("secret.sql"), "SELECT 'secret';").unwrap();
        std::fs::hard_link(outside.join("secret.sql"), allowed.join("link.sql")).unwrap();
        let err = open_allowed_file(&dirs, &s(allowed.join("link.sql"))).unwrap_err();
        assert_eq!(err.status(), StatusCode::FORBIDDEN, "{err}");

        let err = open_allowed_file(&dirs, &s(allowed.clone())).unwrap_err();
        assert_eq!(err.status(), StatusCode::BAD_REQUEST, "{err}");

        std::fs::write(allowed.join("ok.sql"), "SELECT 1;").unwrap();
        let (_, path, len) = open_allowed_file(&dirs, &s(allowed.join("ok.sql"))).unwrap();
        assert_eq!((path.file_name().unwrap().to_str().unwrap(), len), ("ok.sql", 9));
    }
}
