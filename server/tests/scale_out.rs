//! Several `asadb serve --backend postgres://…` processes on loopback, one
//! PostgreSQL database (a real server: `reservoir-pg/tests/support/
//! cluster.rs`), one shared token.
//!
//! Invariants pinned here:
//! - any front-end serves any job: submit on one, watch, page the result
//!   and cancel on another;
//! - a SIGKILLed executor's job is marked `interrupted` by another process
//!   within the lease time, never replayed, and `resume` through a third
//!   front-end completes it with exactly the script's rows;
//! - the event stream of a front-end that executes nothing follows the
//!   jobs another runs (from the same NOTIFY stream): every state in
//!   order, progress while processing;
//! - 50 concurrent submissions spread over three front-ends never exceed
//!   the global caps (counted from the durable rows while they run), and
//!   after everything ends `asadb reservoir reconcile` finds the counters
//!   exactly zero and correct.

#[path = "../../reservoir-pg/tests/support/cluster.rs"]
mod cluster;
#[path = "common/server.rs"]
mod server;

use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;
use server::{BIN, Server};

const TOKEN: &str = "5ca1ab1e5ca1ab1e5ca1ab1e5ca1ab1e5ca1ab1e5ca1ab1e5ca1ab1e5ca1ab1e";
const LEASE_SECONDS: u64 = 2;

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

/// A new database and its URL.
fn database() -> String {
    rt().block_on(cluster::fresh_database())
}

/// Integers of the one row of `sql` in the database.
fn ints(url: &str, sql: &str) -> Vec<i64> {
    rt().block_on(async {
        let c = cluster::connect(url).await;
        let row = c.query_one(sql, &[]).await.unwrap_or_else(|e| panic!("{sql}: {e}"));
        (0..row.len()).map(|i| row.get::<_, i64>(i)).collect()
    })
}

/// A front-end on the shared backend, with the shared token.
fn front_end(dir: &Path, name: &str, url: &str, extra: &[&str]) -> Server {
    let data = dir.join(name);
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(data.join("panel.token"), format!("{TOKEN}\n")).unwrap();
    let lease = LEASE_SECONDS.to_string();
    let args =
        [&["--backend", url, "--backend-lease-seconds", &lease, "--backend-pool-size", "4"], extra]
            .concat();
    Server::spawn(&data, &args)
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder().http_status_as_error(false).build().into()
}

fn call(
    s: &Server,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> (u16, Value) {
    let mut b = ureq::http::Request::builder()
        .method(method)
        .uri(format!("http://{}{path}", s.addr))
        .header("Authorization", format!("Bearer {TOKEN}"));
    for (k, v) in headers {
        b = b.header(*k, *v);
    }
    let mut resp = agent()
        .run(b.body(body.to_vec()).unwrap())
        .unwrap_or_else(|e| panic!("{method} {path}: {e}; stderr:\n{}", s.stderr()));
    let status = resp.status().as_u16();
    let text = resp.body_mut().read_to_string().unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
}

fn job(s: &Server, id: u64) -> Value {
    let (status, v) = call(s, "GET", &format!("/api/reservoir/job?id={id}"), &[], b"");
    assert_eq!(status, 200, "{v}");
    v
}

fn wait(s: &Server, id: u64, within: Duration, what: &str, f: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + within;
    loop {
        let j = job(s, id);
        if f(&j) {
            return j;
        }
        assert!(Instant::now() < deadline, "job {id} never {what}: {j}\n{}", s.stderr());
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn terminal(j: &Value) -> bool {
    matches!(
        j["state"].as_str(),
        Some("completed" | "delivered" | "cancelled" | "failed" | "interrupted")
    )
}

fn submit(s: &Server, script: &str) -> u64 {
    let (status, v) = call(s, "POST", "/api/reservoir/jobs", &[], script.as_bytes());
    assert_eq!(status, 201, "{v}");
    v["id"].as_u64().unwrap()
}

fn inserts(table: &str, rows: u64) -> String {
    let mut s = format!("CREATE TABLE {table}(id integer PRIMARY KEY, v text);\n");
    for i in 1..=rows {
        s.push_str(&format!("INSERT INTO {table} VALUES ({i}, 'v{i}');\n"));
    }
    s
}

#[test]
fn any_front_end_serves_any_job() {
    let url = database();
    let dir = tempfile::tempdir().unwrap();
    let a = front_end(dir.path(), "a", &url, &["--no-worker"]);
    let _b = front_end(dir.path(), "b", &url, &[]);
    let c = front_end(dir.path(), "c", &url, &["--no-worker"]);

    // Submitted on A, executed by B (the only worker), watched and read on C.
    let id = submit(
        &a,
        "CREATE TABLE t(a integer, b text);\nINSERT INTO t SELECT g, 'r' || g FROM generate_series(1, 600) g;\nSELECT a, b FROM t ORDER BY a;\n",
    );
    let done = wait(&c, id, Duration::from_secs(60), "completed", terminal);
    assert_eq!(done["state"], "completed", "{done}");
    assert_eq!(done["progress"]["rows_affected"], 600);
    let (status, page) =
        call(&c, "GET", &format!("/api/reservoir/result?id={id}&statement=2&offset=500"), &[], b"");
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["rows"][0], serde_json::json!([501, "r501"]));
    assert_eq!(page["rows"].as_array().unwrap().len(), 100);
    assert_eq!(job(&a, id)["state"], "delivered", "one state, seen from every front-end");
    // /api/query reads the backend's database from any front-end.
    let (status, q) = call(
        &a,
        "POST",
        "/api/query",
        &[],
        br#"{"sql": "SELECT count(*) FROM t WHERE a > $1", "params": [100]}"#,
    );
    assert_eq!(status, 200, "{q}");
    assert_eq!(q["rows"], serde_json::json!([[500]]));
    let (status, q) = call(&a, "POST", "/api/query", &[], br#"{"sql": "DELETE FROM t"}"#);
    assert_eq!(status, 400, "{q}");
    assert_eq!(q["error"]["code"], "invalid_input");

    // A long job submitted on C is cancelled from A while B runs it.
    let id = submit(
        &c,
        "CREATE TABLE big(x integer);\nINSERT INTO big SELECT g FROM generate_series(1, 3000) g;\nINSERT INTO big SELECT a.x FROM big a, big b, big c;\n",
    );
    wait(&a, id, Duration::from_secs(60), "processing", |j| j["state"] == "processing");
    std::thread::sleep(Duration::from_millis(300));
    let (status, v) = call(&a, "POST", &format!("/api/reservoir/cancel?id={id}"), &[], b"");
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["state"], "cancelling");
    let end = wait(&c, id, Duration::from_secs(30), "cancelled", terminal);
    assert_eq!(end["state"], "cancelled", "{end}");
    assert_eq!(ints(&url, "SELECT count(*) FROM pg_tables WHERE tablename = 'big'"), [0]);

    // Stats agree across front-ends.
    let (_, sa) = call(&a, "GET", "/api/reservoir/stats", &[], b"");
    let (_, sc) = call(&c, "GET", "/api/reservoir/stats", &[], b"");
    assert_eq!(sa["by_state"], sc["by_state"]);
    assert_eq!(sa["reserved_bytes"], 0);
}

/// `--max-page-bytes` and `--max-value-bytes` bound the PostgreSQL
/// backend's result pages and `/api/query` pages as they do the embedded
/// engine's: the page ends early and says so, the next offset continues, a
/// row larger than a page is a 413.
#[test]
fn pages_obey_the_byte_limits_on_the_backend() {
    let url = database();
    let dir = tempfile::tempdir().unwrap();
    let limits = ["--max-page-bytes", "1000", "--max-value-bytes", "300"];
    let a = front_end(dir.path(), "a", &url, &limits);
    let script = "CREATE TABLE t(a int, b text);\n\
                  INSERT INTO t SELECT i, repeat('x', 90) FROM generate_series(0, 39) i;\n\
                  SELECT a, b FROM t ORDER BY a;\n";
    let id = submit(&a, script);
    let j = wait(&a, id, Duration::from_secs(60), "completed", terminal);
    assert_eq!(j["state"], "completed", "{j}");
    let mut offset = 0u64;
    let mut seen = 0u64;
    loop {
        let path = format!("/api/reservoir/result?id={id}&statement=2&offset={offset}");
        let (status, page) = call(&a, "GET", &path, &[], b"");
        assert_eq!(status, 200, "{page}");
        let n = page["rows"].as_array().unwrap().len() as u64;
        assert!((1..=10).contains(&n), "{page}");
        assert_eq!(page["rows"][0][0], serde_json::json!(seen));
        seen += n;
        match page["next_offset"].as_u64() {
            Some(next) => {
                assert_eq!(page["ended_early"], "max_page_bytes", "{page}");
                offset = next;
            }
            None => break,
        }
    }
    assert_eq!(seen, 40);
    let query = |sql: &str, offset: u64| {
        let body = serde_json::json!({"sql": sql, "offset": offset}).to_string();
        call(&a, "POST", "/api/query", &[("Content-Type", "application/json")], body.as_bytes())
    };
    let (status, page) = query("SELECT a, b FROM t ORDER BY a", 0);
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["ended_early"], "max_page_bytes", "{page}");
    assert_eq!(page["next_offset"], serde_json::json!(page["rows"].as_array().unwrap().len()));
    let (status, page) = query("SELECT a FROM t ORDER BY a", 0);
    assert_eq!(status, 200, "{page}");
    assert_eq!((page["rows"].as_array().unwrap().len(), &page["ended_early"]), (40, &Value::Null));
    let (status, page) = query("SELECT b, b, b, b, b, b, b, b, b, b, b FROM t", 0);
    assert_eq!(status, 413, "{page}");
    let (status, page) = query("SELECT repeat('y', 400)", 0);
    assert_eq!(status, 413, "{page}");
}

#[test]
fn a_killed_executor_is_interrupted_and_resumed_through_a_third_front_end() {
    const ROWS: u64 = 60_000;
    let url = database();
    let dir = tempfile::tempdir().unwrap();
    let a = front_end(dir.path(), "a", &url, &["--no-worker"]);
    let b = front_end(dir.path(), "b", &url, &[]);
    let id = submit(&a, &inserts("t", ROWS));
    let _ = &b;
    // B executes it; kill B mid-batch (a snapshot with statements done but
    // not yet committed).
    let seen = wait(&a, id, Duration::from_secs(120), "mid-batch", |j| {
        let p = &j["progress"];
        let (done, committed) =
            (p["statements_done"].as_u64().unwrap(), p["statements_committed"].as_u64().unwrap());
        assert_ne!(j["state"], "completed", "the job ended before it could be killed");
        done >= 5_000 && done - committed >= 100
    });
    let owner = ints(
        &url,
        &format!("SELECT split_part(owner, ':', 2)::bigint FROM asadb.jobs WHERE id = {id}"),
    );
    assert_eq!(owner[0] as u32, b.pid(), "B executes the job");
    let killed_at = Instant::now();
    // SAFETY: kill(2) on our own child's pid has no memory effects.
    assert_eq!(unsafe { libc::kill(b.pid() as libc::pid_t, libc::SIGKILL) }, 0);
    // Another process (A here) marks it interrupted once B's lease expires.
    let j = wait(&a, id, Duration::from_secs(LEASE_SECONDS + 10), "interrupted", terminal);
    let took = killed_at.elapsed();
    assert_eq!(j["state"], "interrupted", "{j}");
    assert!(
        took < Duration::from_secs(LEASE_SECONDS) + Duration::from_secs(3),
        "interrupted {took:?} after the kill (lease {LEASE_SECONDS} s)"
    );
    let marker =
        ints(&url, &format!("SELECT statement FROM asadb.progress WHERE job_id = {id}"))[0];
    let rows = ints(&url, "SELECT count(*) FROM t")[0];
    assert_eq!(rows, marker - 1, "exactly the committed batches survive");
    assert!(marker as u64 >= seen["progress"]["statements_committed"].as_u64().unwrap());
    // Never replayed on its own, even with a worker around.
    let c = front_end(dir.path(), "c", &url, &[]);
    std::thread::sleep(Duration::from_millis(800));
    assert_eq!(job(&c, id)["state"], "interrupted");
    assert_eq!(ints(&url, "SELECT count(*) FROM t")[0], rows);
    // Resume through a third front-end: exactly once.
    let (status, v) = call(&c, "POST", &format!("/api/reservoir/resume?id={id}"), &[], b"");
    assert_eq!(status, 200, "{v}");
    let done = wait(&c, id, Duration::from_secs(120), "completed", terminal);
    assert_eq!(done["state"], "completed", "{done}");
    assert_eq!(done["progress"]["statements_committed"], ROWS + 1);
    assert_eq!(
        ints(
            &url,
            "SELECT count(*), count(DISTINCT id), min(id)::bigint, max(id)::bigint, sum(id)::bigint FROM t"
        ),
        [ROWS as i64, ROWS as i64, 1, ROWS as i64, (ROWS * (ROWS + 1) / 2) as i64]
    );
    let (status, v) = call(&a, "POST", &format!("/api/reservoir/resume?id={id}"), &[], b"");
    assert_eq!((status, v["error"]["code"].as_str()), (409, Some("invalid_state")), "once");
    drop(b);
}

#[test]
fn fifty_concurrent_submissions_never_exceed_the_global_caps() {
    const MAX_JOBS: i64 = 6;
    const MAX_BYTES: i64 = 4 << 20;
    let url = database();
    let dir = tempfile::tempdir().unwrap();
    let caps = ["--reservoir-max-jobs", "6", "--reservoir-max-spool-bytes", "4194304"];
    let servers: Vec<Arc<Server>> = vec![
        Arc::new(front_end(dir.path(), "a", &url, &[&caps[..], &["--no-worker"]].concat())),
        Arc::new(front_end(dir.path(), "b", &url, &caps)),
        Arc::new(front_end(dir.path(), "c", &url, &[&caps[..], &["--no-worker"]].concat())),
    ];
    // Count what the durable rows say, all along.
    let stop = Arc::new(AtomicBool::new(false));
    let most_jobs = Arc::new(AtomicU64::new(0));
    let most_bytes = Arc::new(AtomicU64::new(0));
    let monitor = {
        let (url, stop, mj, mb) =
            (url.clone(), stop.clone(), most_jobs.clone(), most_bytes.clone());
        std::thread::spawn(move || {
            rt().block_on(async {
                let c = cluster::connect(&url).await;
                while !stop.load(Ordering::SeqCst) {
                    let row = c
                        .query_one(
                            "SELECT count(*) FILTER (WHERE state IN ('receiving', 'queued', 'processing', 'cancelling')), \
                             COALESCE(sum(reserved_bytes), 0)::bigint FROM asadb.jobs",
                            &[],
                        )
                        .await
                        .unwrap();
                    mj.fetch_max(row.get::<_, i64>(0) as u64, Ordering::SeqCst);
                    mb.fetch_max(row.get::<_, i64>(1) as u64, Ordering::SeqCst);
                    let cap = c
                        .query_one(
                            "SELECT max(used) FILTER (WHERE name = 'active_jobs'), \
                             max(used) FILTER (WHERE name = 'spool_bytes') FROM asadb.capacity",
                            &[],
                        )
                        .await
                        .unwrap();
                    assert!(cap.get::<_, i64>(0) <= MAX_JOBS && cap.get::<_, i64>(1) <= MAX_BYTES);
                    tokio::time::sleep(Duration::from_millis(2)).await;
                }
            })
        })
    };
    let refused = Arc::new(AtomicU64::new(0));
    let clients: Vec<_> = (0..50)
        .map(|i| {
            let s = servers[i % 3].clone();
            let refused = refused.clone();
            std::thread::spawn(move || {
                // Half declare their length, half stream without one (a
                // 2 MiB baseline that shrinks to the body at the end).
                let script = format!(
                    "CREATE TABLE IF NOT EXISTS c{i}(a integer, pad text);\n{}",
                    "INSERT INTO c{i} SELECT g, repeat('x', 200) FROM generate_series(1, 50) g;\n"
                        .replace("{i}", &i.to_string())
                        .repeat(100)
                );
                let chunked = i % 2 == 1;
                let deadline = Instant::now() + Duration::from_secs(240);
                loop {
                    let mut b = ureq::http::Request::builder()
                        .method("POST")
                        .uri(format!("http://{}/api/reservoir/jobs", s.addr))
                        .header("Authorization", format!("Bearer {TOKEN}"));
                    if chunked {
                        b = b.header("Transfer-Encoding", "chunked");
                    }
                    let body = script.clone().into_bytes();
                    let req = if chunked {
                        // An unknown length: ureq streams a reader chunked.
                        agent().run(
                            b.body(ureq::SendBody::from_owned_reader(std::io::Cursor::new(body)))
                                .unwrap(),
                        )
                    } else {
                        agent().run(b.body(body).unwrap())
                    };
                    // A refused upload is answered before its body is read
                    // and the connection closed: the client may see the
                    // answer, or only the closed connection.
                    let (status, text) = match req {
                        Ok(mut resp) => (
                            resp.status().as_u16(),
                            resp.body_mut().read_to_string().unwrap_or_default(),
                        ),
                        Err(ureq::Error::Io(e))
                            if matches!(
                                e.kind(),
                                std::io::ErrorKind::BrokenPipe
                                    | std::io::ErrorKind::ConnectionReset
                            ) =>
                        {
                            (429, String::new())
                        }
                        Err(e) => panic!("submission {i}: {e}"),
                    };
                    match status {
                        201 => {
                            let v: Value = serde_json::from_str(&text).unwrap();
                            return v["id"].as_u64().unwrap();
                        }
                        429 | 503 => {
                            refused.fetch_add(1, Ordering::SeqCst);
                            assert!(Instant::now() < deadline, "never admitted");
                            std::thread::sleep(Duration::from_millis(20 + (i as u64 % 7) * 10));
                        }
                        other => panic!("submission {i}: {other} {text}"),
                    }
                }
            })
        })
        .collect();
    let ids: Vec<u64> = clients.into_iter().map(|c| c.join().unwrap()).collect();
    for (i, id) in ids.iter().enumerate() {
        let j = wait(&servers[(i + 1) % 3], *id, Duration::from_secs(240), "done", terminal);
        assert_eq!(j["state"], "completed", "{j}");
    }
    stop.store(true, Ordering::SeqCst);
    monitor.join().unwrap();
    let (jobs, bytes) = (most_jobs.load(Ordering::SeqCst), most_bytes.load(Ordering::SeqCst));
    println!(
        "most active {jobs} (cap {MAX_JOBS}), most reserved {bytes} (cap {MAX_BYTES}), {} refusals",
        refused.load(Ordering::SeqCst)
    );
    assert!(jobs as i64 <= MAX_JOBS && bytes as i64 <= MAX_BYTES, "{jobs} jobs, {bytes} bytes");
    assert!(jobs >= 2, "the submissions overlapped");
    assert!(refused.load(Ordering::SeqCst) > 0, "the caps were reached and refused some");
    assert_eq!(ids.iter().collect::<std::collections::HashSet<_>>().len(), 50);
    // Everything ended: the reconciled counters are exactly zero, and the
    // counters were already right before reconciling.
    let out =
        Command::new(BIN).args(["reservoir", "reconcile", "--backend", &url]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("before: active jobs 0 of 6, spool bytes 0 of 4194304"), "{text}");
    assert!(text.contains("after: active jobs 0 of 6, spool bytes 0 of 4194304"), "{text}");
    assert_eq!(ints(&url, "SELECT sum(used)::bigint FROM asadb.capacity"), [0]);
    let caps = |extra: &[&str]| {
        let out = Command::new(BIN)
            .args([&["reservoir", "caps", "--backend", &url], extra].concat())
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    assert_eq!(caps(&[]), (Some(0), "caps: active jobs 0 of 6, spool bytes 0 of 4194304".into()));
    assert_eq!(
        caps(&["--max-jobs", "9"]),
        (Some(0), "caps: active jobs 0 of 9, spool bytes 0 of 4194304".into())
    );
    assert_eq!(caps(&["--max-jobs", "0"]).0, Some(2), "a zero cap is refused");
    let bad = Command::new(BIN)
        .args(["reservoir", "reconcile", "--backend", "mysql://nobody@127.0.0.1/x"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    for i in 0..50 {
        assert_eq!(ints(&url, &format!("SELECT count(*) FROM c{i}")), [5_000], "c{i}");
    }
}

/// `GET /api/reservoir/events` read by curl: (event name, data) as they come.
fn event_stream(
    s: &Server,
    query: &str,
) -> (std::process::Child, std::sync::mpsc::Receiver<(String, Value)>) {
    use std::io::BufRead;
    let mut child = Command::new("curl")
        .args(["-sS", "-N", "--fail-with-body", "-H"])
        .arg(format!("Authorization: Bearer {TOKEN}"))
        .arg(format!("http://{}/api/reservoir/events{query}", s.addr))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("curl is installed (.ci/run installs it)");
    let out = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let (mut name, mut data) = (String::new(), String::new());
        for line in std::io::BufReader::new(out).lines().map_while(Result::ok) {
            if line.is_empty() {
                if !data.is_empty() {
                    let v = serde_json::from_str(&data).expect("event data is JSON");
                    if tx.send((std::mem::take(&mut name), v)).is_err() {
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
    (child, rx)
}

#[test]
fn the_event_stream_of_one_front_end_follows_jobs_another_runs() {
    let url = database();
    let dir = tempfile::tempdir().unwrap();
    let a = front_end(dir.path(), "a", &url, &["--no-worker"]);
    let b = front_end(dir.path(), "b", &url, &[]);
    let (mut curl, rx) = event_stream(&a, "");
    let next = || rx.recv_timeout(Duration::from_secs(30)).expect("an event within 30 s");
    assert_eq!(next(), ("jobs".to_string(), serde_json::json!({ "jobs": [] })));
    assert_eq!(next().0, "stats");

    // Submitted on B and run there; A only watches.
    let id = submit(
        &b,
        "CREATE TABLE ev(a integer);\nSELECT pg_sleep(0.5);\nINSERT INTO ev VALUES (1);\n\
         SELECT pg_sleep(0.5);\nINSERT INTO ev VALUES (2);\nSELECT pg_sleep(0.5);\n",
    );
    let mut states: Vec<String> = Vec::new();
    let mut done_while_processing: Vec<u64> = Vec::new();
    loop {
        let (name, data) = next();
        if name != "job" || data["id"] != id {
            continue;
        }
        let state = data["state"].as_str().unwrap().to_string();
        if state == "processing" {
            done_while_processing.push(data["progress"]["statements_done"].as_u64().unwrap());
        }
        if states.last() != Some(&state) {
            states.push(state.clone());
        }
        if state == "completed" {
            assert_eq!(data["progress"]["statements_done"], 6, "{data}");
            break;
        }
    }
    let order = ["receiving", "queued", "processing", "completed"];
    let ranks: Vec<usize> =
        states.iter().map(|s| order.iter().position(|o| o == s).expect("a known state")).collect();
    assert!(ranks.windows(2).all(|w| w[0] < w[1]), "states in order: {states:?}");
    assert!(states.ends_with(&["processing".into(), "completed".into()]), "{states:?}");
    // Progress reached the watcher while the job ran on the other host.
    assert!(
        done_while_processing.windows(2).all(|w| w[0] <= w[1])
            && done_while_processing.iter().any(|&d| d > 0),
        "progress while processing: {done_while_processing:?}"
    );
    let _ = curl.kill();
    let _ = curl.wait();

    // The schema endpoint describes the embedded database only.
    let (status, v) = call(&a, "GET", "/api/schema", &[], b"");
    assert_eq!(status, 400, "{v}");
    assert_eq!(v["error"]["code"], "unsupported");
}
