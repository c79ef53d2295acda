//! Import throughput and memory next to SQLite, in one run (issue 12):
//!
//! - a generated CSV (default 1,000,000 rows, about 70 MB: id, name,
//!   price, qty, day, note with quotes and commas) into a new table,
//!   next to `sqlite3 FILE ".import --csv F t"`;
//! - a generated `pg_dump` plain file with one COPY block (default about
//!   100 MB), next to SQLite loading the same rows as one transaction of
//!   prepared INSERTs (`sqlite3` cannot read a pg_dump).
//!
//! The headline is *through the Reservoir*: the body is submitted as an
//! import job (spooled to disk with its SHA-256, as an upload is) and the
//! worker runs it — dialect detection, type inference, row batches,
//! progress markers, commits — to durable completion. The time runs from
//! the submit to the job's `completed`. A second line, `engine`, runs the
//! same reader straight into one session transaction, to tell the
//! Reservoir's share from the reader's and the engine's.
//!
//! Every measured run is a child process (this binary re-executed, or the
//! `sqlite3` CLI) under `/usr/bin/time`, so its peak memory is the
//! kernel's maximum resident set size of that run alone — memory freed
//! before the end cannot hide from it. Ours also print their VmHWM
//! growth over the resident size before the import began (the process
//! with the engine and the worker open).
//!
//! Run: `cargo bench --bench import -- [--rows N] [--dump-mb M]`.
//!
//! Last measured: 2026-12-02, release build, a 2-core VM shared with four
//! other builds (load average ~13: wall times wait for a core, so CPU
//! time is shown too; ratios are within one run):
//!
//! ```text
//! csv: 1,000,000 rows, 63.3 MB, into a new table
//!   asadb (Reservoir job, durable)      9.47 s (cpu 1.73 s)  peak 21.5 MiB, +4.4 MiB over the start
//!   asadb (reader → engine, one txn)   11.94 s (cpu 1.98 s)  peak 21.1 MiB
//!   sqlite3 .import --csv              10.71 s (cpu 1.78 s)  peak  5.9 MiB
//!   ratio (Reservoir / sqlite3): time 0.88x (cpu 0.97x), peak memory 3.65x
//! pg_dump: 100.0 MB, 1,165,224 rows in one COPY block
//!   asadb (Reservoir job, durable)     14.29 s (cpu 2.50 s)  peak 21.9 MiB, +4.5 MiB over the start
//!   asadb (reader → engine, one txn)   12.33 s (cpu 2.03 s)  peak 22.1 MiB
//!   sqlite3 .import of the COPY data   15.26 s (cpu 2.44 s)  peak  5.7 MiB
//!   sqlite (rusqlite INSERTs, one txn)  8.43 s (cpu 1.39 s)  peak  7.1 MiB
//!   ratio (Reservoir / sqlite3 .import): time 0.94x (cpu 1.02x), peak memory 3.83x
//!   ratio (Reservoir / rusqlite INSERTs): time 1.70x (cpu 1.80x)
//! ```
//!
//! Both imports stay under the Reservoir's 32 MB bound (the whole
//! process's peak, engine and worker included). Against the sqlite3 CLI
//! reading the same text both are at or under 1.0x wall time; CPU time is
//! 0.97x and 1.02x, within this machine's run-to-run noise. Against
//! rusqlite binding ready-made values (no text to parse: a lower bound,
//! not what an import does) the dump is 1.7x. What brought it there
//! (perf): numbers converted by the column's affinity in the CSV reader
//! (no string per number), COPY lines found a buffered chunk at a time,
//! no copy of every row batch in the worker (an earlier run of this bench,
//! before them: 2.95 s CPU for the CSV at 1.34x sqlite3's, 5.12 s for the
//! dump at 1.62x). The generated CSV is 63 MB for 1M rows (the issue says
//! "about 70 MB").

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use asadb::interchange::{Body, Format, ImportOptions, Mode, Spec};
use asadb::reservoir::{
    Config, ImportFormat, ImportMeta, ImportMode, JobState, Reservoir, SubmitOptions,
};
use asadb::sql::session::{Outcome, Params};

const CHILD_ENV: &str = "ASADB_IMPORTBENCH_CHILD";

fn status_kb(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(field))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|k| k.parse().ok()))
        })
        .unwrap_or(0)
}

fn write_csv(path: &Path, rows: u64) {
    let mut w = BufWriter::new(File::create(path).unwrap());
    writeln!(w, "id,name,price,qty,day,note").unwrap();
    for i in 1..=rows {
        writeln!(
            w,
            "{i},customer {},{}.{:02},{},2024-{:02}-{:02},\"say \"\"hi\"\", {}\"",
            i % 9973,
            i % 1000,
            i % 100,
            i % 50,
            i % 12 + 1,
            i % 28 + 1,
            i * 7
        )
        .unwrap();
    }
    w.flush().unwrap();
}

/// The pg_dump's COPY row `i` (without the newline), and the values
/// SQLite is given for it.
fn pg_row(i: u64) -> String {
    format!(
        "{i}\tkind-{}\t{}.{:02}\t2024-03-{:02} 12:{:02}:00\tline with a tab\\there and \\\\ slash {}",
        i % 37,
        i % 5000,
        i % 100,
        i % 28 + 1,
        i % 60,
        i * 13
    )
}

/// Writes the dump, and its COPY block's data lines alone to `tsv` (what
/// the `sqlite3` CLI imports as the same rows).
fn write_pg_dump(path: &Path, tsv: &Path, mb: u64) -> u64 {
    let mut w = BufWriter::new(File::create(path).unwrap());
    let mut t = BufWriter::new(File::create(tsv).unwrap());
    w.write_all(
        b"SET statement_timeout = 0;\nSET client_encoding = 'UTF8';\n\n\
CREATE TABLE public.events (\n    id integer NOT NULL,\n    kind character varying(40),\n    \
amount numeric(12,2),\n    happened_at timestamp without time zone,\n    payload text\n);\n\n\
COPY public.events (id, kind, amount, happened_at, payload) FROM stdin;\n",
    )
    .unwrap();
    let target = mb * 1_000_000;
    let mut written = 0u64;
    let mut i = 0u64;
    while written < target {
        i += 1;
        let line = pg_row(i);
        written += line.len() as u64 + 1;
        w.write_all(line.as_bytes()).unwrap();
        w.write_all(b"\n").unwrap();
        t.write_all(line.as_bytes()).unwrap();
        t.write_all(b"\n").unwrap();
    }
    t.flush().unwrap();
    w.write_all(b"\\.\n\nALTER TABLE ONLY public.events\n    ADD CONSTRAINT events_pkey PRIMARY KEY (id);\n")
        .unwrap();
    w.flush().unwrap();
    i
}

/// What one child run measured.
struct Measured {
    secs: f64,
    /// Peak resident set of the whole process (`/usr/bin/time`'s %M).
    peak_kb: u64,
    /// Ours: VmHWM growth over the resident size before the import.
    growth_kb: Option<u64>,
    rows: u64,
    /// User + system CPU seconds of the whole process (the machine is
    /// shared: wall time includes waiting for a core, CPU time does not).
    cpu: f64,
}

/// Runs `cmd` under `/usr/bin/time`; parses its own `RESULT secs rows
/// growth` line when `ours`.
fn measure(cmd: Command, ours: bool) -> Measured {
    let stats = tempfile::NamedTempFile::new().unwrap();
    let mut timed = Command::new("/usr/bin/time");
    timed.arg("-f").arg("%e %M %U %S").arg("-o").arg(stats.path()).arg(cmd.get_program());
    timed.args(cmd.get_args());
    for (k, v) in cmd.get_envs() {
        if let Some(v) = v {
            timed.env(k, v);
        }
    }
    let start = Instant::now();
    let out = timed.output().expect("/usr/bin/time");
    let wall = start.elapsed();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    for detail in stdout.lines().filter(|l| l.starts_with("  ")) {
        println!("{detail}");
    }
    let t = std::fs::read_to_string(stats.path()).unwrap();
    let last = t.lines().last().unwrap_or("");
    let mut f = last.split_whitespace();
    let _elapsed: f64 = f.next().and_then(|v| v.parse().ok()).unwrap_or(0.0);
    let peak_kb: u64 = f.next().and_then(|v| v.parse().ok()).expect("time's %M");
    let user: f64 = f.next().and_then(|v| v.parse().ok()).unwrap_or(0.0);
    let sys: f64 = f.next().and_then(|v| v.parse().ok()).unwrap_or(0.0);
    let cpu = user + sys;
    if ours {
        let line = stdout
            .lines()
            .find_map(|l| l.strip_prefix("RESULT "))
            .unwrap_or_else(|| panic!("no RESULT line: {stdout}"));
        let f: Vec<&str> = line.split_whitespace().collect();
        Measured {
            secs: f[0].parse().unwrap(),
            rows: f[1].parse().unwrap(),
            growth_kb: Some(f[2].parse().unwrap()),
            peak_kb,
            cpu,
        }
    } else {
        Measured { secs: wall.as_secs_f64(), peak_kb, growth_kb: None, rows: 0, cpu }
    }
}

fn ours_child(mode: &str, dir: &Path, file: &Path) -> Command {
    let mut c = Command::new(std::env::current_exe().unwrap());
    c.env(CHILD_ENV, mode).arg("--child").arg(dir).arg(file);
    c
}

fn mib(kb: u64) -> f64 {
    kb as f64 / 1024.0
}

fn line(what: &str, m: &Measured) {
    let growth = m.growth_kb.map(|g| format!(", +{:.1} MiB over the start", mib(g)));
    println!(
        "  {what:<34} {:>8.2} s (cpu {:>6.2} s)  peak {:>6.1} MiB{}",
        m.secs,
        m.cpu,
        mib(m.peak_kb),
        growth.unwrap_or_default()
    );
}

fn main() {
    if std::env::var(CHILD_ENV).is_ok() {
        let args: Vec<String> = std::env::args().collect();
        let at = args.iter().position(|a| a == "--child").expect("--child");
        child(&std::env::var(CHILD_ENV).unwrap(), &args[at + 1..]);
        return;
    }
    let mut rows = 1_000_000u64;
    let mut dump_mb = 100u64;
    let mut only: Option<String> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rows" => rows = args.next().and_then(|v| v.parse().ok()).expect("--rows N"),
            "--dump-mb" => dump_mb = args.next().and_then(|v| v.parse().ok()).expect("--dump-mb M"),
            "--only" => only = Some(args.next().expect("--only csv|dump")),
            "--bench" => {}
            other => panic!("unknown argument {other}"),
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let run = |what: &str| only.as_deref().is_none_or(|o| o == what);

    if run("csv") {
        let csv = dir.path().join("big.csv");
        write_csv(&csv, rows);
        let csv_mb = std::fs::metadata(&csv).unwrap().len() as f64 / 1e6;
        println!("csv: {rows} rows, {csv_mb:.1} MB, into a new table");
        let d1 = dir.path().join("csv-res");
        let d2 = dir.path().join("csv-eng");
        std::fs::create_dir_all(&d1).unwrap();
        std::fs::create_dir_all(&d2).unwrap();
        let res = measure(ours_child("csv-reservoir", &d1, &csv), true);
        let eng = measure(ours_child("csv-engine", &d2, &csv), true);
        let mut lite = Command::new("sqlite3");
        lite.arg(dir.path().join("lite.db")).arg(format!(".import --csv {} t", csv.display()));
        let lite = measure(lite, false);
        assert_eq!(res.rows, rows);
        assert_eq!(eng.rows, rows);
        line("asadb (Reservoir job, durable)", &res);
        line("asadb (reader → engine, one txn)", &eng);
        line("sqlite3 .import --csv", &lite);
        println!(
            "  ratio (Reservoir / sqlite3): time {:.2}x (cpu {:.2}x), peak memory {:.2}x",
            res.secs / lite.secs,
            res.cpu / lite.cpu,
            res.peak_kb as f64 / lite.peak_kb as f64
        );
        std::fs::remove_file(&csv).unwrap();
        let _ = std::fs::remove_dir_all(&d1);
        let _ = std::fs::remove_dir_all(&d2);
    }

    if run("dump") {
        let dump = dir.path().join("big.pg.sql");
        let tsv = dir.path().join("copy-data.tsv");
        let dump_rows = write_pg_dump(&dump, &tsv, dump_mb);
        let real_mb = std::fs::metadata(&dump).unwrap().len() as f64 / 1e6;
        println!("pg_dump: {real_mb:.1} MB, {dump_rows} rows in one COPY block");
        let d1 = dir.path().join("pg-res");
        let d2 = dir.path().join("pg-eng");
        let d3 = dir.path().join("pg-lite");
        for d in [&d1, &d2, &d3] {
            std::fs::create_dir_all(d).unwrap();
        }
        let res = measure(ours_child("pg-reservoir", &d1, &dump), true);
        let eng = measure(ours_child("pg-engine", &d2, &dump), true);
        // The sqlite3 CLI parses the same data lines as tab-separated text
        // (the headline: text in, rows out, like ours); rusqlite binds
        // ready-made values (no parsing at all: a lower bound).
        let mut cli = Command::new("sqlite3");
        cli.arg(d3.join("cli.db"))
            .arg(
                "CREATE TABLE events(id INTEGER PRIMARY KEY, kind TEXT, amount NUMERIC, \
                 happened_at TEXT, payload TEXT)",
            )
            .arg(".mode tabs")
            .arg(format!(".import {} events", tsv.display()));
        let cli = measure(cli, false);
        let mut lite = ours_child("pg-sqlite", &d3, &dump);
        lite.arg(dump_rows.to_string());
        let lite = measure(lite, true);
        assert_eq!(res.rows, dump_rows);
        assert_eq!(eng.rows, dump_rows);
        line("asadb (Reservoir job, durable)", &res);
        line("asadb (reader → engine, one txn)", &eng);
        line("sqlite3 .import of the COPY data", &cli);
        line("sqlite (rusqlite INSERTs, one txn)", &lite);
        println!(
            "  ratio (Reservoir / sqlite3 .import): time {:.2}x (cpu {:.2}x), peak memory {:.2}x",
            res.secs / cli.secs,
            res.cpu / cli.cpu,
            res.peak_kb as f64 / cli.peak_kb as f64
        );
        println!(
            "  ratio (Reservoir / rusqlite INSERTs): time {:.2}x (cpu {:.2}x)",
            res.secs / lite.secs,
            res.cpu / lite.cpu,
        );
    }
}

fn child(mode: &str, args: &[String]) {
    let dir = PathBuf::from(&args[0]);
    let file = PathBuf::from(&args[1]);
    let (format, table) =
        if mode.starts_with("csv") { (Format::Csv, Some("t")) } else { (Format::Postgresql, None) };
    let (secs, rows, growth) = match mode {
        "csv-reservoir" | "pg-reservoir" => reservoir(&dir, format, &file, table),
        "csv-engine" | "pg-engine" => engine(&dir, format, &file, table),
        "pg-sqlite" => sqlite_pg(&dir, args[2].parse().unwrap()),
        other => panic!("unknown child mode {other}"),
    };
    println!("RESULT {} {rows} {growth}", secs.as_secs_f64());
}

fn open_db(dir: &Path) -> asadb::Database {
    asadb::Database::open_with(dir.join("ours.db"), asadb::Options::default()).unwrap()
}

/// Submits `file` as an import job and waits for its durable end:
/// (time, rows, VmHWM growth in KiB).
fn reservoir(dir: &Path, format: Format, file: &Path, table: Option<&str>) -> (Duration, u64, u64) {
    let db = open_db(dir);
    let res = Reservoir::open(&dir.join(".asa.reservoir"), Config::default()).unwrap();
    res.start_worker(db.engine()).unwrap();
    let body = File::open(file).unwrap();
    let size = body.metadata().unwrap().len();
    let opts = SubmitOptions {
        declared_size: Some(size),
        import: ImportMeta {
            format: match format {
                Format::Csv => ImportFormat::Csv,
                _ => ImportFormat::Postgresql,
            },
            original_name: file.file_name().map(|n| n.to_string_lossy().into_owned()),
            target_table: table.map(str::to_string),
            mode: ImportMode::Append,
            options: ImportOptions::default(),
        },
        ..SubmitOptions::default()
    };
    let base = status_kb("VmRSS:");
    let start = Instant::now();
    let id = res.submit(opts, body).unwrap().job.id;
    let submitted = start.elapsed();
    let job = loop {
        let job = res.job(id).unwrap();
        if job.state.is_terminal() {
            break job;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let took = start.elapsed();
    let growth = status_kb("VmHWM:").saturating_sub(base);
    assert_eq!(job.state, JobState::Completed, "{:?}", job.error);
    res.shutdown();
    println!("  (submit: spool + SHA-256 {:.2} s)", submitted.as_secs_f64());
    (took, job.progress.rows_affected, growth)
}

/// The reader's units straight into one session transaction.
fn engine(dir: &Path, format: Format, file: &Path, table: Option<&str>) -> (Duration, u64, u64) {
    let db = open_db(dir);
    let mut session = db.engine().session();
    let spec = Spec {
        format,
        original_name: file.file_name().map(|n| n.to_string_lossy().into_owned()),
        target_table: table.map(str::to_string),
        mode: Mode::Append,
        options: ImportOptions::default(),
    };
    let base = status_kb("VmRSS:");
    let start = Instant::now();
    let src = std::io::BufReader::new(File::open(file).unwrap());
    let mut none = |_: &str| None;
    let mut reader = asadb::interchange::open(&spec, Box::new(src), &mut none).unwrap();
    session.execute("BEGIN", &Params::None).unwrap();
    let mut rows = 0;
    while let Some(u) = reader.next_unit() {
        match u.unwrap().body {
            Body::Sql(sql) => {
                session.execute(&sql, &Params::None).unwrap();
            }
            Body::Rows(b) => {
                if let Outcome::Affected(n) = session.insert_values_owned(b.insert).unwrap() {
                    rows += n;
                }
            }
        }
    }
    session.execute("COMMIT", &Params::None).unwrap();
    let took = start.elapsed();
    (took, rows, status_kb("VmHWM:").saturating_sub(base))
}

/// SQLite: the dump's rows as prepared INSERTs in one transaction.
fn sqlite_pg(dir: &Path, rows: u64) -> (Duration, u64, u64) {
    let base = status_kb("VmRSS:");
    let start = Instant::now();
    let conn = rusqlite::Connection::open(dir.join("lite.db")).unwrap();
    conn.execute_batch(
        "CREATE TABLE events(id INTEGER PRIMARY KEY, kind TEXT, amount NUMERIC, happened_at TEXT, payload TEXT); BEGIN",
    )
    .unwrap();
    {
        let mut st = conn.prepare("INSERT INTO events VALUES (?, ?, ?, ?, ?)").unwrap();
        for i in 1..=rows {
            st.execute(rusqlite::params![
                i as i64,
                format!("kind-{}", i % 37),
                (i % 5000) as f64 + (i % 100) as f64 / 100.0,
                format!("2024-03-{:02} 12:{:02}:00", i % 28 + 1, i % 60),
                format!("line with a tab\there and \\ slash {}", i * 13)
            ])
            .unwrap();
        }
    }
    conn.execute_batch("COMMIT").unwrap();
    let took = start.elapsed();
    (took, rows, status_kb("VmHWM:").saturating_sub(base))
}
