//! The reference [`Engine`]: SQLite through rusqlite (bundled), one fresh
//! in-memory database per file. It exists to validate the runner itself:
//! every corpus file must pass on it.

use rusqlite::Connection;
use rusqlite::types::ValueRef;

use super::render::SltValue;
use super::runner::Engine;

pub struct SqliteEngine {
    conn: Connection,
}

impl SqliteEngine {
    pub fn new() -> rusqlite::Result<Self> {
        Ok(Self { conn: Connection::open_in_memory()? })
    }
}

impl Engine for SqliteEngine {
    fn statement(&mut self, sql: &str) -> Result<(), String> {
        // A record may hold several statements, as with `sqlite3_exec`.
        self.conn.execute_batch(sql).map_err(|e| e.to_string())
    }

    fn query(&mut self, sql: &str) -> Result<Vec<Vec<SltValue>>, String> {
        let mut stmt = self.conn.prepare(sql).map_err(|e| e.to_string())?;
        let width = stmt.column_count();
        let mut rows = stmt.raw_query();
        let mut out = Vec::new();
        // A runtime error (e.g. integer overflow in sum()) ends the rows.
        while let Ok(Some(row)) = rows.next() {
            let values = (0..width)
                .map(|i| row.get_ref(i).map(to_slt).map_err(|e| e.to_string()))
                .collect::<Result<_, _>>()?;
            out.push(values);
        }
        Ok(out)
    }
}

fn to_slt(value: ValueRef<'_>) -> SltValue {
    match value {
        ValueRef::Null => SltValue::Null,
        ValueRef::Integer(i) => SltValue::Integer(i),
        ValueRef::Real(r) => SltValue::Real(r),
        // SQLite text is UTF-8 unless a program stored otherwise.
        ValueRef::Text(t) => SltValue::Text(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Blob(b) => SltValue::Blob(b.to_vec()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::slt::printf::{format_fixed3, real_to_text};
    use crate::slt::render::text_to_i64;

    /// Doubles across magnitudes, with exact ties and near-ties for rounding.
    fn sample_doubles() -> Vec<f64> {
        let mut out = vec![0.0, -0.0, 1.0, -1.0, 0.1 + 0.2, 1e15, 1e-5, 9.9995, 999.9995];
        out.extend((0..2000).map(|n| f64::from(n) / 16.0 - 50.0));
        out.extend((0..2000).map(|n| f64::from(n) / 2000.0 - 0.5));
        out.extend([i64::MAX, i64::MIN, -(1 << 53) - 1, 1 << 62].map(|i| i as f64));
        out.extend([5e-324, 2.2250738585072014e-308, f64::MAX, f64::MIN_POSITIVE / 3.0]);
        // xorshift64: reproducible without a dependency.
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        // Magnitudes where results live, then any finite double at all.
        for i in 0..4000 {
            let r = next();
            let mantissa = (r >> 11) as f64 / (1u64 << 53) as f64;
            let sign = if r & 1 == 0 { 1.0 } else { -1.0 };
            out.push(sign * mantissa * 10f64.powi(i % 50 - 20));
        }
        out.extend((0..8000).map(|_| f64::from_bits(next())).filter(|x| x.is_finite()));
        out
    }

    #[test]
    fn real_rendering_matches_sqlite_printf() {
        let conn = Connection::open_in_memory().expect("open");
        let mut stmt =
            conn.prepare("SELECT printf('%.3f', ?1), CAST(?1 AS TEXT)").expect("prepare");
        let mut checked = 0;
        for x in sample_doubles() {
            let (fixed, text): (String, String) =
                stmt.query_row([x], |r| Ok((r.get(0)?, r.get(1)?))).expect("query");
            assert_eq!(format_fixed3(x), fixed, "%.3f of {x:e}");
            assert_eq!(real_to_text(x), text, "text of {x:e}");
            checked += 1;
        }
        assert!(checked > 15000);
    }

    #[test]
    fn text_to_integer_matches_sqlite_cast() {
        let conn = Connection::open_in_memory().expect("open");
        let mut stmt = conn.prepare("SELECT CAST(?1 AS INTEGER)").expect("prepare");
        let cases = [
            "",
            "0",
            "42",
            "  42",
            "-17",
            "+5",
            "12abc",
            "3.99",
            "-3.99",
            "1e5",
            "abc",
            " - 3",
            "007",
            "9223372036854775807",
            "9223372036854775808",
            "-9223372036854775808",
            "-9223372036854775809",
            "123456789012345678901234",
        ];
        for case in cases {
            let cast: i64 = stmt.query_row([case], |r| r.get(0)).expect("query");
            assert_eq!(text_to_i64(case.as_bytes()), cast, "{case:?}");
        }
    }
}
