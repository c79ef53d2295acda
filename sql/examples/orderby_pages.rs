//! Reads a table back in `ORDER BY id` pages, the way `/api/query` pages a
//! result (`LIMIT 500 OFFSET n`, each page a fresh query), on the B+tree
//! store, and reports the time. Checks that every row comes back once, in
//! order.
//!
//! `cargo run --release -p asadb-sql --example orderby_pages -- [rows] [page]`
//! (defaults: 100000 rows, 500-row pages).

use std::time::Instant;

use asadb_sql::Value;
use asadb_sql::session::{Engine, Params};

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// Reads pages from `page(offset)` until one is empty, checking that ids
/// run 1, 2, 3, … with no gap or repeat; returns the rows read.
fn pages(rows: i64, mut page: impl FnMut(i64) -> Res<Vec<Vec<Value>>>) -> Res<i64> {
    let mut expect = 1;
    loop {
        let got = page(expect - 1)?;
        if got.is_empty() {
            break;
        }
        for r in got {
            if r.first() != Some(&Value::Integer(expect)) {
                return Err(format!("expected id {expect}, got {r:?}").into());
            }
            expect += 1;
        }
    }
    if expect != rows + 1 {
        return Err(format!("read {} rows, expected {rows}", expect - 1).into());
    }
    Ok(expect - 1)
}

fn main() -> Res<()> {
    let mut args = std::env::args().skip(1);
    let rows: i64 = args.next().map(|a| a.parse()).transpose()?.unwrap_or(100_000);
    let page: i64 = args.next().map(|a| a.parse()).transpose()?.unwrap_or(500);
    let opts = asadb_txn::Options { pool_frames: 8192, ..Default::default() };
    let engine = Engine::with_db(asadb_txn::Db::memory(opts)?);
    let mut s = engine.session();

    let t = Instant::now();
    s.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, v REAL)", &Params::None)?;
    s.execute("BEGIN", &Params::None)?;
    let mut id = 1;
    while id <= rows {
        let end = (id + 100).min(rows + 1);
        let vals: Vec<String> =
            (id..end).map(|i| format!("({i}, 'name-{i}', {}.5)", i % 1000)).collect();
        s.execute(&format!("INSERT INTO t VALUES {}", vals.join(",")), &Params::None)?;
        id = end;
    }
    s.execute("COMMIT", &Params::None)?;
    println!("load: {rows} rows in {:.2?}", t.elapsed());

    let plan = s.query("EXPLAIN SELECT * FROM t ORDER BY id LIMIT 500 OFFSET 0", &Params::None)?;
    for line in plan {
        println!("  plan: {:?}", line?);
    }

    // 1. Each page a query of its own with LIMIT/OFFSET.
    let t = Instant::now();
    let read = pages(rows, |offset| {
        let sql = format!("SELECT * FROM t ORDER BY id LIMIT {page} OFFSET {offset}");
        s.query(&sql, &Params::None)?.collect::<Result<Vec<_>, _>>().map_err(Into::into)
    })?;
    println!("ORDER BY id, LIMIT {page} OFFSET n pages: {read} rows in {:.2?}", t.elapsed());

    // 2. As `/api/query` does it: the query without LIMIT, the first
    //    `offset` rows skipped by the caller, stopping after a page.
    let t = Instant::now();
    let read = pages(rows, |offset| {
        let q = s.query("SELECT * FROM t ORDER BY id", &Params::None)?;
        q.skip(offset as usize)
            .take(page as usize)
            .collect::<Result<Vec<_>, _>>()
            .map_err(Into::into)
    })?;
    println!("ORDER BY id, caller-side skip, {page}-row pages: {read} rows in {:.2?}", t.elapsed());

    // 3. A sort that no index serves: the first 20 pages.
    let t = Instant::now();
    for p in 0..20 {
        let sql = format!("SELECT * FROM t ORDER BY v, id LIMIT {page} OFFSET {}", p * page);
        let n = s.query(&sql, &Params::None)?.count();
        if n != page as usize {
            return Err(format!("page {p}: {n} rows").into());
        }
    }
    println!("ORDER BY v (sorted), first 20 LIMIT/OFFSET pages: {:.2?}", t.elapsed());

    // 4. An indexed text column: one full read in its order, then 20 pages.
    s.execute("CREATE INDEX t_name ON t(name)", &Params::None)?;
    let t = Instant::now();
    let n = s.query("SELECT * FROM t ORDER BY name", &Params::None)?.count();
    println!("ORDER BY name (indexed), one full read of {n} rows: {:.2?}", t.elapsed());
    let t = Instant::now();
    for p in 0..20 {
        let sql = format!("SELECT * FROM t ORDER BY name LIMIT {page} OFFSET {}", p * page);
        let n = s.query(&sql, &Params::None)?.count();
        if n != page as usize {
            return Err(format!("page {p}: {n} rows").into());
        }
    }
    println!("ORDER BY name (indexed), first 20 LIMIT/OFFSET pages: {:.2?}", t.elapsed());
    Ok(())
}
