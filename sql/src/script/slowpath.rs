//! The INSERT slow path: the same question as the fast path, answered
//! through `sqlparser`. It is the fallback for statements the fast path
//! declines and the oracle the fast path is tested against.
//!
//! The parser runs with `unescape` off so string and identifier spellings
//! reach [`literal`] as written, and both paths give them one meaning.

use sqlparser::ast::{
    Expr, ObjectName, ObjectNamePart, SetExpr, SqliteOnConflict, Statement, TableObject,
    UnaryOperator, Value as SqlValue,
};
use sqlparser::dialect::{Dialect, MySqlDialect};
use sqlparser::parser::{Parser, ParserOptions};
use sqlparser::tokenizer::Location;

use super::insert::{Conflict, InsertValues};
use crate::value::literal;
use crate::{Error, Result, Value};

/// Parses `sql` with `sqlparser` (SQLite dialect). `Ok(None)` when it is
/// valid SQL but not a plain-literal `INSERT … VALUES`.
pub fn parse_insert_slow(sql: &str) -> Result<Option<InsertValues>> {
    parse_insert_slow_with(sql, false)
}

/// As [`parse_insert_slow`]; with `backslash_escapes` the MySQL dialect
/// parses it and strings use MySQL's backslash escapes.
pub fn parse_insert_slow_with(sql: &str, backslash_escapes: bool) -> Result<Option<InsertValues>> {
    let dialect: &dyn Dialect =
        if backslash_escapes { &MySqlDialect {} } else { &crate::parse::SqliteGrammar };
    let mut stmts = Parser::new(dialect)
        .with_options(ParserOptions::new().with_unescape(false))
        .try_with_sql(sql)
        .and_then(|mut p| p.parse_statements())
        .map_err(|e| Error::Parse(e.to_string()))?;
    if stmts.len() != 1 {
        return Ok(None);
    }
    let Some(Statement::Insert(ins)) = stmts.pop() else {
        return Ok(None);
    };
    // Anything but the plain shape is left to the full engine.
    let plain = ins.optimizer_hints.is_empty()
        && ins.into
        && ins.table_alias.is_none()
        && !ins.by_name
        && !ins.overwrite
        && ins.assignments.is_empty()
        && ins.partitioned.is_none()
        && ins.after_columns.is_empty()
        && ins.overriding.is_none()
        && !ins.has_table_keyword
        && ins.on.is_none()
        && ins.returning.is_none()
        && ins.output.is_none()
        && ins.priority.is_none()
        && ins.insert_alias.is_none()
        && ins.settings.is_none()
        && ins.format_clause.is_none()
        && ins.multi_table_insert_type.is_none()
        && ins.multi_table_into_clauses.is_empty()
        && ins.multi_table_when_clauses.is_empty()
        && ins.multi_table_else_clause.is_none();
    if !plain {
        return Ok(None);
    }
    // (`OR x`, MySQL `REPLACE INTO`, MySQL `INSERT IGNORE`)
    let or_action = match (ins.or, ins.replace_into, ins.ignore) {
        (None, false, false) => None,
        (None, false, true) => Some(Conflict::Ignore),
        (None, true, false) => Some(Conflict::Replace),
        (Some(or), false, false) => Some(match or {
            SqliteOnConflict::Rollback => Conflict::Rollback,
            SqliteOnConflict::Abort => Conflict::Abort,
            SqliteOnConflict::Fail => Conflict::Fail,
            SqliteOnConflict::Ignore => Conflict::Ignore,
            SqliteOnConflict::Replace => Conflict::Replace,
        }),
        _ => return Ok(None),
    };
    let TableObject::TableName(name) = &ins.table else {
        return Ok(None);
    };
    let (schema, table) = match name_parts(name).as_deref() {
        Some([t]) => (None, t.clone()),
        Some([s, t]) => (Some(s.clone()), t.clone()),
        _ => return Ok(None),
    };
    let columns = if ins.columns.is_empty() {
        None
    } else {
        let mut cols = Vec::with_capacity(ins.columns.len());
        for c in &ins.columns {
            match name_parts(c).as_deref() {
                Some([c]) => cols.push(c.clone()),
                _ => return Ok(None),
            }
        }
        Some(cols)
    };
    let Some(query) = &ins.source else {
        return Ok(None);
    };
    let query_plain = query.with.is_none()
        && query.order_by.is_none()
        && query.limit_clause.is_none()
        && query.fetch.is_none()
        && query.locks.is_empty()
        && query.for_clause.is_none()
        && query.settings.is_none()
        && query.format_clause.is_none()
        && query.pipe_operators.is_empty();
    let SetExpr::Values(values) = query.body.as_ref() else {
        return Ok(None);
    };
    if !query_plain || values.explicit_row {
        return Ok(None);
    }
    let mut rows = Vec::with_capacity(values.rows.len());
    for row in &values.rows {
        let mut out = Vec::with_capacity(row.len());
        for expr in row.iter() {
            match literal_value(expr, backslash_escapes)? {
                Some(v) => out.push(v),
                None => return Ok(None),
            }
        }
        rows.push(out);
    }
    Ok(Some(InsertValues { or_action, schema, table, columns, rows }))
}

/// The unquoted parts of a name, `None` if a part is not a plain identifier.
fn name_parts(name: &ObjectName) -> Option<Vec<String>> {
    name.0
        .iter()
        .map(|part| match part {
            ObjectNamePart::Identifier(id) => Some(match id.quote_style {
                Some('[') => id.value.clone(),
                Some(q) => literal::identifier(&id.value, q),
                None => id.value.clone(),
            }),
            _ => None,
        })
        .collect()
}

/// The value of a literal expression; `Ok(None)` for anything else.
fn literal_value(expr: &Expr, backslash: bool) -> Result<Option<Value>> {
    let (negative, expr) = match expr {
        Expr::UnaryOp { op: UnaryOperator::Minus, expr } => (Some(true), expr.as_ref()),
        Expr::UnaryOp { op: UnaryOperator::Plus, expr } => (Some(false), expr.as_ref()),
        e => (None, e),
    };
    let Expr::Value(v) = expr else {
        return Ok(None);
    };
    let is_hex_integer = || match &v.value {
        SqlValue::HexStringLiteral(h) => crate::parse::is_hex_integer(v.span, h),
        _ => false,
    };
    let value = match (&v.value, negative) {
        (SqlValue::Number(n, false), neg) => literal::decimal(n, neg == Some(true)),
        (SqlValue::HexStringLiteral(h), neg) if is_hex_integer() => {
            match literal::hex_integer(h, neg == Some(true)) {
                Some(v) => Some(v),
                None => return Err(Error::InvalidInput(format!("hex literal too big: 0x{h}"))),
            }
        }
        (SqlValue::HexStringLiteral(h), None) => match literal::blob(h) {
            Some(v) => Some(v),
            None => return Err(Error::Parse(format!("malformed blob literal: X'{h}'"))),
        },
        (SqlValue::SingleQuotedString(s), None) => {
            Some(Value::Text(literal::string(s, backslash).into()))
        }
        (SqlValue::Boolean(b), None) => Some(Value::Integer(i64::from(*b))),
        (SqlValue::Null, None) => Some(Value::Null),
        _ => None,
    };
    Ok(value)
}

/// The byte offset of a 1-based line/column (columns count characters).
pub(crate) fn offset_of(sql: &str, loc: Location) -> Option<usize> {
    let (line, column) = (usize::try_from(loc.line).ok()?, usize::try_from(loc.column).ok()?);
    let mut line_start = 0;
    if line > 1 {
        let mut newlines = sql.match_indices('\n');
        line_start = newlines.nth(line - 2)?.0 + 1;
    }
    sql[line_start..].char_indices().nth(column.checked_sub(1)?).map(|(o, _)| line_start + o)
}
