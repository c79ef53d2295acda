//! SQL values with SQLite's dynamic typing, and the rules that act on them:
//! conversions (CAST, affinity), the total sort order, comparison with
//! collations, and the arithmetic/bit/concatenation operators.
//!
//! The yardstick is SQLite 3.54 (the version `rusqlite` bundles): every rule
//! here is a port of the corresponding VDBE routine, named in its doc, and is
//! checked against SQLite by the differential tests in `tests/values_*.rs`.
//!
//! Invariants:
//! - [`compare`] is a total order consistent with [`PartialEq`], [`Eq`],
//!   [`Ord`] and [`Hash`] on `Value`: NULL < numbers < TEXT < BLOB; INTEGER
//!   and REAL compare by exact numeric value (`1 == 1.0`, and `2^53 + 1` is
//!   greater than `2^53 as REAL`); TEXT by bytes; BLOB by bytes.
//! - Comparison, arithmetic and affinity do not allocate unless they produce
//!   a new TEXT/BLOB (they run per row).
//! - A REAL produced by arithmetic is never NaN: SQLite turns NaN into NULL.
//! - TEXT is bytes ([`Text`]): normally UTF-8, but what a CAST of a BLOB or
//!   a concatenation put there is kept as it is, as SQLite keeps it.

mod fp;
pub(crate) mod literal;
mod num;
mod ops;
mod text;

use std::cmp::Ordering;
use std::hash::{Hash, Hasher};

pub use num::{numeric_prefix, parse_number_literal, parse_numeric_text};
pub use ops::{
    add, bit_and, bit_not, bit_or, concat, div, mul, negate, rem, shift_left, shift_right, sub,
};
pub use text::Text;

pub(crate) use fp::{FloatSpec, FloatStyle, format_float};
pub(crate) use num::{
    AtoI, atof, atoi64, is_space, numeric_text_bytes, real_same_as_int, real_to_i64,
};

/// One SQL value. The storage classes are SQLite's: NULL, INTEGER (i64),
/// REAL (f64), TEXT (UTF-8 bytes, see [`Text`]) and BLOB.
#[derive(Clone, Debug)]
pub enum Value {
    Null,
    Integer(i64),
    Real(f64),
    Text(Text),
    Blob(Vec<u8>),
}

/// A column's or expression's type affinity (SQLite §3 "Type Affinity").
/// `Blob` is SQLite's BLOB/"none" affinity: values are kept as they are.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Affinity {
    Integer,
    Real,
    Numeric,
    Text,
    Blob,
}

/// A collating sequence for TEXT comparisons.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Collation {
    /// Byte-wise (memcmp), SQLite's default.
    #[default]
    Binary,
    /// ASCII case folded, otherwise byte-wise.
    NoCase,
    /// Trailing spaces ignored, otherwise byte-wise.
    RTrim,
}

impl Collation {
    /// The collation named in `COLLATE name` (case-insensitive).
    pub fn from_name(name: &str) -> Option<Collation> {
        if name.eq_ignore_ascii_case("binary") {
            Some(Collation::Binary)
        } else if name.eq_ignore_ascii_case("nocase") {
            Some(Collation::NoCase)
        } else if name.eq_ignore_ascii_case("rtrim") {
            Some(Collation::RTrim)
        } else {
            None
        }
    }

    /// The collation's name as SQLite spells it (`PRAGMA index_xinfo`).
    pub fn name(self) -> &'static str {
        match self {
            Collation::Binary => "BINARY",
            Collation::NoCase => "NOCASE",
            Collation::RTrim => "RTRIM",
        }
    }

    /// A value that equals (and orders like) another under BINARY exactly
    /// when `v` equals (and orders like) it under this collation: TEXT
    /// ASCII-lowercased for NOCASE, trailing spaces cut for RTRIM, every
    /// other value as it is. The one folding rule for grouping, DISTINCT,
    /// set operations, IN sets and index keys.
    ///
    /// NOCASE compares no further than a NUL (see [`Collation::compare`]):
    /// what follows the first NUL only counts by its length, so it folds
    /// to as many NULs.
    pub fn fold(self, v: &Value) -> std::borrow::Cow<'_, Value> {
        use std::borrow::Cow;
        match (v, self) {
            (Value::Text(s), Collation::NoCase) if s.contains(&0) => {
                let cut = s.iter().position(|&b| b == 0).map_or(s.len(), |i| i + 1);
                let mut f = s[..cut].to_ascii_lowercase();
                f.extend(std::iter::repeat_n(0, s.len() - cut));
                Cow::Owned(Value::Text(Text::from_bytes(f)))
            }
            (Value::Text(s), Collation::NoCase) if s.iter().any(|b| b.is_ascii_uppercase()) => {
                Cow::Owned(Value::Text(Text::from_bytes(s.to_ascii_lowercase())))
            }
            (Value::Text(s), Collation::RTrim) if s.ends_with(b" ") => {
                Cow::Owned(Value::Text(Text::from_bytes(trim_spaces_end(s).to_vec())))
            }
            _ => Cow::Borrowed(v),
        }
    }

    /// [`Collation::fold`] taking the value.
    pub fn fold_owned(self, v: Value) -> Value {
        match (&v, self) {
            (Value::Text(_), Collation::NoCase | Collation::RTrim) => self.fold(&v).into_owned(),
            _ => v,
        }
    }

    /// Compares two texts under this collation.
    pub fn compare(self, a: &[u8], b: &[u8]) -> Ordering {
        match self {
            Collation::Binary => a.cmp(b),
            Collation::RTrim => trim_spaces_end(a).cmp(trim_spaces_end(b)),
            Collation::NoCase => {
                // sqlite3StrNICmp over the shorter length, then the lengths.
                let n = a.len().min(b.len());
                for i in 0..n {
                    let (x, y) = (a[i].to_ascii_lowercase(), b[i].to_ascii_lowercase());
                    if x != y {
                        return x.cmp(&y);
                    }
                    if a[i] == 0 {
                        // StrNICmp stops at a NUL (both are NUL here), then
                        // the lengths decide.
                        break;
                    }
                }
                a.len().cmp(&b.len())
            }
        }
    }
}

fn trim_spaces_end(mut s: &[u8]) -> &[u8] {
    while let [rest @ .., b' '] = s {
        s = rest;
    }
    s
}

impl Value {
    /// The storage class name, as `typeof()` returns it.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Integer(_) => "integer",
            Value::Real(_) => "real",
            Value::Text(_) => "text",
            Value::Blob(_) => "blob",
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// Exact identity: same storage class and same content (REALs bit for
    /// bit). Unlike `==`, `1` is not identical to `1.0`, nor `0.0` to
    /// `-0.0`. For round-trip tests of encodings.
    pub fn is_identical(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Null, Value::Null) => true,
            (Value::Integer(a), Value::Integer(b)) => a == b,
            (Value::Real(a), Value::Real(b)) => a.to_bits() == b.to_bits(),
            (Value::Text(a), Value::Text(b)) => a == b,
            (Value::Blob(a), Value::Blob(b)) => a == b,
            _ => false,
        }
    }

    /// Truth for WHERE, CASE, AND/OR, NOT (`sqlite3VdbeBooleanValue`):
    /// NULL is unknown; a number is true when non-zero; TEXT/BLOB convert by
    /// their numeric prefix (`'1abc'` is true, `'abc'` is false).
    pub fn truthy(&self) -> Option<bool> {
        match self {
            Value::Null => None,
            Value::Integer(i) => Some(*i != 0),
            Value::Real(r) => Some(*r != 0.0),
            Value::Text(s) => Some(atof(s.as_bytes()).value != 0.0),
            Value::Blob(b) => Some(atof(b).value != 0.0),
        }
    }

    /// The text form (CAST AS TEXT, `sqlite3_value_text`): INTEGER in
    /// decimal, REAL as SQLite prints it (`1.0`, `0.1`, `1.0e+20`), a BLOB's
    /// bytes as they are (UTF-8 or not). NULL has none.
    pub fn to_text(&self) -> Option<Text> {
        match self {
            Value::Null => None,
            Value::Text(s) => Some(s.clone()),
            Value::Blob(b) => Some(Text::from_bytes(b.clone())),
            Value::Integer(i) => Some(i.to_string().into()),
            Value::Real(r) => Some(real_text(*r).into()),
        }
    }

    /// The text form as a Rust string, for consumers outside SQL's value
    /// semantics (PRAGMA arguments, date strings, JSON documents, messages):
    /// borrowed for valid UTF-8 TEXT, with U+FFFD for invalid sequences.
    pub fn text(&self) -> Option<std::borrow::Cow<'_, str>> {
        match self {
            Value::Text(s) => Some(s.to_str_lossy()),
            Value::Blob(b) => Some(String::from_utf8_lossy(b)),
            v => v.to_text().map(|t| std::borrow::Cow::Owned(t.into_string_lossy())),
        }
    }

    /// Appends the text form to `out` without an intermediate allocation;
    /// NULL appends nothing. Bytes, because a BLOB's need not be UTF-8.
    pub(crate) fn append_text_bytes(&self, out: &mut Vec<u8>) {
        match self {
            Value::Null => {}
            Value::Text(s) => out.extend_from_slice(s.as_bytes()),
            Value::Blob(b) => out.extend_from_slice(b),
            Value::Integer(i) => {
                use std::io::Write;
                let _ = write!(out, "{i}");
            }
            Value::Real(r) => fp::real_to_text(out, *r),
        }
    }

    /// The bytes SQLite's `sqlite3_value_text`/`_blob` would see, borrowed
    /// when possible. `None` for NULL.
    pub(crate) fn text_bytes(&self) -> Option<std::borrow::Cow<'_, [u8]>> {
        use std::borrow::Cow;
        match self {
            Value::Null => None,
            Value::Text(s) => Some(Cow::Borrowed(s.as_bytes())),
            Value::Blob(b) => Some(Cow::Borrowed(b)),
            _ => {
                let mut out = Vec::new();
                self.append_text_bytes(&mut out);
                Some(Cow::Owned(out))
            }
        }
    }

    /// `sqlite3_value_double`: NULL is 0.0, TEXT/BLOB by numeric prefix.
    pub fn to_f64(&self) -> f64 {
        match self {
            Value::Null => 0.0,
            Value::Integer(i) => *i as f64,
            Value::Real(r) => *r,
            Value::Text(s) => atof(s.as_bytes()).value,
            Value::Blob(b) => atof(b).value,
        }
    }

    /// `sqlite3_value_int64`: NULL is 0, REAL truncates (saturating),
    /// TEXT/BLOB by their leading integer (`'1e3'` is 1).
    pub fn to_i64(&self) -> i64 {
        match self {
            Value::Null => 0,
            Value::Integer(i) => *i,
            Value::Real(r) => real_to_i64(*r),
            Value::Text(s) => atoi64(s.as_bytes()).0,
            Value::Blob(b) => atoi64(b).0,
        }
    }

    /// `CAST(self AS <to>)` (`sqlite3VdbeMemCast`). NULL stays NULL.
    pub fn cast(&self, to: Affinity) -> Value {
        match (self, to) {
            (Value::Null, _) => Value::Null,
            (Value::Blob(b), Affinity::Blob) => Value::Blob(b.clone()),
            (_, Affinity::Blob) => {
                let mut out = Vec::new();
                self.append_text_bytes(&mut out);
                Value::Blob(out)
            }
            (Value::Text(s), Affinity::Text) => Value::Text(s.clone()),
            (_, Affinity::Text) => Value::Text(self.to_text().unwrap_or_default()),
            (_, Affinity::Integer) => Value::Integer(self.to_i64()),
            (_, Affinity::Real) => Value::Real(self.to_f64()),
            (Value::Integer(_) | Value::Real(_), Affinity::Numeric) => self.clone(),
            (Value::Text(s), Affinity::Numeric) => numerify(s.as_bytes()),
            (Value::Blob(b), Affinity::Numeric) => numerify(b),
        }
    }

    /// Moves the text out, or renders a non-text value as text (a BLOB's
    /// bytes as they are).
    pub(crate) fn into_text(self) -> Option<Text> {
        match self {
            Value::Text(s) => Some(s),
            Value::Blob(b) => Some(Text::from_bytes(b)),
            other => other.to_text(),
        }
    }

    /// The storage-class rank in the sort order.
    fn class_rank(&self) -> u8 {
        match self {
            Value::Null => 0,
            Value::Integer(_) | Value::Real(_) => 1,
            Value::Text(_) => 2,
            Value::Blob(_) => 3,
        }
    }
}

/// SQLite's text for a REAL (`%!.17g`).
pub(crate) fn real_text(r: f64) -> String {
    let mut out = Vec::with_capacity(24);
    fp::real_to_text(&mut out, r);
    // The renderer emits ASCII only.
    String::from_utf8(out).unwrap_or_default()
}

/// `sqlite3VdbeMemNumerify` for TEXT/BLOB: CAST AS NUMERIC.
fn numerify(z: &[u8]) -> Value {
    let r = atof(z);
    if !r.fractional {
        let (i, rc) = atoi64(z);
        if matches!(rc, AtoI::NoDigits | AtoI::Exact | AtoI::Trailing) {
            return Value::Integer(i);
        }
    }
    let i = real_to_i64(r.value);
    if num::real_same_as_int(r.value, i) { Value::Integer(i) } else { Value::Real(r.value) }
}

impl Affinity {
    /// The affinity of a declared column type, by SQLite's five rules in
    /// order: contains "INT" → INTEGER; "CHAR", "CLOB" or "TEXT" → TEXT;
    /// "BLOB" or no type → BLOB; "REAL", "FLOA" or "DOUB" → REAL; else
    /// NUMERIC.
    pub fn from_declared_type(decl: Option<&str>) -> Affinity {
        let Some(decl) = decl else { return Affinity::Blob };
        let bytes = decl.as_bytes();
        let has = |s: &str| bytes.windows(s.len()).any(|w| w.eq_ignore_ascii_case(s.as_bytes()));
        if has("INT") {
            Affinity::Integer
        } else if has("CHAR") || has("CLOB") || has("TEXT") {
            Affinity::Text
        } else if has("BLOB") || decl.trim().is_empty() {
            Affinity::Blob
        } else if has("REAL") || has("FLOA") || has("DOUB") {
            Affinity::Real
        } else {
            Affinity::Numeric
        }
    }

    /// True for INTEGER, REAL and NUMERIC.
    pub fn is_numeric(self) -> bool {
        matches!(self, Affinity::Integer | Affinity::Real | Affinity::Numeric)
    }

    /// Applies this affinity to a value being stored in a column (or to an
    /// operand before a comparison): NUMERIC/INTEGER turn wholly numeric
    /// text into INTEGER (when integral and in range) or REAL, and integral
    /// REALs into INTEGER; REAL does the same conversions but yields REAL;
    /// TEXT renders numbers as text; BLOB changes nothing. Values that do not
    /// convert (`'abc'` in an INTEGER column) are kept as they are.
    /// True if [`Self::apply`] returns `v` unchanged (so a comparison may
    /// read it in place instead of converting a copy).
    pub fn keeps(self, v: &Value) -> bool {
        matches!(
            (self, v),
            (_, Value::Null | Value::Blob(_))
                | (Affinity::Blob, _)
                | (Affinity::Text, Value::Text(_))
                | (Affinity::Integer | Affinity::Numeric, Value::Integer(_))
        )
    }

    pub fn apply(self, v: Value) -> Value {
        match self {
            Affinity::Blob => v,
            Affinity::Text => match v {
                Value::Integer(_) | Value::Real(_) => Value::Text(v.to_text().unwrap_or_default()),
                other => other,
            },
            Affinity::Integer | Affinity::Numeric => match v {
                Value::Text(s) => match num::numeric_text_bytes(s.as_bytes(), true) {
                    Some(n) => n,
                    None => Value::Text(s),
                },
                Value::Real(r) => match integral(r) {
                    Some(i) => Value::Integer(i),
                    None => Value::Real(r),
                },
                other => other,
            },
            Affinity::Real => match v {
                Value::Text(s) => match num::numeric_text_bytes(s.as_bytes(), true) {
                    Some(Value::Integer(i)) => Value::Real(i as f64),
                    Some(n) => n,
                    None => Value::Text(s),
                },
                Value::Integer(i) => Value::Real(i as f64),
                // Stored as the integer, read back as REAL: -0.0 becomes 0.0.
                Value::Real(r) => match integral(r) {
                    Some(i) => Value::Real(i as f64),
                    None => Value::Real(r),
                },
                other => other,
            },
        }
    }
}

/// `sqlite3VdbeIntegerAffinity`: the integer a REAL stands for exactly,
/// if any (the two extreme i64 values excluded).
fn integral(r: f64) -> Option<i64> {
    let i = real_to_i64(r);
    (r == i as f64 && i > i64::MIN && i < i64::MAX).then_some(i)
}

/// SQLite's comparison-affinity rule (`sqlite3CompareAffinity`). Each side's
/// affinity is `Some` for a column reference or CAST (a column declared
/// without a type has `Some(Blob)`) and `None` for any other expression.
/// Returns the affinity to [`Affinity::apply`] to both operands before
/// comparing, or `None` for no conversion:
/// - both sides have an affinity: NUMERIC if either is numeric, else none;
/// - one side has one: that side's (NUMERIC for any numeric kind), except
///   BLOB, which converts nothing;
/// - neither: none.
pub fn comparison_affinity(a_aff: Option<Affinity>, b_aff: Option<Affinity>) -> Option<Affinity> {
    let norm = |a: Affinity| if a.is_numeric() { Affinity::Numeric } else { a };
    match (a_aff, b_aff) {
        (Some(a), Some(b)) => {
            if a.is_numeric() || b.is_numeric() {
                Some(Affinity::Numeric)
            } else {
                None
            }
        }
        (Some(a), None) | (None, Some(a)) => match norm(a) {
            Affinity::Blob => None,
            other => Some(other),
        },
        (None, None) => None,
    }
}

/// SQLite's `sqlite3IntFloatCompare`: exact comparison of an integer with a
/// double (NaN sorts below every integer, like NULL).
fn int_float_compare(i: i64, r: f64) -> Ordering {
    if r.is_nan() {
        return Ordering::Greater;
    }
    if r < -9223372036854775808.0 {
        return Ordering::Greater;
    }
    if r >= 9223372036854775808.0 {
        return Ordering::Less;
    }
    let y = r as i64;
    match i.cmp(&y) {
        Ordering::Equal => (i as f64).partial_cmp(&r).unwrap_or(Ordering::Equal),
        other => other,
    }
}

/// Compares two REALs; NaN (which SQLite never stores) sorts first.
fn real_compare(a: f64, b: f64) -> Ordering {
    match a.partial_cmp(&b) {
        Some(o) => o,
        None => a.is_nan().cmp(&b.is_nan()).reverse(),
    }
}

/// The total order of values (`sqlite3MemCompare` with BINARY collation):
/// NULL < INTEGER/REAL (numerically, exactly) < TEXT (bytes) < BLOB (bytes).
/// Used for ORDER BY, DISTINCT, GROUP BY, min/max and indexes.
pub fn compare(a: &Value, b: &Value) -> Ordering {
    compare_collated(a, b, Collation::Binary)
}

/// [`compare`] with a collation for TEXT against TEXT.
pub fn compare_collated(a: &Value, b: &Value, coll: Collation) -> Ordering {
    use Value::*;
    match (a, b) {
        (Integer(x), Integer(y)) => x.cmp(y),
        (Real(x), Real(y)) => real_compare(*x, *y),
        (Integer(x), Real(y)) => int_float_compare(*x, *y),
        (Real(x), Integer(y)) => int_float_compare(*y, *x).reverse(),
        (Text(x), Text(y)) => coll.compare(x.as_bytes(), y.as_bytes()),
        (Blob(x), Blob(y)) => x.cmp(y),
        (Null, Null) => Ordering::Equal,
        _ => a.class_rank().cmp(&b.class_rank()),
    }
}

/// A comparison operator's outcome (`=`, `<`, …): `None` (SQL NULL) if
/// either side is NULL, else the collated order. The caller applies
/// [`comparison_affinity`] to the operands first.
pub fn sql_compare(a: &Value, b: &Value, coll: Collation) -> Option<Ordering> {
    if a.is_null() || b.is_null() {
        return None;
    }
    Some(compare_collated(a, b, coll))
}

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        compare(self, other) == Ordering::Equal
    }
}

impl Eq for Value {}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Value) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Value {
    fn cmp(&self, other: &Value) -> Ordering {
        compare(self, other)
    }
}

impl Hash for Value {
    /// Consistent with `Eq`: an integral REAL hashes like the equal INTEGER.
    fn hash<H: Hasher>(&self, state: &mut H) {
        match self {
            Value::Null => state.write_u8(0),
            Value::Integer(i) => {
                state.write_u8(1);
                state.write_i64(*i);
            }
            Value::Real(r) => {
                if r.fract() == 0.0 && *r >= -9223372036854775808.0 && *r < 9223372036854775808.0 {
                    state.write_u8(1);
                    state.write_i64(*r as i64);
                } else {
                    state.write_u8(2);
                    state.write_u64(if r.is_nan() { f64::NAN.to_bits() } else { r.to_bits() });
                }
            }
            Value::Text(s) => {
                state.write_u8(3);
                s.hash(state);
            }
            Value::Blob(b) => {
                state.write_u8(4);
                b.hash(state);
            }
        }
    }
}

impl From<i64> for Value {
    fn from(i: i64) -> Value {
        Value::Integer(i)
    }
}

impl From<f64> for Value {
    fn from(r: f64) -> Value {
        Value::Real(r)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::Text(s.into())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::Text(s.into())
    }
}

impl From<Text> for Value {
    fn from(s: Text) -> Value {
        Value::Text(s)
    }
}

impl From<Vec<u8>> for Value {
    fn from(b: Vec<u8>) -> Value {
        Value::Blob(b)
    }
}

impl std::fmt::Display for Value {
    /// The text form (invalid UTF-8 as U+FFFD); NULL displays as `NULL`, a
    /// BLOB as `X'..'` hex.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Null => f.write_str("NULL"),
            Value::Integer(i) => write!(f, "{i}"),
            Value::Real(r) => f.write_str(&real_text(*r)),
            Value::Text(s) => f.write_str(&s.to_str_lossy()),
            Value::Blob(b) => {
                f.write_str("X'")?;
                for byte in b {
                    write!(f, "{byte:02X}")?;
                }
                f.write_str("'")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Value {
        Value::Text(s.into())
    }

    /// `keeps` may only say yes where `apply` is the identity: comparisons
    /// read such values in place instead of converting a copy.
    #[test]
    fn keeps_only_where_apply_changes_nothing() {
        let values = [
            Value::Null,
            Value::Integer(0),
            Value::Integer(i64::MAX),
            Value::Real(-0.0),
            Value::Real(3.0),
            Value::Real(2.5),
            t("12"),
            t(" 1.5 "),
            t("abc"),
            Value::Blob(b"12".to_vec()),
        ];
        let affs =
            [Affinity::Integer, Affinity::Real, Affinity::Numeric, Affinity::Text, Affinity::Blob];
        let mut kept = 0;
        for a in affs {
            for v in &values {
                if a.keeps(v) {
                    kept += 1;
                    let after = a.apply(v.clone());
                    assert!(
                        format!("{after:?}") == format!("{v:?}"),
                        "{a:?} changes {v:?} to {after:?}"
                    );
                }
            }
        }
        assert!(kept > values.len(), "keeps says yes somewhere beyond NULL");
    }

    #[test]
    fn order_across_classes() {
        let mut v = [
            Value::Blob(vec![0]),
            t("a"),
            Value::Real(1.5),
            Value::Integer(1),
            Value::Null,
            Value::Integer(2),
        ];
        v.sort();
        assert_eq!(
            v.iter().map(Value::type_name).collect::<Vec<_>>(),
            ["null", "integer", "real", "integer", "text", "blob"]
        );
    }

    #[test]
    fn int_real_exact() {
        assert_eq!(Value::Integer(1), Value::Real(1.0));
        let big = 9007199254740993i64; // 2^53 + 1, not representable
        assert_eq!(
            compare(&Value::Integer(big), &Value::Real(9007199254740992.0)),
            Ordering::Greater
        );
        assert_eq!(compare(&Value::Integer(i64::MAX), &Value::Real(9.3e18)), Ordering::Less);
    }

    #[test]
    fn collations() {
        assert_eq!(compare_collated(&t("ABC"), &t("abc"), Collation::NoCase), Ordering::Equal);
        // NOCASE stops at a NUL; then only the lengths count.
        for (a, b) in [("\0a", "\0b"), ("X\0é", "x\0ab"), ("a\0", "b\0"), ("\0", "\0\0")] {
            let (a, b) = (t(a), t(b));
            let want = compare_collated(&a, &b, Collation::NoCase);
            let folded = compare(&Collation::NoCase.fold(&a), &Collation::NoCase.fold(&b));
            assert_eq!(want, folded, "{a:?} {b:?}");
        }
        assert_eq!(compare_collated(&t("\0a"), &t("\0B"), Collation::NoCase), Ordering::Equal);
        assert_eq!(compare_collated(&t("abc  "), &t("abc"), Collation::RTrim), Ordering::Equal);
        assert_eq!(compare_collated(&t("ABC"), &t("abc"), Collation::Binary), Ordering::Less);
        assert_eq!(Collation::from_name("NoCase"), Some(Collation::NoCase));
    }

    #[test]
    fn affinity_rules() {
        use Affinity::*;
        assert_eq!(Affinity::from_declared_type(Some("BIGINT")), Integer);
        assert_eq!(Affinity::from_declared_type(Some("VARCHAR(10)")), Text);
        assert_eq!(Affinity::from_declared_type(Some("CHARINT")), Integer);
        assert_eq!(Affinity::from_declared_type(None), Blob);
        assert_eq!(Affinity::from_declared_type(Some("DOUBLE PRECISION")), Real);
        assert_eq!(Affinity::from_declared_type(Some("DECIMAL(10,2)")), Numeric);
        assert_eq!(Affinity::from_declared_type(Some("FLOATING POINT")), Integer);
        assert!(matches!(Integer.apply(t(" 12 ")), Value::Integer(12)));
        assert!(matches!(Integer.apply(t("12abc")), Value::Text(_)));
        assert!(matches!(Numeric.apply(Value::Real(3.0)), Value::Integer(3)));
        assert!(matches!(Real.apply(t("3")), Value::Real(r) if r == 3.0));
        assert!(matches!(Text.apply(Value::Real(0.5)), Value::Text(s) if s == "0.5"));
        assert_eq!(comparison_affinity(Some(Text), None), Some(Text));
        assert_eq!(comparison_affinity(Some(Text), Some(Text)), None);
        assert_eq!(comparison_affinity(Some(Text), Some(Real)), Some(Numeric));
        assert_eq!(comparison_affinity(Some(Blob), None), None);
        assert_eq!(comparison_affinity(None, None), None);
    }

    #[test]
    fn casts() {
        assert!(matches!(t("  12  ").cast(Affinity::Integer), Value::Integer(12)));
        assert!(matches!(t("1e3").cast(Affinity::Integer), Value::Integer(1)));
        assert!(matches!(Value::Real(1e20).cast(Affinity::Integer), Value::Integer(i64::MAX)));
        assert!(matches!(t("1.5e3").cast(Affinity::Numeric), Value::Integer(1500)));
        assert!(matches!(t("abc").cast(Affinity::Numeric), Value::Integer(0)));
        assert!(matches!(Value::Integer(7).cast(Affinity::Blob), Value::Blob(b) if b == b"7"));
        assert!(Value::Null.cast(Affinity::Text).is_null());
    }

    #[test]
    fn truth() {
        assert_eq!(t("1abc").truthy(), Some(true));
        assert_eq!(t("abc").truthy(), Some(false));
        assert_eq!(Value::Real(0.0).truthy(), Some(false));
        assert_eq!(Value::Null.truthy(), None);
    }

    #[test]
    fn hash_matches_eq() {
        use std::collections::HashSet;
        let set: HashSet<Value> =
            [Value::Integer(3), Value::Real(3.0), Value::Real(-0.0)].into_iter().collect();
        assert_eq!(set.len(), 2);
        assert!(set.contains(&Value::Integer(0)));
    }
}
