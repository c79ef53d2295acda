//! The worker end to end on an in-memory engine: lifecycle, results,
//! stop-on-error, batches, the script's own transactions, cancellation.
//!
//! Invariants pinned here: a completed job's statements are all applied
//! and its result pages are readable; with stop-on-error the statements
//! before the failing one are committed and the failing one is named;
//! without it errors are recorded and execution goes on; a script's own
//! BEGIN…COMMIT is one unit.

use std::time::{Duration, Instant};

use asadb_reservoir::{Config, JobState, Reservoir, SubmitOptions};
use asadb_sql::Value;
use asadb_sql::session::{Engine, Outcome, Params};

fn start() -> (tempfile::TempDir, Reservoir, Engine) {
    let dir = tempfile::tempdir().unwrap();
    let res = Reservoir::open(dir.path(), Config::default()).unwrap();
    let engine = Engine::memory();
    res.start_worker(engine.clone()).unwrap();
    (dir, res, engine)
}

fn wait_terminal(res: &Reservoir, id: asadb_reservoir::JobId) -> asadb_reservoir::Job {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let job = res.job(id).unwrap();
        if job.state.is_terminal() {
            return job;
        }
        assert!(Instant::now() < deadline, "job {id} stuck in {}", job.state);
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn count(engine: &Engine, table: &str) -> i64 {
    let mut s = engine.session();
    match s.execute(&format!("SELECT count(*) FROM {table}"), &Params::None).unwrap() {
        Outcome::Rows { rows, .. } => match rows[0][0] {
            Value::Integer(n) => n,
            ref v => panic!("count is {v:?}"),
        },
        o => panic!("not rows: {o:?}"),
    }
}

fn submit(res: &Reservoir, script: &str, stop_on_error: bool) -> asadb_reservoir::JobId {
    let opts = SubmitOptions { stop_on_error: Some(stop_on_error), ..SubmitOptions::default() };
    res.submit(opts, script.as_bytes()).unwrap().job.id
}

#[test]
fn script_runs_to_completion_with_result_pages() {
    let (_dir, res, engine) = start();
    let mut script = String::from("CREATE TABLE t(a INTEGER, b TEXT);\n");
    for i in 0..300 {
        script.push_str(&format!("INSERT INTO t VALUES ({i}, 'row {i}');\n"));
    }
    script.push_str("SELECT a, b FROM t ORDER BY a;\n");
    let id = submit(&res, &script, true);
    let job = wait_terminal(&res, id);
    assert_eq!(job.state, JobState::Completed, "{:?}", job.error);
    assert_eq!(job.progress.statements_done, 302);
    assert_eq!(job.progress.statements_committed, 302);
    assert_eq!(job.progress.rows_affected, 300);
    assert_eq!(job.progress.percent, 100.0);
    assert_eq!(count(&engine, "t"), 300);
    let page = res.result(id, 301, 0, 1000).unwrap();
    assert_eq!(page.rows.len(), 250, "pages are capped");
    assert_eq!(page.columns, vec!["a", "b"]);
    assert_eq!(page.rows[0], serde_json::json!([0, "row 0"]));
    assert_eq!(page.next_offset, Some(250));
    let rest = res.result(id, 301, 250, 250).unwrap();
    assert_eq!(rest.rows.len(), 50);
    assert_eq!(rest.next_offset, None);
    assert_eq!(res.result(id, 5, 0, 10).unwrap().statement.rows_affected, 1);
    assert_eq!(res.job(id).unwrap().state, JobState::Delivered);
}

#[test]
fn stop_on_error_commits_what_came_before() {
    let (_dir, res, engine) = start();
    let script = "CREATE TABLE t(a INTEGER PRIMARY KEY);\
                  INSERT INTO t VALUES (1);\
                  INSERT INTO t VALUES (2);\
                  INSERT INTO t VALUES (1);\
                  INSERT INTO t VALUES (3);";
    let id = submit(&res, script, true);
    let job = wait_terminal(&res, id);
    assert_eq!(job.state, JobState::Failed);
    let err = job.error.unwrap();
    assert_eq!(err.statement, Some(3));
    assert!(err.excerpt.unwrap().contains("VALUES (1)"));
    assert_eq!(job.progress.statements_committed, 3);
    assert_eq!(count(&engine, "t"), 2);
}

#[test]
fn errors_recorded_when_not_stopping() {
    let (_dir, res, engine) = start();
    let script = "CREATE TABLE t(a INTEGER PRIMARY KEY);\
                  INSERT INTO t VALUES (1);\
                  INSERT INTO t VALUES (1);\
                  SELEC nonsense;\
                  INSERT INTO t VALUES (2);";
    let id = submit(&res, script, false);
    let job = wait_terminal(&res, id);
    assert_eq!(job.state, JobState::Completed);
    assert_eq!(job.progress.errors, 2);
    assert_eq!(job.statement_errors.len(), 2);
    assert_eq!(job.statement_errors[0].statement, Some(2));
    assert_eq!(count(&engine, "t"), 2);
}

#[test]
fn scripts_own_transaction_is_one_unit() {
    let (_dir, res, engine) = start();
    let script = "CREATE TABLE t(a INTEGER PRIMARY KEY);\
                  BEGIN; INSERT INTO t VALUES (1); INSERT INTO t VALUES (2); COMMIT;\
                  BEGIN; INSERT INTO t VALUES (3); INSERT INTO t VALUES (3); COMMIT;";
    let id = submit(&res, script, true);
    let job = wait_terminal(&res, id);
    assert_eq!(job.state, JobState::Failed);
    assert_eq!(job.error.unwrap().statement, Some(7));
    // The second unit is rolled back as a whole.
    assert_eq!(count(&engine, "t"), 2);
}

#[test]
fn cancel_while_queued_and_processing() {
    let dir = tempfile::tempdir().unwrap();
    let res = Reservoir::open(dir.path(), Config::default()).unwrap();
    let engine = Engine::memory();
    let mut big = String::from("CREATE TABLE t(a);");
    for i in 0..100_000 {
        big.push_str(&format!("INSERT INTO t VALUES ({i});"));
    }
    let first = submit(&res, &big, true);
    let second = submit(&res, "CREATE TABLE u(a);", true);
    // Queued jobs cancel at once.
    assert_eq!(res.cancel(second).unwrap().state, JobState::Cancelled);
    res.start_worker(engine.clone()).unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while res.job(first).unwrap().state == JobState::Queued {
        assert!(Instant::now() < deadline);
        std::thread::sleep(Duration::from_millis(1));
    }
    let state = res.cancel(first).unwrap().state;
    assert_eq!(state, JobState::Cancelling, "100k statements take longer than a cancel");
    let job = wait_terminal(&res, first);
    assert_eq!(job.state, JobState::Cancelled);
    {
        // Whole batches only: the count is a multiple of the batch size
        // (and when the first batch was rolled back, even the table is gone).
        let mut s = engine.session();
        let n = match s.execute("SELECT count(*) FROM t", &Params::None) {
            Ok(Outcome::Rows { rows, .. }) => match rows[0][0] {
                Value::Integer(n) => n,
                ref v => panic!("count is {v:?}"),
            },
            Ok(o) => panic!("not rows: {o:?}"),
            Err(e) => {
                assert!(e.to_string().contains("no such table"), "{e}");
                0
            }
        };
        assert!((n + 1) % 1000 == 0 || n == 0, "rows {n} are not whole batches");
    }
    assert!(!dir.path().join("spool").join(format!("{first}.body")).exists());
}

#[test]
fn cancel_inside_one_long_statement_rolls_back_its_batch() {
    let (_dir, res, engine) = start();
    // The first batch (table + 2,000 rows) commits; the second holds one
    // more row and then a statement that would write 8e9 rows.
    let mut script = String::from("CREATE TABLE t(x INTEGER PRIMARY KEY);\nCREATE TABLE u(x);\n");
    let values: Vec<String> = (0..2000).map(|i| format!("({i})")).collect();
    script.push_str(&format!("INSERT INTO t VALUES {};\n", values.join(",")));
    script.push_str("INSERT INTO u VALUES (-1);\n");
    script.push_str("INSERT INTO u SELECT a.x FROM t a, t b, t c;\n");
    script.push_str("INSERT INTO u VALUES (-2);\n");
    let id = submit(&res, &script, true);
    // Wait until the long statement is the one running (4 done before it).
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let job = res.job(id).unwrap();
        assert!(!job.state.is_terminal(), "job ended early: {job:?}");
        if job.progress.statements_done == 4 {
            break;
        }
        assert!(Instant::now() < deadline, "never reached the long statement");
        std::thread::sleep(Duration::from_millis(2));
    }
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(res.cancel(id).unwrap().state, JobState::Cancelling);
    let job = wait_terminal(&res, id);
    assert_eq!(job.state, JobState::Cancelled, "{job:?}");
    // Everything since the job started is in one uncommitted batch, so
    // nothing is left: not even the tables.
    let mut s = engine.session();
    let err = s.execute("SELECT count(*) FROM u", &Params::None).unwrap_err();
    assert!(err.to_string().contains("no such table"), "{err}");
    // The worker is free and its session clean: the next job runs.
    let next = submit(&res, "CREATE TABLE v(a); INSERT INTO v VALUES (1);", true);
    assert_eq!(wait_terminal(&res, next).state, JobState::Completed);
    assert_eq!(count(&engine, "v"), 1);
}

#[test]
fn live_progress_and_stats_and_persisted_progress() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = Config { progress_quantum_bytes: 4096, ..Config::default() };
    let res = Reservoir::open(dir.path(), cfg.clone()).unwrap();
    let engine = Engine::memory();
    res.start_worker(engine.clone()).unwrap();
    // 2,000 rows, 300 small statements (one with an error, recorded), then
    // a statement that runs until it is cancelled.
    let mut script = String::from("CREATE TABLE t(x INTEGER PRIMARY KEY, pad);\n");
    let values: Vec<String> = (0..2000).map(|i| format!("({i}, 'p')")).collect();
    script.push_str(&format!("INSERT INTO t VALUES {};\n", values.join(",")));
    for i in 0..300 {
        if i == 150 {
            script.push_str("INSERT INTO nowhere VALUES (1);\n");
        } else {
            script.push_str(&format!("UPDATE t SET pad = 'statement {i:04}' WHERE x = {i};\n"));
        }
    }
    // The last finished statement ends at its `;` (the newline is not
    // part of it).
    let long_at = script.len() as u64 - 1;
    script.push_str("SELECT count(*) FROM t a, t b, t c;\n");
    let total = script.len() as u64;
    let id = submit(&res, &script, false);
    let deadline = Instant::now() + Duration::from_secs(60);
    let job = loop {
        let job = res.job(id).unwrap();
        assert!(!job.state.is_terminal(), "{job:?}");
        if job.progress.statements_done == 302 {
            break job;
        }
        assert!(Instant::now() < deadline, "never reached the long statement: {job:?}");
        std::thread::sleep(Duration::from_millis(2));
    };
    // Live progress: the running statement's start, counters so far.
    let p = &job.progress;
    assert_eq!(job.state, JobState::Processing);
    assert_eq!(p.bytes_total, total);
    assert_eq!(p.bytes_done, long_at, "bytes up to the end of the last finished statement");
    assert!(p.percent > 0.0 && p.percent < 100.0, "{p:?}");
    assert_eq!(p.rows_affected, 2000 + 299);
    assert_eq!(p.errors, 1);
    assert_eq!(job.statement_errors.len(), 1);
    assert_eq!(job.statement_errors[0].statement, Some(152));
    let stats = res.stats();
    assert_eq!(stats.worker, "running");
    assert_eq!(stats.current_job, Some(id));
    assert_eq!(stats.by_state["processing"], 1);
    assert_eq!(stats.active, 1);
    assert_eq!(stats.advice.pressure, asadb_reservoir::Pressure::Busy);
    assert_eq!(stats.statements_executed, 302);
    assert!(stats.throughput_bytes_per_sec > 0.0);

    // Persisted progress: a copy of the directory taken now opens with the
    // job interrupted at a position at most one quantum behind. (The
    // worker is inside the endless statement by now; the pause lets the
    // bookkeeping of the statement before it finish.)
    std::thread::sleep(Duration::from_millis(100));
    let copy = tempfile::tempdir().unwrap();
    std::fs::copy(dir.path().join("events.log"), copy.path().join("events.log")).unwrap();
    let reopened = Reservoir::open(copy.path(), cfg).unwrap();
    let persisted = reopened.job(id).unwrap();
    assert_eq!(persisted.state, JobState::Interrupted);
    assert!(
        persisted.progress.bytes_done + 4096 > long_at && persisted.progress.bytes_done <= long_at,
        "persisted {} vs live {long_at}",
        persisted.progress.bytes_done
    );
    assert!(persisted.progress.statements_done > 200);

    assert_eq!(res.cancel(id).unwrap().state, JobState::Cancelling);
    assert_eq!(wait_terminal(&res, id).state, JobState::Cancelled);
    let stats = res.stats();
    assert_eq!(stats.worker, "idle");
    assert_eq!(stats.current_job, None);
    assert_eq!(stats.by_state["cancelled"], 1);
    assert_eq!(stats.advice.pressure, asadb_reservoir::Pressure::Idle);
}

fn start_with(cfg: Config) -> (tempfile::TempDir, Reservoir, Engine) {
    let dir = tempfile::tempdir().unwrap();
    let res = Reservoir::open(dir.path(), cfg).unwrap();
    let engine = Engine::memory();
    res.start_worker(engine.clone()).unwrap();
    (dir, res, engine)
}

fn panicking() -> Config {
    Config { test_panic_marker: Some("PANIC_HERE".into()), ..Config::default() }
}

#[test]
fn a_panicking_statement_is_its_own_internal_error_and_the_job_goes_on() {
    let (_dir, res, engine) = start_with(panicking());
    let script = "CREATE TABLE t(a);\nINSERT INTO t VALUES (1);\nINSERT INTO t VALUES (2);\n\
                  SELECT 'PANIC_HERE';\nINSERT INTO t VALUES (3);\n";
    let id = submit(&res, script, false);
    let job = wait_terminal(&res, id);
    assert_eq!(job.state, JobState::Completed, "{job:?}");
    assert_eq!(count(&engine, "t"), 3, "the statements before and after it stay");
    assert_eq!(job.progress.errors, 1);
    assert_eq!(job.progress.rows_affected, 3);
    assert_eq!(job.statement_errors.len(), 1);
    let e = &job.statement_errors[0];
    assert_eq!((e.code.as_str(), e.statement), ("internal_error", Some(3)), "{e:?}");
    let page = res.result(id, 3, 0, 10).unwrap();
    assert_eq!(page.statement.error.as_ref().unwrap().code, "internal_error");

    // With stop-on-error, the panic fails the job at that statement and the
    // statements before it stay committed.
    let id = submit(
        &res,
        "INSERT INTO t VALUES (4);\nSELECT 'PANIC_HERE';\nINSERT INTO t VALUES (5);",
        true,
    );
    let job = wait_terminal(&res, id);
    assert_eq!(job.state, JobState::Failed);
    let e = job.error.unwrap();
    assert_eq!((e.code.as_str(), e.statement), ("internal_error", Some(1)));
    assert_eq!(job.progress.statements_committed, 1);
    assert_eq!(count(&engine, "t"), 4);

    // Inside the script's own transaction the panicking statement alone is
    // undone; the unit commits the rest.
    let id = submit(
        &res,
        "BEGIN;\nINSERT INTO t VALUES (6);\nSELECT 'PANIC_HERE';\nINSERT INTO t VALUES (7);\nCOMMIT;",
        false,
    );
    let job = wait_terminal(&res, id);
    assert_eq!(job.state, JobState::Completed, "{job:?}");
    assert_eq!(count(&engine, "t"), 6);
    // The worker is still there for the next job.
    let id = submit(&res, "INSERT INTO t VALUES (8);", true);
    assert_eq!(wait_terminal(&res, id).state, JobState::Completed);
    assert_eq!(count(&engine, "t"), 7);
}

#[test]
fn a_planner_panic_on_non_ascii_select_items_costs_one_statement_at_most() {
    // `SELECT 'Müller'` panicked in the planner (issue 9 fixes it there);
    // either way the statements around it are kept.
    let (_dir, res, engine) = start();
    let script = "CREATE TABLE t(a);\nINSERT INTO t VALUES (1);\nSELECT 'Müller';\nINSERT INTO t VALUES (2);\n";
    let id = submit(&res, script, false);
    let job = wait_terminal(&res, id);
    assert_eq!(job.state, JobState::Completed, "{job:?}");
    assert_eq!(count(&engine, "t"), 2);
    let page = res.result(id, 2, 0, 10).unwrap();
    match &page.statement.error {
        None => assert_eq!(page.rows, vec![serde_json::json!(["Müller"])]),
        Some(e) => assert_eq!(e.code, "internal_error", "{e:?}"),
    }
}

#[test]
fn a_lexical_error_keeps_the_statements_before_it_like_any_error() {
    let (_dir, res, engine) = start();
    let mut script = String::from("CREATE TABLE t(a);\n");
    for i in 0..5 {
        script.push_str(&format!("INSERT INTO t VALUES ({i});\n"));
    }
    script.push_str("INSERT INTO t VALUES ('never closed);\n");
    let id = submit(&res, &script, true);
    let job = wait_terminal(&res, id);
    assert_eq!(job.state, JobState::Failed);
    let e = job.error.as_ref().unwrap();
    assert_eq!((e.code.as_str(), e.statement), ("script_error", Some(6)), "{e:?}");
    assert_eq!(count(&engine, "t"), 5, "the statements before the lexical error stay");
    assert_eq!(job.progress.statements_committed, 6);
    assert_eq!(job.progress.rows_affected, 5, "counters count what is durable");
}

#[test]
fn a_byte_order_mark_before_the_script_is_skipped() {
    let (_dir, res, engine) = start();
    let script = "\u{feff}CREATE TABLE bom(a);\nINSERT INTO bom VALUES (1);\n";
    let id = submit(&res, script, true);
    let job = wait_terminal(&res, id);
    assert_eq!(job.state, JobState::Completed, "{job:?}");
    assert_eq!(count(&engine, "bom"), 1);
    assert_eq!(job.progress.bytes_done, script.len() as u64);
    // Only at the start: a BOM inside a statement is still an error.
    let id =
        submit(&res, "INSERT INTO bom VALUES (2);\n\u{feff}INSERT INTO bom VALUES (3);", false);
    let job = wait_terminal(&res, id);
    assert_eq!(job.progress.errors, 1, "{job:?}");
}

#[test]
fn a_cancelled_batch_takes_its_counters_back() {
    let (_dir, res, engine) = start();
    let mut script = String::from("CREATE TABLE t(x INTEGER PRIMARY KEY);\n");
    for i in 0..50 {
        script.push_str(&format!("INSERT INTO t VALUES ({i});\n"));
    }
    script.push_str("INSERT INTO nowhere VALUES (1);\n");
    script.push_str("SELECT count(*) FROM t a, t b, t c, t d, t e;\n");
    let id = submit(&res, &script, false);
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let job = res.job(id).unwrap();
        if job.progress.statements_done == 52 {
            assert_eq!((job.progress.rows_affected, job.progress.errors), (50, 1));
            assert_eq!(job.statement_errors.len(), 1);
            break;
        }
        assert!(Instant::now() < deadline, "{job:?}");
        std::thread::sleep(Duration::from_millis(2));
    }
    res.cancel(id).unwrap();
    let job = wait_terminal(&res, id);
    assert_eq!(job.state, JobState::Cancelled);
    let gone = engine.session().execute("SELECT count(*) FROM t", &Params::None);
    assert!(gone.is_err(), "the batch (with its CREATE TABLE) was rolled back");
    let p = &job.progress;
    assert_eq!(
        (p.rows_affected, p.errors, p.statements_done, p.statements_committed),
        (0, 0, 0, 0)
    );
    assert!(job.statement_errors.is_empty(), "{job:?}");
}

/// Transaction control is recognised by the parser, not by the text: a
/// `ROLLBACK TO` spelt over two lines inside the script's own transaction
/// undoes to the savepoint and the transaction goes on to its COMMIT.
#[test]
fn rollback_to_over_lines_stays_inside_the_scripts_transaction() {
    let (_dir, res, engine) = start();
    let script = "CREATE TABLE t(a);\nBEGIN;\nINSERT INTO t VALUES (1);\nSAVEPOINT sp;\n\
                  INSERT INTO t VALUES (2);\nROLLBACK\nTO sp;\nINSERT INTO t VALUES (3);\nCOMMIT;\n";
    let id = submit(&res, script, true);
    let job = wait_terminal(&res, id);
    assert_eq!(job.state, JobState::Completed, "{:?}", job.error);
    assert_eq!(count(&engine, "t"), 2);
}
