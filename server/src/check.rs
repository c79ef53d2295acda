//! `asadb check --db FILE`: the integrity check of a database file.
//!
//! Runs the page layer's check at the latest commit (header, every page's
//! checksum, the free list) and prints every problem found. Exit status 0
//! when the file is sound, 1 when a problem was found. The SQL layer's
//! tree checks are not part of it yet. Run it on a database that no server
//! has open: opening recovers the write-ahead log like any open does.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::error::{Error, Result};

/// `asadb check`'s arguments.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The database file (e.g. ./asadb-data/asadb.db)
    #[arg(long, value_name = "FILE")]
    pub db: PathBuf,
}

/// Checks the file and reports.
pub fn run(args: CheckArgs) -> Result<ExitCode> {
    // Opening a missing path would create a database: refuse instead.
    if !args.db.is_file() {
        return Err(Error::Config(format!("{} is not a database file", args.db.display())));
    }
    let db = asadb::Database::open_with(&args.db, asadb::Options::default())?;
    let engine = db.engine();
    let pages =
        engine.db().ok_or_else(|| Error::Internal("the database has no page file".into()))?;
    let report =
        pages.integrity_check().map_err(|e| asadb::Error::from(asadb::sql::Error::from(e)))?;
    let total = report.header.page_count;
    if report.is_ok() {
        println!("ok: {} — {total} pages, {} free", args.db.display(), report.free_pages.len());
    } else {
        for p in &report.problems {
            println!("page {}: {}", p.page, p.reason);
        }
        println!("{} problem(s) in {}", report.problems.len(), args.db.display());
    }
    drop(engine);
    db.close()?;
    Ok(if report.is_ok() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
