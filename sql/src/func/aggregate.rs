//! Aggregate functions: count, sum, total, avg, min, max, group_concat,
//! string_agg — SQLite's `sumStep`/`sumFinalize` & co. — and the JSON
//! aggregates (their state is [`JsonGroup`]).
//!
//! Invariants: NULL inputs are ignored (except by `count(*)`); DISTINCT
//! keeps the first of each group of values equal under
//! [`compare_collated`] (so `1`
//! and `1.0` are one value); `sum` is exact over integers and errors on
//! i64 overflow, and switches to Kahan–Babuška–Neumaier summation (as
//! SQLite does) once a non-integer arrives.

use std::collections::BTreeSet;

use super::json::JsonGroup;
use super::wrong_args;
use crate::Result;
use crate::value::{Collation, Value, compare_collated, numeric_text_bytes};

/// The running state of one aggregate call over one group.
#[derive(Debug, Clone)]
pub struct Aggregate {
    kind: Kind,
    nargs: usize,
    /// Values already seen, for DISTINCT, as collation keys (see `key`).
    seen: Option<BTreeSet<Value>>,
    /// Collation for min/max and DISTINCT on TEXT.
    coll: Collation,
}

#[derive(Debug, Clone)]
enum Kind {
    CountStar(i64),
    Count(i64),
    Sum(SumState, SumFinal),
    /// `last_tie`: of values equal under the collation, the last one
    /// stepped wins (else the first).
    MinMax {
        best: Option<Value>,
        max: bool,
        last_tie: bool,
    },
    GroupConcat {
        acc: Option<Vec<u8>>,
    },
    Json(JsonGroup),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SumFinal {
    Sum,
    Total,
    Avg,
}

/// SQLite's `SumCtx`.
#[derive(Debug, Clone, Default)]
struct SumState {
    r_sum: f64,
    r_err: f64,
    i_sum: i64,
    cnt: i64,
    approx: bool,
    overflow: bool,
}

/// What a sum adds for `v` (`sqlite3_value_numeric_type`): nothing for NULL,
/// wholly numeric text as the number it spells, anything else as it is.
fn numeric_input(v: &Value) -> Option<std::borrow::Cow<'_, Value>> {
    use std::borrow::Cow;
    match v {
        Value::Null => None,
        Value::Text(s) => {
            Some(numeric_text_bytes(s.as_bytes(), false).map_or(Cow::Borrowed(v), Cow::Owned))
        }
        other => Some(Cow::Borrowed(other)),
    }
}

impl SumState {
    /// One Kahan–Babuška–Neumaier step.
    fn kbn(&mut self, r: f64) {
        let s = self.r_sum;
        let t = s + r;
        if s.abs() > r.abs() {
            self.r_err += (s - t) + r;
        } else {
            self.r_err += (r - t) + s;
        }
        self.r_sum = t;
    }

    fn kbn_i64(&mut self, i: i64) {
        if !(-4503599627370495..4503599627370496).contains(&i) {
            let small = i % 16384;
            self.kbn((i - small) as f64);
            self.kbn(small as f64);
        } else {
            self.kbn(i as f64);
        }
    }

    fn kbn_init(&mut self, i: i64) {
        if !(-4503599627370495..4503599627370496).contains(&i) {
            let small = i % 16384;
            self.r_sum = (i - small) as f64;
            self.r_err = small as f64;
        } else {
            self.r_sum = i as f64;
            self.r_err = 0.0;
        }
    }

    fn step(&mut self, v: &Value) {
        let Some(v) = numeric_input(v) else { return };
        let v = v.as_ref();
        self.cnt += 1;
        match v {
            Value::Integer(i) => {
                if !self.approx {
                    match self.i_sum.checked_add(*i) {
                        Some(x) => self.i_sum = x,
                        None => {
                            self.overflow = true;
                            self.kbn_init(self.i_sum);
                            self.approx = true;
                            self.kbn_i64(*i);
                        }
                    }
                } else {
                    self.kbn_i64(*i);
                }
            }
            other => {
                if !self.approx {
                    self.kbn_init(self.i_sum);
                    self.approx = true;
                } else {
                    self.overflow = false;
                }
                self.kbn(other.to_f64());
            }
        }
    }

    /// SQLite's `sumInverse`.
    fn inverse(&mut self, v: &Value) {
        let Some(v) = numeric_input(v) else { return };
        let v = v.as_ref();
        self.cnt -= 1;
        if !self.approx {
            match self.i_sum.checked_sub(v.to_i64()) {
                Some(x) => self.i_sum = x,
                None => {
                    self.overflow = true;
                    self.approx = true;
                }
            }
        } else if let Value::Integer(i) = v {
            if *i != i64::MIN {
                self.kbn_i64(-*i);
            } else {
                self.kbn_i64(i64::MAX);
                self.kbn_i64(1);
            }
        } else {
            self.kbn(-v.to_f64());
        }
    }

    fn real(&self) -> f64 {
        if self.approx {
            if self.r_err.is_finite() { self.r_sum + self.r_err } else { self.r_sum }
        } else {
            self.i_sum as f64
        }
    }
}

impl Aggregate {
    /// Starts an aggregate `name` (lower case) with `nargs` arguments
    /// (`count(*)` has 0). DISTINCT needs exactly one argument.
    pub fn new(name: &str, distinct: bool, nargs: usize) -> Result<Aggregate> {
        let kind = match (name, nargs) {
            ("count", 0) => Kind::CountStar(0),
            ("count", 1) => Kind::Count(0),
            ("sum", 1) => Kind::Sum(SumState::default(), SumFinal::Sum),
            ("total", 1) => Kind::Sum(SumState::default(), SumFinal::Total),
            ("avg", 1) => Kind::Sum(SumState::default(), SumFinal::Avg),
            ("min", 1) => Kind::MinMax { best: None, max: false, last_tie: false },
            ("max", 1) => Kind::MinMax { best: None, max: true, last_tie: false },
            ("group_concat", 1 | 2) | ("string_agg", 2) => Kind::GroupConcat { acc: None },
            (n, k) if JsonGroup::new(n).is_some_and(|g| g.1 == k) => {
                Kind::Json(JsonGroup::new(n).expect("checked").0)
            }
            (
                "json_group_array" | "jsonb_group_array" | "json_group_object"
                | "jsonb_group_object",
                _,
            ) => return wrong_args(name),
            (
                "count" | "sum" | "total" | "avg" | "min" | "max" | "group_concat" | "string_agg",
                _,
            ) => {
                return wrong_args(name);
            }
            _ => return crate::errinput!("no such function: {name}"),
        };
        if distinct && nargs != 1 {
            return crate::errinput!("DISTINCT aggregates must have exactly one argument");
        }
        Ok(Aggregate { kind, nargs, seen: distinct.then(BTreeSet::new), coll: Collation::Binary })
    }

    /// Uses `coll` for TEXT comparisons in min/max and DISTINCT (SQLite
    /// takes the argument's collation, e.g. a `COLLATE NOCASE` column).
    pub fn with_collation(mut self, coll: Collation) -> Aggregate {
        self.coll = coll;
        self
    }

    /// Makes `min`/`max` keep the last of tied best values (equal under
    /// the collation, e.g. 'a' and 'A' under NOCASE) instead of the first:
    /// SQLite's window min/max over a frame that does not start at
    /// UNBOUNDED PRECEDING reads the last entry of an index of the frame's
    /// values, which among ties is the row stepped last.
    pub fn keep_last_tie(mut self) -> Aggregate {
        if let Kind::MinMax { last_tie, .. } = &mut self.kind {
            *last_tie = true;
        }
        self
    }

    /// True if the aggregate reads its arguments' JSON subtype (then feed
    /// it with [`Aggregate::step_subtyped`]).
    pub fn reads_subtypes(&self) -> bool {
        matches!(self.kind, Kind::Json(_))
    }

    /// True if the result carries the JSON subtype.
    pub fn result_is_json(name: &str) -> bool {
        matches!(name, "json_group_array" | "json_group_object")
    }

    /// Feeds one row's argument values.
    pub fn step(&mut self, args: &[Value]) -> Result<()> {
        self.step_improves(args).map(|_| ())
    }

    /// [`Aggregate::step`], with which arguments carry the JSON subtype.
    pub fn step_subtyped(&mut self, args: &[Value], json_args: &[bool]) -> Result<()> {
        self.step_full(args, json_args).map(|_| ())
    }

    /// [`Aggregate::step`], answering whether a `min`/`max` took a new best
    /// value (its first non-NULL one included): SQLite's bare columns
    /// follow that row. False for every other aggregate.
    pub fn step_improves(&mut self, args: &[Value]) -> Result<bool> {
        self.step_full(args, &[])
    }

    fn step_full(&mut self, args: &[Value], json_args: &[bool]) -> Result<bool> {
        if args.len() != self.nargs {
            return crate::errinput!(
                "aggregate expects {} argument(s), got {}",
                self.nargs,
                args.len()
            );
        }
        if let Some(seen) = &mut self.seen {
            // NULLs are ignored by every one-argument aggregate anyway,
            // except json_group_array, which keeps one.
            let keeps_null = matches!(self.kind, Kind::Json(_));
            if (args[0].is_null() && !keeps_null)
                || !seen.insert(self.coll.fold(&args[0]).into_owned())
            {
                return Ok(false);
            }
        }
        match &mut self.kind {
            Kind::CountStar(n) => *n += 1,
            Kind::Count(n) => {
                if !args[0].is_null() {
                    *n += 1;
                }
            }
            Kind::Sum(state, _) => state.step(&args[0]),
            Kind::MinMax { best, max, last_tie } => {
                let v = &args[0];
                if v.is_null() {
                    // minmaxStep skips the bare columns' load on a NULL
                    // only once it has a value.
                    return Ok(best.is_none());
                }
                let replace = match best {
                    None => true,
                    Some(b) => {
                        let c = compare_collated(b, v, self.coll);
                        match (*max, *last_tie) {
                            (true, false) => c.is_lt(),
                            (true, true) => c.is_le(),
                            (false, false) => c.is_gt(),
                            (false, true) => c.is_ge(),
                        }
                    }
                };
                if replace {
                    *best = Some(v.clone());
                }
                return Ok(replace);
            }
            Kind::Json(g) => g.step(args, json_args)?,
            Kind::GroupConcat { acc } => {
                let v = &args[0];
                if v.is_null() {
                    return Ok(false);
                }
                match acc {
                    None => *acc = Some(Vec::new()),
                    Some(buf) => {
                        if self.nargs == 1 {
                            buf.push(b',');
                        } else {
                            args[1].append_text_bytes(buf);
                        }
                    }
                }
                if let Some(buf) = acc {
                    v.append_text_bytes(buf);
                    if buf.len() > super::printf::max_length() {
                        return Err(crate::Error::TooLarge("string or blob too big".into()));
                    }
                }
            }
        }
        Ok(false)
    }

    /// True if [`Aggregate::inverse`] can take a row back out: `count`,
    /// `sum`, `total`, `avg` without DISTINCT (SQLite's built-ins with an
    /// `xInverse` whose result does not depend on the order of the rows).
    pub fn invertible(&self) -> bool {
        self.seen.is_none()
            && matches!(self.kind, Kind::CountStar(_) | Kind::Count(_) | Kind::Sum(..))
    }

    /// Takes back one row's arguments, stepped before (SQLite's
    /// `countInverse` / `sumInverse`): a window frame's first row leaving.
    /// Only for an [`Aggregate::invertible`] aggregate.
    pub fn inverse(&mut self, args: &[Value]) -> Result<()> {
        match &mut self.kind {
            Kind::CountStar(n) => *n -= 1,
            Kind::Count(n) => {
                if !args[0].is_null() {
                    *n -= 1;
                }
            }
            Kind::Sum(s, _) => s.inverse(&args[0]),
            _ => return Err(crate::Error::Internal("aggregate without an inverse".into())),
        }
        Ok(())
    }

    /// The aggregate's result for the rows stepped so far. Does not reset.
    pub fn finish(&mut self) -> Result<Value> {
        Ok(match &self.kind {
            Kind::CountStar(n) | Kind::Count(n) => Value::Integer(*n),
            Kind::Sum(s, fin) => match fin {
                SumFinal::Total => Value::Real(s.real()),
                _ if s.cnt == 0 => Value::Null,
                SumFinal::Avg => Value::Real(s.real() / s.cnt as f64),
                SumFinal::Sum => {
                    if !s.approx {
                        Value::Integer(s.i_sum)
                    } else if s.overflow {
                        return crate::errinput!("integer overflow");
                    } else {
                        Value::Real(s.real())
                    }
                }
            },
            Kind::MinMax { best, .. } => return Ok(best.clone().unwrap_or(Value::Null)),
            Kind::GroupConcat { acc } => match acc {
                None => Value::Null,
                Some(b) => Value::Blob(b.clone()).into_text().map_or(Value::Null, Value::Text),
            },
            Kind::Json(g) => g.finish()?.0,
        })
        .map(|v| match v {
            // SQLite turns a NaN result (inf + -inf) into NULL.
            Value::Real(r) if r.is_nan() => Value::Null,
            other => other,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(name: &str, distinct: bool, rows: &[Vec<Value>]) -> Result<Value> {
        let nargs = rows.first().map_or(1, Vec::len);
        let mut a = Aggregate::new(name, distinct, nargs)?;
        for r in rows {
            a.step(r)?;
        }
        a.finish()
    }

    fn col(vals: &[Value]) -> Vec<Vec<Value>> {
        vals.iter().map(|v| vec![v.clone()]).collect()
    }

    #[test]
    fn sums() {
        let i = Value::Integer;
        assert_eq!(run("sum", false, &col(&[i(1), i(2), Value::Null])).unwrap(), i(3));
        assert!(run("sum", false, &col(&[Value::Null])).unwrap().is_null());
        assert!(matches!(run("total", false, &[]).unwrap(), Value::Real(r) if r == 0.0));
        assert!(
            matches!(run("avg", false, &col(&[i(1), i(2)])).unwrap(), Value::Real(r) if r == 1.5)
        );
        assert!(
            matches!(run("sum", false, &col(&[i(1), Value::Real(0.5)])).unwrap(), Value::Real(r) if r == 1.5)
        );
        assert_eq!(
            run("sum", false, &col(&[i(i64::MAX), i(1)])).unwrap_err().to_string(),
            "integer overflow"
        );
        assert_eq!(run("sum", true, &col(&[i(2), Value::Real(2.0), i(3)])).unwrap(), i(5));
    }

    #[test]
    fn others() {
        let i = Value::Integer;
        let t = |s: &str| Value::Text(s.into());
        assert_eq!(run("count", false, &col(&[i(1), Value::Null])).unwrap(), i(1));
        assert_eq!(run("count", false, &[vec![], vec![]]).unwrap(), i(2));
        assert_eq!(run("max", false, &col(&[i(1), t("a"), Value::Null])).unwrap(), t("a"));
        assert_eq!(run("min", false, &col(&[i(1), t("a"), Value::Null])).unwrap(), i(1));
        assert_eq!(
            run("group_concat", false, &col(&[i(1), Value::Null, t("b")])).unwrap(),
            t("1,b")
        );
        assert_eq!(
            run("string_agg", false, &[vec![t("a"), t("-")], vec![t("b"), t("-")]]).unwrap(),
            t("a-b")
        );
        assert!(run("group_concat", false, &col(&[Value::Null])).unwrap().is_null());
        assert!(Aggregate::new("sum", false, 2).is_err());
        assert!(Aggregate::new("group_concat", true, 2).is_err());
    }
}
