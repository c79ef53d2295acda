//! Table-valued functions: a function named in FROM (`FROM json_each(x)`)
//! that yields rows, resolved by name to a [`TableFunc`] when the statement
//! is bound.
//!
//! Like an SQLite eponymous virtual table, a table-valued function has a
//! fixed column list ([`TableFunc::columns`]): visible columns first (what
//! `*` shows), then hidden columns that hold the arguments — call
//! arguments fill them in order, and a missing one may come from a WHERE
//! equality on that column instead (`FROM json_each WHERE json = ?`). The
//! planner binds the arguments as expressions, which may read earlier (or
//! later) FROM items (`FROM t, json_each(t.doc)`): the executor then opens
//! the function once per row of the items it reads
//! ([`TableFunc::open`]). Rows carry a rowid after the columns, counting
//! from 0.
//!
//! A family adds a variant, its names in [`TableFunc::resolve`], its
//! columns, and a cursor in [`TableFunc::open`].

use super::json::each::{self, EachCursor};
use crate::Result;
use crate::value::Value;

/// A resolved table-valued function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableFunc {
    /// `json_each(JSON [, ROOT])`
    JsonEach,
    /// `json_tree(JSON [, ROOT])`
    JsonTree,
    /// `jsonb_each`: as json_each, arrays and objects as JSONB.
    JsonbEach,
    /// `jsonb_tree`
    JsonbTree,
    /// `pragma_table_info(x)` and the other reporting pragmas that take a
    /// name, when the argument is no literal (`pragma_table_info(m.name)`):
    /// the executor runs the pragma per call (`exec::tvf`).
    Pragma(PragmaFn),
}

/// A pragma that takes an object name, as a table-valued function with
/// SQLite's hidden `arg` and `schema` columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PragmaFn {
    TableInfo,
    TableXinfo,
    IndexList,
    IndexInfo,
    IndexXinfo,
    ForeignKeyList,
}

impl PragmaFn {
    const ALL: [PragmaFn; 6] = [
        PragmaFn::TableInfo,
        PragmaFn::TableXinfo,
        PragmaFn::IndexList,
        PragmaFn::IndexInfo,
        PragmaFn::IndexXinfo,
        PragmaFn::ForeignKeyList,
    ];

    /// The pragma's name (`table_info`).
    pub fn pragma(self) -> &'static str {
        match self {
            PragmaFn::TableInfo => "table_info",
            PragmaFn::TableXinfo => "table_xinfo",
            PragmaFn::IndexList => "index_list",
            PragmaFn::IndexInfo => "index_info",
            PragmaFn::IndexXinfo => "index_xinfo",
            PragmaFn::ForeignKeyList => "foreign_key_list",
        }
    }

    /// The function's name (`pragma_table_info`).
    pub fn name(self) -> &'static str {
        match self {
            PragmaFn::TableInfo => "pragma_table_info",
            PragmaFn::TableXinfo => "pragma_table_xinfo",
            PragmaFn::IndexList => "pragma_index_list",
            PragmaFn::IndexInfo => "pragma_index_info",
            PragmaFn::IndexXinfo => "pragma_index_xinfo",
            PragmaFn::ForeignKeyList => "pragma_foreign_key_list",
        }
    }

    /// `pragma_<name>` (any case).
    pub fn resolve(name: &str) -> Option<PragmaFn> {
        PragmaFn::ALL.into_iter().find(|p| p.name().eq_ignore_ascii_case(name))
    }

    /// The pragma's columns, then the hidden `arg` and `schema`.
    pub fn columns(self) -> &'static [&'static str] {
        match self {
            PragmaFn::TableInfo => {
                &["cid", "name", "type", "notnull", "dflt_value", "pk", "arg", "schema"]
            }
            PragmaFn::TableXinfo => {
                &["cid", "name", "type", "notnull", "dflt_value", "pk", "hidden", "arg", "schema"]
            }
            PragmaFn::IndexList => &["seq", "name", "unique", "origin", "partial", "arg", "schema"],
            PragmaFn::IndexInfo => &["seqno", "cid", "name", "arg", "schema"],
            PragmaFn::IndexXinfo => {
                &["seqno", "cid", "name", "desc", "coll", "key", "arg", "schema"]
            }
            PragmaFn::ForeignKeyList => &[
                "id",
                "seq",
                "table",
                "from",
                "to",
                "on_update",
                "on_delete",
                "match",
                "arg",
                "schema",
            ],
        }
    }
}

/// Rows already computed (a pragma's answer), each with its rowid.
pub struct RowsCursor {
    rows: std::vec::IntoIter<Vec<Value>>,
    next: i64,
}

impl RowsCursor {
    pub fn new(rows: Vec<Vec<Value>>) -> RowsCursor {
        RowsCursor { rows: rows.into_iter(), next: 0 }
    }
}

impl TableCursor for RowsCursor {
    fn next_row(&mut self) -> Result<Option<Vec<Value>>> {
        Ok(self.rows.next().map(|mut r| {
            r.push(Value::Integer(self.next));
            self.next += 1;
            r
        }))
    }
}

/// The rows of one call.
pub trait TableCursor: Send {
    /// The next row: the function's columns, then the rowid.
    fn next_row(&mut self) -> Result<Option<Vec<Value>>>;
}

impl TableCursor for EachCursor {
    fn next_row(&mut self) -> Result<Option<Vec<Value>>> {
        EachCursor::next_row(self)
    }
}

/// A cursor that yields nothing (a call whose required argument is absent).
struct NoRows;

impl TableCursor for NoRows {
    fn next_row(&mut self) -> Result<Option<Vec<Value>>> {
        Ok(None)
    }
}

impl TableFunc {
    /// The table-valued function called `name` (any case).
    pub fn resolve(name: &str) -> Option<TableFunc> {
        Some(match name.to_ascii_lowercase().as_str() {
            "json_each" => TableFunc::JsonEach,
            "json_tree" => TableFunc::JsonTree,
            "jsonb_each" => TableFunc::JsonbEach,
            "jsonb_tree" => TableFunc::JsonbTree,
            n => return PragmaFn::resolve(n).map(TableFunc::Pragma),
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            TableFunc::JsonEach => "json_each",
            TableFunc::JsonTree => "json_tree",
            TableFunc::JsonbEach => "jsonb_each",
            TableFunc::JsonbTree => "jsonb_tree",
            TableFunc::Pragma(p) => p.name(),
        }
    }

    /// Every column, visible ones first, then the argument columns.
    pub fn columns(self) -> &'static [&'static str] {
        match self {
            TableFunc::Pragma(p) => p.columns(),
            _ => &each::COLUMNS,
        }
    }

    /// How many leading columns are visible (shown by `*`).
    pub fn visible(self) -> usize {
        match self {
            TableFunc::Pragma(p) => p.columns().len() - 2,
            _ => each::VISIBLE,
        }
    }

    /// How many arguments it takes at most (its hidden columns).
    pub fn max_args(self) -> usize {
        self.columns().len() - self.visible()
    }

    /// `(value column, type column)` when a column's values carry the
    /// JSON subtype for rows whose type is `array` or `object`.
    pub fn json_value_column(self) -> Option<(usize, usize)> {
        match self {
            TableFunc::Pragma(_) => None,
            _ => Some((each::VALUE_COLUMN, each::TYPE_COLUMN)),
        }
    }

    /// Starts a call; `args[i]` is the value of hidden column `i` (`None`:
    /// not given).
    pub fn open(self, args: &[Option<Value>]) -> Result<Box<dyn TableCursor>> {
        if let TableFunc::Pragma(p) = self {
            return Err(crate::Error::Internal(format!("{}() opens with its store", p.name())));
        }
        let json = args.first().cloned().flatten();
        let root = args.get(1).cloned().flatten();
        let Some(json) = json else { return Ok(Box::new(NoRows)) };
        let recursive = matches!(self, TableFunc::JsonTree | TableFunc::JsonbTree);
        let blob = matches!(self, TableFunc::JsonbEach | TableFunc::JsonbTree);
        Ok(Box::new(EachCursor::new(&json, root.as_ref(), recursive, blob)?))
    }
}
