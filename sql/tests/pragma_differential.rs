//! PRAGMAs against SQLite (rusqlite, bundled), on both stores: each
//! pragma's rows (column values and storage classes) as statements and as
//! table-valued functions, the settings a connection keeps, and the ones
//! AsaDB refuses (durability).
//!
//! Invariant pinned: the introspection an ORM, driver or GUI tool runs when
//! it connects answers exactly as SQLite does.

mod schema_common;

use asadb_sql::Value;
use asadb_sql::session::{Engine, Outcome, Params};
use schema_common::{Got, Opts, check_script, run_ours, run_sqlite};

const SCHEMA: &[&str] = &[
    "CREATE TABLE [Artist] ([ArtistId] INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, \
     [Name] NVARCHAR(120))",
    "CREATE TABLE album(id INTEGER PRIMARY KEY, title TEXT NOT NULL DEFAULT 'untitled', \
     artist INTEGER REFERENCES Artist(ArtistId) ON DELETE CASCADE, \
     price REAL DEFAULT (1.5 * 2), code TEXT UNIQUE COLLATE NOCASE, \
     FOREIGN KEY (artist, code) REFERENCES other(a, b) ON UPDATE SET NULL)",
    "CREATE INDEX album_title ON album(title DESC, price)",
    "CREATE UNIQUE INDEX album_lower ON album(lower(title)) WHERE price > 0",
    "CREATE TABLE w(a INT, b TEXT COLLATE NOCASE, c, PRIMARY KEY(b, a)) WITHOUT ROWID",
    "CREATE INDEX wc ON w(c)",
    "CREATE TABLE s(x INTEGER, y TEXT, z ANY) STRICT",
    "CREATE TABLE g(a, b AS (a * 2), c INT AS (a + 1) STORED, d)",
    "CREATE TABLE k(p, q, PRIMARY KEY(q, p), UNIQUE(p))",
    "CREATE VIEW v AS SELECT id, title FROM album",
];

fn with_schema(extra: &[&str]) -> Vec<String> {
    SCHEMA.iter().chain(extra).map(|s| s.to_string()).collect()
}

fn check(extra: &[&str], sorted: bool) {
    let script = with_schema(extra);
    let refs: Vec<&str> = script.iter().map(String::as_str).collect();
    check_script(&refs, Opts { sorted, ..Opts::default() });
}

#[test]
fn table_info_and_xinfo() {
    check(
        &[
            "PRAGMA table_info(album)",
            "PRAGMA table_info('Artist')",
            "PRAGMA table_info([artist])",
            "PRAGMA main.table_info(w)",
            "PRAGMA table_info(s)",
            "PRAGMA table_info(g)",
            "PRAGMA table_xinfo(g)",
            "PRAGMA table_info(k)",
            "PRAGMA table_info(nosuch)",
            "PRAGMA table_info(sqlite_schema)",
            "PRAGMA table_info(sqlite_master)",
            "PRAGMA table_info(v)",
            "PRAGMA temp.table_info(album)",
            "PRAGMA nosuchdb.table_info(album)",
            "SELECT * FROM pragma_table_info('album')",
            "SELECT name, type, pk FROM pragma_table_info('w') ORDER BY cid",
            "SELECT cid, name, hidden FROM pragma_table_xinfo('g')",
            "SELECT count(*) FROM pragma_table_info('nosuch')",
            "SELECT * FROM pragma_table_info('album', 'main')",
            "SELECT name FROM pragma_table_info('album') WHERE pk > 0",
        ],
        false,
    );
}

#[test]
fn index_and_foreign_key_lists() {
    check(
        &[
            "PRAGMA index_list(album)",
            "PRAGMA index_list(w)",
            "PRAGMA index_list(k)",
            "PRAGMA index_list(Artist)",
            "PRAGMA index_list(nosuch)",
            "PRAGMA index_info(album_title)",
            "PRAGMA index_info(album_lower)",
            "PRAGMA index_xinfo(album_title)",
            "PRAGMA index_xinfo(album_lower)",
            "PRAGMA index_xinfo(wc)",
            "PRAGMA index_info(sqlite_autoindex_album_1)",
            "PRAGMA index_xinfo(sqlite_autoindex_album_1)",
            "PRAGMA index_xinfo(sqlite_autoindex_k_1)",
            "PRAGMA index_xinfo(sqlite_autoindex_k_2)",
            "PRAGMA index_info(nosuch)",
            "PRAGMA foreign_key_list(album)",
            "PRAGMA foreign_key_list(Artist)",
            "SELECT * FROM pragma_index_list('album')",
            "SELECT name, \"unique\", origin, partial FROM pragma_index_list('k')",
            "SELECT * FROM pragma_index_xinfo('album_title')",
            "SELECT \"table\", \"from\", \"to\", on_delete FROM pragma_foreign_key_list('album')",
        ],
        false,
    );
}

#[test]
fn table_list_and_lists() {
    check(
        &[
            "PRAGMA table_list",
            "PRAGMA table_list(album)",
            "PRAGMA table_list(v)",
            "PRAGMA main.table_list",
            "PRAGMA temp.table_list",
            "SELECT * FROM pragma_table_list WHERE schema = 'main' ORDER BY name",
            "SELECT name, type, ncol, wr, strict FROM pragma_table_list() ORDER BY name",
            "PRAGMA collation_list",
            "PRAGMA encoding",
            "PRAGMA page_size",
            "SELECT * FROM pragma_collation_list",
        ],
        true,
    );
}

#[test]
fn settings_read_and_written() {
    check(
        &[
            "PRAGMA foreign_keys",
            "PRAGMA foreign_keys = OFF",
            "PRAGMA foreign_keys=0",
            "PRAGMA foreign_keys",
            "SELECT * FROM pragma_foreign_keys",
            "PRAGMA user_version",
            "PRAGMA user_version = 42",
            "PRAGMA user_version",
            "PRAGMA user_version = -7",
            "SELECT * FROM pragma_user_version",
            "PRAGMA user_version = 4294967297",
            "PRAGMA user_version",
            "PRAGMA application_id",
            "PRAGMA application_id = 1234",
            "PRAGMA main.application_id",
            "BEGIN",
            "PRAGMA user_version = 99",
            "ROLLBACK",
            "PRAGMA user_version",
            // journal_mode: SQLite's in-memory databases answer `memory`;
            // AsaDB's always `wal` (durability_and_unenforced_settings_are_refused).
            "PRAGMA synchronous",
            "PRAGMA synchronous = FULL",
            "PRAGMA synchronous",
            "PRAGMA synchronous = EXTRA",
            "PRAGMA synchronous",
            // rusqlite opens with a 5 s busy timeout; SQLite's default is 0.
            "PRAGMA busy_timeout = 0",
            "PRAGMA busy_timeout",
            "PRAGMA busy_timeout = 5000",
            "PRAGMA busy_timeout",
            "PRAGMA cache_size",
            "PRAGMA cache_size = -4000",
            "PRAGMA cache_size",
            "PRAGMA temp_store",
            "PRAGMA temp_store = MEMORY",
            "PRAGMA temp_store",
            "PRAGMA defer_foreign_keys",
            "PRAGMA defer_foreign_keys = ON",
            "PRAGMA defer_foreign_keys",
            "PRAGMA recursive_triggers",
            "PRAGMA recursive_triggers = 1",
            "PRAGMA recursive_triggers",
            "PRAGMA case_sensitive_like = OFF",
            "PRAGMA case_sensitive_like",
            "PRAGMA optimize",
            "PRAGMA optimize(0x10002)",
            "SELECT * FROM pragma_optimize",
            "SELECT * FROM pragma_optimize(0x10002)",
            // A hex value as SQLite's sqlite3Atoi reads it: a positive
            // 32-bit integer, else 0; a sign stops it at the x.
            "PRAGMA user_version = 0x10",
            "PRAGMA user_version",
            "PRAGMA user_version = 0x7fffffff",
            "PRAGMA user_version",
            "PRAGMA user_version = 0x80000000",
            "PRAGMA user_version",
            "PRAGMA user_version = -0x10",
            "PRAGMA user_version",
            "PRAGMA cache_size = 0x20",
            "PRAGMA cache_size",
            "PRAGMA user_version = X'10'",
            "PRAGMA no_such_pragma",
            "PRAGMA auto_vacuum",
            "PRAGMA automatic_index",
            "PRAGMA locking_mode",
            "PRAGMA secure_delete",
            "PRAGMA query_only",
            "PRAGMA trusted_schema",
            "PRAGMA cell_size_check",
            "PRAGMA reverse_unordered_selects",
            "PRAGMA count_changes",
            "PRAGMA empty_result_callbacks",
            "PRAGMA full_column_names",
            "PRAGMA short_column_names",
            "PRAGMA max_page_count",
            "PRAGMA journal_size_limit",
            "PRAGMA soft_heap_limit",
            "PRAGMA hard_heap_limit",
            "PRAGMA threads",
            "PRAGMA analysis_limit",
            "PRAGMA legacy_alter_table",
            "SELECT * FROM pragma_auto_vacuum",
            "PRAGMA auto_vacuum = NONE",
            "PRAGMA auto_vacuum = 0",
            // (SQLite's in-memory database answers `exclusive` here.)
            "PRAGMA secure_delete = OFF",
            "PRAGMA query_only = 0",
            "PRAGMA legacy_alter_table = ON",
            "PRAGMA legacy_alter_table",
            "PRAGMA legacy_alter_table = OFF",
            "PRAGMA legacy_alter_table",
            "PRAGMA no_such_pragma = 3",
            "PRAGMA quick_check",
            "PRAGMA integrity_check",
            "SELECT * FROM pragma_quick_check",
            "SELECT * FROM pragma_integrity_check",
            "SELECT integrity_check = 'ok' FROM pragma_integrity_check(10)",
            "SELECT * FROM pragma_integrity_check('album')",
            "SELECT * FROM pragma_integrity_check('nosuch')",
            "SELECT * FROM pragma_quick_check(NULL, 'main')",
            "PRAGMA integrity_check(5)",
            "PRAGMA integrity_check(-5)",
            "PRAGMA integrity_check('7')",
            "PRAGMA integrity_check(album)",
            "PRAGMA quick_check(nosuch)",
            "BEGIN",
            "INSERT INTO album(title) VALUES ('in a transaction')",
            "SELECT * FROM pragma_integrity_check",
            "PRAGMA quick_check",
            "COMMIT",
            "SELECT * FROM pragma_pragma_list WHERE name IN ('table_info', 'foreign_keys')",
            "PRAGMA database_list",
        ],
        false,
    );
}

fn rows(s: &mut asadb_sql::session::Session, sql: &str) -> Vec<Vec<Value>> {
    match s.execute(sql, &Params::None).unwrap_or_else(|e| panic!("{sql}: {e}")) {
        Outcome::Rows { rows, .. } => rows,
        other => panic!("{sql}: {other:?}"),
    }
}

/// What SQLite would do and AsaDB refuses, each with a clear error: giving
/// up durability, and switches AsaDB does not have (case-sensitive LIKE,
/// a writable schema, ignoring CHECK constraints), `PRAGMA optimize`'s
/// report.
#[test]
fn durability_and_unenforced_settings_are_refused() {
    for e in [Engine::memory(), Engine::with_db(asadb_txn::Db::memory(Default::default()).unwrap())]
    {
        let mut s = e.session();
        for sql in [
            "PRAGMA synchronous = OFF",
            "PRAGMA synchronous = NORMAL",
            "PRAGMA synchronous = 0",
            "PRAGMA journal_mode = OFF",
            "PRAGMA journal_mode = MEMORY",
            "PRAGMA case_sensitive_like = ON",
            "PRAGMA writable_schema = ON",
            "PRAGMA ignore_check_constraints = 1",
            "PRAGMA schema_version = 5",
            "PRAGMA nosuch.user_version",
            "SELECT * FROM pragma_table_info(name)",
            "SELECT * FROM pragma_table_info('a', 'main', 3)",
            "SELECT * FROM pragma_nosuch('a')",
            // The report mask asks for the ANALYZE statements SQLite's
            // heuristics would run; AsaDB's optimize runs none.
            "PRAGMA optimize = -1",
            "PRAGMA optimize(0x10003)",
            // Fixed by AsaDB's design.
            "PRAGMA auto_vacuum = FULL",
            "PRAGMA auto_vacuum = 1",
            "PRAGMA locking_mode = EXCLUSIVE",
            "PRAGMA secure_delete = ON",
            "PRAGMA query_only = ON",
            "PRAGMA threads = 4",
        ] {
            let err = s.execute(sql, &Params::None).expect_err(sql).to_string();
            assert!(!err.is_empty(), "{sql}");
        }
        // Nothing changed.
        assert_eq!(rows(&mut s, "PRAGMA synchronous"), vec![vec![Value::Integer(2)]]);
        assert_eq!(rows(&mut s, "PRAGMA journal_mode"), vec![vec![Value::Text("wal".into())]]);
    }
}

/// Settings are per connection; user_version is the database's, kept in
/// the file and seen by every session, and survives a reopen.
#[test]
fn user_version_is_the_databases_and_settings_the_sessions() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db");
    {
        let e = Engine::open(&path, Default::default()).unwrap();
        let mut a = e.session();
        let mut b = e.session();
        a.execute("PRAGMA user_version = 7", &Params::None).unwrap();
        a.execute("PRAGMA application_id = 0x0f", &Params::None).ok();
        a.execute("PRAGMA busy_timeout = 250", &Params::None).unwrap();
        assert_eq!(rows(&mut b, "PRAGMA user_version"), vec![vec![Value::Integer(7)]]);
        assert_eq!(rows(&mut b, "PRAGMA busy_timeout"), vec![vec![Value::Integer(0)]]);
        assert_eq!(rows(&mut a, "PRAGMA busy_timeout"), vec![vec![Value::Integer(250)]]);
        a.execute("CREATE TABLE t(x)", &Params::None).unwrap();
        let pc = rows(&mut a, "PRAGMA page_count");
        assert!(matches!(pc[0][0], Value::Integer(n) if n >= 2), "{pc:?}");
        assert_eq!(rows(&mut a, "PRAGMA freelist_count").len(), 1);
        let sv = rows(&mut a, "PRAGMA schema_version");
        assert!(matches!(sv[0][0], Value::Integer(n) if n >= 1), "{sv:?}");
        let ck = rows(&mut a, "PRAGMA wal_checkpoint");
        assert!(matches!(ck[0][0], Value::Integer(0)), "{ck:?}");
        assert_eq!(rows(&mut a, "PRAGMA integrity_check"), vec![vec![Value::Text("ok".into())]]);
    }
    let e = Engine::open(&path, Default::default()).unwrap();
    let mut s = e.session();
    assert_eq!(rows(&mut s, "PRAGMA user_version"), vec![vec![Value::Integer(7)]]);
}

#[test]
fn foreign_key_check_finds_orphans() {
    check_script(
        &[
            "CREATE TABLE p(id INTEGER PRIMARY KEY, code TEXT UNIQUE)",
            "CREATE TABLE c(x, y REFERENCES p, z REFERENCES p(code), w REFERENCES gone(a))",
            "INSERT INTO p VALUES (1, 'a'), (2, 'b')",
            "INSERT INTO c VALUES (1, 1, 'a', NULL), (2, 3, 'a', NULL), (3, NULL, 'zz', NULL), \
             (4, 2, NULL, 5), (5, 9, 'q', 6)",
            "PRAGMA foreign_key_check",
            "PRAGMA foreign_key_check(c)",
            "PRAGMA foreign_key_check(p)",
            "PRAGMA foreign_key_check(nosuch)",
            "CREATE TABLE m(a REFERENCES c(x))",
            "INSERT INTO m VALUES (1)",
            "PRAGMA foreign_key_check(m)",
            "CREATE TABLE wr(k PRIMARY KEY, v REFERENCES p) WITHOUT ROWID",
            "INSERT INTO wr VALUES ('k', 7)",
            "PRAGMA foreign_key_check(wr)",
            "SELECT * FROM pragma_foreign_key_check",
            "SELECT \"table\", parent FROM pragma_foreign_key_check('c') WHERE fkid = 1",
            "SELECT count(*) FROM pragma_foreign_key_check('nosuch')",
        ],
        Opts::default(),
    );
}

/// SQLite switches `defer_foreign_keys` off when an autocommit statement
/// that read or wrote the database ends (its transaction ends), and at
/// every COMMIT / ROLLBACK — not after a statement that touched no table.
#[test]
fn defer_foreign_keys_resets_as_sqlite() {
    check_script(
        &[
            "CREATE TABLE t(a)",
            "PRAGMA defer_foreign_keys = ON",
            "PRAGMA defer_foreign_keys",
            "SELECT 1",
            "PRAGMA defer_foreign_keys",
            "SELECT abs(-1), 'FROM'",
            "PRAGMA defer_foreign_keys",
            "WITH c AS (SELECT 1) SELECT * FROM c",
            "PRAGMA defer_foreign_keys",
            "VALUES (1), (2)",
            "PRAGMA defer_foreign_keys",
            "SELECT * FROM json_each('[1]')",
            "PRAGMA defer_foreign_keys",
            "SELECT (SELECT count(*) FROM t WHERE 0)",
            "PRAGMA defer_foreign_keys",
            "PRAGMA defer_foreign_keys = ON",
            "SELECT * FROM sqlite_schema WHERE 0",
            "PRAGMA defer_foreign_keys",
            "PRAGMA defer_foreign_keys = ON",
            "SELECT * FROM pragma_table_info('t')",
            "PRAGMA defer_foreign_keys",
            "PRAGMA defer_foreign_keys = ON",
            "SELECT * FROM t",
            "PRAGMA defer_foreign_keys",
            "PRAGMA defer_foreign_keys = ON",
            "PRAGMA table_info(t)",
            "PRAGMA defer_foreign_keys",
            "PRAGMA defer_foreign_keys = ON",
            "INSERT INTO t VALUES (1)",
            "PRAGMA defer_foreign_keys",
            "PRAGMA defer_foreign_keys = ON",
            "BEGIN",
            "SELECT * FROM t",
            "PRAGMA defer_foreign_keys",
            "COMMIT",
            "PRAGMA defer_foreign_keys",
        ],
        Opts::default(),
    );
}

/// Pragma functions whose argument reads a row: `sqlite_schema` joined
/// with `pragma_table_info(m.name)` and the other name-taking pragmas,
/// as schema tools query them in one statement.
#[test]
fn correlated_pragma_functions() {
    check(
        &[
            "SELECT m.name, p.* FROM sqlite_schema m, pragma_table_info(m.name) p \
             WHERE m.type = 'table' ORDER BY m.name, p.cid",
            "SELECT m.name, p.cid, p.name, p.arg, p.schema FROM sqlite_master m \
             JOIN pragma_table_xinfo(m.name) p ORDER BY 1, 2",
            "SELECT m.name, l.* FROM sqlite_master m, pragma_index_list(m.name) l \
             WHERE m.type = 'table' ORDER BY m.name, l.seq",
            "SELECT l.name, i.* FROM pragma_index_list('album') l, pragma_index_info(l.name) i \
             ORDER BY l.name, i.seqno",
            "SELECT l.name, x.* FROM pragma_index_list('w') l, pragma_index_xinfo(l.name) x \
             ORDER BY l.name, x.seqno",
            "SELECT m.name, f.* FROM sqlite_master m, pragma_foreign_key_list(m.name) f \
             ORDER BY m.name, f.id, f.seq",
            "SELECT m.name, (SELECT count(*) FROM pragma_table_info(m.name)) FROM sqlite_master m \
             ORDER BY m.name",
            "SELECT m.name, p.name FROM sqlite_master m LEFT JOIN pragma_foreign_key_list(m.name) p \
             ON 1 ORDER BY 1, 2",
        ],
        false,
    );
}

/// `PRAGMA function_list`: for functions both engines have, the same
/// (name, type, narg) rows as SQLite.
#[test]
fn function_list_names_types_and_arities() {
    check_script(
        &[
            "SELECT name, builtin, type, enc, narg FROM pragma_function_list \
             WHERE name IN ('abs', 'substr', 'char', 'coalesce', 'count', 'sum', 'min', 'max', \
             'row_number', 'lag', 'date', 'json_extract', 'round', 'printf', 'iif', \
             'group_concat', 'trim', 'like', 'instr', 'ntile', 'upper', 'typeof', 'avg', \
             'total', 'rank', 'nth_value', 'hex', 'ifnull', 'replace', 'length') \
             ORDER BY 1, 3, 5",
            "SELECT count(*) > 100 FROM pragma_function_list",
        ],
        Opts::default(),
    );
}

/// `PRAGMA function_list`: every row AsaDB lists is a row SQLite lists —
/// same name, type and `narg` — with the same `flags` (SQLite shows
/// `SQLITE_DETERMINISTIC`, `SQLITE_DIRECTONLY`, `SQLITE_SUBTYPE` and the
/// `SQLITE_INNOCUOUS` bit of its built-ins).
#[test]
fn function_list_flags_are_sqlites() {
    let q = "SELECT name, type, narg, flags FROM pragma_function_list";
    let conn = rusqlite::Connection::open_in_memory().unwrap();
    let mut stmt = conn.prepare(q).unwrap();
    let theirs: std::collections::HashMap<(String, String, i64), i64> = stmt
        .query_map([], |r| Ok(((r.get(0)?, r.get(1)?, r.get(2)?), r.get(3)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let engine = Engine::memory();
    let rows = match engine.session().execute(q, &Params::None).unwrap() {
        Outcome::Rows { rows, .. } => rows,
        other => panic!("{other:?}"),
    };
    assert!(rows.len() > 100, "{} rows", rows.len());
    let mut wrong = Vec::new();
    for row in &rows {
        let [Value::Text(name), Value::Text(ty), Value::Integer(narg), Value::Integer(flags)] =
            row.as_slice()
        else {
            panic!("{row:?}")
        };
        match theirs.get(&(name.to_str_lossy().into_owned(), ty.to_str_lossy().into_owned(), *narg))
        {
            Some(f) if f == flags => {}
            Some(f) => wrong.push(format!("{name}/{narg} ({ty}): {flags:#x}, SQLite {f:#x}")),
            None => wrong.push(format!("{name}/{narg} ({ty}): SQLite has no such row")),
        }
    }
    assert!(wrong.is_empty(), "{} rows differ:\n{}", wrong.len(), wrong.join("\n"));
}

#[test]
fn data_version_and_wal_autocheckpoint_in_one_connection() {
    check(
        &[
            "PRAGMA data_version",
            "PRAGMA data_version = 7",
            "INSERT INTO s VALUES (1, 'a', 2)",
            "PRAGMA data_version",
            "SELECT * FROM pragma_data_version",
            "PRAGMA wal_autocheckpoint",
            "PRAGMA wal_autocheckpoint = 5",
            "PRAGMA wal_autocheckpoint",
            "PRAGMA wal_autocheckpoint = -3",
            "PRAGMA wal_autocheckpoint",
            "PRAGMA wal_autocheckpoint = 'abc'",
            "PRAGMA wal_autocheckpoint = 1000",
            "PRAGMA wal_autocheckpoint",
        ],
        false,
    );
}

/// `data_version` changes when another connection commits a change, not
/// for this connection's own commits, reads or empty transactions — as
/// SQLite's does for two connections to one file.
#[test]
fn data_version_counts_other_connections_commits() {
    let dir = tempfile::tempdir().unwrap();
    let lite = dir.path().join("lite.db");
    let a_lite = rusqlite::Connection::open(&lite).unwrap();
    a_lite.execute_batch("PRAGMA journal_mode = WAL; CREATE TABLE t(x)").unwrap();
    let b_lite = rusqlite::Connection::open(&lite).unwrap();
    let e = Engine::open(&dir.path().join("ours.db"), Default::default()).unwrap();
    let mut a = e.session();
    a.execute("CREATE TABLE t(x)", &Params::None).unwrap();
    let mut b = e.session();
    let steps: &[(bool, &str)] = &[
        (true, "INSERT INTO t VALUES (1)"),
        (false, "INSERT INTO t VALUES (2)"),
        (false, "BEGIN; SELECT * FROM t; COMMIT"),
        (false, "BEGIN; COMMIT"),
        (false, "BEGIN; INSERT INTO t VALUES (3); ROLLBACK"),
        (false, "BEGIN; INSERT INTO t VALUES (3); COMMIT"),
        (true, "BEGIN; DELETE FROM t WHERE x = 3; COMMIT"),
        (true, "UPDATE t SET x = x WHERE 0"),
    ];
    let version = |s: &mut asadb_sql::session::Session| match rows(s, "PRAGMA data_version")[..] {
        [ref r] => match r[..] {
            [Value::Integer(v)] => v,
            _ => panic!("{r:?}"),
        },
        ref other => panic!("{other:?}"),
    };
    let lite_version = |c: &rusqlite::Connection| {
        c.query_row("PRAGMA data_version", [], |r| r.get::<_, i64>(0)).unwrap()
    };
    let mut ours = (version(&mut a), version(&mut b));
    let mut lite = (lite_version(&a_lite), lite_version(&b_lite));
    assert_eq!(ours, (1, 1));
    for (by_a, sql) in steps {
        let (lite_writer, ours_writer) = if *by_a { (&a_lite, &mut a) } else { (&b_lite, &mut b) };
        lite_writer.execute_batch(sql).unwrap();
        for stmt in sql.split("; ") {
            ours_writer.execute(stmt, &Params::None).unwrap();
        }
        let now = (version(&mut a), version(&mut b));
        let lite_now = (lite_version(&a_lite), lite_version(&b_lite));
        // SQLite's numbers are its own; what is compared is which
        // connection's value moved.
        let moved = (now.0 != ours.0, now.1 != ours.1);
        let lite_moved = (lite_now.0 != lite.0, lite_now.1 != lite.1);
        assert_eq!(
            moved, lite_moved,
            "{sql}: ours {ours:?} -> {now:?}, sqlite {lite:?} -> {lite_now:?}"
        );
        (ours, lite) = (now, lite_now);
    }
}

/// `wal_autocheckpoint` is the page database's threshold: 0 stops
/// automatic checkpoints, a small N makes commits checkpoint, and every
/// session of the database sees the value.
#[test]
fn wal_autocheckpoint_sets_the_databases_threshold() {
    let db = asadb_txn::Db::memory(Default::default()).unwrap();
    let e = Engine::with_db(db.clone());
    let mut a = e.session();
    let mut b = e.session();
    a.execute("CREATE TABLE t(x)", &Params::None).unwrap();
    assert_eq!(rows(&mut a, "PRAGMA wal_autocheckpoint = 0"), vec![vec![Value::Integer(0)]]);
    assert_eq!(rows(&mut b, "PRAGMA wal_autocheckpoint"), vec![vec![Value::Integer(0)]]);
    let before = db.stats().checkpoints;
    for i in 0..20 {
        a.execute(&format!("INSERT INTO t VALUES ({i})"), &Params::None).unwrap();
    }
    assert_eq!(db.stats().checkpoints, before, "no automatic checkpoint at 0");
    assert_eq!(rows(&mut b, "PRAGMA wal_autocheckpoint = 1"), vec![vec![Value::Integer(1)]]);
    a.execute("INSERT INTO t VALUES (99)", &Params::None).unwrap();
    assert!(db.stats().checkpoints > before, "a commit past 1 frame checkpoints");
}

/// `mmap_size` answers as SQLite does on a file database: 0 by default,
/// the value set (capped at SQLITE_MAX_MMAP_SIZE), a negative value
/// restoring the default. `module_list` names the JSON table-valued
/// functions, and `pragma_module_list` is its table-valued form.
#[test]
fn mmap_size_on_a_file_and_module_list() {
    let dir = tempfile::tempdir().unwrap();
    let lite = rusqlite::Connection::open(dir.path().join("lite.db")).unwrap();
    let e = Engine::open(&dir.path().join("ours.db"), Default::default()).unwrap();
    let mut s = e.session();
    for sql in [
        "PRAGMA mmap_size",
        "PRAGMA mmap_size = 1000000",
        "PRAGMA mmap_size",
        "PRAGMA mmap_size(4096)",
        "PRAGMA mmap_size = 0x10",
        "PRAGMA mmap_size = 99999999999",
        "PRAGMA mmap_size = -5",
        "PRAGMA main.mmap_size",
    ] {
        assert_eq!(run_ours(&mut s, sql), run_sqlite(&lite, sql), "{sql}");
    }
    let want: Vec<String> =
        ["json_each", "json_tree", "jsonb_each", "jsonb_tree"].map(|m| format!("'{m}'")).into();
    for sql in ["PRAGMA module_list", "SELECT name FROM pragma_module_list"] {
        let Got::Rows(mut ours) = run_ours(&mut s, sql) else { panic!("{sql}") };
        ours.sort();
        assert_eq!(ours, want, "{sql}");
    }
    // SQLite registers a JSON module when a statement first uses it.
    for sql in [
        "SELECT count(*) FROM json_each('[1]'), json_tree('1')",
        "SELECT count(*) FROM jsonb_each('[1]'), jsonb_tree('1')",
    ] {
        assert!(matches!(run_sqlite(&lite, sql), Got::Rows(_)), "{sql}");
    }
    let Got::Rows(theirs) = run_sqlite(&lite, "PRAGMA module_list") else { panic!() };
    for m in &want {
        assert!(theirs.contains(m), "SQLite lists no {m}: {theirs:?}");
    }
}
