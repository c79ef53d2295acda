//! SQL values with SQLite's dynamic typing.

/// One SQL value. The storage classes are SQLite's: NULL, INTEGER (i64),
/// REAL (f64), TEXT (UTF-8) and BLOB.
#[derive(Clone, Debug)]
pub enum Value {
    Null,
    Integer(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}
