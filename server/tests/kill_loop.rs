//! The kill loop: cycles of random job mixes against the real binary with
//! SIGKILL at a random moment, and after each kill the invariants that a
//! crash must never break.
//!
//! Each cycle submits a few scripts — with and without their own
//! `BEGIN … COMMIT`, stop-on-error on and off, some ending in a failing
//! statement — retries some with their idempotency key, cancels some, and
//! resumes the interrupted jobs of the previous cycles; then the server is
//! killed at a random moment. Before the restart `asadb check` must find
//! the database sound; after it, every job must be in a valid state and
//! every job's table must hold exactly the rows of its first
//! `statements_committed` statements (what is committed is what progress
//! says). At the end every interrupted job is resumed to its end and every
//! completed job holds exactly its script's rows (each row once: its
//! primary key would make a double apply fail the job).
//!
//! `kill_loop_short` (20 cycles) runs in CI; `kill_loop_long` (500) is
//! ignored: `cargo test -p asadb-server --test kill_loop -- --ignored`.

#[path = "common/server.rs"]
mod server;

#[path = "common/client.rs"]
mod client;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use server::Server;

/// A small deterministic generator (the seed is printed on failure).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// One submitted script and what it must leave.
#[derive(Debug)]
struct Planned {
    table: String,
    /// Per statement, the row it inserts (`None`: it inserts nothing).
    rows: Vec<Option<u64>>,
    stop_on_error: bool,
    /// Index of the statement that fails, if one does.
    failing: Option<usize>,
    /// The script's own transaction (BEGIN first, COMMIT last).
    own_txn: bool,
}

impl Planned {
    fn new(g: &mut Lcg, n: usize) -> (Planned, String) {
        let table = format!("t{n}");
        let own_txn = g.below(3) == 0;
        let stop_on_error = g.below(2) == 0;
        let inserts = 50 + g.below(3000) as usize;
        let with_failure = g.below(4) == 0;
        let mut rows = Vec::new();
        let mut text = String::new();
        let push = |text: &mut String, rows: &mut Vec<Option<u64>>, sql: String, row| {
            text.push_str(&sql);
            text.push('\n');
            rows.push(row);
        };
        push(
            &mut text,
            &mut rows,
            format!("CREATE TABLE {table}(x INTEGER PRIMARY KEY, pad TEXT);"),
            None,
        );
        if own_txn {
            push(&mut text, &mut rows, "BEGIN;".into(), None);
        }
        let mut failing = None;
        // A slow statement somewhere keeps the job busy long enough for
        // the kill to land inside it.
        let slow_at = (g.below(2) == 0).then(|| g.below(inserts as u64));
        for i in 0..inserts as u64 {
            if slow_at == Some(i) {
                let slow = "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c \
                            WHERE n < 100000) SELECT count(*) FROM c;";
                push(&mut text, &mut rows, slow.into(), None);
            }
            if with_failure && i == inserts as u64 / 2 {
                failing = Some(rows.len());
                push(&mut text, &mut rows, "INSERT INTO no_such_table VALUES (1);".into(), None);
            }
            let pad = "p".repeat(g.below(200) as usize);
            push(
                &mut text,
                &mut rows,
                format!("INSERT INTO {table} VALUES ({i}, '{pad}');"),
                Some(i),
            );
        }
        if own_txn {
            push(&mut text, &mut rows, "COMMIT;".into(), None);
        }
        (Planned { table, rows, stop_on_error, failing, own_txn }, text)
    }

    /// The rows the first `committed` statements leave.
    fn rows_of_first(&self, committed: usize) -> Vec<u64> {
        self.rows.iter().take(committed).filter_map(|r| *r).collect()
    }

    /// Whether `rows` are what a stop-on-error failure may leave: the
    /// statements before the failing one (inside the script's own
    /// transaction, its unit may also be rolled back as a whole).
    fn failed_rows_ok(&self, rows: &[u64]) -> bool {
        let Some(at) = self.failing else { return false };
        rows == self.rows_of_first(at) || (self.own_txn && rows.is_empty())
    }

    /// The rows a run to its end leaves.
    fn final_rows(&self) -> Vec<u64> {
        match (self.failing, self.stop_on_error, self.own_txn) {
            // Stop-on-error: what came before the failure stays — unless
            // the failure was inside the script's own transaction, whose
            // unit is then rolled back.
            (Some(_), true, true) => Vec::new(),
            (Some(at), true, false) => self.rows_of_first(at),
            _ => self.rows.iter().filter_map(|r| *r).collect(),
        }
    }
}

fn sigkill(s: &Server) {
    // SAFETY: kill(2) on our own child's pid.
    assert_eq!(unsafe { libc::kill(s.pid() as libc::pid_t, libc::SIGKILL) }, 0);
}

fn check_database(data: &Path, seed: u64, cycle: usize) {
    let out = std::process::Command::new(server::BIN)
        .args(["check", "--db"])
        .arg(data.join("asadb.db"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.starts_with("ok:"),
        "seed {seed} cycle {cycle}: integrity check failed: {stdout} {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn table_rows(s: &Server, table: &str) -> Option<Vec<u64>> {
    // One row whatever the table's size (a page holds at most 250).
    let r = s.query(json!({ "sql": format!("SELECT group_concat(x, ',') FROM {table}") }));
    if r.status != 200 {
        assert!(r.body.contains("no such table"), "{table}: {r:?}");
        return None;
    }
    let v: Value = r.json()["rows"][0][0].clone();
    let mut rows: Vec<u64> = match v.as_str() {
        None => Vec::new(),
        Some(text) => text.split(',').map(|x| x.parse().unwrap()).collect(),
    };
    rows.sort_unstable();
    Some(rows)
}

/// Every job in a state a restart may leave, and what is committed is
/// what its progress says.
fn check_jobs(s: &Server, plans: &BTreeMap<u64, Planned>, seed: u64, cycle: usize) {
    for (&id, plan) in plans {
        let j = s.job(id);
        let state = j["state"].as_str().unwrap().to_string();
        let ctx = format!("seed {seed} cycle {cycle} job {id} ({plan:?}): {j}");
        assert!(
            matches!(
                state.as_str(),
                "queued"
                    | "processing"
                    | "completed"
                    | "failed"
                    | "cancelled"
                    | "interrupted"
                    | "delivered"
            ),
            "{ctx}"
        );
        if state == "processing" || state == "queued" {
            continue; // the worker moves on while we look
        }
        let committed = j["progress"]["statements_committed"].as_u64().unwrap() as usize;
        let rows = table_rows(s, &plan.table);
        let expected = plan.rows_of_first(committed);
        match state.as_str() {
            "completed" | "delivered" => {
                assert_eq!(rows.as_deref(), Some(&plan.final_rows()[..]), "{ctx}")
            }
            "failed" => {
                assert!(plan.failing.is_some() && plan.stop_on_error, "{ctx}");
                assert!(plan.failed_rows_ok(&rows.unwrap_or_default()), "{ctx}");
            }
            _ => {
                // Interrupted or cancelled: the durable prefix and nothing
                // else (an own transaction commits as one unit).
                let got = rows.unwrap_or_default();
                if plan.own_txn && !(plan.failing.is_some() && plan.stop_on_error) {
                    assert!(got.is_empty() || got == plan.final_rows(), "{ctx}");
                } else if !(plan.failing.is_some() && plan.own_txn) {
                    assert_eq!(got, expected, "{ctx}");
                }
            }
        }
    }
}

type Texts = BTreeMap<u64, (String, String)>;

fn headers<'a>(key: &'a str, plan: &Planned) -> [(&'a str, &'a str); 2] {
    let stop = if plan.stop_on_error { "true" } else { "false" };
    [("X-AsaDB-Idempotency-Key", key), ("X-AsaDB-Stop-On-Error", stop)]
}

/// A job the kill caught while its body was still being received (an
/// upload is held until its connection's close check, after its 201) is
/// interrupted without a spool: like a client, submit it again with its
/// key (the unfinished job does not own it).
fn resubmit_lost(s: &Server, plans: &mut BTreeMap<u64, Planned>, texts: &mut Texts, seed: u64) {
    let lost: Vec<u64> = plans
        .keys()
        .copied()
        .filter(|&id| {
            let j = s.job(id);
            j["state"] == "interrupted" && j["has_spool"] == false
        })
        .collect();
    for id in lost {
        let plan = plans.remove(&id).unwrap();
        let (key, text) = texts.remove(&id).unwrap();
        let r = s.submit(&headers(&key, &plan), text.as_bytes());
        assert_eq!(r.status, 201, "seed {seed}: resubmitting lost job {id}: {r:?}");
        let fresh = r.json()["id"].as_u64().unwrap();
        plans.insert(fresh, plan);
        texts.insert(fresh, (key, text));
    }
}

fn kill_loop(seed: u64, cycles: usize) {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let mut g = Lcg(seed);
    let mut plans: BTreeMap<u64, Planned> = BTreeMap::new();
    let mut texts = Texts::new();
    let mut n = 0usize;
    let mut interrupted_seen = 0;
    for cycle in 0..cycles {
        let s = Server::spawn(&data, &[]);
        check_jobs(&s, &plans, seed, cycle);
        resubmit_lost(&s, &mut plans, &mut texts, seed);
        // Resume what the last kill interrupted.
        for &id in plans.keys() {
            let interrupted = s.job(id)["state"] == "interrupted";
            interrupted_seen += usize::from(interrupted);
            if interrupted && g.below(4) != 0 {
                let r = s.post(&format!("/api/reservoir/resume?id={id}"), b"");
                assert!(matches!(r.status, 200 | 409), "seed {seed}: resume {id}: {r:?}");
            }
        }
        for _ in 0..1 + g.below(3) {
            n += 1;
            let (plan, text) = Planned::new(&mut g, n);
            let key = format!("job-{seed}-{n}");
            let stop = if plan.stop_on_error { "true" } else { "false" };
            let headers =
                [("X-AsaDB-Idempotency-Key", key.as_str()), ("X-AsaDB-Stop-On-Error", stop)];
            // A full queue is a retryable 429: wait for it like a client.
            let deadline = Instant::now() + Duration::from_secs(120);
            let r = loop {
                let r = s.submit(&headers, text.as_bytes());
                if r.status != 429 || Instant::now() > deadline {
                    break r;
                }
                assert!(r.retryable(), "{r:?}");
                std::thread::sleep(Duration::from_millis(200));
            };
            assert_eq!(r.status, 201, "seed {seed}: {r:?}");
            let id = r.json()["id"].as_u64().unwrap();
            if g.below(3) == 0 {
                // An identical retry is the same job.
                let again = s.submit(&headers, text.as_bytes());
                assert_eq!(again.status, 200, "seed {seed}: {again:?}");
                assert_eq!(again.json()["id"].as_u64(), Some(id));
            }
            if g.below(6) == 0 {
                let r = s.post(&format!("/api/reservoir/cancel?id={id}"), b"");
                assert_eq!(r.status, 200, "seed {seed}: {r:?}");
            }
            plans.insert(id, plan);
            texts.insert(id, (key, text));
        }
        std::thread::sleep(Duration::from_millis(g.below(150)));
        sigkill(&s);
        drop(s);
        check_database(&data, seed, cycle);
    }

    // The kills must have landed inside jobs, not only between them.
    assert!(interrupted_seen * 4 >= cycles, "seed {seed}: {interrupted_seen} interrupted jobs");

    // The end: every job resumed to its end, each with exactly its rows.
    let s = Server::spawn(&data, &[]);
    check_jobs(&s, &plans, seed, cycles);
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        resubmit_lost(&s, &mut plans, &mut texts, seed);
        let mut pending = Vec::new();
        for &id in plans.keys() {
            let j = s.job(id);
            match j["state"].as_str().unwrap() {
                "interrupted" => {
                    let r = s.post(&format!("/api/reservoir/resume?id={id}"), b"");
                    assert!(matches!(r.status, 200 | 409), "seed {seed}: resume {id}: {r:?}");
                    pending.push(j);
                }
                "queued" | "processing" | "cancelling" => pending.push(j),
                _ => {}
            }
        }
        if pending.is_empty() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "seed {seed}: jobs never ended: {pending:#?}\nstats: {}\nstderr: {}",
            s.get("/api/reservoir/stats").body,
            s.stderr()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    for (&id, plan) in &plans {
        let j = s.job(id);
        let ctx = format!("seed {seed} job {id} ({plan:?}): {j}");
        match j["state"].as_str().unwrap() {
            "completed" | "delivered" => {
                assert_eq!(table_rows(&s, &plan.table), Some(plan.final_rows()), "{ctx}")
            }
            "failed" => {
                assert!(plan.failing.is_some() && plan.stop_on_error, "{ctx}");
                let rows = table_rows(&s, &plan.table).unwrap_or_default();
                assert!(plan.failed_rows_ok(&rows), "{ctx}: {rows:?}");
            }
            "cancelled" => {}
            other => panic!("{ctx}: ends {other}"),
        }
        // The server still tells the same job for the same key and body.
        let (key, text) = &texts[&id];
        let stop = if plan.stop_on_error { "true" } else { "false" };
        let r = s.submit(
            &[("X-AsaDB-Idempotency-Key", key.as_str()), ("X-AsaDB-Stop-On-Error", stop)],
            text.as_bytes(),
        );
        if r.status == 200 {
            assert_eq!(r.json()["id"].as_u64(), Some(id), "{ctx}");
        } else {
            // A failed or cancelled job does not hold its key.
            assert_eq!(r.status, 201, "{ctx}: {r:?}");
            let fresh = r.json()["id"].as_u64().unwrap();
            s.post(&format!("/api/reservoir/cancel?id={fresh}"), b"");
        }
    }
    let _ = s.terminate();
}

#[test]
fn kill_loop_short() {
    kill_loop(0x5eed_0015, 20);
}

#[test]
#[ignore = "long: 500 kill cycles (minutes); run with --ignored"]
fn kill_loop_long() {
    let seed = std::env::var("ASADB_KILL_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(15);
    kill_loop(seed, 500);
}
