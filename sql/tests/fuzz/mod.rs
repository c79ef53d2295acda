//! The differential fuzzer: seeded sessions of random schemas, edge
//! values, DML and queries, run statement by statement on SQLite (the
//! bundled `rusqlite`) and on AsaDB's two stores, every difference shrunk
//! to a minimal script and saved as a regression case.
//!
//! - [`session`] writes sessions ([`json`]: its JSON expressions and
//!   json_each/json_tree items); [`sql`] is the tree they are rendered from,
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
pub mod json;
pub mod run;
pub mod session;
pub mod shrink;
pub mod sql;

use std::time::{Duration, Instant};

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

/// A seed's failure as text (what differed, and the shrunk session), or
/// `None` when it agreed with SQLite.
pub fn describe(seed: u64, r: &SeedReport) -> Option<String> {
    let (m, stmts) = r.mismatch.as_ref()?;
    Some(format!(
        "seed {seed}: {:?} at statement {} ({} store)\n    {}\n  shrunk session:\n{}",
        m.class,
        m.at,
        m.store,
        m.detail,
        stmts.iter().map(|s| format!("    {s};")).collect::<Vec<_>>().join("\n")
    ))
}

/// Totals of a run over many seeds.
#[derive(Default)]
pub struct Totals {
    pub seeds: u64,
    pub statements: usize,
    pub queries: usize,
    /// Each failing seed's description (see [`describe`]).
    pub failures: Vec<String>,
    /// Where each failure's shrunk session was saved as a regression case.
    pub saved: Vec<std::path::PathBuf>,
}

impl Totals {
    /// The line the long runs print.
    pub fn summary(&self) -> String {
        format!(
            "{} queries, {} mismatches ({} seeds, {} statements)",
            self.queries,
            self.failures.len(),
            self.seeds,
            self.statements
        )
    }
}

/// Runs the given seeds (nothing saved): what CI and `--from` replay.
pub fn run_seeds(seeds: impl IntoIterator<Item = u64>) -> Totals {
    let mut t = Totals::default();
    for seed in seeds {
        let r = run_seed(seed);
        t.seeds += 1;
        t.statements += r.statements;
        t.queries += r.queries;
        if let Some(f) = describe(seed, &r) {
            t.failures.push(f);
        }
    }
    t
}

/// Runs fresh seeds (from the clock, consecutive) until `seconds` have
/// passed, saving every shrunk failure under `tests/fuzz_cases/` so the
/// replay test keeps it.
pub fn run_for(seconds: u64) -> Totals {
    let start = Instant::now();
    let base = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64);
    let mut t = Totals::default();
    let mut seed = base;
    while start.elapsed() < Duration::from_secs(seconds) {
        let r = run_seed(seed);
        t.seeds += 1;
        t.statements += r.statements;
        t.queries += r.queries;
        if let Some(f) = describe(seed, &r) {
            if let Some((_, stmts)) = &r.mismatch
                && let Ok(p) = cases::save(seed, &f, stmts)
            {
                t.saved.push(p);
            }
            t.failures.push(f);
        }
        seed = seed.wrapping_add(1);
    }
    t
}
