//! `asadb`: the AsaDB server binary and its client subcommands (see the `asadb_server` library).

use std::process::ExitCode;

fn main() -> ExitCode {
    asadb_server::run()
}
