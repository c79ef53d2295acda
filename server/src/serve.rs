//! `asadb serve`: opens the data directory and runs the HTTP API until
//! SIGINT or SIGTERM.
//!
//! Start-up order: resolve settings (refusing a non-loopback address
//! without `--allow-remote`), create the data directory, load or create
//! the token, open the Reservoir — the embedded engine at
//! `DIR/.asa.reservoir` (which recovers the previous run) with the database
//! `DIR/asadb.db` and its worker (unless `--no-worker`), or with
//! `--backend postgres://…` the PostgreSQL engine (which creates its
//! schema, recovers dead processes' jobs, reconciles the capacity counters
//! and starts its listener and worker; docs/scale-out.md) — bind, and only
//! then print `listening on http://ADDR`, so a reader of stdout knows the
//! server accepts connections.
//!
//! Shutdown: stop accepting, let in-flight requests finish for up to
//! [`SHUTDOWN_GRACE`], drop what is still running (an unfinished upload
//! fails its job and removes its spool file), then shut the Reservoir
//! down (the worker finishes its current batch; an unfinished job is
//! rolled back to its last durable batch) and close the database. A clean
//! shutdown exits 0.

use std::time::Duration;

use std::sync::Arc;

use asadb::reservoir::contract::{Embedded, ReservoirEngine};
use asadb::reservoir::{Reservoir, now_ms};
use asadb_reservoir_pg::PgReservoir;
use tokio_util::sync::CancellationToken;

use crate::api::{self, AppState, Queries};
use crate::config::ServeArgs;
use crate::error::{Error, Result};
use crate::token::{Token, TokenSource};

/// The Reservoir's directory inside the data directory.
pub const RESERVOIR_DIR: &str = ".asa.reservoir";
/// The database file inside the data directory.
pub const DATABASE_FILE: &str = "asadb.db";
/// How long in-flight requests may run after a shutdown signal.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// Makes everything the server creates private to its user and checks the
/// data directory.
///
/// The rule (docs/file-format.md, "The data directory"): the process umask
/// is set to `077`, so every file the server creates — the database, its
/// write-ahead log, the Reservoir's event log, spool bodies and results,
/// `panel.token` — is `0600` and every directory `0700`. A data directory
/// the server creates is `0700`. An existing one that every user can write
/// is refused (anyone could swap the database or the event log under the
/// server; `chmod 700` it); any other mode with bits for the group or
/// others (`0755`, a `0775` made under umask `002`) is tightened to `0700`.
fn private_data_dir(dir: &std::path::Path) -> Result<()> {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    // SAFETY: umask(2) only sets the process's file-creation mask.
    unsafe { libc::umask(0o077) };
    if !dir.exists() {
        std::fs::DirBuilder::new().recursive(true).mode(0o700).create(dir).map_err(|e| {
            Error::Config(format!("cannot create data directory {}: {e}", dir.display()))
        })?;
    }
    let meta = std::fs::metadata(dir)
        .map_err(|e| Error::Config(format!("cannot open data directory {}: {e}", dir.display())))?;
    if !meta.is_dir() {
        return Err(Error::Config(format!("data directory {} is not a directory", dir.display())));
    }
    let mode = meta.permissions().mode() & 0o7777;
    if mode & 0o002 != 0 {
        return Err(Error::Config(format!(
            "data directory {} can be written by every user (mode {mode:04o}): \
             refusing to start; make it private with `chmod 700 {}`",
            dir.display(),
            dir.display()
        )));
    }
    if mode & 0o077 != 0 {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(mode & 0o700)).map_err(
            |e| {
                Error::Config(format!(
                    "cannot make data directory {} private (mode {mode:04o}): {e}",
                    dir.display()
                ))
            },
        )?;
    }
    Ok(())
}

/// Runs the server; returns when it has shut down cleanly.
pub fn run(args: ServeArgs) -> Result<()> {
    let mut cfg = args.resolve()?;
    // No SQL function builds a value the server would refuse to send.
    asadb::sql::func::set_max_length(cfg.limits.max_value_bytes);
    cfg.reservoir.max_page_bytes = cfg.limits.max_page_bytes;
    let panic_marker = test_panic_marker();
    cfg.reservoir.test_panic_marker = panic_marker.clone();
    private_data_dir(&cfg.data_dir)?;
    let (token, source) = Token::for_server(cfg.token_file.as_deref(), &cfg.data_dir)?;
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let (reservoir, queries, adb, events, on_close) = match &cfg.backend {
        Some(pg) => {
            let engine = Arc::new(rt.block_on(PgReservoir::open(pg.clone()))?);
            let dyn_engine: Arc<dyn ReservoirEngine> = engine.clone();
            let events = {
                let _in_runtime = rt.enter();
                crate::events::Hub::postgres(engine.clone())
            };
            // The PostgreSQL engine does not hold uploads (`finish_held`
            // queues at once): nothing to release at the close.
            let on_close: crate::framing::CloseCheck = Arc::new(|_, _| {});
            (dyn_engine, Queries::Postgres(engine), None, events, on_close)
        }
        None => {
            let reservoir =
                Reservoir::open(&cfg.data_dir.join(RESERVOIR_DIR), cfg.reservoir.clone())?;
            // One engine for DIR/asadb.db, shared by the worker (which runs
            // queued jobs one at a time) and /api/query.
            let db = crate::database::open(&cfg.data_dir.join(DATABASE_FILE))?;
            if cfg.worker {
                reservoir.start_worker(db.engine())?;
            }
            let adb = {
                let _in_runtime = rt.enter();
                let opts = asadb::AsyncOptions {
                    statement_timeout: cfg.limits.query_timeout,
                    ..asadb::AsyncOptions::default()
                };
                asadb::AsyncDatabase::new(db, opts)?
            };
            let events = crate::events::Hub::embedded(&reservoir);
            let on_close = close_check(reservoir.clone());
            (
                Embedded::new(reservoir).into_engine(),
                Queries::Embedded(adb.clone()),
                Some(adb),
                events,
                on_close,
            )
        }
    };
    let ttl = cfg.reservoir.job_ttl;
    let result = rt.block_on(async {
        let shutdown = shutdown_signal();
        let listener = tokio::net::TcpListener::bind(cfg.listen)
            .await
            .map_err(|e| Error::Config(format!("cannot listen on {}: {e}", cfg.listen)))?;
        let addr = listener.local_addr()?;
        if let Some(file) = &cfg.config_file {
            println!("config: {}", file.display());
        }
        println!("data directory: {}", cfg.data_dir.display());
        if let Some(pg) = &cfg.backend {
            println!(
                "backend: {} (schema {}{})",
                asadb_reservoir_pg::redact(&pg.url),
                pg.schema,
                if pg.listen { "" } else { ", poll-only" }
            );
        }
        if !cfg.worker {
            println!("worker: off (--no-worker): jobs stay queued");
        }
        match &source {
            TokenSource::File(path) => println!("token file: {}", path.display()),
            TokenSource::Env => {
                println!("token: from the {} environment variable", crate::token::TOKEN_ENV)
            }
        }
        println!("listening on http://{addr}");
        println!("panel: http://{addr}/");
        tracing::info!(%addr, "serving the HTTP API");

        let embedded = queries_is_embedded(&queries);
        let app = AppState::new(
            reservoir.clone(),
            queries,
            token,
            cfg.allow_file_dirs.clone(),
            cfg.worker,
            events,
            cfg.limits,
            panic_marker,
        );
        let stop = CancellationToken::new();
        // The PostgreSQL engine sweeps by itself (one host at a time).
        let sweeper =
            embedded.then(|| tokio::spawn(sweep_forever(reservoir.clone(), ttl, stop.clone())));
        let healer = adb.clone().map(|adb| tokio::spawn(recover_forever(adb, stop.clone())));
        let server = tokio::spawn(crate::framing::serve(
            listener,
            api::router(app.clone()),
            cfg.limits,
            on_close,
            stop.clone(),
        ));
        let mut server = server;
        tokio::select! {
            () = shutdown => {}
            // The server only ends by itself on an accept-loop error.
            ended = &mut server => {
                stop.cancel();
                return ended.map_err(|e| Error::Internal(e.to_string()))?.map_err(Error::from);
            }
        }
        tracing::info!("shutting down: no new connections, finishing requests in flight");
        stop.cancel();
        // Event streams never finish on their own.
        app.events.close();
        if let Some(sweeper) = sweeper {
            let _ = sweeper.await;
        }
        if let Some(healer) = healer {
            let _ = healer.await;
        }
        match tokio::time::timeout(SHUTDOWN_GRACE, &mut server).await {
            Ok(ended) => ended.map_err(|e| Error::Internal(e.to_string()))??,
            Err(_) => {
                tracing::warn!(
                    "requests still running after {} s; dropping them",
                    SHUTDOWN_GRACE.as_secs()
                );
                server.abort();
            }
        }
        Ok::<(), Error>(())
    });
    // Stop admission and wait for the worker's current batch; then drain
    // the query pool and close the database (the worker is gone by then).
    rt.block_on(reservoir.shutdown());
    if let Some(adb) = adb
        && let Err(e) = rt.block_on(adb.shutdown())
    {
        tracing::warn!("closing the database failed: {e}");
    }
    // Dropping the runtime drops connection tasks still running; their
    // uploads fail and remove their spool files on the blocking pool.
    rt.shutdown_timeout(Duration::from_secs(5));
    tracing::info!("stopped");
    result
}

fn queries_is_embedded(q: &Queries) -> bool {
    matches!(q, Queries::Embedded(_))
}

/// The test hook that makes statements containing a marker panic inside
/// the engine call (`ASADB_TEST_PANIC_MARKER`), so the end-to-end tests can
/// pin what an engine bug costs. Debug builds only: a release binary has
/// no such hook.
fn test_panic_marker() -> Option<String> {
    if cfg!(debug_assertions) {
        std::env::var("ASADB_TEST_PANIC_MARKER").ok().filter(|m| !m.is_empty())
    } else {
        None
    }
}

/// What the connection layer does with a held upload once its connection
/// has closed: nothing after the body queues the job, surplus bytes fail
/// it (see `crate::framing`).
fn close_check(res: Reservoir) -> crate::framing::CloseCheck {
    Arc::new(move |id, after| {
        use crate::framing::AfterBody;
        let r = match after {
            AfterBody::Nothing => res.release(id),
            AfterBody::Surplus(n) => res.refuse(
                id,
                "body_surplus",
                &format!(
                    "at least {n} more bytes followed the request body on its connection: \
                     the body was longer than its Content-Length, so the job was not run \
                     (submit it again with the right length, or with \
                     X-AsaDB-Content-SHA256)"
                ),
            ),
        };
        if let Err(e) = r {
            tracing::warn!("the close check of job {id} failed: {e}");
        }
    })
}

/// Removes expired terminal jobs every so often.
async fn sweep_forever(
    reservoir: Arc<dyn ReservoirEngine>,
    ttl: Duration,
    stop: CancellationToken,
) {
    let every = (ttl / 4).clamp(Duration::from_secs(1), Duration::from_secs(60));
    let mut tick = tokio::time::interval(every);
    loop {
        tokio::select! {
            () = stop.cancelled() => return,
            _ = tick.tick() => {}
        }
        match reservoir.sweep_at(now_ms()).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(removed = n, "expired jobs removed"),
            Err(e) => tracing::warn!("sweeping expired jobs failed: {e}"),
        }
    }
}

/// How often a latched database tries to recover by itself.
const RECOVER_EVERY: Duration = Duration::from_secs(1);

/// Recovers the database by itself once a failed write (a full disk)
/// clears: while it is latched, tries [`asadb::Database::recover`] every
/// [`RECOVER_EVERY`] on a blocking thread. (A new job's admission and the
/// worker's next write try too; this makes the stats and metrics clear
/// without anyone writing.)
async fn recover_forever(adb: asadb::AsyncDatabase, stop: CancellationToken) {
    let mut tick = tokio::time::interval(RECOVER_EVERY);
    loop {
        tokio::select! {
            () = stop.cancelled() => return,
            _ = tick.tick() => {}
        }
        let db = adb.database().clone();
        if db.write_error().is_none() {
            continue;
        }
        match tokio::task::spawn_blocking(move || db.recover()).await {
            Ok(Ok(true)) => tracing::info!("the database recovered from a failed write"),
            Ok(Ok(false)) => {}
            Ok(Err(e)) => tracing::debug!("the database still cannot write: {e}"),
            Err(e) => tracing::warn!("the recovery task failed: {e}"),
        }
    }
}

/// Resolves on the first SIGINT or SIGTERM.
fn shutdown_signal() -> impl std::future::Future<Output = ()> {
    // Installed now, not at the future's first poll: a SIGTERM that
    // arrives right after `listening on` is printed must stop the server
    // cleanly, not kill it with the default action.
    #[cfg(unix)]
    let installed = {
        use tokio::signal::unix::{SignalKind, signal};
        (signal(SignalKind::terminate()), signal(SignalKind::interrupt()))
    };
    async move {
        #[cfg(unix)]
        match installed {
            (Ok(mut term), Ok(mut int)) => {
                tokio::select! {
                    _ = term.recv() => tracing::info!("SIGTERM received"),
                    _ = int.recv() => tracing::info!("SIGINT received"),
                }
            }
            _ => {
                tracing::warn!("cannot install signal handlers; waiting for Ctrl-C only");
                let _ = tokio::signal::ctrl_c().await;
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}
