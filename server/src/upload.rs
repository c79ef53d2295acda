//! Streaming a request body into a Reservoir upload.
//!
//! The body is never buffered whole: the handler reads it frame by frame
//! and hands each frame to the engine's [`BodyUpload`] (the embedded
//! engine writes it on the blocking pool, the PostgreSQL engine stores
//! 256 KiB chunks as rows). When the upload refuses a frame (too large,
//! spool full, cancelled) the handler stops reading: the rest of the body
//! is dropped with the connection, whatever Content-Length said.
//!
//! The body ends in exactly one of three ways, and only the first can
//! queue the job:
//! - the last frame arrived: `finish` (queued now) or `finish_held`
//!   (queued once the connection's close check finds nothing after the
//!   body, see [`crate::framing`]);
//! - reading failed (client disconnect, bad framing) or the body came in
//!   slower than the minimum rate: `abort`;
//! - the handler was dropped (the connection went away mid-request, or
//!   shutdown): the upload is dropped unfinished, which fails its job.
//!
//! **Minimum rate.** Time is cut into windows of `rate_window`; a window
//! in which fewer than `min_upload_rate × rate_window` bytes arrived fails
//! the upload (`408 too_slow`), so a trickling client cannot hold a job
//! slot and its reservation for long: at most one window past its last
//! useful byte.
//!
//! A cancel request for a receiving job — from this front-end or, with the
//! PostgreSQL backend, any other — resolves the upload's cancel signal;
//! the handler then writes no bytes, which lets the upload complete the
//! cancellation (spool removed, `cancelled`) without waiting for the
//! client's next bytes.

use std::time::{Duration, Instant};

use asadb::reservoir::{BodyUpload, Submission};
use axum::body::{Body, Bytes};
use http_body_util::BodyExt;

use crate::api::App;
use crate::error::{Error, Result};
use crate::framing::ConnHandle;

/// How long `execute_stream` watches the connection after the body for
/// bytes past its `Content-Length` (it cannot wait for the close).
pub const SETTLE: Duration = Duration::from_millis(200);

/// When the job of a complete body is queued.
#[derive(Clone, Debug)]
pub enum Finish {
    /// At once: the client stated the body's SHA-256 (checked), or there is
    /// no connection to watch.
    Now,
    /// After the connection's close check (`POST /api/reservoir/jobs`).
    OnClose(ConnHandle),
    /// After [`SETTLE`] without more bytes on the connection
    /// (`POST /api/execute_stream`, which answers only when the job ends).
    Settled(ConnHandle),
}

enum Step {
    Data(Bytes),
    Cancel,
    Finish,
    Abort(Error),
    /// The body went on past its declared length.
    TooLong(u64),
}

/// Receives `body` into `upload` and finishes it as `finish` says.
pub async fn receive(
    app: &App,
    mut upload: Box<dyn BodyUpload>,
    body: Body,
    declared: Option<u64>,
    finish: Finish,
) -> Result<Submission> {
    let limits = app.limits;
    let window = limits.rate_window;
    let need = limits.min_upload_rate.saturating_mul(window.as_secs()).max(1);
    let mut window_end = Instant::now() + window;
    let mut window_bytes = 0u64;
    let mut body = body;
    let mut cancel_seen = false;
    loop {
        let cancelled = upload.cancelled();
        let step = tokio::select! {
            biased;
            _ = cancelled, if !cancel_seen => Step::Cancel,
            frame = tokio::time::timeout_at(window_end.into(), body.frame()) => match frame {
                Err(_) => {
                    if window_bytes < need {
                        Step::Abort(Error::TooSlow(format!(
                            "the body arrived slower than {} bytes/s: {window_bytes} bytes in \
                             the last {} s (upload-min-bytes-per-second)",
                            limits.min_upload_rate,
                            window.as_secs()
                        )))
                    } else {
                        window_end = Instant::now() + window;
                        window_bytes = 0;
                        continue;
                    }
                }
                Ok(None) => match &finish {
                    Finish::Settled(conn) => settle(conn, declared).await,
                    _ => Step::Finish,
                },
                Ok(Some(Err(e))) => Step::Abort(Error::BodyRead(e.to_string())),
                Ok(Some(Ok(frame))) => match frame.into_data() {
                    Ok(data) if !data.is_empty() => {
                        window_bytes += data.len() as u64;
                        Step::Data(data)
                    }
                    // Trailers and empty frames carry nothing to spool.
                    _ => continue,
                },
            },
        };
        match step {
            // On error the upload has already failed (or cancelled) its
            // job and released its spool.
            Step::Data(data) => {
                upload.write(&data).await?;
                app.metrics.add_bytes_received(data.len() as u64);
            }
            Step::Cancel => {
                cancel_seen = true;
                upload.write(&[]).await?;
            }
            Step::Finish => {
                let sub = match &finish {
                    Finish::OnClose(conn) => {
                        let sub = upload.finish_held().await?;
                        if !sub.reused {
                            conn.hold(sub.job.id);
                        }
                        sub
                    }
                    _ => upload.finish().await?,
                };
                return Ok(sub);
            }
            Step::TooLong(declared) => {
                let msg = format!(
                    "the request body is longer than its Content-Length of {declared} bytes"
                );
                upload.abort("too_large", &msg).await;
                return Err(asadb::reservoir::Error::TooLarge(msg).into());
            }
            Step::Abort(err) => {
                let code = match err {
                    Error::BodyRead(_) => "upload_aborted".to_string(),
                    ref other => other.code().to_string(),
                };
                upload.abort(&code, &format!("the request body broke off: {err}")).await;
                return Err(err);
            }
        }
    }
}

/// Watches the connection for [`SETTLE`] after a complete body: bytes
/// read past it (hyper keeps reading a connection while its request is
/// handled) mean the body was longer than declared.
async fn settle(conn: &ConnHandle, declared: Option<u64>) -> Step {
    let at_end = conn.bytes_read();
    tokio::time::sleep(SETTLE).await;
    match declared {
        Some(n) if conn.bytes_read() > at_end => Step::TooLong(n),
        _ => Step::Finish,
    }
}
