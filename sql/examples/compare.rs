//! Statements side by side on SQLite and AsaDB (both stores): a tool for
//! chasing a difference the fuzzer found.
//!
//! `cargo run -p asadb-sql --example compare < case.sql` reads statements
//! from stdin — one per line, or a saved fuzzer case (statements between
//! `----` lines, `--` comment lines skipped) — runs each on SQLite and on
//! AsaDB's memory and B+tree stores, and prints every result, marking the
//! statements whose results differ.
//!
//! With file arguments (saved cases), replays each and prints one line per
//! file: `ok`, or the class of its first difference.

#[path = "../tests/fuzz/mod.rs"]
mod fuzz;

use std::io::Read;

fn main() {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if !files.is_empty() {
        for f in files {
            let text = std::fs::read_to_string(&f).expect("case file");
            match fuzz::run::run_session(&split(&text)) {
                None => println!("ok {f}"),
                Some(m) => {
                    println!("{:?} {f} at {}: {}", m.class, m.at, m.detail.replace('\n', " "))
                }
            }
        }
        return;
    }
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).expect("stdin");
    let stmts = split(&input);
    let mut engines = fuzz::run::Engines::new();
    for sql in stmts.iter().map(|s| s.trim()).filter(|s| !s.is_empty()) {
        let (want, got) = engines.results(sql);
        let want_s = fuzz::run::show(&want);
        let differs = got.iter().any(|(_, g)| fuzz::run::show(g) != want_s);
        println!("{} {sql}", if differs { "!!" } else { "==" });
        println!("   sqlite: {want_s}");
        for (store, g) in &got {
            let g = fuzz::run::show(g);
            if g != want_s {
                println!("   {store}: {g}");
            }
        }
    }
}

/// Statements of a saved case (between `----` lines) or one per line.
fn split(input: &str) -> Vec<String> {
    if input.contains("\n----\n") {
        fuzz::cases::parse(input)
    } else {
        input
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with("--"))
            .map(String::from)
            .collect()
    }
}
