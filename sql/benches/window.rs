//! Window functions over one large partition, next to SQLite.
//!
//! `cargo bench -p asadb-sql --bench window -- [--rows N]` (default
//! 1,000,000 rows): a table of N rows `(id, g, x)` is filled in the B+tree
//! store (a temporary file) and in SQLite (a temporary file), then three
//! queries run over the whole table as one partition:
//!
//! - `row_number() OVER (ORDER BY x)` (the sort, ranking),
//! - `sum(x) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)`
//!   (a sliding frame),
//! - `sum(x) OVER (ORDER BY id)` (the default, growing frame).
//!
//! Each engine and query runs in a child process of this binary (the
//! same executable with `ASADB_WINBENCH_CHILD` set), so the peak resident
//! memory it reports (`VmHWM` from `/proc/self/status`) belongs to that
//! run alone; it is reset after the load and the resident size then
//! subtracted, so the figure is what the query added. Printed per run:
//! rows/s of the query (rows pulled to the end) and that peak.
//! `--only 0,3` runs those queries alone.
//!
//! Measured (release, shared 2-core machine, default 16 MB budget),
//! 1,000,000 rows — AsaDB rows/s, query peak / SQLite rows/s, peak:
//!
//! | query                      | AsaDB            | SQLite          |
//! |----------------------------|------------------|-----------------|
//! | row_number (ORDER BY x)    | 260,405, +20 MB  | 497,742, +0 MB  |
//! | sum ROWS 2 PRECEDING       | 216,479, +17 MB  | 906,964, +0 MB  |
//! | sum default frame          | 307,703, +17 MB  | 920,076, +0 MB  |
//! | max ROWS 1 PREC..1 FOLL    | 198,681, +17 MB  | 681,926, +0 MB  |
//! | cume_dist (ORDER BY x)     | 144,383, +20 MB  | 569,908, +0 MB  |
//!
//! (SQLite's figure is what the query adds over the page cache the load
//! already filled.) Before the partition buffer spilled, the one
//! partition of 1M rows peaked at ~520 MB; now the sort and the
//! partition each stay within the budget, so the peak does not grow with
//! the partition. 10,000,000 rows, `--only 3` (max ROWS 1 PRECEDING AND
//! 1 FOLLOWING): AsaDB 160,092 rows/s, query peak +1.7 MB over the
//! resident size after the load; SQLite 746,432 rows/s, +0 MB.

use std::process::Command;
use std::time::Instant;

use asadb_sql::session::{Engine, Params};

const QUERIES: &[&str] = &[
    "SELECT id, row_number() OVER (ORDER BY x) FROM t",
    "SELECT id, sum(x) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM t",
    "SELECT id, sum(x) OVER (ORDER BY id) FROM t",
    "SELECT id, max(x) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM t",
    "SELECT id, cume_dist() OVER (ORDER BY x) FROM t",
];

fn peak_kb() -> u64 {
    status_kb("VmHWM:")
}

/// A `/proc/self/status` figure in KB.
fn status_kb(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(field))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

/// Starts the peak count afresh (Linux: `5` to `/proc/self/clear_refs`
/// resets `VmHWM` to the current resident size) and answers that size:
/// what the query adds is the peak minus it.
fn reset_peak() -> u64 {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    status_kb("VmRSS:")
}

fn fill_sql(rows: u64) -> Vec<String> {
    let mut out = vec!["CREATE TABLE t(id INTEGER PRIMARY KEY, g INTEGER, x INTEGER)".to_string()];
    let mut at = 0;
    while at < rows {
        let end = (at + 1000).min(rows);
        let vals: Vec<String> =
            (at..end).map(|i| format!("({i}, {}, {})", i % 7, (i * 7919) % 100_003)).collect();
        out.push(format!("INSERT INTO t VALUES {}", vals.join(",")));
        at = end;
    }
    out
}

fn child(engine: &str, query: usize, rows: u64) {
    let dir = tempfile::tempdir().expect("tempdir");
    let sql = QUERIES[query];
    let (n, secs, base) = if engine == "sqlite" {
        let c = rusqlite::Connection::open(dir.path().join("s.db")).expect("sqlite");
        c.execute_batch("BEGIN").unwrap();
        for s in fill_sql(rows) {
            c.execute_batch(&s).unwrap();
        }
        c.execute_batch("COMMIT").unwrap();
        let base = reset_peak();
        let t0 = Instant::now();
        let mut st = c.prepare(sql).unwrap();
        let mut rs = st.query([]).unwrap();
        let mut n = 0u64;
        while rs.next().unwrap().is_some() {
            n += 1;
        }
        (n, t0.elapsed().as_secs_f64(), base)
    } else {
        let db = asadb_txn::Db::open(&dir.path().join("a.db"), asadb_txn::Options::default())
            .expect("asadb db");
        let e = Engine::with_db(db);
        let mut s = e.session();
        s.execute("BEGIN", &Params::None).unwrap();
        for q in fill_sql(rows) {
            s.execute(&q, &Params::None).unwrap();
        }
        s.execute("COMMIT", &Params::None).unwrap();
        let base = reset_peak();
        let t0 = Instant::now();
        let mut n = 0u64;
        for r in s.query(sql, &Params::None).unwrap() {
            r.unwrap();
            n += 1;
        }
        (n, t0.elapsed().as_secs_f64(), base)
    };
    assert_eq!(n, rows);
    println!("{} {} {}", n as f64 / secs, peak_kb().saturating_sub(base), secs);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rows = args
        .iter()
        .position(|a| a == "--rows")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000u64);
    if let Ok(spec) = std::env::var("ASADB_WINBENCH_CHILD") {
        let (engine, q) = spec.split_once(':').expect("engine:query");
        child(engine, q.parse().expect("query"), rows);
        return;
    }
    // `--only 0,3`: run those queries alone.
    let only: Option<Vec<usize>> = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1))
        .map(|v| v.split(',').filter_map(|x| x.parse().ok()).collect());
    let exe = std::env::current_exe().expect("exe");
    println!("window functions over one partition of {rows} rows");
    for (qi, q) in QUERIES.iter().enumerate() {
        if only.as_ref().is_some_and(|o| !o.contains(&qi)) {
            continue;
        }
        println!("{q}");
        let mut res = Vec::new();
        for engine in ["asadb", "sqlite"] {
            let out = Command::new(&exe)
                .args(["--rows", &rows.to_string()])
                .env("ASADB_WINBENCH_CHILD", format!("{engine}:{qi}"))
                .output()
                .expect("child");
            let text = String::from_utf8_lossy(&out.stdout);
            let v: Vec<f64> = text
                .lines()
                .last()
                .unwrap_or("")
                .split_whitespace()
                .filter_map(|x| x.parse().ok())
                .collect();
            if v.len() != 3 {
                println!("  {engine}: failed: {}", String::from_utf8_lossy(&out.stderr));
                continue;
            }
            println!(
                "  {engine:6}: {:>12.0} rows/s, query peak +{:>8} KB, {:.2} s",
                v[0], v[1], v[2]
            );
            res.push(v);
        }
        if res.len() == 2 {
            println!(
                "  ratio asadb/sqlite: time {:.2}x, peak memory {:.2}x",
                res[0][2] / res[1][2],
                res[0][1] / res[1][1]
            );
        }
    }
}
