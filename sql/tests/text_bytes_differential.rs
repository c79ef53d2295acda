//! TEXT is bytes, as in SQLite: text that is not valid UTF-8 (made by
//! `CAST(x'…' AS TEXT)`, `||` with a blob, `char()` of a surrogate) keeps
//! its bytes through storage (both stores, tables and indexes), every
//! text function, comparison, grouping, ordering and conversion back to
//! a blob.
//!
//! Invariant pinned: on each statement below, AsaDB's memory and B+tree
//! stores agree with SQLite (rusqlite, bundled) on rows — bytes of every
//! TEXT value and storage classes — rows affected and error vs success.
//! Until 2026-12-04 such text held U+FFFD replacements, so lengths,
//! `hex()`, comparisons and blobs made from it differed.

mod schema_common;

use schema_common::{Opts, check_script, check_script_both_orders};

const SETUP: &[&str] = &[
    "CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT, b, c TEXT COLLATE NOCASE, d TEXT COLLATE RTRIM)",
    "INSERT INTO t VALUES (1, CAST(x'41FF42' AS TEXT), CAST(x'FF' AS TEXT), CAST(x'C3' AS TEXT), CAST(x'61C320' AS TEXT))",
    "INSERT INTO t VALUES (2, CAST(x'C3A9' AS TEXT), CAST(x'80' AS TEXT), CAST(x'41C3' AS TEXT), CAST(x'61C3' AS TEXT))",
    "INSERT INTO t VALUES (3, CAST(x'4180' AS TEXT), CAST(x'E282' AS TEXT), CAST(x'61C3' AS TEXT), 'a')",
    "INSERT INTO t VALUES (4, CAST(x'F09F9880' AS TEXT), CAST(x'EDA080' AS TEXT), 'x', CAST(x'FE' AS TEXT))",
    "INSERT INTO t VALUES (5, CAST(x'C0AF' AS TEXT), CAST(x'00FF' AS TEXT), CAST(x'FF00' AS TEXT), '')",
    "INSERT INTO t VALUES (6, 'A' || x'FF', x'FF' || 'B', char(55296), CAST(x'F8888080' AS TEXT))",
    "INSERT INTO t VALUES (7, CAST(x'FFFE' AS TEXT), CAST(x'41FF42' AS TEXT), CAST(x'c3' AS TEXT), CAST(x'61C3' AS TEXT))",
    "CREATE INDEX t_a ON t(a)",
    "CREATE UNIQUE INDEX t_d ON t(d, id)",
    "CREATE TABLE u(k TEXT PRIMARY KEY, v) WITHOUT ROWID",
    "INSERT INTO u SELECT a, id FROM t",
    "INSERT INTO u VALUES (CAST(x'FF' AS TEXT), 'ff'), (CAST(x'FE' AS TEXT), 'fe')",
];

const QUERIES: &[&str] = &[
    "SELECT id, a, b, c, d FROM t ORDER BY id",
    "SELECT id, typeof(a), length(a), length(b), length(c), length(d) FROM t ORDER BY id",
    "SELECT id, octet_length(a), hex(a), hex(b), hex(c), hex(d) FROM t ORDER BY id",
    "SELECT id, CAST(a AS BLOB), CAST(b AS BLOB), CAST(a || b AS BLOB) FROM t ORDER BY id",
    "SELECT id, substr(a, 2), substr(a, 1, 1), substr(a, -1), substr(b, 2, 1), hex(substr(d, -2)) FROM t ORDER BY id",
    "SELECT id, hex(upper(a)), hex(lower(a)), hex(upper(c)), unicode(a), unicode(b) FROM t ORDER BY id",
    "SELECT id, instr(a, 'B'), instr(a, CAST(x'FF' AS TEXT)), instr(b, x'FF'), instr(a, '') FROM t ORDER BY id",
    "SELECT id, hex(trim(a, 'A')), hex(ltrim(b, CAST(x'FF' AS TEXT))), hex(rtrim(d)), hex(trim(d, CAST(x'C3' AS TEXT))) FROM t ORDER BY id",
    "SELECT id, hex(replace(a, CAST(x'FF' AS TEXT), 'y')), hex(replace(b, 'B', CAST(x'FE' AS TEXT))) FROM t ORDER BY id",
    "SELECT id, quote(a), hex(quote(b)), hex(printf('%s|%.1s|%!.1s|%q', a, b, a, c)) FROM t ORDER BY id",
    "SELECT id, a LIKE 'A%', a LIKE '_B', b GLOB '*B', a GLOB 'A?B', c LIKE 'a_' FROM t ORDER BY id",
    "SELECT id, a = CAST(x'41FF42' AS TEXT), a < b, c = 'A' || x'C3', d = 'a' || x'C3' FROM t ORDER BY id",
    "SELECT a, count(*) FROM t GROUP BY a ORDER BY a",
    "SELECT c, count(*) FROM t GROUP BY c ORDER BY 1",
    "SELECT d, count(*) FROM t GROUP BY d ORDER BY 1",
    "SELECT DISTINCT c FROM t",
    "SELECT DISTINCT d FROM t",
    "SELECT id FROM t ORDER BY b, id",
    "SELECT id FROM t ORDER BY c DESC, id",
    "SELECT id FROM t WHERE a = CAST(x'41FF42' AS TEXT)",
    "SELECT id FROM t WHERE a > CAST(x'C3' AS TEXT) ORDER BY id",
    "SELECT id FROM t WHERE a BETWEEN 'A' AND CAST(x'FF' AS TEXT) ORDER BY a",
    "SELECT id FROM t WHERE d = CAST(x'61C3' AS TEXT) ORDER BY id",
    "SELECT id FROM t WHERE a IN (CAST(x'FFFE' AS TEXT), CAST(x'C3A9' AS TEXT), 'A') ORDER BY id",
    "SELECT k, v FROM u ORDER BY k",
    "SELECT v FROM u WHERE k = CAST(x'FF' AS TEXT)",
    "SELECT group_concat(a, CAST(x'FF' AS TEXT)) FROM (SELECT a FROM t ORDER BY id)",
    "SELECT hex(group_concat(b, '')) FROM (SELECT b FROM t ORDER BY id)",
    "SELECT min(a), max(a), min(b), max(b) FROM t",
    "SELECT hex(a || b), typeof(a || b), length(a || b) FROM t ORDER BY id",
    "SELECT CAST(a AS INTEGER), CAST(b AS REAL), CAST(CAST(x'3132FF' AS TEXT) AS NUMERIC) FROM t ORDER BY id",
    "SELECT hex(char(55296)), length(char(55296, 65)), hex(CAST(char(56320) AS BLOB))",
    "SELECT t1.id, t2.id FROM t t1 JOIN t t2 ON t1.a = t2.b ORDER BY 1, 2",
    "SELECT id FROM t WHERE b IN (SELECT a FROM t) ORDER BY id",
    "SELECT a FROM t UNION SELECT b FROM t ORDER BY 1",
    "SELECT a FROM t INTERSECT SELECT b FROM t",
    "SELECT hex(x) FROM (SELECT CAST(x'41FF' AS TEXT) AS x UNION ALL SELECT CAST(x'41FE' AS TEXT)) ORDER BY x",
    "SELECT hex(json_quote(CAST(x'41FF42' AS TEXT))), hex(json_array(a, b)) FROM t ORDER BY id",
    "SELECT json_valid(CAST(x'22FF22' AS TEXT)), hex(json(CAST(x'22C3A922' AS TEXT)))",
    "SELECT hex(json_extract(json_object('k', a), '$.k')) FROM t ORDER BY id",
    "SELECT hex(v) FROM (SELECT group_concat(a ORDER BY a DESC) AS v FROM t)",
    "SELECT hex(format('%-6s|%6.2s|%c', a, b, a)) FROM t ORDER BY id",
    "SELECT hex(unistr(CAST(x'5C3030343141FF' AS TEXT)))",
    "SELECT id, hex(soundex(a)), soundex(c), soundex(d) FROM t ORDER BY id",
    "SELECT soundex('Robert'), soundex('Rupert'), soundex('Tymczak'), soundex('Pfister'), soundex('Honeyman')",
    "SELECT soundex(''), soundex(NULL), soundex('123'), soundex(' ashcraft'), soundex(x'C3'), soundex(42), soundex('a' || x'00' || 'bc')",
    "SELECT hex(CAST(x'FF' AS TEXT) COLLATE NOCASE), CAST(x'41FF' AS TEXT) = CAST(x'61FF' AS TEXT) COLLATE NOCASE",
    "UPDATE t SET b = b || CAST(x'FF' AS TEXT) WHERE length(b) = 1",
    "DELETE FROM t WHERE a LIKE 'A%'",
    "SELECT id, hex(a), hex(b) FROM t ORDER BY id",
    "PRAGMA integrity_check",
];

#[test]
fn invalid_utf8_text_keeps_its_bytes_like_sqlite() {
    let script: Vec<&str> = SETUP.iter().chain(QUERIES).copied().collect();
    check_script_both_orders(&script);
}

/// The same text through a file: the B+tree store writes the bytes in
/// records and index keys and reads them back unchanged after VACUUM.
#[test]
fn invalid_utf8_text_survives_vacuum() {
    let mut script: Vec<&str> = SETUP.to_vec();
    script.extend(["VACUUM", "SELECT id, hex(a), hex(b), hex(c), hex(d) FROM t ORDER BY id"]);
    script.extend(["SELECT id FROM t WHERE a = CAST(x'4180' AS TEXT)", "PRAGMA integrity_check"]);
    check_script(&script, Opts { sorted: false, messages: true });
}
