//! What only the PostgreSQL engine has, on a real PostgreSQL server:
//! the listener (reconnect after `pg_terminate_backend` with a wake, why
//! LISTEN cannot share the pool, the payload limit), wakes across engines
//! and the poll-only mode, one executor at a time per database, a lease
//! lost by a process that is still running (it cannot commit; resume is
//! exactly once), capacity reconciliation and global caps, COPY through
//! the copy-in protocol, and read-only queries with every value type.

#[path = "support/cluster.rs"]
mod cluster;

use std::time::{Duration, Instant};

use asadb_reservoir::contract::{ReservoirEngine, submit};
use asadb_reservoir::{Error, Job, JobId, JobState, SubmitOptions};
use asadb_reservoir_pg::{Event, MAX_PAYLOAD, PgConfig, PgReservoir};
use asadb_sql::Value;

fn pg_config(url: &str, worker: bool) -> PgConfig {
    PgConfig {
        pool_size: 4,
        lease: Duration::from_secs(1),
        poll_interval: Duration::from_millis(200),
        worker,
        ..PgConfig::new(url)
    }
}

async fn open(url: &str, worker: bool) -> PgReservoir {
    PgReservoir::open(pg_config(url, worker)).await.unwrap()
}

async fn run(e: &dyn ReservoirEngine, script: &str) -> JobId {
    let mut body = script.as_bytes();
    submit(e, SubmitOptions::default(), &mut body).await.unwrap().job.id
}

async fn wait_terminal(e: &dyn ReservoirEngine, id: JobId) -> Job {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let job = e.job(id).await.unwrap();
        if job.state.is_terminal() {
            return job;
        }
        assert!(Instant::now() < deadline, "job {id} stuck in {}", job.state);
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// Waits for an event matching `f`.
async fn wait_event(
    rx: &mut tokio::sync::broadcast::Receiver<Event>,
    within: Duration,
    f: impl Fn(&Event) -> bool,
) -> bool {
    tokio::time::timeout(within, async {
        loop {
            match rx.recv().await {
                Ok(ev) if f(&ev) => return,
                Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                Err(e) => panic!("{e}"),
            }
        }
    })
    .await
    .is_ok()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn listener_reconnects_after_its_backend_is_terminated_and_wakes_everyone() {
    let url = cluster::fresh_database().await;
    let e = open(&url, false).await;
    let mut events = e.subscribe();
    // The first connect's synthetic wake.
    assert!(wait_event(&mut events, Duration::from_secs(10), |ev| *ev == Event::Reconnected).await);
    let admin = cluster::connect(&url).await;
    let name = format!("asadb listener {}", e.owner());
    let row = admin
        .query_one(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = $1",
            &[&name],
        )
        .await
        .unwrap();
    assert_eq!(row.get::<_, i64>(0), 1, "one listener connection, not pooled");
    // The synthetic wake after the reconnect (backoff starts at 50 ms).
    let started = Instant::now();
    assert!(wait_event(&mut events, Duration::from_secs(10), |ev| *ev == Event::Reconnected).await);
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
    // And real notifications flow again: a submission on another engine
    // (another "process") arrives as an event here.
    let other = open(&url, false).await;
    let id = run(&other, "SELECT 1;").await;
    assert!(
        wait_event(&mut events, Duration::from_secs(10), |ev| {
            *ev == Event::Job { id, state: JobState::Queued }
        })
        .await,
        "the queued notification arrives after the reconnect"
    );
    let row = admin
        .query_one("SELECT count(*) FROM pg_stat_activity WHERE application_name = $1", &[&name])
        .await
        .unwrap();
    assert_eq!(row.get::<_, i64>(0), 1, "exactly one listener again");
}

/// Why the listener has its own connection: LISTEN on a pooled connection
/// delivers nothing to anyone (the pool's client has no notification
/// stream, its driver drops them) and stays on the connection for its
/// next, unrelated user.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn listen_on_a_pooled_connection_is_lost_and_leaks() {
    let url = cluster::fresh_database().await;
    let mgr = deadpool_postgres::Manager::from_config(
        url.parse().unwrap(),
        tokio_postgres::NoTls,
        deadpool_postgres::ManagerConfig {
            recycling_method: deadpool_postgres::RecyclingMethod::Fast,
        },
    );
    let pool = deadpool_postgres::Pool::builder(mgr).max_size(1).build().unwrap();
    {
        let c = pool.get().await.unwrap();
        c.batch_execute("LISTEN pooled_channel").await.unwrap();
        c.batch_execute("NOTIFY pooled_channel, 'hello'").await.unwrap();
        // The notification reached the connection (it is the only one
        // listening) — and was dropped by the pool's driver task.
        c.batch_execute("SELECT 1").await.unwrap();
    }
    let c = pool.get().await.unwrap();
    let row = c.query_one("SELECT array_agg(c) FROM pg_listening_channels() c", &[]).await.unwrap();
    let channels: Vec<String> = row.get(0);
    assert_eq!(channels, ["pooled_channel"], "the LISTEN followed the connection to its next user");
    // The engine's own channel is served by its dedicated listener.
    let e = open(&url, false).await;
    let mut events = e.subscribe();
    assert!(wait_event(&mut events, Duration::from_secs(10), |ev| *ev == Event::Reconnected).await);
    e.notify("7 queued").await.unwrap();
    assert!(
        wait_event(&mut events, Duration::from_secs(10), |ev| {
            *ev == Event::Job { id: JobId(7), state: JobState::Queued }
        })
        .await
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notification_payloads_over_the_limit_are_refused_before_the_round_trip() {
    let url = cluster::fresh_database().await;
    let e = open(&url, false).await;
    let err = e.notify(&"x".repeat(MAX_PAYLOAD)).await.unwrap_err();
    assert!(matches!(err, Error::InvalidInput(_)), "{err}");
    assert!(err.to_string().contains("8000"), "{err}");
    // The largest allowed payload goes through (PostgreSQL would refuse
    // one byte more with "payload string too long").
    e.notify(&"x".repeat(MAX_PAYLOAD - 1)).await.unwrap();
    let admin = cluster::connect(&url).await;
    let refused = admin
        .execute("SELECT pg_notify('asadb_reservoir', $1)", &[&"x".repeat(MAX_PAYLOAD)])
        .await
        .unwrap_err();
    assert!(refused.to_string().contains("payload") || format!("{refused:?}").contains("payload"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_submission_on_one_engine_wakes_the_worker_of_another_at_once() {
    let url = cluster::fresh_database().await;
    // A worker whose re-poll would take a minute: only the notification
    // can wake it in time.
    let worker = PgReservoir::open(PgConfig {
        poll_interval: Duration::from_secs(60),
        ..pg_config(&url, true)
    })
    .await
    .unwrap();
    let front = open(&url, false).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let started = Instant::now();
    let id = run(&front, "CREATE TABLE woken(a integer); INSERT INTO woken VALUES (1);").await;
    let job = wait_terminal(&front, id).await;
    assert_eq!(job.state, JobState::Completed, "{:?}", job.error);
    assert!(started.elapsed() < Duration::from_secs(10), "woken in {:?}", started.elapsed());
    drop(worker);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn poll_only_mode_runs_jobs_without_listen() {
    let url = cluster::fresh_database().await;
    let e = PgReservoir::open(PgConfig { listen: false, ..pg_config(&url, true) }).await.unwrap();
    let admin = cluster::connect(&url).await;
    let row = admin
        .query_one(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'asadb listener%' \
             AND datname = current_database()",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(row.get::<_, i64>(0), 0, "no listener in poll-only mode");
    let id = run(&e, "CREATE TABLE polled(a integer); INSERT INTO polled VALUES (1), (2);").await;
    assert_eq!(wait_terminal(&e, id).await.state, JobState::Completed);
    let row = admin.query_one("SELECT count(*) FROM polled", &[]).await.unwrap();
    assert_eq!(row.get::<_, i64>(0), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_executor_at_a_time_across_engines() {
    let url = cluster::fresh_database().await;
    let a = open(&url, true).await;
    let b = open(&url, true).await;
    let mut ids = Vec::new();
    for i in 0..6 {
        let script = format!(
            "CREATE TABLE t{i}(a integer); INSERT INTO t{i} SELECT g FROM generate_series(1, 20000) g; \
             SELECT pg_sleep(0.05);"
        );
        ids.push(run(if i % 2 == 0 { &a } else { &b }, &script).await);
    }
    let admin = cluster::connect(&url).await;
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut most = 0;
    loop {
        let row = admin
            .query_one(
                "SELECT count(*) FROM asadb.jobs WHERE state IN ('processing', 'cancelling')",
                &[],
            )
            .await
            .unwrap();
        most = most.max(row.get::<_, i64>(0));
        let row = admin
            .query_one(
                "SELECT count(*) FILTER (WHERE state = 'completed'), \
                 count(*) FILTER (WHERE state IN ('failed', 'cancelled', 'interrupted')) \
                 FROM asadb.jobs",
                &[],
            )
            .await
            .unwrap();
        assert_eq!(row.get::<_, i64>(1), 0, "{:?}", a.jobs().await.unwrap());
        if row.get::<_, i64>(0) == 6 {
            break;
        }
        assert!(Instant::now() < deadline, "jobs did not finish");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_eq!(most, 1, "never two jobs executing against one database");
    let row = admin
        .query_one(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted \
             AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
            &[],
        )
        .await
        .unwrap();
    assert!(row.get::<_, i64>(0) <= 1, "one executor lock at most");
}

/// Two Reservoir schemas on one database share its executor lock: the
/// target is the database, so their jobs never execute at the same time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_schemas_on_one_database_share_one_executor() {
    let url = cluster::fresh_database().await;
    let a = PgReservoir::open(PgConfig { schema: "asadb_a".into(), ..pg_config(&url, true) })
        .await
        .unwrap();
    let b = PgReservoir::open(PgConfig { schema: "asadb_b".into(), ..pg_config(&url, true) })
        .await
        .unwrap();
    let mut ids = Vec::new();
    for i in 0..4 {
        let script = format!(
            "CREATE TABLE s{i}(a integer); INSERT INTO s{i} SELECT g FROM generate_series(1, 20000) g; \
             SELECT pg_sleep(0.1);"
        );
        let e: &PgReservoir = if i % 2 == 0 { &a } else { &b };
        ids.push((i % 2, run(e, &script).await));
    }
    let admin = cluster::connect(&url).await;
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut most = 0;
    loop {
        let row = admin
            .query_one(
                "SELECT (SELECT count(*) FROM asadb_a.jobs WHERE state IN ('processing', 'cancelling')) \
                 + (SELECT count(*) FROM asadb_b.jobs WHERE state IN ('processing', 'cancelling')), \
                 (SELECT count(*) FROM asadb_a.jobs WHERE state = 'completed') \
                 + (SELECT count(*) FROM asadb_b.jobs WHERE state = 'completed')",
                &[],
            )
            .await
            .unwrap();
        most = most.max(row.get::<_, i64>(0));
        if row.get::<_, i64>(1) == 4 {
            break;
        }
        assert!(Instant::now() < deadline, "jobs did not finish");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_eq!(most, 1, "never two jobs executing against one database");
    for (which, id) in ids {
        let e: &PgReservoir = if which == 0 { &a } else { &b };
        assert_eq!(e.job(id).await.unwrap().state, JobState::Completed);
    }
}

/// A process that is alive but lost its lease (it stalled past it) cannot
/// commit another batch: the reaper's `interrupted` stands, and `resume`
/// applies every statement exactly once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_process_that_lost_its_lease_cannot_commit() {
    let url = cluster::fresh_database().await;
    // A long lease: its heartbeat (every third of it) must not renew the
    // lease the test expires below before a reaper has seen it expired
    // (with the 1 s lease it sometimes did, on a loaded machine, and the
    // job completed).
    let slow =
        PgReservoir::open(PgConfig { lease: Duration::from_secs(60), ..pg_config(&url, true) })
            .await
            .unwrap();
    let mut script = String::from("CREATE TABLE t(id integer PRIMARY KEY);\n");
    // Statements 2,001..7,000 each sleep a millisecond on the server: the
    // job cannot finish before the lease is taken from it below, however
    // fast the machine (without them it sometimes did, on a quiet one).
    for i in 1..=20_000 {
        if (2_001..=7_000).contains(&i) {
            script.push_str(&format!("INSERT INTO t SELECT {i} FROM pg_sleep(0.001);\n"));
        } else {
            script.push_str(&format!("INSERT INTO t VALUES ({i});\n"));
        }
    }
    let id = run(&slow, &script).await;
    let deadline = Instant::now() + Duration::from_secs(60);
    while slow.job(id).await.unwrap().progress.statements_committed < 2000 {
        assert!(Instant::now() < deadline);
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    // The lease "expires" while the process runs on: another process's
    // reaper takes the job.
    let admin = cluster::connect(&url).await;
    admin
        .execute(
            "UPDATE asadb.leases SET expires_at = now() - interval '1 second' WHERE owner = $1",
            &[&slow.owner()],
        )
        .await
        .unwrap();
    let other = open(&url, false).await;
    let job = wait_terminal(&other, id).await;
    assert_eq!(job.state, JobState::Interrupted, "{job:?}");
    tokio::time::sleep(Duration::from_millis(800)).await;
    let marker: i64 = admin
        .query_one("SELECT statement FROM asadb.progress WHERE job_id = $1", &[&(id.0 as i64)])
        .await
        .unwrap()
        .get(0);
    let rows: i64 = admin.query_one("SELECT count(*) FROM t", &[]).await.unwrap().get(0);
    assert_eq!(rows, marker - 1, "the stalled process committed nothing after losing the job");
    assert_eq!(other.job(id).await.unwrap().state, JobState::Interrupted, "and did not finish it");
    drop(slow);
    let runner = open(&url, true).await;
    runner.resume(id).await.unwrap();
    let job = wait_terminal(&runner, id).await;
    assert_eq!(job.state, JobState::Completed, "{:?}", job.error);
    let row =
        admin.query_one("SELECT count(*), count(DISTINCT id), sum(id) FROM t", &[]).await.unwrap();
    assert_eq!(
        (row.get::<_, i64>(0), row.get::<_, i64>(1), row.get::<_, i64>(2)),
        (20_000, 20_000, 20_000 * 20_001 / 2)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn counters_are_reconciled_and_global_caps_are_the_minimum() {
    let url = cluster::fresh_database().await;
    let e = open(&url, false).await;
    run(&e, "SELECT 1;").await;
    run(&e, "SELECT 22;").await;
    let admin = cluster::connect(&url).await;
    admin.execute("UPDATE asadb.capacity SET used = used + 1000", &[]).await.unwrap();
    let (before, after) = e.reconcile().await.unwrap();
    assert_eq!((before.active_jobs, before.spool_bytes), (1002, 1019));
    assert_eq!((after.active_jobs, after.spool_bytes), (2, 19));
    assert_eq!(e.capacity().await.unwrap(), after);
    // Start-up reconciles too.
    admin.execute("UPDATE asadb.capacity SET used = 0", &[]).await.unwrap();
    let e2 = open(&url, false).await;
    assert_eq!(e2.capacity().await.unwrap().spool_bytes, 19);
    // Global caps below this front-end's own: the global one holds.
    let cap = e.set_caps(Some(2), None).await.unwrap();
    assert_eq!(cap.max_jobs, 2);
    let err = e.begin_upload(SubmitOptions::default()).await.err().unwrap();
    assert!(matches!(err, Error::CapacityExhausted(_)), "{err}");
    assert_eq!(e.stats().await.unwrap().max_jobs, 2);
    e.set_caps(Some(100), None).await.unwrap();
    assert_eq!(e.stats().await.unwrap().max_jobs, 16, "this front-end's own cap");
    assert!(e.set_caps(Some(0), None).await.is_err());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn copy_from_stdin_goes_through_copy_in_and_copy_to_stdout_is_refused() {
    let url = cluster::fresh_database().await;
    let e = open(&url, true).await;
    let script = "CREATE TABLE c(a integer, b text);\n\
                  COPY c (a, b) FROM stdin;\n1\tone\n2\t\\N\n3\tthree\n\\.\n\
                  SELECT a, b FROM c ORDER BY a;\n";
    let id = run(&e, script).await;
    let job = wait_terminal(&e, id).await;
    assert_eq!(job.state, JobState::Completed, "{:?}", job.error);
    assert_eq!(job.progress.rows_affected, 3);
    let page = e.result(id, 2, 0, 10).await.unwrap();
    assert_eq!(
        page.rows,
        [
            serde_json::json!([1, "one"]),
            serde_json::json!([2, null]),
            serde_json::json!([3, "three"])
        ]
    );
    let id = run(&e, "COPY c TO STDOUT;").await;
    let job = wait_terminal(&e, id).await;
    assert_eq!(job.state, JobState::Failed);
    assert!(job.error.unwrap().message.contains("TO STDOUT"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn read_only_queries_page_and_render_every_type() {
    let url = cluster::fresh_database().await;
    let e = open(&url, true).await;
    let script = "CREATE TABLE v(i int, b bigint, s smallint, f float8, r real, n numeric, \
                  big numeric, t text, bo boolean, by bytea, d date, ts timestamp, tz timestamptz, \
                  u uuid, j jsonb, a int[], iv interval, p point);\n\
                  INSERT INTO v VALUES (1, 9007199254740993, 3, 1.5, 0.25, 42, 1.50, 'x''y', true, \
                  '\\x00ff', '2024-02-29', '2024-02-29 13:14:15.5', '2024-02-29 13:14:15+00', \
                  'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '{\"k\": [1]}', '{1,NULL,3}', \
                  '1 day 02:00:00', '(1,2)');\n\
                  CREATE TABLE many(id integer); INSERT INTO many SELECT generate_series(1, 1203);";
    let id = run(&e, script).await;
    assert_eq!(wait_terminal(&e, id).await.state, JobState::Completed);
    let page = e
        .read_page(
            "SELECT i, b, s, f, r, n, big, t, bo, by, d, ts, tz, u, j, a, iv FROM v",
            &[],
            0,
            500,
        )
        .await
        .unwrap();
    assert_eq!(page.columns.len(), 17);
    assert_eq!(
        page.rows[0],
        vec![
            Value::Integer(1),
            Value::Integer(9_007_199_254_740_993),
            Value::Integer(3),
            Value::Real(1.5),
            Value::Real(0.25),
            Value::Integer(42),
            Value::Text("1.50".into()),
            Value::Text("x'y".into()),
            Value::Integer(1),
            Value::Blob(vec![0, 255]),
            Value::Text("2024-02-29".into()),
            Value::Text("2024-02-29 13:14:15.5".into()),
            Value::Text("2024-02-29 13:14:15+00".into()),
            Value::Text("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11".into()),
            Value::Text("{\"k\": [1]}".into()),
            Value::Text("{1,NULL,3}".into()),
            Value::Text("1 day 02:00:00".into()),
        ]
    );
    // A type without a decoder is refused with the cast that works.
    let err = e.read_page("SELECT p FROM v", &[], 0, 500).await.unwrap_err();
    assert!(err.to_string().contains("::text"), "{err}");
    assert_eq!(
        e.read_page("SELECT p::text FROM v", &[], 0, 500).await.unwrap().rows[0],
        vec![Value::Text("(1,2)".into())]
    );
    // Parameters are $n, bound as text and typed by the statement.
    let p = e
        .read_page(
            "SELECT count(*) FROM many WHERE id > $1 AND $2::text = 'ok'",
            &[Value::Integer(1200), Value::Text("ok".into())],
            0,
            500,
        )
        .await
        .unwrap();
    assert_eq!(p.rows[0], vec![Value::Integer(3)]);
    assert!(e.read_page("SELECT $1::int", &[], 0, 500).await.is_err(), "missing parameter");
    // Paging.
    let first = e.read_page("SELECT id FROM many ORDER BY id", &[], 0, 500).await.unwrap();
    assert_eq!((first.rows.len(), first.next_offset), (500, Some(500)));
    let last = e.read_page("SELECT id FROM many ORDER BY id", &[], 1000, 500).await.unwrap();
    assert_eq!((last.rows.len(), last.next_offset), (203, None));
    assert_eq!(last.rows[0], vec![Value::Integer(1001)]);
    let past = e.read_page("SELECT id FROM many ORDER BY id", &[], 5000, 500).await.unwrap();
    assert!(past.rows.is_empty() && past.next_offset.is_none());
    // Writes, DDL and several statements are refused; nothing changes.
    for bad in [
        "INSERT INTO many VALUES (0)",
        "DELETE FROM many",
        "CREATE TABLE nope(a int)",
        "SELECT 1; SELECT 2",
        "SELEC 1",
    ] {
        let err = e.read_page(bad, &[], 0, 500).await.unwrap_err();
        assert!(matches!(err, Error::InvalidInput(_)), "{bad}: {err:?}");
    }
    let err = e.read_page("DELETE FROM many", &[], 0, 500).await.unwrap_err();
    assert!(err.to_string().contains("Reservoir"), "{err}");
    let n = e.read_page("SELECT count(*) FROM many", &[], 0, 500).await.unwrap();
    assert_eq!(n.rows[0], vec![Value::Integer(1203)]);
}

/// `/api/query` pages on PostgreSQL obey the embedded engine's limits
/// with its contract: a page holds at most `max_page_bytes` of row JSON
/// (it ends early, says so, and the next offset continues), a row alone
/// larger than that is refused; a value longer than `max_value_bytes` is
/// refused on a page's first row and ends a started page before it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn read_only_query_pages_obey_the_byte_limits() {
    let url = cluster::fresh_database().await;
    let mut cfg = pg_config(&url, true);
    cfg.reservoir.max_page_bytes = 1000;
    cfg.reservoir.max_value_bytes = 300;
    let e = PgReservoir::open(cfg).await.unwrap();
    let script = "CREATE TABLE t(a int, b text);\n\
                  INSERT INTO t SELECT i, repeat('x', 90) FROM generate_series(0, 39) i;\n\
                  INSERT INTO t VALUES (100, repeat('y', 250)), (101, repeat('z', 400));";
    let id = run(&e, script).await;
    assert_eq!(wait_terminal(&e, id).await.state, JobState::Completed);
    let q = "SELECT a, b FROM t WHERE a < 100 ORDER BY a";
    let (mut offset, mut seen) = (0u64, 0i64);
    loop {
        let p = e.read_page(q, &[], offset, 500).await.unwrap();
        assert!(!p.rows.is_empty() && p.rows.len() <= 10, "{} rows", p.rows.len());
        assert_eq!(p.rows[0][0], Value::Integer(seen));
        let mut bytes = 0;
        for r in &p.rows {
            let mut line = String::new();
            asadb_reservoir::row_json(r, &mut line);
            bytes += line.len() + 1;
        }
        assert!(bytes <= 1000, "{bytes} bytes");
        seen += p.rows.len() as i64;
        match p.next_offset {
            Some(n) => {
                assert_eq!(p.ended_early, Some("max_page_bytes"));
                assert_eq!(n, seen as u64);
                offset = n;
            }
            None => {
                assert_eq!(p.ended_early, None);
                break;
            }
        }
    }
    assert_eq!(seen, 40);
    // The row limit is not an early end.
    let p = e.read_page(q, &[], 0, 3).await.unwrap();
    assert_eq!((p.rows.len(), p.next_offset, p.ended_early), (3, Some(3), None));
    // One row larger than a page: refused, not cut.
    let wide = "SELECT b, b, b, b, b FROM t WHERE a = 100";
    assert!(matches!(e.read_page(wide, &[], 0, 500).await, Err(Error::TooLarge(_))));
    // A long value: refused on the first row, an early end after others.
    let long = "SELECT b FROM t WHERE a >= 100 ORDER BY a";
    let p = e.read_page(long, &[], 0, 500).await.unwrap();
    assert_eq!((p.rows.len(), p.next_offset, p.ended_early), (1, Some(1), Some("max_value_bytes")));
    let err = e.read_page(long, &[], 1, 500).await.unwrap_err();
    assert!(matches!(&err, Error::TooLarge(m) if m.contains("max-value-bytes")), "{err}");
}

/// Plain statements run in groups (one round trip each): a statement that
/// fails inside a group is rolled back alone and named, the ones before
/// it keep their effects, the ones after it run; rows affected are each
/// statement's own; with stop-on-error the statements before the failing
/// one are committed; inside the script's own transaction a failure
/// aborts the transaction as PostgreSQL does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn statement_groups_keep_per_statement_rules() {
    let url = cluster::fresh_database().await;
    let e = open(&url, true).await;
    let db = cluster::connect(&url).await;
    let mut script = String::from("CREATE TABLE t(a int PRIMARY KEY) -- trailing comment\n;\n");
    for i in 0..30 {
        script.push_str(&format!("INSERT INTO t VALUES ({i});\n"));
    }
    script.push_str("INSERT INTO t VALUES (7);\n"); // 31 fails
    script.push_str("INSERT INTO t VALUES (30), (31);\n"); // 32
    script.push_str("UPDATE t SET a = a + 100 WHERE a < 5;\n"); // 33: 5 rows
    script.push_str("SELECT count(*) FROM t;\n"); // 34
    script.push_str("DELETE FROM t WHERE a >= 100;\n"); // 35: 5 rows
    let mut body = script.as_bytes();
    let o = SubmitOptions { stop_on_error: Some(false), ..SubmitOptions::default() };
    let id = submit(&e, o, &mut body).await.unwrap().job.id;
    let job = wait_terminal(&e, id).await;
    assert_eq!(job.state, JobState::Completed, "{:?}", job.error);
    assert_eq!(job.progress.errors, 1);
    assert_eq!(job.statement_errors[0].statement, Some(31));
    assert!(
        job.statement_errors[0].message.contains("duplicate key"),
        "{:?}",
        job.statement_errors
    );
    assert_eq!(job.progress.statements_done, 36);
    assert_eq!(job.progress.rows_affected, 30 + 2 + 5 + 5);
    let n: i64 = db.query_one("SELECT count(*) FROM t", &[]).await.unwrap().get(0);
    assert_eq!(n, 27);
    assert_eq!(e.result(id, 33, 0, 1).await.unwrap().statement.rows_affected, 5);
    assert_eq!(e.result(id, 32, 0, 1).await.unwrap().statement.rows_affected, 2);
    let count = e.result(id, 34, 0, 1).await.unwrap();
    assert_eq!(count.rows, vec![serde_json::json!([32])]);
    // Stop-on-error inside a group: what came before is committed.
    let mut script = String::from("CREATE TABLE s(a int PRIMARY KEY);\n");
    for i in [1, 2, 3, 2, 4, 5] {
        script.push_str(&format!("INSERT INTO s VALUES ({i});\n"));
    }
    let id = run(&e, &script).await;
    let job = wait_terminal(&e, id).await;
    assert_eq!(job.state, JobState::Failed);
    assert_eq!(job.error.as_ref().unwrap().statement, Some(4));
    assert_eq!(job.progress.statements_committed, 4);
    let n: i64 = db.query_one("SELECT count(*) FROM s", &[]).await.unwrap().get(0);
    assert_eq!(n, 3);
    // Inside the script's own transaction: the failure aborts it; every
    // later statement of it fails, its COMMIT rolls it back.
    let script = "CREATE TABLE u(a int PRIMARY KEY);\n\
                  BEGIN; INSERT INTO u VALUES (1); INSERT INTO u VALUES (1); \
                  INSERT INTO u VALUES (2); COMMIT;\n\
                  INSERT INTO u VALUES (9);";
    let mut body = script.as_bytes();
    let o = SubmitOptions { stop_on_error: Some(false), ..SubmitOptions::default() };
    let id = submit(&e, o, &mut body).await.unwrap().job.id;
    let job = wait_terminal(&e, id).await;
    assert_eq!(job.state, JobState::Completed, "{:?}", job.error);
    let failed: Vec<_> = job.statement_errors.iter().map(|e| e.statement).collect();
    assert_eq!(failed, vec![Some(3), Some(4), Some(5)], "{:?}", job.statement_errors);
    let rows: Vec<i32> = db
        .query("SELECT a FROM u ORDER BY a", &[])
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(rows, vec![9]);
}

/// TLS when the URL asks for it: every connection of the engine (pool,
/// listener, executor) is encrypted; with the server's CA the certificate
/// and host are verified, and a wrong CA is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tls_connections_when_the_url_asks_for_them() {
    let certs = tempfile::tempdir().unwrap();
    let (crt, key) = (certs.path().join("server.crt"), certs.path().join("server.key"));
    let made = std::process::Command::new("openssl")
        .args([
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "2",
            "-subj",
            "/CN=localhost",
        ])
        .args(["-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout"])
        .arg(&key)
        .arg("-out")
        .arg(&crt)
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let admin = cluster::start_cluster_with(
        "-c fsync=off -c ssl=on -c ssl_cert_file=server.crt -c ssl_key_file=server.key",
        |data| {
            std::fs::copy(&crt, data.join("server.crt")).unwrap();
            std::fs::copy(&key, data.join("server.key")).unwrap();
            let owner = if cluster::as_postgres().is_empty() { "" } else { "postgres:" };
            for f in ["server.crt", "server.key"] {
                let p = data.join(f);
                if !owner.is_empty() {
                    assert!(
                        std::process::Command::new("chown")
                            .arg(owner)
                            .arg(&p)
                            .status()
                            .unwrap()
                            .success()
                    );
                }
                assert!(
                    std::process::Command::new("chmod")
                        .arg("600")
                        .arg(&p)
                        .status()
                        .unwrap()
                        .success()
                );
            }
        },
    );
    let url = format!("{}?sslmode=require", cluster::fresh_database_at(&admin).await);
    let e = PgReservoir::open(PgConfig { ca_file: Some(crt.clone()), ..pg_config(&url, true) })
        .await
        .unwrap();
    let id = run(&e, "CREATE TABLE secret(a integer); INSERT INTO secret VALUES (1);").await;
    assert_eq!(wait_terminal(&e, id).await.state, JobState::Completed);
    let plain = cluster::connect(&admin).await;
    let row = plain
        .query_one(
            "SELECT count(*) FILTER (WHERE s.ssl), count(*) FILTER (WHERE NOT s.ssl) \
             FROM pg_stat_activity a JOIN pg_stat_ssl s USING (pid) \
             WHERE a.application_name LIKE 'asadb %'",
            &[],
        )
        .await
        .unwrap();
    let (encrypted, clear): (i64, i64) = (row.get(0), row.get(1));
    assert!(encrypted >= 2, "pool and listener at least: {encrypted}");
    assert_eq!(clear, 0, "no connection of the engine in clear text");
    // Encrypted without verification (no CA given), as libpq's require.
    let e2 = PgReservoir::open(pg_config(&url, false)).await.unwrap();
    assert_eq!(e2.job(id).await.unwrap().state, JobState::Completed);
    // A CA that did not sign the server's certificate is refused.
    let other = tempfile::tempdir().unwrap();
    let (ocrt, okey) = (other.path().join("ca.crt"), other.path().join("ca.key"));
    let made = std::process::Command::new("openssl")
        .args([
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "2",
            "-subj",
            "/CN=other",
            "-keyout",
        ])
        .arg(&okey)
        .arg("-out")
        .arg(&ocrt)
        .output()
        .unwrap();
    assert!(made.status.success());
    let err = PgReservoir::open(PgConfig { ca_file: Some(ocrt), ..pg_config(&url, false) })
        .await
        .unwrap_err();
    assert!(matches!(err, Error::Backend(_) | Error::Internal(_)), "{err:?}");
    // A CA file with sslmode=disable is a contradiction, refused up front.
    let plain_url = url.replace("sslmode=require", "sslmode=disable");
    let err = PgReservoir::open(PgConfig { ca_file: Some(crt), ..pg_config(&plain_url, false) })
        .await
        .unwrap_err();
    assert!(matches!(err, Error::InvalidInput(_)), "{err:?}");
}
