//! Rough cost of the facade's paths, printed for the record (ignored by
//! default; run with `cargo test --release --test facade_perf -- --ignored
//! --nocapture`). It checks the results it times, so it cannot pass on
//! wrong answers, but it makes no timing assertions.
//!
//! Measured: the 100k-row script (CREATE TABLE + 1,000 INSERTs of 100
//! rows) through `execute_script`, autocommit and inside one transaction;
//! a full scan through `Database::query` (cursor thread, batched) and
//! through `Transaction::query` (direct); point selects both ways.

use std::time::Instant;

use asadb::Database;

fn script() -> String {
    let mut s = String::from(
        "CREATE TABLE bench (id INTEGER PRIMARY KEY, name TEXT, score REAL, note TEXT);\n",
    );
    for stmt in 0..1000 {
        s.push_str("INSERT INTO bench VALUES ");
        for r in 0..100 {
            let id = stmt * 100 + r + 1;
            let sep = if r == 99 { ";\n" } else { "," };
            s.push_str(&format!(
                "({id}, 'name {id}', {}.5, 'some note text for row {id}'){sep}",
                id % 1000
            ));
        }
    }
    s
}

fn run(db: &Database, script: &str, wrap: bool) {
    let text = if wrap { format!("BEGIN;\n{script}COMMIT;\n") } else { script.to_string() };
    let started = Instant::now();
    let summary = db.execute_script(text.as_bytes(), |_| {}).unwrap();
    assert_eq!(summary.rows_affected, 100_000);
    println!(
        "execute_script {} MB ({}): {:?}",
        text.len() as f64 / 1e6,
        if wrap { "one transaction" } else { "autocommit" },
        started.elapsed()
    );
}

#[test]
#[ignore = "timing printout; run explicitly"]
fn facade_costs() {
    let s = script();
    let dir = tempfile::tempdir().unwrap();
    for wrap in [false, true] {
        let db = Database::open(dir.path().join(format!("perf-{wrap}.db"))).unwrap();
        run(&db, &s, wrap);
    }
    let db = Database::open(dir.path().join("perf-true.db")).unwrap();

    let started = Instant::now();
    let mut sum = 0i64;
    for r in db.query("SELECT id, name, score, note FROM bench", ()).unwrap() {
        sum += r.unwrap().get::<i64>(0).unwrap();
    }
    assert_eq!(sum, 100_000 * 100_001 / 2);
    println!("full scan 100k rows, Database::query (cursor thread): {:?}", started.elapsed());

    let mut tx = db.transaction().unwrap();
    let started = Instant::now();
    let mut sum = 0i64;
    for r in tx.query("SELECT id, name, score, note FROM bench", ()).unwrap() {
        sum += r.unwrap().get::<i64>(0).unwrap();
    }
    assert_eq!(sum, 100_000 * 100_001 / 2);
    println!("full scan 100k rows, Transaction::query (direct): {:?}", started.elapsed());

    let n = 5_000;
    let started = Instant::now();
    for i in 0..n {
        let id = (i * 7919) % 100_000 + 1;
        let r = tx.query("SELECT name FROM bench WHERE id = ?", (id,)).unwrap().next().unwrap();
        assert_eq!(r.unwrap().get::<String>(0).unwrap(), format!("name {id}"));
    }
    println!("point select, Transaction::query: {:?} each", started.elapsed() / n as u32);
    drop(tx);
    let started = Instant::now();
    for i in 0..n {
        let id = (i * 7919) % 100_000 + 1;
        let r = db.query("SELECT name FROM bench WHERE id = ?", (id,)).unwrap().next().unwrap();
        assert_eq!(r.unwrap().get::<String>(0).unwrap(), format!("name {id}"));
    }
    println!("point select, Database::query: {:?} each", started.elapsed() / n as u32);
    let started = Instant::now();
    for i in 0..n {
        let id = (i * 7919) % 100_000 + 1;
        let r = db.query_row("SELECT name FROM bench WHERE id = ?", (id,)).unwrap().unwrap();
        assert_eq!(r.get::<String>(0).unwrap(), format!("name {id}"));
    }
    println!("point select, Database::query_row: {:?} each", started.elapsed() / n as u32);
}
