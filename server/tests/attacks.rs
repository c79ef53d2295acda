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

use server::{Server, sha256_hex};

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
    // Each abandoned statement is interrupted soon after its caller left
    // (the last ones may still be unwinding when `SELECT 1` is answered).
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let metrics = s.metrics();
        let in_flight = metrics.lines().find(|l| l.starts_with("asadb_async_in_flight ")).unwrap();
        if in_flight == "asadb_async_in_flight 0" {
            break;
        }
        assert!(Instant::now() < deadline, "{metrics}");
        std::thread::sleep(Duration::from_millis(50));
    }
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

/// A server with a six-row `victim` table.
fn victim_server(dir: &std::path::Path) -> Server {
    let s = Server::spawn(&dir.join("data"), &[]);
    let setup = b"CREATE TABLE victim(id INTEGER PRIMARY KEY); \
                  INSERT INTO victim VALUES (1),(2),(3),(4),(5),(6);";
    let r = s.submit(&[("X-AsaDB-Content-SHA256", &sha256_hex(setup))], setup);
    assert_eq!(r.status, 201, "{r:?}");
    assert_eq!(r.json()["state"], "queued", "a stated fingerprint queues at once");
    s.wait_state(r.json()["id"].as_u64().unwrap(), "completed");
    s
}

fn victims(s: &Server) -> usize {
    s.rows("SELECT id FROM victim").len()
}

#[test]
fn a_body_longer_than_its_content_length_is_never_run() {
    let dir = tempfile::tempdir().unwrap();
    let s = victim_server(dir.path());
    let full = "DELETE FROM victim WHERE id = 5;";
    let declared = 18; // "DELETE FROM victim": every row
    let upload_head = |extra: &str| {
        s.head("POST", "/api/reservoir/jobs", &format!("Content-Length: {declared}\r\n{extra}"))
    };

    // 1. The surplus in the same packet as the body.
    let mut sock = s.raw(&format!("{}{full}", upload_head("")));
    let r = client::read_response(&mut sock);
    assert_eq!(r.status, 201, "{r:?}");
    assert_eq!(r.header("connection"), Some("close"));
    assert_eq!(r.json()["state"], "receiving", "held until the connection shows nothing more");
    let id = r.json()["id"].as_u64().unwrap();
    drop(sock);
    let j = s.wait_state(id, "failed");
    assert_eq!(j["error"]["code"], "body_surplus", "{j}");
    assert_eq!(j["has_spool"], false);

    // 2. The surplus a moment after the body, on the same connection.
    let mut sock = s.raw(&format!("{}{}", upload_head(""), &full[..declared]));
    std::thread::sleep(Duration::from_millis(300));
    let _ = std::io::Write::write_all(&mut sock, &full.as_bytes()[declared..]);
    let r = client::read_response(&mut sock);
    assert_eq!(r.status, 201, "{r:?}");
    let id = r.json()["id"].as_u64().unwrap();
    drop(sock);
    assert_eq!(s.wait_state(id, "failed")["error"]["code"], "body_surplus");

    // 3. On a kept-alive connection, after another request.
    let get = s.head("GET", "/api/reservoir/stats", "");
    let mut sock = s.raw(&get);
    assert_eq!(client::read_response(&mut sock).status, 200);
    std::io::Write::write_all(&mut sock, format!("{}{full}", upload_head("")).as_bytes()).unwrap();
    let r = client::read_response(&mut sock);
    assert_eq!(r.status, 201, "{r:?}");
    let id = r.json()["id"].as_u64().unwrap();
    drop(sock);
    assert_eq!(s.wait_state(id, "failed")["error"]["code"], "body_surplus");

    // 4. execute_stream (which answers at the job's end) watches the
    //    connection after the body instead.
    let mut sock = s.raw(&format!(
        "{}{}",
        s.head("POST", "/api/execute_stream", &format!("Content-Length: {declared}\r\n")),
        &full[..declared]
    ));
    std::thread::sleep(Duration::from_millis(50));
    let _ = std::io::Write::write_all(&mut sock, &full.as_bytes()[declared..]);
    let r = client::read_response(&mut sock);
    assert_eq!((r.status, r.error_code().as_str()), (413, "too_large"), "{r:?}");

    assert_eq!(victims(&s), 6, "no truncated DELETE ran");

    // An honest upload is queued once its client closes, and runs.
    let body = "DELETE FROM victim WHERE id = 6;";
    let r = s.submit(&[], body.as_bytes());
    assert_eq!(r.status, 201);
    let j = s.wait_state(r.json()["id"].as_u64().unwrap(), "completed");
    assert_eq!(j["progress"]["rows_affected"], 1);
    assert_eq!(victims(&s), 5);
}

#[test]
fn a_stated_fingerprint_is_checked_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let s = victim_server(dir.path());
    let full = b"DELETE FROM victim WHERE id = 5;";
    // Cut to 18 bytes on the way: the fingerprint of the whole no longer
    // matches.
    let mut sock = s.raw(&format!(
        "{}{}",
        s.head(
            "POST",
            "/api/reservoir/jobs",
            &format!("Content-Length: 18\r\nX-AsaDB-Content-SHA256: {}\r\n", sha256_hex(full))
        ),
        std::str::from_utf8(full).unwrap()
    ));
    let r = client::read_response(&mut sock);
    assert_eq!((r.status, r.error_code().as_str()), (400, "fingerprint_mismatch"), "{r:?}");
    for bad in ["abc", &"g".repeat(64)] {
        let r = s.submit(&[("X-AsaDB-Content-SHA256", bad)], full);
        assert_eq!(r.status, 400, "{bad}: {r:?}");
    }
    assert_eq!(s.get("/api/reservoir/stats").json()["active"], 0);
    assert_eq!(victims(&s), 6);
    // Upper-case hex is the same fingerprint.
    let r = s.submit(&[("X-AsaDB-Content-SHA256", &sha256_hex(full).to_uppercase())], full);
    assert_eq!(r.status, 201, "{r:?}");
    assert_eq!(r.json()["state"], "queued");
    s.wait_state(r.json()["id"].as_u64().unwrap(), "completed");
    assert_eq!(victims(&s), 5);
}

#[test]
fn idle_and_trickling_connections_are_closed_and_the_cap_refuses_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::spawn(
        &dir.path().join("data"),
        &[
            "--no-worker",
            "--http-max-connections",
            "8",
            "--http-header-timeout-seconds",
            "1",
            "--http-idle-timeout-seconds",
            "2",
        ],
    );
    // Eight idle connections fill the cap; the ninth is refused with the
    // error shape, not left hanging.
    let idle: Vec<_> = (0..8).map(|_| std::net::TcpStream::connect(&s.addr).unwrap()).collect();
    std::thread::sleep(Duration::from_millis(200));
    let mut ninth = s.raw(&s.head("GET", "/api/reservoir/stats", ""));
    let r = client::read_response(&mut ninth);
    assert_eq!((r.status, r.error_code().as_str()), (503, "too_many_connections"), "{r:?}");
    assert!(r.retryable());
    assert_eq!(r.header("retry-after"), Some("2"));
    // The idle ones are closed by the idle timeout…
    let mut idle = idle;
    for sock in &mut idle {
        assert!(client::closed_within(sock, Duration::from_secs(10)), "an idle connection stayed");
    }
    // …and the server serves again.
    assert_eq!(s.get("/api/reservoir/stats").status, 200);

    // A head trickled a byte at a time is cut off by the header timeout.
    let mut slow = std::net::TcpStream::connect(&s.addr).unwrap();
    let started = Instant::now();
    let mut closed = false;
    for b in b"GET /api/reservoir/stats HTTP/1.1\r\nHost: x\r\nX-Slow: ".iter().cycle().take(200) {
        if std::io::Write::write_all(&mut slow, &[*b]).is_err() {
            closed = true;
            break;
        }
        if client::closed_within(&mut slow, Duration::from_millis(200)) {
            closed = true;
            break;
        }
    }
    assert!(closed, "a trickled head was never cut off");
    assert!(started.elapsed() < Duration::from_secs(20));

    // A kept-alive connection is closed after its idle timeout.
    let mut kept = s.raw(&s.head("GET", "/api/reservoir/stats", ""));
    assert_eq!(client::read_response(&mut kept).status, 200);
    assert!(client::closed_within(&mut kept, Duration::from_secs(10)));
}

#[test]
fn a_trickling_upload_loses_its_slot_and_reservation() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::spawn(
        &dir.path().join("data"),
        &[
            "--no-worker",
            "--upload-min-bytes-per-second",
            "100",
            "--upload-rate-window-seconds",
            "1",
        ],
    );
    let mut sock = s.raw(&s.head("POST", "/api/reservoir/jobs", "Content-Length: 100000\r\n"));
    let started = Instant::now();
    let mut answer = None;
    for _ in 0..100 {
        if std::io::Write::write_all(&mut sock, b"x").is_err() {
            break;
        }
        sock.set_read_timeout(Some(Duration::from_millis(300))).unwrap();
        let mut peek = [0u8; 1];
        if let Ok(n) = sock.peek(&mut peek)
            && n > 0
        {
            sock.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
            answer = Some(client::read_response(&mut sock));
            break;
        }
    }
    let r = answer.expect("the trickling upload was never cut off");
    assert_eq!((r.status, r.error_code().as_str()), (408, "too_slow"), "{r:?}");
    assert!(started.elapsed() < Duration::from_secs(20));
    let stats = s.get("/api/reservoir/stats").json();
    assert_eq!(
        (stats["active"].as_u64(), stats["reserved_bytes"].as_u64()),
        (Some(0), Some(0)),
        "{stats}"
    );
    let jobs = s.job(1);
    assert_eq!(
        (jobs["state"].as_str(), jobs["error"]["code"].as_str()),
        (Some("failed"), Some("too_slow"))
    );
    assert_eq!(std::fs::read_dir(dir.path().join("data/.asa.reservoir/spool")).unwrap().count(), 0);
}

#[test]
fn malformed_requests_get_the_json_error_shape() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::spawn(&dir.path().join("data"), &["--no-worker"]);
    // hyper's own answers: an unparsable request line, an oversized head.
    let mut sock = s.raw("BLAH\x01 / HTTP/1.1\r\n\r\n");
    let r = client::read_response(&mut sock);
    assert_eq!((r.status, r.error_code().as_str()), (400, "invalid_input"), "{r:?}");
    let big = format!("X-Big: {}\r\n", "b".repeat(600 << 10));
    let mut sock = s.raw(&s.head("GET", "/api/reservoir/stats", &big));
    let r = client::read_response(&mut sock);
    assert_eq!((r.status, r.error_code().as_str()), (431, "too_large"), "{r:?}");
    let many: String = (0..200).map(|i| format!("X-H{i}: v\r\n")).collect();
    let mut sock = s.raw(&s.head("GET", "/api/reservoir/stats", &many));
    let r = client::read_response(&mut sock);
    assert_eq!(r.status, 431, "{r:?}");
    r.error_code();

    // Codings the server does not decode are refused, not spooled.
    let mut sock =
        s.raw(&s.head("POST", "/api/reservoir/jobs", "Transfer-Encoding: gzip, chunked\r\n"));
    std::io::Write::write_all(&mut sock, b"5\r\nxxxxx\r\n0\r\n\r\n").unwrap();
    let r = client::read_response(&mut sock);
    assert_eq!((r.status, r.error_code().as_str()), (501, "not_implemented"), "{r:?}");
    let r = s.submit(&[("Content-Encoding", "gzip")], b"\x1f\x8b\x08\x00");
    assert_eq!((r.status, r.error_code().as_str()), (415, "unsupported_media_type"), "{r:?}");
    assert_eq!(s.get("/api/reservoir/stats").json()["active"], 0);

    // Ambiguous query strings are refused.
    let r = s.get("/api/reservoir/job?id=7&id=8");
    assert_eq!((r.status, r.error_code().as_str()), (400, "invalid_input"), "{r:?}");
    assert!(r.body.contains("more than once"), "{r:?}");

    // The auth scheme is case-insensitive.
    for scheme in ["bearer", "BEARER", "Bearer", "bEaReR"] {
        let auth = format!("{scheme} {}", s.token);
        let r = s.call_raw_headers("GET", "/api/reservoir/stats", &[("Authorization", &auth)], b"");
        assert_eq!(r.status, 200, "{scheme}");
    }
    let r = s.call_raw_headers(
        "GET",
        "/api/reservoir/stats",
        &[("Authorization", &format!("Basic {}", s.token))],
        b"",
    );
    assert_eq!(r.status, 401);
}

fn sigkill(s: &Server) {
    // SAFETY: kill(2) on our own child's pid.
    assert_eq!(unsafe { libc::kill(s.pid() as libc::pid_t, libc::SIGKILL) }, 0);
    std::thread::sleep(Duration::from_millis(200));
}

#[test]
fn an_upload_that_never_finished_does_not_own_its_key() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let s = Server::spawn(&data, &["--no-worker"]);
    let body = b"SELECT 1;\nSELECT 2;\n";
    // The server dies while the body is being received.
    let mut sock = s.raw(&s.head(
        "POST",
        "/api/reservoir/jobs",
        &format!("Content-Length: {}\r\nX-AsaDB-Idempotency-Key: k1\r\n", body.len()),
    ));
    std::io::Write::write_all(&mut sock, &body[..5]).unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while s.get("/api/reservoir/jobs").json()["jobs"].as_array().unwrap().is_empty() {
        assert!(Instant::now() < deadline, "the upload never started");
        std::thread::sleep(Duration::from_millis(10));
    }
    sigkill(&s);
    drop(s);
    let s = Server::spawn(&data, &["--no-worker"]);
    let j = s.job(1);
    assert_eq!(j["state"], "interrupted", "{j}");
    // "Submit it again": the identical body with the same key is a new job.
    let r = s.submit(&[("X-AsaDB-Idempotency-Key", "k1")], body);
    assert_eq!(r.status, 201, "{r:?}");
    let again = s.submit(&[("X-AsaDB-Idempotency-Key", "k1")], body);
    assert_eq!(again.status, 200, "{again:?}");
    assert_eq!(again.json()["id"], r.json()["id"]);
    // Stop-on-error is part of the match.
    let other =
        s.submit(&[("X-AsaDB-Idempotency-Key", "k1"), ("X-AsaDB-Stop-On-Error", "false")], body);
    assert_eq!((other.status, other.error_code().as_str()), (409, "conflict"), "{other:?}");
    assert!(other.body.contains("stop-on-error"), "{other:?}");
}

#[test]
fn twenty_concurrent_identical_retries_end_with_one_job() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::spawn(&dir.path().join("data"), &["--no-worker", "--reservoir-max-jobs", "32"]);
    let body: Vec<u8> = (0..2000).flat_map(|i| format!("SELECT {i};\n").into_bytes()).collect();
    let answers: Vec<(u16, u64)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..20)
            .map(|i| {
                let (s, body) = (&s, &body);
                scope.spawn(move || {
                    // Staggered, and some slow: several are receiving when
                    // the first completes.
                    std::thread::sleep(Duration::from_millis((i % 5) * 15));
                    let r = s.submit(&[("X-AsaDB-Idempotency-Key", "same")], body);
                    (r.status, r.json()["id"].as_u64().unwrap_or(0))
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let created = answers.iter().filter(|(st, _)| *st == 201).count();
    let reused = answers.iter().filter(|(st, _)| *st == 200).count();
    assert_eq!((created, reused), (1, 19), "{answers:?}");
    let id = answers[0].1;
    assert!(answers.iter().all(|(_, i)| *i == id), "{answers:?}");
    s.wait_state(id, "queued");
    let stats = s.get("/api/reservoir/stats").json();
    assert_eq!(stats["active"], 1, "{stats}");
    assert_eq!(stats["reserved_bytes"], body.len(), "{stats}");
}

#[test]
fn cancelling_an_interrupted_job_frees_its_reservation() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let s = Server::spawn(&data, &["--reservoir-max-spool-bytes", "3000000"]);
    let setup = "CREATE TABLE t(x INTEGER PRIMARY KEY, pad);\n";
    let mut script = String::from(setup);
    for i in 0..20_000 {
        script.push_str(&format!("INSERT INTO t VALUES ({i}, '{}');\n", "p".repeat(60)));
    }
    script.push_str("SELECT count(*) FROM t a, t b, t c;\n");
    let r = s.submit(&[], script.as_bytes());
    assert_eq!(r.status, 201);
    let id = r.json()["id"].as_u64().unwrap();
    s.wait_job(id, "reached its long statement", |j| {
        j["progress"]["statements_done"].as_u64() > Some(20_000)
    });
    sigkill(&s);
    drop(s);
    let s = Server::spawn(&data, &["--reservoir-max-spool-bytes", "3000000"]);
    let j = s.job(id);
    assert_eq!(j["state"], "interrupted", "{j}");
    assert!(j["reserved_bytes"].as_u64().unwrap() > 1_000_000);
    // The spool is held for resume: a big new upload does not fit.
    let big = vec![b' '; 1_500_000];
    let r = s.submit(&[], &big);
    assert_eq!((r.status, r.error_code().as_str()), (429, "capacity_exhausted"), "{r:?}");
    let r = s.post(&format!("/api/reservoir/cancel?id={id}"), b"");
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["state"], "cancelled");
    assert_eq!(r.json()["has_spool"], false);
    assert_eq!(s.get("/api/reservoir/stats").json()["reserved_bytes"], 0);
    assert_eq!(s.submit(&[], &big).status, 201, "the space is free again");
    // What the interrupted job committed stays.
    let committed = j["progress"]["statements_committed"].as_u64().unwrap();
    assert!(committed >= 1000, "{j}");
    assert_eq!(s.rows("SELECT count(*) FROM t"), vec![json!([committed - 1])]);
}

/// Every directory under `dir` (itself included) and every file in them,
/// with its permission bits.
fn modes_under(dir: &std::path::Path) -> Vec<(std::path::PathBuf, bool, u32)> {
    use std::os::unix::fs::PermissionsExt;
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let meta = std::fs::symlink_metadata(&d).unwrap();
        out.push((d.clone(), true, meta.permissions().mode() & 0o7777));
        for entry in std::fs::read_dir(&d).unwrap() {
            let entry = entry.unwrap();
            let meta = entry.metadata().unwrap();
            if meta.is_dir() {
                stack.push(entry.path());
            } else {
                out.push((entry.path(), false, meta.permissions().mode() & 0o7777));
            }
        }
    }
    out
}

#[test]
fn the_data_directory_is_private_and_a_writable_one_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let s = Server::spawn(&data, &[]);
    let script =
        "CREATE TABLE secret(a);\nINSERT INTO secret VALUES ('x');\nSELECT a FROM secret;\n";
    let id = s.submit(&[], script.as_bytes()).json()["id"].as_u64().unwrap();
    assert_eq!(s.wait_terminal(id)["state"], "completed");
    // A job still receiving has its spool body on disk.
    let mut sock = s.raw(
        "POST /api/reservoir/jobs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer TOKEN\r\n\
         Content-Length: 100\r\n\r\nSELECT 1;"
            .replace("TOKEN", &s.token)
            .as_str(),
    );
    std::thread::sleep(Duration::from_millis(300));
    let modes = modes_under(&data);
    let names: Vec<String> = modes.iter().map(|(p, _, _)| p.display().to_string()).collect();
    for want in ["asadb.db", "panel.token", "events.log", ".result", ".body"] {
        assert!(names.iter().any(|n| n.ends_with(want)), "no {want} in {names:?}");
    }
    for (path, is_dir, mode) in &modes {
        let want = if *is_dir { 0o700 } else { 0o600 };
        assert_eq!(*mode, want, "{} is {mode:04o}", path.display());
    }
    let _ = std::io::Write::write_all(&mut sock, b"x");
    drop(sock);
    assert!(s.terminate().success());

    // An existing directory others can enter or its group can write is
    // tightened; one every user can write is refused with a clear message.
    for loose in [0o755, 0o775, 0o750] {
        std::fs::set_permissions(&data, std::fs::Permissions::from_mode(loose)).unwrap();
        let s = Server::spawn(&data, &[]);
        let mode = std::fs::metadata(&data).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700, "{loose:o}");
        assert!(s.terminate().success());
    }
    for bad in [0o777, 0o702] {
        std::fs::set_permissions(&data, std::fs::Permissions::from_mode(bad)).unwrap();
        let out = std::process::Command::new(server::BIN)
            .arg("serve")
            .arg("--data")
            .arg(&data)
            .args(["--listen", "127.0.0.1:0"])
            .env_remove("ASADB_TOKEN")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "started on a {bad:o} directory");
        assert!(stderr.contains("chmod 700"), "{stderr}");
        assert!(!String::from_utf8_lossy(&out.stdout).contains("listening"));
    }
}
