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
//! writers go on meanwhile) into a new database in one write transaction,
//! written to a temporary file beside `file`, closed (checkpointed and
//! synced) and renamed onto `file`: an error (a full disk) or a crash
//! never leaves a partial `file` — an error removes the temporary file, a
//! crash may leave a `.<name>.vacuum-*` file behind, never `file` itself.
//! The source is only read. An existing non-empty `file` is refused
//! (`output file already exists`), as SQLite does.
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
    vacuum_into_with(src, path, |p| Ok(Db::open(p, Options::default())?))
}

/// [`vacuum_into`] with the output opened by `open` (the fault tests wrap
/// its files). The copy is written to a temporary file beside `path`
/// (`.<name>.vacuum-<pid>-<n>`), closed (checkpointed, synced), renamed
/// onto `path` and the directory synced: `path` appears whole or not at
/// all, and every failure removes the temporary file and its log.
fn vacuum_into_with(
    src: &dyn RowStore,
    path: &Path,
    open: impl FnOnce(&Path) -> Result<Db>,
) -> Result<()> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    if std::fs::metadata(path).is_ok_and(|m| m.len() > 0) {
        return Err(Error::InvalidInput("output file already exists".into()));
    }
    let name = path
        .file_name()
        .ok_or_else(|| Error::InvalidInput(format!("not a file name: {}", path.display())))?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".vacuum-{}-{n}", std::process::id()));
    let tmp = dir.join(tmp_name);
    let tmp_wal = asadb_txn::wal_path(&tmp);
    let run = || -> Result<()> {
        let out = open(&tmp)?;
        let dst = BtreeStore::new(Tx::Write(out.begin_write()?));
        copy_database(src, &dst)?;
        dst.commit()?;
        out.close()?;
        drop(out);
        // Checkpointed and closed: the log holds nothing the file lacks.
        std::fs::remove_file(&tmp_wal)?;
        std::fs::rename(&tmp, path)?;
        std::fs::File::open(dir)?.sync_all()?;
        Ok(())
    };
    let result = run();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
        let _ = std::fs::remove_file(&tmp_wal);
    }
    result
}

/// `VACUUM` of `db`. Answers whether the database was rebuilt.
pub fn vacuum(db: &Db) -> Result<bool> {
    let dir = tempfile::tempdir()?;
    vacuum_with(db, || {
        let scratch_opts = Options {
            synchronous: asadb_txn::Synchronous::Off,
            checkpoint_frames: 0,
            ..Options::default()
        };
        Ok(Db::open(&dir.path().join("vacuum.db"), scratch_opts)?)
    })
}

/// [`vacuum`] with the scratch database opened by `scratch` (the fault
/// tests wrap its files). A failure while the scratch is written — a full
/// temporary disk — fails the VACUUM before the database is touched: its
/// write transaction rolls back.
fn vacuum_with(db: &Db, scratch: impl FnOnce() -> Result<Db>) -> Result<bool> {
    let main = BtreeStore::new(Tx::Write(db.begin_write()?));
    let scratch = scratch()?;
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
        // Nothing to shrink: only the cookie changes, as every VACUUM
        // changes SQLite's.
        main.commit()?;
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use asadb_pager::{Fault, FaultPlan, FaultyIo, FileIo};

    use super::*;
    use crate::session::{Engine, Outcome, Params};

    /// `VACUUM` whose scratch copy fails at any IO call (a full or failing
    /// temporary disk) fails cleanly: the database keeps every row, its
    /// pages and its integrity, and a later VACUUM works.
    #[test]
    fn a_failed_scratch_fails_vacuum_and_loses_nothing() {
        use asadb_pager::{Io, MemIo};
        let dir = tempfile::tempdir().unwrap();
        let eng = Engine::open(&dir.path().join("db"), Options::default()).unwrap();
        let mut s = eng.session();
        for sql in [
            "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)",
            "CREATE INDEX t_v ON t(v)",
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000) \
             INSERT INTO t SELECT x, printf('row %d', x) FROM c",
            "DELETE FROM t WHERE id % 3 = 0",
        ] {
            s.execute(sql, &Params::None).unwrap();
        }
        let contents = |s: &mut crate::session::Session| match s
            .execute("SELECT * FROM t ORDER BY id", &Params::None)
            .unwrap()
        {
            Outcome::Rows { rows, .. } => rows,
            o => panic!("{o:?}"),
        };
        let before = contents(&mut s);
        let db = eng.db().unwrap().clone();
        let pages = db.begin_read().unwrap().header().page_count;
        let scratch = |plan: Arc<FaultPlan>| {
            move || -> Result<Db> {
                let main: Arc<dyn Io> =
                    Arc::new(FaultyIo::new(Arc::new(MemIo::new()), plan.clone()));
                let wal: Arc<dyn Io> = Arc::new(FaultyIo::new(Arc::new(MemIo::new()), plan));
                Ok(Db::open_io(main, wal, Options::default())?)
            }
        };
        // Fail the scratch at its first call, its second, …, until a run
        // meets no fault: that one rebuilds the database.
        let mut k = 1;
        let rebuilt = 'runs: loop {
            for fault in [Fault::Enospc, Fault::Eio] {
                let plan = Arc::new(FaultPlan::fail_at(k, fault).sticky());
                match vacuum_with(&db, scratch(plan.clone())) {
                    Ok(rebuilt) => {
                        assert_eq!(plan.failures(), 0, "call {k} {fault:?}: a failure unnoticed");
                        break 'runs rebuilt;
                    }
                    Err(_) => {
                        assert_eq!(contents(&mut s), before, "call {k} {fault:?}");
                        let now = db.begin_read().unwrap().header().page_count;
                        assert_eq!(now, pages, "call {k} {fault:?}");
                        assert_eq!(
                            crate::integrity::check(&db).unwrap().problems,
                            Vec::<String>::new()
                        );
                    }
                }
            }
            k += 1;
        };
        assert!(k > 3, "the scratch made only {k} IO calls");
        assert!(rebuilt);
        assert_eq!(contents(&mut s), before);
        assert!(db.begin_read().unwrap().header().page_count < pages);
    }

    /// `VACUUM INTO` failing at any IO call of its output leaves no file
    /// behind: neither `path` nor the temporary copy or its log.
    #[test]
    fn a_failed_vacuum_into_leaves_no_file() {
        let eng = Engine::memory();
        let mut s = eng.session();
        for sql in [
            "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)",
            "CREATE INDEX t_v ON t(v)",
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000) \
             INSERT INTO t SELECT x, printf('row %d', x) FROM c",
        ] {
            s.execute(sql, &Params::None).unwrap();
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("copy.db");
        let opener = |plan: Arc<FaultPlan>| {
            move |p: &Path| -> Result<Db> {
                let main = Arc::new(FileIo::open(p)?);
                let wal = Arc::new(FileIo::open(&asadb_txn::wal_path(p))?);
                let main = Arc::new(FaultyIo::new(main, plan.clone()));
                let wal = Arc::new(FaultyIo::new(wal, plan));
                Ok(Db::open_io(main, wal, Options::default())?)
            }
        };
        let counting = Arc::new(FaultPlan::never());
        let t = eng.begin(false).unwrap();
        vacuum_into_with(&*t, &path, opener(counting.clone())).unwrap();
        t.rollback();
        let calls = counting.calls();
        assert!(calls > 10, "{calls} IO calls");
        let listing = || {
            let mut names: Vec<String> = std::fs::read_dir(dir.path())
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            names
        };
        assert_eq!(listing(), ["copy.db"]);
        let copy = Engine::open(&path, Default::default()).unwrap();
        match copy.session().execute("SELECT count(*) FROM t", &Params::None).unwrap() {
            Outcome::Rows { rows, .. } => assert_eq!(rows, vec![vec![crate::Value::Integer(3000)]]),
            o => panic!("{o:?}"),
        }
        drop(copy);
        std::fs::remove_file(&path).unwrap();
        let _ = std::fs::remove_file(dir.path().join("copy.db-wal"));
        for k in 1..=calls {
            for fault in [Fault::Enospc, Fault::Eio] {
                let plan = Arc::new(FaultPlan::fail_at(k, fault));
                let t = eng.begin(false).unwrap();
                let r = vacuum_into_with(&*t, &path, opener(plan.clone()));
                t.rollback();
                if r.is_ok() {
                    // A fault in a call whose failure is harmless (none
                    // expected): the copy must then be whole.
                    assert_eq!(plan.failures(), 0, "call {k}: a failed IO call went unnoticed");
                    std::fs::remove_file(&path).unwrap();
                    continue;
                }
                assert!(listing().is_empty(), "call {k} {fault:?}: left {:?}", listing());
            }
        }
    }
}
