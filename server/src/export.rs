//! Exports: `asadb export`, `asadb dump` and `GET /api/export`.
//!
//! - `asadb export --db FILE (--table T | --query SQL) --format
//!   csv|tsv|jsonl|sql [--out F]`: the rows of a table or a read-only
//!   query, streamed from the engine into the file (default stdout).
//! - `asadb dump --db FILE [--out F]`: the whole database as a script
//!   that the `sqlite3` CLI and AsaDB load into the same tables and rows.
//! - `GET /api/export?table=T|query=SQL&format=…`: the same as
//!   `asadb export`, over HTTP on a running server (token required),
//!   streamed as the response body with a `Content-Disposition` file
//!   name. Errors found before the first row (bad SQL, no such table, a
//!   write) are JSON errors with their status; one after the rows began
//!   breaks the response off (the body ends without its final chunk), so
//!   a client never mistakes a partial export for a whole one.
//!
//! Memory: one row and one 64 KiB chunk (HTTP: four chunks in flight).
//! The encodings are `asadb::interchange::export`'s.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use asadb::interchange::export::{self, ExportFormat, Exporter, SessionDump};
use asadb::interchange::quote_ident;
use asadb::sql::session::Params;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderValue, Uri, header};
use axum::response::{IntoResponse, Response};
use clap::Args;

use crate::api::App;
use crate::error::{Error, Result};

/// `asadb export`'s arguments.
#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The database file
    #[arg(long, value_name = "FILE")]
    pub db: PathBuf,
    /// Export this table's rows
    #[arg(long, value_name = "T", conflicts_with = "query", required_unless_present = "query")]
    pub table: Option<String>,
    /// Export the rows of this read-only query
    #[arg(long, value_name = "SQL")]
    pub query: Option<String>,
    /// csv, tsv, jsonl or sql (INSERT statements)
    #[arg(long, default_value = "csv")]
    pub format: String,
    /// Write here instead of stdout
    #[arg(long, value_name = "F")]
    pub out: Option<PathBuf>,
}

/// `asadb dump`'s arguments.
#[derive(Args, Debug)]
pub struct DumpArgs {
    /// The database file
    #[arg(long, value_name = "FILE")]
    pub db: PathBuf,
    /// Write here instead of stdout
    #[arg(long, value_name = "F")]
    pub out: Option<PathBuf>,
}

fn bad(e: impl std::fmt::Display) -> Error {
    Error::BadRequest(e.to_string())
}

/// The SQL and the INSERTs' table name of a table or query export.
fn source(table: Option<&str>, query: Option<&str>) -> Result<(String, String)> {
    match (table, query) {
        (Some(t), None) => Ok((format!("SELECT * FROM {}", quote_ident(t)), t.to_string())),
        (None, Some(q)) => {
            asadb::check_read_only(q)?;
            Ok((q.to_string(), "query".to_string()))
        }
        _ => Err(Error::BadRequest("give exactly one of table and query".into())),
    }
}

fn output(out: &Option<PathBuf>) -> Result<Box<dyn Write>> {
    Ok(match out {
        Some(p) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(p)
                .map_err(|e| Error::Config(format!("cannot create {}: {e}", p.display())))?,
        )),
        None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
    })
}

/// Runs `asadb export`.
pub fn run_export(args: ExportArgs) -> Result<ExitCode> {
    let format: ExportFormat = args.format.parse().map_err(|e| Error::Config(format!("{e}")))?;
    let (sql, name) = source(args.table.as_deref(), args.query.as_deref())
        .map_err(|e| Error::Config(e.to_string()))?;
    let db = asadb::Database::open_with(&args.db, asadb::Options::default())?;
    let mut session = db.engine().session();
    {
        let rows = session.query(&sql, &Params::None).map_err(asadb::Error::from)?;
        let columns = rows.columns().to_vec();
        let mut e = Exporter::new(output(&args.out)?, format, columns, &name).map_err(io_error)?;
        for row in rows {
            e.row(&row.map_err(asadb::Error::from)?).map_err(io_error)?;
        }
        e.finish().map_err(io_error)?;
    }
    drop(session);
    db.close()?;
    Ok(ExitCode::SUCCESS)
}

/// Runs `asadb dump`.
pub fn run_dump(args: DumpArgs) -> Result<ExitCode> {
    let db = asadb::Database::open_with(&args.db, asadb::Options::default())?;
    let mut session = db.engine().session();
    let mut out = output(&args.out)?;
    export::dump(&mut SessionDump { session: &mut session }, &mut out).map_err(io_error)?;
    drop(out);
    drop(session);
    db.close()?;
    Ok(ExitCode::SUCCESS)
}

fn io_error(e: asadb::interchange::Error) -> Error {
    match e {
        asadb::interchange::Error::Io(io) => Error::Io(io),
        asadb::interchange::Error::Sql(s) => Error::Engine(asadb::Error::from(s)),
        other => Error::BadRequest(other.to_string()),
    }
}

/// Chunks going to the HTTP body.
struct ChunkWriter {
    tx: tokio::sync::mpsc::Sender<std::io::Result<Bytes>>,
    buf: Vec<u8>,
}

const CHUNK: usize = 64 * 1024;

impl Write for ChunkWriter {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(data);
        if self.buf.len() >= CHUNK {
            self.flush()?;
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let chunk = Bytes::from(std::mem::replace(&mut self.buf, Vec::with_capacity(CHUNK)));
        self.tx.blocking_send(Ok(chunk)).map_err(|_| {
            std::io::Error::new(std::io::ErrorKind::BrokenPipe, "the client went away")
        })
    }
}

/// `GET /api/export?table=T|query=SQL&format=csv|tsv|jsonl|sql`.
pub async fn http(State(app): State<App>, uri: Uri) -> Result<Response> {
    // One parser for every endpoint: `table=a&table=b` is refused, never
    // the last one taken.
    let q = crate::api::query(&uri)?;
    for k in q.keys() {
        if !matches!(k.as_str(), "table" | "query" | "format") {
            return Err(Error::BadRequest(format!("unknown query parameter {k:?}")));
        }
    }
    let format: ExportFormat =
        q.get("format").map_or(Ok(ExportFormat::Csv), |f| f.parse()).map_err(bad)?;
    let (sql, name) =
        source(q.get("table").map(String::as_str), q.get("query").map(String::as_str))?;
    let db = match &app.queries {
        crate::api::Queries::Embedded(adb) => adb.database().clone(),
        crate::api::Queries::Postgres(_) => {
            return Err(Error::Reservoir(asadb::reservoir::Error::Unsupported(
                "GET /api/export reads the embedded database; with --backend, export with \
                 PostgreSQL's own tools (COPY … TO, pg_dump)"
                    .into(),
            )));
        }
    };
    let (ready_tx, ready_rx) =
        tokio::sync::oneshot::channel::<std::result::Result<(), asadb::Error>>();
    let (tx, rx) = tokio::sync::mpsc::channel::<std::io::Result<Bytes>>(4);
    let table = name.clone();
    tokio::task::spawn_blocking(move || {
        let mut session = db.engine().session();
        let rows = match session.query(&sql, &Params::None) {
            Ok(r) => r,
            Err(e) => {
                let _ = ready_tx.send(Err(e.into()));
                return;
            }
        };
        let _ = ready_tx.send(Ok(()));
        let columns = rows.columns().to_vec();
        let writer = ChunkWriter { tx: tx.clone(), buf: Vec::with_capacity(CHUNK) };
        let result = (|| -> std::result::Result<(), String> {
            let mut e =
                Exporter::new(writer, format, columns, &table).map_err(|e| e.to_string())?;
            for row in rows {
                let row = row.map_err(|e| e.to_string())?;
                e.row(&row).map_err(|e| e.to_string())?;
            }
            e.finish().map_err(|e| e.to_string())?;
            Ok(())
        })();
        if let Err(why) = result {
            // Breaks the response off: the client sees an incomplete body.
            let _ = tx.blocking_send(Err(std::io::Error::other(why)));
        }
    });
    match ready_rx.await {
        Ok(Ok(())) => {}
        Ok(Err(e)) => return Err(Error::Engine(e)),
        Err(_) => return Err(Error::Internal("the export thread failed".into())),
    }
    let stream =
        futures_util::stream::unfold(
            rx,
            |mut rx| async move { rx.recv().await.map(|item| (item, rx)) },
        );
    let mut resp = Body::from_stream(stream).into_response();
    let h = resp.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(format.content_type()));
    let file: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' })
        .collect();
    if let Ok(v) =
        HeaderValue::from_str(&format!("attachment; filename=\"{file}.{}\"", format.extension()))
    {
        h.insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(resp)
}
