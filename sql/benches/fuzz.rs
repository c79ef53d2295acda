//! The differential fuzzer for as long as asked:
//! `cargo bench -p asadb-sql --bench fuzz -- --seconds N` runs fresh seeds
//! against SQLite for N seconds (default 60), saves every shrunk failure
//! under `sql/tests/fuzz_cases/` (replayed by `tests/fuzz_sqlite.rs`), and
//! prints `N queries, N mismatches`. Exits non-zero on a mismatch.
//! `--from S --count N` replays seeds S..S+N instead (nothing saved), as
//! `tests/fuzz_sqlite.rs` does with its fixed seeds.

#[path = "../tests/fuzz/mod.rs"]
mod fuzz;

/// The whole number after `flag`, or exit with usage.
fn number(args: &mut impl Iterator<Item = String>, flag: &str) -> u64 {
    match args.next().and_then(|s| s.parse().ok()) {
        Some(n) => n,
        None => {
            eprintln!("{flag} needs a whole number");
            std::process::exit(2);
        }
    }
}

fn main() {
    let mut seconds = 60;
    let mut from: Option<u64> = None;
    let mut count = 100;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--seconds" => seconds = number(&mut args, "--seconds"),
            "--from" => from = Some(number(&mut args, "--from")),
            "--count" => count = number(&mut args, "--count"),
            // cargo bench passes --bench; nothing else is ours.
            "--bench" => {}
            other => {
                eprintln!(
                    "unknown argument {other:?} (usage: --seconds N | --from SEED --count N)"
                );
                std::process::exit(2);
            }
        }
    }
    let t = match from {
        Some(s) => fuzz::run_seeds(s..s.saturating_add(count)),
        None => fuzz::run_for(seconds),
    };
    for f in &t.failures {
        println!("{f}\n");
    }
    for p in &t.saved {
        println!("saved {}", p.display());
    }
    println!("{}", t.summary());
    if !t.failures.is_empty() {
        std::process::exit(1);
    }
}
