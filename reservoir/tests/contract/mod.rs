//! The Reservoir's behavioural contract, one suite for every engine.
//!
//! Each case is an async function over a [`Harness`]: the engine-specific
//! part (opening fresh state, simulating a process death, rewriting a
//! job's durable state, reading the target database). The embedded engine
//! runs it from `reservoir/tests/contract_embedded.rs`, the PostgreSQL
//! engine from `reservoir-pg/tests/contract_pg.rs`; [`contract_suite!`]
//! turns every case into one `#[tokio::test]` there.
//!
//! Invariants pinned (each case names its own): admission and caps hold
//! whatever size a client declares or omits, while receiving; SHA-256
//! fingerprints; idempotent retries and conflicts; cancellation in every
//! state; progress and stats; paged results and delivery; retention; the
//! recovery of every state after a process death, never replaying; and
//! exactly-once resume after a kill mid-batch. Scripts use SQL that both
//! engines (SQLite's dialect and PostgreSQL's) run alike.
#![allow(dead_code)] // every harness uses the suite, not every helper

use std::sync::Arc;
use std::time::{Duration, Instant};

use asadb_reservoir::contract::{ReservoirEngine, submit};
use asadb_reservoir::{
    Config, Error, ImportFormat, ImportMeta, Job, JobId, JobState, Pressure, SubmitOptions,
};
use async_trait::async_trait;

/// One engine's side of the suite.
#[async_trait]
pub trait Harness: Send {
    /// Opens an engine on new, empty state (an empty directory and
    /// database, an empty PostgreSQL database), with its worker or not.
    async fn fresh(&mut self, cfg: Config, worker: bool) -> Arc<dyn ReservoirEngine>;
    /// The process holding `engine` dies: nothing is cleaned up (callers
    /// `mem::forget` their uploads and drop every other handle first).
    async fn crash(&mut self, engine: Arc<dyn ReservoirEngine>);
    /// A new process opens the state of the last `fresh`; it has
    /// recovered every job of a dead process when this returns.
    async fn reopen(&mut self, cfg: Config, worker: bool) -> Arc<dyn ReservoirEngine>;
    /// Rewrites a job's latest durable state, between `crash` and `reopen`,
    /// as if the process had died with the job in `state`.
    async fn force_state(&mut self, id: JobId, state: JobState);
    /// The integers of the one row `sql` returns from the target database.
    async fn ints(&mut self, sql: &str) -> Vec<i64>;
    /// The import formats this engine does not run (refused before
    /// admission); every other format of `ImportFormat::ALL` is admitted.
    fn unavailable_formats(&self) -> &'static [ImportFormat];
    /// Whether the target database has a table of this name.
    async fn table_exists(&mut self, name: &str) -> bool;
    /// The spooled bytes of a job, if it holds any.
    async fn spool(&mut self, id: JobId) -> Option<Vec<u8>>;
    /// How many jobs hold spooled bytes.
    async fn spool_count(&mut self) -> usize;
    /// The durable progress marker of a job: the next statement to run.
    async fn marker(&mut self, id: JobId) -> Option<i64>;
    /// Runs `script` as a job in a process that is killed (SIGKILL or its
    /// equivalent) once at least `kill_after` statements are done with
    /// 100 to 900 of them in the open batch; then reopens the state with a
    /// worker. Returns the reopened engine, the job and the statements the
    /// victim reported committed.
    async fn kill_mid_batch(
        &mut self,
        cfg: Config,
        script: String,
        kill_after: u64,
    ) -> (Arc<dyn ReservoirEngine>, JobId, u64);
}

/// One `#[tokio::test]` per case of the suite, each with a fresh harness
/// from `$make` (an async expression).
#[macro_export]
macro_rules! contract_suite {
    ($make:expr; $($case:ident),* $(,)?) => {
        $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $case() {
                let mut h = $make;
                contract::$case(&mut h).await;
            }
        )*
    };
}

/// Every case, for `contract_suite!`.
#[macro_export]
macro_rules! all_contract_cases {
    ($make:expr) => {
        $crate::contract_suite!($make;
            submit_queues_with_fingerprint_and_exact_reservation,
            fingerprint_is_sha256,
            job_limit_gives_capacity_exhausted,
            understated_size_is_cut_off,
            declared_size_past_capacity_is_refused_at_admission,
            absent_size_grows_until_the_ceiling,
            growth_blocked_by_other_jobs_is_capacity_exhausted,
            idempotent_retry_and_conflict,
            failed_job_does_not_block_its_key,
            cancel_while_receiving_never_queues,
            cancel_of_queued_and_terminal_jobs,
            dropped_upload_fails_the_job,
            active_jobs_newest_update_first,
            unsupported_format_is_refused_clearly,
            retention_removes_terminal_jobs_only,
            script_runs_to_completion_with_result_pages,
            result_pages_obey_the_byte_limits,
            stop_on_error_commits_what_came_before,
            errors_recorded_when_not_stopping,
            scripts_own_transaction_is_one_unit,
            cancel_while_processing_rolls_back_to_whole_batches,
            cancel_inside_one_long_statement_rolls_back_its_batch,
            live_progress_and_stats,
            every_state_recovers_and_is_never_replayed,
            counters_rebuilt_from_records_not_configuration,
            killed_mid_batch_then_resume_applies_each_statement_once,
        );
    };
}

/// Limits small enough to reach in a test.
pub fn small() -> Config {
    Config {
        max_jobs: 4,
        max_spool_bytes: 4 << 20,
        baseline_reservation: 1 << 20,
        receive_chunk: 64 << 10,
        ..Config::default()
    }
}

fn opts() -> SubmitOptions {
    SubmitOptions::default()
}

async fn sub(
    e: &dyn ReservoirEngine,
    o: SubmitOptions,
    body: &[u8],
) -> asadb_reservoir::Result<Job> {
    let mut body = body;
    submit(e, o, &mut body).await.map(|s| s.job)
}

async fn submit_script(e: &dyn ReservoirEngine, script: &str, stop_on_error: bool) -> JobId {
    let o = SubmitOptions { stop_on_error: Some(stop_on_error), ..opts() };
    sub(e, o, script.as_bytes()).await.unwrap().id
}

async fn wait_terminal(e: &dyn ReservoirEngine, id: JobId) -> Job {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let job = e.job(id).await.unwrap();
        if job.state.is_terminal() {
            return job;
        }
        assert!(Instant::now() < deadline, "job {id} stuck in {}", job.state);
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// Waits until `f` holds for the job (or fails after a minute).
async fn wait_for(e: &dyn ReservoirEngine, id: JobId, what: &str, f: impl Fn(&Job) -> bool) -> Job {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let job = e.job(id).await.unwrap();
        if f(&job) {
            return job;
        }
        assert!(!job.state.is_terminal(), "job ended before {what}: {job:?}");
        assert!(Instant::now() < deadline, "never {what}: {job:?}");
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}

async fn reserved(e: &dyn ReservoirEngine) -> u64 {
    e.stats().await.unwrap().reserved_bytes
}

// ---- admission, receiving, idempotency (no worker) ----

/// A submitted job is queued with its SHA-256, its exact size reserved
/// and its bytes spooled as sent.
pub async fn submit_queues_with_fingerprint_and_exact_reservation(h: &mut dyn Harness) {
    let e = h.fresh(small(), false).await;
    let body = b"CREATE TABLE t(a INTEGER); INSERT INTO t VALUES (1);".to_vec();
    let mut reader = &body[..];
    let s = submit(&*e, opts(), &mut reader).await.unwrap();
    assert!(!s.reused);
    let job = s.job;
    assert_eq!(job.state, JobState::Queued);
    assert_eq!(job.received_bytes, body.len() as u64);
    assert_eq!(job.progress.bytes_total, body.len() as u64);
    assert_eq!(job.fingerprint.as_ref().unwrap().len(), 64, "hex SHA-256");
    assert!(job.has_spool && !job.has_result);
    assert_eq!(reserved(&*e).await, body.len() as u64);
    assert_eq!(e.job(job.id).await.unwrap(), job, "the snapshot is what was answered");
    assert_eq!(h.spool(job.id).await.as_deref(), Some(&body[..]));
    assert_eq!(h.spool_count().await, 1);
}

/// The fingerprint is the SHA-256 of the body.
pub async fn fingerprint_is_sha256(h: &mut dyn Harness) {
    let e = h.fresh(small(), false).await;
    let job = sub(&*e, opts(), b"abc").await.unwrap();
    assert_eq!(
        job.fingerprint.as_deref(),
        Some("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    );
    // A body spanning many chunks (64 KiB here) hashes as one stream.
    let big: Vec<u8> = (0..300_000u32).map(|i| (i % 251) as u8).collect();
    let job = sub(&*e, opts(), &big).await.unwrap();
    let want = {
        use sha2::Digest;
        asadb_reservoir::hex(&sha2::Sha256::digest(&big))
    };
    assert_eq!(job.fingerprint.as_deref(), Some(want.as_str()));
    assert_eq!(h.spool(job.id).await.unwrap(), big);
}

/// At the job limit admission is `CapacityExhausted` (retryable) and the
/// pressure saturated; cancelling a queued job frees its slot.
pub async fn job_limit_gives_capacity_exhausted(h: &mut dyn Harness) {
    let e = h.fresh(Config { max_spool_bytes: 64 << 20, ..small() }, false).await;
    for _ in 0..4 {
        sub(&*e, opts(), b"SELECT 1;").await.unwrap();
    }
    let stats = e.stats().await.unwrap();
    assert_eq!(stats.advice.pressure, Pressure::Saturated);
    assert_eq!((stats.active, stats.max_jobs), (4, 4));
    let err = sub(&*e, opts(), b"SELECT 1;").await.unwrap_err();
    assert!(matches!(err, Error::CapacityExhausted(_)), "{err}");
    assert!(err.is_retryable());
    let err = e.begin_upload(opts()).await.err().expect("no room for an upload either");
    assert!(matches!(err, Error::CapacityExhausted(_)), "{err}");
    let first = e.active_jobs().await.unwrap().last().unwrap().id;
    assert_eq!(e.cancel(first).await.unwrap().state, JobState::Cancelled);
    sub(&*e, opts(), b"SELECT 1;").await.unwrap();
    assert_eq!(e.stats().await.unwrap().active, 4);
}

/// A body longer than its declared size is refused as it crosses the
/// declared size: the job fails `too_large`, nothing stays spooled or
/// reserved.
pub async fn understated_size_is_cut_off(h: &mut dyn Harness) {
    let e = h.fresh(small(), false).await;
    let body = vec![b'x'; 200_000];
    let o = SubmitOptions { declared_size: Some(100_000), ..opts() };
    let err = sub(&*e, o, &body).await.unwrap_err();
    assert!(matches!(err, Error::TooLarge(_)), "{err}");
    assert_eq!(reserved(&*e).await, 0);
    assert_eq!(h.spool_count().await, 0);
    let job = e.jobs().await.unwrap().pop().unwrap();
    assert_eq!(job.state, JobState::Failed);
    assert_eq!(job.error.unwrap().code, "too_large");
    assert!(!job.has_spool);
    assert_eq!(job.reserved_bytes, 0);
}

/// A declared size past the spool capacity is refused before any job
/// exists; a declared size is charged in full at admission.
pub async fn declared_size_past_capacity_is_refused_at_admission(h: &mut dyn Harness) {
    let e = h.fresh(small(), false).await;
    let o = SubmitOptions { declared_size: Some(5 << 20), ..opts() };
    assert!(matches!(e.begin_upload(o).await.err(), Some(Error::TooLarge(_))));
    assert!(e.jobs().await.unwrap().is_empty());
    let o = SubmitOptions { declared_size: Some(3 << 20), ..opts() };
    let up = e.begin_upload(o).await.unwrap();
    assert_eq!(reserved(&*e).await, 3 << 20, "charged in full up front");
    let o = SubmitOptions { declared_size: Some(2 << 20), ..opts() };
    let err = e.begin_upload(o).await.err().expect("3 + 2 MiB exceed 4 MiB");
    assert!(matches!(err, Error::CapacityExhausted(_)), "{err}");
    up.abort("test", "done").await;
    assert_eq!(reserved(&*e).await, 0);
}

/// Without a declared size the reservation starts at the baseline and
/// grows chunk by chunk; it never passes the ceiling, and the body that
/// would is `TooLarge` with nothing left behind.
pub async fn absent_size_grows_until_the_ceiling(h: &mut dyn Harness) {
    let e = h.fresh(small(), false).await;
    let mut up = e.begin_upload(opts()).await.unwrap();
    assert_eq!(reserved(&*e).await, 1 << 20, "baseline reservation");
    let chunk = vec![b'y'; 100_000];
    let mut err = None;
    let mut most = 0;
    for _ in 0..100 {
        if let Err(x) = up.write(&chunk).await {
            err = Some(x);
            break;
        }
        let r = reserved(&*e).await;
        assert!(r <= 4 << 20, "ceiling holds while growing: {r}");
        assert!(r >= up.received() - (64 << 10), "reservation {r} covers what was kept");
        most = most.max(r);
    }
    assert!(most > 1 << 20, "the reservation grew past the baseline");
    let err = err.expect("the ceiling must stop a 10 MB body");
    assert!(matches!(err, Error::TooLarge(_)), "{err}");
    let id = up.id();
    drop(up);
    assert_eq!(reserved(&*e).await, 0);
    assert_eq!(h.spool_count().await, 0, "no chunk left");
    assert_eq!(e.job(id).await.unwrap().state, JobState::Failed);
}

/// Growth that other jobs' reservations leave no room for is
/// `CapacityExhausted`; the others keep theirs.
pub async fn growth_blocked_by_other_jobs_is_capacity_exhausted(h: &mut dyn Harness) {
    let e = h.fresh(small(), false).await;
    let big = SubmitOptions { declared_size: Some(3 << 20), ..opts() };
    let holder = e.begin_upload(big).await.unwrap();
    let mut up = e.begin_upload(opts()).await.unwrap();
    let err = up.write(&vec![0u8; 2 << 20]).await.unwrap_err();
    assert!(matches!(err, Error::CapacityExhausted(_)), "{err}");
    assert_eq!(reserved(&*e).await, 3 << 20);
    let failed = e.job(up.id()).await.unwrap();
    assert_eq!(failed.state, JobState::Failed);
    assert_eq!(failed.error.unwrap().code, "capacity_exhausted");
    drop(up);
    holder.abort("test", "done").await;
    assert_eq!(reserved(&*e).await, 0);
}

/// Same key + same bytes + same metadata: the earlier job. Same key with
/// other bytes or metadata: `Conflict`. Rejected duplicates leave no job.
pub async fn idempotent_retry_and_conflict(h: &mut dyn Harness) {
    let e = h.fresh(small(), false).await;
    let keyed = |key: &str, table: Option<&str>| SubmitOptions {
        idempotency_key: Some(key.into()),
        import: ImportMeta { target_table: table.map(Into::into), ..ImportMeta::default() },
        ..opts()
    };
    let mut body: &[u8] = b"SELECT 1;";
    let first = submit(&*e, keyed("k1", None), &mut body).await.unwrap();
    assert!(!first.reused);
    let mut body: &[u8] = b"SELECT 1;";
    let again = submit(&*e, keyed("k1", None), &mut body).await.unwrap();
    assert!(again.reused);
    assert_eq!(again.job.id, first.job.id);
    assert_eq!(h.spool_count().await, 1);
    let err = sub(&*e, keyed("k1", None), b"SELECT 2;").await.unwrap_err();
    assert!(matches!(err, Error::Conflict(_)), "{err}");
    let err = sub(&*e, keyed("k1", Some("other")), b"SELECT 1;").await.unwrap_err();
    assert!(matches!(err, Error::Conflict(_)), "{err}");
    let other = sub(&*e, keyed("k2", Some("other")), b"SELECT 1;").await.unwrap();
    assert_ne!(other.id, first.job.id);
    assert_eq!(e.jobs().await.unwrap().len(), 2, "rejected duplicates leave no job behind");
    assert_eq!(h.spool_count().await, 2);
    assert_eq!(reserved(&*e).await, 18);
    assert_eq!(e.stats().await.unwrap().active, 2);
}

/// A failed job does not hold its idempotency key.
pub async fn failed_job_does_not_block_its_key(h: &mut dyn Harness) {
    let e = h.fresh(small(), false).await;
    let o = |declared| SubmitOptions {
        idempotency_key: Some("k".into()),
        declared_size: declared,
        ..opts()
    };
    assert!(sub(&*e, o(Some(3)), b"SELECT 1;").await.is_err());
    let mut body: &[u8] = b"SELECT 1;";
    let s = submit(&*e, o(None), &mut body).await.unwrap();
    assert!(!s.reused);
    assert_eq!(s.job.state, JobState::Queued);
}

/// Cancelling a receiving job: `cancelling`, then the upload ends
/// `Cancelled` at its next write — even one without bytes — and the job is
/// never queued; nothing stays spooled or reserved.
pub async fn cancel_while_receiving_never_queues(h: &mut dyn Harness) {
    let e = h.fresh(small(), false).await;
    let mut up = e.begin_upload(opts()).await.unwrap();
    up.write(&vec![b'z'; 300_000]).await.unwrap();
    let id = up.id();
    let signal = up.cancelled();
    assert_eq!(e.cancel(id).await.unwrap().state, JobState::Cancelling);
    tokio::time::timeout(Duration::from_secs(10), signal)
        .await
        .expect("the upload learns of the cancellation without new bytes");
    assert_eq!(
        e.cancel(id).await.unwrap().state,
        JobState::Cancelling,
        "a second cancel is harmless"
    );
    assert!(matches!(up.write(b"").await, Err(Error::Cancelled(_))));
    assert!(matches!(up.finish().await, Err(Error::Cancelled(_)) | Err(Error::InvalidState(_))));
    let job = e.job(id).await.unwrap();
    assert_eq!(job.state, JobState::Cancelled);
    assert_eq!(h.spool_count().await, 0);
    assert_eq!(reserved(&*e).await, 0);
    let stats = e.stats().await.unwrap();
    assert_eq!(stats.by_state["cancelled"], 1);
    assert_eq!(stats.by_state["queued"], 0);
    assert_eq!(stats.active, 0);
}

/// Queued → cancelled at once (spool and reservation released); a
/// terminal job is unchanged; an unknown id is `NotFound`.
pub async fn cancel_of_queued_and_terminal_jobs(h: &mut dyn Harness) {
    let e = h.fresh(small(), false).await;
    let id = sub(&*e, opts(), b"SELECT 1;").await.unwrap().id;
    let job = e.cancel(id).await.unwrap();
    assert_eq!(job.state, JobState::Cancelled);
    assert!(!job.has_spool);
    assert_eq!(reserved(&*e).await, 0);
    assert_eq!(h.spool_count().await, 0);
    let before = e.job(id).await.unwrap();
    tokio::time::sleep(Duration::from_millis(3)).await;
    let after = e.cancel(id).await.unwrap();
    assert_eq!(after.state, JobState::Cancelled);
    assert_eq!(after.updated_at, before.updated_at);
    assert!(matches!(e.cancel(JobId(999_999)).await, Err(Error::NotFound(_))));
    assert!(matches!(e.job(JobId(999_999)).await, Err(Error::NotFound(_))));
    assert!(matches!(e.resume(JobId(999_999)).await, Err(Error::NotFound(_))));
}

/// An upload dropped before `finish` fails its job and keeps nothing.
pub async fn dropped_upload_fails_the_job(h: &mut dyn Harness) {
    let e = h.fresh(small(), false).await;
    let mut up = e.begin_upload(opts()).await.unwrap();
    up.write(b"SELECT").await.unwrap();
    let id = up.id();
    drop(up);
    // Dropping cannot wait: the clean-up runs in the background.
    let deadline = Instant::now() + Duration::from_secs(10);
    let job = loop {
        let job = e.job(id).await.unwrap();
        if job.state.is_terminal() || Instant::now() > deadline {
            break job;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    };
    assert_eq!(job.state, JobState::Failed);
    assert_eq!(job.error.unwrap().code, "upload_aborted");
    assert_eq!(h.spool_count().await, 0);
    assert_eq!(reserved(&*e).await, 0);
}

/// Active jobs are listed most recently updated first; failed ones leave
/// the list but stay addressable.
pub async fn active_jobs_newest_update_first(h: &mut dyn Harness) {
    let e = h.fresh(small(), false).await;
    let a = sub(&*e, opts(), b"SELECT 1;").await.unwrap().id;
    tokio::time::sleep(Duration::from_millis(3)).await;
    let b = sub(&*e, opts(), b"SELECT 2;").await.unwrap().id;
    tokio::time::sleep(Duration::from_millis(3)).await;
    let up = e.begin_upload(opts()).await.unwrap();
    let c = up.id();
    let ids: Vec<JobId> = e.active_jobs().await.unwrap().iter().map(|j| j.id).collect();
    assert_eq!(ids, vec![c, b, a]);
    up.abort("upload_aborted", "gone").await;
    let ids: Vec<JobId> = e.active_jobs().await.unwrap().iter().map(|j| j.id).collect();
    assert_eq!(ids, vec![b, a], "failed jobs are not active");
    assert_eq!(e.job(c).await.unwrap().state, JobState::Failed, "but stay addressable");
    let all: Vec<JobId> = e.jobs().await.unwrap().iter().map(|j| j.id).collect();
    assert_eq!(all, vec![a, b, c], "every job, oldest first");
}

/// A known import format the engine does not run is refused before
/// admission, clearly; every other format is admitted.
pub async fn unsupported_format_is_refused_clearly(h: &mut dyn Harness) {
    let unavailable = h.unavailable_formats();
    let e = h.fresh(small(), false).await;
    for format in ImportFormat::ALL {
        let target = format.takes_target().then(|| "imported".to_string());
        let o = SubmitOptions {
            import: ImportMeta { format, target_table: target, ..ImportMeta::default() },
            ..opts()
        };
        if unavailable.contains(&format) {
            let err = e.begin_upload(o).await.err().expect("an unavailable format is refused");
            assert!(matches!(err, Error::Unsupported(_)), "{}: {err}", format.as_str());
        } else {
            let up =
                e.begin_upload(o).await.unwrap_or_else(|err| panic!("{}: {err}", format.as_str()));
            up.abort("upload_aborted", "gone").await;
        }
    }
    let admitted = ImportFormat::ALL.len() - unavailable.len();
    assert_eq!(e.jobs().await.unwrap().len(), admitted, "only admitted formats made jobs");
}

/// Terminal jobs expire after the window, active ones never; ids are never
/// reused, across a restart too.
pub async fn retention_removes_terminal_jobs_only(h: &mut dyn Harness) {
    let e = h.fresh(small(), false).await;
    let done = sub(&*e, opts(), b"SELECT 1;").await.unwrap().id;
    e.cancel(done).await.unwrap();
    let queued = sub(&*e, opts(), b"SELECT 2;").await.unwrap().id;
    let now = asadb_reservoir::now_ms();
    assert_eq!(e.sweep_at(now).await.unwrap(), 0, "inside the window");
    let later = now + 3_600_000 + 1_000;
    assert_eq!(e.sweep_at(later).await.unwrap(), 1);
    assert!(matches!(e.job(done).await, Err(Error::NotFound(_))));
    assert_eq!(e.job(queued).await.unwrap().state, JobState::Queued);
    assert_eq!(reserved(&*e).await, 9, "the queued job keeps its reservation");
    drop(e);
    let e = h.reopen(small(), false).await;
    let next = sub(&*e, opts(), b"SELECT 3;").await.unwrap().id;
    assert!(next > queued, "ids are never reused");
    assert_eq!(e.job(queued).await.unwrap().state, JobState::Queued, "queued stays queued");
}

// ---- execution ----

/// A script runs to completion; its result is paged (capped at the page
/// size) and reading it marks the job delivered.
pub async fn script_runs_to_completion_with_result_pages(h: &mut dyn Harness) {
    let e = h.fresh(Config::default(), true).await;
    let mut script = String::from("CREATE TABLE t(a INTEGER, b TEXT);\n");
    for i in 0..300 {
        script.push_str(&format!("INSERT INTO t VALUES ({i}, 'row {i}');\n"));
    }
    script.push_str("SELECT a, b FROM t ORDER BY a;\n");
    let id = submit_script(&*e, &script, true).await;
    let job = wait_terminal(&*e, id).await;
    assert_eq!(job.state, JobState::Completed, "{:?}", job.error);
    assert_eq!(job.progress.statements_done, 302);
    assert_eq!(job.progress.statements_committed, 302);
    assert_eq!(job.progress.rows_affected, 300);
    assert_eq!(job.progress.percent, 100.0);
    assert!(job.has_result && !job.has_spool);
    assert_eq!(job.reserved_bytes, 0);
    assert_eq!(reserved(&*e).await, 0);
    assert_eq!(h.ints("SELECT count(*) FROM t").await, vec![300]);
    let page = e.result(id, 301, 0, 1000).await.unwrap();
    assert_eq!(page.rows.len(), 250, "pages are capped");
    assert_eq!(page.columns, vec!["a", "b"]);
    assert_eq!(page.rows[0], serde_json::json!([0, "row 0"]));
    assert_eq!(page.rows[249], serde_json::json!([249, "row 249"]));
    assert_eq!(page.next_offset, Some(250));
    assert_eq!(page.statement.row_count, 300);
    assert_eq!((page.statements, page.first_statement), (302, 0));
    let rest = e.result(id, 301, 250, 250).await.unwrap();
    assert_eq!(rest.rows.len(), 50);
    assert_eq!(rest.rows[0], serde_json::json!([250, "row 250"]));
    assert_eq!(rest.next_offset, None);
    let mid = e.result(id, 301, 123, 5).await.unwrap();
    assert_eq!(mid.rows[0], serde_json::json!([123, "row 123"]));
    assert_eq!((mid.rows.len(), mid.next_offset), (5, Some(128)));
    assert_eq!(e.result(id, 5, 0, 10).await.unwrap().statement.rows_affected, 1);
    assert!(e.result(id, 302, 0, 10).await.is_err(), "no such statement");
    assert_eq!(e.job(id).await.unwrap().state, JobState::Delivered);
    // A job without a result says so.
    let none = sub(&*e, opts(), b"SELECT 1;").await.unwrap().id;
    let _ = e.cancel(none).await;
    assert!(matches!(e.result(none, 0, 0, 1).await, Err(Error::InvalidState(_))));
}

/// Result pages obey `max_page_bytes` (a page ends early and says so, the
/// next offset continues; a row alone larger than the limit is refused)
/// and `max_value_bytes` (a row holding a longer value fails its
/// statement).
pub async fn result_pages_obey_the_byte_limits(h: &mut dyn Harness) {
    let cfg = Config { max_page_bytes: 1000, max_value_bytes: 300, ..Config::default() };
    let e = h.fresh(cfg, true).await;
    let x = |n: usize| "x".repeat(n);
    let mut script = String::from("CREATE TABLE t(a INTEGER, b TEXT);\n");
    for i in 0..40 {
        script.push_str(&format!("INSERT INTO t VALUES ({i}, '{}');\n", x(90)));
    }
    script.push_str("SELECT a, b FROM t ORDER BY a;\n"); // 41
    script.push_str("CREATE TABLE w(c TEXT);\n");
    script.push_str(&format!("INSERT INTO w VALUES ('{}');\n", x(250)));
    script.push_str("SELECT c, c, c, c, c FROM w;\n"); // 44: one 1266-byte row
    script.push_str(&format!("INSERT INTO w VALUES ('{}');\n", x(400)));
    script.push_str("SELECT c FROM w ORDER BY length(c);\n"); // 46: a 400-byte value
    script.push_str("SELECT count(*) FROM w;\n"); // 47
    let id = submit_script(&*e, &script, false).await;
    let job = wait_terminal(&*e, id).await;
    assert_eq!(job.state, JobState::Completed, "{:?}", job.error);
    assert_eq!(job.progress.errors, 1, "{:?}", job.statement_errors);
    // Rows of about 96 bytes: 1000 bytes hold 10 of them.
    let (mut offset, mut seen, mut pages) = (0u64, 0u64, 0);
    loop {
        let p = e.result(id, 41, offset, 250).await.unwrap();
        assert!(!p.rows.is_empty() && p.rows.len() <= 10, "{} rows", p.rows.len());
        assert_eq!(p.rows[0], serde_json::json!([seen, x(90)]));
        let bytes: usize = p.rows.iter().map(|r| r.to_string().len() + 1).sum();
        assert!(bytes <= 1000, "{bytes} bytes");
        seen += p.rows.len() as u64;
        pages += 1;
        match p.next_offset {
            Some(n) => {
                assert_eq!(p.ended_early, Some("max_page_bytes"));
                assert_eq!(n, seen);
                offset = n;
            }
            None => {
                assert_eq!(p.ended_early, None);
                break;
            }
        }
    }
    assert_eq!((seen, pages), (40, 4));
    // A short page ends on its row limit, not early.
    let p = e.result(id, 41, 5, 3).await.unwrap();
    assert_eq!((p.rows.len(), p.next_offset, p.ended_early), (3, Some(8), None));
    // One row larger than a page is refused, not cut.
    assert!(matches!(e.result(id, 44, 0, 250).await, Err(Error::TooLarge(_))));
    // A value past max_value_bytes failed its statement.
    let failed = e.result(id, 46, 0, 10).await.unwrap();
    let err = failed.statement.error.expect("statement 46 failed");
    assert!(err.message.contains("max-value-bytes"), "{}", err.message);
    assert_eq!(job.statement_errors[0].statement, Some(46));
    let count = e.result(id, 47, 0, 10).await.unwrap();
    assert_eq!(count.rows, vec![serde_json::json!([2])]);
}

/// With stop-on-error the statements before the failing one are
/// committed and the failing one is named.
pub async fn stop_on_error_commits_what_came_before(h: &mut dyn Harness) {
    let e = h.fresh(Config::default(), true).await;
    let script = "CREATE TABLE t(a INTEGER PRIMARY KEY);\
                  INSERT INTO t VALUES (1);\
                  INSERT INTO t VALUES (2);\
                  INSERT INTO t VALUES (1);\
                  INSERT INTO t VALUES (3);";
    let id = submit_script(&*e, script, true).await;
    let job = wait_terminal(&*e, id).await;
    assert_eq!(job.state, JobState::Failed);
    let err = job.error.unwrap();
    assert_eq!(err.code, "sql_error");
    assert_eq!(err.statement, Some(3));
    assert!(err.excerpt.unwrap().contains("VALUES (1)"));
    assert_eq!(job.progress.statements_committed, 3);
    assert_eq!(h.ints("SELECT count(*) FROM t").await, vec![2]);
    assert_eq!(reserved(&*e).await, 0);
}

/// Without stop-on-error, errors are recorded and execution goes on.
pub async fn errors_recorded_when_not_stopping(h: &mut dyn Harness) {
    let e = h.fresh(Config::default(), true).await;
    let script = "CREATE TABLE t(a INTEGER PRIMARY KEY);\
                  INSERT INTO t VALUES (1);\
                  INSERT INTO t VALUES (1);\
                  SELEC nonsense;\
                  INSERT INTO t VALUES (2);";
    let id = submit_script(&*e, script, false).await;
    let job = wait_terminal(&*e, id).await;
    assert_eq!(job.state, JobState::Completed, "{:?}", job.error);
    assert_eq!(job.progress.errors, 2);
    assert_eq!(job.statement_errors.len(), 2);
    assert_eq!(job.statement_errors[0].statement, Some(2));
    assert_eq!(job.statement_errors[1].statement, Some(3));
    assert_eq!(job.progress.statements_committed, 5);
    assert_eq!(h.ints("SELECT count(*) FROM t").await, vec![2]);
    let page = e.result(id, 2, 0, 10).await.unwrap();
    assert!(page.statement.error.is_some(), "the result names the statement's error");
}

/// A script's own BEGIN … COMMIT is one unit: an error inside rolls the
/// whole unit back.
pub async fn scripts_own_transaction_is_one_unit(h: &mut dyn Harness) {
    let e = h.fresh(Config::default(), true).await;
    let script = "CREATE TABLE t(a INTEGER PRIMARY KEY);\
                  BEGIN; INSERT INTO t VALUES (1); INSERT INTO t VALUES (2); COMMIT;\
                  BEGIN; INSERT INTO t VALUES (3); INSERT INTO t VALUES (3); COMMIT;";
    let id = submit_script(&*e, script, true).await;
    let job = wait_terminal(&*e, id).await;
    assert_eq!(job.state, JobState::Failed);
    assert_eq!(job.error.unwrap().statement, Some(7));
    assert_eq!(h.ints("SELECT count(*) FROM t").await, vec![2]);
    // A script that ends inside its own transaction keeps nothing of it.
    let script = "CREATE TABLE u(a INTEGER); BEGIN; INSERT INTO u VALUES (1);";
    let id = submit_script(&*e, script, true).await;
    let job = wait_terminal(&*e, id).await;
    assert_eq!(job.state, JobState::Failed);
    assert_eq!(job.error.unwrap().code, "open_transaction");
    assert_eq!(h.ints("SELECT count(*) FROM u").await, vec![0]);
}

/// Queued jobs cancel at once; a processing job cancels at a statement or
/// batch boundary with the open batch rolled back: whole batches only.
pub async fn cancel_while_processing_rolls_back_to_whole_batches(h: &mut dyn Harness) {
    let e = h.fresh(Config::default(), false).await;
    let mut big = String::from("CREATE TABLE t(a INTEGER);");
    for i in 0..100_000 {
        big.push_str(&format!("INSERT INTO t VALUES ({i});"));
    }
    let first = submit_script(&*e, &big, true).await;
    let second = submit_script(&*e, "CREATE TABLE u(a INTEGER);", true).await;
    assert_eq!(e.cancel(second).await.unwrap().state, JobState::Cancelled);
    drop(e);
    let e = h.reopen(Config::default(), true).await;
    wait_for(&*e, first, "processing", |j| j.state == JobState::Processing).await;
    let state = e.cancel(first).await.unwrap().state;
    assert_eq!(state, JobState::Cancelling, "100k statements take longer than a cancel");
    let job = wait_terminal(&*e, first).await;
    assert_eq!(job.state, JobState::Cancelled);
    assert!(!job.has_spool && !job.has_result);
    let n = if h.table_exists("t").await { h.ints("SELECT count(*) FROM t").await[0] } else { 0 };
    assert!((n + 1) % 1000 == 0 || n == 0, "rows {n} are not whole batches");
    assert_eq!(h.spool_count().await, 0);
    assert_eq!(reserved(&*e).await, 0);
    assert!(!h.table_exists("u").await, "the cancelled queued job never ran");
}

/// A cancel that arrives while one long statement runs stops it and
/// rolls its batch back; the worker goes on with the next job.
pub async fn cancel_inside_one_long_statement_rolls_back_its_batch(h: &mut dyn Harness) {
    let e = h.fresh(Config::default(), true).await;
    let mut script =
        String::from("CREATE TABLE t(x INTEGER PRIMARY KEY);\nCREATE TABLE u(x INTEGER);\n");
    let values: Vec<String> = (0..2000).map(|i| format!("({i})")).collect();
    script.push_str(&format!("INSERT INTO t VALUES {};\n", values.join(",")));
    script.push_str("INSERT INTO u VALUES (-1);\n");
    script.push_str("INSERT INTO u SELECT a.x FROM t a, t b, t c;\n");
    script.push_str("INSERT INTO u VALUES (-2);\n");
    let id = submit_script(&*e, &script, true).await;
    wait_for(&*e, id, "reached the long statement", |j| j.progress.statements_done == 4).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(e.cancel(id).await.unwrap().state, JobState::Cancelling);
    let job = tokio::time::timeout(Duration::from_secs(30), wait_terminal(&*e, id))
        .await
        .expect("the long statement is stopped, not waited for");
    assert_eq!(job.state, JobState::Cancelled, "{job:?}");
    assert!(!h.table_exists("u").await, "the whole uncommitted batch is gone");
    let next =
        submit_script(&*e, "CREATE TABLE v(a INTEGER); INSERT INTO v VALUES (1);", true).await;
    assert_eq!(wait_terminal(&*e, next).await.state, JobState::Completed);
    assert_eq!(h.ints("SELECT count(*) FROM v").await, vec![1]);
}

/// Live progress (bytes, statements, rows, errors, percent) and stats
/// while a job runs, and after it is cancelled.
pub async fn live_progress_and_stats(h: &mut dyn Harness) {
    let e = h.fresh(Config { progress_quantum_bytes: 4096, ..Config::default() }, true).await;
    let mut script = String::from("CREATE TABLE t(x INTEGER PRIMARY KEY, pad TEXT);\n");
    let values: Vec<String> = (0..2000).map(|i| format!("({i}, 'p')")).collect();
    script.push_str(&format!("INSERT INTO t VALUES {};\n", values.join(",")));
    for i in 0..300 {
        if i == 150 {
            script.push_str("INSERT INTO nowhere VALUES (1);\n");
        } else {
            script.push_str(&format!("UPDATE t SET pad = 'statement {i:04}' WHERE x = {i};\n"));
        }
    }
    let long_at = script.len() as u64 - 1;
    script.push_str("SELECT count(*) FROM t a, t b, t c;\n");
    let total = script.len() as u64;
    let id = submit_script(&*e, &script, false).await;
    let job =
        wait_for(&*e, id, "reached the long statement", |j| j.progress.statements_done == 302)
            .await;
    let p = &job.progress;
    assert_eq!(job.state, JobState::Processing);
    assert_eq!(p.bytes_total, total);
    assert_eq!(p.bytes_done, long_at, "bytes up to the end of the last finished statement");
    assert!(p.percent > 0.0 && p.percent < 100.0, "{p:?}");
    assert_eq!(p.rows_affected, 2000 + 299);
    assert_eq!(p.errors, 1);
    assert_eq!(job.statement_errors.len(), 1);
    assert_eq!(job.statement_errors[0].statement, Some(152));
    let stats = e.stats().await.unwrap();
    assert_eq!(stats.worker, "running");
    assert_eq!(stats.current_job, Some(id));
    assert_eq!(stats.by_state["processing"], 1);
    assert_eq!(stats.by_state.len(), 9, "every state, zeros included");
    assert_eq!(stats.active, 1);
    assert_eq!(stats.advice.pressure, Pressure::Busy);
    assert_eq!(stats.statements_executed, 302);
    assert!(stats.throughput_bytes_per_sec > 0.0);
    assert_eq!(e.active_jobs().await.unwrap()[0].id, id);

    assert_eq!(e.cancel(id).await.unwrap().state, JobState::Cancelling);
    assert_eq!(wait_terminal(&*e, id).await.state, JobState::Cancelled);
    let stats = e.stats().await.unwrap();
    assert_eq!(stats.worker, "idle");
    assert_eq!(stats.current_job, None);
    assert_eq!(stats.by_state["cancelled"], 1);
    assert_eq!(stats.advice.pressure, Pressure::Idle);
    assert_eq!(stats.reserved_bytes, 0);
}

// ---- recovery and resume ----

/// After a process death: queued stays queued; processing and cancelling
/// become interrupted and keep their spool for resume; receiving becomes
/// interrupted without its partial body; the counters equal the persisted
/// charges; nothing is replayed until `resume`, which queues it.
pub async fn every_state_recovers_and_is_never_replayed(h: &mut dyn Harness) {
    let e = h.fresh(small(), false).await;
    let queued = sub(&*e, opts(), b"SELECT 1;").await.unwrap().id;
    let processing = sub(&*e, opts(), b"SELECT 2;").await.unwrap().id;
    let cancelling = sub(&*e, opts(), b"SELECT 4;").await.unwrap().id;
    let mut receiving = e.begin_upload(opts()).await.unwrap();
    receiving.write(&vec![b'q'; 100_000]).await.unwrap();
    let receiving_id = receiving.id();
    std::mem::forget(receiving);
    h.crash(e).await;
    h.force_state(processing, JobState::Processing).await;
    h.force_state(cancelling, JobState::Cancelling).await;

    let e = h.reopen(small(), false).await;
    assert_eq!(e.job(queued).await.unwrap().state, JobState::Queued);
    let p = e.job(processing).await.unwrap();
    assert_eq!(p.state, JobState::Interrupted);
    assert!(p.is_resumable(), "its spool is kept for resume");
    assert_eq!(e.job(cancelling).await.unwrap().state, JobState::Interrupted);
    let r = e.job(receiving_id).await.unwrap();
    assert_eq!(r.state, JobState::Interrupted);
    assert!(!r.is_resumable(), "a partial body cannot be resumed");
    assert_eq!(r.reserved_bytes, 0);
    assert!(matches!(e.resume(receiving_id).await, Err(Error::InvalidState(_))));
    assert_eq!(h.spool_count().await, 3, "partial uploads removed, the rest kept");

    let jobs = e.jobs().await.unwrap();
    let sum: u64 = jobs.iter().map(|j| j.reserved_bytes).sum();
    let stats = e.stats().await.unwrap();
    assert_eq!(stats.reserved_bytes, sum);
    assert_eq!(sum, 3 * 9);
    assert_eq!(stats.active, 1, "interrupted jobs are not active");
    assert_eq!(stats.by_state["interrupted"], 3);

    // Nothing runs on its own, even with a worker.
    drop(e);
    let e = h.reopen(small(), true).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(e.job(processing).await.unwrap().state, JobState::Interrupted);
    let resumed = e.resume(processing).await.unwrap();
    assert_eq!(resumed.state, JobState::Queued);
    assert!(resumed.error.is_none());
    assert_eq!(wait_terminal(&*e, processing).await.state, JobState::Completed);
    assert!(matches!(e.resume(processing).await, Err(Error::InvalidState(_))), "completed");
    assert_eq!(wait_terminal(&*e, queued).await.state, JobState::Completed);
}

/// The capacity counters are rebuilt from the jobs' persisted charges,
/// whatever the configuration says now.
pub async fn counters_rebuilt_from_records_not_configuration(h: &mut dyn Harness) {
    let e = h.fresh(Config { max_jobs: 8, max_spool_bytes: 8 << 20, ..small() }, false).await;
    for i in 0..3 {
        sub(&*e, opts(), format!("SELECT {i};").as_bytes()).await.unwrap();
    }
    h.crash(e).await;
    let tiny = Config { max_spool_bytes: 1 << 20, baseline_reservation: 1 << 20, ..small() };
    let e = h.reopen(tiny, false).await;
    assert_eq!(reserved(&*e).await, 27);
    assert_eq!(e.stats().await.unwrap().active, 3);
}

/// A process killed mid-batch: the job is interrupted with exactly its
/// committed batches in the target, never replayed on its own; `resume`
/// completes it with every statement applied exactly once.
pub async fn killed_mid_batch_then_resume_applies_each_statement_once(h: &mut dyn Harness) {
    const ROWS: i64 = 30_000;
    let mut script = String::from("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT);\n");
    for i in 1..=ROWS {
        script.push_str(&format!("INSERT INTO t VALUES ({i}, 'v{i}');\n"));
    }
    let (e, id, committed) = h.kill_mid_batch(Config::default(), script, 4_000).await;
    let job = e.job(id).await.unwrap();
    assert_eq!(job.state, JobState::Interrupted, "{job:?}");
    assert!(job.is_resumable());
    let durable = h.marker(id).await.expect("a durable marker");
    assert!(durable as u64 >= committed && durable % 1000 == 0, "{durable} vs {committed}");
    assert!(durable < ROWS + 1, "the job was cut short");
    assert_eq!(
        h.ints("SELECT count(*), coalesce(max(id), 0) FROM t").await,
        vec![durable - 1, durable - 1],
        "exactly the committed batches"
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(e.job(id).await.unwrap().state, JobState::Interrupted, "never replayed");
    assert_eq!(h.ints("SELECT count(*) FROM t").await, vec![durable - 1]);

    assert_eq!(e.resume(id).await.unwrap().state, JobState::Queued);
    let job = wait_terminal(&*e, id).await;
    assert_eq!(job.state, JobState::Completed, "{:?}", job.error);
    assert!(job.statement_errors.is_empty(), "{:?}", job.statement_errors);
    assert_eq!(job.progress.statements_committed, ROWS as u64 + 1);
    assert_eq!(job.progress.rows_affected, ROWS as u64, "durable rows carry over a resume");
    assert_eq!(
        h.ints("SELECT count(*), count(DISTINCT id), min(id), max(id), sum(id) FROM t").await,
        vec![ROWS, ROWS, 1, ROWS, ROWS * (ROWS + 1) / 2]
    );
    assert_eq!(h.ints("SELECT count(*) FROM t WHERE v = 'v' || id").await, vec![ROWS]);
    assert!(matches!(e.resume(id).await, Err(Error::InvalidState(_))), "exactly once");
    assert_eq!(reserved(&*e).await, 0);
}

/// The victim side of `kill_mid_batch`: runs the job and prints
/// `JOB <id>` and `PROGRESS <done> <committed> <state>` lines until it is
/// killed. Harnesses call it in their child process.
pub async fn victim(e: Arc<dyn ReservoirEngine>, script: String) {
    let o = SubmitOptions::default();
    let mut body = script.as_bytes();
    let id = submit(&*e, o, &mut body).await.unwrap().job.id;
    println!("JOB {}", id.0);
    loop {
        let job = e.job(id).await.unwrap();
        println!(
            "PROGRESS {} {} {}",
            job.progress.statements_done, job.progress.statements_committed, job.state
        );
        if job.state.is_terminal() {
            break;
        }
        tokio::time::sleep(Duration::from_micros(200)).await;
    }
}

/// The parent side of `kill_mid_batch`: reads the victim's lines and
/// SIGKILLs it mid-batch. Returns the job and (done, committed).
pub fn kill_when_mid_batch(child: &mut std::process::Child, kill_after: u64) -> (JobId, u64, u64) {
    use std::io::BufRead;
    let stdout = std::io::BufReader::new(child.stdout.take().expect("piped stdout"));
    let mut job_id = None;
    for line in stdout.lines() {
        let line = line.unwrap();
        if let Some((_, n)) = line.split_once("JOB ") {
            job_id = Some(JobId(n.trim().parse().unwrap()));
        } else if let Some(p) = line.strip_prefix("PROGRESS ") {
            let f: Vec<&str> = p.split_whitespace().collect();
            let (done, committed): (u64, u64) = (f[0].parse().unwrap(), f[1].parse().unwrap());
            assert_ne!(f[2], "completed", "the victim finished before it could be killed");
            if done >= kill_after && (100..=900).contains(&(done - committed)) {
                child.kill().unwrap();
                let _ = child.wait();
                return (job_id.expect("the victim printed its job id"), done, committed);
            }
        }
    }
    let _ = child.wait();
    panic!("the victim ended without reaching the kill point");
}
