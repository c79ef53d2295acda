//! Change notification: how observers (the server's event stream) learn
//! that some job's snapshot changed without polling the Reservoir.
//!
//! The Reservoir is synchronous and knows nothing of async runtimes, so
//! the mechanism is a counter and a list of callbacks:
//! - every change of a job's snapshot — a logged transition, live progress
//!   of the worker, live bytes of an upload, a job forgotten — bumps
//!   [`Changes::version`] and then calls every listener with the new
//!   version;
//! - listeners run on the thread that made the change, usually while it
//!   holds the Reservoir's lock: a listener must be quick and must not call
//!   back into the Reservoir (a `tokio::sync::watch::Sender::send_replace`
//!   is the intended use);
//! - a notification says only "something changed, at least once since the
//!   version you saw": an observer re-reads the snapshots it cares about,
//!   so a coalesced or missed notification never loses a state.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use parking_lot::Mutex;

/// A callback told of every change, with the new version.
type Listener = Arc<dyn Fn(u64) + Send + Sync>;

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

    /// Records one change and tells every listener.
    pub(crate) fn notify(&self) {
        let version = self.version.fetch_add(1, Ordering::SeqCst) + 1;
        // Clone the list so a listener never runs under this mutex.
        let listeners: Vec<Listener> = self.listeners.lock().clone();
        for listener in listeners {
            listener(version);
        }
    }

    /// Adds a listener; it stays for the Reservoir's lifetime.
    pub(crate) fn subscribe(&self, listener: impl Fn(u64) + Send + Sync + 'static) {
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
            changes.subscribe(move |v| seen.lock().push((tag, v)));
        }
        assert_eq!(changes.version(), 0);
        changes.notify();
        changes.notify();
        assert_eq!(changes.version(), 2);
        assert_eq!(*seen.lock(), [("a", 1), ("b", 1), ("a", 2), ("b", 2)]);
    }

    #[test]
    fn a_listener_may_subscribe_another_without_deadlock() {
        let changes = Arc::new(Changes::default());
        let inner = changes.clone();
        changes.subscribe(move |_| inner.subscribe(|_| {}));
        changes.notify();
        assert_eq!(changes.listeners.lock().len(), 2);
    }
}
