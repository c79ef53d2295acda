//! UPDATE, plain and with FROM (SQLite 3.33's UPDATE FROM), and its SET
//! list (shared with the upsert's DO UPDATE).
//!
//! A plain UPDATE collects the rows its WHERE picks, then evaluates the
//! SET list over each row as it is when its turn comes (triggers and
//! foreign key actions of earlier rows may have changed it), as SQLite.
//!
//! UPDATE FROM joins the target with the FROM list first and keeps, for
//! each target row, the SET values of the first joined row that matches
//! it (SQLite: "an arbitrary one"); the join is computed before any row
//! changes, so SET values come from that snapshot; then each target row
//! is updated at most once, through the same per-row code as a plain
//! UPDATE ([`Target::update_row`]). The target may appear in FROM again
//! only under another name (a self-join). RETURNING sees the target only.
//! The join keys target rows by their rowid slot (a WITHOUT ROWID table's
//! internal one), named by `bind::INTERNAL_ROWID`, which no column can
//! shadow.

use sqlparser::ast;

use super::{Conflict, DmlResult, ParamResolver, Returning, Target, finish, writable_table};
use crate::catalog::{IndexOrigin, Schema, TableDef, object_name};
use crate::exec::fkey::{Checks, Write};
use crate::exec::index::table_scope;
use crate::exec::{Context, ExecState, build, table_row};
use crate::expr::Expr;
use crate::planner::{Binder, bind_row_value, plan_query, plan_table_scan_as, push_ctes};
use crate::storage::{Row, RowStore};
use crate::value::Value;
use crate::{Error, Result};

/// One assignment of a SET list: the column and its value's expression;
/// `row` is `Some((k, n))` when the value is element `k` of the `n`-column
/// row subquery of `(a, b) = (SELECT …)` (`value` is then that subquery,
/// shared by its `n` elements).
pub(super) struct SetItem<'e> {
    pub(super) col: usize,
    pub(super) value: &'e ast::Expr,
    pub(super) row: Option<(usize, usize)>,
}

/// The SET list of an UPDATE or DO UPDATE, in order: `(a, b) = (x, y)` is
/// `a = x, b = y`; `(a, b) = (SELECT x, y …)` takes both from the
/// subquery's first row (NULLs without one), which runs once per row
/// updated, as SQLite.
pub(super) fn set_targets<'e>(
    t: &TableDef,
    assignments: &'e [ast::Assignment],
) -> Result<Vec<SetItem<'e>>> {
    let mut out = Vec::new();
    for a in assignments {
        let names: Vec<String> = match &a.target {
            ast::AssignmentTarget::ColumnName(n) => vec![object_name(n)?],
            ast::AssignmentTarget::Tuple(ns) => {
                ns.iter().map(object_name).collect::<Result<_>>()?
            }
        };
        let values: Vec<(&ast::Expr, Option<(usize, usize)>)> = match (&a.target, &a.value) {
            (ast::AssignmentTarget::ColumnName(_), v) => vec![(v, None)],
            (_, ast::Expr::Tuple(vs)) => vs.iter().map(|v| (v, None)).collect(),
            (_, q @ ast::Expr::Subquery(_)) => {
                (0..names.len()).map(|k| (q, Some((k, names.len())))).collect()
            }
            (_, ast::Expr::Nested(v)) => vec![(v.as_ref(), None)],
            (_, v) => vec![(v, None)],
        };
        if values.len() != names.len() {
            return Err(assigned(names.len(), values.len()));
        }
        for (n, (value, row)) in names.iter().zip(values) {
            let c = t
                .column_index(n)
                .ok_or_else(|| Error::InvalidInput(format!("no such column: {n}")))?;
            if t.columns[c].generated.is_some() {
                return Err(Error::InvalidInput(format!(
                    "cannot UPDATE generated column \"{}\"",
                    t.columns[c].name
                )));
            }
            out.push(SetItem { col: c, value, row });
        }
    }
    Ok(out)
}

/// SQLite's message for a SET list whose sides differ in size.
fn assigned(columns: usize, values: usize) -> Error {
    Error::InvalidInput(format!("{columns} columns assigned {values} values"))
}

/// Binds a SET list in the binder's current scope: a row subquery once,
/// its elements shared by their columns.
///
/// A column assigned twice takes its last value, as in SQLite, which
/// resolves the names of the earlier expression (an unknown column or
/// function is still an error) but never generates its code: it is bound
/// with the levels inside it marked unevaluated (an aggregate of this
/// level inside its subqueries is not the "misuse of aggregate" it would
/// be if it ran) and then dropped, so it is never evaluated.
pub(super) fn bind_sets(b: &mut Binder, items: &[SetItem]) -> Result<Vec<(usize, Expr)>> {
    let mut out = Vec::with_capacity(items.len());
    let mut row: Vec<Expr> = Vec::new();
    for (i, it) in items.iter().enumerate() {
        let superseded = items[i + 1..].iter().any(|later| later.col == it.col);
        if superseded && it.row.is_none() {
            b.unevaluated.push(b.scopes.len());
            let bound = b.bind_expr(it.value);
            b.unevaluated.pop();
            bound?;
            continue;
        }
        let e = match it.row {
            None => b.bind_expr(it.value)?,
            Some((k, n)) => {
                if k == 0 {
                    row = bind_row_value(b, it.value)?;
                    if row.len() != n {
                        return Err(assigned(n, row.len()));
                    }
                }
                row[k].clone()
            }
        };
        out.push((it.col, e));
    }
    Ok(out)
}

/// `[WITH …] UPDATE [OR …] t [AS x] SET … [FROM …] [WHERE …] [RETURNING …]`.
pub fn update(
    store: &dyn RowStore,
    schema: &Schema,
    u: &ast::Update,
    with: Option<&ast::With>,
    params: ParamResolver,
    fk: &Checks,
) -> Result<DmlResult> {
    let table = &u.table;
    let (name, alias, qualifier) = match &table.relation {
        ast::TableFactor::Table { name, alias, .. } => (
            object_name(name)?,
            alias.as_ref().map(|a| a.name.value.clone()),
            crate::catalog::qualifier(name),
        ),
        other => return Err(Error::Unsupported(format!("UPDATE {other}"))),
    };
    if !table.joins.is_empty() {
        return Err(Error::Unsupported("UPDATE with joins".into()));
    }
    let from = match &u.from {
        None => None,
        Some(ast::UpdateTableFromKind::AfterSet(f)) => Some(f),
        Some(ast::UpdateTableFromKind::BeforeSet(_)) => {
            return Err(Error::Parse("near \"FROM\": syntax error".into()));
        }
    };
    if let Some(v) = schema.view(&name) {
        if u.returning.is_some() {
            return Err(Error::Unsupported("RETURNING on a view".into()));
        }
        if from.is_some() || with.is_some() {
            return Err(Error::Unsupported("UPDATE … FROM or WITH … UPDATE of a view".into()));
        }
        return super::super::trigger::update_view(
            store,
            schema,
            v,
            &u.assignments,
            u.selection.as_ref(),
            params,
            fk,
        )
        .map(|n| finish(n, None));
    }
    let t = writable_table(schema, &name, qualifier)?;
    let action = match u.or {
        Some(ast::SqliteOnConflict::Ignore) => Conflict::Ignore,
        Some(ast::SqliteOnConflict::Replace) => Conflict::Replace,
        _ => Conflict::Abort,
    };
    let targets = set_targets(&t, &u.assignments)?;
    let set_cols: Vec<usize> = targets.iter().map(|s| s.col).collect();
    let mut b = Binder::new(schema, store);
    if let Some(w) = with {
        push_ctes(&mut b, w);
    }
    let target = Target::new(&mut b, schema, &t, fk, Write::Update(&set_cols))?;
    let mut ret = Returning::new(&mut b, &t, u.returning.as_ref())?;
    let known_as = alias.clone().unwrap_or_else(|| t.name.clone());
    let rows = match from {
        Some(from) => Rows::Joined(joined(&mut b, &known_as, u, from, &targets)?),
        None => {
            let mut scope = table_scope(&t);
            scope.tables[0].name = known_as.clone();
            b.push_scope(scope);
            let sets = bind_sets(&mut b, &targets);
            b.pop_scope();
            let node = plan_table_scan_as(&mut b, &t, &known_as, u.selection.as_ref())?;
            Rows::Plain(sets?, node)
        }
    };
    let pv = params(&b.params)?;
    let cache = ExecState::default();
    let cx = Context::new(store, &pv, &cache);
    let ncols = t.columns.len();
    let mut n = 0;
    match rows {
        Rows::Plain(sets, node) => {
            let mut op = build(&node);
            // Every row is picked before any changes; past the budget the
            // picked rows wait on disk.
            let mut picked = crate::exec::sort::Spool::new(cx.budget);
            while let Some(r) = op.next(&cx)? {
                picked.push(r)?;
            }
            drop(op);
            // Triggers, foreign key actions and OR REPLACE's deletions of
            // earlier rows may change or remove later ones.
            let reread = action == Conflict::Replace
                || target.triggers.is_some()
                || target.keys.as_ref().is_some_and(|k| k.is_parent());
            // A WITHOUT ROWID table's row is its key (SQLite keeps the keys
            // to update, not rows): after an earlier row's REPLACE took a
            // key, the row that now holds it is the one updated.
            let pk = target
                .indexes
                .iter()
                .find(|k| t.without_rowid && k.index.origin == IndexOrigin::PrimaryKey);
            let mut old_rows = picked.into_rows()?;
            while let Some(mut old) = old_rows.next_row()? {
                let Value::Integer(mut rowid) = old[ncols] else {
                    return Err(Error::Corrupt("rowid is not an integer".into()));
                };
                if reread {
                    if let Some(pk) = pk {
                        let holder = match pk.key(&old, &cx)? {
                            Some(key) => store.index_lookup(&pk.index, &key)?,
                            None => None,
                        };
                        match holder {
                            Some(r) => rowid = r,
                            None => continue,
                        }
                    }
                    // Update the row as it is now, or not at all when gone.
                    match store.get(&t, rowid)? {
                        Some(now) => old = table_row(&t, rowid, now),
                        None => continue,
                    }
                }
                let mut new: Row = old[..ncols].to_vec();
                for (c, e) in &sets {
                    new[*c] = e.eval(&old, &cx)?;
                }
                if let Some(local) = target.update_row(store, &cx, rowid, old, new, action)? {
                    n += 1;
                    if let Some(r) = &mut ret {
                        r.add(&local, &cx)?;
                    }
                }
            }
        }
        Rows::Joined(node) => {
            // Row: the target's rowid, then the SET values.
            let mut op = build(&node);
            let mut picked: Vec<Row> = Vec::new();
            let mut seen = std::collections::HashSet::new();
            while let Some(r) = op.next(&cx)? {
                // An aggregate in SET over an outer column makes the join an
                // aggregate query (SQLite's rule): over no rows its one row
                // names no target row (a NULL rowid), which updates nothing.
                if r.first().is_some_and(Value::is_null) {
                    continue;
                }
                let Some(Value::Integer(rowid)) = r.first() else {
                    return Err(Error::Corrupt("rowid is not an integer".into()));
                };
                if seen.insert(*rowid) {
                    picked.push(r);
                }
            }
            for r in picked {
                let Value::Integer(rowid) = r[0] else { continue };
                let Some(now) = store.get(&t, rowid)? else { continue };
                let old = table_row(&t, rowid, now);
                let mut new: Row = old[..ncols].to_vec();
                for (s, v) in targets.iter().zip(&r[1..]) {
                    new[s.col] = v.clone();
                }
                if let Some(local) = target.update_row(store, &cx, rowid, old, new, action)? {
                    n += 1;
                    if let Some(r) = &mut ret {
                        r.add(&local, &cx)?;
                    }
                }
            }
        }
    }
    Ok(finish(n, ret))
}

enum Rows {
    /// The SET list over the target row, and the scan of the rows to
    /// update.
    Plain(Vec<(usize, Expr)>, crate::planner::Node),
    /// The join: rowid and SET values.
    Joined(crate::planner::Node),
}

/// Plans UPDATE FROM's join as `SELECT target.rowid, <SET values> FROM
/// target, <FROM list> WHERE <WHERE>`.
fn joined(
    b: &mut Binder,
    known_as: &str,
    u: &ast::Update,
    from: &[ast::TableWithJoins],
    targets: &[SetItem],
) -> Result<crate::planner::Node> {
    if targets.iter().any(|s| s.row.is_some()) {
        return Err(Error::Unsupported("UPDATE … FROM with SET (columns) = (SELECT …)".into()));
    }
    // The target's rowid (a WITHOUT ROWID table's internal one) by a name
    // no column can take.
    let rowid_name = crate::planner::bind::INTERNAL_ROWID;
    let mut projection = vec![ast::SelectItem::UnnamedExpr(ast::Expr::CompoundIdentifier(vec![
        ast::Ident::new(known_as),
        ast::Ident::new(rowid_name),
    ]))];
    projection.extend(targets.iter().map(|s| ast::SelectItem::UnnamedExpr(s.value.clone())));
    let mut tables = vec![u.table.clone()];
    tables.extend(from.iter().cloned());
    let select = ast::Select {
        select_token: ast::helpers::attached_token::AttachedToken::empty(),
        optimizer_hints: Vec::new(),
        distinct: None,
        select_modifiers: None,
        top: None,
        top_before_distinct: false,
        projection,
        exclude: None,
        into: None,
        from: tables,
        lateral_views: Vec::new(),
        prewhere: None,
        selection: u.selection.clone(),
        connect_by: Vec::new(),
        group_by: ast::GroupByExpr::Expressions(Vec::new(), Vec::new()),
        cluster_by: Vec::new(),
        distribute_by: Vec::new(),
        sort_by: Vec::new(),
        having: None,
        named_window: Vec::new(),
        qualify: None,
        window_before_qualify: false,
        value_table_mode: None,
        flavor: ast::SelectFlavor::Standard,
    };
    let q = crate::parse::query_of(None, ast::SetExpr::Select(Box::new(select)));
    Ok(plan_query(b, &q)?.node)
}
