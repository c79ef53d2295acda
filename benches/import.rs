//! Import throughput next to SQLite, in one run:
//!
//! - a generated CSV (default 1,000,000 rows, about 70 MB: id, name,
//!   price, qty, day, note with quotes and commas) into a new table — our
//!   CSV reader (dialect detection, type inference) and row batches into a
//!   database file, next to `sqlite3 FILE ".import --csv F t"`;
//! - a generated `pg_dump` plain file with one COPY block (default about
//!   100 MB) — our dump reader into a database file, next to SQLite
//!   loading the same rows as one transaction of prepared INSERTs.
//!
//! Prints the time and the peak memory of each (ours: this process's
//! VmHWM growth; sqlite3: the child's VmHWM). Run:
//! `cargo bench --bench import -- [--rows N] [--dump-mb M]`.

use std::io::{BufWriter, Write};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use asadb::interchange::{Body, Format, ImportOptions, Mode, Spec};
use asadb::sql::session::{Params, Session};

fn vm_hwm(pid: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|k| k.parse().ok()))
        })
        .unwrap_or(0)
}

fn vm_rss() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|k| k.parse().ok()))
        })
        .unwrap_or(0)
}

/// Resets this process's VmHWM to its current RSS (Linux 4.0+).
fn reset_hwm() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

fn write_csv(path: &Path, rows: u64) {
    let mut w = BufWriter::new(std::fs::File::create(path).unwrap());
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

fn write_pg_dump(path: &Path, mb: u64) -> u64 {
    let mut w = BufWriter::new(std::fs::File::create(path).unwrap());
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
        let line = format!(
            "{i}\tkind-{}\t{}.{:02}\t2024-03-{:02} 12:{:02}:00\tline with a tab\\there and \\\\ slash {}\n",
            i % 37,
            i % 5000,
            i % 100,
            i % 28 + 1,
            i % 60,
            i * 13
        );
        written += line.len() as u64;
        w.write_all(line.as_bytes()).unwrap();
    }
    w.write_all(b"\\.\n\nALTER TABLE ONLY public.events\n    ADD CONSTRAINT events_pkey PRIMARY KEY (id);\n")
        .unwrap();
    w.flush().unwrap();
    i
}

/// Our import: the reader's units into `session`, in one transaction.
fn ours(
    session: &mut Session,
    format: Format,
    file: &Path,
    table: Option<&str>,
) -> (u64, Duration) {
    let spec = Spec {
        format,
        original_name: file.file_name().map(|n| n.to_string_lossy().into_owned()),
        target_table: table.map(str::to_string),
        mode: Mode::Append,
        options: ImportOptions::default(),
    };
    let start = Instant::now();
    let src = std::io::BufReader::new(std::fs::File::open(file).unwrap());
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
                if let asadb::sql::session::Outcome::Affected(n) =
                    session.insert_values_owned(b.insert).unwrap()
                {
                    rows += n;
                }
            }
        }
    }
    session.execute("COMMIT", &Params::None).unwrap();
    (rows, start.elapsed())
}

/// Runs a command, sampling its peak memory: (time, KiB).
fn timed_child(cmd: &mut Command) -> (Duration, u64) {
    let start = Instant::now();
    let mut child = cmd.spawn().expect("the sqlite3 CLI");
    let pid = child.id().to_string();
    let mut peak = 0;
    loop {
        peak = peak.max(vm_hwm(&pid));
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "{cmd:?} failed");
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    (start.elapsed(), peak)
}

fn main() {
    let mut rows = 1_000_000u64;
    let mut dump_mb = 100u64;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rows" => rows = args.next().and_then(|v| v.parse().ok()).expect("--rows N"),
            "--dump-mb" => dump_mb = args.next().and_then(|v| v.parse().ok()).expect("--dump-mb M"),
            "--bench" => {}
            other => panic!("unknown argument {other}"),
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("big.csv");
    write_csv(&csv, rows);
    let csv_mb = std::fs::metadata(&csv).unwrap().len() as f64 / 1e6;

    // CSV into a new table.
    let db =
        asadb::Database::open_with(dir.path().join("ours.db"), asadb::Options::default()).unwrap();
    let mut s = db.engine().session();
    let base = vm_rss();
    reset_hwm();
    let (n, t_ours) = ours(&mut s, Format::Csv, &csv, Some("t"));
    let mem_ours = vm_hwm("self").saturating_sub(base);
    drop(s);
    db.close().unwrap();
    let lite = dir.path().join("lite.db");
    let (t_lite, mem_lite) = timed_child(
        Command::new("sqlite3").arg(&lite).arg(format!(".import --csv {} t", csv.display())),
    );
    println!(
        "csv {rows} rows ({csv_mb:.1} MB): asadb {:.2} s, +{} KiB peak ({n} rows) | sqlite3 .import {:.2} s, {} KiB peak | ratio {:.2}x",
        t_ours.as_secs_f64(),
        mem_ours,
        t_lite.as_secs_f64(),
        mem_lite,
        t_ours.as_secs_f64() / t_lite.as_secs_f64()
    );

    // pg_dump with a COPY block.
    let dump = dir.path().join("big.pg.sql");
    let dump_rows = write_pg_dump(&dump, dump_mb);
    let db =
        asadb::Database::open_with(dir.path().join("ours2.db"), asadb::Options::default()).unwrap();
    let mut s = db.engine().session();
    let base = vm_rss();
    reset_hwm();
    let (n, t_ours) = ours(&mut s, Format::Postgresql, &dump, None);
    let mem_ours = vm_hwm("self").saturating_sub(base);
    drop(s);
    db.close().unwrap();
    // SQLite: the same rows, one transaction of prepared INSERTs (what a
    // hand-written loader does; sqlite3 cannot read a pg_dump).
    let start = Instant::now();
    let conn = rusqlite::Connection::open(dir.path().join("lite2.db")).unwrap();
    conn.execute_batch(
        "CREATE TABLE events(id INTEGER PRIMARY KEY, kind TEXT, amount NUMERIC, happened_at TEXT, payload TEXT); BEGIN",
    )
    .unwrap();
    {
        let mut st = conn.prepare("INSERT INTO events VALUES (?, ?, ?, ?, ?)").unwrap();
        for i in 1..=dump_rows {
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
    let t_lite = start.elapsed();
    println!(
        "pg_dump {dump_mb} MB ({dump_rows} rows, COPY): asadb {:.2} s, +{} KiB peak ({n} rows) | sqlite (rusqlite INSERTs) {:.2} s | ratio {:.2}x",
        t_ours.as_secs_f64(),
        mem_ours,
        t_lite.as_secs_f64(),
        t_ours.as_secs_f64() / t_lite.as_secs_f64()
    );
}
