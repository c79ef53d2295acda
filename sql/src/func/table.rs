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
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            TableFunc::JsonEach => "json_each",
            TableFunc::JsonTree => "json_tree",
            TableFunc::JsonbEach => "jsonb_each",
            TableFunc::JsonbTree => "jsonb_tree",
        }
    }

    /// Every column, visible ones first, then the argument columns.
    pub fn columns(self) -> &'static [&'static str] {
        &each::COLUMNS
    }

    /// How many leading columns are visible (shown by `*`).
    pub fn visible(self) -> usize {
        each::VISIBLE
    }

    /// How many arguments it takes at most (its hidden columns).
    pub fn max_args(self) -> usize {
        self.columns().len() - self.visible()
    }

    /// `(value column, type column)` when a column's values carry the
    /// JSON subtype for rows whose type is `array` or `object`.
    pub fn json_value_column(self) -> Option<(usize, usize)> {
        Some((each::VALUE_COLUMN, each::TYPE_COLUMN))
    }

    /// Starts a call; `args[i]` is the value of hidden column `i` (`None`:
    /// not given).
    pub fn open(self, args: &[Option<Value>]) -> Result<Box<dyn TableCursor>> {
        let json = args.first().cloned().flatten();
        let root = args.get(1).cloned().flatten();
        let Some(json) = json else { return Ok(Box::new(NoRows)) };
        let recursive = matches!(self, TableFunc::JsonTree | TableFunc::JsonbTree);
        let blob = matches!(self, TableFunc::JsonbEach | TableFunc::JsonbTree);
        Ok(Box::new(EachCursor::new(&json, root.as_ref(), recursive, blob)?))
    }
}
