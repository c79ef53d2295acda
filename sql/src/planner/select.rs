//! Planning queries, clause by clause: WITH, SELECT lists, WHERE,
//! GROUP BY/HAVING and aggregates, ORDER BY, LIMIT, compound selects and
//! VALUES. Relations and joins are assembled in [`super::from`], access
//! paths chosen in [`super::access`].

use sqlparser::ast;

use super::access::*;
use super::bind::{Binder, Cte, CteState, Scope, conjuncts};
use super::from::*;
use super::{Access, JoinKind, Node, QueryPlan, SetOp, SortKey};
use crate::catalog::object_name;
use crate::exec::vals::{Affinity, Collation};
use crate::expr::{CmpOp, Expr};
use crate::value::Value;
use crate::{Error, Result};
use std::ops::Bound;

/// Plans a whole query (WITH, body, ORDER BY, LIMIT).
pub fn plan_query(b: &mut Binder, q: &ast::Query) -> Result<QueryPlan> {
    b.query_depth += 1;
    let r = plan_query_here(b, q);
    b.query_depth -= 1;
    r
}

pub(super) fn plan_query_here(b: &mut Binder, q: &ast::Query) -> Result<QueryPlan> {
    super::bind::check_compound(&q.body)?;
    let saved = b.ctes.len();
    // `RECURSIVE` is optional, as in SQLite: a CTE is recursive when its
    // body names it (see `recursive`).
    push_with(b, q);
    let order: &[ast::OrderByExpr] = match &q.order_by {
        Some(ast::OrderBy { kind: ast::OrderByKind::Expressions(v), .. }) => v,
        Some(_) => return Err(Error::Unsupported("ORDER BY ALL".into())),
        None => &[],
    };
    let (limit, offset) = limit_exprs(q.limit_clause.as_ref());
    let exists = std::mem::take(&mut b.exists_body);
    let r = match q.body.as_ref() {
        ast::SetExpr::Select(s) => {
            b.drop_select_list = exists;
            plan_select(b, s, order, limit, offset)
        }
        body if exists => {
            // SQLite codes a UNION [ALL] in EXISTS whose LIMIT is 1 (the
            // one EXISTS adds, or the query's own `LIMIT 1`) as its parts
            // one after the other, each an EXISTS body itself
            // (`unionWithLimitOne`); any other LIMIT or OFFSET makes a
            // UNION a merge that evaluates its parts.
            let one = offset.is_none() && limit.is_none_or(is_integer_one);
            let plan = plan_exists_set(b, body, one)?;
            // The ORDER BY is resolved (its errors are the statement's),
            // then dropped, as SQLite does for an EXISTS.
            compound_order_keys(&plan.columns, &plan.collations, order)?;
            finish_compound(b, plan, &[], limit, offset)
        }
        body => {
            let plan = plan_set_expr(b, body)?;
            finish_compound(b, plan, order, limit, offset)
        }
    };
    b.ctes.truncate(saved);
    r
}

/// Brings the CTEs of `q`'s WITH into scope (the caller truncates
/// `b.ctes` back when done).
pub(super) fn push_with(b: &mut Binder, q: &ast::Query) {
    if let Some(with) = &q.with {
        push_ctes(b, with);
    }
}

/// Brings the CTEs of a WITH into scope (`WITH … UPDATE`/`DELETE` too;
/// the caller truncates `b.ctes` back when done).
pub fn push_ctes(b: &mut Binder, with: &ast::With) {
    for cte in &with.cte_tables {
        b.ctes.push(Cte {
            name: cte.alias.name.value.to_ascii_lowercase(),
            columns: cte.alias.columns.iter().map(|c| c.name.value.clone()).collect(),
            state: CteState::Body(cte.query.clone()),
        });
    }
}

pub(super) fn limit_exprs(
    l: Option<&ast::LimitClause>,
) -> (Option<&ast::Expr>, Option<&ast::Expr>) {
    match l {
        None => (None, None),
        Some(ast::LimitClause::LimitOffset { limit, offset, .. }) => {
            (limit.as_ref(), offset.as_ref().map(|o| &o.value))
        }
        Some(ast::LimitClause::OffsetCommaLimit { offset, limit }) => (Some(limit), Some(offset)),
    }
}

pub(super) fn plan_set_expr(b: &mut Binder, body: &ast::SetExpr) -> Result<QueryPlan> {
    match body {
        ast::SetExpr::Select(s) => plan_select(b, s, &[], None, None),
        ast::SetExpr::Query(q) => plan_query(b, q),
        ast::SetExpr::Values(v) => plan_values(b, v),
        ast::SetExpr::SetOperation { left, op, set_quantifier, right } => {
            let l = plan_set_expr(b, left)?;
            let r = plan_set_expr(b, right)?;
            let all = matches!(set_quantifier, ast::SetQuantifier::All);
            let kind = match op {
                ast::SetOperator::Union if all => SetOp::UnionAll,
                ast::SetOperator::Union => SetOp::Union,
                ast::SetOperator::Except | ast::SetOperator::Minus => SetOp::Except,
                ast::SetOperator::Intersect => SetOp::Intersect,
            };
            compound(l, kind, r, op)
        }
        other => Err(Error::Unsupported(format!("query body {other}"))),
    }
}

/// Two planned parts of a compound select joined by `kind` (`op` as
/// written, for the error).
fn compound(l: QueryPlan, kind: SetOp, r: QueryPlan, op: &ast::SetOperator) -> Result<QueryPlan> {
    if l.columns.len() != r.columns.len() {
        return Err(Error::InvalidInput(format!(
            "SELECTs to the left and right of {op} do not have the same number of result columns"
        )));
    }
    // Each column compares under the left-most part's collation, else the
    // next part's (SQLite's multiSelectCollSeq).
    let collations: Vec<Option<Collation>> =
        l.collations.iter().zip(&r.collations).map(|(a, b)| a.or(*b)).collect();
    let colls = collations.iter().map(|c| c.unwrap_or(Collation::Binary)).collect();
    Ok(QueryPlan {
        node: Node::SetOp { op: kind, left: Box::new(l.node), right: Box::new(r.node), colls },
        columns: l.columns,
        affinities: l.affinities,
        collations,
    })
}

/// The body of an EXISTS that is a compound select (see
/// [`plan_query_here`]): a UNION ALL, or a UNION when `one` (its LIMIT is
/// 1), runs its parts one after the other (a UNION ALL: which rows exist
/// does not depend on duplicates), each part that is a SELECT an EXISTS
/// body whose select list, DISTINCT and ORDER BY are never evaluated; an
/// EXCEPT or INTERSECT, or a UNION under another LIMIT, is planned as
/// anywhere else.
fn plan_exists_set(b: &mut Binder, body: &ast::SetExpr, one: bool) -> Result<QueryPlan> {
    match body {
        ast::SetExpr::SetOperation {
            left,
            op: op @ ast::SetOperator::Union,
            set_quantifier,
            right,
        } if one || matches!(set_quantifier, ast::SetQuantifier::All) => {
            let l = plan_exists_set(b, left, one)?;
            let r = plan_exists_set(b, right, one)?;
            compound(l, SetOp::UnionAll, r, op)
        }
        ast::SetExpr::Select(s) => {
            b.drop_select_list = true;
            plan_select(b, s, &[], None, None)
        }
        other => plan_set_expr(b, other),
    }
}

/// Whether a LIMIT is the integer literal 1 (SQLite's EP_IntValue test in
/// `unionWithLimitOne`: `LIMIT 1.0` or `LIMIT 0+1` is not).
fn is_integer_one(e: &ast::Expr) -> bool {
    matches!(e, ast::Expr::Value(v) if matches!(&v.value, ast::Value::Number(s, _) if s == "1"))
}

pub(super) fn plan_values(b: &mut Binder, v: &ast::Values) -> Result<QueryPlan> {
    b.push_scope(Scope::default());
    let r = (|| {
        let mut rows = Vec::new();
        let mut width = None;
        for row in &v.rows {
            let exprs: Vec<Expr> =
                row.content.iter().map(|e| b.bind_expr(e)).collect::<Result<_>>()?;
            if *width.get_or_insert(exprs.len()) != exprs.len() {
                return Err(Error::InvalidInput(
                    "all VALUES must have the same number of terms".into(),
                ));
            }
            rows.push(exprs);
        }
        let width = width.unwrap_or(0);
        Ok(QueryPlan {
            node: Node::Values { rows, width },
            columns: (1..=width).map(|i| format!("column{i}")).collect(),
            affinities: vec![None; width],
            collations: vec![None; width],
        })
    })();
    b.pop_scope();
    r
}

/// ORDER BY / LIMIT over a compound select: terms name output columns.
pub(super) fn finish_compound(
    b: &mut Binder,
    plan: QueryPlan,
    order: &[ast::OrderByExpr],
    limit: Option<&ast::Expr>,
    offset: Option<&ast::Expr>,
) -> Result<QueryPlan> {
    let mut node = plan.node;
    if !order.is_empty() {
        let keys = compound_order_keys(&plan.columns, &plan.collations, order)?;
        node = Node::Sort { input: Box::new(node), keys };
    }
    node = add_limit(b, node, limit, offset)?;
    Ok(QueryPlan {
        node,
        columns: plan.columns,
        affinities: plan.affinities,
        collations: plan.collations,
    })
}

/// The ORDER BY of a compound select as sort keys over its output row:
/// terms are column numbers or output column names.
pub(super) fn compound_order_keys(
    columns: &[String],
    colls: &[Option<Collation>],
    order: &[ast::OrderByExpr],
) -> Result<Vec<SortKey>> {
    let mut keys = Vec::new();
    for (n, o) in order.iter().enumerate() {
        // `ORDER BY 1 COLLATE x`: the term's own collation, else the
        // column's.
        let (term, explicit) = match &o.expr {
            ast::Expr::Collate { expr, collation } => {
                let name = object_name(collation)?;
                let c = Collation::from_name(&name).ok_or_else(|| {
                    Error::InvalidInput(format!("no such collation sequence: {name}"))
                })?;
                (expr.as_ref(), Some(c))
            }
            e => (e, None),
        };
        let k = match term {
            ast::Expr::Value(v) => match &v.value {
                ast::Value::Number(s, _) => s
                    .parse::<usize>()
                    .ok()
                    .filter(|k| (1..=columns.len()).contains(k))
                    .map(|k| k - 1),
                _ => None,
            },
            ast::Expr::Identifier(id) => {
                columns.iter().position(|c| c.eq_ignore_ascii_case(&id.value))
            }
            e => {
                let s = e.to_string();
                columns.iter().position(|c| c.eq_ignore_ascii_case(&s))
            }
        };
        let Some(k) = k else {
            return Err(Error::InvalidInput(format!(
                "{} ORDER BY term does not match any column in the result set",
                ordinal(n + 1)
            )));
        };
        let desc = is_desc(o);
        keys.push(SortKey {
            expr: Expr::Column(k),
            desc,
            coll: explicit.or(colls.get(k).copied().flatten()).unwrap_or(Collation::Binary),
            nulls_first: o.options.nulls_first.unwrap_or(!desc),
        });
    }
    Ok(keys)
}

pub(super) fn ordinal(n: usize) -> String {
    match n {
        1 => "1st".into(),
        2 => "2nd".into(),
        3 => "3rd".into(),
        n => format!("{n}th"),
    }
}

pub(super) fn is_desc(o: &ast::OrderByExpr) -> bool {
    matches!(o.options.sort, Some(ast::OrderBySort::Desc))
}

pub(super) fn add_limit(
    b: &mut Binder,
    node: Node,
    limit: Option<&ast::Expr>,
    offset: Option<&ast::Expr>,
) -> Result<Node> {
    if limit.is_none() && offset.is_none() {
        return Ok(node);
    }
    b.push_scope(Scope::default());
    let r = (|| {
        let l = limit.map(|e| b.bind_expr(e)).transpose()?;
        let o = offset.map(|e| b.bind_expr(e)).transpose()?;
        Ok(Node::Limit { input: Box::new(node), limit: l, offset: o })
    })();
    b.pop_scope();
    r
}

/// An output column of a SELECT.
pub(super) struct OutCol {
    pub(super) expr: Expr,
    pub(super) name: String,
    pub(super) aff: Option<Affinity>,
    pub(super) coll: Option<Collation>,
    /// The `AS` alias, if any.
    pub(super) alias: Option<String>,
    /// An aggregate of this level that a subquery in a window call's
    /// arguments here holds (allowed there): an ORDER BY naming this
    /// column copies the call out of the window, where it is a misuse.
    pub(super) window_agg: Option<String>,
}

/// A select-list expression, bound, with its [`OutCol::window_agg`]: the
/// first aggregate its binding placed in this level from inside a window
/// call's arguments or window.
fn bind_item(b: &mut Binder, e: &ast::Expr) -> Result<(Expr, Option<String>)> {
    let placed = b.outer_placed.len();
    let x = b.bind_expr(e)?;
    let level = b.scopes.len() - 1;
    let window_agg = b.outer_placed[placed.min(b.outer_placed.len())..]
        .iter()
        .find(|(l, _, in_window)| *l == level && *in_window)
        .map(|(_, name, _)| name.clone());
    Ok((x, window_agg))
}

/// SQLite's rule for a level with window functions: an aggregate of its
/// own that a subquery in its select list or ORDER BY holds (`SELECT
/// (SELECT sum(a.x) FROM t2), row_number() OVER () FROM t1 AS a`) is
/// "misuse of aggregate" — its window rewrite moves the level's
/// aggregates into an inner query the subquery no longer sees. Inside a
/// window call's arguments or window, or in HAVING, it stays allowed.
/// Checks the aggregates placed in this level since `from` and forgets
/// them (those of levels further out stay for their own check).
fn no_outer_aggs(b: &mut Binder, level: usize, from: usize, has_windows: bool) -> Result<()> {
    let mut placed = b.outer_placed.split_off(from.min(b.outer_placed.len()));
    let misuse = placed.iter().find(|(l, _, in_window)| *l == level && !in_window);
    if let (true, Some((_, name, _))) = (has_windows, misuse) {
        return Err(Error::InvalidInput(format!("misuse of aggregate: {name}()")));
    }
    placed.retain(|(l, ..)| *l != level);
    b.outer_placed.extend(placed);
    Ok(())
}

pub(super) fn plan_select(
    b: &mut Binder,
    s: &ast::Select,
    order: &[ast::OrderByExpr],
    limit: Option<&ast::Expr>,
    offset: Option<&ast::Expr>,
) -> Result<QueryPlan> {
    let drop_list = std::mem::take(&mut b.drop_select_list);
    let rels = from_rels(b, &s.from)?;
    b.push_scope(scope_of(&rels));
    let saved_aggs = b.aggs.take();
    let saved_wins = b.wins.take();
    let saved_windows =
        std::mem::replace(&mut b.windows, std::sync::Arc::new(s.named_window.clone()));
    let r = plan_select_in_scope(b, s, rels, order, limit, offset, drop_list);
    b.aggs = saved_aggs;
    b.wins = saved_wins;
    b.windows = saved_windows;
    b.pop_scope();
    r
}

pub(super) fn plan_select_in_scope(
    b: &mut Binder,
    s: &ast::Select,
    mut rels: Vec<Rel>,
    order: &[ast::OrderByExpr],
    limit: Option<&ast::Expr>,
    offset: Option<&ast::Expr>,
    drop_list: bool,
) -> Result<QueryPlan> {
    let width = b.scope_width();
    bind_func_args(b, &mut rels)?;
    // WHERE and join conditions.
    let mut where_c = Vec::new();
    if let Some(w) = &s.selection {
        conjuncts(b.bind_terms(w)?, &mut where_c);
    }
    let mut on_c: Vec<Vec<Expr>> = vec![Vec::new(); rels.len()];
    for i in 0..rels.len() {
        let mut cs = Vec::new();
        if let Some(on) = rels[i].on.clone() {
            conjuncts(b.bind_terms(&on)?, &mut cs);
        }
        let mut names = rels[i].using.clone();
        if rels[i].natural {
            for (c, ..) in &rels[i].columns {
                if rels[..i].iter().any(|l| l.columns.iter().any(|x| x.0.eq_ignore_ascii_case(c))) {
                    names.push(c.clone());
                }
            }
        }
        for n in names {
            // The left side: the first earlier relation with the column;
            // with a RIGHT/FULL join in the query, the first non-NULL of
            // all earlier ones (each after the first merged by a USING of
            // its own), as SQLite builds it.
            let has = |l: &Rel| l.columns.iter().position(|x| x.0.eq_ignore_ascii_case(&n));
            let lefts: Vec<usize> =
                rels[..i].iter().filter_map(|l| has(l).map(|k| l.offset + k)).collect();
            let Some(&left) = lefts.first() else {
                return Err(Error::InvalidInput(format!("cannot join using column {n}")));
            };
            let any_right = rels.iter().any(|r| r.kind.keeps_right());
            let l = if any_right && lefts.len() > 1 {
                let merged = |l: &Rel| l.hidden.iter().any(|h| h.eq_ignore_ascii_case(&n));
                let with: Vec<&Rel> = rels[..i].iter().filter(|l| has(l).is_some()).collect();
                if with[1..].iter().any(|l| !merged(l)) {
                    return Err(Error::InvalidInput(format!(
                        "ambiguous reference to {n} in USING()"
                    )));
                }
                b.using_coalesce(lefts.iter().map(|&c| Expr::Column(c)).collect())
            } else {
                Expr::Column(left)
            };
            let right = rels[i]
                .columns
                .iter()
                .position(|x| x.0.eq_ignore_ascii_case(&n))
                .map(|k| rels[i].offset + k)
                .ok_or_else(|| Error::InvalidInput(format!("cannot join using column {n}")))?;
            let r = Expr::Column(right);
            let aff = crate::exec::vals::comparison_affinity(b.aff(&l), b.aff(&r));
            cs.push(Expr::Cmp {
                op: CmpOp::Eq,
                l: Box::new(l),
                r: Box::new(r),
                aff,
                coll: Collation::Binary,
            });
        }
        on_c[i] = cs;
    }
    // An inner join's ON is a WHERE term, unless a RIGHT/FULL join comes
    // later: that one's unmatched rows depend on which rows the inner join
    // made, so the ON must stay at its join.
    let on_is_where = |rels: &[Rel], i: usize| {
        rels[i].kind == JoinKind::Inner && !rels[i + 1..].iter().any(|r| r.kind.keeps_right())
    };
    // OUTER JOIN strength reduction (SQLite's tag-select-0220), LEFT
    // joins only and only without a RIGHT/FULL join in the FROM: a LEFT
    // join whose right side the WHERE terms (inner joins' ON terms and
    // those of LEFT joins reduced before it included) cannot see as the
    // NULL row is an inner join — it may be reordered and its terms
    // placed as any inner join's, as SQLite does.
    if !rels.iter().any(|r| r.kind.keeps_right()) {
        for i in 0..rels.len() {
            if rels[i].kind != JoinKind::Left {
                continue;
            }
            let reduce = where_c
                .iter()
                .chain((0..rels.len()).filter(|&k| on_is_where(&rels, k)).flat_map(|k| &on_c[k]))
                .any(|t| implies_non_null_row(t, &rels, i));
            if reduce {
                rels[i].kind = JoinKind::Inner;
            }
        }
    }
    for (i, cs) in on_c.iter_mut().enumerate() {
        if on_is_where(&rels, i) {
            where_c.append(cs);
        }
    }

    // Projection (aggregates and window calls collected on the side).
    b.aggs = Some(Vec::new());
    b.wins = Some(Vec::new());
    let level = b.scopes.len() - 1;
    let unevaluated = b.exists_levels.last() == Some(&level);
    if unevaluated {
        b.unevaluated.push(level);
    }
    let placed_from = b.outer_placed.len();
    let projection = bind_projection(b, s, &rels);
    if unevaluated {
        b.unevaluated.pop();
    }
    let out = projection?;
    let n = out.len();
    b.aliases = out
        .iter()
        .filter_map(|o| Some((o.alias.clone()?, o.expr.clone(), o.window_agg.clone())))
        .collect();

    // HAVING (no window functions there).
    let wins_so_far = b.wins.take();
    let placed_having = b.outer_placed.len();
    let having = match &s.having {
        Some(h) => Some(b.bind_expr(h)?),
        None => None,
    };
    // The aggregates subqueries in HAVING give this level are allowed
    // whatever its window functions (see `no_outer_aggs`); those they give
    // levels further out face those levels' checks.
    let mut from_having = b.outer_placed.split_off(placed_having);
    from_having.retain(|(l, ..)| *l != level);
    b.outer_placed.extend(from_having);
    b.wins = wins_so_far;

    // ORDER BY terms: positions, aliases, or expressions (maybe hidden).
    let mut hidden: Vec<Expr> = Vec::new();
    let mut sort_keys = Vec::new();
    // Each key as a plain column in BINARY order with default NULL
    // placement (what a scan's order can give), else `None`.
    let mut order_terms: Vec<Option<OrderTerm>> = Vec::new();
    for (i, o) in order.iter().enumerate() {
        let pos = match &o.expr {
            ast::Expr::Value(v) => match &v.value {
                ast::Value::Number(s, _) => {
                    let k = s.parse::<usize>().ok().filter(|k| (1..=n).contains(k));
                    if k.is_none() {
                        return Err(Error::InvalidInput(format!(
                            "{} ORDER BY term out of range - should be between 1 and {n}",
                            ordinal(i + 1)
                        )));
                    }
                    k.map(|k| k - 1)
                }
                _ => None,
            },
            ast::Expr::Identifier(id) => {
                // SQLite resolves an ORDER BY name to a result alias first.
                out.iter().position(|c| {
                    c.alias.as_deref().is_some_and(|a| a.eq_ignore_ascii_case(&id.value))
                })
            }
            _ => None,
        };
        let (k, x) = match pos {
            Some(k) => {
                // SQLite copies the named column's expression into the
                // ORDER BY, out of the window call that allowed it.
                if let Some(name) = &out[k].window_agg {
                    return Err(Error::InvalidInput(format!("misuse of aggregate: {name}()")));
                }
                (k, out[k].expr.clone())
            }
            None => {
                let x = b.bind_expr(&o.expr)?;
                // The key's COLLATE goes into the sort key, so the value
                // sorted is the expression under it (maybe a result column).
                let v = x.without_collate();
                match out.iter().position(|c| c.expr.same(v)) {
                    Some(k) => (k, x),
                    None => {
                        hidden.push(v.clone());
                        (n + hidden.len() - 1, x)
                    }
                }
            }
        };
        // As in SQLite (sqlite3ExprCollSeq): an explicit COLLATE, else the
        // column's own.
        let coll = b.collation(&x).unwrap_or(Collation::Binary);
        let desc = is_desc(o);
        // NULLS FIRST on ASC / NULLS LAST on DESC are the default order.
        let nulls_default = o.options.nulls_first.is_none_or(|f| f != desc);
        let key = match (x.without_collate(), coll, nulls_default) {
            (Expr::Column(c), Collation::Binary, true) => {
                Some(OrderTerm { col: *c, desc, skip_nulls: false })
            }
            _ => None,
        };
        order_terms.push(key);
        let nulls_first = o.options.nulls_first.unwrap_or(!desc);
        sort_keys.push(SortKey { expr: Expr::Column(k), desc, coll, nulls_first });
    }
    if drop_list {
        // The body of an EXISTS: SQLite resolves its ORDER BY, then drops
        // it (and DISTINCT) and never evaluates the select list
        // (`IgnorableDistinct`, and `selectInnerLoop` codes no result
        // column for SRT_Exists): an error only they would raise is none.
        hidden.clear();
        sort_keys.clear();
        order_terms.clear();
    }
    let aggs = b.aggs.take().unwrap_or_default();
    let wins = b.wins.take().unwrap_or_default();
    b.aliases.clear();
    no_outer_aggs(b, level, placed_from, !wins.is_empty())?;

    // GROUP BY.
    let mut group = Vec::new();
    if let ast::GroupByExpr::Expressions(es, _) = &s.group_by {
        for e in es {
            let g = match e {
                ast::Expr::Value(v) if matches!(v.value, ast::Value::Number(..)) => {
                    let ast::Value::Number(s, _) = &v.value else { unreachable!() };
                    let k = s.parse::<usize>().ok().filter(|k| (1..=n).contains(k)).ok_or_else(
                        || {
                            Error::InvalidInput(format!(
                                "GROUP BY term out of range - should be between 1 and {n}"
                            ))
                        },
                    )?;
                    out[k - 1].expr.clone()
                }
                ast::Expr::Identifier(id) if b.resolve(None, &id.value)?.is_none() => {
                    let k = out
                        .iter()
                        .position(|c| {
                            c.alias.as_deref().is_some_and(|a| a.eq_ignore_ascii_case(&id.value))
                        })
                        .ok_or_else(|| {
                            Error::InvalidInput(format!("no such column: {}", id.value))
                        })?;
                    out[k].expr.clone()
                }
                e => b.bind_expr(e)?,
            };
            if has_agg(&g) {
                return Err(Error::InvalidInput(
                    "aggregate functions are not allowed in the GROUP BY clause".into(),
                ));
            }
            group.push(g);
        }
    } else {
        return Err(Error::Unsupported("GROUP BY ALL".into()));
    }
    let is_agg = !aggs.is_empty() || !group.is_empty() || having.is_some();

    // FROM + WHERE, asking the scan for the ORDER BY's order when one
    // table's rows go straight to the output.
    let distinct = !drop_list && matches!(s.distinct, Some(ast::Distinct::Distinct));
    let minmax = if wins.is_empty() {
        min_max_column(b, &aggs, &group, having.is_some(), &where_c, &rels)
    } else {
        None
    };
    let want: Option<Vec<OrderTerm>> = if let Some(m) = minmax {
        Some(vec![m])
    } else if !is_agg && !distinct && rels.len() == 1 && wins.is_empty() {
        order_terms.into_iter().collect::<Option<Vec<_>>>().filter(|v| !v.is_empty())
    } else {
        None
    };
    let needed = wins.is_empty().then(|| {
        read_columns(
            if drop_list { &[] } else { &out },
            &hidden,
            &where_c,
            &on_c,
            &group,
            having.as_ref(),
            &aggs,
            &rels,
        )
    });
    let (mut node, scan_ordered) =
        build_from(b, &mut rels, where_c, on_c, width, want.as_deref(), needed.as_ref())?;
    if minmax.is_some() && scan_ordered {
        // The first row in the column's order (NULLs skipped) holds the
        // answer, and is the row bare columns read, as in SQLite.
        let one = Some(Expr::Literal(Value::Integer(1)));
        node = Node::Limit { input: Box::new(node), limit: one, offset: None };
    }
    let ordered = scan_ordered && minmax.is_none();
    let sorted = sort_keys.is_empty() || ordered;

    let mut exprs: Vec<Expr> = if drop_list {
        vec![Expr::Literal(Value::Null); n]
    } else {
        out.iter().map(|c| c.expr.clone()).collect()
    };
    if !ordered {
        exprs.extend(hidden);
    }
    let mut having = having;
    if is_agg {
        let nk = group.len();
        let rw = |e: Expr| post_agg(e, &group, nk, width);
        exprs = exprs.into_iter().map(rw).collect::<Result<_>>()?;
        having = having.map(rw).transpose()?;
        let key_colls = group.iter().map(|g| b.collation(g).unwrap_or(Collation::Binary)).collect();
        node = Node::Aggregate {
            input: Box::new(node),
            keys: group.clone(),
            key_colls,
            aggs: aggs.clone(),
            always_one: group.is_empty(),
            width,
        };
        if having.is_none() && wins.is_empty() && s.selection.is_none() {
            node = count_star(node, &exprs);
        }
        if let Some(h) = having {
            node = Node::Filter { input: Box::new(node), pred: h };
        }
    }
    if !wins.is_empty() {
        let in_width = if is_agg { group.len() + aggs.len() + width } else { width };
        let wins = if is_agg {
            let nk = group.len();
            wins.into_iter()
                .map(|w| post_agg_win(w, &group, nk, width))
                .collect::<Result<Vec<_>>>()?
        } else {
            wins
        };
        let (n2, cols) = window_stages(node, wins, in_width);
        node = n2;
        exprs = exprs
            .into_iter()
            .map(|e| {
                e.transform(&mut |x| match x {
                    Expr::Win(j) => Ok(Expr::Column(cols[j])),
                    x => Ok(x),
                })
            })
            .collect::<Result<_>>()?;
    }
    let total = exprs.len();
    // Rows already in output order: LIMIT/OFFSET count them before the
    // projection, so skipped rows cost no projection and the scan stops
    // as soon as the limit is reached.
    let stream_limit = sorted && !distinct;
    if stream_limit {
        node = add_limit(b, node, limit, offset)?;
    }
    node = Node::Project { input: Box::new(node), exprs };
    if distinct {
        let colls = out.iter().map(|c| c.coll.unwrap_or(Collation::Binary)).collect();
        node = Node::Distinct { input: Box::new(node), ncols: n, colls };
    } else if matches!(s.distinct, Some(ast::Distinct::On(_))) {
        return Err(Error::Unsupported("DISTINCT ON".into()));
    }
    if !sorted {
        node = Node::Sort { input: Box::new(node), keys: sort_keys };
    }
    if !stream_limit {
        node = add_limit(b, node, limit, offset)?;
    }
    if total > n {
        node = Node::Project { input: Box::new(node), exprs: (0..n).map(Expr::Column).collect() };
    }
    Ok(QueryPlan {
        node,
        columns: out.iter().map(|c| c.name.clone()).collect(),
        affinities: out.iter().map(|c| c.aff).collect(),
        collations: out.iter().map(|c| c.coll).collect(),
    })
}

/// The columns of the FROM clause's (canonical) row a SELECT reads: in
/// its result columns and hidden ORDER BY terms, WHERE and ON terms,
/// GROUP BY, HAVING, aggregate arguments, filters and orders, and
/// table-valued function arguments, subqueries' reads of this row
/// included ([`Expr::columns`]). A table scan whose index holds all of
/// its table's columns among them reads only the index
/// ([`super::access::cover`]). Window functions are not counted: the
/// caller asks only for queries without them.
#[allow(clippy::too_many_arguments)]
fn read_columns(
    out: &[OutCol],
    hidden: &[Expr],
    where_c: &[Expr],
    on_c: &[Vec<Expr>],
    group: &[Expr],
    having: Option<&Expr>,
    aggs: &[super::AggCall],
    rels: &[Rel],
) -> std::collections::BTreeSet<usize> {
    let mut n = std::collections::BTreeSet::new();
    let mut add = |e: &Expr| n.extend(e.columns());
    out.iter().for_each(|c| add(&c.expr));
    hidden.iter().chain(where_c).chain(on_c.iter().flatten()).chain(group).for_each(&mut add);
    having.into_iter().for_each(&mut add);
    for a in aggs {
        a.args.iter().chain(&a.filter).chain(a.order.iter().map(|k| &k.expr)).for_each(&mut add);
    }
    for r in rels {
        if let Source::Func { args, .. } = &r.source {
            args.iter().flatten().for_each(&mut add);
        }
    }
    n
}

/// Binds the select list (aggregates go to `b.aggs`).
fn bind_projection(b: &mut Binder, s: &ast::Select, rels: &[Rel]) -> Result<Vec<OutCol>> {
    let texts = b
        .source
        .as_deref()
        .and_then(|src| super::names::select_items(src, s.select_token.0.span.start))
        .filter(|t| t.len() == s.projection.len());
    let mut out: Vec<OutCol> = Vec::new();
    for (item_no, item) in s.projection.iter().enumerate() {
        match item {
            ast::SelectItem::Wildcard(_) => {
                if rels.is_empty() {
                    return Err(Error::InvalidInput("no tables specified".into()));
                }
                for (i, r) in rels.iter().enumerate() {
                    let k = out.len();
                    push_rel_columns(b, r, &mut out, false);
                    // Left of a RIGHT/FULL join, a column a later USING /
                    // NATURAL merges reads what its bare name reads (the
                    // right-most, or the first non-NULL), as in SQLite.
                    let later = &rels[i + 1..];
                    if later.iter().any(|l| l.kind.keeps_right()) {
                        for o in &mut out[k..] {
                            let merged = later
                                .iter()
                                .any(|l| l.hidden.iter().any(|h| h.eq_ignore_ascii_case(&o.name)));
                            if merged && let Some(x) = b.resolve(None, &o.name)? {
                                o.aff = b.aff(&x);
                                o.coll = b.collation(&x);
                                o.expr = x;
                            }
                        }
                    }
                }
            }
            ast::SelectItem::QualifiedWildcard(kind, _) => {
                let q = match kind {
                    ast::SelectItemQualifiedWildcardKind::ObjectName(n) => object_name(n)?,
                    ast::SelectItemQualifiedWildcardKind::Expr(e) => e.to_string(),
                };
                let r = rels
                    .iter()
                    .find(|r| r.name.eq_ignore_ascii_case(&q))
                    .ok_or_else(|| Error::InvalidInput(format!("no such table: {q}")))?;
                push_rel_columns(b, r, &mut out, true);
            }
            ast::SelectItem::UnnamedExpr(e) => {
                let (x, window_agg) = bind_item(b, e)?;
                let name = match e {
                    ast::Expr::Identifier(id) => column_name(b, &x).unwrap_or(id.value.clone()),
                    ast::Expr::CompoundIdentifier(p) => column_name(b, &x)
                        .unwrap_or(p.last().map(|i| i.value.clone()).unwrap_or_default()),
                    e => match &texts {
                        Some(t) => t[item_no].clone(),
                        None => e.to_string(),
                    },
                };
                out.push(OutCol {
                    aff: b.aff(&x),
                    coll: b.collation(&x),
                    expr: x,
                    name,
                    alias: None,
                    window_agg,
                });
            }
            ast::SelectItem::ExprWithAlias { expr, alias } => {
                let (x, window_agg) = bind_item(b, expr)?;
                out.push(OutCol {
                    aff: b.aff(&x),
                    coll: b.collation(&x),
                    expr: x,
                    name: alias.value.clone(),
                    alias: Some(alias.value.clone()),
                    window_agg,
                });
            }
            other => return Err(Error::Unsupported(format!("select item {other}"))),
        }
    }
    Ok(out)
}

pub(super) fn column_name(b: &Binder, x: &Expr) -> Option<String> {
    let Expr::Column(i) = x else { return None };
    let scope = b.scopes.last()?;
    for t in &scope.tables {
        if *i >= t.offset && *i < t.offset + t.columns.len() {
            return Some(t.columns[*i - t.offset].0.clone());
        }
    }
    None
}

/// The columns `*` (or, `qualified`, `r.*`) shows of `r`: a column USING
/// or NATURAL merged into an earlier one is shown by `r.*` only, as in
/// SQLite.
pub(super) fn push_rel_columns(b: &Binder, r: &Rel, out: &mut Vec<OutCol>, qualified: bool) {
    for (i, c) in r.columns.iter().enumerate().take(r.shown) {
        if !qualified && r.hidden.iter().any(|h| h.eq_ignore_ascii_case(&c.0)) {
            continue;
        }
        let x = Expr::Column(r.offset + i);
        out.push(OutCol {
            aff: b.aff(&x),
            coll: b.collation(&x),
            expr: x,
            name: c.0.clone(),
            alias: None,
            window_agg: None,
        });
    }
}

/// A window call bound to input rows, rewritten over aggregate output
/// rows (see [`post_agg`]).
fn post_agg_win(
    mut w: super::window::BoundWin,
    keys: &[Expr],
    nk: usize,
    width: usize,
) -> Result<super::window::BoundWin> {
    let rw = |e: Expr| post_agg(e, keys, nk, width);
    for k in w.partition.iter_mut().chain(w.order.iter_mut()) {
        k.expr = rw(k.expr.clone())?;
    }
    w.call.args = w.call.args.into_iter().map(rw).collect::<Result<_>>()?;
    w.call.filter = w.call.filter.map(rw).transpose()?;
    Ok(w)
}

/// Groups window calls by window (same PARTITION BY and ORDER BY) into
/// nested [`Node::Window`] stages over `node` (rows of `in_width`); the
/// window that appears first is the outermost stage, so rows come out in
/// its order, as SQLite's do. Answers the plan and, for each call, the
/// column its result lands in.
fn window_stages(
    mut node: Node,
    wins: Vec<super::window::BoundWin>,
    in_width: usize,
) -> (Node, Vec<usize>) {
    let same = |a: &[SortKey], b: &[SortKey]| format!("{a:?}") == format!("{b:?}");
    let mut stages: Vec<(Vec<SortKey>, Vec<SortKey>, Vec<usize>)> = Vec::new();
    for (j, w) in wins.iter().enumerate() {
        match stages.iter_mut().find(|s| same(&s.0, &w.partition) && same(&s.1, &w.order)) {
            Some(s) => s.2.push(j),
            None => stages.push((w.partition.clone(), w.order.clone(), vec![j])),
        }
    }
    let mut cols = vec![0; wins.len()];
    let mut next = in_width;
    for (partition, order, members) in stages.into_iter().rev() {
        let mut calls = Vec::with_capacity(members.len());
        for j in members {
            cols[j] = next;
            next += 1;
            calls.push(wins[j].call.clone());
        }
        node = Node::Window { input: Box::new(node), partition, order, calls };
    }
    (node, cols)
}

/// `SELECT count(*) FROM t` (SQLite's `isSimpleCount` shape): the
/// aggregate over a full scan becomes a [`Node::Count`], answered from the
/// store's row count (page cell counts, no record decoded) instead of
/// decoding every row. `node` is the freshly built `Aggregate`, `exprs`
/// what is computed from its rows (result columns and ORDER BY terms).
/// It applies only when:
/// - there are no groups and the one aggregate is a plain `count(*)`
///   (no DISTINCT, FILTER or ORDER BY inside: those look at the rows);
/// - its input is one base table read whole: a `Node::Scan` (maybe
///   widened into the statement's row) with no
///   filter, by rowid or by an index with no range, prefix or partial
///   predicate. Joins, views and subqueries that are not flattened to
///   such a scan, CTEs, `sqlite_schema`, pragma and table-valued
///   functions plan other nodes and keep the aggregate;
/// - every result column is that count itself, so nothing reads the
///   bare row the `Count` leaves NULL (`count(*) + 1` keeps the
///   aggregate, as do bare columns).
///
/// The caller checks the rest: no WHERE, HAVING or window function.
/// LIMIT, OFFSET, ORDER BY and DISTINCT sit above the node and work as
/// on the aggregate's row. Anything else is returned as it is.
fn count_star(node: Node, exprs: &[Expr]) -> Node {
    let Node::Aggregate { input, keys, aggs, width, .. } = &node else { return node };
    let whole = |access: &Access| match access {
        Access::Full { .. } => true,
        Access::Index { index, prefixes, lo, hi, skip_nulls, .. } => {
            index.predicate.is_none()
                && !skip_nulls
                && matches!((lo, hi), (Bound::Unbounded, Bound::Unbounded))
                && prefixes.iter().all(Vec::is_empty)
                && prefixes.len() == 1
        }
        Access::RowidIn(_) | Access::RowidInSub { .. } | Access::RowidRange { .. } => false,
    };
    let count = *width;
    let only_count =
        !exprs.is_empty() && exprs.iter().all(|e| matches!(e, Expr::Column(c) if *c == count));
    // The FROM item's local rows come widened into the statement's row.
    let scan = match &**input {
        Node::Widen { input, offset: 0, .. } => &**input,
        other => other,
    };
    match scan {
        Node::Scan { table, access, filter: None }
            if keys.is_empty()
                && aggs.len() == 1
                && aggs[0].is_count_star()
                && whole(access)
                && only_count =>
        {
            Node::Count { table: table.clone(), width: *width }
        }
        _ => node,
    }
}

pub(super) fn has_agg(e: &Expr) -> bool {
    let mut f = false;
    e.walk(&mut |x| f |= matches!(x, Expr::Agg(_)));
    f
}

/// Rewrites an expression bound to input rows into one over aggregate
/// output rows: `keys ++ canonical row of the group ++ aggregate results`
/// (`width` is the canonical row's). A subquery reads the canonical row and
/// the aggregate results after it, which is where the aggregates that
/// belong to this level but sit in the subquery look (see
/// `Binder::place_aggregate`).
pub(super) fn post_agg(e: Expr, keys: &[Expr], nk: usize, width: usize) -> Result<Expr> {
    if let Some(k) = keys.iter().position(|g| g.same(&e)) {
        return Ok(Expr::Column(k));
    }
    match e {
        Expr::Agg(j) => Ok(Expr::Column(nk + width + j)),
        Expr::Column(i) => Ok(Expr::Column(nk + i)),
        Expr::Sub { kind, sub, lhs, aff, coll, negated, outer_offset } => Ok(Expr::Sub {
            kind,
            sub,
            lhs: lhs.into_iter().map(|l| post_agg(l, keys, nk, width)).collect::<Result<_>>()?,
            aff,
            coll,
            negated,
            outer_offset: outer_offset + nk,
        }),
        e => e.map_children(&mut |c| post_agg(c, keys, nk, width)),
    }
}
