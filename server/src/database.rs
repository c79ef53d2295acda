//! Opening a database file, the one way both `asadb serve` (its
//! `DIR/asadb.db`) and `asadb check --db FILE` do it — so a debug-only
//! fault hook applies to every database the binary opens.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::error::Result;

/// Opens the database at `path` with the default options, through the
/// full-disk fault hook when it is set (see [`test_full_disk_marker`]).
pub fn open(path: &Path) -> Result<asadb::Database> {
    Ok(match test_full_disk_marker() {
        Some(marker) => asadb::Database::open_full_while(
            path,
            asadb::Options::default(),
            Arc::new(move || marker.exists()),
        )?,
        None => asadb::Database::open_with(path, asadb::Options::default())?,
    })
}

/// Test hook (debug builds only): with `ASADB_TEST_FULL_DISK_MARKER=PATH`
/// every write and sync of the database fails with `ENOSPC` while `PATH`
/// exists — a full disk where the test cannot mount a small file system.
fn test_full_disk_marker() -> Option<PathBuf> {
    if cfg!(debug_assertions) {
        std::env::var_os("ASADB_TEST_FULL_DISK_MARKER").filter(|m| !m.is_empty()).map(PathBuf::from)
    } else {
        None
    }
}
