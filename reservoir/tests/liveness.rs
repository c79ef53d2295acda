//! What observers see while a job is under way: live `received_bytes`
//! during an upload (declared size or not), a live `updated_at` while the
//! worker runs a job (also inside one long statement), the change counter
//! and its listeners, and each statement's run time in its summary.
//!
//! Invariants pinned here: a declared-size upload shows the bytes it has
//! accepted before it finishes (the reservation no longer hides them);
//! `updated_at` of a processing job moves while its one statement runs,
//! while the persisted snapshot still follows the progress quantum; every
//! snapshot change bumps [`Reservoir::version`] and reaches every
//! listener; `/api/reservoir/stats` carries the live figures.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use asadb_reservoir::{Config, JobState, Reservoir, SubmitOptions};
use asadb_sql::session::Engine;

fn open() -> (tempfile::TempDir, Reservoir) {
    let dir = tempfile::tempdir().unwrap();
    let res = Reservoir::open(dir.path(), Config::default()).unwrap();
    (dir, res)
}

#[test]
fn a_declared_size_upload_shows_its_bytes_as_they_arrive() {
    let (_dir, res) = open();
    let declared = 1 << 20;
    let opts = SubmitOptions { declared_size: Some(declared), ..SubmitOptions::default() };
    let mut up = res.begin_upload(opts).unwrap();
    let id = up.id();
    assert_eq!(res.job(id).unwrap().received_bytes, 0);
    // Less than one spool chunk, then a pause: the bytes show anyway.
    up.write(&[b' '; 1000]).unwrap();
    std::thread::sleep(Duration::from_millis(30));
    up.write(&[b' '; 24]).unwrap();
    let job = res.job(id).unwrap();
    assert_eq!((job.state, job.received_bytes), (JobState::Receiving, 1024));
    assert_eq!(job.reserved_bytes, declared, "the reservation is the declared size");
    // A whole chunk is shown as soon as it is written.
    up.write(&vec![b' '; 300 << 10]).unwrap();
    assert!(res.job(id).unwrap().received_bytes >= 256 << 10);
    // The stats and the active list report the same live bytes.
    std::thread::sleep(Duration::from_millis(30));
    up.write(b"\n").unwrap();
    let live = res.job(id).unwrap().received_bytes;
    assert_eq!(live, 1024 + (300 << 10) + 1);
    assert_eq!(res.stats().received_bytes, live);
    assert_eq!(res.active_jobs()[0].received_bytes, live);
    let rest = vec![b' '; (declared - live) as usize];
    up.write(&rest).unwrap();
    let done = up.finish().unwrap();
    assert_eq!((done.job.state, done.job.received_bytes), (JobState::Queued, declared));
    assert_eq!(res.stats().received_bytes, 0, "nothing is receiving any more");
}

#[test]
fn a_chunked_upload_shows_its_bytes_too() {
    let (_dir, res) = open();
    let mut up = res.begin_upload(SubmitOptions::default()).unwrap();
    up.write(b"SELECT 1;").unwrap();
    std::thread::sleep(Duration::from_millis(30));
    up.write(b"\n").unwrap();
    assert_eq!(res.job(up.id()).unwrap().received_bytes, 10);
}

/// A statement that runs for a good while: a counter CTE.
const LONG: &str = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c \
                    WHERE x < 3000000) SELECT count(*) FROM c;";

#[test]
fn updated_at_moves_while_one_long_statement_runs() {
    let (_dir, res) = open();
    res.start_worker(Engine::memory()).unwrap();
    let id = res.submit(SubmitOptions::default(), LONG.as_bytes()).unwrap().job.id;
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut stamps = Vec::new();
    loop {
        let job = res.job(id).unwrap();
        if job.state == JobState::Processing {
            stamps.push(job.updated_at);
            // The stats and the active list carry the same live time.
            assert!(res.stats().updated_at.unwrap() >= job.updated_at);
            assert!(res.active_jobs()[0].updated_at >= job.updated_at);
        }
        if job.state.is_terminal() {
            assert_eq!(job.state, JobState::Completed, "{job:?}");
            assert!(job.updated_at >= *stamps.last().unwrap_or(&0));
            break;
        }
        assert!(Instant::now() < deadline, "the statement never ended");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(stamps.len() >= 3, "the statement ran too briefly to observe: {stamps:?}");
    assert!(stamps.windows(2).all(|w| w[0] <= w[1]), "{stamps:?}");
    assert!(stamps.last() > stamps.first(), "updated_at froze while running: {stamps:?}");
    // The summary tells how long the statement ran.
    let page = res.result(id, 0, 0, 0).unwrap();
    assert!(page.statement.elapsed_ms > 0.0, "{:?}", page.statement);
}

#[test]
fn every_change_bumps_the_version_and_reaches_listeners() {
    let (_dir, res) = open();
    let heard = Arc::new(AtomicU64::new(0));
    let sink = heard.clone();
    res.on_change(move |c| sink.store(c.version, Ordering::SeqCst));
    let v0 = res.version();
    let id = res.submit(SubmitOptions::default(), &b"SELECT 1;"[..]).unwrap().job.id;
    let v1 = res.version();
    assert!(v1 > v0, "admission and queueing are changes");
    assert_eq!(heard.load(Ordering::SeqCst), v1, "the listener saw the latest version");
    // Reading changes nothing.
    res.job(id).unwrap();
    res.stats();
    assert_eq!(res.version(), v1);
    res.cancel(id).unwrap();
    assert!(res.version() > v1);
    assert_eq!(heard.load(Ordering::SeqCst), res.version());
    // The worker's live progress is a change too.
    let before = res.version();
    res.start_worker(Engine::memory()).unwrap();
    let id = res.submit(SubmitOptions::default(), &b"SELECT 1; SELECT 2;"[..]).unwrap().job.id;
    let deadline = Instant::now() + Duration::from_secs(30);
    while !res.job(id).unwrap().state.is_terminal() {
        assert!(Instant::now() < deadline);
        std::thread::sleep(Duration::from_millis(5));
    }
    // queued, processing, 2 statements, 100 %, has_result, completed: more
    // than the three logged transitions alone.
    assert!(res.version() >= before + 6, "{} -> {}", before, res.version());
}

#[test]
fn listeners_see_every_state_a_job_passes_through() {
    let (_dir, res) = open();
    let states = Arc::new(parking_lot::Mutex::new(Vec::new()));
    let sink = states.clone();
    res.on_change(move |c| {
        let state = c.job.map(|j| j.state);
        let mut s = sink.lock();
        if s.last() != Some(&(c.id, state)) {
            s.push((c.id, state));
        }
    });
    res.start_worker(Engine::memory()).unwrap();
    let id = res.submit(SubmitOptions::default(), &b"SELECT 1;"[..]).unwrap().job.id;
    let deadline = Instant::now() + Duration::from_secs(30);
    while !res.job(id).unwrap().state.is_terminal() {
        assert!(Instant::now() < deadline);
        std::thread::sleep(Duration::from_millis(5));
    }
    use JobState::*;
    let want: Vec<_> =
        [Receiving, Queued, Processing, Completed].iter().map(|s| (id, Some(*s))).collect();
    assert_eq!(*states.lock(), want);
    // A forgotten job is told as `None`.
    let key = SubmitOptions { idempotency_key: Some("k".into()), ..SubmitOptions::default() };
    let first = res.submit(key.clone(), &b"SELECT 2;"[..]).unwrap().job.id;
    let again = res.submit(key, &b"SELECT 2;"[..]).unwrap();
    assert!(again.reused && again.job.id == first);
    let retry_id = asadb_reservoir::JobId(first.0 + 1);
    assert!(states.lock().contains(&(retry_id, None)), "{:?}", states.lock());
}

/// The panel refuses unsupported formats before an upload from
/// `ImportFormat::is_supported` (listed by `GET /api/import/formats`):
/// it must say exactly what admission does.
#[test]
fn is_supported_says_what_admission_does() {
    let (_dir, res) = open();
    for format in asadb_reservoir::ImportFormat::ALL {
        // A table-loading format needs a table name (refused otherwise as
        // invalid input, not as unsupported).
        let target_table = format.takes_target().then(|| "t".to_string());
        let import = asadb_reservoir::ImportMeta { format, target_table, ..Default::default() };
        let got = res.begin_upload(SubmitOptions { import, ..SubmitOptions::default() });
        match got {
            Ok(up) => {
                assert!(format.is_supported(), "{format:?} is admitted");
                up.abort("test", "not needed");
            }
            Err(e) => {
                assert!(!format.is_supported(), "{format:?} is refused: {e}");
                assert!(matches!(e, asadb_reservoir::Error::Unsupported(_)), "{e}");
            }
        }
        assert_eq!(format.as_str().parse::<asadb_reservoir::ImportFormat>().unwrap(), format);
    }
}
