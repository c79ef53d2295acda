//! Row values (SQLite's `lang_expr.html#row_values`): `(a, b)` and
//! multi-column subqueries `(SELECT x, y …)` as operands of comparisons
//! (`=`, `<>`, `<`, `<=`, `>`, `>=`, `IS`, `IS NOT`), `BETWEEN`, `IN (list
//! of row values)` and `IN (SELECT x, y …)`.
//!
//! Decisions:
//! - Comparisons are rewritten at bind time into scalar ones, element by
//!   element, each with its own affinity and collation (as SQLite compares
//!   the pairs): `=` is the AND of the equalities, `<>` the OR of the
//!   inequalities, `IS` / `IS NOT` likewise with `IS`; `<` and friends are
//!   lexicographic, `a < x OR (a = x AND (b < y …))`, the last pair with the
//!   operator itself. Three-valued AND/OR give exactly SQLite's NULL rule
//!   (NULL unless a pair decided the answer earlier), and an equality on a
//!   row becomes plain conjuncts the planner can use as access paths.
//! - A row subquery's elements share one subquery ([`SubKind::Column`]):
//!   it runs once (once per outer row when correlated) and its first row
//!   serves every element; no row makes every element NULL.
//! - `(a, b) IN (SELECT …)` is its own subquery kind ([`SubKind::InRow`]),
//!   with a set of the subquery's rows; `IN ((1, 2), (3, 4))` is the OR of
//!   the row equalities (SQLite accepts it too).
//! - Anywhere else a row value is "row value misused"; sizes that differ
//!   are too, or "sub-select returns N columns - expected M" /
//!   "IN(...) element has N terms - expected M" where SQLite says so.
//! - `UPDATE … SET (a, b) = (SELECT x, y …)` binds the subquery once as a
//!   row ([`bind_row_value`]), one element per column.
//! - A row value as a CASE operand (`CASE (a, b) WHEN (1, 2) …`), each
//!   WHEN a row of its size, is the searched CASE of the row equalities
//!   ([`case`]). The operand's elements are read again for each WHEN: a
//!   row subquery still runs once (its elements share it), but a volatile
//!   element such as `random()` is drawn per WHEN where SQLite draws it
//!   once.

use std::sync::Arc;

use sqlparser::ast;

use super::bind::Binder;
use crate::exec::vals::{self, Collation};
use crate::expr::{CmpOp, Expr, SubKind};
use crate::{Error, Result};

/// A bound operand: one value, or a row of them.
pub(super) enum Operand {
    Scalar(Expr),
    Row(Vec<Expr>),
}

pub(super) fn misused() -> Error {
    Error::InvalidInput("row value misused".into())
}

fn strip(e: &ast::Expr) -> &ast::Expr {
    match e {
        ast::Expr::Nested(inner) => strip(inner),
        e => e,
    }
}

/// Binds `e`, which may be a row value.
pub(super) fn operand(b: &mut Binder, e: &ast::Expr) -> Result<Operand> {
    match strip(e) {
        ast::Expr::Tuple(items) => {
            let mut out = Vec::with_capacity(items.len());
            for i in items {
                out.push(scalar(b, i)?);
            }
            Ok(Operand::Row(out))
        }
        ast::Expr::Subquery(q) => {
            let (sub, affs, colls) = b.bind_row_subquery(q)?;
            let elem = |kind: SubKind, k: usize| Expr::Sub {
                kind,
                sub: Arc::clone(&sub),
                lhs: Vec::new(),
                aff: affs.get(k).copied().flatten(),
                coll: colls.get(k).copied().flatten().unwrap_or(Collation::Binary),
                negated: false,
                outer_offset: 0,
            };
            if sub.ncols == 1 {
                return Ok(Operand::Scalar(elem(SubKind::Scalar, 0)));
            }
            Ok(Operand::Row((0..sub.ncols).map(|k| elem(SubKind::Column(k), k)).collect()))
        }
        _ => Ok(Operand::Scalar(b.bind_expr(e)?)),
    }
}

/// Binds `e` as a list of values: a row value's elements (a row
/// subquery's share one subquery), or the one value of a scalar.
pub(crate) fn bind_row_value(b: &mut Binder, e: &ast::Expr) -> Result<Vec<Expr>> {
    Ok(match operand(b, e)? {
        Operand::Scalar(x) => vec![x],
        Operand::Row(v) => v,
    })
}

/// Binds `e`, which must be a single value.
fn scalar(b: &mut Binder, e: &ast::Expr) -> Result<Expr> {
    match operand(b, e)? {
        Operand::Scalar(x) => Ok(x),
        Operand::Row(_) => Err(misused()),
    }
}

/// Two rows of the same size, or "row value misused".
fn rows(l: Operand, r: Operand) -> Result<(Vec<Expr>, Vec<Expr>)> {
    match (l, r) {
        (Operand::Row(l), Operand::Row(r)) if l.len() == r.len() && !l.is_empty() => Ok((l, r)),
        _ => Err(misused()),
    }
}

/// `l op r` on two values, with SQLite's comparison affinity and collation.
fn pair(b: &Binder, op: CmpOp, l: Expr, r: Expr) -> Expr {
    let aff = vals::comparison_affinity(b.aff(&l), b.aff(&r));
    let coll = b.comparison_coll(&l, &r);
    Expr::Cmp { op, l: Box::new(l), r: Box::new(r), aff, coll }
}

fn is_pair(b: &Binder, negated: bool, l: Expr, r: Expr) -> Expr {
    let aff = vals::comparison_affinity(b.aff(&l), b.aff(&r));
    let coll = b.comparison_coll(&l, &r);
    Expr::Is { l: Box::new(l), r: Box::new(r), negated, aff, coll }
}

fn and(a: Expr, c: Expr) -> Expr {
    Expr::And(Box::new(a), Box::new(c))
}

fn or(a: Expr, c: Expr) -> Expr {
    Expr::Or(Box::new(a), Box::new(c))
}

/// The comparison of two rows of the same size.
fn compare_rows(b: &Binder, op: CmpOp, l: Vec<Expr>, r: Vec<Expr>) -> Expr {
    compare_pairs(b, op, l, r).unwrap_or(Expr::Literal(crate::Value::Integer(1)))
}

fn compare_pairs(b: &Binder, op: CmpOp, l: Vec<Expr>, r: Vec<Expr>) -> Option<Expr> {
    let pairs = l.into_iter().zip(r);
    match op {
        CmpOp::Eq => pairs.map(|(l, r)| pair(b, CmpOp::Eq, l, r)).reduce(and),
        CmpOp::Ne => pairs.map(|(l, r)| pair(b, CmpOp::Ne, l, r)).reduce(or),
        _ => {
            let strict = match op {
                CmpOp::Lt | CmpOp::Le => CmpOp::Lt,
                _ => CmpOp::Gt,
            };
            // From the last pair (which takes `op` itself) back to the first.
            let mut pairs: Vec<(Expr, Expr)> = pairs.collect();
            let (l, r) = pairs.pop()?;
            let mut acc = pair(b, op, l, r);
            while let Some((l, r)) = pairs.pop() {
                let first = pair(b, strict, l.clone(), r.clone());
                acc = or(first, and(pair(b, CmpOp::Eq, l, r), acc));
            }
            Some(acc)
        }
    }
}

/// `l op r` where at least one side is a row value.
pub(super) fn compare(
    b: &Binder,
    l: Operand,
    op: &ast::BinaryOperator,
    r: Operand,
) -> Result<Expr> {
    use ast::BinaryOperator as B;
    let (l, r) = rows(l, r)?;
    Ok(match op {
        B::Eq => compare_rows(b, CmpOp::Eq, l, r),
        B::NotEq => compare_rows(b, CmpOp::Ne, l, r),
        B::Lt => compare_rows(b, CmpOp::Lt, l, r),
        B::LtEq => compare_rows(b, CmpOp::Le, l, r),
        B::Gt => compare_rows(b, CmpOp::Gt, l, r),
        B::GtEq => compare_rows(b, CmpOp::Ge, l, r),
        B::Is => l
            .into_iter()
            .zip(r)
            .map(|(l, r)| is_pair(b, false, l, r))
            .reduce(and)
            .ok_or_else(misused)?,
        B::IsNot => l
            .into_iter()
            .zip(r)
            .map(|(l, r)| is_pair(b, true, l, r))
            .reduce(or)
            .ok_or_else(misused)?,
        _ => return Err(misused()),
    })
}

/// `CASE (a, b) WHEN (x, y) THEN … [ELSE …] END` with the row operand
/// `xs` (bound): `CASE WHEN (a, b) = (x, y) THEN …`.
pub(super) fn case(
    b: &mut Binder,
    xs: Vec<Expr>,
    conditions: &[ast::CaseWhen],
    else_: Option<&ast::Expr>,
) -> Result<Expr> {
    let mut whens = Vec::with_capacity(conditions.len());
    for cw in conditions {
        let (l, r) = rows(Operand::Row(xs.clone()), operand(b, &cw.condition)?)?;
        whens.push((compare_rows(b, CmpOp::Eq, l, r), b.bind_expr(&cw.result)?));
    }
    let else_ = else_.map(|e| b.bind_expr(e)).transpose()?.map(Box::new);
    Ok(Expr::Case { operand: None, whens, else_, aff: None, coll: Collation::Binary })
}

/// `x [NOT] BETWEEN lo AND hi` where one of them is a row value.
pub(super) fn between(
    b: &Binder,
    x: Operand,
    lo: Operand,
    hi: Operand,
    negated: bool,
) -> Result<Expr> {
    let x = match x {
        Operand::Row(x) => x,
        Operand::Scalar(_) => return Err(misused()),
    };
    let (x1, lo) = rows(Operand::Row(x.clone()), lo)?;
    let (x2, hi) = rows(Operand::Row(x), hi)?;
    let both = and(compare_rows(b, CmpOp::Ge, x1, lo), compare_rows(b, CmpOp::Le, x2, hi));
    Ok(if negated { Expr::Not(Box::new(both)) } else { both })
}

/// `(a, b) [NOT] IN ((…), (…))`: the OR of the row equalities.
pub(super) fn in_list(
    b: &mut Binder,
    lhs: Vec<Expr>,
    list: &[ast::Expr],
    negated: bool,
) -> Result<Expr> {
    let mut any: Option<Expr> = None;
    for item in list {
        let r = match operand(b, item)? {
            Operand::Row(r) if r.len() == lhs.len() => r,
            Operand::Row(r) => return Err(element_size(r.len(), lhs.len())),
            Operand::Scalar(_) => return Err(element_size(1, lhs.len())),
        };
        let eq = compare_rows(b, CmpOp::Eq, lhs.clone(), r);
        any = Some(match any {
            Some(a) => or(a, eq),
            None => eq,
        });
    }
    let any = any.unwrap_or(Expr::Literal(crate::Value::Integer(0)));
    Ok(if negated { Expr::Not(Box::new(any)) } else { any })
}

fn element_size(got: usize, want: usize) -> Error {
    Error::InvalidInput(format!(
        "IN(...) element has {got} term{} - expected {want}",
        if got == 1 { "" } else { "s" }
    ))
}

/// `(a, b) [NOT] IN (SELECT x, y …)`.
pub(super) fn in_subquery(
    b: &mut Binder,
    lhs: Vec<Expr>,
    q: &ast::Query,
    negated: bool,
) -> Result<Expr> {
    let (sub, saffs, scolls) = b.bind_row_subquery(q)?;
    if sub.ncols != lhs.len() {
        return Err(Error::InvalidInput(format!(
            "sub-select returns {} columns - expected {}",
            sub.ncols,
            lhs.len()
        )));
    }
    let mut affs = Vec::with_capacity(lhs.len());
    let mut colls = Vec::with_capacity(lhs.len());
    for (i, x) in lhs.iter().enumerate() {
        affs.push(vals::comparison_affinity(b.aff(x), saffs.get(i).copied().flatten()));
        // As `x = column`: the left's explicit collation, the column's
        // explicit one, then either's own (see the one-column IN).
        let coll = if x.has_explicit_collation() {
            b.collation(x)
        } else {
            scolls.get(i).copied().flatten().or_else(|| b.collation(x))
        };
        colls.push(coll.unwrap_or(Collation::Binary));
    }
    Ok(Expr::Sub {
        kind: SubKind::InRow { affs, colls },
        sub,
        lhs,
        aff: None,
        coll: Collation::Binary,
        negated,
        outer_offset: 0,
    })
}
