//! The connection layer: accepting connections, bounding what each may
//! cost, and the close check of uploads. HTTP itself — framing, parsing,
//! keep-alive — is hyper's; this module drives hyper's HTTP/1.1 connections
//! (`hyper::server::conn::http1`) and watches them from outside.
//!
//! Rules (documented in docs/api.md, "Connections"):
//! - **Connection limit.** At most `max_connections` connections are
//!   served at once. One more is answered `503 too_many_connections`
//!   (`Retry-After: 2`, `Connection: close`) by a tiny hyper connection of
//!   its own, and closed; past a further margin of refusals in progress,
//!   new connections are closed at once. The limit defaults to a third of
//!   the open-file limit (at most 256), so accepting and refusing never
//!   runs out of descriptors.
//! - **Header timeout.** A request head must be complete within
//!   `header_timeout` of its first byte (slow-header clients), else the
//!   connection is closed.
//! - **Idle timeout.** A connection with no request in progress is closed
//!   after `idle_timeout` without a byte.
//! - **Send timeout.** A response the client does not read (the socket
//!   refuses bytes) for `idle_timeout` closes the connection.
//! - **Automatic errors.** hyper answers requests it cannot parse itself
//!   (`400`, `414`, `431`) with an empty body; those answers are rewritten,
//!   as they leave, into the API's JSON error shape. Only answers written
//!   while no request is with the router can be hyper's, so no handler's
//!   answer is ever touched.
//! - **Upload close check.** An upload handler may [`ConnHandle::hold`] its
//!   job: it answers with `Connection: close`, and once hyper has finished
//!   the connection, the bytes hyper read past the request (its read
//!   buffer, [`hyper::server::conn::http1::Parts`]) and whatever arrives
//!   before the client closes (up to [`CLOSE_GRACE`]) decide: nothing → the
//!   job is released (queued); any byte → it is refused (failed), because
//!   the body went on past its `Content-Length`.
//!
//! - **Lingering close.** A connection hyper has finished is shut for
//!   writing and drained (up to [`LINGER`]) before it is closed, so an
//!   answer sent before its request body was read reaches the client.
//!
//! Bookkeeping per connection ([`ConnState`]): requests in flight (from
//! the router's call until the response body is done), when the current
//! head's first byte arrived, the last byte in or out, since when a write
//! has been refused, bytes read.

use std::future::{Future, poll_fn};
use std::io;
use std::pin::{Pin, pin};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use asadb::reservoir::JobId;
use axum::Router;
use axum::body::Body;
use axum::http::{Request, Response};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use parking_lot::Mutex;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;
use tower_service::Service;

use crate::config::Limits;
use crate::error::Error;

/// How long the close check of an upload waits for the client to close
/// (or to send more) after the response.
pub const CLOSE_GRACE: Duration = Duration::from_secs(1);

/// What the close check found, passed to the [`CloseCheck`] callback.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterBody {
    /// Nothing followed the body before the connection ended.
    Nothing,
    /// This many bytes (at least) followed it.
    Surplus(usize),
}

/// Releases or refuses a held job once its connection has ended (called on
/// a blocking thread).
pub type CloseCheck = Arc<dyn Fn(JobId, AfterBody) + Send + Sync>;

/// Accepts connections on `listener` and serves `router` on them until
/// `stop` fires; then stops accepting, lets every connection finish its
/// request in progress (hyper's graceful shutdown) and returns once all
/// have ended (the caller bounds the wait).
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    on_close: CloseCheck,
    stop: CancellationToken,
) -> io::Result<()> {
    let open = Arc::new(AtomicUsize::new(0));
    let refusing = Arc::new(AtomicUsize::new(0));
    let tracker = tokio_util::task::TaskTracker::new();
    let refusal_margin = limits.max_connections / 4 + 8;
    loop {
        let accepted = tokio::select! {
            () = stop.cancelled() => break,
            a = listener.accept() => a,
        };
        let (stream, _addr) = match accepted {
            Ok(a) => a,
            Err(e) => {
                // Out of descriptors and the like: wait, then go on.
                tracing::warn!("accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        if open.load(Ordering::SeqCst) >= limits.max_connections {
            if refusing.fetch_add(1, Ordering::SeqCst) >= refusal_margin {
                refusing.fetch_sub(1, Ordering::SeqCst);
                drop(stream);
                continue;
            }
            let refusing = refusing.clone();
            tracker.spawn(async move {
                refuse(stream, limits.max_connections).await;
                refusing.fetch_sub(1, Ordering::SeqCst);
            });
            continue;
        }
        open.fetch_add(1, Ordering::SeqCst);
        let open = open.clone();
        let (router, on_close, stop) = (router.clone(), on_close.clone(), stop.clone());
        tracker.spawn(async move {
            serve_connection(stream, router, limits, on_close, stop).await;
            open.fetch_sub(1, Ordering::SeqCst);
        });
    }
    tracker.close();
    tracker.wait().await;
    Ok(())
}

/// Answers one connection past the limit with a 503 and closes it.
async fn refuse(stream: TcpStream, max: usize) {
    let svc = hyper::service::service_fn(move |_req: Request<Incoming>| async move {
        let mut resp = axum::response::IntoResponse::into_response(Error::TooManyConnections(max));
        resp.headers_mut()
            .insert(axum::http::header::CONNECTION, axum::http::HeaderValue::from_static("close"));
        Ok::<_, std::convert::Infallible>(resp)
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder.timer(TokioTimer::new()).header_read_timeout(Duration::from_secs(2)).keep_alive(false);
    let conn = builder.serve_connection(TokioIo::new(stream), svc);
    let _ = tokio::time::timeout(Duration::from_secs(5), conn).await;
}

/// Serves one connection to its end, then runs the close check of a held
/// upload.
async fn serve_connection(
    stream: TcpStream,
    router: Router,
    limits: Limits,
    on_close: CloseCheck,
    stop: CancellationToken,
) {
    let state = Arc::new(ConnState::new());
    let io = Watched { stream, state: state.clone(), rewrite: Rewrite::Pass };
    let svc_state = state.clone();
    let svc = hyper::service::service_fn(move |mut req: Request<Incoming>| {
        let guard = svc_state.begin_request();
        req.extensions_mut().insert(ConnHandle(svc_state.clone()));
        let mut router = router.clone();
        let fut: Pin<
            Box<dyn Future<Output = Result<Response<Body>, std::convert::Infallible>> + Send>,
        > = Box::pin(async move {
            let resp = router.call(req.map(Body::new)).await?;
            // The request stays in flight until its body is sent.
            Ok(resp.map(|b| Body::new(Guarded { inner: b, _guard: guard })))
        });
        fut
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    // Head and idle timeouts are this module's (hyper's one timer would
    // close idle keep-alive connections after the header timeout).
    builder.timer(TokioTimer::new()).header_read_timeout(None).keep_alive(true);
    let mut conn = builder.serve_connection(TokioIo::new(io), svc);
    let mut stopping = pin!(stop.cancelled());
    let mut watchdog = pin!(watchdog(state.clone(), limits));
    let mut graceful = false;
    let ended = poll_fn(|cx| {
        if !graceful && stopping.as_mut().poll(cx).is_ready() {
            Pin::new(&mut conn).graceful_shutdown();
            graceful = true;
        }
        if let Poll::Ready(why) = watchdog.as_mut().poll(cx) {
            return Poll::Ready(Err(why));
        }
        conn.poll_without_shutdown(cx).map(|r| r.map_err(|_| "error"))
    })
    .await;
    let held = state.held.lock().take();
    match ended {
        Ok(()) => {
            let parts = conn.into_parts();
            let mut stream = parts.io.into_inner().stream;
            if let Some(id) = held {
                let after = if parts.read_buf.is_empty() {
                    wait_for_close(&mut stream).await
                } else {
                    AfterBody::Surplus(parts.read_buf.len())
                };
                tokio::task::spawn_blocking(move || on_close(id, after));
            } else if parts.read_buf.is_empty() {
                linger(&mut stream).await;
            }
            drop(stream);
        }
        Err(why) => {
            if why != "error" {
                tracing::debug!("closing a connection: {why}");
            }
            // The body was complete when the job was held; nothing more was
            // seen (hyper failed writing, or a timeout).
            if let Some(id) = held {
                tokio::task::spawn_blocking(move || on_close(id, AfterBody::Nothing));
            }
        }
    }
}

/// Reads what the client sends after its response until it closes, up to
/// [`CLOSE_GRACE`]: any byte is surplus.
async fn wait_for_close(stream: &mut TcpStream) -> AfterBody {
    let mut buf = [0u8; 4096];
    match tokio::time::timeout(CLOSE_GRACE, stream.read(&mut buf)).await {
        Ok(Ok(n)) if n > 0 => AfterBody::Surplus(n),
        // EOF, a reset (the client is gone) or silence: nothing followed.
        _ => AfterBody::Nothing,
    }
}

/// How long (at most) a connection hyper has finished is drained before it
/// is closed, and how many bytes (at most) are read and dropped meanwhile.
pub const LINGER: Duration = Duration::from_secs(2);
const LINGER_BYTES: u64 = 64 << 20;

/// A lingering close (nginx's `lingering_close`): when an answer was sent
/// before its request's body was read (an upload refused with 413, 429 or
/// 507 from its headers), closing at once would make the kernel reset the
/// connection while the client is still sending, and the client would see
/// the reset, not the answer. So the write side is shut first and what the
/// client still sends is read and dropped until it closes, for at most
/// [`LINGER`] and `LINGER_BYTES`.
async fn linger(stream: &mut TcpStream) {
    use tokio::io::AsyncWriteExt;
    if stream.shutdown().await.is_err() {
        return;
    }
    let deadline = tokio::time::Instant::now() + LINGER;
    let mut buf = vec![0u8; 64 << 10];
    let mut drained = 0u64;
    while drained < LINGER_BYTES {
        match tokio::time::timeout_at(deadline, stream.read(&mut buf)).await {
            Ok(Ok(n)) if n > 0 => drained += n as u64,
            _ => return,
        }
    }
}

/// Resolves when the connection has run past one of its deadlines.
async fn watchdog(state: Arc<ConnState>, limits: Limits) -> &'static str {
    loop {
        let now = Instant::now();
        match state.deadline(limits) {
            Some((at, why)) if at <= now => return why,
            Some((at, _)) => {
                tokio::time::sleep_until(at.min(now + Duration::from_secs(1)).into()).await
            }
            None => tokio::time::sleep(Duration::from_secs(1)).await,
        }
    }
}

/// What the connection layer knows about one connection.
#[derive(Debug)]
pub struct ConnState {
    started: Instant,
    /// Requests given to the router whose response is not done.
    in_flight: AtomicUsize,
    /// Milliseconds since `started` of the last byte read or written.
    last_active_ms: AtomicU64,
    /// When the first byte of a head arrived while no request was in
    /// flight (the head in progress).
    head_started: Mutex<Option<Instant>>,
    /// Since when the socket refuses the bytes being written.
    write_blocked: Mutex<Option<Instant>>,
    bytes_read: AtomicU64,
    /// The job of an upload waiting for the close check.
    held: Mutex<Option<JobId>>,
}

impl ConnState {
    fn new() -> ConnState {
        ConnState {
            started: Instant::now(),
            in_flight: AtomicUsize::new(0),
            last_active_ms: AtomicU64::new(0),
            head_started: Mutex::new(None),
            write_blocked: Mutex::new(None),
            bytes_read: AtomicU64::new(0),
            held: Mutex::new(None),
        }
    }

    fn touch(&self) {
        let ms = self.started.elapsed().as_millis() as u64;
        self.last_active_ms.store(ms, Ordering::Relaxed);
    }

    fn begin_request(self: &Arc<Self>) -> RequestGuard {
        self.in_flight.fetch_add(1, Ordering::SeqCst);
        *self.head_started.lock() = None;
        RequestGuard(self.clone())
    }

    /// The next deadline and what it is.
    fn deadline(&self, limits: Limits) -> Option<(Instant, &'static str)> {
        if let Some(t) = *self.write_blocked.lock() {
            return Some((t + limits.idle_timeout, "the client stopped reading its response"));
        }
        if self.in_flight.load(Ordering::SeqCst) > 0 {
            return None;
        }
        if let Some(t) = *self.head_started.lock() {
            return Some((t + limits.header_timeout, "the request head took too long"));
        }
        let last =
            self.started + Duration::from_millis(self.last_active_ms.load(Ordering::Relaxed));
        Some((last + limits.idle_timeout, "idle"))
    }
}

/// Ends a request's time in flight when dropped (with its response body).
struct RequestGuard(Arc<ConnState>);

impl Drop for RequestGuard {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::SeqCst);
        self.0.touch();
    }
}

/// A response body that keeps its request in flight until it is done.
struct Guarded {
    inner: Body,
    _guard: RequestGuard,
}

impl http_body::Body for Guarded {
    type Data = bytes::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

/// What handlers can do with their connection (a request extension).
#[derive(Clone, Debug)]
pub struct ConnHandle(Arc<ConnState>);

impl ConnHandle {
    /// Asks for the close check of `job` once this connection ends (the
    /// handler answers with `Connection: close`).
    pub fn hold(&self, job: JobId) {
        *self.0.held.lock() = Some(job);
    }

    /// Bytes read from the socket so far.
    pub fn bytes_read(&self) -> u64 {
        self.0.bytes_read.load(Ordering::SeqCst)
    }
}

/// Whether writes pass or hyper's automatic error answer is replaced.
enum Rewrite {
    Pass,
    /// Our answer, partly written: the bytes still to send.
    Replacing(bytes::Bytes),
}

/// The socket as hyper sees it, with the bookkeeping of [`ConnState`].
struct Watched {
    stream: TcpStream,
    state: Arc<ConnState>,
    rewrite: Rewrite,
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let r = Pin::new(&mut self.stream).poll_read(cx, buf);
        let n = buf.filled().len() - before;
        if n > 0 {
            let st = &self.state;
            st.bytes_read.fetch_add(n as u64, Ordering::SeqCst);
            st.touch();
            if st.in_flight.load(Ordering::SeqCst) == 0 {
                st.head_started.lock().get_or_insert_with(Instant::now);
            }
        }
        r
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if matches!(this.rewrite, Rewrite::Pass)
            && this.state.in_flight.load(Ordering::SeqCst) == 0
            && let Some(status) = automatic_status(buf)
        {
            // No request is with the router: this is hyper answering a
            // request it could not parse. Send the API's error instead.
            this.rewrite = Rewrite::Replacing(json_answer(status));
        }
        if let Rewrite::Replacing(rest) = &mut this.rewrite {
            while !rest.is_empty() {
                match Pin::new(&mut this.stream).poll_write(cx, rest) {
                    Poll::Ready(Ok(n)) => bytes::Buf::advance(rest, n),
                    Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                    Poll::Pending => return Poll::Pending,
                }
            }
            // hyper's own bytes are swallowed: its answer is replaced.
            return Poll::Ready(Ok(buf.len()));
        }
        let r = Pin::new(&mut this.stream).poll_write(cx, buf);
        match &r {
            Poll::Pending => {
                this.state.write_blocked.lock().get_or_insert_with(Instant::now);
            }
            Poll::Ready(_) => {
                this.state.write_blocked.lock().take();
                this.state.touch();
            }
        }
        r
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// The status of an answer hyper writes by itself, if `buf` is one. hyper
/// writes it (`on_parse_error`) as a bare head: a 4xx status line,
/// `content-length: 0`, `date`, nothing else — no `content-type` and no
/// body, which every answer of the router has.
fn automatic_status(buf: &[u8]) -> Option<u16> {
    let rest = buf.strip_prefix(b"HTTP/1.1 ").or_else(|| buf.strip_prefix(b"HTTP/1.0 "))?;
    let code = std::str::from_utf8(rest.get(..3)?).ok()?.parse::<u16>().ok()?;
    if !(400..500).contains(&code) || !buf.ends_with(b"\r\n\r\n") || buf.len() > 512 {
        return None;
    }
    let head = String::from_utf8_lossy(buf).to_ascii_lowercase();
    let bare = head.contains("\r\ncontent-length: 0\r\n") && !head.contains("\r\ncontent-type:");
    bare.then_some(code)
}

/// The API's JSON error answer for a status hyper chose.
fn json_answer(status: u16) -> bytes::Bytes {
    let (reason, code, message) = match status {
        431 => (
            "Request Header Fields Too Large",
            "too_large",
            "the request head is too large (too many or too long header fields)",
        ),
        414 => ("URI Too Long", "too_large", "the request target is too long"),
        400 => ("Bad Request", "invalid_input", "the request is not valid HTTP/1.1"),
        _ => ("Bad Request", "invalid_input", "the request could not be read"),
    };
    let body = serde_json::json!({"error": {"code": code, "message": message, "retryable": false}})
        .to_string();
    bytes::Bytes::from(format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
         connection: close\r\n\r\n{body}",
        body.len()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hyper_answers_are_recognised_and_replaced_with_json() {
        let bare = |s: &str| {
            format!(
                "HTTP/1.1 {s}\r\ncontent-length: 0\r\ndate: Sat, 01 Jan 2000 00:00:00 GMT\r\n\r\n"
            )
        };
        assert_eq!(
            automatic_status(bare("431 Request Header Fields Too Large").as_bytes()),
            Some(431)
        );
        assert_eq!(automatic_status(bare("400 Bad Request").as_bytes()), Some(400));
        assert_eq!(automatic_status(bare("200 OK").as_bytes()), None);
        assert_eq!(automatic_status(b"{\"a\":1}"), None);
        // The router's own answers carry a type and a body.
        let ours = "HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\n\
                    content-length: 0\r\n\r\n";
        assert_eq!(automatic_status(ours.as_bytes()), None);
        let with_body = format!("{}{{}}", bare("400 Bad Request"));
        assert_eq!(automatic_status(with_body.as_bytes()), None);
        let answer = json_answer(431);
        let text = std::str::from_utf8(&answer).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 431 "), "{head}");
        assert!(head.contains(&format!("content-length: {}", body.len())), "{head}");
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(v["error"]["code"], "too_large");
        assert_eq!(v["error"]["retryable"], false);
    }
}
