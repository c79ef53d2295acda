//! Admission, receiving, idempotency, cancellation and retention of the
//! Reservoir, without the worker.
//!
//! Invariants pinned here: the spool ceiling holds whatever size a client
//! declares (or omits); a failed or cancelled upload leaves no spool file
//! and no reservation behind; an idempotent retry returns the same job and
//! a reused key with another body is a conflict; cancelling a receiving job
//! never queues it.

use std::fs;
use std::path::Path;

use asadb_reservoir::{
    Config, Error, ImportMeta, JobId, JobState, Pressure, Reservoir, SubmitOptions,
};

fn cfg() -> Config {
    Config {
        max_jobs: 4,
        max_spool_bytes: 4 << 20,
        baseline_reservation: 1 << 20,
        receive_chunk: 64 << 10,
        ..Config::default()
    }
}

fn spool_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir.join("spool"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn opts() -> SubmitOptions {
    SubmitOptions::default()
}

#[test]
fn submit_queues_with_fingerprint_and_exact_reservation() {
    let dir = tempfile::tempdir().unwrap();
    let res = Reservoir::open(dir.path(), cfg()).unwrap();
    let body = b"CREATE TABLE t(a); INSERT INTO t VALUES (1);".to_vec();
    let sub = res.submit(opts(), &body[..]).unwrap();
    assert!(!sub.reused);
    let job = sub.job;
    assert_eq!(job.state, JobState::Queued);
    assert_eq!(job.received_bytes, body.len() as u64);
    assert_eq!(job.progress.bytes_total, body.len() as u64);
    assert_eq!(job.fingerprint.as_ref().unwrap().len(), 64, "hex SHA-256");
    assert_eq!(res.stats().reserved_bytes, body.len() as u64);
    assert_eq!(spool_files(dir.path()), vec![format!("{}.body", job.id)]);
    let on_disk = fs::read(dir.path().join("spool").join(format!("{}.body", job.id))).unwrap();
    assert_eq!(on_disk, body);
}

#[test]
fn fingerprint_is_sha256() {
    let dir = tempfile::tempdir().unwrap();
    let res = Reservoir::open(dir.path(), cfg()).unwrap();
    let job = res.submit(opts(), &b"abc"[..]).unwrap().job;
    assert_eq!(
        job.fingerprint.as_deref(),
        Some("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    );
}

#[test]
fn job_limit_gives_capacity_exhausted() {
    let dir = tempfile::tempdir().unwrap();
    let res = Reservoir::open(dir.path(), Config { max_spool_bytes: 64 << 20, ..cfg() }).unwrap();
    for _ in 0..4 {
        res.submit(opts(), &b"SELECT 1;"[..]).unwrap();
    }
    assert_eq!(res.stats().advice.pressure, Pressure::Saturated);
    let err = res.submit(opts(), &b"SELECT 1;"[..]).unwrap_err();
    assert!(matches!(err, Error::CapacityExhausted(_)), "{err}");
    assert!(err.is_retryable());
    // Cancelling a queued job frees its slot.
    let first = res.active_jobs().last().unwrap().id;
    assert_eq!(res.cancel(first).unwrap().state, JobState::Cancelled);
    res.submit(opts(), &b"SELECT 1;"[..]).unwrap();
}

#[test]
fn understated_size_is_cut_off() {
    let dir = tempfile::tempdir().unwrap();
    let res = Reservoir::open(dir.path(), cfg()).unwrap();
    let body = vec![b'x'; 200_000];
    let o = SubmitOptions { declared_size: Some(100_000), ..opts() };
    let err = res.submit(o, &body[..]).unwrap_err();
    assert!(matches!(err, Error::TooLarge(_)), "{err}");
    assert_eq!(res.stats().reserved_bytes, 0);
    assert!(spool_files(dir.path()).is_empty());
    let job = res.jobs().pop().unwrap();
    assert_eq!(job.state, JobState::Failed);
    assert_eq!(job.error.unwrap().code, "too_large");
}

#[test]
fn declared_size_past_capacity_is_refused_at_admission() {
    let dir = tempfile::tempdir().unwrap();
    let res = Reservoir::open(dir.path(), cfg()).unwrap();
    let o = SubmitOptions { declared_size: Some(5 << 20), ..opts() };
    assert!(matches!(res.begin_upload(o), Err(Error::TooLarge(_))));
    assert!(res.jobs().is_empty());
}

#[test]
fn absent_size_grows_until_the_ceiling() {
    let dir = tempfile::tempdir().unwrap();
    let res = Reservoir::open(dir.path(), cfg()).unwrap();
    let mut up = res.begin_upload(opts()).unwrap();
    assert_eq!(res.stats().reserved_bytes, 1 << 20, "baseline reservation");
    let chunk = vec![b'y'; 100_000];
    let mut err = None;
    for _ in 0..100 {
        if let Err(e) = up.write(&chunk) {
            err = Some(e);
            break;
        }
        assert!(res.stats().reserved_bytes <= 4 << 20, "ceiling holds while growing");
    }
    let err = err.expect("the ceiling must stop a 10 MB body");
    assert!(matches!(err, Error::TooLarge(_)), "{err}");
    drop(up);
    assert_eq!(res.stats().reserved_bytes, 0);
    assert!(spool_files(dir.path()).is_empty());
}

#[test]
fn growth_blocked_by_other_jobs_is_capacity_exhausted() {
    let dir = tempfile::tempdir().unwrap();
    let res = Reservoir::open(dir.path(), cfg()).unwrap();
    let big = SubmitOptions { declared_size: Some(3 << 20), ..opts() };
    let _holder = res.begin_upload(big).unwrap();
    let mut up = res.begin_upload(opts()).unwrap();
    let err = up.write(&vec![0u8; 2 << 20]).unwrap_err();
    assert!(matches!(err, Error::CapacityExhausted(_)), "{err}");
    assert_eq!(res.stats().reserved_bytes, 3 << 20);
}

#[test]
fn idempotent_retry_and_conflict() {
    let dir = tempfile::tempdir().unwrap();
    let res = Reservoir::open(dir.path(), cfg()).unwrap();
    let keyed = |key: &str, table: Option<&str>| SubmitOptions {
        idempotency_key: Some(key.into()),
        import: ImportMeta { target_table: table.map(Into::into), ..ImportMeta::default() },
        ..opts()
    };
    let first = res.submit(keyed("k1", None), &b"SELECT 1;"[..]).unwrap();
    assert!(!first.reused);
    // Same key, same bytes: the same job, and no new spool file.
    let again = res.submit(keyed("k1", None), &b"SELECT 1;"[..]).unwrap();
    assert!(again.reused);
    assert_eq!(again.job.id, first.job.id);
    assert_eq!(spool_files(dir.path()).len(), 1);
    // Same key, other bytes: conflict.
    let err = res.submit(keyed("k1", None), &b"SELECT 2;"[..]).unwrap_err();
    assert!(matches!(err, Error::Conflict(_)), "{err}");
    // Same key, same bytes, other metadata: conflict too.
    let err = res.submit(keyed("k1", Some("other")), &b"SELECT 1;"[..]).unwrap_err();
    assert!(matches!(err, Error::Conflict(_)), "{err}");
    // Same bytes under another key (or none), other target table: a new job.
    let other = res.submit(keyed("k2", Some("other")), &b"SELECT 1;"[..]).unwrap();
    assert!(!other.reused);
    assert_ne!(other.job.id, first.job.id);
    assert_eq!(res.jobs().len(), 2, "rejected duplicates leave no job behind");
    assert_eq!(spool_files(dir.path()).len(), 2);
}

#[test]
fn failed_job_does_not_block_its_key() {
    let dir = tempfile::tempdir().unwrap();
    let res = Reservoir::open(dir.path(), cfg()).unwrap();
    let o = |declared| SubmitOptions {
        idempotency_key: Some("k".into()),
        declared_size: declared,
        ..opts()
    };
    assert!(res.submit(o(Some(3)), &b"SELECT 1;"[..]).is_err());
    let sub = res.submit(o(None), &b"SELECT 1;"[..]).unwrap();
    assert!(!sub.reused);
    assert_eq!(sub.job.state, JobState::Queued);
}

#[test]
fn cancel_while_receiving_never_queues() {
    let dir = tempfile::tempdir().unwrap();
    let res = Reservoir::open(dir.path(), cfg()).unwrap();
    let mut up = res.begin_upload(opts()).unwrap();
    up.write(&vec![b'z'; 300_000]).unwrap();
    let id = up.id();
    assert_eq!(res.cancel(id).unwrap().state, JobState::Cancelling);
    // A second cancel is harmless.
    assert_eq!(res.cancel(id).unwrap().state, JobState::Cancelling);
    let err = up.write(b"more").unwrap_err();
    assert!(matches!(err, Error::Cancelled(_)));
    assert!(matches!(up.finish(), Err(Error::Cancelled(_))));
    let job = res.job(id).unwrap();
    assert_eq!(job.state, JobState::Cancelled);
    assert!(spool_files(dir.path()).is_empty());
    assert_eq!(res.stats().reserved_bytes, 0);
    assert_eq!(res.stats().by_state["cancelled"], 1);
    assert_eq!(res.stats().by_state["queued"], 0);
}

#[test]
fn cancel_of_terminal_job_is_a_no_op() {
    let dir = tempfile::tempdir().unwrap();
    let res = Reservoir::open(dir.path(), cfg()).unwrap();
    let id = res.submit(opts(), &b"SELECT 1;"[..]).unwrap().job.id;
    assert_eq!(res.cancel(id).unwrap().state, JobState::Cancelled);
    let before = res.job(id).unwrap();
    let after = res.cancel(id).unwrap();
    assert_eq!(after.state, JobState::Cancelled);
    assert_eq!(after.updated_at, before.updated_at);
    assert!(matches!(res.cancel(JobId(999)), Err(Error::NotFound(_))));
}

#[test]
fn dropped_upload_fails_the_job() {
    let dir = tempfile::tempdir().unwrap();
    let res = Reservoir::open(dir.path(), cfg()).unwrap();
    let mut up = res.begin_upload(opts()).unwrap();
    up.write(b"SELECT").unwrap();
    let id = up.id();
    drop(up);
    let job = res.job(id).unwrap();
    assert_eq!(job.state, JobState::Failed);
    assert_eq!(job.error.unwrap().code, "upload_aborted");
    assert!(spool_files(dir.path()).is_empty());
}

#[test]
fn active_jobs_newest_update_first() {
    let dir = tempfile::tempdir().unwrap();
    let res = Reservoir::open(dir.path(), cfg()).unwrap();
    let a = res.submit(opts(), &b"SELECT 1;"[..]).unwrap().job.id;
    std::thread::sleep(std::time::Duration::from_millis(3));
    let b = res.submit(opts(), &b"SELECT 2;"[..]).unwrap().job.id;
    std::thread::sleep(std::time::Duration::from_millis(3));
    let up = res.begin_upload(opts()).unwrap();
    let c = up.id();
    let ids: Vec<JobId> = res.active_jobs().iter().map(|j| j.id).collect();
    assert_eq!(ids, vec![c, b, a]);
    drop(up);
    let ids: Vec<JobId> = res.active_jobs().iter().map(|j| j.id).collect();
    assert_eq!(ids, vec![b, a], "failed jobs are not active");
    assert_eq!(res.job(c).unwrap().state, JobState::Failed, "but stay addressable");
}

#[test]
fn import_metadata_that_cannot_work_is_refused_before_the_body() {
    let dir = tempfile::tempdir().unwrap();
    let res = Reservoir::open(dir.path(), cfg()).unwrap();
    let meta = |format: &str, table: Option<&str>| SubmitOptions {
        import: ImportMeta {
            format: format.parse().unwrap(),
            target_table: table.map(Into::into),
            ..ImportMeta::default()
        },
        ..opts()
    };
    // A CSV needs a table name: the target, or the file's name.
    let err = res.begin_upload(meta("csv", None)).unwrap_err();
    assert!(matches!(err, Error::InvalidInput(_)), "{err}");
    assert!(err.to_string().contains("target table"), "{err}");
    // A dump names its own tables.
    let err = res.begin_upload(meta("mysql", Some("t"))).unwrap_err();
    assert!(matches!(err, Error::InvalidInput(_)), "{err}");
    // Nothing was admitted.
    assert!(res.jobs().is_empty());
    assert!(spool_files(dir.path()).is_empty());
    assert!(res.begin_upload(meta("csv", Some("t"))).is_ok());
    let err = "xls".parse::<asadb_reservoir::ImportFormat>().unwrap_err();
    assert!(matches!(err, Error::Unsupported(_)), "{err}");
    assert!("parquet".parse::<asadb_reservoir::ImportFormat>().is_err());
    assert!("0".parse::<JobId>().is_err());
    assert!("abc".parse::<JobId>().is_err());
}

#[test]
fn retention_removes_terminal_jobs_only() {
    let dir = tempfile::tempdir().unwrap();
    let res = Reservoir::open(dir.path(), cfg()).unwrap();
    let done = res.submit(opts(), &b"SELECT 1;"[..]).unwrap().job.id;
    res.cancel(done).unwrap();
    let queued = res.submit(opts(), &b"SELECT 2;"[..]).unwrap().job.id;
    let now = asadb_reservoir::now_ms();
    assert_eq!(res.sweep_at(now).unwrap(), 0, "inside the window");
    let later = now + 3_600_000 + 1_000;
    assert_eq!(res.sweep_at(later).unwrap(), 1);
    assert!(matches!(res.job(done), Err(Error::NotFound(_))));
    assert_eq!(res.job(queued).unwrap().state, JobState::Queued);
    // Ids are never reused, even after the log forgets a job.
    drop(res);
    let res = Reservoir::open(dir.path(), cfg()).unwrap();
    let next = res.submit(opts(), &b"SELECT 3;"[..]).unwrap().job.id;
    assert!(next > queued);
}

#[test]
fn received_bytes_grow_during_a_declared_size_upload() {
    let dir = tempfile::tempdir().unwrap();
    let res = Reservoir::open(dir.path(), cfg()).unwrap();
    let o = SubmitOptions { declared_size: Some(1 << 20), ..opts() };
    let mut up = res.begin_upload(o).unwrap();
    let id = up.id();
    assert_eq!(res.job(id).unwrap().received_bytes, 0);
    up.write(&vec![b' '; 300_000]).unwrap();
    let seen = res.job(id).unwrap().received_bytes;
    // Everything past the last buffered chunk has reached the spool file.
    assert!((300_000 - (64 << 10)..=300_000).contains(&seen), "{seen}");
    assert_eq!(res.job(id).unwrap().state, JobState::Receiving);
    up.write(&vec![b' '; (1 << 20) - 300_000]).unwrap();
    assert!(res.job(id).unwrap().received_bytes > seen);
    let job = up.finish().unwrap().job;
    assert_eq!(job.received_bytes, 1 << 20);
}
