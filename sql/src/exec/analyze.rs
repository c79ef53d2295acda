//! `ANALYZE [name]`: statistics in `sqlite_stat1(tbl, idx, stat)`, as
//! SQLite computes them.
//!
//! For each index of each analyzed table one row: `stat` is the number of
//! entries, then for each key prefix of 1..n columns the average number of
//! entries per distinct prefix, rounded up (SQLite's `statGet`:
//! `(nRow + nDistinct - 1) / nDistinct`, and 1 for a 2 that is within 10%
//! of unique). NULLs count as equal to each other; keys compare as
//! stored (folded by their collation), so distinct means distinct under
//! the index's collation. A table whose indexes are all partial (or that
//! has none) gets one row with a NULL `idx` and its row count. Empty
//! tables and indexes get no row, but a partial index always does (`0 0`
//! when empty), as in SQLite's `analyzeOneTable`.
//! `sqlite_*` tables are not analyzed. The rows of what is analyzed are
//! replaced; the rest stay.
//!
//! The table is created on first use with SQLite's text
//! `CREATE TABLE sqlite_stat1(tbl,idx,stat)`. The planner does not read
//! it: AsaDB's access paths do not depend on statistics.

use std::cmp::Ordering;
use std::ops::Bound;

use sqlparser::ast;

use crate::catalog::{self, IndexDef, Schema, TableDef, object_name};
use crate::exec::vals::compare;
use crate::storage::{KeyRange, RowStore, TreeKind};
use crate::value::Value;
use crate::{Error, Result};

/// The statistics table.
pub const STAT1: &str = "sqlite_stat1";
const STAT1_SQL: &str = "CREATE TABLE sqlite_stat1(tbl,idx,stat)";

pub fn analyze(store: &dyn RowStore, schema: &Schema, a: &ast::Analyze) -> Result<()> {
    // What to analyze: every table, one table, or one index.
    let (tables, only_index): (Vec<&TableDef>, Option<&IndexDef>) = match &a.table_name {
        None => (schema.tables.values().map(|t| t.as_ref()).collect(), None),
        Some(n) => {
            let name = object_name(n)?;
            let schema_only = n.0.len() == 1 && name.eq_ignore_ascii_case("main");
            if schema_only {
                (schema.tables.values().map(|t| t.as_ref()).collect(), None)
            } else if let Some(t) = schema.table(&name) {
                (vec![t.as_ref()], None)
            } else if let Some(ix) = schema.index(&name) {
                (vec![schema.must_table(&ix.table)?.as_ref()], Some(ix.as_ref()))
            } else {
                return Err(Error::InvalidInput(format!("no such table: {name}")));
            }
        }
    };
    let tables: Vec<&TableDef> = tables
        .into_iter()
        .filter(|t| !(t.name.len() >= 7 && t.name[..7].eq_ignore_ascii_case("sqlite_")))
        .collect();
    let mut rows: Vec<[Value; 3]> = Vec::new();
    for t in &tables {
        let indexes: Vec<_> = match only_index {
            Some(ix) => vec![ix.clone()],
            None => schema.table_indexes(&t.name).iter().map(|i| i.as_ref().clone()).collect(),
        };
        for ix in &indexes {
            let (entries, stat) = index_stat(store, ix)?;
            // A partial index gets its row even when empty (SQLite: its
            // count is no table's).
            if entries > 0 || ix.predicate.is_some() {
                let idx = stat_name(t, ix);
                rows.push([
                    Value::Text(t.name.clone().into()),
                    Value::Text(idx.into()),
                    Value::Text(stat.into()),
                ]);
            }
        }
        // The table's own row count, where no whole index gives it.
        if only_index.is_none() && indexes.iter().all(|ix| ix.predicate.is_some()) {
            let n = count_rows(store, t)?;
            if n > 0 {
                rows.push([
                    Value::Text(t.name.clone().into()),
                    Value::Null,
                    Value::Text(n.to_string().into()),
                ]);
            }
        }
    }
    let stat = stat_table(store, schema)?;
    // Forget the old rows of what was analyzed.
    let forget = |r: &[Value]| {
        let tbl = matches!(&r[0], Value::Text(s) if tables.iter().any(|t| s.eq_ignore_ascii_case(&t.name)));
        match only_index {
            None => tbl,
            Some(ix) => {
                let name = tables.first().map_or_else(|| ix.name.clone(), |t| stat_name(t, ix));
                tbl && matches!(&r[1], Value::Text(s) if s.eq_ignore_ascii_case(&name))
            }
        }
    };
    let mut doomed = Vec::new();
    let mut cur = store.scan(&stat, (Bound::Unbounded, Bound::Unbounded), false)?;
    while let Some((rowid, r)) = cur.next()? {
        if r.len() >= 2 && forget(&r) {
            doomed.push(rowid);
        }
    }
    drop(cur);
    for rowid in doomed {
        store.delete(&stat, rowid)?;
    }
    let mut next = store.max_rowid(&stat)?.unwrap_or(0);
    for r in rows {
        next += 1;
        store.insert(&stat, next, &r)?;
    }
    Ok(())
}

/// The `idx` of an index's row: its name, but a WITHOUT ROWID table's
/// PRIMARY KEY index is the table itself in SQLite, named so.
fn stat_name(t: &TableDef, ix: &IndexDef) -> String {
    if t.without_rowid && ix.origin == catalog::IndexOrigin::PrimaryKey {
        t.name.clone()
    } else {
        ix.name.clone()
    }
}

/// `sqlite_stat1`, created if it is not there yet.
fn stat_table(store: &dyn RowStore, schema: &Schema) -> Result<TableDef> {
    if let Some(t) = schema.table(STAT1) {
        return Ok(t.as_ref().clone());
    }
    let root = store.create_tree(TreeKind::Table)?;
    catalog::add_entry(store, "table", STAT1, STAT1, root, Some(STAT1_SQL))?;
    let ast::Statement::CreateTable(ct) = crate::parse::parse_one(STAT1_SQL)? else {
        return Err(Error::Internal("sqlite_stat1's text is no CREATE TABLE".into()));
    };
    Ok(catalog::table_from_ast(&ct, root, STAT1_SQL.into())?.0)
}

fn count_rows(store: &dyn RowStore, t: &TableDef) -> Result<u64> {
    let mut cur = store.scan(t, (Bound::Unbounded, Bound::Unbounded), false)?;
    let mut n = 0;
    loop {
        let k = cur.skip(4096)?;
        n += k;
        if k < 4096 {
            return Ok(n);
        }
    }
}

/// The number of entries of one index and its `stat` text.
fn index_stat(store: &dyn RowStore, ix: &IndexDef) -> Result<(u64, String)> {
    let ncol = ix.columns.len();
    let mut cur = store.scan_index(ix, KeyRange::all(), false)?;
    let mut prev: Option<Vec<Value>> = None;
    let mut n_row: u64 = 0;
    // Entries whose prefix of i+1 columns differs from the one before.
    let mut d_lt = vec![0u64; ncol];
    while let Some((key, _)) = cur.next()? {
        n_row += 1;
        if let Some(p) = &prev {
            let first_diff = (0..ncol)
                .find(|&i| match (key.get(i), p.get(i)) {
                    (Some(a), Some(b)) => compare(a, b) != Ordering::Equal,
                    (a, b) => a.is_some() != b.is_some(),
                })
                .unwrap_or(ncol);
            for d in d_lt.iter_mut().skip(first_diff) {
                *d += 1;
            }
        }
        prev = Some(key);
    }
    let mut s = n_row.to_string();
    for d in d_lt {
        let distinct = d + 1;
        let mut v = n_row.div_ceil(distinct);
        if v == 2 && n_row * 10 <= distinct * 11 {
            v = 1;
        }
        s.push_str(&format!(" {v}"));
    }
    Ok((n_row, s))
}
