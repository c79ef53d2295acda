//! Built-in SQL functions with SQLite's semantics: scalar functions
//! ([`scalar`]), aggregates ([`Aggregate`]), and the LIKE/GLOB matchers.
//!
//! Each function is a port of SQLite 3.54's `func.c` (the `rusqlite`-bundled
//! version our differential tests compare against). The executor calls
//! these by lower-case name with already-evaluated arguments, so functions
//! that SQLite evaluates lazily (`coalesce`, `ifnull`, `iif`) receive all
//! their arguments here; that only matters for side effects, which none of
//! the arguments can have in our dialect except `random()`.
//!
//! Operators map onto functions with SQLite's argument order:
//! `X LIKE Y ESCAPE Z` is `like(Y, X, Z)` and `X GLOB Y` is `glob(Y, X)`.
//!
//! Argument-count errors use SQLite's text, `wrong number of arguments to
//! function X()`; unknown names give `no such function: X`.

mod aggregate;
mod pattern;
mod printf;
mod scalar;

pub use aggregate::Aggregate;
pub use pattern::{glob, like};
pub use printf::set_max_length;
pub use scalar::{glob_values, like_values, scalar, scalar_collated};

/// True if `name` (lower case) is an aggregate function. `min` and `max`
/// are aggregates only with one argument; see [`is_aggregate_call`].
pub fn is_aggregate(name: &str) -> bool {
    matches!(
        name,
        "count" | "sum" | "total" | "avg" | "min" | "max" | "group_concat" | "string_agg"
    )
}

/// True if a call of `name` with `nargs` arguments is an aggregate:
/// `min(x)` is, `min(x, y)` is the scalar function.
pub fn is_aggregate_call(name: &str, nargs: usize) -> bool {
    match name {
        "min" | "max" => nargs == 1,
        _ => is_aggregate(name),
    }
}

/// The error for a call with the wrong number of arguments.
pub(crate) fn wrong_args<T>(name: &str) -> crate::Result<T> {
    crate::errinput!("wrong number of arguments to function {name}()")
}
