//! Streaming a request body into a Reservoir upload.
//!
//! The body is never buffered whole: the handler reads it frame by frame
//! and hands each frame to the engine's [`BodyUpload`] (the embedded
//! engine writes it on the blocking pool, the PostgreSQL engine stores
//! 256 KiB chunks as rows). When the upload refuses a frame (too large,
//! spool full, cancelled) the handler stops reading: the rest of the body
//! is dropped with the connection, whatever Content-Length said.
//!
//! The body ends in exactly one of three ways, and only the first queues
//! the job:
//! - the last frame arrived: `finish`;
//! - reading failed (client disconnect, bad framing) or the client went
//!   quiet for [`IDLE_TIMEOUT`]: `abort`;
//! - the handler was dropped (the connection went away mid-request, or
//!   shutdown): the upload is dropped unfinished, which fails its job.
//!
//! A cancel request for a receiving job — from this front-end or, with the
//! PostgreSQL backend, any other — resolves the upload's cancel signal;
//! the handler then writes no bytes, which lets the upload complete the
//! cancellation (spool removed, `cancelled`) without waiting for the
//! client's next bytes.

use std::time::Duration;

use asadb::reservoir::{BodyUpload, Submission};
use axum::body::{Body, Bytes};
use http_body_util::BodyExt;

use crate::api::App;
use crate::error::{Error, Result};
use crate::framing::FirstRequest;

/// A client that sends nothing for this long loses its upload.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(120);

enum Step {
    Data(Bytes),
    Cancel,
    Finish,
    Abort(String),
    /// The body went on past its declared length.
    TooLong(u64),
}

/// Receives `body` into `upload` and finishes it.
///
/// `surplus_check`: the request's [`FirstRequest`] marker and declared
/// length; a body followed by more bytes is refused as too large.
pub async fn receive(
    app: &App,
    mut upload: Box<dyn BodyUpload>,
    body: Body,
    surplus_check: Option<(FirstRequest, u64)>,
) -> Result<Submission> {
    let mut body = body;
    let mut cancel_seen = false;
    loop {
        let cancelled = upload.cancelled();
        let step = tokio::select! {
            biased;
            _ = cancelled, if !cancel_seen => Step::Cancel,
            frame = tokio::time::timeout(IDLE_TIMEOUT, body.frame()) => match frame {
                Err(_) => Step::Abort(format!("no body bytes for {} s", IDLE_TIMEOUT.as_secs())),
                Ok(None) => match &surplus_check {
                    Some((first, declared)) if first.surplus(*declared) => Step::TooLong(*declared),
                    _ => Step::Finish,
                },
                Ok(Some(Err(e))) => Step::Abort(e.to_string()),
                Ok(Some(Ok(frame))) => match frame.into_data() {
                    Ok(data) if !data.is_empty() => Step::Data(data),
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
            Step::Finish => return Ok(upload.finish().await?),
            Step::TooLong(declared) => {
                let msg = format!(
                    "the request body is longer than its Content-Length of {declared} bytes"
                );
                upload.abort("too_large", &msg).await;
                return Err(asadb::reservoir::Error::TooLarge(msg).into());
            }
            Step::Abort(why) => {
                let msg = format!("the request body broke off: {why}");
                upload.abort("upload_aborted", &msg).await;
                return Err(Error::BodyRead(why));
            }
        }
    }
}
