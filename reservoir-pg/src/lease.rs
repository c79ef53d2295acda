//! Leases, the reaper, the sweeper and the per-process watch.
//!
//! Every process holds one lease row (`leases`), renewed every third of the
//! lease by its heartbeat; every job it receives or runs names it as
//! `owner`. A process that dies stops renewing: once its lease has expired
//! (PostgreSQL's clock decides), the *reaper* marks its receiving jobs
//! `interrupted` without their partial bodies, and its processing and
//! cancelling jobs `interrupted` with their spool kept for `resume` —
//! never queued again on their own. The executor's every batch commit
//! checks that it still holds its job, so a process that was only slow
//! cannot commit after the reaper took the job.
//!
//! The reaper and the retention sweeper run on one host at a time: each
//! round takes a transaction-level advisory lock (`pg_try_advisory_xact_
//! lock`) and skips when another host holds it.

use std::sync::Arc;
use std::time::Duration;

use asadb_reservoir::{JobError, JobId, JobState, Result};

use crate::engine::{Event, Shared};
use crate::error::pg;
use crate::jobs::{self, Ending, TERMINAL};

/// Renews (or re-creates) this process's lease.
pub(crate) async fn heartbeat(shared: &Shared) -> Result<()> {
    let client = shared.client().await?;
    let text = shared.sql.q("INSERT INTO @.leases (owner, host, pid, expires_at) \
         VALUES ($1, $2, $3, now() + $4 * interval '1 millisecond') \
         ON CONFLICT (owner) DO UPDATE SET expires_at = EXCLUDED.expires_at");
    let host = shared.owner.split(':').next().unwrap_or_default().to_string();
    let lease = shared.cfg.lease.as_millis() as f64;
    client
        .execute(&text, &[&shared.owner, &host, &(std::process::id() as i32), &lease])
        .await
        .map_err(pg)?;
    Ok(())
}

/// Interrupts the active jobs whose holder's lease has expired (or is
/// gone). With `leader`, only when this host wins the round's advisory
/// lock. Returns the jobs interrupted.
pub(crate) async fn reap(shared: &Shared, leader: bool) -> Result<Vec<JobId>> {
    let sql = &shared.sql;
    let mut client = shared.client().await?;
    let tx = client.transaction().await.map_err(pg)?;
    if leader && !try_lead(&tx, shared, "reaper").await? {
        return Ok(Vec::new());
    }
    jobs::capacity(&*tx, sql, true).await?;
    let text = sql.q(
        "SELECT j.id, j.state FROM @.jobs j \
         WHERE j.state IN ('receiving', 'processing', 'cancelling') \
         AND NOT EXISTS (SELECT 1 FROM @.leases l WHERE l.owner = j.owner AND l.expires_at > now()) \
         ORDER BY j.id FOR UPDATE OF j",
    );
    let rows = tx.query(&text, &[]).await.map_err(pg)?;
    let mut reaped = Vec::new();
    for row in rows {
        let id = JobId(row.get::<_, i64>(0) as u64);
        let state = jobs::state_of(row.get(1))?;
        let receiving = state == JobState::Receiving;
        let error = JobError {
            code: "interrupted".into(),
            message: if receiving {
                "the front-end receiving the body stopped; submit it again".into()
            } else {
                "the process running the job stopped; resume it to continue after its last \
                 durable statement"
                    .into()
            },
            statement: None,
            excerpt: None,
        };
        let end = Ending {
            to: JobState::Interrupted,
            error: Some(&error),
            keep_spool: !receiving,
            result: None,
            owner: None,
        };
        jobs::finish(&*tx, sql, id, end).await?;
        reaped.push(id);
    }
    tx.execute(&sql.q("DELETE FROM @.leases WHERE expires_at < now()"), &[]).await.map_err(pg)?;
    tx.commit().await.map_err(pg)?;
    if !reaped.is_empty() {
        tracing::warn!(jobs = ?reaped, "jobs of stopped processes interrupted");
    }
    Ok(reaped)
}

async fn try_lead(
    tx: &tokio_postgres::Transaction<'_>,
    shared: &Shared,
    purpose: &str,
) -> Result<bool> {
    let row = tx
        .query_one("SELECT pg_try_advisory_xact_lock($1)", &[&shared.sql.lock_key(purpose)])
        .await
        .map_err(pg)?;
    Ok(row.get(0))
}

/// Removes terminal jobs last updated more than the retention window ago
/// (at `now_ms`, or the database's clock), with their chunks, events and
/// results, and releases what they were charged. Skips the round when
/// another host sweeps.
pub(crate) async fn sweep(shared: &Shared, now_ms: Option<u64>) -> Result<usize> {
    let sql = &shared.sql;
    let ttl = shared.rcfg().job_ttl.as_millis() as i64;
    let mut client = shared.client().await?;
    let tx = client.transaction().await.map_err(pg)?;
    if !try_lead(&tx, shared, "sweeper").await? {
        return Ok(0);
    }
    jobs::capacity(&*tx, sql, true).await?;
    let now = now_ms.map(|n| n as i64);
    let text = sql.q(&format!(
        "DELETE FROM @.jobs WHERE state IN {TERMINAL} \
         AND updated_at + $1 <= COALESCE($2::bigint, NOW_MS) RETURNING id, reserved_bytes"
    ));
    let rows = tx.query(&text, &[&ttl, &now]).await.map_err(pg)?;
    let ids: Vec<i64> = rows.iter().map(|r| r.get(0)).collect();
    let released: i64 = rows.iter().map(|r| r.get::<_, i64>(1)).sum();
    if !ids.is_empty() {
        tx.execute(&sql.q("DELETE FROM @.progress WHERE job_id = ANY($1)"), &[&ids])
            .await
            .map_err(pg)?;
        jobs::charge(&*tx, sql, 0, -released).await?;
    }
    tx.commit().await.map_err(pg)?;
    Ok(ids.len())
}

/// Fails receiving jobs of this process that no live upload holds (an
/// upload dropped where its clean-up could not run), and raises the
/// cancel flags of local uploads and of the running job whose rows say
/// `cancelling` (the re-read behind missed notifications).
async fn watch_local(shared: &Shared) -> Result<()> {
    let sql = &shared.sql;
    let client = shared.client().await?;
    let text = sql.q("SELECT id, state FROM @.jobs WHERE owner = $1 AND state IN ('receiving', 'processing', 'cancelling')");
    let rows = client.query(&text, &[&shared.owner]).await.map_err(pg)?;
    drop(client);
    let mut orphans = Vec::new();
    for row in rows {
        let id = JobId(row.get::<_, i64>(0) as u64);
        let state = jobs::state_of(row.get(1))?;
        let live_upload = shared.uploads.lock().contains_key(&id);
        let running = shared.live.lock().as_ref().is_some_and(|l| l.id == id);
        if state == JobState::Cancelling {
            shared.flag_cancel(id);
        }
        if !live_upload && !running && state != JobState::Processing {
            orphans.push(id);
        }
    }
    for id in orphans {
        // Re-checked under the locks: only a receiving job still held by
        // this process without an upload is failed.
        if shared.uploads.lock().contains_key(&id) {
            continue;
        }
        let mut client = shared.client().await?;
        let tx = client.transaction().await.map_err(pg)?;
        jobs::capacity(&*tx, sql, true).await?;
        let job = jobs::get(&*tx, sql, id, true).await?;
        if matches!(job.state, JobState::Receiving | JobState::Cancelling)
            && !shared.uploads.lock().contains_key(&id)
        {
            let error = JobError {
                code: "upload_aborted".into(),
                message: "the upload ended before the body was complete".into(),
                statement: None,
                excerpt: None,
            };
            let to = if job.state == JobState::Cancelling {
                JobState::Cancelled
            } else {
                JobState::Failed
            };
            let end = Ending {
                to,
                error: (to == JobState::Failed).then_some(&error),
                keep_spool: false,
                result: None,
                owner: Some(&shared.owner),
            };
            jobs::finish(&*tx, sql, id, end).await?;
        }
        tx.commit().await.map_err(pg)?;
    }
    Ok(())
}

/// The heartbeat and maintenance loop of one process: renew the lease
/// every third of it; every round (half a lease, at most the poll
/// interval) reap expired leases and re-check local jobs; sweep expired
/// jobs every quarter of the retention window (1 s to 60 s).
pub(crate) async fn maintain(shared: Arc<Shared>) {
    let lease = shared.cfg.lease;
    let beat = lease / 3;
    let round = (lease / 2).min(shared.cfg.poll_interval).max(Duration::from_millis(100));
    let sweep_every =
        (shared.rcfg().job_ttl / 4).clamp(Duration::from_secs(1), Duration::from_secs(60));
    let mut stop = shared.stop.subscribe();
    let mut events = shared.events.subscribe();
    let mut last_beat = tokio::time::Instant::now();
    let mut last_sweep = tokio::time::Instant::now();
    loop {
        tokio::select! {
            _ = stop.wait_for(|s| *s) => return,
            _ = tokio::time::sleep(round.min(beat)) => {}
            ev = events.recv() => {
                // A reconnect may have hidden a cancellation: re-read now.
                if !matches!(ev, Ok(Event::Reconnected) | Err(_)) {
                    continue;
                }
            }
        }
        if last_beat.elapsed() >= beat {
            match heartbeat(&shared).await {
                Ok(()) => last_beat = tokio::time::Instant::now(),
                Err(e) => tracing::warn!("lease heartbeat failed: {e}"),
            }
        }
        if let Err(e) = reap(&shared, true).await {
            tracing::warn!("reaping expired leases failed: {e}");
        }
        if let Err(e) = watch_local(&shared).await {
            tracing::warn!("checking this process's jobs failed: {e}");
        }
        if last_sweep.elapsed() >= sweep_every {
            last_sweep = tokio::time::Instant::now();
            match sweep(&shared, None).await {
                Ok(0) => {}
                Ok(n) => tracing::info!(removed = n, "expired jobs removed"),
                Err(e) => tracing::warn!("sweeping expired jobs failed: {e}"),
            }
        }
    }
}
