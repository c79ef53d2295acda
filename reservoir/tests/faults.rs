//! A fault at every mutating call of the Reservoir's files.
//!
//! Scenario: a job mix — a script whose result spans several pages, an
//! idempotent retry of it (a forget record), a script that fails with
//! stop-on-error, a queued job cancelled and swept (a forget), a restart
//! in the middle (a compaction with live jobs) — runs once on in-memory
//! files under a plan that only counts, then once more for every counted
//! call `k` with call `k` failing (ENOSPC with a torn write, then EIO).
//! The mix goes on after the failure; a new job must then complete
//! without a restart (the latches heal). The Reservoir is reopened on the
//! same files without faults, and every interrupted job it can resume is
//! resumed.
//!
//! Invariants: a state reported to the caller is the state after reopen;
//! a job whose outcome is unknown comes back interrupted (or, if it did
//! finish, with its true outcome), never failed; a failed job never comes
//! back completed; a completed job's result is readable; the spool of a
//! resumable job is in place; no temporary file and no unreferenced file
//! is left after open; the reservation counter equals the jobs'
//! reservations; and after resuming, every script's rows are in the
//! database exactly once for each job that ran it.

mod scenario;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use asadb_pager::{Fault, FaultPlan};
use asadb_reservoir::{FaultyFiles, Files, Job, JobId, JobState, MemFiles, Reservoir};
use asadb_sql::session::{Engine, Params};
use scenario::{
    A_ROWS, DIR, SCRIPT_B, SCRIPT_C, cfg, check_result_a, completed, count, label, opts, script_a,
};

const SCRIPT_E: &str =
    "INSERT INTO t VALUES (2001, 'e');\nSELECT count(*) FROM t WHERE a = 2001;\n";

fn open(files: Arc<dyn Files>) -> asadb_reservoir::Result<Reservoir> {
    Reservoir::open_on(files, Path::new(DIR), cfg())
}

/// Waits until every job is out of the active states (bounded, so a stuck
/// worker fails the test instead of hanging it).
fn settle(res: &Reservoir) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while res.jobs().iter().any(|j| j.state.is_active()) {
        assert!(Instant::now() < deadline, "jobs stuck: {:?}", res.jobs());
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// What the mix was told besides the jobs' states.
struct Told {
    /// `sweep` succeeded: its forgets are durable.
    swept: bool,
    /// `cancel` of job C succeeded (else C may run: the cancel did not
    /// happen, and the caller knows it).
    cancelled: bool,
}

/// The job mix on `files`; returns the Reservoir it ends with, still open,
/// and what else it was told. Errors of single steps are
/// expected under faults and ignored: the checks look at what the
/// Reservoir reports afterwards.
fn mix(files: Arc<dyn Files>, engine: &Engine) -> (Reservoir, Told) {
    let open_retry = |files: &Arc<dyn Files>| {
        // A failed open is retried once: the fault is transient.
        open(files.clone()).or_else(|_| open(files.clone())).expect("open after a fault")
    };
    let res = open_retry(&files);
    let a = script_a();
    let _ = res.submit(opts("A", Some("ka")), a.as_bytes());
    let _ = res.submit(opts("A", Some("ka")), a.as_bytes());
    let _ = res.submit(opts("B", None), SCRIPT_B.as_bytes());
    let mut cancelled = true;
    if let Ok(c) = res.submit(opts("C", None), SCRIPT_C.as_bytes()) {
        cancelled = res.cancel(c.job.id).is_ok();
    }
    let swept = res.sweep().is_ok();
    // A restart with live jobs: the open compacts the log.
    res.shutdown();
    drop(res);
    let res = open_retry(&files);
    res.start_worker(engine.clone()).unwrap();
    settle(&res);
    for job in res.jobs() {
        if label(&job) == "A" && job.state == JobState::Completed {
            let _ = res.result(job.id, 1, 0, 0);
        }
    }
    (res, Told { swept, cancelled })
}

fn new_engine() -> Engine {
    let engine = Engine::memory();
    engine.session().execute("CREATE TABLE t (a INTEGER, b TEXT)", &Params::None).unwrap();
    engine
}

fn spool_path(id: JobId) -> PathBuf {
    Path::new(DIR).join("spool").join(format!("{id}.body"))
}

fn result_path(id: JobId) -> PathBuf {
    Path::new(DIR).join("results").join(format!("{id}.result"))
}

fn reserved_sum(res: &Reservoir) -> u64 {
    res.jobs().iter().map(|j| j.reserved_bytes).sum()
}

/// Runs the mix with `plan`, then checks everything after a reopen.
/// Returns the number of counted calls.
fn run(plan: FaultPlan, what: &str) -> (u64, u64) {
    let mem = MemFiles::new();
    let plan = Arc::new(plan);
    let faulty: Arc<dyn Files> = Arc::new(FaultyFiles::new(Arc::new(mem.clone()), plan.clone()));
    let engine = new_engine();
    let (res, Told { swept, cancelled }) = mix(faulty, &engine);
    let (calls, failures) = (plan.calls(), plan.failures());
    assert_eq!(res.stats().reserved_bytes, reserved_sum(&res), "{what}: reservations");
    if failures == 0 {
        // Without a fault the mix ends as designed.
        let states: Vec<(String, JobState)> =
            res.jobs().iter().map(|j| (label(j).to_owned(), j.state)).collect();
        let want = [("A".to_owned(), JobState::Delivered), ("B".to_owned(), JobState::Failed)];
        assert_eq!(states, want, "{what}");
    }
    // Nothing fails from here on (a mix cut short by its fault may not
    // have reached call k at all).
    plan.heal();

    // The fault is over: new work completes without a restart.
    let e = res.submit(opts("E", None), SCRIPT_E.as_bytes());
    let e = e.unwrap_or_else(|err| panic!("{what}: a job after the fault: {err}"));
    settle(&res);
    let e = res.job(e.job.id).unwrap();
    assert_eq!(e.state, JobState::Completed, "{what}: the job after the fault: {e:?}");
    assert_eq!(res.result(e.id, 1, 0, 0).unwrap().rows, vec![serde_json::json!([1])], "{what}");
    assert!(res.stats().write_error.is_none(), "{what}: {:?}", res.stats().write_error);

    let told: BTreeMap<JobId, Job> = res.jobs().into_iter().map(|j| (j.id, j)).collect();
    for job in told.values() {
        if job.is_resumable() {
            assert!(mem.bytes(&spool_path(job.id)).is_some(), "{what}: spool of {job:?}");
        }
    }
    res.shutdown();
    drop(res);

    // Reopen on the same files, no faults.
    let res = open(Arc::new(mem.clone())).unwrap_or_else(|e| panic!("{what}: reopen: {e}"));
    for path in mem.paths() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert!(!name.ends_with(".tmp"), "{what}: stray {}", path.display());
    }
    assert_eq!(res.stats().reserved_bytes, reserved_sum(&res), "{what}: reservations");
    let back: BTreeMap<JobId, Job> = res.jobs().into_iter().map(|j| (j.id, j)).collect();
    for (id, r) in &back {
        let w = format!("{what}: job {id} ({}) after reopen: {r:?}", label(r));
        match told.get(id) {
            Some(t) => match t.state {
                // A state reported to the caller is durable.
                JobState::Completed
                | JobState::Delivered
                | JobState::Failed
                | JobState::Cancelled
                | JobState::Queued => assert_eq!(r.state, t.state, "{w}, told {t:?}"),
                // An unknown outcome stays unknown, or is the true one.
                JobState::Interrupted => assert!(
                    matches!(
                        r.state,
                        JobState::Interrupted | JobState::Completed | JobState::Failed
                    ),
                    "{w}, told {t:?}"
                ),
                other => panic!("{w}: told {other} at rest"),
            },
            // Known only to the log: a forget that did not become durable.
            None => assert!(
                !r.is_resumable()
                    && matches!(
                        r.state,
                        JobState::Interrupted | JobState::Cancelled | JobState::Failed
                    )
                    && (r.state != JobState::Failed || !swept),
                "{w}: not reported before the restart (sweep ok: {swept})"
            ),
        }
        // Failed means the job's own error, or a body never received:
        // never an outcome that is unknown.
        if r.state == JobState::Failed {
            let own = label(r) == "B" && r.fingerprint.is_some();
            assert!(own || r.fingerprint.is_none(), "{w}: failed without cause");
        }
        if matches!(r.state, JobState::Completed | JobState::Delivered) {
            assert!(label(r) != "B", "{w}: cannot complete");
            assert!(label(r) != "C" || !cancelled, "{w}: completed although cancelled");
            assert!(r.has_result, "{w}");
            if label(r) == "A" {
                check_result_a(&res, *id, &w);
            }
        }
        if r.state == JobState::Failed && r.has_result {
            let page = res.result(*id, 1, 0, 0).unwrap_or_else(|e| panic!("{w}: {e}"));
            assert!(page.statement.error.is_some(), "{w}");
        }
        assert_eq!(r.has_spool, mem.bytes(&spool_path(*id)).is_some(), "{w}: spool file");
        assert_eq!(r.has_result, mem.bytes(&result_path(*id)).is_some(), "{w}: result file");
        if r.is_resumable() {
            let len = mem.bytes(&spool_path(*id)).unwrap().len() as u64;
            assert_eq!(len, r.received_bytes, "{w}: spool length");
        }
    }
    for (id, t) in &told {
        if !back.contains_key(id) {
            panic!("{what}: job {id} ({}) was reported, then lost: {t:?}", label(t));
        }
    }

    // Resume what can be resumed; then every script's rows are applied
    // exactly once per job that ran it.
    res.start_worker(engine.clone()).unwrap();
    for job in res.jobs() {
        if job.is_resumable() {
            res.resume(job.id).unwrap_or_else(|e| panic!("{what}: resume {job:?}: {e}"));
        }
    }
    settle(&res);
    let end = res.jobs();
    let done = |l: &str| completed(&end, l);
    let ran_b = end.iter().filter(|j| label(j) == "B" && j.fingerprint.is_some()).count() as i64;
    for j in &end {
        assert!(
            j.state != JobState::Interrupted || !j.is_resumable(),
            "{what}: resumed job did not finish: {j:?}"
        );
        if label(j) == "B" && j.fingerprint.is_some() {
            assert_eq!(j.state, JobState::Failed, "{what}: {j:?}");
        }
    }
    let w = format!("{what}: rows after resuming, jobs {end:?}");
    assert_eq!(count(&engine, "SELECT count(*) FROM t WHERE a <= 1000"), A_ROWS * done("A"), "{w}");
    assert_eq!(count(&engine, "SELECT count(*) FROM t WHERE a = 1001"), ran_b, "{w}");
    assert_eq!(count(&engine, "SELECT count(*) FROM t WHERE a = 1002"), 0, "{w}");
    assert_eq!(count(&engine, "SELECT count(*) FROM t WHERE a = 2001"), done("E"), "{w}");
    assert_eq!(count(&engine, "SELECT count(*) FROM t WHERE a = 3001"), done("C"), "{w}");
    res.shutdown();
    (calls, failures)
}

#[test]
fn a_fault_at_any_write_fsync_create_or_rename_keeps_every_reported_state() {
    let (calls, _) = run(FaultPlan::never(), "no fault");
    assert!(calls > 50, "the mix makes {calls} mutating calls");
    let mut fired = 0;
    for k in 0..calls {
        let plan = FaultPlan::fail_at(k, Fault::Enospc).torn();
        fired += run(plan, &format!("ENOSPC (torn) at call {k}")).1;
        fired += run(FaultPlan::fail_at(k, Fault::Eio), &format!("EIO at call {k}")).1;
    }
    eprintln!("fault points: {calls}, each with ENOSPC (torn) and EIO; {fired} faults fired");
    // Nearly every planned fault falls inside the mix.
    assert!(fired * 10 >= calls * 2 * 9, "{fired} of {} planned faults fired", calls * 2);
}
