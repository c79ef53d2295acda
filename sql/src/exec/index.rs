//! Index entries from table rows: the one place that says what key a row
//! has in an index — its columns or expressions, each folded by the key
//! part's collation ([`Collation::fold`]), and whether a partial index
//! holds the row at all. Writes (`dml`), CREATE INDEX and REINDEX, and the
//! integrity check all make keys here.

use std::sync::Arc;

use super::{Context, Operator, table_row};
use crate::catalog::{EXPR_COLUMN, IndexDef, TableDef};
use crate::expr::Expr;
use crate::planner::Binder;
use crate::planner::bind::{Scope, ScopeTable};
use crate::storage::{Row, RowCursor};
use crate::value::Value;
use crate::{Error, Result};

/// The scope of one table's local row (its columns, then the rowid):
/// what CHECK constraints, generated columns, index expressions and
/// partial-index predicates are bound against.
pub fn table_scope(t: &Arc<TableDef>) -> Scope {
    Scope {
        tables: vec![ScopeTable {
            name: t.name.clone(),
            columns: t
                .columns
                .iter()
                .map(|c| (c.name.clone(), Some(c.affinity), c.collation))
                .collect(),
            offset: 0,
            rowid: (!t.without_rowid).then_some(t.columns.len()),
            table: Some(t.clone()),
            hidden: Vec::new(),
            join: crate::planner::JoinKind::Inner,
            func: None,
            pseudo_row: false,
        }],
        width: t.columns.len() + 1,
    }
}

/// Binds expressions over one table's local row.
pub fn bind_in_table(
    b: &mut Binder,
    t: &Arc<TableDef>,
    es: &[&sqlparser::ast::Expr],
) -> Result<Vec<Expr>> {
    b.push_scope(table_scope(t));
    let r = es.iter().map(|e| b.bind_expr(e)).collect();
    b.pop_scope();
    r
}

/// How the entries of one index are made.
pub struct IndexKeys {
    pub index: Arc<IndexDef>,
    /// Bound expression of each key part that is one.
    exprs: Vec<Option<Expr>>,
    predicate: Option<Expr>,
}

impl IndexKeys {
    pub fn new(b: &mut Binder, t: &Arc<TableDef>, ix: &Arc<IndexDef>) -> Result<IndexKeys> {
        let mut exprs = Vec::with_capacity(ix.exprs.len());
        for e in &ix.exprs {
            exprs.push(match e {
                Some(e) => Some(bind_key_expr(b, t, e, "index expressions")?),
                None => None,
            });
        }
        let predicate = match &ix.predicate {
            Some(p) => Some(bind_key_expr(b, t, p, "partial index WHERE clauses")?),
            None => None,
        };
        Ok(IndexKeys { index: ix.clone(), exprs, predicate })
    }

    /// The entry key of the table row `local` (columns then rowid), or
    /// `None` when a partial index leaves the row out.
    pub fn key(&self, local: &[Value], cx: &Context) -> Result<Option<Vec<Value>>> {
        if let Some(p) = &self.predicate
            && !p.is_true(local, cx)?
        {
            return Ok(None);
        }
        let ix = &self.index;
        let mut key = Vec::with_capacity(ix.columns.len());
        for (j, &c) in ix.columns.iter().enumerate() {
            let v = if c == EXPR_COLUMN {
                match &self.exprs[j] {
                    Some(e) => e.eval(local, cx)?,
                    None => return Err(Error::Corrupt("index expression missing".into())),
                }
            } else {
                local.get(c).cloned().ok_or_else(|| crate::expr::bad_col(c))?
            };
            key.push(ix.collations[j].fold_owned(v));
        }
        Ok(Some(key))
    }

    /// Key part `j` as an expression over the table's local row: the
    /// column, or the bound expression (without an outer COLLATE: the key
    /// part's collation is the index's).
    pub fn part(&self, j: usize) -> Expr {
        match &self.exprs[j] {
            Some(e) => e.without_collate().clone(),
            None => Expr::Column(self.index.columns[j]),
        }
    }

    /// A partial index's WHERE, bound over the table's local row.
    pub fn predicate(&self) -> Option<&Expr> {
        self.predicate.as_ref()
    }

    /// True if the index is UNIQUE.
    pub fn unique(&self) -> bool {
        self.index.unique
    }
}

/// The entries of an index for every row a table cursor yields, as rows
/// `key ++ [rowid]` (the rows a partial index leaves out skipped): the
/// input CREATE INDEX and REINDEX sort into key order before inserting.
pub struct IndexEntries {
    pub keys: IndexKeys,
    pub table: Arc<TableDef>,
    pub rows: Box<dyn RowCursor>,
}

impl Operator for IndexEntries {
    fn next(&mut self, cx: &Context) -> Result<Option<Row>> {
        while let Some((rowid, row)) = self.rows.next()? {
            let local = table_row(&self.table, rowid, row);
            if let Some(mut key) = self.keys.key(&local, cx)? {
                key.push(Value::Integer(rowid));
                return Ok(Some(key));
            }
        }
        Ok(None)
    }
}

/// Binds an index expression or predicate: SQLite refuses subqueries and
/// non-deterministic functions there.
fn bind_key_expr(
    b: &mut Binder,
    t: &Arc<TableDef>,
    e: &sqlparser::ast::Expr,
    what: &str,
) -> Result<Expr> {
    let bound = bind_in_table(b, t, &[e])?.remove(0);
    if bound.has_subquery() {
        return Err(Error::InvalidInput(format!("subqueries prohibited in {what}")));
    }
    Ok(bound)
}
