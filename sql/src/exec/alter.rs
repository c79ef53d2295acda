//! ALTER TABLE: ADD COLUMN, DROP COLUMN, RENAME TO, RENAME COLUMN.
//!
//! Each works on the stored SQL texts, as SQLite does, editing them token
//! by token and keeping the rest as written ([`catalog::text::splice`]):
//! - ADD COLUMN inserts `, <definition as written>` at SQLite's
//!   `addColOffset` (before the table constraints); no row is rewritten:
//!   rows stored before it are shorter than the definition and readers
//!   pad them with the column's default (a constant, as SQLite requires
//!   when the table has rows);
//! - RENAME TO / RENAME COLUMN rewrite every mention of the table or
//!   column in every object's text ([`catalog::refs`]): the table's own,
//!   `REFERENCES` of other tables, its indexes, triggers and the views
//!   that read it;
//! - DROP COLUMN is refused as SQLite refuses it (a PRIMARY KEY or UNIQUE
//!   column, the only column, or one another object still names: an
//!   index, a partial index's WHERE, a CHECK, a generated column, a
//!   foreign key, a trigger or a view), cuts the column's definition out
//!   of the text as `sqlite_drop_column` does, and rewrites every row
//!   without its value.
//!
//! The new texts are parsed back into a schema before the statement ends,
//! so an edit that breaks an object fails the statement (undone with it).

use std::ops::{Bound, Range};

use sqlparser::ast;

use super::ddl::StmtText;
use crate::catalog::refs::{self, Kind};
use crate::catalog::text::{quote_ident, scan_table, splice, tokens};
use crate::catalog::{self, CatalogRow, Schema, TableDef, object_name};
use crate::storage::RowStore;
use crate::value::Value;
use crate::{Error, Result};

fn parse_create_table(sql: &str) -> Result<ast::CreateTable> {
    match crate::parse::parse_sql(sql).map(|mut v| v.pop()) {
        Ok(Some(ast::Statement::CreateTable(ct))) => Ok(ct),
        _ => Err(Error::Corrupt(format!("catalog: bad table sql {sql}"))),
    }
}

/// The table an ALTER works on, with SQLite's refusals.
fn altered_table(schema: &Schema, name: &str, view_error: &str) -> Result<TableDef> {
    if catalog::is_schema_table(name) {
        return Err(Error::InvalidInput("table sqlite_master may not be altered".into()));
    }
    if name.len() >= 7 && name[..7].eq_ignore_ascii_case("sqlite_") {
        return Err(Error::InvalidInput(format!("table {name} may not be altered")));
    }
    if let Some(v) = schema.view(name) {
        return Err(Error::InvalidInput(view_error.replace("{}", &v.name)));
    }
    Ok(schema.must_table(name)?.as_ref().clone())
}

pub fn alter_table(
    store: &dyn RowStore,
    schema: &Schema,
    at: &ast::AlterTable,
    text: Option<&StmtText>,
) -> Result<()> {
    let name = object_name(&at.name)?;
    let [op] = at.operations.as_slice() else {
        return Err(Error::Unsupported("ALTER TABLE with several operations".into()));
    };
    match op {
        ast::AlterTableOperation::AddColumn { column_def, .. } => {
            let t = altered_table(schema, &name, "Cannot add a column to a view")?;
            add_column(store, &t, column_def, text)
        }
        ast::AlterTableOperation::RenameTable { table_name } => {
            let t = altered_table(schema, &name, "view {} may not be altered")?;
            let new = match table_name {
                ast::RenameTableNameKind::As(n) | ast::RenameTableNameKind::To(n) => {
                    object_name(n)?
                }
            };
            rename_table(store, schema, &t, &new)
        }
        ast::AlterTableOperation::RenameColumn { old_column_name, new_column_name } => {
            let t = altered_table(schema, &name, "cannot rename columns of view \"{}\"")?;
            rename_column(store, &t, old_column_name, new_column_name)
        }
        ast::AlterTableOperation::DropColumn { column_names, .. } => {
            let t = altered_table(schema, &name, "cannot drop column from view \"{}\"")?;
            let [col] = column_names.as_slice() else {
                return Err(Error::Unsupported("DROP COLUMN of several columns".into()));
            };
            drop_column(store, schema, &t, col)
        }
        other => Err(Error::Unsupported(format!("ALTER TABLE {other}"))),
    }
}

/// Writes catalog row `r` back (its rowid) and bumps the cookie.
fn put_row(store: &dyn RowStore, r: &CatalogRow) -> Result<()> {
    let Some(root) = store.catalog_root()? else { return Ok(()) };
    let row = vec![
        Value::Text(r.kind.clone().into()),
        Value::Text(r.name.clone().into()),
        Value::Text(r.tbl_name.clone().into()),
        Value::Integer(r.root.into()),
        if r.sql.is_empty() { Value::Null } else { Value::Text(r.sql.clone().into()) },
    ];
    store.insert(&catalog::catalog_table(root), r.rowid, &row)?;
    catalog::bump_cookie(store)
}

/// Parses every stored text back: an edit that broke one fails here.
fn recheck(store: &dyn RowStore) -> Result<()> {
    Schema::load(store).map(|_| ()).map_err(|e| match e {
        Error::Corrupt(m) => Error::InvalidInput(format!("error after ALTER TABLE: {m}")),
        e => e,
    })
}

fn add_column(
    store: &dyn RowStore,
    t: &TableDef,
    column_def: &ast::ColumnDef,
    text: Option<&StmtText>,
) -> Result<()> {
    if t.column_index(&column_def.name.value).is_some() {
        return Err(Error::InvalidInput(format!(
            "duplicate column name: {}",
            column_def.name.value
        )));
    }
    // As SQLite: a default that old rows cannot be padded with (not a
    // constant, or NULL for a NOT NULL column) is refused only when there
    // are old rows.
    let empty = store.max_rowid(t)?.is_none();
    let mut default_null = true;
    for o in &column_def.options {
        match &o.option {
            ast::ColumnOption::PrimaryKey(_) | ast::ColumnOption::Unique(_) => {
                return Err(Error::InvalidInput(
                    "Cannot add a PRIMARY KEY or UNIQUE column".into(),
                ));
            }
            ast::ColumnOption::Default(e) => {
                if catalog::constant_default(e).is_none() && !empty {
                    return Err(Error::InvalidInput(
                        "Cannot add a column with non-constant default".into(),
                    ));
                }
                default_null =
                    matches!(catalog::constant_default(e), Some(crate::value::Value::Null));
            }
            _ => {}
        }
    }
    let not_null =
        column_def.options.iter().any(|o| matches!(o.option, ast::ColumnOption::NotNull));
    if not_null && default_null && !empty {
        return Err(Error::InvalidInput(
            "Cannot add a NOT NULL column with default value NULL".into(),
        ));
    }
    // The definition as written: from its name to the statement's end,
    // trailing `;` and spaces cut (SQLite's `pColDef`).
    let written = text.and_then(|s| {
        let stmt = s.source.get(s.range.clone())?;
        let toks = tokens(stmt)?;
        let add = toks.iter().position(|t| t.is_word("ADD"))?;
        let start =
            if toks.get(add + 1).is_some_and(|t| t.is_word("COLUMN")) { add + 2 } else { add + 1 };
        let def = stmt[toks.get(start)?.range.start..]
            .trim_end_matches(|c: char| c == ';' || c.is_ascii_whitespace());
        Some(def.to_string())
    });
    let written = written.unwrap_or_else(|| column_def.to_string());
    let tt = scan_table(&t.sql)
        .ok_or_else(|| Error::Corrupt(format!("catalog: bad table sql {}", t.sql)))?;
    let at = tt.add_col_offset;
    let sql = format!("{}, {written}{}", &t.sql[..at], &t.sql[at..]);
    let ct = parse_create_table(&sql)?;
    catalog::table_from_ast(&ct, t.root, sql.clone())?;
    catalog::rewrite_entry(store, &t.name, &t.name, &t.name, Some(&sql))
}

fn rename_table(store: &dyn RowStore, schema: &Schema, t: &TableDef, new: &str) -> Result<()> {
    if schema.exists(new) {
        return Err(Error::InvalidInput(format!(
            "there is already another table or index with this name: {new}"
        )));
    }
    if new.len() >= 7 && new[..7].eq_ignore_ascii_case("sqlite_") {
        return Err(Error::InvalidInput(format!("object name reserved for internal use: {new}")));
    }
    let replacement = quote_ident(new);
    let auto_prefix = format!("sqlite_autoindex_{}_", t.name);
    let settings = super::pragma::current_settings();
    let (legacy, foreign_keys) = (settings.legacy_alter_table, settings.foreign_keys);
    if !legacy {
        // As SQLite: every view must resolve its names before the rename.
        for v in schema.views.values() {
            plan_view(store, schema, &v.name, &mut None)
                .map_err(|e| view_error(&v.name, "", &e))?;
        }
    }
    for mut r in catalog::catalog_rows(store)? {
        let mut changed = false;
        if !r.sql.is_empty() {
            // `PRAGMA legacy_alter_table`: the table's own text and its
            // indexes as ever, other tables' REFERENCES only with foreign
            // keys on, of a trigger only its `ON t` header, views not at
            // all — as SQLite 3.24.
            let own = r.tbl_name.eq_ignore_ascii_case(&t.name);
            let body = match r.kind.as_str() {
                "table" if legacy && !own && !foreign_keys => 0,
                "trigger" if legacy => tokens(&r.sql)
                    .and_then(|toks| toks.into_iter().find(|t| t.is_word("BEGIN")))
                    .map_or(r.sql.len(), |t| t.range.start),
                "view" if legacy => 0,
                _ => r.sql.len(),
            };
            let edits: Vec<(Range<usize>, String)> = refs::table_mentions(&r.sql, &t.name)
                .into_iter()
                .filter(|g| g.end <= body)
                .map(|g| (g, replacement.clone()))
                .collect();
            if !edits.is_empty() {
                r.sql = splice(&r.sql, &edits);
                changed = true;
            }
        }
        if r.tbl_name.eq_ignore_ascii_case(&t.name) {
            r.tbl_name = new.to_string();
            if r.kind == "table" {
                r.name = new.to_string();
            } else if r.kind == "index"
                && r.name.len() > auto_prefix.len()
                && r.name[..auto_prefix.len()].eq_ignore_ascii_case(&auto_prefix)
            {
                r.name = format!("sqlite_autoindex_{new}_{}", &r.name[auto_prefix.len()..]);
            }
            changed = true;
        }
        if changed {
            put_row(store, &r)?;
        }
    }
    if t.autoincrement
        && let Some(seq) = schema.table(catalog::SEQUENCE_TABLE)
    {
        let mut cur = store.scan(seq, (Bound::Unbounded, Bound::Unbounded), false)?;
        let mut hits = Vec::new();
        while let Some((rowid, row)) = cur.next()? {
            if matches!(row.first(), Some(Value::Text(n)) if n.eq_ignore_ascii_case(&t.name)) {
                hits.push((rowid, row));
            }
        }
        for (rowid, mut row) in hits {
            row[0] = Value::Text(new.to_string().into());
            store.insert(seq, rowid, &row)?;
        }
    }
    recheck(store)
}

/// SQLite's replacement for a renamed name: the new name as the ALTER
/// wrote it where the old one was bare, quoted where the old was quoted.
fn column_replacement(old_token: &str, new: &ast::Ident) -> String {
    let bare_old = old_token.starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '$')
        || !old_token.is_ascii();
    if bare_old && new.quote_style.is_none() { new.value.clone() } else { quote_ident(&new.value) }
}

fn rename_column(
    store: &dyn RowStore,
    t: &TableDef,
    old: &ast::Ident,
    new: &ast::Ident,
) -> Result<()> {
    let Some(ci) = t.column_index(&old.value) else {
        return Err(Error::InvalidInput(format!("no such column: \"{old}\"")));
    };
    if t.column_index(&new.value).is_some() {
        return Err(Error::InvalidInput(format!("duplicate column name: {}", new.value)));
    }
    let col = t.columns[ci].name.clone();
    let schema = Schema::load(store)?;
    let mut views = Vec::new();
    for mut r in catalog::catalog_rows(store)? {
        let Some(kind) = Kind::of(&r.kind) else { continue };
        if r.sql.is_empty() {
            continue;
        }
        let mentions = match kind {
            Kind::View => {
                views.push(r.name.clone());
                view_column_mentions(store, &schema, &r.name, &t.name, &col)?
            }
            _ => refs::column_mentions(
                &r.sql,
                kind,
                &r.tbl_name,
                &t.name,
                &col,
                &has_column(&schema),
            ),
        };
        let edits: Vec<(Range<usize>, String)> = mentions
            .into_iter()
            .map(|g| {
                let s = column_replacement(&r.sql[g.clone()], new);
                (g, s)
            })
            .collect();
        if !edits.is_empty() {
            r.sql = splice(&r.sql, &edits);
            put_row(store, &r)?;
        }
    }
    recheck(store)?;
    // As SQLite: every view must still resolve its names.
    let schema = Schema::load(store)?;
    for name in views {
        plan_view(store, &schema, &name, &mut None)
            .map_err(|e| view_error(&name, " after rename", &e))?;
    }
    Ok(())
}

/// The byte ranges of view `name`'s text that name column `col` of
/// `table`: found by planning the view, as SQLite's rename resolves every
/// name of the parsed view — a subquery's own column of the same name, a
/// result alias or another table's column is left alone. A view that no
/// longer plans fails the ALTER, as in SQLite (`error in view …`).
fn view_column_mentions(
    store: &dyn RowStore,
    schema: &Schema,
    name: &str,
    table: &str,
    col: &str,
) -> Result<Vec<Range<usize>>> {
    let mut watch = Some(crate::planner::bind::ColumnWatch {
        table: table.to_string(),
        column: col.to_string(),
        hits: Vec::new(),
    });
    plan_view(store, schema, name, &mut watch).map_err(|e| view_error(name, "", &e))?;
    let Some(v) = schema.view(name) else { return Ok(Vec::new()) };
    let sql = &v.sql;
    let mut out: Vec<Range<usize>> = Vec::new();
    for span in watch.map(|w| w.hits).unwrap_or_default() {
        let at = |l| crate::script::slowpath::offset_of(sql, l);
        let (Some(a), Some(b)) = (at(span.start), at(span.end)) else { continue };
        // The identifier as written (quoted or not) names the column.
        let word = sql.get(a..b).unwrap_or("");
        let bare = word.trim_matches(|c| matches!(c, '"' | '`' | '[' | ']'));
        if bare.eq_ignore_ascii_case(col) && !out.contains(&(a..b)) {
            out.push(a..b);
        }
    }
    out.sort_by_key(|r| r.start);
    Ok(out)
}

/// Plans view `name` (with `watch` on its own text, not the views it reads).
fn plan_view(
    store: &dyn RowStore,
    schema: &Schema,
    name: &str,
    watch: &mut Option<crate::planner::bind::ColumnWatch>,
) -> Result<()> {
    let Some(v) = schema.view(name) else { return Ok(()) };
    let mut b = crate::planner::Binder::new(schema, store);
    b.source = Some(std::sync::Arc::from(v.sql.as_str()));
    b.watch = watch.take();
    let r = crate::planner::plan_query(&mut b, &v.query);
    *watch = b.watch.take();
    r.map(|_| ())
}

/// Whether table or view `t` has column `c` ([`refs::column_mentions`]):
/// true for a name the catalog does not know (a CTE's, say).
fn has_column(schema: &Schema) -> impl Fn(&str, &str) -> bool + '_ {
    move |t, c| match (schema.table(t), schema.view(t)) {
        (Some(t), _) => t.column_index(c).is_some(),
        (None, Some(v)) => v.columns.iter().any(|n| n.eq_ignore_ascii_case(c)),
        (None, None) => true,
    }
}

/// SQLite's error for a view an ALTER finds unresolvable
/// (`error in view v[ after rename]: …`): the view's own error without
/// its kind's prefix, a missing table named `main.t` as SQLite names it.
fn view_error(view: &str, when: &str, e: &Error) -> Error {
    let m = match e {
        Error::InvalidInput(m) | Error::NotFound(m) => m.clone(),
        e => e.to_string(),
    };
    let m = match m.strip_prefix("no such table: ") {
        Some(t) if !t.contains('.') => format!("no such table: main.{t}"),
        _ => m,
    };
    Error::InvalidInput(format!("error in view {view}{when}: {m}"))
}

fn drop_column(
    store: &dyn RowStore,
    schema: &Schema,
    t: &TableDef,
    col: &ast::Ident,
) -> Result<()> {
    let Some(ci) = t.column_index(&col.value) else {
        // SQLite quotes the name as written (quotes and all).
        return Err(Error::InvalidInput(format!("no such column: \"{col}\"")));
    };
    let cname = t.columns[ci].name.clone();
    let auto = schema
        .table_indexes(&t.name)
        .into_iter()
        .filter(|ix| ix.sql.is_none() && ix.columns.contains(&ci))
        .map(|ix| ix.origin)
        .min_by_key(|o| *o != catalog::IndexOrigin::PrimaryKey);
    if t.primary_key.contains(&ci) || auto == Some(catalog::IndexOrigin::PrimaryKey) {
        return Err(Error::InvalidInput(format!("cannot drop PRIMARY KEY column: \"{cname}\"")));
    }
    if auto.is_some() {
        return Err(Error::InvalidInput(format!("cannot drop UNIQUE column: \"{cname}\"")));
    }
    if t.columns.len() <= 1 {
        return Err(Error::InvalidInput(format!(
            "cannot drop column \"{cname}\": no other columns exist"
        )));
    }
    let tt = scan_table(&t.sql)
        .ok_or_else(|| Error::Corrupt(format!("catalog: bad table sql {}", t.sql)))?;
    let own = tt
        .columns
        .get(ci)
        .map(|c| c.range.clone())
        .ok_or_else(|| Error::Corrupt(format!("catalog: bad table sql {}", t.sql)))?;
    // Anything else that still names the column: SQLite's check of the
    // schema after the drop fails on it.
    for r in catalog::catalog_rows(store)? {
        let Some(kind) = Kind::of(&r.kind) else { continue };
        if r.sql.is_empty() {
            continue;
        }
        let own_text = kind == Kind::Table && r.tbl_name.eq_ignore_ascii_case(&t.name);
        let hits: Vec<_> =
            refs::column_mentions(&r.sql, kind, &r.tbl_name, &t.name, &cname, &has_column(schema))
                .into_iter()
                .filter(|g| !(own_text && own.start <= g.start && g.end <= own.end))
                .collect();
        if hits.is_empty() {
            continue;
        }
        let fk = own_text && t.foreign_keys.iter().any(|fk| fk.columns.contains(&ci));
        let why = if fk && !own_text_has_non_fk_mention(&r.sql, &hits) {
            format!("unknown column \"{cname}\" in foreign key definition")
        } else {
            format!("no such column: {}", as_written(&r.sql, &hits[0]))
        };
        return Err(Error::InvalidInput(format!(
            "error in {} {} after drop column: {why}",
            r.kind, r.name
        )));
    }
    // sqlite_drop_column: from the column's name to the next column's
    // name; the last column from the comma before it to addColOffset.
    let cut = if ci + 1 < tt.columns.len() {
        own.start..tt.columns[ci + 1].range.start
    } else {
        let before = t.sql[..own.start].rfind(',').unwrap_or(own.start);
        before..tt.add_col_offset
    };
    let sql = splice(&t.sql, &[(cut, String::new())]);
    let ct = parse_create_table(&sql)?;
    let (def, _) = catalog::table_from_ast(&ct, t.root, sql.clone())?;
    // Every row without the column's value, a batch at a time (no cursor
    // stays open across the writes).
    let mut after = Bound::Unbounded;
    loop {
        let mut rows = Vec::new();
        let mut cur = store.scan(t, (after, Bound::Unbounded), false)?;
        while rows.len() < 1024
            && let Some((rowid, row)) = cur.next()?
        {
            rows.push((rowid, row));
        }
        drop(cur);
        let Some(&(last, _)) = rows.last() else { break };
        after = Bound::Excluded(last);
        for (rowid, mut row) in rows {
            if row.len() > ci {
                row.remove(ci);
                store.insert(&def, rowid, &row)?;
            }
        }
    }
    catalog::rewrite_entry(store, &t.name, &t.name, &t.name, Some(&sql))?;
    recheck(store)
}

/// A column reference as written, with its qualifier (`new.k`).
fn as_written(sql: &str, hit: &Range<usize>) -> String {
    let Some(toks) = tokens(sql) else { return sql[hit.clone()].to_string() };
    let start = match toks.iter().position(|t| t.range == *hit) {
        Some(i) if i >= 2 && toks[i - 1].token == sqlparser::tokenizer::Token::Period => {
            toks[i - 2].range.start
        }
        _ => hit.start,
    };
    sql[start..hit.end].to_string()
}

/// True if one of `hits` in a table's own text lies outside its FOREIGN
/// KEY clauses (then the error is the plain "no such column").
fn own_text_has_non_fk_mention(sql: &str, hits: &[Range<usize>]) -> bool {
    let Some(toks) = tokens(sql) else { return true };
    hits.iter().any(|h| {
        let Some(i) = toks.iter().position(|t| t.range == *h) else { return true };
        // `FOREIGN KEY (` … this token.
        !(i >= 3
            && toks[..i]
                .iter()
                .rposition(|t| t.is_word("FOREIGN"))
                .is_some_and(|f| toks[f..i].iter().all(|t| !t.is_word("CHECK"))))
    })
}
