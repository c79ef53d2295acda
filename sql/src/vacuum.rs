//! `VACUUM` and `VACUUM INTO 'file'`.
//!
//! Both start from [`copy_database`]: every catalog object, in catalog
//! order, written into an empty database — each tree rebuilt by inserting
//! its rows (and index entries) in key order, so pages come out full and
//! in order, the free list empty, and the catalog's `rootpage`s the new
//! roots. The header's settings (`user_version`, `application_id`) go
//! with it.
//!
//! `VACUUM INTO 'file'` copies a read snapshot (a consistent online copy:
//! writers go on meanwhile) into a new database at `file` in one write
//! transaction there, then closes it (checkpointed). A crash or a full
//! disk before that commit leaves an output with no commit, which opens
//! as an empty database; the source is only read. An existing non-empty
//! `file` is refused (`output file already exists`), as SQLite does.
//!
//! `VACUUM` (SQLite's method): holding the write lock, copy into a scratch
//! database in a temporary directory, then, in one write transaction of
//! the database itself, replace every page below the copy's page count
//! with the copy's page and cut the page count to it
//! (`WriteTxn::set_page_count`), the schema cookie bumped (every root
//! moved). That transaction commits through the log like any other —
//! its frames spill as the pool fills, so memory stays bounded — and a
//! crash or an IO error before its commit frame is durable leaves the old
//! database whole. The checkpoint that follows writes the pages into the
//! main file and truncates it to the new page count: that is when the
//! file shrinks (a checkpoint blocked by an old reader runs later).
//! When the copy would not be smaller, VACUUM changes nothing.
//! The in-memory store has no pages: VACUUM there does nothing (VACUUM
//! INTO writes a file all the same).

use std::ops::Bound;
use std::path::Path;

use asadb_pager::PageId;
use asadb_txn::{Db, Options, PageRead, PageWrite};

use crate::catalog::{self, IndexDef, Schema, TableDef};
use crate::storage::{BtreeStore, HeaderValue, KeyRange, RowStore, TreeKind, Tx};
use crate::{Error, Result};

/// Rows (or index entries) moved per cursor: no cursor stays open while
/// the destination is written.
const BATCH: usize = 512;

/// Writes every object of `src` into the empty database `dst`.
pub fn copy_database(src: &dyn RowStore, dst: &dyn RowStore) -> Result<()> {
    let schema = Schema::load(src)?;
    for r in catalog::catalog_rows(src)? {
        let root = match r.kind.as_str() {
            "table" => {
                let t = schema.must_table(&r.name)?;
                let root = dst.create_tree(TreeKind::Table)?;
                copy_rows(src, t, dst, root)?;
                root
            }
            "index" => {
                let ix = schema
                    .index(&r.name)
                    .ok_or_else(|| Error::Corrupt(format!("catalog: no index {}", r.name)))?;
                let root = dst.create_tree(TreeKind::Index)?;
                copy_entries(src, ix, dst, root)?;
                root
            }
            _ => 0,
        };
        let sql = (!r.sql.is_empty()).then_some(r.sql.as_str());
        catalog::add_entry(dst, &r.kind, &r.name, &r.tbl_name, root, sql)?;
    }
    for key in [HeaderValue::UserVersion, HeaderValue::ApplicationId] {
        dst.set_header_value(key, src.header_value(key)?)?;
    }
    Ok(())
}

fn copy_rows(src: &dyn RowStore, t: &TableDef, dst: &dyn RowStore, root: u32) -> Result<()> {
    let mut to = t.clone();
    to.root = root;
    let mut after = Bound::Unbounded;
    loop {
        let mut rows = Vec::with_capacity(BATCH);
        let mut cur = src.scan(t, (after, Bound::Unbounded), false)?;
        while rows.len() < BATCH
            && let Some(r) = cur.next()?
        {
            rows.push(r);
        }
        drop(cur);
        let Some(&(last, _)) = rows.last() else { return Ok(()) };
        after = Bound::Excluded(last);
        for (rowid, row) in rows {
            dst.insert(&to, rowid, &row)?;
        }
    }
}

fn copy_entries(src: &dyn RowStore, ix: &IndexDef, dst: &dyn RowStore, root: u32) -> Result<()> {
    let mut to = ix.clone();
    to.root = root;
    // Index entries are unique on (key, rowid): resume strictly after the
    // last one copied (a key prefix bound alone could repeat equal keys).
    let mut cur = src.scan_index(ix, KeyRange::all(), false)?;
    loop {
        let mut batch = Vec::with_capacity(BATCH);
        while batch.len() < BATCH
            && let Some(e) = cur.next()?
        {
            batch.push(e);
        }
        if batch.is_empty() {
            return Ok(());
        }
        for (key, rowid) in batch {
            dst.index_insert(&to, &key, rowid)?;
        }
    }
}

/// `VACUUM INTO path` from the snapshot `src`.
pub fn vacuum_into(src: &dyn RowStore, path: &Path) -> Result<()> {
    if std::fs::metadata(path).is_ok_and(|m| m.len() > 0) {
        return Err(Error::InvalidInput("output file already exists".into()));
    }
    let out = Db::open(path, Options::default())?;
    let run = || -> Result<()> {
        let dst = BtreeStore::new(Tx::Write(out.begin_write()?));
        copy_database(src, &dst)?;
        dst.commit()?;
        out.close()?;
        Ok(())
    };
    run()
}

/// `VACUUM` of `db`. Answers whether the database was rebuilt.
pub fn vacuum(db: &Db) -> Result<bool> {
    let main = BtreeStore::new(Tx::Write(db.begin_write()?));
    let dir = tempfile::tempdir()?;
    let scratch_opts = Options {
        synchronous: asadb_txn::Synchronous::Off,
        checkpoint_frames: 0,
        ..Options::default()
    };
    let scratch = Db::open(&dir.path().join("vacuum.db"), scratch_opts)?;
    {
        let dst = BtreeStore::new(Tx::Write(scratch.begin_write()?));
        copy_database(&main, &dst)?;
        dst.commit()?;
    }
    let copy = scratch.begin_read()?;
    let h = copy.header();
    let cookie = main.schema_cookie()? + 1;
    main.set_schema_cookie(cookie)?;
    let rebuilt = main.with_write_txn(|w| -> Result<bool> {
        if h.page_count >= w.header().page_count {
            return Ok(false);
        }
        w.set_page_count(h.page_count, h.freelist_head, h.freelist_count)?;
        for id in 1..h.page_count {
            let page = copy.page(PageId(id))?;
            w.put_page(PageId(id), &page)?;
        }
        w.set_catalog_root(PageId(h.catalog_root))?;
        Ok(true)
    })??;
    if !rebuilt {
        main.rollback();
        return Ok(false);
    }
    main.commit()?;
    drop(copy);
    drop(scratch);
    // The file shrinks when the new pages reach it. A checkpoint that
    // cannot run now (an old reader) runs later; an IO error latches the
    // database as any failed checkpoint does — the VACUUM is committed.
    let _ = db.checkpoint();
    Ok(true)
}
