//! Catching a request body that is longer than its `Content-Length`.
//!
//! HTTP/1.1 framing ends a body at its declared length: bytes a client
//! sends past it are, to the protocol, the start of the next request. For
//! an upload that is a lie (the client means them as body), and DESIGN §5
//! wants it answered like any body past the ceiling: 413, nothing queued,
//! no spool file.
//!
//! [`Listener`] hands hyper [`Metered`] connections, which count the bytes
//! read from the socket and note where the first request's head ends (the
//! first `\r\n\r\n`). When an upload that is the first request on its
//! connection has read its declared body, [`FirstRequest::surplus`] tells
//! whether more bytes already arrived: either hyper has read past
//! `head + Content-Length`, or the socket holds unread bytes (a
//! non-blocking peek through a duplicate of the socket's descriptor).
//! A client may not pipeline another request behind a POST before its
//! answer (RFC 9112 §9.3.2), so such bytes are the body's surplus.
//!
//! Limits, documented in docs/api.md: only the first request of a
//! connection is checked (later ones on a kept-alive connection have no
//! known head offset); bytes still in flight when the body ends are not
//! seen, so a lie by a few bytes sent in a separate, later packet is
//! framed as usual (the job holds exactly the declared bytes, the rest is
//! refused as a malformed next request).

use std::io;
use std::net::SocketAddr;
use std::os::fd::AsFd;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::connect_info::Connected;
use axum::extract::{ConnectInfo, Request};
use axum::middleware::Next;
use axum::response::Response;
use axum::serve::IncomingStream;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

/// A TCP listener whose connections are [`Metered`].
pub struct Listener(pub TcpListener);

impl axum::serve::Listener for Listener {
    type Io = Metered;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Metered, SocketAddr) {
        loop {
            match self.0.accept().await {
                Ok((stream, addr)) => match Metered::new(stream) {
                    Ok(m) => return (m, addr),
                    Err(e) => tracing::warn!("dropping a connection from {addr}: {e}"),
                },
                Err(e) => {
                    // Out of descriptors and the like: wait, then go on.
                    tracing::warn!("accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.0.local_addr()
    }
}

/// What the handlers can learn about a connection.
#[derive(Debug)]
pub struct Meter {
    /// Bytes read from the socket so far.
    read: AtomicU64,
    /// Offset just past the first `\r\n\r\n`; `u64::MAX` until seen.
    head_end: AtomicU64,
    /// Requests that started on this connection.
    requests: AtomicU32,
    /// A duplicate of the socket's descriptor, for peeking.
    peer: std::net::TcpStream,
}

/// A connection that meters what it reads.
pub struct Metered {
    stream: TcpStream,
    meter: Arc<Meter>,
    /// Bytes of `\r\n\r\n` matched so far (until the first head ends).
    matched: u8,
}

impl Metered {
    fn new(stream: TcpStream) -> io::Result<Metered> {
        let peer = std::net::TcpStream::from(stream.as_fd().try_clone_to_owned()?);
        let meter = Meter {
            read: AtomicU64::new(0),
            head_end: AtomicU64::new(u64::MAX),
            requests: AtomicU32::new(0),
            peer,
        };
        Ok(Metered { stream, meter: Arc::new(meter), matched: 0 })
    }

    fn saw(&mut self, bytes: &[u8]) {
        let start = self.meter.read.load(Ordering::Relaxed);
        if self.meter.head_end.load(Ordering::Relaxed) == u64::MAX {
            for (i, &b) in bytes.iter().enumerate() {
                let want = b"\r\n\r\n"[self.matched as usize];
                self.matched = if b == want {
                    self.matched + 1
                } else if b == b'\r' {
                    1
                } else {
                    0
                };
                if self.matched == 4 {
                    self.meter.head_end.store(start + i as u64 + 1, Ordering::Relaxed);
                    break;
                }
            }
        }
        self.meter.read.store(start + bytes.len() as u64, Ordering::Relaxed);
    }
}

impl AsyncRead for Metered {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let r = Pin::new(&mut self.stream).poll_read(cx, buf);
        if let Poll::Ready(Ok(())) = r {
            let this = &mut *self;
            this.saw(&buf.filled()[before..]);
        }
        r
    }
}

impl AsyncWrite for Metered {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }
    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}

/// The connect info handlers get: the connection's meter.
#[derive(Clone, Debug)]
pub struct Conn(pub Arc<Meter>);

impl Connected<IncomingStream<'_, Listener>> for Conn {
    fn connect_info(stream: IncomingStream<'_, Listener>) -> Conn {
        Conn(stream.io().meter.clone())
    }
}

/// Marks a request that is the first on its connection.
#[derive(Clone, Debug)]
pub struct FirstRequest(Arc<Meter>);

impl FirstRequest {
    /// True when bytes past `head + declared` have arrived (read by hyper
    /// or waiting in the socket).
    pub fn surplus(&self, declared: u64) -> bool {
        let m = &self.0;
        let head_end = m.head_end.load(Ordering::Relaxed);
        if head_end == u64::MAX {
            return false;
        }
        if m.read.load(Ordering::Relaxed) > head_end.saturating_add(declared) {
            return true;
        }
        // The descriptor is non-blocking (tokio set it): no data is
        // `WouldBlock`, a closed peer is `Ok(0)`.
        let mut byte = [0u8; 1];
        matches!(m.peer.peek(&mut byte), Ok(n) if n > 0)
    }
}

/// Middleware: counts the connection's requests and marks the first.
pub async fn mark_first(mut req: Request, next: Next) -> Response {
    let meter = req.extensions().get::<ConnectInfo<Conn>>().map(|c| c.0.0.clone());
    if let Some(meter) = meter
        && meter.requests.fetch_add(1, Ordering::Relaxed) == 0
    {
        req.extensions_mut().insert(FirstRequest(meter));
    }
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn pair() -> (Metered, TcpStream) {
        let l = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let client = TcpStream::connect(l.local_addr().unwrap()).await.unwrap();
        let (server, _) = l.accept().await.unwrap();
        (Metered::new(server).unwrap(), client)
    }

    #[tokio::test]
    async fn finds_the_head_end_across_reads_and_counts_bytes() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let (mut m, mut client) = pair().await;
        // The terminator split over two writes, a false start before it.
        client.write_all(b"POST / HTTP/1.1\r\nA: b\r\r\n\r").await.unwrap();
        let mut buf = [0u8; 64];
        let n = m.read(&mut buf).await.unwrap();
        assert_eq!(n, 25);
        assert_eq!(m.meter.head_end.load(Ordering::Relaxed), u64::MAX);
        client.write_all(b"\nbody").await.unwrap();
        let mut got = 0;
        while got < 5 {
            got += m.read(&mut buf).await.unwrap();
        }
        assert_eq!(m.meter.head_end.load(Ordering::Relaxed), 26);
        assert_eq!(m.meter.read.load(Ordering::Relaxed), 30);
        let first = FirstRequest(m.meter.clone());
        assert!(!first.surplus(4), "exactly head + 4 bytes read, nothing waiting");
        assert!(first.surplus(3), "one byte past a declared 3");
        client.write_all(b"x").await.unwrap();
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(first.surplus(4), "a byte waits in the socket");
    }
}
