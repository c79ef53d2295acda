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

/// The first column of the first row, or NULL.
pub fn subquery_scalar(sub: &Arc<SubPlan>, outer: &[Value], cx: &Context) -> Result<Value> {
    if let Some(Cached::Scalar(v)) = cached(cx, sub) {
        return Ok(v);
    }
    let child = cx.child(outer);
    let mut op = build(&sub.node);
    let v = op.next(&child)?.and_then(|r| r.into_iter().next()).unwrap_or(Value::Null);
    remember(cx, sub, Cached::Scalar(v.clone()));
    Ok(v)
}

pub fn subquery_exists(sub: &Arc<SubPlan>, outer: &[Value], cx: &Context) -> Result<bool> {
    if let Some(Cached::Exists(b)) = cached(cx, sub) {
        return Ok(b);
    }
    let child = cx.child(outer);
    let mut op = build(&sub.node);
    let b = op.next(&child)?.is_some();
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
) -> Result<Option<bool>> {
    let set = match cached(cx, sub) {
        Some(Cached::In(s)) => s,
        _ => {
            let child = cx.child(outer);
            let mut op = build(&sub.node);
            let mut set = BTreeSet::new();
            let mut has_null = false;
            while let Some(r) = op.next(&child)? {
                let v = conv(r.into_iter().next().unwrap_or(Value::Null), aff);
                if matches!(v, Value::Null) {
                    has_null = true;
                } else {
                    set.insert(OrdKey(vec![v]));
                }
            }
            let s = Arc::new(InSet { set, has_null });
            remember(cx, sub, Cached::In(s.clone()));
            s
        }
    };
    if set.set.is_empty() && !set.has_null {
        return Ok(Some(false));
    }
    let x = conv(x, aff);
    if matches!(x, Value::Null) {
        return Ok(None);
    }
    if set.set.contains(&OrdKey(vec![x])) {
        return Ok(Some(true));
    }
    Ok(if set.has_null { None } else { Some(false) })
}
