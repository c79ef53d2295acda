//! The contract suite (`reservoir/tests/contract/`) against the PostgreSQL
//! engine: each test gets a new database on a real PostgreSQL server
//! (`support/cluster.rs`), the engine's schema in it, scripts running in
//! its `public` schema.
//!
//! A process death is simulated in-process: dropping a [`PgReservoir`]
//! without `shutdown` aborts its tasks at once — the executor's connection
//! goes away mid-batch (PostgreSQL rolls the batch back), the heartbeat
//! stops, nothing is cleaned up — exactly what a SIGKILL leaves behind.
//! The next engine on the database (a "new process") recovers the dead
//! one's jobs when its lease (1 s here) has expired.

#[path = "support/cluster.rs"]
mod cluster;
#[path = "../../reservoir/tests/contract/mod.rs"]
mod contract;

use std::sync::Arc;
use std::time::{Duration, Instant};

use asadb_reservoir::contract::ReservoirEngine;
use asadb_reservoir::{Config, ImportFormat, JobId, JobState};
use asadb_reservoir_pg::{PgConfig, PgReservoir};
use async_trait::async_trait;

pub fn pg_config(url: &str, reservoir: Config, worker: bool) -> PgConfig {
    PgConfig {
        pool_size: 4,
        lease: Duration::from_secs(1),
        poll_interval: Duration::from_millis(200),
        worker,
        reservoir,
        ..PgConfig::new(url)
    }
}

struct PgHarness {
    url: String,
    db: Option<tokio_postgres::Client>,
    /// The owner id of the engine opened last.
    owner: String,
}

impl PgHarness {
    fn new() -> Self {
        PgHarness { url: String::new(), db: None, owner: String::new() }
    }

    async fn db(&mut self) -> &tokio_postgres::Client {
        if self.db.is_none() {
            self.db = Some(cluster::connect(&self.url).await);
        }
        self.db.as_ref().expect("connected above")
    }

    async fn open(&mut self, cfg: Config, worker: bool) -> Arc<dyn ReservoirEngine> {
        let engine = PgReservoir::open(pg_config(&self.url, cfg, worker)).await.unwrap();
        self.owner = engine.owner().to_string();
        engine.into_engine()
    }
}

#[async_trait]
impl contract::Harness for PgHarness {
    fn unavailable_formats(&self) -> &'static [ImportFormat] {
        &[ImportFormat::Mysql, ImportFormat::Postgresql, ImportFormat::Csv, ImportFormat::Xlsx]
    }

    async fn fresh(&mut self, cfg: Config, worker: bool) -> Arc<dyn ReservoirEngine> {
        self.url = cluster::fresh_database().await;
        self.db = None;
        self.open(cfg, worker).await
    }

    async fn crash(&mut self, engine: Arc<dyn ReservoirEngine>) {
        assert_eq!(Arc::strong_count(&engine), 1, "the caller holds no other handle");
        drop(engine);
    }

    async fn reopen(&mut self, cfg: Config, worker: bool) -> Arc<dyn ReservoirEngine> {
        let engine = self.open(cfg, worker).await;
        // The dead process's jobs are recovered once its lease expires.
        let owner = self.owner.clone();
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let row = self
                .db()
                .await
                .query_one(
                    "SELECT count(*) FROM asadb.jobs WHERE state IN \
                     ('receiving', 'processing', 'cancelling') AND owner IS DISTINCT FROM $1",
                    &[&owner],
                )
                .await
                .unwrap();
            if row.get::<_, i64>(0) == 0 {
                break;
            }
            assert!(Instant::now() < deadline, "a dead process's jobs were never recovered");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        engine
    }

    async fn force_state(&mut self, id: JobId, state: JobState) {
        let n = self
            .db()
            .await
            .execute(
                "UPDATE asadb.jobs SET state = $2, owner = 'a-process-that-died' WHERE id = $1",
                &[&(id.0 as i64), &state.as_str()],
            )
            .await
            .unwrap();
        assert_eq!(n, 1);
    }

    async fn ints(&mut self, sql: &str) -> Vec<i64> {
        let rows = self.db().await.query(sql, &[]).await.unwrap();
        assert_eq!(rows.len(), 1, "{sql}");
        (0..rows[0].len())
            .map(|i| match rows[0].get::<_, asadb_reservoir_pg::Cell>(i).0 {
                asadb_sql::Value::Integer(n) => n,
                other => panic!("{sql}: not an integer: {other:?}"),
            })
            .collect()
    }

    async fn table_exists(&mut self, name: &str) -> bool {
        let row = self
            .db()
            .await
            .query_one("SELECT to_regclass($1) IS NOT NULL", &[&format!("public.{name}")])
            .await
            .unwrap();
        row.get(0)
    }

    async fn spool(&mut self, id: JobId) -> Option<Vec<u8>> {
        let rows = self
            .db()
            .await
            .query("SELECT data FROM asadb.spool WHERE job_id = $1 ORDER BY seq", &[&(id.0 as i64)])
            .await
            .unwrap();
        if rows.is_empty() {
            return None;
        }
        Some(rows.iter().flat_map(|r| r.get::<_, Vec<u8>>(0)).collect())
    }

    async fn spool_count(&mut self) -> usize {
        let row = self
            .db()
            .await
            .query_one("SELECT count(DISTINCT job_id) FROM asadb.spool", &[])
            .await
            .unwrap();
        row.get::<_, i64>(0) as usize
    }

    async fn marker(&mut self, id: JobId) -> Option<i64> {
        let row = self
            .db()
            .await
            .query_opt("SELECT statement FROM asadb.progress WHERE job_id = $1", &[&(id.0 as i64)])
            .await
            .unwrap()?;
        Some(row.get(0))
    }

    async fn kill_mid_batch(
        &mut self,
        cfg: Config,
        script: String,
        kill_after: u64,
    ) -> (Arc<dyn ReservoirEngine>, JobId, u64) {
        let victim = self.fresh(cfg.clone(), true).await;
        let mut body = script.as_bytes();
        let id = asadb_reservoir::contract::submit(
            &*victim,
            asadb_reservoir::SubmitOptions::default(),
            &mut body,
        )
        .await
        .unwrap()
        .job
        .id;
        let deadline = Instant::now() + Duration::from_secs(120);
        let committed = loop {
            let p = victim.job(id).await.unwrap().progress;
            let (done, committed) = (p.statements_done, p.statements_committed);
            if done >= kill_after && (100..=900).contains(&(done - committed)) {
                break committed;
            }
            assert!(Instant::now() < deadline, "never reached the kill point: {p:?}");
            tokio::time::sleep(Duration::from_micros(200)).await;
        };
        drop(victim);
        (self.reopen(cfg, true).await, id, committed)
    }
}

all_contract_cases!(PgHarness::new());
