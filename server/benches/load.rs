//! The load test (issue 15): 200 concurrent readers on `/api/query` while
//! a large import runs through the Reservoir, against the real release
//! `asadb serve` on a loopback port.
//!
//! Setup: a small table `r` (1,000 rows) is loaded by a job; then the
//! generated stress script (`CREATE TABLE t`, `BEGIN`, INSERTs of 100 rows,
//! `COMMIT`; `ASADB_LOAD_ROWS` rows, default 500,000) is streamed to
//! `POST /api/reservoir/jobs`. While that job is receiving and running,
//! `ASADB_LOAD_READERS` (default 200) reader tasks each loop over keep-alive
//! connections of an in-repo tokio HTTP/1.1 client (below: one request at
//! a time per connection, `Content-Length` or chunked answers), sending
//! `SELECT id, v FROM r WHERE id = ?` and `SELECT count(*), sum(id) FROM r`
//! and checking each answer (status 200, the right row). Readers stop when
//! the import is durable.
//!
//! Prints: requests, errors, throughput (requests/s), p50/p90/p99/max
//! latency, the import's time and rows/s, the server's peak memory. Exits
//! non-zero if any request failed or the import did not complete — the
//! bar is 0 errors.
//!
//! Run: `cargo bench -p asadb-server --bench load`.

#[path = "../tests/common/stress.rs"]
mod stress;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

use stress::{Server, write_script};

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// A minimal HTTP/1.1 client connection: one request at a time,
/// keep-alive, `Content-Length` or chunked responses.
struct Conn {
    stream: BufReader<TcpStream>,
    addr: String,
    auth: String,
}

impl Conn {
    async fn open(addr: &str, token: &str) -> std::io::Result<Conn> {
        let stream = TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        Ok(Conn {
            stream: BufReader::new(stream),
            addr: addr.to_string(),
            auth: format!("Bearer {token}"),
        })
    }

    /// `POST path` with a JSON body; returns the status and body.
    async fn post(&mut self, path: &str, body: &[u8]) -> std::io::Result<(u16, Vec<u8>)> {
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: {}\r\nAuthorization: {}\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            self.addr,
            self.auth,
            body.len()
        );
        let w = self.stream.get_mut();
        w.write_all(head.as_bytes()).await?;
        w.write_all(body).await?;
        let mut line = String::new();
        if self.stream.read_line(&mut line).await? == 0 {
            return Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "closed"));
        }
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| std::io::Error::other(format!("bad status line {line:?}")))?;
        let mut len = None;
        let mut chunked = false;
        let mut close = false;
        loop {
            line.clear();
            self.stream.read_line(&mut line).await?;
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            if let Some((k, v)) = l.split_once(':') {
                let (k, v) = (k.trim().to_ascii_lowercase(), v.trim());
                if k == "content-length" {
                    len = v.parse::<usize>().ok();
                } else if k == "connection" && v.eq_ignore_ascii_case("close") {
                    close = true;
                } else if k == "transfer-encoding" {
                    chunked = v.eq_ignore_ascii_case("chunked");
                    if !chunked {
                        return Err(std::io::Error::other(format!("transfer coding {v}")));
                    }
                }
            }
        }
        let mut body = Vec::new();
        if chunked {
            loop {
                line.clear();
                self.stream.read_line(&mut line).await?;
                let size = line.trim_end().split(';').next().unwrap_or_default();
                let size = usize::from_str_radix(size.trim(), 16)
                    .map_err(|_| std::io::Error::other(format!("bad chunk size {line:?}")))?;
                if size == 0 {
                    // Trailers, then the empty line.
                    loop {
                        line.clear();
                        self.stream.read_line(&mut line).await?;
                        if line.trim_end().is_empty() {
                            break;
                        }
                    }
                    break;
                }
                let at = body.len();
                body.resize(at + size, 0);
                self.stream.read_exact(&mut body[at..]).await?;
                let mut crlf = [0u8; 2];
                self.stream.read_exact(&mut crlf).await?;
            }
        } else {
            let len = len.ok_or_else(|| std::io::Error::other("no Content-Length"))?;
            body.resize(len, 0);
            self.stream.read_exact(&mut body).await?;
        }
        if close {
            return Err(std::io::Error::new(std::io::ErrorKind::ConnectionAborted, "closed"));
        }
        Ok((status, body))
    }
}

#[derive(Default)]
struct Tally {
    latencies_us: Vec<u64>,
    errors: Vec<String>,
}

async fn reader(
    n: u64,
    addr: String,
    token: String,
    stop: Arc<AtomicBool>,
    total: Arc<AtomicU64>,
) -> Tally {
    let mut t = Tally::default();
    let mut conn: Option<Conn> = None;
    let mut i = n;
    while !stop.load(Ordering::Relaxed) {
        i = i.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let id = (i >> 33) % 1000 + 1;
        let (body, want) = if (i >> 40).is_multiple_of(4) {
            (
                r#"{"sql":"SELECT count(*), sum(id) FROM r"}"#.to_string(),
                "[[1000,500500]]".to_string(),
            )
        } else {
            (
                format!(r#"{{"sql":"SELECT id, v FROM r WHERE id = ?","params":[{id}]}}"#),
                format!(r#"[[{id},"row {id}"]]"#),
            )
        };
        let started = Instant::now();
        let c = match conn.as_mut() {
            Some(c) => c,
            None => match Conn::open(&addr, &token).await {
                Ok(c) => conn.insert(c),
                Err(e) => {
                    t.errors.push(format!("connect: {e}"));
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    continue;
                }
            },
        };
        match c.post("/api/query", body.as_bytes()).await {
            Ok((200, answer)) => {
                let v: serde_json::Value = serde_json::from_slice(&answer).unwrap_or_default();
                let rows = v["rows"].to_string();
                if rows != want {
                    t.errors.push(format!("wrong rows: {rows} for {body}"));
                }
            }
            Ok((status, answer)) => {
                t.errors.push(format!("{status}: {}", String::from_utf8_lossy(&answer)));
            }
            Err(e) => {
                conn = None;
                t.errors.push(format!("request: {e}"));
                continue;
            }
        }
        t.latencies_us.push(started.elapsed().as_micros() as u64);
        total.fetch_add(1, Ordering::Relaxed);
    }
    t
}

fn pct(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i] as f64 / 1000.0
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return; // cargo test --benches asks; nothing to list
    }
    let rows = env_u64("ASADB_LOAD_ROWS", 500_000);
    let readers = env_u64("ASADB_LOAD_READERS", 200);
    let dir = tempfile::tempdir().expect("temp dir");
    let script = write_script(&dir.path().join("import.sql"), rows);
    let server = Server::spawn(&dir.path().join("data"), &[]);
    let client = server.client();

    let mut setup = String::from("CREATE TABLE r(id INTEGER PRIMARY KEY, v TEXT);\n");
    for id in 1..=1000 {
        setup.push_str(&format!("INSERT INTO r VALUES ({id}, 'row {id}');\n"));
    }
    let setup_path = dir.path().join("setup.sql");
    std::fs::write(&setup_path, setup).expect("write setup");
    let id = client.submit_file(&setup_path);
    let j = client.wait_terminal(id, Duration::from_secs(120));
    assert_eq!(j["state"], "completed", "setup: {j}");

    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    let stop = Arc::new(AtomicBool::new(false));
    let total = Arc::new(AtomicU64::new(0));
    let tasks: Vec<_> = (0..readers)
        .map(|n| {
            rt.spawn(reader(
                n,
                server.addr.clone(),
                server.token.clone(),
                stop.clone(),
                total.clone(),
            ))
        })
        .collect();
    let started = Instant::now();
    let id = client.submit_file(&script.path);
    let job = client.wait_terminal(id, Duration::from_secs(3600));
    let import_secs = started.elapsed().as_secs_f64();
    stop.store(true, Ordering::Relaxed);
    let mut all = Tally::default();
    for t in tasks {
        let t = rt.block_on(t).expect("reader task");
        all.latencies_us.extend(t.latencies_us);
        all.errors.extend(t.errors);
    }
    let read_secs = started.elapsed().as_secs_f64();
    all.latencies_us.sort_unstable();
    let n = all.latencies_us.len();
    let hwm = server.vm_hwm_kib();
    println!(
        "load: {readers} readers on /api/query during a {rows}-row import ({} bytes)",
        script.bytes
    );
    println!(
        "import: {} in {import_secs:.2} s ({:.0} rows/s)",
        job["state"],
        rows as f64 / import_secs
    );
    println!(
        "reads: {n} ok, {} errors, {:.0} requests/s; latency ms p50 {:.2} p90 {:.2} p99 {:.2} max {:.2}",
        all.errors.len(),
        n as f64 / read_secs,
        pct(&all.latencies_us, 0.50),
        pct(&all.latencies_us, 0.90),
        pct(&all.latencies_us, 0.99),
        pct(&all.latencies_us, 1.0),
    );
    println!("server peak memory: {} MiB", hwm / 1024);
    for e in all.errors.iter().take(10) {
        println!("error: {e}");
    }
    let bad = !all.errors.is_empty() || job["state"] != "completed" || n == 0;
    drop(server);
    if bad {
        eprintln!("load: FAILED (errors, no reads, or the import did not complete)");
        std::process::exit(1);
    }
}
