//! Fuzz target body for the request heads the server interprets, shared
//! by the `cargo fuzz` crate (`fuzz/`, target `headers`) and the stable
//! test that replays its corpus (`tests/fuzz_targets.rs`).
//!
//! [`headers`] reads arbitrary bytes as a request head and runs every rule
//! by which the server reads one — the very functions the server calls,
//! not copies: the bearer token (`api::bearer`), the transfer
//! and content coding check (`refused_coding`, what the `codings`
//! middleware decides), the upload's job options (`submit_options`: every
//! `X-AsaDB-*` header, `Content-Length` and the import options of
//! `import_opts`), the query string (`api::query`, the job id
//! and the event stream's `?id=`), and the method's metrics label
//! (`metrics::method_label`). A panic is a finding; so is a broken
//! invariant (see [`headers`]).

use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, Uri, header};
use axum::response::IntoResponse;

use crate::api::{self, MAX_HEADER_TEXT};
use crate::error::Error;

/// The request head `data` stands for: the method, the request-target and
/// the headers that `http` accepts (see [`headers`] for the format).
pub struct Head<'a> {
    /// The first line's bytes before its first space (all of it without
    /// a space).
    pub method: &'a [u8],
    /// The first line's bytes after its first space (`/` without a space).
    pub target: &'a [u8],
    /// Every header line whose name and value `http` accepts, in order
    /// (repeated names are kept, as a client may send them).
    pub headers: HeaderMap,
}

/// Parses `data` as a request head (see [`headers`]). Never fails: what
/// cannot be read is skipped.
pub fn head(data: &[u8]) -> Head<'_> {
    let mut lines = data.split(|&b| b == b'\n').map(|l| l.strip_suffix(b"\r").unwrap_or(l));
    let first = lines.next().unwrap_or_default();
    let (method, target) = match first.iter().position(|&b| b == b' ') {
        Some(i) => (&first[..i], &first[i + 1..]),
        None => (first, &b"/"[..]),
    };
    let mut headers = HeaderMap::new();
    for line in lines {
        let Some(colon) = line.iter().position(|&b| b == b':') else { continue };
        // hyper refuses what `http` refuses; it trims the value's spaces.
        let (Ok(name), Ok(value)) = (
            HeaderName::from_bytes(&line[..colon]),
            HeaderValue::from_bytes(trim_ows(&line[colon + 1..])),
        ) else {
            continue;
        };
        headers.append(name, value);
    }
    Head { method, target, headers }
}

/// `value` without leading and trailing spaces and tabs (RFC 9110's OWS).
fn trim_ows(value: &[u8]) -> &[u8] {
    let start = value.iter().position(|&b| b != b' ' && b != b'\t').unwrap_or(value.len());
    let end = value.iter().rposition(|&b| b != b' ' && b != b'\t').map_or(start, |i| i + 1);
    &value[start..end]
}

/// Asserts that an error is answered with a 4xx or 5xx status.
fn assert_error_status(what: &str, err: Error) {
    let text = err.to_string();
    let status = err.into_response().status();
    assert!(
        status.is_client_error() || status.is_server_error(),
        "{what}: error {text:?} answered {status}"
    );
}

/// Asserts that an accepted text option is non-empty, trimmed and at most
/// `MAX_HEADER_TEXT` bytes.
fn assert_text(what: &str, text: Option<&str>) {
    if let Some(t) = text {
        assert!(!t.is_empty(), "{what} is empty");
        assert_eq!(t, t.trim(), "{what} is not trimmed");
        assert!(t.len() <= MAX_HEADER_TEXT, "{what} is {} bytes", t.len());
    }
}

/// The fuzz body for request heads.
///
/// Input format: the bytes are split into lines at `\n` (a `\r` before it
/// is dropped). The first line is the method and the request-target,
/// split at its first space (without a space, the line is the method and
/// the target is `/`). Every following line is a header `name: value`,
/// split at its first `:`; the value's surrounding spaces and tabs are
/// trimmed (as hyper does). A line without `:`, and a name or value that
/// `http::HeaderName::from_bytes` or `http::HeaderValue::from_bytes`
/// refuses, is skipped — hyper would refuse such a request before the
/// server sees it. A header may be repeated.
///
/// Runs, on the same functions the server uses: the bearer token of every
/// `Authorization` value, the coding check, the upload's options, the
/// query string readers on the target (when `Uri::try_from` accepts it),
/// and the metrics label of the method (when `Method::from_bytes` accepts
/// it). Invariants, besides never panicking:
/// - a bearer token is a non-empty, trimmed subslice of its value;
/// - when the upload's options are accepted, every text option (label,
///   idempotency key, original name, target table, CSV NULL text, XLSX
///   sheet name) is non-empty, trimmed and at most `MAX_HEADER_TEXT`
///   (1024) bytes, the stated SHA-256 is 64 lowercase hex digits, and a request
///   with `Transfer-Encoding` has no declared size;
/// - every refusal is answered with a 4xx or 5xx status;
/// - the method's label is the method's own name or `other`.
pub fn headers(data: &[u8]) {
    let Head { method, target, headers } = head(data);

    for value in headers.get_all(header::AUTHORIZATION) {
        let bytes = value.as_bytes();
        if let Some(token) = api::bearer(bytes) {
            assert!(!token.is_empty(), "empty bearer token from {bytes:?}");
            assert_eq!(token, token.trim_ascii(), "untrimmed bearer token from {bytes:?}");
            let inside = bytes.as_ptr_range();
            let range = token.as_ptr_range();
            assert!(
                inside.start <= range.start && range.end <= inside.end,
                "the bearer token is not part of its value {bytes:?}"
            );
        }
    }

    if let Some(err) = api::refused_coding(&headers) {
        assert_error_status("the coding check", err);
    }

    match api::submit_options(&headers) {
        Ok(o) => {
            assert_text("the label", o.label.as_deref());
            assert_text("the idempotency key", o.idempotency_key.as_deref());
            assert_text("the original name", o.import.original_name.as_deref());
            assert_text("the target table", o.import.target_table.as_deref());
            assert_text("the CSV NULL text", o.import.options.csv.null.as_deref());
            if let Some(asadb::interchange::Sheet::Name(name)) = &o.import.options.xlsx.sheet {
                assert_text("the XLSX sheet name", Some(name));
            }
            if let Some(hex) = &o.content_sha256 {
                assert!(
                    hex.len() == 64 && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')),
                    "content_sha256 {hex:?} is not 64 lowercase hex digits"
                );
            }
            if headers.contains_key(header::TRANSFER_ENCODING) {
                assert_eq!(o.declared_size, None, "a chunked body with a declared size");
            }
        }
        Err(err) => assert_error_status("the upload options", err),
    }

    if let Ok(uri) = Uri::try_from(target) {
        if let Err(err) = api::query(&uri) {
            assert_error_status("the query string", err);
        }
        if let Err(err) = api::job_id(&uri) {
            assert_error_status("the job id", err);
        }
        if let Err(err) = crate::events::follow(&uri) {
            assert_error_status("the event stream's id", err);
        }
    }

    if let Ok(method) = Method::from_bytes(method) {
        let label = crate::metrics::method_label(&method);
        assert!(
            label == method.as_str() || label == crate::metrics::OTHER,
            "method {method} is labelled {label:?}"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads_are_read_as_documented() {
        let h = head(
            b"POST /api/x?id=1\r\nX-AsaDB-Job-Label:  a b \t\r\nno colon\nbad name: v\nx: \x00\n",
        );
        assert_eq!((h.method, h.target), (&b"POST"[..], &b"/api/x?id=1"[..]));
        assert_eq!(h.headers.len(), 1);
        assert_eq!(h.headers["x-asadb-job-label"], "a b");
        let h = head(b"GET");
        assert_eq!((h.method, h.target), (&b"GET"[..], &b"/"[..]));
    }

    /// The full upload seed of the corpus is accepted, so the invariants
    /// on accepted options are exercised on every header.
    #[test]
    fn the_full_upload_seed_is_accepted() {
        let path =
            concat!(env!("CARGO_MANIFEST_DIR"), "/../fuzz/corpus/headers/upload-every-header.txt");
        let bytes = std::fs::read(path).unwrap();
        let h = head(&bytes);
        assert!(api::refused_coding(&h.headers).is_none());
        let o = api::submit_options(&h.headers).unwrap();
        assert_eq!(o.declared_size, Some(42));
        assert_eq!(o.content_sha256.as_deref().map(str::len), Some(64));
        assert_eq!(o.import.options.csv.null.as_deref(), Some("\\N"));
        assert!(o.import.options.xlsx.sheet.is_some() && o.import.target_table.is_some());
        assert_eq!(
            api::bearer(h.headers["authorization"].as_bytes()),
            Some(&b"0123456789abcdef"[..])
        );
        headers(&bytes);
    }

    /// The invariants can fail: a refusal answered 2xx is caught.
    #[test]
    #[should_panic(expected = "answered")]
    fn a_refusal_answered_with_success_is_a_finding() {
        assert_error_status(
            "a remote error",
            Error::Remote { status: 200, code: "x".into(), message: "y".into() },
        );
    }

    #[test]
    #[should_panic(expected = "not trimmed")]
    fn an_untrimmed_text_is_a_finding() {
        assert_text("a label", Some(" a"));
    }
}
