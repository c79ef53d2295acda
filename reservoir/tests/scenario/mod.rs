//! The job mix that `faults.rs` (a failing call) and `crash.rs` (a power
//! cut) both run: its scripts, options, and the checks of job A's result
//! and of the table's rows.

use std::time::Duration;

use asadb_reservoir::{Config, Job, JobId, JobState, Reservoir, SubmitOptions};
use asadb_sql::Value;
use asadb_sql::session::{Engine, Outcome, Params};

pub const DIR: &str = "/data/.asa.reservoir";
/// Rows of job A's result (several pages, several row-index steps).
pub const A_ROWS: i64 = 150;
pub const PAGE: usize = 40;

pub fn cfg() -> Config {
    // Terminal jobs expire at once, so `sweep` forgets them.
    Config { job_ttl: Duration::ZERO, result_page_rows: PAGE, ..Config::default() }
}

/// Inserts rows 1..=A_ROWS, then selects them (a multi-page result).
pub fn script_a() -> String {
    let values: Vec<String> = (1..=A_ROWS).map(|i| format!("({i}, 'a{i}')")).collect();
    format!(
        "INSERT INTO t VALUES {};\nSELECT a, b FROM t WHERE a <= {A_ROWS} ORDER BY a;\n",
        values.join(", ")
    )
}

/// Fails at its second statement (stop-on-error keeps the first).
pub const SCRIPT_B: &str =
    "INSERT INTO t VALUES (1001, 'b');\nSELEC nonsense;\nINSERT INTO t VALUES (1002, 'b');\n";
/// Cancelled while queued.
pub const SCRIPT_C: &str = "INSERT INTO t VALUES (3001, 'c');\n";

pub fn opts(label: &str, key: Option<&str>) -> SubmitOptions {
    SubmitOptions {
        label: Some(label.into()),
        idempotency_key: key.map(str::to_owned),
        stop_on_error: Some(true),
        ..SubmitOptions::default()
    }
}

pub fn label(job: &Job) -> &str {
    job.label.as_deref().unwrap_or("")
}

/// The integer a one-value query answers.
pub fn count(engine: &Engine, sql: &str) -> i64 {
    match engine.session().execute(sql, &Params::None).unwrap() {
        Outcome::Rows { rows, .. } => match rows[0][0] {
            Value::Integer(n) => n,
            ref v => panic!("{v:?}"),
        },
        other => panic!("{other:?}"),
    }
}

/// Job A's full result, page by page.
pub fn check_result_a(res: &Reservoir, id: JobId, what: &str) {
    let mut offset = 0;
    let mut seen = 0;
    loop {
        let page = res.result(id, 1, offset, 0).unwrap_or_else(|e| panic!("{what}: {e}"));
        for (i, row) in page.rows.iter().enumerate() {
            let n = offset as i64 + i as i64 + 1;
            assert_eq!(row, &serde_json::json!([n, format!("a{n}")]), "{what}");
        }
        seen += page.rows.len();
        match page.next_offset {
            Some(next) => offset = next,
            None => break,
        }
    }
    assert_eq!(seen as i64, A_ROWS, "{what}");
}

/// How many of `jobs` labelled `l` ended completed (or delivered).
pub fn completed(jobs: &[Job], l: &str) -> i64 {
    jobs.iter()
        .filter(|j| label(j) == l)
        .filter(|j| matches!(j.state, JobState::Completed | JobState::Delivered))
        .count() as i64
}
