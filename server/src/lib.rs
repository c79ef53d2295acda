//! `asadb`: the AsaDB server binary and its client subcommands.
//!
//! - `asadb serve` runs the HTTP API (token-guarded, loopback by default)
//!   over the Reservoir in a data directory, whose worker runs the jobs
//!   against `DIR/asadb.db`: see `serve` and `api`;
//! - `asadb submit FILE`, `asadb jobs`, `asadb cancel ID` talk to a running
//!   server: see `client`;
//! - `asadb check --db FILE` checks a database file: see `check`;
//! - `asadb sql --db FILE` is the embedded shell: see `shell`;
//! - `asadb reservoir reconcile|caps --backend URL` are operator commands
//!   on a PostgreSQL backend: see `reservoir_cmd`.
//! - `asadb export` and `asadb dump` write a table, a query or the whole
//!   database out: see `export`.
//!
//! `asadb serve` also serves the browser panel, a static page at `/`
//! that talks to the same API with the token: see `panel`. This crate
//! uses the `asadb` facade and, beside it, the PostgreSQL engine
//! (`asadb-reservoir-pg`, `serve --backend`; docs/scale-out.md). The HTTP
//! contract is `docs/api.md`. (The modules named here are private: read
//! them in `src/`, or with `cargo doc --document-private-items`.)
//!
//! The crate is a library with a thin binary (`src/main.rs` calls
//! [`run`]) so that its request rules can be reached from outside: the
//! [`fuzz`] module holds the body of the `headers` fuzz target (`fuzz/`),
//! which feeds arbitrary request heads through the very functions the
//! server uses to read them. Everything else is private to the crate.

mod api;
mod check;
mod client;
mod config;
mod database;
mod error;
mod events;
mod export;
mod formats;
mod framing;
pub mod fuzz;
mod import_opts;
mod metrics;
mod panel;
mod panel_media;
mod query;
mod repl;
mod reservoir_cmd;
mod schema;
mod serve;
mod shell;
mod token;
mod upload;

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// AsaDB: an embedded SQL database with a durable job queue.
#[derive(Parser, Debug)]
#[command(name = "asadb", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run the HTTP API server
    Serve(Box<config::ServeArgs>),
    /// Stream a SQL script to a server as a job and follow it
    Submit(client::SubmitArgs),
    /// List a server's active jobs
    Jobs(client::JobsArgs),
    /// Cancel a job
    Cancel(client::CancelArgs),
    /// Check a database file's integrity
    Check(check::CheckArgs),
    /// Run SQL on a database file (embedded shell; --jsonl for programs)
    Sql(shell::SqlArgs),
    /// Operator commands on a PostgreSQL backend (reconcile, caps)
    Reservoir(reservoir_cmd::ReservoirArgs),
    /// Export a table or a query's rows as CSV, TSV, JSON lines or SQL
    Export(export::ExportArgs),
    /// Write a whole database as a SQL script (loadable by sqlite3)
    Dump(export::DumpArgs),
}

/// Runs the `asadb` command line: parses the arguments, sets up logging to
/// stderr (`RUST_LOG`, default `info`) and runs the subcommand. The exit
/// status is 0 on success, 2 for a configuration or client error, 1 for
/// any other failure (whose message is printed to stderr).
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .init();
    let result = match cli.command {
        Command::Serve(args) => serve::run(*args).map(|()| ExitCode::SUCCESS),
        Command::Submit(args) => client::submit(args),
        Command::Jobs(args) => client::jobs(args),
        Command::Cancel(args) => client::cancel(args),
        Command::Check(args) => check::run(args),
        Command::Sql(args) => shell::run(args),
        Command::Reservoir(args) => reservoir_cmd::run(args),
        Command::Export(args) => export::run_export(args),
        Command::Dump(args) => export::run_dump(args),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("asadb: {err}");
            match err {
                error::Error::Config(_) | error::Error::Client(_) => ExitCode::from(2),
                _ => ExitCode::FAILURE,
            }
        }
    }
}
