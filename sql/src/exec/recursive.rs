//! Recursive common table expressions, evaluated with a queue as SQLite
//! does (<https://sqlite.org/lang_with.html>):
//!
//! 1. the initial select's rows go into the queue (UNION ALL without
//!    ORDER BY outputs them as they come, which is the same order);
//! 2. while the queue is not empty, a row is taken from its front and
//!    output, then the recursive select runs with that row as the working
//!    row (its only row of the CTE), and its rows go to the back.
//!
//! The step for a row runs when the next row is pulled, not when the row
//! is output: a consumer that stops pulling (an outer LIMIT) stops the
//! recursion, so an endless CTE under a LIMIT terminates. The queue holds
//! only pending rows (one for a counter). With an ORDER BY the queue is a
//! priority queue: the least row by the ORDER BY comes out first, ties in
//! the order they were queued (as SQLite's queue keeps a sequence number
//! after the keys). With UNION, a row that was ever
//! queued before is not queued again (compared as DISTINCT compares); that
//! set of seen rows grows with the output. LIMIT bounds the rows output;
//! OFFSET skips output rows, which still run their step (as in SQLite).
//! Every row checks the store's interrupt, so a statement timeout or a
//! cancellation stops an endless recursion.
//!
//! The recursive select reads the working row through
//! [`Context::working`]. Its operator tree is rewound for the next step
//! when every operator in it can rewind (a projection or filter over the
//! working row: a counter), else rebuilt for every step.

use std::cmp::Ordering;
use std::collections::{BTreeSet, BinaryHeap, VecDeque};
use std::sync::Arc;

use super::{Context, Operator, OrdKey, build, limit_offset};
use crate::expr::Expr;
use crate::planner::{Node, SortKey};
use crate::storage::Row;
use crate::value::{Collation, Value};
use crate::{Error, Result};

pub(super) struct RecursiveOp {
    id: usize,
    /// The initial select, until it has been drained (into the queue, or
    /// straight to the output for UNION ALL without ORDER BY).
    init: Option<Box<dyn Operator>>,
    step: Arc<Node>,
    /// The recursive select's operators after a step, rewound for the next
    /// one when they can be (else rebuilt).
    step_op: Option<Box<dyn Operator>>,
    queue: Queue,
    /// Rows ever queued, folded by the columns' collations (UNION only).
    seen: Option<(Vec<Collation>, BTreeSet<OrdKey>)>,
    /// The row output last, whose step has not run yet.
    pending: Option<Row>,
    limit: Option<Expr>,
    offset: Option<Expr>,
    /// (rows still to output, rows still to skip), once evaluated.
    state: Option<(Option<u64>, u64)>,
}

impl RecursiveOp {
    pub(super) fn new(
        id: usize,
        init: Box<dyn Operator>,
        step: Arc<Node>,
        distinct: Option<Vec<Collation>>,
        order: Vec<SortKey>,
        limit: Option<Expr>,
        offset: Option<Expr>,
    ) -> RecursiveOp {
        let queue = if order.is_empty() {
            Queue::Fifo(VecDeque::new())
        } else {
            Queue::Ordered { keys: Arc::new(order), heap: BinaryHeap::new(), seq: 0 }
        };
        RecursiveOp {
            id,
            init: Some(init),
            step,
            step_op: None,
            queue,
            seen: distinct.map(|c| (c, BTreeSet::new())),
            pending: None,
            limit,
            offset,
            state: None,
        }
    }

    fn enqueue(&mut self, row: Row, cx: &Context) -> Result<()> {
        if let Some((colls, seen)) = &mut self.seen
            && !seen.insert(super::set::folded(&row, row.len(), colls))
        {
            return Ok(());
        }
        match &mut self.queue {
            Queue::Fifo(q) => q.push_back(row),
            Queue::Ordered { keys, heap, seq } => {
                let key = keys.iter().map(|k| k.expr.eval(&row, cx)).collect::<Result<_>>()?;
                *seq += 1;
                heap.push(Queued { key, seq: *seq, row, keys: keys.clone() });
            }
        }
        Ok(())
    }

    /// Runs the recursive select with `row` as the working row.
    fn run_step(&mut self, row: Row, cx: &Context) -> Result<()> {
        let mut step_cx = Context {
            store: cx.store,
            params: cx.params,
            outer: cx.outer.clone(),
            cache: cx.cache,
            budget: cx.budget,
            working: cx.working.clone(),
        };
        step_cx.working.push((self.id, &row));
        let mut op = match self.step_op.take() {
            Some(mut op) => {
                if op.rewind() {
                    op
                } else {
                    build(&self.step)
                }
            }
            None => build(&self.step),
        };
        while let Some(r) = op.next(&step_cx)? {
            cx.store.check_interrupt()?;
            self.enqueue(r, cx)?;
        }
        self.step_op = Some(op);
        Ok(())
    }
}

impl Operator for RecursiveOp {
    fn next(&mut self, cx: &Context) -> Result<Option<Row>> {
        if self.state.is_none() {
            self.state = Some(limit_offset(&self.limit, &self.offset, cx)?);
        }
        // UNION ALL in FIFO order: the initial rows stream straight out
        // (they would all be queued ahead of any step's rows anyway), so a
        // large initial select is never held. UNION must see every initial
        // row before the first step's rows are compared with them, and a
        // priority queue must rank them all: those drain it first.
        let stream_init = self.seen.is_none() && matches!(self.queue, Queue::Fifo(_));
        if !stream_init && let Some(mut init) = self.init.take() {
            while let Some(r) = init.next(cx)? {
                cx.store.check_interrupt()?;
                self.enqueue(r, cx)?;
            }
        }
        loop {
            if self.state.is_some_and(|(limit, _)| limit == Some(0)) {
                // Done: nothing more is output, so no step runs.
                self.queue = Queue::Fifo(VecDeque::new());
                self.pending = None;
                return Ok(None);
            }
            if let Some(row) = self.pending.take() {
                self.run_step(row, cx)?;
            }
            cx.store.check_interrupt()?;
            let mut row = None;
            if let Some(init) = &mut self.init {
                row = init.next(cx)?;
                if row.is_none() {
                    self.init = None;
                }
            }
            if row.is_none() {
                row = match &mut self.queue {
                    Queue::Fifo(q) => q.pop_front(),
                    Queue::Ordered { heap, .. } => heap.pop().map(|q| q.row),
                };
            }
            let Some(row) = row else { return Ok(None) };
            let (limit, skip) = self.state.as_mut().expect("set above");
            if *skip > 0 {
                *skip -= 1;
                self.pending = Some(row);
                continue;
            }
            if let Some(l) = limit {
                *l -= 1;
            }
            self.pending = Some(row.clone());
            return Ok(Some(row));
        }
    }
}

/// Rows waiting to be output.
enum Queue {
    Fifo(VecDeque<Row>),
    /// `seq` numbers rows as they are queued.
    Ordered {
        keys: Arc<Vec<SortKey>>,
        heap: BinaryHeap<Queued>,
        seq: u64,
    },
}

/// A row in the priority queue, with its ORDER BY values.
struct Queued {
    key: Vec<Value>,
    seq: u64,
    row: Row,
    keys: Arc<Vec<SortKey>>,
}

impl Queued {
    /// Output order: ORDER BY, then first queued first.
    fn order(&self, o: &Self) -> Ordering {
        super::sort::cmp_keys(&self.keys, &self.key, &o.key).then(self.seq.cmp(&o.seq))
    }
}

impl PartialEq for Queued {
    fn eq(&self, o: &Self) -> bool {
        self.seq == o.seq
    }
}
impl Eq for Queued {}
impl PartialOrd for Queued {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Queued {
    /// Reversed: `BinaryHeap` pops the greatest, the output wants the least.
    fn cmp(&self, o: &Self) -> Ordering {
        self.order(o).reverse()
    }
}

/// Yields the working row of the recursive CTE `id`, once.
pub(super) struct WorkingRowOp {
    id: usize,
    done: bool,
}

impl WorkingRowOp {
    pub(super) fn new(id: usize) -> WorkingRowOp {
        WorkingRowOp { id, done: false }
    }
}

impl Operator for WorkingRowOp {
    fn rewind(&mut self) -> bool {
        self.done = false;
        true
    }

    fn next(&mut self, cx: &Context) -> Result<Option<Row>> {
        if self.done {
            return Ok(None);
        }
        self.done = true;
        match cx.working.iter().rev().find(|(id, _)| *id == self.id) {
            Some((_, row)) => Ok(Some(row.to_vec())),
            None => Err(Error::Internal(format!("no working row {}", self.id))),
        }
    }
}
