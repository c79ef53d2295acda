//! `PRAGMA`, as SQLite answers it: the statement (`PRAGMA name`,
//! `PRAGMA name = value`, `PRAGMA name(arg)`, optionally `schema.name`)
//! and the table-valued functions `pragma_<name>(args)` in FROM.
//!
//! Three families:
//! - **schema reports** (`table_info`, `table_xinfo`, `table_list`,
//!   `index_list`, `index_info`, `index_xinfo`, `foreign_key_list`,
//!   `collation_list`, `database_list`, `compile_options`, `encoding`,
//!   `page_size`, `page_count`, `freelist_count`, `schema_version`):
//!   rows computed from the catalog, with SQLite's column names;
//! - **database settings kept in the file** (`user_version`,
//!   `application_id`): read, or written transactionally
//!   ([`HeaderValue`]);
//! - **connection settings** ([`Settings`], one per session: `foreign_keys`,
//!   `defer_foreign_keys`, `recursive_triggers`, `busy_timeout`,
//!   `cache_size`, `temp_store`, `synchronous`, `journal_mode`,
//!   `case_sensitive_like`, `legacy_alter_table`; `data_version`, which
//!   the session computes: 1 plus the commits of other connections since
//!   this one opened);
//! - **fixed values** ([`fixed`]: `auto_vacuum`, `automatic_index`,
//!   `locking_mode`, `secure_delete`, `query_only`, …): what AsaDB does,
//!   with SQLite's default answer; setting another value is refused.
//!
//! Decisions, where AsaDB differs from SQLite's engine:
//! - `journal_mode` is always `wal`: setting `WAL`, `DELETE`, `TRUNCATE`
//!   or `PERSIST` answers `wal` (SQLite answers the mode it ends in);
//!   `OFF` and `MEMORY` would give up durability and are refused.
//! - `synchronous` is FULL (2) or EXTRA (3); `OFF` and `NORMAL` would give
//!   up durability of committed transactions and are refused.
//! - `foreign_keys = ON` enforces foreign keys ([`super::fkey`]); inside a
//!   transaction setting it changes nothing, as in SQLite.
//!   `case_sensitive_like = ON`, `writable_schema = ON` and
//!   `ignore_check_constraints = ON` are refused likewise.
//! - `wal_autocheckpoint` is the database's threshold (the page
//!   database's automatic checkpoint, shared by all its connections), not
//!   one connection's as in SQLite.
//! - `schema_version = N` is refused (SQLite's own docs call writing it a
//!   way to corrupt the database).
//! - A pragma AsaDB does not know answers nothing and changes nothing, as
//!   SQLite does for a pragma it does not know.
//! - `foreign_key_check` runs one query per foreign key
//!   ([`foreign_key_check_answer`]), as a statement and as
//!   `pragma_foreign_key_check()`.
//! - `pragma_list` lists the pragmas AsaDB answers (SQLite lists its own,
//!   a longer list).
//! - `mmap_size` is kept and answered (0 by default) on every store;
//!   AsaDB's pager reads through its buffer pool whatever it says.
//! - `module_list` names AsaDB's table-valued JSON functions (SQLite also
//!   lists FTS, R*Tree and dbstat, which AsaDB does not have).
//! - `database_list` names no file (`''`), also for a database on disk.
//! - `integrity_check` / `quick_check` run [`crate::integrity`] on the
//!   committed database (`ok`, else one row per problem); the in-memory
//!   store has no pages and answers `ok`.

use std::cell::RefCell;

use sqlparser::ast;

use crate::catalog::{self, EXPR_COLUMN, IndexDef, Schema, TableDef};
use crate::storage::{HeaderValue, RowStore};
use crate::value::Value;
use crate::{Error, Result};

/// A connection's settings (`PRAGMA` reads and writes them).
#[derive(Clone, Debug)]
pub struct Settings {
    pub foreign_keys: bool,
    pub defer_foreign_keys: bool,
    pub recursive_triggers: bool,
    /// Milliseconds (`PRAGMA busy_timeout`).
    pub busy_timeout: i64,
    pub cache_size: i64,
    pub temp_store: i64,
    /// 2 (FULL) or 3 (EXTRA).
    pub synchronous: i64,
    /// `PRAGMA legacy_alter_table`: RENAME TO leaves the bodies of views
    /// and triggers alone, as SQLite 3.24 did.
    pub legacy_alter_table: bool,
    /// `PRAGMA data_version`: 1 plus the commits other connections made
    /// since this one opened — set by the session before each statement,
    /// read-only to SQL.
    pub data_version: i64,
    /// `PRAGMA wal_autocheckpoint` of a store without a log (the in-memory
    /// one); a page database keeps its own threshold.
    pub wal_autocheckpoint: i64,
    /// `PRAGMA mmap_size`: kept and answered as SQLite does on a file
    /// database; AsaDB's pager reads through its buffer pool whatever it
    /// says (a hint, as it is to SQLite on a VFS without memory mapping).
    pub mmap_size: i64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            foreign_keys: false,
            defer_foreign_keys: false,
            recursive_triggers: false,
            busy_timeout: 0,
            cache_size: -2000,
            temp_store: 0,
            synchronous: 2,
            legacy_alter_table: false,
            data_version: 1,
            wal_autocheckpoint: 1000,
            mmap_size: 0,
        }
    }
}

/// SQLite's SQLITE_MAX_MMAP_SIZE on Linux: the most `mmap_size` takes.
const MAX_MMAP_SIZE: i64 = 0x7fff_0000;

/// The virtual-table modules AsaDB has (`PRAGMA module_list`): its
/// table-valued JSON functions. SQLite lists also FTS, R*Tree and dbstat,
/// which AsaDB does not have, and a module only once a statement used it.
const MODULES: &[&str] = &["json_each", "json_tree", "jsonb_each", "jsonb_tree"];

/// Every pragma AsaDB answers, in name order (`PRAGMA pragma_list`).
const PRAGMAS: &[&str] = &[
    "analysis_limit",
    "application_id",
    "auto_vacuum",
    "automatic_index",
    "busy_timeout",
    "cache_size",
    "case_sensitive_like",
    "cell_size_check",
    "collation_list",
    "compile_options",
    "count_changes",
    "data_version",
    "database_list",
    "defer_foreign_keys",
    "empty_result_callbacks",
    "encoding",
    "foreign_key_check",
    "foreign_key_list",
    "foreign_keys",
    "freelist_count",
    "full_column_names",
    "function_list",
    "hard_heap_limit",
    "ignore_check_constraints",
    "index_info",
    "index_list",
    "index_xinfo",
    "integrity_check",
    "journal_mode",
    "journal_size_limit",
    "legacy_alter_table",
    "locking_mode",
    "max_page_count",
    "mmap_size",
    "module_list",
    "optimize",
    "page_count",
    "page_size",
    "pragma_list",
    "query_only",
    "quick_check",
    "recursive_triggers",
    "reverse_unordered_selects",
    "schema_version",
    "secure_delete",
    "short_column_names",
    "soft_heap_limit",
    "synchronous",
    "table_info",
    "table_list",
    "table_xinfo",
    "temp_store",
    "threads",
    "trusted_schema",
    "user_version",
    "wal_autocheckpoint",
    "wal_checkpoint",
    "writable_schema",
];

thread_local! {
    /// The connection whose statement is being planned: its settings (the
    /// table-valued `pragma_foreign_keys()` reads them) and its page
    /// database, if it has one (`pragma_integrity_check()` checks it).
    static CURRENT: RefCell<Option<(Settings, Option<asadb_txn::Db>)>> =
        const { RefCell::new(None) };
}

/// Makes `s` and `db` what table-valued pragmas read until the guard
/// drops.
pub fn with_connection(s: &Settings, db: Option<&asadb_txn::Db>) -> impl Drop + use<> {
    type Current = (Settings, Option<asadb_txn::Db>);
    struct Guard(Option<Current>);
    impl Drop for Guard {
        fn drop(&mut self) {
            let old = self.0.take();
            CURRENT.with(|c| *c.borrow_mut() = old);
        }
    }
    Guard(CURRENT.with(|c| c.borrow_mut().replace((s.clone(), db.cloned()))))
}

/// The settings of the connection whose statement runs on this thread
/// (the defaults outside one).
pub(crate) fn current_settings() -> Settings {
    CURRENT.with(|c| c.borrow().as_ref().map(|c| c.0.clone())).unwrap_or_default()
}

fn current_db() -> Option<asadb_txn::Db> {
    CURRENT.with(|c| c.borrow().as_ref().and_then(|c| c.1.clone()))
}

/// A pragma's answer: SQLite's column names and rows (no rows and no
/// columns: the pragma answers nothing).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Answer {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Value>>,
}

impl Answer {
    fn new(columns: &[&str], rows: Vec<Vec<Value>>) -> Answer {
        Answer { columns: columns.iter().map(|c| c.to_string()).collect(), rows }
    }

    fn one(column: &str, v: Value) -> Answer {
        Answer::new(&[column], vec![vec![v]])
    }

    pub fn nothing() -> Answer {
        Answer::default()
    }
}

/// A pragma statement, read from the AST.
#[derive(Clone, Debug)]
pub struct Pragma {
    /// Lower case, without the schema.
    pub name: String,
    /// The schema it names (`main`, `temp`), if any.
    pub schema: Option<String>,
    /// `= v` or `(v)`: a name/keyword/string as text, a number as number.
    pub value: Option<Value>,
    /// `= v` (a setting) rather than `(v)` (an argument).
    pub is_eq: bool,
}

impl Pragma {
    pub fn from_ast(
        name: &ast::ObjectName,
        value: Option<&ast::Value>,
        is_eq: bool,
    ) -> Result<Pragma> {
        let parts: Vec<String> = name
            .0
            .iter()
            .map(|p| match p {
                ast::ObjectNamePart::Identifier(i) => Ok(i.value.clone()),
                _ => Err(Error::InvalidInput(format!("unsupported pragma name: {name}"))),
            })
            .collect::<Result<_>>()?;
        let (schema, name) = match parts.as_slice() {
            [n] => (None, n.clone()),
            [s, n] => (Some(s.clone()), n.clone()),
            _ => return Err(Error::Parse(format!("near \"{name}\": syntax error"))),
        };
        let value = match value {
            None => None,
            Some(ast::Value::Number(n, _)) => Some(crate::planner::bind::number_literal(n)?),
            Some(ast::Value::SingleQuotedString(s) | ast::Value::DoubleQuotedString(s)) => {
                Some(Value::Text(s.clone().into()))
            }
            Some(ast::Value::Boolean(b)) => Some(Value::Text(b.to_string().into())),
            Some(other) => {
                return Err(Error::InvalidInput(format!("unsupported pragma value: {other}")));
            }
        };
        Ok(Pragma { name: name.to_ascii_lowercase(), schema, value, is_eq })
    }

    /// True if running it writes the database.
    pub fn writes(&self) -> bool {
        self.is_eq && matches!(self.name.as_str(), "user_version" | "application_id")
    }

    /// True for `integrity_check` / `quick_check` (the session runs them on
    /// the engine, not in a transaction).
    pub fn is_integrity_check(&self) -> bool {
        matches!(self.name.as_str(), "integrity_check" | "quick_check")
    }

    /// `PRAGMA wal_checkpoint`.
    pub fn is_checkpoint(&self) -> bool {
        self.name == "wal_checkpoint"
    }
}

/// Where the pragma's schema qualifier points.
enum Db {
    Main,
    Temp,
}

fn which_db(schema: Option<&str>) -> Result<Db> {
    match schema {
        None => Ok(Db::Main),
        Some(s) if s.eq_ignore_ascii_case("main") => Ok(Db::Main),
        Some(s) if s.eq_ignore_ascii_case("temp") => Ok(Db::Temp),
        Some(s) => Err(Error::NotFound(format!("unknown database {s}"))),
    }
}

/// The pragmas whose value AsaDB has fixed: what reading one answers
/// (SQLite's default, which is what AsaDB does) and why setting another
/// value is refused.
fn fixed(name: &str) -> Option<(Value, &'static str)> {
    const HINT: &str = "AsaDB has no such switch";
    Some(match name {
        "auto_vacuum" => (int(0), "AsaDB reclaims free pages with VACUUM only"),
        "automatic_index" => (int(1), "AsaDB's planner picks its own join method"),
        "locking_mode" => (text("normal"), "AsaDB takes its locks per transaction"),
        "secure_delete" => (int(0), "AsaDB does not overwrite freed pages"),
        "query_only" => (int(0), HINT),
        "trusted_schema" => (int(1), HINT),
        "cell_size_check" => (int(0), HINT),
        "reverse_unordered_selects" => (int(0), HINT),
        "count_changes" | "empty_result_callbacks" | "full_column_names" => (int(0), HINT),
        "short_column_names" => (int(1), HINT),
        "max_page_count" => (Value::Integer(4_294_967_294), HINT),
        "journal_size_limit" => (int(-1), "AsaDB's log is reset by its checkpoints"),
        "soft_heap_limit" | "hard_heap_limit" => {
            (int(0), "AsaDB's memory budget is set when it opens")
        }
        "threads" | "analysis_limit" => (int(0), HINT),
        _ => return None,
    })
}

/// Whether setting value `v` leaves a fixed pragma at `current`.
fn same_setting(v: &Value, current: &Value) -> bool {
    match current {
        Value::Text(c) => v.text().is_some_and(|t| c.eq_ignore_ascii_case(&*t)),
        // auto_vacuum's names for its modes.
        Value::Integer(c) => match v.text().map(|t| t.to_ascii_lowercase()).as_deref() {
            Some("none") => *c == 0,
            Some("full") => *c == 1,
            Some("incremental") => *c == 2,
            _ => int_value(v) == *c,
        },
        _ => false,
    }
}

fn show(v: &Value) -> String {
    v.text().unwrap_or_default().into_owned()
}

/// A pragma value as an integer, as SQLite reads it (`ON`/`TRUE`/`YES` 1,
/// `OFF`/`FALSE`/`NO`/`NONE` 0, numbers as themselves, else 0).
fn int_value(v: &Value) -> i64 {
    match v {
        Value::Integer(i) => *i,
        Value::Real(f) => *f as i64,
        Value::Text(s) => {
            let l = s.to_ascii_lowercase();
            match &l[..] {
                b"on" | b"true" | b"yes" => 1,
                b"off" | b"false" | b"no" | b"none" => 0,
                _ => v.to_i64(),
            }
        }
        _ => 0,
    }
}

/// SQLite's boolean pragma values; anything else is 0, as SQLite does.
fn bool_value(v: &Value) -> bool {
    int_value(v) != 0
}

fn text(s: &str) -> Value {
    Value::Text(s.to_string().into())
}

fn int(i: impl Into<i64>) -> Value {
    Value::Integer(i.into())
}

fn refused(what: &str) -> Error {
    Error::Unsupported(what.to_string())
}

/// Runs `p` against `store` with the session's `settings`. Integrity checks
/// and checkpoints are the session's (see [`Pragma::is_integrity_check`]).
pub fn run(
    p: &Pragma,
    settings: &mut Settings,
    store: &dyn RowStore,
    schema: &Schema,
) -> Result<Answer> {
    let db = which_db(p.schema.as_deref())?;
    let v = p.value.as_ref();
    let set = p.is_eq.then_some(()).and(v);
    let flag = |on: bool| int(i64::from(on));
    match p.name.as_str() {
        "foreign_keys" => match set {
            Some(v) => {
                settings.foreign_keys = bool_value(v);
                Ok(Answer::nothing())
            }
            None => Ok(Answer::one("foreign_keys", flag(settings.foreign_keys))),
        },
        "defer_foreign_keys" => match set {
            Some(v) => {
                settings.defer_foreign_keys = bool_value(v);
                Ok(Answer::nothing())
            }
            None => Ok(Answer::one("defer_foreign_keys", flag(settings.defer_foreign_keys))),
        },
        "legacy_alter_table" => match set {
            Some(v) => {
                settings.legacy_alter_table = bool_value(v);
                Ok(Answer::nothing())
            }
            None => Ok(Answer::one("legacy_alter_table", flag(settings.legacy_alter_table))),
        },
        "recursive_triggers" => match set {
            Some(v) => {
                settings.recursive_triggers = bool_value(v);
                Ok(Answer::nothing())
            }
            None => Ok(Answer::one("recursive_triggers", flag(settings.recursive_triggers))),
        },
        "case_sensitive_like" => match set {
            Some(v) if bool_value(v) => Err(refused(
                "PRAGMA case_sensitive_like = ON: AsaDB's LIKE is always case-insensitive for ASCII",
            )),
            // SQLite's pragma is write-only: reading it answers nothing.
            _ => Ok(Answer::nothing()),
        },
        name if let Some((value, why)) = fixed(name) => {
            match set {
                Some(v) if !same_setting(v, &value) => {
                    Err(refused(&format!("PRAGMA {name} = {}: {why}", show(v))))
                }
                // These answer their value when set, as SQLite's do.
                Some(_)
                    if matches!(
                        name,
                        "locking_mode"
                            | "secure_delete"
                            | "threads"
                            | "soft_heap_limit"
                            | "hard_heap_limit"
                            | "journal_size_limit"
                            | "max_page_count"
                            | "analysis_limit"
                    ) =>
                {
                    Ok(Answer::one(name, value))
                }
                Some(_) => Ok(Answer::nothing()),
                None => Ok(Answer::one(name, value)),
            }
        }
        "writable_schema" | "ignore_check_constraints" => match set {
            Some(v) if bool_value(v) => {
                Err(refused(&format!("PRAGMA {} = ON is not supported by AsaDB", p.name)))
            }
            Some(_) => Ok(Answer::nothing()),
            None => Ok(Answer::one(&p.name, int(0))),
        },
        // Read-only: a value is ignored, as SQLite does.
        "data_version" => Ok(Answer::one("data_version", int(settings.data_version))),
        // SQLite's threshold is per connection; AsaDB's log belongs to the
        // database, so the threshold is the database's, shared by every
        // connection (N <= 0 turns automatic checkpoints off and answers 0).
        "wal_autocheckpoint" => {
            let db = current_db();
            if let Some(v) = set {
                let n = int_value(v).clamp(0, i64::from(u32::MAX));
                match &db {
                    Some(db) => db.set_auto_checkpoint(n as u32),
                    None => settings.wal_autocheckpoint = n,
                }
            }
            let n = db.map_or(settings.wal_autocheckpoint, |db| i64::from(db.auto_checkpoint()));
            Ok(Answer::one("wal_autocheckpoint", int(n)))
        }
        // A negative value restores the default (0); SQLite caps the limit
        // at SQLITE_MAX_MMAP_SIZE.
        "mmap_size" => {
            if let Some(v) = v {
                let n = int_value(v);
                settings.mmap_size = if n < 0 { 0 } else { n.min(MAX_MMAP_SIZE) };
            }
            Ok(Answer::one("mmap_size", int(settings.mmap_size)))
        }
        "busy_timeout" => {
            if let Some(v) = v {
                settings.busy_timeout = int_value(v).max(0);
            }
            Ok(Answer::one("timeout", int(settings.busy_timeout)))
        }
        "cache_size" => match set {
            Some(v) => {
                settings.cache_size = int_value(v);
                Ok(Answer::nothing())
            }
            None => Ok(Answer::one("cache_size", int(settings.cache_size))),
        },
        "temp_store" => match set {
            Some(v) => {
                settings.temp_store = match v {
                    Value::Text(s) if s.eq_ignore_ascii_case("default") => 0,
                    Value::Text(s) if s.eq_ignore_ascii_case("file") => 1,
                    Value::Text(s) if s.eq_ignore_ascii_case("memory") => 2,
                    other => int_value(other).clamp(0, 2),
                };
                Ok(Answer::nothing())
            }
            None => Ok(Answer::one("temp_store", int(settings.temp_store))),
        },
        "synchronous" => match set {
            Some(v) => {
                let level = match v {
                    Value::Text(s) if s.eq_ignore_ascii_case("off") => 0,
                    Value::Text(s) if s.eq_ignore_ascii_case("normal") => 1,
                    Value::Text(s) if s.eq_ignore_ascii_case("full") => 2,
                    Value::Text(s) if s.eq_ignore_ascii_case("extra") => 3,
                    other => int_value(other),
                };
                match level {
                    2 | 3 => {
                        settings.synchronous = level;
                        Ok(Answer::nothing())
                    }
                    0 | 1 => Err(refused(
                        "PRAGMA synchronous below FULL is refused: AsaDB syncs every commit, \
                         and giving that up would lose committed transactions",
                    )),
                    // SQLite: out-of-range values select FULL.
                    _ => {
                        settings.synchronous = 2;
                        Ok(Answer::nothing())
                    }
                }
            }
            None => Ok(Answer::one("synchronous", int(settings.synchronous))),
        },
        "journal_mode" => {
            if let Some(Value::Text(m)) = v
                && (m.eq_ignore_ascii_case("off") || m.eq_ignore_ascii_case("memory"))
            {
                return Err(refused(&format!(
                    "PRAGMA journal_mode = {m} is refused: AsaDB always keeps a write-ahead log"
                )));
            }
            Ok(Answer::one("journal_mode", text("wal")))
        }
        "user_version" | "application_id" => {
            let key = if p.name == "user_version" {
                HeaderValue::UserVersion
            } else {
                HeaderValue::ApplicationId
            };
            if let Db::Temp = db {
                return Ok(match set {
                    Some(_) => Answer::nothing(),
                    None => Answer::one(&p.name, int(0)),
                });
            }
            match set {
                Some(v) => {
                    // SQLite reads a 32-bit integer; one out of range is 0.
                    let n = i32::try_from(int_value(v)).unwrap_or(0);
                    store.set_header_value(key, n as u32)?;
                    Ok(Answer::nothing())
                }
                None => Ok(Answer::one(&p.name, int(store.header_value(key)? as i32))),
            }
        }
        "schema_version" => match set {
            Some(_) => Err(refused(
                "PRAGMA schema_version = N is refused: writing the schema cookie corrupts caches",
            )),
            None => Ok(Answer::one(
                "schema_version",
                int(match db {
                    Db::Main => store.schema_cookie()? as u32 as i32,
                    Db::Temp => 0,
                }),
            )),
        },
        "encoding" => Ok(match set {
            // The encoding of an existing database cannot change; SQLite
            // ignores the request.
            Some(_) => Answer::nothing(),
            None => Answer::one("encoding", text("UTF-8")),
        }),
        "page_size" => Ok(match set {
            // Fixed by the file format; SQLite ignores the request in WAL
            // mode too.
            Some(_) => Answer::nothing(),
            None => Answer::one("page_size", int(asadb_pager::PAGE_SIZE as i64)),
        }),
        "page_count" => Ok(Answer::one("page_count", int(store.page_counts()?.0))),
        "freelist_count" => Ok(Answer::one("freelist_count", int(store.page_counts()?.1))),
        // Nothing to optimize (the planner reads no statistics it would
        // refresh); SQLite's answer has its one column and no row.
        // With mask bits 0x01 and 0x02 (`-1`, `0x10003`) SQLite lists the
        // ANALYZE statements its heuristics would run: refused rather than
        // answered with a list of ours.
        "optimize" => match v.map(int_value) {
            Some(mask) if mask & 3 == 3 => Err(Error::Unsupported(
                "PRAGMA optimize with the 0x01 (report) mask: AsaDB's optimize runs nothing".into(),
            )),
            _ => Ok(Answer::new(&["optimize"], Vec::new())),
        },
        "pragma_list" => {
            Ok(Answer::new(&["name"], PRAGMAS.iter().map(|n| vec![text(n)]).collect()))
        }
        _ => report(p, &db, store, schema, settings),
    }
}

/// The pragmas that only read the catalog (also the table-valued ones).
fn report(
    p: &Pragma,
    db: &Db,
    store: &dyn RowStore,
    schema: &Schema,
    settings: &Settings,
) -> Result<Answer> {
    let arg = p.value.as_ref().map(|v| v.text().unwrap_or_default().into_owned());
    let temp = matches!(db, Db::Temp);
    let main_only = p.schema.is_some() && !temp;
    let empty_schema = Schema::default();
    let schema = if temp { &empty_schema } else { schema };
    match p.name.as_str() {
        "table_info" | "table_xinfo" => {
            let x = p.name == "table_xinfo";
            let cols = &["cid", "name", "type", "notnull", "dflt_value", "pk"];
            let cols_x = &["cid", "name", "type", "notnull", "dflt_value", "pk", "hidden"];
            let rows = match arg {
                Some(a) => table_info(store, schema, &a, x)?,
                None => Vec::new(),
            };
            Ok(Answer::new(if x { cols_x } else { cols }, rows))
        }
        "table_list" => Ok(Answer::new(
            &["schema", "name", "type", "ncol", "wr", "strict"],
            table_list(store, schema, arg.as_deref(), temp, main_only)?,
        )),
        "index_list" => {
            let rows = match arg.as_deref().and_then(|a| schema.table(a)) {
                Some(t) => index_list(schema, t),
                None => Vec::new(),
            };
            Ok(Answer::new(&["seq", "name", "unique", "origin", "partial"], rows))
        }
        "index_info" | "index_xinfo" => {
            let x = p.name == "index_xinfo";
            let rows = match arg.as_deref() {
                Some(a) => index_info(schema, a, x),
                None => Vec::new(),
            };
            let cols: &[&str] = if x {
                &["seqno", "cid", "name", "desc", "coll", "key"]
            } else {
                &["seqno", "cid", "name"]
            };
            Ok(Answer::new(cols, rows))
        }
        "foreign_key_list" => {
            let rows = match arg.as_deref().and_then(|a| schema.table(a)) {
                Some(t) => foreign_key_list(t),
                None => Vec::new(),
            };
            Ok(Answer::new(
                &["id", "seq", "table", "from", "to", "on_update", "on_delete", "match"],
                rows,
            ))
        }
        "function_list" => Ok(Answer::new(
            &["name", "builtin", "type", "enc", "narg", "flags"],
            crate::func::list::function_list(),
        )),
        "module_list" => {
            Ok(Answer::new(&["name"], MODULES.iter().map(|m| vec![text(m)]).collect()))
        }
        "collation_list" => Ok(Answer::new(
            &["seq", "name"],
            ["RTRIM", "NOCASE", "BINARY"]
                .iter()
                .enumerate()
                .map(|(i, n)| vec![int(i as i64), text(n)])
                .collect(),
        )),
        "database_list" => Ok(Answer::new(
            &["seq", "name", "file"],
            vec![vec![int(0), text("main"), text("")], vec![int(1), text("temp"), text("")]],
        )),
        "compile_options" => Ok(Answer::new(
            &["compile_options"],
            ["DEFAULT_FOREIGN_KEYS=0", "DEFAULT_PAGE_SIZE=4096", "DEFAULT_SYNCHRONOUS=2"]
                .iter()
                .map(|o| vec![text(o)])
                .collect(),
        )),
        "foreign_keys" => Ok(Answer::one("foreign_keys", int(i64::from(settings.foreign_keys)))),
        // A pragma SQLite may know and AsaDB does not: nothing, as SQLite
        // answers a pragma it does not know.
        _ => Ok(Answer::nothing()),
    }
}

fn table_info(
    store: &dyn RowStore,
    schema: &Schema,
    name: &str,
    x: bool,
) -> Result<Vec<Vec<Value>>> {
    if let Some(t) = schema.table(name).cloned().or_else(|| special_table(name)) {
        let mut rows = Vec::new();
        let mut cid = 0i64;
        for (i, c) in t.columns.iter().enumerate() {
            let hidden = match &c.generated {
                None => 0,
                Some(g) if g.stored => 3,
                Some(_) => 2,
            };
            if hidden != 0 && !x {
                continue;
            }
            let pk = t.primary_key.iter().position(|&k| k == i).map_or(0, |p| p as i64 + 1);
            let mut row = vec![
                int(cid),
                text(&c.name),
                text(c.decl_type.as_deref().unwrap_or("")),
                int(i64::from(c.not_null)),
                c.default_text.as_deref().map_or(Value::Null, text),
                int(pk),
            ];
            if x {
                row.push(int(hidden));
            }
            rows.push(row);
            cid += 1;
        }
        return Ok(rows);
    }
    if let Some(v) = schema.view(name).cloned() {
        let mut b = crate::planner::bind::Binder::new(schema, store);
        let plan = crate::planner::plan_query(&mut b, &v.query)?;
        let names = if v.columns.is_empty() { plan.columns.clone() } else { v.columns.clone() };
        let types = view_column_types(schema, &v.query)
            .filter(|t| t.len() == names.len())
            .unwrap_or_else(|| vec![String::new(); names.len()]);
        return Ok(names
            .iter()
            .zip(types)
            .enumerate()
            .map(|(i, (n, ty))| {
                let mut row = vec![int(i as i64), text(n), text(&ty), int(0), Value::Null, int(0)];
                if x {
                    row.push(int(0));
                }
                row
            })
            .collect());
    }
    Ok(Vec::new())
}

/// The declared type of each column of a view, as SQLite reports it: a
/// column that is a plain column of a table in the view's FROM has that
/// column's declared type, any other expression none. `None` when the
/// view's shape is not one this reads (then every type is empty).
fn view_column_types(schema: &Schema, q: &ast::Query) -> Option<Vec<String>> {
    let ast::SetExpr::Select(sel) = q.body.as_ref() else { return None };
    // The named tables of the FROM clause, with the name each is known by.
    let mut tables: Vec<(String, std::sync::Arc<TableDef>)> = Vec::new();
    for twj in &sel.from {
        let factors = std::iter::once(&twj.relation).chain(twj.joins.iter().map(|j| &j.relation));
        for f in factors {
            let ast::TableFactor::Table { name, alias, args: None, .. } = f else { return None };
            let t = schema.table(&catalog::object_name(name).ok()?)?.clone();
            let known = alias.as_ref().map_or_else(|| t.name.clone(), |a| a.name.value.clone());
            tables.push((known, t));
        }
    }
    let decl = |c: &catalog::ColumnDef| c.decl_type.clone().unwrap_or_default();
    let lookup = |qual: Option<&str>, col: &str| -> String {
        let mut found = tables
            .iter()
            .filter(|(k, _)| qual.is_none_or(|q| q.eq_ignore_ascii_case(k)))
            .filter_map(|(_, t)| t.column_index(col).map(|i| decl(&t.columns[i])));
        found.next().unwrap_or_default()
    };
    let of_expr = |e: &ast::Expr| match e {
        ast::Expr::Identifier(i) => lookup(None, &i.value),
        ast::Expr::CompoundIdentifier(p) if p.len() == 2 => lookup(Some(&p[0].value), &p[1].value),
        _ => String::new(),
    };
    let mut out = Vec::new();
    for item in &sel.projection {
        match item {
            ast::SelectItem::UnnamedExpr(e) | ast::SelectItem::ExprWithAlias { expr: e, .. } => {
                out.push(of_expr(e))
            }
            ast::SelectItem::Wildcard(_) => {
                for (_, t) in &tables {
                    out.extend(t.columns.iter().map(decl));
                }
            }
            ast::SelectItem::QualifiedWildcard(kind, _) => {
                let ast::SelectItemQualifiedWildcardKind::ObjectName(n) = kind else {
                    return None;
                };
                let q = catalog::object_name(n).ok()?;
                let (_, t) = tables.iter().find(|(k, _)| k.eq_ignore_ascii_case(&q))?;
                out.extend(t.columns.iter().map(decl));
            }
            _ => return None,
        }
    }
    Some(out)
}

/// `sqlite_schema` and its aliases as tables (`PRAGMA table_info`).
fn special_table(name: &str) -> Option<std::sync::Arc<TableDef>> {
    (catalog::is_schema_table(name) || catalog::is_temp_schema_table(name)).then(|| {
        let mut t = catalog::catalog_table(0);
        t.name = name.to_string();
        std::sync::Arc::new(t)
    })
}

fn table_list(
    store: &dyn RowStore,
    schema: &Schema,
    only: Option<&str>,
    temp_only: bool,
    main_only: bool,
) -> Result<Vec<Vec<Value>>> {
    let wanted = |n: &str| only.is_none_or(|o| o.eq_ignore_ascii_case(n));
    let mut rows = Vec::new();
    if !temp_only {
        for r in catalog::catalog_rows(store)? {
            match r.kind.as_str() {
                "table" if wanted(&r.name) => {
                    if let Some(t) = schema.table(&r.name) {
                        rows.push(vec![
                            text("main"),
                            text(&t.name),
                            text("table"),
                            int(t.columns.len() as i64),
                            int(i64::from(t.without_rowid)),
                            int(i64::from(t.strict)),
                        ]);
                    }
                }
                "view" if wanted(&r.name) => {
                    if let Some(v) = schema.view(&r.name).cloned() {
                        let ncol = if v.columns.is_empty() {
                            let mut b = crate::planner::bind::Binder::new(schema, store);
                            crate::planner::plan_query(&mut b, &v.query)?.columns.len()
                        } else {
                            v.columns.len()
                        };
                        rows.push(vec![
                            text("main"),
                            text(&v.name),
                            text("view"),
                            int(ncol as i64),
                            int(0),
                            int(0),
                        ]);
                    }
                }
                _ => {}
            }
        }
        if wanted("sqlite_schema") || only.is_some_and(catalog::is_schema_table) {
            rows.push(vec![
                text("main"),
                text("sqlite_schema"),
                text("table"),
                int(5),
                int(0),
                int(0),
            ]);
        }
    }
    if !main_only
        && (wanted("sqlite_temp_schema") || only.is_some_and(catalog::is_temp_schema_table))
    {
        rows.push(vec![
            text("temp"),
            text("sqlite_temp_schema"),
            text("table"),
            int(5),
            int(0),
            int(0),
        ]);
    }
    Ok(rows)
}

/// The table's indexes, newest first (SQLite's order: each new index goes
/// to the front of the table's list).
fn table_indexes(schema: &Schema, t: &TableDef) -> Vec<std::sync::Arc<IndexDef>> {
    let mut ixs: Vec<_> = schema
        .indexes
        .values()
        .filter(|ix| ix.table.eq_ignore_ascii_case(&t.name))
        .cloned()
        .collect();
    ixs.sort_by_key(|ix| std::cmp::Reverse(ix.seq));
    ixs
}

fn index_list(schema: &Schema, t: &TableDef) -> Vec<Vec<Value>> {
    table_indexes(schema, t)
        .iter()
        .enumerate()
        .map(|(i, ix)| {
            vec![
                int(i as i64),
                text(&ix.name),
                int(i64::from(ix.unique)),
                text(ix.origin.code()),
                int(i64::from(ix.predicate.is_some())),
            ]
        })
        .collect()
}

fn index_info(schema: &Schema, name: &str, x: bool) -> Vec<Vec<Value>> {
    let Some(ix) = schema.index(name) else { return Vec::new() };
    let Some(t) = schema.table(&ix.table) else { return Vec::new() };
    let col_name = |c: usize| {
        if c == EXPR_COLUMN {
            Value::Null
        } else {
            t.columns.get(c).map_or(Value::Null, |c| text(&c.name))
        }
    };
    let cid = |c: usize| if c == EXPR_COLUMN { -2 } else { c as i64 };
    let mut rows = Vec::new();
    for (i, &c) in ix.columns.iter().enumerate() {
        let mut row = vec![int(i as i64), int(cid(c)), col_name(c)];
        if x {
            row.push(int(i64::from(ix.desc[i])));
            row.push(text(ix.collations[i].name()));
            row.push(int(1));
        }
        rows.push(row);
    }
    if !x {
        return rows;
    }
    // The columns that complete each entry: the rowid, or for a WITHOUT
    // ROWID table its PRIMARY KEY columns not already in the key (and, for
    // the PRIMARY KEY index itself, every other column).
    let mut n = rows.len() as i64;
    let mut aux = |c: i64, name: Value, coll: &str| {
        rows.push(vec![int(n), int(c), name, int(0), text(coll), int(0)]);
        n += 1;
    };
    if t.without_rowid {
        let extra: Vec<usize> = if ix.origin == catalog::IndexOrigin::PrimaryKey {
            (0..t.columns.len()).filter(|c| !ix.columns.contains(c)).collect()
        } else {
            t.primary_key.iter().copied().filter(|c| !ix.columns.contains(c)).collect()
        };
        for c in extra {
            let col = &t.columns[c];
            aux(c as i64, text(&col.name), col.collation.name());
        }
    } else {
        aux(-1, Value::Null, "BINARY");
    }
    rows
}

fn foreign_key_list(t: &TableDef) -> Vec<Vec<Value>> {
    let mut rows = Vec::new();
    // SQLite numbers a table's foreign keys from the last declared.
    for (id, fk) in t.foreign_keys.iter().rev().enumerate() {
        for (seq, &c) in fk.columns.iter().enumerate() {
            rows.push(vec![
                int(id as i64),
                int(seq as i64),
                text(&fk.parent),
                text(&t.columns[c].name),
                fk.parent_columns.get(seq).map_or(Value::Null, |p| text(p)),
                text(fk.on_update.name()),
                text(fk.on_delete.name()),
                text("NONE"),
            ]);
        }
    }
    rows
}

/// The table-valued form: `pragma_<name>(arg [, schema])` in FROM, for the
/// pragmas that only report. `None` if `name` is no such function.
pub fn table_function(
    store: &dyn RowStore,
    schema: &Schema,
    name: &str,
    args: &[Value],
) -> Option<Result<Answer>> {
    let lname = name.to_ascii_lowercase();
    let pname = lname.strip_prefix("pragma_")?;
    const REPORTS: &[&str] = &[
        "table_info",
        "table_xinfo",
        "table_list",
        "index_list",
        "index_info",
        "index_xinfo",
        "foreign_key_list",
        "collation_list",
        "function_list",
        "module_list",
        "database_list",
        "compile_options",
        "foreign_keys",
        "defer_foreign_keys",
        "recursive_triggers",
        "busy_timeout",
        "cache_size",
        "temp_store",
        "synchronous",
        "journal_mode",
        "user_version",
        "application_id",
        "schema_version",
        "encoding",
        "page_size",
        "page_count",
        "freelist_count",
        "optimize",
        "pragma_list",
        "integrity_check",
        "quick_check",
        "foreign_key_check",
        "data_version",
    ];
    if !REPORTS.contains(&pname) && fixed(pname).is_none() {
        return None;
    }
    // Pragmas without an argument take only the schema.
    let takes_arg = matches!(
        pname,
        "table_info"
            | "table_xinfo"
            | "table_list"
            | "index_list"
            | "index_info"
            | "index_xinfo"
            | "foreign_key_list"
            | "foreign_key_check"
            | "integrity_check"
            | "quick_check"
            | "optimize"
    );
    let max = if takes_arg { 2 } else { 1 };
    if args.len() > max {
        return Some(Err(Error::InvalidInput(format!(
            "too many arguments on {name}() - max {max}"
        ))));
    }
    let (value, schema_arg) =
        if takes_arg { (args.first().cloned(), args.get(1)) } else { (None, args.first()) };
    let schema_name = match schema_arg {
        Some(Value::Null) | None => None,
        Some(other) => other.text().map(|t| t.into_owned()),
    };
    let p = Pragma { name: pname.to_string(), schema: schema_name, value, is_eq: false };
    if p.is_integrity_check() {
        // The table-valued form takes its argument as a table name, always.
        let r = match &p.value {
            Some(Value::Null) | None => Ok(()),
            Some(v) => integrity_table(schema, &v.text().unwrap_or_default()),
        };
        return Some(r.and_then(|()| integrity_answer(current_db().as_ref(), pname)));
    }
    if pname == "foreign_key_check" {
        return Some(foreign_key_check_answer(&p, store, schema, super::sort::DEFAULT_BUDGET));
    }
    let mut settings = current_settings();
    Some(run(&p, &mut settings, store, schema))
}

/// The argument of `PRAGMA integrity_check(x)`, as SQLite reads it: a
/// number is the most problems to report (AsaDB reports them all); a
/// name or a string (`'7'` too) names the table to check, which must
/// exist (AsaDB then checks the whole database, that table included).
pub fn integrity_target(p: &Pragma, schema: &Schema) -> Result<()> {
    match &p.value {
        Some(Value::Text(name)) => integrity_table(schema, &name.to_str_lossy()),
        _ => Ok(()),
    }
}

fn integrity_table(schema: &Schema, name: &str) -> Result<()> {
    if schema.table(name).is_some() || schema.view(name).is_some() || catalog::is_schema_table(name)
    {
        return Ok(());
    }
    Err(Error::NotFound(format!("no such table: {name}")))
}

/// `PRAGMA integrity_check` / `quick_check` (and their table-valued
/// forms): `ok`, or one row per problem ([`crate::integrity`], on the
/// committed database `db`). The in-memory store (`None`) has no pages to
/// check and answers `ok`.
pub fn integrity_answer(db: Option<&asadb_txn::Db>, name: &str) -> Result<Answer> {
    let problems = match db {
        None => Vec::new(),
        Some(db) => crate::integrity::check(db)?.problems,
    };
    let rows = if problems.is_empty() {
        vec![vec![Value::Text("ok".into())]]
    } else {
        problems.into_iter().map(|p| vec![Value::Text(p.into())]).collect()
    };
    Ok(Answer { columns: vec![name.to_string()], rows })
}

/// `PRAGMA foreign_key_check` (and `pragma_foreign_key_check()`):
/// SQLite's `table, rowid, parent, fkid` for every child row whose parent
/// key has no parent row ([`foreign_key_check`] writes the query of each
/// key), run within `budget` bytes.
pub fn foreign_key_check_answer(
    p: &Pragma,
    store: &dyn RowStore,
    schema: &Schema,
    budget: usize,
) -> Result<Answer> {
    // (table's position, rowid, fkid) orders the answer as SQLite's: table
    // by table, each table's rows in rowid order, a row's keys by id.
    type Key = (usize, Option<i64>, i64);
    let mut keyed: Vec<(Key, Vec<Value>)> = Vec::new();
    let mut tables: Vec<String> = Vec::new();
    for probe in foreign_key_check(p, schema)? {
        if tables.last() != Some(&probe.child) {
            tables.push(probe.child.clone());
        }
        let tpos = tables.len() - 1;
        let stmt = crate::parse::parse_one(&probe.sql)?;
        let ast::Statement::Query(q) = &stmt else {
            return Err(Error::Corrupt("foreign_key_check: not a query".into()));
        };
        let mut b = crate::planner::Binder::new(schema, store);
        let plan = crate::planner::plan_query(&mut b, q)?;
        let mut op = super::build(&plan.node);
        let cache = super::ExecState::default();
        let mut cx = super::Context::new(store, &[], &cache);
        cx.budget = budget;
        while let Some(r) = op.next(&cx)? {
            let rowid = r.into_iter().next().unwrap_or(Value::Null);
            let key =
                (tpos, if let Value::Integer(i) = rowid { Some(i) } else { None }, probe.fkid);
            keyed.push((
                key,
                vec![
                    Value::Text(probe.child.clone().into()),
                    rowid,
                    Value::Text(probe.parent.clone().into()),
                    Value::Integer(probe.fkid),
                ],
            ));
        }
    }
    keyed.sort_by_key(|(k, _)| *k);
    let rows = keyed.into_iter().map(|(_, r)| r).collect();
    let columns = ["table", "rowid", "parent", "fkid"].iter().map(|c| c.to_string()).collect();
    Ok(Answer { columns, rows })
}

/// The arguments of `pragma_<name>(…)` in FROM. They are evaluated when
/// the statement is planned, so each must be a literal (a string, a
/// number, NULL); an argument naming an outer column (a correlated
/// `pragma_table_info(m.name)`) is refused with a clear error.
/// `hex` reads a `0x…` token as its integer (`None`: it is `X'…'`, a blob,
/// which no pragma takes).
pub fn literal_args(
    name: &str,
    args: &[ast::FunctionArg],
    hex: &dyn Fn(&ast::ValueWithSpan) -> Option<Value>,
) -> Result<Vec<Value>> {
    let refuse = || {
        Error::Unsupported(format!(
            "{name}() arguments must be literals (a string or a number) in AsaDB"
        ))
    };
    args.iter()
        .map(|a| {
            let ast::FunctionArg::Unnamed(ast::FunctionArgExpr::Expr(e)) = a else {
                return Err(refuse());
            };
            literal(e, hex).ok_or_else(refuse)
        })
        .collect()
}

fn literal(e: &ast::Expr, hex: &dyn Fn(&ast::ValueWithSpan) -> Option<Value>) -> Option<Value> {
    match e {
        ast::Expr::Nested(x) => literal(x, hex),
        ast::Expr::Value(v) => match &v.value {
            ast::Value::Number(n, _) => crate::planner::bind::number_literal(n).ok(),
            ast::Value::SingleQuotedString(s) => Some(Value::Text(s.clone().into())),
            ast::Value::HexStringLiteral(_) => hex(v),
            ast::Value::Null => Some(Value::Null),
            _ => None,
        },
        ast::Expr::UnaryOp { op: ast::UnaryOperator::Minus, expr } => match literal(expr, hex)? {
            Value::Integer(i) => Some(Value::Integer(i.checked_neg()?)),
            Value::Real(f) => Some(Value::Real(-f)),
            _ => None,
        },
        _ => None,
    }
}

/// The answer as a plan's rows (every column without affinity).
pub fn answer_plan(a: Answer) -> crate::planner::QueryPlan {
    let width = a.columns.len();
    crate::planner::QueryPlan {
        node: crate::planner::Node::Values {
            rows: a
                .rows
                .into_iter()
                .map(|r| r.into_iter().map(crate::expr::Expr::lit).collect())
                .collect(),
            width,
        },
        affinities: vec![None; width],
        collations: vec![None; width],
        columns: a.columns,
    }
}

/// `"name"`, quoted for SQL text.
fn quote(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// One foreign key to check: the query that finds its child rows with no
/// parent (each row: the child's rowid, NULL for a WITHOUT ROWID table).
#[derive(Clone, Debug)]
pub struct FkProbe {
    pub child: String,
    pub parent: String,
    pub fkid: i64,
    /// `None`: the parent table does not exist, so every child row whose
    /// key has no NULL violates it (`sql` then lists those).
    pub sql: String,
}

/// `PRAGMA foreign_key_check[(table)]`: the probes for every foreign key of
/// `only` (or of every table, in catalog name order), numbered as
/// `foreign_key_list` numbers them. Errors as SQLite's: an unknown table,
/// a foreign key whose parent columns are no PRIMARY KEY or UNIQUE key.
pub fn foreign_key_check(p: &Pragma, schema: &Schema) -> Result<Vec<FkProbe>> {
    which_db(p.schema.as_deref())?;
    let arg = p.value.as_ref().and_then(Value::text);
    let tables: Vec<std::sync::Arc<TableDef>> = match &arg {
        Some(a) => vec![
            schema
                .table(a)
                .cloned()
                .ok_or_else(|| Error::NotFound(format!("no such table: {a}")))?,
        ],
        None => schema.tables.values().cloned().collect(),
    };
    let mut out = Vec::new();
    for t in tables {
        let n = t.foreign_keys.len();
        for (i, fk) in t.foreign_keys.iter().enumerate() {
            let fkid = (n - 1 - i) as i64;
            let child_cols: Vec<String> =
                fk.columns.iter().map(|&c| quote(&t.columns[c].name)).collect();
            let not_null: Vec<String> =
                child_cols.iter().map(|c| format!("c.{c} IS NOT NULL")).collect();
            let rowid = if t.without_rowid { "NULL" } else { "c.rowid" };
            let from = format!(
                "SELECT {rowid} FROM {} AS c WHERE {}",
                quote(&t.name),
                not_null.join(" AND ")
            );
            let sql = match schema.table(&fk.parent) {
                None => format!("{from} ORDER BY 1"),
                Some(parent) => {
                    let parent_cols = parent_key(&t, fk, parent, schema)?;
                    let eq: Vec<String> = parent_cols
                        .iter()
                        .zip(&child_cols)
                        .map(|(pc, cc)| format!("p.{pc} = c.{cc}"))
                        .collect();
                    format!(
                        "{from} AND NOT EXISTS (SELECT 1 FROM {} AS p WHERE {}) ORDER BY 1",
                        quote(&parent.name),
                        eq.join(" AND ")
                    )
                }
            };
            out.push(FkProbe { child: t.name.clone(), parent: fk.parent.clone(), fkid, sql });
        }
    }
    Ok(out)
}

/// The parent columns a foreign key refers to, quoted
/// ([`super::fkey::parent_columns`] has the rule).
fn parent_key(
    child: &TableDef,
    fk: &catalog::ForeignKey,
    parent: &TableDef,
    schema: &Schema,
) -> Result<Vec<String>> {
    let cols = super::fkey::parent_columns(child, fk, parent, schema)?;
    Ok(cols.iter().map(|&c| quote(&parent.columns[c].name)).collect())
}
