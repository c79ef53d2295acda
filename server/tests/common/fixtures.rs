//! The interchange fixtures (`../shared/interchange`, or
//! `$ASADB_INTERCHANGE_DIR`) and the oracle they are checked against:
//! the Chinook tables as SQLite holds them, loaded by rusqlite from the
//! fixtures' own `sqlite3 .dump` and checked equal to `oracle/*.tsv`
//! first, so the expected `typeof` of every value is SQLite's.
#![allow(dead_code)]

use std::path::PathBuf;

/// A value and its SQLite type, for exact comparisons.
#[derive(Clone, Debug, PartialEq)]
pub enum V {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

impl V {
    /// From a JSON result value (`/api/query`, Reservoir results).
    pub fn from_json(v: &serde_json::Value) -> V {
        match v {
            serde_json::Value::Null => V::Null,
            serde_json::Value::Number(n) if n.is_i64() => V::Int(n.as_i64().unwrap()),
            serde_json::Value::Number(n) => V::Real(n.as_f64().unwrap()),
            serde_json::Value::String(s) => V::Text(s.clone()),
            serde_json::Value::Object(o) => {
                let hex = o["hex"].as_str().expect("a blob is {\"hex\": …}");
                V::Blob(
                    (0..hex.len())
                        .step_by(2)
                        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                        .collect(),
                )
            }
            other => panic!("unexpected JSON value {other}"),
        }
    }

    pub fn from_sqlite(v: rusqlite::types::ValueRef<'_>) -> V {
        use rusqlite::types::ValueRef as R;
        match v {
            R::Null => V::Null,
            R::Integer(i) => V::Int(i),
            R::Real(f) => V::Real(f),
            R::Text(t) => V::Text(String::from_utf8(t.to_vec()).unwrap()),
            R::Blob(b) => V::Blob(b.to_vec()),
        }
    }

    /// As `sqlite3 -separator $'\t' -nullvalue '\N'` prints it.
    pub fn tsv(&self) -> String {
        match self {
            V::Null => "\\N".into(),
            V::Int(i) => i.to_string(),
            V::Real(f) => {
                // sqlite3 prints reals with %!.15g.
                let s = format!("{:.14e}", f);
                let v: f64 = s.parse().unwrap();
                let mut t = format!("{v}");
                if !t.contains('.') && !t.contains('e') {
                    t.push_str(".0");
                }
                t
            }
            V::Text(s) => s.clone(),
            V::Blob(_) => panic!("no blobs in the oracle"),
        }
    }
}

/// The fixture directory.
pub fn dir() -> PathBuf {
    match std::env::var_os("ASADB_INTERCHANGE_DIR") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/interchange"),
    }
}

pub fn path(name: &str) -> PathBuf {
    dir().join(name)
}

/// The Chinook tables: (PascalCase, snake_case) names.
pub const TABLES: [(&str, &str); 11] = [
    ("Album", "album"),
    ("Artist", "artist"),
    ("Customer", "customer"),
    ("Employee", "employee"),
    ("Genre", "genre"),
    ("Invoice", "invoice"),
    ("InvoiceLine", "invoice_line"),
    ("MediaType", "media_type"),
    ("Playlist", "playlist"),
    ("PlaylistTrack", "playlist_track"),
    ("Track", "track"),
];

/// The oracle: every table's rows (in key order) as SQLite holds them.
pub struct Oracle {
    db: rusqlite::Connection,
}

impl Oracle {
    /// Loads the fixtures' sqlite dump into SQLite and checks every table
    /// against its `oracle/<Table>.tsv`.
    pub fn load() -> Oracle {
        let dump =
            std::fs::read_to_string(path("chinook.sqlite.sql")).expect("read the sqlite dump");
        let db = rusqlite::Connection::open_in_memory().unwrap();
        db.execute_batch(&dump).expect("SQLite loads its own dump");
        let oracle = Oracle { db };
        for (t, _) in TABLES {
            let tsv = std::fs::read_to_string(path(&format!("oracle/{t}.tsv"))).unwrap();
            let mut lines = tsv.lines();
            lines.next(); // header
            let rows = oracle.rows(t);
            let want: Vec<&str> = lines.collect();
            assert_eq!(rows.len(), want.len(), "{t}: row count of the oracle");
            for (row, line) in rows.iter().zip(&want) {
                let got: Vec<String> = row.iter().map(V::tsv).collect();
                assert_eq!(got.join("\t"), *line, "{t}: SQLite's rows equal the oracle TSV");
            }
        }
        oracle
    }

    /// The rows of `table`, ordered by the first two columns.
    pub fn rows(&self, table: &str) -> Vec<Vec<V>> {
        let mut st = self.db.prepare(&format!("SELECT * FROM \"{table}\" ORDER BY 1, 2")).unwrap();
        let n = st.column_count();
        st.query_map([], |r| Ok((0..n).map(|i| V::from_sqlite(r.get_ref(i).unwrap())).collect()))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    }
}
