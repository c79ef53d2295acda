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
