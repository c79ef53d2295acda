//! Table-valued functions in FROM ([`TableFunc`]): the rows of one call
//! ([`TableFuncOp`]), and the join that calls a function once per row of
//! the relations its arguments read ([`LateralOp`]).

use super::*;
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
    func.open(&vals)
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

/// For each input row, the rows of a call whose arguments read it.
pub(super) struct LateralOp {
    pub(super) input: Box<dyn Operator>,
    pub(super) func: TableFunc,
    pub(super) args: Vec<Option<Expr>>,
    pub(super) offset: usize,
    pub(super) kind: JoinKind,
    pub(super) filter: Option<Expr>,
    pub(super) on: Option<Expr>,
    /// The input row being joined, its call, and whether it matched.
    pub(super) cur: Option<(Row, Box<dyn TableCursor>, bool)>,
}

impl Operator for LateralOp {
    fn next(&mut self, cx: &Context) -> Result<Option<Row>> {
        loop {
            if self.cur.is_none() {
                let Some(l) = self.input.next(cx)? else { return Ok(None) };
                let cursor = open(self.func, &self.args, &l, cx)?;
                self.cur = Some((l, cursor, false));
            }
            let (l, cursor, matched) = self.cur.as_mut().expect("set above");
            while let Some(local) = cursor.next_row()? {
                cx.store.check_interrupt()?;
                if let Some(f) = &self.filter
                    && !f.is_true(&local, cx)?
                {
                    continue;
                }
                let mut row = l.clone();
                row[self.offset..self.offset + local.len()].clone_from_slice(&local);
                if let Some(on) = &self.on
                    && !on.is_true(&row, cx)?
                {
                    continue;
                }
                *matched = true;
                return Ok(Some(row));
            }
            let (l, _, matched) = self.cur.take().expect("set above");
            if self.kind == JoinKind::Left && !matched {
                return Ok(Some(l));
            }
        }
    }

    fn rewind(&mut self) -> bool {
        if !self.input.rewind() {
            return false;
        }
        self.cur = None;
        true
    }
}
