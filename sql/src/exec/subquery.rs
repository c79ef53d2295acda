//! Subqueries in expressions: scalar, EXISTS and IN, with uncorrelated
//! results cached for the statement.

use super::*;

#[derive(Clone)]
pub(super) enum Cached {
    Scalar(Value),
    Exists(bool),
    In(Arc<InSet>),
}

/// The right-hand side of `x IN (SELECT …)`.
pub(super) struct InSet {
    pub(super) set: BTreeSet<OrdKey>,
    pub(super) has_null: bool,
}

pub(super) fn cached(cx: &Context, sub: &SubPlan) -> Option<Cached> {
    if sub.correlated { None } else { cx.cache.map.borrow().get(&sub.id).cloned() }
}

pub(super) fn remember(cx: &Context, sub: &SubPlan, c: Cached) {
    if !sub.correlated {
        cx.cache.map.borrow_mut().insert(sub.id, c);
    }
}

/// The operator tree of `sub`, ready for a run: the one its last run left
/// (rewound), or a new one. A correlated subquery runs once per outer row:
/// a rewound scan re-reads its bounds from the new outer row.
fn operator(cx: &Context, sub: &SubPlan) -> Box<dyn Operator> {
    if sub.correlated
        && let Some(mut op) = cx.cache.ops.borrow_mut().remove(&sub.id)
        && op.rewind()
    {
        return op;
    }
    build(&sub.node)
}

/// Keeps a correlated subquery's operators for its next run.
fn keep(cx: &Context, sub: &SubPlan, op: Box<dyn Operator>) {
    if sub.correlated {
        cx.cache.ops.borrow_mut().insert(sub.id, op);
    }
}

/// The first column of the first row, or NULL.
pub fn subquery_scalar(sub: &Arc<SubPlan>, outer: &[Value], cx: &Context) -> Result<Value> {
    if let Some(Cached::Scalar(v)) = cached(cx, sub) {
        return Ok(v);
    }
    let child = cx.child(outer);
    let mut op = operator(cx, sub);
    let v = op.next(&child)?.and_then(|r| r.into_iter().next()).unwrap_or(Value::Null);
    keep(cx, sub, op);
    remember(cx, sub, Cached::Scalar(v.clone()));
    Ok(v)
}

pub fn subquery_exists(sub: &Arc<SubPlan>, outer: &[Value], cx: &Context) -> Result<bool> {
    if let Some(Cached::Exists(b)) = cached(cx, sub) {
        return Ok(b);
    }
    let child = cx.child(outer);
    let mut op = operator(cx, sub);
    let b = op.next(&child)?.is_some();
    keep(cx, sub, op);
    remember(cx, sub, Cached::Exists(b));
    Ok(b)
}

/// `x IN (subquery)` with three-valued logic: `None` is NULL.
pub fn subquery_in(
    sub: &Arc<SubPlan>,
    outer: &[Value],
    cx: &Context,
    x: Value,
    aff: Option<Affinity>,
    coll: Collation,
) -> Result<Option<bool>> {
    let set = match cached(cx, sub) {
        Some(Cached::In(s)) => s,
        _ => {
            let child = cx.child(outer);
            let mut op = operator(cx, sub);
            let mut set = BTreeSet::new();
            let mut has_null = false;
            while let Some(r) = op.next(&child)? {
                let v = conv(r.into_iter().next().unwrap_or(Value::Null), aff);
                if matches!(v, Value::Null) {
                    has_null = true;
                } else {
                    set.insert(OrdKey(vec![coll.fold_owned(v)]));
                }
            }
            keep(cx, sub, op);
            let s = Arc::new(InSet { set, has_null });
            remember(cx, sub, Cached::In(s.clone()));
            s
        }
    };
    if set.set.is_empty() && !set.has_null {
        return Ok(Some(false));
    }
    let x = coll.fold_owned(conv(x, aff));
    if matches!(x, Value::Null) {
        return Ok(None);
    }
    if set.set.contains(&OrdKey(vec![x])) {
        return Ok(Some(true));
    }
    Ok(if set.has_null { None } else { Some(false) })
}
