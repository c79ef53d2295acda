//! The stable short form of the `eventlog` fuzz target (`fuzz/`): every
//! file of `fuzz/corpus/eventlog/` is replayed through
//! `asadb_reservoir::fuzz::eventlog`, then a seeded mutational loop runs
//! more. Invariant: an `events.log` of any bytes — torn, foreign, with
//! valid checksums over hostile JSON — opens or is refused, recovery and
//! every call on the recovered jobs return, and never panic.
//!
//! `ASADB_FUZZ_ITERATIONS=N` sets the number of mutated inputs; the
//! ignored `long_eventlog` runs 100 times as many.

use std::path::PathBuf;

use asadb_reservoir::fuzz;

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus/eventlog")
}

const DICT: &[&[u8]] = &[
    b"\xff",
    b"\"",
    b"{",
    b"}",
    b"[",
    b"]",
    b",",
    b":",
    b"null",
    b"true",
    b"0",
    b"-1",
    b"18446744073709551615",
    b"18446744073709551616",
    b"9223372036854775807",
    b"1e999",
    b"\"processing\"",
    b"\"receiving\"",
    b"\"cancelling\"",
    b"\"completed\"",
    b"\"interrupted\"",
    b"{\"forget\":1}",
    b"{\"nextid\":18446744073709551615}",
    b"\"reserved_bytes\":",
    b"\"id\":",
    b"\"has_spool\":true",
    b"\"has_result\":true",
    b"\"updated_at\":",
    b"ASAEVT1\n",
];

#[test]
fn eventlog_corpus_and_mutations() {
    asadb_sql::fuzz::replay_corpus(
        fuzz::eventlog,
        &corpus(),
        DICT,
        asadb_sql::fuzz::iterations(1500),
        5,
    );
}

#[test]
#[ignore = "long run: cargo test -p asadb-reservoir --test fuzz_targets -- --ignored"]
fn long_eventlog() {
    asadb_sql::fuzz::replay_corpus(
        fuzz::eventlog,
        &corpus(),
        DICT,
        asadb_sql::fuzz::iterations(1500) * 100,
        15,
    );
}

/// Framing gives records the decoder accepts: a framed job snapshot from
/// the corpus comes back as a job.
#[test]
fn framed_inputs_reach_the_decoder() {
    let files = asadb_sql::fuzz::corpus(&corpus());
    let framed = files.iter().find(|(_, b)| b.first() == Some(&1)).expect("a framed seed");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("events.log"), fuzz::log_bytes(&framed.1)).unwrap();
    let res = asadb_reservoir::Reservoir::open(dir.path(), Default::default()).unwrap();
    assert!(!res.jobs().is_empty(), "no job decoded from {}", framed.0.display());
    res.shutdown();
}

/// Writes the `eventlog` corpus from a real Reservoir (two jobs, one
/// cancelled): the log as a file, and its payloads framed. Run it after a
/// change to the job snapshot:
/// `ASADB_WRITE_EVENTLOG_CORPUS=1 cargo test -p asadb-reservoir --test fuzz_targets write_eventlog_corpus -- --ignored`.
#[test]
#[ignore = "writes fuzz/corpus/eventlog (run after a snapshot change)"]
fn write_eventlog_corpus() {
    use asadb_reservoir::{Reservoir, SubmitOptions};
    if std::env::var_os("ASADB_WRITE_EVENTLOG_CORPUS").is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let res = Reservoir::open(dir.path(), Default::default()).unwrap();
    let opts = SubmitOptions {
        label: Some("load".into()),
        idempotency_key: Some("k1".into()),
        stop_on_error: Some(false),
        ..Default::default()
    };
    res.submit(opts, &b"CREATE TABLE t (a); INSERT INTO t VALUES (1);"[..]).unwrap();
    let second = res.submit(SubmitOptions::default(), &b"SELECT 1;"[..]).unwrap();
    res.cancel(second.job.id).unwrap();
    res.shutdown();
    drop(res);
    let log = std::fs::read(dir.path().join("events.log")).unwrap();
    let out = corpus();
    std::fs::create_dir_all(&out).unwrap();
    let mut raw = vec![0];
    raw.extend_from_slice(&log);
    std::fs::write(out.join("jobs.raw"), raw).unwrap();
    // The payloads, framed again by the target.
    let mut framed = vec![1];
    let mut at = 8;
    while at + 8 <= log.len() {
        let len = u32::from_le_bytes(log[at..at + 4].try_into().unwrap()) as usize;
        if at > 8 {
            framed.push(0xFF);
        }
        framed.extend_from_slice(&log[at + 8..at + 8 + len]);
        at += 8 + len;
    }
    std::fs::write(out.join("jobs.framed"), &framed).unwrap();
    let mut torn = framed.clone();
    torn[0] = 3;
    std::fs::write(out.join("jobs-torn.framed"), torn).unwrap();
    std::fs::write(out.join("foreign-magic.raw"), b"\x00SQLite format 3\x00").unwrap();
    std::fs::write(out.join("short.raw"), b"\x00ASAEV").unwrap();
}

/// Findings kept as tests: snapshots at the ends of the number range (the
/// largest job id, reservations that overflow when summed, the largest
/// next id) are durable input, not arithmetic to overflow on.
#[test]
fn extreme_numbers_in_snapshots_do_not_panic() {
    let files = asadb_sql::fuzz::corpus(&corpus());
    let framed = &files.iter().find(|(p, _)| p.ends_with("jobs.framed")).expect("jobs.framed").1;
    let text = String::from_utf8_lossy(framed).into_owned();
    let max = u64::MAX.to_string();
    let cases = [
        text.replace("\"id\":1,", &format!("\"id\":{max},")),
        text.replace("\"id\":2,", &format!("\"id\":{max},")),
        text.replace("\"reserved_bytes\":0", &format!("\"reserved_bytes\":{max}"))
            .replace("\"reserved_bytes\":2097152", &format!("\"reserved_bytes\":{max}")),
        text.replace("{\"nextid\":1}", &format!("{{\"nextid\":{max}}}")),
    ];
    for case in cases {
        // Back to bytes with the 0xFF separators the lossy text replaced.
        let mut bytes = vec![1];
        bytes.extend(
            case[1..].replace('\u{FFFD}', "\u{2}").bytes().map(|b| if b == 2 { 0xFF } else { b }),
        );
        asadb_sql::fuzz::run_one(fuzz::eventlog, "an extreme snapshot", &bytes);
    }
}
