//! Change notification: how observers (the server's event stream) learn
//! that some job's snapshot changed without polling the Reservoir.
//!
//! The Reservoir is synchronous and knows nothing of async runtimes, so
//! the mechanism is a counter and a list of callbacks:
//! - every change of a job's snapshot — a logged transition, live progress
//!   of the worker, live bytes of an upload, a job forgotten — bumps
//!   [`Changes::version`] and then calls every listener with a [`Change`]:
//!   the new version, the job and its new snapshot (`None` when the job
//!   was forgotten), so a listener can pick out state transitions, which
//!   reading snapshots later could miss;
//! - every change is notified by the thread that made it while it holds
//!   the Reservoir's state lock, so a snapshot read under that lock
//!   together with the version (`Reservoir::job_and_version`) holds exactly
//!   the changes up to that version;
//! - listeners therefore run under the lock: a listener must be quick and
//!   must not call back into the Reservoir (a channel send is the intended
//!   use);
//! - an observer that only wants the latest values re-reads the snapshots
//!   it cares about after a notification, so a coalesced notification
//!   never loses the current state.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use parking_lot::Mutex;

use crate::job::{Job, JobId};

/// One change of one job, as listeners are told of it.
#[derive(Clone, Copy, Debug)]
pub struct Change<'a> {
    /// The change counter after this change.
    pub version: u64,
    pub id: JobId,
    /// The job's new snapshot (as stored; `updated_at` of the running job
    /// is made live only in snapshots read from the Reservoir), or `None`
    /// when the job was forgotten.
    pub job: Option<&'a Job>,
}

/// A callback told of every change.
type Listener = Arc<dyn Fn(&Change<'_>) + Send + Sync>;

/// The change counter and its listeners.
#[derive(Default)]
pub(crate) struct Changes {
    version: AtomicU64,
    listeners: Mutex<Vec<Listener>>,
}

impl std::fmt::Debug for Changes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Changes")
            .field("version", &self.version())
            .field("listeners", &self.listeners.lock().len())
            .finish()
    }
}

impl Changes {
    /// The number of changes so far (it only grows).
    pub(crate) fn version(&self) -> u64 {
        self.version.load(Ordering::SeqCst)
    }

    /// Records one change of job `id` (now `job`) and tells every listener.
    pub(crate) fn notify(&self, id: JobId, job: Option<&Job>) {
        let version = self.version.fetch_add(1, Ordering::SeqCst) + 1;
        // Clone the list so a listener never runs under this mutex.
        let listeners: Vec<Listener> = self.listeners.lock().clone();
        let change = Change { version, id, job };
        for listener in listeners {
            listener(&change);
        }
    }

    /// Adds a listener; it stays for the Reservoir's lifetime.
    pub(crate) fn subscribe(&self, listener: impl Fn(&Change<'_>) + Send + Sync + 'static) {
        self.listeners.lock().push(Arc::new(listener));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_change_reaches_every_listener_in_order() {
        let changes = Changes::default();
        let seen = Arc::new(Mutex::new(Vec::new()));
        for tag in ["a", "b"] {
            let seen = seen.clone();
            changes.subscribe(move |c| seen.lock().push((tag, c.version, c.id.0)));
        }
        assert_eq!(changes.version(), 0);
        changes.notify(JobId(7), None);
        changes.notify(JobId(8), None);
        assert_eq!(changes.version(), 2);
        assert_eq!(*seen.lock(), [("a", 1, 7), ("b", 1, 7), ("a", 2, 8), ("b", 2, 8)]);
    }

    #[test]
    fn a_listener_may_subscribe_another_without_deadlock() {
        let changes = Arc::new(Changes::default());
        let inner = changes.clone();
        changes.subscribe(move |_| inner.subscribe(|_| {}));
        changes.notify(JobId(1), None);
        assert_eq!(changes.listeners.lock().len(), 2);
    }
}
