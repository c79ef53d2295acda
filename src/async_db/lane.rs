//! Transaction lanes: one thread per open [`AsyncTransaction`].
//!
//! A lane owns its transaction's session and runs the messages it is sent
//! strictly in order. `Close` (sent when the handle is dropped, after a
//! commit or rollback, after a call timed out, or at shutdown) makes the
//! lane roll back whatever is still open and end; messages queued behind
//! it are dropped, so their callers see the lane as gone.
//!
//! Invariants: a lane that ends never leaves its transaction open (the
//! write lock is released on every path); `held` counts exactly the lanes
//! whose session is inside a transaction.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::time::Instant;

use asadb_sql::session::{Params, Session};
use parking_lot::Mutex;
use tokio::sync::{OwnedSemaphorePermit, oneshot};

use super::{AsyncDatabase, Inner, Job, QueryPage, run_query, wait_reply};
use crate::db::{Database, affected};
use crate::error::{Error, Result};
use crate::value::IntoParams;

pub(crate) enum LaneMsg {
    Run(Job),
    Close,
}

/// The shared end of a lane: its queue and its abort flag.
pub(crate) struct LaneLink {
    tx: mpsc::Sender<LaneMsg>,
    /// Stops the lane's running statement when the transaction is
    /// aborted (a call timed out, the handle was dropped, shutdown).
    interrupt: asadb_sql::storage::Interrupt,
    aborted: Mutex<Option<&'static str>>,
    /// The lane's session is inside a transaction (counted in `held`).
    holding: Mutex<bool>,
}

impl LaneLink {
    /// Brings the `held` gauge in line with the lane's session. Called
    /// before a reply is sent, so a caller that saw `begin` return also
    /// sees the gauge count it.
    fn set_held(&self, inner: &Inner, now: bool) {
        let mut holding = self.holding.lock();
        if *holding != now {
            if now {
                inner.held.fetch_add(1, Ordering::SeqCst);
            } else {
                inner.held.fetch_sub(1, Ordering::SeqCst);
            }
            *holding = now;
        }
    }

    fn aborted(&self) -> Option<&'static str> {
        *self.aborted.lock()
    }

    /// Marks the transaction aborted and tells the lane to roll back after
    /// its running statement.
    fn abort(&self, reason: &'static str) {
        self.aborted.lock().get_or_insert(reason);
        self.interrupt.set();
        let _ = self.tx.send(LaneMsg::Close);
    }
}

/// An async write transaction. Its statements run in order on its own
/// lane. [`commit`](Self::commit) or [`rollback`](Self::rollback) end it;
/// dropping the handle (or a call timing out) rolls it back on the lane.
pub struct AsyncTransaction {
    db: AsyncDatabase,
    link: Arc<LaneLink>,
}

pub(super) async fn begin(db: &AsyncDatabase) -> Result<AsyncTransaction> {
    // Held until the lane is registered, so `shutdown` either sees the
    // lane or keeps waiting for this call.
    let _token = db.inner.enter()?;
    let permit =
        match tokio::time::timeout(db.timeout, db.inner.lane_permits.clone().acquire_owned()).await
        {
            Ok(Ok(p)) => p,
            Ok(Err(_)) => return Err(Error::Closed),
            Err(_) => {
                return Err(Error::Timeout {
                    after: db.timeout,
                    what: "no transaction lane became free",
                });
            }
        };
    let inner = db.inner.clone();
    let id = inner.next_lane.fetch_add(1, Ordering::SeqCst);
    let (tx, rx) = mpsc::channel();
    let link = Arc::new(LaneLink {
        tx,
        interrupt: asadb_sql::storage::Interrupt::new(),
        aborted: Mutex::new(None),
        holding: Mutex::new(false),
    });
    inner.live_lanes.fetch_add(1, Ordering::SeqCst);
    inner.lanes.lock().insert(id, link.clone());
    let lane_inner = inner.clone();
    let lane_link = link.clone();
    let spawned = std::thread::Builder::new()
        .name(format!("asadb-lane-{id}"))
        .spawn(move || lane_thread(lane_inner, lane_link, id, rx, permit));
    if let Err(e) = spawned {
        inner.lanes.lock().remove(&id);
        lane_ended(&inner);
        return Err(e.into());
    }
    let t = AsyncTransaction { db: db.clone(), link };
    t.call("BEGIN", |session, db| db.begin_on(session)).await?;
    Ok(t)
}

/// Aborts every registered lane (shutdown).
pub(super) fn abort_all(inner: &Inner, reason: &'static str) {
    for link in inner.lanes.lock().values() {
        link.abort(reason);
    }
}

fn lane_ended(inner: &Inner) {
    if inner.live_lanes.fetch_sub(1, Ordering::SeqCst) == 1 {
        inner.quiet.notify_waiters();
    }
}

fn lane_thread(
    inner: Arc<Inner>,
    link: Arc<LaneLink>,
    id: u64,
    rx: mpsc::Receiver<LaneMsg>,
    permit: OwnedSemaphorePermit,
) {
    if let Ok(mut session) = inner.db.session() {
        let mut broken = false;
        while let Ok(LaneMsg::Run(job)) = rx.recv() {
            // A panic (an engine bug) ends the transaction: the session
            // is dropped unused, which rolls it back, and the lane closes.
            let run = std::panic::AssertUnwindSafe(|| job(&mut session));
            if std::panic::catch_unwind(run).is_err() {
                link.abort("a statement panicked");
                broken = true;
                break;
            }
        }
        if !broken && session.in_transaction() {
            let _ = session.execute("ROLLBACK", &Params::None);
        }
    }
    link.set_held(&inner, false);
    inner.lanes.lock().remove(&id);
    // Jobs still queued are dropped unrun: their callers get `Closed` (or
    // `Aborted`) and their in-flight counts go.
    drop(rx);
    drop(permit);
    drop(link);
    lane_ended(&inner);
}

impl AsyncTransaction {
    /// Runs every statement of `sql` in the transaction; returns the rows
    /// affected by the last one.
    pub async fn execute(&self, sql: &str, params: impl IntoParams) -> Result<u64> {
        let params = params.into_params();
        let text = sql.to_string();
        self.call(sql, move |session, _| Ok(affected(&session.execute(&text, &params)?))).await
    }

    /// Runs a query in the transaction (seeing its changes); all rows.
    pub async fn query(&self, sql: &str, params: impl IntoParams) -> Result<QueryPage> {
        let params = params.into_params();
        let text = sql.to_string();
        let limit_time = self.db.inner.opts.statement_timeout;
        self.call(sql, move |session, _| {
            run_query(session, &text, &params, 0, usize::MAX, limit_time)
        })
        .await
    }

    /// Commits. On a timeout the outcome is unknown (the COMMIT may still
    /// run); the lane ends either way.
    pub async fn commit(self) -> Result<()> {
        self.call("COMMIT", |session, _| {
            session.execute("COMMIT", &Params::None)?;
            Ok(())
        })
        .await
    }

    /// Rolls back.
    pub async fn rollback(self) -> Result<()> {
        self.call("ROLLBACK", |session, _| {
            session.execute("ROLLBACK", &Params::None)?;
            Ok(())
        })
        .await
    }

    async fn call<T: Send + 'static>(
        &self,
        sql: &str,
        work: impl FnOnce(&mut Session, &Database) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        if let Some(reason) = self.link.aborted() {
            return Err(Error::Aborted(reason));
        }
        let token = self.db.inner.enter()?;
        let (tx, rx) = oneshot::channel();
        let link = self.link.clone();
        let db = self.db.inner.db.clone();
        let excerpt = sql.to_string();
        let abandon = self.link.interrupt.clone();
        let limit = self.db.inner.opts.statement_timeout;
        let job: Job = Box::new(move |session| {
            let r = match link.aborted() {
                Some(reason) => Ok(Err(Error::Aborted(reason))),
                None => {
                    let started = Instant::now();
                    let r = super::timed(session, limit, &abandon, |s| work(s, &db));
                    token.0.record(&excerpt, started.elapsed());
                    r
                }
            };
            link.set_held(&token.0, session.in_transaction());
            // The work is done: off the gauge before the caller hears.
            drop(token);
            match r {
                Ok(r) => {
                    let _ = tx.send(r);
                }
                Err(panic) => {
                    let _ = tx.send(Err(Error::Internal(super::panic_message(&*panic))));
                    // The lane's session cannot be trusted: end the lane.
                    std::panic::resume_unwind(panic);
                }
            }
        });
        if self.link.tx.send(LaneMsg::Run(job)).is_err() {
            return Err(self.link.aborted().map_or(Error::Closed, Error::Aborted));
        }
        match wait_reply(rx, self.db.timeout).await {
            Err(e @ Error::Timeout { .. }) => {
                self.link.abort("an earlier call on this transaction timed out");
                Err(e)
            }
            Err(Error::WorkerLost(w)) => {
                Err(self.link.aborted().map_or(Error::WorkerLost(w), Error::Aborted))
            }
            r => r,
        }
    }
}

impl Drop for AsyncTransaction {
    fn drop(&mut self) {
        // After commit/rollback this just ends the lane; otherwise the lane
        // rolls back first.
        let _ = self.link.tx.send(LaneMsg::Close);
    }
}
