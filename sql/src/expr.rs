//! Compiled expressions: what the planner lowers `sqlparser` expressions to.
//!
//! Names are resolved away: a column is an offset into the row the
//! expression is evaluated against ([`Expr::Column`]), or into a row of an
//! enclosing query ([`Expr::Outer`], for correlated subqueries); functions
//! are resolved to a [`Func`] when bound; comparisons carry the comparison affinity
//! and collation decided at plan time (SQLite's rules), so evaluation does
//! no name or type lookups. Booleans are SQLite's: 1, 0 or NULL.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::sync::Arc;

use crate::exec::vals::{self, Affinity, Collation};
use crate::exec::{self, Context};
use crate::func::{Env, Func, Lazy};
use crate::planner::SubPlan;
use crate::value::Value;
use crate::{Error, Result};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Concat,
    BitAnd,
    BitOr,
    Shl,
    Shr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CmpOp {
    /// The operator with its operands swapped (`a < b` ⇔ `b > a`).
    pub fn flip(self) -> CmpOp {
        match self {
            CmpOp::Lt => CmpOp::Gt,
            CmpOp::Le => CmpOp::Ge,
            CmpOp::Gt => CmpOp::Lt,
            CmpOp::Ge => CmpOp::Le,
            o => o,
        }
    }
    fn test(self, o: Ordering) -> bool {
        match self {
            CmpOp::Eq => o == Ordering::Equal,
            CmpOp::Ne => o != Ordering::Equal,
            CmpOp::Lt => o == Ordering::Less,
            CmpOp::Le => o != Ordering::Greater,
            CmpOp::Gt => o == Ordering::Greater,
            CmpOp::Ge => o != Ordering::Less,
        }
    }
}

/// Which way a subquery is used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SubKind {
    Scalar,
    Exists,
    In,
    /// Column `k` of the first row (NULL without one): one element of a
    /// row value `(SELECT x, y …)`; every element shares the subquery.
    Column(usize),
    /// `(a, b) IN (SELECT x, y …)`: `lhs` has one expression per column,
    /// each compared after its affinity in `affs` under its collation in
    /// `colls` (as `a = x` would be).
    InRow {
        affs: Vec<Option<Affinity>>,
        colls: Vec<Collation>,
    },
}

#[derive(Clone, Debug)]
pub enum Expr {
    Literal(Value),
    /// `NEW.c` / `OLD.c` in a trigger program: the row's value with its
    /// column's collation, and no affinity (as SQLite compares them).
    RowValue {
        value: Value,
        coll: Collation,
    },
    /// `RAISE(kind, message)` in a trigger program: evaluating it fails
    /// with [`Error::Raise`] (the message is NULL for IGNORE).
    Raise(crate::error::RaiseKind, Box<Expr>),
    /// A column of the current row.
    Column(usize),
    /// A column of an enclosing query's row: depth 1 is the immediate parent.
    Outer {
        depth: usize,
        index: usize,
    },
    Param(usize),
    Negate(Box<Expr>),
    BitNot(Box<Expr>),
    Not(Box<Expr>),
    /// Unary `+`: the value unchanged (but no longer a column for affinity).
    Identity(Box<Expr>),
    Arith(ArithOp, Box<Expr>, Box<Expr>),
    Cmp {
        op: CmpOp,
        l: Box<Expr>,
        r: Box<Expr>,
        aff: Option<Affinity>,
        coll: Collation,
    },
    /// `IS` / `IS NOT`: NULL-safe equality.
    Is {
        l: Box<Expr>,
        r: Box<Expr>,
        negated: bool,
        aff: Option<Affinity>,
        coll: Collation,
    },
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    IsNull(Box<Expr>, bool),
    Like {
        expr: Box<Expr>,
        pattern: Box<Expr>,
        escape: Option<Box<Expr>>,
        negated: bool,
    },
    Glob {
        expr: Box<Expr>,
        pattern: Box<Expr>,
        negated: bool,
    },
    /// `expr IN (list)`, compared under `coll` (the left operand's, as
    /// SQLite does).
    InList {
        expr: Box<Expr>,
        list: Vec<Expr>,
        affs: Vec<Option<Affinity>>,
        coll: Collation,
        negated: bool,
    },
    /// A subquery; `outer_offset` is where the enclosing query's (canonical)
    /// row starts inside the row this expression is evaluated on. `aff` is
    /// the comparison affinity of `lhs IN (…)`, or for a scalar subquery the
    /// affinity of its column; `coll` the collation of `lhs IN (…)`.
    Sub {
        kind: SubKind,
        sub: Arc<SubPlan>,
        /// The left operand(s) of IN (one, or one per column for a row
        /// value); empty for the other kinds.
        lhs: Vec<Expr>,
        aff: Option<Affinity>,
        coll: Collation,
        negated: bool,
        outer_offset: usize,
    },
    /// `CASE [operand] WHEN … END`; an operand is compared with each WHEN
    /// value under `aff` and `coll`, as `operand = value` would be.
    Case {
        operand: Option<Box<Expr>>,
        whens: Vec<(Expr, Expr)>,
        else_: Option<Box<Expr>>,
        aff: Option<Affinity>,
        coll: Collation,
    },
    /// `expr COLLATE name`: the value of `expr`; the collation matters to
    /// whatever compares it, and was resolved when binding.
    Collate(Box<Expr>, Collation),
    Cast(Box<Expr>, Affinity),
    /// A scalar function call, resolved at bind time; `coll` is the
    /// collation SQLite picks for it (see [`crate::func::Env::coll`]).
    Call {
        func: Func,
        args: Vec<Expr>,
        coll: Collation,
    },
    /// An aggregate's result; only exists between binding and the
    /// aggregate rewrite.
    Agg(usize),
    /// A window function's result; only exists between binding and the
    /// window rewrite (see `planner::select`).
    Win(usize),
    /// `value`, carrying SQLite's JSON subtype (see [`crate::func::json`]):
    /// always (`when: None`: a JSON aggregate's result), or when `when` is
    /// true (json_each's `value` column, for arrays and objects).
    Json {
        value: Box<Expr>,
        when: Option<Box<Expr>>,
    },
}

fn boolv(b: bool) -> Value {
    Value::Integer(b as i64)
}

/// A LIKE/GLOB outcome (1, 0 or NULL) under `NOT` when `negated`.
fn negate_match(m: Value, negated: bool) -> Value {
    match m {
        Value::Integer(i) => boolv((i != 0) != negated),
        other => other,
    }
}

fn tri(b: Option<bool>) -> Value {
    b.map_or(Value::Null, boolv)
}

/// An operand of a comparison under `aff`: a column or literal that the
/// affinity leaves as it is is read in place (no copy of its text per
/// row), anything else evaluated and converted.
fn operand<'r>(
    e: &'r Expr,
    row: &'r [Value],
    cx: &Context,
    aff: Option<Affinity>,
) -> Result<Cow<'r, Value>> {
    Ok(match (e.eval_ref(row, cx)?, aff) {
        (Cow::Borrowed(v), Some(a)) if !a.keeps(v) => Cow::Owned(a.apply(v.clone())),
        (Cow::Borrowed(v), _) => Cow::Borrowed(v),
        (Cow::Owned(v), aff) => Cow::Owned(conv(v, aff)),
    })
}

fn conv(v: Value, aff: Option<Affinity>) -> Value {
    match aff {
        Some(a) => a.apply(v),
        None => v,
    }
}

impl Expr {
    pub fn lit(v: Value) -> Expr {
        Expr::Literal(v)
    }

    /// Evaluates the expression against `row`.
    pub fn eval(&self, row: &[Value], cx: &Context) -> Result<Value> {
        Ok(match self {
            Expr::Literal(v) | Expr::RowValue { value: v, .. } => v.clone(),
            Expr::Column(i) => row.get(*i).cloned().ok_or_else(|| bad_col(*i))?,
            Expr::Outer { depth, index } => cx.outer_value(*depth, *index)?,
            Expr::Param(i) => cx.params.get(*i).cloned().unwrap_or(Value::Null),
            Expr::Negate(e) => vals::negate(&e.eval(row, cx)?),
            Expr::BitNot(e) => vals::bit_not(&e.eval(row, cx)?),
            Expr::Not(e) => tri(vals::truthy(&e.eval(row, cx)?).map(|b| !b)),
            Expr::Raise(kind, msg) => {
                let m = msg.eval(row, cx)?.text().unwrap_or_default().into_owned();
                return Err(crate::Error::Raise(*kind, m));
            }
            Expr::Identity(_)
            | Expr::Cast(..)
            | Expr::Case { .. }
            | Expr::Call { .. }
            | Expr::Collate(..)
            | Expr::Json { .. } => {
                return Ok(self.eval_flagged(row, cx, false)?.0);
            }
            Expr::Arith(op, l, r) => {
                let (a, b) = (l.eval(row, cx)?, r.eval(row, cx)?);
                match op {
                    ArithOp::Add => vals::add(&a, &b),
                    ArithOp::Sub => vals::sub(&a, &b),
                    ArithOp::Mul => vals::mul(&a, &b),
                    ArithOp::Div => vals::div(&a, &b),
                    ArithOp::Rem => vals::rem(&a, &b),
                    ArithOp::Concat => vals::concat(&a, &b),
                    ArithOp::BitAnd => vals::bit_and(&a, &b),
                    ArithOp::BitOr => vals::bit_or(&a, &b),
                    ArithOp::Shl => vals::shift_left(&a, &b),
                    ArithOp::Shr => vals::shift_right(&a, &b),
                }
            }
            Expr::Cmp { op, l, r, aff, coll } => {
                let a = operand(l, row, cx, *aff)?;
                let b = operand(r, row, cx, *aff)?;
                tri(vals::sql_compare(&a, &b, *coll).map(|o| op.test(o)))
            }
            Expr::Is { l, r, negated, aff, coll } => {
                let a = operand(l, row, cx, *aff)?;
                let b = operand(r, row, cx, *aff)?;
                let eq = match (&*a, &*b) {
                    (Value::Null, Value::Null) => true,
                    (Value::Null, _) | (_, Value::Null) => false,
                    _ => vals::compare_collated(&a, &b, *coll) == Ordering::Equal,
                };
                boolv(eq != *negated)
            }
            Expr::And(l, r) => {
                let a = vals::truthy(&l.eval(row, cx)?);
                if a == Some(false) {
                    return Ok(boolv(false));
                }
                let b = vals::truthy(&r.eval(row, cx)?);
                match (a, b) {
                    (_, Some(false)) => boolv(false),
                    (Some(true), Some(true)) => boolv(true),
                    _ => Value::Null,
                }
            }
            Expr::Or(l, r) => {
                let a = vals::truthy(&l.eval(row, cx)?);
                if a == Some(true) {
                    return Ok(boolv(true));
                }
                let b = vals::truthy(&r.eval(row, cx)?);
                match (a, b) {
                    (_, Some(true)) => boolv(true),
                    (Some(false), Some(false)) => boolv(false),
                    _ => Value::Null,
                }
            }
            Expr::IsNull(e, negated) => boolv(matches!(e.eval(row, cx)?, Value::Null) != *negated),
            Expr::Like { expr, pattern, escape, negated } => {
                // Borrowed: a LIKE over a text column allocates nothing per row.
                let t = expr.eval_ref(row, cx)?;
                let p = pattern.eval_ref(row, cx)?;
                let esc = match escape {
                    Some(e) => Some(e.eval(row, cx)?),
                    None => None,
                };
                negate_match(vals::scalar::like_values(&p, &t, esc.as_ref())?, *negated)
            }
            Expr::Glob { expr, pattern, negated } => {
                let t = expr.eval_ref(row, cx)?;
                let p = pattern.eval_ref(row, cx)?;
                negate_match(vals::scalar::glob_values(&p, &t)?, *negated)
            }
            Expr::InList { expr, list, affs, coll, negated } => {
                let x = expr.eval(row, cx)?;
                if list.is_empty() {
                    return Ok(boolv(*negated));
                }
                if matches!(x, Value::Null) {
                    return Ok(Value::Null);
                }
                let mut saw_null = false;
                for (e, aff) in list.iter().zip(affs) {
                    let v = conv(e.eval(row, cx)?, *aff);
                    let x = conv(x.clone(), *aff);
                    match vals::sql_compare(&x, &v, *coll) {
                        Some(Ordering::Equal) => return Ok(boolv(!*negated)),
                        Some(_) => {}
                        None => saw_null = true,
                    }
                }
                if saw_null { Value::Null } else { boolv(*negated) }
            }
            Expr::Sub { kind, sub, lhs, aff, coll, negated, outer_offset } => {
                let outer = row.get(*outer_offset..).unwrap_or(&[]);
                match kind {
                    SubKind::Scalar => exec::subquery_scalar(sub, outer, cx)?,
                    SubKind::Exists => boolv(exec::subquery_exists(sub, outer, cx)? != *negated),
                    SubKind::In => {
                        let lhs = lhs.first().ok_or_else(|| bad_col(0))?;
                        let x = lhs.eval(row, cx)?;
                        tri(exec::subquery_in(sub, outer, cx, x, *aff, *coll)?
                            .map(|b| b != *negated))
                    }
                    SubKind::Column(k) => exec::subquery_column(sub, outer, cx, *k)?,
                    SubKind::InRow { affs, colls } => {
                        let xs = lhs.iter().map(|e| e.eval(row, cx)).collect::<Result<Vec<_>>>()?;
                        tri(exec::subquery_in_row(sub, outer, cx, xs, affs, colls)?
                            .map(|b| b != *negated))
                    }
                }
            }
            Expr::Agg(_) => {
                return Err(Error::InvalidInput("misuse of aggregate function".into()));
            }
            Expr::Win(_) => {
                return Err(Error::InvalidInput("misuse of window function".into()));
            }
        })
    }

    /// [`Expr::eval`] without copying a column's or a literal's value:
    /// for consumers that only look at the value (an aggregate step, LIKE,
    /// a comparison), so a text column is read in place instead of being
    /// cloned for every row.
    pub fn eval_ref<'r>(&'r self, row: &'r [Value], cx: &Context) -> Result<Cow<'r, Value>> {
        match self {
            Expr::Column(i) => row.get(*i).map(Cow::Borrowed).ok_or_else(|| bad_col(*i)),
            Expr::Literal(v) | Expr::RowValue { value: v, .. } => Ok(Cow::Borrowed(v)),
            // COLLATE passes its operand's value on unchanged.
            Expr::Collate(e, _) => e.eval_ref(row, cx),
            _ => Ok(Cow::Owned(self.eval(row, cx)?)),
        }
    }

    /// Evaluates the expression and says whether the value carries SQLite's
    /// JSON subtype (see [`crate::func::json`]): JSON function results do,
    /// and CASE, `coalesce`/`ifnull`/`iif`, unary `+`, CAST and the
    /// functions that return one of their arguments pass on the subtype of
    /// the operand they chose.
    pub fn eval_subtyped(&self, row: &[Value], cx: &Context) -> Result<(Value, bool)> {
        self.eval_flagged(row, cx, true)
    }

    /// The variants through which the subtype flows; `want`: the caller
    /// needs the flag (else only JSON functions' arguments track it).
    fn eval_flagged(&self, row: &[Value], cx: &Context, want: bool) -> Result<(Value, bool)> {
        let sub = |e: &Expr| -> Result<(Value, bool)> {
            if want { e.eval_subtyped(row, cx) } else { Ok((e.eval(row, cx)?, false)) }
        };
        Ok(match self {
            Expr::Identity(e) => sub(e)?,
            Expr::Cast(e, aff) => {
                let (v, json) = sub(e)?;
                (vals::cast(&v, *aff), json)
            }
            Expr::Case { operand, whens, else_, aff, coll } => {
                let base = match operand {
                    Some(o) => Some(conv(o.eval(row, cx)?, *aff)),
                    None => None,
                };
                for (w, t) in whens {
                    let c = w.eval(row, cx)?;
                    let hit = match &base {
                        Some(b) => {
                            let c = conv(c, *aff);
                            vals::sql_compare(b, &c, *coll) == Some(Ordering::Equal)
                        }
                        None => vals::truthy(&c) == Some(true),
                    };
                    if hit {
                        return sub(t);
                    }
                }
                match else_ {
                    Some(e) => sub(e)?,
                    None => (Value::Null, false),
                }
            }
            // COLLATE passes its operand on, subtype included.
            Expr::Collate(e, _) => sub(e)?,
            Expr::Call { func, args, coll } => match func.lazy() {
                Some(Lazy::FirstNonNull) => {
                    for a in args {
                        let v = sub(a)?;
                        if !v.0.is_null() {
                            return Ok(v);
                        }
                    }
                    (Value::Null, false)
                }
                Some(Lazy::Iif) => {
                    let mut pairs = args.chunks_exact(2);
                    for pair in pairs.by_ref() {
                        if pair[0].is_true(row, cx)? {
                            return sub(&pair[1]);
                        }
                    }
                    match pairs.remainder().first() {
                        Some(e) => sub(e)?,
                        None => (Value::Null, false),
                    }
                }
                None if func.reads_subtypes() || (want && func.passes_subtypes()) => {
                    let mut vs = Vec::with_capacity(args.len());
                    let mut flags = Vec::with_capacity(args.len());
                    for a in args {
                        let (v, j) = a.eval_subtyped(row, cx)?;
                        vs.push(v);
                        flags.push(j);
                    }
                    let env = Env { coll: *coll, stmt: cx.stmt_env(), json_args: &flags };
                    let (v, json) = func.call_subtyped(&vs, &env)?;
                    (v, json && want)
                }
                None => {
                    let mut vs = Vec::with_capacity(args.len());
                    for a in args {
                        vs.push(a.eval(row, cx)?);
                    }
                    let env = Env { coll: *coll, stmt: cx.stmt_env(), json_args: &[] };
                    (func.call(&vs, &env)?, false)
                }
            },
            Expr::Json { value, when } => {
                let v = value.eval(row, cx)?;
                let json = match when {
                    None => true,
                    Some(w) => w.is_true(row, cx)?,
                };
                (v, json)
            }
            _ => (self.eval(row, cx)?, false),
        })
    }

    /// True if the expression is true (NULL and false are not).
    pub fn is_true(&self, row: &[Value], cx: &Context) -> Result<bool> {
        Ok(vals::truthy(&self.eval(row, cx)?) == Some(true))
    }

    /// True if `self` and `other` are the same expression: the same
    /// operators, functions, affinities and collations over the same
    /// columns and literals (a literal's type and bits, so `1` is not
    /// `1.0`). What the planner asks to match a WHERE term with an index
    /// expression or a partial index's WHERE, and to match GROUP BY /
    /// ORDER BY terms with result columns (SQLite's `sqlite3ExprCompare`
    /// on bound trees). Aggregate and window calls are the same when they
    /// are the same slot; subqueries, row values and RAISE compare their
    /// whole bound form.
    pub fn same(&self, other: &Expr) -> bool {
        use Expr as E;
        let head = match (self, other) {
            (E::Literal(a), E::Literal(b)) => a.is_identical(b),
            (E::Column(a), E::Column(b)) | (E::Param(a), E::Param(b)) => a == b,
            (E::Outer { depth: d1, index: i1 }, E::Outer { depth: d2, index: i2 }) => {
                d1 == d2 && i1 == i2
            }
            (E::Negate(_), E::Negate(_))
            | (E::BitNot(_), E::BitNot(_))
            | (E::Not(_), E::Not(_))
            | (E::Identity(_), E::Identity(_))
            | (E::And(..), E::And(..))
            | (E::Or(..), E::Or(..)) => true,
            (E::Arith(a, ..), E::Arith(b, ..)) => a == b,
            (
                E::Cmp { op: o1, aff: a1, coll: c1, .. },
                E::Cmp { op: o2, aff: a2, coll: c2, .. },
            ) => o1 == o2 && a1 == a2 && c1 == c2,
            (
                E::Is { negated: n1, aff: a1, coll: c1, .. },
                E::Is { negated: n2, aff: a2, coll: c2, .. },
            ) => n1 == n2 && a1 == a2 && c1 == c2,
            (E::IsNull(_, a), E::IsNull(_, b)) => a == b,
            (E::Like { escape: e1, negated: n1, .. }, E::Like { escape: e2, negated: n2, .. }) => {
                n1 == n2 && e1.is_some() == e2.is_some()
            }
            (E::Glob { negated: a, .. }, E::Glob { negated: b, .. }) => a == b,
            (
                E::InList { list: l1, affs: a1, coll: c1, negated: n1, .. },
                E::InList { list: l2, affs: a2, coll: c2, negated: n2, .. },
            ) => l1.len() == l2.len() && a1 == a2 && c1 == c2 && n1 == n2,
            (
                E::Case { operand: o1, whens: w1, else_: e1, aff: a1, coll: c1 },
                E::Case { operand: o2, whens: w2, else_: e2, aff: a2, coll: c2 },
            ) => {
                o1.is_some() == o2.is_some()
                    && w1.len() == w2.len()
                    && e1.is_some() == e2.is_some()
                    && a1 == a2
                    && c1 == c2
            }
            (E::Collate(_, a), E::Collate(_, b)) => a == b,
            (E::Cast(_, a), E::Cast(_, b)) => a == b,
            (
                E::Call { func: f1, args: a1, coll: c1 },
                E::Call { func: f2, args: a2, coll: c2 },
            ) => f1 == f2 && a1.len() == a2.len() && c1 == c2,
            (E::Json { when: a, .. }, E::Json { when: b, .. }) => a.is_some() == b.is_some(),
            (E::Agg(a), E::Agg(b)) | (E::Win(a), E::Win(b)) => return a == b,
            (E::Sub { .. }, E::Sub { .. })
            | (E::RowValue { .. }, E::RowValue { .. })
            | (E::Raise(..), E::Raise(..)) => return format!("{self:?}") == format!("{other:?}"),
            _ => false,
        };
        if !head {
            return false;
        }
        let mut mine = Vec::new();
        self.for_each_child(&mut |c| mine.push(c));
        let mut theirs = Vec::new();
        other.for_each_child(&mut |c| theirs.push(c));
        mine.len() == theirs.len() && mine.iter().zip(&theirs).all(|(a, b)| a.same(b))
    }

    /// Calls `f` on every node, parents first; subquery plans are not
    /// entered.
    pub fn walk(&self, f: &mut dyn FnMut(&Expr)) {
        f(self);
        self.for_each_child(&mut |c| c.walk(f));
    }

    /// Calls `f` on each direct child, left to right (subquery plans are
    /// not entered).
    pub fn for_each_child<'a>(&'a self, f: &mut dyn FnMut(&'a Expr)) {
        match self {
            Expr::Negate(e)
            | Expr::BitNot(e)
            | Expr::Not(e)
            | Expr::Identity(e)
            | Expr::Raise(_, e)
            | Expr::IsNull(e, _)
            | Expr::Cast(e, _)
            | Expr::Collate(e, _) => f(e),
            Expr::Arith(_, l, r)
            | Expr::And(l, r)
            | Expr::Or(l, r)
            | Expr::Cmp { l, r, .. }
            | Expr::Is { l, r, .. } => {
                f(l);
                f(r);
            }
            Expr::Like { expr, pattern, escape, .. } => {
                f(expr);
                f(pattern);
                if let Some(e) = escape {
                    f(e);
                }
            }
            Expr::Glob { expr, pattern, .. } => {
                f(expr);
                f(pattern);
            }
            Expr::InList { expr, list, .. } => {
                f(expr);
                list.iter().for_each(f);
            }
            Expr::Sub { lhs, .. } => lhs.iter().for_each(f),
            Expr::Case { operand, whens, else_, .. } => {
                if let Some(e) = operand {
                    f(e);
                }
                for (w, t) in whens {
                    f(w);
                    f(t);
                }
                if let Some(e) = else_ {
                    f(e);
                }
            }
            Expr::Call { args, .. } => args.iter().for_each(f),
            Expr::Json { value, when } => {
                f(value);
                if let Some(w) = when {
                    f(w);
                }
            }
            Expr::Literal(_)
            | Expr::RowValue { .. }
            | Expr::Column(_)
            | Expr::Outer { .. }
            | Expr::Param(_)
            | Expr::Agg(_)
            | Expr::Win(_) => {}
        }
    }

    /// Rebuilds the tree bottom-up through `f` (applied to every node after
    /// its children). Subquery plans are not entered.
    pub fn transform(self, f: &mut dyn FnMut(Expr) -> Result<Expr>) -> Result<Expr> {
        let e = self.map_children(&mut |c| c.transform(f))?;
        f(e)
    }

    /// Rebuilds this node with `f` applied to each direct child.
    pub fn map_children(self, f: &mut dyn FnMut(Expr) -> Result<Expr>) -> Result<Expr> {
        let b = |e: Box<Expr>, f: &mut dyn FnMut(Expr) -> Result<Expr>| -> Result<Box<Expr>> {
            Ok(Box::new(f(*e)?))
        };
        let e = match self {
            Expr::Negate(e) => Expr::Negate(b(e, f)?),
            Expr::BitNot(e) => Expr::BitNot(b(e, f)?),
            Expr::Not(e) => Expr::Not(b(e, f)?),
            Expr::Identity(e) => Expr::Identity(b(e, f)?),
            Expr::Raise(k, e) => Expr::Raise(k, b(e, f)?),
            Expr::IsNull(e, n) => Expr::IsNull(b(e, f)?, n),
            Expr::Cast(e, a) => Expr::Cast(b(e, f)?, a),
            Expr::Collate(e, c) => Expr::Collate(b(e, f)?, c),
            Expr::Arith(op, l, r) => Expr::Arith(op, b(l, f)?, b(r, f)?),
            Expr::And(l, r) => Expr::And(b(l, f)?, b(r, f)?),
            Expr::Or(l, r) => Expr::Or(b(l, f)?, b(r, f)?),
            Expr::Cmp { op, l, r, aff, coll } => {
                Expr::Cmp { op, l: b(l, f)?, r: b(r, f)?, aff, coll }
            }
            Expr::Is { l, r, negated, aff, coll } => {
                Expr::Is { l: b(l, f)?, r: b(r, f)?, negated, aff, coll }
            }
            Expr::Like { expr, pattern, escape, negated } => Expr::Like {
                expr: b(expr, f)?,
                pattern: b(pattern, f)?,
                escape: match escape {
                    Some(e) => Some(b(e, f)?),
                    None => None,
                },
                negated,
            },
            Expr::Glob { expr, pattern, negated } => {
                Expr::Glob { expr: b(expr, f)?, pattern: b(pattern, f)?, negated }
            }
            Expr::InList { expr, list, affs, coll, negated } => Expr::InList {
                expr: b(expr, f)?,
                list: list.into_iter().map(&mut *f).collect::<Result<_>>()?,
                affs,
                coll,
                negated,
            },
            Expr::Sub { kind, sub, lhs, aff, coll, negated, outer_offset } => Expr::Sub {
                kind,
                sub,
                lhs: lhs.into_iter().map(&mut *f).collect::<Result<_>>()?,
                aff,
                coll,
                negated,
                outer_offset,
            },
            Expr::Case { operand, whens, else_, aff, coll } => Expr::Case {
                operand: match operand {
                    Some(e) => Some(b(e, f)?),
                    None => None,
                },
                whens: whens.into_iter().map(|(w, t)| Ok((f(w)?, f(t)?))).collect::<Result<_>>()?,
                else_: match else_ {
                    Some(e) => Some(b(e, f)?),
                    None => None,
                },
                aff,
                coll,
            },
            Expr::Call { func, args, coll } => Expr::Call {
                func,
                args: args.into_iter().map(&mut *f).collect::<Result<_>>()?,
                coll,
            },
            Expr::Json { value, when } => Expr::Json {
                value: b(value, f)?,
                when: match when {
                    Some(w) => Some(b(w, f)?),
                    None => None,
                },
            },
            e @ (Expr::Literal(_)
            | Expr::RowValue { .. }
            | Expr::Column(_)
            | Expr::Outer { .. }
            | Expr::Param(_)
            | Expr::Agg(_)
            | Expr::Win(_)) => e,
        };
        Ok(e)
    }

    /// Columns of the current row this expression reads (including, via
    /// subqueries, columns their bodies read from this row).
    pub fn columns(&self) -> Vec<usize> {
        let mut out = Vec::new();
        self.walk(&mut |e| match e {
            Expr::Column(i) => out.push(*i),
            Expr::Sub { sub, outer_offset, .. } => {
                out.extend(sub.outer_refs.iter().map(|i| i + outer_offset))
            }
            _ => {}
        });
        out
    }

    /// True if the expression or any part of it has an explicit COLLATE
    /// (SQLite's `EP_Collate`): such a collation reaches past operators,
    /// a column's declared one does not.
    pub fn has_explicit_collation(&self) -> bool {
        let mut found = false;
        self.walk(&mut |e| found |= matches!(e, Expr::Collate(..)));
        found
    }

    /// The expression under any `COLLATE` wrappers: what it computes,
    /// whatever order it compares in.
    pub fn without_collate(&self) -> &Expr {
        match self {
            Expr::Collate(e, _) => e.without_collate(),
            e => e,
        }
    }

    /// True if the expression contains a subquery.
    pub fn has_subquery(&self) -> bool {
        let mut found = false;
        self.walk(&mut |e| found |= matches!(e, Expr::Sub { .. }));
        found
    }

    /// True if it holds a correlated subquery.
    pub fn has_correlated_subquery(&self) -> bool {
        let mut found = false;
        self.walk(&mut |e| found |= matches!(e, Expr::Sub { sub, .. } if sub.correlated));
        found
    }

    /// The AND of `terms`, `None` for none, in the order SQLite tests the
    /// terms of one loop (wherecode.c's last pass): as written, except that
    /// the terms holding a correlated subquery come after all the others
    /// (so a row another term rejects never runs one).
    pub fn conjunction(terms: impl IntoIterator<Item = Expr>) -> Option<Expr> {
        let (late, early): (Vec<Expr>, Vec<Expr>) =
            terms.into_iter().partition(|t| t.has_correlated_subquery());
        early.into_iter().chain(late).reduce(|a, c| Expr::And(Box::new(a), Box::new(c)))
    }

    /// True if evaluating needs no row (literals, parameters, outer rows).
    pub fn is_row_free(&self) -> bool {
        let mut free = true;
        self.walk(&mut |e| {
            free &= !matches!(e, Expr::Column(_) | Expr::Sub { .. } | Expr::Agg(_) | Expr::Win(_))
        });
        free
    }

    /// True for a WHERE term SQLite tests once, before any row is read (its
    /// "False-WHERE-Term-Bypass"): it reads no row of this query and calls
    /// nothing whose result may change within the statement (a date and
    /// time function may: see [`crate::func::Func::is_constant_in_statement`]).
    /// A subquery disqualifies it (SQLite's `exprIsDeterministic` fails on
    /// any: such a term runs in the outermost loop, after its first row),
    /// except a whole term that is an uncorrelated `EXISTS`, which SQLite's
    /// EXISTS-to-JOIN rewrite makes a join it may run first (its cost model
    /// decides; we take it first). `NOT EXISTS` is never rewritten.
    pub fn is_constant_term(&self) -> bool {
        if let Expr::Sub { kind: SubKind::Exists, sub, negated: false, .. } = self {
            return !sub.correlated;
        }
        let mut ok = true;
        self.walk(&mut |e| {
            ok &= match e {
                Expr::Call { func, .. } => func.is_constant_in_statement(),
                Expr::Sub { .. } | Expr::Column(_) | Expr::Agg(_) | Expr::Win(_) => false,
                _ => true,
            }
        });
        ok
    }

    /// False if it calls a function whose result may change between two
    /// calls with the same arguments (`random()`).
    pub fn is_deterministic(&self) -> bool {
        let mut det = true;
        self.walk(&mut |e| {
            if let Expr::Call { func, .. } = e {
                det &= func.is_deterministic();
            }
        });
        det
    }

    /// Shifts every column reference by `-by` (for evaluating an expression
    /// bound to a wide row on one table's slice of it).
    pub fn shift(self, by: usize) -> Expr {
        self.transform(&mut |e| {
            Ok(match e {
                Expr::Column(i) => Expr::Column(i - by),
                e => e,
            })
        })
        .expect("shift cannot fail")
    }
}

pub(crate) fn bad_col(i: usize) -> Error {
    Error::Internal(format!("column {i} out of range"))
}
