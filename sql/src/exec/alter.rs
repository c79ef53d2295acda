//! ALTER TABLE: ADD COLUMN, RENAME TO, RENAME COLUMN.
//!
//! Each works on the stored SQL text, as SQLite does: the `CREATE TABLE`
//! (and `CREATE INDEX`) statements in the catalog are parsed, edited as
//! ASTs and written back; no row is rewritten. Rows stored before an ADD
//! COLUMN are shorter than the new definition: readers pad them with the
//! column's default (a constant, as SQLite requires).

use sqlparser::ast;

use crate::catalog::{self, Schema, object_name};
use crate::storage::RowStore;
use crate::{Error, Result};

fn parse_create_table(sql: &str) -> Result<ast::CreateTable> {
    match crate::parse::parse_sql(sql).map(|mut v| v.pop()) {
        Ok(Some(ast::Statement::CreateTable(ct))) => Ok(ct),
        _ => Err(Error::Corrupt(format!("catalog: bad table sql {sql}"))),
    }
}

fn parse_create_index(sql: &str) -> Result<ast::CreateIndex> {
    match crate::parse::parse_sql(sql).map(|mut v| v.pop()) {
        Ok(Some(ast::Statement::CreateIndex(ci))) => Ok(ci),
        _ => Err(Error::Corrupt(format!("catalog: bad index sql {sql}"))),
    }
}

fn ident(name: &str) -> ast::Ident {
    ast::Ident::with_quote('"', name)
}

fn rename_ident(e: &mut ast::Expr, old: &str, new: &str) {
    if let ast::Expr::Identifier(id) = e
        && id.value.eq_ignore_ascii_case(old)
    {
        *id = ident(new);
    }
}

pub fn alter_table(store: &dyn RowStore, schema: &Schema, at: &ast::AlterTable) -> Result<()> {
    let name = object_name(&at.name)?;
    let t = schema.must_table(&name)?.clone();
    for op in &at.operations {
        match op {
            ast::AlterTableOperation::AddColumn { column_def, .. } => {
                if t.column_index(&column_def.name.value).is_some() {
                    return Err(Error::InvalidInput(format!(
                        "duplicate column name: {}",
                        column_def.name.value
                    )));
                }
                let mut default_null = true;
                for o in &column_def.options {
                    match &o.option {
                        ast::ColumnOption::PrimaryKey(_) | ast::ColumnOption::Unique(_) => {
                            return Err(Error::InvalidInput(
                                "Cannot add a PRIMARY KEY or UNIQUE column".into(),
                            ));
                        }
                        ast::ColumnOption::Default(e) => {
                            if catalog::constant_default(e).is_none() {
                                return Err(Error::InvalidInput(
                                    "Cannot add a column with non-constant default".into(),
                                ));
                            }
                            default_null = matches!(
                                catalog::constant_default(e),
                                Some(crate::value::Value::Null)
                            );
                        }
                        _ => {}
                    }
                }
                let not_null = column_def
                    .options
                    .iter()
                    .any(|o| matches!(o.option, ast::ColumnOption::NotNull));
                if not_null && default_null {
                    return Err(Error::InvalidInput(
                        "Cannot add a NOT NULL column with default value NULL".into(),
                    ));
                }
                let mut ct = parse_create_table(&t.sql)?;
                ct.columns.push(column_def.clone());
                let sql = ct.to_string();
                catalog::table_from_ast(&ct, t.root, sql.clone())?;
                catalog::rewrite_entry(store, &t.name, &t.name, &t.name, Some(&sql))?;
            }
            ast::AlterTableOperation::RenameTable { table_name } => {
                let new = match table_name {
                    ast::RenameTableNameKind::As(n) | ast::RenameTableNameKind::To(n) => {
                        object_name(n)?
                    }
                };
                if schema.exists(&new) {
                    return Err(Error::InvalidInput(format!(
                        "there is already another table or index with this name: {new}"
                    )));
                }
                let mut ct = parse_create_table(&t.sql)?;
                ct.name = ast::ObjectName::from(vec![ident(&new)]);
                catalog::rewrite_entry(store, &t.name, &new, &new, Some(&ct.to_string()))?;
                for ix in schema.table_indexes(&t.name) {
                    match &ix.sql {
                        Some(sql) => {
                            let mut ci = parse_create_index(sql)?;
                            ci.table_name = ast::ObjectName::from(vec![ident(&new)]);
                            let s = ci.to_string();
                            catalog::rewrite_entry(store, &ix.name, &ix.name, &new, Some(&s))?;
                        }
                        None => {
                            let suffix = &ix.name[format!("sqlite_autoindex_{}", t.name).len()..];
                            let renamed = format!("sqlite_autoindex_{new}{suffix}");
                            catalog::rewrite_entry(store, &ix.name, &renamed, &new, None)?;
                        }
                    }
                }
            }
            ast::AlterTableOperation::RenameColumn { old_column_name, new_column_name } => {
                let (old, new) = (&old_column_name.value, &new_column_name.value);
                if t.column_index(old).is_none() {
                    return Err(Error::InvalidInput(format!("no such column: \"{old}\"")));
                }
                if t.column_index(new).is_some() {
                    return Err(Error::InvalidInput(format!("duplicate column name: {new}")));
                }
                let mut ct = parse_create_table(&t.sql)?;
                for c in &mut ct.columns {
                    if c.name.value.eq_ignore_ascii_case(old) {
                        c.name = ident(new);
                    }
                }
                for tc in &mut ct.constraints {
                    let cols = match tc {
                        ast::TableConstraint::PrimaryKey(pk) => &mut pk.columns,
                        ast::TableConstraint::Unique(u) => &mut u.columns,
                        _ => continue,
                    };
                    for ic in cols {
                        rename_ident(&mut ic.column.expr, old, new);
                    }
                }
                let sql = ct.to_string();
                catalog::rewrite_entry(store, &t.name, &t.name, &t.name, Some(&sql))?;
                for ix in schema.table_indexes(&t.name) {
                    if let Some(sql) = &ix.sql {
                        let mut ci = parse_create_index(sql)?;
                        for ic in &mut ci.columns {
                            rename_ident(&mut ic.column.expr, old, new);
                        }
                        let s = ci.to_string();
                        catalog::rewrite_entry(store, &ix.name, &ix.name, &t.name, Some(&s))?;
                    }
                }
            }
            other => return Err(Error::Unsupported(format!("ALTER TABLE {other}"))),
        }
    }
    Ok(())
}
