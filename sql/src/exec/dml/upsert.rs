//! UPSERT (SQLite's lang_upsert): `INSERT … ON CONFLICT [(columns)
//! [WHERE …]] DO NOTHING | DO UPDATE SET … [WHERE …]`, one or several
//! clauses, only the last without a target.
//!
//! Decisions, as SQLite:
//! - Upsert clauses concern uniqueness only (the rowid / PRIMARY KEY and
//!   UNIQUE indexes). A row is first checked for NOT NULL, STRICT and
//!   CHECK as any insert ([`Target::prepare`]); then each clause in order
//!   looks at its own constraint (a clause without a target at all of
//!   them, the rowid first); the first that finds a conflicting row
//!   decides. Without one the row is inserted under the statement's own
//!   conflict action (`INSERT OR …`, else ABORT).
//! - A target names the columns of a PRIMARY KEY or UNIQUE constraint or
//!   of a unique index, in any order; a partial index matches only a
//!   target whose WHERE is the index's WHERE, written the same way.
//!   Anything else is "ON CONFLICT clause does not match any PRIMARY KEY
//!   or UNIQUE constraint". Expression indexes cannot be named: the
//!   parser takes column names only.
//! - DO UPDATE updates the conflicting row through the same per-row code
//!   as UPDATE ([`Target::update_row`]): UPDATE triggers, foreign key
//!   checks and actions, constraint checks with ABORT. Unqualified (or
//!   table- or alias-qualified) names are the existing row, `excluded.`
//!   the row that was to be inserted (rowid and defaults filled in). A
//!   WHERE that is not true leaves the row alone and counts nothing.
//! - The BEFORE INSERT triggers of the row have fired by then; AFTER
//!   INSERT triggers fire only for rows inserted.

use std::sync::Arc;

use sqlparser::ast;

use super::{Conflict, Target, bind_sets, set_targets};
use crate::catalog::{Schema, TableDef};
use crate::exec::fkey::{Checks, Write};
use crate::exec::index::table_scope;
use crate::exec::{Context, table_row};
use crate::expr::Expr;
use crate::planner::Binder;
use crate::planner::bind::Scope;
use crate::storage::{Row, RowStore};
use crate::value::Value;
use crate::{Error, Result};

/// The bound upsert clauses of one INSERT.
pub(super) struct Upsert<'a> {
    clauses: Vec<Clause<'a>>,
}

struct Clause<'a> {
    /// The constraint the clause watches; `None`: every one.
    arbiter: Option<Arbiter>,
    /// `None`: DO NOTHING.
    update: Option<DoUpdate<'a>>,
}

#[derive(Clone, Copy)]
enum Arbiter {
    Rowid,
    /// A position in the insert [`Target`]'s indexes.
    Index(usize),
}

struct DoUpdate<'a> {
    /// The UPDATE side: its triggers and foreign keys are an UPDATE's of
    /// the SET columns.
    target: Target<'a>,
    /// Bound over the existing row, then the `excluded` row.
    sets: Vec<(usize, Expr)>,
    filter: Option<Expr>,
}

/// A DO UPDATE's SET list and WHERE, bound.
type Bound = (Vec<(usize, Expr)>, Option<Expr>);

/// What became of one row.
pub(super) enum Resolved {
    /// No clause applies: insert it.
    Insert,
    /// DO NOTHING, or a DO UPDATE whose WHERE or triggers skipped it.
    Nothing,
    /// DO UPDATE wrote this row.
    Updated(Row),
}

const NO_MATCH: &str = "ON CONFLICT clause does not match any PRIMARY KEY or UNIQUE constraint";

impl<'a> Upsert<'a> {
    /// Binds the clauses; `name` is the table's name in the statement (its
    /// alias, if it has one).
    pub(super) fn bind(
        b: &mut Binder,
        schema: &'a Schema,
        fk: &'a Checks,
        ins: &Target,
        clauses: &[&ast::OnConflict],
        name: &str,
    ) -> Result<Upsert<'a>> {
        let t = &ins.table;
        let mut out = Vec::new();
        for c in clauses {
            let arbiter = match &c.conflict_target {
                None => None,
                Some(ast::ConflictTarget::Columns { columns, predicate }) => {
                    Some(arbiter(t, ins, columns, predicate.as_ref())?)
                }
                Some(ast::ConflictTarget::OnConstraint(n)) => {
                    return Err(Error::Parse(format!(
                        "near \"ON CONSTRAINT {n}\": syntax error (SQLite names a conflict \
                         target by its columns)"
                    )));
                }
            };
            let update = match &c.action {
                ast::OnConflictAction::DoNothing => None,
                ast::OnConflictAction::DoUpdate(du) => {
                    let targets = set_targets(t, &du.assignments)?;
                    let set_cols: Vec<usize> = targets.iter().map(|s| s.col).collect();
                    let target = Target::new(b, schema, t, fk, Write::Update(&set_cols))?;
                    b.push_scope(upsert_scope(t, name));
                    let bound = (|| -> Result<Bound> {
                        let sets = bind_sets(b, &targets)?;
                        let filter = du.selection.as_ref().map(|w| b.bind_expr(w)).transpose()?;
                        Ok((sets, filter))
                    })();
                    b.pop_scope();
                    let (sets, filter) = bound?;
                    Some(DoUpdate { target, sets, filter })
                }
            };
            out.push(Clause { arbiter, update });
        }
        Ok(Upsert { clauses: out })
    }

    /// Decides the fate of a prepared row (`rowid`, `local`) that is not
    /// stored yet.
    pub(super) fn resolve(
        &self,
        store: &dyn RowStore,
        cx: &Context,
        ins: &Target,
        rowid: i64,
        local: &[Value],
    ) -> Result<Resolved> {
        for c in &self.clauses {
            let other = match c.arbiter {
                Some(a) => conflict(store, cx, ins, a, rowid, local)?,
                None => {
                    let mut found = None;
                    for a in all_arbiters(ins) {
                        found = conflict(store, cx, ins, a, rowid, local)?;
                        if found.is_some() {
                            break;
                        }
                    }
                    found
                }
            };
            let Some(other) = other else { continue };
            let Some(du) = &c.update else { return Ok(Resolved::Nothing) };
            return du.apply(store, cx, other, local);
        }
        Ok(Resolved::Insert)
    }
}

impl DoUpdate<'_> {
    fn apply(
        &self,
        store: &dyn RowStore,
        cx: &Context,
        rowid: i64,
        excluded: &[Value],
    ) -> Result<Resolved> {
        let t = &self.target.table;
        let Some(stored) = store.get(t, rowid)? else {
            return Err(Error::Corrupt("the conflicting row has no table row".into()));
        };
        let old = table_row(t, rowid, stored);
        let mut env = old.clone();
        env.extend_from_slice(excluded);
        if let Some(f) = &self.filter
            && !f.is_true(&env, cx)?
        {
            return Ok(Resolved::Nothing);
        }
        let mut new: Row = old[..t.columns.len()].to_vec();
        for (c, e) in &self.sets {
            new[*c] = e.eval(&env, cx)?;
        }
        Ok(match self.target.update_row(store, cx, rowid, old, new, Conflict::Abort)? {
            Some(row) => Resolved::Updated(row),
            None => Resolved::Nothing,
        })
    }
}

/// The names DO UPDATE sees: the table (under `name`), then `excluded`.
fn upsert_scope(t: &Arc<TableDef>, name: &str) -> Scope {
    let mut s = table_scope(t);
    s.tables[0].name = name.to_string();
    let mut ex = s.tables[0].clone();
    ex.name = "excluded".into();
    ex.pseudo_row = true;
    ex.offset = s.width;
    // Only `excluded.x` reaches the row that was to be inserted.
    ex.hidden = t.columns.iter().map(|c| c.name.clone()).collect();
    ex.hidden.extend(["rowid", "oid", "_rowid_"].map(String::from));
    s.tables.push(ex);
    s.width *= 2;
    s
}

/// Every uniqueness constraint, in the order a clause without a target
/// looks at them: the rowid, then the unique indexes.
fn all_arbiters<'t>(ins: &'t Target) -> impl Iterator<Item = Arbiter> + 't {
    let rowid = (!ins.table.without_rowid).then_some(Arbiter::Rowid);
    rowid.into_iter().chain(
        ins.indexes
            .iter()
            .enumerate()
            .filter(|(_, ik)| ik.unique())
            .map(|(i, _)| Arbiter::Index(i)),
    )
}

/// The row the prepared row collides with under one constraint.
fn conflict(
    store: &dyn RowStore,
    cx: &Context,
    ins: &Target,
    a: Arbiter,
    rowid: i64,
    local: &[Value],
) -> Result<Option<i64>> {
    match a {
        Arbiter::Rowid => Ok(store.get(&ins.table, rowid)?.map(|_| rowid)),
        Arbiter::Index(i) => {
            let ik = &ins.indexes[i];
            let Some(key) = ik.key(local, cx)? else { return Ok(None) };
            if key.iter().any(|v| matches!(v, Value::Null)) {
                return Ok(None);
            }
            store.index_lookup(&ik.index, &key)
        }
    }
}

/// The constraint a conflict target names.
fn arbiter(
    t: &TableDef,
    ins: &Target,
    columns: &[ast::Ident],
    predicate: Option<&ast::Expr>,
) -> Result<Arbiter> {
    let rowid_names = ["rowid", "oid", "_rowid_"];
    let mut cols = Vec::new();
    let mut rowid = false;
    for c in columns {
        match t.column_index(&c.value) {
            Some(i) if Some(i) == t.rowid_alias => rowid = true,
            Some(i) => cols.push(i),
            None if !t.without_rowid
                && rowid_names.iter().any(|r| c.value.eq_ignore_ascii_case(r)) =>
            {
                rowid = true
            }
            None => return Err(Error::InvalidInput(format!("no such column: {}", c.value))),
        }
    }
    if rowid && cols.is_empty() && columns.len() == 1 {
        return Ok(Arbiter::Rowid);
    }
    let same_expr =
        |a: &ast::Expr, b: &ast::Expr| a.to_string().eq_ignore_ascii_case(&b.to_string());
    for (i, ik) in ins.indexes.iter().enumerate() {
        let ix = &ik.index;
        if !ix.unique || ix.has_exprs() || ix.columns.len() != columns.len() {
            continue;
        }
        if let Some(p) = &ix.predicate {
            match predicate {
                Some(q) if same_expr(p, q) => {}
                _ => continue,
            }
        }
        // SQLite's test (sqlite3UpsertAnalyzeTarget): as many target terms
        // as key columns, each key column among the terms — so `(c0, c1)`
        // names a unique index on `(c1, c1)`, whether `c0` is the rowid or
        // not (a term no key column matches is not looked at).
        if ix.columns.iter().all(|c| cols.contains(c)) {
            return Ok(Arbiter::Index(i));
        }
    }
    Err(Error::InvalidInput(NO_MATCH.into()))
}
