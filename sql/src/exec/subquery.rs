//! Subqueries in expressions: scalar, EXISTS and IN, row values
//! (`(a, b) = (SELECT x, y …)`, `(a, b) IN (SELECT x, y …)`), with
//! uncorrelated results cached for the statement.

use super::*;

#[derive(Clone)]
pub(super) enum Cached {
    Scalar(Value),
    Exists(bool),
    In(Arc<InSet>),
    /// The first row (empty: none), for [`subquery_column`].
    Row(Arc<Vec<Value>>),
    InRow(Arc<InRowSet>),
}

/// The right-hand side of `(a, b) IN (SELECT x, y …)`: the rows without
/// a NULL as folded keys (after each column's affinity and collation),
/// and the rows with one kept aside (they can only make the answer NULL).
pub(super) struct InRowSet {
    pub(super) set: BTreeSet<OrdKey>,
    pub(super) with_null: Vec<Vec<Value>>,
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
    let set = in_set(sub, outer, cx, aff, coll)?;
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

/// The right-hand side of `x IN (subquery)` for this run: its values
/// after `aff`, folded by `coll` (NULLs noted apart); an uncorrelated
/// subquery's is built once per statement and cached, so a scan driven by
/// the set (`Access::RowidInSub`) and the IN term share it.
pub(super) fn in_set(
    sub: &Arc<SubPlan>,
    outer: &[Value],
    cx: &Context,
    aff: Option<Affinity>,
    coll: Collation,
) -> Result<Arc<InSet>> {
    if let Some(Cached::In(s)) = cached(cx, sub) {
        return Ok(s);
    }
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
    Ok(s)
}

/// Column `k` of the first row, or NULL (an element of a row value).
pub fn subquery_column(
    sub: &Arc<SubPlan>,
    outer: &[Value],
    cx: &Context,
    k: usize,
) -> Result<Value> {
    let row = match cached(cx, sub) {
        Some(Cached::Row(r)) => r,
        _ => {
            let child = cx.child(outer);
            let mut op = operator(cx, sub);
            let r = Arc::new(op.next(&child)?.unwrap_or_default());
            keep(cx, sub, op);
            remember(cx, sub, Cached::Row(r.clone()));
            r
        }
    };
    Ok(row.get(k).cloned().unwrap_or(Value::Null))
}

/// `(x1, x2, …) IN (subquery)`, SQLite's way: true if a row equals the
/// left on every column; else NULL if some row is equal or NULL on every
/// column (a NULL comparison somewhere, no false one); else false.
pub fn subquery_in_row(
    sub: &Arc<SubPlan>,
    outer: &[Value],
    cx: &Context,
    xs: Vec<Value>,
    affs: &[Option<Affinity>],
    colls: &[Collation],
) -> Result<Option<bool>> {
    let key = |r: Vec<Value>| -> Vec<Value> {
        r.into_iter()
            .enumerate()
            .map(|(i, v)| {
                let v = conv(v, affs.get(i).copied().flatten());
                colls.get(i).copied().unwrap_or(Collation::Binary).fold_owned(v)
            })
            .collect()
    };
    let set = match cached(cx, sub) {
        Some(Cached::InRow(s)) => s,
        _ => {
            let child = cx.child(outer);
            let mut op = operator(cx, sub);
            let mut set = BTreeSet::new();
            let mut with_null = Vec::new();
            while let Some(r) = op.next(&child)? {
                let k = key(r);
                if k.iter().any(Value::is_null) {
                    with_null.push(k);
                } else {
                    set.insert(OrdKey(k));
                }
            }
            keep(cx, sub, op);
            let s = Arc::new(InRowSet { set, with_null });
            remember(cx, sub, Cached::InRow(s.clone()));
            s
        }
    };
    let x = key(xs);
    let x_null = x.iter().any(Value::is_null);
    if !x_null && set.set.contains(&OrdKey(x.clone())) {
        return Ok(Some(true));
    }
    // A row is NULL-equal if no column compares false.
    let maybe = |r: &[Value]| {
        x.iter().zip(r).all(|(a, b)| {
            a.is_null() || b.is_null() || OrdKey(vec![a.clone()]) == OrdKey(vec![b.clone()])
        })
    };
    let unknown =
        set.with_null.iter().any(|r| maybe(r)) || (x_null && set.set.iter().any(|r| maybe(&r.0)));
    Ok(if unknown { None } else { Some(false) })
}
