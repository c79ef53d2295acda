//! The server's error type and its HTTP mapping.
//!
//! Every error leaves the server as one JSON shape,
//! `{"error": {"code", "message", "retryable"}}`, with the status that
//! [`Error::status`] gives. Reservoir errors keep their own codes
//! (`asadb::reservoir::Error::code`); the server adds its own for
//! authentication, routing, request parsing and file access. A 429 also
//! carries `Retry-After`.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use asadb::reservoir;

/// Seconds a client is told to wait after a 429 or 503.
pub const RETRY_AFTER_SECS: u64 = 2;

/// Errors of the server and of its CLI client.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// From the Reservoir library; keeps the library's code and status.
    #[error(transparent)]
    Reservoir(#[from] reservoir::Error),
    /// From the database (opening it, or a `/api/query` statement); the
    /// status follows its kind (see `query::engine_status`).
    #[error(transparent)]
    Engine(#[from] asadb::Error),
    /// A request body or query over its size limit. (413)
    #[error("{0}")]
    RequestTooLarge(String),
    /// No or a wrong `Authorization: Bearer` token. (401)
    #[error("missing or invalid token: send `Authorization: Bearer <token>`")]
    Unauthorized,
    /// A malformed request: header, query parameter, JSON body. (400)
    #[error("{0}")]
    BadRequest(String),
    /// A file outside the allowed directories. (403)
    #[error("{0}")]
    Forbidden(String),
    /// No such route or file. (404)
    #[error("{0}")]
    NotFound(String),
    /// The route exists, the method does not. (405)
    #[error("method not allowed")]
    MethodNotAllowed,
    /// The request body broke off (client disconnect, bad chunk framing).
    #[error("reading the request body failed: {0}")]
    BodyRead(String),
    /// The request body arrived slower than the minimum rate. (408)
    #[error("{0}")]
    TooSlow(String),
    /// A transfer coding the server does not decode (anything but
    /// `chunked`). (501)
    #[error("{0}")]
    NotImplemented(String),
    /// A content coding the server does not decode. (415)
    #[error("{0}")]
    UnsupportedMedia(String),
    /// The connection limit is reached. (503, retryable)
    #[error("the server is serving its limit of {0} connections; try again shortly")]
    TooManyConnections(usize),
    /// A bug or a lost worker thread. (500)
    #[error("internal error: {0}")]
    Internal(String),
    /// Bad configuration or command line (CLI only).
    #[error("{0}")]
    Config(String),
    /// File IO outside the Reservoir (token file, config file, CLI). (500)
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
    /// The HTTP client could not reach the server (CLI only).
    #[error("cannot reach the server: {0}")]
    Client(String),
    /// The server answered with an error (CLI only).
    #[error("server answered {status}: {message} ({code})")]
    Remote { status: u16, code: String, message: String },
}

impl Error {
    /// The HTTP status this error is answered with.
    pub fn status(&self) -> StatusCode {
        match self {
            Error::Reservoir(e) => reservoir_status(e),
            Error::Unauthorized => StatusCode::UNAUTHORIZED,
            Error::BadRequest(_) => StatusCode::BAD_REQUEST,
            Error::Forbidden(_) => StatusCode::FORBIDDEN,
            Error::NotFound(_) => StatusCode::NOT_FOUND,
            Error::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Error::BodyRead(_) => StatusCode::BAD_REQUEST,
            Error::TooSlow(_) => StatusCode::REQUEST_TIMEOUT,
            Error::NotImplemented(_) => StatusCode::NOT_IMPLEMENTED,
            Error::UnsupportedMedia(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Error::TooManyConnections(_) => StatusCode::SERVICE_UNAVAILABLE,
            Error::Engine(e) => crate::query::engine_status(e).0,
            Error::RequestTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Error::Internal(_) | Error::Config(_) | Error::Io(_) | Error::Client(_) => {
                StatusCode::INTERNAL_SERVER_ERROR
            }
            Error::Remote { status, .. } => {
                StatusCode::from_u16(*status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
            }
        }
    }

    /// A stable machine code for the JSON body.
    pub fn code(&self) -> &str {
        match self {
            Error::Reservoir(e) => e.code(),
            Error::Engine(e) => crate::query::engine_status(e).1,
            Error::RequestTooLarge(_) => "too_large",
            Error::Unauthorized => "unauthorized",
            Error::BadRequest(_) => "invalid_input",
            Error::Forbidden(_) => "forbidden",
            Error::NotFound(_) => "not_found",
            Error::MethodNotAllowed => "method_not_allowed",
            Error::BodyRead(_) => "body_read_failed",
            Error::TooSlow(_) => "too_slow",
            Error::NotImplemented(_) => "not_implemented",
            Error::UnsupportedMedia(_) => "unsupported_media_type",
            Error::TooManyConnections(_) => "too_many_connections",
            Error::Internal(_) => "internal_error",
            Error::Config(_) => "config",
            Error::Io(_) => "io",
            Error::Client(_) => "unreachable",
            Error::Remote { code, .. } => code,
        }
    }

    /// True when the same request may succeed later unchanged.
    pub fn is_retryable(&self) -> bool {
        match self {
            Error::Reservoir(e) => e.is_retryable(),
            Error::Engine(e) => e.is_retryable(),
            Error::Client(_) | Error::TooManyConnections(_) => true,
            _ => false,
        }
    }
}

/// The status of each Reservoir error (see the library's variant docs).
fn reservoir_status(e: &reservoir::Error) -> StatusCode {
    use reservoir::Error as R;
    match e {
        R::InvalidInput(_) | R::Unsupported(_) => StatusCode::BAD_REQUEST,
        R::NotFound(_) => StatusCode::NOT_FOUND,
        R::Conflict(_) | R::InvalidState(_) | R::Cancelled(_) => StatusCode::CONFLICT,
        R::FingerprintMismatch(_) => StatusCode::BAD_REQUEST,
        R::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
        R::CapacityExhausted(_) => StatusCode::TOO_MANY_REQUESTS,
        R::ShuttingDown | R::Backend(_) => StatusCode::SERVICE_UNAVAILABLE,
        _ if e.is_disk_full() => StatusCode::INSUFFICIENT_STORAGE,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// The JSON error body.
#[derive(Serialize)]
struct Body<'a> {
    error: Detail<'a>,
}

#[derive(Serialize)]
struct Detail<'a> {
    code: &'a str,
    message: String,
    retryable: bool,
}

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        let status = self.status();
        if status.is_server_error() {
            tracing::error!(code = self.code(), "{self}");
        }
        let body = Body {
            error: Detail {
                code: self.code(),
                message: self.to_string(),
                retryable: self.is_retryable(),
            },
        };
        let mut resp = (status, axum::Json(body)).into_response();
        if matches!(status, StatusCode::TOO_MANY_REQUESTS | StatusCode::SERVICE_UNAVAILABLE) {
            resp.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER_SECS));
        }
        resp
    }
}

/// Result alias of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reservoir_errors_keep_their_status_and_code() {
        let cases = [
            (reservoir::Error::InvalidInput("x".into()), 400, "invalid_input"),
            (reservoir::Error::Unsupported("csv".into()), 400, "unsupported"),
            (reservoir::Error::NotFound(reservoir::JobId(3)), 404, "not_found"),
            (reservoir::Error::Conflict("k".into()), 409, "conflict"),
            (reservoir::Error::InvalidState("s".into()), 409, "invalid_state"),
            (reservoir::Error::Cancelled(reservoir::JobId(3)), 409, "cancelled"),
            (reservoir::Error::TooLarge("big".into()), 413, "too_large"),
            (reservoir::Error::CapacityExhausted("full".into()), 429, "capacity_exhausted"),
            (reservoir::Error::ShuttingDown, 503, "shutting_down"),
            (reservoir::Error::Corrupt("bad".into()), 500, "corrupt"),
            (
                reservoir::Error::Io(std::io::Error::from(std::io::ErrorKind::StorageFull)),
                507,
                "disk_full",
            ),
            (
                reservoir::Error::Io(std::io::Error::from(std::io::ErrorKind::PermissionDenied)),
                500,
                "io",
            ),
        ];
        for (err, status, code) in cases {
            let err = Error::from(err);
            assert_eq!(err.status().as_u16(), status, "{err}");
            assert_eq!(err.code(), code);
        }
    }

    #[tokio::test]
    async fn responses_are_json_and_429_says_when_to_retry() {
        let resp = Error::from(reservoir::Error::CapacityExhausted("full".into())).into_response();
        assert_eq!(resp.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(resp.headers()[header::RETRY_AFTER], RETRY_AFTER_SECS.to_string().as_str());
        let bytes = axum::body::to_bytes(resp.into_body(), 1 << 16).await.unwrap();
        let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(v["error"]["code"], "capacity_exhausted");
        assert_eq!(v["error"]["retryable"], true);
        assert_eq!(v["error"]["message"], "full");

        let resp = Error::Unauthorized.into_response();
        assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
        assert!(resp.headers().get(header::RETRY_AFTER).is_none());
    }
}
