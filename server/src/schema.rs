//! `GET /api/schema`: the database's tables, views and indexes, for the
//! panel's schema sidebar.
//!
//! The engine has no queryable catalog yet (`sqlite_schema`,
//! `pragma_table_info`), so this read-only endpoint describes the committed
//! schema (`Engine::committed_schema`, a read transaction of its own: it
//! waits for no writer). Row counts are bounded so a huge table costs a
//! bounded scan: each is `count(*)` over at most [`COUNT_CAP`] + 1 rows,
//! and a table with more is reported as `row_count: COUNT_CAP` with
//! `row_count_capped: true`. Counting runs on a blocking thread, table by
//! table, each in its own read transaction. Contract: docs/api.md.

use std::sync::Arc;

use asadb::sql::catalog::{Schema, TableDef};
use asadb::{Database, Value};
use axum::Json;
use axum::extract::State;
use serde::Serialize;

use crate::api::App;
use crate::error::{Error, Result};

/// Rows counted per table at most (one more tells "more").
pub const COUNT_CAP: u64 = 100_000;

#[derive(Serialize, Debug)]
pub struct SchemaInfo {
    /// Tables in name order.
    pub tables: Vec<TableInfo>,
    /// Views in name order.
    pub views: Vec<ViewInfo>,
}

#[derive(Serialize, Debug)]
pub struct TableInfo {
    pub name: String,
    pub columns: Vec<ColumnInfo>,
    pub indexes: Vec<IndexInfo>,
    pub row_count: u64,
    /// True when the table has more than `row_count` rows.
    pub row_count_capped: bool,
    /// The Reservoir's own bookkeeping table (`_asadb_…`).
    pub internal: bool,
    /// The `CREATE TABLE` text.
    pub sql: String,
}

#[derive(Serialize, Debug)]
pub struct ColumnInfo {
    pub name: String,
    /// The declared type as written, or `null` when none was.
    #[serde(rename = "type")]
    pub decl_type: Option<String>,
    pub not_null: bool,
    /// The `INTEGER PRIMARY KEY` column (the rowid).
    pub primary_key: bool,
}

#[derive(Serialize, Debug)]
pub struct IndexInfo {
    pub name: String,
    pub columns: Vec<String>,
    pub unique: bool,
    /// Made for a constraint (PRIMARY KEY, UNIQUE), not by CREATE INDEX.
    pub auto: bool,
}

#[derive(Serialize, Debug)]
pub struct ViewInfo {
    pub name: String,
    pub columns: Vec<String>,
    pub sql: String,
}

/// `GET /api/schema`
pub async fn get(State(app): State<App>) -> Result<Json<SchemaInfo>> {
    let db = app.db.database().clone();
    tokio::task::spawn_blocking(move || describe(&db))
        .await
        .map_err(|e| Error::Internal(format!("blocking task failed: {e}")))?
        .map(Json)
}

/// The schema of `db` with bounded row counts.
pub fn describe(db: &Database) -> Result<SchemaInfo> {
    let schema: Arc<Schema> =
        db.engine().committed_schema().map_err(|e| Error::Engine(asadb::Error::from(e)))?;
    let mut tables = Vec::with_capacity(schema.tables.len());
    for table in schema.tables.values() {
        let (row_count, row_count_capped) = count_rows(db, &table.name)?;
        tables.push(TableInfo {
            name: table.name.clone(),
            columns: columns(table),
            indexes: schema
                .table_indexes(&table.name)
                .iter()
                .map(|i| IndexInfo {
                    name: i.name.clone(),
                    columns: i
                        .columns
                        .iter()
                        .map(|&c| table.columns.get(c).map_or_else(String::new, |c| c.name.clone()))
                        .collect(),
                    unique: i.unique,
                    auto: i.sql.is_none(),
                })
                .collect(),
            row_count,
            row_count_capped,
            internal: table.name.starts_with("_asadb_"),
            sql: table.sql.clone(),
        });
    }
    let views = schema
        .views
        .values()
        .map(|v| ViewInfo {
            name: v.name.clone(),
            columns: view_columns(db, v),
            sql: v.sql.clone(),
        })
        .collect();
    Ok(SchemaInfo { tables, views })
}

fn columns(table: &TableDef) -> Vec<ColumnInfo> {
    table
        .columns
        .iter()
        .enumerate()
        .map(|(i, c)| ColumnInfo {
            name: c.name.clone(),
            decl_type: c.decl_type.clone(),
            not_null: c.not_null,
            primary_key: table.rowid_alias == Some(i),
        })
        .collect()
}

/// A view's result columns, as a query of it names them (its declared
/// list when the view cannot be planned, e.g. its table was dropped).
fn view_columns(db: &Database, view: &asadb::sql::catalog::ViewDef) -> Vec<String> {
    let sql = format!("SELECT * FROM {} LIMIT 0", quote_ident(&view.name));
    match db.query(&sql, ()) {
        Ok(rows) => rows.columns().to_vec(),
        Err(_) => view.columns.clone(),
    }
}

/// `"name"` with inner quotes doubled.
pub fn quote_ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// Rows of `table`, counted up to [`COUNT_CAP`]: (count, capped).
fn count_rows(db: &Database, table: &str) -> Result<(u64, bool)> {
    let sql = format!(
        "SELECT count(*) FROM (SELECT 1 FROM {} LIMIT {})",
        quote_ident(table),
        COUNT_CAP + 1
    );
    let n = match db.query_row(&sql, ())?.map(|r| r.values()[0].clone()) {
        Some(Value::Integer(n)) => u64::try_from(n).unwrap_or(0),
        other => return Err(Error::Internal(format!("count(*) gave {other:?}"))),
    };
    Ok(if n > COUNT_CAP { (COUNT_CAP, true) } else { (n, false) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describes_tables_views_indexes_and_bounded_counts() {
        let db = Database::open_in_memory().unwrap();
        db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, \"we\"\"ird\" TEXT NOT NULL, x)", ())
            .unwrap();
        db.execute("CREATE TABLE pair (a, b, PRIMARY KEY (a, b))", ()).unwrap();
        db.execute("CREATE UNIQUE INDEX t_x ON t (x)", ()).unwrap();
        db.execute("CREATE VIEW v AS SELECT id FROM t", ()).unwrap();
        db.execute("INSERT INTO t VALUES (1, 'a', 1), (2, 'b', 2)", ()).unwrap();
        let info = describe(&db).unwrap();
        let names: Vec<&str> = info.tables.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["pair", "t"]);
        let t = &info.tables[1];
        assert_eq!((t.row_count, t.row_count_capped, t.internal), (2, false, false));
        let cols: Vec<(&str, Option<&str>, bool, bool)> = t
            .columns
            .iter()
            .map(|c| (c.name.as_str(), c.decl_type.as_deref(), c.not_null, c.primary_key))
            .collect();
        assert_eq!(
            cols,
            [
                ("id", Some("INTEGER"), false, true),
                ("we\"ird", Some("TEXT"), true, false),
                ("x", None, false, false)
            ]
        );
        assert_eq!(t.indexes.len(), 1);
        assert_eq!((t.indexes[0].name.as_str(), t.indexes[0].unique), ("t_x", true));
        assert_eq!(t.indexes[0].columns, ["x"]);
        assert!(!t.indexes[0].auto);
        let pair = &info.tables[0];
        assert!(pair.indexes.iter().any(|i| i.auto && i.unique && i.columns == ["a", "b"]));
        assert_eq!(info.views.len(), 1);
        assert_eq!(info.views[0].name, "v");
        assert_eq!(info.views[0].columns, ["id"]);
    }

    #[test]
    fn counts_stop_at_the_cap() {
        let db = Database::open_in_memory().unwrap();
        db.execute("CREATE TABLE big (a)", ()).unwrap();
        db.execute(
            &format!(
                "INSERT INTO big WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c \
                 WHERE x < {}) SELECT x FROM c",
                COUNT_CAP + 5
            ),
            (),
        )
        .unwrap();
        assert_eq!(count_rows(&db, "big").unwrap(), (COUNT_CAP, true));
        assert_eq!(quote_ident("a\"b"), "\"a\"\"b\"");
    }
}
