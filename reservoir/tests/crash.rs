//! A power cut at every sync of the Reservoir and its database.
//!
//! The database (`db`, `db-wal`) and the Reservoir's files
//! ([`CrashFiles`]: contents and directory entries) live on one pager
//! [`CrashWorld`], so they crash together. Scenario, as in `faults.rs`: a
//! script whose result spans several pages, an idempotent retry of it, a
//! script that fails with stop-on-error, a queued job cancelled and swept,
//! a restart in the middle (a compaction with live jobs), then the worker
//! runs everything and job A's result is read (delivered). A dry run
//! counts the world's syncs (file syncs and directory syncs, in one
//! sequence); then, for every sync `n`, the mix runs again with the world
//! crashing at sync `n` — that sync does not happen and every later call
//! fails — and the restart is tried on several recoveries of the world
//! (unsynced writes dropped, applied or torn; unsynced directory
//! operations kept up to a point), each seeded.
//!
//! Invariants after every restart: the database opens and passes its
//! integrity check; the Reservoir opens; a state the mix was told is the
//! state after the restart (an `interrupted` one may have become its true
//! outcome); a job the mix was never told about is not resumable; a
//! completed job's result is readable in full; the spool of a resumable
//! job is in place and as long as received; no temporary file is left;
//! and after resuming, every script's rows are in the database exactly
//! once for each job that ran it.

mod scenario;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use asadb_pager::{CrashWorld, Io};
use asadb_reservoir::{CrashFiles, Files, Job, JobId, JobState, Reservoir};
use asadb_sql::session::{Engine, Params};
use asadb_txn::{Db, Options};
use scenario::{
    A_ROWS, DIR, SCRIPT_B, SCRIPT_C, cfg, check_result_a, completed, count, label, opts, script_a,
};

/// Recoveries tried per crash point (the ignored long test: 200).
const SEEDS: u64 = 8;

/// Two batches of its own: a crash between them leaves the first committed.
const SCRIPT_D: &str = "BEGIN;\nINSERT INTO t VALUES (4001, 'd');\nCOMMIT;\n\
                        BEGIN;\nINSERT INTO t VALUES (4002, 'd');\nCOMMIT;\n";

fn db_opts() -> Options {
    Options { pool_frames: 64, ..Options::default() }
}

fn open_db(world: &CrashWorld) -> asadb_txn::Result<Db> {
    let main: Arc<dyn Io> = world.file("db");
    let wal: Arc<dyn Io> = world.file("db-wal");
    Db::open_io(main, wal, db_opts())
}

fn open_res(files: &CrashFiles) -> asadb_reservoir::Result<Reservoir> {
    Reservoir::open_on(Arc::new(files.clone()) as Arc<dyn Files>, Path::new(DIR), cfg())
}

/// Waits until no job is active, or the world has crashed (then the
/// worker can make no more progress that matters).
fn settle(res: &Reservoir, world: &CrashWorld) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while !world.is_crashed() && res.jobs().iter().any(|j| j.state.is_active()) {
        assert!(Instant::now() < deadline, "jobs stuck: {:?}", res.jobs());
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// What the mix was told.
#[derive(Default)]
struct Told {
    /// Each job's last reported state.
    jobs: BTreeMap<JobId, Job>,
    /// `sweep` succeeded: its forgets are durable.
    swept: bool,
    /// `cancel` of job C succeeded.
    cancelled: bool,
}

impl Told {
    fn saw(&mut self, res: &Reservoir) {
        for job in res.jobs() {
            self.jobs.insert(job.id, job);
        }
    }
}

/// A fresh world with the database's table, and the sync count at which
/// the mix begins.
fn fresh_world() -> (CrashWorld, u64) {
    let world = CrashWorld::new();
    let engine = Engine::with_db(open_db(&world).unwrap());
    engine.session().execute("CREATE TABLE t (a INTEGER, b TEXT)", &Params::None).unwrap();
    drop(engine);
    let start = world.syncs();
    (world, start)
}

/// The mix on `world`; every step's error is ignored (after the crash
/// every call fails): the checks look at what was reported.
fn mix(world: &CrashWorld, files: &CrashFiles) -> Told {
    let mut told = Told { cancelled: true, ..Told::default() };
    let Ok(engine) = open_db(world).map(Engine::with_db) else { return told };
    let Ok(res) = open_res(files) else { return told };
    let a = script_a();
    let _ = res.submit(opts("A", Some("ka")), a.as_bytes());
    let _ = res.submit(opts("A", Some("ka")), a.as_bytes());
    let _ = res.submit(opts("B", None), SCRIPT_B.as_bytes());
    if let Ok(c) = res.submit(opts("C", None), SCRIPT_C.as_bytes()) {
        told.cancelled = res.cancel(c.job.id).is_ok();
    }
    let _ = res.submit(opts("D", None), SCRIPT_D.as_bytes());
    told.saw(&res);
    told.swept = res.sweep().is_ok();
    told.saw(&res);
    res.shutdown();
    drop(res);
    let Ok(res) = open_res(files) else { return told };
    told.saw(&res);
    if res.start_worker(engine.clone()).is_ok() {
        settle(&res, world);
    }
    told.saw(&res);
    for job in res.jobs() {
        if label(&job) == "A" && job.state == JobState::Completed {
            let _ = res.result(job.id, 1, 0, 0);
        }
    }
    told.saw(&res);
    res.shutdown();
    told
}

/// Restarts on a recovery of the crashed world and checks everything.
fn check_restart(files: &CrashFiles, told: &Told, what: &str) {
    let world = files.world().clone();
    let engine = Engine::with_db(open_db(&world).unwrap_or_else(|e| panic!("{what}: db: {e}")));
    let report = engine.integrity_check().unwrap();
    assert!(report.is_ok(), "{what}: {:?}", report.problems);
    let res = open_res(files).unwrap_or_else(|e| panic!("{what}: reopen: {e}"));
    for path in files.paths() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert!(!name.ends_with(".tmp"), "{what}: stray {}", path.display());
    }
    let spool = |id: JobId| files.bytes(&Path::new(DIR).join("spool").join(format!("{id}.body")));
    let back: BTreeMap<JobId, Job> = res.jobs().into_iter().map(|j| (j.id, j)).collect();
    for (id, r) in &back {
        let w = format!("{what}: job {id} ({}) after the restart: {r:?}", label(r));
        match told.jobs.get(id) {
            Some(t) => match t.state {
                // A result read may have recorded its delivery.
                JobState::Completed => assert!(
                    matches!(r.state, JobState::Completed | JobState::Delivered),
                    "{w}, told {t:?}"
                ),
                JobState::Delivered | JobState::Failed | JobState::Cancelled => {
                    assert_eq!(r.state, t.state, "{w}, told {t:?}")
                }
                // Not ended when told: a later step (the worker taking it,
                // its end, a cancel) may have written its record before
                // the power went, its sync never returning — a lower
                // bound. What it may have become is checked below (a
                // failure only of its own, completion with its result and
                // rows exactly once, cancellation only of C).
                JobState::Queued
                | JobState::Interrupted
                | JobState::Processing
                | JobState::Cancelling => {
                    assert!(r.state != JobState::Cancelled || label(r) == "C", "{w}, told {t:?}")
                }
                JobState::Receiving => panic!("{w}: told receiving at rest"),
            },
            None => assert!(
                !r.is_resumable()
                    && matches!(
                        r.state,
                        JobState::Interrupted | JobState::Cancelled | JobState::Failed
                    )
                    && (r.state != JobState::Failed || !told.swept || r.fingerprint.is_none()),
                "{w}: never reported (sweep ok: {})",
                told.swept
            ),
        }
        if r.state == JobState::Failed {
            let own = label(r) == "B" && r.fingerprint.is_some();
            assert!(own || r.fingerprint.is_none(), "{w}: failed without cause");
        }
        if matches!(r.state, JobState::Completed | JobState::Delivered) {
            assert!(label(r) != "B", "{w}: cannot complete");
            assert!(label(r) != "C" || !told.cancelled, "{w}: completed although cancelled");
            assert!(r.has_result, "{w}");
            if label(r) == "A" {
                check_result_a(&res, *id, &w);
            }
        }
        if r.is_resumable() {
            let body = spool(*id).unwrap_or_else(|| panic!("{w}: no spool"));
            assert_eq!(body.len() as u64, r.received_bytes, "{w}: spool length");
        }
    }
    for (id, t) in &told.jobs {
        let forgettable = told.swept || t.state.is_terminal() || t.state == JobState::Receiving;
        assert!(
            back.contains_key(id) || forgettable,
            "{what}: job {id} ({}) was reported, then lost: {t:?}",
            label(t)
        );
    }

    res.start_worker(engine.clone()).unwrap();
    for job in res.jobs() {
        if job.is_resumable() {
            res.resume(job.id).unwrap_or_else(|e| panic!("{what}: resume {job:?}: {e}"));
        }
    }
    let deadline = Instant::now() + Duration::from_secs(120);
    while res.jobs().iter().any(|j| j.state.is_active()) {
        assert!(Instant::now() < deadline, "{what}: jobs stuck: {:?}", res.jobs());
        std::thread::sleep(Duration::from_millis(1));
    }
    let end = res.jobs();
    let done = |l: &str| completed(&end, l);
    // Job D commits in two batches: an interrupted D that was not resumed
    // (it cannot be) may hold its first batch only.
    let d_rows = count(&engine, "SELECT count(*) FROM t WHERE a IN (4001, 4002)");
    let ran_b = end.iter().filter(|j| label(j) == "B" && j.fingerprint.is_some()).count() as i64;
    let w = format!("{what}: rows after resuming, jobs {end:?}");
    for j in &end {
        assert!(!j.is_resumable(), "{what}: resumed job did not finish: {j:?}");
    }
    assert_eq!(count(&engine, "SELECT count(*) FROM t WHERE a <= 1000"), A_ROWS * done("A"), "{w}");
    assert!(count(&engine, "SELECT count(*) FROM t WHERE a = 1001") <= ran_b, "{w}");
    assert_eq!(count(&engine, "SELECT count(*) FROM t WHERE a = 1002"), 0, "{w}");
    assert_eq!(count(&engine, "SELECT count(*) FROM t WHERE a = 3001"), done("C"), "{w}");
    assert!(d_rows >= 2 * done("D") && d_rows <= 2, "{w}: D rows {d_rows}");
    res.shutdown();
}

#[test]
fn a_power_cut_at_any_sync_keeps_every_reported_state_and_applies_each_script_once() {
    power_cuts(SEEDS);
}

/// The same with 200 recoveries per crash point:
/// `cargo test -p asadb-reservoir --test crash -- --ignored`.
#[test]
#[ignore]
fn long_power_cuts() {
    power_cuts(200);
}

fn power_cuts(seeds: u64) {
    // The dry run: how many syncs the mix makes, and that it ends as
    // designed.
    let (world, start) = fresh_world();
    let files = CrashFiles::new(world.clone());
    let told = mix(&world, &files);
    let end = world.syncs();
    let states: Vec<(String, JobState)> =
        told.jobs.values().map(|j| (label(j).to_owned(), j.state)).collect();
    let want = [
        ("A".to_owned(), JobState::Delivered),
        ("B".to_owned(), JobState::Failed),
        ("C".to_owned(), JobState::Cancelled),
        ("D".to_owned(), JobState::Completed),
    ];
    assert_eq!(states, want, "the mix without a crash");
    check_restart(&files.recover(0), &told, "no crash");
    assert!(end - start > 20, "the mix makes {} syncs", end - start);

    for n in start + 1..=end {
        let (world, _) = fresh_world();
        let files = CrashFiles::new(world.clone());
        world.crash_at_sync(n);
        let told = mix(&world, &files);
        assert!(world.is_crashed(), "sync {n} was never reached");
        for seed in 0..seeds {
            check_restart(&files.recover(seed), &told, &format!("crash at sync {n}, seed {seed}"));
        }
    }
    eprintln!("crash points: {}, {seeds} recoveries each", end - start);
}
