//! An imported value longer than `max_value_bytes`.
//!
//! Scenario: a CSV whose second row holds a field longer than the
//! Reservoir's `max_value_bytes` (set small here; 16 MiB by default, the
//! server's `--max-value-bytes`) is imported, with and without
//! stop-on-error.
//!
//! Invariants pinned here: a job's result rows are never longer than the
//! limit, and neither are the rows an import writes — so whatever is
//! imported can be read back through the API. With stop-on-error the job
//! fails with the typed `too_large` error naming the row's line and
//! column, and nothing of that batch is written; without, the other rows
//! are written and the long row is recorded as a `too_large` error.

use std::time::{Duration, Instant};

use asadb_reservoir::{Config, ImportMeta, Job, JobId, JobState, Reservoir, SubmitOptions};
use asadb_sql::Value;
use asadb_sql::session::{Engine, Outcome, Params};

const LIMIT: usize = 1000;

fn run(stop_on_error: bool) -> (Job, Vec<Vec<Value>>) {
    let dir = tempfile::tempdir().unwrap();
    let engine = Engine::open(&dir.path().join("db.asa"), asadb_txn::Options::default()).unwrap();
    let cfg = Config { max_value_bytes: LIMIT, ..Config::default() };
    let res = Reservoir::open(&dir.path().join(".asa.reservoir"), cfg).unwrap();
    res.start_worker(engine.clone()).unwrap();
    let body = format!("id,t\n1,a\n2,\"{}\"\n3,{}\n", "x".repeat(LIMIT + 1), "y".repeat(LIMIT));
    let opts = SubmitOptions {
        stop_on_error: Some(stop_on_error),
        import: ImportMeta {
            format: "csv".parse().unwrap(),
            target_table: Some("t".into()),
            ..ImportMeta::default()
        },
        ..SubmitOptions::default()
    };
    let id: JobId = res.submit(opts, body.as_bytes()).unwrap().job.id;
    let deadline = Instant::now() + Duration::from_secs(60);
    let job = loop {
        let job = res.job(id).unwrap();
        if job.state.is_terminal() {
            break job;
        }
        assert!(Instant::now() < deadline, "job stuck in {}", job.state);
        std::thread::sleep(Duration::from_millis(5));
    };
    res.shutdown();
    let rows = match engine.session().execute("SELECT id, length(t) FROM t", &Params::None).unwrap()
    {
        Outcome::Rows { rows, .. } => rows,
        o => panic!("{o:?}"),
    };
    (job, rows)
}

#[test]
fn a_value_over_the_limit_fails_the_import_naming_its_line() {
    let (job, rows) = run(true);
    assert_eq!(job.state, JobState::Failed, "{job:?}");
    let e = job.error.unwrap();
    assert_eq!(e.code, "too_large", "{e:?}");
    assert!(e.message.contains("line 3") && e.message.contains("column 2"), "{e:?}");
    assert!(e.message.contains(&format!("{}-byte", LIMIT + 1)), "{e:?}");
    assert!(rows.is_empty(), "the failing batch wrote {rows:?}");
}

#[test]
fn without_stop_on_error_the_long_row_is_an_error_and_the_rest_loads() {
    let (job, rows) = run(false);
    assert_eq!(job.state, JobState::Completed, "{job:?}");
    assert_eq!(
        rows,
        vec![
            vec![Value::Integer(1), Value::Integer(1)],
            vec![Value::Integer(3), Value::Integer(LIMIT as i64)]
        ]
    );
    assert_eq!(job.statement_errors.len(), 1, "{:?}", job.statement_errors);
    let e = &job.statement_errors[0];
    assert_eq!(e.code, "too_large");
    assert!(e.message.contains("line 3"), "{e:?}");
}

/// A batch that fails in the engine (a NOT NULL row on line 4): with
/// stop-on-error the batch is not copied before it runs, so the worker
/// reads it again from the spool to name the failing row's line.
#[test]
fn a_failing_row_is_named_by_its_line_from_the_reread_batch() {
    let dir = tempfile::tempdir().unwrap();
    let engine = Engine::open(&dir.path().join("db.asa"), asadb_txn::Options::default()).unwrap();
    engine
        .session()
        .execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)", &Params::None)
        .unwrap();
    let res = Reservoir::open(&dir.path().join(".asa.reservoir"), Config::default()).unwrap();
    res.start_worker(engine.clone()).unwrap();
    let opts = SubmitOptions {
        import: ImportMeta {
            format: "csv".parse().unwrap(),
            target_table: Some("t".into()),
            ..ImportMeta::default()
        },
        ..SubmitOptions::default()
    };
    let id = res.submit(opts, "id,v\n1,a\n2,b\n3,\n4,d\n".as_bytes()).unwrap().job.id;
    let deadline = Instant::now() + Duration::from_secs(60);
    let job = loop {
        let job = res.job(id).unwrap();
        if job.state.is_terminal() {
            break job;
        }
        assert!(Instant::now() < deadline, "job stuck in {}", job.state);
        std::thread::sleep(Duration::from_millis(5));
    };
    res.shutdown();
    assert_eq!(job.state, JobState::Failed, "{job:?}");
    let e = job.error.unwrap();
    assert!(e.message.contains("line 4") && e.message.contains("NOT NULL"), "{e:?}");
    match engine.session().execute("SELECT count(*) FROM t", &Params::None).unwrap() {
        Outcome::Rows { rows, .. } => assert_eq!(rows[0][0], Value::Integer(0)),
        o => panic!("{o:?}"),
    }
}
