//! A process killed mid-batch, then `resume`, at the library level.
//!
//! Scenario: a child process (this test binary re-executed, running the
//! ignored `worker_child` entry with `ASADB_RESUME_CHILD_DIR` set) opens a
//! file engine and a Reservoir on a directory, submits a script of one
//! CREATE TABLE plus 30,000 single-row INSERTs into an INTEGER PRIMARY KEY
//! table, starts the worker and prints its live progress. The parent
//! SIGKILLs it once a few thousand statements are done and the current
//! batch is open (executed but not committed statements exist). The parent
//! then opens the same directory itself.
//!
//! Invariants pinned here:
//! - after the crash the job is `interrupted`, and the table holds exactly
//!   the statements the durable progress marker names (the open batch left
//!   nothing behind);
//! - the worker never replays it on its own;
//! - `resume` completes it with every statement applied exactly once: ids
//!   1..=30,000, each once (a doubled INSERT would fail the job on the
//!   primary key, a skipped one would leave a hole);
//! - the database passes the engine's whole-database integrity check
//!   afterwards.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use asadb_reservoir::{Config, Job, JobId, JobState, PROGRESS_TABLE, Reservoir, SubmitOptions};
use asadb_sql::Value;
use asadb_sql::session::{Engine, Outcome, Params};

const CHILD_ENV: &str = "ASADB_RESUME_CHILD_DIR";
const ROWS: i64 = 30_000;
/// Statements executed before the parent may kill the child.
const KILL_AFTER: u64 = 4_000;

fn script() -> String {
    let mut s = String::from("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT);\n");
    for i in 1..=ROWS {
        s.push_str(&format!("INSERT INTO t VALUES ({i}, 'v{i}');\n"));
    }
    s
}

fn open(dir: &Path) -> (Engine, Reservoir) {
    let engine = Engine::open(&dir.join("db.asa"), asadb_txn::Options::default()).unwrap();
    let res = Reservoir::open(&dir.join(".asa.reservoir"), Config::default()).unwrap();
    (engine, res)
}

fn ints(engine: &Engine, sql: &str) -> Vec<i64> {
    match engine.session().execute(sql, &Params::None).unwrap() {
        Outcome::Rows { rows, .. } => {
            assert_eq!(rows.len(), 1, "{sql}");
            rows[0]
                .iter()
                .map(|v| match v {
                    Value::Integer(n) => *n,
                    other => panic!("{sql}: not an integer: {other:?}"),
                })
                .collect()
        }
        o => panic!("{sql}: not rows: {o:?}"),
    }
}

fn wait_terminal(res: &Reservoir, id: JobId) -> Job {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let job = res.job(id).unwrap();
        if job.state.is_terminal() {
            return job;
        }
        assert!(Instant::now() < deadline, "job {id} stuck in {}", job.state);
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The child process's body, not a test of its own: it does nothing unless
/// the parent test set `ASADB_RESUME_CHILD_DIR` (and it is ignored, so a
/// plain `cargo test` does not run it).
#[test]
#[ignore = "child process of killed_mid_batch_then_resume_applies_each_statement_once"]
fn worker_child() {
    let Some(dir) = std::env::var_os(CHILD_ENV) else { return };
    let dir = PathBuf::from(dir);
    let (engine, res) = open(&dir);
    res.start_worker(engine).unwrap();
    let id = res.submit(SubmitOptions::default(), script().as_bytes()).unwrap().job.id;
    println!("JOB {}", id.0);
    loop {
        let job = res.job(id).unwrap();
        println!(
            "PROGRESS {} {} {}",
            job.progress.statements_done, job.progress.statements_committed, job.state
        );
        if job.state.is_terminal() {
            break;
        }
        std::thread::sleep(Duration::from_micros(200));
    }
    // Reaching here means the parent did not kill us in time; it reports it.
    res.shutdown();
}

#[test]
fn killed_mid_batch_then_resume_applies_each_statement_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "worker_child", "--ignored", "--nocapture", "--test-threads=1"])
        .env(CHILD_ENV, dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let mut job_id = None;
    let mut killed_at = None;
    for line in stdout.lines() {
        let line = line.unwrap();
        // libtest may print "test worker_child ... " before the first line.
        if let Some((_, n)) = line.split_once("JOB ") {
            job_id = Some(JobId(n.trim().parse().unwrap()));
        } else if let Some(p) = line.strip_prefix("PROGRESS ") {
            let f: Vec<&str> = p.split_whitespace().collect();
            let (done, committed): (u64, u64) = (f[0].parse().unwrap(), f[1].parse().unwrap());
            assert_ne!(f[2], "completed", "the child finished before it could be killed");
            // Mid-batch: well inside a batch of 1000, away from its commit.
            if done >= KILL_AFTER && (100..=900).contains(&(done - committed)) {
                child.kill().unwrap(); // SIGKILL on Unix
                killed_at = Some((done, committed));
                break;
            }
        }
    }
    let status = child.wait().unwrap();
    let (done, committed) = killed_at.expect("the child ended without reaching the kill point");
    assert!(!status.success(), "the child was killed: {status}");
    let id = job_id.expect("the child printed its job id");

    let (engine, res) = open(dir.path());
    let job = res.job(id).unwrap();
    assert_eq!(job.state, JobState::Interrupted, "{job:?}");
    assert!(job.is_resumable());
    // The durable marker names the statements that survived: the CREATE
    // plus that many INSERTs, and nothing of the open batch.
    let marker =
        ints(&engine, &format!("SELECT statement FROM {PROGRESS_TABLE} WHERE job_id = {id}"));
    let durable = marker[0];
    // A batch boundary at or after the last commit the child reported (the
    // child may have gone on a little between printing and dying).
    assert!(durable as u64 >= committed && durable % 1000 == 0, "{durable}: {committed}/{done}");
    assert!(durable < ROWS + 1, "the job was cut short");
    println!("killed at {done} statements done, {committed} committed; marker {durable}");
    let before = ints(&engine, "SELECT count(*), coalesce(max(id), 0) FROM t");
    assert_eq!(before, vec![durable - 1, durable - 1], "exactly the committed batches");

    // Never replayed on its own.
    res.start_worker(engine.clone()).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(res.job(id).unwrap().state, JobState::Interrupted);
    assert_eq!(ints(&engine, "SELECT count(*) FROM t"), vec![durable - 1]);

    let resumed = res.resume(id).unwrap();
    assert_eq!(resumed.state, JobState::Queued);
    let job = wait_terminal(&res, id);
    assert_eq!(job.state, JobState::Completed, "{:?}", job.error);
    assert!(job.statement_errors.is_empty(), "{:?}", job.statement_errors);
    println!("after resume: {:?}", job.progress);
    assert_eq!(job.progress.statements_committed, ROWS as u64 + 1);
    assert_eq!(
        job.progress.rows_affected, ROWS as u64,
        "rows of the durable statements carry over a resume"
    );
    assert_eq!(
        ints(&engine, "SELECT count(*), count(DISTINCT id), min(id), max(id), sum(id) FROM t"),
        vec![ROWS, ROWS, 1, ROWS, ROWS * (ROWS + 1) / 2]
    );
    assert_eq!(ints(&engine, "SELECT count(*) FROM t WHERE v = 'v' || id"), vec![ROWS]);
    // The final marker says every statement is durable: resuming again
    // (as after a crash just before `completed` was recorded) applies
    // nothing twice.
    let marker = format!("SELECT statement FROM {PROGRESS_TABLE} WHERE job_id = {id}");
    assert_eq!(ints(&engine, &marker), vec![ROWS + 1]);
    // A later job's first commit removes the finished job's marker.
    let next = res
        .submit(
            SubmitOptions::default(),
            &b"CREATE TABLE after(a); INSERT INTO after VALUES (1);"[..],
        )
        .unwrap()
        .job
        .id;
    assert_eq!(wait_terminal(&res, next).state, JobState::Completed);
    let count = format!("SELECT count(*) FROM {PROGRESS_TABLE} WHERE job_id = {id}");
    assert_eq!(ints(&engine, &count), vec![0], "a finished job's marker is removed");
    res.shutdown();
    // Pages, free list, every tree's invariants, page accounting.
    let report = engine.integrity_check().unwrap();
    assert!(report.is_ok(), "{:?}", report.problems);
    assert_eq!(
        report.rows,
        ROWS as u64 + 2,
        "t holds every row, `after` one, the progress table the new job's marker"
    );
}
