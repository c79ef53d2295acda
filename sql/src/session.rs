//! Sessions: the API the facade and the Reservoir use to run SQL.
//!
//! The life of a statement, from text to rows, is told in the crate's
//! documentation (`sql/src/lib.rs`). The session's own part: outside
//! `BEGIN … COMMIT` every statement runs in its own transaction
//! (autocommit); inside one, every statement runs in a savepoint, so a
//! failing statement leaves no partial effects. `SAVEPOINT`/`RELEASE`/
//! `ROLLBACK TO` map to the store's savepoints.

use std::sync::Arc;

use parking_lot::Mutex;
use sqlparser::ast;

use crate::catalog::Schema;
use crate::exec::dml::{self, DmlResult};
use crate::exec::{Context, ExecState, Operator, build};
use crate::exec::{ddl, fkey, pragma};
use crate::parse::StatementKind;
use crate::planner::{Binder, ParamMap, plan_query};
use crate::storage::{BtreeStore, Interrupt, Interrupted, MemStore, MemTxn, RowStore, Tx};
use crate::value::Value;
use crate::{Error, Result};

/// Statement parameters: `?`, `?N` (positional, from 1) and `:name`,
/// `@name`, `$name` (named; the name may be given with or without its
/// prefix character).
#[derive(Clone, Debug, Default)]
pub enum Params {
    #[default]
    None,
    Positional(Vec<Value>),
    Named(Vec<(String, Value)>),
}

/// The outcome of one statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Rows { columns: Vec<String>, rows: Vec<Vec<Value>> },
    Affected(u64),
    Ok,
}

/// A transaction of some backend.
pub trait Txn: RowStore + Send + Sync {
    /// Commits; true if the transaction changed the database.
    fn commit(self: Box<Self>) -> Result<bool>;
    fn rollback(self: Box<Self>);
}

impl Txn for MemTxn {
    fn commit(self: Box<Self>) -> Result<bool> {
        MemTxn::commit(*self)
    }
    fn rollback(self: Box<Self>) {
        MemTxn::rollback(*self)
    }
}

impl Txn for BtreeStore {
    fn commit(self: Box<Self>) -> Result<bool> {
        BtreeStore::commit(*self)
    }
    fn rollback(self: Box<Self>) {
        BtreeStore::rollback(*self)
    }
}

#[derive(Clone)]
enum Backend {
    Mem(MemStore),
    Db(asadb_txn::Db),
}

/// A database engine: the storage backend and the shared schema cache.
/// Cheap to clone; `Send + Sync`.
#[derive(Clone)]
pub struct Engine {
    backend: Backend,
    schema: Arc<Mutex<Option<Arc<Schema>>>>,
    /// Bytes a sort may hold in memory before spilling to disk.
    budget: Arc<std::sync::atomic::AtomicUsize>,
}

impl Engine {
    /// Sets the memory budget of blocking operators (sorts spill past it).
    pub fn set_memory_budget(&self, bytes: usize) {
        self.budget.store(bytes.max(1), std::sync::atomic::Ordering::Relaxed);
    }

    fn memory_budget(&self) -> usize {
        self.budget.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// An engine over a fresh in-memory store.
    pub fn memory() -> Engine {
        Engine {
            backend: Backend::Mem(MemStore::new()),
            schema: Arc::new(Mutex::new(None)),
            budget: default_budget(),
        }
    }

    /// An engine over a database of pages (file or memory), tables and
    /// indexes in B+trees.
    pub fn with_db(db: asadb_txn::Db) -> Engine {
        Engine {
            backend: Backend::Db(db),
            schema: Arc::new(Mutex::new(None)),
            budget: default_budget(),
        }
    }

    /// Opens (or creates) a database file.
    pub fn open(path: &std::path::Path, opts: asadb_txn::Options) -> Result<Engine> {
        Ok(Engine::with_db(asadb_txn::Db::open(path, opts)?))
    }

    /// Checks the whole database: page checksums and the free list, every
    /// B+tree's invariants, page accounting, and that every index matches
    /// its table (see [`crate::integrity`]).
    pub fn integrity_check(&self) -> Result<crate::integrity::IntegrityReport> {
        match &self.backend {
            Backend::Db(db) => crate::integrity::check(db),
            Backend::Mem(_) => {
                Err(Error::Unsupported("the in-memory row store has no pages to check".into()))
            }
        }
    }

    /// The page database under this engine, if it has one.
    pub fn db(&self) -> Option<&asadb_txn::Db> {
        match &self.backend {
            Backend::Db(db) => Some(db),
            Backend::Mem(_) => None,
        }
    }

    /// The committed schema, read in a read transaction of its own: for
    /// tools that show it (the server's `GET /api/schema`). Nothing is
    /// locked; a DDL statement committed later is not in it.
    pub fn committed_schema(&self) -> Result<Arc<Schema>> {
        let t = self.begin(false)?;
        let schema = self.schema(&*t);
        t.rollback();
        schema
    }

    pub fn session(&self) -> Session {
        Session {
            engine: self.clone(),
            txn: None,
            savepoints: Vec::new(),
            private: None,
            ddl: false,
            source: None,
            range: 0..0,
            interrupt: None,
            settings: pragma::Settings::default(),
            deferred_fk: Vec::new(),
            counters: Default::default(),
            commits_base: self.commit_count(),
            own_commits: 0,
        }
    }

    /// Transactions that changed the database, committed through any
    /// session (or handle of the page database) since it opened.
    fn commit_count(&self) -> u64 {
        match &self.backend {
            Backend::Mem(m) => m.commit_count(),
            Backend::Db(db) => db.commit_count(),
        }
    }

    pub(crate) fn begin(&self, write: bool) -> Result<Box<dyn Txn>> {
        match &self.backend {
            Backend::Mem(m) => Ok(Box::new(m.begin(write)?)),
            Backend::Db(db) => Ok(Box::new(BtreeStore::new(if write {
                Tx::Write(db.begin_write()?)
            } else {
                Tx::Read(db.begin_read()?)
            }))),
        }
    }

    /// The committed schema as seen by `store` (cached by cookie).
    fn schema(&self, store: &dyn RowStore) -> Result<Arc<Schema>> {
        let cookie = store.schema_cookie()?;
        let mut cache = self.schema.lock();
        if let Some(s) = cache.as_ref()
            && s.cookie == cookie
        {
            return Ok(s.clone());
        }
        let s = Arc::new(Schema::load(store)?);
        *cache = Some(s.clone());
        Ok(s)
    }

    fn invalidate(&self) {
        *self.schema.lock() = None;
    }
}

fn default_budget() -> Arc<std::sync::atomic::AtomicUsize> {
    Arc::new(std::sync::atomic::AtomicUsize::new(crate::exec::sort::DEFAULT_BUDGET))
}

/// A parsed statement, ready to run any number of times.
#[derive(Clone, Debug)]
pub struct Prepared {
    stmt: ast::Statement,
    source: Arc<str>,
    /// The statement's bytes in `source`.
    range: std::ops::Range<usize>,
}

impl Prepared {
    /// What kind of statement this is (query, DML, transaction control …).
    pub fn kind(&self) -> StatementKind {
        StatementKind::of(&self.stmt)
    }

    /// The statement's own text.
    pub fn sql(&self) -> &str {
        &self.source[self.range.clone()]
    }
}

/// A connection-like handle: autocommit, or inside an explicit
/// transaction. `Send`.
pub struct Session {
    engine: Engine,
    txn: Option<Box<dyn Txn>>,
    /// Named savepoints, innermost last; the flag marks one that began the
    /// transaction (its RELEASE commits).
    savepoints: Vec<(String, u64, bool)>,
    /// The schema inside a transaction that changed it (never shared).
    private: Option<Arc<Schema>>,
    /// The current transaction changed the schema.
    ddl: bool,
    /// Text of the statement being run (spans point into it).
    source: Option<Arc<str>>,
    /// The statement's own bytes in `source` (a text may hold several).
    range: std::ops::Range<usize>,
    /// Stops this session's statements from another thread.
    interrupt: Option<Interrupt>,
    /// The connection's `PRAGMA` settings.
    settings: pragma::Settings,
    /// Keys of deferred foreign keys the open transaction's statements
    /// may have left without a parent, checked at COMMIT ([`fkey`]).
    deferred_fk: Vec<fkey::Pending>,
    /// `last_insert_rowid()`, `changes()`, `total_changes()`.
    counters: crate::counters::Counters,
    /// The engine's commit count when the session opened, and the commits
    /// this session made since: `PRAGMA data_version` is 1 plus the
    /// commits of everyone else.
    commits_base: u64,
    own_commits: u64,
}

/// A streaming query result.
pub struct Rows<'s> {
    columns: Vec<String>,
    op: Box<dyn Operator>,
    store: StoreRef<'s>,
    params: Vec<Value>,
    cache: ExecState,
    done: bool,
    budget: usize,
    interrupt: Option<Interrupt>,
    /// The session's counters when the query began (what
    /// `changes()` and its kin answer).
    counters: crate::counters::Counters,
}

enum StoreRef<'s> {
    Owned(Box<dyn Txn>),
    Borrowed(&'s (dyn RowStore + Sync)),
    Materialised(std::vec::IntoIter<Vec<Value>>),
}

impl Rows<'_> {
    pub fn columns(&self) -> &[String] {
        &self.columns
    }

    /// The session's counters as of this result: for a statement that ran
    /// to completion to give it (`INSERT … RETURNING`), what it left.
    pub fn counters(&self) -> crate::counters::Counters {
        self.counters
    }
}

impl Rows<'_> {
    /// Runs `f` on the operator tree with this result's context (store,
    /// parameters, interrupt); `None` once the rows are done.
    fn pull<T>(&mut self, f: impl FnOnce(&mut dyn Operator, &Context) -> Result<T>) -> Result<T> {
        let store: &dyn RowStore = match &mut self.store {
            StoreRef::Owned(t) => &**t,
            StoreRef::Borrowed(s) => *s,
            StoreRef::Materialised(_) => unreachable!("materialised rows have no operator"),
        };
        let guard;
        let store = match &self.interrupt {
            Some(i) => {
                i.check()?;
                guard = Interrupted::new(store, i);
                &guard as &dyn RowStore
            }
            None => store,
        };
        let mut cx = Context::new(store, &self.params, &self.cache);
        cx.budget = self.budget;
        let _counters = crate::counters::with_counters(self.counters);
        f(&mut *self.op, &cx)
    }

    /// Steps over up to `n` rows without producing them (a plain scan
    /// skips them without decoding); answers how many there were. For
    /// paging: `skip_rows(offset)` then read the page.
    pub fn skip_rows(&mut self, n: u64) -> Result<u64> {
        if self.done {
            return Ok(0);
        }
        if let StoreRef::Materialised(it) = &mut self.store {
            let k = it.by_ref().take(usize::try_from(n).unwrap_or(usize::MAX)).count();
            return Ok(k as u64);
        }
        let r = self.pull(|op, cx| op.skip(n, cx));
        match &r {
            Ok(k) if *k < n => self.done = true,
            Err(_) => self.done = true,
            Ok(_) => {}
        }
        r
    }
}

impl Iterator for Rows<'_> {
    type Item = Result<Vec<Value>>;
    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        if let StoreRef::Materialised(it) = &mut self.store {
            return it.next().map(Ok);
        }
        match self.pull(|op, cx| op.next(cx)) {
            Ok(Some(r)) => Some(Ok(r)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

fn parse(sql: &str) -> Result<Vec<crate::parse::Parsed>> {
    let stmts = crate::parse::parse_statements(sql)?;
    Ok(stmts
        .into_iter()
        .map(|p| crate::parse::Parsed { stmt: crate::planner::with_into_insert(p.stmt), ..p })
        .collect())
}

/// Values for a statement's parameter slots.
fn resolve_params(map: &ParamMap, params: &Params) -> Result<Vec<Value>> {
    Ok(match params {
        Params::None => vec![Value::Null; map.names.len()],
        Params::Positional(v) => {
            (0..map.names.len()).map(|i| v.get(i).cloned().unwrap_or(Value::Null)).collect()
        }
        Params::Named(named) => map
            .names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let Some(n) = n else {
                    return named.get(i).map(|p| p.1.clone()).unwrap_or(Value::Null);
                };
                let bare = &n[1..];
                named
                    .iter()
                    .find(|(k, _)| k == n || k == bare)
                    .map(|p| p.1.clone())
                    .unwrap_or(Value::Null)
            })
            .collect(),
    })
}

/// A DML statement's outcome, counted in the session's counters (a failed
/// one counts as no change, as in SQLite).
fn counted(r: Result<DmlResult>) -> Result<Outcome> {
    crate::counters::statement_done(r.as_ref().map_or(0, |r| r.affected));
    r.map(dml_outcome)
}

fn dml_outcome(r: DmlResult) -> Outcome {
    match r.returning {
        Some(rows) => Outcome::Rows { columns: r.columns, rows },
        None => Outcome::Affected(r.affected),
    }
}

/// Runs a non-transaction-control statement against a store; `range` is
/// the statement's place in `source`.
#[allow(clippy::too_many_arguments)]
fn run(
    store: &dyn RowStore,
    schema: &Schema,
    stmt: &ast::Statement,
    params: &Params,
    source: Option<&Arc<str>>,
    range: std::ops::Range<usize>,
    budget: usize,
    fk: &fkey::Checks,
) -> Result<Outcome> {
    let _budget = crate::exec::with_budget(budget);
    let text = source.map(|s| ddl::StmtText { source: s, range });
    let text = text.as_ref();
    let resolver = |m: &ParamMap| resolve_params(m, params);
    match stmt {
        ast::Statement::Query(q) if matches!(q.body.as_ref(), ast::SetExpr::Update(_)) => {
            let ast::SetExpr::Update(ast::Statement::Update(u)) = q.body.as_ref() else {
                return Err(Error::Unsupported("WITH … UPDATE of this form".into()));
            };
            if !u.order_by.is_empty() || u.limit.is_some() {
                return Err(Error::Unsupported("UPDATE … ORDER BY / LIMIT".into()));
            }
            counted(dml::update(store, schema, u, q.with.as_ref(), &resolver, fk))
        }
        ast::Statement::Query(q) if matches!(q.body.as_ref(), ast::SetExpr::Delete(_)) => {
            let ast::SetExpr::Delete(ast::Statement::Delete(d)) = q.body.as_ref() else {
                return Err(Error::Unsupported("WITH … DELETE of this form".into()));
            };
            if !d.order_by.is_empty() || d.limit.is_some() {
                return Err(Error::Unsupported("DELETE … ORDER BY / LIMIT".into()));
            }
            counted(dml::delete(store, schema, d, q.with.as_ref(), &resolver, fk))
        }
        ast::Statement::Query(q) if matches!(q.body.as_ref(), ast::SetExpr::Insert(_)) => {
            let ast::SetExpr::Insert(ast::Statement::Insert(ins)) = q.body.as_ref() else {
                return Err(Error::Unsupported("WITH … INSERT of this form".into()));
            };
            // `WITH … INSERT … DEFAULT VALUES` (a source-less INSERT): the
            // CTEs have nowhere to be seen.
            counted(dml::insert(store, schema, ins, &resolver, fk))
        }
        ast::Statement::Query(q) => {
            let (columns, mut op, pv) = plan_select(store, schema, q, params, source)?;
            let cache = ExecState::default();
            let mut cx = Context::new(store, &pv, &cache);
            cx.budget = budget;
            let mut rows = Vec::new();
            while let Some(r) = op.next(&cx)? {
                rows.push(r);
            }
            Ok(Outcome::Rows { columns, rows })
        }
        ast::Statement::Explain { statement, .. } => {
            let ast::Statement::Query(q) = statement.as_ref() else {
                return Err(Error::Unsupported("EXPLAIN of a non-query".into()));
            };
            let mut b = Binder::new(schema, store);
            let plan = plan_query(&mut b, q)?;
            let mut lines = Vec::new();
            plan.node.explain(0, &mut lines);
            Ok(Outcome::Rows {
                columns: vec!["plan".into()],
                rows: lines.into_iter().map(|l| vec![Value::Text(l.into())]).collect(),
            })
        }
        ast::Statement::Insert(ins) => counted(dml::insert(store, schema, ins, &resolver, fk)),
        ast::Statement::Update(u) if !u.order_by.is_empty() || u.limit.is_some() => {
            // As SQLite builds without SQLITE_ENABLE_UPDATE_DELETE_LIMIT.
            Err(Error::Unsupported("UPDATE … ORDER BY / LIMIT".into()))
        }
        ast::Statement::Delete(d) if !d.order_by.is_empty() || d.limit.is_some() => {
            Err(Error::Unsupported("DELETE … ORDER BY / LIMIT".into()))
        }
        ast::Statement::Update(u) => counted(dml::update(store, schema, u, None, &resolver, fk)),
        ast::Statement::Delete(d) => counted(dml::delete(store, schema, d, None, &resolver, fk)),
        ast::Statement::CreateTable(ct) => {
            ddl::create_table(store, schema, ct, text, budget).map(|_| Outcome::Ok)
        }
        ast::Statement::CreateIndex(ci) => {
            ddl::create_index(store, schema, ci, text, budget).map(|_| Outcome::Ok)
        }
        ast::Statement::CreateTrigger(ct) => {
            crate::exec::trigger::create_trigger(store, schema, ct, text).map(|_| Outcome::Ok)
        }
        ast::Statement::DropTrigger(dt) => {
            crate::exec::trigger::drop_trigger(store, schema, dt).map(|_| Outcome::Ok)
        }
        ast::Statement::CreateView(cv) => {
            ddl::create_view(store, schema, cv, text).map(|_| Outcome::Ok)
        }
        ast::Statement::Vacuum(v) if v.reindex => {
            ddl::reindex(store, schema, v.table_name.as_ref(), budget).map(|_| Outcome::Ok)
        }
        ast::Statement::Analyze(a) => {
            crate::exec::analyze::analyze(store, schema, a).map(|_| Outcome::Ok)
        }
        ast::Statement::AlterTable(at) => {
            crate::exec::alter::alter_table(store, schema, at, text).map(|_| Outcome::Ok)
        }
        ast::Statement::Drop { object_type, if_exists, names, .. } => {
            if fk.enabled && *object_type == ast::ObjectType::Table {
                // SQLite: with foreign keys on, DROP TABLE first deletes
                // every row, with the keys' actions and checks.
                for n in names {
                    if let Some(t) = schema.table(&crate::catalog::object_name(n)?) {
                        dml::delete_for_drop(store, schema, t, fk)?;
                    }
                }
                // Checked now, against the schema that still has the
                // table: a key left without its parent fails the drop.
                fk.end_statement(store, schema)?;
            }
            ddl::drop(store, schema, object_type, *if_exists, names).map(|_| Outcome::Ok)
        }
        other => Err(Error::Unsupported(format!("statement {}", first_words(&other.to_string())))),
    }
}

fn first_words(s: &str) -> String {
    s.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
}

type Planned = (Vec<String>, Box<dyn Operator>, Vec<Value>);

fn plan_select(
    store: &dyn RowStore,
    schema: &Schema,
    q: &ast::Query,
    params: &Params,
    source: Option<&Arc<str>>,
) -> Result<Planned> {
    let mut b = Binder::new(schema, store);
    b.source = source.cloned();
    let plan = plan_query(&mut b, q)?;
    let pv = resolve_params(&b.params, params)?;
    Ok((plan.columns, build(&plan.node), pv))
}

impl Session {
    /// Gives this session an [`Interrupt`]: once it is set, the running
    /// statement (and any statement started while it stays set) fails with
    /// [`Error::Interrupted`] within a row, and its effects are undone as
    /// for any failed statement. An open transaction stays open (like
    /// SQLite's `sqlite3_interrupt` inside `BEGIN`); the caller decides
    /// whether to roll it back. `None` removes it.
    pub fn set_interrupt(&mut self, interrupt: Option<Interrupt>) {
        self.interrupt = interrupt;
    }

    /// True inside `BEGIN … COMMIT` (or an outermost SAVEPOINT).
    pub fn in_transaction(&self) -> bool {
        self.txn.is_some()
    }

    /// The session's counters ([`crate::counters`]): what
    /// `last_insert_rowid()`, `changes()` and `total_changes()` answer.
    pub fn counters(&self) -> crate::counters::Counters {
        self.counters
    }

    /// Replaces the session's counters (a front end that runs one logical
    /// connection over several sessions carries them from one to the next).
    pub fn set_counters(&mut self, counters: crate::counters::Counters) {
        self.counters = counters;
    }

    /// Runs every statement of `sql`; returns the last one's outcome.
    pub fn execute(&mut self, sql: &str, params: &Params) -> Result<Outcome> {
        // One `INSERT … VALUES` of plain literals: skip sqlparser (the fast
        // path gives exactly the rows the parser would).
        if matches!(params, Params::None)
            && let Some(iv) = crate::script::parse_insert_fast(sql, false)
        {
            self.source = Some(sql.into());
            return self.insert_values_owned(iv);
        }
        let stmts = parse(sql)?;
        self.source = Some(sql.into());
        let mut last = Outcome::Ok;
        for s in &stmts {
            self.range = s.text.clone();
            last = self.execute_stmt(&s.stmt, params)?;
        }
        Ok(last)
    }

    /// Runs an `INSERT … VALUES` of literals already parsed by the script
    /// fast path (`script::parse_insert_fast`): same effect as the text.
    pub fn insert_values(&mut self, iv: &crate::script::InsertValues) -> Result<Outcome> {
        self.insert_values_owned(iv.clone())
    }

    /// [`Session::insert_values`] taking the rows by value (no copy).
    pub fn insert_values_owned(&mut self, iv: crate::script::InsertValues) -> Result<Outcome> {
        let fk = self.fk_checks();
        let counters = crate::counters::with_counters(self.counters);
        let last_rowid = self.counters.last_insert_rowid;
        let r = self.with_store(true, false, |store, schema| {
            let n = dml::insert_values(store, schema, iv, &fk)?;
            if let Err(e) = fk.end_statement(store, schema) {
                // Failed at its end: it inserted nothing after all.
                crate::counters::inserted(last_rowid);
                return Err(e);
            }
            Ok(Outcome::Affected(n))
        });
        crate::counters::statement_done(match &r {
            Ok(Outcome::Affected(n)) => *n,
            _ => 0,
        });
        self.counters = counters.get();
        self.after_statement(&fk, r.is_ok());
        r
    }

    /// Parses one statement for [`Session::run`] and
    /// [`Session::query_prepared`], any number of times: the text is parsed
    /// once, the statement is planned against the schema of each run (so a
    /// prepared statement stays right after a schema change).
    pub fn prepare(&mut self, sql: &str) -> Result<Prepared> {
        let mut stmts = parse(sql)?;
        if stmts.len() != 1 {
            return Err(Error::InvalidInput(format!(
                "expected one statement, got {}",
                stmts.len()
            )));
        }
        let p = stmts.remove(0);
        Ok(Prepared { stmt: p.stmt, source: sql.into(), range: p.text })
    }

    pub fn run(&mut self, p: &Prepared, params: &Params) -> Result<Outcome> {
        self.source = Some(p.source.clone());
        self.range = p.range.clone();
        self.execute_stmt(&p.stmt, params)
    }

    /// Runs one query and streams its rows.
    pub fn query(&mut self, sql: &str, params: &Params) -> Result<Rows<'_>> {
        let p = self.prepare(sql)?;
        self.query_prepared(&p, params)
    }

    /// [`Session::query`] of a prepared statement (no parsing).
    pub fn query_prepared(&mut self, p: &Prepared, params: &Params) -> Result<Rows<'_>> {
        let stmt = &p.stmt;
        let src = p.source.clone();
        self.source = Some(src.clone());
        self.range = p.range.clone();
        let ast::Statement::Query(q) = stmt else {
            // Anything else runs to completion; its rows (RETURNING,
            // EXPLAIN) are handed out from memory.
            let (columns, rows) = match self.execute_stmt(stmt, params)? {
                Outcome::Rows { columns, rows } => (columns, rows),
                _ => (Vec::new(), Vec::new()),
            };
            return Ok(Rows {
                columns,
                op: build(&crate::planner::Node::Values { rows: Vec::new(), width: 0 }),
                store: StoreRef::Materialised(rows.into_iter()),
                params: Vec::new(),
                cache: ExecState::default(),
                done: false,
                budget: 0,
                interrupt: None,
                counters: self.counters,
            });
        };
        let _settings = self.connection();
        match self.txn.take() {
            Some(t) => {
                let schema = self.schema_in_txn(&*t);
                self.txn = Some(t);
                let schema = schema?;
                let store: &(dyn RowStore + Sync) = &**self.txn.as_ref().expect("just set");
                let (columns, op, params) = plan_select(store, &schema, q, params, Some(&src))?;
                Ok(Rows {
                    columns,
                    op,
                    store: StoreRef::Borrowed(store),
                    params,
                    cache: ExecState::default(),
                    done: false,
                    budget: self.engine.memory_budget(),
                    interrupt: self.interrupt.clone(),
                    counters: self.counters,
                })
            }
            None => {
                let t = self.engine.begin(false)?;
                let schema = self.engine.schema(&*t)?;
                let (columns, op, params) = plan_select(&*t, &schema, q, params, Some(&src))?;
                Ok(Rows {
                    columns,
                    op,
                    store: StoreRef::Owned(t),
                    params,
                    cache: ExecState::default(),
                    done: false,
                    budget: self.engine.memory_budget(),
                    interrupt: self.interrupt.clone(),
                    counters: self.counters,
                })
            }
        }
    }

    fn schema_in_txn(&mut self, store: &dyn RowStore) -> Result<Arc<Schema>> {
        if !self.ddl {
            return self.engine.schema(store);
        }
        let cookie = store.schema_cookie()?;
        if let Some(s) = &self.private
            && s.cookie == cookie
        {
            return Ok(s.clone());
        }
        let s = Arc::new(Schema::load(store)?);
        self.private = Some(s.clone());
        Ok(s)
    }

    fn end_txn(&mut self, commit: bool) -> Result<()> {
        if commit
            && !self.deferred_fk.is_empty()
            && let Some(t) = self.txn.take()
        {
            // Deferred foreign keys: a violation fails the COMMIT and
            // leaves the transaction open (SQLite).
            let r = self
                .schema_in_txn(&*t)
                .and_then(|s| fkey::check_pending(&*t, &s, &self.deferred_fk));
            self.txn = Some(t);
            r?;
        }
        let t = self.txn.take().ok_or_else(|| {
            Error::InvalidInput(if commit {
                "cannot commit - no transaction is active".into()
            } else {
                "cannot rollback - no transaction is active".into()
            })
        })?;
        self.savepoints.clear();
        self.private = None;
        self.deferred_fk.clear();
        self.settings.defer_foreign_keys = false;
        let ddl = std::mem::take(&mut self.ddl);
        let r = if commit {
            self.commit_txn(t)
        } else {
            t.rollback();
            Ok(())
        };
        if ddl {
            self.engine.invalidate();
        }
        r
    }

    /// Commits `t`, counting it as this session's when it changed the
    /// database.
    fn commit_txn(&mut self, t: Box<dyn Txn>) -> Result<()> {
        if t.commit()? {
            self.own_commits += 1;
        }
        Ok(())
    }

    /// Makes the connection's settings (with a fresh `data_version`) what
    /// the statement's pragmas read, until the guard drops.
    fn connection(&mut self) -> impl Drop + use<> {
        let others =
            self.engine.commit_count().saturating_sub(self.commits_base + self.own_commits);
        self.settings.data_version = 1 + others as i64;
        pragma::with_connection(&self.settings, self.engine.db())
    }

    fn execute_stmt(&mut self, stmt: &ast::Statement, params: &Params) -> Result<Outcome> {
        match stmt {
            ast::Statement::StartTransaction { .. } => {
                if self.txn.is_some() {
                    return Err(Error::InvalidInput(
                        "cannot start a transaction within a transaction".into(),
                    ));
                }
                self.txn = Some(self.engine.begin(true)?);
                Ok(Outcome::Ok)
            }
            ast::Statement::Commit { .. } => self.end_txn(true).map(|_| Outcome::Ok),
            ast::Statement::Rollback { savepoint: None, .. } => {
                self.end_txn(false).map(|_| Outcome::Ok)
            }
            ast::Statement::Rollback { savepoint: Some(name), .. } => {
                let pos = self.find_savepoint(&name.value)?;
                let id = self.savepoints[pos].1;
                self.savepoints.truncate(pos + 1);
                let t = self.txn.as_ref().expect("savepoints imply a transaction");
                t.rollback_to(id)?;
                self.private = None;
                Ok(Outcome::Ok)
            }
            ast::Statement::Savepoint { name } => {
                let began = self.txn.is_none();
                if began {
                    self.txn = Some(self.engine.begin(true)?);
                }
                let id = self.txn.as_ref().expect("set above").savepoint()?;
                self.savepoints.push((name.value.clone(), id, began));
                Ok(Outcome::Ok)
            }
            ast::Statement::ReleaseSavepoint { name } => {
                let pos = self.find_savepoint(&name.value)?;
                let (_, id, began) = self.savepoints[pos].clone();
                if began {
                    // A failed COMMIT (deferred foreign keys) keeps the
                    // savepoint and the transaction.
                    self.end_txn(true)?;
                } else {
                    self.savepoints.truncate(pos);
                    self.txn.as_ref().expect("savepoints imply a transaction").release(id)?;
                }
                Ok(Outcome::Ok)
            }
            ast::Statement::Pragma { name, value, is_eq } => {
                let p = pragma::Pragma::from_ast(name, value.as_ref().map(|v| &v.value), *is_eq)?;
                self.pragma(&p)
            }
            ast::Statement::Vacuum(v) if !v.reindex => self.vacuum(v, params),
            _ => self.run_in_txn(stmt, params),
        }
    }

    /// `VACUUM [main] [INTO file]` ([`crate::vacuum`]): outside any
    /// transaction, as SQLite.
    fn vacuum(&mut self, v: &ast::VacuumStatement, params: &Params) -> Result<Outcome> {
        if self.txn.is_some() {
            return Err(Error::InvalidInput("cannot VACUUM from within a transaction".into()));
        }
        if let Some(n) = &v.table_name {
            let s = crate::catalog::object_name(n)?;
            if !s.eq_ignore_ascii_case("main") {
                return Err(Error::InvalidInput(format!("unknown database {s}")));
            }
        }
        let into = match v.threshold.as_ref().map(|t| &t.value) {
            None => None,
            Some(ast::Value::SingleQuotedString(s)) => Some(Value::Text(s.clone().into())),
            Some(ast::Value::Placeholder(p)) => {
                let map = ParamMap { names: vec![(p != "?").then(|| p.clone())] };
                resolve_params(&map, params)?.pop()
            }
            Some(other) => {
                return Err(Error::InvalidInput(format!("VACUUM INTO {other}: not a file name")));
            }
        };
        match (into, &self.engine.backend) {
            (Some(Value::Text(path)), _) => {
                let t = self.engine.begin(false)?;
                let r =
                    crate::vacuum::vacuum_into(&*t, std::path::Path::new(&*path.to_str_lossy()));
                t.rollback();
                r?;
            }
            (Some(Value::Null), _) => {}
            (Some(_), _) => {
                return Err(Error::InvalidInput("VACUUM INTO needs a text file name".into()));
            }
            (None, Backend::Db(db)) => {
                crate::vacuum::vacuum(db)?;
            }
            // No pages to rebuild; the cookie changes as SQLite's does.
            (None, Backend::Mem(_)) => {
                self.with_store(true, true, |store, _| {
                    crate::catalog::bump_cookie(store)?;
                    Ok(Outcome::Ok)
                })?;
            }
        }
        Ok(Outcome::Ok)
    }

    /// Runs a `PRAGMA` ([`pragma`]): settings change this session, the
    /// rest runs in autocommit or in the open transaction.
    fn pragma(&mut self, p: &pragma::Pragma) -> Result<Outcome> {
        let _connection = self.connection();
        let answer = if p.is_integrity_check() {
            self.with_store(false, false, |_, schema| {
                pragma::integrity_target(p, schema)?;
                Ok(Outcome::Ok)
            })?;
            pragma::integrity_answer(self.engine.db(), &p.name)?
        } else if p.name == "foreign_key_check" {
            let mut answer = pragma::Answer::nothing();
            let budget = self.engine.memory_budget();
            self.with_store(false, false, |store, schema| {
                answer = pragma::foreign_key_check_answer(p, store, schema, budget)?;
                Ok(Outcome::Ok)
            })?;
            answer
        } else if p.is_checkpoint() {
            self.checkpoint_answer()?
        } else {
            let mut settings = self.settings.clone();
            let mut answer = pragma::Answer::nothing();
            self.with_store(p.writes(), false, |store, schema| {
                answer = pragma::run(p, &mut settings, store, schema)?;
                Ok(Outcome::Ok)
            })?;
            if self.txn.is_some() {
                // SQLite: foreign_keys cannot change inside a transaction
                // (setting it there is a no-op).
                settings.foreign_keys = self.settings.foreign_keys;
            }
            self.settings = settings;
            answer
        };
        // A pragma that read the schema or the header was, in autocommit,
        // a transaction of its own: its end switches defer_foreign_keys
        // off, as SQLite's does.
        const READS_DATABASE: &[&str] = &[
            "table_info",
            "table_xinfo",
            "table_list",
            "index_list",
            "index_info",
            "index_xinfo",
            "foreign_key_list",
            "foreign_key_check",
            "integrity_check",
            "quick_check",
            "user_version",
            "application_id",
            "schema_version",
            "page_count",
            "freelist_count",
        ];
        if self.txn.is_none() && READS_DATABASE.contains(&p.name.as_str()) {
            self.settings.defer_foreign_keys = false;
        }
        Ok(if answer.columns.is_empty() {
            Outcome::Ok
        } else {
            Outcome::Rows { columns: answer.columns, rows: answer.rows }
        })
    }

    /// `PRAGMA wal_checkpoint`: SQLite's `busy, log, checkpointed`. The
    /// in-memory store has no log (`0, -1, -1`, as SQLite's in-memory
    /// databases answer).
    fn checkpoint_answer(&mut self) -> Result<pragma::Answer> {
        let row = match self.engine.db() {
            None => vec![Value::Integer(0), Value::Integer(-1), Value::Integer(-1)],
            Some(_) if self.txn.is_some() => {
                return Err(Error::InvalidInput(
                    "cannot checkpoint inside a transaction (database table is locked)".into(),
                ));
            }
            Some(db) => {
                let info = db.checkpoint()?;
                vec![
                    Value::Integer(0),
                    Value::Integer(info.log_frames.into()),
                    Value::Integer(info.backfilled.into()),
                ]
            }
        };
        Ok(pragma::Answer {
            columns: vec!["busy".into(), "log".into(), "checkpointed".into()],
            rows: vec![row],
        })
    }

    fn find_savepoint(&self, name: &str) -> Result<usize> {
        self.savepoints
            .iter()
            .rposition(|s| s.0.eq_ignore_ascii_case(name))
            .ok_or_else(|| Error::NotFound(format!("no such savepoint: {name}")))
    }

    fn run_in_txn(&mut self, stmt: &ast::Statement, params: &Params) -> Result<Outcome> {
        let source = self.source.clone();
        let range = self.range.clone();
        let budget = self.engine.memory_budget();
        let kind = StatementKind::of(stmt);
        let _settings = self.connection();
        let fk = self.fk_checks();
        let counters = crate::counters::with_counters(self.counters);
        let last_rowid = self.counters.last_insert_rowid;
        crate::planner::reads_database();
        let r =
            self.with_store(!kind.is_read_only(), kind == StatementKind::Ddl, |store, schema| {
                let o = run(store, schema, stmt, params, source.as_ref(), range, budget, &fk)?;
                if let Err(e) = fk.end_statement(store, schema) {
                    // The statement fails at its end: it changed nothing
                    // (and inserted nothing).
                    crate::counters::statement_undone(last_rowid);
                    return Err(e);
                }
                Ok(o)
            });
        self.counters = counters.get();
        drop(counters);
        // SQLite ends an autocommit statement's transaction (and so
        // switches defer_foreign_keys off) only when the statement read or
        // wrote the database file: `SELECT 1` or a CTE over constants
        // leaves it on, any query naming a table, view or the schema does
        // not (the planner notes which, [`crate::planner::reads_database`]).
        let reads_file =
            !matches!(stmt, ast::Statement::Query(_)) || crate::planner::reads_database();
        if reads_file {
            self.after_statement(&fk, r.is_ok());
        }
        r
    }

    /// The foreign key state of the next statement.
    fn fk_checks(&self) -> fkey::Checks {
        let mut c = fkey::Checks::new(
            self.settings.foreign_keys,
            self.settings.defer_foreign_keys,
            self.txn.is_none(),
        );
        c.recursive_triggers = self.settings.recursive_triggers;
        c
    }

    /// After a statement that read or wrote the database: a successful
    /// one's deferred keys wait for COMMIT; a statement that was its own
    /// transaction ended it, which switches `defer_foreign_keys` off (as
    /// every transaction's end does in SQLite).
    fn after_statement(&mut self, fk: &fkey::Checks, ok: bool) {
        if fk.autocommit {
            self.settings.defer_foreign_keys = false;
        } else if ok {
            self.deferred_fk.extend(fk.take_deferred());
        }
    }

    /// The schema as this session sees it now (inside its transaction,
    /// if one is open): for introspection by shells and dumps.
    pub fn schema(&mut self) -> Result<Arc<Schema>> {
        let mut seen = None;
        self.with_store(false, false, |_, schema| {
            seen = Some(Arc::new(schema.clone()));
            Ok(Outcome::Ok)
        })?;
        Ok(seen.unwrap_or_default())
    }

    /// Runs `f` in autocommit or in a savepoint of the open transaction.
    fn with_store(
        &mut self,
        write: bool,
        ddl: bool,
        f: impl FnOnce(&dyn RowStore, &Schema) -> Result<Outcome>,
    ) -> Result<Outcome> {
        let interrupt = self.interrupt.clone();
        let f = |store: &dyn RowStore, schema: &Schema| match &interrupt {
            Some(i) => f(&Interrupted::new(store, i), schema),
            None => f(store, schema),
        };
        // A panic while the statement runs (a bug) is its error: the
        // statement's effects are undone like any failed statement's, and
        // the open transaction — with the statements before it — is kept.
        let f = |store: &dyn RowStore, schema: &Schema| {
            let _one_bump = crate::catalog::cookie_scope();
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(store, schema)))
                .unwrap_or_else(|panic| Err(Error::Internal(panic_text(&*panic))))
        };
        match self.txn.take() {
            None => {
                let t = self.engine.begin(write)?;
                let r = self.engine.schema(&*t).and_then(|s| f(&*t, &s));
                match r {
                    Ok(o) => {
                        self.commit_txn(t)?;
                        if ddl {
                            self.engine.invalidate();
                        }
                        Ok(o)
                    }
                    // RAISE(FAIL): the statement fails, what it did stays.
                    Err(e @ Error::Raise(crate::RaiseKind::Fail, _)) => {
                        self.commit_txn(t)?;
                        Err(e)
                    }
                    Err(e) => {
                        t.rollback();
                        Err(e)
                    }
                }
            }
            Some(t) => {
                let r = (|| {
                    let schema = self.schema_in_txn(&*t)?;
                    let sp = t.savepoint()?;
                    match f(&*t, &schema) {
                        Ok(o) => {
                            t.release(sp)?;
                            Ok(o)
                        }
                        Err(e @ Error::Raise(crate::RaiseKind::Fail, _)) => {
                            t.release(sp)?;
                            Err(e)
                        }
                        Err(e) => {
                            t.rollback_to(sp)?;
                            t.release(sp)?;
                            Err(e)
                        }
                    }
                })();
                self.txn = Some(t);
                if ddl {
                    self.ddl = true;
                    self.private = None;
                }
                if let Err(Error::Raise(crate::RaiseKind::Rollback, _)) = &r {
                    // RAISE(ROLLBACK): the whole transaction goes.
                    let _ = self.end_txn(false);
                }
                r
            }
        }
    }
}

/// The message a panic carried.
fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}
