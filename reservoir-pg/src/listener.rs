//! The listener: one dedicated, non-pooled connection per process that
//! `LISTEN`s on the schema's channel and turns notifications into
//! [`Event`]s.
//!
//! Why not a pooled connection: a pooled client has no way to receive
//! notifications (the pool's driver task drops them), and a `LISTEN` left
//! on a pooled connection would follow it to its next user. The listener's
//! connection is outside the pool's size.
//!
//! Reconnect: when the connection ends (the server restarted, an admin ran
//! `pg_terminate_backend`, the network broke), the listener reconnects with
//! exponential backoff from 50 ms to 2 s and `LISTEN`s again. A commit
//! during the gap is never re-delivered, so after every (re)connect it
//! sends one [`Event::Reconnected`] — a synthetic wake that makes every
//! waiter re-read what it waits for.
//!
//! Payloads are `"<job id> <state>"`; a `cancelling` one raises the cancel
//! flag of this process's upload or running job at once.

use std::sync::Arc;
use std::time::Duration;

use asadb_reservoir::JobId;

use crate::engine::{Event, Shared};
use crate::jobs;

/// The first reconnect delay.
pub const BACKOFF_MIN: Duration = Duration::from_millis(50);
/// The longest reconnect delay.
pub const BACKOFF_MAX: Duration = Duration::from_secs(2);

/// The next delay after `d`: doubled, at most [`BACKOFF_MAX`].
pub fn next_backoff(d: Duration) -> Duration {
    (d * 2).min(BACKOFF_MAX)
}

pub(crate) async fn run(shared: Arc<Shared>) {
    let mut stop = shared.stop.subscribe();
    let mut backoff = BACKOFF_MIN;
    loop {
        if *stop.borrow() {
            return;
        }
        let session = listen_once(&shared, &mut backoff);
        tokio::select! {
            _ = stop.wait_for(|s| *s) => return,
            outcome = session => {
                if let Err(e) = outcome {
                    tracing::warn!("reservoir listener: {e}; reconnecting in {backoff:?}");
                }
            }
        }
        tokio::select! {
            _ = stop.wait_for(|s| *s) => return,
            _ = tokio::time::sleep(backoff) => {}
        }
        backoff = next_backoff(backoff);
    }
}

/// Connects, listens and dispatches until the connection ends.
async fn listen_once(shared: &Shared, backoff: &mut Duration) -> Result<(), String> {
    let mut cfg = shared.pg.clone();
    cfg.application_name(format!("asadb listener {}", shared.owner));
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let (client, driver) =
        shared.tls.connect(&cfg, Some(tx)).await.map_err(|e| crate::error::message(&e))?;
    let channel = shared.sql.channel();
    if let Err(e) = client.batch_execute(&format!("LISTEN \"{channel}\"")).await {
        driver.abort();
        return Err(crate::error::message(&e));
    }
    *backoff = BACKOFF_MIN;
    let _ = shared.events.send(Event::Reconnected);
    while let Some(payload) = rx.recv().await {
        dispatch(shared, &payload);
    }
    drop(client);
    Err(driver.await.unwrap_or_else(|e| e.to_string()))
}

fn dispatch(shared: &Shared, payload: &str) {
    let Some((id, state)) = payload.split_once(' ') else { return };
    let (Ok(id), Ok(state)) = (id.parse::<u64>(), jobs::state_of(state)) else { return };
    let id = JobId(id);
    if state == asadb_reservoir::JobState::Cancelling {
        shared.flag_cancel(id);
    }
    let _ = shared.events.send(Event::Job { id, state });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_from_50ms_to_2s() {
        let mut d = BACKOFF_MIN;
        let mut seen = vec![d];
        for _ in 0..8 {
            d = next_backoff(d);
            seen.push(d);
        }
        let ms: Vec<u128> = seen.iter().map(|d| d.as_millis()).collect();
        assert_eq!(ms, [50, 100, 200, 400, 800, 1600, 2000, 2000, 2000]);
    }
}
