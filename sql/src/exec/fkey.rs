//! Foreign keys, enforced as SQLite enforces them when
//! `PRAGMA foreign_keys = ON` (off by default, per session).
//!
//! The rules (SQLite's `foreignkeys.html`):
//! - **child side**: a row written to a child table (INSERT, or an UPDATE
//!   whose SET list names a child key column) whose key has no NULL must
//!   have a parent row with that key. The parent is looked up with the
//!   parent column's affinity and collation (`p.a = ?`).
//! - **parent side**: when a parent row goes (DELETE, the row a REPLACE
//!   removes) or its key changes (UPDATE), the child rows holding the old
//!   key get the constraint's action: `CASCADE` deletes them (ON DELETE)
//!   or gives them the new key (ON UPDATE), `SET NULL` / `SET DEFAULT`
//!   update their key columns, `RESTRICT` fails at once, `NO ACTION` (the
//!   default) leaves them and they are checked like a child row.
//!   Actions run as nested statements ([`dml`](super::dml)) with their
//!   own constraints, and cascade further; deeper than
//!   [`MAX_DEPTH`] fails as SQLite's trigger depth limit does.
//! - **when**: an immediate constraint is checked at the end of the
//!   statement (so a statement may pass through a violation, as
//!   `INSERT … SELECT` of rows that refer to each other does); a
//!   `DEFERRABLE INITIALLY DEFERRED` one, or every one under
//!   `PRAGMA defer_foreign_keys = ON`, at COMMIT, which then fails and
//!   leaves the transaction open. Failure is SQLite's
//!   `FOREIGN KEY constraint failed`.
//!
//! How violations are counted (decision): SQLite keeps a counter that
//! each write raises or lowers; AsaDB remembers the keys a statement may
//! have left without a parent ([`Pending`]: a child row written whose
//! parent was missing, or a parent key removed while children held it)
//! and at the check asks the store whether a child row with that key
//! still lacks its parent. The answers agree wherever SQLite's counter is
//! exact; rows that were orphans before foreign keys were switched on are
//! not reported unless a statement touches their key (as in SQLite).
//!
//! Schema errors are reported when a statement would use the key, as
//! SQLite's "DML errors": writing a child row of a missing parent table
//! fails with `no such table: main.<parent>`, and a key whose parent
//! columns are no PRIMARY KEY or UNIQUE key fails with `foreign key
//! mismatch - "child" referencing "parent"` (also for DELETE and UPDATE
//! of the parent).

use std::cell::{Cell, RefCell};
use std::sync::Arc;

use sqlparser::ast;

use super::{Context, ExecState, build};
use crate::catalog::{FkAction, ForeignKey, Schema, TableDef};
use crate::planner::{Binder, QueryPlan, plan_query};
use crate::storage::RowStore;
use crate::value::{Collation, Value};
use crate::{Error, Result};

/// Nested foreign key actions deeper than this fail as SQLite's trigger
/// depth limit does ("triggers nested too deep", SQLite 3.54: a
/// self-referencing ON DELETE CASCADE chain of 1,000 rows deletes, one of
/// 1,001 fails).
pub const MAX_DEPTH: usize = 999;

/// SQLite's error for a violated foreign key.
pub fn violation() -> Error {
    Error::Constraint("FOREIGN KEY constraint failed".into())
}

/// A key that may have been left without a parent: the child table, the
/// foreign key's position in its `foreign_keys`, and the key's values.
#[derive(Clone, Debug, PartialEq)]
pub struct Pending {
    pub child: String,
    pub fk: usize,
    pub key: Vec<Value>,
}

/// One statement's foreign key state — whether they are enforced, and the
/// keys to check at its end (immediate) or at COMMIT (deferred) — and its
/// nesting: the depth of actions and triggers, the triggers running.
#[derive(Debug, Default)]
pub struct Checks {
    pub enabled: bool,
    /// `PRAGMA defer_foreign_keys = ON`: every key is checked at COMMIT.
    pub defer_all: bool,
    /// The statement is its own transaction: deferred keys are checked
    /// at its end too.
    pub autocommit: bool,
    /// `PRAGMA recursive_triggers`: a running trigger may fire again.
    pub recursive_triggers: bool,
    running: RefCell<Vec<String>>,
    immediate: RefCell<Vec<Pending>>,
    deferred: RefCell<Vec<Pending>>,
    depth: Cell<usize>,
}

impl Checks {
    /// Foreign keys off: nothing is checked.
    pub fn off() -> Checks {
        Checks::default()
    }

    pub fn new(enabled: bool, defer_all: bool, autocommit: bool) -> Checks {
        Checks { enabled, defer_all, autocommit, ..Checks::default() }
    }

    /// Notes that trigger `name` starts; `false` (and nothing noted) when
    /// it is running already and triggers are not recursive.
    pub(crate) fn enter_trigger(&self, name: &str) -> bool {
        let mut r = self.running.borrow_mut();
        if !self.recursive_triggers && r.iter().any(|n| n.eq_ignore_ascii_case(name)) {
            return false;
        }
        r.push(name.to_string());
        true
    }

    pub(crate) fn leave_trigger(&self) {
        self.running.borrow_mut().pop();
    }

    fn pend(&self, p: Pending, deferred: bool) {
        if deferred || self.defer_all {
            self.deferred.borrow_mut().push(p);
        } else {
            self.immediate.borrow_mut().push(p);
        }
    }

    /// Runs `f` one action level deeper.
    pub(crate) fn nested<T>(&self, f: impl FnOnce() -> Result<T>) -> Result<T> {
        let d = self.depth.get();
        if d >= MAX_DEPTH {
            return Err(Error::InvalidInput("triggers nested too deep".into()));
        }
        self.depth.set(d + 1);
        let r = stacker::maybe_grow(256 << 10, 4 << 20, f);
        self.depth.set(d);
        r
    }

    /// The end of a statement: its immediate keys must have their parents
    /// (and, in autocommit, its deferred keys too).
    pub fn end_statement(&self, store: &dyn RowStore, schema: &Schema) -> Result<()> {
        let imm = std::mem::take(&mut *self.immediate.borrow_mut());
        check_pending(store, schema, &imm)?;
        if self.autocommit {
            let def = std::mem::take(&mut *self.deferred.borrow_mut());
            check_pending(store, schema, &def)?;
        }
        Ok(())
    }

    /// The deferred keys of a statement that succeeded, for the
    /// transaction to check at COMMIT.
    pub fn take_deferred(&self) -> Vec<Pending> {
        std::mem::take(&mut *self.deferred.borrow_mut())
    }
}

/// Fails with SQLite's error if some pending key has a child row without
/// a parent.
pub fn check_pending(store: &dyn RowStore, schema: &Schema, pending: &[Pending]) -> Result<()> {
    let mut plans: Vec<((&str, usize), Option<QueryPlan>)> = Vec::new();
    for p in pending {
        let at = match plans.iter().position(|(k, _)| *k == (p.child.as_str(), p.fk)) {
            Some(i) => i,
            None => {
                let plan = orphan_probe(store, schema, &p.child, p.fk)?;
                plans.push(((p.child.as_str(), p.fk), plan));
                plans.len() - 1
            }
        };
        let Some(plan) = &plans[at].1 else { continue };
        if any_row(store, plan, &p.key)? {
            return Err(violation());
        }
    }
    Ok(())
}

/// `SELECT 1 FROM child WHERE key = ?… AND no parent … LIMIT 1` for one
/// foreign key; `None` if the child table or key is gone (dropped since).
fn orphan_probe(
    store: &dyn RowStore,
    schema: &Schema,
    child: &str,
    fk: usize,
) -> Result<Option<QueryPlan>> {
    let Some(t) = schema.table(child) else { return Ok(None) };
    let Some(f) = t.foreign_keys.get(fk) else { return Ok(None) };
    let keyed: Vec<String> = f
        .columns
        .iter()
        .enumerate()
        .map(|(i, &c)| format!("c.{} = ?{}", quote(&t.columns[c].name), i + 1))
        .collect();
    let mut sql = format!("SELECT 1 FROM {} AS c WHERE {}", quote(&t.name), keyed.join(" AND "));
    if let Some(parent) = schema.table(&f.parent) {
        let pcols = parent_columns(t, f, parent, schema)?;
        let eq: Vec<String> = pcols
            .iter()
            .zip(&f.columns)
            .map(|(&pc, &cc)| {
                format!("p.{} = c.{}", quote(&parent.columns[pc].name), quote(&t.columns[cc].name))
            })
            .collect();
        sql.push_str(&format!(
            " AND NOT EXISTS (SELECT 1 FROM {} AS p WHERE {})",
            quote(&parent.name),
            eq.join(" AND ")
        ));
    }
    sql.push_str(" LIMIT 1");
    plan_text(store, schema, &sql).map(Some)
}

fn plan_text(store: &dyn RowStore, schema: &Schema, sql: &str) -> Result<QueryPlan> {
    let ast::Statement::Query(q) = crate::parse::parse_one(sql)? else {
        return Err(Error::Corrupt(format!("foreign key probe is no query: {sql}")));
    };
    let mut b = Binder::new(schema, store);
    plan_query(&mut b, &q)
}

/// True if `plan` with parameters `key` yields a row.
fn any_row(store: &dyn RowStore, plan: &QueryPlan, key: &[Value]) -> Result<bool> {
    let cache = ExecState::default();
    let cx = Context::new(store, key, &cache);
    let mut op = build(&plan.node);
    Ok(op.next(&cx)?.is_some())
}

/// `"name"`, quoted for SQL text.
pub fn quote(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// The parent columns a foreign key refers to: as written, else the
/// parent's PRIMARY KEY; they must be its PRIMARY KEY or a UNIQUE key
/// (else SQLite's "foreign key mismatch").
pub fn parent_columns(
    child: &TableDef,
    fk: &ForeignKey,
    parent: &TableDef,
    schema: &Schema,
) -> Result<Vec<usize>> {
    let mismatch = || {
        Error::InvalidInput(format!(
            "foreign key mismatch - \"{}\" referencing \"{}\"",
            child.name, parent.name
        ))
    };
    let cols: Vec<usize> = if fk.parent_columns.is_empty() {
        if parent.primary_key.len() != fk.columns.len() {
            return Err(mismatch());
        }
        parent.primary_key.clone()
    } else {
        fk.parent_columns
            .iter()
            .map(|c| parent.column_index(c).ok_or_else(mismatch))
            .collect::<Result<_>>()?
    };
    let is_pk = {
        let mut a = cols.clone();
        let mut b = parent.primary_key.clone();
        a.sort_unstable();
        b.sort_unstable();
        a == b
    };
    let is_unique = schema.indexes.values().any(|ix| {
        ix.table.eq_ignore_ascii_case(&parent.name)
            && ix.unique
            && ix.predicate.is_none()
            && !ix.has_exprs()
            && ix.columns.len() == cols.len()
            && cols.iter().all(|c| ix.columns.contains(c))
    });
    if !is_pk && !is_unique {
        return Err(mismatch());
    }
    Ok(cols)
}

/// What a statement does to a table, for which keys it must watch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Write<'a> {
    /// `replace`: OR REPLACE, which may delete rows.
    Insert {
        replace: bool,
    },
    /// The columns named in the SET list.
    Update(&'a [usize]),
    Delete,
    /// The implicit `DELETE` of a `DROP TABLE`: schema errors of the
    /// table's keys are ignored, as SQLite ignores them there.
    Drop,
}

/// A foreign key of the written table, as a child.
struct ChildKey {
    fk: usize,
    columns: Vec<usize>,
    deferred: bool,
    /// `SELECT 1 FROM parent WHERE pk = ?… LIMIT 1`.
    lookup: QueryPlan,
}

/// A foreign key of another table (or this one) whose parent is the
/// written table.
struct ParentKey {
    child: Arc<TableDef>,
    fk: usize,
    /// The parent (written table's) key columns.
    columns: Vec<usize>,
    on_delete: FkAction,
    on_update: FkAction,
    deferred: bool,
    /// `SELECT 1 FROM child WHERE fk = ?… LIMIT 1`.
    probe: QueryPlan,
    /// Its actions' statements, parsed once: the WHERE names the old key
    /// as `?1…?n`, a cascaded new key is `?n+1…?2n`.
    delete_action: Option<ast::Statement>,
    update_action: Option<ast::Statement>,
}

/// The foreign keys one statement's writes to one table must keep.
pub struct TableKeys<'a> {
    checks: &'a Checks,
    schema: &'a Schema,
    child: Vec<ChildKey>,
    parent: Vec<ParentKey>,
}

impl<'a> TableKeys<'a> {
    /// The keys `write` touches on `t`; `None` when foreign keys are off
    /// or none applies. Fails with SQLite's DML errors (missing parent
    /// table, mismatched parent key).
    pub fn new(
        checks: &'a Checks,
        store: &dyn RowStore,
        schema: &'a Schema,
        t: &TableDef,
        write: Write,
    ) -> Result<Option<TableKeys<'a>>> {
        if !checks.enabled {
            return Ok(None);
        }
        let mut child = Vec::new();
        for (i, fk) in t.foreign_keys.iter().enumerate() {
            if let Write::Update(set) = write
                && !fk.columns.iter().any(|c| set.contains(c))
            {
                continue;
            }
            if write == Write::Drop {
                continue;
            }
            let Some(parent) = schema.table(&fk.parent) else {
                return Err(Error::NotFound(format!("no such table: main.{}", fk.parent)));
            };
            let pcols = parent_columns(t, fk, parent, schema)?;
            if write == Write::Delete {
                // Deleting a child row leaves no key without a parent.
                continue;
            }
            let eq: Vec<String> = pcols
                .iter()
                .enumerate()
                .map(|(k, &pc)| format!("{} = ?{}", quote(&parent.columns[pc].name), k + 1))
                .collect();
            let sql =
                format!("SELECT 1 FROM {} WHERE {} LIMIT 1", quote(&parent.name), eq.join(" AND "));
            child.push(ChildKey {
                fk: i,
                columns: fk.columns.clone(),
                deferred: fk.deferred,
                lookup: plan_text(store, schema, &sql)?,
            });
        }
        let mut parent = Vec::new();
        // Inserting a parent row only resolves keys, unless REPLACE
        // deletes rows on the way.
        if write != (Write::Insert { replace: false }) {
            for ct in schema.tables.values() {
                for (i, fk) in ct.foreign_keys.iter().enumerate() {
                    if !fk.parent.eq_ignore_ascii_case(&t.name) {
                        continue;
                    }
                    let columns = match parent_columns(ct, fk, t, schema) {
                        Err(_) if write == Write::Drop => continue,
                        c => c?,
                    };
                    if let Write::Update(set) = write
                        && !columns.iter().any(|c| set.contains(c))
                    {
                        continue;
                    }
                    parent.push(ParentKey::new(store, schema, ct, i, fk, t, columns)?);
                }
            }
        }
        if child.is_empty() && parent.is_empty() {
            return Ok(None);
        }
        Ok(Some(TableKeys { checks, schema, child, parent }))
    }

    /// A row was written (inserted, or updated with a child key column in
    /// its SET list): its keys with no NULL must find their parents.
    pub fn wrote(&self, store: &dyn RowStore, local: &[Value], name: &str) -> Result<()> {
        for ck in &self.child {
            let key: Vec<Value> = ck.columns.iter().map(|&c| local[c].clone()).collect();
            if key.iter().any(|v| matches!(v, Value::Null)) {
                continue;
            }
            if !any_row(store, &ck.lookup, &key)? {
                self.checks.pend(Pending { child: name.into(), fk: ck.fk, key }, ck.deferred);
            }
        }
        Ok(())
    }

    /// True if the table is a parent of some key this statement watches.
    pub fn is_parent(&self) -> bool {
        !self.parent.is_empty()
    }

    /// A parent row (`old`, a table row) went; `new` is the row that
    /// replaces it (UPDATE), `None` for a DELETE. Runs the actions of the
    /// keys whose values changed.
    pub fn parent_changed(
        &self,
        store: &dyn RowStore,
        old: &[Value],
        new: Option<&[Value]>,
    ) -> Result<()> {
        for pk in &self.parent {
            let key: Vec<Value> = pk.columns.iter().map(|&c| old[c].clone()).collect();
            if key.iter().any(|v| matches!(v, Value::Null)) {
                continue;
            }
            let new_key: Option<Vec<Value>> =
                new.map(|n| pk.columns.iter().map(|&c| n[c].clone()).collect());
            if let Some(nk) = &new_key
                && same_key(nk, &key)
            {
                continue;
            }
            if !any_row(store, &pk.probe, &key)? {
                continue;
            }
            let action = if new.is_some() { pk.on_update } else { pk.on_delete };
            let stmt = if new.is_some() { &pk.update_action } else { &pk.delete_action };
            match action {
                FkAction::Restrict => return Err(violation()),
                FkAction::NoAction => self
                    .checks
                    .pend(Pending { child: pk.child.name.clone(), fk: pk.fk, key }, pk.deferred),
                FkAction::Cascade | FkAction::SetNull | FkAction::SetDefault => {
                    let Some(stmt) = stmt else {
                        return Err(Error::Corrupt("foreign key action without statement".into()));
                    };
                    let mut params = key;
                    if let Some(nk) = new_key {
                        params.extend(nk);
                    }
                    self.run_action(store, stmt, params)?;
                }
            }
        }
        Ok(())
    }

    fn run_action(
        &self,
        store: &dyn RowStore,
        stmt: &ast::Statement,
        params: Vec<Value>,
    ) -> Result<()> {
        let resolver = |m: &crate::planner::ParamMap| {
            Ok((0..m.names.len()).map(|i| params.get(i).cloned().unwrap_or(Value::Null)).collect())
        };
        let (schema, checks) = (self.schema, self.checks);
        // An action counts as a trigger program's statement does.
        let saved = crate::counters::save();
        let r = checks.nested(|| match stmt {
            ast::Statement::Delete(d) => {
                super::dml::delete(store, schema, d, None, &resolver, checks)
            }
            ast::Statement::Update(u) => {
                super::dml::update(store, schema, u, None, &resolver, checks)
            }
            _ => Err(Error::Corrupt("foreign key action is no DELETE or UPDATE".into())),
        });
        if let Ok(done) = &r {
            crate::counters::statement_done(done.affected);
        }
        crate::counters::restore(saved);
        r.map(|_| ())
    }
}

/// Keys equal as SQLite's "changed" test sees them (same storage class
/// and value; NULLs equal).
fn same_key(a: &[Value], b: &[Value]) -> bool {
    a.iter().zip(b).all(|(x, y)| match (x, y) {
        (Value::Integer(i), Value::Integer(j)) => i == j,
        (Value::Real(f), Value::Real(g)) => f.to_bits() == g.to_bits() || f == g,
        (Value::Text(s), Value::Text(t)) => s == t,
        (Value::Blob(s), Value::Blob(t)) => s == t,
        (Value::Null, Value::Null) => true,
        _ => false,
    })
}

impl ParentKey {
    fn new(
        store: &dyn RowStore,
        schema: &Schema,
        child: &Arc<TableDef>,
        fk_index: usize,
        fk: &ForeignKey,
        parent: &TableDef,
        columns: Vec<usize>,
    ) -> Result<ParentKey> {
        let n = fk.columns.len();
        // The child's key compared with the parent's value, in the
        // parent column's collation.
        let cond: Vec<String> = fk
            .columns
            .iter()
            .zip(&columns)
            .enumerate()
            .map(|(k, (&cc, &pc))| {
                let coll = parent.columns[pc].collation;
                let coll = if coll == Collation::Binary {
                    String::new()
                } else {
                    format!(" COLLATE {}", coll.name())
                };
                format!("{} = ?{}{coll}", quote(&child.columns[cc].name), k + 1)
            })
            .collect();
        let cond = cond.join(" AND ");
        let table = quote(&child.name);
        let probe =
            plan_text(store, schema, &format!("SELECT 1 FROM {table} WHERE {cond} LIMIT 1"))?;
        let sets = |what: &dyn Fn(usize, usize) -> String| -> String {
            fk.columns
                .iter()
                .enumerate()
                .map(|(k, &cc)| format!("{} = {}", quote(&child.columns[cc].name), what(k, cc)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let default_of = |_: usize, cc: usize| match &child.columns[cc].default_text {
            Some(d) => format!("({d})"),
            None => "NULL".into(),
        };
        let action = |a: FkAction, update: bool| -> Result<Option<ast::Statement>> {
            let sql = match a {
                FkAction::Cascade if update => {
                    format!(
                        "UPDATE {table} SET {} WHERE {cond}",
                        sets(&|k, _| format!("?{}", n + k + 1))
                    )
                }
                FkAction::Cascade => format!("DELETE FROM {table} WHERE {cond}"),
                FkAction::SetNull => {
                    format!("UPDATE {table} SET {} WHERE {cond}", sets(&|_, _| "NULL".into()))
                }
                FkAction::SetDefault => {
                    format!("UPDATE {table} SET {} WHERE {cond}", sets(&default_of))
                }
                FkAction::NoAction | FkAction::Restrict => return Ok(None),
            };
            crate::parse::parse_one(&sql).map(Some)
        };
        Ok(ParentKey {
            child: child.clone(),
            fk: fk_index,
            columns,
            on_delete: fk.on_delete,
            on_update: fk.on_update,
            deferred: fk.deferred,
            probe,
            delete_action: action(fk.on_delete, false)?,
            update_action: action(fk.on_update, true)?,
        })
    }
}
