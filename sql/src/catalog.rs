//! The catalog: what tables, indexes, views and triggers exist.
//!
//! It is stored like SQLite's `sqlite_schema`: a table (root in the store's
//! `catalog_root`) of rows `(type, name, tbl_name, rootpage, sql)`, `sql`
//! holding each `CREATE` statement as it was written ([`text`]). The
//! in-memory [`Schema`] is rebuilt by re-parsing the stored texts, so the
//! text is the single source of truth. Indexes made for UNIQUE / PRIMARY
//! KEY constraints are rows of type `index` with a NULL `sql`, named
//! `sqlite_autoindex_<table>_<n>` (n counts the constraints of the table in
//! declaration order, from 1).
//!
//! Table forms, as SQLite has them:
//! - `AUTOINCREMENT` on the INTEGER PRIMARY KEY: the largest rowid ever
//!   used is kept in `sqlite_sequence(name, seq)`, a plain table created
//!   with the first such table, so ids are never reused;
//! - `STRICT`: declared types are one of INT, INTEGER, REAL, TEXT, BLOB,
//!   ANY, and values that do not fit are refused (`exec::dml`);
//! - `WITHOUT ROWID`: stored as a rowid table whose rowid no statement can
//!   see (`SELECT rowid` fails, `rowid` is no column name) plus its PRIMARY
//!   KEY index, which full scans follow (PRIMARY KEY order) and whose
//!   catalog row `sqlite_schema` does not show (SQLite has none: the table
//!   is that tree);
//! - generated columns (`AS (expr) [VIRTUAL | STORED]`): computed on every
//!   write from the row's other columns and stored (a VIRTUAL column's
//!   value is the same when read as when written: its expression may only
//!   read the row), never written directly.
//!
//! Every schema change bumps the store's schema cookie (transactional), so
//! caches of a [`Schema`] know when to reload.

pub mod refs;
pub mod text;

use std::collections::BTreeMap;
use std::ops::Bound;
use std::sync::Arc;

use sqlparser::ast;

use crate::exec::vals::{Affinity, Collation};
use crate::storage::{RowStore, TreeKind};
use crate::value::Value;
use crate::{Error, Result};

/// A generated column's expression.
#[derive(Clone, Debug)]
pub struct Generated {
    pub expr: ast::Expr,
    /// `STORED` (else `VIRTUAL`, the default).
    pub stored: bool,
}

/// One declared column.
#[derive(Clone, Debug)]
pub struct ColumnDef {
    pub name: String,
    /// The declared type as written (`NVARCHAR(160)`), if any.
    pub decl_type: Option<String>,
    pub affinity: Affinity,
    pub not_null: bool,
    pub default: Option<ast::Expr>,
    /// The DEFAULT as written (`PRAGMA table_info`'s `dflt_value`).
    pub default_text: Option<String>,
    pub collation: Collation,
    /// The value of this column in rows stored before it was added by
    /// ALTER TABLE ADD COLUMN (its constant default, else NULL).
    pub pad: Value,
    pub generated: Option<Generated>,
}

impl ColumnDef {
    /// A plain column: no constraint, BINARY, affinity from the type.
    pub fn new(name: &str, decl_type: Option<&str>) -> ColumnDef {
        ColumnDef {
            name: name.into(),
            decl_type: decl_type.map(str::to_string),
            affinity: Affinity::from_declared_type(decl_type),
            not_null: false,
            default: None,
            default_text: None,
            collation: Collation::Binary,
            pad: Value::Null,
            generated: None,
        }
    }
}

/// What a foreign key does when its parent row changes or goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FkAction {
    NoAction,
    Restrict,
    SetNull,
    SetDefault,
    Cascade,
}

impl FkAction {
    fn of(a: Option<&ast::ReferentialAction>) -> FkAction {
        match a {
            None | Some(ast::ReferentialAction::NoAction) => FkAction::NoAction,
            Some(ast::ReferentialAction::Restrict) => FkAction::Restrict,
            Some(ast::ReferentialAction::SetNull) => FkAction::SetNull,
            Some(ast::ReferentialAction::SetDefault) => FkAction::SetDefault,
            Some(ast::ReferentialAction::Cascade) => FkAction::Cascade,
        }
    }

    /// As `PRAGMA foreign_key_list` spells it.
    pub fn name(self) -> &'static str {
        match self {
            FkAction::NoAction => "NO ACTION",
            FkAction::Restrict => "RESTRICT",
            FkAction::SetNull => "SET NULL",
            FkAction::SetDefault => "SET DEFAULT",
            FkAction::Cascade => "CASCADE",
        }
    }
}

/// A `REFERENCES` / `FOREIGN KEY` constraint of a child table.
#[derive(Clone, Debug)]
pub struct ForeignKey {
    /// Child columns, in key order.
    pub columns: Vec<usize>,
    /// The parent table, as written.
    pub parent: String,
    /// Parent columns as written; empty: the parent's PRIMARY KEY.
    pub parent_columns: Vec<String>,
    pub on_delete: FkAction,
    pub on_update: FkAction,
    /// `DEFERRABLE INITIALLY DEFERRED`: checked at COMMIT.
    pub deferred: bool,
}

/// A table: its columns, constraints and tree root.
#[derive(Clone, Debug)]
pub struct TableDef {
    pub name: String,
    pub root: u32,
    pub columns: Vec<ColumnDef>,
    /// The `INTEGER PRIMARY KEY` column, which is the rowid.
    pub rowid_alias: Option<usize>,
    /// CHECK constraints with the name SQLite's error gives (the
    /// constraint's name, else its text as written).
    pub checks: Vec<(ast::Expr, String)>,
    /// The `CREATE TABLE` text as written (from the name on).
    pub sql: String,
    /// The declared PRIMARY KEY's columns, in key order.
    pub primary_key: Vec<usize>,
    pub autoincrement: bool,
    pub strict: bool,
    pub without_rowid: bool,
    /// In declaration order.
    pub foreign_keys: Vec<ForeignKey>,
}

impl TableDef {
    /// A table of plain columns.
    pub fn new(name: &str, root: u32, columns: Vec<ColumnDef>) -> TableDef {
        TableDef {
            name: name.into(),
            root,
            columns,
            rowid_alias: None,
            checks: Vec::new(),
            sql: String::new(),
            primary_key: Vec::new(),
            autoincrement: false,
            strict: false,
            without_rowid: false,
            foreign_keys: Vec::new(),
        }
    }

    pub fn column_index(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c.name.eq_ignore_ascii_case(name))
    }

    /// True if some column is generated.
    pub fn has_generated(&self) -> bool {
        self.columns.iter().any(|c| c.generated.is_some())
    }
}

/// Where an index came from (`PRAGMA index_list`'s `origin`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexOrigin {
    /// `CREATE INDEX`: `c`.
    Create,
    /// A UNIQUE constraint: `u`.
    Unique,
    /// A PRIMARY KEY that is no rowid: `pk`.
    PrimaryKey,
}

impl IndexOrigin {
    pub fn code(self) -> &'static str {
        match self {
            IndexOrigin::Create => "c",
            IndexOrigin::Unique => "u",
            IndexOrigin::PrimaryKey => "pk",
        }
    }
}

/// [`IndexDef::columns`] of a key part that is an expression.
pub const EXPR_COLUMN: usize = usize::MAX;

/// An index over one table: each key part a column or an expression of
/// the row, with its direction and collation; a partial index has a
/// WHERE. Keys are stored folded by their collation ([`Collation::fold`])
/// so that the store's BINARY order is the index's order.
#[derive(Clone, Debug)]
pub struct IndexDef {
    pub name: String,
    pub table: String,
    pub root: u32,
    /// Table column of each key part ([`EXPR_COLUMN`] for an expression).
    pub columns: Vec<usize>,
    /// The expression of each key part that is one.
    pub exprs: Vec<Option<ast::Expr>>,
    pub desc: Vec<bool>,
    pub collations: Vec<Collation>,
    pub unique: bool,
    /// A partial index's WHERE.
    pub predicate: Option<ast::Expr>,
    pub origin: IndexOrigin,
    /// `CREATE INDEX` text; `None` for automatic (constraint) indexes.
    pub sql: Option<String>,
    /// Position in the catalog (later indexes have larger numbers).
    pub seq: i64,
}

impl IndexDef {
    /// An index over plain columns, ascending, BINARY.
    pub fn on_columns(name: &str, table: &str, root: u32, columns: Vec<usize>) -> IndexDef {
        let n = columns.len();
        IndexDef {
            name: name.into(),
            table: table.into(),
            root,
            columns,
            exprs: vec![None; n],
            desc: vec![false; n],
            collations: vec![Collation::Binary; n],
            unique: false,
            predicate: None,
            origin: IndexOrigin::Create,
            sql: None,
            seq: 0,
        }
    }

    /// True if some key part is an expression.
    pub fn has_exprs(&self) -> bool {
        self.exprs.iter().any(Option::is_some)
    }

    /// True if the store's entries are the table's column values, BINARY,
    /// one per row: what code that reads keys as column values may assume.
    pub fn is_plain(&self) -> bool {
        !self.has_exprs()
            && self.predicate.is_none()
            && self.collations.iter().all(|c| *c == Collation::Binary)
    }
}

/// A view: a named query.
#[derive(Clone, Debug)]
pub struct ViewDef {
    pub name: String,
    pub columns: Vec<String>,
    pub query: Box<ast::Query>,
    /// The `CREATE VIEW` text as written; the query's spans point into it.
    pub sql: String,
}

/// When a trigger fires.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TriggerTiming {
    Before,
    After,
    InsteadOf,
}

/// What fires a trigger.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TriggerEvent {
    Insert,
    Delete,
    /// `UPDATE [OF columns]` (empty: any column).
    Update(Vec<String>),
}

/// A row trigger.
#[derive(Clone, Debug)]
pub struct TriggerDef {
    pub name: String,
    pub table: String,
    pub timing: TriggerTiming,
    pub event: TriggerEvent,
    pub when: Option<ast::Expr>,
    pub body: Vec<ast::Statement>,
    /// The `CREATE TRIGGER` text as written; spans point into it.
    pub sql: String,
    /// Position in the catalog.
    pub seq: i64,
}

/// The in-memory schema; names are looked up case-insensitively.
#[derive(Clone, Debug, Default)]
pub struct Schema {
    pub tables: BTreeMap<String, Arc<TableDef>>,
    pub indexes: BTreeMap<String, Arc<IndexDef>>,
    pub views: BTreeMap<String, Arc<ViewDef>>,
    pub triggers: BTreeMap<String, Arc<TriggerDef>>,
    pub cookie: u64,
}

/// The catalog's own names: `sqlite_schema` and its aliases.
pub fn is_schema_table(name: &str) -> bool {
    ["sqlite_schema", "sqlite_master"].iter().any(|n| n.eq_ignore_ascii_case(name))
}

/// The temporary schema's catalog (always empty: AsaDB keeps no
/// connection-private objects).
pub fn is_temp_schema_table(name: &str) -> bool {
    ["sqlite_temp_schema", "sqlite_temp_master"].iter().any(|n| n.eq_ignore_ascii_case(name))
}

/// The table that keeps AUTOINCREMENT counters.
pub const SEQUENCE_TABLE: &str = "sqlite_sequence";
/// Its definition, as SQLite writes it.
pub const SEQUENCE_SQL: &str = "CREATE TABLE sqlite_sequence(name,seq)";

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
    pub fn trigger(&self, name: &str) -> Option<&Arc<TriggerDef>> {
        self.triggers.get(&name.to_ascii_lowercase())
    }
    /// Indexes of a table, in name order.
    pub fn table_indexes(&self, table: &str) -> Vec<Arc<IndexDef>> {
        self.indexes.values().filter(|i| i.table.eq_ignore_ascii_case(table)).cloned().collect()
    }
    /// Triggers on a table (or view), in catalog order.
    pub fn table_triggers(&self, table: &str) -> Vec<Arc<TriggerDef>> {
        let mut v: Vec<_> = self
            .triggers
            .values()
            .filter(|t| t.table.eq_ignore_ascii_case(table))
            .cloned()
            .collect();
        v.sort_by_key(|t| t.seq);
        v
    }
    /// The PRIMARY KEY index of a WITHOUT ROWID table.
    pub fn primary_index(&self, t: &TableDef) -> Option<Arc<IndexDef>> {
        if !t.without_rowid {
            return None;
        }
        self.table_indexes(&t.name).into_iter().find(|i| i.origin == IndexOrigin::PrimaryKey)
    }
    pub fn must_table(&self, name: &str) -> Result<&Arc<TableDef>> {
        self.table(name).ok_or_else(|| Error::NotFound(format!("no such table: {name}")))
    }
    /// True if a table, view, index or trigger has this name.
    pub fn exists(&self, name: &str) -> bool {
        self.table(name).is_some()
            || self.view(name).is_some()
            || self.index(name).is_some()
            || self.trigger(name).is_some()
    }
    /// Foreign keys of other tables (and this one) that name `parent`.
    pub fn referencing(&self, parent: &str) -> Vec<(Arc<TableDef>, usize)> {
        let mut out = Vec::new();
        for t in self.tables.values() {
            for (i, fk) in t.foreign_keys.iter().enumerate() {
                if fk.parent.eq_ignore_ascii_case(parent) {
                    out.push((t.clone(), i));
                }
            }
        }
        out
    }

    /// Reads the catalog table and rebuilds the schema.
    pub fn load(store: &dyn RowStore) -> Result<Schema> {
        let mut schema = Schema { cookie: store.schema_cookie()?, ..Schema::default() };
        let rows = catalog_rows(store)?;
        // Tables first: indexes and views refer to them.
        let mut autos: BTreeMap<String, (u32, i64)> = BTreeMap::new();
        for r in &rows {
            match r.kind.as_str() {
                "table" => {
                    let ast::Statement::CreateTable(ct) = parse_one(&r.sql)? else {
                        return Err(Error::Corrupt(format!("catalog: bad table sql {}", r.sql)));
                    };
                    let (t, _) = table_from_ast(&ct, r.root, r.sql.clone())?;
                    schema.tables.insert(t.name.to_ascii_lowercase(), Arc::new(t));
                }
                "index" if r.sql.is_empty() => {
                    autos.insert(r.name.to_ascii_lowercase(), (r.root, r.rowid));
                }
                _ => {}
            }
        }
        for t in schema.tables.values().cloned().collect::<Vec<_>>() {
            let ast::Statement::CreateTable(ct) = parse_one(&t.sql)? else {
                return Err(Error::Corrupt("catalog: bad table sql".into()));
            };
            for mut ix in auto_indexes(&t, &ct)? {
                let Some((root, seq)) = autos.get(&ix.name.to_ascii_lowercase()) else {
                    return Err(Error::Corrupt(format!("catalog: missing {}", ix.name)));
                };
                ix.root = *root;
                ix.seq = *seq;
                schema.indexes.insert(ix.name.to_ascii_lowercase(), Arc::new(ix));
            }
        }
        for r in &rows {
            match r.kind.as_str() {
                "index" if !r.sql.is_empty() => {
                    let ast::Statement::CreateIndex(ci) = parse_one(&r.sql)? else {
                        return Err(Error::Corrupt(format!("catalog: bad index sql {}", r.sql)));
                    };
                    let mut ix = index_from_ast(&schema, &ci, r.root, r.sql.clone())?;
                    ix.seq = r.rowid;
                    schema.indexes.insert(ix.name.to_ascii_lowercase(), Arc::new(ix));
                }
                "view" => {
                    let ast::Statement::CreateView(cv) = parse_one(&r.sql)? else {
                        return Err(Error::Corrupt(format!("catalog: bad view sql {}", r.sql)));
                    };
                    let v = view_from_ast(&cv, r.sql.clone());
                    schema.views.insert(v.name.to_ascii_lowercase(), Arc::new(v));
                }
                "trigger" => {
                    let ast::Statement::CreateTrigger(ct) = parse_one(&r.sql)? else {
                        return Err(Error::Corrupt(format!("catalog: bad trigger sql {}", r.sql)));
                    };
                    let mut t = trigger_from_ast(&ct, r.sql.clone())?;
                    t.seq = r.rowid;
                    schema.triggers.insert(t.name.to_ascii_lowercase(), Arc::new(t));
                }
                _ => {}
            }
        }
        Ok(schema)
    }
}

/// One row of the catalog table.
#[derive(Clone, Debug)]
pub struct CatalogRow {
    pub rowid: i64,
    pub kind: String,
    pub name: String,
    pub tbl_name: String,
    pub root: u32,
    /// Empty for automatic indexes (NULL in the table).
    pub sql: String,
}

impl CatalogRow {
    fn from_row(rowid: i64, row: &[Value]) -> Result<CatalogRow> {
        let text = |i: usize| match row.get(i) {
            Some(Value::Text(s)) => Ok(s.to_str_lossy().into_owned()),
            Some(Value::Null) => Ok(String::new()),
            _ => Err(Error::Corrupt("catalog: bad row".into())),
        };
        let root = match row.get(3) {
            Some(Value::Integer(r)) => u32::try_from(*r).map_err(|_| bad_root())?,
            _ => return Err(bad_root()),
        };
        Ok(CatalogRow {
            rowid,
            kind: text(0)?,
            name: text(1)?,
            tbl_name: text(2)?,
            root,
            sql: text(4)?,
        })
    }
}

/// Every catalog row, in catalog (rowid) order.
pub fn catalog_rows(store: &dyn RowStore) -> Result<Vec<CatalogRow>> {
    let Some(root) = store.catalog_root()? else { return Ok(Vec::new()) };
    let cat = catalog_table(root);
    let mut rows = Vec::new();
    let mut cur = store.scan(&cat, (Bound::Unbounded, Bound::Unbounded), false)?;
    while let Some((rowid, row)) = cur.next()? {
        rows.push(CatalogRow::from_row(rowid, &row)?);
    }
    Ok(rows)
}

/// The rows `SELECT * FROM sqlite_schema` shows: the catalog in order,
/// without the PRIMARY KEY index of a WITHOUT ROWID table (in SQLite that
/// tree is the table itself).
pub fn schema_rows(store: &dyn RowStore, schema: &Schema) -> Result<Vec<[Value; 5]>> {
    let hidden = |r: &CatalogRow| {
        r.kind == "index"
            && schema.index(&r.name).is_some_and(|ix| {
                ix.origin == IndexOrigin::PrimaryKey
                    && schema.table(&ix.table).is_some_and(|t| t.without_rowid)
            })
    };
    Ok(catalog_rows(store)?
        .into_iter()
        .filter(|r| !hidden(r))
        .map(|r| {
            [
                Value::Text(r.kind.into()),
                Value::Text(r.name.into()),
                Value::Text(r.tbl_name.into()),
                Value::Integer(r.root.into()),
                if r.sql.is_empty() { Value::Null } else { Value::Text(r.sql.into()) },
            ]
        })
        .collect())
}

fn bad_root() -> Error {
    Error::Corrupt("catalog: bad rootpage".into())
}

/// The definition of the catalog table itself.
pub fn catalog_table(root: u32) -> TableDef {
    let col = |n: &str, t: &str| ColumnDef::new(n, Some(t));
    TableDef::new(
        "sqlite_schema",
        root,
        vec![
            col("type", "TEXT"),
            col("name", "TEXT"),
            col("tbl_name", "TEXT"),
            col("rootpage", "INT"),
            col("sql", "TEXT"),
        ],
    )
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
            && names.iter().any(|x| n.eq_ignore_ascii_case(x))
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

thread_local! {
    /// Inside a statement ([`cookie_scope`]): whether it bumped the cookie.
    static BUMPED: std::cell::Cell<Option<bool>> = const { std::cell::Cell::new(None) };
}

/// Bumps the schema cookie (`PRAGMA schema_version` reads it) — once per
/// statement, as SQLite does: a CREATE TABLE that also writes its
/// automatic indexes or `sqlite_sequence`, or a DROP TABLE that takes its
/// indexes and triggers along, changes it by one. Outside a
/// [`cookie_scope`] every call bumps.
pub fn bump_cookie(store: &dyn RowStore) -> Result<()> {
    if BUMPED.with(|b| b.get() == Some(true)) {
        return Ok(());
    }
    store.set_schema_cookie(store.schema_cookie()? + 1)?;
    BUMPED.with(|b| {
        if b.get().is_some() {
            b.set(Some(true));
        }
    });
    Ok(())
}

/// Makes the statement run until the guard drops bump the cookie at most
/// once ([`bump_cookie`]).
pub fn cookie_scope() -> impl Drop {
    struct Scope(Option<bool>);
    impl Drop for Scope {
        fn drop(&mut self) {
            BUMPED.with(|b| b.set(self.0));
        }
    }
    Scope(BUMPED.with(|b| b.replace(Some(false))))
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
                Some(Value::Text(s.clone().into()))
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

/// The schema part of a qualified name (`main` of `main.t`), as written.
pub fn qualifier(n: &ast::ObjectName) -> Option<&str> {
    match n.0.as_slice() {
        [ast::ObjectNamePart::Identifier(q), _, ..] => Some(q.value.as_str()),
        _ => None,
    }
}

/// SQLite's `no such table: …`: the table with the schema the statement
/// named (`Main.t`, `temp.t` as written), or `main.` where SQLite fixes
/// names to the main schema (a CREATE INDEX's table; a view's or
/// trigger's body, see [`in_schema_body`]).
pub fn no_such_table(schema: Option<&str>, name: &str) -> Error {
    Error::NotFound(match schema {
        Some(s) => format!("no such table: {s}.{name}"),
        None => format!("no such table: {name}"),
    })
}

/// An error from a view's or trigger's body: SQLite binds the names in it
/// to the schema the view or trigger lives in (its `DbFixer`), so a table
/// it misses is reported as `main.name`.
pub fn in_schema_body(e: Error) -> Error {
    match e {
        Error::NotFound(m)
            if m.strip_prefix("no such table: ").is_some_and(|t| !t.contains('.')) =>
        {
            no_such_table(Some("main"), &m["no such table: ".len()..])
        }
        e => e,
    }
}

/// The last part of an object name, unquoted.
pub fn object_name(n: &ast::ObjectName) -> Result<String> {
    match n.0.last() {
        Some(ast::ObjectNamePart::Identifier(i)) => Ok(i.value.clone()),
        _ => Err(Error::InvalidInput(format!("unsupported name: {n}"))),
    }
}

/// The collation `COLLATE name` names.
pub fn collation_of(name: &str) -> Result<Collation> {
    Collation::from_name(name)
        .ok_or_else(|| Error::InvalidInput(format!("no such collation sequence: {name}")))
}

/// The types a STRICT table's columns may declare, and the affinity each
/// gives (ANY: none).
fn strict_affinity(decl: &str) -> Option<Affinity> {
    Some(match decl.to_ascii_uppercase().as_str() {
        "INT" | "INTEGER" => Affinity::Integer,
        "REAL" => Affinity::Real,
        "TEXT" => Affinity::Text,
        "BLOB" | "ANY" => Affinity::Blob,
        _ => return None,
    })
}

/// `Some(true)` for the `DESC` of a column's `PRIMARY KEY DESC`,
/// `Some(false)` for its `ASC` (sqlparser gives each as an option of its
/// own), `None` for any other option.
fn sort_word(o: &ast::ColumnOption) -> Option<bool> {
    match o {
        ast::ColumnOption::DialectSpecific(toks) => match toks.as_slice() {
            [sqlparser::tokenizer::Token::Word(w)]
                if w.keyword == sqlparser::keywords::Keyword::DESC =>
            {
                Some(true)
            }
            [sqlparser::tokenizer::Token::Word(w)]
                if w.keyword == sqlparser::keywords::Keyword::ASC =>
            {
                Some(false)
            }
            _ => None,
        },
        _ => None,
    }
}

/// True when a column's `PRIMARY KEY` (the option at `at`) is followed by
/// `DESC`.
fn pk_desc(options: &[ast::ColumnOptionDef], at: usize) -> bool {
    options.get(at + 1).and_then(|o| sort_word(&o.option)) == Some(true)
}

fn is_autoincrement(o: &ast::ColumnOption) -> bool {
    matches!(o, ast::ColumnOption::DialectSpecific(toks)
        if toks.iter().any(|t| matches!(t, sqlparser::tokenizer::Token::Word(w)
            if w.value.eq_ignore_ascii_case("AUTOINCREMENT"))))
}

fn foreign_key(columns: Vec<usize>, fk: &ast::ForeignKeyConstraint) -> Result<ForeignKey> {
    let parent_columns: Vec<String> = fk.referred_columns.iter().map(|c| c.value.clone()).collect();
    if !parent_columns.is_empty() && parent_columns.len() != columns.len() {
        return Err(Error::InvalidInput(
            "number of columns in foreign key does not match the number of columns in the \
             referenced table"
                .into(),
        ));
    }
    let deferred = fk.characteristics.as_ref().is_some_and(|c| {
        c.deferrable == Some(true) && c.initially == Some(ast::DeferrableInitial::Deferred)
    });
    Ok(ForeignKey {
        columns,
        parent: object_name(&fk.foreign_table)?,
        parent_columns,
        on_delete: FkAction::of(fk.on_delete.as_ref()),
        on_update: FkAction::of(fk.on_update.as_ref()),
        deferred,
    })
}

/// Builds a table definition from `CREATE TABLE`; `sql` is its stored text
/// (types, defaults and CHECK names are read from it as written). Returns
/// it and whether the statement declared any constraint needing an
/// automatic index. Errors are SQLite's for a definition it refuses.
pub fn table_from_ast(ct: &ast::CreateTable, root: u32, sql: String) -> Result<(TableDef, bool)> {
    if ct.query.is_some() {
        return Err(Error::Corrupt(
            "catalog: CREATE TABLE … AS SELECT is stored as columns".into(),
        ));
    }
    let name = object_name(&ct.name)?;
    let texts = text::scan_table(&sql).filter(|t| t.columns.len() == ct.columns.len());
    let mut strict = false;
    let mut without_rowid = false;
    for o in &ct.sqlite_table_options.options {
        match o {
            ast::SqliteTableOption::Strict => strict = true,
            ast::SqliteTableOption::WithoutRowid => without_rowid = true,
        }
    }
    let mut columns = Vec::new();
    let mut checks: Vec<ast::Expr> = Vec::new();
    let mut pk_cols: Option<Vec<usize>> = None;
    let mut column_pk_desc = false;
    let mut autoincrement = None;
    let mut foreign_keys = Vec::new();
    for (i, c) in ct.columns.iter().enumerate() {
        if columns.iter().any(|x: &ColumnDef| x.name.eq_ignore_ascii_case(&c.name.value)) {
            return Err(Error::InvalidInput(format!("duplicate column name: {}", c.name.value)));
        }
        let ctext = texts.as_ref().map(|t| &t.columns[i]);
        let decl = match &c.data_type {
            ast::DataType::Unspecified => None,
            t => Some(ctext.and_then(|c| c.decl_type.clone()).unwrap_or_else(|| t.to_string())),
        };
        let mut col = ColumnDef::new(&c.name.value, decl.as_deref());
        if strict {
            let Some(d) = &decl else {
                return Err(Error::InvalidInput(format!(
                    "missing datatype for {name}.{}",
                    col.name
                )));
            };
            col.affinity = strict_affinity(d).ok_or_else(|| {
                Error::InvalidInput(format!("unknown datatype for {name}.{}: \"{d}\"", col.name))
            })?;
        }
        for (at, o) in c.options.iter().enumerate() {
            match &o.option {
                // `PRIMARY KEY ASC|DESC`; a direction anywhere else is
                // SQLite's syntax error.
                o if sort_word(o).is_some() => {
                    let after_pk = at > 0
                        && matches!(c.options[at - 1].option, ast::ColumnOption::PrimaryKey(_));
                    if !after_pk {
                        return Err(Error::Parse(format!("near \"{o}\": syntax error")));
                    }
                }
                ast::ColumnOption::NotNull => col.not_null = true,
                ast::ColumnOption::Null => {}
                ast::ColumnOption::Default(e) => {
                    col.pad = constant_default(e).unwrap_or(Value::Null);
                    col.default = Some(e.clone());
                    col.default_text = Some(
                        ctext.and_then(|c| c.default.clone()).unwrap_or_else(|| e.to_string()),
                    );
                }
                ast::ColumnOption::PrimaryKey(_) => {
                    if pk_cols.is_some() {
                        return Err(Error::InvalidInput(format!(
                            "table \"{name}\" has more than one primary key"
                        )));
                    }
                    pk_cols = Some(vec![i]);
                    // SQLite's documented quirk: `INTEGER PRIMARY KEY DESC`
                    // written on the column is not an alias of the rowid
                    // (the table-level `PRIMARY KEY(x DESC)` is).
                    column_pk_desc = pk_desc(&c.options, at);
                }
                ast::ColumnOption::Unique(_) => {}
                ast::ColumnOption::Check(ch) => checks.push(ch.expr.as_ref().clone()),
                ast::ColumnOption::Collation(n) => col.collation = collation_of(&object_name(n)?)?,
                ast::ColumnOption::ForeignKey(fk) => foreign_keys.push(foreign_key(vec![i], fk)?),
                ast::ColumnOption::Generated {
                    generation_expr: Some(e),
                    generation_expr_mode,
                    sequence_options: None,
                    ..
                } => {
                    col.generated = Some(Generated {
                        expr: e.clone(),
                        stored: matches!(
                            generation_expr_mode,
                            Some(ast::GeneratedExpressionMode::Stored)
                        ),
                    });
                }
                o if is_autoincrement(o) => autoincrement = Some(i),
                ast::ColumnOption::OnConflict(_) => {
                    return Err(Error::Unsupported(
                        "ON CONFLICT clauses on column constraints".into(),
                    ));
                }
                other => {
                    return Err(Error::Unsupported(format!("column constraint {other}")));
                }
            }
        }
        if col.generated.is_some() {
            if col.default.is_some() {
                return Err(Error::InvalidInput("cannot use DEFAULT on a generated column".into()));
            }
            if pk_cols.as_ref().is_some_and(|p| p.contains(&i)) {
                return Err(Error::InvalidInput(
                    "generated columns cannot be part of the PRIMARY KEY".into(),
                ));
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
                let cols = constraint_columns(&columns, &pk.columns)?;
                if cols.iter().any(|c| columns[c.0].generated.is_some()) {
                    return Err(Error::InvalidInput(
                        "generated columns cannot be part of the PRIMARY KEY".into(),
                    ));
                }
                pk_cols = Some(cols.into_iter().map(|c| c.0).collect());
            }
            ast::TableConstraint::Check(ch) => checks.push(ch.expr.as_ref().clone()),
            ast::TableConstraint::Unique(_) => {}
            ast::TableConstraint::ForeignKey(fk) => {
                let cols = fk
                    .columns
                    .iter()
                    .map(|c| {
                        columns
                            .iter()
                            .position(|x| x.name.eq_ignore_ascii_case(&c.value))
                            .ok_or_else(|| {
                                Error::InvalidInput(format!(
                                    "unknown column \"{}\" in foreign key definition",
                                    c.value
                                ))
                            })
                    })
                    .collect::<Result<Vec<_>>>()?;
                foreign_keys.push(foreign_key(cols, fk)?);
            }
            other => return Err(Error::Unsupported(format!("table constraint {other}"))),
        }
    }
    if columns.iter().all(|c| c.generated.is_some()) {
        return Err(Error::InvalidInput("must have at least one non-generated column".into()));
    }
    let mut rowid_alias = None;
    let mut needs_auto = false;
    let is_int = |i: usize| {
        columns[i].decl_type.as_deref().is_some_and(|t| t.eq_ignore_ascii_case("INTEGER"))
    };
    if let Some(pk) = &pk_cols {
        if pk.len() == 1 && is_int(pk[0]) && !without_rowid && !column_pk_desc {
            rowid_alias = Some(pk[0]);
        } else {
            needs_auto = true;
        }
    }
    if let Some(a) = autoincrement
        && (rowid_alias != Some(a) || without_rowid)
    {
        return Err(Error::InvalidInput(if without_rowid {
            "AUTOINCREMENT not allowed on WITHOUT ROWID tables".into()
        } else {
            "AUTOINCREMENT is only allowed on an INTEGER PRIMARY KEY".into()
        }));
    }
    if without_rowid {
        let Some(pk) = &pk_cols else {
            return Err(Error::InvalidInput(format!("PRIMARY KEY missing on table {name}")));
        };
        for &c in pk {
            columns[c].not_null = true;
        }
    }
    let names = texts.map(|t| t.checks).filter(|n| n.len() == checks.len());
    let checks = checks
        .into_iter()
        .enumerate()
        .map(|(i, e)| {
            let n = names.as_ref().map_or_else(|| e.to_string(), |n| n[i].clone());
            (e, n)
        })
        .collect();
    let def = TableDef {
        name,
        root,
        columns,
        rowid_alias,
        checks,
        sql,
        primary_key: pk_cols.unwrap_or_default(),
        autoincrement: autoincrement.is_some(),
        strict,
        without_rowid,
        foreign_keys,
    };
    Ok((def, needs_auto))
}

/// The key parts of a PRIMARY KEY / UNIQUE constraint: column, DESC, and
/// the collation (explicit COLLATE, else the column's).
fn constraint_columns(
    columns: &[ColumnDef],
    cols: &[ast::IndexColumn],
) -> Result<Vec<(usize, bool, Collation)>> {
    cols.iter()
        .map(|ic| {
            let (e, coll) = match &ic.column.expr {
                ast::Expr::Collate { expr, collation } => {
                    (expr.as_ref(), Some(collation_of(&object_name(collation)?)?))
                }
                e => (e, None),
            };
            let n = match e {
                ast::Expr::Identifier(id) => id.value.clone(),
                e => {
                    return Err(Error::InvalidInput(format!(
                        "expressions prohibited in PRIMARY KEY and UNIQUE constraints: {e}"
                    )));
                }
            };
            let c = columns
                .iter()
                .position(|c| c.name.eq_ignore_ascii_case(&n))
                .ok_or_else(|| Error::InvalidInput(format!("no such column: {n}")))?;
            let desc = matches!(ic.column.options.sort, Some(ast::OrderBySort::Desc));
            Ok((c, desc, coll.unwrap_or(columns[c].collation)))
        })
        .collect()
}

/// The automatic indexes a table's constraints need (roots left 0):
/// a non-rowid PRIMARY KEY, then each UNIQUE constraint, numbered in
/// declaration order (column constraints first, then table constraints).
pub fn auto_indexes(t: &TableDef, ct: &ast::CreateTable) -> Result<Vec<IndexDef>> {
    type Spec = (Vec<(usize, bool, Collation)>, IndexOrigin);
    let mut specs: Vec<Spec> = Vec::new();
    let one = |i: usize| vec![(i, false, t.columns[i].collation)];
    // A WITHOUT ROWID table's INTEGER PRIMARY KEY column gets its index
    // last, as SQLite makes it when it converts the table.
    let mut late_pk = None;
    for (i, c) in ct.columns.iter().enumerate() {
        for (at, o) in c.options.iter().enumerate() {
            match &o.option {
                ast::ColumnOption::PrimaryKey(_) if t.rowid_alias != Some(i) => {
                    let one = |i: usize| vec![(i, pk_desc(&c.options, at), t.columns[i].collation)];
                    let int = t.columns[i]
                        .decl_type
                        .as_deref()
                        .is_some_and(|d| d.eq_ignore_ascii_case("INTEGER"));
                    if t.without_rowid && int {
                        late_pk = Some(one(i));
                    } else {
                        specs.push((one(i), IndexOrigin::PrimaryKey));
                    }
                }
                ast::ColumnOption::Unique(_) => specs.push((one(i), IndexOrigin::Unique)),
                _ => {}
            }
        }
    }
    for tc in &ct.constraints {
        match tc {
            ast::TableConstraint::PrimaryKey(pk) => {
                let cols = constraint_columns(&t.columns, &pk.columns)?;
                if t.rowid_alias.is_none() || cols.len() != 1 {
                    specs.push((cols, IndexOrigin::PrimaryKey));
                }
            }
            ast::TableConstraint::Unique(u) => {
                specs.push((constraint_columns(&t.columns, &u.columns)?, IndexOrigin::Unique))
            }
            _ => {}
        }
    }
    if let Some(cols) = late_pk {
        specs.push((cols, IndexOrigin::PrimaryKey));
    }
    // Identical key lists share one index, as in SQLite (a PRIMARY KEY
    // marks the one it shares).
    let mut out: Vec<IndexDef> = Vec::new();
    for (cols, origin) in specs {
        let same = |ix: &IndexDef| {
            ix.columns.len() == cols.len()
                && cols
                    .iter()
                    .enumerate()
                    .all(|(k, c)| ix.columns[k] == c.0 && ix.collations[k] == c.2)
        };
        if let Some(ix) = out.iter_mut().find(|ix| same(ix)) {
            if origin == IndexOrigin::PrimaryKey {
                ix.origin = origin;
            }
            continue;
        }
        let mut ix = IndexDef::on_columns(
            &format!("sqlite_autoindex_{}_{}", t.name, out.len() + 1),
            &t.name,
            0,
            cols.iter().map(|c| c.0).collect(),
        );
        ix.desc = cols.iter().map(|c| c.1).collect();
        ix.collations = cols.iter().map(|c| c.2).collect();
        ix.unique = true;
        ix.origin = origin;
        out.push(ix);
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
    let t = schema.table(&tname).ok_or_else(|| no_such_table(Some("main"), &tname))?;
    let mut ix = IndexDef::on_columns(&name, &t.name, root, Vec::new());
    for ic in &ci.columns {
        let (e, coll) = match &ic.column.expr {
            ast::Expr::Collate { expr, collation } => {
                (expr.as_ref(), Some(collation_of(&object_name(collation)?)?))
            }
            e => (e, None),
        };
        let col = match e {
            ast::Expr::Identifier(id) => Some(id.value.as_str()),
            // SQLite's quirk (sqlite3StringToId): a string is a column name.
            ast::Expr::Value(v) => match &v.value {
                ast::Value::SingleQuotedString(s) => Some(s.as_str()),
                _ => None,
            },
            _ => None,
        };
        match col {
            Some(n) => {
                let c = t
                    .column_index(n)
                    .ok_or_else(|| Error::InvalidInput(format!("no such column: {n}")))?;
                ix.columns.push(c);
                ix.exprs.push(None);
                ix.collations.push(coll.unwrap_or(t.columns[c].collation));
            }
            None => {
                ix.columns.push(EXPR_COLUMN);
                ix.exprs.push(Some(e.clone()));
                // A bare column's collation carries through, as SQLite
                // derives an expression's collation.
                let derived = match e {
                    ast::Expr::Nested(inner) => match inner.as_ref() {
                        ast::Expr::Identifier(id) => {
                            t.column_index(&id.value).map(|c| t.columns[c].collation)
                        }
                        _ => None,
                    },
                    _ => None,
                };
                ix.collations.push(coll.or(derived).unwrap_or(Collation::Binary));
            }
        }
        ix.desc.push(matches!(ic.column.options.sort, Some(ast::OrderBySort::Desc)));
    }
    ix.unique = ci.unique;
    ix.predicate = ci.predicate.clone();
    ix.sql = Some(sql);
    Ok(ix)
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

/// Builds a trigger definition from `CREATE TRIGGER` (as `parse` reads
/// SQLite's grammar).
pub fn trigger_from_ast(ct: &ast::CreateTrigger, sql: String) -> Result<TriggerDef> {
    let timing = match ct.period {
        None | Some(ast::TriggerPeriod::Before) => TriggerTiming::Before,
        Some(ast::TriggerPeriod::After) => TriggerTiming::After,
        Some(ast::TriggerPeriod::InsteadOf) => TriggerTiming::InsteadOf,
        Some(ast::TriggerPeriod::For) => {
            return Err(Error::InvalidInput("near \"FOR\": syntax error".into()));
        }
    };
    let event = match ct.events.as_slice() {
        [ast::TriggerEvent::Insert] => TriggerEvent::Insert,
        [ast::TriggerEvent::Delete] => TriggerEvent::Delete,
        [ast::TriggerEvent::Update(cols)] => {
            TriggerEvent::Update(cols.iter().map(|c| c.value.clone()).collect())
        }
        _ => return Err(Error::InvalidInput("a trigger fires on one event".into())),
    };
    let body = match &ct.statements {
        Some(ast::ConditionalStatements::BeginEnd(b)) => b.statements.clone(),
        _ => return Err(Error::InvalidInput("a trigger body is BEGIN … END".into())),
    };
    if body.is_empty() {
        return Err(Error::Parse("near \"END\": syntax error".into()));
    }
    Ok(TriggerDef {
        name: object_name(&ct.name)?,
        table: object_name(&ct.table_name)?,
        timing,
        event,
        when: ct.condition.clone(),
        body,
        sql,
        seq: 0,
    })
}
