//! Rough timings of the headline workload (a ~3.1 MB script: CREATE TABLE
//! plus 1,000 INSERTs of 100 rows) through splitter + fast path + engine,
//! side by side with SQLite, and of reads over the result. Ignored by
//! default (timing, not correctness); run with
//! `cargo test -p asadb-sql --release --test sql_perf -- --ignored --nocapture`.
//! The correctness check (row count and sum equal SQLite's) always holds.

use std::time::Instant;

use asadb_sql::Value;
use asadb_sql::script::{Splitter, parse_insert_fast};
use asadb_sql::session::{Engine, Outcome, Params};

fn script() -> String {
    let mut s =
        String::from("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, v REAL, note TEXT);\n");
    let mut id = 0;
    for _ in 0..1000 {
        s.push_str("INSERT INTO t VALUES ");
        for j in 0..100 {
            if j > 0 {
                s.push(',');
            }
            s.push_str(&format!(
                "({id}, 'name {id}', {}.{:02}, 'some text value')",
                id % 977,
                id % 100
            ));
            id += 1;
        }
        s.push_str(";\n");
    }
    s
}

#[test]
#[ignore]
fn script_100k_rows_vs_sqlite() {
    let text = script();
    println!("script: {} bytes", text.len());
    let dir = tempfile::tempdir().unwrap();

    for (label, one_txn) in [("one transaction", true), ("autocommit", false)] {
        let opts = asadb_txn::Options::default();
        let e = Engine::open(&dir.path().join(format!("a{one_txn}.db")), opts).unwrap();
        let mut s = e.session();
        let t0 = Instant::now();
        if one_txn {
            s.execute("BEGIN", &Params::None).unwrap();
        }
        for st in Splitter::new(text.as_bytes()) {
            let st = st.unwrap();
            match parse_insert_fast(&st.text, false) {
                Some(iv) => s.insert_values(&iv).unwrap(),
                None => s.execute(&st.text, &Params::None).unwrap(),
            };
        }
        if one_txn {
            s.execute("COMMIT", &Params::None).unwrap();
        }
        let ours = t0.elapsed();

        let c = rusqlite::Connection::open(dir.path().join(format!("s{one_txn}.db"))).unwrap();
        c.pragma_update(None, "journal_mode", "wal").unwrap();
        let t0 = Instant::now();
        if one_txn {
            c.execute_batch(&format!("BEGIN;{text}COMMIT;")).unwrap();
        } else {
            c.execute_batch(&text).unwrap();
        }
        let sqlite = t0.elapsed();
        println!(
            "{label}: asadb {ours:.2?}, sqlite {sqlite:.2?}, ratio {:.2}",
            ours.as_secs_f64() / sqlite.as_secs_f64()
        );

        let q = "SELECT count(*), sum(id), sum(v) FROM t";
        let t0 = Instant::now();
        let got = match s.execute(q, &Params::None).unwrap() {
            Outcome::Rows { rows, .. } => rows,
            o => panic!("{o:?}"),
        };
        let scan_ours = t0.elapsed();
        let t0 = Instant::now();
        let (n, sum): (i64, i64) = c.query_row(q, [], |r| Ok((r.get(0)?, r.get(1)?))).unwrap();
        let scan_sqlite = t0.elapsed();
        assert_eq!(got[0][0], Value::Integer(n));
        assert_eq!(got[0][1], Value::Integer(sum));
        println!("  full scan aggregate: asadb {scan_ours:.2?}, sqlite {scan_sqlite:.2?}");

        let t0 = Instant::now();
        for i in 0..1000 {
            s.execute(
                "SELECT name FROM t WHERE id = ?",
                &Params::Positional(vec![Value::Integer(i * 97)]),
            )
            .unwrap();
        }
        let pk_ours = t0.elapsed();
        let t0 = Instant::now();
        let mut st = c.prepare("SELECT name FROM t WHERE id = ?").unwrap();
        for i in 0..1000i64 {
            let _: String = st.query_row([i * 97], |r| r.get(0)).unwrap();
        }
        println!("  1000 point selects: asadb {pk_ours:.2?}, sqlite {:.2?}", t0.elapsed());
        let t0 = Instant::now();
        let g = s
            .execute("SELECT v, count(*) FROM t GROUP BY v ORDER BY 2 DESC LIMIT 5", &Params::None)
            .unwrap();
        let agg_ours = t0.elapsed();
        let t0 = Instant::now();
        c.prepare("SELECT v, count(*) FROM t GROUP BY v ORDER BY 2 DESC LIMIT 5")
            .unwrap()
            .query_map([], |r| r.get::<_, f64>(0))
            .unwrap()
            .for_each(drop);
        println!("  grouped aggregate: asadb {agg_ours:.2?}, sqlite {:.2?}", t0.elapsed());
        drop(g);
    }
}
