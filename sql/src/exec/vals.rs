//! The value semantics the executor uses, gathered in one place: H5's
//! `value` / `func` API (SQLite arithmetic, comparison, affinity, scalar
//! functions, aggregates). The executor never re-implements any of it.

pub use crate::func::{Aggregate, is_aggregate, scalar};
use crate::value::Value;
pub use crate::value::{
    Affinity, Collation, add, bit_and, bit_not, bit_or, compare, compare_collated,
    comparison_affinity, concat, div, mul, negate, rem, shift_left, shift_right, sql_compare, sub,
};

/// WHERE / CASE truth: NULL → `None`.
pub fn truthy(v: &Value) -> Option<bool> {
    v.truthy()
}

/// `CAST(v AS type)`.
pub fn cast(v: &Value, to: Affinity) -> Value {
    v.cast(to)
}
