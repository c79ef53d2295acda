//! `asadb reservoir reconcile|caps`: operator commands on a PostgreSQL
//! backend (docs/scale-out.md), run without a server.
//!
//! - `reconcile` rebuilds the capacity counters from the durable per-job
//!   rows (as every `serve` start does) and prints them before and after;
//!   safe while front-ends run;
//! - `caps` prints the global caps and counters, or sets the caps.

use clap::{Args, Subcommand};

use crate::error::{Error, Result};

/// `asadb reservoir …`
#[derive(Args, Debug)]
pub struct ReservoirArgs {
    #[command(subcommand)]
    pub command: ReservoirCommand,
}

#[derive(Subcommand, Debug)]
pub enum ReservoirCommand {
    /// Rebuild the backend's capacity counters from its durable job rows
    Reconcile(BackendArgs),
    /// Show the backend's global caps and counters, or set the caps
    Caps(CapsArgs),
}

/// Which backend.
#[derive(Args, Debug)]
pub struct BackendArgs {
    /// postgres://USER@HOST:PORT/DB
    #[arg(long, value_name = "URL", env = "ASADB_BACKEND")]
    pub backend: String,
    /// The password, first line of this file (when neither the URL nor PGPASSWORD has one)
    #[arg(long, value_name = "FILE")]
    pub backend_password_file: Option<std::path::PathBuf>,
    /// A PEM root certificate to verify the server against (with sslmode=prefer|require)
    #[arg(long, value_name = "FILE")]
    pub backend_ca_file: Option<std::path::PathBuf>,
    /// The engine-owned schema [default: asadb]
    #[arg(long, value_name = "NAME")]
    pub backend_schema: Option<String>,
}

#[derive(Args, Debug)]
pub struct CapsArgs {
    #[command(flatten)]
    pub backend: BackendArgs,
    /// Set the global cap on active jobs
    #[arg(long, value_name = "N")]
    pub max_jobs: Option<u64>,
    /// Set the global cap on reserved spool bytes
    #[arg(long, value_name = "N")]
    pub max_spool_bytes: Option<u64>,
}

fn pg_config(b: &BackendArgs) -> asadb_reservoir_pg::PgConfig {
    let mut cfg = asadb_reservoir_pg::PgConfig::new(b.backend.clone());
    cfg.password_file = b.backend_password_file.clone();
    cfg.ca_file = b.backend_ca_file.clone();
    if let Some(s) = &b.backend_schema {
        cfg.schema = s.clone();
    }
    cfg
}

fn line(what: &str, c: &asadb_reservoir_pg::Capacity) -> String {
    format!(
        "{what}: active jobs {} of {}, spool bytes {} of {}",
        c.active_jobs, c.max_jobs, c.spool_bytes, c.max_spool_bytes
    )
}

pub fn run(args: ReservoirArgs) -> Result<std::process::ExitCode> {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let backend_error = |e: asadb::reservoir::Error| Error::Config(format!("backend: {e}"));
    match args.command {
        ReservoirCommand::Reconcile(b) => {
            let cfg = pg_config(&b);
            let (before, after) =
                rt.block_on(asadb_reservoir_pg::admin::reconcile(&cfg)).map_err(backend_error)?;
            println!("{}", line("before", &before));
            println!("{}", line("after", &after));
        }
        ReservoirCommand::Caps(c) => {
            let cfg = pg_config(&c.backend);
            let cap = rt
                .block_on(asadb_reservoir_pg::admin::caps(&cfg, c.max_jobs, c.max_spool_bytes))
                .map_err(backend_error)?;
            println!("{}", line("caps", &cap));
        }
    }
    Ok(std::process::ExitCode::SUCCESS)
}
