//! SQL operators on values, ported from SQLite's VDBE (`OP_Add` …
//! `OP_Remainder`, `OP_BitAnd` … `OP_ShiftRight`, `OP_BitNot`,
//! `OP_Concat`).
//!
//! Rules: NULL in → NULL out. TEXT/BLOB operands convert by their numeric
//! prefix (`'12abc' + 1 = 13`, `'abc' + 1 = 1`, `'1e3x' + 0 = 1000.0`).
//! INTEGER op INTEGER stays INTEGER unless `+ - * /` overflow, which redoes
//! the operation in REAL. Division and remainder by zero give NULL; so does
//! a NaN result. Integer division truncates toward zero; `%` has the sign of
//! the dividend.

use super::num::{atof, atoi64, numeric_prefix};
use super::{Text, Value, real_to_i64};

#[derive(Clone, Copy)]
enum Arith {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

/// The numeric class of an operand; REAL operands are re-read as doubles
/// by `real_of`, as SQLite does.
#[derive(Clone, Copy)]
enum Num {
    Int(i64),
    Real,
}

/// The numeric type and value of a non-NULL operand (`numericType`).
#[inline]
fn numeric(v: &Value) -> Num {
    match v {
        Value::Integer(i) => Num::Int(*i),
        Value::Real(_) => Num::Real,
        Value::Text(s) => from_prefix(s.as_bytes()),
        Value::Blob(b) => from_prefix(b),
        Value::Null => Num::Int(0),
    }
}

fn from_prefix(z: &[u8]) -> Num {
    match numeric_prefix(z) {
        Value::Integer(i) => Num::Int(i),
        Value::Real(_) => Num::Real,
        _ => Num::Int(0),
    }
}

/// `sqlite3VdbeRealValue` for an operand.
fn real_of(v: &Value) -> f64 {
    match v {
        Value::Integer(i) => *i as f64,
        Value::Real(r) => *r,
        Value::Text(s) => atof(s.as_bytes()).value,
        Value::Blob(b) => atof(b).value,
        Value::Null => 0.0,
    }
}

/// `sqlite3VdbeIntValue` for an operand (TEXT by its leading integer).
fn int_of(v: &Value) -> i64 {
    match v {
        Value::Integer(i) => *i,
        Value::Real(r) => real_to_i64(*r),
        Value::Text(s) => atoi64(s.as_bytes()).0,
        Value::Blob(b) => atoi64(b).0,
        Value::Null => 0,
    }
}

fn arith(op: Arith, a: &Value, b: &Value) -> Value {
    if a.is_null() || b.is_null() {
        return Value::Null;
    }
    if let (Num::Int(x), Num::Int(y)) = (numeric(a), numeric(b)) {
        let exact = match op {
            Arith::Add => x.checked_add(y),
            Arith::Sub => x.checked_sub(y),
            Arith::Mul => x.checked_mul(y),
            Arith::Div => {
                if y == 0 {
                    return Value::Null;
                }
                // i64::MIN / -1 overflows: fall through to REAL.
                x.checked_div(y)
            }
            Arith::Rem => {
                if y == 0 {
                    return Value::Null;
                }
                Some(x % if y == -1 { 1 } else { y })
            }
        };
        if let Some(v) = exact {
            return Value::Integer(v);
        }
    }
    // Floating point, with the operands' double values (not the prefix
    // numbers: `sqlite3VdbeRealValue` re-reads the text).
    let (x, y) = (real_of(a), real_of(b));
    let r = match op {
        Arith::Add => x + y,
        Arith::Sub => x - y,
        Arith::Mul => x * y,
        Arith::Div => {
            if y == 0.0 {
                return Value::Null;
            }
            x / y
        }
        Arith::Rem => {
            // SQLite takes the integer values (TEXT by leading integer).
            let (ix, iy) = (int_of(a), int_of(b));
            if iy == 0 {
                return Value::Null;
            }
            (ix % if iy == -1 { 1 } else { iy }) as f64
        }
    };
    if r.is_nan() { Value::Null } else { Value::Real(r) }
}

/// `a + b`.
pub fn add(a: &Value, b: &Value) -> Value {
    arith(Arith::Add, a, b)
}

/// `a - b`.
pub fn sub(a: &Value, b: &Value) -> Value {
    arith(Arith::Sub, a, b)
}

/// `a * b`.
pub fn mul(a: &Value, b: &Value) -> Value {
    arith(Arith::Mul, a, b)
}

/// `a / b`: integer division for two integers; NULL when dividing by zero.
pub fn div(a: &Value, b: &Value) -> Value {
    arith(Arith::Div, a, b)
}

/// `a % b`: remainder of the integer values; REAL when either operand is
/// REAL (or REAL-looking text); NULL when the divisor is zero.
pub fn rem(a: &Value, b: &Value) -> Value {
    arith(Arith::Rem, a, b)
}

/// Unary `-a`, which SQLite evaluates as `0 - a`.
pub fn negate(a: &Value) -> Value {
    arith(Arith::Sub, &Value::Integer(0), a)
}

/// `~a` on the integer value; NULL stays NULL.
pub fn bit_not(a: &Value) -> Value {
    if a.is_null() { Value::Null } else { Value::Integer(!int_of(a)) }
}

/// `a & b` on the integer values.
pub fn bit_and(a: &Value, b: &Value) -> Value {
    if a.is_null() || b.is_null() {
        return Value::Null;
    }
    Value::Integer(int_of(a) & int_of(b))
}

/// `a | b` on the integer values.
pub fn bit_or(a: &Value, b: &Value) -> Value {
    if a.is_null() || b.is_null() {
        return Value::Null;
    }
    Value::Integer(int_of(a) | int_of(b))
}

/// `a << b`: a negative count shifts the other way; 64 or more gives 0 (or
/// -1 for a right shift of a negative number).
pub fn shift_left(a: &Value, b: &Value) -> Value {
    shift(a, b, true)
}

/// `a >> b`: arithmetic (sign-extending) right shift; see [`shift_left`].
pub fn shift_right(a: &Value, b: &Value) -> Value {
    shift(a, b, false)
}

fn shift(a: &Value, b: &Value, mut left: bool) -> Value {
    if a.is_null() || b.is_null() {
        return Value::Null;
    }
    let x = int_of(a);
    let mut n = int_of(b);
    if n == 0 {
        return Value::Integer(x);
    }
    if n < 0 {
        left = !left;
        n = if n > -64 { -n } else { 64 };
    }
    let r = if n >= 64 {
        if x >= 0 || left { 0 } else { -1 }
    } else if left {
        ((x as u64) << n) as i64
    } else {
        x >> n
    };
    Value::Integer(r)
}

/// `a || b`: both sides as text; NULL if either is NULL.
pub fn concat(a: &Value, b: &Value) -> Value {
    if a.is_null() || b.is_null() {
        return Value::Null;
    }
    if let (Value::Text(x), Value::Text(y)) = (a, b) {
        let mut s = Vec::with_capacity(x.len() + y.len());
        s.extend_from_slice(x);
        s.extend_from_slice(y);
        return Value::Text(Text::from_bytes(s));
    }
    let mut out = Vec::new();
    a.append_text_bytes(&mut out);
    b.append_text_bytes(&mut out);
    Value::Blob(out).into_text().map_or(Value::Null, Value::Text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn i(x: i64) -> Value {
        Value::Integer(x)
    }
    fn t(s: &str) -> Value {
        Value::Text(s.into())
    }

    #[test]
    fn integer_division_and_remainder() {
        assert!(matches!(div(&i(7), &i(2)), Value::Integer(3)));
        assert!(matches!(div(&i(-7), &i(2)), Value::Integer(-3)));
        assert!(matches!(rem(&i(-7), &i(2)), Value::Integer(-1)));
        assert!(rem(&i(5), &i(0)).is_null());
        assert!(div(&i(5), &i(0)).is_null());
        assert!(matches!(div(&i(i64::MIN), &i(-1)), Value::Real(r) if r == 9.223372036854776e18));
        assert!(matches!(rem(&i(i64::MIN), &i(-1)), Value::Integer(0)));
    }

    #[test]
    fn overflow_goes_real() {
        assert!(matches!(add(&i(i64::MAX), &i(1)), Value::Real(_)));
        assert!(matches!(mul(&i(i64::MAX), &i(2)), Value::Real(_)));
        assert!(matches!(negate(&i(i64::MIN)), Value::Real(r) if r == 9.223372036854776e18));
    }

    #[test]
    fn text_operands() {
        assert!(matches!(add(&t("12abc"), &i(1)), Value::Integer(13)));
        assert!(matches!(add(&t("abc"), &i(1)), Value::Integer(1)));
        assert!(matches!(add(&t("1e3x"), &i(0)), Value::Real(r) if r == 1000.0));
        assert!(matches!(rem(&t("1e3"), &i(7)), Value::Real(r) if r == 1.0));
        assert!(add(&Value::Null, &i(1)).is_null());
    }

    #[test]
    fn bits() {
        assert!(matches!(shift_left(&i(1), &i(63)), Value::Integer(i64::MIN)));
        assert!(matches!(shift_left(&i(1), &i(64)), Value::Integer(0)));
        assert!(matches!(shift_right(&i(-8), &i(1)), Value::Integer(-4)));
        assert!(matches!(shift_right(&i(-8), &i(100)), Value::Integer(-1)));
        assert!(matches!(shift_left(&i(8), &i(-2)), Value::Integer(2)));
        assert!(matches!(bit_not(&i(0)), Value::Integer(-1)));
        assert!(matches!(bit_and(&t("6"), &i(3)), Value::Integer(2)));
    }

    #[test]
    fn concatenation() {
        assert!(matches!(concat(&i(1), &Value::Real(2.0)), Value::Text(s) if s == "12.0"));
        assert!(concat(&t("a"), &Value::Null).is_null());
    }
}
