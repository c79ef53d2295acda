//! Values in and out: parameters ([`IntoValue`], [`IntoParams`],
//! [`params!`](crate::params), [`named_params!`](crate::named_params)) and
//! typed reads of result rows ([`Row`], [`FromValue`]).
//!
//! Conversions out of a row are strict, as in rusqlite: an INTEGER reads as
//! `i64` (and as `f64`), a REAL as `f64` only, TEXT as `String`, BLOB (or
//! TEXT) as `Vec<u8>`; NULL reads only as `Option<T>` or [`Value`]. A
//! mismatch is an [`Error::Conversion`], never a silent coercion. TEXT is
//! bytes, as in SQLite ([`asadb_sql::value::Text`]): text whose bytes are
//! not UTF-8 (made by `CAST(x'ff' AS TEXT)`) reads as `Vec<u8>` or
//! [`Value`], and as `String` is a conversion error, as rusqlite's.

use std::sync::Arc;

pub use asadb_sql::Value;
pub use asadb_sql::session::Params;

use crate::error::{Error, Result};

/// A Rust value that can be bound to a statement parameter.
///
/// A trait of our own rather than `Into<Value>`, so that `bool`, `i32` or
/// `Option<T>` can be bound without `Value` having to implement `From` for
/// each of them.
pub trait IntoValue {
    fn into_value(self) -> Value;
}

impl IntoValue for Value {
    fn into_value(self) -> Value {
        self
    }
}
impl IntoValue for &Value {
    fn into_value(self) -> Value {
        self.clone()
    }
}
macro_rules! int_into_value {
    ($($t:ty),*) => {$(
        impl IntoValue for $t {
            fn into_value(self) -> Value {
                Value::Integer(i64::from(self))
            }
        }
    )*};
}
int_into_value!(i64, i32, i16, i8, u32, u16, u8, bool);
impl IntoValue for f64 {
    fn into_value(self) -> Value {
        Value::Real(self)
    }
}
impl IntoValue for f32 {
    fn into_value(self) -> Value {
        Value::Real(f64::from(self))
    }
}
impl IntoValue for &str {
    fn into_value(self) -> Value {
        Value::Text(self.to_owned().into())
    }
}
impl IntoValue for String {
    fn into_value(self) -> Value {
        Value::Text(self.into())
    }
}
impl IntoValue for &String {
    fn into_value(self) -> Value {
        Value::Text(self.clone().into())
    }
}
impl IntoValue for Vec<u8> {
    fn into_value(self) -> Value {
        Value::Blob(self)
    }
}
impl IntoValue for &[u8] {
    fn into_value(self) -> Value {
        Value::Blob(self.to_vec())
    }
}
impl<T: IntoValue> IntoValue for Option<T> {
    fn into_value(self) -> Value {
        self.map_or(Value::Null, IntoValue::into_value)
    }
}

/// Something that supplies a statement's parameters: `()` for none, a
/// tuple, array, slice or `Vec` of [`IntoValue`] for `?`/`?N`, a slice,
/// array or `Vec` of `(name, value)` pairs for `:name` (the name with or
/// without its prefix), or [`Params`] itself.
pub trait IntoParams {
    fn into_params(self) -> Params;
}

impl IntoParams for Params {
    fn into_params(self) -> Params {
        self
    }
}
impl IntoParams for &Params {
    fn into_params(self) -> Params {
        self.clone()
    }
}
impl IntoParams for () {
    fn into_params(self) -> Params {
        Params::None
    }
}
impl<T: IntoValue, const N: usize> IntoParams for [T; N] {
    fn into_params(self) -> Params {
        Params::Positional(self.into_iter().map(IntoValue::into_value).collect())
    }
}
impl<T: IntoValue + Clone> IntoParams for &[T] {
    fn into_params(self) -> Params {
        Params::Positional(self.iter().cloned().map(IntoValue::into_value).collect())
    }
}
impl<T: IntoValue> IntoParams for Vec<T> {
    fn into_params(self) -> Params {
        Params::Positional(self.into_iter().map(IntoValue::into_value).collect())
    }
}
impl<T: IntoValue + Clone> IntoParams for &[(&str, T)] {
    fn into_params(self) -> Params {
        Params::Named(self.iter().map(|(k, v)| (k.to_string(), v.clone().into_value())).collect())
    }
}
impl<T: IntoValue, const N: usize> IntoParams for [(&str, T); N] {
    fn into_params(self) -> Params {
        Params::Named(self.into_iter().map(|(k, v)| (k.to_string(), v.into_value())).collect())
    }
}
impl<T: IntoValue> IntoParams for Vec<(String, T)> {
    fn into_params(self) -> Params {
        Params::Named(self.into_iter().map(|(k, v)| (k, v.into_value())).collect())
    }
}

macro_rules! tuple_params {
    ($($name:ident),+) => {
        impl<$($name: IntoValue),+> IntoParams for ($($name,)+) {
            #[allow(non_snake_case)]
            fn into_params(self) -> Params {
                let ($($name,)+) = self;
                Params::Positional(vec![$($name.into_value()),+])
            }
        }
    };
}
tuple_params!(A);
tuple_params!(A, B);
tuple_params!(A, B, C);
tuple_params!(A, B, C, D);
tuple_params!(A, B, C, D, E);
tuple_params!(A, B, C, D, E, F);
tuple_params!(A, B, C, D, E, F, G);
tuple_params!(A, B, C, D, E, F, G, H);
tuple_params!(A, B, C, D, E, F, G, H, I);
tuple_params!(A, B, C, D, E, F, G, H, I, J);
tuple_params!(A, B, C, D, E, F, G, H, I, J, K);
tuple_params!(A, B, C, D, E, F, G, H, I, J, K, L);

/// Positional parameters of mixed types: `params![1, "x", None::<i64>]`.
#[macro_export]
macro_rules! params {
    () => { $crate::Params::None };
    ($($v:expr),+ $(,)?) => {
        $crate::Params::Positional(vec![$($crate::IntoValue::into_value($v)),+])
    };
}

/// Named parameters of mixed types: `named_params! { ":id" => 1, ":name" => "x" }`.
#[macro_export]
macro_rules! named_params {
    () => { $crate::Params::None };
    ($($k:expr => $v:expr),+ $(,)?) => {
        $crate::Params::Named(vec![$((String::from($k), $crate::IntoValue::into_value($v))),+])
    };
}

/// A Rust type a result value can be read as (strictly; see the module
/// docs). `column` is only used in the error.
pub trait FromValue: Sized {
    fn from_value(value: &Value, column: usize) -> Result<Self>;
}

fn mismatch<T>(value: &Value, column: usize, expected: &'static str) -> Result<T> {
    Err(Error::Conversion { column, expected, found: value.type_name() })
}

impl FromValue for Value {
    fn from_value(value: &Value, _: usize) -> Result<Self> {
        Ok(value.clone())
    }
}
impl FromValue for i64 {
    fn from_value(value: &Value, column: usize) -> Result<Self> {
        match value {
            Value::Integer(i) => Ok(*i),
            _ => mismatch(value, column, "i64"),
        }
    }
}
macro_rules! narrow_int_from_value {
    ($($t:ty),*) => {$(
        impl FromValue for $t {
            fn from_value(value: &Value, column: usize) -> Result<Self> {
                match value {
                    Value::Integer(i) => <$t>::try_from(*i)
                        .or_else(|_| mismatch(value, column, concat!(stringify!($t), " (out of range)"))),
                    _ => mismatch(value, column, stringify!($t)),
                }
            }
        }
    )*};
}
narrow_int_from_value!(i32, u32, u64, usize);
impl FromValue for f64 {
    fn from_value(value: &Value, column: usize) -> Result<Self> {
        match value {
            Value::Real(r) => Ok(*r),
            Value::Integer(i) => Ok(*i as f64),
            _ => mismatch(value, column, "f64"),
        }
    }
}
impl FromValue for bool {
    fn from_value(value: &Value, column: usize) -> Result<Self> {
        match value {
            Value::Integer(i) => Ok(*i != 0),
            _ => mismatch(value, column, "bool"),
        }
    }
}
impl FromValue for String {
    fn from_value(value: &Value, column: usize) -> Result<Self> {
        match value {
            Value::Text(s) => match s.to_str() {
                Some(s) => Ok(s.to_owned()),
                None => Err(Error::Conversion {
                    column,
                    expected: "String",
                    found: "text that is not valid UTF-8",
                }),
            },
            _ => mismatch(value, column, "String"),
        }
    }
}
impl FromValue for Vec<u8> {
    fn from_value(value: &Value, column: usize) -> Result<Self> {
        match value {
            Value::Blob(b) => Ok(b.clone()),
            Value::Text(s) => Ok(s.as_bytes().to_vec()),
            _ => mismatch(value, column, "Vec<u8>"),
        }
    }
}
impl<T: FromValue> FromValue for Option<T> {
    fn from_value(value: &Value, column: usize) -> Result<Self> {
        match value {
            Value::Null => Ok(None),
            v => T::from_value(v, column).map(Some),
        }
    }
}

/// One result row: values with the result's column names.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    columns: Arc<[String]>,
    values: Vec<Value>,
}

impl Row {
    pub(crate) fn new(columns: Arc<[String]>, values: Vec<Value>) -> Row {
        Row { columns, values }
    }

    /// The value at `index` (0-based) as `T`.
    pub fn get<T: FromValue>(&self, index: usize) -> Result<T> {
        let v =
            self.values.get(index).ok_or(Error::ColumnIndex { index, count: self.values.len() })?;
        T::from_value(v, index)
    }

    /// The value of the first column named `name` (ASCII case-insensitive,
    /// as SQL names are) as `T`.
    pub fn get_by_name<T: FromValue>(&self, name: &str) -> Result<T> {
        let index = self
            .columns
            .iter()
            .position(|c| c.eq_ignore_ascii_case(name))
            .ok_or_else(|| Error::NoSuchColumn(name.to_string()))?;
        self.get(index)
    }

    /// The raw value at `index`, if there is one.
    pub fn value(&self, index: usize) -> Option<&Value> {
        self.values.get(index)
    }

    pub fn values(&self) -> &[Value] {
        &self.values
    }

    pub fn into_values(self) -> Vec<Value> {
        self.values
    }

    pub fn columns(&self) -> &[String] {
        &self.columns
    }

    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(values: Vec<Value>) -> Row {
        let cols: Vec<String> = (0..values.len()).map(|i| format!("c{i}")).collect();
        Row::new(cols.into(), values)
    }

    #[test]
    fn strict_conversions() {
        let r = row(vec![
            Value::Integer(7),
            Value::Real(1.5),
            Value::Text("hé".into()),
            Value::Blob(vec![0, 1]),
            Value::Null,
        ]);
        assert_eq!(r.get::<i64>(0).unwrap(), 7);
        assert_eq!(r.get::<f64>(0).unwrap(), 7.0);
        assert!(r.get::<bool>(0).unwrap());
        assert_eq!(r.get::<f64>(1).unwrap(), 1.5);
        assert!(matches!(r.get::<i64>(1), Err(Error::Conversion { column: 1, .. })));
        assert_eq!(r.get::<String>(2).unwrap(), "hé");
        assert_eq!(r.get::<Vec<u8>>(2).unwrap(), "hé".as_bytes());
        assert_eq!(r.get::<Vec<u8>>(3).unwrap(), vec![0, 1]);
        assert!(r.get::<String>(3).is_err());
        assert_eq!(r.get::<Option<i64>>(4).unwrap(), None);
        assert_eq!(r.get::<Option<i64>>(0).unwrap(), Some(7));
        assert!(r.get::<i64>(4).is_err());
        assert_eq!(r.get::<Value>(4).unwrap(), Value::Null);
        assert!(matches!(r.get::<i64>(9), Err(Error::ColumnIndex { index: 9, count: 5 })));
        assert_eq!(r.get_by_name::<i64>("C0").unwrap(), 7);
        assert!(matches!(r.get_by_name::<i64>("nope"), Err(Error::NoSuchColumn(_))));
    }

    #[test]
    fn narrow_ints_check_range() {
        let r = row(vec![Value::Integer(-1), Value::Integer(i64::MAX)]);
        assert_eq!(r.get::<i32>(0).unwrap(), -1);
        assert!(r.get::<u32>(0).is_err());
        assert!(r.get::<i32>(1).is_err());
        assert_eq!(r.get::<u64>(1).unwrap(), i64::MAX as u64);
    }

    #[test]
    fn params_of_every_style() {
        assert!(matches!(().into_params(), Params::None));
        let Params::Positional(v) = (1, "a", 2.5, None::<i64>, true).into_params() else {
            panic!("tuple is positional")
        };
        assert_eq!(
            v,
            vec![
                Value::Integer(1),
                Value::Text("a".into()),
                Value::Real(2.5),
                Value::Null,
                Value::Integer(1)
            ]
        );
        let Params::Positional(v) = [1i64, 2, 3].into_params() else { panic!() };
        assert_eq!(v.len(), 3);
        let Params::Positional(v) = (&[4i64, 5][..]).into_params() else { panic!() };
        assert_eq!(v, vec![Value::Integer(4), Value::Integer(5)]);
        let Params::Named(n) = (&[(":a", Value::Integer(1))][..]).into_params() else { panic!() };
        assert_eq!(n, vec![(":a".to_string(), Value::Integer(1))]);
        let Params::Named(n) = [("b", "x")].into_params() else { panic!() };
        assert_eq!(n, vec![("b".to_string(), Value::Text("x".into()))]);
        let Params::Positional(v) = crate::params![1, "x", vec![9u8]] else { panic!() };
        assert_eq!(v[2], Value::Blob(vec![9]));
        let Params::Named(n) = crate::named_params!(":k" => 3) else { panic!() };
        assert_eq!(n[0].1, Value::Integer(3));
    }
}
