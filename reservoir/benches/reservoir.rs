//! Reservoir benchmark (issue 4): the 100k-row script submitted in-process
//! to durable completion, then read back by a fresh process, side by side
//! with rusqlite running the same script in one transaction (WAL,
//! `synchronous=FULL`); then the same with 1,000,000 rows.
//!
//! Every measured run is a child process (this binary re-executed with
//! `ASADB_RESBENCH_CHILD` set), so the peak resident memory it reports
//! (`VmHWM` from `/proc/self/status`) belongs to that run alone.
//!
//! Run with `cargo bench -p asadb-reservoir --bench reservoir`. Set
//! `ASADB_RESBENCH_ROWS=100000` to run one size only.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use asadb_reservoir::{Config, JobState, Reservoir, SubmitOptions};
use asadb_sql::session::{Engine, Outcome, Params};

const CHILD_ENV: &str = "ASADB_RESBENCH_CHILD";
const ROWS_PER_INSERT: u64 = 100;

fn main() {
    if let Ok(mode) = std::env::var(CHILD_ENV) {
        let args: Vec<String> = std::env::args().collect();
        // The child's arguments come after a `--child` marker (cargo bench
        // passes `--bench` first).
        let at = args.iter().position(|a| a == "--child").expect("child run without --child");
        child(&mode, &args[at + 1..]);
        return;
    }
    let sizes: Vec<u64> = match std::env::var("ASADB_RESBENCH_ROWS") {
        Ok(v) => v.split(',').map(|s| s.trim().parse().expect("ASADB_RESBENCH_ROWS")).collect(),
        Err(_) => vec![100_000, 1_000_000],
    };
    let mut asadb_totals = Vec::new();
    for rows in sizes {
        let work = tempfile::tempdir().expect("tempdir");
        let script = work.path().join("script.sql");
        let (bytes, statements) = write_script(&script, rows);
        println!("== {rows} rows: script {:.2} MB, {statements} statements", bytes as f64 / 1e6);
        let adir = work.path().join("asadb");
        let sdir = work.path().join("sqlite");
        let ddir = work.path().join("direct");
        let fdir = work.path().join("fast");
        std::fs::create_dir_all(&ddir).expect("mkdir");
        std::fs::create_dir_all(&fdir).expect("mkdir");
        std::fs::create_dir_all(&adir).expect("mkdir");
        std::fs::create_dir_all(&sdir).expect("mkdir");
        let a_load = run_child("asadb-load", &adir, &script, rows);
        let a_read = run_child("asadb-read", &adir, &script, rows);
        let d_load = run_child("asadb-direct", &ddir, &script, rows);
        let f_load = run_child("asadb-direct-fast", &fdir, &script, rows);
        let s_load = run_child("sqlite-load", &sdir, &script, rows);
        let s_read = run_child("sqlite-read", &sdir, &script, rows);
        report("asadb  load (reservoir, durable)", &a_load);
        report("asadb  read (SELECT * streamed) ", &a_read);
        report("asadb  load (engine, one txn)   ", &d_load);
        report("asadb  load (engine, fast path) ", &f_load);
        report("sqlite load (one txn, WAL FULL) ", &s_load);
        report("sqlite read (SELECT *)          ", &s_read);
        println!(
            "ratio asadb/sqlite: load time {:.2}x, load peak {:.2}x, read time {:.2}x, \
             read peak {:.2}x",
            a_load.secs / s_load.secs,
            a_load.hwm_kb as f64 / s_load.hwm_kb as f64,
            a_read.secs / s_read.secs,
            a_read.hwm_kb as f64 / s_read.hwm_kb as f64,
        );
        asadb_totals.push((rows, a_load.secs + a_read.secs, a_load.hwm_kb.max(a_read.hwm_kb)));
    }
    if let [(r0, t0, m0), rest @ ..] = asadb_totals.as_slice() {
        for (r, t, m) in rest {
            println!(
                "scaling {r0} -> {r} rows: asadb load+read time {:.2}x, peak memory {:.2}x \
                 ({} KiB -> {} KiB)",
                t / t0,
                *m as f64 / *m0 as f64,
                m0,
                m
            );
        }
    }
}

/// What one child run measured.
struct Measured {
    secs: f64,
    hwm_kb: u64,
    rows: u64,
}

fn report(what: &str, m: &Measured) {
    println!(
        "{what}: {:>8.3} s  peak {:>7.1} MiB  ({} rows)",
        m.secs,
        m.hwm_kb as f64 / 1024.0,
        m.rows
    );
}

/// Runs this binary as a child in `mode` and parses its `RESULT` line.
fn run_child(mode: &str, dir: &Path, script: &Path, rows: u64) -> Measured {
    let exe = std::env::current_exe().expect("current_exe");
    let out = Command::new(exe)
        .env(CHILD_ENV, mode)
        .arg("--child")
        .arg(dir)
        .arg(script)
        .arg(rows.to_string())
        .output()
        .expect("spawn child");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "child {mode} failed: {}\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    // Details a child prints (indented) are passed on.
    for detail in stdout.lines().filter(|l| l.starts_with("  ")) {
        println!("{mode}:{detail}");
    }
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("RESULT "))
        .unwrap_or_else(|| panic!("child {mode} printed no RESULT line: {stdout}"));
    let f: Vec<&str> = line.split_whitespace().collect();
    let m = Measured {
        secs: f[0].parse().expect("secs"),
        hwm_kb: f[1].parse().expect("hwm"),
        rows: f[2].parse().expect("rows"),
    };
    assert_eq!(m.rows, rows, "child {mode} saw the wrong number of rows");
    m
}

/// Writes CREATE TABLE plus INSERTs of 100 rows each, one statement per
/// line. Returns (bytes, statements).
fn write_script(path: &Path, rows: u64) -> (u64, u64) {
    let mut w = BufWriter::new(File::create(path).expect("create script"));
    let mut statements = 1;
    writeln!(w, "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, score REAL, note TEXT);")
        .expect("write");
    let mut id = 1;
    while id <= rows {
        let last = (id + ROWS_PER_INSERT - 1).min(rows);
        let mut line = String::from("INSERT INTO t VALUES ");
        for i in id..=last {
            if i > id {
                line.push(',');
            }
            line.push_str(&format!("({i},'name{i}',{}.5,'n{}')", i % 100, i % 7));
        }
        line.push(';');
        writeln!(w, "{line}").expect("write");
        statements += 1;
        id = last + 1;
    }
    w.flush().expect("flush");
    (std::fs::metadata(path).expect("stat").len(), statements)
}

/// Peak resident set size of this process, in KiB.
fn vm_hwm_kb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM")
}

fn child(mode: &str, args: &[String]) {
    let dir = PathBuf::from(&args[0]);
    let script = PathBuf::from(&args[1]);
    let expect_rows: u64 = args[2].parse().expect("rows");
    let started = Instant::now();
    let rows = match mode {
        "asadb-load" => asadb_load(&dir, &script, expect_rows),
        "asadb-read" => asadb_read(&dir),
        "asadb-direct" => asadb_direct(&dir, &script, false),
        "asadb-direct-fast" => asadb_direct(&dir, &script, true),
        "sqlite-load" => sqlite_load(&dir, &script),
        "sqlite-read" => sqlite_read(&dir),
        other => panic!("unknown child mode {other}"),
    };
    let secs = started.elapsed().as_secs_f64();
    println!("RESULT {secs} {} {rows}", vm_hwm_kb());
}

fn asadb_load(dir: &Path, script: &Path, expect_rows: u64) -> u64 {
    let engine =
        Engine::open(&dir.join("db.asa"), asadb_txn::Options::default()).expect("open engine");
    let res = Reservoir::open(&dir.join(".asa.reservoir"), Config::default()).expect("reservoir");
    res.start_worker(engine).expect("worker");
    let body = File::open(script).expect("open script");
    let size = body.metadata().expect("stat").len();
    let opts = SubmitOptions { declared_size: Some(size), ..SubmitOptions::default() };
    let started = Instant::now();
    let id = res.submit(opts, body).expect("submit").job.id;
    let submitted = started.elapsed();
    let job = loop {
        let job = res.job(id).expect("job");
        if job.state.is_terminal() {
            break job;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    assert_eq!(job.state, JobState::Completed, "{:?}", job.error);
    let stats = res.stats();
    res.shutdown();
    println!(
        "  submit (spool + SHA-256) {:.3} s; worker throughput {:.1} MB/s",
        submitted.as_secs_f64(),
        stats.throughput_bytes_per_sec / 1e6
    );
    assert_eq!(job.progress.rows_affected, expect_rows);
    job.progress.rows_affected
}

fn asadb_read(dir: &Path) -> u64 {
    let engine =
        Engine::open(&dir.join("db.asa"), asadb_txn::Options::default()).expect("open engine");
    let mut session = engine.session();
    let rows = session.query("SELECT * FROM t", &Params::None).expect("query");
    let mut n = 0u64;
    for row in rows {
        let row = row.expect("row");
        assert_eq!(row.len(), 4);
        n += 1;
    }
    n
}

/// The engine alone, without the Reservoir: the script's statements in one
/// transaction, to tell the Reservoir's overhead from the engine's speed.
/// With `fast`, INSERTs go through `script::parse_insert_fast` and
/// `Session::insert_values` (no SQL parser), as a script runner may.
fn asadb_direct(dir: &Path, script: &Path, fast: bool) -> u64 {
    let engine =
        Engine::open(&dir.join("db.asa"), asadb_txn::Options::default()).expect("open engine");
    let mut session = engine.session();
    session.execute("BEGIN", &Params::None).expect("begin");
    let reader = BufReader::new(File::open(script).expect("open script"));
    let mut rows = 0;
    for line in reader.lines() {
        let line = line.expect("read script");
        let insert = if fast { asadb_sql::script::parse_insert_fast(&line, false) } else { None };
        let outcome = match insert {
            Some(iv) => session.insert_values_owned(iv),
            None => session.execute(&line, &Params::None),
        };
        if let Outcome::Affected(n) = outcome.expect("statement") {
            rows += n;
        }
    }
    session.execute("COMMIT", &Params::None).expect("commit");
    rows
}

fn sqlite_load(dir: &Path, script: &Path) -> u64 {
    let conn = rusqlite::Connection::open(dir.join("db.sqlite")).expect("open sqlite");
    conn.pragma_update(None, "journal_mode", "WAL").expect("wal");
    conn.pragma_update(None, "synchronous", "FULL").expect("sync");
    conn.execute_batch("BEGIN").expect("begin");
    // One statement per line, streamed like the Reservoir streams its spool.
    let reader = BufReader::new(File::open(script).expect("open script"));
    for line in reader.lines() {
        conn.execute_batch(&line.expect("read script")).expect("statement");
    }
    conn.execute_batch("COMMIT").expect("commit");
    conn.query_row("SELECT count(*) FROM t", [], |r| r.get::<_, i64>(0)).expect("count") as u64
}

fn sqlite_read(dir: &Path) -> u64 {
    let conn = rusqlite::Connection::open(dir.join("db.sqlite")).expect("open sqlite");
    let mut stmt = conn.prepare("SELECT * FROM t").expect("prepare");
    let mut rows = stmt.query([]).expect("query");
    let mut n = 0u64;
    while let Some(row) = rows.next().expect("row") {
        let _: i64 = row.get(0).expect("id");
        let _: String = row.get(1).expect("name");
        n += 1;
    }
    n
}
