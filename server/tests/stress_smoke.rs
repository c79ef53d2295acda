//! The stress run in short form (10,000 rows), for CI: the real `asadb`
//! binary takes the generated script through `POST /api/reservoir/jobs`,
//! is stopped with SIGTERM and started again, and gives every row back
//! through `/api/query` pages, both keyset and offset paging.
//!
//! Invariants pinned: the job completes with every statement run
//! (`progress.statements_done`, and `asadb_statements_executed_total` in
//! `/metrics`) and every row affected; the server exits 0 on SIGTERM and
//! restarts on the same directory with the job still completed; the
//! read-back returns every row exactly once, in id order, with the
//! generator's values and types. No timing is asserted (`benches/stress.rs`
//! measures).

#[path = "common/stress.rs"]
mod stress;

use std::time::Duration;

use stress::{Paging, Server, read_back, write_script};

const ROWS: u64 = 10_000;

#[test]
fn script_through_the_reservoir_survives_a_restart_and_reads_back_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let script = write_script(&dir.path().join("script.sql"), ROWS);
    assert_eq!(script.statements, ROWS / 100 + 3);

    let server = Server::spawn(&data, &[]);
    let client = server.client();
    let id = client.submit_file(&script.path);
    let job = client.wait_terminal(id, Duration::from_secs(120));
    assert_eq!(job["state"], "completed", "{job}\n{}", server.stderr());
    let progress = &job["progress"];
    assert_eq!(progress["statements_done"], script.statements, "{job}");
    assert_eq!(progress["rows_affected"], ROWS, "{job}");
    assert_eq!(progress["errors"], 0, "{job}");
    assert_eq!(progress["bytes_done"], script.bytes, "{job}");
    assert_eq!(
        client.metric("asadb_statements_executed_total"),
        Some(script.statements as f64),
        "the worker ran each statement once"
    );
    assert_eq!(client.metric("asadb_reservoir_bytes_received_total"), Some(script.bytes as f64));
    let status = server.terminate();
    assert!(status.success(), "SIGTERM exit: {status}");

    let server = Server::spawn(&data, &[]);
    let client = server.client();
    let job = client.job(id);
    assert!(["completed", "delivered"].contains(&job["state"].as_str().unwrap()), "{job}");
    // A fresh process has run no statement yet.
    assert_eq!(client.metric("asadb_statements_executed_total"), Some(0.0));
    for paging in [Paging::Keyset, Paging::Offset] {
        let back = read_back(&client, paging, Duration::from_secs(300));
        assert!(!back.gave_up, "{paging:?} paging did not finish: {back:?}");
        back.verifier.finish(&script).unwrap_or_else(|e| panic!("{paging:?} paging: {e}"));
        assert!(back.pages >= ROWS / 500, "{paging:?}: {} pages", back.pages);
    }
    let status = server.terminate();
    assert!(status.success(), "SIGTERM exit after the read-back: {status}");
}

/// The generator itself: the checksum and the verifier see every value,
/// so a changed, missing or extra row is caught, and the script has the
/// stated shape.
#[test]
fn the_verifier_catches_a_changed_missing_or_repeated_row() {
    let dir = tempfile::tempdir().unwrap();
    let script = write_script(&dir.path().join("s.sql"), 1_000);
    let text = std::fs::read_to_string(&script.path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len() as u64, script.statements);
    assert_eq!(lines[1], "BEGIN;");
    assert_eq!(lines.last(), Some(&"COMMIT;"));
    assert!(text.contains("'o''k'") && text.contains(",NULL,") && text.contains("NULL)"));

    let mut good = stress::Verifier::default();
    for id in 1..=1_000 {
        good.check(&stress::row(id)).unwrap();
    }
    good.finish(&script).unwrap();

    let mut changed = stress::row(5);
    changed.price += 0.01;
    let mut v = stress::Verifier::default();
    (1..5).for_each(|id| v.check(&stress::row(id)).unwrap());
    assert!(v.check(&changed).is_err());
    assert!(v.check(&stress::row(6)).is_err(), "a skipped row is caught");
    assert!(v.check(&stress::row(4)).is_err(), "a repeated row is caught");

    let mut short = stress::Verifier::default();
    (1..1_000).for_each(|id| short.check(&stress::row(id)).unwrap());
    assert!(short.finish(&script).is_err(), "a missing last row is caught");

    // Types count: an integral price must come back as a real.
    let r = stress::row(3);
    let json = serde_json::json!([3, r.name, r.qty, r.price, r.note]);
    assert_eq!(stress::Row::from_json(&json).unwrap(), r);
    let as_int = serde_json::json!([3, r.name, r.qty, 7, r.note]);
    assert!(stress::Row::from_json(&as_int).is_err());
}
