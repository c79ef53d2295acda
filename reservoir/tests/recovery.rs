//! Restart recovery of the Reservoir and the durability of its event log.
//!
//! Invariants pinned here: after a restart, queued jobs stay queued,
//! receiving jobs become interrupted (and lose their partial spool),
//! processing or cancelling jobs become completed when a complete result
//! exists and interrupted otherwise; files no job references are removed;
//! the capacity counters equal the sum of the persisted reservations; and
//! an event log cut at any byte offset still opens, yielding a prefix of
//! the history.

use std::fs;

use asadb_reservoir::eventlog::{EventLog, Record};
use asadb_reservoir::{Config, JobState, Reservoir, SubmitOptions};

fn cfg() -> Config {
    Config { max_jobs: 8, max_spool_bytes: 8 << 20, receive_chunk: 4096, ..Config::default() }
}

/// Rewrites the latest snapshot of a job with another state, as if the
/// process had died in that state.
fn force_state(dir: &std::path::Path, id: asadb_reservoir::JobId, state: JobState) {
    let (mut log, replay) = EventLog::open(&dir.join("events.log")).unwrap();
    let mut job = replay.jobs[&id].clone();
    job.state = state;
    log.append(&Record::Job(Box::new(job)), true).unwrap();
}

#[test]
fn every_state_recovers_as_specified() {
    let dir = tempfile::tempdir().unwrap();
    let res = Reservoir::open(dir.path(), cfg()).unwrap();
    let o = SubmitOptions::default;
    let queued = res.submit(o(), &b"SELECT 1;"[..]).unwrap().job.id;
    let processing = res.submit(o(), &b"SELECT 2;"[..]).unwrap().job.id;
    let done = res.submit(o(), &b"SELECT 3;"[..]).unwrap().job.id;
    let cancelling = res.submit(o(), &b"SELECT 4;"[..]).unwrap().job.id;
    let mut receiving = res.begin_upload(o()).unwrap();
    receiving.write(&vec![b'q'; 10_000]).unwrap();
    let receiving_id = receiving.id();
    // The process dies: nothing runs Drop.
    std::mem::forget(receiving);
    drop(res);
    force_state(dir.path(), processing, JobState::Processing);
    force_state(dir.path(), done, JobState::Processing);
    force_state(dir.path(), cancelling, JobState::Cancelling);
    fs::write(dir.path().join("results").join(format!("{done}.result")), b"complete").unwrap();
    fs::write(dir.path().join("results").join("77.result.tmp"), b"half").unwrap();
    fs::write(dir.path().join("spool").join("99.body"), b"orphan").unwrap();

    let res = Reservoir::open(dir.path(), cfg()).unwrap();
    assert_eq!(res.job(queued).unwrap().state, JobState::Queued);
    let p = res.job(processing).unwrap();
    assert_eq!(p.state, JobState::Interrupted);
    assert!(p.is_resumable(), "its spool is kept for resume");
    assert_eq!(res.job(done).unwrap().state, JobState::Completed);
    assert_eq!(res.job(cancelling).unwrap().state, JobState::Interrupted);
    let r = res.job(receiving_id).unwrap();
    assert_eq!(r.state, JobState::Interrupted);
    assert!(!r.is_resumable(), "a partial body cannot be resumed");
    assert!(res.resume(receiving_id).is_err());

    let mut spool: Vec<String> = fs::read_dir(dir.path().join("spool"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    spool.sort();
    let mut expect =
        vec![format!("{queued}.body"), format!("{processing}.body"), format!("{cancelling}.body")];
    expect.sort();
    assert_eq!(spool, expect, "orphans and partial uploads removed");
    let results: Vec<_> = fs::read_dir(dir.path().join("results")).unwrap().collect();
    assert_eq!(results.len(), 1, "only the complete result is kept");

    // Counters are the sum of the persisted reservations.
    let sum: u64 = res.jobs().iter().map(|j| j.reserved_bytes).sum();
    assert_eq!(res.stats().reserved_bytes, sum);
    assert_eq!(sum, 3 * 9);

    // Interrupted work is never replayed on its own; resume queues it.
    assert_eq!(res.resume(processing).unwrap().state, JobState::Queued);
    assert!(res.resume(done).is_err(), "completed jobs cannot be resumed");
}

#[test]
fn counters_rebuilt_from_records_not_configuration() {
    let dir = tempfile::tempdir().unwrap();
    let res = Reservoir::open(dir.path(), cfg()).unwrap();
    for i in 0..3 {
        res.submit(SubmitOptions::default(), format!("SELECT {i};").as_bytes()).unwrap();
    }
    drop(res);
    // A smaller configuration does not change what is already reserved.
    let small = Config { max_spool_bytes: 1 << 20, baseline_reservation: 1 << 20, ..cfg() };
    let res = Reservoir::open(dir.path(), small).unwrap();
    assert_eq!(res.stats().reserved_bytes, 27);
}

#[test]
fn event_log_truncated_at_every_offset_opens() {
    let dir = tempfile::tempdir().unwrap();
    {
        let res = Reservoir::open(dir.path(), cfg()).unwrap();
        for i in 0..3 {
            let id = res.submit(SubmitOptions::default(), format!("SELECT {i};").as_bytes());
            let id = id.unwrap().job.id;
            if i == 1 {
                res.cancel(id).unwrap();
            }
        }
    }
    let log = fs::read(dir.path().join("events.log")).unwrap();
    let mut last_count = 0;
    let mut checked = 0;
    // Thousands of opens, each fsyncing: use a RAM-backed directory when
    // the machine has one.
    let shm = std::path::Path::new("/dev/shm");
    for cut in 0..=log.len() {
        let case = if shm.is_dir() {
            tempfile::tempdir_in(shm).unwrap()
        } else {
            tempfile::tempdir().unwrap()
        };
        fs::create_dir_all(case.path().join("spool")).unwrap();
        fs::write(case.path().join("events.log"), &log[..cut]).unwrap();
        let (_, replay) = EventLog::open(&case.path().join("events.log")).unwrap();
        // A longer prefix never knows fewer jobs (the history only grows).
        assert!(replay.jobs.len() >= last_count || cut == 0, "cut {cut}");
        last_count = replay.jobs.len();
        // And the Reservoir itself opens on it.
        let res = Reservoir::open(case.path(), cfg()).unwrap();
        let sum: u64 = res.jobs().iter().map(|j| j.reserved_bytes).sum();
        assert_eq!(res.stats().reserved_bytes, sum);
        checked += 1;
    }
    assert_eq!(last_count, 3);
    println!("event log cut at {checked} offsets");
}

#[test]
fn foreign_file_is_refused_not_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("events.log"), b"this is not an event log at all").unwrap();
    let err = Reservoir::open(dir.path(), cfg()).unwrap_err();
    assert!(matches!(err, asadb_reservoir::Error::Corrupt(_)));
    assert_eq!(
        fs::read(dir.path().join("events.log")).unwrap(),
        b"this is not an event log at all"
    );
}
