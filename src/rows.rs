//! Streaming query results.
//!
//! The engine's `Rows<'s>` borrows the session that made it, so a result
//! cannot simply be handed out of [`Database::query`](crate::Database::query)
//! together with a session it borrows from (that would be a self-referential
//! struct). Inside a [`Transaction`](crate::Transaction) that borrow is
//! natural: the facade's [`Rows`] borrows the transaction and pulls from the
//! engine directly. For autocommit queries, the query runs on a *cursor
//! thread* that owns its session: it streams rows back through a bounded
//! channel in batches that start at one row and double up to
//! [`MAX_BATCH`], so the first row arrives as soon as the engine has it and
//! at most two batches ever wait in memory. Dropping the [`Rows`] closes the
//! channel; the cursor thread stops pulling, ends its read transaction and
//! goes back to an idle list for the next query (at most
//! `Options::cursor_threads` stay idle).
//!
//! Invariant: a cursor thread never carries a transaction from one query
//! into the next (it rolls back whatever its job left open).

use std::sync::mpsc::{self, Receiver, Sender, SyncSender};
use std::sync::{Arc, Weak};

use asadb_sql::Value;
use asadb_sql::counters::Counters;
use asadb_sql::session::{Engine, Params, Session};
use parking_lot::Mutex;

use crate::error::{Error, Result};
use crate::value::Row;

/// Largest batch a cursor thread sends at once.
pub const MAX_BATCH: usize = 256;

/// A streaming iterator over a query's rows. Rows are produced as they are
/// pulled; an error ends the iteration.
pub struct Rows<'a> {
    columns: Arc<[String]>,
    source: Source<'a>,
}

enum Source<'a> {
    Direct(Box<asadb_sql::session::Rows<'a>>),
    Cursor { rx: Receiver<Msg>, batch: std::vec::IntoIter<Vec<Value>> },
    Done,
}

enum Msg {
    /// The column names and the first row (none when the result is empty
    /// or its first row failed).
    Columns(Vec<String>, Vec<Vec<Value>>),
    Batch(Vec<Vec<Value>>),
    Failed(Error),
    /// The result is complete. A channel that closes without it means the
    /// cursor thread died (a panic): the stream must not look complete.
    End,
}

impl<'a> Rows<'a> {
    pub(crate) fn direct(rows: asadb_sql::session::Rows<'a>) -> Rows<'a> {
        Rows { columns: rows.columns().to_vec().into(), source: Source::Direct(Box::new(rows)) }
    }

    /// The result's column names.
    pub fn columns(&self) -> &[String] {
        &self.columns
    }

    /// The column names, shared with every [`Row`] of this result.
    pub fn column_names(&self) -> Arc<[String]> {
        self.columns.clone()
    }
}

impl Iterator for Rows<'_> {
    type Item = Result<Row>;

    fn next(&mut self) -> Option<Result<Row>> {
        let values = match &mut self.source {
            Source::Done => return None,
            Source::Direct(rows) => rows.next().map(|r| r.map_err(Error::from)),
            Source::Cursor { rx, batch } => loop {
                if let Some(v) = batch.next() {
                    break Some(Ok(v));
                }
                match rx.recv() {
                    Ok(Msg::Batch(b)) => *batch = b.into_iter(),
                    Ok(Msg::Failed(e)) => break Some(Err(e)),
                    Ok(Msg::End) => break None,
                    Ok(Msg::Columns(..)) | Err(_) => {
                        break Some(Err(Error::WorkerLost("the cursor thread of a query")));
                    }
                }
            },
        };
        match values {
            Some(Ok(v)) => Some(Ok(Row::new(self.columns.clone(), v))),
            Some(Err(e)) => {
                self.source = Source::Done;
                Some(Err(e))
            }
            None => {
                self.source = Source::Done;
                None
            }
        }
    }
}

type Job = Box<dyn FnOnce(&mut Session) + Send>;

/// A job plus the sender of the thread it was given to, so the thread can
/// put itself back on the idle list. While a thread is idle, its only
/// sender lives in that list: dropping the pool disconnects and ends it.
struct Assignment {
    job: Job,
    me: Sender<Assignment>,
}

/// Threads that run autocommit queries, each with its own session.
pub(crate) struct CursorPool {
    engine: Engine,
    /// The database handle's change counters: each query starts from them
    /// and gives back what it changed (`INSERT … RETURNING`).
    counters: Arc<Mutex<Counters>>,
    idle: Mutex<Vec<Sender<Assignment>>>,
    max_idle: usize,
}

impl CursorPool {
    pub(crate) fn new(
        engine: Engine,
        max_idle: usize,
        counters: Arc<Mutex<Counters>>,
    ) -> Arc<CursorPool> {
        Arc::new(CursorPool { engine, counters, idle: Mutex::new(Vec::new()), max_idle })
    }

    /// Ends idle threads (busy ones end when their query is done).
    pub(crate) fn clear(&self) {
        self.idle.lock().clear();
    }

    /// Starts `sql` on a cursor thread and waits for its column names (or
    /// its error).
    pub(crate) fn query(self: &Arc<Self>, sql: String, params: Params) -> Result<Rows<'static>> {
        let (tx, rx) = mpsc::sync_channel(1);
        let counters = Arc::clone(&self.counters);
        self.run(Box::new(move |session| {
            let seed = *counters.lock();
            session.set_counters(seed);
            produce(session, &sql, &params, tx, |now| {
                crate::db::keep_counters(&counters, seed, now)
            });
        }))?;
        match rx.recv() {
            Ok(Msg::Columns(c, first)) => Ok(Rows {
                columns: c.into(),
                source: Source::Cursor { rx, batch: first.into_iter() },
            }),
            Ok(Msg::Failed(e)) => Err(e),
            Ok(Msg::Batch(_) | Msg::End) | Err(_) => {
                Err(Error::WorkerLost("the cursor thread of a query"))
            }
        }
    }

    fn run(self: &Arc<Self>, job: Job) -> Result<()> {
        let mut job = job;
        while let Some(me) = self.idle.lock().pop() {
            match me.send(Assignment { job, me: me.clone() }) {
                Ok(()) => return Ok(()),
                // That thread is gone; take the job back and try another.
                Err(mpsc::SendError(a)) => job = a.job,
            }
        }
        let (me, rx) = mpsc::channel::<Assignment>();
        let pool = Arc::downgrade(self);
        let engine = self.engine.clone();
        std::thread::Builder::new()
            .name("asadb-cursor".into())
            .spawn(move || cursor_thread(engine, pool, rx, Assignment { job, me }))?;
        Ok(())
    }
}

fn cursor_thread(
    engine: Engine,
    pool: Weak<CursorPool>,
    rx: Receiver<Assignment>,
    first: Assignment,
) {
    let mut session = engine.session();
    let mut next = first;
    loop {
        let Assignment { job, me } = next;
        job(&mut session);
        if session.in_transaction() {
            let _ = session.execute("ROLLBACK", &Params::None);
        }
        let Some(pool) = pool.upgrade() else { return };
        {
            let mut idle = pool.idle.lock();
            if idle.len() >= pool.max_idle {
                return;
            }
            idle.push(me);
        }
        drop(pool);
        match rx.recv() {
            Ok(a) => next = a,
            Err(_) => return,
        }
    }
}

/// Runs one query and feeds its rows to `tx` until the end, an error, or
/// the consumer hanging up.
/// Runs `sql` on `session` and sends its rows; `keep` gets the counters
/// the statement left before anything is sent (a caller that has read the
/// rows sees them).
fn produce(
    session: &mut Session,
    sql: &str,
    params: &Params,
    tx: SyncSender<Msg>,
    keep: impl FnOnce(Counters),
) {
    let mut rows = match session.query(sql, params) {
        Ok(r) => {
            keep(r.counters());
            r
        }
        Err(e) => {
            let _ = tx.send(Msg::Failed(e.into()));
            return;
        }
    };
    // The column names travel with the first row (or the end, or the
    // first error): one hand-over instead of two for short results.
    let columns = rows.columns().to_vec();
    let first = rows.next();
    let (batch, failed) = match first {
        Some(Ok(r)) => (vec![r], None),
        Some(Err(e)) => (Vec::new(), Some(e)),
        None => (Vec::new(), None),
    };
    // No first row: the result is empty or failed; either way it ended.
    let ended = batch.is_empty();
    if tx.send(Msg::Columns(columns, batch)).is_err() {
        return;
    }
    if let Some(e) = failed {
        let _ = tx.send(Msg::Failed(e.into()));
        return;
    }
    if ended {
        let _ = tx.send(Msg::End);
        return;
    }
    let mut size = 2;
    let mut batch = Vec::with_capacity(size);
    loop {
        match rows.next() {
            Some(Ok(r)) => {
                batch.push(r);
                if batch.len() < size {
                    continue;
                }
                size = (size * 2).min(MAX_BATCH);
                let full = std::mem::replace(&mut batch, Vec::with_capacity(size));
                if tx.send(Msg::Batch(full)).is_err() {
                    return;
                }
            }
            Some(Err(e)) => {
                if !batch.is_empty() && tx.send(Msg::Batch(std::mem::take(&mut batch))).is_err() {
                    return;
                }
                let _ = tx.send(Msg::Failed(e.into()));
                return;
            }
            None => {
                if !batch.is_empty() && tx.send(Msg::Batch(batch)).is_err() {
                    return;
                }
                let _ = tx.send(Msg::End);
                return;
            }
        }
    }
}
