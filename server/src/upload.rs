//! Streaming a request body into a Reservoir [`Upload`].
//!
//! The body is never buffered whole: the handler reads it frame by frame
//! and hands each frame through a small bounded channel to a blocking
//! thread that owns the `Upload` (whose writes hit the disk). When the
//! upload refuses a frame (too large, spool full, cancelled) the thread
//! stops and the handler stops reading: the rest of the body is dropped
//! with the connection, whatever Content-Length said.
//!
//! The body ends in exactly one of three ways, and only the first queues
//! the job:
//! - the last frame arrived: `Finish` → `Upload::finish`;
//! - reading failed (client disconnect, bad framing) or the client went
//!   quiet for [`IDLE_TIMEOUT`]: `Abort` → `Upload::abort`;
//! - the handler was dropped (the connection went away mid-request, or
//!   shutdown): the channel closes without `Finish` and the thread aborts.
//!
//! A cancel request for a receiving job wakes the handler through a
//! [`CancellationToken`]; it then sends an empty write, which lets the
//! `Upload` complete the cancellation (close, remove spool, `cancelled`)
//! without waiting for the client's next bytes.

use std::time::Duration;

use asadb::reservoir::{Submission, Upload};
use axum::body::{Body, Bytes};
use http_body_util::BodyExt;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::api::App;
use crate::error::{Error, Result};
use crate::framing::FirstRequest;

/// A client that sends nothing for this long loses its upload.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(120);
/// Frames in flight between the handler and the writer thread.
const CHANNEL_FRAMES: usize = 4;

enum Msg {
    Data(Bytes),
    Finish,
    Abort(String),
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

/// Receives `body` into `upload` and finishes it.
///
/// `surplus_check`: the request's [`FirstRequest`] marker and declared
/// length; a body followed by more bytes is refused as too large.
pub async fn receive(
    app: &App,
    upload: Upload,
    body: Body,
    surplus_check: Option<(FirstRequest, u64)>,
) -> Result<Submission> {
    let id = upload.id();
    let cancel = CancellationToken::new();
    app.uploads.lock().insert(id, cancel.clone());
    let _registered = Registered { app, id };

    let (tx, rx) = mpsc::channel::<Msg>(CHANNEL_FRAMES);
    let writer_app = app.clone();
    let writer = tokio::task::spawn_blocking(move || write_all(&writer_app, upload, rx));

    let mut body = body;
    loop {
        let msg = tokio::select! {
            biased;
            _ = cancel.cancelled() => Msg::Data(Bytes::new()),
            frame = tokio::time::timeout(IDLE_TIMEOUT, body.frame()) => match frame {
                Err(_) => Msg::Abort(format!("no body bytes for {} s", IDLE_TIMEOUT.as_secs())),
                Ok(None) => match &surplus_check {
                    Some((first, declared)) if first.surplus(*declared) => Msg::TooLong(*declared),
                    _ => Msg::Finish,
                },
                Ok(Some(Err(e))) => Msg::Abort(e.to_string()),
                Ok(Some(Ok(frame))) => match frame.into_data() {
                    Ok(data) if !data.is_empty() => Msg::Data(data),
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
    writer.await.map_err(|e| Error::Internal(format!("upload thread failed: {e}")))?
}

/// The writer thread: applies messages until the body ends or fails.
fn write_all(app: &App, mut upload: Upload, mut rx: mpsc::Receiver<Msg>) -> Result<Submission> {
    while let Some(msg) = rx.blocking_recv() {
        match msg {
            Msg::Data(data) => {
                // On error the upload has already failed (or cancelled)
                // its job and removed the spool file.
                upload.write(&data)?;
                app.metrics.add_bytes_received(data.len() as u64);
            }
            Msg::Finish => return Ok(upload.finish()?),
            Msg::TooLong(declared) => {
                let msg = format!(
                    "the request body is longer than its Content-Length of {declared} bytes"
                );
                upload.abort("too_large", &msg);
                return Err(asadb::reservoir::Error::TooLarge(msg).into());
            }
            Msg::Abort(why) => {
                let msg = format!("the request body broke off: {why}");
                upload.abort("upload_aborted", &msg);
                return Err(Error::BodyRead(why));
            }
        }
    }
    // Dropping the upload fails the job and removes its spool file.
    drop(upload);
    Err(Error::BodyRead("the connection closed before the body was complete".into()))
}
