//! Statements that change data or schema: INSERT / UPDATE / DELETE (with
//! constraints and RETURNING) and CREATE / DROP.
//!
//! Writes go through [`RowStore`] row by row. Rows to modify are collected
//! before the first change, so a statement never sees its own writes (an
//! `INSERT INTO t SELECT … FROM t` reads t as it was). Constraint order
//! follows SQLite: NOT NULL, then CHECK, then PRIMARY KEY / UNIQUE.

use std::cell::Cell;
use std::sync::Arc;

use sqlparser::ast;

use super::vals::{self, Affinity};
use super::{Context, ExecState, build, table_row};
use crate::catalog::{self, IndexDef, Schema, TableDef, object_name};
use crate::expr::Expr;
use crate::planner::bind::{Scope, ScopeTable};
use crate::planner::{Binder, plan_query, plan_table_scan};
use crate::storage::{Row, RowStore, TreeKind};
use crate::value::Value;
use crate::{Error, Result};

/// What to do when a row violates a constraint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conflict {
    Abort,
    Ignore,
    Replace,
}

/// Result of a DML statement: the count and any RETURNING rows.
pub struct DmlResult {
    pub affected: u64,
    pub columns: Vec<String>,
    pub returning: Option<Vec<Row>>,
}

fn scope_for(t: &Arc<TableDef>) -> Scope {
    Scope {
        tables: vec![ScopeTable {
            name: t.name.clone(),
            columns: t
                .columns
                .iter()
                .map(|c| (c.name.clone(), Some(c.affinity), c.collation))
                .collect(),
            offset: 0,
            rowid: Some(t.columns.len()),
            table: Some(t.clone()),
            hidden: Vec::new(),
        }],
        width: t.columns.len() + 1,
    }
}

/// Binds expressions over one table's local row.
fn bind_in_table(b: &mut Binder, t: &Arc<TableDef>, es: &[&ast::Expr]) -> Result<Vec<Expr>> {
    b.push_scope(scope_for(t));
    let r = es.iter().map(|e| b.bind_expr(e)).collect();
    b.pop_scope();
    r
}

/// The constraint-checking context of one table.
struct Target {
    table: Arc<TableDef>,
    indexes: Vec<Arc<IndexDef>>,
    checks: Vec<(Expr, String)>,
    defaults: Vec<Option<Expr>>,
    /// The largest rowid in the table as far as this statement knows:
    /// read once from the store, then raised by every row this statement
    /// writes, so a row without a rowid gets max + 1 without a tree
    /// descent each time. Forgotten when the statement deletes a row.
    max_rowid: Cell<Option<i64>>,
}

impl Target {
    fn new(b: &mut Binder, schema: &Schema, t: &Arc<TableDef>) -> Result<Target> {
        let exprs: Vec<&ast::Expr> = t.checks.iter().collect();
        let checks = bind_in_table(b, t, &exprs)?
            .into_iter()
            .zip(t.checks.iter().map(|c| c.to_string()))
            .collect();
        b.push_scope(Scope::default());
        let defaults = t
            .columns
            .iter()
            .map(|c| c.default.as_ref().map(|d| b.bind_expr(d)).transpose())
            .collect::<Result<Vec<_>>>();
        b.pop_scope();
        Ok(Target {
            table: t.clone(),
            indexes: schema.table_indexes(&t.name),
            checks,
            defaults: defaults?,
            max_rowid: Cell::new(None),
        })
    }

    /// Applies the conflict action to every UNIQUE index entry that `local`
    /// (the row to be stored at `rowid`) would collide with: `Ok(false)`
    /// when OR IGNORE skips the row, an error for ABORT, and for REPLACE
    /// the other row is deleted.
    fn resolve_unique(
        &self,
        store: &dyn RowStore,
        local: &[Value],
        rowid: i64,
        action: Conflict,
    ) -> Result<bool> {
        for ix in self.indexes.iter().filter(|i| i.unique) {
            let key = self.key(ix, local);
            if key.iter().any(|v| matches!(v, Value::Null)) {
                continue;
            }
            let Some(other) = store.index_lookup(ix, &key)? else { continue };
            if other == rowid {
                continue;
            }
            match action {
                Conflict::Ignore => return Ok(false),
                Conflict::Replace => {
                    if let Some(old) = store.get(&self.table, other)? {
                        self.delete(store, other, &old)?;
                    }
                }
                Conflict::Abort => {
                    return Err(Error::Constraint(format!(
                        "UNIQUE constraint failed: {}",
                        self.constraint(&ix.columns)
                    )));
                }
            }
        }
        Ok(true)
    }

    fn constraint(&self, cols: &[usize]) -> String {
        cols.iter()
            .map(|c| format!("{}.{}", self.table.name, self.table.columns[*c].name))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn key(&self, ix: &IndexDef, row: &[Value]) -> Vec<Value> {
        ix.columns.iter().map(|c| row[*c].clone()).collect()
    }

    /// Removes a row and its index entries.
    fn delete(&self, store: &dyn RowStore, rowid: i64, stored: &[Value]) -> Result<()> {
        self.max_rowid.set(None);
        let local = table_row(&self.table, rowid, stored.to_vec());
        for ix in &self.indexes {
            store.index_delete(ix, &self.key(ix, &local), rowid)?;
        }
        store.delete(&self.table, rowid)
    }

    fn known_max_rowid(&self, store: &dyn RowStore) -> Result<Option<i64>> {
        if let Some(m) = self.max_rowid.get() {
            return Ok(Some(m));
        }
        let m = store.max_rowid(&self.table)?;
        self.max_rowid.set(m);
        Ok(m)
    }

    /// Notes that row `rowid` now exists.
    fn wrote_rowid(&self, rowid: i64) {
        if let Some(m) = self.max_rowid.get() {
            self.max_rowid.set(Some(m.max(rowid)));
        }
    }

    /// Inserts one row (all declared columns, rowid alias slot holding the
    /// requested rowid or NULL). Returns the local row, or `None` if the
    /// row was skipped by OR IGNORE.
    ///
    /// `explicit`: the rowid, given apart from the row, of a table without
    /// an INTEGER PRIMARY KEY (`INSERT INTO t(rowid, …)`, or UPDATE keeping
    /// a row's rowid); ignored for a table with one.
    fn insert(
        &self,
        store: &dyn RowStore,
        cx: &Context,
        mut row: Row,
        explicit: Option<i64>,
        action: Conflict,
    ) -> Result<Option<Row>> {
        let t = &self.table;
        // The rowid.
        let given = match (t.rowid_alias, explicit) {
            (None, Some(r)) => Some(Value::Integer(r)),
            (alias, _) => alias.map(|a| row[a].clone()),
        };
        let rowid = match given {
            Some(Value::Null) | None => match self.known_max_rowid(store)? {
                Some(i64::MAX) => return Err(Error::TooLarge("database or disk is full".into())),
                Some(m) => m + 1,
                None => 1,
            },
            Some(v) => match Affinity::Integer.apply(v) {
                Value::Integer(i) => i,
                _ => return Err(Error::InvalidInput("datatype mismatch".into())),
            },
        };
        for (i, c) in t.columns.iter().enumerate() {
            let v = std::mem::replace(&mut row[i], Value::Null);
            row[i] = c.affinity.apply(v);
        }
        if let Some(a) = t.rowid_alias {
            row[a] = Value::Integer(rowid);
        }
        // NOT NULL.
        for (i, c) in t.columns.iter().enumerate() {
            if c.not_null && matches!(row[i], Value::Null) {
                match action {
                    Conflict::Ignore => return Ok(None),
                    Conflict::Replace if self.defaults[i].is_some() => {
                        let d = self.defaults[i].as_ref().expect("checked").eval(&[], cx)?;
                        row[i] = c.affinity.apply(d);
                        if matches!(row[i], Value::Null) {
                            return Err(not_null(t, i));
                        }
                    }
                    _ => return Err(not_null(t, i)),
                }
            }
        }
        let local = table_row(t, rowid, row);
        // CHECK.
        for (e, text) in &self.checks {
            if vals::truthy(&e.eval(&local, cx)?) == Some(false) {
                if action == Conflict::Ignore {
                    return Ok(None);
                }
                return Err(Error::Constraint(format!("CHECK constraint failed: {text}")));
            }
        }
        // PRIMARY KEY (rowid) and UNIQUE. The stored row is `local` without
        // the rowid column, and with NULL in the rowid alias's slot.
        let mut local = local;
        let alias = t.rowid_alias.map(|a| std::mem::replace(&mut local[a], Value::Null));
        let stored = &local[..t.columns.len()];
        let rowid_taken = |t: &TableDef| {
            let what = match t.rowid_alias {
                Some(a) => self.constraint(&[a]),
                None => format!("{}.rowid", t.name),
            };
            Error::Constraint(format!("UNIQUE constraint failed: {what}"))
        };
        if action == Conflict::Replace {
            if let Some(old) = store.get(t, rowid)? {
                self.delete(store, rowid, &old)?;
            }
        } else if !store.insert_new(t, rowid, stored)? {
            // One descent checked the rowid and wrote the row.
            return match action {
                Conflict::Ignore => Ok(None),
                _ => Err(rowid_taken(t)),
            };
        }
        if let (Some(a), Some(v)) = (t.rowid_alias, alias.clone()) {
            local[a] = v;
        }
        if !self.resolve_unique(store, &local, rowid, action)? {
            // OR IGNORE: the row written above goes again (Abort fails the
            // statement, whose savepoint undoes the write).
            store.delete(t, rowid)?;
            return Ok(None);
        }
        if action == Conflict::Replace {
            if let Some(a) = t.rowid_alias {
                local[a] = Value::Null;
            }
            store.insert(t, rowid, &local[..t.columns.len()])?;
            if let (Some(a), Some(v)) = (t.rowid_alias, alias) {
                local[a] = v;
            }
        }
        for ix in &self.indexes {
            store.index_insert(ix, &self.key(ix, &local), rowid)?;
        }
        self.wrote_rowid(rowid);
        Ok(Some(local))
    }
}

fn not_null(t: &TableDef, i: usize) -> Error {
    Error::Constraint(format!("NOT NULL constraint failed: {}.{}", t.name, t.columns[i].name))
}

fn writable_table(schema: &Schema, name: &str) -> Result<Arc<TableDef>> {
    if schema.view(name).is_some() {
        return Err(Error::InvalidInput(format!("cannot modify {name} because it is a view")));
    }
    schema.must_table(name).cloned()
}

/// RETURNING: binds the items over the table row and evaluates them.
struct Returning {
    exprs: Vec<Expr>,
    names: Vec<String>,
    rows: Vec<Row>,
}

impl Returning {
    fn new(
        b: &mut Binder,
        t: &Arc<TableDef>,
        items: Option<&Vec<ast::SelectItem>>,
    ) -> Result<Option<Returning>> {
        let Some(items) = items else { return Ok(None) };
        let mut exprs = Vec::new();
        let mut names = Vec::new();
        b.push_scope(scope_for(t));
        let r = (|| {
            for it in items {
                match it {
                    ast::SelectItem::Wildcard(_) => {
                        for (i, c) in t.columns.iter().enumerate() {
                            exprs.push(Expr::Column(i));
                            names.push(c.name.clone());
                        }
                    }
                    ast::SelectItem::UnnamedExpr(e) => {
                        exprs.push(b.bind_expr(e)?);
                        names.push(match e {
                            ast::Expr::Identifier(id) => id.value.clone(),
                            e => e.to_string(),
                        });
                    }
                    ast::SelectItem::ExprWithAlias { expr, alias } => {
                        exprs.push(b.bind_expr(expr)?);
                        names.push(alias.value.clone());
                    }
                    other => return Err(Error::Unsupported(format!("RETURNING {other}"))),
                }
            }
            Ok(())
        })();
        b.pop_scope();
        r?;
        Ok(Some(Returning { exprs, names, rows: Vec::new() }))
    }

    fn add(&mut self, local: &[Value], cx: &Context) -> Result<()> {
        let r = self.exprs.iter().map(|e| e.eval(local, cx)).collect::<Result<_>>()?;
        self.rows.push(r);
        Ok(())
    }
}

fn finish(affected: u64, ret: Option<Returning>) -> DmlResult {
    match ret {
        Some(r) => DmlResult { affected, columns: r.names, returning: Some(r.rows) },
        None => DmlResult { affected, columns: Vec::new(), returning: None },
    }
}

/// Resolves parameters of a bound statement into slot order.
pub type ParamResolver<'p> = &'p dyn Fn(&crate::planner::ParamMap) -> Result<Vec<Value>>;

pub fn insert(
    store: &dyn RowStore,
    schema: &Schema,
    ins: &ast::Insert,
    params: ParamResolver,
) -> Result<DmlResult> {
    let name = match &ins.table {
        ast::TableObject::TableName(n) => object_name(n)?,
        other => return Err(Error::Unsupported(format!("INSERT INTO {other}"))),
    };
    let t = writable_table(schema, &name)?;
    let mut action = match ins.or {
        Some(ast::SqliteOnConflict::Ignore) => Conflict::Ignore,
        Some(ast::SqliteOnConflict::Replace) => Conflict::Replace,
        _ if ins.replace_into => Conflict::Replace,
        _ => Conflict::Abort,
    };
    match &ins.on {
        Some(ast::OnInsert::OnConflict(oc))
            if matches!(oc.action, ast::OnConflictAction::DoNothing) =>
        {
            action = Conflict::Ignore
        }
        Some(_) => return Err(Error::Unsupported("ON CONFLICT DO UPDATE".into())),
        None => {}
    }
    let names: Vec<String> = ins.columns.iter().map(object_name).collect::<Result<_>>()?;
    let cols = column_positions(&t, &names)?;
    let mut b = Binder::new(schema, store);
    let target = Target::new(&mut b, schema, &t)?;
    let mut ret = Returning::new(&mut b, &t, ins.returning.as_ref())?;
    // Source rows, materialised before writing.
    enum Src {
        Default,
        Exprs(Vec<Vec<Expr>>),
        Plan(Box<crate::planner::QueryPlan>),
    }
    let src = match &ins.source {
        None => Src::Default,
        Some(q) => match q.body.as_ref() {
            ast::SetExpr::Values(v)
                if q.with.is_none() && q.order_by.is_none() && q.limit_clause.is_none() =>
            {
                b.push_scope(Scope::default());
                let rows = v
                    .rows
                    .iter()
                    .map(|r| r.content.iter().map(|e| b.bind_expr(e)).collect::<Result<Vec<_>>>())
                    .collect::<Result<Vec<_>>>();
                b.pop_scope();
                Src::Exprs(rows?)
            }
            _ => Src::Plan(Box::new(plan_query(&mut b, q)?)),
        },
    };
    let pv = params(&b.params)?;
    let cache = ExecState::default();
    let cx = Context::new(store, &pv, &cache);
    let rows: Vec<Row> = match &src {
        Src::Default => vec![Vec::new()],
        Src::Exprs(rows) => rows
            .iter()
            .map(|r| r.iter().map(|e| e.eval(&[], &cx)).collect::<Result<Vec<_>>>())
            .collect::<Result<_>>()?,
        Src::Plan(p) => {
            let mut op = build(&p.node);
            let mut out = Vec::new();
            while let Some(r) = op.next(&cx)? {
                out.push(r);
            }
            out
        }
    };
    let default_values = matches!(src, Src::Default);
    let n = write_rows(
        store,
        &cx,
        &target,
        &cols,
        !names.is_empty(),
        rows,
        default_values,
        action,
        ret.as_mut(),
    )?;
    Ok(finish(n, ret))
}

/// Positions of the named columns (all columns when none are named).
/// The position [`column_positions`] gives `rowid`, `oid` or `_rowid_`
/// in a table without an INTEGER PRIMARY KEY: the row's own rowid.
const ROWID_SLOT: usize = usize::MAX;

fn column_positions(t: &TableDef, names: &[String]) -> Result<Vec<usize>> {
    if names.is_empty() {
        return Ok((0..t.columns.len()).collect());
    }
    names
        .iter()
        .map(|n| {
            if let Some(i) = t.column_index(n) {
                return Ok(i);
            }
            // SQLite: the rowid's names, when no column has them, name the
            // rowid (its alias column, if the table has one).
            if ["rowid", "oid", "_rowid_"].iter().any(|r| n.eq_ignore_ascii_case(r)) {
                return Ok(t.rowid_alias.unwrap_or(ROWID_SLOT));
            }
            Err(Error::InvalidInput(format!("table {} has no column named {n}", t.name)))
        })
        .collect()
}

/// Inserts source rows (values for `cols`), filling defaults.
#[allow(clippy::too_many_arguments)]
fn write_rows(
    store: &dyn RowStore,
    cx: &Context,
    target: &Target,
    cols: &[usize],
    named: bool,
    rows: Vec<Row>,
    default_values: bool,
    action: Conflict,
    mut ret: Option<&mut Returning>,
) -> Result<u64> {
    let t = &target.table;
    let identity_cols =
        cols.len() == t.columns.len() && cols.iter().enumerate().all(|(i, c)| i == *c);
    let mut n = 0;
    for src_row in rows {
        let given = if default_values { Vec::new() } else { src_row };
        if !default_values && given.len() != cols.len() {
            return Err(Error::InvalidInput(if !named {
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
        let identity = identity_cols && !default_values;
        // A value given for the rowid of a table without an alias.
        let mut explicit = Value::Null;
        let row = if identity {
            // Every column given in table order (the common `VALUES (…)`):
            // the row is the given one; room for the rowid `table_row` adds.
            let mut row = given;
            row.reserve_exact(1);
            row
        } else {
            let mut row: Row = Vec::with_capacity(t.columns.len() + 1);
            let mut set = vec![false; t.columns.len()];
            row.resize(t.columns.len(), Value::Null);
            for (v, c) in given.into_iter().zip(cols) {
                if *c == ROWID_SLOT {
                    explicit = v;
                    continue;
                }
                row[*c] = v;
                set[*c] = true;
            }
            for (i, d) in target.defaults.iter().enumerate() {
                if let (false, Some(d)) = (set[i], d) {
                    row[i] = d.eval(&[], cx)?;
                }
            }
            row
        };
        let explicit = match explicit {
            Value::Null => None,
            v => match Affinity::Integer.apply(v) {
                Value::Integer(i) => Some(i),
                _ => return Err(Error::InvalidInput("datatype mismatch".into())),
            },
        };
        if let Some(local) = target.insert(store, cx, row, explicit, action)? {
            n += 1;
            if let Some(r) = ret.as_deref_mut() {
                r.add(&local, cx)?;
            }
        }
    }
    Ok(n)
}

/// INSERT from the script fast path: literal rows, no parsing or planning.
pub fn insert_values(
    store: &dyn RowStore,
    schema: &Schema,
    iv: crate::script::InsertValues,
) -> Result<u64> {
    use crate::script::Conflict as C;
    let t = writable_table(schema, &iv.table)?;
    let action = match iv.or_action {
        Some(C::Ignore) => Conflict::Ignore,
        Some(C::Replace) => Conflict::Replace,
        _ => Conflict::Abort,
    };
    let names = iv.columns.unwrap_or_default();
    let cols = column_positions(&t, &names)?;
    let mut b = Binder::new(schema, store);
    let target = Target::new(&mut b, schema, &t)?;
    let cache = ExecState::default();
    let cx = Context::new(store, &[], &cache);
    write_rows(store, &cx, &target, &cols, !names.is_empty(), iv.rows, false, action, None)
}

#[allow(clippy::too_many_arguments)]
pub fn update(
    store: &dyn RowStore,
    schema: &Schema,
    table: &ast::TableWithJoins,
    assignments: &[ast::Assignment],
    selection: Option<&ast::Expr>,
    or: Option<&ast::SqliteOnConflict>,
    returning: Option<&Vec<ast::SelectItem>>,
    params: ParamResolver,
) -> Result<DmlResult> {
    let name = match &table.relation {
        ast::TableFactor::Table { name, .. } => object_name(name)?,
        other => return Err(Error::Unsupported(format!("UPDATE {other}"))),
    };
    if !table.joins.is_empty() {
        return Err(Error::Unsupported("UPDATE with joins".into()));
    }
    let t = writable_table(schema, &name)?;
    let action = match or {
        Some(ast::SqliteOnConflict::Ignore) => Conflict::Ignore,
        Some(ast::SqliteOnConflict::Replace) => Conflict::Replace,
        _ => Conflict::Abort,
    };
    let mut b = Binder::new(schema, store);
    let target = Target::new(&mut b, schema, &t)?;
    let mut ret = Returning::new(&mut b, &t, returning)?;
    let mut sets: Vec<(usize, Expr)> = Vec::new();
    for a in assignments {
        let cols: Vec<String> = match &a.target {
            ast::AssignmentTarget::ColumnName(n) => vec![object_name(n)?],
            ast::AssignmentTarget::Tuple(_) => {
                return Err(Error::Unsupported("UPDATE with a column tuple".into()));
            }
        };
        let c = t
            .column_index(&cols[0])
            .ok_or_else(|| Error::InvalidInput(format!("no such column: {}", cols[0])))?;
        let e = bind_in_table(&mut b, &t, &[&a.value])?.remove(0);
        sets.push((c, e));
    }
    let node = plan_table_scan(&mut b, &t, selection)?;
    let pv = params(&b.params)?;
    let cache = ExecState::default();
    let cx = Context::new(store, &pv, &cache);
    let mut op = build(&node);
    let mut old_rows = Vec::new();
    while let Some(r) = op.next(&cx)? {
        old_rows.push(r);
    }
    let ncols = t.columns.len();
    let mut n = 0;
    for old in old_rows {
        let rowid = match old[ncols] {
            Value::Integer(i) => i,
            _ => return Err(Error::Corrupt("rowid is not an integer".into())),
        };
        let mut new: Row = old[..ncols].to_vec();
        for (c, e) in &sets {
            new[*c] = e.eval(&old, &cx)?;
        }
        if let Some(a) = t.rowid_alias
            && matches!(new[a], Value::Null)
        {
            return Err(Error::InvalidInput("datatype mismatch".into()));
        }
        let mut stored_old = old[..ncols].to_vec();
        if let Some(a) = t.rowid_alias {
            stored_old[a] = Value::Null;
        }
        target.delete(store, rowid, &stored_old)?;
        // A table without an alias keeps the row's rowid.
        let res = target.insert(store, &cx, new, Some(rowid), action);
        match res? {
            Some(local) => {
                n += 1;
                if let Some(r) = &mut ret {
                    r.add(&local, &cx)?;
                }
            }
            None => {
                // OR IGNORE skipped the new row: put the old one back.
                store.insert(&t, rowid, &stored_old)?;
                for ix in &target.indexes {
                    store.index_insert(ix, &target.key(ix, &old), rowid)?;
                }
            }
        }
    }
    Ok(finish(n, ret))
}

pub fn delete(
    store: &dyn RowStore,
    schema: &Schema,
    del: &ast::Delete,
    params: ParamResolver,
) -> Result<DmlResult> {
    let from = match &del.from {
        ast::FromTable::WithFromKeyword(v) | ast::FromTable::WithoutKeyword(v) => v,
    };
    let [twj] = from.as_slice() else {
        return Err(Error::Unsupported("DELETE from several tables".into()));
    };
    let name = match &twj.relation {
        ast::TableFactor::Table { name, .. } => object_name(name)?,
        other => return Err(Error::Unsupported(format!("DELETE FROM {other}"))),
    };
    let t = writable_table(schema, &name)?;
    let mut b = Binder::new(schema, store);
    let target = Target::new(&mut b, schema, &t)?;
    let mut ret = Returning::new(&mut b, &t, del.returning.as_ref())?;
    let node = plan_table_scan(&mut b, &t, del.selection.as_ref())?;
    let pv = params(&b.params)?;
    let cache = ExecState::default();
    let cx = Context::new(store, &pv, &cache);
    let mut op = build(&node);
    let mut doomed = Vec::new();
    while let Some(r) = op.next(&cx)? {
        doomed.push(r);
    }
    let ncols = t.columns.len();
    for old in &doomed {
        let Value::Integer(rowid) = old[ncols] else {
            return Err(Error::Corrupt("rowid is not an integer".into()));
        };
        let mut stored = old[..ncols].to_vec();
        if let Some(a) = t.rowid_alias {
            stored[a] = Value::Null;
        }
        target.delete(store, rowid, &stored)?;
        if let Some(r) = &mut ret {
            r.add(old, &cx)?;
        }
    }
    Ok(finish(doomed.len() as u64, ret))
}

fn reserved(name: &str) -> Result<()> {
    if name.len() >= 7 && name[..7].eq_ignore_ascii_case("sqlite_") {
        return Err(Error::InvalidInput(format!("object name reserved for internal use: {name}")));
    }
    Ok(())
}

pub fn create_table(store: &dyn RowStore, schema: &Schema, ct: &ast::CreateTable) -> Result<()> {
    let name = object_name(&ct.name)?;
    if schema.table(&name).is_some() || schema.view(&name).is_some() {
        if ct.if_not_exists {
            return Ok(());
        }
        return Err(Error::InvalidInput(format!("table {name} already exists")));
    }
    reserved(&name)?;
    let sql = ct.to_string();
    let (def, _) = catalog::table_from_ast(ct, 0, sql.clone())?;
    let autos = catalog::auto_indexes(&def, ct)?;
    let root = store.create_tree(TreeKind::Table)?;
    catalog::add_entry(store, "table", &def.name, &def.name, root, Some(&sql))?;
    for ix in autos {
        let r = store.create_tree(TreeKind::Index)?;
        catalog::add_entry(store, "index", &ix.name, &def.name, r, None)?;
    }
    Ok(())
}

pub fn create_index(store: &dyn RowStore, schema: &Schema, ci: &ast::CreateIndex) -> Result<()> {
    let sql = ci.to_string();
    let mut ix = catalog::index_from_ast(schema, ci, 0, sql.clone())?;
    if schema.exists(&ix.name) {
        if ci.if_not_exists {
            return Ok(());
        }
        return Err(Error::InvalidInput(format!("index {} already exists", ix.name)));
    }
    reserved(&ix.name)?;
    let t = schema.must_table(&ix.table)?.clone();
    ix.root = store.create_tree(TreeKind::Index)?;
    // Fill it from the table.
    let mut cur =
        store.scan(&t, (std::ops::Bound::Unbounded, std::ops::Bound::Unbounded), false)?;
    let mut entries = Vec::new();
    while let Some((rowid, row)) = cur.next()? {
        let local = table_row(&t, rowid, row);
        entries.push((ix.columns.iter().map(|c| local[*c].clone()).collect::<Vec<_>>(), rowid));
    }
    for (key, rowid) in entries {
        if ix.unique
            && !key.iter().any(|v| matches!(v, Value::Null))
            && store.index_lookup(&ix, &key)?.is_some()
        {
            let cols: Vec<String> =
                ix.columns.iter().map(|c| format!("{}.{}", t.name, t.columns[*c].name)).collect();
            return Err(Error::Constraint(format!(
                "UNIQUE constraint failed: {}",
                cols.join(", ")
            )));
        }
        store.index_insert(&ix, &key, rowid)?;
    }
    catalog::add_entry(store, "index", &ix.name, &t.name, ix.root, Some(&sql))
}

pub fn create_view(store: &dyn RowStore, schema: &Schema, cv: &ast::CreateView) -> Result<()> {
    let name = object_name(&cv.name)?;
    if schema.exists(&name) {
        if cv.if_not_exists {
            return Ok(());
        }
        return Err(Error::InvalidInput(format!("view {name} already exists")));
    }
    reserved(&name)?;
    // Plan it once so a broken view fails now, not at first use.
    let mut b = Binder::new(schema, store);
    plan_query(&mut b, &cv.query)?;
    catalog::add_entry(store, "view", &name, &name, 0, Some(&cv.to_string()))
}

pub fn drop(
    store: &dyn RowStore,
    schema: &Schema,
    kind: &ast::ObjectType,
    if_exists: bool,
    names: &[ast::ObjectName],
) -> Result<()> {
    for n in names {
        let name = object_name(n)?;
        match kind {
            ast::ObjectType::Table => {
                let Some(t) = schema.table(&name) else {
                    if if_exists {
                        continue;
                    }
                    return Err(Error::NotFound(format!("no such table: {name}")));
                };
                let mut gone = vec![t.name.clone()];
                for ix in schema.table_indexes(&t.name) {
                    store.drop_tree(ix.root, TreeKind::Index)?;
                    gone.push(ix.name.clone());
                }
                store.drop_tree(t.root, TreeKind::Table)?;
                catalog::remove_entries(store, &gone)?;
            }
            ast::ObjectType::Index => {
                let Some(ix) = schema.index(&name) else {
                    if if_exists {
                        continue;
                    }
                    return Err(Error::NotFound(format!("no such index: {name}")));
                };
                if ix.sql.is_none() {
                    return Err(Error::InvalidInput(
                        "index associated with UNIQUE or PRIMARY KEY constraint cannot be dropped"
                            .into(),
                    ));
                }
                store.drop_tree(ix.root, TreeKind::Index)?;
                catalog::remove_entries(store, std::slice::from_ref(&ix.name))?;
            }
            ast::ObjectType::View => {
                let Some(v) = schema.view(&name) else {
                    if if_exists {
                        continue;
                    }
                    return Err(Error::NotFound(format!("no such view: {name}")));
                };
                catalog::remove_entries(store, std::slice::from_ref(&v.name))?;
            }
            other => return Err(Error::Unsupported(format!("DROP {other}"))),
        }
    }
    Ok(())
}
