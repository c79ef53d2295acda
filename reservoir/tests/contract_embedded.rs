//! The contract suite (`tests/contract/`) against the embedded engine: a
//! [`Reservoir`] in a temporary directory over a file database, behind
//! [`Embedded`].
//!
//! A process death is simulated by dropping every handle without shutdown
//! (the event log and spool stay as they were), or — for a kill mid-batch,
//! where the worker thread cannot be stopped from outside — by running the
//! victim in a child process (this binary re-executed on the ignored
//! `victim_child` entry) and SIGKILLing it.

mod contract;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;

use asadb_reservoir::contract::ReservoirEngine;
use asadb_reservoir::eventlog::{EventLog, Record};
use asadb_reservoir::{Config, Embedded, ImportFormat, JobId, JobState, PROGRESS_TABLE, Reservoir};
use asadb_sql::Value;
use asadb_sql::session::{Engine, Outcome, Params};
use async_trait::async_trait;

const CHILD_ENV: &str = "ASADB_CONTRACT_VICTIM_DIR";

struct EmbeddedHarness {
    dir: tempfile::TempDir,
    /// The database the worker uses (it is locked while open: the
    /// harness reads through the same handle).
    db: Option<Engine>,
}

impl EmbeddedHarness {
    fn new() -> Self {
        EmbeddedHarness { dir: tempfile::tempdir().unwrap(), db: None }
    }

    fn reservoir_dir(&self) -> PathBuf {
        self.dir.path().join(".asa.reservoir")
    }

    fn engine(&mut self) -> Engine {
        self.db.get_or_insert_with(|| open_engine(self.dir.path())).clone()
    }

    fn open(&mut self, cfg: Config, worker: bool) -> Arc<dyn ReservoirEngine> {
        let res = Reservoir::open(&self.reservoir_dir(), cfg).unwrap();
        if worker {
            res.start_worker(self.engine()).unwrap();
        }
        Embedded::new(res).into_engine()
    }
}

fn open_engine(dir: &Path) -> Engine {
    Engine::open(&dir.join("db.asa"), asadb_txn::Options::default()).unwrap()
}

fn rows(engine: &Engine, sql: &str) -> asadb_sql::Result<Vec<Vec<Value>>> {
    match engine.session().execute(sql, &Params::None)? {
        Outcome::Rows { rows, .. } => Ok(rows),
        o => panic!("{sql}: not rows: {o:?}"),
    }
}

#[async_trait]
impl contract::Harness for EmbeddedHarness {
    fn unavailable_formats(&self) -> &'static [ImportFormat] {
        &[]
    }

    async fn fresh(&mut self, cfg: Config, worker: bool) -> Arc<dyn ReservoirEngine> {
        self.db = None;
        self.dir = tempfile::tempdir().unwrap();
        self.open(cfg, worker)
    }

    async fn crash(&mut self, engine: Arc<dyn ReservoirEngine>) {
        drop(engine);
    }

    async fn reopen(&mut self, cfg: Config, worker: bool) -> Arc<dyn ReservoirEngine> {
        self.open(cfg, worker)
    }

    async fn force_state(&mut self, id: JobId, state: JobState) {
        let (mut log, replay) = EventLog::open(&self.reservoir_dir().join("events.log")).unwrap();
        let mut job = replay.jobs[&id].clone();
        job.state = state;
        log.append(&Record::Job(Box::new(job)), true).unwrap();
    }

    async fn ints(&mut self, sql: &str) -> Vec<i64> {
        let rows = rows(&self.engine(), sql).unwrap();
        assert_eq!(rows.len(), 1, "{sql}");
        rows[0]
            .iter()
            .map(|v| match v {
                Value::Integer(n) => *n,
                other => panic!("{sql}: not an integer: {other:?}"),
            })
            .collect()
    }

    async fn table_exists(&mut self, name: &str) -> bool {
        match rows(&self.engine(), &format!("SELECT count(*) FROM {name}")) {
            Ok(_) => true,
            Err(e) if e.to_string().contains("no such table") => false,
            Err(e) => panic!("{e}"),
        }
    }

    async fn spool(&mut self, id: JobId) -> Option<Vec<u8>> {
        std::fs::read(self.reservoir_dir().join("spool").join(format!("{id}.body"))).ok()
    }

    async fn spool_count(&mut self) -> usize {
        std::fs::read_dir(self.reservoir_dir().join("spool")).unwrap().count()
    }

    async fn marker(&mut self, id: JobId) -> Option<i64> {
        let sql = format!("SELECT statement FROM {PROGRESS_TABLE} WHERE job_id = {id}");
        let rows = rows(&self.engine(), &sql).ok()?;
        match rows.first()?.first()? {
            Value::Integer(n) => Some(*n),
            _ => None,
        }
    }

    async fn kill_mid_batch(
        &mut self,
        cfg: Config,
        script: String,
        kill_after: u64,
    ) -> (Arc<dyn ReservoirEngine>, JobId, u64) {
        self.db = None;
        self.dir = tempfile::tempdir().unwrap();
        std::fs::write(self.dir.path().join("script.sql"), &script).unwrap();
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "victim_child", "--ignored", "--nocapture", "--test-threads=1"])
            .env(CHILD_ENV, self.dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let (id, done, committed) = contract::kill_when_mid_batch(&mut child, kill_after);
        println!("killed at {done} statements done, {committed} committed");
        (self.open(cfg, true), id, committed)
    }
}

/// The victim process of `kill_mid_batch`; does nothing unless the parent
/// set `ASADB_CONTRACT_VICTIM_DIR`.
#[test]
#[ignore = "child process of killed_mid_batch_then_resume_applies_each_statement_once"]
fn victim_child() {
    let Some(dir) = std::env::var_os(CHILD_ENV) else { return };
    let dir = PathBuf::from(dir);
    let script = std::fs::read_to_string(dir.join("script.sql")).unwrap();
    let res = Reservoir::open(&dir.join(".asa.reservoir"), Config::default()).unwrap();
    res.start_worker(open_engine(&dir)).unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(contract::victim(Embedded::new(res).into_engine(), script));
}

all_contract_cases!(EmbeddedHarness::new());
