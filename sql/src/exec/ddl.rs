//! Statements that change the schema: CREATE TABLE [AS SELECT] / INDEX /
//! VIEW / TRIGGER, DROP of each, and REINDEX.
//!
//! Each CREATE stores its text as written ([`StmtText::stored`]), as
//! SQLite's `sqlite_schema` does; the schema is rebuilt from those texts.

use std::ops::{Bound, Range};
use std::sync::Arc;

use sqlparser::ast;
use sqlparser::tokenizer::Token;

use super::index::{IndexEntries, IndexKeys};
use super::sort::SortOp;
use super::vals::Collation;
use super::{Context, ExecState, Operator, build};
use crate::catalog::{self, IndexDef, Schema, TableDef, object_name};
use crate::expr::Expr;
use crate::parse::LineStarts;
use crate::planner::{Binder, SortKey, plan_query};
use crate::storage::{KeyRange, RowStore, TreeKind};
use crate::value::{Affinity, Value};
use crate::{Error, Result};

/// A statement's text: the text it was parsed from (spans point into it)
/// and the statement's byte range there.
#[derive(Clone, Debug)]
pub struct StmtText<'a> {
    pub source: &'a str,
    pub range: Range<usize>,
}

impl StmtText<'_> {
    /// SQLite's stored text of a CREATE statement: `CREATE <kind> ` and
    /// the statement from its (unqualified) object name on; `None` when the
    /// name has no position in this text.
    pub fn stored(&self, kind: &str, name: &ast::ObjectName) -> Option<String> {
        let ast::ObjectNamePart::Identifier(id) = name.0.last()? else { return None };
        let start = LineStarts::new(self.source).offset(id.span.start)?;
        (self.range.start <= start && start < self.range.end && self.range.end <= self.source.len())
            .then(|| catalog::text::stored_create(kind, self.source, start, self.range.end))
    }
}

/// The text to store for a CREATE statement: as written, or (for a
/// statement without usable positions) as `sqlparser` renders it. Either
/// way it must parse back into the same kind of statement.
fn stored_text(
    src: Option<&StmtText>,
    kind: &str,
    name: &ast::ObjectName,
    render: impl FnOnce() -> String,
    parses: impl Fn(&ast::Statement) -> bool,
) -> String {
    if let Some(s) = src.and_then(|s| s.stored(kind, name))
        && crate::parse::parse_one(&s).is_ok_and(|st| parses(&st))
    {
        return s;
    }
    render()
}

fn reserved(name: &str) -> Result<()> {
    if name.len() >= 7 && name[..7].eq_ignore_ascii_case("sqlite_") {
        return Err(Error::InvalidInput(format!("object name reserved for internal use: {name}")));
    }
    Ok(())
}

/// SQLite's "already exists" error for a new object named `name`.
fn taken(schema: &Schema, name: &str) -> Error {
    let what = if schema.table(name).is_some() {
        "table"
    } else if schema.view(name).is_some() {
        "view"
    } else if schema.index(name).is_some() {
        "index"
    } else {
        "trigger"
    };
    Error::InvalidInput(format!("{what} {name} already exists"))
}

pub fn create_table(
    store: &dyn RowStore,
    schema: &Schema,
    ct: &ast::CreateTable,
    src: Option<&StmtText>,
    budget: usize,
) -> Result<()> {
    let name = object_name(&ct.name)?;
    if schema.table(&name).is_some()
        || schema.view(&name).is_some()
        || schema.index(&name).is_some()
    {
        if ct.if_not_exists {
            return Ok(());
        }
        return Err(taken(schema, &name));
    }
    reserved(&name)?;
    if ct.temporary {
        return Err(Error::Unsupported(
            "TEMP tables (AsaDB has no connection-private schema)".into(),
        ));
    }
    if let Some(q) = &ct.query {
        return create_table_as(store, schema, &name, q, src, budget);
    }
    let sql = stored_text(
        src,
        "TABLE",
        &ct.name,
        || ct.to_string(),
        |s| matches!(s, ast::Statement::CreateTable(_)),
    );
    let ast::Statement::CreateTable(stored) = crate::parse::parse_one(&sql)? else {
        return Err(Error::Corrupt("stored CREATE TABLE does not parse back".into()));
    };
    let (def, _) = catalog::table_from_ast(&stored, 0, sql.clone())?;
    let autos = catalog::auto_indexes(&def, &stored)?;
    if def.has_generated() {
        // Generated columns bind (and do not loop) now, not at first use.
        let t = Arc::new(def.clone());
        super::dml::generated_order(&mut Binder::new(schema, store), &t)?;
    }
    add_table(store, schema, &def, &sql, &autos)
}

/// Creates the table's tree, its catalog row and its automatic indexes,
/// and `sqlite_sequence` with the first AUTOINCREMENT table.
fn add_table(
    store: &dyn RowStore,
    schema: &Schema,
    def: &TableDef,
    sql: &str,
    autos: &[IndexDef],
) -> Result<()> {
    let root = store.create_tree(TreeKind::Table)?;
    catalog::add_entry(store, "table", &def.name, &def.name, root, Some(sql))?;
    for ix in autos {
        let r = store.create_tree(TreeKind::Index)?;
        catalog::add_entry(store, "index", &ix.name, &def.name, r, None)?;
    }
    if def.autoincrement && schema.table(catalog::SEQUENCE_TABLE).is_none() {
        let r = store.create_tree(TreeKind::Table)?;
        let seq = catalog::SEQUENCE_TABLE;
        catalog::add_entry(store, "table", seq, seq, r, Some(catalog::SEQUENCE_SQL))?;
    }
    Ok(())
}

/// SQLite's keywords (lang_keywords.html): an identifier spelled like one
/// is quoted when SQLite writes it.
const KEYWORDS: &[&str] = &[
    "ABORT",
    "ACTION",
    "ADD",
    "AFTER",
    "ALL",
    "ALTER",
    "ALWAYS",
    "ANALYZE",
    "AND",
    "AS",
    "ASC",
    "ATTACH",
    "AUTOINCREMENT",
    "BEFORE",
    "BEGIN",
    "BETWEEN",
    "BY",
    "CASCADE",
    "CASE",
    "CAST",
    "CHECK",
    "COLLATE",
    "COLUMN",
    "COMMIT",
    "CONFLICT",
    "CONSTRAINT",
    "CREATE",
    "CROSS",
    "CURRENT",
    "CURRENT_DATE",
    "CURRENT_TIME",
    "CURRENT_TIMESTAMP",
    "DATABASE",
    "DEFAULT",
    "DEFERRABLE",
    "DEFERRED",
    "DELETE",
    "DESC",
    "DETACH",
    "DISTINCT",
    "DO",
    "DROP",
    "EACH",
    "ELSE",
    "END",
    "ESCAPE",
    "EXCEPT",
    "EXCLUDE",
    "EXCLUSIVE",
    "EXISTS",
    "EXPLAIN",
    "FAIL",
    "FILTER",
    "FIRST",
    "FOLLOWING",
    "FOR",
    "FOREIGN",
    "FROM",
    "FULL",
    "GENERATED",
    "GLOB",
    "GROUP",
    "GROUPS",
    "HAVING",
    "IF",
    "IGNORE",
    "IMMEDIATE",
    "IN",
    "INDEX",
    "INDEXED",
    "INITIALLY",
    "INNER",
    "INSERT",
    "INSTEAD",
    "INTERSECT",
    "INTO",
    "IS",
    "ISNULL",
    "JOIN",
    "KEY",
    "LAST",
    "LEFT",
    "LIKE",
    "LIMIT",
    "MATCH",
    "MATERIALIZED",
    "NATURAL",
    "NO",
    "NOT",
    "NOTHING",
    "NOTNULL",
    "NULL",
    "NULLS",
    "OF",
    "OFFSET",
    "ON",
    "OR",
    "ORDER",
    "OTHERS",
    "OUTER",
    "OVER",
    "PARTITION",
    "PLAN",
    "PRAGMA",
    "PRECEDING",
    "PRIMARY",
    "QUERY",
    "RAISE",
    "RANGE",
    "RECURSIVE",
    "REFERENCES",
    "REGEXP",
    "REINDEX",
    "RELEASE",
    "RENAME",
    "REPLACE",
    "RESTRICT",
    "RETURNING",
    "RIGHT",
    "ROLLBACK",
    "ROW",
    "ROWS",
    "SAVEPOINT",
    "SELECT",
    "SET",
    "TABLE",
    "TEMP",
    "TEMPORARY",
    "THEN",
    "TIES",
    "TO",
    "TRANSACTION",
    "TRIGGER",
    "UNBOUNDED",
    "UNION",
    "UNIQUE",
    "UPDATE",
    "USING",
    "VACUUM",
    "VALUES",
    "VIEW",
    "VIRTUAL",
    "WHEN",
    "WHERE",
    "WINDOW",
    "WITH",
    "WITHOUT",
];

/// An identifier as SQLite's `identPut` writes it: bare when it is a plain
/// word that is no keyword, else in double quotes.
pub fn ident_put(name: &str) -> String {
    let plain = !name.is_empty()
        && !name.as_bytes()[0].is_ascii_digit()
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && !KEYWORDS.iter().any(|k| k.eq_ignore_ascii_case(name));
    if plain { name.to_string() } else { catalog::text::quote_ident(name) }
}

/// Result column names made unique as SQLite does for a new table
/// (`name:1`, `name:2`, … for repeats).
pub fn unique_names(names: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(names.len());
    for n in names {
        let base = n.clone();
        let mut name = base.clone();
        let mut cnt = 0u32;
        while out.iter().any(|o| o.eq_ignore_ascii_case(&name)) {
            cnt += 1;
            name = format!("{base}:{cnt}");
        }
        out.push(name);
    }
    out
}

/// SQLite's `createTableStmt`: the text of a table made by CREATE TABLE …
/// AS SELECT, each column typed by its expression's affinity.
fn ctas_text(name: &str, cols: &[(String, Option<Affinity>)]) -> String {
    let ident_len = |s: &str| s.len() + s.matches('"').count() + 2;
    let n: usize = cols.iter().map(|c| ident_len(&c.0) + 5).sum::<usize>() + ident_len(name);
    let (sep, sep2, end) = if n < 50 { ("", ",", ")") } else { ("\n  ", ",\n  ", "\n)") };
    let mut s = format!("CREATE TABLE {}(", ident_put(name));
    for (i, (c, aff)) in cols.iter().enumerate() {
        s.push_str(if i == 0 { sep } else { sep2 });
        s.push_str(&ident_put(c));
        s.push_str(match aff {
            Some(Affinity::Text) => " TEXT",
            Some(Affinity::Numeric) => " NUM",
            Some(Affinity::Integer) => " INT",
            Some(Affinity::Real) => " REAL",
            Some(Affinity::Blob) | None => "",
        });
    }
    s.push_str(end);
    s
}

fn create_table_as(
    store: &dyn RowStore,
    schema: &Schema,
    name: &str,
    q: &ast::Query,
    src: Option<&StmtText>,
    budget: usize,
) -> Result<()> {
    let mut b = Binder::new(schema, store);
    b.source = src.map(|s| Arc::from(s.source));
    let plan = plan_query(&mut b, q)?;
    let names = unique_names(&plan.columns);
    let cols: Vec<(String, Option<Affinity>)> =
        names.into_iter().zip(plan.affinities.iter().copied()).collect();
    let sql = ctas_text(name, &cols);
    let ast::Statement::CreateTable(ct) = crate::parse::parse_one(&sql)? else {
        return Err(Error::Corrupt("CREATE TABLE … AS SELECT text does not parse".into()));
    };
    let (def, _) = catalog::table_from_ast(&ct, 0, sql.clone())?;
    // The rows first (the new table is not there yet), then the table.
    let cache = ExecState::default();
    let mut cx = Context::new(store, &[], &cache);
    cx.budget = budget;
    let mut op = build(&plan.node);
    let mut rows = Vec::new();
    while let Some(r) = op.next(&cx)? {
        rows.push(r);
    }
    add_table(store, schema, &def, &sql, &[])?;
    let root = store.catalog_root()?.ok_or_else(|| Error::Corrupt("no catalog".into()))?;
    let created = catalog::catalog_rows(store)?
        .into_iter()
        .rev()
        .find(|r| r.kind == "table" && r.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| Error::Corrupt(format!("catalog {root}: {name} missing")))?;
    let t = TableDef { root: created.root, ..def };
    for (i, r) in rows.into_iter().enumerate() {
        let row: Vec<Value> =
            r.into_iter().zip(&t.columns).map(|(v, c)| c.affinity.apply(v)).collect();
        store.insert(&t, i as i64 + 1, &row)?;
    }
    Ok(())
}

/// Puts an entry for every row of `t` into the (empty) index `ix`,
/// refusing duplicate keys of a UNIQUE index. The entries are sorted
/// first (by the external sort, [`SortOp`]: past `budget` bytes it spills
/// sorted runs to temporary files and merges them), so they go into the
/// index in key order — each one appended to the right-most leaf (the
/// store's append hint) instead of a descent to a random leaf — and the
/// statement's memory stays within the budget whatever the table's size.
fn fill_index(
    store: &dyn RowStore,
    schema: &Schema,
    t: &Arc<TableDef>,
    ix: &Arc<IndexDef>,
    budget: usize,
) -> Result<()> {
    let mut b = Binder::new(schema, store);
    let keys = IndexKeys::new(&mut b, t, ix)?;
    let cache = ExecState::default();
    let mut cx = Context::new(store, &[], &cache);
    cx.budget = budget;
    let rows = store.scan(t, (Bound::Unbounded, Bound::Unbounded), false)?;
    let entries = IndexEntries { keys, table: t.clone(), rows };
    // The stores' key order: each column in its direction (NULLs lowest),
    // then the rowid. Keys are already folded by their collations.
    let n = ix.columns.len();
    let order = (0..=n)
        .map(|j| {
            let desc = ix.desc.get(j).copied().unwrap_or(false);
            SortKey { expr: Expr::Column(j), desc, coll: Collation::Binary, nulls_first: !desc }
        })
        .collect();
    let mut sorted = SortOp::new(Box::new(entries), order);
    while let Some(mut entry) = sorted.next(&cx)? {
        let rowid = match entry.pop() {
            Some(Value::Integer(r)) => r,
            other => return Err(Error::Internal(format!("index entry rowid {other:?}"))),
        };
        let key = entry;
        if ix.unique
            && !key.iter().any(|v| matches!(v, Value::Null))
            && store.index_lookup(ix, &key)?.is_some()
        {
            let what = if ix.has_exprs() {
                format!("index '{}'", ix.name)
            } else {
                ix.columns
                    .iter()
                    .map(|c| format!("{}.{}", t.name, t.columns[*c].name))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            return Err(Error::Constraint(format!("UNIQUE constraint failed: {what}")));
        }
        store.index_insert(ix, &key, rowid)?;
    }
    Ok(())
}

pub fn create_index(
    store: &dyn RowStore,
    schema: &Schema,
    ci: &ast::CreateIndex,
    src: Option<&StmtText>,
    budget: usize,
) -> Result<()> {
    let Some(name) = &ci.name else {
        return Err(Error::InvalidInput("CREATE INDEX needs a name".into()));
    };
    let kind = if ci.unique { "UNIQUE INDEX" } else { "INDEX" };
    let sql = stored_text(
        src,
        kind,
        name,
        || ci.to_string(),
        |s| matches!(s, ast::Statement::CreateIndex(_)),
    );
    let ix_name = object_name(name)?;
    if schema.exists(&ix_name) {
        if ci.if_not_exists && schema.index(&ix_name).is_some() {
            return Ok(());
        }
        return Err(match schema.index(&ix_name) {
            Some(_) => Error::InvalidInput(format!("index {ix_name} already exists")),
            None => Error::InvalidInput(format!("there is already a table named {ix_name}")),
        });
    }
    reserved(&ix_name)?;
    let tname = object_name(&ci.table_name)?;
    if schema.view(&tname).is_some() {
        return Err(Error::InvalidInput("views may not be indexed".into()));
    }
    if catalog::is_schema_table(&tname) {
        return Err(Error::InvalidInput(format!("table {tname} may not be indexed")));
    }
    let mut ix = catalog::index_from_ast(schema, ci, 0, sql.clone())?;
    let t = schema.must_table(&ix.table)?.clone();
    ix.root = store.create_tree(TreeKind::Index)?;
    let ix = Arc::new(ix);
    fill_index(store, schema, &t, &ix, budget)?;
    catalog::add_entry(store, "index", &ix.name, &t.name, ix.root, Some(&sql))
}

pub fn create_view(
    store: &dyn RowStore,
    schema: &Schema,
    cv: &ast::CreateView,
    src: Option<&StmtText>,
) -> Result<()> {
    let name = object_name(&cv.name)?;
    if schema.exists(&name) {
        if cv.if_not_exists {
            return Ok(());
        }
        return Err(taken(schema, &name));
    }
    reserved(&name)?;
    if cv.temporary {
        return Err(Error::Unsupported(
            "TEMP views (AsaDB has no connection-private schema)".into(),
        ));
    }
    // As SQLite, the view's names are resolved when it is used, not now:
    // a view of a table dropped later, or created before it, is kept (a
    // dump loads it). Only what SQLite's parser refuses is refused here.
    let sql = stored_text(
        src,
        "VIEW",
        &cv.name,
        || cv.to_string(),
        |s| matches!(s, ast::Statement::CreateView(_)),
    );
    let params = crate::catalog::text::tokens(&sql)
        .is_some_and(|toks| toks.iter().any(|t| matches!(t.token, Token::Placeholder(_))));
    if params {
        return Err(Error::InvalidInput("parameters are not allowed in views".into()));
    }
    catalog::add_entry(store, "view", &name, &name, 0, Some(&sql))
}

/// Deletes the `sqlite_sequence` row of a table (DROP TABLE).
fn forget_sequence(store: &dyn RowStore, schema: &Schema, table: &str) -> Result<()> {
    let Some(st) = schema.table(catalog::SEQUENCE_TABLE) else { return Ok(()) };
    let mut cur = store.scan(st, (Bound::Unbounded, Bound::Unbounded), false)?;
    let mut doomed = Vec::new();
    while let Some((rowid, row)) = cur.next()? {
        if matches!(row.first(), Some(Value::Text(n)) if n.eq_ignore_ascii_case(table)) {
            doomed.push(rowid);
        }
    }
    for rowid in doomed {
        store.delete(st, rowid)?;
    }
    Ok(())
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
                if catalog::is_schema_table(&name)
                    || name.eq_ignore_ascii_case(catalog::SEQUENCE_TABLE)
                {
                    return Err(Error::InvalidInput(format!("table {name} may not be dropped")));
                }
                let Some(t) = schema.table(&name) else {
                    if if_exists {
                        continue;
                    }
                    if schema.view(&name).is_some() {
                        return Err(Error::InvalidInput(format!(
                            "use DROP VIEW to delete view {name}"
                        )));
                    }
                    return Err(Error::NotFound(format!("no such table: {name}")));
                };
                let mut gone = vec![t.name.clone()];
                for ix in schema.table_indexes(&t.name) {
                    store.drop_tree(ix.root, TreeKind::Index)?;
                    gone.push(ix.name.clone());
                }
                for tr in schema.table_triggers(&t.name) {
                    gone.push(tr.name.clone());
                }
                store.drop_tree(t.root, TreeKind::Table)?;
                if t.autoincrement {
                    forget_sequence(store, schema, &t.name)?;
                }
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
                    if schema.table(&name).is_some() {
                        return Err(Error::InvalidInput(format!(
                            "use DROP TABLE to delete table {name}"
                        )));
                    }
                    return Err(Error::NotFound(format!("no such view: {name}")));
                };
                let mut gone = vec![v.name.clone()];
                gone.extend(schema.table_triggers(&v.name).iter().map(|t| t.name.clone()));
                catalog::remove_entries(store, &gone)?;
            }
            other => return Err(Error::Unsupported(format!("DROP {other}"))),
        }
    }
    Ok(())
}

/// REINDEX [name]: rebuilds every index, the indexes of a table, one
/// index, or the indexes using a collation.
pub fn reindex(
    store: &dyn RowStore,
    schema: &Schema,
    name: Option<&ast::ObjectName>,
    budget: usize,
) -> Result<()> {
    let all: Vec<Arc<IndexDef>> = schema.indexes.values().cloned().collect();
    let chosen: Vec<Arc<IndexDef>> = match name {
        None => all,
        Some(n) => {
            let n = object_name(n)?;
            if let Some(c) = catalog::collation_of(&n).ok().filter(|_| schema.table(&n).is_none()) {
                all.into_iter().filter(|ix| ix.collations.contains(&c)).collect()
            } else if let Some(t) = schema.table(&n) {
                schema.table_indexes(&t.name)
            } else if let Some(ix) = schema.index(&n) {
                vec![ix.clone()]
            } else {
                return Err(Error::NotFound(
                    "unable to identify the object to be reindexed".into(),
                ));
            }
        }
    };
    for ix in chosen {
        let t = schema.must_table(&ix.table)?.clone();
        let mut cur = store.scan_index(&ix, KeyRange::all(), false)?;
        let mut entries = Vec::new();
        while let Some(e) = cur.next()? {
            entries.push(e);
        }
        for (key, rowid) in entries {
            store.index_delete(&ix, &key, rowid)?;
        }
        fill_index(store, schema, &t, &ix, budget)?;
    }
    Ok(())
}
