//! The whole-database integrity check: the transaction layer's page and
//! free-list checks, extended to every B+tree and to the agreement between
//! indexes and their tables.
//!
//! What it proves, on one committed snapshot:
//! - every page verifies its checksum and the free list walks cleanly
//!   (`asadb_txn::Db::integrity_check`);
//! - the catalog tree and every table and index tree hold their invariants:
//!   key order, key bounds between parents and children, equal leaf depth,
//!   sane cells and overflow chains (`btree::Table::check` /
//!   `btree::Index::check`);
//! - page accounting: every page is the header, on the free list, or used
//!   by exactly one tree — no page leaked, none shared;
//! - every index holds exactly one entry per row of its table, with the
//!   key the row's values give.

use std::sync::Arc;

use asadb_pager::PageId;
use asadb_txn::ReadTxn;

use crate::btree::{Index, PageUsage, Table};
use crate::catalog::{IndexDef, Schema, TableDef};
use crate::exec::index::IndexKeys;
use crate::exec::{Context, ExecState, table_row};
use crate::keycode::encode_entry;
use crate::planner::Binder;
use crate::storage::{BtreeStore, Tx};
use crate::{Error, Result};

/// Most problems listed before the check stops looking.
const MAX_PROBLEMS: usize = 100;

/// What the check found.
#[derive(Clone, Debug, Default)]
pub struct IntegrityReport {
    /// Everything found wrong; empty when the database is sound.
    pub problems: Vec<String>,
    /// Pages in the database.
    pub pages: u32,
    /// Pages on the free list.
    pub free_pages: usize,
    /// Tables and indexes checked.
    pub tables: usize,
    pub indexes: usize,
    /// Rows over all tables.
    pub rows: u64,
}

impl IntegrityReport {
    /// True when no problem was found.
    pub fn is_ok(&self) -> bool {
        self.problems.is_empty()
    }

    fn problem(&mut self, what: impl Into<String>) {
        if self.problems.len() < MAX_PROBLEMS {
            self.problems.push(what.into());
        }
    }
}

/// Checks the database behind `db`. Errors only when the check itself
/// cannot run (e.g. IO); everything wrong with the data is a problem in
/// the report.
pub fn check(db: &asadb_txn::Db) -> Result<IntegrityReport> {
    // The page-level report and the tree walk must see the same commit:
    // retry if a writer committed in between.
    for _ in 0..10 {
        let pages = db.integrity_check()?;
        let tx = db.begin_read()?;
        if tx.change_counter() != pages.header.change_counter {
            continue;
        }
        let mut report = IntegrityReport {
            pages: pages.header.page_count,
            free_pages: pages.free_pages.len(),
            ..IntegrityReport::default()
        };
        for p in &pages.problems {
            report.problem(format!("page {}: {}", p.page, p.reason));
        }
        if !report.is_ok() {
            // Trees over corrupt pages would only repeat the same problems.
            return Ok(report);
        }
        let tx2 = db.begin_read()?;
        if tx2.change_counter() != tx.change_counter() {
            continue;
        }
        let store = BtreeStore::new(Tx::Read(tx2));
        let schema = match Schema::load(&store) {
            Ok(s) => s,
            Err(e) => {
                report.problem(format!("catalog: {e}"));
                return Ok(report);
            }
        };
        check_trees(&tx, &store, &schema, &pages.free_pages, &mut report)?;
        return Ok(report);
    }
    Err(Error::InvalidInput("the database kept changing during the integrity check".into()))
}

fn check_trees(
    tx: &ReadTxn,
    store: &BtreeStore,
    schema: &Schema,
    free: &[PageId],
    report: &mut IntegrityReport,
) -> Result<()> {
    use asadb_txn::PageRead;
    let mut usage = PageUsage::new();
    let header = tx.header();
    if header.catalog_root != 0 {
        let cat = Table::open(PageId(header.catalog_root));
        if let Err(e) = cat.check(tx, &mut usage) {
            report.problem(format!("catalog tree: {e}"));
        }
    }
    for t in schema.tables.values() {
        report.tables += 1;
        match Table::open(PageId(t.root)).check(tx, &mut usage) {
            Ok(stats) => report.rows += stats.entries,
            Err(e) => report.problem(format!("table {}: {e}", t.name)),
        }
    }
    for ix in schema.indexes.values() {
        report.indexes += 1;
        match Index::open(PageId(ix.root)).check(tx, &mut usage) {
            Ok(stats) => {
                let Some(t) = schema.table(&ix.table) else {
                    report.problem(format!("index {} is on missing table {}", ix.name, ix.table));
                    continue;
                };
                let r = index_matches_table(tx, store, schema, t, ix, stats.entries, report);
                if let Err(e) = r {
                    report.problem(format!("index {}: {e}", ix.name));
                }
            }
            Err(e) => report.problem(format!("index {}: {e}", ix.name)),
        }
    }
    if report.is_ok()
        && let Err(e) = usage.account(free, header.page_count)
    {
        report.problem(format!("page accounting: {e}"));
    }
    Ok(())
}

/// Every row of `t` has its entry in `ix` (the key `exec::index` makes;
/// none for a row a partial index leaves out), and `ix` has no other
/// entry.
fn index_matches_table(
    tx: &ReadTxn,
    store: &BtreeStore,
    schema: &Schema,
    t: &Arc<TableDef>,
    ix: &Arc<IndexDef>,
    entries: u64,
    report: &mut IntegrityReport,
) -> Result<()> {
    let index = Index::open(PageId(ix.root));
    let mut b = Binder::new(schema, store);
    let keys = IndexKeys::new(&mut b, t, ix)?;
    let cache = ExecState::default();
    let cx = Context::new(store, &[], &cache);
    let mut cur = Table::open(PageId(t.root)).cursor(tx);
    let mut rows = 0u64;
    let mut key = Vec::new();
    let mut ok = cur.first()?;
    while ok {
        let rowid = cur.rowid();
        let row = table_row(t, rowid, cur.values()?);
        if let Some(values) = keys.key(&row, &cx)? {
            key.clear();
            encode_entry(&values, &ix.desc, rowid, &mut key);
            if !index.contains(tx, &key)? {
                report.problem(format!(
                    "index {} is missing the entry of row {rowid} of {}",
                    ix.name, t.name
                ));
            }
            rows += 1;
        }
        ok = cur.next()?;
    }
    if rows != entries {
        report.problem(format!(
            "index {} has {entries} entries but table {} has {rows} rows it holds",
            ix.name, t.name
        ));
    }
    Ok(())
}
