//! Table-valued functions in FROM ([`TableFunc`]): the rows of one call
//! ([`TableFuncOp`]), and the join that calls a function once per row of
//! the relations its arguments read ([`LateralOp`]).

use super::*;
use crate::func::table::{PragmaFn, RowsCursor};
use crate::func::{TableCursor, TableFunc};

/// Evaluates the arguments of a call on `row` and opens it.
fn open(
    func: TableFunc,
    args: &[Option<Expr>],
    row: &[Value],
    cx: &Context,
) -> Result<Box<dyn TableCursor>> {
    let mut vals = Vec::with_capacity(args.len());
    for a in args {
        vals.push(match a {
            Some(e) => Some(e.eval(row, cx)?),
            None => None,
        });
    }
    match func {
        TableFunc::Pragma(p) => pragma_cursor(p, &vals, cx),
        _ => func.open(&vals),
    }
}

/// A pragma's answer for one call, with the hidden `arg` and `schema`
/// columns (SQLite: the values given). The schema is read from the store
/// as the statement sees it.
fn pragma_cursor(
    p: PragmaFn,
    vals: &[Option<Value>],
    cx: &Context,
) -> Result<Box<dyn TableCursor>> {
    let arg = vals.first().cloned().flatten();
    let schema_arg = vals.get(1).cloned().flatten();
    let Some(a) = arg.clone() else { return Ok(Box::new(RowsCursor::new(Vec::new()))) };
    let schema = crate::catalog::Schema::load(cx.store)?;
    let mut given = vec![a];
    given.extend(schema_arg.clone());
    let answer = match crate::exec::pragma::table_function(cx.store, &schema, p.name(), &given) {
        Some(r) => r?,
        None => return Err(Error::Internal(format!("{}() is no pragma", p.name()))),
    };
    let width = p.columns().len() - 2;
    let rows = answer
        .rows
        .into_iter()
        .map(|mut r| {
            r.resize(width, Value::Null);
            r.push(arg.clone().unwrap_or(Value::Null));
            r.push(schema_arg.clone().unwrap_or(Value::Null));
            r
        })
        .collect();
    Ok(Box::new(RowsCursor::new(rows)))
}

/// The rows of one call; its arguments read no FROM item.
pub(super) struct TableFuncOp {
    pub(super) func: TableFunc,
    pub(super) args: Vec<Option<Expr>>,
    pub(super) cursor: Option<Box<dyn TableCursor>>,
}

impl Operator for TableFuncOp {
    fn next(&mut self, cx: &Context) -> Result<Option<Row>> {
        if self.cursor.is_none() {
            self.cursor = Some(open(self.func, &self.args, &[], cx)?);
        }
        cx.store.check_interrupt()?;
        self.cursor.as_mut().expect("opened").next_row()
    }

    fn rewind(&mut self) -> bool {
        self.cursor = None;
        true
    }
}

/// For each input row, the rows of a call (made again per row when its
/// arguments read the row; made once, on the first row, when `once`).
pub(super) struct LateralOp {
    pub(super) input: Box<dyn Operator>,
    pub(super) func: TableFunc,
    pub(super) args: Vec<Option<Expr>>,
    pub(super) offset: usize,
    pub(super) kind: JoinKind,
    pub(super) filter: Option<Expr>,
    pub(super) on: Option<Expr>,
    pub(super) once: bool,
    /// With `once`: the call's rows that pass `filter`, after the first row.
    pub(super) kept: Option<Arc<Vec<Row>>>,
    /// The input row being joined, its call, and whether it matched.
    pub(super) cur: Option<(Row, Rows, bool)>,
    /// RIGHT/FULL: the width of the joined row, the identities of the
    /// function rows some input row matched, and, once the input is
    /// exhausted, the call that yields the unmatched ones.
    pub(super) width: usize,
    pub(super) matched: std::collections::HashSet<String>,
    pub(super) tail: Option<Box<dyn TableCursor>>,
}

/// The identity SQLite's RIGHT JOIN remembers a matched row of a
/// table-valued function by: its rowid, which is the `id` column for the
/// JSON functions; the whole row for the pragma ones.
fn identity(func: TableFunc, local: &[Value]) -> String {
    let id = func.columns().iter().position(|c| *c == "id");
    match (func, id) {
        (TableFunc::Pragma(_), _) | (_, None) => format!("{local:?}"),
        (_, Some(i)) => format!("{:?}", local.get(i)),
    }
}

/// The rows of the call for one input row.
pub(super) enum Rows {
    Call(Box<dyn TableCursor>),
    Kept(Arc<Vec<Row>>, usize),
}

impl LateralOp {
    /// The next local row for the current input row that passes `filter`.
    fn next_local(&mut self, cx: &Context) -> Result<Option<Row>> {
        let (_, rows, _) = self.cur.as_mut().expect("set by next");
        match rows {
            Rows::Kept(v, i) => {
                let r = v.get(*i).cloned();
                *i += 1;
                Ok(r)
            }
            Rows::Call(cursor) => {
                while let Some(local) = cursor.next_row()? {
                    cx.store.check_interrupt()?;
                    if let Some(f) = &self.filter
                        && !f.is_true(&local, cx)?
                    {
                        continue;
                    }
                    return Ok(Some(local));
                }
                Ok(None)
            }
        }
    }

    /// The call's rows for input row `l`.
    fn rows_for(&mut self, l: &[Value], cx: &Context) -> Result<Rows> {
        if !self.once {
            return Ok(Rows::Call(open(self.func, &self.args, l, cx)?));
        }
        if self.kept.is_none() {
            let mut cursor = open(self.func, &self.args, l, cx)?;
            let mut v = Vec::new();
            while let Some(local) = cursor.next_row()? {
                cx.store.check_interrupt()?;
                if let Some(f) = &self.filter
                    && !f.is_true(&local, cx)?
                {
                    continue;
                }
                v.push(local);
            }
            self.kept = Some(Arc::new(v));
        }
        Ok(Rows::Kept(self.kept.clone().expect("kept above"), 0))
    }
}

impl LateralOp {
    /// RIGHT/FULL, after the last input row: as SQLite's right-join loop,
    /// the function called once more with every joined-in column NULL
    /// (its arguments read them), each of its rows that no input row
    /// matched out with NULLs on the left; the ON is not tested there.
    fn unmatched(&mut self, cx: &Context) -> Result<Option<Row>> {
        let nulls = vec![Value::Null; self.width];
        if self.tail.is_none() {
            self.tail = Some(open(self.func, &self.args, &nulls, cx)?);
        }
        let cursor = self.tail.as_mut().expect("opened above");
        while let Some(local) = cursor.next_row()? {
            cx.store.check_interrupt()?;
            if let Some(f) = &self.filter
                && !f.is_true(&local, cx)?
            {
                continue;
            }
            if self.matched.contains(&identity(self.func, &local)) {
                continue;
            }
            let mut row = nulls.clone();
            row[self.offset..self.offset + local.len()].clone_from_slice(&local);
            return Ok(Some(row));
        }
        Ok(None)
    }
}

impl Operator for LateralOp {
    fn next(&mut self, cx: &Context) -> Result<Option<Row>> {
        let keeps_right = self.kind.keeps_right();
        loop {
            if self.tail.is_some() {
                return self.unmatched(cx);
            }
            if self.cur.is_none() {
                let Some(l) = self.input.next(cx)? else {
                    return if keeps_right { self.unmatched(cx) } else { Ok(None) };
                };
                let rows = self.rows_for(&l, cx)?;
                self.cur = Some((l, rows, false));
            }
            while let Some(local) = self.next_local(cx)? {
                let (l, _, matched) = self.cur.as_mut().expect("set above");
                let mut row = l.clone();
                row[self.offset..self.offset + local.len()].clone_from_slice(&local);
                if let Some(on) = &self.on
                    && !on.is_true(&row, cx)?
                {
                    continue;
                }
                *matched = true;
                if keeps_right {
                    self.matched.insert(identity(self.func, &local));
                }
                return Ok(Some(row));
            }
            let (l, _, matched) = self.cur.take().expect("set above");
            if matches!(self.kind, JoinKind::Left | JoinKind::Full) && !matched {
                return Ok(Some(l));
            }
        }
    }

    fn rewind(&mut self) -> bool {
        if !self.input.rewind() {
            return false;
        }
        self.cur = None;
        self.kept = None;
        self.matched.clear();
        self.tail = None;
        true
    }
}

/// Its input if a condition that reads no row holds, tested once per run
/// before the input is read.
pub(super) struct GuardOp {
    pub(super) input: Box<dyn Operator>,
    pub(super) pred: Expr,
    /// The condition's answer, once tested.
    pub(super) open: Option<bool>,
}

impl Operator for GuardOp {
    fn next(&mut self, cx: &Context) -> Result<Option<Row>> {
        if self.open.is_none() {
            self.open = Some(self.pred.is_true(&[], cx)?);
        }
        if self.open == Some(true) { self.input.next(cx) } else { Ok(None) }
    }

    fn rewind(&mut self) -> bool {
        if !self.input.rewind() {
            return false;
        }
        self.open = None;
        true
    }
}
