//! `asadb check --db FILE`: the integrity check of a database file.
//!
//! Runs the engine's whole check at the latest commit — header, every
//! page's checksum, the free list, every B+tree's invariants, page
//! accounting, and every index against its table — and prints every
//! problem found. Exit status 0 when the file is sound, 1 when a problem
//! was found. Run it on a database that no server has open: opening
//! recovers the write-ahead log like any open does, and closing
//! checkpoints it, so the check needs the disk to be writable: on a full
//! disk it fails (exit 1, the error on stderr) and never prints `ok`.

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
    let db = crate::database::open(&args.db)?;
    let engine = db.engine();
    let report = engine.integrity_check().map_err(asadb::Error::from)?;
    // Close before printing: closing can still fail (a checkpoint on a full
    // disk), and `ok` must never be followed by an error.
    drop(engine);
    db.close()?;
    if report.is_ok() {
        println!(
            "ok: {} — {} pages, {} free, {} tables, {} indexes, {} rows",
            args.db.display(),
            report.pages,
            report.free_pages,
            report.tables,
            report.indexes,
            report.rows
        );
    } else {
        for p in &report.problems {
            println!("{p}");
        }
        println!("{} problem(s) in {}", report.problems.len(), args.db.display());
    }
    Ok(if report.is_ok() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
