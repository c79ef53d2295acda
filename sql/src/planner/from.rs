//! FROM: relations (tables, views, CTEs, subqueries, table-valued
//! functions), the canonical row they make up, and join assembly — WHERE
//! conjuncts pushed to the relations they read, inner joins ordered
//! greedily along join predicates, equi-joins hashed, and table-valued
//! functions whose arguments read other relations joined after those
//! ([`Node::Lateral`]).

use std::collections::BTreeSet;
use std::sync::Arc;

use sqlparser::ast;

use super::access::*;
use super::bind::{Binder, Scope, ScopeTable};
use super::select::*;
use super::{Access, JoinKey, JoinKind, Node, QueryPlan};
use crate::catalog::{self, TableDef, object_name};
use crate::exec::vals::{Affinity, Collation};
use crate::expr::{CmpOp, Expr, SubKind};
use crate::func::TableFunc;
use crate::{Error, Result};

/// One relation of a FROM clause.
pub(super) struct Rel {
    pub(super) name: String,
    pub(super) source: Source,
    pub(super) columns: Vec<(String, Option<Affinity>, Collation)>,
    pub(super) has_rowid: bool,
    pub(super) kind: JoinKind,
    /// Joined by `CROSS JOIN`: SQLite never reorders such a join (the
    /// left side stays the outer loop), so neither do we.
    pub(super) cross: bool,
    pub(super) on: Option<ast::Expr>,
    pub(super) using: Vec<String>,
    pub(super) natural: bool,
    pub(super) offset: usize,
    /// USING / NATURAL columns: reachable only qualified, not in `*`.
    pub(super) hidden: Vec<String>,
    /// How many leading columns `*` shows (a table-valued function's
    /// argument columns are hidden).
    pub(super) shown: usize,
}

pub(super) enum Source {
    Table(Arc<TableDef>),
    Node(Box<Node>),
    /// A table-valued function called with `asts`; bound into `args` (one
    /// per hidden column given) once the FROM clause's scope exists, since
    /// they may read any of its relations.
    Func {
        func: TableFunc,
        asts: Vec<ast::Expr>,
        args: Vec<Option<Expr>>,
    },
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
        cross: false,
        on: None,
        using: Vec::new(),
        natural: false,
        offset: 0,
        hidden: Vec::new(),
        shown: t.columns.len(),
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
                plan.collations.get(i).copied().flatten().unwrap_or(Collation::Binary),
            )
        })
        .collect();
    Rel {
        name,
        columns,
        has_rowid: false,
        source: Source::Node(Box::new(plan.node)),
        kind: JoinKind::Inner,
        cross: false,
        on: None,
        using: Vec::new(),
        natural: false,
        offset: 0,
        hidden: Vec::new(),
        shown: plan.columns.len(),
    }
}

/// A relation for the table-valued function `func` called with `asts`.
fn func_rel(func: TableFunc, name: String, asts: Vec<ast::Expr>) -> Result<Rel> {
    // A table-valued function opens a transaction in SQLite too.
    super::note_database_read();
    if asts.len() > func.max_args() {
        return crate::errinput!(
            "too many arguments on {}() - max {}",
            func.name(),
            func.max_args()
        );
    }
    Ok(Rel {
        name,
        columns: func
            .columns()
            .iter()
            .map(|c| (c.to_string(), Some(Affinity::Blob), Collation::Binary))
            .collect(),
        has_rowid: true,
        source: Source::Func { func, asts, args: Vec::new() },
        kind: JoinKind::Inner,
        cross: false,
        on: None,
        using: Vec::new(),
        natural: false,
        offset: 0,
        hidden: Vec::new(),
        shown: func.visible(),
    })
}

/// `sqlite_schema` (or an alias) as a relation: its rows as of this
/// statement, SQLite's five columns.
fn catalog_plan(rows: Vec<[crate::value::Value; 5]>) -> QueryPlan {
    let t = catalog::catalog_table(0);
    QueryPlan {
        node: Node::Values {
            rows: rows.into_iter().map(|r| r.into_iter().map(Expr::lit).collect()).collect(),
            width: 5,
        },
        columns: t.columns.iter().map(|c| c.name.clone()).collect(),
        affinities: t.columns.iter().map(|c| Some(c.affinity)).collect(),
        collations: vec![None; t.columns.len()],
    }
}

pub(super) fn factor_rel(b: &mut Binder, f: &ast::TableFactor) -> Result<Rel> {
    match f {
        // `pragma_<name>(args)`: a pragma's answer as a table.
        ast::TableFactor::Table { name, alias, args: Some(args), .. }
            if object_name(name)?.to_ascii_lowercase().starts_with("pragma_") =>
        {
            let tname = object_name(name)?;
            let shown = alias.as_ref().map_or_else(|| tname.clone(), |a| a.name.value.clone());
            super::note_database_read();
            let hex = |v: &ast::ValueWithSpan| b.hex_integer(v).ok().flatten();
            let values = match crate::exec::pragma::literal_args(&tname, &args.args, &hex) {
                Ok(v) => v,
                // Arguments that read a row (`pragma_table_info(m.name)`):
                // a table-valued function called per row.
                Err(e) => match crate::func::table::PragmaFn::resolve(&tname) {
                    Some(p) => {
                        let asts = args
                            .args
                            .iter()
                            .map(|a| match a {
                                ast::FunctionArg::Unnamed(ast::FunctionArgExpr::Expr(e)) => {
                                    Ok(e.clone())
                                }
                                other => crate::errinput!("bad argument to {tname}(): {other}"),
                            })
                            .collect::<Result<Vec<_>>>()?;
                        return func_rel(TableFunc::Pragma(p), shown, asts);
                    }
                    None => return Err(e),
                },
            };
            match crate::exec::pragma::table_function(b.store, b.schema, &tname, &values) {
                Some(a) => Ok(query_rel(crate::exec::pragma::answer_plan(a?), shown, &[])),
                None => Err(Error::NotFound(format!("no such table-valued function: {tname}"))),
            }
        }
        ast::TableFactor::Table { name, alias, args: None, .. } => {
            let tname = object_name(name)?;
            let alias_name = alias.as_ref().map(|a| a.name.value.clone());
            let shown = alias_name.clone().unwrap_or_else(|| tname.clone());
            let lc = tname.to_ascii_lowercase();
            if let Some(i) = b.ctes.iter().rposition(|c| c.name == lc) {
                return super::cte::cte_rel(b, i, shown);
            }
            if let Some(t) = b.schema.table(&tname).cloned() {
                super::note_database_read();
                return Ok(table_rel(&t, shown));
            }
            if let Some(v) = b.schema.view(&tname).cloned() {
                super::note_database_read();
                // The view's spans point into its own stored text.
                let watch = b.watch.take();
                let plan = b.isolated(|b| {
                    b.source = Some(Arc::from(v.sql.as_str()));
                    plan_query(b, &v.query)
                });
                b.watch = watch;
                let plan = plan.map_err(catalog::in_schema_body)?;
                if !v.columns.is_empty() && v.columns.len() != plan.columns.len() {
                    return crate::errinput!(
                        "expected {} columns for '{}' but got {}",
                        v.columns.len(),
                        v.name,
                        plan.columns.len()
                    );
                }
                return Ok(query_rel(plan, shown, &v.columns));
            }
            let temp = name.0.len() > 1
                && matches!(&name.0[0], ast::ObjectNamePart::Identifier(q)
                    if q.value.eq_ignore_ascii_case("temp"));
            if catalog::is_schema_table(&tname) || catalog::is_temp_schema_table(&tname) {
                super::note_database_read();
                let rows = if temp || catalog::is_temp_schema_table(&tname) {
                    Vec::new()
                } else {
                    catalog::schema_rows(b.store, b.schema)?
                };
                return Ok(query_rel(catalog_plan(rows), shown, &[]));
            }
            if let Some(a) = crate::exec::pragma::table_function(b.store, b.schema, &tname, &[]) {
                super::note_database_read();
                return Ok(query_rel(crate::exec::pragma::answer_plan(a?), shown, &[]));
            }
            if let Some(func) = TableFunc::resolve(&tname) {
                // An eponymous table-valued function without arguments:
                // they may come from WHERE equalities on its hidden columns.
                return func_rel(func, shown, Vec::new());
            }
            Err(catalog::no_such_table(catalog::qualifier(name), &tname))
        }
        ast::TableFactor::Table { name, alias, args: Some(args), .. } => {
            let tname = object_name(name)?;
            let shown = alias.as_ref().map_or_else(|| tname.clone(), |a| a.name.value.clone());
            let Some(func) = TableFunc::resolve(&tname) else {
                let lc = tname.to_ascii_lowercase();
                if b.ctes.iter().any(|c| c.name == lc)
                    || b.schema.table(&tname).is_some()
                    || b.schema.view(&tname).is_some()
                {
                    return crate::errinput!("'{tname}' is not a function");
                }
                return Err(Error::NotFound(format!("no such table: {tname}")));
            };
            if alias.as_ref().is_some_and(|a| !a.columns.is_empty()) {
                return Err(Error::Unsupported(format!("column aliases on {}()", func.name())));
            }
            let asts = args
                .args
                .iter()
                .map(|a| match a {
                    ast::FunctionArg::Unnamed(ast::FunctionArgExpr::Expr(e)) => Ok(e.clone()),
                    other => crate::errinput!("bad argument to {}(): {other}", func.name()),
                })
                .collect::<Result<Vec<_>>>()?;
            func_rel(func, shown, asts)
        }
        ast::TableFactor::Derived { subquery, alias, lateral: false, .. } => {
            let plan = b.derived(|b| plan_query(b, subquery))?;
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
                J::Right(c) | J::RightOuter(c) => (JoinKind::Right, Some(c)),
                J::FullOuter(c) => (JoinKind::Full, Some(c)),
                other => return Err(Error::Unsupported(format!("join {other:?}"))),
            };
            r.kind = kind;
            r.cross = matches!(j.join_operator, J::CrossJoin(_));
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
                Source::Node(_) | Source::Func { .. } => None,
            },
            hidden: r.hidden.clone(),
            join: r.kind,
            func: match &r.source {
                Source::Func { func, .. } => Some(*func),
                _ => None,
            },
            pseudo_row: false,
        })
        .collect();
    Scope { tables, width: rels.iter().map(Rel::width).sum() }
}

/// Binds the arguments of the table-valued functions among `rels` in the
/// current scope (the FROM clause's): they may read any relation of it.
pub(super) fn bind_func_args(b: &mut Binder, rels: &mut [Rel]) -> Result<()> {
    for r in rels.iter_mut() {
        if let Source::Func { asts, args, .. } = &mut r.source {
            *args = asts.iter().map(|a| b.bind_expr(a).map(Some)).collect::<Result<_>>()?;
        }
    }
    Ok(())
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
    needed: Option<&BTreeSet<usize>>,
) -> Result<(Node, bool)> {
    // The columns of relation `i` the query reads, as local numbers (for
    // index-only scans); `None`: unknown, every column.
    let needs: Vec<Option<BTreeSet<usize>>> = rels
        .iter()
        .map(|r| {
            needed.map(|n| n.range(r.offset..r.offset + r.width()).map(|c| c - r.offset).collect())
        })
        .collect();
    if rels.is_empty() {
        let mut node = Node::Values { rows: vec![Vec::new()], width: 0 };
        if let Some(p) = Expr::conjunction(where_c) {
            node = Node::Filter { input: Box::new(node), pred: p };
        }
        return Ok((node, false));
    }
    let mut ordered = false;
    // Relations an outer join may NULL-extend: the right side of a LEFT
    // join, both sides of a FULL join, everything before a RIGHT join. A
    // WHERE term reading one of them runs above the joins (inside, it would
    // see the row before the NULLs are filled in).
    let last_right = rels.iter().rposition(|r| r.kind.keeps_right());
    let left_right: BTreeSet<usize> = (0..rels.len())
        .filter(|&i| rels[i].kind.keeps_left() || last_right.is_some_and(|p| i < p))
        .collect();
    // With an outer join the relations join in the order written (SQLite
    // reorders only inner joins, and never across an outer one).
    let any_left = rels.iter().any(|r| r.kind != JoinKind::Inner);
    let mut where_c = where_c;
    let lateral = func_args(rels, &mut where_c)?;
    let mut conjs: Vec<Conj> = where_c
        .into_iter()
        .map(|e| Conj { rels: rel_set(&e, rels), expr: e, done: false })
        .collect();
    // Conditions that read no relation are tested once, before any
    // relation is read (as SQLite does): a false one means no relation is
    // opened, so neither is a table-valued function's malformed argument.
    let mut guard = Vec::new();
    for c in conjs.iter_mut() {
        if c.rels.is_empty() && c.expr.is_constant_term() {
            guard.push(c.expr.clone());
            c.done = true;
        }
    }

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
    // `rowid IN (uncorrelated subquery)` may drive its table's scan (the
    // set's rowids looked up, `Access::RowidInSub`); the term itself stays
    // in the filter above the joins, which tests it exactly.
    let mut probes: Vec<Vec<Expr>> = vec![Vec::new(); rels.len()];
    for c in conjs.iter() {
        let in_sub = matches!(&c.expr, Expr::Sub { kind: SubKind::In, sub, negated: false, .. }
            if !sub.correlated);
        if c.rels.len() == 1 && !c.done && in_sub {
            let i = *c.rels.iter().next().expect("one");
            if !left_right.contains(&i) {
                probes[i].push(c.expr.clone().shift(rels[i].offset));
            }
        }
    }
    for (i, cs) in on_c.iter().enumerate() {
        // A RIGHT/FULL join keeps every row of its relation: its ON cannot
        // filter that relation's scan.
        if rels[i].kind.keeps_right() {
            continue;
        }
        for c in cs {
            let s = rel_set(c, rels);
            if s.len() == 1 && s.contains(&i) && !c.has_subquery() {
                locals[i].push(c.clone().shift(rels[i].offset));
            }
        }
    }
    let mut scans: Vec<Option<Node>> = Vec::new();
    // Table-valued functions reading other relations: called per row.
    let mut laterals: Vec<Option<LateralCall>> = Vec::new();
    let mut est: Vec<f64> = Vec::new();
    let rels_len = rels.len();
    for (i, r) in rels.iter_mut().enumerate() {
        let filter = Expr::conjunction(locals[i].iter().cloned());
        let (node, e) = match std::mem::replace(
            &mut r.source,
            Source::Node(Box::new(Node::Values { rows: vec![], width: 0 })),
        ) {
            Source::Table(t) => {
                let rows = b.store.estimate_rows(&t)? as f64;
                let terms: Vec<Expr> = locals[i].iter().chain(&probes[i]).cloned().collect();
                let (mut access, sel) = choose_access(b, &t, &terms);
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
                let mut access = in_key_order(b, &t, access);
                if let Some(n) = &needs[i] {
                    access = cover(&t, access, n);
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
            Source::Func { func, args, .. } => {
                // Joined after another relation, a call is made once that
                // relation yields a row (again per row if its arguments
                // read it), as SQLite's virtual-table loop does: an empty
                // left side never calls it.
                let call = (func, args.clone(), filter.clone(), lateral[i].is_none());
                laterals.push(Some(call));
                if lateral[i].is_some() {
                    scans.push(None);
                    est.push(100.0);
                    continue;
                }
                let n = Node::TableFunc { func, args };
                let n = match filter {
                    Some(f) => Node::Filter { input: Box::new(n), pred: f },
                    None => n,
                };
                scans.push(Some(n));
                est.push(100.0);
                continue;
            }
        };
        scans.push(Some(node));
        laterals.push(None);
        est.push(e);
    }

    // Join order.
    let fixed = any_left || rels.iter().any(|r| r.cross);
    let order: Vec<usize> = if fixed || rels.len() == 1 {
        (0..rels.len()).collect()
    } else {
        greedy_order(&conjs, &est)
    };
    let mut order = after_dependencies(order, &lateral, any_left)?;
    // Two inner-joined tables where only the first could be looked up
    // from the second (`a.id = b.id + 1` with `a` first): start from the
    // other, so the join is an index nested loop instead of a hash table
    // of a whole table (as SQLite orders it).
    if let [x, y] = order[..]
        && !fixed
        && scans.iter().all(|s| matches!(s, Some(Node::Scan { .. })))
    {
        let between: Vec<Expr> =
            conjs.iter().filter(|c| !c.done && c.rels.len() == 2).map(|c| c.expr.clone()).collect();
        let can = |outer: usize, inner: usize| match &scans[inner] {
            Some(Node::Scan { table, .. }) => lookup_access(
                b,
                table,
                &locals[inner],
                &between,
                rels,
                &BTreeSet::from([outer]),
                inner,
            )
            .is_some(),
            _ => false,
        };
        if !can(x, y) && can(y, x) {
            order = vec![y, x];
        }
    }

    let first = order[0];
    let mut joined: BTreeSet<usize> = BTreeSet::from([first]);
    let mut input = scans[first].take().expect("each rel once");
    let mut guard = Expr::conjunction(guard);
    // Under a RIGHT/FULL join an empty first relation still lets rows out:
    // the guard then goes above the joins (still tested before any row).
    if last_right.is_none()
        && let Some(pred) = guard.take()
    {
        input = Node::Guard { input: Box::new(input), pred };
    }
    let mut node = Node::Widen { input: Box::new(input), offset: rels[first].offset, width };
    for &r in &order[1..] {
        // Terms the rows joined so far answer filter them before this step
        // (SQLite tests each term in the outermost loop that has all it
        // reads): neither a left row they reject nor a right side never
        // reached is read, so an error only such a row or call would
        // raise is none; a LEFT join's left rows too.
        let ready: Vec<Expr> = conjs
            .iter_mut()
            .filter(|c| {
                !c.done
                    && !c.rels.is_empty()
                    && c.rels.is_subset(&joined)
                    && c.rels.is_disjoint(&left_right)
                    && last_right.is_none_or(|p| r > p)
            })
            .map(|c| {
                c.done = true;
                c.expr.clone()
            })
            .collect();
        if let Some(pred) = Expr::conjunction(ready) {
            node = Node::Filter { input: Box::new(node), pred };
        }
        let mut step: BTreeSet<usize> = joined.clone();
        step.insert(r);
        // The step's own ON terms (an inner join's are among the WHERE
        // terms unless a RIGHT/FULL join follows, see `plan_select`).
        let mut candidates: Vec<Expr> = on_c[r].clone();
        let left = rels[r].kind != JoinKind::Inner;
        for c in conjs.iter_mut() {
            // WHERE terms (and inner joins' ON terms) never go into an
            // outer join's ON: there they would keep the row with NULLs
            // instead of dropping it. Constant terms (no relation) that
            // are not tested up front join the first inner step.
            if !left
                && !c.done
                && c.rels.is_subset(&step)
                && c.rels.is_disjoint(&left_right)
                && last_right.is_none_or(|p| r > p)
            {
                c.done = true;
                candidates.push(c.expr.clone());
            }
        }
        if rels[r].kind.keeps_right() && laterals[r].is_some() && lateral[r].is_none() {
            // Arguments reading no relation: an ordinary relation to hash.
            laterals[r] = None;
        }
        if let Some((func, args, filter, once)) = laterals[r].take() {
            let on = Expr::conjunction(candidates);
            node = Node::Lateral {
                input: Box::new(node),
                func,
                args,
                offset: rels[r].offset,
                width,
                kind: rels[r].kind,
                filter,
                on,
                once,
            };
            joined.insert(r);
            continue;
        }
        let right = scans[r].take().expect("each rel once");
        if let Node::Scan { table, .. } = &right
            && !rels[r].kind.keeps_right()
            && let Some((used, access, filter)) =
                lookup_access(b, table, &locals[r], &candidates, rels, &joined, r)
        {
            // Index nested loop: the equality became the right scan's
            // lookup (and filter); the other terms test each pair.
            let on = Expr::conjunction(
                candidates.into_iter().enumerate().filter(|(i, _)| *i != used).map(|(_, c)| c),
            );
            let table = table.clone();
            let access = match &needs[r] {
                Some(n) => cover(&table, access, n),
                None => access,
            };
            node = Node::LookupJoin {
                left: Box::new(node),
                right: Box::new(Node::Scan { table, access, filter: Some(filter) }),
                offset: rels[r].offset,
                kind: rels[r].kind,
                on,
            };
            joined.insert(r);
            continue;
        }
        let mut keys = Vec::new();
        let mut rest = Vec::new();
        for c in candidates {
            match equi_key(&c, rels, &joined, r) {
                Some(k) => keys.push(k),
                None => rest.push(c),
            }
        }
        let on = Expr::conjunction(rest);
        node = Node::Join {
            left: Box::new(node),
            right: Box::new(right),
            offset: rels[r].offset,
            kind: rels[r].kind,
            keys,
            on,
            width,
        };
        joined.insert(r);
    }
    // Whatever is left (subqueries, constants, conditions on the right
    // side of LEFT joins, single-relation queries) filters at the top.
    let rest: Vec<Expr> = conjs.into_iter().filter(|c| !c.done).map(|c| c.expr).collect();
    if let Some(p) = Expr::conjunction(rest) {
        // Single-table conditions already ran in the scan; re-running them
        // is harmless and keeps this simple.
        node = Node::Filter { input: Box::new(node), pred: p };
    }
    if let Some(pred) = guard {
        node = Node::Guard { input: Box::new(node), pred };
    }
    Ok((node, ordered))
}

/// True if the WHERE term `e` can be true only when relation `i` is not the
/// NULL row of an outer join: SQLite's `sqlite3ExprImpliesNonNullRow`
/// (false negatives only cost an optimization; a false positive would be
/// a wrong answer, so every construct that can be true over NULLs — IS,
/// IS NULL, CASE, function calls, LIKE, subqueries — proves nothing).
pub(super) fn implies_non_null_row(e: &Expr, rels: &[Rel], i: usize) -> bool {
    let mut e = e;
    loop {
        e = match e {
            Expr::Collate(x, _) => x,
            Expr::Call { func, args, .. } if func.is_likelihood() && !args.is_empty() => &args[0],
            _ => break,
        };
    }
    match e {
        Expr::IsNull(x, true) => rel_column_walk(x, rels, i),
        Expr::And(a, b) => implies_non_null_row(a, rels, i) || implies_non_null_row(b, rels, i),
        _ => rel_column_walk(e, rels, i),
    }
}

/// `impliesNotNullRow`'s walk: true if `e` is NULL whenever relation `i`'s
/// row is all NULLs (a strict operator over one of its columns).
fn rel_column_walk(e: &Expr, rels: &[Rel], i: usize) -> bool {
    let rel_of = |c: usize| rels.iter().position(|r| (r.offset..r.offset + r.width()).contains(&c));
    let walk = |x: &Expr| rel_column_walk(x, rels, i);
    match e {
        Expr::Column(c) => rel_of(*c) == Some(i),
        Expr::And(a, b) | Expr::Or(a, b) => walk(a) && walk(b),
        Expr::InList { expr, list, .. } => !list.is_empty() && walk(expr),
        Expr::Cmp { l, r, .. } => {
            // A virtual table may take `x = NULL` as a constraint.
            let vtab = |x: &Expr| {
                matches!(x, Expr::Column(c)
                    if rel_of(*c).is_some_and(|k| matches!(rels[k].source, Source::Func { .. })))
            };
            !vtab(l) && !vtab(r) && (walk(l) || walk(r))
        }
        Expr::Not(x)
        | Expr::Negate(x)
        | Expr::BitNot(x)
        | Expr::Identity(x)
        | Expr::Cast(x, _)
        | Expr::Collate(x, _) => walk(x),
        Expr::Arith(_, a, b) => walk(a) || walk(b),
        Expr::Json { value, .. } => walk(value),
        _ => false,
    }
}

/// An index nested loop into table `r`: the first of `candidates` that is
/// an equality between the joined rows and a bare column of `r` which a
/// rowid or index lookup serves (SQLite's choice over a hash join). Returns
/// that candidate's position, the access path and the scan's filter: `r`'s
/// local terms and the equality, all reading the left (wide) row as the
/// nearest outer row — which moves outer rows the terms already read one
/// level further out.
fn lookup_access(
    b: &Binder,
    t: &Arc<TableDef>,
    locals: &[Expr],
    candidates: &[Expr],
    rels: &[Rel],
    joined: &BTreeSet<usize>,
    r: usize,
) -> Option<(usize, Access, Expr)> {
    let outer_of_left = |e: Expr, left_row: bool| {
        e.transform(&mut |e| {
            Ok(match e {
                Expr::Outer { depth, index } => Expr::Outer { depth: depth + 1, index },
                Expr::Column(index) if left_row => Expr::Outer { depth: 1, index },
                e => e,
            })
        })
        .expect("the rewrite cannot fail")
    };
    let base: Vec<Expr> = locals.iter().map(|e| outer_of_left(e.clone(), false)).collect();
    for (k, c) in candidates.iter().enumerate() {
        let Some(key) = equi_key(c, rels, joined, r) else { continue };
        if !matches!(key.right, Expr::Column(_)) || !key.left.is_deterministic() {
            continue;
        }
        let probe = outer_of_left(key.left, true);
        let eq = Expr::Cmp {
            op: CmpOp::Eq,
            l: Box::new(key.right),
            r: Box::new(probe),
            aff: key.aff,
            coll: key.coll,
        };
        let mut terms = base.clone();
        terms.push(eq);
        let (access, _) = choose_access(b, t, &terms);
        if matches!(access, Access::Full { .. }) {
            continue;
        }
        let filter = terms
            .into_iter()
            .reduce(|a, c| Expr::And(Box::new(a), Box::new(c)))
            .expect("the equality at least");
        return Some((k, access, filter));
    }
    None
}

/// A table-valued function joined after other relations: the function,
/// its arguments (on the joined row), its local filter, and whether the
/// arguments read no relation (one call serves every row).
type LateralCall = (TableFunc, Vec<Option<Expr>>, Option<Expr>, bool);

/// Completes the arguments of the table-valued functions among `rels`: a
/// hidden column without a call argument takes the other side of a WHERE
/// equality on it (which is then consumed, as SQLite's constraint is), if
/// that side does not read the function itself. Returns, per relation, the
/// relations a function's arguments read (`Some` for those called per
/// row).
fn func_args(rels: &mut [Rel], where_c: &mut Vec<Expr>) -> Result<Vec<Option<BTreeSet<usize>>>> {
    let mut out = vec![None; rels.len()];
    for i in 0..rels.len() {
        let Source::Func { func, args, .. } = &rels[i].source else { continue };
        let (func, mut args) = (*func, args.clone());
        if rels[i].kind == JoinKind::Inner {
            while args.len() < func.max_args() {
                let col = rels[i].offset + func.visible() + args.len();
                let mut found = None;
                for (k, c) in where_c.iter().enumerate() {
                    if let Some(v) = eq_on_column(c, col)
                        && !rel_set(v, rels).contains(&i)
                    {
                        found = Some((k, v.clone()));
                        break;
                    }
                }
                match found {
                    Some((k, v)) => {
                        where_c.remove(k);
                        args.push(Some(v));
                    }
                    None => args.push(None),
                }
            }
        }
        let mut deps = BTreeSet::new();
        for a in args.iter().flatten() {
            deps.extend(rel_set(a, rels));
        }
        if deps.contains(&i) {
            return crate::errinput!("{}() arguments read its own columns", func.name());
        }
        if !deps.is_empty() {
            out[i] = Some(deps);
        }
        if let Source::Func { args: a, .. } = &mut rels[i].source {
            *a = args;
        }
    }
    Ok(out)
}

/// The other side of `column(col) = x` (either way round).
fn eq_on_column(c: &Expr, col: usize) -> Option<&Expr> {
    let Expr::Cmp { op: CmpOp::Eq, l, r, .. } = c else { return None };
    match (l.as_ref(), r.as_ref()) {
        (Expr::Column(k), other) | (other, Expr::Column(k)) if *k == col => Some(other),
        _ => None,
    }
}

/// `order` changed as little as possible so that every table-valued
/// function comes after the relations its arguments read.
fn after_dependencies(
    order: Vec<usize>,
    lateral: &[Option<BTreeSet<usize>>],
    any_left: bool,
) -> Result<Vec<usize>> {
    if lateral.iter().all(Option::is_none) {
        return Ok(order);
    }
    let mut placed = BTreeSet::new();
    let mut pending = order.clone();
    let mut out = Vec::with_capacity(order.len());
    while !pending.is_empty() {
        let Some(k) =
            pending.iter().position(|&r| lateral[r].as_ref().is_none_or(|d| d.is_subset(&placed)))
        else {
            return crate::errinput!("table-valued function arguments depend on each other");
        };
        let r = pending.remove(k);
        placed.insert(r);
        out.push(r);
    }
    if any_left && out != order {
        return Err(Error::Unsupported(
            "a table-valued function reading a relation joined after it, with LEFT JOIN".into(),
        ));
    }
    Ok(out)
}

/// `left = right` with one side over already-joined relations and the other
/// over `r` alone, no subqueries: a hash-join key.
pub(super) fn equi_key(
    c: &Expr,
    rels: &[Rel],
    joined: &BTreeSet<usize>,
    r: usize,
) -> Option<JoinKey> {
    let Expr::Cmp { op: CmpOp::Eq, l, r: rr, aff, coll } = c else {
        return None;
    };
    let key = |left: &Expr, right: &Expr| JoinKey {
        left: left.clone(),
        right: right.clone().shift(rels[r].offset),
        aff: *aff,
        coll: *coll,
    };
    if l.has_subquery() || rr.has_subquery() {
        return None;
    }
    let ls = rel_set(l, rels);
    let rs = rel_set(rr, rels);
    let only_r = |s: &BTreeSet<usize>| s.len() == 1 && s.contains(&r);
    let in_joined = |s: &BTreeSet<usize>| !s.is_empty() && s.is_subset(joined);
    if in_joined(&ls) && only_r(&rs) {
        Some(key(l, rr))
    } else if in_joined(&rs) && only_r(&ls) {
        Some(key(rr, l))
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
