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

fn main() -> Result<(), Box<dyn std::error::Error>> {
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

    let t = Instant::now();
    let mut expect = 1;
    let mut offset = 0;
    loop {
        let sql = format!("SELECT * FROM t ORDER BY id LIMIT {page} OFFSET {offset}");
        let mut n = 0;
        for r in s.query(&sql, &Params::None)? {
            let r = r?;
            if r.first() != Some(&Value::Integer(expect)) {
                return Err(format!("offset {offset}: expected id {expect}, got {r:?}").into());
            }
            expect += 1;
            n += 1;
        }
        if n == 0 {
            break;
        }
        offset += n;
    }
    if expect != rows + 1 {
        return Err(format!("read {} rows, expected {rows}", expect - 1).into());
    }
    println!("read-back: {rows} rows in {}-row ORDER BY id pages: {:.2?}", page, t.elapsed());
    Ok(())
}
