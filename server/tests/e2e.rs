//! End-to-end tests of the real `asadb` binary.
//!
//! Each test starts `asadb serve` on `127.0.0.1:0` with a temporary data
//! directory, reads the bound address from the `listening on http://…`
//! line of its stdout, talks HTTP to it (ureq, or a raw `TcpStream` where
//! the test must control the bytes on the wire), and kills it at the end
//! (the `Server` guard's Drop). Invariants pinned here:
//! - the token guards every endpoint, unknown paths and `/metrics`;
//! - a body past the spool ceiling is cut off with 413 and leaves no spool
//!   file, however its size was (mis)declared;
//! - cancellation works in every state a job can be in without a worker;
//! - SIGTERM exits 0, and a restart keeps queued jobs.
//!
//! Most tests run the server with `--no-worker`, so submitted jobs stay
//! `queued`; the `worker_*` tests run jobs through the engine.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

#[path = "common/server.rs"]
mod server;

use server::{BIN, Server};

impl Server {
    /// A server whose jobs stay queued (`--no-worker`), so tests see every
    /// state they create.
    fn start(data: &Path, extra: &[&str]) -> Server {
        Server::spawn(data, &[&["--no-worker"], extra].concat())
    }

    /// A server that runs its jobs.
    fn start_with_worker(data: &Path, extra: &[&str]) -> Server {
        Server::spawn(data, extra)
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    fn spool_files(&self) -> Vec<String> {
        spool_files(&self.data)
    }
}

fn spool_files(data: &Path) -> Vec<String> {
    std::fs::read_dir(data.join(".asa.reservoir/spool"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

/// A response: status, Retry-After, content type, body.
#[derive(Debug)]
struct Resp {
    status: u16,
    retry_after: Option<String>,
    content_type: Option<String>,
    body: String,
}

impl Resp {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", self.body))
    }

    fn error_code(&self) -> String {
        let v = self.json();
        let err = &v["error"];
        assert!(err["message"].is_string(), "{v}");
        assert!(err["retryable"].is_boolean(), "{v}");
        err["code"].as_str().unwrap().to_string()
    }
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder().http_status_as_error(false).build().into()
}

/// One request with an optional token, extra headers and body.
fn call(
    server: &Server,
    method: &str,
    path: &str,
    token: Option<&str>,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Resp {
    let mut b = ureq::http::Request::builder().method(method).uri(server.url(path));
    if let Some(t) = token {
        b = b.header("Authorization", format!("Bearer {t}"));
    }
    for (k, v) in headers {
        b = b.header(*k, *v);
    }
    let req = b.body(body.to_vec()).unwrap();
    let mut resp = agent().run(req).unwrap_or_else(|e| panic!("{method} {path}: {e}"));
    let header = |n: &str| resp.headers().get(n).map(|v| v.to_str().unwrap().to_string());
    let (retry_after, content_type) = (header("retry-after"), header("content-type"));
    Resp {
        status: resp.status().as_u16(),
        retry_after,
        content_type,
        body: resp.body_mut().read_to_string().unwrap(),
    }
}

fn get(s: &Server, path: &str) -> Resp {
    call(s, "GET", path, Some(&s.token.clone()), &[], b"")
}

fn post(s: &Server, path: &str) -> Resp {
    call(s, "POST", path, Some(&s.token.clone()), &[], b"")
}

/// Submits a job with its fingerprint stated (`X-AsaDB-Content-SHA256`),
/// so it is queued at once; `attacks.rs` covers uploads without it, which
/// are queued only after their connection's close check.
fn submit(s: &Server, headers: &[(&str, &str)], body: &[u8]) -> Resp {
    let sha = server::sha256_hex(body);
    let mut all = headers.to_vec();
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("x-asadb-content-sha256")) {
        all.push(("X-AsaDB-Content-SHA256", &sha));
    }
    call(s, "POST", "/api/reservoir/jobs", Some(&s.token.clone()), &all, body)
}

fn job(s: &Server, id: u64) -> Value {
    let r = get(s, &format!("/api/reservoir/job?id={id}"));
    assert_eq!(r.status, 200, "{r:?}");
    r.json()
}

fn wait_for_state(s: &Server, id: u64, state: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let j = job(s, id);
        if j["state"] == state {
            return j;
        }
        assert!(Instant::now() < deadline, "job {id} never became {state}: {j}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Opens a raw connection and writes `head` (request line and headers).
fn raw(s: &Server, head: &str) -> TcpStream {
    let mut sock = TcpStream::connect(&s.addr).unwrap();
    sock.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    sock.write_all(head.as_bytes()).unwrap();
    sock
}

/// Reads until the response head and whatever body arrives before the
/// server closes (errors after some bytes arrived end the read).
fn read_response(sock: &mut TcpStream) -> String {
    let mut out = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match sock.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                out.extend_from_slice(&buf[..n]);
                let text = String::from_utf8_lossy(&out);
                // A complete JSON error body ends the response.
                if let Some(pos) = text.find("\r\n\r\n")
                    && text[pos..].trim_end().ends_with('}')
                {
                    break;
                }
            }
            Err(_) if !out.is_empty() => break,
            Err(e) => panic!("no response: {e}"),
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn status_of(response: &str) -> u16 {
    response.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0)
}

fn head(s: &Server, extra: &str) -> String {
    format!(
        "POST /api/reservoir/jobs HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {}\r\n{extra}\r\n",
        s.addr, s.token
    )
}

#[test]
fn every_endpoint_needs_the_token() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start(dir.path(), &[]);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.path().join("panel.token")).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    assert_eq!(s.token.len(), 64);
    assert!(s.token.bytes().all(|b| b.is_ascii_hexdigit()));

    let endpoints = [
        ("GET", "/api/reservoir/jobs"),
        ("POST", "/api/reservoir/jobs"),
        ("GET", "/api/reservoir/job?id=1"),
        ("POST", "/api/reservoir/cancel?id=1"),
        ("POST", "/api/reservoir/resume?id=1"),
        ("GET", "/api/reservoir/stats"),
        ("GET", "/api/reservoir/result?id=1"),
        ("POST", "/api/reservoir/file"),
        ("POST", "/api/execute_stream"),
        ("GET", "/metrics"),
        ("GET", "/no/such/path"),
        ("DELETE", "/api/reservoir/jobs"),
    ];
    let wrong = "0".repeat(64);
    for (method, path) in endpoints {
        for token in [None, Some(wrong.as_str()), Some(&s.token[..63])] {
            let r = call(&s, method, path, token, &[], b"select 1;");
            assert_eq!(r.status, 401, "{method} {path} with {token:?}: {r:?}");
            assert_eq!(r.error_code(), "unauthorized");
            let v = r.json();
            assert_eq!(v.as_object().unwrap().len(), 1, "nothing but the error: {v}");
        }
    }
    // Not a bearer token at all.
    let basic = call(&s, "GET", "/metrics", None, &[("Authorization", "Basic Zm9vOmJhcg==")], b"");
    assert_eq!(basic.status, 401);
    // Nothing was admitted by the refused submissions.
    assert_eq!(get(&s, "/api/reservoir/stats").json()["active"], 0);
    assert!(s.spool_files().is_empty());
    // Authenticated unknown paths and methods get JSON errors too.
    let r = get(&s, "/no/such/path");
    assert_eq!((r.status, r.error_code().as_str()), (404, "not_found"));
    let r = call(&s, "DELETE", "/api/reservoir/jobs", Some(&s.token.clone()), &[], b"");
    assert_eq!((r.status, r.error_code().as_str()), (405, "method_not_allowed"));
}

#[test]
fn submit_answers_201_with_the_job_snapshot() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start(dir.path(), &[]);
    let body = b"CREATE TABLE t(a INTEGER);\nINSERT INTO t VALUES (1);\n";
    let r = submit(
        &s,
        &[
            ("X-AsaDB-Job-Label", "first load"),
            ("X-AsaDB-Stop-On-Error", "false"),
            ("X-AsaDB-Import-Original-Name", "load.sql"),
        ],
        body,
    );
    assert_eq!(r.status, 201, "{r:?}");
    assert!(r.content_type.as_deref().unwrap().starts_with("application/json"));
    let j = r.json();
    for key in ["id", "state", "label", "created_at", "updated_at", "progress", "error"] {
        assert!(j.get(key).is_some(), "missing {key}: {j}");
    }
    assert_eq!(j["state"], "queued");
    assert_eq!(j["label"], "first load");
    assert_eq!(j["stop_on_error"], false);
    assert_eq!(j["import"]["original_name"], "load.sql");
    assert_eq!(j["progress"]["bytes_total"], body.len());
    assert_eq!(j["received_bytes"], body.len());
    assert_eq!(j["error"], Value::Null);
    let id = j["id"].as_u64().unwrap();
    assert_eq!(job(&s, id), j);
    // The spool holds exactly the body.
    let spooled = std::fs::read(dir.path().join(format!(".asa.reservoir/spool/{id}.body")));
    assert_eq!(spooled.unwrap(), body);
}

#[test]
fn jobs_list_active_jobs_newest_update_first() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start(dir.path(), &[]);
    let mut ids = Vec::new();
    for i in 0..3 {
        std::thread::sleep(Duration::from_millis(5));
        let r = submit(&s, &[], format!("SELECT {i};").as_bytes());
        assert_eq!(r.status, 201);
        ids.push(r.json()["id"].as_u64().unwrap());
    }
    let list = get(&s, "/api/reservoir/jobs").json();
    let listed: Vec<u64> =
        list["jobs"].as_array().unwrap().iter().map(|j| j["id"].as_u64().unwrap()).collect();
    assert_eq!(listed, [ids[2], ids[1], ids[0]]);
    let times: Vec<u64> = list["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["updated_at"].as_u64().unwrap())
        .collect();
    assert!(times.windows(2).all(|w| w[0] >= w[1]), "{times:?}");
    // A cancelled job is no longer active.
    assert_eq!(post(&s, &format!("/api/reservoir/cancel?id={}", ids[1])).status, 200);
    let list = get(&s, "/api/reservoir/jobs").json();
    let listed: Vec<u64> =
        list["jobs"].as_array().unwrap().iter().map(|j| j["id"].as_u64().unwrap()).collect();
    assert_eq!(listed, [ids[2], ids[0]]);
}

#[test]
fn idempotent_retry_returns_the_same_job_and_a_changed_body_conflicts() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start(dir.path(), &[]);
    let key = [("X-AsaDB-Idempotency-Key", "load-2026-11-30")];
    let first = submit(&s, &key, b"SELECT 1;");
    assert_eq!(first.status, 201);
    let retry = submit(&s, &key, b"SELECT 1;");
    assert_eq!(retry.status, 200, "{retry:?}");
    assert_eq!(retry.json()["id"], first.json()["id"]);
    let other = submit(&s, &key, b"SELECT 2;");
    assert_eq!(other.status, 409, "{other:?}");
    assert_eq!(other.error_code(), "conflict");
    assert_eq!(get(&s, "/api/reservoir/jobs").json()["jobs"].as_array().unwrap().len(), 1);
    assert_eq!(s.spool_files().len(), 1);
}

#[test]
fn declared_sizes_bound_the_body() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start(dir.path(), &["--reservoir-max-spool-bytes", "1048576"]);

    // Declares more than the spool can ever hold: refused before any byte
    // is read.
    let mut sock = raw(&s, &head(&s, "Content-Length: 10485760\r\n"));
    let _ = sock.write_all(&[b'x'; 4096]);
    let resp = read_response(&mut sock);
    assert_eq!(status_of(&resp), 413, "{resp}");
    assert!(resp.contains("\"too_large\""), "{resp}");

    // Declares 1000 bytes, sends 10 and hangs up: the job fails and its
    // spool file is removed.
    let mut sock = raw(&s, &head(&s, "Content-Length: 1000\r\n"));
    sock.write_all(b"SELECT 1;\n").unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while get(&s, "/api/reservoir/jobs").json()["jobs"].as_array().unwrap().is_empty() {
        assert!(Instant::now() < deadline, "the upload never started");
        std::thread::sleep(Duration::from_millis(10));
    }
    let id = get(&s, "/api/reservoir/jobs").json()["jobs"][0]["id"].as_u64().unwrap();
    drop(sock);
    let j = wait_for_state(&s, id, "failed");
    assert_eq!(j["error"]["code"], "upload_aborted", "{j}");

    // Declares 16 bytes and sends 4 MiB, past the 1 MiB ceiling: the lie
    // is caught by the close check after the answer (the job is held, not
    // queued, until the connection shows nothing more), and the job fails
    // with no spool file.
    let mut sock = raw(&s, &head(&s, "Content-Length: 16\r\n"));
    let mut writer = sock.try_clone().unwrap();
    let sender = std::thread::spawn(move || {
        let mut payload = b"SELECT 12345678;".to_vec();
        payload.extend(std::iter::repeat_n(b'x', 4 << 20));
        let _ = writer.write_all(&payload);
    });
    let resp = read_response(&mut sock);
    if status_of(&resp) == 201 {
        let id = resp.split("\"id\":").nth(1).unwrap().split(',').next().unwrap();
        let j = wait_for_state(&s, id.parse().unwrap(), "failed");
        assert_eq!(j["error"]["code"], "body_surplus", "{j}");
    } else {
        assert_eq!(status_of(&resp), 0, "a reset before the answer: {resp}");
    }
    drop(sock);
    sender.join().unwrap();
    let stats = get(&s, "/api/reservoir/stats").json();
    assert_eq!(stats["reserved_bytes"], 0, "{stats}");
    assert_eq!(stats["active"], 0, "{stats}");
    assert!(s.spool_files().is_empty(), "{:?}", s.spool_files());

    // Every upload answer closes its connection (so nothing after a body
    // is ever read as another request); honest uploads each take their own.
    for body in [&b"SELECT 1;"[..], b"SELECT 2;"] {
        let mut sock = raw(&s, &head(&s, "Content-Length: 9\r\n"));
        sock.write_all(body).unwrap();
        let answer = read_response(&mut sock);
        assert_eq!(status_of(&answer), 201, "{answer}");
        assert!(answer.to_ascii_lowercase().contains("connection: close"), "{answer}");
    }
    assert_eq!(s.spool_files().len(), 2);
}

#[test]
fn chunked_body_past_the_ceiling_gets_413_and_leaves_no_spool() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start(dir.path(), &["--reservoir-max-spool-bytes", "1048576"]);
    let mut sock = raw(&s, &head(&s, "Transfer-Encoding: chunked\r\n"));
    let mut writer = sock.try_clone().unwrap();
    let sender = std::thread::spawn(move || {
        let chunk = vec![b'y'; 64 << 10];
        // 4 MiB in 64 KiB chunks; the server stops reading past 1 MiB.
        for _ in 0..64 {
            let framed = [format!("{:x}\r\n", chunk.len()).as_bytes(), &chunk, b"\r\n"].concat();
            if writer.write_all(&framed).is_err() {
                return;
            }
        }
        let _ = writer.write_all(b"0\r\n\r\n");
    });
    let resp = read_response(&mut sock);
    assert_eq!(status_of(&resp), 413, "{resp}");
    assert!(resp.contains("\"too_large\""), "{resp}");
    drop(sock);
    sender.join().unwrap();
    let j = wait_for_state(&s, 1, "failed");
    assert_eq!(j["error"]["code"], "too_large");
    assert!(j["received_bytes"].as_u64().unwrap() <= 1 << 20);
    assert!(s.spool_files().is_empty(), "{:?}", s.spool_files());
    let stats = get(&s, "/api/reservoir/stats").json();
    assert_eq!(stats["reserved_bytes"], 0);
    assert_eq!(stats["active"], 0);
}

#[test]
fn job_count_backpressure_gets_429_with_retry_after() {
    let dir = tempfile::tempdir().unwrap();
    // The limit comes from asadb.toml in the data directory.
    std::fs::write(dir.path().join("asadb.toml"), "reservoir-max-jobs = 2\n").unwrap();
    let s = Server::start(dir.path(), &[]);
    let a = submit(&s, &[], b"SELECT 1;");
    let b = submit(&s, &[], b"SELECT 2;");
    assert_eq!((a.status, b.status), (201, 201));
    let c = submit(&s, &[], b"SELECT 3;");
    assert_eq!(c.status, 429, "{c:?}");
    assert_eq!(c.error_code(), "capacity_exhausted");
    assert_eq!(c.json()["error"]["retryable"], true);
    let after: u64 = c.retry_after.as_deref().expect("Retry-After").parse().unwrap();
    assert!(after >= 1);
    assert_eq!(get(&s, "/api/reservoir/stats").json()["advice"]["pressure"], "saturated");
    // Room again once a job is cancelled.
    let id = a.json()["id"].as_u64().unwrap();
    assert_eq!(post(&s, &format!("/api/reservoir/cancel?id={id}")).status, 200);
    assert_eq!(submit(&s, &[], b"SELECT 3;").status, 201);
    // A flag wins over the file.
    drop(s);
    let s = Server::start(dir.path(), &["--reservoir-max-jobs", "3"]);
    assert_eq!(submit(&s, &[], b"SELECT 4;").status, 201);
}

#[test]
fn cancel_while_receiving_removes_the_spool_and_never_queues() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start(dir.path(), &[]);
    let mut sock = raw(&s, &head(&s, "Transfer-Encoding: chunked\r\n"));
    let part = "SELECT 1;\n".repeat(100);
    sock.write_all(format!("{:x}\r\n{part}\r\n", part.len()).as_bytes()).unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    let id = loop {
        let list = get(&s, "/api/reservoir/jobs").json();
        if let Some(j) = list["jobs"].as_array().unwrap().first() {
            assert_eq!(j["state"], "receiving");
            break j["id"].as_u64().unwrap();
        }
        assert!(Instant::now() < deadline, "the upload never started");
        std::thread::sleep(Duration::from_millis(10));
    };
    assert_eq!(s.spool_files(), [format!("{id}.body")]);
    let r = post(&s, &format!("/api/reservoir/cancel?id={id}"));
    assert_eq!(r.status, 200, "{r:?}");
    assert!(["cancelling", "cancelled"].contains(&r.json()["state"].as_str().unwrap()));
    // The client sends nothing more, yet the cancellation completes.
    wait_for_state(&s, id, "cancelled");
    let resp = read_response(&mut sock);
    assert_eq!(status_of(&resp), 409, "{resp}");
    assert!(resp.contains("\"cancelled\""), "{resp}");
    assert!(s.spool_files().is_empty());
    assert_eq!(get(&s, "/api/reservoir/stats").json()["reserved_bytes"], 0);
}

#[test]
fn cancel_of_queued_and_terminal_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start(dir.path(), &[]);
    let id = submit(&s, &[], b"SELECT 1;").json()["id"].as_u64().unwrap();
    assert_eq!(s.spool_files().len(), 1);
    let r = post(&s, &format!("/api/reservoir/cancel?id={id}"));
    assert_eq!(r.status, 200);
    let cancelled = r.json();
    assert_eq!(cancelled["state"], "cancelled");
    assert!(s.spool_files().is_empty());
    // Cancelling a terminal job is a harmless no-op.
    let again = post(&s, &format!("/api/reservoir/cancel?id={id}"));
    assert_eq!(again.status, 200);
    assert_eq!(again.json(), cancelled);
    // A cancelled job cannot be resumed and has no result.
    let r = post(&s, &format!("/api/reservoir/resume?id={id}"));
    assert_eq!((r.status, r.error_code().as_str()), (409, "invalid_state"));
}

#[test]
fn bad_ids_formats_and_parameters_are_client_errors() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start(dir.path(), &[]);
    let queued = submit(&s, &[], b"SELECT 1;").json()["id"].as_u64().unwrap();
    for (method, path) in [
        ("GET", "/api/reservoir/job"),
        ("POST", "/api/reservoir/cancel"),
        ("POST", "/api/reservoir/resume"),
        ("GET", "/api/reservoir/result"),
    ] {
        for q in ["", "?id=abc", "?id=", "?id=-3", "?id=0", "?id=1.5"] {
            let r = call(&s, method, &format!("{path}{q}"), Some(&s.token.clone()), &[], b"");
            assert_eq!(r.status, 400, "{method} {path}{q}: {r:?}");
            assert_eq!(r.error_code(), "invalid_input");
        }
        let r = call(&s, method, &format!("{path}?id=999"), Some(&s.token.clone()), &[], b"");
        assert_eq!((r.status, r.error_code().as_str()), (404, "not_found"), "{path}");
    }
    let r = get(&s, &format!("/api/reservoir/result?id={queued}&offset=x"));
    assert_eq!(r.status, 400);
    let r = get(&s, &format!("/api/reservoir/result?id={queued}"));
    assert_eq!((r.status, r.error_code().as_str()), (409, "invalid_state"));
    let r = post(&s, &format!("/api/reservoir/resume?id={queued}"));
    assert_eq!((r.status, r.error_code().as_str()), (409, "invalid_state"));

    let bad_headers: [(&str, &str, &str); 6] = [
        ("X-AsaDB-Import-Format", "parquet", "invalid_input"),
        ("X-AsaDB-Import-Format", "xls", "unsupported"),
        ("X-AsaDB-Import-Format", "csv", "invalid_input"),
        ("X-AsaDB-CSV-Delimiter", "ab", "invalid_input"),
        ("X-AsaDB-Stop-On-Error", "maybe", "invalid_input"),
        ("X-AsaDB-Import-Mode", "merge", "invalid_input"),
    ];
    for (name, value, code) in bad_headers {
        let r = submit(&s, &[(name, value)], b"SELECT 1;");
        assert_eq!((r.status, r.error_code().as_str()), (400, code), "{name}: {value}");
    }
    // A label that is not UTF-8.
    let mut req = format!(
        "POST /api/reservoir/jobs HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {}\r\n\
         Content-Length: 9\r\nX-AsaDB-Job-Label: ",
        s.addr, s.token
    )
    .into_bytes();
    req.extend_from_slice(b"\xff\xfe\r\n\r\nSELECT 1;");
    let mut sock = raw(&s, "");
    sock.write_all(&req).unwrap();
    let resp = read_response(&mut sock);
    assert_eq!(status_of(&resp), 400, "{resp}");
    assert!(resp.contains("UTF-8"), "{resp}");
    // Only the one good job exists.
    assert_eq!(get(&s, "/api/reservoir/stats").json()["active"], 1);
    assert_eq!(s.spool_files().len(), 1);
}

#[test]
fn metrics_parse_as_prometheus_text() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start(dir.path(), &[]);
    let body = b"SELECT 1;\nSELECT 2;\n";
    assert_eq!(submit(&s, &[], body).status, 201);
    assert_eq!(get(&s, "/api/reservoir/stats").status, 200);
    assert_eq!(query(&s, serde_json::json!({"sql": "SELECT 1"})).status, 200);
    // The query's page reaches the client a moment before its engine call
    // returns (the last chunk leaves, then the call ends): wait for that.
    let mut r = get(&s, "/metrics");
    for _ in 0..100 {
        if r.body.lines().any(|l| l == "asadb_async_in_flight 0") {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
        r = get(&s, "/metrics");
    }
    assert_eq!(r.status, 200);
    assert!(r.content_type.unwrap().starts_with("text/plain"));
    let mut typed = std::collections::HashSet::new();
    let mut samples = std::collections::HashMap::new();
    for line in r.body.lines() {
        if let Some(rest) = line.strip_prefix("# TYPE ") {
            let mut parts = rest.split(' ');
            let name = parts.next().unwrap();
            let kind = parts.next().unwrap();
            assert!(["counter", "gauge", "histogram"].contains(&kind), "{line}");
            typed.insert(name.to_string());
            continue;
        }
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let (series, value) = line.rsplit_once(' ').unwrap_or_else(|| panic!("{line}"));
        value.parse::<f64>().unwrap_or_else(|_| panic!("bad value: {line}"));
        let name = series.split('{').next().unwrap();
        assert!(name.starts_with("asadb_"), "{line}");
        assert!(name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'), "{line}");
        let labels = &series[name.len()..];
        if !labels.is_empty() {
            assert!(labels.starts_with('{') && labels.ends_with('}'), "{line}");
            for pair in labels[1..labels.len() - 1].split("\",") {
                let (k, v) = pair.split_once('=').unwrap_or_else(|| panic!("{line}"));
                assert!(k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'), "{line}");
                assert!(v.starts_with('"'), "{line}");
            }
        }
        let family = ["_bucket", "_sum", "_count"]
            .iter()
            .find_map(|suf| name.strip_suffix(suf).filter(|f| typed.contains(*f)))
            .unwrap_or(name);
        assert!(typed.contains(family), "sample before its # TYPE: {line}");
        samples.insert(series.to_string(), value.to_string());
    }
    assert_eq!(samples["asadb_reservoir_jobs{state=\"queued\"}"], "1");
    assert_eq!(samples["asadb_reservoir_reserved_bytes"], body.len().to_string());
    assert_eq!(samples["asadb_reservoir_bytes_received_total"], body.len().to_string());
    let key =
        "asadb_http_requests_total{method=\"POST\",route=\"/api/reservoir/jobs\",status=\"201\"}";
    assert_eq!(samples[key], "1");
    let inf =
        "asadb_http_request_duration_seconds_bucket{route=\"/api/reservoir/stats\",le=\"+Inf\"}";
    assert_eq!(samples[inf], "1");
    assert_eq!(samples["asadb_query_duration_seconds_count"], "1");
    assert_eq!(samples["asadb_async_in_flight"], "0");
    assert_eq!(samples["asadb_bufferpool_frames"], "2048");
    // `--no-worker`: no statement ran (tests/stress_smoke.rs checks a real count).
    assert_eq!(samples["asadb_statements_executed_total"], "0");
    for name in ["asadb_bufferpool_hits_total", "asadb_wal_bytes", "asadb_commits_total"] {
        assert!(samples.contains_key(name), "{name} missing");
    }
}

#[cfg(unix)]
#[test]
fn file_submission_stays_inside_allowed_directories() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let allowed = dir.path().join("imports");
    let outside = dir.path().join("private");
    std::fs::create_dir_all(&allowed).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(allowed.join("load.sql"), "SELECT 1;\n").unwrap();
    std::fs::write(outside.join("secret.sql"), "SELECT 'secret';\n").unwrap();
    std::os::unix::fs::symlink(&outside, allowed.join("escape")).unwrap();
    let s = Server::start(&data, &["--allow-file-dir", allowed.to_str().unwrap()]);
    let send = |v: Value| {
        call(
            &s,
            "POST",
            "/api/reservoir/file",
            Some(&s.token.clone()),
            &[],
            v.to_string().as_bytes(),
        )
    };
    let ok = send(serde_json::json!({"path": allowed.join("load.sql"), "label": "from disk"}));
    assert_eq!(ok.status, 201, "{ok:?}");
    let j = ok.json();
    assert_eq!(j["state"], "queued");
    assert_eq!(j["label"], "from disk");
    assert_eq!(j["import"]["original_name"], "load.sql");
    assert_eq!(j["progress"]["bytes_total"], 10);

    let forbidden = [
        allowed.join("../private/secret.sql"),
        allowed.join("escape/secret.sql"),
        outside.join("secret.sql"),
    ];
    for path in forbidden {
        let r = send(serde_json::json!({ "path": path }));
        assert_eq!((r.status, r.error_code().as_str()), (403, "forbidden"), "{path:?}");
    }
    let r = send(serde_json::json!({"path": allowed.join("missing.sql")}));
    assert_eq!((r.status, r.error_code().as_str()), (404, "not_found"));
    for bad in [
        serde_json::json!({"path": "load.sql"}),
        serde_json::json!({"path": allowed.join("load.sql"), "format": "parquet"}),
        serde_json::json!({"path": allowed.join("load.sql"), "colour": "blue"}),
        serde_json::json!({"nopath": true}),
    ] {
        assert_eq!(send(bad.clone()).status, 400, "{bad}");
    }
    let r = call(&s, "POST", "/api/reservoir/file", Some(&s.token.clone()), &[], b"{not json");
    assert_eq!(r.status, 400);
    assert_eq!(get(&s, "/api/reservoir/stats").json()["active"], 1);
}

#[test]
fn sigterm_exits_zero_and_a_restart_keeps_queued_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start(dir.path(), &[]);
    let token = s.token.clone();
    let a = submit(&s, &[("X-AsaDB-Job-Label", "a")], b"SELECT 1;").json();
    let b = submit(&s, &[("X-AsaDB-Job-Label", "b")], b"SELECT 2;").json();
    let status = s.terminate();
    assert!(status.success(), "exit status {status:?}");

    let s = Server::start(dir.path(), &[]);
    assert_eq!(s.token, token, "the token survives restarts");
    for before in [a, b] {
        let after = job(&s, before["id"].as_u64().unwrap());
        assert_eq!(after["state"], "queued");
        assert_eq!(after["label"], before["label"]);
        assert_eq!(after["fingerprint"], before["fingerprint"]);
    }
    assert_eq!(get(&s, "/api/reservoir/jobs").json()["jobs"].as_array().unwrap().len(), 2);
    assert_eq!(s.spool_files().len(), 2);
    // New ids continue after the old ones.
    let c = submit(&s, &[], b"SELECT 3;").json();
    assert_eq!(c["id"], 3);
}

#[test]
fn sigterm_during_an_upload_fails_it_and_still_exits_zero() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start(dir.path(), &[]);
    let queued = submit(&s, &[], b"SELECT 1;").json()["id"].as_u64().unwrap();
    let mut sock = raw(&s, &head(&s, "Transfer-Encoding: chunked\r\n"));
    sock.write_all(b"a\r\nSELECT 2;\n\r\n").unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    let uploading = loop {
        let list = get(&s, "/api/reservoir/jobs").json();
        if let Some(j) = list["jobs"].as_array().unwrap().iter().find(|j| j["state"] == "receiving")
        {
            break j["id"].as_u64().unwrap();
        }
        assert!(Instant::now() < deadline, "the upload never started");
        std::thread::sleep(Duration::from_millis(10));
    };
    let data = s.data.clone();
    let started = Instant::now();
    // The upload never ends: the server waits out its grace period (10 s),
    // then drops it.
    let status = s.terminate();
    assert!(status.success(), "exit status {status:?}");
    assert!(started.elapsed() < Duration::from_secs(25));
    drop(sock);

    let s = Server::start(&data, &[]);
    assert_eq!(job(&s, queued)["state"], "queued");
    let j = job(&s, uploading);
    assert_eq!(j["state"], "failed", "{j}");
    assert_eq!(s.spool_files(), [format!("{queued}.body")]);
}

#[test]
fn a_remote_address_needs_allow_remote() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(BIN)
        .args(["serve", "--listen", "0.0.0.0:0", "--data"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--allow-remote"), "{err}");
    // Refused before anything was created.
    assert!(!dir.path().join("panel.token").exists());
}

#[test]
fn cli_submit_jobs_and_cancel() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start(dir.path(), &[]);
    let script = dir.path().join("script.sql");
    std::fs::write(&script, "CREATE TABLE t(a);\n".repeat(1000)).unwrap();
    let token_file = dir.path().join("panel.token");
    let server_url = format!("http://{}", s.addr);
    let cli = |args: &[&str]| {
        Command::new(BIN)
            .args(args)
            .args(["--server", &server_url, "--token-file", token_file.to_str().unwrap()])
            .env_remove("ASADB_TOKEN")
            .output()
            .unwrap()
    };
    let out = cli(&[
        "submit",
        script.to_str().unwrap(),
        "--no-wait",
        "--label",
        "cli",
        "--idempotency-key",
        "k",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout} {}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("job 1 submitted: queued"), "{stdout}");
    let j = job(&s, 1);
    assert_eq!(j["label"], "cli");
    assert_eq!(j["declared_size"], 19_000);
    assert_eq!(j["received_bytes"], 19_000);
    assert_eq!(j["import"]["original_name"], "script.sql");

    let out = cli(&["submit", script.to_str().unwrap(), "--no-wait", "--idempotency-key", "k"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("job 1 reused"));

    let out = cli(&["jobs"]);
    let listing = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(listing.contains("queued") && listing.contains("cli"), "{listing}");

    let out = cli(&["cancel", "1"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("job 1 cancelled"));
    let out = cli(&["cancel", "42"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("404"));

    // Without --no-wait, a job that ends cancelled exits non-zero.
    let out = cli(&["submit", script.to_str().unwrap(), "--idempotency-key", "k"]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    // A wrong token is refused.
    let bad = dir.path().join("bad.token");
    std::fs::write(&bad, "nope").unwrap();
    let out = Command::new(BIN)
        .args(["jobs", "--server", &server_url, "--token-file", bad.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("401"));
}

/// A script: a table, `rows` rows inserted 100 per statement, then a query.
fn script(rows: u64) -> (String, u64) {
    let mut s = String::from("CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT);\n");
    let mut statements = 1;
    for start in (0..rows).step_by(100) {
        let values: Vec<String> =
            (start..(start + 100).min(rows)).map(|i| format!("({i}, 'row {i}')")).collect();
        s.push_str(&format!("INSERT INTO t VALUES {};\n", values.join(", ")));
        statements += 1;
    }
    s.push_str("SELECT a, b FROM t ORDER BY a;\n");
    (s, statements)
}

fn wait_until_terminal(s: &Server, id: u64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let j = job(s, id);
        let state = j["state"].as_str().unwrap().to_string();
        if !["receiving", "queued", "processing", "cancelling"].contains(&state.as_str()) {
            return j;
        }
        assert!(Instant::now() < deadline, "job {id} never ended: {j}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn worker_runs_a_script_and_pages_its_result() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start_with_worker(dir.path(), &[]);
    let (text, inserts) = script(600);
    let r = submit(&s, &[("X-AsaDB-Job-Label", "load")], text.as_bytes());
    assert_eq!(r.status, 201, "{r:?}");
    let id = r.json()["id"].as_u64().unwrap();
    let j = wait_until_terminal(&s, id);
    assert_eq!(j["state"], "completed", "{j}");
    assert_eq!(j["progress"]["statements_done"], inserts + 1);
    assert_eq!(j["progress"]["rows_affected"], 600);
    assert_eq!(j["progress"]["errors"], 0);
    assert!(j["has_result"].as_bool().unwrap());
    assert!(s.spool_files().is_empty(), "a completed job keeps no spool");

    // The SELECT is the last statement; page through its 600 rows.
    let select = inserts;
    let mut offset = Some(0u64);
    let mut seen = 0u64;
    while let Some(o) = offset {
        let r = get(&s, &format!("/api/reservoir/result?id={id}&statement={select}&offset={o}"));
        assert_eq!(r.status, 200, "{r:?}");
        let page = r.json();
        assert_eq!(page["columns"], serde_json::json!(["a", "b"]));
        for row in page["rows"].as_array().unwrap() {
            assert_eq!(row[0], seen);
            assert_eq!(row[1], format!("row {seen}"));
            seen += 1;
        }
        assert!(page["rows"].as_array().unwrap().len() <= 250);
        offset = page["next_offset"].as_u64();
    }
    assert_eq!(seen, 600);
    // A smaller page on request; the CREATE's summary has no rows.
    let page = get(&s, &format!("/api/reservoir/result?id={id}&statement={select}&limit=7")).json();
    assert_eq!(page["rows"].as_array().unwrap().len(), 7);
    assert_eq!(page["next_offset"], 7);
    let page = get(&s, &format!("/api/reservoir/result?id={id}&statement=0")).json();
    assert_eq!(page["rows"].as_array().unwrap().len(), 0);
    assert_eq!(page["next_offset"], Value::Null);
    // Reading the result delivered the job.
    assert_eq!(job(&s, id)["state"], "delivered");

    // The rows are durable: after a restart a new job reads them back.
    let status = s.terminate();
    assert!(status.success());
    let s = Server::start_with_worker(dir.path(), &[]);
    let id = submit(&s, &[], b"SELECT count(*), sum(a) FROM t;").json()["id"].as_u64().unwrap();
    assert_eq!(wait_until_terminal(&s, id)["state"], "completed");
    let page = get(&s, &format!("/api/reservoir/result?id={id}")).json();
    assert_eq!(page["rows"], serde_json::json!([[600, 179_700]]));
}

#[test]
fn worker_fails_a_job_at_its_first_error() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start_with_worker(dir.path(), &[]);
    let body = b"CREATE TABLE u(a INTEGER);\nINSERT INTO u VALUES (1);\nINSERT INTO nope VALUES (2);\nINSERT INTO u VALUES (3);\n";
    let id = submit(&s, &[], body).json()["id"].as_u64().unwrap();
    let j = wait_until_terminal(&s, id);
    assert_eq!(j["state"], "failed", "{j}");
    assert_eq!(j["error"]["statement"], 2, "{j}");
    // The statements before the error are committed.
    let id = submit(&s, &[], b"SELECT a FROM u;").json()["id"].as_u64().unwrap();
    assert_eq!(wait_until_terminal(&s, id)["state"], "completed");
    let page = get(&s, &format!("/api/reservoir/result?id={id}")).json();
    assert_eq!(page["rows"], serde_json::json!([[1]]));

    // The CLI waits for the end and reports it in its exit status.
    let file = dir.path().join("ok.sql");
    std::fs::write(&file, "INSERT INTO u VALUES (4);\n").unwrap();
    let bad = dir.path().join("bad.sql");
    std::fs::write(&bad, "INSERT INTO nope VALUES (4);\n").unwrap();
    let token_file = dir.path().join("panel.token");
    let url = format!("http://{}", s.addr);
    let run = |f: &Path| {
        Command::new(BIN)
            .arg("submit")
            .arg(f)
            .args(["--server", &url, "--token-file", token_file.to_str().unwrap()])
            .output()
            .unwrap()
    };
    let out = run(&file);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("completed"));
    let out = run(&bad);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("failed"));
}

/// Waits until the job is `processing`.
fn wait_processing(s: &Server, id: u64) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let j = job(s, id);
        match j["state"].as_str().unwrap() {
            "processing" => return,
            "queued" => {}
            other => panic!("job {id} is {other} before it was seen processing: {j}"),
        }
        assert!(Instant::now() < deadline, "job {id} never started: {j}");
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[test]
fn worker_cancel_while_processing() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start_with_worker(dir.path(), &[]);
    let (text, _) = script(100_000);
    let id = submit(&s, &[], text.as_bytes()).json()["id"].as_u64().unwrap();
    wait_processing(&s, id);
    let r = post(&s, &format!("/api/reservoir/cancel?id={id}"));
    assert_eq!(r.status, 200);
    assert!(["cancelling", "cancelled"].contains(&r.json()["state"].as_str().unwrap()), "{r:?}");
    let j = wait_until_terminal(&s, id);
    assert_eq!(j["state"], "cancelled", "{j}");
    assert!(s.spool_files().is_empty());
    assert_eq!(get(&s, "/api/reservoir/stats").json()["reserved_bytes"], 0);
}

#[test]
fn worker_killed_mid_job_is_interrupted_and_resume_completes_it_exactly_once() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start_with_worker(dir.path(), &[]);
    let (text, _) = script(100_000);
    let id = submit(&s, &[], text.as_bytes()).json()["id"].as_u64().unwrap();
    wait_processing(&s, id);
    drop(s); // SIGKILL

    let s = Server::start_with_worker(dir.path(), &[]);
    let j = job(&s, id);
    assert_eq!(j["state"], "interrupted", "{j}");
    // Never replayed on its own.
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(job(&s, id)["state"], "interrupted");
    let r = post(&s, &format!("/api/reservoir/resume?id={id}"));
    assert_eq!(r.status, 200, "{r:?}");
    let j = wait_until_terminal(&s, id);
    assert_eq!(j["state"], "completed", "{j}");
    let check = submit(&s, &[], b"SELECT count(*), count(DISTINCT a) FROM t;").json();
    let check = check["id"].as_u64().unwrap();
    assert_eq!(wait_until_terminal(&s, check)["state"], "completed");
    let page = get(&s, &format!("/api/reservoir/result?id={check}")).json();
    assert_eq!(page["rows"], serde_json::json!([[100_000, 100_000]]));
}

#[test]
fn worker_execute_stream_answers_when_the_job_has_ended() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start_with_worker(dir.path(), &[]);
    let tok = s.token.clone();
    let (text, inserts) = script(1000);
    let r = call(&s, "POST", "/api/execute_stream", Some(&tok), &[], text.as_bytes());
    assert_eq!(r.status, 200, "{r:?}");
    let j = r.json();
    assert_eq!(j["state"], "completed", "{j}");
    assert_eq!(j["progress"]["statements_done"], inserts + 1);
    assert_eq!(j["progress"]["rows_affected"], 1000);
    // A failing script ends too; the answer says how.
    let r = call(&s, "POST", "/api/execute_stream", Some(&tok), &[], b"SELECT * FROM nope;");
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["state"], "failed");
    // Admission errors are answered at once.
    let r =
        call(&s, "POST", "/api/execute_stream", Some(&tok), &[("X-AsaDB-Import-Format", "x")], b"");
    assert_eq!(r.status, 400);
    drop(s);
    // Without a worker nothing would ever end: refused.
    let s = Server::start(dir.path(), &[]);
    let r = call(&s, "POST", "/api/execute_stream", Some(&s.token.clone()), &[], b"SELECT 1;");
    assert_eq!((r.status, r.error_code().as_str()), (409, "invalid_state"));
    assert_eq!(get(&s, "/api/reservoir/stats").json()["active"], 0);
}

fn query(s: &Server, body: Value) -> Resp {
    call(s, "POST", "/api/query", Some(&s.token.clone()), &[], body.to_string().as_bytes())
}

#[test]
fn worker_query_pages_reads_and_refuses_writes() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start_with_worker(dir.path(), &[]);
    let (text, _) = script(1200);
    let id = submit(&s, &[], text.as_bytes()).json()["id"].as_u64().unwrap();
    assert_eq!(wait_until_terminal(&s, id)["state"], "completed");

    // Paging: 500 rows a page, next_offset until the end.
    let mut offset = Value::from(0);
    let mut seen = 0u64;
    let mut pages = 0;
    while !offset.is_null() {
        let r = query(
            &s,
            serde_json::json!({"sql": "SELECT a, b FROM t ORDER BY a", "offset": offset}),
        );
        assert_eq!(r.status, 200, "{r:?}");
        let page = r.json();
        assert_eq!(page["columns"], serde_json::json!(["a", "b"]));
        assert_eq!(page["offset"], offset);
        let rows = page["rows"].as_array().unwrap();
        assert!(rows.len() <= 500);
        for row in rows {
            assert_eq!(row[0], seen);
            seen += 1;
        }
        offset = page["next_offset"].clone();
        pages += 1;
    }
    assert_eq!((seen, pages), (1200, 3));
    // Parameters, positional and named.
    let r = query(&s, serde_json::json!({"sql": "SELECT b FROM t WHERE a = ?", "params": [7]}));
    assert_eq!(r.json()["rows"], serde_json::json!([["row 7"]]));
    let r = query(&s, serde_json::json!({"sql": "SELECT :x + 1", "params": {":x": 41}}));
    assert_eq!(r.json()["rows"], serde_json::json!([[42]]));

    // Writes and DDL are refused before they run, pointing to the Reservoir.
    for sql in [
        "INSERT INTO t VALUES (5000, 'x')",
        "DELETE FROM t",
        "DROP TABLE t",
        "CREATE TABLE u(a)",
        "INSERT INTO t VALUES (5001, 'y') RETURNING a",
        "SELECT 1; DELETE FROM t",
    ] {
        let r = query(&s, serde_json::json!({ "sql": sql }));
        assert_eq!((r.status, r.error_code().as_str()), (400, "invalid_input"), "{sql}: {r:?}");
    }
    let r = query(&s, serde_json::json!({"sql": "DELETE FROM t"}));
    assert!(r.json()["error"]["message"].as_str().unwrap().contains("Reservoir"));
    let r = query(&s, serde_json::json!({"sql": "SELECT count(*) FROM t"}));
    assert_eq!(r.json()["rows"], serde_json::json!([[1200]]));

    // Bad requests.
    let long = format!("SELECT '{}'", "x".repeat(250_001));
    let r = query(&s, serde_json::json!({ "sql": long }));
    assert_eq!((r.status, r.error_code().as_str()), (413, "too_large"));
    let r = query(&s, serde_json::json!({"sql": "SELECT * FROM nope"}));
    assert_eq!(r.status, 400, "{r:?}");
    let r = query(&s, serde_json::json!({"sql": "SELEC 1"}));
    assert_eq!(r.status, 400, "{r:?}");
    let r = query(&s, serde_json::json!({"sql": "SELECT 1", "colour": "blue"}));
    assert_eq!(r.status, 400);
    let r = call(&s, "POST", "/api/query", Some(&s.token.clone()), &[], b"not json");
    assert_eq!((r.status, r.error_code().as_str()), (400, "invalid_input"));
}

#[test]
fn worker_check_finds_a_sound_file_and_a_damaged_page() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start_with_worker(dir.path(), &[]);
    let (text, _) = script(2000);
    let id = submit(&s, &[], text.as_bytes()).json()["id"].as_u64().unwrap();
    assert_eq!(wait_until_terminal(&s, id)["state"], "completed");
    assert!(s.terminate().success());
    let db = dir.path().join("asadb.db");
    let check = || Command::new(BIN).args(["check", "--db"]).arg(&db).output().unwrap();
    let out = check();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(0), "{stdout} {}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.starts_with("ok:"), "{stdout}");

    // Damage one byte of page 2: its checksum no longer matches.
    let mut bytes = std::fs::read(&db).unwrap();
    assert!(bytes.len() >= 3 * 4096, "{} bytes", bytes.len());
    bytes[2 * 4096 + 100] ^= 0xff;
    std::fs::write(&db, &bytes).unwrap();
    let out = check();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("page 2"), "{stdout}");

    let out = Command::new(BIN).args(["check", "--db"]).arg(dir.path().join("nope.db")).output();
    assert_eq!(out.unwrap().status.code(), Some(2));
    assert!(!dir.path().join("nope.db").exists());
}

#[test]
fn sql_shell_runs_text_files_stdin_and_jsonl() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("shell.db");
    let sql = |args: &[&str], stdin: &str| {
        let mut child = Command::new(BIN)
            .args(["sql", "--db"])
            .arg(&db)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let (code, _) =
        sql(&["-c", "CREATE TABLE t(a INTEGER, b TEXT); INSERT INTO t VALUES (1, 'one');"], "");
    assert_eq!(code, Some(0));
    let script = dir.path().join("more.sql");
    std::fs::write(&script, "BEGIN; INSERT INTO t VALUES (2, 'two'); COMMIT;\n").unwrap();
    assert_eq!(sql(&[script.to_str().unwrap()], "").0, Some(0));
    let (code, out) = sql(&[], "SELECT a, b FROM t ORDER BY a;");
    assert_eq!((code, out.as_str()), (Some(0), "a|b\n1|one\n2|two\n"));
    let (code, _) = sql(&["-c", "SELECT * FROM nope"], "");
    assert_eq!(code, Some(1));

    let (code, out) = sql(
        &["--jsonl"],
        "{\"sql\": \"INSERT INTO t VALUES (3, 'three')\"}\n{\"sql\": \"SELEC\"}\n\
         {\"sql\": \"SELECT count(*) FROM t\"}\n",
    );
    assert_eq!(code, Some(0));
    let lines: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines[0], serde_json::json!({"rows_affected": 1}));
    assert!(lines[1]["error"]["message"].is_string());
    assert_eq!(lines[2], serde_json::json!({"columns": ["count(*)"], "rows": [[3]]}));

    // Parameters, positional and named, as /api/query takes them.
    let (code, out) = sql(
        &["--jsonl"],
        concat!(
            "{\"sql\": \"INSERT INTO t VALUES (?, ?2)\", \"params\": [4, \"four\"]}\n",
            "{\"sql\": \"INSERT INTO t VALUES (:a, $b)\", \"params\": {\"a\": 5, \"$b\": \"five\"}}\n",
            "{\"sql\": \"SELECT a, b, typeof(a) FROM t WHERE a >= ? ORDER BY a\", \"params\": [4]}\n",
            "{\"sql\": \"SELECT :x\", \"params\": {\"x\": 1, \":x\": 2}}\n",
            "{\"sql\": \"SELECT ?\", \"params\": 7}\n",
            "{\"sql\": \"SELECT ?1 + 1\", \"params\": [9007199254740993]}\n",
        ),
    );
    assert_eq!(code, Some(0));
    let lines: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines[0], serde_json::json!({"rows_affected": 1}));
    assert_eq!(lines[1], serde_json::json!({"rows_affected": 1}));
    assert_eq!(
        lines[2],
        serde_json::json!({"columns": ["a", "b", "typeof(a)"],
            "rows": [[4, "four", "integer"], [5, "five", "integer"]]})
    );
    assert_eq!(lines[3]["error"]["code"], "invalid_input", "{}", lines[3]);
    assert_eq!(lines[4]["error"]["code"], "invalid_input", "{}", lines[4]);
    assert_eq!(lines[5]["rows"], serde_json::json!([[9007199254740994_i64]]));
}

#[test]
fn a_database_in_use_by_the_server_is_refused_to_other_processes() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start(dir.path(), &[]);
    let db = dir.path().join("asadb.db");
    let shell = || {
        Command::new(BIN).args(["sql", "--db"]).arg(&db).args(["-c", "SELECT 1"]).output().unwrap()
    };
    let out = shell();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success(), "a second process opened the server's database");
    assert!(stderr.contains("in use by another process"), "{stderr}");
    assert!(s.terminate().success());
    let out = shell();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // The column header, then the value.
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().last(), Some("1"));
}
