//! Built-in SQL functions with SQLite's semantics: scalar functions
//! ([`Func`]), aggregates ([`Aggregate`]), and the LIKE/GLOB matchers.
//!
//! Functions are resolved when a statement is bound, not when it runs:
//! [`Func::resolve`] turns a name and an argument count into a [`Func`]
//! (or SQLite's errors, `no such function: X` and `wrong number of
//! arguments to function X()`), so a misspelt or mis-called function fails
//! at prepare time even when no row is ever evaluated, and evaluation does
//! no name lookups. Each family lives in its own module and owns its names
//! and arities:
//! - [`scalar`] — SQLite's core `func.c` (abs … zeroblob);
//! - [`datetime`] — `date.c`: date, time, datetime, julianday, unixepoch,
//!   strftime, timediff and the `CURRENT_*` functions;
//! - [`math`] — the `SQLITE_ENABLE_MATH_FUNCTIONS` set (acos … trunc);
//! - [`json`] — SQLite's `json.c` (json … json_valid, `->`, `->>`, the
//!   `jsonb_*` variants, the JSON aggregates and `json_each`/`json_tree`);
//! - [`table`] — table-valued functions in FROM ([`TableFunc`]);
//!
//! A family adds itself by a variant of [`Func`] and one line each in
//! [`Func::resolve`], [`Func::call`] and [`Func::name`].
//!
//! Each function is a port of the behaviour of SQLite 3.54 (the version
//! `rusqlite` bundles, which our differential tests compare against).
//! `coalesce`, `ifnull` and `iif` evaluate their arguments lazily, as
//! SQLite's do (see [`Func::lazy`]): an argument after the chosen one is
//! never evaluated, so its errors do not surface.
//!
//! Operators map onto functions with SQLite's argument order:
//! `X LIKE Y ESCAPE Z` is `like(Y, X, Z)` and `X GLOB Y` is `glob(Y, X)`.

mod aggregate;
mod datetime;
pub mod json;
pub mod list;
mod math;
mod pattern;
pub(crate) mod printf;
pub(crate) mod scalar;
pub mod table;

use std::cell::Cell;

pub use aggregate::Aggregate;
pub use datetime::DateTimeFn;
pub use json::Json;
pub use math::Math;
pub use pattern::{glob, like};
pub use printf::set_max_length;
pub use scalar::{Scalar, glob_values, like_values, quote};
pub use table::{TableCursor, TableFunc};

use crate::Result;
use crate::value::{Collation, Value};

/// A resolved scalar function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Func {
    Scalar(Scalar),
    DateTime(DateTimeFn),
    Math(Math),
    Json(Json),
}

/// What a call may read besides its arguments.
pub struct Env<'a> {
    /// The collation SQLite picks for the call: that of the left-most
    /// argument with an explicit or column collation (`min`, `max`,
    /// `nullif` compare under it).
    pub coll: Collation,
    pub stmt: &'a StatementEnv,
    /// Which arguments carry SQLite's JSON subtype (see [`json`]); empty
    /// when the caller does not track it.
    pub json_args: &'a [bool],
}

/// Per-execution facts of one statement that functions may read.
#[derive(Debug, Default)]
pub struct StatementEnv {
    /// Unix time in milliseconds, fixed at its first use: `'now'` is one
    /// value for the whole statement, as in SQLite.
    now_ms: Cell<Option<i64>>,
}

impl StatementEnv {
    /// The statement's current time (Unix milliseconds), the same for every
    /// call within one execution.
    pub fn now_ms(&self) -> i64 {
        if let Some(t) = self.now_ms.get() {
            return t;
        }
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
        self.now_ms.set(Some(t));
        t
    }
}

impl Func {
    /// Resolves `name` (any case) called with `nargs` arguments.
    pub fn resolve(name: &str, nargs: usize) -> Result<Func> {
        let lower = name.to_ascii_lowercase();
        if let Some(r) = Scalar::resolve(&lower, nargs) {
            return r.map(Func::Scalar);
        }
        if let Some(r) = DateTimeFn::resolve(&lower, nargs) {
            return r.map(Func::DateTime);
        }
        if let Some(r) = Math::resolve(&lower, nargs) {
            return r.map(Func::Math);
        }
        if let Some(r) = Json::resolve(&lower, nargs) {
            return r.map(Func::Json);
        }
        if is_aggregate(&lower) {
            return crate::errinput!("misuse of aggregate function {lower}()");
        }
        crate::errinput!("no such function: {lower}")
    }

    /// Calls the function on evaluated arguments.
    pub fn call(self, args: &[Value], env: &Env) -> Result<Value> {
        match self {
            Func::Scalar(f) => f.call(args, env),
            Func::DateTime(f) => f.call(args, env),
            Func::Math(f) => f.call(args, env),
            Func::Json(f) => f.call(args, env).map(|r| r.0),
        }
    }

    /// [`Func::call`], also saying whether the result carries the JSON
    /// subtype: JSON functions' results do, and the functions that return
    /// one of their arguments pass that argument's on.
    pub fn call_subtyped(self, args: &[Value], env: &Env) -> Result<(Value, bool)> {
        let arg = |i: usize| env.json_args.get(i).copied().unwrap_or(false);
        match self {
            Func::Json(f) => f.call(args, env),
            Func::DateTime(_) | Func::Math(_) => Ok((self.call(args, env)?, false)),
            Func::Scalar(f) => {
                let v = f.call(args, env)?;
                let json = match f {
                    Scalar::Likely | Scalar::Unlikely | Scalar::Likelihood => arg(0),
                    Scalar::NullIf => !v.is_null() && arg(0),
                    Scalar::Min | Scalar::Max => {
                        scalar::min_max_index(args, f == Scalar::Max, env.coll).is_some_and(arg)
                    }
                    _ => false,
                };
                Ok((v, json))
            }
        }
    }

    /// True if the function reads its arguments' JSON subtype (every JSON
    /// function; SQLite's `SQLITE_SUBTYPE`).
    pub fn reads_subtypes(self) -> bool {
        matches!(self, Func::Json(_))
    }

    /// True if the function may return an argument with its subtype.
    pub fn passes_subtypes(self) -> bool {
        matches!(
            self,
            Func::Scalar(
                Scalar::Likely
                    | Scalar::Unlikely
                    | Scalar::Likelihood
                    | Scalar::NullIf
                    | Scalar::Min
                    | Scalar::Max
            )
        )
    }

    /// The function's (lower-case) name.
    pub fn name(self) -> &'static str {
        match self {
            Func::Scalar(f) => f.name(),
            Func::DateTime(f) => f.name(),
            Func::Math(f) => f.name(),
            Func::Json(f) => f.name(),
        }
    }

    /// Which lazy rule the executor applies instead of evaluating every
    /// argument first (`None`: evaluate them all and [`Func::call`]).
    pub fn lazy(self) -> Option<Lazy> {
        match self {
            Func::Scalar(Scalar::Coalesce | Scalar::UsingCoalesce | Scalar::IfNull) => {
                Some(Lazy::FirstNonNull)
            }
            Func::Scalar(Scalar::Iif) => Some(Lazy::Iif),
            Func::Scalar(_) | Func::DateTime(_) | Func::Math(_) | Func::Json(_) => None,
        }
    }

    /// False for functions whose result may differ between two calls with
    /// the same arguments (`random()`, the current time).
    pub fn is_deterministic(self) -> bool {
        match self {
            Func::Scalar(f) => !matches!(
                f,
                Scalar::Random
                    | Scalar::RandomBlob
                    | Scalar::LastInsertRowid
                    | Scalar::Changes
                    | Scalar::TotalChanges
            ),
            // Any of them may read 'now' or the local time zone.
            Func::DateTime(_) => false,
            Func::Math(_) => true,
            Func::Json(_) => true,
        }
    }

    /// `likely(x)`, `unlikely(x)`, `likelihood(x, p)`: `x`, with a hint.
    pub fn is_likelihood(self) -> bool {
        matches!(self, Func::Scalar(Scalar::Likely | Scalar::Unlikely | Scalar::Likelihood))
    }

    /// True if two calls with the same arguments in one statement give the
    /// same result: deterministic, or a date and time function (`'now'` is
    /// fixed for a statement). SQLite's EP_ConstFunc (SQLITE_FUNC_CONSTANT
    /// or SQLITE_FUNC_SLOCHNG), which lets a WHERE term calling one be
    /// tested once before the loops.
    pub fn is_constant_in_statement(self) -> bool {
        self.is_deterministic() || matches!(self, Func::DateTime(_))
    }
}

/// Functions that evaluate their arguments one at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lazy {
    /// `coalesce`, `ifnull`: the first non-NULL argument.
    FirstNonNull,
    /// `iif(c1, v1, c2, v2, …, [else])`.
    Iif,
}

/// Resolves and calls `name` on `args` (binary collation, a fresh
/// statement clock): for tests and one-off evaluation.
pub fn scalar(name: &str, args: &[Value]) -> Result<Value> {
    scalar_collated(name, args, Collation::Binary)
}

/// [`scalar`] under the collation `coll`.
pub fn scalar_collated(name: &str, args: &[Value], coll: Collation) -> Result<Value> {
    let stmt = StatementEnv::default();
    Func::resolve(name, args.len())?.call(args, &Env { coll, stmt: &stmt, json_args: &[] })
}

/// True if `name` (lower case) is an aggregate function. `min` and `max`
/// are aggregates only with one argument; see [`is_aggregate_call`].
pub fn is_aggregate(name: &str) -> bool {
    matches!(
        name,
        "count"
            | "sum"
            | "total"
            | "avg"
            | "min"
            | "max"
            | "group_concat"
            | "string_agg"
            | "json_group_array"
            | "jsonb_group_array"
            | "json_group_object"
            | "jsonb_group_object"
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

/// `Some(Ok(()))` when `ok`, else SQLite's arity error for `name`: the
/// shape family `resolve` functions return.
pub(crate) fn arity(name: &str, ok: bool) -> Result<()> {
    if ok { Ok(()) } else { wrong_args(name) }
}
