//! A real tool's schema introspection over the facade, against SQLite.
//!
//! The tool is Diesel's `diesel print-schema` for SQLite
//! (`diesel_cli/src/infer_schema_internals/sqlite.rs`,
//! <https://github.com/diesel-rs/diesel/blob/master/diesel_cli/src/infer_schema_internals/sqlite.rs>):
//! Diesel's CLI cannot run over another engine, so its exact query
//! sequence is replayed here, statement for statement, through
//! `asadb::Database` and through rusqlite on the same schema —
//! `load_table_names` (sqlite_master filtered as Diesel's query builder
//! renders it), then per table `PRAGMA TABLE_INFO('t')` (columns and
//! primary keys, `get_table_data` / `get_primary_keys`),
//! `SELECT * FROM pragma_foreign_key_list('t')` (`load_foreign_key_constraints`),
//! and `PRAGMA INDEX_LIST('t')` plus `PRAGMA INDEX_INFO('i')` for the
//! unique indexes tools like sqlx-cli and SeaORM's generator read. Then
//! the one-query form such generators also use: `sqlite_master` joined
//! with `pragma_table_info(m.name)`, correlated.
//!
//! Invariant pinned: every answer — values and storage classes — is
//! SQLite's, so the schema the tool infers is the same.

use asadb::{Database, Value};

const SCHEMA: &str = "
CREATE TABLE users (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL,
                    email VARCHAR(120) UNIQUE, created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP);
CREATE TABLE posts (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id)
                    ON DELETE CASCADE, title TEXT NOT NULL DEFAULT 'untitled', body TEXT,
                    score REAL);
CREATE TABLE tags (post_id INTEGER, tag TEXT, PRIMARY KEY (post_id, tag),
                   FOREIGN KEY (post_id) REFERENCES posts(id)) WITHOUT ROWID;
CREATE INDEX posts_user ON posts(user_id, score DESC);
CREATE UNIQUE INDEX posts_title ON posts(title);
CREATE VIEW recent AS SELECT id, title FROM posts ORDER BY id DESC;
CREATE TABLE __diesel_schema_migrations (version VARCHAR(50) PRIMARY KEY NOT NULL,
                    run_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP);
";

fn render(v: &Value) -> String {
    match v {
        Value::Null => "NULL".into(),
        Value::Integer(i) => format!("i{i}"),
        Value::Real(f) => format!("r{f:?}"),
        Value::Text(s) => format!("t'{s}'"),
        Value::Blob(b) => format!("b{b:?}"),
    }
}

fn ours(db: &Database, sql: &str) -> Vec<Vec<String>> {
    db.query(sql, ())
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
        .map(|r| r.unwrap().values().iter().map(render).collect())
        .collect()
}

fn sqlite(c: &rusqlite::Connection, sql: &str) -> Vec<Vec<String>> {
    use rusqlite::types::ValueRef;
    let mut st = c.prepare(sql).unwrap();
    let n = st.column_count();
    let mut rows = st.query([]).unwrap();
    let mut out = Vec::new();
    while let Some(r) = rows.next().unwrap() {
        out.push(
            (0..n)
                .map(|i| match r.get_ref(i).unwrap() {
                    ValueRef::Null => "NULL".into(),
                    ValueRef::Integer(i) => format!("i{i}"),
                    ValueRef::Real(f) => format!("r{f:?}"),
                    ValueRef::Text(t) => format!("t'{}'", String::from_utf8_lossy(t)),
                    ValueRef::Blob(b) => format!("b{b:?}"),
                })
                .collect(),
        );
    }
    out
}

fn text(cell: &str) -> String {
    cell.strip_prefix("t'").and_then(|s| s.strip_suffix('\'')).unwrap_or(cell).to_string()
}

#[test]
fn diesel_print_schema_sees_what_it_sees_on_sqlite() {
    let db = Database::open_in_memory().unwrap();
    db.execute_script(SCHEMA.as_bytes(), |_| {}).unwrap();
    let c = rusqlite::Connection::open_in_memory().unwrap();
    c.execute_batch(SCHEMA).unwrap();
    let mut asked = 0;
    let mut same = |sql: &str| -> Vec<Vec<String>> {
        let (a, b) = (ours(&db, sql), sqlite(&c, sql));
        assert_eq!(a, b, "{sql}");
        asked += 1;
        a
    };
    // load_table_names, as Diesel's query builder renders it.
    let tables = same(
        "SELECT `sqlite_master`.`name` FROM `sqlite_master` WHERE \
         (((`sqlite_master`.`name` NOT LIKE '\\_\\_%' ESCAPE '\\') AND \
         (`sqlite_master`.`name` NOT LIKE 'sqlite%')) AND (`sqlite_master`.`type` = 'table')) \
         ORDER BY `sqlite_master`.`name`",
    );
    assert_eq!(tables.len(), 3, "{tables:?}");
    for t in tables.iter().map(|r| text(&r[0])) {
        same(&format!("PRAGMA TABLE_INFO('{t}')"));
        same(&format!("SELECT * FROM pragma_foreign_key_list('{t}')"));
        for ix in same(&format!("PRAGMA INDEX_LIST('{t}')")) {
            same(&format!("PRAGMA INDEX_INFO('{}')", text(&ix[1])));
        }
        // Whether the table is WITHOUT ROWID (Diesel reads the text).
        same(&format!("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = '{t}'"));
    }
    // The one-query form schema generators use (correlated pragma calls).
    same(
        "SELECT m.name, p.cid, p.name, p.type, p.\"notnull\", p.dflt_value, p.pk \
         FROM sqlite_master m JOIN pragma_table_info(m.name) p \
         WHERE m.type IN ('table', 'view') AND m.name NOT LIKE 'sqlite_%' \
         ORDER BY m.name, p.cid",
    );
    assert!(asked > 12);
}
