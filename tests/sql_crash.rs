//! Crash at every sync point of a SQL workload, through the SQL layer.
//!
//! Scenario: on a `CrashWorld` (the pager's crash IO double) a seeded
//! workload of SQL transactions runs through `Engine::with_db`: CREATE
//! TABLE and CREATE INDEX, then transactions that INSERT several rows
//! (some long enough for overflow pages), UPDATE and DELETE by
//! predicates, explicit ROLLBACKs, and single autocommit statements; a
//! small buffer pool makes large transactions spill, and a low checkpoint
//! threshold makes the log checkpoint several times. A model (a map of
//! rows) records the table after every commit. A dry run counts the
//! syncs; then for every sync n the workload is rerun with a crash armed at
//! sync n, and the crashed world is recovered with three seeds (unsynced
//! writes dropped, applied or torn) and reopened with
//! `Engine::with_db(Db::open_io(...))`.
//!
//! Invariant (synchronous = Full): reopening succeeds, the transaction
//! layer's integrity check and the SQL layer's tree check (every tree in
//! the catalog well formed, every page accounted for) pass, and the table
//! holds exactly the rows of one committed prefix of the workload: every
//! commit that returned Ok, plus possibly the one in flight at the crash,
//! never a part of a transaction and never a rolled-back row. The
//! recovered database then takes a new commit and keeps it.

use std::collections::BTreeMap;
use std::sync::Arc;

use asadb_pager::{CrashWorld, Io};
use asadb_sql::Value;
use asadb_sql::catalog::Schema;
use asadb_sql::session::{Engine, Params, Session};
use asadb_sql::storage::{BtreeStore, Tx};
use asadb_txn::{Db, Options, Synchronous};

const SEEDS: u64 = 4;
const TXNS: u64 = 60;

/// The table's rows: id → (v, n).
type Rows = BTreeMap<i64, (String, i64)>;

/// `None` before the table exists.
type Model = Option<Rows>;

fn opts() -> Options {
    Options {
        pool_frames: 16,
        synchronous: Synchronous::Full,
        checkpoint_frames: 24,
        ..Options::default()
    }
}

fn open(world: &CrashWorld) -> asadb_txn::Result<Engine> {
    let main: Arc<dyn Io> = world.file("main");
    let wal: Arc<dyn Io> = world.file("main-wal");
    Ok(Engine::with_db(Db::open_io(main, wal, opts())?))
}

/// Deterministic text of the row `id` written by transaction `t`; every
/// seventh is long (a few pages, so it lives in overflow pages).
fn text(id: i64, t: u64) -> String {
    if id % 7 == 0 { format!("long {id}/{t} ").repeat(400) } else { format!("v{id}/{t}") }
}

/// What a committed step does to the model.
type Apply = Box<dyn Fn(&mut Rows)>;

/// One step of the workload: its SQL statements, and what it does to the
/// model if it commits (`None`: it rolls back).
struct Step {
    sql: Vec<String>,
    apply: Option<Apply>,
}

fn workload() -> Vec<Step> {
    let mut steps = vec![
        Step {
            sql: vec!["CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT NOT NULL, n INTEGER)".into()],
            apply: Some(Box::new(|_| {})),
        },
        Step { sql: vec!["CREATE INDEX t_n ON t(n)".into()], apply: Some(Box::new(|_| {})) },
    ];
    let mut next_id = 1i64;
    for t in 0..TXNS {
        match t % 6 {
            // Inserts several rows, then rolls back.
            3 => {
                let rows: Vec<String> = (0..5)
                    .map(|k| format!("({}, '{}', {k})", 10_000 + t as i64 * 10 + k, text(k, t)))
                    .collect();
                steps.push(Step {
                    sql: vec![
                        "BEGIN".into(),
                        format!("INSERT INTO t VALUES {}", rows.join(",")),
                        "UPDATE t SET n = n + 100".into(),
                        "DELETE FROM t WHERE id % 2 = 0".into(),
                        "ROLLBACK".into(),
                    ],
                    apply: None,
                });
            }
            // Updates and deletes by predicate in one transaction.
            4 => {
                let m = 2 + (t % 5) as i64;
                steps.push(Step {
                    sql: vec![
                        "BEGIN".into(),
                        format!("UPDATE t SET n = n + 1, v = v || '+' WHERE id % {m} = 1"),
                        format!("DELETE FROM t WHERE id % 9 = {}", t % 9),
                        "COMMIT".into(),
                    ],
                    apply: Some(Box::new(move |rows| {
                        for (id, (v, n)) in rows.iter_mut() {
                            if id % m == 1 {
                                *n += 1;
                                v.push('+');
                            }
                        }
                        rows.retain(|id, _| id % 9 != (t % 9) as i64);
                    })),
                });
            }
            // One autocommit statement.
            5 => {
                let id = next_id;
                next_id += 1;
                let v = text(id, t);
                steps.push(Step {
                    sql: vec![format!("INSERT INTO t VALUES ({id}, '{v}', {t})")],
                    apply: Some(Box::new(move |rows| {
                        rows.insert(id, (v.clone(), t as i64));
                    })),
                });
            }
            // A transaction of several inserts (every fourth a big one that
            // spills the pool).
            _ => {
                let count = if t % 4 == 0 { 40 } else { 3 + (t % 5) as i64 };
                let ids: Vec<i64> = (next_id..next_id + count).collect();
                next_id += count;
                let rows: Vec<(i64, String, i64)> =
                    ids.iter().map(|&id| (id, text(id, t), id % 13)).collect();
                let mut sql = vec!["BEGIN".to_string()];
                for chunk in rows.chunks(4) {
                    let values: Vec<String> =
                        chunk.iter().map(|(id, v, n)| format!("({id}, '{v}', {n})")).collect();
                    sql.push(format!("INSERT INTO t VALUES {}", values.join(",")));
                }
                sql.push("COMMIT".into());
                steps.push(Step {
                    sql,
                    apply: Some(Box::new(move |m| {
                        for (id, v, n) in &rows {
                            m.insert(*id, (v.clone(), *n));
                        }
                    })),
                });
            }
        }
    }
    steps
}

/// What a (possibly crashed) run did.
struct Outcome {
    /// The model after each commit; `models[k]` holds after `k` commits.
    models: Vec<Model>,
    /// Commits that returned Ok.
    committed: usize,
    /// A commit was under way when the run failed (its effect may or may
    /// not have reached the disk).
    in_flight: bool,
    error: Option<String>,
}

fn run(s: &mut Session, steps: &[Step]) -> Outcome {
    let mut models: Vec<Model> = vec![None];
    let mut committed = 0;
    for step in steps {
        for sql in &step.sql {
            if let Err(e) = s.execute(sql, &Params::None) {
                // A failure of the last statement (COMMIT or the
                // autocommit statement) may have committed.
                let last = std::ptr::eq(sql, step.sql.last().expect("steps have statements"));
                let in_flight = last && step.apply.is_some();
                if in_flight {
                    let mut m = models[committed].clone().unwrap_or_default();
                    (step.apply.as_ref().expect("checked"))(&mut m);
                    models.push(Some(m));
                }
                return Outcome { models, committed, in_flight, error: Some(e.to_string()) };
            }
        }
        if let Some(apply) = &step.apply {
            let mut m = models[committed].clone().unwrap_or_default();
            apply(&mut m);
            models.push(Some(m));
            committed += 1;
        }
    }
    Outcome { models, committed, in_flight: false, error: None }
}

/// The whole-database check (pages, trees, page accounting, indexes
/// against tables) must pass; returns the names of the tables.
fn sql_tree_check(db: &Db) -> Vec<String> {
    let report = Engine::with_db(db.clone()).integrity_check().unwrap();
    assert!(report.is_ok(), "integrity check: {:?}", report.problems);
    let store = BtreeStore::new(Tx::Read(db.begin_read().unwrap()));
    Schema::load(&store).unwrap().tables.values().map(|t| t.name.clone()).collect()
}

/// What the recovered database holds.
fn read(engine: &Engine) -> Model {
    let tables = sql_tree_check(engine.db().expect("file engine"));
    if tables.is_empty() {
        return None;
    }
    assert_eq!(tables, ["t"]);
    let mut s = engine.session();
    let mut rows = Rows::new();
    for r in s.query("SELECT id, v, n FROM t ORDER BY id", &Params::None).unwrap() {
        match r.unwrap().as_slice() {
            [Value::Integer(id), Value::Text(v), Value::Integer(n)] => {
                assert!(
                    rows.insert(*id, (v.to_str_lossy().into_owned(), *n)).is_none(),
                    "id {id} twice"
                );
            }
            other => panic!("unexpected row {other:?}"),
        }
    }
    // The index agrees with the table.
    let by_index: i64 = (0..13)
        .map(|n| {
            let r = s
                .query(
                    "SELECT count(*) FROM t WHERE n = ?",
                    &Params::Positional(vec![Value::Integer(n)]),
                )
                .unwrap()
                .next()
                .unwrap()
                .unwrap();
            match r.as_slice() {
                [Value::Integer(c)] => *c,
                other => panic!("count {other:?}"),
            }
        })
        .sum();
    let in_table = rows.values().filter(|(_, n)| (0..13).contains(n)).count() as i64;
    assert_eq!(by_index, in_table, "index and table disagree");
    Some(rows)
}

/// Checks the recovered database against the run; returns the number of
/// commits it holds.
fn verify(engine: &Engine, out: &Outcome, what: &str) -> usize {
    let got = read(engine);
    let hi = out.committed + usize::from(out.in_flight);
    (out.committed..=hi).rev().find(|&k| out.models[k] == got).unwrap_or_else(|| {
        let near: Vec<usize> = (0..out.models.len()).filter(|&k| out.models[k] == got).collect();
        panic!(
            "{what}: the database is not the state after {} (or {hi}) commits; \
             it matches commit counts {near:?} (error: {:?})",
            out.committed, out.error
        )
    })
}

#[test]
fn sql_crash_at_every_sync() {
    let steps = workload();
    let dry = CrashWorld::new();
    let engine = open(&dry).unwrap();
    let full = run(&mut engine.session(), &steps);
    assert!(full.error.is_none(), "dry run failed: {:?}", full.error);
    assert_eq!(verify(&engine, &full, "dry run"), full.committed);
    let checkpoints = engine.db().unwrap().stats().checkpoints;
    assert!(checkpoints >= 2, "only {checkpoints} checkpoints in the workload");
    drop(engine);
    let syncs = dry.syncs();
    assert!(syncs > 20, "only {syncs} syncs");

    let mut checked = 0u64;
    for n in 1..=syncs {
        let world = CrashWorld::new();
        world.crash_at_sync(n);
        let out = match open(&world) {
            Ok(engine) => run(&mut engine.session(), &steps),
            Err(e) => Outcome {
                models: vec![None],
                committed: 0,
                in_flight: false,
                error: Some(e.to_string()),
            },
        };
        // The engine is dropped by now: the last syncs may be its close.
        assert!(world.is_crashed(), "sync {n} was never reached");
        for seed in 0..SEEDS {
            let what = format!("sync {n} seed {seed}");
            let recovered = world.recover(seed * 7919 + n);
            let engine = open(&recovered).unwrap_or_else(|e| panic!("{what}: reopen: {e}"));
            let k = verify(&engine, &out, &what);
            // The recovered database takes a new commit and keeps it.
            let mut s = engine.session();
            s.execute(
                "CREATE TABLE IF NOT EXISTS t(id INTEGER PRIMARY KEY, v TEXT NOT NULL, n INTEGER)",
                &Params::None,
            )
            .unwrap();
            s.execute("INSERT INTO t VALUES (999999, 'after', 1)", &Params::None).unwrap();
            drop(s);
            drop(engine);
            let engine = open(&recovered.recover_durable()).unwrap();
            let mut expect = out.models[k].clone().unwrap_or_default();
            expect.insert(999_999, ("after".into(), 1));
            assert_eq!(read(&engine), Some(expect), "{what}: commit after recovery");
            checked += 1;
        }
    }
    println!("sql crash points checked: {checked} ({syncs} syncs x {SEEDS} seeds)");
}
