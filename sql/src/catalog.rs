//! The catalog: what tables, indexes and views exist.
//!
//! It is stored like SQLite's `sqlite_schema`: a table (root in the store's
//! `catalog_root`) of rows `(type, name, tbl_name, rootpage, sql)`. The
//! in-memory [`Schema`] is rebuilt by re-parsing the stored `sql` texts, so
//! the text is the single source of truth. Indexes made for UNIQUE / PRIMARY
//! KEY constraints are rows of type `index` with a NULL `sql`, named
//! `sqlite_autoindex_<table>_<n>` (n counts the constraints of the table in
//! declaration order, from 1).
//!
//! Every schema change bumps the store's schema cookie (transactional), so
//! caches of a [`Schema`] know when to reload.

use std::collections::BTreeMap;
use std::ops::Bound;
use std::sync::Arc;

use sqlparser::ast;

use crate::exec::vals::{Affinity, Collation};
use crate::storage::{RowStore, TreeKind};
use crate::value::Value;
use crate::{Error, Result};

/// One declared column.
#[derive(Clone, Debug)]
pub struct ColumnDef {
    pub name: String,
    pub decl_type: Option<String>,
    pub affinity: Affinity,
    pub not_null: bool,
    pub default: Option<ast::Expr>,
    pub collation: Collation,
    /// The value of this column in rows stored before it was added by
    /// ALTER TABLE ADD COLUMN (its constant default, else NULL).
    pub pad: Value,
}

/// A table: its columns, constraints and tree root.
#[derive(Clone, Debug)]
pub struct TableDef {
    pub name: String,
    pub root: u32,
    pub columns: Vec<ColumnDef>,
    /// The `INTEGER PRIMARY KEY` column, which is the rowid.
    pub rowid_alias: Option<usize>,
    pub checks: Vec<ast::Expr>,
    /// The `CREATE TABLE` text (as re-rendered by sqlparser).
    pub sql: String,
}

impl TableDef {
    pub fn column_index(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c.name.eq_ignore_ascii_case(name))
    }
}

/// An index over columns of one table.
#[derive(Clone, Debug)]
pub struct IndexDef {
    pub name: String,
    pub table: String,
    pub root: u32,
    /// Positions of the indexed columns in the table.
    pub columns: Vec<usize>,
    pub desc: Vec<bool>,
    pub unique: bool,
    /// `CREATE INDEX` text; `None` for automatic (constraint) indexes.
    pub sql: Option<String>,
}

/// A view: a named query.
#[derive(Clone, Debug)]
pub struct ViewDef {
    pub name: String,
    pub columns: Vec<String>,
    pub query: Box<ast::Query>,
    pub sql: String,
}

/// The in-memory schema; names are looked up case-insensitively.
#[derive(Clone, Debug, Default)]
pub struct Schema {
    pub tables: BTreeMap<String, Arc<TableDef>>,
    pub indexes: BTreeMap<String, Arc<IndexDef>>,
    pub views: BTreeMap<String, Arc<ViewDef>>,
    pub cookie: u64,
}

impl Schema {
    pub fn table(&self, name: &str) -> Option<&Arc<TableDef>> {
        self.tables.get(&name.to_ascii_lowercase())
    }
    pub fn view(&self, name: &str) -> Option<&Arc<ViewDef>> {
        self.views.get(&name.to_ascii_lowercase())
    }
    pub fn index(&self, name: &str) -> Option<&Arc<IndexDef>> {
        self.indexes.get(&name.to_ascii_lowercase())
    }
    /// Indexes of a table, in name order.
    pub fn table_indexes(&self, table: &str) -> Vec<Arc<IndexDef>> {
        self.indexes.values().filter(|i| i.table.eq_ignore_ascii_case(table)).cloned().collect()
    }
    pub fn must_table(&self, name: &str) -> Result<&Arc<TableDef>> {
        self.table(name).ok_or_else(|| Error::NotFound(format!("no such table: {name}")))
    }
    pub fn exists(&self, name: &str) -> bool {
        self.table(name).is_some() || self.view(name).is_some() || self.index(name).is_some()
    }

    /// Reads the catalog table and rebuilds the schema.
    pub fn load(store: &dyn RowStore) -> Result<Schema> {
        let mut schema = Schema { cookie: store.schema_cookie()?, ..Schema::default() };
        let Some(root) = store.catalog_root()? else { return Ok(schema) };
        let cat = catalog_table(root);
        let mut rows = Vec::new();
        let mut cur = store.scan(&cat, (Bound::Unbounded, Bound::Unbounded), false)?;
        while let Some((_, row)) = cur.next()? {
            rows.push(CatalogRow::from_row(&row)?);
        }
        // Tables first: indexes and views refer to them.
        let mut autos: BTreeMap<String, u32> = BTreeMap::new();
        for r in &rows {
            match r.kind.as_str() {
                "table" => {
                    let stmt = parse_one(&r.sql)?;
                    let ast::Statement::CreateTable(ct) = stmt else {
                        return Err(Error::Corrupt(format!("catalog: bad table sql {}", r.sql)));
                    };
                    let (t, _) = table_from_ast(&ct, r.root, r.sql.clone())?;
                    schema.tables.insert(t.name.to_ascii_lowercase(), Arc::new(t));
                }
                "index" if r.sql.is_empty() => {
                    autos.insert(r.name.to_ascii_lowercase(), r.root);
                }
                _ => {}
            }
        }
        for t in schema.tables.values().cloned().collect::<Vec<_>>() {
            let ct = match parse_one(&t.sql)? {
                ast::Statement::CreateTable(ct) => ct,
                _ => return Err(Error::Corrupt("catalog: bad table sql".into())),
            };
            for mut ix in auto_indexes(&t, &ct)? {
                let Some(root) = autos.get(&ix.name.to_ascii_lowercase()) else {
                    return Err(Error::Corrupt(format!("catalog: missing {}", ix.name)));
                };
                ix.root = *root;
                schema.indexes.insert(ix.name.to_ascii_lowercase(), Arc::new(ix));
            }
        }
        for r in &rows {
            match r.kind.as_str() {
                "index" if !r.sql.is_empty() => {
                    let ast::Statement::CreateIndex(ci) = parse_one(&r.sql)? else {
                        return Err(Error::Corrupt(format!("catalog: bad index sql {}", r.sql)));
                    };
                    let ix = index_from_ast(&schema, &ci, r.root, r.sql.clone())?;
                    schema.indexes.insert(ix.name.to_ascii_lowercase(), Arc::new(ix));
                }
                "view" => {
                    let ast::Statement::CreateView(cv) = parse_one(&r.sql)? else {
                        return Err(Error::Corrupt(format!("catalog: bad view sql {}", r.sql)));
                    };
                    let v = view_from_ast(&cv, r.sql.clone());
                    schema.views.insert(v.name.to_ascii_lowercase(), Arc::new(v));
                }
                _ => {}
            }
        }
        Ok(schema)
    }
}

/// One row of the catalog table.
struct CatalogRow {
    kind: String,
    name: String,
    root: u32,
    sql: String,
}

impl CatalogRow {
    fn from_row(row: &[Value]) -> Result<CatalogRow> {
        let text = |i: usize| match row.get(i) {
            Some(Value::Text(s)) => Ok(s.clone()),
            Some(Value::Null) => Ok(String::new()),
            _ => Err(Error::Corrupt("catalog: bad row".into())),
        };
        let root = match row.get(3) {
            Some(Value::Integer(r)) => u32::try_from(*r).map_err(|_| bad_root())?,
            _ => return Err(bad_root()),
        };
        Ok(CatalogRow { kind: text(0)?, name: text(1)?, root, sql: text(4)? })
    }
}

fn bad_root() -> Error {
    Error::Corrupt("catalog: bad rootpage".into())
}

/// The definition of the catalog table itself.
pub fn catalog_table(root: u32) -> TableDef {
    let col = |n: &str, t: &str| ColumnDef {
        name: n.into(),
        decl_type: Some(t.into()),
        affinity: Affinity::from_declared_type(Some(t)),
        not_null: false,
        default: None,
        collation: Collation::Binary,
        pad: Value::Null,
    };
    TableDef {
        name: "sqlite_schema".into(),
        root,
        columns: vec![
            col("type", "TEXT"),
            col("name", "TEXT"),
            col("tbl_name", "TEXT"),
            col("rootpage", "INTEGER"),
            col("sql", "TEXT"),
        ],
        rowid_alias: None,
        checks: Vec::new(),
        sql: String::new(),
    }
}

/// Adds a catalog row, creating the catalog table on first use, and bumps
/// the schema cookie.
pub fn add_entry(
    store: &dyn RowStore,
    kind: &str,
    name: &str,
    tbl: &str,
    root: u32,
    sql: Option<&str>,
) -> Result<()> {
    let root_cat = match store.catalog_root()? {
        Some(r) => r,
        None => {
            let r = store.create_tree(TreeKind::Table)?;
            store.set_catalog_root(r)?;
            r
        }
    };
    let cat = catalog_table(root_cat);
    let rowid = store.max_rowid(&cat)?.unwrap_or(0) + 1;
    let row = vec![
        Value::Text(kind.into()),
        Value::Text(name.into()),
        Value::Text(tbl.into()),
        Value::Integer(root.into()),
        sql.map_or(Value::Null, |s| Value::Text(s.into())),
    ];
    store.insert(&cat, rowid, &row)?;
    bump_cookie(store)
}

/// Removes every catalog row whose `name` matches, and bumps the cookie.
pub fn remove_entries(store: &dyn RowStore, names: &[String]) -> Result<()> {
    let Some(root) = store.catalog_root()? else { return Ok(()) };
    let cat = catalog_table(root);
    let mut doomed = Vec::new();
    let mut cur = store.scan(&cat, (Bound::Unbounded, Bound::Unbounded), false)?;
    while let Some((rowid, row)) = cur.next()? {
        if let Some(Value::Text(n)) = row.get(1)
            && names.iter().any(|x| x.eq_ignore_ascii_case(n))
        {
            doomed.push(rowid);
        }
    }
    for rowid in doomed {
        store.delete(&cat, rowid)?;
    }
    bump_cookie(store)
}

/// Rewrites the `name`, `tbl_name` and `sql` of the catalog row named `old`.
pub fn rewrite_entry(
    store: &dyn RowStore,
    old: &str,
    new_name: &str,
    new_tbl: &str,
    sql: Option<&str>,
) -> Result<()> {
    let Some(root) = store.catalog_root()? else { return Ok(()) };
    let cat = catalog_table(root);
    let mut found = Vec::new();
    let mut cur = store.scan(&cat, (Bound::Unbounded, Bound::Unbounded), false)?;
    while let Some((rowid, row)) = cur.next()? {
        if matches!(row.get(1), Some(Value::Text(n)) if n.eq_ignore_ascii_case(old)) {
            found.push((rowid, row));
        }
    }
    for (rowid, mut row) in found {
        row[1] = Value::Text(new_name.into());
        row[2] = Value::Text(new_tbl.into());
        if let Some(s) = sql {
            row[4] = Value::Text(s.into());
        }
        store.insert(&cat, rowid, &row)?;
    }
    bump_cookie(store)
}

fn bump_cookie(store: &dyn RowStore) -> Result<()> {
    store.set_schema_cookie(store.schema_cookie()? + 1)
}

fn parse_one(sql: &str) -> Result<ast::Statement> {
    let mut v = crate::parse::parse_sql(sql)
        .map_err(|e| Error::Corrupt(format!("catalog sql does not parse: {e}")))?;
    if v.len() != 1 {
        return Err(Error::Corrupt("catalog sql is not one statement".into()));
    }
    Ok(v.remove(0))
}

/// The value of a constant DEFAULT expression (a literal, maybe signed, in
/// parentheses or not); `None` if it is not constant.
pub fn constant_default(e: &ast::Expr) -> Option<Value> {
    match e {
        ast::Expr::Nested(x) => constant_default(x),
        ast::Expr::Value(v) => match &v.value {
            ast::Value::Number(s, _) => crate::planner::bind::number_literal(s).ok(),
            ast::Value::SingleQuotedString(s) | ast::Value::DoubleQuotedString(s) => {
                Some(Value::Text(s.clone()))
            }
            ast::Value::Null => Some(Value::Null),
            ast::Value::Boolean(b) => Some(Value::Integer(*b as i64)),
            _ => None,
        },
        ast::Expr::UnaryOp { op: ast::UnaryOperator::Minus, expr } => {
            match constant_default(expr)? {
                Value::Integer(i) => {
                    Some(i.checked_neg().map_or(Value::Real(-(i as f64)), Value::Integer))
                }
                Value::Real(f) => Some(Value::Real(-f)),
                _ => None,
            }
        }
        ast::Expr::UnaryOp { op: ast::UnaryOperator::Plus, expr } => constant_default(expr),
        _ => None,
    }
}

/// The last part of an object name, unquoted.
pub fn object_name(n: &ast::ObjectName) -> Result<String> {
    match n.0.last() {
        Some(ast::ObjectNamePart::Identifier(i)) => Ok(i.value.clone()),
        _ => Err(Error::InvalidInput(format!("unsupported name: {n}"))),
    }
}

fn collation_of(name: &str) -> Result<Collation> {
    match name.to_ascii_lowercase().as_str() {
        "binary" => Ok(Collation::Binary),
        "nocase" => Ok(Collation::NoCase),
        "rtrim" => Ok(Collation::RTrim),
        _ => Err(Error::InvalidInput(format!("no such collation sequence: {name}"))),
    }
}

/// Builds a table definition from `CREATE TABLE`. Returns it and whether
/// the statement declared any constraint needing an automatic index.
pub fn table_from_ast(ct: &ast::CreateTable, root: u32, sql: String) -> Result<(TableDef, bool)> {
    if ct.query.is_some() {
        return Err(Error::Unsupported("CREATE TABLE … AS SELECT".into()));
    }
    let name = object_name(&ct.name)?;
    let mut columns = Vec::new();
    let mut rowid_alias = None;
    let mut checks = Vec::new();
    let mut pk_cols: Option<Vec<usize>> = None;
    for (i, c) in ct.columns.iter().enumerate() {
        if columns.iter().any(|x: &ColumnDef| x.name.eq_ignore_ascii_case(&c.name.value)) {
            return Err(Error::InvalidInput(format!("duplicate column name: {}", c.name.value)));
        }
        let decl = match &c.data_type {
            ast::DataType::Unspecified => None,
            t => Some(t.to_string()),
        };
        let mut col = ColumnDef {
            name: c.name.value.clone(),
            affinity: Affinity::from_declared_type(decl.as_deref()),
            decl_type: decl,
            not_null: false,
            default: None,
            collation: Collation::Binary,
            pad: Value::Null,
        };
        for o in &c.options {
            match &o.option {
                ast::ColumnOption::NotNull => col.not_null = true,
                ast::ColumnOption::Null => {}
                ast::ColumnOption::Default(e) => {
                    col.pad = constant_default(e).unwrap_or(Value::Null);
                    col.default = Some(e.clone());
                }
                ast::ColumnOption::PrimaryKey(_) => {
                    if pk_cols.is_some() {
                        return Err(Error::InvalidInput(format!(
                            "table \"{name}\" has more than one primary key"
                        )));
                    }
                    pk_cols = Some(vec![i]);
                }
                ast::ColumnOption::Unique(_) => {}
                ast::ColumnOption::Check(ch) => checks.push(ch.expr.as_ref().clone()),
                ast::ColumnOption::Collation(n) => col.collation = collation_of(&object_name(n)?)?,
                _ => {}
            }
        }
        columns.push(col);
    }
    for tc in &ct.constraints {
        match tc {
            ast::TableConstraint::PrimaryKey(pk) => {
                if pk_cols.is_some() {
                    return Err(Error::InvalidInput(format!(
                        "table \"{name}\" has more than one primary key"
                    )));
                }
                pk_cols = Some(constraint_columns(&columns, &pk.columns)?);
            }
            ast::TableConstraint::Check(ch) => checks.push(ch.expr.as_ref().clone()),
            _ => {}
        }
    }
    let mut needs_auto = false;
    if let Some(pk) = &pk_cols {
        let is_int = |i: usize| {
            columns[i].decl_type.as_deref().is_some_and(|t| t.eq_ignore_ascii_case("INTEGER"))
        };
        if pk.len() == 1 && is_int(pk[0]) {
            rowid_alias = Some(pk[0]);
        } else {
            needs_auto = true;
        }
    }
    let def = TableDef { name, root, columns, rowid_alias, checks, sql };
    Ok((def, needs_auto))
}

fn constraint_columns(columns: &[ColumnDef], cols: &[ast::IndexColumn]) -> Result<Vec<usize>> {
    cols.iter()
        .map(|ic| {
            let n = match &ic.column.expr {
                ast::Expr::Identifier(id) => id.value.clone(),
                e => return Err(Error::Unsupported(format!("constraint on expression {e}"))),
            };
            columns
                .iter()
                .position(|c| c.name.eq_ignore_ascii_case(&n))
                .ok_or_else(|| Error::InvalidInput(format!("no such column: {n}")))
        })
        .collect()
}

/// The automatic indexes a table's constraints need (roots left 0):
/// a non-rowid PRIMARY KEY, then each UNIQUE constraint, numbered in
/// declaration order (column constraints first, then table constraints).
pub fn auto_indexes(t: &TableDef, ct: &ast::CreateTable) -> Result<Vec<IndexDef>> {
    let mut specs: Vec<Vec<usize>> = Vec::new();
    for (i, c) in ct.columns.iter().enumerate() {
        for o in &c.options {
            match &o.option {
                ast::ColumnOption::PrimaryKey(_) if t.rowid_alias != Some(i) => specs.push(vec![i]),
                ast::ColumnOption::Unique(_) => specs.push(vec![i]),
                _ => {}
            }
        }
    }
    for tc in &ct.constraints {
        match tc {
            ast::TableConstraint::PrimaryKey(pk) => {
                let cols = constraint_columns(&t.columns, &pk.columns)?;
                if t.rowid_alias.is_none() || cols.len() != 1 {
                    specs.push(cols);
                }
            }
            ast::TableConstraint::Unique(u) => {
                specs.push(constraint_columns(&t.columns, &u.columns)?)
            }
            _ => {}
        }
    }
    // Identical column lists share one index, as in SQLite.
    let mut out: Vec<IndexDef> = Vec::new();
    for cols in specs {
        if out.iter().any(|ix| ix.columns == cols) {
            continue;
        }
        out.push(IndexDef {
            name: format!("sqlite_autoindex_{}_{}", t.name, out.len() + 1),
            table: t.name.clone(),
            root: 0,
            desc: vec![false; cols.len()],
            columns: cols,
            unique: true,
            sql: None,
        });
    }
    Ok(out)
}

/// Builds an index definition from `CREATE INDEX`.
pub fn index_from_ast(
    schema: &Schema,
    ci: &ast::CreateIndex,
    root: u32,
    sql: String,
) -> Result<IndexDef> {
    let name = match &ci.name {
        Some(n) => object_name(n)?,
        None => return Err(Error::InvalidInput("CREATE INDEX needs a name".into())),
    };
    let tname = object_name(&ci.table_name)?;
    let t = schema.must_table(&tname)?;
    let columns = constraint_columns(&t.columns, &ci.columns)?;
    let desc = ci
        .columns
        .iter()
        .map(|c| matches!(c.column.options.sort, Some(ast::OrderBySort::Desc)))
        .collect();
    Ok(IndexDef {
        name,
        table: t.name.clone(),
        root,
        columns,
        desc,
        unique: ci.unique,
        sql: Some(sql),
    })
}

/// Builds a view definition from `CREATE VIEW`.
pub fn view_from_ast(cv: &ast::CreateView, sql: String) -> ViewDef {
    let name = object_name(&cv.name).unwrap_or_default();
    ViewDef {
        name,
        columns: cv.columns.iter().map(|c| c.name.value.clone()).collect(),
        query: cv.query.clone(),
        sql,
    }
}
