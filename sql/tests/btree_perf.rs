//! Speed of the B+tree on in-memory pages: 100,000 ascending inserts of
//! ~30-byte payloads (the bulk-load shape), a full cursor scan, point reads
//! and random-order inserts. The goal (release build) is well under 50 ms
//! for the ascending inserts; the asserted bound is looser because the
//! machine is shared. Run with
//! `cargo test --release -p asadb-sql --test btree_perf -- --nocapture`.

use std::time::{Duration, Instant};

use asadb_sql::btree::testing::MemPages;
use asadb_sql::btree::{PageUsage, Table};

const ROWS: i64 = 100_000;

/// CPU time of this thread (Linux), so a loaded machine does not skew the
/// numbers; wall-clock time elsewhere.
fn thread_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(Duration::from_nanos(stat.split_whitespace().next()?.parse().ok()?))
}

/// Best (CPU, wall) time of `runs` runs, and the last run's result.
fn best_of<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, Duration, T) {
    let (mut cpu, mut wall) = (Duration::MAX, Duration::MAX);
    let mut out = None;
    for _ in 0..runs {
        let (t, c) = (Instant::now(), thread_cpu());
        let v = f();
        let w = t.elapsed();
        let c = match (c, thread_cpu()) {
            (Some(a), Some(b)) => b.saturating_sub(a),
            _ => w,
        };
        cpu = cpu.min(c);
        wall = wall.min(w);
        out = Some(v);
    }
    (cpu, wall, out.expect("at least one run"))
}

#[test]
fn ascending_inserts_scan_and_gets() {
    let payload = [0x5au8; 30];
    let (insert, insert_wall, (mem, table)) = best_of(5, || {
        let mem = MemPages::new(1 << 13);
        let table = Table::create(&mem).unwrap();
        for k in 1..=ROWS {
            table.insert(&mem, k, &payload).unwrap();
        }
        (mem, table)
    });
    let stats = table.check(&mem, &mut PageUsage::new()).unwrap();
    assert_eq!(stats.entries, ROWS as u64);

    let (scan, _, n) = best_of(3, || {
        let mut c = table.cursor(&mem);
        let mut ok = c.first().unwrap();
        let mut n = 0u64;
        while ok {
            n += c.with_payload(|p| p.len() as u64).unwrap();
            ok = c.next().unwrap();
        }
        n
    });
    assert_eq!(n, ROWS as u64 * 30);

    let (gets, _, found) = best_of(3, || {
        (1..=ROWS).step_by(7).filter(|&k| table.get(&mem, k).unwrap().is_some()).count()
    });
    assert_eq!(found, (ROWS as usize).div_ceil(7));

    let (random, _, _) = best_of(1, || {
        let mem = MemPages::new(1 << 14);
        let table = Table::create(&mem).unwrap();
        let mut x: u64 = 0x1234_5678_9abc;
        for _ in 0..ROWS {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            table.insert(&mem, (x >> 1) as i64, &payload).unwrap();
        }
    });
    println!(
        "btree_perf (CPU time): {ROWS} ascending inserts {insert:?} (wall {insert_wall:?}; \
         depth {}, {} leaves, fill {:.1} %), scan {scan:?}, {found} gets {gets:?}, \
         {ROWS} random inserts {random:?}",
        stats.depth,
        stats.leaves,
        stats.leaf_fill() * 100.0
    );
    let limit =
        if cfg!(debug_assertions) { Duration::from_secs(5) } else { Duration::from_millis(100) };
    assert!(insert < limit, "ascending inserts took {insert:?} of CPU time");
}

/// The same bulk load through the real transaction layer (in-memory files,
/// default buffer pool), including the commit. Reported, loosely bounded.
#[test]
fn ascending_inserts_through_a_write_transaction() {
    use asadb_txn::{Db, Options};
    let payload = [0x5au8; 30];
    let (cpu, wall, db) = best_of(3, || {
        let db = Db::memory(Options::default()).unwrap();
        let w = db.begin_write().unwrap();
        let table = Table::create(&w).unwrap();
        for k in 1..=ROWS {
            table.insert(&w, k, &payload).unwrap();
        }
        w.commit().unwrap();
        (db, table)
    });
    let (db, table) = db;
    let r = db.begin_read().unwrap();
    let (scan, _, n) = best_of(3, || {
        let mut c = table.cursor(&r);
        let mut ok = c.first().unwrap();
        let mut n = 0;
        while ok {
            n += 1;
            ok = c.next().unwrap();
        }
        n
    });
    assert_eq!(n, ROWS);
    println!(
        "btree_perf (CPU time, asadb_txn::Db::memory): {ROWS} ascending inserts + commit {cpu:?} \
         (wall {wall:?}), scan {scan:?}"
    );
    let limit =
        if cfg!(debug_assertions) { Duration::from_secs(20) } else { Duration::from_secs(2) };
    assert!(cpu < limit, "took {cpu:?}");
}
