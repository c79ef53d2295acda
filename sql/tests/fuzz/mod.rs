//! The differential fuzzer: seeded sessions of random schemas, edge
//! values, DML and queries, run statement by statement on SQLite (the
//! bundled `rusqlite`) and on AsaDB's two stores, every difference shrunk
//! to a minimal script and saved as a regression case.
//!
//! - [`session`] writes sessions; [`sql`] is the tree they are rendered from,
//!   which records simpler forms for the shrinker;
//! - [`run`] runs and compares ([`run::Class`] says what differed);
//! - [`shrink`] minimises a failing session;
//! - [`cases`] reads and writes the regression files under
//!   `tests/fuzz_cases/`, replayed by `tests/fuzz_sqlite.rs`.
//!
//! `cargo bench -p asadb-sql --bench fuzz -- --seconds N` runs it for as
//! long as asked and prints `N queries, N mismatches`.
#![allow(dead_code)]

pub mod cases;
pub mod run;
pub mod session;
pub mod shrink;
pub mod sql;

use run::Mismatch;

/// Statements per generated session (after its schema and rows).
pub const SESSION_LEN: usize = 40;

/// Outcome of one seed.
pub struct SeedReport {
    pub statements: usize,
    pub queries: usize,
    pub mismatch: Option<(Mismatch, Vec<String>)>,
}

/// Generates the session of `seed`, runs it, and shrinks a mismatch.
pub fn run_seed(seed: u64) -> SeedReport {
    let stmts = session::Gen::new(seed).session(SESSION_LEN);
    let text: Vec<String> = stmts.iter().map(sql::Sql::render).collect();
    let queries = text.iter().filter(|s| s.starts_with("SELECT")).count();
    match run::run_session(&text) {
        None => SeedReport { statements: text.len(), queries, mismatch: None },
        Some(m) => {
            let (small, m2) = shrink::shrink(stmts, m);
            SeedReport { statements: text.len(), queries, mismatch: Some((m2, small)) }
        }
    }
}
