//! What a literal's spelling means, shared by the fast and the slow INSERT
//! parsers: the two may differ only in how they find a literal, never in
//! the value they make of it. The rules are SQLite's (the oracle), plus
//! MySQL's backslash escapes when a dump asks for them.

use crate::Value;

/// A decimal literal as written (`123`, `1.5`, `.5`, `5.`, `1e-3`), with
/// an optional leading minus. Integers that fit in i64 are `Integer`; the
/// rest are `Real`, as in SQLite — including `-9223372036854775808`, which
/// SQLite reads as `i64::MIN`. `None` if the spelling is not a number.
pub(crate) fn decimal(text: &str, negative: bool) -> Option<Value> {
    let bytes = text.as_bytes();
    if !bytes.is_empty() && bytes.iter().all(u8::is_ascii_digit) {
        let mut v: u64 = 0;
        let mut fits = true;
        for &b in bytes {
            match v.checked_mul(10).and_then(|v| v.checked_add(u64::from(b - b'0'))) {
                Some(n) => v = n,
                None => {
                    fits = false;
                    break;
                }
            }
        }
        if fits {
            if let Ok(i) = i64::try_from(v) {
                return Some(Value::Integer(if negative { -i } else { i }));
            }
            if negative && v == 1 << 63 {
                return Some(Value::Integer(i64::MIN));
            }
        }
    }
    // Reals go through the engine's port of `sqlite3AtoF`, so a literal
    // has the same bits here as everywhere else (and as in SQLite, which
    // does not always round like `str::parse`).
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b)) {
        return None;
    }
    let r = crate::value::atof(text.as_bytes());
    if !r.whole {
        return None;
    }
    Some(Value::Real(if negative { -r.value } else { r.value }))
}

/// A hexadecimal integer `0x…` given its digits. SQLite skips leading
/// zeros, allows 16 significant digits and reinterprets the 64 bits as
/// signed (`0xFFFFFFFFFFFFFFFF` is -1); anything longer is an error, and
/// so is negating `0x8000000000000000`.
pub(crate) fn hex_integer(digits: &str, negative: bool) -> Option<Value> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let significant = digits.trim_start_matches('0');
    if significant.len() > 16 {
        return None;
    }
    let v = if significant.is_empty() { 0 } else { u64::from_str_radix(significant, 16).ok()? };
    let v = v as i64; // two's complement reinterpretation, as SQLite does
    if negative {
        if v == i64::MIN {
            return None;
        }
        return Some(Value::Integer(-v));
    }
    Some(Value::Integer(v))
}

/// A blob literal `X'…'` given the text between the quotes: an even
/// number of hex digits.
pub(crate) fn blob(hex: &str) -> Option<Value> {
    let h = hex.as_bytes();
    if !h.len().is_multiple_of(2) {
        return None;
    }
    let digit = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
    let mut out = Vec::with_capacity(h.len() / 2);
    for pair in h.chunks_exact(2) {
        out.push(digit(pair[0])? << 4 | digit(pair[1])?);
    }
    Some(Value::Blob(out))
}

/// The value of a `'…'` string given the text between the quotes as
/// written: `''` is one quote; with `backslash` (MySQL), `\` escapes as
/// MySQL defines (`\0 \b \n \r \t \Z`, `\%` and `\_` keep their backslash,
/// any other `\c` is `c`).
pub(crate) fn string(raw: &str, backslash: bool) -> String {
    let special = |b: &u8| *b == b'\'' || (backslash && *b == b'\\');
    if !raw.as_bytes().iter().any(special) {
        return raw.to_owned();
    }
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                out.push('\'');
                // The second quote of the pair (the string's own closing
                // quote never reaches here).
                chars.next();
            }
            '\\' if backslash => match chars.next() {
                Some('0') => out.push('\0'),
                Some('b') => out.push('\u{8}'),
                Some('n') => out.push('\n'),
                Some('r') => out.push('\r'),
                Some('t') => out.push('\t'),
                Some('Z') => out.push('\u{1a}'),
                Some(c @ ('%' | '_')) => {
                    out.push('\\');
                    out.push(c);
                }
                Some(c) => out.push(c),
                None => out.push('\\'),
            },
            c => out.push(c),
        }
    }
    out
}

/// The name inside a quoted identifier: a doubled closing quote is one.
pub(crate) fn identifier(raw: &str, close: char) -> String {
    let mut pair = String::with_capacity(2);
    pair.push(close);
    pair.push(close);
    if raw.contains(&pair) { raw.replace(&pair, &pair[..1]) } else { raw.to_owned() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(v: Option<Value>) -> String {
        match v {
            None => "none".into(),
            Some(Value::Integer(i)) => format!("int {i}"),
            Some(Value::Real(f)) => format!("real {f:?}"),
            Some(Value::Text(s)) => format!("text {s:?}"),
            Some(Value::Blob(b)) => format!("blob {b:?}"),
            Some(Value::Null) => "null".into(),
        }
    }

    #[test]
    fn decimals_follow_sqlite() {
        assert_eq!(show(decimal("0042", false)), "int 42");
        assert_eq!(show(decimal("9223372036854775807", false)), "int 9223372036854775807");
        assert_eq!(show(decimal("9223372036854775808", false)), "real 9.223372036854776e18");
        assert_eq!(show(decimal("9223372036854775808", true)), "int -9223372036854775808");
        assert_eq!(show(decimal("99999999999999999999999", true)), "real -1e23");
        // SQLite's rounding, not `str::parse`'s (2.36255978611392e21).
        assert_eq!(show(decimal("2362559786113919877120", false)), "real 2.3625597861139196e21");
        assert_eq!(show(decimal("1.5", true)), "real -1.5");
        assert_eq!(show(decimal(".5", false)), "real 0.5");
        assert_eq!(show(decimal("5.", false)), "real 5.0");
        assert_eq!(show(decimal("1e3", false)), "real 1000.0");
        assert_eq!(show(decimal("1.e-2", false)), "real 0.01");
        assert_eq!(show(decimal("", false)), "none");
        assert_eq!(show(decimal("1x", false)), "none");
    }

    #[test]
    fn hex_integers_follow_sqlite() {
        assert_eq!(show(hex_integer("1F", false)), "int 31");
        assert_eq!(show(hex_integer("1f", true)), "int -31");
        assert_eq!(show(hex_integer("FFFFFFFFFFFFFFFF", false)), "int -1");
        assert_eq!(show(hex_integer("0000FFFFFFFFFFFFFFFF", false)), "int -1");
        assert_eq!(show(hex_integer("10000000000000000", false)), "none");
        assert_eq!(show(hex_integer("8000000000000000", true)), "none");
        assert_eq!(show(hex_integer("", false)), "none");
    }

    #[test]
    fn blobs_and_strings() {
        assert_eq!(show(blob("00aFff")), "blob [0, 175, 255]");
        assert_eq!(show(blob("abc")), "none");
        assert_eq!(show(blob("zz")), "none");
        assert_eq!(string("it''s", false), "it's");
        assert_eq!(string("a\\''b", false), "a\\'b");
        assert_eq!(string("a\\'b\\\\c\\n\\%\\x''", true), "a'b\\c\n\\%x'");
        assert_eq!(identifier("a\"\"b", '"'), "a\"b");
        assert_eq!(identifier("a``b`", '`'), "a`b`");
    }
}
