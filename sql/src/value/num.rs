//! Text → number conversion with SQLite's rules (`sqlite3AtoF`,
//! `sqlite3Atoi64`, `computeNumericType`, `applyNumericAffinity`).
//!
//! Everything works on bytes (a BLOB converts like its bytes read as text)
//! and stops at the first NUL byte, as SQLite's C strings do. Nothing here
//! allocates: these run per row in arithmetic and comparisons.

use super::Value;
use super::fp::fp10_convert2;

/// SQLite's `sqlite3Isspace`: space, \t, \n, \v, \f, \r.
pub(crate) fn is_space(c: u8) -> bool {
    c == b' ' || (b'\t'..=b'\r').contains(&c)
}

/// The result of [`atof`]: the value and how much of the text it used.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct AtoF {
    pub value: f64,
    /// Some prefix of the text is a number.
    pub prefix: bool,
    /// The whole text (apart from surrounding spaces) is a number.
    pub whole: bool,
    /// A decimal point or an exponent was seen.
    pub fractional: bool,
}

/// Byte at `i`, or 0 past the end (C-string view).
#[inline]
fn at(z: &[u8], i: usize) -> u8 {
    z.get(i).copied().unwrap_or(0)
}

/// SQLite's `sqlite3AtoF`: parses the longest numeric prefix of `z`
/// (after leading spaces). `[+-]digits[.digits][e[+-]digits]`.
pub(crate) fn atof(z: &[u8]) -> AtoF {
    const LARGEST_U64: u64 = u64::MAX;
    let mut i = 0;
    let mut neg = false;
    let mut s: u64 = 0;
    let mut d: i32 = 0;
    let mut digit_seen = false;
    let mut fractional = false;
    while is_space(at(z, i)) {
        i += 1;
    }
    match at(z, i) {
        b'-' => {
            neg = true;
            i += 1;
        }
        b'+' => i += 1,
        _ => {}
    }
    if at(z, i).is_ascii_digit() {
        digit_seen = true;
        while at(z, i).is_ascii_digit() {
            s = s * 10 + u64::from(at(z, i) - b'0');
            i += 1;
            if s >= (LARGEST_U64 - 9) / 10 {
                while at(z, i).is_ascii_digit() {
                    i += 1;
                    d += 1;
                }
                break;
            }
        }
    } else if at(z, i) != b'.' {
        // A sign must be followed by a digit or a point.
        return AtoF { value: 0.0, prefix: false, whole: false, fractional: false };
    }
    if at(z, i) == b'.' {
        i += 1;
        if at(z, i).is_ascii_digit() {
            while at(z, i).is_ascii_digit() {
                if s < (LARGEST_U64 - 9) / 10 {
                    s = s * 10 + u64::from(at(z, i) - b'0');
                    d -= 1;
                }
                i += 1;
            }
        } else if !digit_seen {
            return AtoF { value: 0.0, prefix: false, whole: false, fractional: false };
        }
        fractional = true;
    } else if !digit_seen {
        return AtoF { value: 0.0, prefix: false, whole: false, fractional: false };
    }
    if matches!(at(z, i), b'e' | b'E') {
        let e_at = i;
        i += 1;
        let mut esign = 1;
        match at(z, i) {
            b'-' => {
                esign = -1;
                i += 1;
            }
            b'+' => i += 1,
            _ => {}
        }
        if at(z, i).is_ascii_digit() {
            let mut exp: i32 = 0;
            while at(z, i).is_ascii_digit() {
                exp = if exp < 10000 { exp * 10 + i32::from(at(z, i) - b'0') } else { 10000 };
                i += 1;
            }
            fractional = true;
            d += esign * exp;
        } else {
            // "1e" or "1e+": the number ends before the 'e'.
            i = e_at;
        }
    }
    let mut value = if s == 0 { 0.0 } else { fp10_convert2(s, d) };
    if neg {
        value = -value;
    }
    while is_space(at(z, i)) {
        i += 1;
    }
    let whole = at(z, i) == 0;
    AtoF { value, prefix: true, whole, fractional }
}

/// Outcome of [`atoi64`] (SQLite's return codes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AtoI {
    /// No digits at all (-1).
    NoDigits,
    /// The whole text is an integer that fits (0).
    Exact,
    /// Digits followed by other text (1).
    Trailing,
    /// Too large for i64 (2); the value is saturated.
    Overflow,
    /// Exactly 9223372036854775808 (3); the value is saturated.
    TwoPow63,
}

/// SQLite's `sqlite3Atoi64`: the leading decimal integer of `z` (after
/// spaces and an optional sign), saturated to i64.
pub(crate) fn atoi64(z: &[u8]) -> (i64, AtoI) {
    // Unlike `atof`, this sees the whole length (SQLite passes `n`), so an
    // embedded NUL counts as trailing text.
    let mut i = 0;
    while i < z.len() && is_space(z[i]) {
        i += 1;
    }
    let mut neg = false;
    if i < z.len() {
        if z[i] == b'-' {
            neg = true;
            i += 1;
        } else if z[i] == b'+' {
            i += 1;
        }
    }
    let start = i;
    while i < z.len() && z[i] == b'0' {
        i += 1;
    }
    let digits_at = i;
    let mut u: u64 = 0;
    while i < z.len() && z[i].is_ascii_digit() {
        u = u.wrapping_mul(10).wrapping_add(u64::from(z[i] - b'0'));
        i += 1;
    }
    let ndigits = i - digits_at;
    let mut value = if u > i64::MAX as u64 {
        if neg { i64::MIN } else { i64::MAX }
    } else if neg {
        -(u as i64)
    } else {
        u as i64
    };
    let mut rc = AtoI::Exact;
    if ndigits == 0 && start == digits_at {
        rc = AtoI::NoDigits;
    } else if z[i..].iter().any(|&c| !is_space(c)) {
        rc = AtoI::Trailing;
    }
    if ndigits < 19 {
        return (value, rc);
    }
    let cmp = if ndigits > 19 {
        std::cmp::Ordering::Greater
    } else {
        z[digits_at..digits_at + 19].cmp(b"9223372036854775808")
    };
    match cmp {
        std::cmp::Ordering::Less => (value, rc),
        std::cmp::Ordering::Greater => {
            value = if neg { i64::MIN } else { i64::MAX };
            (value, AtoI::Overflow)
        }
        std::cmp::Ordering::Equal => {
            if neg {
                (i64::MIN, rc)
            } else {
                (i64::MAX, AtoI::TwoPow63)
            }
        }
    }
}

/// SQLite's `sqlite3RealToI64`: truncation toward zero, saturating.
pub(crate) fn real_to_i64(r: f64) -> i64 {
    if r < -9223372036854774784.0 {
        i64::MIN
    } else if r > 9223372036854774784.0 {
        i64::MAX
    } else {
        r as i64
    }
}

/// SQLite's `sqlite3RealSameAsInt`: `r` is exactly `i` and small enough
/// that treating it as an integer loses nothing.
pub(crate) fn real_same_as_int(r: f64, i: i64) -> bool {
    let r2 = i as f64;
    r == 0.0 || (r.to_bits() == r2.to_bits() && (-2251799813685248..2251799813685248).contains(&i))
}

/// The number a text/blob stands for in arithmetic (SQLite's
/// `computeNumericType`): the longest numeric prefix, INTEGER when it is
/// written as an integer that fits, else REAL; no number at all is 0.
/// `'12abc'` → 12, `'abc'` → 0, `'1e3x'` → 1000.0.
pub fn numeric_prefix(z: &[u8]) -> Value {
    let r = atof(z);
    if !r.fractional {
        let (i, rc) = atoi64(z);
        let fits = if r.whole {
            rc == AtoI::Exact
        } else {
            matches!(rc, AtoI::NoDigits | AtoI::Exact | AtoI::Trailing)
        };
        if fits {
            return Value::Integer(i);
        }
    }
    Value::Real(r.value)
}

/// SQLite's `applyNumericAffinity` with `bTryForInt`: if the whole text
/// (apart from surrounding spaces) is a number, that number — INTEGER when it
/// is integral and fits (`'48.0'` → 48), else REAL. `None` when the text is
/// not wholly numeric (it then stays text). This is NUMERIC affinity.
pub fn parse_numeric_text(s: &str) -> Option<Value> {
    numeric_text_bytes(s.as_bytes(), true)
}

/// [`parse_numeric_text`] on bytes; `try_for_int` turns integral reals
/// written with a point or exponent into INTEGER.
pub(crate) fn numeric_text_bytes(z: &[u8], try_for_int: bool) -> Option<Value> {
    let r = atof(z);
    if !r.prefix || !r.whole {
        return None;
    }
    if !r.fractional {
        let i = real_to_i64(r.value);
        if real_same_as_int(r.value, i) {
            return Some(Value::Integer(i));
        }
        let (i, rc) = atoi64(z);
        if rc == AtoI::Exact {
            return Some(Value::Integer(i));
        }
    }
    if try_for_int {
        let i = real_to_i64(r.value);
        if r.value == i as f64 && i > i64::MIN && i < i64::MAX {
            return Some(Value::Integer(i));
        }
    }
    Some(Value::Real(r.value))
}

/// The value of an SQL numeric literal (digits, optional point and
/// exponent, or `0x` hex), as SQLite's parser reads it: an integer literal
/// that fits is INTEGER, a larger one is REAL; hex literals are 64-bit two's
/// complement. `None` if `s` is not a numeric literal. The rules are those
/// of [`super::literal`], which every parser of literals shares.
pub fn parse_number_literal(s: &str) -> Option<Value> {
    match s.get(..2) {
        Some("0x" | "0X") => super::literal::hex_integer(&s[2..], false),
        _ => super::literal::decimal(s, false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atof_prefixes() {
        assert_eq!(atof(b"12abc").value, 12.0);
        assert!(atof(b"12abc").prefix && !atof(b"12abc").whole);
        assert!(!atof(b"abc").prefix);
        assert!(!atof(b"-").prefix);
        assert!(!atof(b".").prefix);
        assert!(atof(b"  1.5e3  ").whole);
        assert_eq!(atof(b"1e3x").value, 1000.0);
        assert_eq!(atof(b"1e").value, 1.0);
        assert!(!atof(b"1e").whole && !atof(b"1e").fractional);
        assert_eq!(atof(b".5").value, 0.5);
        assert_eq!(atof(b"5.").value, 5.0);
        assert!(atof(b"5.").fractional);
        assert_eq!(atof(b"1\x002").value, 1.0);
    }

    #[test]
    fn atoi_saturates() {
        assert_eq!(atoi64(b"9223372036854775807"), (i64::MAX, AtoI::Exact));
        assert_eq!(atoi64(b"9223372036854775808"), (i64::MAX, AtoI::TwoPow63));
        assert_eq!(atoi64(b"-9223372036854775808"), (i64::MIN, AtoI::Exact));
        assert_eq!(atoi64(b"99999999999999999999"), (i64::MAX, AtoI::Overflow));
        assert_eq!(atoi64(b" 12 "), (12, AtoI::Exact));
        assert_eq!(atoi64(b"1e3"), (1, AtoI::Trailing));
        assert_eq!(atoi64(b"x"), (0, AtoI::NoDigits));
        assert_eq!(atoi64(b"-"), (0, AtoI::NoDigits));
        assert_eq!(atoi64(b"000"), (0, AtoI::Exact));
    }

    #[test]
    fn numeric_prefix_kinds() {
        assert!(matches!(numeric_prefix(b"12abc"), Value::Integer(12)));
        assert!(matches!(numeric_prefix(b"abc"), Value::Integer(0)));
        assert!(matches!(numeric_prefix(b""), Value::Integer(0)));
        assert!(matches!(numeric_prefix(b"1e3x"), Value::Real(r) if r == 1000.0));
        assert!(matches!(numeric_prefix(b"9223372036854775808"), Value::Real(_)));
    }

    #[test]
    fn numeric_affinity() {
        assert!(matches!(parse_numeric_text(" 48.0 "), Some(Value::Integer(48))));
        assert!(matches!(parse_numeric_text("1e20"), Some(Value::Real(_))));
        assert!(parse_numeric_text("12abc").is_none());
        assert!(parse_numeric_text("").is_none());
        assert!(matches!(
            parse_numeric_text("9223372036854775807"),
            Some(Value::Integer(i64::MAX))
        ));
    }

    #[test]
    fn literals() {
        assert!(matches!(parse_number_literal("0x10"), Some(Value::Integer(16))));
        assert!(matches!(parse_number_literal("0xffffffffffffffff"), Some(Value::Integer(-1))));
        assert!(matches!(parse_number_literal("9223372036854775808"), Some(Value::Real(_))));
        assert!(matches!(parse_number_literal("1.0"), Some(Value::Real(r)) if r == 1.0));
        assert!(parse_number_literal("1x").is_none());
    }
}
