//! `GET /api/reservoir/events` and the live job fields, end to end on the
//! real binary, with curl as the client (a real SSE client: it reads the
//! chunked stream as it comes, like a browser's `fetch`).
//!
//! Scenarios and the invariants they pin:
//! - the all-jobs stream opens with the active list and stats, then sends
//!   every state a job passes through, in order, and its progress at most
//!   every 100 ms;
//! - a one-job stream: unknown id 404, bad parameters 400, no token 401
//!   (before any stream starts); the job's own job events only;
//! - a graceful restart mid-stream ends the stream cleanly, a crash
//!   breaks it; the client that reconnects to the new server gets the
//!   job's current snapshot first (completed, or interrupted after the
//!   crash), then every state of its resumed run;
//! - `received_bytes` is live during a declared-size curl upload (in the
//!   job, the active list, the stats and the stream), and `updated_at` is
//!   live while one long statement runs.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

#[path = "common/server.rs"]
mod server;

use server::Server;

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder().http_status_as_error(false).build().into()
}

/// One request with the server's token: (status, JSON body).
fn call(s: &Server, method: &str, path: &str, body: &[u8]) -> (u16, Value) {
    let req = ureq::http::Request::builder()
        .method(method)
        .uri(format!("http://{}{path}", s.addr))
        .header("Authorization", format!("Bearer {}", s.token))
        .body(body.to_vec())
        .unwrap();
    let mut resp = agent().run(req).unwrap_or_else(|e| panic!("{method} {path}: {e}"));
    let status = resp.status().as_u16();
    let text = resp.body_mut().read_to_string().unwrap();
    (status, serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}: {text:?}")))
}

fn get(s: &Server, path: &str) -> Value {
    let (status, v) = call(s, "GET", path, b"");
    assert_eq!(status, 200, "{path}: {v}");
    v
}

/// Submits a script with its fingerprint stated (`X-AsaDB-Content-SHA256`),
/// so the job is `queued` at once (without it the job stays `receiving`
/// until its connection's close check).
fn submit(s: &Server, script: &str) -> u64 {
    let sha = server::sha256_hex(script.as_bytes());
    let req = ureq::http::Request::builder()
        .method("POST")
        .uri(format!("http://{}/api/reservoir/jobs", s.addr))
        .header("Authorization", format!("Bearer {}", s.token))
        .header("X-AsaDB-Content-SHA256", sha)
        .body(script.as_bytes().to_vec())
        .unwrap();
    let mut resp = agent().run(req).unwrap_or_else(|e| panic!("submit: {e}"));
    let status = resp.status().as_u16();
    let text = resp.body_mut().read_to_string().unwrap();
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text:?}"));
    assert_eq!(status, 201, "{v}");
    v["id"].as_u64().unwrap()
}

/// One received event.
#[derive(Debug, Clone)]
struct Ev {
    name: String,
    data: Value,
    at: Instant,
}

/// curl reading an event stream; killed when dropped.
struct Stream {
    child: Child,
    rx: mpsc::Receiver<Ev>,
}

impl Stream {
    fn open(s: &Server, query: &str) -> Stream {
        let mut child = Command::new("curl")
            .args(["-sS", "-N", "--fail-with-body", "-H"])
            .arg(format!("Authorization: Bearer {}", s.token))
            .arg(format!("http://{}/api/reservoir/events{query}", s.addr))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("curl is installed (.ci/run installs it)");
        let out = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let (mut name, mut data) = (String::new(), String::new());
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                if line.is_empty() {
                    if !data.is_empty() {
                        let ev = Ev {
                            name: std::mem::take(&mut name),
                            data: serde_json::from_str(&data).expect("event data is JSON"),
                            at: Instant::now(),
                        };
                        if tx.send(ev).is_err() {
                            return;
                        }
                    }
                    name.clear();
                    data.clear();
                } else if let Some(v) = line.strip_prefix("event: ") {
                    name = v.to_string();
                } else if let Some(v) = line.strip_prefix("data: ") {
                    data.push_str(v);
                }
            }
        });
        Stream { child, rx }
    }

    /// The next event within `within`, or `None` when the stream ended.
    fn next(&self, within: Duration) -> Option<Ev> {
        match self.rx.recv_timeout(within) {
            Ok(ev) => Some(ev),
            Err(mpsc::RecvTimeoutError::Disconnected) => None,
            Err(mpsc::RecvTimeoutError::Timeout) => panic!("no event within {within:?}"),
        }
    }

    /// Events until `done` holds for one (included) or the stream ends.
    fn until(&self, mut done: impl FnMut(&Ev) -> bool) -> Vec<Ev> {
        let mut out = Vec::new();
        while let Some(ev) = self.next(Duration::from_secs(30)) {
            let stop = done(&ev);
            out.push(ev);
            if stop {
                break;
            }
        }
        out
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The states of job `id` in `events`, consecutive repeats removed.
fn states(events: &[Ev], id: u64) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for e in events.iter().filter(|e| e.name == "job" && e.data["id"] == id) {
        let s = e.data["state"].as_str().unwrap().to_string();
        if out.last() != Some(&s) {
            out.push(s);
        }
    }
    out
}

/// A statement that runs for a while (a counter CTE).
fn counter(n: u64) -> String {
    format!(
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < {n}) \
         SELECT count(*) FROM c;\n"
    )
}

#[test]
fn the_stream_sends_every_state_in_order_and_paced_progress() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::spawn(dir.path(), &[]);
    let stream = Stream::open(&s, "");
    let opening = stream.until(|e| e.name == "stats");
    assert_eq!(opening[0].name, "jobs", "{opening:?}");
    assert_eq!(opening[0].data, serde_json::json!({ "jobs": [] }));

    let script = format!("CREATE TABLE t(a);\n{}", counter(400_000).repeat(8));
    let id = submit(&s, &script);
    let events = stream.until(|e| e.name == "job" && e.data["state"] == "completed");
    assert_eq!(states(&events, id), ["receiving", "queued", "processing", "completed"]);
    // Progress arrives while processing, growing, and paced per job.
    let running: Vec<&Ev> =
        events.iter().filter(|e| e.name == "job" && e.data["state"] == "processing").collect();
    assert!(running.len() >= 3, "too few progress events: {running:?}");
    let done: Vec<u64> =
        running.iter().map(|e| e.data["progress"]["statements_done"].as_u64().unwrap()).collect();
    assert!(done.windows(2).all(|w| w[0] <= w[1]), "{done:?}");
    for pair in running.windows(2).skip(1) {
        // 100 ms apart at the server; a little less is arrival jitter.
        let gap = pair[1].at - pair[0].at;
        assert!(gap >= Duration::from_millis(80), "progress events {gap:?} apart");
    }
    let last = &events.last().unwrap().data;
    assert_eq!(last["progress"]["statements_done"], 9, "{last}");
    // The stats followed along: at some point one job was processing (the
    // job runs for seconds, stats are paced at 500 ms: a loaded machine
    // still sees one).
    let stats: Vec<&Ev> = events.iter().filter(|e| e.name == "stats").collect();
    assert!(stats.iter().any(|e| e.data["by_state"]["processing"] == 1), "{stats:?}");
}

#[test]
fn a_one_job_stream_checks_its_request_first() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::spawn(dir.path(), &["--no-worker"]);
    for (query, status, code) in [
        ("?id=99", 404, "not_found"),
        ("?id=abc", 400, "invalid_input"),
        ("?id=0", 400, "invalid_input"),
        ("?job=1", 400, "invalid_input"),
    ] {
        let (got, body) = call(&s, "GET", &format!("/api/reservoir/events{query}"), b"");
        assert_eq!((got, body["error"]["code"].as_str()), (status, Some(code)), "{query}");
    }
    let unauth = agent().get(format!("http://{}/api/reservoir/events", s.addr)).call().unwrap();
    assert_eq!(unauth.status().as_u16(), 401);

    let a = submit(&s, "SELECT 1;");
    let b = submit(&s, "SELECT 2;");
    let stream = Stream::open(&s, &format!("?id={a}"));
    let first = stream.next(Duration::from_secs(10)).unwrap();
    assert_eq!((first.name.as_str(), &first.data["id"]), ("job", &Value::from(a)));
    assert_eq!(first.data["state"], "queued");
    // Another job's change is not sent; this job's cancel is.
    call(&s, "POST", &format!("/api/reservoir/cancel?id={b}"), b"");
    call(&s, "POST", &format!("/api/reservoir/cancel?id={a}"), b"");
    let ev = stream.next(Duration::from_secs(10)).unwrap();
    assert_eq!((ev.data["id"].as_u64(), ev.data["state"].as_str()), (Some(a), Some("cancelled")));
}

/// Submits a job of `n` statements of a second or so in all, and waits
/// until it runs.
fn start_long_job(s: &Server, n: usize) -> u64 {
    let id = submit(s, &format!("CREATE TABLE t(a);\n{}", counter(200_000).repeat(n)));
    let deadline = Instant::now() + Duration::from_secs(30);
    while get(s, &format!("/api/reservoir/job?id={id}"))["state"] != "processing" {
        assert!(Instant::now() < deadline, "job {id} never started");
        std::thread::sleep(Duration::from_millis(10));
    }
    id
}

#[test]
fn a_graceful_restart_mid_stream_ends_it_and_a_reconnect_rereads_the_job() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::spawn(dir.path(), &[]);
    let id = start_long_job(&s, 10);
    let stream = Stream::open(&s, &format!("?id={id}"));
    let first = stream.next(Duration::from_secs(10)).unwrap();
    assert_eq!(first.data["state"], "processing");
    // The server stops under the stream: the stream ends at once (the
    // shutdown then lets the worker finish the job's batch).
    let status = s.terminate();
    assert!(status.success(), "{status:?}");
    let rest = stream.until(|_| false);
    assert!(rest.iter().all(|e| e.data["id"] == id), "{rest:?}");
    // A reconnect to the new server starts from the job as it holds it.
    let s = Server::spawn(dir.path(), &[]);
    let again = Stream::open(&s, &format!("?id={id}"));
    let first = again.next(Duration::from_secs(10)).unwrap();
    assert_eq!(first.data, get(&s, &format!("/api/reservoir/job?id={id}")), "the current snapshot");
    assert_eq!(first.data["state"], "completed");
}

#[test]
fn a_crash_mid_stream_breaks_it_and_a_reconnect_follows_the_resumed_job() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::spawn(dir.path(), &[]);
    let id = start_long_job(&s, 400);
    let stream = Stream::open(&s, &format!("?id={id}"));
    assert_eq!(stream.next(Duration::from_secs(10)).unwrap().data["state"], "processing");
    // SAFETY: kill(2) on our own child's pid has no memory effects.
    assert_eq!(unsafe { libc::kill(s.pid() as libc::pid_t, libc::SIGKILL) }, 0);
    drop(s);
    stream.until(|_| false);

    let s = Server::spawn(dir.path(), &[]);
    let stream = Stream::open(&s, &format!("?id={id}"));
    // The reconnect's first event is the job as the new server holds it.
    let first = stream.next(Duration::from_secs(10)).unwrap();
    assert_eq!(first.data["state"], "interrupted", "{}", first.data);
    let (status, v) = call(&s, "POST", &format!("/api/reservoir/resume?id={id}"), b"");
    assert_eq!(status, 200, "{v}");
    // Cancel it once it runs again: every state, in order, on the stream.
    let running = stream.until(|e| e.data["state"] == "processing");
    call(&s, "POST", &format!("/api/reservoir/cancel?id={id}"), b"");
    let mut events = running;
    events.extend(stream.until(|e| e.data["state"] == "cancelled"));
    assert_eq!(states(&events, id), ["queued", "processing", "cancelling", "cancelled"]);
}

#[test]
fn received_bytes_is_live_during_a_declared_size_curl_upload() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::spawn(dir.path(), &["--no-worker"]);
    let body = dir.path().join("body.sql");
    let declared: u64 = 600 << 10;
    std::fs::write(&body, vec![b' '; declared as usize]).unwrap();
    let stream = Stream::open(&s, "");
    stream.until(|e| e.name == "stats");
    // curl sends Content-Length; --limit-rate keeps it receiving a while.
    let mut curl = Command::new("curl")
        .args(["-sS", "-o", "/dev/null", "--limit-rate", "200K", "-H"])
        .arg(format!("Authorization: Bearer {}", s.token))
        .arg("--data-binary")
        .arg(format!("@{}", body.display()))
        .arg(format!("http://{}/api/reservoir/jobs", s.addr))
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut partial = None;
    while partial.is_none() {
        assert!(Instant::now() < deadline, "never saw a partial upload");
        let jobs = get(&s, "/api/reservoir/jobs");
        if let Some(j) = jobs["jobs"].as_array().unwrap().first() {
            let got = j["received_bytes"].as_u64().unwrap();
            if j["state"] == "receiving" && got > 0 && got < declared {
                assert_eq!(j["declared_size"], declared);
                let one = get(&s, &format!("/api/reservoir/job?id={}", j["id"]));
                assert!(one["received_bytes"].as_u64().unwrap() >= got, "{one}");
                let stats = get(&s, "/api/reservoir/stats");
                assert!(stats["received_bytes"].as_u64().unwrap() >= got, "{stats}");
                partial = Some(got);
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(curl.wait().unwrap().success());
    // The stream showed the bytes growing while receiving.
    let events = stream.until(|e| e.name == "job" && e.data["state"] == "queued");
    let growing: Vec<u64> = events
        .iter()
        .filter(|e| e.name == "job" && e.data["state"] == "receiving")
        .map(|e| e.data["received_bytes"].as_u64().unwrap())
        .collect();
    assert!(growing.iter().filter(|&&b| b > 0 && b < declared).count() >= 2, "{growing:?}");
    assert!(growing.windows(2).all(|w| w[0] <= w[1]), "{growing:?}");
    assert_eq!(events.last().unwrap().data["received_bytes"], declared);
}

#[test]
fn updated_at_is_live_while_a_long_statement_runs() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::spawn(dir.path(), &[]);
    let id = submit(&s, &counter(4_000_000));
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut stamps = Vec::new();
    loop {
        let job = get(&s, &format!("/api/reservoir/job?id={id}"));
        if job["state"] == "processing" {
            let at = job["updated_at"].as_u64().unwrap();
            stamps.push(at);
            let stats = get(&s, "/api/reservoir/stats");
            match stats["updated_at"].as_u64() {
                Some(live) => assert!(live >= at, "{stats}"),
                // `null` only once no job is active: it ended between the
                // two requests.
                None => {
                    let again = get(&s, &format!("/api/reservoir/job?id={id}"));
                    assert_eq!(again["state"], "completed", "{stats} {again}");
                }
            }
            let list = get(&s, "/api/reservoir/jobs");
            assert!(list["jobs"][0]["updated_at"].as_u64().unwrap() >= at, "{list}");
        } else if job["state"] != "queued" && job["state"] != "receiving" {
            // (`receiving` until the upload's connection close check.)
            assert_eq!(job["state"], "completed", "{job}");
            break;
        }
        assert!(Instant::now() < deadline);
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(stamps.len() >= 3, "too short to observe: {stamps:?}");
    assert!(stamps.last() > stamps.first(), "updated_at froze: {stamps:?}");
    // Its one statement's run time is in the result.
    let page = get(&s, &format!("/api/reservoir/result?id={id}"));
    assert!(page["statement"]["elapsed_ms"].as_f64().unwrap() > 0.0, "{page}");
}
