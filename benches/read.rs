//! The read benchmark of issue 16: AsaDB next to SQLite (rusqlite, bundled)
//! in one run, on the same data built the same way, every answer checked.
//!
//! Data: the stress table in its "full" style — `stress(id INTEGER PRIMARY
//! KEY, name, email, score REAL, active, created_at)`, 1,000,000 rows by
//! default — plus `orders` (a tenth as many rows, each pointing at a stress
//! row by rowid and by email, its `amount` equal to that row's score) and
//! `products` (100 rows). Every value is a pure function of its row id
//! ([`stress_row`], [`order_row`]), written as one SQL script (`INSERT …
//! VALUES` of 100 rows per statement, in one transaction) that both engines
//! load: AsaDB through `Database::execute_script` (the B+tree file store),
//! SQLite statement by statement through `execute_batch`.
//!
//! Phases, in order (each query's place matters: the first phase runs
//! before any index exists, as the issue measured it):
//! 1. the queries and full-table work (scans, aggregates, sorts
//!    with and without LIMIT, the `a.id = b.id + 1` self-join);
//! 2. `CREATE INDEX` on the 1M-row table (and two more the later queries use);
//! 3. point lookups (10,000 random keys, prepared statements) by rowid and
//!    by the secondary index, index range scans, joins (index nested loop on
//!    rowid and on an index, hash join on a non-indexed equality, a 3-table
//!    star join), correlated `EXISTS` / `NOT EXISTS` and `IN` subqueries;
//! 4. writes, each one autocommit statement: `INSERT … SELECT` of every
//!    row, `UPDATE` of 10% of the rows, `DELETE` of a range.
//!
//! Lookups run one prepared statement per engine (`Database::prepare`,
//! rusqlite's `prepare`) with a new key each time.
//!
//! Every query's answer (rows, types, order; or rows affected) is compared
//! between the engines: a difference aborts the run. Times are medians of
//! `ASADB_BENCH_REPS` runs (default 3) for reads, one run for DDL and
//! writes. AsaDB's peak memory is the peak of heap bytes allocated (through
//! Rust's allocator, which SQLite does not use) above the level at the
//! query's start. Durability: AsaDB `synchronous = Full` (its default),
//! SQLite WAL with `synchronous = FULL`; both with their default caches.
//!
//! Run: `cargo bench --bench read` (`ASADB_BENCH_ROWS=100000` for a quick
//! run; `ASADB_BENCH_ONLY=word` runs only the queries whose label holds it,
//! after the load and the indexes).

use std::alloc::{GlobalAlloc, Layout, System};
use std::fmt::Write as _;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use asadb::{Database, Options, Synchronous, Value};

/// Counts live heap bytes and their peak, for "AsaDB peak memory".
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged to the system allocator.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded unchanged; `ptr` came from this allocator.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                grow(new_size - layout.size());
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

fn grow(n: usize) {
    let now = LIVE.fetch_add(n, Ordering::Relaxed) + n;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Runs `f`, returning its result and the heap peak above the start level.
fn measured<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let r = f();
    (r, PEAK.load(Ordering::Relaxed).saturating_sub(base))
}

fn env_num(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v.replace('_', "").parse().unwrap_or_else(|_| panic!("{name}={v}: not a number")),
        Err(_) => default,
    }
}

/// splitmix64: a well-mixed value per input, so rows are functions of ids.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const FIRST: [&str; 16] = [
    "James",
    "Mary",
    "Robert",
    "Patricia",
    "John",
    "Jennifer",
    "Michael",
    "Linda",
    "David",
    "Elizabeth",
    "William",
    "Barbara",
    "Richard",
    "Susan",
    "Joseph",
    "Jessica",
];
const LAST: [&str; 16] = [
    "Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Wilson",
    "Anderson", "Taylor", "Thomas", "Moore", "Jackson", "Martin", "Lee",
];
const DOMAINS: [&str; 4] = ["example.com", "mail.test", "corp.invalid", "web.example"];

/// One row of `stress`.
struct StressRow {
    name: String,
    email: String,
    /// Hundredths: the score is `cents / 100`, written with two decimals.
    cents: u64,
    active: u8,
    created_at: String,
}

/// The civil date of a day number counted from 1970-01-01.
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

fn stress_row(id: u64) -> StressRow {
    let r = mix(id);
    let first = FIRST[(r % 16) as usize];
    let last = LAST[((r >> 4) % 16) as usize];
    let domain = DOMAINS[((r >> 8) % 4) as usize];
    // 2023-01-01 is day 19358; two years of days, seconds within the day.
    let (y, m, d) = civil(19_358 + ((r >> 10) % 730) as i64);
    let secs = (r >> 20) % 86_400;
    StressRow {
        name: format!("{first} {last}"),
        email: format!("{}.{}{id}@{domain}", first.to_lowercase(), last.to_lowercase()),
        cents: (r >> 37) % 10_000_000,
        active: u8::from((r >> 61) != 0),
        created_at: format!(
            "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02}",
            secs / 3600,
            secs / 60 % 60,
            secs % 60
        ),
    }
}

/// One row of `orders`: (stress_id, product_id, amount in cents, email).
fn order_row(id: u64, stress_rows: u64) -> (u64, u64, u64, String) {
    let r = mix(id ^ 0x5555_0000_0000_0000);
    let sid = 1 + r % stress_rows;
    let s = stress_row(sid);
    (sid, 1 + (r >> 32) % 100, s.cents, s.email)
}

fn money(cents: u64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

const SCHEMA: &str = "CREATE TABLE stress(id INTEGER PRIMARY KEY, name TEXT, email TEXT, \
     score REAL, active INTEGER, created_at TEXT);\n\
     CREATE TABLE orders(id INTEGER PRIMARY KEY, stress_id INTEGER, product_id INTEGER, \
     amount REAL, email TEXT);\n\
     CREATE TABLE products(id INTEGER PRIMARY KEY, label TEXT, price REAL);\n";

/// Writes the load script (one statement per line) and answers its size.
fn write_script(path: &Path, rows: u64) -> u64 {
    let mut w = BufWriter::new(std::fs::File::create(path).unwrap());
    w.write_all(SCHEMA.as_bytes()).unwrap();
    writeln!(w, "BEGIN;").unwrap();
    let mut line = String::new();
    let mut rows_of = |table: &str, n: u64, one: &mut dyn FnMut(u64, &mut String)| {
        let mut id = 1;
        while id <= n {
            line.clear();
            let _ = write!(line, "INSERT INTO {table} VALUES ");
            for k in 0..100.min(n - id + 1) {
                if k > 0 {
                    line.push(',');
                }
                one(id, &mut line);
                id += 1;
            }
            line.push_str(";\n");
            w.write_all(line.as_bytes()).unwrap();
        }
    };
    rows_of("stress", rows, &mut |id, out| {
        let s = stress_row(id);
        let _ = write!(
            out,
            "({id},'{}','{}',{},{},'{}')",
            s.name,
            s.email,
            money(s.cents),
            s.active,
            s.created_at
        );
    });
    rows_of("orders", (rows / 10).max(1), &mut |id, out| {
        let (sid, pid, cents, email) = order_row(id, rows);
        let _ = write!(out, "({id},{sid},{pid},{},'{email}')", money(cents));
    });
    rows_of("products", 100, &mut |id, out| {
        let _ = write!(out, "({id},'product-{:03}',{})", (id * 37) % 100, money(mix(id) % 10_000));
    });
    writeln!(w, "COMMIT;").unwrap();
    w.flush().unwrap();
    std::fs::metadata(path).unwrap().len()
}

/// A query's answer in a form both engines produce: rows as canonical
/// text (type tag and value; reals to 15 significant digits), in order.
/// Large results keep only their count and an order-sensitive hash.
#[derive(Debug, PartialEq)]
struct Answer {
    rows: u64,
    hash: u64,
    /// The rendered rows when there are at most [`KEEP_ROWS`].
    sample: Vec<String>,
}

const KEEP_ROWS: u64 = 20;

#[derive(Default)]
struct AnswerBuilder {
    rows: u64,
    hash: u64,
    sample: Vec<String>,
    line: String,
}

impl AnswerBuilder {
    fn row(&mut self, cells: impl Iterator<Item = Value>) {
        self.line.clear();
        for c in cells {
            match c {
                Value::Null => self.line.push_str("N|"),
                Value::Integer(i) => {
                    let _ = write!(self.line, "I{i}|");
                }
                Value::Real(r) => {
                    let _ = write!(self.line, "R{r:.14e}|");
                }
                Value::Text(t) => {
                    let _ = write!(self.line, "T{t}|");
                }
                Value::Blob(b) => {
                    let _ = write!(self.line, "B{b:?}|");
                }
            }
        }
        let mut h: u64 = 0xCBF2_9CE4_8422_2325 ^ self.hash.rotate_left(5);
        for b in self.line.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01B3);
        }
        self.hash = h;
        self.rows += 1;
        if self.rows <= KEEP_ROWS {
            self.sample.push(self.line.clone());
        }
    }

    fn affected(n: u64) -> Answer {
        Answer { rows: n, hash: 0, sample: vec![format!("{n} rows affected")] }
    }

    fn finish(self) -> Answer {
        let sample = if self.rows <= KEEP_ROWS { self.sample } else { Vec::new() };
        Answer { rows: self.rows, hash: self.hash, sample }
    }
}

fn sqlite_value(v: rusqlite::types::ValueRef<'_>) -> Value {
    use rusqlite::types::ValueRef;
    match v {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => Value::Integer(i),
        ValueRef::Real(r) => Value::Real(r),
        ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned().into()),
        ValueRef::Blob(b) => Value::Blob(b.to_vec()),
    }
}

/// What a benchmark step does.
enum Work {
    /// A query whose rows are the answer.
    Query(String),
    /// A statement whose rows affected are the answer (run once).
    Write(String),
    /// A schema change, run once (rusqlite's `execute` reports the last
    /// DML's changes for it: no answer to compare but success).
    Ddl(String),
    /// One prepared query run with each key as its parameter; the answer
    /// is every row of every run.
    Lookups { sql: String, keys: Vec<Value> },
}

struct Step {
    label: String,
    work: Work,
}

fn query(label: &str, sql: impl Into<String>) -> Step {
    Step { label: label.into(), work: Work::Query(sql.into()) }
}

fn write(label: &str, sql: impl Into<String>) -> Step {
    Step { label: label.into(), work: Work::Write(sql.into()) }
}

fn ddl(label: &str, sql: impl Into<String>) -> Step {
    Step { label: label.into(), work: Work::Ddl(sql.into()) }
}

fn asadb_run(db: &Database, work: &Work) -> Answer {
    match work {
        Work::Query(sql) => db
            .with_query(sql, (), |rows| {
                let mut a = AnswerBuilder::default();
                for row in rows {
                    a.row(row?.into_values().into_iter());
                }
                Ok(a.finish())
            })
            .unwrap_or_else(|e| panic!("AsaDB failed on {sql}: {e}")),
        Work::Write(sql) => AnswerBuilder::affected(
            db.execute(sql, ()).unwrap_or_else(|e| panic!("AsaDB failed on {sql}: {e}")),
        ),
        Work::Ddl(sql) => {
            db.execute(sql, ()).unwrap_or_else(|e| panic!("AsaDB failed on {sql}: {e}"));
            AnswerBuilder::affected(0)
        }
        Work::Lookups { sql, keys } => {
            let mut a = AnswerBuilder::default();
            let mut st = db.prepare(sql).unwrap_or_else(|e| panic!("AsaDB failed on {sql}: {e}"));
            for k in keys {
                for row in st.query([k]).unwrap_or_else(|e| panic!("AsaDB failed on {sql}: {e}")) {
                    a.row(row.unwrap().into_values().into_iter());
                }
            }
            a.finish()
        }
    }
}

fn sqlite_rows(
    stmt: &mut rusqlite::Statement<'_>,
    params: impl rusqlite::Params,
    a: &mut AnswerBuilder,
) {
    let n = stmt.column_count();
    let mut rows = stmt.query(params).unwrap();
    while let Some(row) = rows.next().unwrap() {
        a.row((0..n).map(|i| sqlite_value(row.get_ref(i).unwrap())));
    }
}

fn sqlite_param(v: &Value) -> rusqlite::types::Value {
    match v {
        Value::Null => rusqlite::types::Value::Null,
        Value::Integer(i) => rusqlite::types::Value::Integer(*i),
        Value::Real(r) => rusqlite::types::Value::Real(*r),
        Value::Text(t) => rusqlite::types::Value::Text(t.to_str_lossy().into_owned()),
        Value::Blob(b) => rusqlite::types::Value::Blob(b.clone()),
    }
}

fn sqlite_run(c: &rusqlite::Connection, work: &Work) -> Answer {
    match work {
        Work::Query(sql) => {
            let mut stmt = c.prepare(sql).unwrap();
            let mut a = AnswerBuilder::default();
            sqlite_rows(&mut stmt, [], &mut a);
            a.finish()
        }
        Work::Write(sql) => AnswerBuilder::affected(c.execute(sql, []).unwrap() as u64),
        Work::Ddl(sql) => {
            c.execute_batch(sql).unwrap();
            AnswerBuilder::affected(0)
        }
        Work::Lookups { sql, keys } => {
            let mut stmt = c.prepare(sql).unwrap();
            let mut a = AnswerBuilder::default();
            for k in keys {
                sqlite_rows(&mut stmt, [sqlite_param(k)], &mut a);
            }
            a.finish()
        }
    }
}

struct Measured {
    label: String,
    asadb: Duration,
    sqlite: Duration,
    peak: usize,
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn run_step(db: &Database, c: &rusqlite::Connection, step: &Step, reps: u64) -> Measured {
    let reps = if matches!(step.work, Work::Query(_)) { reps } else { 1 };
    let mut a_times = Vec::new();
    let mut s_times = Vec::new();
    let mut peak = 0;
    let mut answers = None;
    for _ in 0..reps {
        let started = Instant::now();
        let (a, p) = measured(|| asadb_run(db, &step.work));
        a_times.push(started.elapsed());
        peak = peak.max(p);
        let started = Instant::now();
        let s = sqlite_run(c, &step.work);
        s_times.push(started.elapsed());
        if a != s {
            eprintln!("MISMATCH on {}:\n  AsaDB:  {a:?}\n  SQLite: {s:?}", step.label);
            std::process::exit(2);
        }
        answers = Some(a);
    }
    let a = answers.expect("at least one run");
    let m = Measured {
        label: step.label.clone(),
        asadb: median(a_times),
        sqlite: median(s_times),
        peak,
    };
    println!(
        "{:<44} {:>10.2} {:>10.2} {:>8.2}x {:>9.1}   ({} rows)",
        m.label,
        ms(m.asadb),
        ms(m.sqlite),
        ratio(&m),
        m.peak as f64 / 1e6,
        a.rows
    );
    m
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn ratio(m: &Measured) -> f64 {
    m.asadb.as_secs_f64() / m.sqlite.as_secs_f64().max(1e-9)
}

/// The main file plus its log, after a checkpoint on each side.
fn file_sizes(db: &Database, c: &rusqlite::Connection, dir: &Path) -> (u64, u64) {
    db.execute("PRAGMA wal_checkpoint", ()).unwrap();
    let _: i64 = c.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| r.get(0)).unwrap();
    let len = |name: &str| std::fs::metadata(dir.join(name)).map(|m| m.len()).unwrap_or(0);
    (len("a.db") + len("a.db-wal"), len("s.db") + len("s.db-wal"))
}

fn steps(n: u64, keys: u64) -> Vec<Vec<Step>> {
    let mid = n / 2;
    let fifth = n / 5;
    let quarter = n / 4;
    let tenth = (n / 10).max(1);
    // Random keys, the same for both engines.
    let ids: Vec<u64> = (0..keys).map(|i| 1 + mix(i ^ 0xABCD) % n).collect();
    let rowid_keys = ids.iter().map(|&i| Value::Integer(i as i64)).collect();
    let email_keys = ids.iter().map(|&i| Value::Text((stress_row(i).email).into())).collect();
    vec![
        vec![
            query("count(*)", "SELECT count(*) FROM stress"),
            query("sum, avg", "SELECT sum(score), avg(score) FROM stress"),
            query(
                "GROUP BY active",
                "SELECT active, count(*), avg(score) FROM stress GROUP BY active",
            ),
            query(
                "GROUP BY substr month ORDER BY LIMIT 5",
                "SELECT substr(created_at,1,7) m, count(*) FROM stress GROUP BY m ORDER BY m LIMIT 5",
            ),
            query(
                "ORDER BY score DESC LIMIT 10",
                "SELECT * FROM stress ORDER BY score DESC LIMIT 10",
            ),
            query("LIKE '%son%'", "SELECT count(*) FROM stress WHERE name LIKE '%son%'"),
            query(
                "rowid range (101 rows)",
                format!("SELECT * FROM stress WHERE id BETWEEN {mid} AND {}", mid + 100),
            ),
            query(
                "self-join a.id = b.id + 1",
                format!(
                    "SELECT count(*) FROM stress a JOIN stress b ON a.id = b.id + 1 WHERE a.id < {fifth}"
                ),
            ),
            query(
                "ORDER BY non-indexed, no LIMIT",
                "SELECT id, score FROM stress ORDER BY score, id",
            ),
            query(
                "ORDER BY non-indexed LIMIT 100 OFFSET 1000",
                "SELECT id, email FROM stress ORDER BY email LIMIT 100 OFFSET 1000",
            ),
            query("SELECT * (every row)", "SELECT * FROM stress"),
        ],
        vec![
            ddl("CREATE INDEX stress(email)", "CREATE INDEX stress_email ON stress(email)"),
            ddl(
                "CREATE INDEX stress(created_at)",
                "CREATE INDEX stress_created ON stress(created_at)",
            ),
            ddl(
                "CREATE INDEX orders(stress_id)",
                "CREATE INDEX orders_stress ON orders(stress_id)",
            ),
        ],
        vec![
            Step {
                label: format!("{keys} lookups by rowid"),
                work: Work::Lookups {
                    sql: "SELECT name, email, score FROM stress WHERE id = ?".into(),
                    keys: rowid_keys,
                },
            },
            Step {
                label: format!("{keys} lookups by index (email)"),
                work: Work::Lookups {
                    sql: "SELECT id, score FROM stress WHERE email = ?".into(),
                    keys: email_keys,
                },
            },
            query(
                "index range count (a week)",
                "SELECT count(*), min(id) FROM stress \
                 WHERE created_at BETWEEN '2024-03-01' AND '2024-03-08'",
            ),
            query(
                "index range rows (a day)",
                "SELECT id, created_at FROM stress \
                 WHERE created_at >= '2024-06-01' AND created_at < '2024-06-02' ORDER BY created_at, id",
            ),
            query(
                "join on rowid (orders -> stress)",
                "SELECT count(*), sum(s.score) FROM orders o JOIN stress s ON s.id = o.stress_id",
            ),
            query(
                "join on index (orders -> stress.email)",
                "SELECT count(*), sum(s.score) FROM orders o JOIN stress s ON s.email = o.email",
            ),
            query(
                "hash join, non-indexed equality",
                "SELECT count(*) FROM orders o JOIN stress s ON s.score = o.amount",
            ),
            query(
                "3-table star join",
                "SELECT p.label, count(*), sum(o.amount) FROM orders o \
                 JOIN stress s ON s.id = o.stress_id JOIN products p ON p.id = o.product_id \
                 WHERE s.active = 1 GROUP BY p.label ORDER BY p.label",
            ),
            query(
                "correlated EXISTS",
                "SELECT count(*) FROM stress s WHERE EXISTS \
                 (SELECT 1 FROM orders o WHERE o.stress_id = s.id)",
            ),
            query(
                "correlated NOT EXISTS",
                "SELECT count(*) FROM stress s WHERE NOT EXISTS \
                 (SELECT 1 FROM orders o WHERE o.stress_id = s.id)",
            ),
            query(
                "IN (subquery)",
                "SELECT count(*), sum(score) FROM stress \
                 WHERE id IN (SELECT stress_id FROM orders WHERE amount > 50000)",
            ),
            query(
                "correlated IN",
                "SELECT count(*) FROM orders o WHERE o.stress_id IN \
                 (SELECT s.id FROM stress s WHERE s.email = o.email)",
            ),
        ],
        vec![
            write("INSERT … SELECT every row", "INSERT INTO stress_copy SELECT * FROM stress"),
            write("UPDATE 10% of rows", "UPDATE stress SET score = score + 1 WHERE id % 10 = 0"),
            write(
                "DELETE a range (10% of rows)",
                format!(
                    "DELETE FROM stress WHERE id BETWEEN {quarter} AND {}",
                    quarter + tenth - 1
                ),
            ),
            query("count, sum after the writes", "SELECT count(*), sum(score) FROM stress"),
        ],
    ]
}

fn main() {
    let n = env_num("ASADB_BENCH_ROWS", 1_000_000).max(10);
    let reps = env_num("ASADB_BENCH_REPS", 3).max(1);
    let keys = env_num("ASADB_BENCH_KEYS", 10_000).max(1);
    let only = std::env::var("ASADB_BENCH_ONLY").ok();
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("load.sql");
    let bytes = write_script(&script, n);
    println!(
        "read bench: {n} rows in stress, {} in orders; load script {:.1} MB",
        n / 10,
        bytes as f64 / 1e6
    );

    let opts = Options { synchronous: Synchronous::Full, ..Options::default() };
    let db = Database::open_with(dir.path().join("a.db"), opts).unwrap();
    let c = rusqlite::Connection::open(dir.path().join("s.db")).unwrap();
    let mode: String = c.query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0)).unwrap();
    assert_eq!(mode, "wal");
    c.execute_batch("PRAGMA synchronous=FULL;").unwrap();

    let started = Instant::now();
    let (summary, load_peak) = measured(|| {
        db.execute_script(BufReader::new(std::fs::File::open(&script).unwrap()), |_| {}).unwrap()
    });
    let asadb_load = started.elapsed();
    let started = Instant::now();
    for line in BufReader::new(std::fs::File::open(&script).unwrap()).lines() {
        c.execute_batch(&line.unwrap()).unwrap();
    }
    let sqlite_load = started.elapsed();
    let expected_rows = n + (n / 10).max(1) + 100;
    assert_eq!(summary.rows_affected, expected_rows, "AsaDB loaded every row");
    let (a_size, s_size) = file_sizes(&db, &c, dir.path());
    println!(
        "load (one transaction): AsaDB {:.2} s (peak {:.1} MB), SQLite {:.2} s: {:.2}x",
        asadb_load.as_secs_f64(),
        load_peak as f64 / 1e6,
        sqlite_load.as_secs_f64(),
        asadb_load.as_secs_f64() / sqlite_load.as_secs_f64()
    );
    println!(
        "file after load: AsaDB {:.2} MB, SQLite {:.2} MB: {:.3}x",
        a_size as f64 / 1e6,
        s_size as f64 / 1e6,
        a_size as f64 / s_size as f64
    );
    let copy = "CREATE TABLE stress_copy(id INTEGER PRIMARY KEY, name TEXT, email TEXT, \
                score REAL, active INTEGER, created_at TEXT)";
    db.execute(copy, ()).unwrap();
    c.execute_batch(copy).unwrap();

    println!();
    println!(
        "{:<44} {:>10} {:>10} {:>9} {:>9}",
        "query", "AsaDB ms", "SQLite ms", "ratio", "peak MB"
    );
    let mut results = Vec::new();
    for (phase, group) in steps(n, keys).into_iter().enumerate() {
        for step in &group {
            let selected = only.as_ref().is_none_or(|o| step.label.contains(o.as_str()));
            // The indexes are built even when filtered out: later phases use them.
            if selected || phase == 1 {
                let m = run_step(&db, &c, step, reps);
                if selected {
                    results.push(m);
                }
            }
        }
    }
    let geo = (results.iter().map(|m| ratio(m).ln()).sum::<f64>() / results.len() as f64).exp();
    let worst = results.iter().max_by(|a, b| ratio(a).total_cmp(&ratio(b))).expect("a query ran");
    println!();
    println!("geometric mean of {} ratios: {geo:.3}x", results.len());
    println!("worst: {} at {:.2}x", worst.label, ratio(worst));
    let (a_size, s_size) = file_sizes(&db, &c, dir.path());
    println!(
        "file at the end: AsaDB {:.2} MB, SQLite {:.2} MB: {:.3}x",
        a_size as f64 / 1e6,
        s_size as f64 / 1e6,
        a_size as f64 / s_size as f64
    );
    db.close().unwrap();
}
