//! The async front end: calls run on worker threads and transaction
//! lanes, never on the runtime's thread (these tests use the
//! single-threaded runtime, so a blocking call would stall everything).
//!
//! Pinned here: a long query does not hold up a short one; a caller
//! timeout is a retryable `Timeout` and leaves the database working; a
//! caller that drops its call interrupts the statement; a statement past
//! the statement timeout is a non-retryable `StatementTimeout`; a panic in
//! a call is that call's `Internal` error and the pool goes on; a
//! transaction whose handle is dropped or whose call timed out is rolled
//! back and frees the write lock; waiting writers cannot starve a COMMIT;
//! shutdown lets in-flight work finish, rolls back open transactions and
//! refuses later calls. Timing assertions are only generous bounds.

use std::time::{Duration, Instant};

use asadb::{AsyncDatabase, AsyncOptions, Database, ErrorKind, Options};

/// Rows in `t`; `HEAVY` walks N³ combinations.
const N: u64 = 100;
const HEAVY: &str = "SELECT count(*) FROM t a, t b, t c WHERE a.x + b.x > c.x";
/// Far past any call timeout a test sets, however fast the machine (a
/// four-way join: 50^4 rows once half of `t` is deleted).
const HEAVIER: &str = "SELECT count(*) FROM t a, t b, t c, t d WHERE a.x + b.x > c.x + d.x";
const HEAVY_STREAM: &str = "SELECT a.x, b.x, c.x FROM t a, t b, t c";

fn fill(db: &Database) {
    db.execute("CREATE TABLE t (x INTEGER PRIMARY KEY, y TEXT)", ()).unwrap();
    let values: Vec<String> = (1..=N).map(|i| format!("({i}, 'v{i}')")).collect();
    db.execute(&format!("INSERT INTO t VALUES {}", values.join(",")), ()).unwrap();
}

fn open(async_opts: AsyncOptions) -> AsyncDatabase {
    let opts = Options { busy_timeout: Duration::from_secs(30), ..Options::default() };
    let db = Database::open_in_memory_with(opts).unwrap();
    fill(&db);
    AsyncDatabase::new(db, async_opts).unwrap()
}

async fn count(db: &AsyncDatabase) -> i64 {
    db.query("SELECT count(*) FROM t", ()).await.unwrap().rows[0].get(0).unwrap()
}

/// Waits (bounded) until `f` holds.
async fn eventually(what: &str, f: impl Fn() -> bool) {
    let started = Instant::now();
    while !f() {
        assert!(started.elapsed() < Duration::from_secs(120), "never: {what}");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

#[tokio::test]
async fn crud_and_transactions() {
    let db = open(AsyncOptions::default());
    assert_eq!(db.execute("INSERT INTO t VALUES (?, ?)", (1000, "x")).await.unwrap(), 1);
    let page = db.query("SELECT x, y FROM t WHERE x >= ? ORDER BY x", (N as i64,)).await.unwrap();
    assert_eq!(page.columns.as_ref(), ["x", "y"]);
    assert_eq!(page.rows.len(), 2);
    assert_eq!(page.rows[1].get::<String>(1).unwrap(), "x");
    assert_eq!(page.next_offset, None);

    // N + 1 rows in pages of 60.
    let first = db.query_page("SELECT x FROM t ORDER BY x", (), 0, 60).await.unwrap();
    assert_eq!((first.rows.len(), first.next_offset), (60, Some(60)));
    let second = db.query_page("SELECT x FROM t ORDER BY x", (), 60, 60).await.unwrap();
    assert_eq!((second.rows.len(), second.next_offset), (N as usize + 1 - 60, None));
    assert_eq!(second.rows[0].get::<i64>(0).unwrap(), 61);

    let tx = db.begin().await.unwrap();
    assert_eq!(db.stats().held_transactions, 1);
    tx.execute("DELETE FROM t WHERE x > ?", (50,)).await.unwrap();
    let inside = tx.query("SELECT count(*) FROM t", ()).await.unwrap();
    assert_eq!(inside.rows[0].get::<i64>(0).unwrap(), 50);
    tx.commit().await.unwrap();
    assert_eq!(count(&db).await, 50);
    eventually("the lane ends", || db.stats().lanes == 0).await;
    assert_eq!(db.stats().held_transactions, 0);

    let tx = db.begin().await.unwrap();
    tx.execute("DELETE FROM t", ()).await.unwrap();
    tx.rollback().await.unwrap();
    assert_eq!(count(&db).await, 50);

    let err = db.execute("INSERT INTO t VALUES (1, 'dup')", ()).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Constraint);
}

#[tokio::test]
async fn a_long_query_does_not_block_a_short_one() {
    let db = open(AsyncOptions { workers: 2, ..AsyncOptions::default() });
    let started = Instant::now();
    let long = {
        let db = db.clone();
        tokio::spawn(async move {
            let r = db.query(HEAVY, ()).await;
            (r, started.elapsed())
        })
    };
    // Let the long query reach its worker first.
    eventually("the long query is in flight", || db.stats().in_flight == 1).await;
    tokio::time::sleep(Duration::from_millis(20)).await;
    let short = db.query("SELECT y FROM t WHERE x = 5", ()).await.unwrap();
    let short_at = started.elapsed();
    assert_eq!(short.rows[0].get::<String>(0).unwrap(), "v5");
    let (long, long_at) = long.await.unwrap();
    let n: i64 = long.unwrap().rows[0].get(0).unwrap();
    assert!(n > 0);
    assert!(short_at < long_at, "short at {short_at:?}, long at {long_at:?}");
    eprintln!("short query after {short_at:?}, long query after {long_at:?}");

    let slowest = db.slowest(1);
    assert!(slowest[0].sql.starts_with("SELECT count(*) FROM t a"), "{slowest:?}");
    assert!(slowest[0].duration >= Duration::from_millis(1));
}

#[tokio::test]
async fn a_caller_timeout_is_retryable_and_the_database_keeps_working() {
    let db = open(AsyncOptions { workers: 2, ..AsyncOptions::default() });
    let impatient = db.with_timeout(Duration::from_millis(1));
    let started = Instant::now();
    let err = impatient.query(HEAVY, ()).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Timeout, "{err:?}");
    assert!(err.is_retryable());
    assert!(started.elapsed() < Duration::from_secs(5));
    // The abandoned statement is interrupted; the database answers other
    // calls meanwhile.
    assert_eq!(count(&db).await, N as i64);
    assert_eq!(db.execute("INSERT INTO t VALUES (9999, 'after')", ()).await.unwrap(), 1);
    eventually("the abandoned query finishes", || db.stats().in_flight == 0).await;
}

#[tokio::test]
async fn a_query_past_the_statement_timeout_stops_itself() {
    let db = open(AsyncOptions {
        statement_timeout: Duration::from_millis(50),
        call_timeout: Some(Duration::from_secs(120)),
        ..AsyncOptions::default()
    });
    let started = Instant::now();
    let err = db.query(HEAVY_STREAM, ()).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::StatementTimeout, "{err:?}");
    // It stopped long before producing all N³ rows.
    assert!(started.elapsed() < Duration::from_secs(30), "{:?}", started.elapsed());
    assert_eq!(count(&db).await, N as i64);
}

#[tokio::test]
async fn a_write_or_sort_past_the_statement_timeout_stops_and_is_undone() {
    let db = open(AsyncOptions {
        statement_timeout: Duration::from_millis(200),
        call_timeout: Some(Duration::from_secs(120)),
        ..AsyncOptions::default()
    });
    db.execute("CREATE TABLE u (a, b, c)", ()).await.unwrap();
    // 10^6 rows written, then 10^9 more attempted: the timeout stops it
    // mid-write and the statement leaves nothing.
    let started = Instant::now();
    let err = db
        .execute("INSERT INTO u SELECT a.x, b.x, c.x FROM t a, t b, t c, t d", ())
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::StatementTimeout, "{err:?}");
    assert!(!err.is_retryable(), "the same statement would time out again");
    assert!(started.elapsed() < Duration::from_secs(60), "{:?}", started.elapsed());
    let n: i64 = db.query("SELECT count(*) FROM u", ()).await.unwrap().rows[0].get(0).unwrap();
    assert_eq!(n, 0, "the timed-out INSERT was rolled back");
    // A sort reads all its input before its first row: stopped too.
    let err =
        db.query("SELECT a.x FROM t a, t b, t c, t d ORDER BY a.y, b.y", ()).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::StatementTimeout, "{err:?}");
    // Inside a transaction: the statement is undone, the transaction goes on.
    let tx = db.begin().await.unwrap();
    tx.execute("INSERT INTO u VALUES (1, 2, 3)", ()).await.unwrap();
    let err = tx.execute("UPDATE u SET a = (SELECT count(*) FROM t a, t b, t c, t d)", ()).await;
    assert_eq!(err.unwrap_err().kind(), ErrorKind::StatementTimeout);
    tx.commit().await.unwrap();
    let rows = db.query("SELECT a, b, c FROM u", ()).await.unwrap().rows;
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].get::<i64>(0).unwrap(), 1, "the UPDATE left no trace");
}

#[tokio::test]
async fn a_dropped_transaction_is_rolled_back_and_frees_the_lock() {
    let db = open(AsyncOptions::default());
    let tx = db.begin().await.unwrap();
    tx.execute("DELETE FROM t WHERE x <= 50", ()).await.unwrap();
    assert_eq!(db.stats().held_transactions, 1);
    drop(tx);
    // A new writer gets the lock (well within the 30 s busy timeout).
    let started = Instant::now();
    let tx = db.begin().await.unwrap();
    assert!(started.elapsed() < Duration::from_secs(10));
    let n: i64 = tx.query("SELECT count(*) FROM t", ()).await.unwrap().rows[0].get(0).unwrap();
    assert_eq!(n, N as i64, "the dropped transaction's delete was rolled back");
    tx.commit().await.unwrap();
    eventually("no transaction is held", || db.stats().held_transactions == 0).await;
    eventually("no lane is left", || db.stats().lanes == 0).await;
}

#[tokio::test]
async fn a_transaction_whose_call_timed_out_is_rolled_back() {
    let db = open(AsyncOptions::default());
    let tx = db.with_timeout(Duration::from_millis(20)).begin().await.unwrap();
    tx.execute("DELETE FROM t WHERE x <= 50", ()).await.unwrap();
    let err = tx.query(HEAVIER, ()).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Timeout);
    // The handle is dead from now on.
    let err = tx.execute("DELETE FROM t", ()).await.unwrap_err();
    assert!(matches!(err, asadb::Error::Aborted(_)), "{err:?}");
    assert!(err.is_retryable());
    // Once the heavy statement ends, its lane rolls back and frees the lock.
    let tx2 = db.begin().await.unwrap();
    let n: i64 = tx2.query("SELECT count(*) FROM t", ()).await.unwrap().rows[0].get(0).unwrap();
    assert_eq!(n, N as i64);
    tx2.rollback().await.unwrap();
    drop(tx);
    eventually("no transaction is held", || db.stats().held_transactions == 0).await;
}

#[tokio::test]
async fn waiting_writers_cannot_starve_a_commit() {
    // One worker, kept busy by a heavy query: transactions use their own
    // lanes, so neither the pool nor the queue of waiting writers stands
    // between the lock holder and its COMMIT.
    let db = open(AsyncOptions { workers: 1, ..AsyncOptions::default() });
    let holder = db.begin().await.unwrap();
    holder.execute("INSERT INTO t VALUES (1001, 'holder')", ()).await.unwrap();
    let hog = {
        let db = db.clone();
        tokio::spawn(async move { db.query(HEAVY, ()).await.map(|_| ()) })
    };
    let mut waiters = Vec::new();
    for i in 0..6 {
        let db = db.clone();
        waiters.push(tokio::spawn(async move {
            let tx = db.begin().await?;
            tx.execute("INSERT INTO t VALUES (?, 'waiter')", (2000 + i,)).await?;
            tx.commit().await
        }));
    }
    eventually("the waiters are on their lanes", || db.stats().lanes == 7).await;
    let started = Instant::now();
    holder.commit().await.unwrap();
    assert!(started.elapsed() < Duration::from_secs(5), "commit took {:?}", started.elapsed());
    for w in waiters {
        w.await.unwrap().unwrap();
    }
    hog.await.unwrap().unwrap();
    assert_eq!(count(&db).await, N as i64 + 7);
}

#[tokio::test]
async fn shutdown_drains_in_flight_work_and_rolls_back_open_transactions() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("drain.db");
    let opts = Options { busy_timeout: Duration::from_secs(30), ..Options::default() };
    {
        let sync = Database::open_with(&path, opts.clone()).unwrap();
        fill(&sync);
        let db = AsyncDatabase::new(sync, AsyncOptions::default()).unwrap();
        let open_tx = db.begin().await.unwrap();
        open_tx.execute("DELETE FROM t", ()).await.unwrap();
        let long = {
            let db = db.clone();
            tokio::spawn(async move { db.query(HEAVY, ()).await })
        };
        eventually("the long query is in flight", || db.stats().in_flight == 1).await;
        db.shutdown().await.unwrap();
        // The in-flight call ran to its end and delivered its result.
        let n: i64 = long.await.unwrap().unwrap().rows[0].get(0).unwrap();
        assert!(n > 0);
        let stats = db.stats();
        assert!(stats.closed);
        assert_eq!((stats.in_flight, stats.held_transactions, stats.lanes), (0, 0, 0));
        assert_eq!(db.query("SELECT 1", ()).await.unwrap_err().kind(), ErrorKind::Closed);
        assert_eq!(db.execute("DELETE FROM t", ()).await.unwrap_err().kind(), ErrorKind::Closed);
        assert_eq!(db.begin().await.err().unwrap().kind(), ErrorKind::Closed);
        let err = open_tx.execute("DELETE FROM t", ()).await.unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::Timeout | ErrorKind::Closed), "{err:?}");
        assert_eq!(db.database().execute("SELECT 1", ()).unwrap_err().kind(), ErrorKind::Closed);
    }
    // The open transaction's DELETE was rolled back, not committed.
    let db = Database::open_with(&path, opts).unwrap();
    let n: i64 =
        db.query("SELECT count(*) FROM t", ()).unwrap().next().unwrap().unwrap().get(0).unwrap();
    assert_eq!(n, N as i64);
}

#[tokio::test]
async fn read_pages_refuse_writes() {
    let db = open(AsyncOptions::default());
    let page = db.read_page("SELECT x FROM t ORDER BY x", (), 10, 5).await.unwrap();
    assert_eq!(page.rows[0].get::<i64>(0).unwrap(), 11);
    assert_eq!(page.next_offset, Some(15));
    for write in ["DELETE FROM t", "INSERT INTO t VALUES (5000, 'x') RETURNING x", "DROP TABLE t"] {
        let err = db.read_page(write, (), 0, 10).await.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidInput, "{write}");
    }
    assert_eq!(count(&db).await, N as i64, "nothing was written");
}

#[tokio::test]
async fn a_dropped_call_interrupts_its_statement() {
    let db = open(AsyncOptions { workers: 1, ..AsyncOptions::default() });
    // An endless stream, abandoned by its caller after a moment.
    let endless = "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) \
                   SELECT count(*) FROM c";
    let call = db.query(endless, ());
    let _ = tokio::time::timeout(Duration::from_millis(100), call).await;
    // The one worker is free again long before the statement timeout.
    let started = Instant::now();
    assert_eq!(count(&db).await, N as i64);
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
    eventually("the abandoned query is gone", || db.stats().in_flight == 0).await;
}

#[tokio::test]
async fn a_panic_in_a_call_is_an_internal_error_and_the_pool_goes_on() {
    let db = open(AsyncOptions { workers: 1, ..AsyncOptions::default() });
    let err = db
        .read_rows("SELECT x FROM t", (), |_rows| -> asadb::Result<()> { panic!("boom in a call") })
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Internal, "{err:?}");
    assert!(err.to_string().contains("boom in a call"), "{err}");
    assert!(!err.is_retryable());
    assert_eq!(count(&db).await, N as i64, "the worker came back with a fresh session");
    let n =
        db.read_rows("SELECT x FROM t WHERE x <= 10", (), |rows| Ok(rows.count())).await.unwrap();
    assert_eq!(n, 10);
    let err = db.read_rows("DELETE FROM t", (), |_| Ok(())).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidInput, "read_rows is read-only");
}
