//! Rendering of result values into the strings that sqllogictest compares.
//!
//! An engine hands back typed [`SltValue`]s; this module turns each one into
//! text according to the column type the record declares, exactly as SQLite's
//! own harness does with its C API:
//!
//! - any NULL → `NULL`;
//! - `T` → the value as text (`sqlite3_column_text`): empty → `(empty)`, then
//!   every byte outside 0x20–0x7e becomes `@` (one `@` per byte, so a
//!   two-byte UTF-8 character gives `@@`); a REAL as SQLite turns it into
//!   text ([`real_to_text`]);
//! - `I` → `sqlite3_column_int` printed with `%d`: a 32-bit integer, so an
//!   INTEGER keeps its low 32 bits, a REAL is truncated toward zero
//!   (saturating at the i64 range first) and TEXT/BLOB take their leading
//!   integer prefix, as `sqlite3Atoi64` does;
//! - `R` → `sqlite3_column_double` printed with SQLite's own `%.3f`, which
//!   keeps at most 16 significant digits (hence `-9223372036854776000.000`).
//!
//! Numbers print as SQLite's printf prints them (see [`super::printf`]).
//!
//! Invariant: rendering depends only on the value and the declared type, never
//! on the engine, so every engine is judged by the same strings.

use std::fmt;

use super::printf::{format_fixed3, real_to_text};

/// One value of a result row, as an engine returns it.
#[derive(Debug, Clone, PartialEq)]
pub enum SltValue {
    Null,
    Integer(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

/// A column type letter of a `query` record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnType {
    /// `T`: text.
    Text,
    /// `I`: integer.
    Integer,
    /// `R`: floating point.
    Real,
}

impl ColumnType {
    /// The type for a letter of a `query` type string, if it is one.
    pub fn from_letter(c: char) -> Option<Self> {
        match c {
            'T' => Some(Self::Text),
            'I' => Some(Self::Integer),
            'R' => Some(Self::Real),
            _ => None,
        }
    }
}

impl fmt::Display for ColumnType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Text => "T",
            Self::Integer => "I",
            Self::Real => "R",
        })
    }
}

/// Renders `value` as the harness prints it for a column declared `ty`.
pub fn render(value: &SltValue, ty: ColumnType) -> String {
    if *value == SltValue::Null {
        return "NULL".to_owned();
    }
    match ty {
        ColumnType::Text => render_text(value),
        ColumnType::Integer => column_int(value).to_string(),
        ColumnType::Real => format_fixed3(column_double(value)),
    }
}

fn render_text(value: &SltValue) -> String {
    let bytes: Vec<u8> = match value {
        SltValue::Null => return "NULL".to_owned(),
        SltValue::Integer(i) => return i.to_string(),
        SltValue::Real(r) => return real_to_text(*r),
        SltValue::Text(s) => s.as_bytes().to_vec(),
        SltValue::Blob(b) => b.clone(),
    };
    // The C harness sees a NUL-terminated string: anything after a NUL is lost.
    let bytes = bytes.split(|&b| b == 0).next().unwrap_or_default();
    if bytes.is_empty() {
        return "(empty)".to_owned();
    }
    bytes.iter().map(|&b| if (0x20..=0x7e).contains(&b) { b as char } else { '@' }).collect()
}

/// `sqlite3_column_int`: the i64 conversion, then C's truncation to `int`.
fn column_int(value: &SltValue) -> i32 {
    let wide = match value {
        SltValue::Null => 0,
        SltValue::Integer(i) => *i,
        // `as` saturates at the i64 range and maps NaN to 0, like doubleToInt64.
        SltValue::Real(r) => *r as i64,
        SltValue::Text(s) => text_to_i64(s.as_bytes()),
        SltValue::Blob(b) => text_to_i64(b),
    };
    // Keeping the low 32 bits is what the C cast does.
    wide as i32
}

/// `sqlite3_column_double`.
fn column_double(value: &SltValue) -> f64 {
    match value {
        SltValue::Null => 0.0,
        SltValue::Integer(i) => *i as f64,
        SltValue::Real(r) => *r,
        SltValue::Text(s) => text_to_f64(s.as_bytes()),
        SltValue::Blob(b) => text_to_f64(b),
    }
}

/// The leading integer of a text, as `sqlite3Atoi64` reads it: optional
/// whitespace and sign, then digits; saturates on overflow; 0 if none.
pub fn text_to_i64(bytes: &[u8]) -> i64 {
    let mut rest = trim_leading_space(bytes);
    let negative = rest.first() == Some(&b'-');
    if matches!(rest.first(), Some(b'-' | b'+')) {
        rest = &rest[1..];
    }
    let digits = rest.iter().take_while(|b| b.is_ascii_digit());
    // i128 cannot overflow before we clamp: we stop accumulating past i64.
    let mut acc: i128 = 0;
    for d in digits {
        acc = acc * 10 + i128::from(d - b'0');
        if acc > i128::from(i64::MAX) + 1 {
            break;
        }
    }
    let signed = if negative { -acc } else { acc };
    signed.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

/// The leading number of a text, as `sqlite3AtoF` reads it; 0.0 if none.
pub fn text_to_f64(bytes: &[u8]) -> f64 {
    let s = trim_leading_space(bytes);
    let mut end = 0;
    if matches!(s.first(), Some(b'-' | b'+')) {
        end = 1;
    }
    let int_digits = count_digits(&s[end..]);
    end += int_digits;
    let mut frac_digits = 0;
    if s.get(end) == Some(&b'.') {
        frac_digits = count_digits(&s[end + 1..]);
        end += 1 + frac_digits;
    }
    if int_digits + frac_digits == 0 {
        return 0.0;
    }
    if matches!(s.get(end), Some(b'e' | b'E')) {
        let mut exp_end = end + 1;
        if matches!(s.get(exp_end), Some(b'-' | b'+')) {
            exp_end += 1;
        }
        let exp_digits = count_digits(&s[exp_end..]);
        if exp_digits > 0 {
            end = exp_end + exp_digits;
        }
    }
    // The prefix is ASCII and has Rust's float syntax (a lone trailing "." is
    // accepted by `parse` too), so parsing cannot fail; 0.0 keeps it total.
    std::str::from_utf8(&s[..end]).ok().and_then(|t| t.parse().ok()).unwrap_or(0.0)
}

fn trim_leading_space(bytes: &[u8]) -> &[u8] {
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(bytes.len());
    &bytes[start..]
}

fn count_digits(bytes: &[u8]) -> usize {
    bytes.iter().take_while(|b| b.is_ascii_digit()).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> SltValue {
        SltValue::Text(s.to_owned())
    }

    #[test]
    fn null_renders_as_null_for_every_type() {
        for ty in [ColumnType::Text, ColumnType::Integer, ColumnType::Real] {
            assert_eq!(render(&SltValue::Null, ty), "NULL");
        }
    }

    #[test]
    fn empty_text_renders_as_empty_marker() {
        assert_eq!(render(&text(""), ColumnType::Text), "(empty)");
        assert_eq!(render(&SltValue::Blob(Vec::new()), ColumnType::Text), "(empty)");
        // Only T columns use the marker: an empty text is 0 as a number.
        assert_eq!(render(&text(""), ColumnType::Integer), "0");
    }

    #[test]
    fn unprintable_bytes_render_as_at_signs() {
        assert_eq!(render(&text("a\tb~\x7f c"), ColumnType::Text), "a@b~@ c");
        // One `@` per byte: é is two bytes in UTF-8.
        assert_eq!(render(&text("é!"), ColumnType::Text), "@@!");
        assert_eq!(render(&SltValue::Blob(vec![0x41, 0xff, 0x42]), ColumnType::Text), "A@B");
        // A NUL ends the C string the harness sees.
        assert_eq!(render(&text("ab\0cd"), ColumnType::Text), "ab");
    }

    #[test]
    fn integer_column_truncates_reals_and_wraps_to_32_bits() {
        assert_eq!(render(&SltValue::Real(2.9), ColumnType::Integer), "2");
        assert_eq!(render(&SltValue::Real(-2.9), ColumnType::Integer), "-2");
        assert_eq!(render(&SltValue::Integer(-7), ColumnType::Integer), "-7");
        assert_eq!(render(&SltValue::Integer(1 << 32), ColumnType::Integer), "0");
        assert_eq!(render(&SltValue::Integer((1 << 32) + 5), ColumnType::Integer), "5");
        assert_eq!(render(&SltValue::Integer(i64::MAX), ColumnType::Integer), "-1");
        assert_eq!(render(&SltValue::Real(1e30), ColumnType::Integer), "-1");
    }

    #[test]
    fn integer_column_reads_the_leading_integer_of_text() {
        assert_eq!(render(&text("  42abc"), ColumnType::Integer), "42");
        assert_eq!(render(&text("-17"), ColumnType::Integer), "-17");
        assert_eq!(render(&text("+3.9"), ColumnType::Integer), "3");
        assert_eq!(render(&text("abc"), ColumnType::Integer), "0");
        assert_eq!(text_to_i64(b"99999999999999999999999"), i64::MAX);
        assert_eq!(text_to_i64(b"-9223372036854775808"), i64::MIN);
        assert_eq!(text_to_i64(b"-99999999999999999999999"), i64::MIN);
    }

    #[test]
    fn real_column_prints_three_decimals() {
        assert_eq!(render(&SltValue::Real(1.25), ColumnType::Real), "1.250");
        assert_eq!(render(&SltValue::Integer(5), ColumnType::Real), "5.000");
        assert_eq!(render(&SltValue::Real(-0.0004), ColumnType::Real), "-0.000");
        assert_eq!(render(&SltValue::Real(-0.0), ColumnType::Real), "0.000");
        assert_eq!(render(&text("2.5xyz"), ColumnType::Real), "2.500");
        assert_eq!(render(&text("x"), ColumnType::Real), "0.000");
    }

    #[test]
    fn text_column_prints_numbers_as_sqlite_text() {
        assert_eq!(render(&SltValue::Real(1.0), ColumnType::Text), "1.0");
        assert_eq!(render(&SltValue::Real(0.1 + 0.2), ColumnType::Text), "0.30000000000000004");
        assert_eq!(render(&SltValue::Integer(-12), ColumnType::Text), "-12");
    }
}
