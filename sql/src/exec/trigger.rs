//! Triggers, as SQLite runs them: `CREATE TRIGGER [IF NOT EXISTS] name
//! BEFORE|AFTER INSERT|UPDATE [OF cols]|DELETE ON table [FOR EACH ROW]
//! [WHEN expr] BEGIN stmt; … END`, stored in `sqlite_schema` with the text
//! as written and dropped with their table (`DROP TRIGGER` otherwise).
//!
//! For each row a statement changes, the table's BEFORE triggers run, then
//! the change, then its AFTER triggers, newest trigger first (as SQLite). A trigger whose
//! WHEN is not true does nothing. Its program — INSERT, UPDATE, DELETE and
//! SELECT statements — runs as nested statements in which `NEW.c` and
//! `OLD.c` are the row's values (see [`crate::planner::bind::TriggerRow`]);
//! their own writes fire triggers and foreign key actions in turn.
//!
//! `RAISE(IGNORE)` ends the program and skips the row's change (from a
//! BEFORE trigger) — the statement goes on; `RAISE(ABORT, msg)` fails the
//! statement and undoes it; `RAISE(FAIL, msg)` fails it keeping what it
//! had done; `RAISE(ROLLBACK, msg)` fails it and rolls the transaction
//! back (the session does the last two, [`crate::Error::Raise`]).
//!
//! Recursion, as SQLite: with `PRAGMA recursive_triggers` off (the
//! default) a trigger does not fire while it is already running; with it
//! on, nesting is bounded by the same depth limit as foreign key actions.
//!
//! INSTEAD OF triggers make a view writable: an INSERT, UPDATE or DELETE
//! on the view runs them once per row (the rows the view's query gives,
//! filtered by the WHERE; NEW the inserted or updated values) and changes
//! nothing else; without one the view stays read-only.
//!
//! Refused with `unsupported`: TEMP triggers (AsaDB has no
//! connection-private schema).

use std::sync::Arc;

use sqlparser::ast;

use crate::counters;

use super::ddl::StmtText;
use super::fkey::Checks;
use super::{Context, ExecState, build, vals};
use crate::catalog::{
    self, ColumnDef, Schema, TableDef, TriggerDef, TriggerEvent, TriggerTiming, ViewDef,
    object_name,
};
use crate::error::RaiseKind;
use crate::planner::bind::{Scope, TriggerRow, with_trigger_row};
use crate::planner::{Binder, plan_query};
use crate::storage::RowStore;
use crate::value::Value;
use crate::{Error, Result};

/// `CREATE TRIGGER`.
pub fn create_trigger(
    store: &dyn RowStore,
    schema: &Schema,
    ct: &ast::CreateTrigger,
    src: Option<&StmtText>,
) -> Result<()> {
    let name = object_name(&ct.name)?;
    if schema.trigger(&name).is_some() {
        if crate::parse::trigger_if_not_exists(ct) {
            return Ok(());
        }
        return Err(Error::InvalidInput(format!("trigger {name} already exists")));
    }
    if ct.temporary {
        return Err(Error::Unsupported(
            "TEMP triggers (AsaDB has no connection-private schema)".into(),
        ));
    }
    let sql = ct_text(src, ct);
    let def = catalog::trigger_from_ast(ct, sql.clone())?;
    let table = def.table.clone();
    if catalog::is_schema_table(&table)
        || table.len() >= 7 && table[..7].eq_ignore_ascii_case("sqlite_")
    {
        return Err(Error::InvalidInput("cannot create trigger on system table".into()));
    }
    let on_view = schema.view(&table).is_some();
    let Some(tbl_name) = schema
        .table(&table)
        .map(|t| t.name.clone())
        .or_else(|| schema.view(&table).map(|v| v.name.clone()))
    else {
        return Err(Error::NotFound(format!("no such table: main.{table}")));
    };
    match (def.timing, on_view) {
        (TriggerTiming::InsteadOf, false) => {
            return Err(Error::InvalidInput(format!(
                "cannot create INSTEAD OF trigger on table: {table}"
            )));
        }
        (TriggerTiming::InsteadOf, true) => {}
        (t, true) => {
            let when = if t == TriggerTiming::Before { "BEFORE" } else { "AFTER" };
            return Err(Error::InvalidInput(format!(
                "cannot create {when} trigger on view: {table}"
            )));
        }
        (_, false) => {}
    }
    for s in &def.body {
        if !matches!(
            s,
            ast::Statement::Insert(_)
                | ast::Statement::Update(_)
                | ast::Statement::Delete(_)
                | ast::Statement::Query(_)
        ) {
            return Err(Error::Parse(format!(
                "a trigger program holds INSERT, UPDATE, DELETE and SELECT statements, not: {}",
                s.to_string().split_whitespace().take(2).collect::<Vec<_>>().join(" ")
            )));
        }
    }
    catalog::add_entry(store, "trigger", &name, &tbl_name, 0, Some(&sql))
}

/// The text SQLite stores: `CREATE TRIGGER ` and the statement from the
/// trigger's name on.
fn ct_text(src: Option<&StmtText>, ct: &ast::CreateTrigger) -> String {
    if let Some(s) = src.and_then(|s| s.stored("TRIGGER", &ct.name))
        && crate::parse::parse_one(&s)
            .is_ok_and(|st| matches!(st, ast::Statement::CreateTrigger(_)))
    {
        return s;
    }
    ct.to_string()
}

/// `DROP TRIGGER [IF EXISTS] name`.
pub fn drop_trigger(store: &dyn RowStore, schema: &Schema, dt: &ast::DropTrigger) -> Result<()> {
    let name = object_name(&dt.trigger_name)?;
    if dt.table_name.is_some() || dt.option.is_some() {
        return Err(Error::Parse("near \"ON\": syntax error".into()));
    }
    let Some(tr) = schema.trigger(&name) else {
        if dt.if_exists {
            return Ok(());
        }
        return Err(Error::NotFound(format!("no such trigger: {name}")));
    };
    catalog::remove_entries(store, std::slice::from_ref(&tr.name))
}

/// What a statement does to each row, for which triggers fire.
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    Insert,
    /// The columns named in the SET list.
    Update(&'a [usize]),
    Delete,
}

/// The triggers one statement fires on one table.
pub struct TableTriggers {
    table: Arc<TableDef>,
    before: Vec<Arc<TriggerDef>>,
    after: Vec<Arc<TriggerDef>>,
    instead: Vec<Arc<TriggerDef>>,
}

impl TableTriggers {
    /// `None` when no trigger of `t` fires for `event`.
    pub fn new(schema: &Schema, t: &Arc<TableDef>, event: Event) -> Option<TableTriggers> {
        let mut before = Vec::new();
        let mut after = Vec::new();
        let mut instead = Vec::new();
        // SQLite fires a table's triggers newest first.
        for tr in schema.table_triggers(&t.name).into_iter().rev() {
            let fires = match (&tr.event, event) {
                (TriggerEvent::Insert, Event::Insert) | (TriggerEvent::Delete, Event::Delete) => {
                    true
                }
                (TriggerEvent::Update(of), Event::Update(set)) => {
                    of.is_empty()
                        || of.iter().any(|c| t.column_index(c).is_some_and(|i| set.contains(&i)))
                }
                _ => false,
            };
            if fires {
                match tr.timing {
                    TriggerTiming::Before => before.push(tr),
                    TriggerTiming::After => after.push(tr),
                    TriggerTiming::InsteadOf => instead.push(tr),
                }
            }
        }
        if before.is_empty() && after.is_empty() && instead.is_empty() {
            return None;
        }
        Some(TableTriggers { table: t.clone(), before, after, instead })
    }

    /// Runs the BEFORE triggers for one row; `Ok(false)`: `RAISE(IGNORE)`
    /// skips the row.
    pub fn before(
        &self,
        store: &dyn RowStore,
        schema: &Schema,
        checks: &Checks,
        old: Option<&[Value]>,
        new: Option<&[Value]>,
    ) -> Result<bool> {
        self.run(&self.before, store, schema, checks, old, new)
    }

    /// Runs the AFTER triggers for one row.
    pub fn after(
        &self,
        store: &dyn RowStore,
        schema: &Schema,
        checks: &Checks,
        old: Option<&[Value]>,
        new: Option<&[Value]>,
    ) -> Result<()> {
        self.run(&self.after, store, schema, checks, old, new).map(|_| ())
    }

    /// Runs the INSTEAD OF triggers (of a view) for one row.
    fn instead_of(
        &self,
        store: &dyn RowStore,
        schema: &Schema,
        checks: &Checks,
        old: Option<&[Value]>,
        new: Option<&[Value]>,
    ) -> Result<()> {
        self.run(&self.instead, store, schema, checks, old, new).map(|_| ())
    }

    fn run(
        &self,
        list: &[Arc<TriggerDef>],
        store: &dyn RowStore,
        schema: &Schema,
        checks: &Checks,
        old: Option<&[Value]>,
        new: Option<&[Value]>,
    ) -> Result<bool> {
        if list.is_empty() {
            return Ok(true);
        }
        let row = Arc::new(TriggerRow {
            table: self.table.clone(),
            old: old.map(<[Value]>::to_vec),
            new: new.map(<[Value]>::to_vec),
        });
        for tr in list {
            if !checks.enter_trigger(&tr.name) {
                continue;
            }
            let r = checks.nested(|| fire(tr, store, schema, checks, &row));
            checks.leave_trigger();
            match r {
                Ok(true) => {}
                Ok(false) => return Ok(false),
                Err(e) => return Err(e),
            }
        }
        Ok(true)
    }
}

/// Runs one trigger's program for one row; `Ok(false)` after
/// `RAISE(IGNORE)`.
fn fire(
    tr: &TriggerDef,
    store: &dyn RowStore,
    schema: &Schema,
    checks: &Checks,
    row: &Arc<TriggerRow>,
) -> Result<bool> {
    let _row = with_trigger_row(Some(row.clone()));
    // A trigger program's inserts and counts last while it runs.
    let saved = counters::save();
    let r = (|| {
        if let Some(w) = &tr.when {
            let mut b = Binder::new(schema, store);
            b.push_scope(Scope::default());
            let e = b.bind_expr(w);
            b.pop_scope();
            let e = e?;
            let nulls = vec![Value::Null; b.params.names.len()];
            let cache = ExecState::default();
            let cx = Context::new(store, &nulls, &cache);
            if vals::truthy(&e.eval(&[], &cx)?) != Some(true) {
                return Ok(());
            }
        }
        let none = |m: &crate::planner::ParamMap| Ok(vec![Value::Null; m.names.len()]);
        for s in &tr.body {
            match s {
                ast::Statement::Insert(ins) => {
                    let n = super::dml::insert(store, schema, ins, &none, checks)?.affected;
                    counters::statement_done(n);
                }
                ast::Statement::Update(u) => {
                    let n = super::dml::update(store, schema, u, None, &none, checks)?.affected;
                    counters::statement_done(n);
                }
                ast::Statement::Delete(d) => {
                    let n = super::dml::delete(store, schema, d, None, &none, checks)?.affected;
                    counters::statement_done(n);
                }
                ast::Statement::Query(q) => {
                    let mut b = Binder::new(schema, store);
                    let plan = plan_query(&mut b, q)?;
                    let nulls = vec![Value::Null; b.params.names.len()];
                    let cache = ExecState::default();
                    let cx = Context::new(store, &nulls, &cache);
                    let mut op = build(&plan.node);
                    while op.next(&cx)?.is_some() {}
                }
                other => {
                    return Err(Error::Corrupt(format!("trigger program statement: {other}")));
                }
            }
        }
        Ok(())
    })();
    counters::restore(saved);
    match r {
        Ok(()) => Ok(true),
        Err(Error::Raise(RaiseKind::Ignore, _)) => Ok(false),
        Err(e) => Err(catalog::in_schema_body(e)),
    }
}

/// A view as its INSTEAD OF triggers see it: a table of its columns.
fn view_table(store: &dyn RowStore, schema: &Schema, v: &ViewDef) -> Result<Arc<TableDef>> {
    let mut b = Binder::new(schema, store);
    let plan = plan_query(&mut b, &v.query)?;
    let names = if v.columns.is_empty() { plan.columns } else { v.columns.clone() };
    let cols = names.iter().map(|n| ColumnDef::new(n, None)).collect();
    Ok(Arc::new(TableDef::new(&v.name, 0, cols)))
}

/// The view's INSTEAD OF triggers for `event`, or SQLite's error for a
/// view that cannot be written.
fn view_triggers(
    store: &dyn RowStore,
    schema: &Schema,
    v: &ViewDef,
    event: Event,
) -> Result<(Arc<TableDef>, TableTriggers)> {
    let t = view_table(store, schema, v)?;
    match TableTriggers::new(schema, &t, event).filter(|tt| !tt.instead.is_empty()) {
        Some(tt) => Ok((t, tt)),
        None => Err(Error::InvalidInput(format!("cannot modify {} because it is a view", v.name))),
    }
}

/// `INSERT INTO view …`: the INSTEAD OF INSERT triggers, once per row.
/// Answers 0 rows changed, as SQLite does (the triggers' own writes are
/// not the statement's).
pub fn insert_into_view(
    store: &dyn RowStore,
    schema: &Schema,
    v: &ViewDef,
    ins: &ast::Insert,
    params: super::dml::ParamResolver,
    checks: &Checks,
) -> Result<u64> {
    if ins.returning.is_some() {
        return Err(Error::Unsupported("RETURNING on a view".into()));
    }
    let names: Vec<String> = ins.columns.iter().map(object_name).collect::<Result<_>>()?;
    let mut b = Binder::new(schema, store);
    let src = super::dml::Source::bind(&mut b, ins)?;
    let pv = params(&b.params)?;
    let cache = ExecState::default();
    let cx = Context::new(store, &pv, &cache);
    let rows = src.rows(&cx)?;
    let default_values = matches!(src, super::dml::Source::Default);
    insert_rows_into_view(store, schema, v, &names, rows, default_values, checks)
}

/// The rows of an `INSERT INTO view` (values for `names`, or for every
/// column), each given to the INSTEAD OF INSERT triggers.
pub fn insert_rows_into_view(
    store: &dyn RowStore,
    schema: &Schema,
    v: &ViewDef,
    names: &[String],
    rows: Vec<Vec<Value>>,
    default_values: bool,
    checks: &Checks,
) -> Result<u64> {
    let (t, tt) = view_triggers(store, schema, v, Event::Insert)?;
    let cols: Vec<usize> = if names.is_empty() {
        (0..t.columns.len()).collect()
    } else {
        names
            .iter()
            .map(|n| {
                t.column_index(n).ok_or_else(|| {
                    Error::InvalidInput(format!("table {} has no column named {n}", t.name))
                })
            })
            .collect::<Result<_>>()?
    };
    for given in rows {
        if !default_values && given.len() != cols.len() {
            return Err(Error::InvalidInput(if names.is_empty() {
                format!(
                    "table {} has {} columns but {} values were supplied",
                    t.name,
                    cols.len(),
                    given.len()
                )
            } else {
                format!("{} values for {} columns", given.len(), cols.len())
            }));
        }
        let mut new = vec![Value::Null; t.columns.len() + 1];
        for (v, &c) in given.into_iter().zip(&cols) {
            new[c] = v;
        }
        tt.instead_of(store, schema, checks, None, Some(&new))?;
    }
    Ok(0)
}

/// `SELECT *, <extra> FROM view WHERE selection`, run.
fn view_rows(
    store: &dyn RowStore,
    schema: &Schema,
    v: &ViewDef,
    extra: &[&ast::Expr],
    selection: Option<&ast::Expr>,
    params: super::dml::ParamResolver,
) -> Result<Vec<Vec<Value>>> {
    let ast::Statement::Query(mut q) =
        crate::parse::parse_one(&format!("SELECT * FROM {}", super::fkey::quote(&v.name)))?
    else {
        return Err(Error::Corrupt("view scan is no query".into()));
    };
    if let ast::SetExpr::Select(sel) = q.body.as_mut() {
        for e in extra {
            sel.projection.push(ast::SelectItem::UnnamedExpr((*e).clone()));
        }
        sel.selection = selection.cloned();
    }
    let mut b = Binder::new(schema, store);
    let plan = plan_query(&mut b, &q)?;
    let pv = params(&b.params)?;
    let cache = ExecState::default();
    let cx = Context::new(store, &pv, &cache);
    let mut op = build(&plan.node);
    let mut out = Vec::new();
    while let Some(r) = op.next(&cx)? {
        out.push(r);
    }
    Ok(out)
}

/// `UPDATE view SET … [WHERE …]`: the INSTEAD OF UPDATE triggers, once
/// per row the view gives; 0 rows changed (as SQLite).
pub fn update_view(
    store: &dyn RowStore,
    schema: &Schema,
    v: &ViewDef,
    assignments: &[ast::Assignment],
    selection: Option<&ast::Expr>,
    params: super::dml::ParamResolver,
    checks: &Checks,
) -> Result<u64> {
    let t = view_table(store, schema, v)?;
    let mut set = Vec::new();
    let mut exprs = Vec::new();
    for a in assignments {
        let ast::AssignmentTarget::ColumnName(n) = &a.target else {
            return Err(Error::Unsupported("UPDATE with a column tuple".into()));
        };
        let n = object_name(n)?;
        let c = t
            .column_index(&n)
            .ok_or_else(|| Error::InvalidInput(format!("no such column: {n}")))?;
        set.push(c);
        exprs.push(&a.value);
    }
    let (t, tt) = view_triggers(store, schema, v, Event::Update(&set))?;
    let ncols = t.columns.len();
    let rows = view_rows(store, schema, v, &exprs, selection, params)?;
    for r in &rows {
        let mut old = r[..ncols].to_vec();
        old.push(Value::Null);
        let mut new = old.clone();
        for (k, &c) in set.iter().enumerate() {
            new[c] = r[ncols + k].clone();
        }
        tt.instead_of(store, schema, checks, Some(&old), Some(&new))?;
    }
    Ok(0)
}

/// `DELETE FROM view [WHERE …]`: the INSTEAD OF DELETE triggers, once per
/// row the view gives; 0 rows changed (as SQLite).
pub fn delete_from_view(
    store: &dyn RowStore,
    schema: &Schema,
    v: &ViewDef,
    selection: Option<&ast::Expr>,
    params: super::dml::ParamResolver,
    checks: &Checks,
) -> Result<u64> {
    let (t, tt) = view_triggers(store, schema, v, Event::Delete)?;
    let ncols = t.columns.len();
    let rows = view_rows(store, schema, v, &[], selection, params)?;
    for r in &rows {
        let mut old = r[..ncols].to_vec();
        old.push(Value::Null);
        tt.instead_of(store, schema, checks, Some(&old), None)?;
    }
    Ok(0)
}
