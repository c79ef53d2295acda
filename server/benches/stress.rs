//! The end-to-end stress run (issue 5), side by side with SQLite in one run.
//!
//! AsaDB: the generated script (`CREATE TABLE`, `BEGIN`, 1,000 INSERTs of
//! 100 rows, `COMMIT`: 1,003 statements, about 3.1 MB for 100k rows) is
//! streamed to the real release `asadb serve` through
//! `POST /api/reservoir/jobs`; the load time runs from the first byte sent
//! to the job's durable completion (polled every 2 ms). The server is
//! stopped with SIGTERM and started again, and every row is read back
//! through `/api/query` pages — keyset (`WHERE id > ? ORDER BY id LIMIT
//! 500`) and offset paging of `SELECT * FROM t ORDER BY id` — each row
//! checked against the generator. Peak memory is the server's `VmHWM`
//! just before each stop.
//!
//! SQLite: rusqlite (bundled) runs the same script, statement by statement
//! as the file is read, in its single transaction, WAL mode and
//! `synchronous=FULL`, on a file in the same temp dir; then a fresh
//! connection reads every row back. Each SQLite step runs in a child
//! process (this binary re-executed with `ASADB_STRESS_CHILD` set), so its
//! `VmHWM` belongs to that step alone.
//!
//! Shared machines drift, so the whole comparison runs in rounds (fresh
//! directories each time) and the table shows medians; offset paging,
//! quadratic in the table size, is measured in the first round only.
//!
//! Run: `cargo bench -p asadb-server --bench stress`. Environment:
//! `ASADB_STRESS_ROWS` (default 100000), `ASADB_STRESS_ROUNDS` (default 3),
//! `ASADB_STRESS_OFFSET_LIMIT_SECS` (default 300: offset paging is given up
//! after that long and reported as such).

#[path = "../tests/common/stress.rs"]
mod stress;

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use stress::{Paging, ReadBack, Row, Script, Server, Verifier, read_back, write_script};

const CHILD_ENV: &str = "ASADB_STRESS_CHILD";
/// The predecessor of this design on the 100k-row run (issue 5).
const PREDECESSOR_SECS: f64 = 48.6;
const PREDECESSOR_MB: f64 = 196.5;

fn main() {
    if let Ok(mode) = std::env::var(CHILD_ENV) {
        child(&mode);
        return;
    }
    let rows = env_u64("ASADB_STRESS_ROWS", 100_000);
    let rounds = env_u64("ASADB_STRESS_ROUNDS", 3).max(1);
    let offset_limit = Duration::from_secs(env_u64("ASADB_STRESS_OFFSET_LIMIT_SECS", 300));
    let work = tempfile::tempdir().expect("tempdir");
    let script = write_script(&work.path().join("script.sql"), rows);
    println!(
        "stress run: {rows} rows, script {:.2} MB, {} statements, {rounds} rounds",
        script.bytes as f64 / 1e6,
        script.statements
    );

    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let mib = |kib: u64| kib as f64 / 1024.0;
    let mut all = Vec::new();
    for round in 0..rounds {
        let dir = work.path().join(format!("round{round}"));
        // Offset paging is quadratic in the table size: measured once.
        let a = asadb_run(&dir.join("asadb"), &script, (round == 0).then_some(offset_limit));
        let sdir = dir.join("sqlite");
        std::fs::create_dir_all(&sdir).expect("mkdir");
        let s_load = run_child("sqlite-load", &sdir, &script);
        let s_read = run_child("sqlite-read", &sdir, &script);
        println!(
            "round {}: asadb load {:.1} ms (upload {:.1} ms), read {:.1} ms, peak {:.1} MiB; \
             sqlite load {:.1} ms, read {:.1} ms; load ratio {:.2}x",
            round + 1,
            ms(a.load),
            ms(a.upload),
            ms(a.keyset.elapsed),
            mib(a.load_hwm_kib.max(a.read_hwm_kib)),
            ms(s_load.elapsed),
            ms(s_read.elapsed),
            a.load.as_secs_f64() / s_load.elapsed.as_secs_f64()
        );
        all.push((a, s_load, s_read));
    }

    // Medians over the rounds (shared machines drift; one round is noisy).
    let med = |f: &dyn Fn(&(AsadbRun, ChildRun, ChildRun)) -> f64| {
        let mut v: Vec<f64> = all.iter().map(f).collect();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let secs = |d: Duration| d.as_secs_f64();
    let a_load = med(&|r| secs(r.0.load));
    let a_upload = med(&|r| secs(r.0.upload));
    let a_restart = med(&|r| secs(r.0.restart));
    let a_read = med(&|r| secs(r.0.keyset.elapsed));
    let a_load_hwm = med(&|r| r.0.load_hwm_kib as f64);
    let a_read_hwm = med(&|r| r.0.read_hwm_kib as f64);
    let a_peak = all.iter().map(|r| r.0.load_hwm_kib.max(r.0.read_hwm_kib)).max().unwrap_or(0);
    let s_load = med(&|r| secs(r.1.elapsed));
    let s_read = med(&|r| secs(r.2.elapsed));
    let s_load_hwm = med(&|r| r.1.hwm_kib as f64);
    let s_read_hwm = med(&|r| r.2.hwm_kib as f64);
    let ratio = med(&|r| secs(r.0.load) / secs(r.1.elapsed));
    let keyset_pages = all[0].0.keyset.pages;

    println!();
    println!("{:<58} {:>10} {:>10}", format!("median of {rounds} rounds"), "time", "peak RSS");
    let line = |what: &str, s: f64, kib: Option<f64>| match kib {
        Some(k) => println!("{what:<58} {:>7.1} ms {:>6.1} MiB", s * 1e3, k / 1024.0),
        None => println!("{what:<58} {:>7.1} ms", s * 1e3),
    };
    line("asadb  load: HTTP upload to durable completion", a_load, Some(a_load_hwm));
    line("         of which the upload (to the 201 answer)", a_upload, None);
    line("         after the upload (queue, execute, commit, poll)", a_load - a_upload, None);
    line("asadb  restart (spawn to listening)", a_restart, None);
    line(
        &format!("asadb  read-back, keyset paging ({keyset_pages} pages)"),
        a_read,
        Some(a_read_hwm),
    );
    if let Some(offset) = &all[0].0.offset {
        let what = format!("asadb  read-back, offset paging ({} pages, round 1)", offset.pages);
        if offset.gave_up {
            println!(
                "{what:<58} gave up after {:.1} s at row {} of {rows}",
                offset.elapsed.as_secs_f64(),
                offset.verifier.count
            );
        } else {
            line(&what, offset.elapsed.as_secs_f64(), None);
        }
        println!(
            "{:<58} {:>7.1} ms / {:.1} ms",
            "         first page / last page",
            ms(offset.first_page),
            ms(offset.last_page)
        );
    }
    line("sqlite load: one transaction, WAL, synchronous=FULL", s_load, Some(s_load_hwm));
    line("sqlite read-back: SELECT * FROM t ORDER BY id", s_read, Some(s_read_hwm));
    println!(
        "{:<58} {:>7.1} ms {:>6.1} MiB  (48.6 s, 196.5 MB)",
        "predecessor (reference, issue 5)",
        PREDECESSOR_SECS * 1e3,
        PREDECESSOR_MB / 1.048_576
    );
    println!();
    println!(
        "ratio asadb/sqlite (median): load {ratio:.2}x (target <= 1.5x, goal < 1x), keyset \
         read-back {:.2}x, peak memory {:.2}x",
        a_read / s_read,
        a_load_hwm.max(a_read_hwm) / s_load_hwm.max(s_read_hwm)
    );
    println!(
        "asadb server peak {:.1} MiB over all rounds (target < 32 MB); vs predecessor: {:.0}x \
         faster, {:.1}x less memory",
        mib(a_peak),
        PREDECESSOR_SECS / a_load,
        PREDECESSOR_MB * 1e6 / (a_peak as f64 * 1024.0)
    );
    println!(
        "verified: {rows} rows, checksum {:#018x}, equal in the asadb and sqlite read-backs",
        script.checksum
    );
}

fn env_u64(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v.trim().parse().unwrap_or_else(|_| panic!("{name}={v:?} is not a number")),
        Err(_) => default,
    }
}

/// What the AsaDB half measured.
struct AsadbRun {
    upload: Duration,
    load: Duration,
    load_hwm_kib: u64,
    restart: Duration,
    keyset: ReadBack,
    /// Offset paging, when it was measured.
    offset: Option<ReadBack>,
    read_hwm_kib: u64,
}

/// One AsaDB round: load, restart, keyset read-back, and offset read-back
/// when `offset_limit` is given.
fn asadb_run(data: &Path, script: &Script, offset_limit: Option<Duration>) -> AsadbRun {
    let server = Server::spawn(data, &[]);
    let client = server.client();
    let started = Instant::now();
    let id = client.submit_file(&script.path);
    let upload = started.elapsed();
    let job = client.wait_terminal(id, Duration::from_secs(3600));
    let load = started.elapsed();
    assert_eq!(job["state"], "completed", "{job}\n{}", server.stderr());
    assert_eq!(job["progress"]["rows_affected"], script.rows, "{job}");
    assert_eq!(job["progress"]["statements_done"], script.statements, "{job}");
    assert_eq!(
        client.metric("asadb_statements_executed_total"),
        Some(script.statements as f64),
        "asadb_statements_executed_total"
    );
    let load_hwm_kib = server.vm_hwm_kib();
    let status = server.terminate();
    assert!(status.success(), "SIGTERM exit: {status}");

    let started = Instant::now();
    let server = Server::spawn(data, &[]);
    let restart = started.elapsed();
    let client = server.client();
    let keyset = read_back(&client, Paging::Keyset, Duration::from_secs(3600));
    assert!(!keyset.gave_up);
    keyset.verifier.finish(script).unwrap_or_else(|e| panic!("keyset read-back: {e}"));
    let offset = offset_limit.map(|limit| read_back(&client, Paging::Offset, limit));
    if let Some(offset) = offset.as_ref().filter(|o| !o.gave_up) {
        offset.verifier.finish(script).unwrap_or_else(|e| panic!("offset read-back: {e}"));
    }
    let read_hwm_kib = server.vm_hwm_kib();
    let status = server.terminate();
    assert!(status.success(), "SIGTERM exit after the read-back: {status}");
    AsadbRun { upload, load, load_hwm_kib, restart, keyset, offset, read_hwm_kib }
}

/// What one SQLite child measured.
struct ChildRun {
    elapsed: Duration,
    hwm_kib: u64,
}

/// Runs this binary as a child in `mode` and parses its `RESULT` line:
/// seconds, VmHWM in KiB, rows, checksum.
fn run_child(mode: &str, dir: &Path, script: &Script) -> ChildRun {
    let exe = std::env::current_exe().expect("current_exe");
    let out = Command::new(exe)
        .env(CHILD_ENV, mode)
        .env("ASADB_STRESS_DIR", dir)
        .env("ASADB_STRESS_SCRIPT", &script.path)
        .output()
        .expect("spawn child");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "child {mode} failed: {}\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("RESULT "))
        .unwrap_or_else(|| panic!("child {mode} printed no RESULT line: {stdout}"));
    let f: Vec<&str> = line.split_whitespace().collect();
    let rows: u64 = f[2].parse().expect("rows");
    let checksum = u64::from_str_radix(f[3], 16).expect("checksum");
    assert_eq!(rows, script.rows, "{mode}: rows");
    if mode == "sqlite-read" {
        assert_eq!(checksum, script.checksum, "{mode}: checksum");
    }
    ChildRun {
        elapsed: Duration::from_secs_f64(f[0].parse().expect("secs")),
        hwm_kib: f[1].parse().expect("hwm"),
    }
}

/// Peak resident set size of this process, in KiB.
fn own_vm_hwm_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM")
}

fn child(mode: &str) {
    let dir = std::env::var_os("ASADB_STRESS_DIR").expect("ASADB_STRESS_DIR");
    let db = Path::new(&dir).join("db.sqlite");
    let started = Instant::now();
    let (rows, checksum) = match mode {
        "sqlite-load" => {
            let script = std::env::var_os("ASADB_STRESS_SCRIPT").expect("ASADB_STRESS_SCRIPT");
            (sqlite_load(&db, Path::new(&script)), 0)
        }
        "sqlite-read" => sqlite_read(&db),
        other => panic!("unknown child mode {other}"),
    };
    let secs = started.elapsed().as_secs_f64();
    println!("RESULT {secs} {} {rows} {checksum:x}", own_vm_hwm_kib());
}

/// The script, one statement a line, read as a stream (the script's own
/// BEGIN/COMMIT make it one transaction).
fn sqlite_load(db: &Path, script: &Path) -> u64 {
    let conn = rusqlite::Connection::open(db).expect("open sqlite");
    let mode: String =
        conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0)).expect("journal_mode");
    assert_eq!(mode, "wal");
    conn.pragma_update(None, "synchronous", "FULL").expect("synchronous");
    let reader = BufReader::new(File::open(script).expect("open the script"));
    for line in reader.lines() {
        conn.execute_batch(&line.expect("read the script")).expect("statement");
    }
    assert!(conn.is_autocommit(), "the script's COMMIT ended its transaction");
    conn.query_row("SELECT count(*) FROM t", [], |r| r.get::<_, i64>(0)).expect("count") as u64
}

fn sqlite_read(db: &Path) -> (u64, u64) {
    let conn = rusqlite::Connection::open(db).expect("open sqlite");
    let mut stmt = conn.prepare("SELECT * FROM t ORDER BY id").expect("prepare");
    let mut rows = stmt.query([]).expect("query");
    let mut verifier = Verifier::default();
    while let Some(r) = rows.next().expect("row") {
        let row = Row {
            id: r.get(0).expect("id"),
            name: r.get(1).expect("name"),
            qty: r.get(2).expect("qty"),
            price: r.get(3).expect("price"),
            note: r.get(4).expect("note"),
        };
        verifier.check(&row).unwrap_or_else(|e| panic!("sqlite read-back: {e}"));
    }
    (verifier.count, verifier.checksum)
}
