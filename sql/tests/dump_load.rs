//! The stock `sqlite3 .dump` of the Chinook sample (with its `PRAGMA
//! foreign_keys=OFF`, `BEGIN TRANSACTION`, `[bracket]` identifiers,
//! `sqlite_sequence` rows and `COMMIT`) loads unedited into both stores,
//! and every table equals its oracle TSV (`interchange/oracle`, written by
//! the sqlite3 CLI: NULL as `\N`, reals as `%!.15g`).
//!
//! The files live outside the repository: `ASADB_INTERCHANGE_DIR`, else
//! `../shared/interchange` next to the checkout (as `/work/main` has it),
//! else `/work/shared/interchange`. The test fails if none exists.

use std::path::PathBuf;

use asadb_sql::Value;
use asadb_sql::session::{Engine, Outcome, Params, Session};

fn interchange_dir() -> PathBuf {
    let mut candidates = Vec::new();
    if let Ok(d) = std::env::var("ASADB_INTERCHANGE_DIR") {
        candidates.push(PathBuf::from(d));
    }
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    candidates.push(manifest.join("../../shared/interchange"));
    candidates.push(PathBuf::from("/work/shared/interchange"));
    candidates
        .into_iter()
        .find(|d| d.join("chinook.sqlite.sql").is_file())
        .expect("the interchange files (set ASADB_INTERCHANGE_DIR)")
}

/// A value as the sqlite3 CLI prints it with `-nullvalue '\N'`.
fn cli_text(v: &Value) -> String {
    match v {
        Value::Null => "\\N".into(),
        other => other.text().unwrap_or_default().into_owned(),
    }
}

fn rows(s: &mut Session, sql: &str) -> Vec<Vec<Value>> {
    match s.execute(sql, &Params::None).unwrap_or_else(|e| panic!("{sql}: {e}")) {
        Outcome::Rows { rows, .. } => rows,
        other => panic!("{sql}: {other:?}"),
    }
}

fn check_loaded(s: &mut Session, dir: &std::path::Path) {
    let tables = [
        "Album",
        "Artist",
        "Customer",
        "Employee",
        "Genre",
        "Invoice",
        "InvoiceLine",
        "MediaType",
        "Playlist",
        "PlaylistTrack",
        "Track",
    ];
    for t in tables {
        let want = std::fs::read_to_string(dir.join("oracle").join(format!("{t}.tsv"))).unwrap();
        let mut lines = want.lines();
        let header = lines.next().unwrap();
        let cols: Vec<String> = rows(s, &format!("SELECT name FROM pragma_table_info('{t}')"))
            .into_iter()
            .map(|r| cli_text(&r[0]))
            .collect();
        assert_eq!(cols.join("\t"), header, "{t} columns");
        let got: Vec<String> = rows(s, &format!("SELECT * FROM [{t}] ORDER BY 1, 2"))
            .iter()
            .map(|r| r.iter().map(cli_text).collect::<Vec<_>>().join("\t"))
            .collect();
        let want: Vec<&str> = lines.collect();
        assert_eq!(got.len(), want.len(), "{t} row count");
        for (g, w) in got.iter().zip(&want) {
            assert_eq!(g, w, "{t}");
        }
    }
    assert_eq!(
        rows(s, "SELECT seq FROM sqlite_sequence WHERE name = 'Track'"),
        vec![vec![Value::Integer(3503)]]
    );
    // AUTOINCREMENT continues after the dump's counter.
    s.execute("INSERT INTO Genre(Name) VALUES ('New')", &Params::None).unwrap();
    assert_eq!(rows(s, "SELECT max(GenreId) FROM Genre"), vec![vec![Value::Integer(26)]]);
    let idx =
        rows(s, "SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL");
    assert_eq!(idx, vec![vec![Value::Integer(11)]]);
    assert_eq!(rows(s, "PRAGMA foreign_key_list(Album)").len(), 1);
}

#[test]
fn chinook_sqlite_dump_loads_unedited() {
    let dir = interchange_dir();
    let dump = std::fs::read_to_string(dir.join("chinook.sqlite.sql")).unwrap();
    let db = asadb_txn::Db::memory(asadb_txn::Options::default()).unwrap();
    for e in [Engine::memory(), Engine::with_db(db)] {
        let mut s = e.session();
        s.execute(&dump, &Params::None).expect("the dump loads");
        assert!(!s.in_transaction(), "the dump's COMMIT ends its transaction");
        check_loaded(&mut s, &dir);
    }
}
