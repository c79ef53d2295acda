//! A small HTTP client for the tests that attack the real binary: typed
//! responses through `ureq` where the request is well-formed, and raw
//! `TcpStream`s where the test must control every byte on the wire.
#![allow(dead_code)] // each test binary uses its own part of it

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::server::Server;

/// A response: status, headers (lower-case names), body.
#[derive(Debug)]
pub struct Resp {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Resp {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {:?} (status {})", self.body, self.status))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// The `code` of the documented error body (checking its shape).
    pub fn error_code(&self) -> String {
        let v = self.json();
        let err = &v["error"];
        assert!(err["message"].is_string(), "{v}");
        assert!(err["retryable"].is_boolean(), "{v}");
        err["code"].as_str().unwrap_or_else(|| panic!("no code: {v}")).to_string()
    }

    pub fn retryable(&self) -> bool {
        self.json()["error"]["retryable"].as_bool().expect("retryable")
    }
}

pub fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(120)))
        .build()
        .into()
}

impl Server {
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// One request with the server's token, extra headers and a body.
    pub fn call(&self, method: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) -> Resp {
        let auth = format!("Bearer {}", self.token);
        let all: Vec<(&str, &str)> = std::iter::once(("Authorization", auth.as_str()))
            .chain(headers.iter().copied())
            .collect();
        self.call_raw_headers(method, path, &all, body)
    }

    /// One request with exactly `headers` (no token unless given).
    pub fn call_raw_headers(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Resp {
        let mut b = ureq::http::Request::builder().method(method).uri(self.url(path));
        for (k, v) in headers {
            b = b.header(*k, *v);
        }
        let req = b.body(body.to_vec()).unwrap();
        let mut resp = agent().run(req).unwrap_or_else(|e| panic!("{method} {path}: {e}"));
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

    pub fn get(&self, path: &str) -> Resp {
        self.call("GET", path, &[], b"")
    }

    pub fn post(&self, path: &str, body: &[u8]) -> Resp {
        self.call("POST", path, &[], body)
    }

    pub fn submit(&self, headers: &[(&str, &str)], body: &[u8]) -> Resp {
        self.call("POST", "/api/reservoir/jobs", headers, body)
    }

    pub fn query(&self, body: Value) -> Resp {
        self.post("/api/query", body.to_string().as_bytes())
    }

    /// The rows of a read-only query (one page), panicking on an error.
    pub fn rows(&self, sql: &str) -> Vec<Value> {
        let r = self.query(serde_json::json!({ "sql": sql }));
        assert_eq!(r.status, 200, "{sql}: {r:?}");
        r.json()["rows"].as_array().unwrap().clone()
    }

    pub fn job(&self, id: u64) -> Value {
        let r = self.get(&format!("/api/reservoir/job?id={id}"));
        assert_eq!(r.status, 200, "{r:?}");
        r.json()
    }

    /// Waits until job `id` satisfies `done`.
    pub fn wait_job(&self, id: u64, what: &str, done: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let j = self.job(id);
            if done(&j) {
                return j;
            }
            assert!(Instant::now() < deadline, "job {id} never {what}: {j}\n{}", self.stderr());
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn wait_state(&self, id: u64, state: &str) -> Value {
        self.wait_job(id, &format!("became {state}"), |j| j["state"] == state)
    }

    pub fn wait_terminal(&self, id: u64) -> Value {
        self.wait_job(id, "ended", |j| {
            !matches!(
                j["state"].as_str(),
                Some("receiving" | "queued" | "processing" | "cancelling")
            )
        })
    }

    /// A raw connection with `head` (request line and headers, ending in
    /// an empty line) already written.
    pub fn raw(&self, head: &str) -> TcpStream {
        let mut sock = TcpStream::connect(&self.addr).unwrap();
        sock.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        sock.write_all(head.as_bytes()).unwrap();
        sock
    }

    /// A request head for `POST path` with the token and `extra` headers.
    pub fn head(&self, method: &str, path: &str, extra: &str) -> String {
        format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {}\r\n{extra}\r\n",
            self.addr, self.token
        )
    }

    pub fn metrics(&self) -> String {
        let r = self.get("/metrics");
        assert_eq!(r.status, 200, "{r:?}");
        r.body
    }
}

/// Reads one HTTP/1.1 response from a raw socket: the head, then a body of
/// `Content-Length` bytes (or until the server closes).
pub fn read_response(sock: &mut TcpStream) -> Resp {
    let mut data = Vec::new();
    let mut buf = [0u8; 8192];
    let head_end = loop {
        if let Some(p) = data.windows(4).position(|w| w == b"\r\n\r\n") {
            break p + 4;
        }
        match sock.read(&mut buf) {
            Ok(0) => panic!("connection closed before a response head: {:?}", lossy(&data)),
            Ok(n) => data.extend_from_slice(&buf[..n]),
            Err(e) => panic!("no response ({e}): {:?}", lossy(&data)),
        }
    };
    let head = lossy(&data[..head_end]);
    let mut lines = head.split("\r\n");
    let status = lines.next().and_then(|l| l.split(' ').nth(1)).and_then(|s| s.parse().ok());
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let length = headers
        .iter()
        .find(|(k, _)| k == "content-length")
        .and_then(|(_, v)| v.parse::<usize>().ok());
    let mut body = data[head_end..].to_vec();
    loop {
        if length.is_some_and(|n| body.len() >= n) {
            break;
        }
        match sock.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => body.extend_from_slice(&buf[..n]),
        }
    }
    Resp { status: status.unwrap_or(0), headers, body: lossy(&body) }
}

/// True when the server closed the connection (EOF or reset) within `wait`.
pub fn closed_within(sock: &mut TcpStream, wait: Duration) -> bool {
    sock.set_read_timeout(Some(wait)).unwrap();
    let mut buf = [0u8; 1024];
    let deadline = Instant::now() + wait;
    loop {
        match sock.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return false;
            }
            Err(_) => return true,
        }
        if Instant::now() > deadline {
            return false;
        }
    }
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}
