//! Telling reads from writes before running anything, for callers that
//! must refuse writes (the server's `/api/query`).
//!
//! The engine's `query` runs any statement (an `INSERT … RETURNING`
//! included), so the check happens on the parsed text: exactly one
//! statement, a query (SELECT, VALUES, set operations, CTEs of those) or
//! an EXPLAIN. Data-modifying CTEs and `SELECT … INTO` count as writes.

use sqlparser::ast::{Query, SetExpr, Statement};

use crate::error::{Error, Result};

/// Ok when `sql` is one read-only statement; `InvalidInput` otherwise
/// (a parse error keeps the engine's `Parse` error).
pub(crate) fn check_read_only(sql: &str) -> Result<()> {
    let stmts = asadb_sql::parse::parse_sql(sql).map_err(Error::Sql)?;
    match stmts.as_slice() {
        [Statement::Query(q)] if query_reads_only(q) => Ok(()),
        [Statement::Explain { .. }] => Ok(()),
        [_] => Err(Error::InvalidInput(
            "only read-only queries are allowed here (SELECT, VALUES, EXPLAIN); \
             submit writes and DDL through the Reservoir"
                .into(),
        )),
        stmts => {
            Err(Error::InvalidInput(format!("expected exactly one statement, got {}", stmts.len())))
        }
    }
}

fn query_reads_only(q: &Query) -> bool {
    let ctes_read_only =
        q.with.as_ref().is_none_or(|w| w.cte_tables.iter().all(|c| query_reads_only(&c.query)));
    ctes_read_only && set_reads_only(&q.body)
}

fn set_reads_only(s: &SetExpr) -> bool {
    match s {
        SetExpr::Select(sel) => sel.into.is_none(),
        SetExpr::Query(q) => query_reads_only(q),
        SetExpr::SetOperation { left, right, .. } => set_reads_only(left) && set_reads_only(right),
        SetExpr::Values(_) | SetExpr::Table(_) => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    #[test]
    fn reads_pass_and_writes_do_not() {
        for ok in [
            "SELECT 1",
            "select * from t where a = ?",
            "WITH x AS (SELECT 1) SELECT * FROM x",
            "SELECT 1 UNION SELECT 2",
            "VALUES (1), (2)",
            "EXPLAIN SELECT 1",
        ] {
            assert!(check_read_only(ok).is_ok(), "{ok}");
        }
        for bad in [
            "INSERT INTO t VALUES (1)",
            "INSERT INTO t VALUES (1) RETURNING *",
            "UPDATE t SET a = 1",
            "DELETE FROM t",
            "CREATE TABLE t (a)",
            "DROP TABLE t",
            "BEGIN",
            "SELECT 1; DELETE FROM t",
        ] {
            let e = check_read_only(bad).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::InvalidInput, "{bad}");
        }
        assert_eq!(check_read_only("SELEC").unwrap_err().kind(), ErrorKind::InvalidInput);
    }
}
