//! `GET /api/reservoir/events`: job snapshots pushed as Server-Sent Events.
//!
//! The Reservoir tells a [`Hub`] of every change of any job's snapshot
//! (`Reservoir::on_change`, under the Reservoir's lock). The hub bumps a
//! `tokio::sync::watch` version for every change and broadcasts the
//! snapshot of every *state* transition. Each stream wakes on a new
//! version, re-reads what it follows together with the version the read
//! reflects (`Reservoir::job_and_version`), sends first the transitions
//! between its previous read and this one, in order, then what changed
//! since — so every state a job passes through is sent, in order, and a
//! coalesced notification never loses the current values.
//!
//! Rules (docs/api.md, "GET /api/reservoir/events"):
//! - `?id=N` follows one job (404 before the stream starts if unknown);
//!   without it the stream follows every active job: it opens with a
//!   `jobs` event holding the whole active list (like `GET
//!   /api/reservoir/jobs`), then sends a `job` event for each admitted or
//!   changed job, including the final snapshot of a job that leaves the
//!   active states, and `stats` events (like `GET /api/reservoir/stats`);
//! - a change of `state` is sent at once; any other change of a job (its
//!   progress, bytes received, …) at most every [`PROGRESS_EVERY`] per job,
//!   the latest snapshot winning; stats at most every [`STATS_EVERY`];
//! - `updated_at` alone never makes an event (it is live for the running
//!   job: every read would differ);
//! - a job that disappears (an idempotent retry's own job, an expired one)
//!   gets a `gone` event; a one-job stream then ends;
//! - a comment line every [`KEEP_ALIVE`] keeps idle connections open and
//!   tells a client the server is still there; the stream ends when the
//!   server shuts down. A client that reconnects starts from the current
//!   snapshots (the opening events), so it never relies on an event it may
//!   have missed; `Last-Event-ID` is not needed and ignored;
//! - a stream that falls more than [`TRANSITIONS`] transitions behind
//!   sends the current state instead of the ones it missed.

use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use asadb::reservoir::contract::ReservoirEngine;
use asadb::reservoir::{Job, JobId, JobState, Reservoir};
use asadb_reservoir_pg::PgReservoir;
use axum::extract::State;
use axum::http::{HeaderValue, Uri, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::Stream;
use parking_lot::Mutex;
use tokio::sync::{broadcast, watch};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use crate::api::App;
use crate::error::{Error, Result};

/// Most one job's non-state changes are sent.
pub const PROGRESS_EVERY: Duration = Duration::from_millis(100);
/// Most stats are sent.
pub const STATS_EVERY: Duration = Duration::from_millis(500);
/// Interval of the keep-alive comment.
pub const KEEP_ALIVE: Duration = Duration::from_secs(15);
/// State transitions a stream may fall behind before it skips to the
/// current states.
pub const TRANSITIONS: usize = 1024;
/// What a reconnecting `EventSource` waits, sent as the stream's `retry`.
const RETRY: Duration = Duration::from_secs(1);

/// With the PostgreSQL backend, how often streams re-read while jobs are
/// active (progress is not notified; the executing process writes it to
/// the job row every 250 ms).
pub const BACKEND_PROGRESS_EVERY: Duration = Duration::from_millis(250);

/// A state transition: the change's version and the job's new snapshot.
type Transition = (u64, Arc<Job>);

/// Where streams read the snapshots.
#[derive(Clone)]
enum Source {
    /// The embedded Reservoir: reads and versions under one lock.
    Embedded(Reservoir),
    /// The PostgreSQL backend: reads through the contract; the version is
    /// the hub's, taken before each read.
    Backend(Arc<dyn ReservoirEngine>),
}

/// The server's side of the Reservoir's change notification.
pub struct Hub {
    version: watch::Sender<u64>,
    transitions: broadcast::Sender<Transition>,
    stop: CancellationToken,
    source: Source,
}

impl Hub {
    /// Subscribes to the PostgreSQL backend's changes: the same NOTIFY
    /// stream that wakes its workers (every state change of any job, from
    /// any front-end). A task (on the current runtime) reads each changed
    /// job and bumps the version; while jobs are active it bumps it every
    /// [`BACKEND_PROGRESS_EVERY`] so streams re-read their progress; after
    /// the listener reconnects (notifications may have been missed) it
    /// bumps it once, so every stream re-reads. A state that lasts shorter
    /// than that read may be seen only in the next one.
    pub fn postgres(engine: Arc<PgReservoir>) -> Hub {
        let version = watch::Sender::new(0u64);
        let (transitions, _) = broadcast::channel(TRANSITIONS);
        let stop = CancellationToken::new();
        let (tx_version, tx_transitions, until) =
            (version.clone(), transitions.clone(), stop.clone());
        let mut events = engine.subscribe();
        let dyn_engine: Arc<dyn ReservoirEngine> = engine;
        let reader = dyn_engine.clone();
        tokio::spawn(async move {
            let bump = |tx: &watch::Sender<u64>| {
                let mut v = 0;
                tx.send_modify(|n| {
                    *n += 1;
                    v = *n;
                });
                v
            };
            let seed = |known: &mut HashMap<JobId, JobState>, jobs: Vec<Job>| {
                known.clear();
                known.extend(jobs.into_iter().map(|j| (j.id, j.state)));
            };
            let mut known: HashMap<JobId, JobState> = HashMap::new();
            if let Ok(active) = reader.active_jobs().await {
                seed(&mut known, active);
            }
            let mut tick = tokio::time::interval(BACKEND_PROGRESS_EVERY);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
            loop {
                tokio::select! {
                    event = events.recv() => match event {
                        Ok(asadb_reservoir_pg::Event::Job { id, .. }) => match reader.job(id).await {
                            Ok(job) => {
                                let state = job.state;
                                if known.insert(id, state) != Some(state) {
                                    let v = *tx_version.borrow() + 1;
                                    let _ = tx_transitions.send((v, Arc::new(job)));
                                }
                                if !state.is_active() {
                                    known.remove(&id);
                                }
                                bump(&tx_version);
                            }
                            Err(_) => {
                                known.remove(&id);
                                bump(&tx_version);
                            }
                        },
                        Ok(asadb_reservoir_pg::Event::Reconnected)
                        | Err(broadcast::error::RecvError::Lagged(_)) => {
                            if let Ok(active) = reader.active_jobs().await {
                                seed(&mut known, active);
                            }
                            bump(&tx_version);
                        }
                        Err(broadcast::error::RecvError::Closed) => break,
                    },
                    _ = tick.tick() => {
                        if !known.is_empty() {
                            bump(&tx_version);
                        }
                    }
                    () = until.cancelled() => break,
                }
            }
        });
        Hub { version, transitions, stop, source: Source::Backend(dyn_engine) }
    }

    /// Subscribes to the embedded `reservoir`'s changes.
    pub fn embedded(reservoir: &Reservoir) -> Hub {
        let version = watch::Sender::new(reservoir.version());
        let (transitions, _) = broadcast::channel(TRANSITIONS);
        let (tx_version, tx_transitions) = (version.clone(), transitions.clone());
        let known: Mutex<HashMap<JobId, JobState>> = Mutex::new(HashMap::new());
        // Runs under the Reservoir's lock: a map update and two sends.
        reservoir.on_change(move |c| {
            match c.job {
                Some(job) => {
                    if known.lock().insert(c.id, job.state) != Some(job.state) {
                        let _ = tx_transitions.send((c.version, Arc::new(job.clone())));
                    }
                }
                None => {
                    known.lock().remove(&c.id);
                }
            }
            tx_version.send_replace(c.version);
        });
        Hub {
            version,
            transitions,
            stop: CancellationToken::new(),
            source: Source::Embedded(reservoir.clone()),
        }
    }

    /// Ends every stream (server shutdown), now and for later requests.
    pub fn close(&self) {
        self.stop.cancel();
    }
}

/// What one stream follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Follow {
    One(JobId),
    Active,
}

/// The `?id=` parameter (the only one accepted).
pub(crate) fn follow(uri: &Uri) -> Result<Follow> {
    let q = crate::api::query(uri)?;
    if let Some(other) = q.keys().find(|k| k.as_str() != "id") {
        return Err(Error::BadRequest(format!("unknown query parameter {other}")));
    }
    match q.get("id") {
        Some(raw) => Ok(Follow::One(raw.parse::<JobId>()?)),
        None => Ok(Follow::Active),
    }
}

/// `GET /api/reservoir/events[?id=N]`
pub async fn stream(State(app): State<App>, uri: Uri) -> Result<Response> {
    let follow = follow(&uri)?;
    // Subscribed before the first read, so no transition after it is lost.
    let transitions = app.events.transitions.subscribe();
    if let Follow::One(id) = follow {
        app.reservoir.job(id).await?;
    }
    let feed = Feed {
        source: app.events.source.clone(),
        follow,
        version: app.events.version.subscribe(),
        transitions,
        held: VecDeque::new(),
        seen: None,
        stop: app.events.stop.clone(),
        sent: HashMap::new(),
        stats_sent: None,
        queue: VecDeque::new(),
        ended: false,
        last_collect: Instant::now(),
    };
    let sse =
        Sse::new(events(feed)).keep_alive(KeepAlive::new().interval(KEEP_ALIVE).text("keep-alive"));
    let mut resp = sse.into_response();
    let h = resp.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    // Tells buffering proxies to pass events through as they come.
    h.insert("x-accel-buffering", HeaderValue::from_static("no"));
    Ok(resp)
}

/// The last event sent for one job.
struct Sent {
    /// The snapshot as JSON, without `updated_at`.
    body: serde_json::Value,
    state: JobState,
    at: Instant,
}

/// One stream's state between events.
struct Feed {
    source: Source,
    follow: Follow,
    version: watch::Receiver<u64>,
    transitions: broadcast::Receiver<Transition>,
    /// Transitions received that are newer than the last read.
    held: VecDeque<Transition>,
    /// The version the last read reflected (`None` before the first).
    seen: Option<u64>,
    stop: CancellationToken,
    /// The jobs followed, with what was last sent of each.
    sent: HashMap<JobId, Sent>,
    stats_sent: Option<(serde_json::Value, Instant)>,
    /// Events ready to go, in order.
    queue: VecDeque<Event>,
    ended: bool,
    /// When the stream last read the snapshots.
    last_collect: Instant,
}

fn events(feed: Feed) -> impl Stream<Item = std::result::Result<Event, Infallible>> {
    futures_util::stream::unfold(feed, |mut feed| async move {
        let event = feed.next().await?;
        Some((Ok(event), feed))
    })
}

impl Feed {
    /// The next event, or `None` when the stream ends.
    async fn next(&mut self) -> Option<Event> {
        loop {
            if let Some(event) = self.queue.pop_front() {
                return Some(event);
            }
            if self.ended || self.stop.is_cancelled() {
                return None;
            }
            // Mark the current version seen before reading, so a change
            // made while reading wakes the next wait.
            self.version.borrow_and_update();
            let due = self.collect().await;
            self.last_collect = Instant::now();
            if !self.queue.is_empty() {
                continue;
            }
            let sleep = async {
                match due {
                    Some(at) => tokio::time::sleep_until(at).await,
                    None => std::future::pending().await,
                }
            };
            let mut changed_only = false;
            tokio::select! {
                changed = self.version.changed() => {
                    if changed.is_err() {
                        return None;
                    }
                    changed_only = true;
                }
                transition = self.transitions.recv() => self.take(transition),
                () = sleep => {}
                () = self.stop.cancelled() => return None,
            }
            // Reads for non-state changes are paced (one per PROGRESS_EVERY
            // at most), however fast the worker changes progress; a state
            // transition still wakes the stream at once.
            let next = self.last_collect + PROGRESS_EVERY;
            if changed_only && Instant::now() < next {
                tokio::select! {
                    transition = self.transitions.recv() => self.take(transition),
                    () = tokio::time::sleep_until(next) => {}
                    () = self.stop.cancelled() => return None,
                }
            }
        }
    }

    /// Keeps a transition received while waiting, for the next read.
    fn take(&mut self, transition: std::result::Result<Transition, broadcast::error::RecvError>) {
        if let Ok(t) = transition {
            self.held.push_back(t);
        }
        // Lagged: the next read sends the current states. Closed: the hub
        // lives as long as the server, so it does not happen before stop.
    }

    /// Reads what the stream follows and queues the events due now;
    /// returns when the next held-back change becomes due, if any.
    async fn collect(&mut self) -> Option<Instant> {
        let now = Instant::now();
        let mut due: Option<Instant> = None;
        let mut hold = |at: Option<Instant>| {
            if let Some(at) = at {
                due = Some(due.map_or(at, |d| d.min(at)));
            }
        };
        match self.follow {
            Follow::One(id) => match self.job_and_version(id).await {
                Ok((job, version)) => {
                    self.opening(version, &[]);
                    self.transitions_until(version, now);
                    hold(self.offer(job, now));
                }
                Err(asadb::reservoir::Error::NotFound(_)) => self.gone(id),
                // The backend is unreachable: try again later.
                Err(_) => hold(Some(now + RETRY)),
            },
            Follow::Active => {
                let Some((active, version)) = self.active_jobs_and_version().await else {
                    hold(Some(now + RETRY));
                    return due;
                };
                if self.opening(version, &active) {
                    for job in &active {
                        self.sent.insert(job.id, Sent::of(job, now));
                    }
                } else {
                    self.transitions_until(version, now);
                    let mut seen: Vec<JobId> = Vec::with_capacity(active.len());
                    for job in active {
                        seen.push(job.id);
                        hold(self.offer(job, now));
                    }
                    // Jobs that left the active states (when their
                    // transition was missed): their current snapshot, then
                    // they are no longer followed.
                    let left: Vec<JobId> =
                        self.sent.keys().filter(|id| !seen.contains(id)).copied().collect();
                    for id in left {
                        match self.job(id).await {
                            Ok(job) => {
                                self.offer(job, now);
                            }
                            Err(asadb::reservoir::Error::NotFound(_)) => self.gone(id),
                            Err(_) => {}
                        }
                        self.sent.remove(&id);
                    }
                }
                let stats = self.stats().await;
                if let Some(stats) = stats {
                    hold(self.offer_stats(stats, now));
                }
            }
        }
        due
    }

    /// A job and the version the read reflects (at least).
    async fn job_and_version(&self, id: JobId) -> asadb::reservoir::Result<(Job, u64)> {
        match &self.source {
            Source::Embedded(r) => r.job_and_version(id),
            Source::Backend(e) => {
                let version = *self.version.borrow();
                Ok((e.job(id).await?, version))
            }
        }
    }

    async fn active_jobs_and_version(&self) -> Option<(Vec<Job>, u64)> {
        match &self.source {
            Source::Embedded(r) => Some(r.active_jobs_and_version()),
            Source::Backend(e) => {
                let version = *self.version.borrow();
                e.active_jobs().await.ok().map(|jobs| (jobs, version))
            }
        }
    }

    async fn job(&self, id: JobId) -> asadb::reservoir::Result<Job> {
        match &self.source {
            Source::Embedded(r) => r.job(id),
            Source::Backend(e) => e.job(id).await,
        }
    }

    async fn stats(&self) -> Option<asadb::reservoir::Stats> {
        match &self.source {
            Source::Embedded(r) => Some(r.stats()),
            Source::Backend(e) => e.stats().await.ok(),
        }
    }

    /// On the first read: queues the opening events and returns true.
    fn opening(&mut self, version: u64, active: &[Job]) -> bool {
        if self.seen.is_some() {
            return false;
        }
        self.seen = Some(version);
        self.queue.push_back(Event::default().retry(RETRY));
        if self.follow == Follow::Active {
            let data = serde_json::json!({ "jobs": active }).to_string();
            self.queue.push_back(Event::default().event("jobs").id(version.to_string()).data(data));
        }
        true
    }

    /// Queues, in order, the state transitions after the previous read up
    /// to `version` (the read just made), for the jobs this stream follows.
    fn transitions_until(&mut self, version: u64, now: Instant) {
        let floor = self.seen.unwrap_or(0);
        loop {
            let next = match self.held.pop_front() {
                Some(t) => t,
                None => match self.transitions.try_recv() {
                    Ok(t) => t,
                    // Lagged: the reads below send the current states.
                    Err(broadcast::error::TryRecvError::Lagged(_)) => continue,
                    Err(_) => break,
                },
            };
            if next.0 <= floor {
                continue;
            }
            if next.0 > version {
                self.held.push_front(next);
                break;
            }
            self.transition(&next.1, now);
        }
        self.seen = Some(version.max(floor));
    }

    /// Sends one state transition if the stream follows the job.
    fn transition(&mut self, job: &Job, now: Instant) {
        let follows = match self.follow {
            Follow::One(id) => id == job.id,
            Follow::Active => self.sent.contains_key(&job.id) || job.state.is_active(),
        };
        if !follows || self.sent.get(&job.id).is_some_and(|s| s.state == job.state) {
            return;
        }
        self.queue.push_back(job_event(job, self.seen.unwrap_or(0)));
        if self.follow == Follow::Active && !job.state.is_active() {
            self.sent.remove(&job.id);
        } else {
            self.sent.insert(job.id, Sent::of(job, now));
        }
    }

    /// Queues `job` if it changed since it was last sent and is due;
    /// returns when a held-back change becomes due.
    fn offer(&mut self, job: Job, now: Instant) -> Option<Instant> {
        let body = without(&job, "updated_at");
        if let Some(last) = self.sent.get(&job.id) {
            if last.body == body {
                return None;
            }
            let due = last.at + PROGRESS_EVERY;
            if last.state == job.state && now < due {
                return Some(due);
            }
        }
        self.queue.push_back(job_event(&job, self.seen.unwrap_or(0)));
        self.sent.insert(job.id, Sent { body, state: job.state, at: now });
        None
    }

    fn gone(&mut self, id: JobId) {
        let data = serde_json::json!({ "id": id }).to_string();
        let version = self.seen.unwrap_or(0).to_string();
        self.queue.push_back(Event::default().event("gone").id(version).data(data));
        self.sent.remove(&id);
        if matches!(self.follow, Follow::One(_)) {
            self.ended = true;
        }
    }

    fn offer_stats(&mut self, stats: asadb::reservoir::Stats, now: Instant) -> Option<Instant> {
        let body = without(&stats, "updated_at");
        if let Some((last, at)) = &self.stats_sent {
            if *last == body {
                return None;
            }
            if now < *at + STATS_EVERY {
                return Some(*at + STATS_EVERY);
            }
        }
        let data = serde_json::to_string(&stats).unwrap_or_default();
        let version = self.seen.unwrap_or(0).to_string();
        self.queue.push_back(Event::default().event("stats").id(version).data(data));
        self.stats_sent = Some((body, now));
        None
    }
}

impl Sent {
    fn of(job: &Job, at: Instant) -> Sent {
        Sent { body: without(job, "updated_at"), state: job.state, at }
    }
}

/// `value` as JSON without its field `field`.
fn without(value: &impl serde::Serialize, field: &str) -> serde_json::Value {
    let mut v = serde_json::to_value(value).unwrap_or_default();
    if let Some(o) = v.as_object_mut() {
        o.remove(field);
    }
    v
}

fn job_event(job: &Job, version: u64) -> Event {
    let data = serde_json::to_string(job).unwrap_or_default();
    Event::default().event("job").id(version.to_string()).data(data)
}
