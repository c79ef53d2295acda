//! `asadb serve`: opens the data directory and runs the HTTP API until
//! SIGINT or SIGTERM.
//!
//! Start-up order: resolve settings (refusing a non-loopback address
//! without `--allow-remote`), create the data directory, load or create
//! the token, open the Reservoir at `DIR/.asa.reservoir` (which recovers
//! the previous run), open the database `DIR/asadb.db` and start the
//! Reservoir's worker on it (unless `--no-worker`), bind, and only then
//! print `listening on http://ADDR` — so a reader of stdout knows the
//! server accepts connections.
//!
//! Shutdown: stop accepting, let in-flight requests finish for up to
//! [`SHUTDOWN_GRACE`], drop what is still running (an unfinished upload
//! fails its job and removes its spool file), then shut the Reservoir
//! down (the worker finishes its current batch; an unfinished job is
//! rolled back to its last durable batch) and close the database. A clean
//! shutdown exits 0.

use std::time::Duration;

use asadb::reservoir::Reservoir;
use tokio_util::sync::CancellationToken;

use crate::api::{self, AppState};
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
    let reservoir = Reservoir::open(&cfg.data_dir.join(RESERVOIR_DIR), cfg.reservoir.clone())?;
    // One engine for DIR/asadb.db, shared by the worker (which runs queued
    // jobs one at a time) and /api/query.
    let db =
        asadb::Database::open_with(cfg.data_dir.join(DATABASE_FILE), asadb::Options::default())?;
    if cfg.worker {
        reservoir.start_worker(db.engine())?;
    }
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let adb = {
        let _in_runtime = rt.enter();
        let opts = asadb::AsyncOptions {
            statement_timeout: cfg.limits.query_timeout,
            ..asadb::AsyncOptions::default()
        };
        asadb::AsyncDatabase::new(db, opts)?
    };
    let ttl = cfg.reservoir.job_ttl;
    let result = rt.block_on(async {
        let listener = tokio::net::TcpListener::bind(cfg.listen)
            .await
            .map_err(|e| Error::Config(format!("cannot listen on {}: {e}", cfg.listen)))?;
        let addr = listener.local_addr()?;
        if let Some(file) = &cfg.config_file {
            println!("config: {}", file.display());
        }
        println!("data directory: {}", cfg.data_dir.display());
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

        let app = AppState::new(
            reservoir.clone(),
            adb.clone(),
            token,
            cfg.allow_file_dirs.clone(),
            cfg.worker,
            cfg.limits,
            panic_marker,
        );
        let stop = CancellationToken::new();
        let sweeper = tokio::spawn(sweep_forever(reservoir.clone(), ttl, stop.clone()));
        let res = reservoir.clone();
        let on_close: crate::framing::CloseCheck = std::sync::Arc::new(move |id, after| {
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
        });
        let server = tokio::spawn(crate::framing::serve(
            listener,
            api::router(app),
            cfg.limits,
            on_close,
            stop.clone(),
        ));
        let mut server = server;
        tokio::select! {
            () = shutdown_signal() => {}
            // The server only ends by itself on an accept-loop error.
            ended = &mut server => {
                stop.cancel();
                return ended.map_err(|e| Error::Internal(e.to_string()))?.map_err(Error::from);
            }
        }
        tracing::info!("shutting down: no new connections, finishing requests in flight");
        stop.cancel();
        let _ = sweeper.await;
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
    reservoir.shutdown();
    if let Err(e) = rt.block_on(adb.shutdown()) {
        tracing::warn!("closing the database failed: {e}");
    }
    // Dropping the runtime drops connection tasks still running; their
    // uploads fail and remove their spool files on the blocking pool.
    rt.shutdown_timeout(Duration::from_secs(5));
    tracing::info!("stopped");
    result
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

/// Removes expired terminal jobs every so often.
async fn sweep_forever(reservoir: Reservoir, ttl: Duration, stop: CancellationToken) {
    let every = (ttl / 4).clamp(Duration::from_secs(1), Duration::from_secs(60));
    let mut tick = tokio::time::interval(every);
    loop {
        tokio::select! {
            () = stop.cancelled() => return,
            _ = tick.tick() => {}
        }
        let res = reservoir.clone();
        match tokio::task::spawn_blocking(move || res.sweep()).await {
            Ok(Ok(0)) => {}
            Ok(Ok(n)) => tracing::info!(removed = n, "expired jobs removed"),
            Ok(Err(e)) => tracing::warn!("sweeping expired jobs failed: {e}"),
            Err(e) => tracing::warn!("sweeper task failed: {e}"),
        }
    }
}

/// Resolves on the first SIGINT or SIGTERM.
async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match (signal(SignalKind::terminate()), signal(SignalKind::interrupt())) {
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
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
