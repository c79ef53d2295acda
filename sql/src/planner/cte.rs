//! Common table expressions, recursive ones included, with SQLite's rules
//! (<https://sqlite.org/lang_with.html>).
//!
//! A reference to a CTE plans the CTE's body in its place (every
//! reference gets its own copy). While a body is planned, the CTE's own
//! name does not plan the body again:
//! - a body `initial UNION [ALL] recursive` plans `initial` with the name
//!   forbidden (naming it is a circular reference), then `recursive` with
//!   the name bound to a working row. If `recursive` names the CTE —
//!   exactly once, in its own FROM, not in a subquery — the CTE is
//!   recursive and becomes a [`Node::Recursive`]; if it does not, the body
//!   is an ordinary compound select;
//! - any other body is planned with the name forbidden.
//!
//! `AS MATERIALIZED` / `AS NOT MATERIALIZED` are accepted and, as SQLite
//! documents them, non-binding hints: every reference still plans the body
//! in its place (NOT MATERIALIZED's way), so results are the same either
//! way for any body that gives the same rows each time it runs (a body
//! reading `random()` and referenced twice is the one case SQLite's
//! materialized copy could differ, and SQLite does not promise it).
//!
//! `RECURSIVE` after `WITH` is optional, as in SQLite: what makes a CTE
//! recursive is its body naming it. A recursive select may not aggregate
//! (SQLite refuses it too). ORDER BY on a recursive CTE orders the queue
//! (SQLite's priority queue). Several recursive selects (SQLite 3.34:
//! `initial UNION r1 UNION ALL r2 …`, each naming the CTE in its own FROM)
//! all run for every queued row, in order, their rows queued as they come;
//! they and the operator before the first of them are all UNION (rows
//! ever queued are not queued again) or all UNION ALL — else the arm after
//! the change reads as part of the initial select (a circular reference),
//! as SQLite's `withRecursive` scan does. With UNION, rows compare under each
//! column's collation: the initial select's, else a recursive select's (a
//! compound's rule).

use std::sync::Arc;

use sqlparser::ast;

use super::bind::{Binder, CteState, Scope};
use super::from::{Rel, query_rel};
use super::select::{
    compound_order_keys, finish_compound, limit_exprs, plan_query, plan_set_expr, push_with,
};
use super::{Node, QueryPlan, SetOp};
use crate::{Error, Result};

/// The relation a reference to CTE `i` (of `b.ctes`) reads, shown as
/// `shown`.
pub(super) fn cte_rel(b: &mut Binder, i: usize, shown: String) -> Result<Rel> {
    let depth = b.query_depth;
    let cte = &mut b.ctes[i];
    match &mut cte.state {
        CteState::Body(_) => {}
        CteState::Forbidden => {
            return Err(Error::InvalidInput(format!("circular reference: {}", cte.name)));
        }
        CteState::Working { id, depth: at, columns, uses } => {
            if *at != depth {
                return Err(Error::InvalidInput(format!(
                    "recursive reference in a subquery: {}",
                    cte.name
                )));
            }
            *uses += 1;
            if *uses > 1 {
                return Err(Error::InvalidInput(format!(
                    "multiple references to recursive table: {}",
                    cte.name
                )));
            }
            let plan = QueryPlan {
                node: Node::WorkingRow { name: cte.name.clone(), id: *id, width: columns.len() },
                columns: columns.iter().map(|c| c.0.clone()).collect(),
                affinities: columns.iter().map(|c| c.1).collect(),
                collations: vec![None; columns.len()],
            };
            return Ok(query_rel(plan, shown, &[]));
        }
    }
    let CteState::Body(q) = std::mem::replace(&mut cte.state, CteState::Forbidden) else {
        unreachable!("matched above")
    };
    let name = cte.name.clone();
    let columns = cte.columns.clone();
    let r = b.isolated(|b| plan_body(b, i, &name, &columns, &q));
    b.ctes[i].state = CteState::Body(q);
    let plan = r?;
    if !columns.is_empty() && columns.len() != plan.columns.len() {
        return Err(Error::InvalidInput(format!(
            "table {name} has {} values for {} columns",
            plan.columns.len(),
            columns.len()
        )));
    }
    Ok(query_rel(plan, shown, &columns))
}

/// Plans the body of CTE `i`, whose state is `Forbidden` meanwhile.
fn plan_body(
    b: &mut Binder,
    i: usize,
    name: &str,
    columns: &[String],
    q: &ast::Query,
) -> Result<QueryPlan> {
    let ast::SetExpr::SetOperation { left, op: ast::SetOperator::Union, set_quantifier, right } =
        q.body.as_ref()
    else {
        return plan_query(b, q);
    };
    super::bind::check_compound(&q.body)?;
    // As `plan_query` would: one query level, its own WITH in scope.
    b.query_depth += 1;
    let saved = b.ctes.len();
    push_with(b, q);
    let all = matches!(set_quantifier, ast::SetQuantifier::All);
    let steps = recursive_arms(left, right, set_quantifier, name);
    let r = match steps {
        Some((init, steps)) => plan_union(b, i, name, columns, q, init, all, &steps),
        None => plan_union(b, i, name, columns, q, left, all, &[right.as_ref()]),
    };
    b.ctes.truncate(saved);
    b.query_depth -= 1;
    r
}

/// The initial select and the recursive selects of a body `left UNION
/// right` with more than one recursive select: the trailing arms whose
/// FROM names the CTE (outside subqueries), each joined to the one before
/// it by the same operator as the last (SQLite's rule: an arm after
/// another operator belongs to the initial select, where naming the CTE
/// is a circular reference). `None` for one recursive select or none (the
/// single-step path decides then, with its own errors).
fn recursive_arms<'q>(
    left: &'q ast::SetExpr,
    right: &'q ast::SetExpr,
    quantifier: &ast::SetQuantifier,
    name: &str,
) -> Option<(&'q ast::SetExpr, Vec<&'q ast::SetExpr>)> {
    if !names_in_from(right, name) {
        return None;
    }
    let mut steps = vec![right];
    let mut init = left;
    while let ast::SetExpr::SetOperation {
        left: l,
        op: ast::SetOperator::Union,
        right: r,
        set_quantifier: q,
    } = init
        && q == quantifier
        && names_in_from(r, name)
    {
        steps.push(r);
        init = l;
    }
    if steps.len() < 2 {
        return None;
    }
    steps.reverse();
    Some((init, steps))
}

/// True if `arm` is a SELECT whose FROM (its joins included) names the
/// table `name`.
fn names_in_from(arm: &ast::SetExpr, name: &str) -> bool {
    let ast::SetExpr::Select(s) = arm else { return false };
    let names = |f: &ast::TableFactor| match f {
        ast::TableFactor::Table { name: n, .. } => {
            n.0.len() == 1 && n.to_string().trim_matches('"').eq_ignore_ascii_case(name)
        }
        _ => false,
    };
    s.from.iter().any(|t| names(&t.relation) || t.joins.iter().any(|j| names(&j.relation)))
}

#[allow(clippy::too_many_arguments)]
fn plan_union(
    b: &mut Binder,
    i: usize,
    name: &str,
    columns: &[String],
    q: &ast::Query,
    left: &ast::SetExpr,
    all: bool,
    rights: &[&ast::SetExpr],
) -> Result<QueryPlan> {
    let init = plan_set_expr(b, left)?;
    let names = if columns.is_empty() { init.columns.clone() } else { columns.to_vec() };
    let id = b.next_sub;
    b.next_sub += 1;
    let working: Vec<_> = names.into_iter().zip(init.affinities.iter().copied()).collect();
    let mut steps = Vec::with_capacity(rights.len());
    let mut uses = 0;
    for right in rights {
        b.ctes[i].state =
            CteState::Working { id, depth: b.query_depth, columns: working.clone(), uses: 0 };
        let step = plan_set_expr(b, right);
        let n = match std::mem::replace(&mut b.ctes[i].state, CteState::Forbidden) {
            CteState::Working { uses, .. } => uses,
            _ => 0,
        };
        let step = step?;
        if init.columns.len() != step.columns.len() {
            let op = if all { "UNION ALL" } else { "UNION" };
            return Err(Error::InvalidInput(format!(
                "SELECTs to the left and right of {op} do not have the same number of result \
                 columns"
            )));
        }
        if rights.len() > 1 && n == 0 {
            return Err(Error::InvalidInput(format!("circular reference: {name}")));
        }
        uses += n;
        steps.push(step);
    }
    let colls: Vec<crate::value::Collation> = (0..init.columns.len())
        .map(|c| {
            std::iter::once(&init)
                .chain(&steps)
                .find_map(|p| p.collations.get(c).copied().flatten())
                .unwrap_or(crate::value::Collation::Binary)
        })
        .collect();
    let mut steps = steps.into_iter();
    let Some(mut step) = steps.next() else {
        return Err(Error::Internal("a recursive CTE without a recursive select".into()));
    };
    for next in steps {
        step.node = Node::SetOp {
            op: SetOp::UnionAll,
            left: Box::new(step.node),
            right: Box::new(next.node),
            colls: Vec::new(),
        };
    }
    let order: &[ast::OrderByExpr] = match &q.order_by {
        Some(ast::OrderBy { kind: ast::OrderByKind::Expressions(v), .. }) => v,
        Some(_) => return Err(Error::Unsupported("ORDER BY ALL".into())),
        None => &[],
    };
    let (limit, offset) = limit_exprs(q.limit_clause.as_ref());
    if uses == 0 {
        // The CTE does not name itself: an ordinary compound select.
        let op = if all { SetOp::UnionAll } else { SetOp::Union };
        let node = Node::SetOp { op, left: Box::new(init.node), right: Box::new(step.node), colls };
        let plan = QueryPlan {
            node,
            columns: init.columns,
            affinities: init.affinities,
            collations: init.collations,
        };
        return finish_compound(b, plan, order, limit, offset);
    }
    if aggregates_working(&step.node, false) {
        return Err(Error::InvalidInput("recursive aggregate queries not supported".into()));
    }
    let order = compound_order_keys(&init.columns, &init.collations, order)?;
    b.push_scope(Scope::default());
    let bound = (|| {
        let l = limit.map(|e| b.bind_expr(e)).transpose()?;
        let o = offset.map(|e| b.bind_expr(e)).transpose()?;
        Ok::<_, Error>((l, o))
    })();
    b.pop_scope();
    let (limit, offset) = bound?;
    Ok(QueryPlan {
        node: Node::Recursive {
            name: name.to_string(),
            id,
            init: Box::new(init.node),
            step: Arc::new(step.node),
            distinct: !all,
            colls,
            order,
            limit,
            offset,
        },
        columns: init.columns,
        affinities: init.affinities,
        collations: init.collations,
    })
}

/// True if an aggregation in `node` reads a working row (the recursive
/// select aggregates; `under` says an aggregation is above `node`).
fn aggregates_working(node: &Node, under: bool) -> bool {
    let under = under || matches!(node, Node::Aggregate { .. });
    match node {
        Node::WorkingRow { .. } => under,
        _ => node.children().into_iter().any(|c| aggregates_working(c, under)),
    }
}

/// `WITH … INSERT …` (which the parser reads as a query whose body is the
/// INSERT) as the INSERT with the WITH moved onto its source query, where
/// the planner looks for CTEs; the source's own WITH stays innermost.
/// Any other statement is returned as it is.
pub fn with_into_insert(stmt: ast::Statement) -> ast::Statement {
    let ast::Statement::Query(q) = stmt else { return stmt };
    let ast::Query { with: Some(with), body, .. } = q.as_ref() else {
        return ast::Statement::Query(q);
    };
    let ast::SetExpr::Insert(ast::Statement::Insert(ins)) = body.as_ref() else {
        return ast::Statement::Query(q);
    };
    let Some(src) = &ins.source else { return ast::Statement::Query(q) };
    let mut ins = ins.clone();
    let mut src = src.clone();
    match &mut src.with {
        Some(inner) => {
            let mut ctes = with.cte_tables.clone();
            ctes.append(&mut inner.cte_tables);
            inner.cte_tables = ctes;
            inner.recursive |= with.recursive;
        }
        None => src.with = Some(with.clone()),
    }
    ins.source = Some(src);
    ast::Statement::Insert(ins)
}
