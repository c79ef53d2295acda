//! The differential fuzzer for as long as asked:
//! `cargo bench -p asadb-sql --bench fuzz -- --seconds N` runs fresh seeds
//! against SQLite for N seconds (default 60), saves every shrunk failure
//! under `sql/tests/fuzz_cases/` (replayed by `tests/fuzz_sqlite.rs`), and
//! prints `N queries, N mismatches`. Exits non-zero on a mismatch.

#[path = "../tests/fuzz/mod.rs"]
mod fuzz;

fn main() {
    let mut seconds = 60;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--seconds" => match args.next().and_then(|s| s.parse().ok()) {
                Some(n) => seconds = n,
                None => {
                    eprintln!("--seconds needs a whole number");
                    std::process::exit(2);
                }
            },
            // cargo bench passes --bench; nothing else is ours.
            "--bench" => {}
            other => {
                eprintln!("unknown argument {other:?} (usage: --seconds N)");
                std::process::exit(2);
            }
        }
    }
    let t = fuzz::run_for(seconds);
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
