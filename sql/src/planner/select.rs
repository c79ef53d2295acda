//! Planning queries: SELECT (FROM, joins, WHERE, aggregation, ORDER BY,
//! LIMIT), compound selects, VALUES, and access-path selection.

use std::collections::BTreeSet;
use std::ops::Bound;
use std::sync::Arc;

use sqlparser::ast;

use super::bind::{Binder, Cte, CteState, Scope, ScopeTable, conjuncts};
use super::{Access, AggCall, JoinKind, Node, QueryPlan, SetOp, SortKey};
use crate::catalog::{TableDef, object_name};
use crate::exec::vals::{Affinity, Collation};
use crate::expr::{CmpOp, Expr};
use crate::value::Value;
use crate::{Error, Result};

/// Plans a whole query (WITH, body, ORDER BY, LIMIT).
pub fn plan_query(b: &mut Binder, q: &ast::Query) -> Result<QueryPlan> {
    b.query_depth += 1;
    let r = plan_query_here(b, q);
    b.query_depth -= 1;
    r
}

fn plan_query_here(b: &mut Binder, q: &ast::Query) -> Result<QueryPlan> {
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
    let r = match q.body.as_ref() {
        ast::SetExpr::Select(s) => plan_select(b, s, order, limit, offset),
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
        for cte in &with.cte_tables {
            b.ctes.push(Cte {
                name: cte.alias.name.value.to_ascii_lowercase(),
                columns: cte.alias.columns.iter().map(|c| c.name.value.clone()).collect(),
                state: CteState::Body(cte.query.clone()),
            });
        }
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
            if l.columns.len() != r.columns.len() {
                return Err(Error::InvalidInput(format!(
                    "SELECTs to the left and right of {op} do not have the same number of result columns"
                )));
            }
            let all = matches!(set_quantifier, ast::SetQuantifier::All);
            let op = match op {
                ast::SetOperator::Union if all => SetOp::UnionAll,
                ast::SetOperator::Union => SetOp::Union,
                ast::SetOperator::Except | ast::SetOperator::Minus => SetOp::Except,
                ast::SetOperator::Intersect => SetOp::Intersect,
            };
            Ok(QueryPlan {
                node: Node::SetOp { op, left: Box::new(l.node), right: Box::new(r.node) },
                columns: l.columns,
                affinities: l.affinities,
            })
        }
        other => Err(Error::Unsupported(format!("query body {other}"))),
    }
}

fn plan_values(b: &mut Binder, v: &ast::Values) -> Result<QueryPlan> {
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
        let keys = compound_order_keys(&plan.columns, order)?;
        node = Node::Sort { input: Box::new(node), keys };
    }
    node = add_limit(b, node, limit, offset)?;
    Ok(QueryPlan { node, columns: plan.columns, affinities: plan.affinities })
}

/// The ORDER BY of a compound select as sort keys over its output row:
/// terms are column numbers or output column names.
pub(super) fn compound_order_keys(
    columns: &[String],
    order: &[ast::OrderByExpr],
) -> Result<Vec<SortKey>> {
    let mut keys = Vec::new();
    for (n, o) in order.iter().enumerate() {
        let k = match &o.expr {
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
            coll: Collation::Binary,
            nulls_first: o.options.nulls_first.unwrap_or(!desc),
        });
    }
    Ok(keys)
}

fn ordinal(n: usize) -> String {
    match n {
        1 => "1st".into(),
        2 => "2nd".into(),
        3 => "3rd".into(),
        n => format!("{n}th"),
    }
}

fn is_desc(o: &ast::OrderByExpr) -> bool {
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

/// One relation of a FROM clause.
pub(super) struct Rel {
    name: String,
    source: Source,
    columns: Vec<(String, Option<Affinity>, Collation)>,
    has_rowid: bool,
    kind: JoinKind,
    on: Option<ast::Expr>,
    using: Vec<String>,
    natural: bool,
    offset: usize,
    /// USING / NATURAL columns: reachable only qualified, not in `*`.
    hidden: Vec<String>,
}

enum Source {
    Table(Arc<TableDef>),
    Node(Box<Node>),
}

impl Rel {
    fn width(&self) -> usize {
        self.columns.len() + usize::from(self.has_rowid)
    }
}

fn table_rel(t: &Arc<TableDef>, name: String) -> Rel {
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

fn factor_rel(b: &mut Binder, f: &ast::TableFactor) -> Result<Rel> {
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

fn from_rels(b: &mut Binder, from: &[ast::TableWithJoins]) -> Result<Vec<Rel>> {
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

fn scope_of(rels: &[Rel]) -> Scope {
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

/// An output column of a SELECT.
struct OutCol {
    expr: Expr,
    name: String,
    aff: Option<Affinity>,
    /// The `AS` alias, if any.
    alias: Option<String>,
}

fn plan_select(
    b: &mut Binder,
    s: &ast::Select,
    order: &[ast::OrderByExpr],
    limit: Option<&ast::Expr>,
    offset: Option<&ast::Expr>,
) -> Result<QueryPlan> {
    let rels = from_rels(b, &s.from)?;
    b.push_scope(scope_of(&rels));
    let saved_aggs = b.aggs.take();
    let r = plan_select_in_scope(b, s, rels, order, limit, offset);
    b.aggs = saved_aggs;
    b.pop_scope();
    r
}

fn plan_select_in_scope(
    b: &mut Binder,
    s: &ast::Select,
    mut rels: Vec<Rel>,
    order: &[ast::OrderByExpr],
    limit: Option<&ast::Expr>,
    offset: Option<&ast::Expr>,
) -> Result<QueryPlan> {
    let width = b.scope_width();
    // WHERE and join conditions.
    let mut where_c = Vec::new();
    if let Some(w) = &s.selection {
        conjuncts(b.bind_expr(w)?, &mut where_c);
    }
    let mut on_c: Vec<Vec<Expr>> = vec![Vec::new(); rels.len()];
    for i in 0..rels.len() {
        let mut cs = Vec::new();
        if let Some(on) = rels[i].on.clone() {
            conjuncts(b.bind_expr(&on)?, &mut cs);
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
            let left = rels[..i]
                .iter()
                .find_map(|l| {
                    l.columns
                        .iter()
                        .position(|x| x.0.eq_ignore_ascii_case(&n))
                        .map(|k| l.offset + k)
                })
                .ok_or_else(|| Error::InvalidInput(format!("cannot join using column {n}")))?;
            let right = rels[i]
                .columns
                .iter()
                .position(|x| x.0.eq_ignore_ascii_case(&n))
                .map(|k| rels[i].offset + k)
                .ok_or_else(|| Error::InvalidInput(format!("cannot join using column {n}")))?;
            let l = Expr::Column(left);
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
        if rels[i].kind == JoinKind::Left {
            on_c[i] = cs;
        } else {
            where_c.extend(cs);
        }
    }

    // Projection (aggregates collected on the side).
    b.aggs = Some(Vec::new());
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
                for r in &rels {
                    push_rel_columns(b, r, &mut out);
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
                push_rel_columns(b, r, &mut out);
            }
            ast::SelectItem::UnnamedExpr(e) => {
                let x = b.bind_expr(e)?;
                let name = match e {
                    ast::Expr::Identifier(id) => column_name(b, &x).unwrap_or(id.value.clone()),
                    ast::Expr::CompoundIdentifier(p) => column_name(b, &x)
                        .unwrap_or(p.last().map(|i| i.value.clone()).unwrap_or_default()),
                    e => match &texts {
                        Some(t) => t[item_no].clone(),
                        None => e.to_string(),
                    },
                };
                out.push(OutCol { aff: b.aff(&x), expr: x, name, alias: None });
            }
            ast::SelectItem::ExprWithAlias { expr, alias } => {
                let x = b.bind_expr(expr)?;
                out.push(OutCol {
                    aff: b.aff(&x),
                    expr: x,
                    name: alias.value.clone(),
                    alias: Some(alias.value.clone()),
                });
            }
            other => return Err(Error::Unsupported(format!("select item {other}"))),
        }
    }
    let n = out.len();
    b.aliases = out.iter().filter_map(|o| Some((o.alias.clone()?, o.expr.clone()))).collect();

    // HAVING.
    let having = match &s.having {
        Some(h) => Some(b.bind_expr(h)?),
        None => None,
    };

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
        let explicit = match &o.expr {
            ast::Expr::Collate { collation, .. } => {
                Some(match object_name(collation)?.to_ascii_lowercase().as_str() {
                    "nocase" => Collation::NoCase,
                    "rtrim" => Collation::RTrim,
                    _ => Collation::Binary,
                })
            }
            _ => None,
        };
        let (k, x) = match pos {
            Some(k) => (k, out[k].expr.clone()),
            None => {
                let x = b.bind_expr(&o.expr)?;
                match out.iter().position(|c| c.expr.same(&x)) {
                    Some(k) => (k, x),
                    None => {
                        hidden.push(x.clone());
                        (n + hidden.len() - 1, x)
                    }
                }
            }
        };
        // As in SQLite: an explicit COLLATE, else the column's own.
        let coll = explicit.or_else(|| b.column_coll(&x)).unwrap_or(Collation::Binary);
        let desc = is_desc(o);
        // NULLS FIRST on ASC / NULLS LAST on DESC are the default order.
        let nulls_default = o.options.nulls_first.is_none_or(|f| f != desc);
        let key = match (&x, coll, nulls_default) {
            (Expr::Column(c), Collation::Binary, true) => {
                Some(OrderTerm { col: *c, desc, skip_nulls: false })
            }
            _ => None,
        };
        order_terms.push(key);
        let nulls_first = o.options.nulls_first.unwrap_or(!desc);
        sort_keys.push(SortKey { expr: Expr::Column(k), desc, coll, nulls_first });
    }
    let aggs = b.aggs.take().unwrap_or_default();
    b.aliases.clear();

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
    let distinct = matches!(s.distinct, Some(ast::Distinct::Distinct));
    let minmax = min_max_column(b, &aggs, &group, having.is_some(), &where_c, &rels);
    let want: Option<Vec<OrderTerm>> = if let Some(m) = minmax {
        Some(vec![m])
    } else if !is_agg && !distinct && rels.len() == 1 {
        order_terms.into_iter().collect::<Option<Vec<_>>>().filter(|v| !v.is_empty())
    } else {
        None
    };
    let (mut node, scan_ordered) = build_from(b, &mut rels, where_c, on_c, width, want.as_deref())?;
    if minmax.is_some() && scan_ordered {
        // The first row in the column's order (NULLs skipped) holds the
        // answer, and is the row bare columns read, as in SQLite.
        let one = Some(Expr::Literal(Value::Integer(1)));
        node = Node::Limit { input: Box::new(node), limit: one, offset: None };
    }
    let ordered = scan_ordered && minmax.is_none();
    let sorted = sort_keys.is_empty() || ordered;

    let mut exprs: Vec<Expr> = out.iter().map(|c| c.expr.clone()).collect();
    if !ordered {
        exprs.extend(hidden);
    }
    let mut having = having;
    if is_agg {
        let nk = group.len();
        let base = nk + aggs.len();
        let rw = |e: Expr| post_agg(e, &group, nk, base);
        exprs = exprs.into_iter().map(rw).collect::<Result<_>>()?;
        having = having.map(rw).transpose()?;
        node = Node::Aggregate {
            input: Box::new(node),
            keys: group.clone(),
            aggs: aggs.clone(),
            always_one: group.is_empty(),
            width,
        };
        if let Some(h) = having {
            node = Node::Filter { input: Box::new(node), pred: h };
        }
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
        node = Node::Distinct { input: Box::new(node), ncols: n };
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
    })
}

fn column_name(b: &Binder, x: &Expr) -> Option<String> {
    let Expr::Column(i) = x else { return None };
    let scope = b.scopes.last()?;
    for t in &scope.tables {
        if *i >= t.offset && *i < t.offset + t.columns.len() {
            return Some(t.columns[*i - t.offset].0.clone());
        }
    }
    None
}

fn push_rel_columns(b: &Binder, r: &Rel, out: &mut Vec<OutCol>) {
    for (i, c) in r.columns.iter().enumerate() {
        if r.hidden.iter().any(|h| h.eq_ignore_ascii_case(&c.0)) {
            continue;
        }
        let x = Expr::Column(r.offset + i);
        out.push(OutCol { aff: b.aff(&x), expr: x, name: c.0.clone(), alias: None });
    }
}

fn has_agg(e: &Expr) -> bool {
    let mut f = false;
    e.walk(&mut |x| f |= matches!(x, Expr::Agg(_)));
    f
}

/// Rewrites an expression bound to input rows into one over aggregate
/// output rows (`keys ++ aggs ++ last input row`).
fn post_agg(e: Expr, keys: &[Expr], nk: usize, base: usize) -> Result<Expr> {
    if let Some(k) = keys.iter().position(|g| g.same(&e)) {
        return Ok(Expr::Column(k));
    }
    match e {
        Expr::Agg(j) => Ok(Expr::Column(nk + j)),
        Expr::Column(i) => Ok(Expr::Column(base + i)),
        Expr::Sub { kind, sub, lhs, aff, negated, outer_offset } => Ok(Expr::Sub {
            kind,
            sub,
            lhs: lhs.map(|l| post_agg(*l, keys, nk, base).map(Box::new)).transpose()?,
            aff,
            negated,
            outer_offset: outer_offset + base,
        }),
        e => e.map_children(&mut |c| post_agg(c, keys, nk, base)),
    }
}

/// The tables (relation indexes) an expression bound to the canonical row
/// reads.
fn rel_set(e: &Expr, rels: &[Rel]) -> BTreeSet<usize> {
    e.columns()
        .into_iter()
        .filter_map(|c| rels.iter().position(|r| c >= r.offset && c < r.offset + r.width()))
        .collect()
}

struct Conj {
    expr: Expr,
    rels: BTreeSet<usize>,
    done: bool,
}

/// Builds the join tree producing canonical rows of `width`.
fn build_from(
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
fn equi_key(
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
fn greedy_order(conjs: &[Conj], est: &[f64]) -> Vec<usize> {
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

/// A usable comparison of a column with a row-free value.
enum Pred {
    Eq(Expr),
    In(Vec<Expr>),
    Lo(Expr, bool),
    Hi(Expr, bool),
}

fn analyse(c: &Expr) -> Option<(usize, Pred, Option<Affinity>)> {
    match c {
        Expr::Cmp { op, l, r, aff, coll: Collation::Binary } if *op != CmpOp::Ne => {
            let (col, val, op) = match (l.as_ref(), r.as_ref()) {
                (Expr::Column(k), v) if v.is_row_free() => (*k, v.clone(), *op),
                (v, Expr::Column(k)) if v.is_row_free() => (*k, v.clone(), op.flip()),
                _ => return None,
            };
            let p = match op {
                CmpOp::Eq => Pred::Eq(val),
                CmpOp::Gt => Pred::Lo(val, false),
                CmpOp::Ge => Pred::Lo(val, true),
                CmpOp::Lt => Pred::Hi(val, false),
                CmpOp::Le => Pred::Hi(val, true),
                CmpOp::Ne => return None,
            };
            Some((col, p, *aff))
        }
        Expr::InList { expr, list, affs, negated: false } => {
            let Expr::Column(k) = expr.as_ref() else { return None };
            if !list.iter().all(Expr::is_row_free) || affs.windows(2).any(|w| w[0] != w[1]) {
                return None;
            }
            Some((*k, Pred::In(list.clone()), affs.first().copied().flatten()))
        }
        _ => None,
    }
}

/// True if applying `aff` to stored values of a column of affinity `col`
/// changes nothing, so the index order is the comparison's order.
fn aff_ok(aff: Option<Affinity>, col: Affinity) -> bool {
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
fn choose_access(b: &Binder, t: &Arc<TableDef>, locals: &[Expr]) -> (Access, f64) {
    let preds: Vec<(usize, Pred, Option<Affinity>)> = locals.iter().filter_map(analyse).collect();
    let ncols = t.columns.len();
    let is_rowid = |k: usize| k == ncols || Some(k) == t.rowid_alias;
    // Rowid equality / IN.
    for (k, p, _) in &preds {
        if is_rowid(*k) {
            match p {
                Pred::Eq(v) => return (Access::RowidIn(vec![v.clone()]), 0.0001),
                Pred::In(vs) => return (Access::RowidIn(vs.clone()), 0.001),
                _ => {}
            }
        }
    }
    // Best index.
    let mut best: Option<(u32, Access, f64)> = None;
    for ix in b.schema.table_indexes(&t.name) {
        let col_aff = |j: usize| t.columns[ix.columns[j]].affinity;
        let mut prefixes: Vec<Vec<Expr>> = vec![Vec::new()];
        let mut affs = Vec::new();
        let mut j = 0;
        while j < ix.columns.len() {
            let c = ix.columns[j];
            let eq = preds
                .iter()
                .find(|(k, p, a)| *k == c && matches!(p, Pred::Eq(_)) && aff_ok(*a, col_aff(j)));
            if let Some((_, Pred::Eq(v), a)) = eq {
                prefixes.iter_mut().for_each(|p| p.push(v.clone()));
                affs.push(*a);
                j += 1;
                continue;
            }
            let inl = preds
                .iter()
                .find(|(k, p, a)| *k == c && matches!(p, Pred::In(_)) && aff_ok(*a, col_aff(j)));
            if let (0, Some((_, Pred::In(vs), a))) = (j, inl) {
                prefixes = vs.iter().map(|v| vec![v.clone()]).collect();
                affs.push(*a);
                j += 1;
                continue;
            }
            break;
        }
        let mut lo = Bound::Unbounded;
        let mut hi = Bound::Unbounded;
        if j < ix.columns.len() && !ix.desc[j] {
            let c = ix.columns[j];
            for (k, p, a) in &preds {
                if *k != c || !aff_ok(*a, col_aff(j)) {
                    continue;
                }
                match p {
                    Pred::Lo(v, inc) if matches!(lo, Bound::Unbounded) => lo = bound(v, *inc),
                    Pred::Hi(v, inc) if matches!(hi, Bound::Unbounded) => hi = bound(v, *inc),
                    _ => continue,
                }
                if affs.len() == j {
                    affs.push(*a);
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
struct OrderTerm {
    col: usize,
    desc: bool,
    /// Rows whose key is NULL are not wanted (`min(col)`); a scan that can
    /// skip them cheaply does.
    skip_nulls: bool,
}

/// `min(col)` / `max(col)` as the only aggregate of a one-table query
/// without GROUP BY or HAVING, over a BINARY-collated column (or the
/// rowid): the order a scan must give for its first row to be the answer.
/// A WHERE may only compare that column with values (an access path on
/// it, which also keeps NULLs out); anything else would make the scan read
/// rows the WHERE then rejects.
fn min_max_column(
    b: &Binder,
    aggs: &[AggCall],
    group: &[Expr],
    having: bool,
    where_c: &[Expr],
    rels: &[Rel],
) -> Option<OrderTerm> {
    let [agg] = aggs else { return None };
    let [Expr::Column(col)] = agg.args.as_slice() else { return None };
    if agg.distinct || !group.is_empty() || having || rels.len() != 1 {
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
fn order_access(
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
                };
                (access, true)
            }
            other => (other, false),
        };
    }
    match access {
        Access::Full { reverse: false } => {
            for ix in b.schema.table_indexes(&t.name) {
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
            let ok = index_gives(&index.columns, &index.desc, fixed, order, &is_rowid);
            let access = Access::Index {
                index,
                prefixes,
                lo,
                hi,
                affs,
                reverse: false,
                ordered: ok,
                skip_nulls: false,
            };
            (access, ok)
        }
        other => (other, false),
    }
}

/// True if a forward scan of an index over `columns` (with `desc` flags),
/// the first `fixed` of them fixed by equality, yields rows in `order`
/// (ties in rowid order).
fn index_gives(
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

/// Plans a scan of one table with a WHERE clause (for UPDATE / DELETE):
/// yields local rows (columns then rowid).
/// A range bound at `v`, inclusive or not.
fn bound<T: Clone>(v: &T, inclusive: bool) -> Bound<T> {
    if inclusive { Bound::Included(v.clone()) } else { Bound::Excluded(v.clone()) }
}

pub fn plan_table_scan(
    b: &mut Binder,
    t: &Arc<TableDef>,
    selection: Option<&ast::Expr>,
) -> Result<Node> {
    let rel = table_rel(t, t.name.clone());
    b.push_scope(scope_of(std::slice::from_ref(&rel)));
    let r = (|| {
        let mut cs = Vec::new();
        if let Some(w) = selection {
            conjuncts(b.bind_expr(w)?, &mut cs);
        }
        let local: Vec<Expr> = cs.iter().filter(|c| !c.has_subquery()).cloned().collect();
        let (access, _) = choose_access(b, t, &local);
        let filter = cs.into_iter().reduce(|a, c| Expr::And(Box::new(a), Box::new(c)));
        Ok(Node::Scan { table: t.clone(), access, filter })
    })();
    b.pop_scope();
    r
}

/// Constant-folds nothing; kept for symmetry with other planners.
#[allow(dead_code)]
fn literal(v: Value) -> Expr {
    Expr::Literal(v)
}

#[allow(dead_code)]
fn agg_names(a: &[AggCall]) -> Vec<&str> {
    a.iter().map(|c| c.name.as_str()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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
