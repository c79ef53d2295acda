//! FROM: relations (tables, views, CTEs, subqueries), the canonical row
//! they make up, and join assembly — WHERE conjuncts pushed to the
//! relations they read, inner joins ordered greedily along join
//! predicates, equi-joins hashed.

use std::collections::BTreeSet;
use std::sync::Arc;

use sqlparser::ast;

use super::access::*;
use super::bind::{Binder, Scope, ScopeTable};
use super::select::*;
use super::{JoinKind, Node, QueryPlan};
use crate::catalog::{TableDef, object_name};
use crate::exec::vals::{Affinity, Collation};
use crate::expr::{CmpOp, Expr};
use crate::{Error, Result};

/// One relation of a FROM clause.
pub(super) struct Rel {
    pub(super) name: String,
    pub(super) source: Source,
    pub(super) columns: Vec<(String, Option<Affinity>, Collation)>,
    pub(super) has_rowid: bool,
    pub(super) kind: JoinKind,
    pub(super) on: Option<ast::Expr>,
    pub(super) using: Vec<String>,
    pub(super) natural: bool,
    pub(super) offset: usize,
    /// USING / NATURAL columns: reachable only qualified, not in `*`.
    pub(super) hidden: Vec<String>,
}

pub(super) enum Source {
    Table(Arc<TableDef>),
    Node(Box<Node>),
}

impl Rel {
    fn width(&self) -> usize {
        self.columns.len() + usize::from(self.has_rowid)
    }
}

pub(super) fn table_rel(t: &Arc<TableDef>, name: String) -> Rel {
    Rel {
        name,
        columns: t
            .columns
            .iter()
            .map(|c| (c.name.clone(), Some(c.affinity), c.collation))
            .collect(),
        has_rowid: true,
        source: Source::Table(t.clone()),
        kind: JoinKind::Inner,
        on: None,
        using: Vec::new(),
        natural: false,
        offset: 0,
        hidden: Vec::new(),
    }
}

pub(super) fn query_rel(plan: QueryPlan, name: String, cols: &[String]) -> Rel {
    let columns = plan
        .columns
        .iter()
        .enumerate()
        .map(|(i, c)| {
            (
                cols.get(i).cloned().unwrap_or_else(|| c.clone()),
                plan.affinities[i],
                Collation::Binary,
            )
        })
        .collect();
    Rel {
        name,
        columns,
        has_rowid: false,
        source: Source::Node(Box::new(plan.node)),
        kind: JoinKind::Inner,
        on: None,
        using: Vec::new(),
        natural: false,
        offset: 0,
        hidden: Vec::new(),
    }
}

pub(super) fn factor_rel(b: &mut Binder, f: &ast::TableFactor) -> Result<Rel> {
    match f {
        ast::TableFactor::Table { name, alias, args: None, .. } => {
            let tname = object_name(name)?;
            let alias_name = alias.as_ref().map(|a| a.name.value.clone());
            let shown = alias_name.clone().unwrap_or_else(|| tname.clone());
            let lc = tname.to_ascii_lowercase();
            if let Some(i) = b.ctes.iter().rposition(|c| c.name == lc) {
                return super::cte::cte_rel(b, i, shown);
            }
            if let Some(t) = b.schema.table(&tname).cloned() {
                return Ok(table_rel(&t, shown));
            }
            if let Some(v) = b.schema.view(&tname).cloned() {
                let plan = b.isolated(|b| plan_query(b, &v.query))?;
                return Ok(query_rel(plan, shown, &v.columns));
            }
            Err(Error::NotFound(format!("no such table: {tname}")))
        }
        ast::TableFactor::Derived { subquery, alias, lateral: false, .. } => {
            let plan = b.isolated(|b| plan_query(b, subquery))?;
            let name = alias.as_ref().map(|a| a.name.value.clone()).unwrap_or_default();
            let cols: Vec<String> = alias
                .as_ref()
                .map(|a| a.columns.iter().map(|c| c.name.value.clone()).collect())
                .unwrap_or_default();
            Ok(query_rel(plan, name, &cols))
        }
        ast::TableFactor::NestedJoin { .. } => {
            Err(Error::Unsupported("parenthesised joins".into()))
        }
        other => Err(Error::Unsupported(format!("FROM item {other}"))),
    }
}

pub(super) fn from_rels(b: &mut Binder, from: &[ast::TableWithJoins]) -> Result<Vec<Rel>> {
    let mut rels = Vec::new();
    for twj in from {
        rels.push(factor_rel(b, &twj.relation)?);
        for j in &twj.joins {
            let mut r = factor_rel(b, &j.relation)?;
            use ast::JoinOperator as J;
            let (kind, c) = match &j.join_operator {
                J::Join(c) | J::Inner(c) | J::CrossJoin(c) => (JoinKind::Inner, Some(c)),
                J::Left(c) | J::LeftOuter(c) => (JoinKind::Left, Some(c)),
                other => return Err(Error::Unsupported(format!("join {other:?}"))),
            };
            r.kind = kind;
            match c {
                Some(ast::JoinConstraint::On(e)) => r.on = Some(e.clone()),
                Some(ast::JoinConstraint::Using(cols)) => {
                    r.using = cols.iter().map(object_name).collect::<Result<_>>()?;
                }
                Some(ast::JoinConstraint::Natural) => r.natural = true,
                _ => {}
            }
            let mut hidden = r.using.clone();
            if r.natural {
                for (c, ..) in &r.columns {
                    if rels
                        .iter()
                        .any(|l: &Rel| l.columns.iter().any(|x| x.0.eq_ignore_ascii_case(c)))
                    {
                        hidden.push(c.clone());
                    }
                }
            }
            r.hidden = hidden;
            rels.push(r);
        }
    }
    let mut off = 0;
    for r in &mut rels {
        r.offset = off;
        off += r.width();
    }
    Ok(rels)
}

pub(super) fn scope_of(rels: &[Rel]) -> Scope {
    let tables = rels
        .iter()
        .map(|r| ScopeTable {
            name: r.name.clone(),
            columns: r.columns.clone(),
            offset: r.offset,
            rowid: r.has_rowid.then_some(r.columns.len()),
            table: match &r.source {
                Source::Table(t) => Some(t.clone()),
                Source::Node(_) => None,
            },
            hidden: r.hidden.clone(),
        })
        .collect();
    Scope { tables, width: rels.iter().map(Rel::width).sum() }
}

/// The tables (relation indexes) an expression bound to the canonical row
/// reads.
pub(super) fn rel_set(e: &Expr, rels: &[Rel]) -> BTreeSet<usize> {
    e.columns()
        .into_iter()
        .filter_map(|c| rels.iter().position(|r| c >= r.offset && c < r.offset + r.width()))
        .collect()
}

pub(super) struct Conj {
    pub(super) expr: Expr,
    pub(super) rels: BTreeSet<usize>,
    pub(super) done: bool,
}

/// Builds the join tree producing canonical rows of `width`.
pub(super) fn build_from(
    b: &mut Binder,
    rels: &mut [Rel],
    where_c: Vec<Expr>,
    on_c: Vec<Vec<Expr>>,
    width: usize,
    order: Option<&[OrderTerm]>,
) -> Result<(Node, bool)> {
    if rels.is_empty() {
        let mut node = Node::Values { rows: vec![Vec::new()], width: 0 };
        if let Some(p) = where_c.into_iter().reduce(|a, c| Expr::And(Box::new(a), Box::new(c))) {
            node = Node::Filter { input: Box::new(node), pred: p };
        }
        return Ok((node, false));
    }
    let mut ordered = false;
    let left_right: BTreeSet<usize> =
        rels.iter().enumerate().filter(|(_, r)| r.kind == JoinKind::Left).map(|(i, _)| i).collect();
    let any_left = !left_right.is_empty();
    let mut conjs: Vec<Conj> = where_c
        .into_iter()
        .map(|e| Conj { rels: rel_set(&e, rels), expr: e, done: false })
        .collect();

    // Local filters and access paths.
    let mut locals: Vec<Vec<Expr>> = vec![Vec::new(); rels.len()];
    for c in conjs.iter_mut() {
        if c.rels.len() == 1 && !c.expr.has_subquery() {
            let i = *c.rels.iter().next().expect("one");
            if !left_right.contains(&i) {
                locals[i].push(c.expr.clone().shift(rels[i].offset));
                c.done = true;
            }
        }
    }
    for (i, cs) in on_c.iter().enumerate() {
        for c in cs {
            let s = rel_set(c, rels);
            if s.len() == 1 && s.contains(&i) && !c.has_subquery() {
                locals[i].push(c.clone().shift(rels[i].offset));
            }
        }
    }
    let mut scans: Vec<Option<Node>> = Vec::new();
    let mut est: Vec<f64> = Vec::new();
    let rels_len = rels.len();
    for (i, r) in rels.iter_mut().enumerate() {
        let filter = locals[i].iter().cloned().reduce(|a, c| Expr::And(Box::new(a), Box::new(c)));
        let (node, e) = match std::mem::replace(
            &mut r.source,
            Source::Node(Box::new(Node::Values { rows: vec![], width: 0 })),
        ) {
            Source::Table(t) => {
                let rows = b.store.estimate_rows(&t)? as f64;
                let (mut access, sel) = choose_access(b, &t, &locals[i]);
                if let (Some(order), 1) = (order, rels_len) {
                    let local: Option<Vec<OrderTerm>> = order
                        .iter()
                        .map(|o| {
                            let c = o.col.checked_sub(r.offset).filter(|c| *c <= t.columns.len());
                            c.map(|col| OrderTerm { col, ..*o })
                        })
                        .collect();
                    if let Some(local) = local {
                        (access, ordered) = order_access(b, &t, access, &local);
                    }
                }
                let e = rows * sel * if filter.is_some() { 0.5 } else { 1.0 };
                (Node::Scan { table: t, access, filter }, e)
            }
            Source::Node(n) => {
                let n = match filter {
                    Some(f) => Node::Filter { input: n, pred: f },
                    None => *n,
                };
                (n, 1000.0)
            }
        };
        scans.push(Some(node));
        est.push(e);
    }

    // Join order.
    let order: Vec<usize> = if any_left || rels.len() == 1 {
        (0..rels.len()).collect()
    } else {
        greedy_order(&conjs, &est)
    };

    let first = order[0];
    let mut joined: BTreeSet<usize> = BTreeSet::from([first]);
    let mut node = Node::Widen {
        input: Box::new(scans[first].take().expect("each rel once")),
        offset: rels[first].offset,
        width,
    };
    for &r in &order[1..] {
        let right = scans[r].take().expect("each rel once");
        let mut step: BTreeSet<usize> = joined.clone();
        step.insert(r);
        let mut candidates: Vec<Expr> = Vec::new();
        if rels[r].kind == JoinKind::Left {
            candidates.extend(on_c[r].iter().cloned());
        }
        for c in conjs.iter_mut() {
            if !c.done && c.rels.is_subset(&step) && c.rels.is_disjoint(&left_right) {
                c.done = true;
                candidates.push(c.expr.clone());
            }
        }
        let mut keys = Vec::new();
        let mut rest = Vec::new();
        for c in candidates {
            match equi_key(&c, rels, &joined, r) {
                Some(k) => keys.push(k),
                None => rest.push(c),
            }
        }
        let on = rest.into_iter().reduce(|a, c| Expr::And(Box::new(a), Box::new(c)));
        node = Node::Join {
            left: Box::new(node),
            right: Box::new(right),
            offset: rels[r].offset,
            kind: rels[r].kind,
            keys,
            on,
        };
        joined.insert(r);
    }
    // Whatever is left (subqueries, constants, conditions on the right
    // side of LEFT joins, single-relation queries) filters at the top.
    let rest: Vec<Expr> = conjs.into_iter().filter(|c| !c.done).map(|c| c.expr).collect();
    if let Some(p) = rest.into_iter().reduce(|a, c| Expr::And(Box::new(a), Box::new(c))) {
        // Single-table conditions already ran in the scan; re-running them
        // is harmless and keeps this simple.
        node = Node::Filter { input: Box::new(node), pred: p };
    }
    Ok((node, ordered))
}

/// `left = right` with one side over already-joined relations and the other
/// over `r` alone, BINARY collation, no subqueries: a hash-join key.
pub(super) fn equi_key(
    c: &Expr,
    rels: &[Rel],
    joined: &BTreeSet<usize>,
    r: usize,
) -> Option<(Expr, Expr, Option<Affinity>)> {
    let Expr::Cmp { op: CmpOp::Eq, l, r: rr, aff, coll: Collation::Binary } = c else {
        return None;
    };
    if l.has_subquery() || rr.has_subquery() {
        return None;
    }
    let ls = rel_set(l, rels);
    let rs = rel_set(rr, rels);
    let only_r = |s: &BTreeSet<usize>| s.len() == 1 && s.contains(&r);
    let in_joined = |s: &BTreeSet<usize>| !s.is_empty() && s.is_subset(joined);
    if in_joined(&ls) && only_r(&rs) {
        Some(((**l).clone(), (**rr).clone().shift(rels[r].offset), *aff))
    } else if in_joined(&rs) && only_r(&ls) {
        Some(((**rr).clone(), (**l).clone().shift(rels[r].offset), *aff))
    } else {
        None
    }
}

/// Greedy join order: start from the smallest estimate, then always join a
/// relation connected to the joined set by a predicate (preferring
/// equalities, then the smallest), a cross product only when none is.
pub(super) fn greedy_order(conjs: &[Conj], est: &[f64]) -> Vec<usize> {
    let n = est.len();
    let mut left: BTreeSet<usize> = (0..n).collect();
    let by_est = |a: &usize, b: &usize| est[*a].total_cmp(&est[*b]).then(a.cmp(b));
    let first = left.iter().copied().min_by(|a, b| by_est(a, b)).expect("non-empty");
    left.remove(&first);
    let mut joined = BTreeSet::from([first]);
    let mut order = vec![first];
    while !left.is_empty() {
        let mut eq: Vec<usize> = Vec::new();
        let mut any: Vec<usize> = Vec::new();
        for &r in &left {
            for c in conjs {
                if c.rels.contains(&r)
                    && c.rels.iter().any(|x| joined.contains(x))
                    && c.rels.iter().all(|x| *x == r || joined.contains(x))
                {
                    if matches!(c.expr, Expr::Cmp { op: CmpOp::Eq, .. }) {
                        eq.push(r);
                    } else {
                        any.push(r);
                    }
                }
            }
        }
        let pool: Vec<usize> = if !eq.is_empty() {
            eq
        } else if !any.is_empty() {
            any
        } else {
            left.iter().copied().collect()
        };
        let next = *pool.iter().min_by(|a, b| by_est(a, b)).expect("non-empty");
        left.remove(&next);
        joined.insert(next);
        order.push(next);
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::vals::Collation;
    use crate::expr::CmpOp;
    use crate::value::Value;

    fn conj(rels: &[usize], eq: bool) -> Conj {
        let expr = if eq {
            Expr::Cmp {
                op: CmpOp::Eq,
                l: Box::new(Expr::Column(0)),
                r: Box::new(Expr::Column(1)),
                aff: None,
                coll: Collation::Binary,
            }
        } else {
            Expr::Literal(Value::Integer(1))
        };
        Conj { expr, rels: rels.iter().copied().collect(), done: false }
    }

    /// A chain 0-1-2-…-9 given in scrambled order, with the smallest table
    /// in the middle: every step must join a neighbour of the joined set
    /// (never a cross product while a connected table exists).
    #[test]
    fn greedy_order_follows_join_predicates() {
        let n = 10;
        let mut est = vec![100.0; n];
        est[5] = 1.0;
        let mut conjs: Vec<Conj> = (0..n - 1).map(|i| conj(&[i, i + 1], true)).collect();
        conjs.reverse();
        let order = greedy_order(&conjs, &est);
        assert_eq!(order[0], 5);
        let mut joined = BTreeSet::from([order[0]]);
        for &r in &order[1..] {
            assert!(
                joined.contains(&(r + 1)) || (r > 0 && joined.contains(&(r - 1))),
                "{r} joined without a predicate in {order:?}"
            );
            joined.insert(r);
        }
        assert_eq!(joined.len(), n);
    }

    /// Disconnected components: a cross product happens only between them.
    #[test]
    fn greedy_order_crosses_only_between_components() {
        let est = vec![10.0, 20.0, 30.0, 5.0];
        let conjs = vec![conj(&[0, 2], true), conj(&[1, 3], true)];
        let order = greedy_order(&conjs, &est);
        assert_eq!(order, vec![3, 1, 0, 2]);
    }
}
