//! SQL-layer benchmarks, AsaDB side by side with SQLite (rusqlite, bundled)
//! in one run, on the same generated data, files in a tempdir.
//!
//! Both engines commit durably: AsaDB with `synchronous = Full` (its
//! default), SQLite in WAL mode with `synchronous = FULL`. AsaDB is driven
//! through its public facade (`asadb::Database`): scripts through
//! `execute_script`, queries through `query_row` / `with_query` (parsed on
//! every call); SQLite through rusqlite's `execute_batch` and cached
//! prepared statements, as a rusqlite program would.
//!
//! Groups: `script_one_txn`, `script_autocommit` (the 100k-row script of
//! 1,000 multi-row INSERTs, about 3.1 MB), `point_select` (1,000 lookups by
//! primary key per iteration), `range_scan` (1,001 rows by primary key
//! range), `full_scan` (an aggregate over 100k rows, and iterating every
//! row), `group_agg` (100 groups with count and avg).
//!
//! Run: `cargo bench --bench sql` (add `-- <filter>` for one group).

use std::hint::black_box;
use std::io::Read;
use std::path::Path;
use std::time::Duration;

use asadb::{Database, Options, Synchronous};
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};

const ROWS: i64 = 100_000;
const PER_INSERT: i64 = 100;
const CREATE: &str = "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, score REAL, note TEXT);\n";

/// A small deterministic generator (xorshift64*), so both engines and
/// every run see the same data and the same lookups.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A value in `1..=n`.
    fn id(&mut self, n: i64) -> i64 {
        (self.next() % n as u64) as i64 + 1
    }
}

/// The INSERT statements of the 100k-row script (without the CREATE).
/// `name` takes 100 distinct values (`name37`), so it groups into 100.
fn inserts() -> String {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut s = String::with_capacity(3_200_000);
    for chunk in 0..ROWS / PER_INSERT {
        s.push_str("INSERT INTO t VALUES ");
        for k in 0..PER_INSERT {
            let id = chunk * PER_INSERT + k + 1;
            let name = rng.next() % 100;
            let score = (rng.next() % 1_000_000) as f64 / 100.0;
            let note_len = 1 + rng.next() % 6;
            let note: String =
                (0..note_len).map(|i| (b'a' + ((rng.next() >> i) % 26) as u8) as char).collect();
            if k > 0 {
                s.push(',');
            }
            s.push_str(&format!("({id},'name{name}',{score:.2},'{note}')"));
        }
        s.push_str(";\n");
    }
    s
}

fn asadb_open(path: &Path) -> Database {
    let opts = Options { synchronous: Synchronous::Full, ..Options::default() };
    Database::open_with(path, opts).unwrap()
}

fn sqlite_open(path: &Path) -> rusqlite::Connection {
    let c = rusqlite::Connection::open(path).unwrap();
    let mode: String = c.query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0)).unwrap();
    assert_eq!(mode, "wal");
    c.execute_batch("PRAGMA synchronous=FULL;").unwrap();
    c
}

/// Runs a script through `execute_script` and checks it inserted every row.
fn asadb_script(db: &Database, script: impl Read) {
    let summary = db.execute_script(script, |_| {}).unwrap();
    assert_eq!(summary.rows_affected, ROWS as u64);
}

fn sqlite_count(c: &rusqlite::Connection) -> i64 {
    c.query_row("SELECT count(*) FROM t", [], |r| r.get(0)).unwrap()
}

fn scripts(c: &mut Criterion) {
    let body = inserts();
    let one_txn = format!("{CREATE}BEGIN;\n{body}COMMIT;\n");
    let autocommit = format!("{CREATE}{body}");
    println!(
        "script: {} bytes ({} bytes with BEGIN/COMMIT), {} rows in {} INSERTs",
        autocommit.len(),
        one_txn.len(),
        ROWS,
        ROWS / PER_INSERT
    );
    for (group, script) in [("script_one_txn", &one_txn), ("script_autocommit", &autocommit)] {
        let mut g = c.benchmark_group(group);
        g.sample_size(10);
        g.measurement_time(Duration::from_secs(if group == "script_one_txn" { 8 } else { 20 }));
        g.bench_function("asadb", |b| {
            b.iter_batched(
                || tempfile::tempdir().unwrap(),
                |dir| {
                    let db = asadb_open(&dir.path().join("a.db"));
                    asadb_script(&db, script.as_bytes());
                    // Returned: dropped (closed, files removed) after timing.
                    (db, dir)
                },
                BatchSize::PerIteration,
            )
        });
        g.bench_function("sqlite", |b| {
            b.iter_batched(
                || tempfile::tempdir().unwrap(),
                |dir| {
                    let c = sqlite_open(&dir.path().join("s.db"));
                    c.execute_batch(script).unwrap();
                    assert_eq!(sqlite_count(&c), ROWS);
                    (c, dir)
                },
                BatchSize::PerIteration,
            )
        });
        g.finish();
    }
}

/// Both databases loaded with the 100k rows, for the read groups.
struct Loaded {
    _dir: tempfile::TempDir,
    asadb: Database,
    sqlite: rusqlite::Connection,
}

fn load() -> Loaded {
    let dir = tempfile::tempdir().unwrap();
    let body = inserts();
    let script = format!("{CREATE}BEGIN;\n{body}COMMIT;\n");
    let asadb = asadb_open(&dir.path().join("a.db"));
    asadb_script(&asadb, script.as_bytes());
    let sqlite = sqlite_open(&dir.path().join("s.db"));
    sqlite.execute_batch(&script).unwrap();
    assert_eq!(sqlite_count(&sqlite), ROWS);
    Loaded { _dir: dir, asadb, sqlite }
}

fn int(v: &asadb::Value) -> i64 {
    match v {
        asadb::Value::Integer(i) => *i,
        other => panic!("expected an integer, got {other:?}"),
    }
}

fn reads(c: &mut Criterion) {
    let l = load();
    let quick = |g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>| {
        g.sample_size(10);
        g.warm_up_time(Duration::from_secs(1));
        g.measurement_time(Duration::from_secs(3));
    };

    // 1,000 lookups of random ids per iteration.
    let mut g = c.benchmark_group("point_select");
    quick(&mut g);
    let q = "SELECT * FROM t WHERE id = ?";
    g.bench_function("asadb", |b| {
        let mut rng = Rng(7);
        b.iter(|| {
            for _ in 0..1000 {
                let id = rng.id(ROWS);
                let row = l.asadb.query_row(q, (id,)).unwrap().unwrap();
                assert_eq!(int(&row.values()[0]), id);
            }
        })
    });
    g.bench_function("sqlite", |b| {
        let mut rng = Rng(7);
        b.iter(|| {
            let mut st = l.sqlite.prepare_cached(q).unwrap();
            for _ in 0..1000 {
                let id = rng.id(ROWS);
                let (got, _name, _score, _note): (i64, String, f64, String) = st
                    .query_row([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
                    .unwrap();
                assert_eq!(got, id);
            }
        })
    });
    g.finish();

    // 1,001 consecutive rows from a random start, every column read.
    let mut g = c.benchmark_group("range_scan");
    quick(&mut g);
    let q = "SELECT * FROM t WHERE id BETWEEN ? AND ? + 1000";
    g.bench_function("asadb", |b| {
        let mut rng = Rng(11);
        b.iter(|| {
            let lo = rng.id(ROWS - 1000);
            let n = l
                .asadb
                .with_query(q, (lo, lo), |rows| {
                    let mut n = 0u64;
                    for r in rows {
                        black_box(r?);
                        n += 1;
                    }
                    Ok(n)
                })
                .unwrap();
            assert_eq!(n, 1001);
        })
    });
    g.bench_function("sqlite", |b| {
        let mut rng = Rng(11);
        b.iter(|| {
            let lo = rng.id(ROWS - 1000);
            let mut st = l.sqlite.prepare_cached(q).unwrap();
            let mut rows = st.query([lo, lo]).unwrap();
            let mut n = 0u64;
            while let Some(r) = rows.next().unwrap() {
                let v: (i64, String, f64, String) =
                    (r.get(0).unwrap(), r.get(1).unwrap(), r.get(2).unwrap(), r.get(3).unwrap());
                black_box(v);
                n += 1;
            }
            assert_eq!(n, 1001);
        })
    });
    g.finish();

    // An aggregate over every row, and iterating every row.
    let mut g = c.benchmark_group("full_scan");
    quick(&mut g);
    let agg = "SELECT count(*), sum(score) FROM t";
    let all = "SELECT * FROM t";
    g.bench_function("asadb_count_sum", |b| {
        b.iter(|| {
            let row = l.asadb.query_row(agg, ()).unwrap().unwrap();
            assert_eq!(int(&row.values()[0]), ROWS);
            black_box(row);
        })
    });
    g.bench_function("sqlite_count_sum", |b| {
        b.iter(|| {
            let mut st = l.sqlite.prepare_cached(agg).unwrap();
            let (n, s): (i64, f64) = st.query_row([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap();
            assert_eq!(n, ROWS);
            black_box(s);
        })
    });
    g.bench_function("asadb_rows", |b| {
        b.iter(|| {
            let n = l
                .asadb
                .with_query(all, (), |rows| {
                    let mut n = 0i64;
                    for r in rows {
                        black_box(r?);
                        n += 1;
                    }
                    Ok(n)
                })
                .unwrap();
            assert_eq!(n, ROWS);
        })
    });
    g.bench_function("sqlite_rows", |b| {
        b.iter(|| {
            let mut st = l.sqlite.prepare_cached(all).unwrap();
            let mut rows = st.query([]).unwrap();
            let mut n = 0i64;
            while let Some(r) = rows.next().unwrap() {
                let v: (i64, String, f64, String) =
                    (r.get(0).unwrap(), r.get(1).unwrap(), r.get(2).unwrap(), r.get(3).unwrap());
                black_box(v);
                n += 1;
            }
            assert_eq!(n, ROWS);
        })
    });
    g.finish();

    // 100 groups by `name`, with count and avg.
    let mut g = c.benchmark_group("group_agg");
    quick(&mut g);
    let q = "SELECT name, count(*), avg(score) FROM t GROUP BY name";
    g.bench_function("asadb", |b| {
        b.iter(|| {
            let n = l
                .asadb
                .with_query(q, (), |rows| {
                    let mut n = 0;
                    for r in rows {
                        black_box(r?);
                        n += 1;
                    }
                    Ok(n)
                })
                .unwrap();
            assert_eq!(n, 100);
        })
    });
    g.bench_function("sqlite", |b| {
        b.iter(|| {
            let mut st = l.sqlite.prepare_cached(q).unwrap();
            let mut rows = st.query([]).unwrap();
            let mut n = 0;
            while let Some(r) = rows.next().unwrap() {
                let v: (String, i64, f64) =
                    (r.get(0).unwrap(), r.get(1).unwrap(), r.get(2).unwrap());
                black_box(v);
                n += 1;
            }
            assert_eq!(n, 100);
        })
    });
    g.finish();
}

criterion_group!(benches, scripts, reads);
criterion_main!(benches);
