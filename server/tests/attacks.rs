//! The adversarial suite: every attack of issue 15 replayed against the
//! real `asadb` binary on a loopback port, each pinned to the behaviour
//! that fixed it.
//!
//! Invariants (one test or more each):
//! - no request can stall the server: a FIFO named in a file submission is
//!   refused at once while every other endpoint keeps answering;
//! - a file submission only ever reads a regular file with one link inside
//!   an allowed directory; impossible paths (NUL, over-long names, a
//!   trailing `/`) are client errors, not `500 io`.

#[path = "common/server.rs"]
mod server;

#[path = "common/client.rs"]
mod client;

use std::time::{Duration, Instant};

use serde_json::json;

use server::Server;

fn mkfifo(path: &std::path::Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo(3) with a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
}

#[test]
fn a_fifo_in_an_allowed_directory_is_refused_and_freezes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let allowed = dir.path().join("imports");
    std::fs::create_dir_all(&allowed).unwrap();
    mkfifo(&allowed.join("pipe.sql"));
    let s =
        Server::spawn(&dir.path().join("data"), &["--allow-file-dir", allowed.to_str().unwrap()]);
    // Several at once: each would have pinned a runtime thread.
    let started = Instant::now();
    let attackers: Vec<_> = (0..8)
        .map(|_| {
            let (addr, token, path) = (s.addr.clone(), s.token.clone(), allowed.join("pipe.sql"));
            std::thread::spawn(move || {
                let body = json!({ "path": path }).to_string();
                let req = ureq::http::Request::builder()
                    .method("POST")
                    .uri(format!("http://{addr}/api/reservoir/file"))
                    .header("Authorization", format!("Bearer {token}"))
                    .body(body.into_bytes())
                    .unwrap();
                let mut r = client::agent().run(req).unwrap();
                (r.status().as_u16(), r.body_mut().read_to_string().unwrap())
            })
        })
        .collect();
    for a in attackers {
        let (status, body) = a.join().unwrap();
        assert_eq!(status, 400, "{body}");
        assert!(body.contains("FIFO"), "{body}");
    }
    assert!(started.elapsed() < Duration::from_secs(20), "the FIFO was waited for");
    let stats = s.get("/api/reservoir/stats");
    assert_eq!(stats.status, 200);
    assert_eq!(stats.json()["active"], 0, "nothing was admitted");
}

#[test]
fn file_submission_refuses_hard_links_directories_and_impossible_paths() {
    let dir = tempfile::tempdir().unwrap();
    let allowed = dir.path().join("imports");
    let outside = dir.path().join("private");
    std::fs::create_dir_all(&allowed).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("secret.sql"), "SELECT 'secret';\n").unwrap();
    std::fs::hard_link(outside.join("secret.sql"), allowed.join("linked.sql")).unwrap();
    std::fs::write(allowed.join("fine.sql"), "SELECT 1;\n").unwrap();
    let s = Server::spawn(
        &dir.path().join("data"),
        &["--no-worker", "--allow-file-dir", allowed.to_str().unwrap()],
    );
    let send =
        |path: &str| s.post("/api/reservoir/file", json!({ "path": path }).to_string().as_bytes());
    let a = allowed.to_str().unwrap();

    let r = send(&format!("{a}/linked.sql"));
    assert_eq!((r.status, r.error_code().as_str()), (403, "forbidden"), "{r:?}");
    assert!(r.json()["error"]["message"].as_str().unwrap().contains("hard links"), "{r:?}");

    let long = format!("{a}/{}.sql", "n".repeat(300));
    for (path, status) in [
        (format!("{a}/nul\0.sql"), 400),
        (long, 400),
        (format!("{a}/fine.sql/"), 400),
        (format!("{a}/"), 400),
        (a.to_string(), 400),
        (format!("{a}/fine.sql/more"), 400),
        (format!("{a}/missing/x.sql"), 404),
    ] {
        let r = send(&path);
        assert_eq!(r.status, status, "{path:.80?}: {r:?}");
        assert_ne!(r.error_code(), "io", "{path:.80?}");
    }
    let ok = send(&format!("{a}/fine.sql"));
    assert_eq!(ok.status, 201, "{ok:?}");
}

#[test]
fn invented_methods_and_paths_add_no_metric_series() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::spawn(&dir.path().join("data"), &["--no-worker"]);
    let before = s.metrics().len();
    // Unauthenticated and authenticated, raw so any method token goes out.
    for i in 0..300 {
        let token = if i % 2 == 0 {
            format!("Authorization: Bearer {}\r\n", s.token)
        } else {
            String::new()
        };
        let mut sock = std::net::TcpStream::connect(&s.addr).unwrap();
        sock.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let req = format!(
            "M{i}X /nowhere/{i}?q={i} HTTP/1.1\r\nHost: x\r\n{token}Content-Length: 0\r\nConnection: close\r\n\r\n"
        );
        std::io::Write::write_all(&mut sock, req.as_bytes()).unwrap();
        let r = client::read_response(&mut sock);
        assert!(matches!(r.status, 401 | 404 | 405), "{r:?}");
    }
    let text = s.metrics();
    assert!(!text.contains("M1X") && !text.contains("/nowhere"), "raw labels leaked");
    let series =
        |t: &str| t.lines().filter(|l| l.starts_with("asadb_http_requests_total{")).count();
    assert!(series(&text) <= 8, "{}", text);
    assert!(text.len() < before + (16 << 10), "metrics grew from {before} to {} bytes", text.len());
    assert!(text.contains("method=\"other\",route=\"other\""), "{text}");
}

/// The server's peak resident memory (VmHWM), in bytes.
fn peak_rss(s: &Server) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", s.pid())).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap() * 1024
}

#[test]
fn huge_values_are_refused_and_memory_stays_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::spawn(&dir.path().join("data"), &[]);
    let forty = "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 40)";
    for size in [500_000_000, 200_000_000, 20_000_000] {
        let r = s.query(json!({ "sql": format!("{forty} SELECT zeroblob({size}) FROM c") }));
        assert_eq!((r.status, r.error_code().as_str()), (413, "too_large"), "{size}: {r:?}");
    }
    // The same through a function the engine does not cap itself.
    let r = s.query(json!({ "sql": "SELECT hex(zeroblob(10000000)) || hex(zeroblob(10000000))" }));
    assert_eq!((r.status, r.error_code().as_str()), (413, "too_large"), "{r:?}");
    // Under the limit a value is served whole.
    let r = s.query(json!({ "sql": "SELECT length(zeroblob(1000000)), zeroblob(1000000)" }));
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["rows"][0][0], 1_000_000);
    assert!(peak_rss(&s) < 400 << 20, "peak RSS {} MB", peak_rss(&s) >> 20);
    assert_eq!(s.get("/api/reservoir/stats").status, 200, "still serving");
}

#[test]
fn pages_end_early_at_their_byte_limit_and_the_next_offset_continues() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::spawn(
        &dir.path().join("data"),
        &["--max-page-bytes", "100000", "--max-value-bytes", "5000"],
    );
    let rows = "WITH RECURSIVE c(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM c WHERE n < 999) \
                SELECT n, printf('%.990c', 'x') FROM c ORDER BY n";
    let mut offset = 0u64;
    let mut seen = 0u64;
    let mut pages = 0;
    loop {
        let r = s.query(json!({ "sql": rows, "offset": offset }));
        assert_eq!(r.status, 200, "{r:?}");
        assert!(r.body.len() < 110_000, "page of {} bytes", r.body.len());
        let page = r.json();
        for row in page["rows"].as_array().unwrap() {
            assert_eq!(row[0], seen, "every row once, in order");
            seen += 1;
        }
        pages += 1;
        match page["next_offset"].as_u64() {
            Some(next) => {
                assert_eq!(next, seen);
                offset = next;
            }
            None => break,
        }
        if page["rows"].as_array().unwrap().len() < 500 && page["next_offset"].is_u64() {
            assert_eq!(page["ended_early"], "max_page_bytes", "{}", &r.body[r.body.len() - 80..]);
        }
    }
    assert_eq!(seen, 1000);
    assert!(pages >= 10, "{pages} pages");

    // A too-long value in the middle (built by a function the engine does
    // not cap) ends the page before it; the page starting at it is a 413.
    let sql = "WITH RECURSIVE c(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM c WHERE n < 20) \
               SELECT n, CASE WHEN n = 7 THEN hex(zeroblob(3000)) ELSE 'ok' END FROM c";
    let page = s.query(json!({ "sql": sql })).json();
    assert_eq!(page["rows"].as_array().unwrap().len(), 7);
    assert_eq!(page["next_offset"], 7);
    assert_eq!(page["ended_early"], "max_value_bytes");
    let r = s.query(json!({ "sql": sql, "offset": 7 }));
    assert_eq!((r.status, r.error_code().as_str()), (413, "too_large"), "{r:?}");
    // The engine's own functions refuse to build such a value at all.
    let r = s.query(json!({ "sql": "SELECT zeroblob(6000)" }));
    assert_eq!((r.status, r.error_code().as_str()), (413, "too_large"), "{r:?}");
}

#[test]
fn a_panicking_query_is_a_500_internal_error_and_the_server_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::spawn_env(
        &dir.path().join("data"),
        &[],
        &[("ASADB_TEST_PANIC_MARKER", "PANIC_HERE")],
    );
    for _ in 0..6 {
        // More than the pool's 4 workers: none is lost for good.
        let r = s.query(json!({ "sql": "SELECT 'PANIC_HERE'" }));
        assert_eq!((r.status, r.error_code().as_str()), (500, "internal_error"), "{r:?}");
        assert!(!r.retryable());
    }
    assert_eq!(s.rows("SELECT 41 + 1"), vec![json!([42])]);
    // The planner's own (real) panic on a non-ASCII first select item, while
    // it lasts: at worst a 500 for that query.
    let r = s.query(json!({ "sql": "SELECT 'Müller'" }));
    match r.status {
        200 => assert_eq!(r.json()["rows"], json!([["Müller"]])),
        _ => assert_eq!((r.status, r.error_code().as_str()), (500, "internal_error"), "{r:?}"),
    }

    // A job with stop-on-error off goes on past a panicking statement; the
    // statements before it stay.
    let script = "CREATE TABLE t(a);\nINSERT INTO t VALUES (1);\nSELECT 'PANIC_HERE';\nINSERT INTO t VALUES (2);\n";
    let r = s.submit(&[("X-AsaDB-Stop-On-Error", "false")], script.as_bytes());
    assert_eq!(r.status, 201, "{r:?}");
    let id = r.json()["id"].as_u64().unwrap();
    let job = s.wait_terminal(id);
    assert_eq!(job["state"], "completed", "{job}");
    assert_eq!(job["progress"]["errors"], 1);
    assert_eq!(job["statement_errors"][0]["code"], "internal_error");
    assert_eq!(job["statement_errors"][0]["statement"], 2);
    assert_eq!(s.rows("SELECT a FROM t ORDER BY a"), vec![json!([1]), json!([2])]);
}

#[test]
fn abandoned_queries_are_interrupted() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::spawn(&dir.path().join("data"), &["--query-timeout-seconds", "600"]);
    let endless = json!({ "sql": "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) \
                                  SELECT count(*) FROM c" })
    .to_string();
    for _ in 0..16 {
        let head = format!(
            "POST /api/query HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {}\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{endless}",
            s.token,
            endless.len()
        );
        let sock = s.raw(&head);
        std::thread::sleep(Duration::from_millis(20));
        drop(sock); // the caller goes away
    }
    // With 16 statements running for ten minutes, nothing else could run.
    let started = Instant::now();
    let r = s.query(json!({ "sql": "SELECT 1" }));
    assert_eq!(r.status, 200, "{r:?}");
    assert!(started.elapsed() < Duration::from_secs(60), "answered after {:?}", started.elapsed());
    let metrics = s.metrics();
    let in_flight = metrics.lines().find(|l| l.starts_with("asadb_async_in_flight ")).unwrap();
    assert_eq!(in_flight, "asadb_async_in_flight 0", "{metrics}");
}

#[test]
fn a_statement_timeout_is_its_own_code_and_not_retryable() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::spawn(&dir.path().join("data"), &["--query-timeout-seconds", "1"]);
    let r = s
        .query(json!({ "sql": "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) \
                                    SELECT count(*) FROM c" }));
    assert_eq!((r.status, r.error_code().as_str()), (422, "statement_timeout"), "{r:?}");
    assert!(!r.retryable(), "it would time out again");
    assert_eq!(r.header("retry-after"), None);
}

#[test]
fn integers_past_64_bits_in_params_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::spawn(&dir.path().join("data"), &[]);
    let r = s.query(json!({ "sql": "SELECT ?, typeof(?)", "params": [9223372036854775807u64, 1] }));
    assert_eq!(r.json()["rows"], json!([[9223372036854775807u64, "integer"]]));
    for big in ["9223372036854775808", "18446744073709551616", "-9223372036854775809"] {
        let body = format!(r#"{{"sql": "SELECT typeof(?)", "params": [{big}]}}"#);
        let r = s.post("/api/query", body.as_bytes());
        assert_eq!((r.status, r.error_code().as_str()), (400, "invalid_input"), "{big}: {r:?}");
    }
}
