//! SQLite's math functions (`func.c` under `SQLITE_ENABLE_MATH_FUNCTIONS`,
//! the set the SQLite CLI ships): `acos` … `trunc`, `ln`, `log`, `log2`,
//! `log10`, `mod`, `pi`, `pow`/`power`, `degrees`, `radians`.
//!
//! SQLite's type rules, kept exactly:
//! - An argument is numeric when it is an INTEGER or a REAL, or TEXT that is
//!   wholly a number (`sqlite3_value_numeric_type`: `' 12 '` is the INTEGER
//!   12, `'1.0'` the REAL 1.0); anything else (NULL, a BLOB, `'12abc'`)
//!   makes the result NULL.
//! - `ceil`/`ceiling`/`floor`/`trunc` return an INTEGER argument unchanged
//!   (as INTEGER), and a REAL rounded as a REAL.
//! - Every other function computes on doubles and returns a REAL; a NaN
//!   result (a domain error: `acos(2)`, `sqrt(-1)`, `mod(1, 0)`) is NULL,
//!   infinities stay (`exp(1000)`). `ln`/`log` of a number `<= 0` is NULL;
//!   `log(B, X)` is NULL for a base `<= 1`, and reads X as SQLite does (its
//!   numeric value, without the numeric-type check: `log(10, '100x')` is 2).
//!
//! The results are those of the C library's `libm`, which SQLite calls:
//! Rust's `f64` methods call the same functions, except for `acosh`,
//! `asinh` and `atanh`, which std computes itself, so those three are taken
//! from the C library directly.

use super::{Env, arity};
use crate::Result;
use crate::value::{Value, numeric_text_bytes};

/// The math functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Math {
    Acos,
    Acosh,
    Asin,
    Asinh,
    Atan,
    Atan2,
    Atanh,
    Ceil,
    Cos,
    Cosh,
    Degrees,
    Exp,
    Floor,
    Ln,
    Log,
    Log10,
    Log2,
    Mod,
    Pi,
    Pow,
    Radians,
    Sin,
    Sinh,
    Sqrt,
    Tan,
    Tanh,
    Trunc,
}

/// A function's name, variant, and whether it takes `n` arguments.
type Entry = (&'static str, Math, fn(usize) -> bool);

const TABLE: &[Entry] = {
    use Math as M;
    &[
        ("acos", M::Acos, |n| n == 1),
        ("acosh", M::Acosh, |n| n == 1),
        ("asin", M::Asin, |n| n == 1),
        ("asinh", M::Asinh, |n| n == 1),
        ("atan", M::Atan, |n| n == 1),
        ("atan2", M::Atan2, |n| n == 2),
        ("atanh", M::Atanh, |n| n == 1),
        ("ceil", M::Ceil, |n| n == 1),
        ("ceiling", M::Ceil, |n| n == 1),
        ("cos", M::Cos, |n| n == 1),
        ("cosh", M::Cosh, |n| n == 1),
        ("degrees", M::Degrees, |n| n == 1),
        ("exp", M::Exp, |n| n == 1),
        ("floor", M::Floor, |n| n == 1),
        ("ln", M::Ln, |n| n == 1),
        ("log", M::Log, |n| n == 1 || n == 2),
        ("log10", M::Log10, |n| n == 1),
        ("log2", M::Log2, |n| n == 1),
        ("mod", M::Mod, |n| n == 2),
        ("pi", M::Pi, |n| n == 0),
        ("pow", M::Pow, |n| n == 2),
        ("power", M::Pow, |n| n == 2),
        ("radians", M::Radians, |n| n == 1),
        ("sin", M::Sin, |n| n == 1),
        ("sinh", M::Sinh, |n| n == 1),
        ("sqrt", M::Sqrt, |n| n == 1),
        ("tan", M::Tan, |n| n == 1),
        ("tanh", M::Tanh, |n| n == 1),
        ("trunc", M::Trunc, |n| n == 1),
    ]
};

// The C library's inverse hyperbolic functions (what SQLite calls): plain
// functions of a double, with no memory access, so safe to call.
unsafe extern "C" {
    #[link_name = "acosh"]
    safe fn c_acosh(x: f64) -> f64;
    #[link_name = "asinh"]
    safe fn c_asinh(x: f64) -> f64;
    #[link_name = "atanh"]
    safe fn c_atanh(x: f64) -> f64;
}

/// `sqlite3_value_numeric_type` and the value it leaves: INTEGER and REAL
/// as they are, TEXT that is wholly a number as that number (REAL when
/// written with a point or an exponent), anything else `None`.
fn numeric(v: &Value) -> Option<Value> {
    match v {
        Value::Integer(_) | Value::Real(_) => Some(v.clone()),
        Value::Text(s) => numeric_text_bytes(s.as_bytes(), false),
        Value::Null | Value::Blob(_) => None,
    }
}

/// A REAL result; NaN (a domain error) is NULL, as SQLite stores it.
fn real(r: f64) -> Value {
    if r.is_nan() { Value::Null } else { Value::Real(r) }
}

impl Math {
    /// `None` if `name` (lower case) is not a math function; else the
    /// function, or the arity error for `nargs`.
    pub fn resolve(name: &str, nargs: usize) -> Option<Result<Math>> {
        let (n, f, ok) = TABLE.iter().find(|e| e.0 == name)?;
        Some(arity(n, ok(nargs)).map(|_| *f))
    }

    pub fn name(self) -> &'static str {
        TABLE.iter().find(|e| e.1 == self).map_or("?", |e| e.0)
    }

    /// Evaluates the function on `args` (already checked for arity).
    pub fn call(self, args: &[Value], _env: &Env) -> Result<Value> {
        use Math as M;
        use std::f64::consts::PI;
        // Only pi() takes no argument.
        let Some(first) = args.first() else { return Ok(Value::Real(PI)) };
        let Some(x) = numeric(first) else { return Ok(Value::Null) };
        let xf = x.to_f64();
        // ceil, floor, trunc: an INTEGER stays as it is.
        let round = |f: fn(f64) -> f64| match x {
            Value::Integer(i) => Value::Integer(i),
            _ => real(f(xf)),
        };
        let two = |f: fn(f64, f64) -> f64| match args.get(1).and_then(numeric) {
            Some(y) => real(f(xf, y.to_f64())),
            None => Value::Null,
        };
        Ok(match self {
            M::Pi => Value::Real(PI),
            M::Ceil => round(f64::ceil),
            M::Floor => round(f64::floor),
            M::Trunc => round(f64::trunc),
            M::Ln | M::Log | M::Log10 | M::Log2 => log(self, xf, args.get(1)),
            M::Atan2 => two(f64::atan2),
            M::Mod => two(|a, b| a % b),
            M::Pow => two(f64::powf),
            M::Acos => real(xf.acos()),
            M::Acosh => real(c_acosh(xf)),
            M::Asin => real(xf.asin()),
            M::Asinh => real(c_asinh(xf)),
            M::Atan => real(xf.atan()),
            M::Atanh => real(c_atanh(xf)),
            M::Cos => real(xf.cos()),
            M::Cosh => real(xf.cosh()),
            M::Degrees => real(xf * (180.0 / PI)),
            M::Exp => real(xf.exp()),
            M::Radians => real(xf * (PI / 180.0)),
            M::Sin => real(xf.sin()),
            M::Sinh => real(xf.sinh()),
            M::Sqrt => real(xf.sqrt()),
            M::Tan => real(xf.tan()),
            M::Tanh => real(xf.tanh()),
        })
    }
}

/// `ln(x)`, `log(x)` (base 10), `log10(x)`, `log2(x)`, `log(b, x)`: NULL
/// for an argument `<= 0` or a base `<= 1`.
fn log(f: Math, x: f64, second: Option<&Value>) -> Value {
    if x <= 0.0 {
        return Value::Null;
    }
    if let Some(v) = second {
        // log(B, X): `x` is the base.
        let b = x.ln();
        if b <= 0.0 {
            return Value::Null;
        }
        let x = v.to_f64();
        if x <= 0.0 {
            return Value::Null;
        }
        return real(x.ln() / b);
    }
    real(match f {
        Math::Ln => x.ln(),
        Math::Log2 => x.log2(),
        _ => x.log10(),
    })
}

#[cfg(test)]
mod tests {
    use crate::func::scalar;
    use crate::value::Value;

    fn call(name: &str, args: &[Value]) -> Value {
        scalar(name, args).unwrap()
    }

    #[test]
    fn types_and_domains() {
        assert!(matches!(call("ceil", &[Value::Integer(7)]), Value::Integer(7)));
        assert!(matches!(call("floor", &[Value::Real(-1.5)]), Value::Real(r) if r == -2.0));
        assert!(matches!(call("trunc", &["-2.7".into()]), Value::Real(r) if r == -2.0));
        assert!(matches!(call("ceiling", &[" 3 ".into()]), Value::Integer(3)));
        assert!(call("ceil", &["3x".into()]).is_null());
        assert!(call("sqrt", &[Value::Integer(-1)]).is_null());
        assert!(call("acos", &[Value::Integer(2)]).is_null());
        assert!(call("mod", &[Value::Integer(1), Value::Integer(0)]).is_null());
        assert!(call("ln", &[Value::Integer(0)]).is_null());
        assert!(call("log", &[Value::Integer(1), Value::Integer(8)]).is_null());
        assert!(
            matches!(call("log", &[Value::Integer(2), Value::Integer(8)]), Value::Real(r) if r == 3.0)
        );
        assert!(matches!(call("exp", &[Value::Integer(1000)]), Value::Real(r) if r.is_infinite()));
        assert!(matches!(call("pi", &[]), Value::Real(r) if r == std::f64::consts::PI));
        assert!(call("sin", &[Value::Blob(vec![b'1'])]).is_null());
        assert_eq!(
            scalar("atan2", &[Value::Integer(1)]).unwrap_err().to_string(),
            "wrong number of arguments to function atan2()"
        );
    }
}
