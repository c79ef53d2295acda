//! Streaming a request body into a Reservoir [`Upload`].
//!
//! The body is never buffered whole: the handler reads it frame by frame
//! and hands each frame through a small bounded channel to a blocking
//! thread that owns the `Upload` (whose writes hit the disk). When the
//! upload refuses a frame (too large, spool full, cancelled) the thread
//! stops and the handler stops reading: the rest of the body is dropped
//! with the connection, whatever Content-Length said.
//!
//! The body ends in exactly one of three ways, and only the first can
//! queue the job:
//! - the last frame arrived: `Finish` → `Upload::finish` (queued now) or
//!   `Upload::finish_held` (queued once the connection's close check finds
//!   nothing after the body, see [`crate::framing`]);
//! - reading failed (client disconnect, bad framing) or the body came in
//!   slower than the minimum rate: `Abort` → `Upload::abort`;
//! - the handler was dropped (the connection went away mid-request, or
//!   shutdown): the channel closes without `Finish` and the thread aborts.
//!
//! **Minimum rate.** Time is cut into windows of `rate_window`; a window
//! in which fewer than `min_upload_rate × rate_window` bytes arrived fails
//! the upload (`408 too_slow`), so a trickling client cannot hold a job
//! slot and its reservation for long: at most one window past its last
//! useful byte.
//!
//! A cancel request for a receiving job wakes the handler through a
//! [`CancellationToken`]; it then sends an empty write, which lets the
//! `Upload` complete the cancellation (close, remove spool, `cancelled`)
//! without waiting for the client's next bytes.

use std::time::{Duration, Instant};

use asadb::reservoir::{Submission, Upload};
use axum::body::{Body, Bytes};
use http_body_util::BodyExt;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::api::App;
use crate::error::{Error, Result};
use crate::framing::ConnHandle;

/// Frames in flight between the handler and the writer thread.
const CHANNEL_FRAMES: usize = 4;
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

enum Msg {
    Data(Bytes),
    Finish,
    Abort(Error),
    /// The body went on past its declared length.
    TooLong(u64),
}

/// Removes an upload's cancel handle from the registry when the handler
/// ends, however it ends.
struct Registered<'a> {
    app: &'a App,
    id: asadb::reservoir::JobId,
}

impl Drop for Registered<'_> {
    fn drop(&mut self) {
        self.app.uploads.lock().remove(&self.id);
    }
}

/// Receives `body` into `upload` and finishes it as `finish` says.
pub async fn receive(
    app: &App,
    upload: Upload,
    body: Body,
    declared: Option<u64>,
    finish: Finish,
) -> Result<Submission> {
    let id = upload.id();
    let cancel = CancellationToken::new();
    app.uploads.lock().insert(id, cancel.clone());
    let _registered = Registered { app, id };

    let (tx, rx) = mpsc::channel::<Msg>(CHANNEL_FRAMES);
    let writer_app = app.clone();
    let hold = matches!(finish, Finish::OnClose(_));
    let writer = tokio::task::spawn_blocking(move || write_all(&writer_app, upload, rx, hold));

    let limits = app.limits;
    let window = limits.rate_window;
    let need = limits.min_upload_rate.saturating_mul(window.as_secs()).max(1);
    let mut window_end = Instant::now() + window;
    let mut window_bytes = 0u64;
    let mut body = body;
    loop {
        let msg = tokio::select! {
            biased;
            _ = cancel.cancelled() => Msg::Data(Bytes::new()),
            frame = tokio::time::timeout_at(window_end.into(), body.frame()) => match frame {
                Err(_) => {
                    if window_bytes < need {
                        Msg::Abort(Error::TooSlow(format!(
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
                    _ => Msg::Finish,
                },
                Ok(Some(Err(e))) => Msg::Abort(Error::BodyRead(e.to_string())),
                Ok(Some(Ok(frame))) => match frame.into_data() {
                    Ok(data) if !data.is_empty() => {
                        window_bytes += data.len() as u64;
                        Msg::Data(data)
                    }
                    // Trailers and empty frames carry nothing to spool.
                    _ => continue,
                },
            },
        };
        let last = !matches!(msg, Msg::Data(ref d) if !d.is_empty());
        // A send fails only when the writer has stopped on an error,
        // which the join below reports.
        if tx.send(msg).await.is_err() || last {
            break;
        }
    }
    drop(tx);
    let sub = writer.await.map_err(|e| Error::Internal(format!("upload thread failed: {e}")))??;
    if let Finish::OnClose(conn) = &finish
        && !sub.reused
    {
        conn.hold(sub.job.id);
    }
    Ok(sub)
}

/// Watches the connection for [`SETTLE`] after a complete body: bytes
/// read past it (hyper keeps reading a connection while its request is
/// handled) mean the body was longer than declared.
async fn settle(conn: &ConnHandle, declared: Option<u64>) -> Msg {
    let at_end = conn.bytes_read();
    tokio::time::sleep(SETTLE).await;
    match declared {
        Some(n) if conn.bytes_read() > at_end => Msg::TooLong(n),
        _ => Msg::Finish,
    }
}

/// The writer thread: applies messages until the body ends or fails.
fn write_all(
    app: &App,
    mut upload: Upload,
    mut rx: mpsc::Receiver<Msg>,
    hold: bool,
) -> Result<Submission> {
    while let Some(msg) = rx.blocking_recv() {
        match msg {
            Msg::Data(data) => {
                // On error the upload has already failed (or cancelled)
                // its job and removed the spool file.
                upload.write(&data)?;
                app.metrics.add_bytes_received(data.len() as u64);
            }
            Msg::Finish if hold => return Ok(upload.finish_held()?),
            Msg::Finish => return Ok(upload.finish()?),
            Msg::TooLong(declared) => {
                let msg = format!(
                    "the request body is longer than its Content-Length of {declared} bytes"
                );
                upload.abort("too_large", &msg);
                return Err(asadb::reservoir::Error::TooLarge(msg).into());
            }
            Msg::Abort(err) => {
                let code = match err {
                    Error::BodyRead(_) => "upload_aborted".to_string(),
                    ref other => other.code().to_string(),
                };
                upload.abort(&code, &format!("the request body broke off: {err}"));
                return Err(err);
            }
        }
    }
    // Dropping the upload fails the job and removes its spool file.
    drop(upload);
    Err(Error::BodyRead("the connection closed before the body was complete".into()))
}
