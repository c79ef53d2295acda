//! The PostgreSQL backend's bench (issue 14), next to `psql` in one run.
//!
//! 1. The headline script of the stress run (`CREATE TABLE`, `BEGIN`, 1,000
//!    INSERTs of 100 rows, `COMMIT`: about 3.1 MB for 100k rows), loaded
//!    two ways into fresh databases of one throwaway PostgreSQL cluster
//!    with PostgreSQL's default (durable) settings:
//!    - `psql -1 -q -v ON_ERROR_STOP=1 -f script.sql` — the baseline;
//!    - the release `asadb serve --backend postgres://…`: the file streamed
//!      through `POST /api/reservoir/jobs`, timed from the first byte sent
//!      to the job's durable completion (polled every 2 ms): spooled as
//!      chunk rows, fingerprinted, claimed, split and executed.
//!
//!    Both are checked (the row count and the sum of the `id`s); the ratio
//!    is asadb / psql (target ≤ 1.2×). Rounds, medians.
//! 2. Throughput with 1, 2 and 3 front-ends submitting at once: each
//!    front-end (all with workers; one executes at a time, the others
//!    receive and stand by) gets a client thread submitting
//!    `ASADB_SCALE_JOBS` jobs of a 10k-row script into its own tables;
//!    jobs, rows and script bytes per second from the first submission to
//!    the last completion.
//!
//! Run: `cargo bench -p asadb-server --bench scale_out`. Environment:
//! `ASADB_SCALE_ROWS` (default 100000), `ASADB_SCALE_ROUNDS` (default 3),
//! `ASADB_SCALE_JOBS` (default 6 per front-end); `ASADB_PG_GROUP_STATEMENTS`
//! reaches the servers (statements per round trip, default 100; 1 sends
//! each alone).
//!
//! Measured 2026-12-02 on the shared 2-core VM under a load average of
//! 13–14 (see docs/scale-out.md): medians psql 2.056 s, asadb 2.099 s,
//! ratio 1.02× (5 rounds, 0.79×–1.29×); with one statement per round trip
//! 1.31×. 1/2/3 front-ends: 2.80/3.09/2.71 jobs/s of 10k rows.

#[path = "../../reservoir-pg/tests/support/cluster.rs"]
mod cluster;
#[path = "../tests/common/stress.rs"]
mod stress;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use stress::{Server, write_script};

const TOKEN: &str = "be4cbe4cbe4cbe4cbe4cbe4cbe4cbe4cbe4cbe4cbe4cbe4cbe4cbe4cbe4cbe4c";

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

fn count(url: &str, table: &str) -> (i64, i64) {
    rt().block_on(async {
        let c = cluster::connect(url).await;
        let row = c
            .query_one(&format!("SELECT count(*), COALESCE(sum(id), 0)::bigint FROM {table}"), &[])
            .await
            .unwrap();
        (row.get(0), row.get(1))
    })
}

/// The job's phases from its events (ms): admission to queued (the
/// upload), queued to processing (the wake and claim), processing to its
/// end (execution).
fn phases(url: &str, id: u64) -> String {
    rt().block_on(async {
        let c = cluster::connect(url).await;
        let rows = c
            .query(
                "SELECT state, at FROM asadb.events WHERE job_id = $1 ORDER BY id",
                &[&(id as i64)],
            )
            .await
            .unwrap();
        let at = |state: &str| {
            rows.iter().find(|r| r.get::<_, String>(0) == state).map(|r| r.get::<_, i64>(1))
        };
        match (at("receiving"), at("queued"), at("processing"), at("completed")) {
            (Some(r), Some(q), Some(p), Some(c)) => {
                format!("upload {} ms, claim {} ms, execution {} ms", q - r, p - q, c - p)
            }
            _ => "phases unknown".into(),
        }
    })
}

fn front_end(dir: &Path, name: &str, url: &str) -> Server {
    let data = dir.join(name);
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(data.join("panel.token"), format!("{TOKEN}\n")).unwrap();
    Server::spawn(&data, &["--backend", url, "--reservoir-max-jobs", "64"])
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    let rows = env_u64("ASADB_SCALE_ROWS", 100_000);
    let rounds = env_u64("ASADB_SCALE_ROUNDS", 3).max(1);
    let jobs = env_u64("ASADB_SCALE_JOBS", 6).max(1);
    let admin = cluster::start_cluster(true);
    let work = tempfile::tempdir().unwrap();
    let script = write_script(&work.path().join("script.sql"), rows);
    let want = (rows as i64, (rows * (rows + 1) / 2) as i64);
    println!(
        "scale-out bench: {rows} rows, script {:.2} MB, {} statements, {rounds} rounds, \
         PostgreSQL at {admin} (durable settings)",
        script.bytes as f64 / 1e6,
        script.statements
    );
    let psql = cluster::bin_dir().join("psql");
    let (mut t_psql, mut t_asadb) = (Vec::new(), Vec::new());
    for round in 1..=rounds {
        let url = rt().block_on(cluster::fresh_database_at(&admin));
        let started = Instant::now();
        let out = Command::new(&psql)
            .args(["-X", "-1", "-q", "-v", "ON_ERROR_STOP=1", "-f"])
            .arg(&script.path)
            .arg(&url)
            .output()
            .expect("run psql");
        let psql_secs = started.elapsed().as_secs_f64();
        assert!(out.status.success(), "psql: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(count(&url, "t"), want, "psql loaded every row");

        let url = rt().block_on(cluster::fresh_database_at(&admin));
        let dir = tempfile::tempdir().unwrap();
        let server = front_end(dir.path(), "a", &url);
        let client = server.client();
        // Let the engine settle (schema, listener, executor lock).
        std::thread::sleep(Duration::from_millis(300));
        let started = Instant::now();
        let id = client.submit_file(&script.path);
        let job = client.wait_terminal(id, Duration::from_secs(600));
        let asadb_secs = started.elapsed().as_secs_f64();
        assert_eq!(job["state"], "completed", "{job}");
        assert_eq!(count(&url, "t"), want, "asadb loaded every row");
        let hwm = server.vm_hwm_kib();
        let _ = server.terminate();
        println!(
            "round {round}: psql -1 -f {psql_secs:.3} s; asadb --backend {asadb_secs:.3} s \
             (upload to durable completion; ratio {:.2}x; {}); server peak {:.1} MB",
            asadb_secs / psql_secs,
            phases(&url, id),
            hwm as f64 / 1024.0
        );
        t_psql.push(psql_secs);
        t_asadb.push(asadb_secs);
    }
    let (p, a) = (median(t_psql), median(t_asadb));
    println!(
        "median: psql -1 -f {p:.3} s ({:.0} rows/s); asadb --backend {a:.3} s ({:.0} rows/s); \
         ratio {:.2}x (target <= 1.20x)",
        rows as f64 / p,
        rows as f64 / a,
        a / p
    );

    // Throughput with 1, 2 and 3 front-ends submitting at once.
    let small_rows = 10_000u64;
    let small = write_script(&work.path().join("small.sql"), small_rows);
    let text = std::fs::read_to_string(&small.path).unwrap();
    for n in 1..=3usize {
        let url = rt().block_on(cluster::fresh_database_at(&admin));
        let dir = tempfile::tempdir().unwrap();
        let servers: Vec<Server> =
            (0..n).map(|i| front_end(dir.path(), &format!("f{i}"), &url)).collect();
        std::thread::sleep(Duration::from_millis(300));
        let started = Instant::now();
        let per_front: Vec<Vec<u64>> = std::thread::scope(|s| {
            let handles: Vec<_> = servers
                .iter()
                .enumerate()
                .map(|(i, server)| {
                    let text = &text;
                    let dir = dir.path();
                    s.spawn(move || {
                        let client = server.client();
                        (0..jobs)
                            .map(|j| {
                                let table = format!("t_{i}_{j}");
                                let script = text
                                    .replace("CREATE TABLE t(", &format!("CREATE TABLE {table}("))
                                    .replace(
                                        "INSERT INTO t VALUES",
                                        &format!("INSERT INTO {table} VALUES"),
                                    );
                                let path = dir.join(format!("{table}.sql"));
                                std::fs::write(&path, script).unwrap();
                                client.submit_file(&path)
                            })
                            .collect()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for (i, ids) in per_front.iter().enumerate() {
            let client = servers[(i + 1) % n].client();
            for id in ids {
                let job = client.wait_terminal(*id, Duration::from_secs(600));
                assert_eq!(job["state"], "completed", "{job}");
            }
        }
        let secs = started.elapsed().as_secs_f64();
        let total_jobs = n as u64 * jobs;
        for i in 0..n {
            for j in 0..jobs {
                assert_eq!(count(&url, &format!("t_{i}_{j}")).0, small_rows as i64);
            }
        }
        println!(
            "{n} front-end(s) submitting at once: {total_jobs} jobs of {small_rows} rows in \
             {secs:.2} s: {:.2} jobs/s, {:.0} rows/s, {:.2} MB/s of script",
            total_jobs as f64 / secs,
            (total_jobs * small_rows) as f64 / secs,
            (total_jobs * small.bytes) as f64 / secs / 1e6
        );
        for s in servers {
            let _ = s.terminate();
        }
    }
}
