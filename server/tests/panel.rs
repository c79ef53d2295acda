//! End-to-end tests of the browser panel, on the real `asadb` binary.
//!
//! Scenario: `asadb serve` on `127.0.0.1:0` (no worker), talked to with
//! ureq. Invariants pinned here:
//! - `GET /` (and `/panel`, `/panel.js`, `/panel.css`) answers the static
//!   panel without the token, with `no-store` and a same-origin-only CSP;
//! - every other path, and every other method on the panel's paths, still
//!   answers 401 without the right token, exactly like before the panel;
//! - the page references nothing beyond its own origin;
//! - the script parses, and its pure parts (`panel_dom.mjs`: the console's
//!   routing checked against the server, export) pass in Node; the
//!   real-browser suite is `panel_browser.rs`.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_asadb");

/// A running server; killed when dropped.
struct Server {
    child: Child,
    addr: String,
    panel_line: String,
    token: String,
}

impl Server {
    /// A server whose jobs stay queued.
    fn start(data: &Path) -> Server {
        Server::spawn(data, &["--no-worker"])
    }

    fn spawn(data: &Path, extra: &[&str]) -> Server {
        let mut child = Command::new(BIN)
            .arg("serve")
            .arg("--data")
            .arg(data)
            .args(["--listen", "127.0.0.1:0"])
            .args(extra)
            .env_remove("ASADB_TOKEN")
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn asadb");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        let (mut addr, mut panel_line) = (None, None);
        while addr.is_none() || panel_line.is_none() {
            let line = rx.recv_timeout(Duration::from_secs(30)).expect("server start-up lines");
            if let Some(a) = line.strip_prefix("listening on http://") {
                addr = Some(a.to_string());
            } else if line.starts_with("panel: ") {
                panel_line = Some(line);
            }
        }
        let token = std::fs::read_to_string(data.join("panel.token")).unwrap().trim().to_string();
        Server { child, addr: addr.unwrap(), panel_line: panel_line.unwrap(), token }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[derive(Debug)]
struct Resp {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Resp {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    fn error_code(&self) -> String {
        let v: serde_json::Value = serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", self.body));
        assert_eq!(v.as_object().map(|o| o.len()), Some(1), "nothing but the error: {v}");
        v["error"]["code"].as_str().unwrap().to_string()
    }
}

fn call(s: &Server, method: &str, path: &str, token: Option<&str>) -> Resp {
    let agent: ureq::Agent =
        ureq::Agent::config_builder().http_status_as_error(false).build().into();
    let mut b =
        ureq::http::Request::builder().method(method).uri(format!("http://{}{path}", s.addr));
    if let Some(t) = token {
        b = b.header("Authorization", format!("Bearer {t}"));
    }
    let body: &[u8] = if method == "GET" || method == "HEAD" { b"" } else { b"select 1;" };
    let mut resp = agent
        .run(b.body(body.to_vec()).unwrap())
        .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
    let headers = resp
        .headers()
        .iter()
        .map(|(k, v)| (k.as_str().to_string(), v.to_str().unwrap_or("").to_string()))
        .collect();
    Resp {
        status: resp.status().as_u16(),
        headers,
        body: resp.body_mut().read_to_string().unwrap_or_default(),
    }
}

/// The `src` and `href` attribute values of an HTML text.
fn references(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    for attr in [" src=\"", " href=\""] {
        for (at, _) in html.match_indices(attr) {
            let rest = &html[at + attr.len()..];
            out.push(rest[..rest.find('"').unwrap()].to_string());
        }
    }
    out
}

#[test]
fn the_panel_is_served_without_the_token() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start(dir.path());
    assert_eq!(s.panel_line, format!("panel: http://{}/", s.addr));

    let page = call(&s, "GET", "/", None);
    assert_eq!(page.status, 200, "{page:?}");
    assert_eq!(page.header("content-type"), Some("text/html; charset=utf-8"));
    assert_eq!(page.header("cache-control"), Some("no-store"));
    let csp = page.header("content-security-policy").expect("a CSP");
    for directive in ["default-src 'none'", "script-src 'self'", "connect-src 'self'"] {
        assert!(csp.contains(directive), "CSP {csp:?} lacks {directive}");
    }
    assert!(!csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"), "{csp}");
    assert_eq!(page.header("x-content-type-options"), Some("nosniff"));
    for marker in ["id=\"tab-console\"", "id=\"tab-import\"", "id=\"tab-jobs\"", "id=\"token\""] {
        assert!(page.body.contains(marker), "the page lacks {marker}");
    }
    assert!(page.body.contains("panel.token"), "the page tells where the token is");

    // The alias, a token (right or wrong) changes nothing, HEAD works.
    assert_eq!(call(&s, "GET", "/panel", None).body, page.body);
    assert_eq!(call(&s, "GET", "/", Some(&s.token)).body, page.body);
    assert_eq!(call(&s, "GET", "/", Some(&"0".repeat(64))).status, 200);
    let head = call(&s, "HEAD", "/", None);
    assert_eq!((head.status, head.body.as_str()), (200, ""));

    let js = call(&s, "GET", "/panel.js", None);
    assert_eq!(js.status, 200);
    assert_eq!(js.header("content-type"), Some("text/javascript; charset=utf-8"));
    assert_eq!(js.header("cache-control"), Some("no-store"));
    assert!(js.body.contains("Authorization") && js.body.contains("sessionStorage"));
    let css = call(&s, "GET", "/panel.css", None);
    assert_eq!(css.status, 200);
    assert_eq!(css.header("content-type"), Some("text/css; charset=utf-8"));

    // The favicon and the chime are served without the token too (a
    // browser asks for /favicon.ico on every load), as real media.
    let icon = call_bytes(&s, "/favicon.ico");
    assert_eq!(icon.0, 200);
    assert_eq!(icon.1.as_deref(), Some("image/x-icon"));
    assert_eq!(&icon.2[..4], &[0, 0, 1, 0], "an ICO header");
    let wav = call_bytes(&s, "/panel.wav");
    assert_eq!((wav.0, wav.1.as_deref()), (200, Some("audio/wav")));
    assert_eq!(&wav.2[..4], b"RIFF");
    // Every file names the same panel version, in its header and its text.
    for path in ["/", "/panel.js", "/panel.css", "/favicon.ico"] {
        let r = call(&s, "GET", path, None);
        assert_eq!(
            r.header("x-asadb-panel-version"),
            page.header("x-asadb-panel-version"),
            "{path}"
        );
    }
    let version = page.header("x-asadb-panel-version").unwrap().to_string();
    for (name, text) in [("page", &page.body), ("script", &js.body), ("style", &css.body)] {
        assert!(
            text.contains(&format!("asadb-panel-version: {version}")),
            "{name} lacks the marker"
        );
    }
}

/// A GET without the token: status, content type, body bytes.
fn call_bytes(s: &Server, path: &str) -> (u16, Option<String>, Vec<u8>) {
    let mut resp = ureq::get(format!("http://{}{path}", s.addr)).call().unwrap();
    let ct = resp.headers().get("content-type").map(|v| v.to_str().unwrap().to_string());
    (resp.status().as_u16(), ct, resp.body_mut().read_to_vec().unwrap())
}

#[test]
fn everything_else_still_needs_the_token() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start(dir.path());
    let wrong = "0".repeat(64);
    let refused = [
        ("GET", "/api/reservoir/jobs"),
        ("GET", "/api/reservoir/stats"),
        ("POST", "/api/reservoir/jobs"),
        ("POST", "/api/query"),
        ("GET", "/metrics"),
        ("GET", "/panelx"),
        ("GET", "/panel/"),
        ("GET", "/panel.js/x"),
        ("GET", "/index.html"),
        ("GET", "/api/unknown"),
        // Other methods on the panel's own paths.
        ("POST", "/"),
        ("PUT", "/panel"),
        ("DELETE", "/panel.js"),
        ("POST", "/panel.css"),
    ];
    for (method, path) in refused {
        for token in [None, Some(wrong.as_str())] {
            let r = call(&s, method, path, token);
            assert_eq!(r.status, 401, "{method} {path} with {token:?}: {r:?}");
            assert_eq!(r.error_code(), "unauthorized");
            assert_eq!(r.header("www-authenticate"), Some("Bearer"));
        }
    }
    // Nothing was admitted by the refused submission.
    let stats = call(&s, "GET", "/api/reservoir/stats", Some(&s.token));
    assert_eq!(stats.status, 200);
    assert!(stats.body.contains("\"active\":0"), "{}", stats.body);
    // With the token: wrong methods on the panel are 405, unknown paths 404.
    let r = call(&s, "POST", "/", Some(&s.token));
    assert_eq!((r.status, r.error_code().as_str()), (405, "method_not_allowed"));
    let r = call(&s, "GET", "/panelx", Some(&s.token));
    assert_eq!((r.status, r.error_code().as_str()), (404, "not_found"));
}

#[test]
fn the_page_references_only_its_own_origin() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start(dir.path());
    let html = call(&s, "GET", "/", None).body;
    let js = call(&s, "GET", "/panel.js", None).body;
    let css = call(&s, "GET", "/panel.css", None).body;
    for (name, text) in [("panel.html", &html), ("panel.js", &js), ("panel.css", &css)] {
        for scheme in ["http://", "https://", "ws://", "wss://"] {
            assert!(!text.contains(scheme), "{name} mentions {scheme}");
        }
        assert!(!text.contains("@import") && !text.contains("url("), "{name} loads more");
    }
    let refs = references(&html);
    assert_eq!(
        refs,
        ["/panel.js", "/panel.wav", "/favicon.ico", "/panel.css"],
        "the page loads exactly its script, chime, icon and style"
    );
    for r in refs {
        assert!(r.starts_with('/') && !r.starts_with("//"), "{r} is not same-origin");
        assert_eq!(call(&s, "GET", &r, None).status, 200, "{r}");
    }
    // Every path the script names is one of this server's API paths ("/s"
    // is the throughput unit and "/" the SQL tokenizer's slash, not paths).
    let mut fetched: Vec<&str> = js
        .match_indices("\"/")
        .map(|(at, _)| {
            let rest = &js[at + 1..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect();
    fetched.sort_unstable();
    fetched.dedup();
    assert!(fetched.contains(&"/api/query"), "{fetched:?}");
    for path in fetched.into_iter().filter(|p| !["/s", "/"].contains(p)) {
        assert!(path.starts_with("/api/"), "the script reaches {path}");
    }
}

/// The served script parses (`node --check`).
#[test]
fn the_served_script_parses() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start(dir.path());
    let js = call(&s, "GET", "/panel.js", None).body;
    let file = dir.path().join("panel.js");
    std::fs::write(&file, js).unwrap();
    let check = Command::new("node")
        .arg("--check")
        .arg(&file)
        .output()
        .expect("node is installed (.ci/run installs it)");
    assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stderr));
}

/// The script's pure parts (routing against the real server, statement
/// splitting, export) in Node: `panel_dom.mjs`.
#[test]
fn the_panel_script_units_pass() {
    let driver = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/panel_dom.mjs");
    let dir = tempfile::tempdir().unwrap();
    let s = Server::spawn(dir.path(), &[]);
    let out = Command::new("node")
        .arg(driver)
        .arg(format!("http://{}", s.addr))
        .arg(&s.token)
        .output()
        .expect("node is installed (.ci/run installs it)");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{report}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(report.contains("all checks passed"), "{report}");
}
