//! Regression cases: one file per shrunk failure under
//! `sql/tests/fuzz_cases/`, statements separated by a line `----`; lines
//! starting with `--` before the first statement describe the case.

use std::path::{Path, PathBuf};

pub const SEPARATOR: &str = "\n----\n";

pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_cases")
}

/// The statements of a case file.
pub fn parse(text: &str) -> Vec<String> {
    text.split(SEPARATOR)
        .map(|s| {
            s.lines()
                .skip_while(|l| l.starts_with("-- "))
                .collect::<Vec<_>>()
                .join("\n")
                .trim()
                .to_string()
        })
        .filter(|s| !s.is_empty())
        .collect()
}

/// The text of a case file.
pub fn render(header: &str, stmts: &[String]) -> String {
    let mut s = String::new();
    for l in header.lines() {
        s.push_str("-- ");
        s.push_str(l);
        s.push('\n');
    }
    s.push_str(&stmts.join(SEPARATOR));
    s.push('\n');
    s
}

/// Saves a case named after its seed; returns the path.
pub fn save(seed: u64, header: &str, stmts: &[String]) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir())?;
    let path = dir().join(format!("seed-{seed:016x}.sql"));
    std::fs::write(&path, render(header, stmts))?;
    Ok(path)
}

/// Every case file, sorted by name.
pub fn all() -> Vec<(PathBuf, Vec<String>)> {
    let mut v: Vec<_> = std::fs::read_dir(dir())
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_else(|_| Vec::new());
    v.retain(|p: &PathBuf| p.extension().is_some_and(|e| e == "sql"));
    v.sort();
    v.into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("case file");
            (p, parse(&text))
        })
        .collect()
}
