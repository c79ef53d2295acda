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

fn best_of<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut best = None;
    let mut out = None;
    for _ in 0..runs {
        let t = Instant::now();
        let v = f();
        let d = t.elapsed();
        if best.is_none_or(|b| d < b) {
            best = Some(d);
        }
        out = Some(v);
    }
    (best.unwrap_or_default(), out.expect("at least one run"))
}

#[test]
fn ascending_inserts_scan_and_gets() {
    let payload = [0x5au8; 30];
    let (insert, (mem, table)) = best_of(3, || {
        let mem = MemPages::new(1 << 13);
        let table = Table::create(&mem).unwrap();
        for k in 1..=ROWS {
            table.insert(&mem, k, &payload).unwrap();
        }
        (mem, table)
    });
    let stats = table.check(&mem, &mut PageUsage::new()).unwrap();
    assert_eq!(stats.entries, ROWS as u64);

    let (scan, n) = best_of(3, || {
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

    let (gets, found) = best_of(3, || {
        (1..=ROWS).step_by(7).filter(|&k| table.get(&mem, k).unwrap().is_some()).count()
    });
    assert_eq!(found, (ROWS as usize).div_ceil(7));

    let (random, _) = best_of(1, || {
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
        "btree_perf: {ROWS} ascending inserts {insert:?} (depth {}, {} leaves, fill {:.1} %), \
         scan {scan:?}, {found} gets {gets:?}, {ROWS} random inserts {random:?}",
        stats.depth,
        stats.leaves,
        stats.leaf_fill() * 100.0
    );
    let limit =
        if cfg!(debug_assertions) { Duration::from_secs(5) } else { Duration::from_millis(250) };
    assert!(insert < limit, "ascending inserts took {insert:?}");
}
