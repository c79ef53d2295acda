//! `PRAGMA function_list`: the functions this engine has, one row per
//! (name, number of arguments), with SQLite's columns `name, builtin,
//! type, enc, narg, flags`.
//!
//! Scalar functions are found by asking [`Func::resolve`] about SQLite's
//! built-in names with 0..=[`MAX_PROBE`] arguments (a function that also
//! takes [`VARIADIC_PROBE`] arguments is listed once with SQLite's
//! negative `narg` for it: -1, or its encodings for `coalesce`, `iif`,
//! `min`, `max`), so the list cannot drift from what calls accept. Aggregates (`a`) and window functions (`w`) are listed
//! with their arities. `flags` is what SQLite shows for the same row:
//! its `SQLITE_INNOCUOUS` bit for every built-in (SQLite prints the
//! function's flags XOR that bit, and its built-ins are not marked
//! unsafe), `SQLITE_DETERMINISTIC` for deterministic scalars (the
//! date/time functions included: SQLite marks them constant within a
//! statement), and `SQLITE_SUBTYPE` for the JSON functions that read
//! their arguments' JSON subtype. Checked row by row against the bundled
//! SQLite (`pragma_differential`).

use super::Func;
use crate::value::Value;

/// Largest fixed argument count probed.
const MAX_PROBE: usize = 6;
/// An argument count only a variadic function accepts.
const VARIADIC_PROBE: usize = 40;

/// SQLite's built-in scalar function names (core, date/time, math, JSON).
const SCALARS: &[&str] = &[
    "->",
    "->>",
    "abs",
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atan2",
    "atanh",
    "ceil",
    "ceiling",
    "changes",
    "char",
    "coalesce",
    "concat",
    "concat_ws",
    "cos",
    "cosh",
    "date",
    "datetime",
    "degrees",
    "exp",
    "floor",
    "format",
    "glob",
    "hex",
    "ifnull",
    "iif",
    "if",
    "instr",
    "json",
    "json_array",
    "json_array_length",
    "json_error_position",
    "json_extract",
    "json_insert",
    "json_object",
    "json_patch",
    "json_pretty",
    "json_quote",
    "json_remove",
    "json_replace",
    "json_set",
    "json_type",
    "json_valid",
    "jsonb",
    "jsonb_array",
    "jsonb_extract",
    "jsonb_insert",
    "jsonb_object",
    "jsonb_patch",
    "jsonb_remove",
    "jsonb_replace",
    "jsonb_set",
    "julianday",
    "last_insert_rowid",
    "length",
    "like",
    "likelihood",
    "likely",
    "ln",
    "log",
    "log10",
    "log2",
    "lower",
    "ltrim",
    "max",
    "min",
    "mod",
    "nullif",
    "octet_length",
    "pi",
    "pow",
    "power",
    "printf",
    "quote",
    "radians",
    "random",
    "randomblob",
    "replace",
    "round",
    "rtrim",
    "sign",
    "soundex",
    "sin",
    "sinh",
    "soundex",
    "sqlite_compileoption_get",
    "sqlite_compileoption_used",
    "sqlite_source_id",
    "sqlite_version",
    "sqrt",
    "strftime",
    "substr",
    "substring",
    "tan",
    "tanh",
    "time",
    "timediff",
    "total_changes",
    "trim",
    "trunc",
    "typeof",
    "unhex",
    "unicode",
    "unixepoch",
    "unlikely",
    "upper",
    "zeroblob",
];

/// Scalars SQLite does not mark deterministic: their result depends on
/// more than their arguments (the date/time functions, whose `'now'`
/// is fixed for a statement, are marked deterministic by SQLite).
const NOT_DETERMINISTIC: &[&str] =
    &["random", "randomblob", "changes", "total_changes", "last_insert_rowid", "sqlite_version"];

/// Aggregates: name, type (`w` when it also runs as a window function
/// with an inverse, as SQLite lists them), arities.
const AGGREGATES: &[(&str, &str, &[i64])] = &[
    ("avg", "w", &[1]),
    ("count", "w", &[0, 1]),
    ("group_concat", "w", &[1, 2]),
    ("json_group_array", "w", &[1]),
    ("json_group_object", "w", &[2]),
    ("jsonb_group_array", "w", &[1]),
    ("jsonb_group_object", "w", &[2]),
    ("max", "w", &[1]),
    ("min", "w", &[1]),
    ("string_agg", "w", &[2]),
    ("sum", "w", &[1]),
    ("total", "w", &[1]),
];

/// Window-only functions and their arities.
const WINDOWS: &[(&str, &[i64])] = &[
    ("cume_dist", &[0]),
    ("dense_rank", &[0]),
    ("first_value", &[1]),
    ("lag", &[1, 2, 3]),
    ("last_value", &[1]),
    ("lead", &[1, 2, 3]),
    ("nth_value", &[2]),
    ("ntile", &[1]),
    ("percent_rank", &[0]),
    ("rank", &[0]),
    ("row_number", &[0]),
];

/// SQLite's `narg` for its variadic functions that need a few arguments
/// (its internal encodings, as `function_list` shows them); others -1.
const VARIADIC_NARG: &[(&str, i64)] = &[
    ("coalesce", -4),
    ("concat", -3),
    ("concat_ws", -4),
    ("iif", -4),
    ("if", -4),
    ("max", -3),
    ("min", -3),
];

/// `SQLITE_DETERMINISTIC`.
const DETERMINISTIC: i64 = 0x800;
/// `SQLITE_SUBTYPE`: the function reads its arguments' subtypes.
const SUBTYPE: i64 = 0x10_0000;
/// `SQLITE_INNOCUOUS`, shown for every built-in.
const INNOCUOUS: i64 = 0x20_0000;

/// The JSON functions (scalar and aggregate) SQLite lists with
/// `SQLITE_SUBTYPE`: those whose arguments may be JSON values to embed.
const READS_SUBTYPE: &[&str] = &[
    "json_array",
    "json_insert",
    "json_object",
    "json_quote",
    "json_replace",
    "json_set",
    "jsonb_array",
    "jsonb_insert",
    "jsonb_object",
    "jsonb_replace",
    "jsonb_set",
    "json_group_array",
    "json_group_object",
    "jsonb_group_array",
    "jsonb_group_object",
];

/// A scalar's or aggregate's `flags` as SQLite shows them.
fn flags_of(name: &str, deterministic: bool) -> i64 {
    let det = if deterministic { DETERMINISTIC } else { 0 };
    let sub = if READS_SUBTYPE.contains(&name) { SUBTYPE | DETERMINISTIC } else { 0 };
    INNOCUOUS | det | sub
}

/// The rows of `PRAGMA function_list`.
pub fn function_list() -> Vec<Vec<Value>> {
    let row = |name: &str, ty: &str, narg: i64, flags: i64| {
        vec![
            Value::Text(name.into()),
            Value::Integer(1),
            Value::Text(ty.into()),
            Value::Text("utf8".into()),
            Value::Integer(narg),
            Value::Integer(flags),
        ]
    };
    let mut out = Vec::new();
    for &name in SCALARS {
        let flags = flags_of(name, !NOT_DETERMINISTIC.contains(&name));
        if Func::resolve(name, VARIADIC_PROBE).is_ok() {
            let narg = VARIADIC_NARG.iter().find(|v| v.0 == name).map_or(-1, |v| v.1);
            out.push(row(name, "s", narg, flags));
            continue;
        }
        for n in 0..=MAX_PROBE {
            if Func::resolve(name, n).is_ok() {
                out.push(row(name, "s", n as i64, flags));
            }
        }
    }
    for &(name, ty, nargs) in AGGREGATES {
        for &n in nargs {
            out.push(row(name, ty, n, flags_of(name, false)));
        }
    }
    for &(name, nargs) in WINDOWS {
        for &n in nargs {
            out.push(row(name, "w", n, INNOCUOUS));
        }
    }
    out
}
