//! Shared by the storage tests: a seeded workload of write transactions
//! (allocations, updates, frees, nested savepoints, commits and rollbacks)
//! run against a `BTreeMap` model, and the check that a database holds
//! exactly the model of one commit.
//!
//! Every commit stores its sequence number in header user slot 0, so a
//! recovered database says which commit it claims to be, and the check
//! compares it with that commit's model page by page, plus free-list
//! accounting (every page is the header, live in the model, or free).

#![allow(dead_code)]

use std::collections::BTreeMap;

use asadb_pager::{PAGE_USABLE, PageBuf, PageId};
use asadb_txn::{Db, Error, PageRead, PageWrite, WriteTxn};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Live pages and the value each holds.
pub type Model = BTreeMap<u32, u64>;

/// Fills a page with bytes derived from its id and value.
pub fn fill(page: PageId, value: u64, buf: &mut PageBuf) {
    buf[..4].copy_from_slice(&page.0.to_le_bytes());
    buf[4..12].copy_from_slice(&value.to_le_bytes());
    for (i, b) in buf[12..PAGE_USABLE].iter_mut().enumerate() {
        *b = (value as u8) ^ (i as u8) ^ (page.0 as u8);
    }
}

/// Whether `buf` is exactly what `fill(page, value)` wrote.
pub fn holds(page: PageId, value: u64, buf: &PageBuf) -> bool {
    let mut want = [0u8; asadb_pager::PAGE_SIZE];
    fill(page, value, &mut want);
    want[..PAGE_USABLE] == buf[..PAGE_USABLE]
}

/// Shape of a workload.
#[derive(Clone, Debug)]
pub struct Workload {
    pub seed: u64,
    pub txns: usize,
    /// Every `big_every`-th transaction (0 = none) writes `big_pages` pages.
    pub big_every: usize,
    pub big_pages: usize,
    /// Operations in an ordinary transaction: `1..max_ops`.
    pub max_ops: usize,
    /// Share of transactions rolled back instead of committed.
    pub rollback_share: f64,
}

impl Default for Workload {
    fn default() -> Self {
        Workload {
            seed: 1,
            txns: 36,
            big_every: 9,
            big_pages: 60,
            max_ops: 10,
            rollback_share: 0.2,
        }
    }
}

/// What a run did.
#[derive(Debug)]
pub struct Outcome {
    /// `models[k]` is the state after commit `k` (0 = the empty database).
    pub models: Vec<Model>,
    /// A commit was attempted and failed: its effect may or may not be
    /// durable (it is commit number `models.len()`), never partially.
    pub in_flight: Option<Model>,
    /// The first error, which ended the run.
    pub error: Option<Error>,
}

impl Outcome {
    /// Number of commits that returned Ok.
    pub fn committed(&self) -> usize {
        self.models.len() - 1
    }

    /// The model of commit `k`, including the in-flight one.
    pub fn model(&self, k: usize) -> Option<&Model> {
        if k < self.models.len() {
            Some(&self.models[k])
        } else if k == self.models.len() {
            self.in_flight.as_ref()
        } else {
            None
        }
    }
}

fn pick(rng: &mut StdRng, model: &Model) -> Option<u32> {
    if model.is_empty() {
        return None;
    }
    let i = rng.random_range(0..model.len());
    model.keys().nth(i).copied()
}

/// Runs the body of one transaction: `ops` random operations.
fn body(
    txn: &WriteTxn,
    rng: &mut StdRng,
    model: &mut Model,
    ops: usize,
    next_value: &mut u64,
    big: bool,
) -> Result<(), Error> {
    let mut stack: Vec<(asadb_txn::Savepoint, Model)> = Vec::new();
    for _ in 0..ops {
        *next_value += 1;
        let v = *next_value;
        let op = if big { rng.random_range(0..6) } else { rng.random_range(0..11) };
        match op {
            0..=3 => {
                let (id, mut page) = txn.allocate()?;
                fill(id, v, &mut page);
                model.insert(id.0, v);
            }
            4 | 5 => {
                if let Some(p) = pick(rng, model) {
                    let mut page = txn.page_mut(PageId(p))?;
                    fill(PageId(p), v, &mut page);
                    model.insert(p, v);
                }
            }
            6 => {
                if let Some(p) = pick(rng, model) {
                    txn.free(PageId(p))?;
                    model.remove(&p);
                }
            }
            7 | 8 => stack.push((txn.savepoint(), model.clone())),
            _ => {
                if let Some((sp, saved)) = stack.last() {
                    if rng.random_bool(0.5) {
                        txn.rollback_to(*sp)?;
                        *model = saved.clone();
                    } else {
                        txn.release(*sp)?;
                        stack.pop();
                    }
                }
            }
        }
    }
    // Reads of the transaction's own writes.
    for _ in 0..3 {
        if let Some(p) = pick(rng, model) {
            let page = txn.page(PageId(p))?;
            assert!(holds(PageId(p), model[&p], &page), "txn reads its own write of page {p}");
        }
    }
    Ok(())
}

/// Runs the workload on a new database until it ends or something fails.
pub fn run(db: &Db, w: &Workload) -> Outcome {
    run_from(db, w, Outcome { models: vec![Model::new()], in_flight: None, error: None })
}

/// Runs the workload on a database holding the last commit of `out`.
pub fn run_from(db: &Db, w: &Workload, mut out: Outcome) -> Outcome {
    let mut rng = StdRng::seed_from_u64(w.seed);
    let mut next_value = w.seed << 32;
    for t in 0..w.txns {
        let mut model = out.models.last().expect("never empty").clone();
        let txn = match db.begin_write() {
            Ok(t) => t,
            Err(e) => {
                out.error = Some(e);
                return out;
            }
        };
        let big = w.big_every > 0 && t % w.big_every == w.big_every - 1;
        let ops = if big { w.big_pages } else { rng.random_range(1..w.max_ops) };
        if let Err(e) = body(&txn, &mut rng, &mut model, ops, &mut next_value, big) {
            out.error = Some(e);
            return out;
        }
        if rng.random_bool(w.rollback_share) {
            txn.rollback();
            continue;
        }
        let k = out.models.len() as u32;
        if let Err(e) = txn.set_user_slot(0, k) {
            out.error = Some(e);
            return out;
        }
        match txn.commit() {
            Ok(()) => out.models.push(model),
            Err(e) => {
                out.in_flight = Some(model);
                out.error = Some(e);
                return out;
            }
        }
    }
    out
}

/// Checks integrity and that `db` holds exactly one commit's model;
/// returns that commit's number.
pub fn verify(db: &Db, out: &Outcome) -> usize {
    let report = db.integrity_check().expect("integrity check runs");
    assert!(report.is_ok(), "integrity problems: {:?}", report.problems);
    let r = db.begin_read().expect("begin_read");
    let h = r.header();
    let k = h.user[0] as usize;
    let model = out.model(k).unwrap_or_else(|| {
        panic!("database claims commit {k}, only {} committed", out.committed())
    });
    for (&p, &v) in model {
        let page = r.page(PageId(p)).expect("live page reads");
        assert!(holds(PageId(p), v, &page), "commit {k}: page {p} does not hold value {v}");
    }
    assert_eq!(
        model.len() + report.free_pages.len() + 1,
        h.page_count as usize,
        "commit {k}: live + free + header != page count"
    );
    k
}
