//! Script front-end throughput on the headline workload: a ~3.1 MB script
//! of `CREATE TABLE` plus 1,000 `INSERT … VALUES` statements of 100 rows.
//!
//! Three runs over the same bytes: splitting only, splitting plus the
//! INSERT fast path, and splitting plus `sqlparser` (the slow path).
//! Criterion reports throughput in bytes per second.

use std::hint::black_box;

use asadb_sql::script::{Splitter, parse_insert_fast, parse_insert_slow};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// The benchmark script: 1,000 statements of 100 rows like
/// `(12345,'n12345',380.45,'text')`, about 3.1 MB.
fn script() -> String {
    let mut s = String::from(
        "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, price REAL, note TEXT);\n",
    );
    for stmt in 0..1_000 {
        s.push_str("INSERT INTO items VALUES ");
        for r in 0..100 {
            let id = stmt * 100 + r;
            if r > 0 {
                s.push(',');
            }
            s.push_str(&format!("({id},'n{id}',{}.{:02},'text')", id % 997, id % 100));
        }
        s.push_str(";\n");
    }
    s
}

fn bench(c: &mut Criterion) {
    let script = script();
    let bytes = script.as_bytes();
    let mut g = c.benchmark_group("script");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.sample_size(20);

    g.bench_function("split", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for stmt in Splitter::new(black_box(bytes)) {
                n += stmt.unwrap().text.len();
            }
            n
        })
    });

    g.bench_function("split+fast", |b| {
        b.iter(|| {
            let mut rows = 0usize;
            for stmt in Splitter::new(black_box(bytes)) {
                if let Some(ins) = parse_insert_fast(&stmt.unwrap().text, false) {
                    rows += ins.rows.len();
                }
            }
            assert_eq!(rows, 100_000);
            rows
        })
    });

    g.sample_size(10);
    g.bench_function("split+sqlparser", |b| {
        b.iter(|| {
            let mut rows = 0usize;
            for stmt in Splitter::new(black_box(bytes)) {
                if let Ok(Some(ins)) = parse_insert_slow(&stmt.unwrap().text) {
                    rows += ins.rows.len();
                }
            }
            assert_eq!(rows, 100_000);
            rows
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
