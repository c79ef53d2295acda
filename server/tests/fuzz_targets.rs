//! The stable short form of the `headers` fuzz target (`fuzz/`): every
//! file of `fuzz/corpus/headers/` is replayed through
//! `asadb_server::fuzz::headers`, then a seeded mutational loop (the
//! shared driver, `asadb_sql::fuzz`) runs more. Invariants: no request
//! head makes a header rule of the server panic; a bearer token is a
//! non-empty trimmed part of its value; accepted upload options are
//! non-empty, trimmed and bounded, with a well-formed SHA-256; every
//! refusal is a 4xx or 5xx (see the body's doc comment).
//!
//! `ASADB_FUZZ_ITERATIONS=N` sets the number of mutated inputs; the
//! ignored `long_headers` runs 100 times as many.

use std::path::PathBuf;

use asadb::sql::fuzz;
use asadb_server::fuzz::{head, headers};

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus/headers")
}

const DICT: &[&[u8]] = &[
    b"\r\n",
    b"\n",
    b":",
    b": ",
    b",",
    b" ",
    b"\t",
    b"\x00",
    b"\xff",
    b"\xc3\xa9",
    b"\xc3",
    b"?",
    b"&",
    b"=",
    b"%",
    b"%ZZ",
    b"%00",
    b"id=",
    b"id=7&id=8",
    b"18446744073709551615",
    b"18446744073709551616",
    b"-1",
    b"0",
    b"true",
    b"FALSE",
    b"Bearer ",
    b"bearer",
    b"Basic ",
    b"Authorization: ",
    b"Transfer-Encoding: ",
    b"Content-Encoding: ",
    b"Content-Length: ",
    b"chunked",
    b"gzip",
    b"identity",
    b"X-AsaDB-Job-Label: ",
    b"X-AsaDB-Idempotency-Key: ",
    b"X-AsaDB-Stop-On-Error: ",
    b"X-AsaDB-Content-SHA256: ",
    b"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    b"X-AsaDB-Import-Format: ",
    b"X-AsaDB-Import-Mode: ",
    b"X-AsaDB-Import-Original-Name: ",
    b"X-AsaDB-Import-Target-Table: ",
    b"X-AsaDB-CSV-Delimiter: ",
    b"X-AsaDB-CSV-Quote: ",
    b"X-AsaDB-CSV-Escape: ",
    b"X-AsaDB-CSV-Header: ",
    b"X-AsaDB-CSV-Null: ",
    b"X-AsaDB-CSV-Ragged: ",
    b"X-AsaDB-XLSX-Sheet: ",
    b"X-AsaDB-XLSX-Header: ",
    b"csv",
    b"xlsx",
    b"sql",
    b"replace",
    b"append",
    b"tab",
    b"none",
    b"all",
    b"GET ",
    b"POST ",
    b"/api/reservoir/jobs",
    b"/api/reservoir/events?id=",
];

#[test]
fn headers_corpus_and_mutations() {
    fuzz::replay_corpus(headers, &corpus(), DICT, fuzz::iterations(20_000), 6);
}

#[test]
#[ignore = "long run: cargo test -p asadb-server --test fuzz_targets -- --ignored"]
fn long_headers() {
    fuzz::replay_corpus(headers, &corpus(), DICT, fuzz::iterations(20_000) * 100, 16);
}

/// The corpus reaches the rules: the full upload seed is read into every
/// header it holds (the library's own tests check that the server accepts
/// its options).
#[test]
fn the_full_upload_seed_reaches_every_header() {
    let bytes = std::fs::read(corpus().join("upload-every-header.txt")).unwrap();
    let h = head(&bytes);
    assert_eq!((h.method, h.target), (&b"POST"[..], &b"/api/reservoir/jobs"[..]));
    let named = |prefix: &str| h.headers.keys().filter(|k| k.as_str().starts_with(prefix)).count();
    assert_eq!(named("x-asadb-"), 16, "{:?}", h.headers);
    assert!(h.headers.contains_key("authorization") && h.headers.contains_key("content-length"));
}
