//! The result of parsing a plain-literal `INSERT … VALUES` statement.

use crate::Value;

/// The conflict resolution of `INSERT OR …` (`REPLACE INTO` is `Replace`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conflict {
    Rollback,
    Abort,
    Fail,
    Ignore,
    Replace,
}

/// `INSERT [OR x] INTO [schema.]table [(columns)] VALUES (…), …` where
/// every item is a literal.
///
/// Names are unquoted (`"a""b"` is `a"b`) and keep the case they were
/// written in. A qualified name `schema.t` is split into `schema` and
/// `table`; names with more parts are not accepted. Row lengths are not
/// checked against each other or the column list: that is the executor's
/// job, with the table at hand.
#[derive(Clone, Debug)]
pub struct InsertValues {
    pub or_action: Option<Conflict>,
    pub schema: Option<String>,
    pub table: String,
    pub columns: Option<Vec<String>>,
    pub rows: Vec<Vec<Value>>,
}
