//! Access paths: how one table's rows are reached — rowid points, IN
//! lists and ranges, index equality prefixes with a range on the next
//! column — and which orders a scan gives for free (ORDER BY and
//! `min()`/`max()` served without a sort).
//!
//! The order of an unordered scan follows SQLite where SQLite's is a
//! property of the table: a WITHOUT ROWID table is read in PRIMARY KEY
//! order ([`in_key_order`]), as its rows are stored. Where SQLite's order
//! comes from its cost model — a full scan of a covering index it judges
//! narrower than the table — it is not copied: SQL leaves that order (and
//! so which of equal rows a DISTINCT or GROUP BY shows, and the order rows
//! reach `group_concat`) open, and the differential fuzzer does not
//! compare it (`tests/fuzz/run.rs`).

use std::collections::BTreeSet;
use std::ops::Bound;
use std::sync::Arc;

use sqlparser::ast;

use super::bind::{Binder, conjuncts};
use super::from::*;
use super::{Access, AggCall, Node};
use crate::Result;
use crate::catalog::TableDef;
use crate::exec::vals::{Affinity, Collation};
use crate::expr::{CmpOp, Expr, SubKind};

/// A usable comparison of a column with a row-free value.
pub(super) enum Pred {
    Eq(Expr),
    In(Vec<Expr>),
    Lo(Expr, bool),
    Hi(Expr, bool),
    /// `col IN (uncorrelated subquery)`, its collation.
    InSub(Arc<super::SubPlan>, Collation),
}

/// A comparison of a key (an expression over the row: a column, or what
/// an index on an expression holds) with row-free values: the terms an
/// access path can serve. `coll` is the comparison's collation, `aff` the
/// affinity it applies to the values.
pub(super) struct Term<'a> {
    pub(super) key: &'a Expr,
    pub(super) pred: Pred,
    pub(super) aff: Option<Affinity>,
    pub(super) coll: Collation,
}

pub(super) fn term(c: &Expr) -> Option<Term<'_>> {
    match c {
        Expr::Cmp { op, l, r, aff, coll } if *op != CmpOp::Ne => {
            let (key, val, op) = if r.is_row_free() && !l.is_row_free() {
                (l.as_ref(), r.as_ref(), *op)
            } else if l.is_row_free() && !r.is_row_free() {
                (r.as_ref(), l.as_ref(), op.flip())
            } else {
                return None;
            };
            let val = val.clone();
            let pred = match op {
                CmpOp::Eq => Pred::Eq(val),
                CmpOp::Gt => Pred::Lo(val, false),
                CmpOp::Ge => Pred::Lo(val, true),
                CmpOp::Lt => Pred::Hi(val, false),
                CmpOp::Le => Pred::Hi(val, true),
                CmpOp::Ne => return None,
            };
            Some(Term { key: key.without_collate(), pred, aff: *aff, coll: *coll })
        }
        Expr::InList { expr, list, affs, coll, negated: false } => {
            if expr.is_row_free()
                || !list.iter().all(Expr::is_row_free)
                || affs.windows(2).any(|w| w[0] != w[1])
            {
                return None;
            }
            let aff = affs.first().copied().flatten();
            Some(Term {
                key: expr.without_collate(),
                pred: Pred::In(list.clone()),
                aff,
                coll: *coll,
            })
        }
        Expr::Sub { kind: SubKind::In, sub, lhs, aff, coll, negated: false, .. }
            if !sub.correlated =>
        {
            let [key] = lhs.as_slice() else { return None };
            if key.is_row_free() {
                return None;
            }
            Some(Term {
                key: key.without_collate(),
                pred: Pred::InSub(sub.clone(), *coll),
                aff: *aff,
                coll: *coll,
            })
        }
        _ => None,
    }
}

/// A [`term`] on a column under BINARY: what rowid paths and `min()`/
/// `max()` look for.
pub(super) fn analyse(c: &Expr) -> Option<(usize, Pred, Option<Affinity>)> {
    let t = term(c)?;
    match (t.key, t.coll) {
        (Expr::Column(k), Collation::Binary) => Some((*k, t.pred, t.aff)),
        _ => None,
    }
}

/// True if the conjuncts `terms` imply `p` (a partial index's WHERE), so
/// every row they accept is in the index — SQLite's
/// `sqlite3ExprImpliesExpr`: `p` is one of the terms, an AND of implied
/// parts, an OR with an implied side, or `x IS NOT NULL` where a term is
/// false or NULL whenever `x` is NULL.
pub(super) fn implied(terms: &[Expr], p: &Expr) -> bool {
    if terms.iter().any(|t| t.same(p)) {
        return true;
    }
    match p {
        Expr::And(a, b) => implied(terms, a) && implied(terms, b),
        Expr::Or(a, b) => implied(terms, a) || implied(terms, b),
        Expr::IsNull(x, true) => terms.iter().any(|t| rejects_null(t, x)),
        _ => false,
    }
}

/// True if the term `t` is not true when `x` is NULL.
fn rejects_null(t: &Expr, x: &Expr) -> bool {
    match t {
        Expr::Cmp { l, r, .. } => strict(l, x) || strict(r, x),
        Expr::InList { expr, negated: false, .. } => strict(expr, x),
        Expr::Like { expr, .. } | Expr::Glob { expr, .. } => strict(expr, x),
        Expr::IsNull(e, true) => strict(e, x),
        Expr::And(a, b) => rejects_null(a, x) || rejects_null(b, x),
        _ => false,
    }
}

/// True if `e` is NULL whenever `x` is: `x` itself, or operators that
/// pass a NULL operand through.
fn strict(e: &Expr, x: &Expr) -> bool {
    if e.same(x) {
        return true;
    }
    match e {
        Expr::Arith(_, l, r) => strict(l, x) || strict(r, x),
        Expr::Negate(a)
        | Expr::BitNot(a)
        | Expr::Identity(a)
        | Expr::Cast(a, _)
        | Expr::Collate(a, _) => strict(a, x),
        _ => false,
    }
}

/// True if applying `aff` to stored values of a column of affinity `col`
/// changes nothing, so the index order is the comparison's order.
pub(super) fn aff_ok(aff: Option<Affinity>, col: Affinity) -> bool {
    match aff {
        None => true,
        Some(Affinity::Numeric) => {
            matches!(col, Affinity::Integer | Affinity::Real | Affinity::Numeric)
        }
        Some(Affinity::Text) => col == Affinity::Text,
        Some(_) => false,
    }
}

/// Picks an access path for a table from its local conjuncts (bound to
/// the local row). Returns it and a selectivity estimate.
pub(super) fn choose_access(b: &Binder, t: &Arc<TableDef>, locals: &[Expr]) -> (Access, f64) {
    let preds: Vec<(usize, Pred, Option<Affinity>)> = locals.iter().filter_map(analyse).collect();
    let ncols = t.columns.len();
    let is_rowid = |k: usize| k == ncols || Some(k) == t.rowid_alias;
    // Rowid equality / IN.
    for (k, p, aff) in &preds {
        if is_rowid(*k) {
            match p {
                Pred::Eq(v) => return (Access::RowidIn(vec![v.clone()]), 0.0001),
                Pred::In(vs) => return (Access::RowidIn(vs.clone()), 0.001),
                Pred::InSub(sub, coll) => {
                    let access = Access::RowidInSub { sub: sub.clone(), aff: *aff, coll: *coll };
                    return (access, 0.01);
                }
                _ => {}
            }
        }
    }
    // Best index. Its key parts are matched with the terms as bound
    // expressions: a column, or what an index on an expression holds (so
    // `lower(b) = ?` uses an index on `lower(b)`), under the key part's
    // collation (a NOCASE index serves NOCASE comparisons, its probes
    // folded as its keys are). A partial index is used only where the
    // terms imply its WHERE. The terms are tested again above the scan, so
    // an index need only give every row they accept.
    let terms: Vec<Term> = locals.iter().filter_map(term).collect();
    let mut best: Option<(u32, Access, f64)> = None;
    for ix in b.schema.table_indexes(&t.name) {
        let keys = if ix.is_plain() {
            None
        } else {
            // A fresh binder: binding the index's expressions must not
            // touch the statement's (parameters, subquery numbering).
            let mut nb = Binder::new(b.schema, b.store);
            match crate::exec::index::IndexKeys::new(&mut nb, t, &ix) {
                Ok(k) => Some(k),
                Err(_) => continue,
            }
        };
        if let Some(p) = keys.as_ref().and_then(|k| k.predicate())
            && !implied(locals, p)
        {
            continue;
        }
        let parts: Vec<Expr> = (0..ix.columns.len())
            .map(|j| match &keys {
                Some(k) => k.part(j),
                None => Expr::Column(ix.columns[j]),
            })
            .collect();
        // The affinity a key part's values have: the column's, a CAST's,
        // or none (BLOB) for any other expression.
        let part_aff = |j: usize| match &parts[j] {
            Expr::Column(c) => t.columns.get(*c).map_or(Affinity::Integer, |c| c.affinity),
            Expr::Cast(_, a) => *a,
            _ => Affinity::Blob,
        };
        let fits = |tm: &Term, j: usize| {
            tm.key.same(&parts[j]) && tm.coll == ix.collations[j] && aff_ok(tm.aff, part_aff(j))
        };
        let mut prefixes: Vec<Vec<Expr>> = vec![Vec::new()];
        let mut affs = Vec::new();
        let mut j = 0;
        while j < ix.columns.len() {
            let eq = terms.iter().find(|tm| matches!(tm.pred, Pred::Eq(_)) && fits(tm, j));
            if let Some(Term { pred: Pred::Eq(v), aff, .. }) = eq {
                prefixes.iter_mut().for_each(|p| p.push(v.clone()));
                affs.push(*aff);
                j += 1;
                continue;
            }
            let inl = terms.iter().find(|tm| matches!(tm.pred, Pred::In(_)) && fits(tm, j));
            if let (0, Some(Term { pred: Pred::In(vs), aff, .. })) = (j, inl) {
                prefixes = vs.iter().map(|v| vec![v.clone()]).collect();
                affs.push(*aff);
                j += 1;
                continue;
            }
            break;
        }
        let mut lo = Bound::Unbounded;
        let mut hi = Bound::Unbounded;
        if j < ix.columns.len() && !ix.desc[j] {
            for tm in &terms {
                if !fits(tm, j) {
                    continue;
                }
                match &tm.pred {
                    Pred::Lo(v, inc) if matches!(lo, Bound::Unbounded) => lo = bound(v, *inc),
                    Pred::Hi(v, inc) if matches!(hi, Bound::Unbounded) => hi = bound(v, *inc),
                    _ => continue,
                }
                if affs.len() == j {
                    affs.push(tm.aff);
                }
            }
        }
        let ranged = !matches!((&lo, &hi), (Bound::Unbounded, Bound::Unbounded));
        if j == 0 && !ranged {
            continue;
        }
        // Desc columns inside the equality prefix are fine: equality does
        // not depend on direction.
        if ix.desc[..j].iter().any(|d| *d) && ranged {
            continue;
        }
        let score = j as u32 * 100
            + if ranged { 10 } else { 0 }
            + if ix.unique && j == ix.columns.len() { 1000 } else { 0 };
        let sel = if ix.unique && j == ix.columns.len() {
            0.0001
        } else {
            0.1f64.powi(j as i32) * if ranged { 0.3 } else { 1.0 }
        };
        if best.as_ref().is_none_or(|(s, ..)| score > *s) {
            let access = Access::Index {
                index: ix.clone(),
                prefixes,
                lo,
                hi,
                affs,
                reverse: false,
                ordered: false,
                skip_nulls: false,
                covering: false,
            };
            best = Some((score, access, sel));
        }
    }
    // Rowid range.
    let mut lo = Bound::Unbounded;
    let mut hi = Bound::Unbounded;
    for (k, p, _) in &preds {
        if !is_rowid(*k) {
            continue;
        }
        match p {
            Pred::Lo(v, inc) if matches!(lo, Bound::Unbounded) => lo = bound(v, *inc),
            Pred::Hi(v, inc) if matches!(hi, Bound::Unbounded) => hi = bound(v, *inc),
            _ => {}
        }
    }
    let rowid_range = !matches!((&lo, &hi), (Bound::Unbounded, Bound::Unbounded));
    match best {
        Some((score, access, sel)) if score >= 100 || !rowid_range => (access, sel),
        _ if rowid_range => (Access::RowidRange { lo, hi, reverse: false }, 0.3),
        _ => (Access::Full { reverse: false }, 1.0),
    }
}

/// One ORDER BY key that a scan may deliver: a column of the row (the
/// rowid at the table's width), BINARY collation, default NULL placement.
#[derive(Clone, Copy, Debug)]
pub(super) struct OrderTerm {
    pub(super) col: usize,
    pub(super) desc: bool,
    /// Rows whose key is NULL are not wanted (`min(col)`); a scan that can
    /// skip them cheaply does.
    pub(super) skip_nulls: bool,
}

/// `min(col)` / `max(col)` (no FILTER) as the only aggregate of a
/// one-table query without GROUP BY or HAVING, over a BINARY-collated
/// column (or the rowid): the order a scan must give for its first row to
/// be the answer.
/// A WHERE may only compare that column with values (an access path on
/// it, which also keeps NULLs out); anything else would make the scan read
/// rows the WHERE then rejects.
pub(super) fn min_max_column(
    b: &Binder,
    aggs: &[AggCall],
    group: &[Expr],
    having: bool,
    where_c: &[Expr],
    rels: &[Rel],
) -> Option<OrderTerm> {
    let [agg] = aggs else { return None };
    let [Expr::Column(col)] = agg.args.as_slice() else { return None };
    // A FILTER picks the rows min()/max() sees: the first entry need not
    // be one of them (SQLite's minMaxQuery declines it too).
    if agg.distinct || agg.filter.is_some() || !group.is_empty() || having || rels.len() != 1 {
        return None;
    }
    if !where_c.iter().all(|c| analyse(c).is_some_and(|(k, ..)| k == *col)) {
        return None;
    }
    let max = match agg.name.to_ascii_lowercase().as_str() {
        "min" => false,
        "max" => true,
        _ => return None,
    };
    if b.column_coll(&agg.args[0]) != Some(Collation::Binary) {
        return None;
    }
    Some(OrderTerm { col: *col, desc: max, skip_nulls: !max })
}

/// Makes `access` deliver rows in `order` (columns of the local row) if
/// it can without a sort; returns the access and whether it does.
///
/// - Rowid first (ASC or DESC): a full or range scan in rowid order. The
///   rowid is unique, so keys after it never matter.
/// - Index columns: a forward scan of an index whose columns, after those
///   fixed by a single-valued equality prefix, start with the keys (all
///   ASC), optionally followed by the rowid (ASC). Equal keys come in
///   rowid order ([`Access::Index`]'s `ordered`), as in SQLite's index
///   scan. A full scan picks the first such index when the WHERE gave no
///   access path; an index the WHERE chose is kept only if it fits.
///
/// Only ascending index columns are used, whatever the key's direction:
/// the B+tree store scans indexes forward only, and the memory store
/// orders DESC columns ascending, so any other order would differ between
/// them (or between them and SQLite's ties).
pub(super) fn order_access(
    b: &Binder,
    t: &Arc<TableDef>,
    access: Access,
    order: &[OrderTerm],
) -> (Access, bool) {
    let ncols = t.columns.len();
    let is_rowid = |k: usize| k == ncols || Some(k) == t.rowid_alias;
    if is_rowid(order[0].col) {
        let reverse = order[0].desc;
        return match access {
            Access::Full { .. } => (Access::Full { reverse }, true),
            Access::RowidRange { lo, hi, .. } => (Access::RowidRange { lo, hi, reverse }, true),
            // Every column fixed by equality: one run of equal keys, read
            // in rowid order.
            Access::Index { index, prefixes, lo, hi, affs, .. }
                if !reverse
                    && prefixes.len() == 1
                    && prefixes[0].len() == index.columns.len()
                    && matches!((&lo, &hi), (Bound::Unbounded, Bound::Unbounded)) =>
            {
                let access = Access::Index {
                    index,
                    prefixes,
                    lo,
                    hi,
                    affs,
                    reverse: false,
                    ordered: true,
                    skip_nulls: false,
                    covering: false,
                };
                (access, true)
            }
            other => (other, false),
        };
    }
    match access {
        Access::Full { reverse: false } => {
            for ix in b.schema.table_indexes(&t.name).into_iter().filter(|i| i.is_plain()) {
                if index_gives(&ix.columns, &ix.desc, 0, order, &is_rowid) {
                    let access = Access::Index {
                        index: ix.clone(),
                        prefixes: vec![Vec::new()],
                        lo: Bound::Unbounded,
                        hi: Bound::Unbounded,
                        affs: Vec::new(),
                        reverse: false,
                        ordered: true,
                        skip_nulls: order[0].skip_nulls,
                        covering: false,
                    };
                    return (access, true);
                }
            }
            (Access::Full { reverse: false }, false)
        }
        Access::Index { index, prefixes, lo, hi, affs, .. } => {
            // An IN list on the first column gives several prefixes, scanned
            // in ascending order: nothing is fixed, the first column sorted.
            let fixed = if prefixes.len() == 1 { prefixes[0].len() } else { 0 };
            // A collated index orders (and fixes) folded keys, not the
            // BINARY values the order terms sort by.
            let ok = index.collations.iter().all(|c| *c == Collation::Binary)
                && index_gives(&index.columns, &index.desc, fixed, order, &is_rowid);
            let access = Access::Index {
                index,
                prefixes,
                lo,
                hi,
                affs,
                reverse: false,
                ordered: ok,
                skip_nulls: false,
                covering: false,
            };
            (access, ok)
        }
        other => (other, false),
    }
}

/// True if a forward scan of an index over `columns` (with `desc` flags),
/// the first `fixed` of them fixed by equality, yields rows in `order`
/// (ties in rowid order).
pub(super) fn index_gives(
    columns: &[usize],
    desc: &[bool],
    fixed: usize,
    order: &[OrderTerm],
    is_rowid: &dyn Fn(usize) -> bool,
) -> bool {
    // Every column the scan orders by must be ascending (see order_access).
    if desc[fixed..].iter().any(|d| *d) {
        return false;
    }
    let mut next = fixed;
    for o in order {
        if columns[..fixed].contains(&o.col) {
            // Constant over the scan: no order to keep.
            continue;
        }
        if o.desc {
            return false;
        }
        if next < columns.len() && columns[next] == o.col {
            next += 1;
            continue;
        }
        // After every index column the rowid orders the entries; it is
        // unique, so later keys do not matter.
        return next == columns.len() && is_rowid(o.col);
    }
    true
}

/// A full scan of a WITHOUT ROWID table reads it in PRIMARY KEY order, as
/// SQLite's does (its rows live in the key's b-tree): an unordered query,
/// a join's inner loop and order-sensitive aggregates (`group_concat`)
/// see the rows in that order, and UPDATE/DELETE visit them so. Our
/// stores keep such a table by an internal rowid with the key as an
/// index, so that scan walks the index. A key with a DESC column keeps
/// the rowid order (the memory store orders DESC columns ascending, see
/// [`order_access`]). Any other access is returned as it is.
pub(super) fn in_key_order(b: &Binder, t: &Arc<TableDef>, access: Access) -> Access {
    if !t.without_rowid || !matches!(access, Access::Full { reverse: false }) {
        return access;
    }
    let pk = b.schema.table_indexes(&t.name).into_iter().find(|i| {
        i.origin == crate::catalog::IndexOrigin::PrimaryKey
            && !i.has_exprs()
            && i.predicate.is_none()
            && !i.desc.iter().any(|d| *d)
    });
    match pk {
        Some(index) => Access::Index {
            index,
            prefixes: vec![Vec::new()],
            lo: Bound::Unbounded,
            hi: Bound::Unbounded,
            affs: Vec::new(),
            reverse: false,
            ordered: true,
            skip_nulls: false,
            covering: false,
        },
        None => access,
    }
}

/// Makes an index scan of `t` index-only when the index holds every
/// column the query reads from the table: `needed` (local column
/// numbers; the table's width is the rowid) must all be key columns of a
/// plain index, the rowid or its alias. Rows are then made from the index
/// entries and the table's records are never read (SQLite's covering
/// index). Any other access is returned as it is.
pub(super) fn cover(t: &TableDef, access: Access, needed: &BTreeSet<usize>) -> Access {
    match access {
        Access::Index { index, prefixes, lo, hi, affs, reverse, ordered, skip_nulls, .. } => {
            let ncols = t.columns.len();
            let covering = index.is_plain()
                && needed
                    .iter()
                    .all(|&c| c == ncols || Some(c) == t.rowid_alias || index.columns.contains(&c));
            Access::Index { index, prefixes, lo, hi, affs, reverse, ordered, skip_nulls, covering }
        }
        other => other,
    }
}

/// Plans a scan of one table with a WHERE clause (for UPDATE / DELETE):
/// yields local rows (columns then rowid).
/// A range bound at `v`, inclusive or not.
pub(super) fn bound<T: Clone>(v: &T, inclusive: bool) -> Bound<T> {
    if inclusive { Bound::Included(v.clone()) } else { Bound::Excluded(v.clone()) }
}

pub fn plan_table_scan(
    b: &mut Binder,
    t: &Arc<TableDef>,
    selection: Option<&ast::Expr>,
) -> Result<Node> {
    plan_table_scan_as(b, t, &t.name, selection)
}

/// [`plan_table_scan`] with the table known as `name` (an UPDATE's or
/// DELETE's alias).
pub fn plan_table_scan_as(
    b: &mut Binder,
    t: &Arc<TableDef>,
    name: &str,
    selection: Option<&ast::Expr>,
) -> Result<Node> {
    let rel = table_rel(t, name.to_string());
    b.push_scope(scope_of(std::slice::from_ref(&rel)));
    let r = (|| {
        let mut cs = Vec::new();
        if let Some(w) = selection {
            conjuncts(b.bind_terms(w)?, &mut cs);
        }
        let local: Vec<Expr> = cs.iter().filter(|c| !c.has_subquery()).cloned().collect();
        let (access, _) = choose_access(b, t, &local);
        let access = in_key_order(b, t, access);
        let filter = cs.into_iter().reduce(|a, c| Expr::And(Box::new(a), Box::new(c)));
        Ok(Node::Scan { table: t.clone(), access, filter })
    })();
    b.pop_scope();
    r
}
