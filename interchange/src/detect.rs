//! Format detection for imports that do not say their format: from the
//! first bytes of the body and the original file name.
//!
//! In order:
//! 1. a ZIP signature (`PK\3\4`) is a workbook: xlsx;
//! 2. a name ending in `.csv`, `.tsv`, `.tab`, `.psv` or `.txt` is csv;
//!    `.xlsx`/`.xlsm` is xlsx (and fails clearly if the bytes disagree);
//! 3. the marks the dump tools write: `-- MySQL dump`, `-- MariaDB dump`,
//!    `/*M!`, `/*!40101 SET` → mysql; `-- PostgreSQL database dump`, a
//!    `\restrict` line, `SET standard_conforming_strings`,
//!    `pg_catalog.set_config` → postgresql; `PRAGMA foreign_keys=OFF;`
//!    followed by `BEGIN TRANSACTION;` → sqlite;
//! 4. text whose first word (after comments) is an SQL statement keyword
//!    is sql;
//! 5. text whose first lines agree on a delimiter is csv;
//! 6. anything else is sql (the engine then says what is wrong with it).

use crate::Format;

/// How many bytes of the body [`detect`] wants to see (it works with
/// fewer).
pub const DETECT_BYTES: usize = 64 * 1024;

/// Statement keywords that start a plain SQL script.
const SQL_WORDS: &[&str] = &[
    "ALTER",
    "ANALYZE",
    "ATTACH",
    "BEGIN",
    "COMMIT",
    "COPY",
    "CREATE",
    "DELETE",
    "DETACH",
    "DROP",
    "END",
    "EXPLAIN",
    "INSERT",
    "PRAGMA",
    "REINDEX",
    "RELEASE",
    "REPLACE",
    "ROLLBACK",
    "SAVEPOINT",
    "SELECT",
    "UPDATE",
    "VACUUM",
    "VALUES",
    "WITH",
    "SET",
    "START",
    "LOCK",
    "UNLOCK",
    "USE",
    "GRANT",
    "REVOKE",
    "COMMENT",
    "TRUNCATE",
];

/// The format of a body starting with `head`, named `original_name`.
pub fn detect(head: &[u8], original_name: Option<&str>) -> Format {
    if head.starts_with(b"PK\x03\x04") {
        return Format::Xlsx;
    }
    let ext = original_name
        .and_then(|n| n.rsplit(['/', '\\']).next())
        .and_then(|n| n.rsplit_once('.'))
        .map(|(_, e)| e.to_ascii_lowercase());
    match ext.as_deref() {
        Some("csv" | "tsv" | "tab" | "psv" | "txt") => return Format::Csv,
        Some("xlsx" | "xlsm") => return Format::Xlsx,
        _ => {}
    }
    if head.starts_with(&[0xFF, 0xFE]) || head.starts_with(&[0xFE, 0xFF]) {
        return Format::Csv;
    }
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let text = String::from_utf8_lossy(head);
    if text.contains("-- MySQL dump")
        || text.contains("-- MariaDB dump")
        || text.starts_with("/*M!")
        || text.contains("/*!40101 SET")
        || text.contains("/*!40014 SET")
    {
        return Format::Mysql;
    }
    if text.contains("-- PostgreSQL database dump")
        || text.lines().any(|l| l.starts_with("\\restrict ") || l.starts_with("\\connect "))
        || text.contains("SET standard_conforming_strings")
        || text.contains("pg_catalog.set_config(")
    {
        return Format::Postgresql;
    }
    let body = skip_comments(&text);
    if body.starts_with("PRAGMA foreign_keys=OFF;")
        && body["PRAGMA foreign_keys=OFF;".len()..].trim_start().starts_with("BEGIN TRANSACTION;")
    {
        return Format::Sqlite;
    }
    let word: String = body.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
    if SQL_WORDS.iter().any(|w| w.eq_ignore_ascii_case(&word)) {
        return Format::Sql;
    }
    if looks_delimited(&text) {
        return Format::Csv;
    }
    Format::Sql
}

/// The text after leading whitespace and SQL comments.
fn skip_comments(mut s: &str) -> &str {
    loop {
        s = s.trim_start();
        if let Some(rest) = s.strip_prefix("--") {
            s = rest.split_once('\n').map_or("", |(_, r)| r);
        } else if let Some(rest) = s.strip_prefix("/*") {
            s = rest.split_once("*/").map_or("", |(_, r)| r);
        } else {
            return s;
        }
    }
}

/// At least two lines, and one delimiter that occurs the same non-zero
/// number of times on (nearly) every one of the first lines.
fn looks_delimited(text: &str) -> bool {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).take(20).collect();
    // The last line of a partial head may be cut.
    let lines = if lines.len() > 2 { &lines[..lines.len() - 1] } else { &lines[..] };
    if lines.len() < 2 {
        return false;
    }
    [',', ';', '\t', '|'].iter().any(|&d| {
        let counts: Vec<usize> = lines.iter().map(|l| l.matches(d).count()).collect();
        let first = counts[0];
        first > 0 && counts.iter().filter(|&&c| c == first).count() * 10 >= counts.len() * 8
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_told_apart() {
        assert_eq!(detect(b"PK\x03\x04....", Some("a.csv")), Format::Xlsx);
        assert_eq!(detect(b"id,name\n1,x\n", Some("data.csv")), Format::Csv);
        assert_eq!(detect(b"CREATE TABLE t(a);", Some("data.csv")), Format::Csv);
        assert_eq!(detect(b"/*M!999999\\- enable the sandbox mode */\n", None), Format::Mysql);
        assert_eq!(detect(b"-- MySQL dump 10.13\n", Some("x.sql")), Format::Mysql);
        assert_eq!(
            detect(b"--\n-- PostgreSQL database dump\n--\n\n\\restrict abc\n", None),
            Format::Postgresql
        );
        assert_eq!(
            detect(b"PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\nCREATE TABLE t(a);", None),
            Format::Sqlite
        );
        assert_eq!(detect(b"-- load\nINSERT INTO t VALUES (1);", None), Format::Sql);
        assert_eq!(detect(b"  select 1", None), Format::Sql);
        assert_eq!(detect(b"a;b;c\n1;2;3\n4;5;6\n", None), Format::Csv);
        assert_eq!(detect(b"", None), Format::Sql);
        assert_eq!(detect(b"garbage", None), Format::Sql);
    }
}
