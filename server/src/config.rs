//! `serve`'s settings: command-line flags merged over `asadb.toml`.
//!
//! Every flag of `asadb serve` is also a key of the TOML file, spelled as
//! the flag without its dashes prefix (`reservoir-max-jobs = 4`). The file
//! is `--config FILE` if given (it must exist), else `DIR/asadb.toml` if it
//! exists. Flags win over the file; the file wins over the defaults.
//! Unknown keys are an error, so a typo does not silently do nothing.

use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::time::Duration;

use asadb::reservoir;
use clap::Args;
use serde::Deserialize;

use crate::error::{Error, Result};

/// The data directory when none is given.
pub const DEFAULT_DATA_DIR: &str = "./asadb-data";
/// The listen address when none is given.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:7878";
/// The configuration file looked for in the data directory.
pub const CONFIG_FILE: &str = "asadb.toml";

/// `asadb serve`'s flags. Every `Option` left unset falls back to the
/// config file, then to the default.
#[derive(Args, Debug, Default, Clone)]
pub struct ServeArgs {
    /// Data directory (created if missing) [default: ./asadb-data]
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// Address to listen on; port 0 picks a free port [default: 127.0.0.1:7878]
    #[arg(long, value_name = "ADDR")]
    pub listen: Option<String>,
    /// Allow listening on a non-loopback address
    #[arg(long)]
    pub allow_remote: bool,
    /// Read the token from this file (created with a new token if missing)
    #[arg(long, value_name = "FILE")]
    pub token_file: Option<PathBuf>,
    /// Configuration file [default: DIR/asadb.toml when it exists]
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Most active jobs (receiving, queued, processing, cancelling) [default: 16]
    #[arg(long, value_name = "N")]
    pub reservoir_max_jobs: Option<usize>,
    /// Most spool bytes reserved at once [default: 536870912]
    #[arg(long, value_name = "N")]
    pub reservoir_max_spool_bytes: Option<u64>,
    /// How long finished jobs stay addressable, in seconds [default: 3600]
    #[arg(long, value_name = "N")]
    pub reservoir_job_ttl_seconds: Option<u64>,
    /// Persist progress every N script bytes [default: 1048576]
    #[arg(long, value_name = "N")]
    pub reservoir_progress_quantum_bytes: Option<u64>,
    /// Most rows in one result page [default: 250]
    #[arg(long, value_name = "N")]
    pub reservoir_result_page_rows: Option<usize>,
    /// Spool bytes charged up front to a body without a declared length; it grows chunk by chunk [default: 2097152]
    #[arg(long, value_name = "N")]
    pub reservoir_baseline_reservation_bytes: Option<u64>,
    /// A directory whose files `POST /api/reservoir/file` may submit (repeatable)
    #[arg(long, value_name = "DIR")]
    pub allow_file_dir: Vec<PathBuf>,
    /// Do not run jobs: they are accepted and stay queued (maintenance, tests)
    #[arg(long)]
    pub no_worker: bool,
    /// Keep the Reservoir and the data in PostgreSQL: postgres://USER@HOST:PORT/DB
    /// (see docs/scale-out.md) [default: the embedded engine in DIR]
    #[arg(long, value_name = "URL")]
    pub backend: Option<String>,
    /// The backend's password, first line of this file (when neither the URL nor PGPASSWORD has one)
    #[arg(long, value_name = "FILE")]
    pub backend_password_file: Option<PathBuf>,
    /// A PEM root certificate: with sslmode=prefer|require in the URL, the server's certificate and host are verified against it
    #[arg(long, value_name = "FILE")]
    pub backend_ca_file: Option<PathBuf>,
    /// The backend's engine-owned schema [default: asadb]
    #[arg(long, value_name = "NAME")]
    pub backend_schema: Option<String>,
    /// How long a dead process keeps its jobs before another marks them interrupted, in seconds [default: 10]
    #[arg(long, value_name = "N")]
    pub backend_lease_seconds: Option<u64>,
    /// Pooled backend connections of this process [default: 8]
    #[arg(long, value_name = "N")]
    pub backend_pool_size: Option<usize>,
    /// No LISTEN/NOTIFY: wake by re-polling only (for engines without LISTEN)
    #[arg(long)]
    pub backend_poll_only: bool,
    /// How often idle workers re-read the queue without a notification, in milliseconds [default: 2000]
    #[arg(long, value_name = "MS")]
    pub backend_poll_interval_ms: Option<u64>,
    /// Longest value (text or blob bytes) in a query row or a job's result
    /// row; also the longest string or blob SQL functions build [default: 16777216]
    #[arg(long, value_name = "N")]
    pub max_value_bytes: Option<u64>,
    /// Most bytes of rows in one /api/query or result page; a page ends
    /// early (and says so) past it [default: 33554432]
    #[arg(long, value_name = "N")]
    pub max_page_bytes: Option<u64>,
    /// Seconds a connection has to send a complete request head once it
    /// has started one [default: 10]
    #[arg(long, value_name = "N")]
    pub http_header_timeout_seconds: Option<u64>,
    /// Seconds an idle connection (no request in progress) is kept open [default: 60]
    #[arg(long, value_name = "N")]
    pub http_idle_timeout_seconds: Option<u64>,
    /// Most connections open at once; more are answered 503 and closed
    /// [default: 256, at most a third of the open-file limit]
    #[arg(long, value_name = "N")]
    pub http_max_connections: Option<usize>,
    /// Slowest upload accepted: an upload that receives fewer bytes than
    /// this rate over any window of --upload-rate-window-seconds fails [default: 1024]
    #[arg(long, value_name = "N")]
    pub upload_min_bytes_per_second: Option<u64>,
    /// The window of the minimum upload rate, in seconds [default: 60]
    #[arg(long, value_name = "N")]
    pub upload_rate_window_seconds: Option<u64>,
    /// A /api/query statement running longer is stopped (422 statement_timeout) [default: 30]
    #[arg(long, value_name = "N")]
    pub query_timeout_seconds: Option<u64>,
}

/// The keys of `asadb.toml`: the flags' names.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct FileConfig {
    data: Option<PathBuf>,
    listen: Option<String>,
    allow_remote: Option<bool>,
    token_file: Option<PathBuf>,
    reservoir_max_jobs: Option<usize>,
    reservoir_max_spool_bytes: Option<u64>,
    reservoir_job_ttl_seconds: Option<u64>,
    reservoir_progress_quantum_bytes: Option<u64>,
    reservoir_result_page_rows: Option<usize>,
    reservoir_baseline_reservation_bytes: Option<u64>,
    #[serde(default)]
    allow_file_dir: Vec<PathBuf>,
    no_worker: Option<bool>,
    backend: Option<String>,
    backend_password_file: Option<PathBuf>,
    backend_ca_file: Option<PathBuf>,
    backend_schema: Option<String>,
    backend_lease_seconds: Option<u64>,
    backend_pool_size: Option<usize>,
    backend_poll_only: Option<bool>,
    backend_poll_interval_ms: Option<u64>,
    max_value_bytes: Option<u64>,
    max_page_bytes: Option<u64>,
    http_header_timeout_seconds: Option<u64>,
    http_idle_timeout_seconds: Option<u64>,
    http_max_connections: Option<usize>,
    upload_min_bytes_per_second: Option<u64>,
    upload_rate_window_seconds: Option<u64>,
    query_timeout_seconds: Option<u64>,
}

/// The server's limits on what one request or connection may cost.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Longest value in a query or result row (and built by SQL functions).
    pub max_value_bytes: usize,
    /// Most bytes of rows in one page.
    pub max_page_bytes: usize,
    /// Time to finish a request head once its first byte arrived.
    pub header_timeout: Duration,
    /// Time an idle connection is kept.
    pub idle_timeout: Duration,
    /// Connections served at once.
    pub max_connections: usize,
    /// Slowest accepted upload: bytes per second, averaged over `rate_window`.
    pub min_upload_rate: u64,
    pub rate_window: Duration,
    /// The statement timeout of `/api/query`.
    pub query_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_value_bytes: 16 << 20,
            max_page_bytes: 32 << 20,
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            max_connections: default_max_connections(),
            min_upload_rate: 1024,
            rate_window: Duration::from_secs(60),
            query_timeout: Duration::from_secs(30),
        }
    }
}

/// 256 connections, or a third of the soft open-file limit if that is
/// lower (each connection is one descriptor; the rest stays for the
/// database, the spool, results and the refusals themselves).
fn default_max_connections() -> usize {
    let mut lim = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit(2) writes into the struct we pass.
    let soft = if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } == 0 {
        lim.rlim_cur
    } else {
        1024
    };
    (soft / 3).clamp(8, 256) as usize
}

/// The resolved settings of one `serve` run.
#[derive(Debug, Clone)]
pub struct ServeConfig {
    pub data_dir: PathBuf,
    pub listen: SocketAddr,
    pub token_file: Option<PathBuf>,
    pub reservoir: reservoir::Config,
    /// Canonicalized allowed directories.
    pub allow_file_dirs: Vec<PathBuf>,
    /// The config file that was read, if any.
    pub config_file: Option<PathBuf>,
    /// Whether the Reservoir's worker runs queued jobs.
    pub worker: bool,
    /// The PostgreSQL backend, when the Reservoir lives there (its
    /// `reservoir` settings are filled in at start-up).
    pub backend: Option<asadb_reservoir_pg::PgConfig>,
    pub limits: Limits,
}

impl ServeArgs {
    /// Merges the flags over the config file and the defaults, and checks
    /// the result (a non-loopback address needs `--allow-remote`).
    pub fn resolve(self) -> Result<ServeConfig> {
        // The data directory decides where the default config file is, so
        // only an explicit --config can move it.
        let (file, config_file) = match &self.config {
            Some(path) => (read_config(path)?, Some(path.clone())),
            None => {
                let dir = self.data.clone().unwrap_or_else(|| DEFAULT_DATA_DIR.into());
                let path = dir.join(CONFIG_FILE);
                if path.exists() { (read_config(&path)?, Some(path)) } else { Default::default() }
            }
        };
        let data_dir = self.data.or(file.data).unwrap_or_else(|| DEFAULT_DATA_DIR.into());
        let listen_text = self.listen.or(file.listen).unwrap_or_else(|| DEFAULT_LISTEN.into());
        let listen = parse_listen(&listen_text)?;
        let allow_remote = self.allow_remote || file.allow_remote.unwrap_or(false);
        if !listen.ip().is_loopback() && !allow_remote {
            return Err(Error::Config(format!(
                "refusing to listen on {listen}: it is not a loopback address, and the API \
                 gives full control over the database to anyone holding the token; pass \
                 --allow-remote (or allow-remote = true in {CONFIG_FILE}) if you mean it"
            )));
        }
        let mut cfg = reservoir::Config::default();
        if let Some(n) = self.reservoir_max_jobs.or(file.reservoir_max_jobs) {
            cfg.max_jobs = positive("reservoir-max-jobs", n as u64)? as usize;
        }
        if let Some(n) = self.reservoir_max_spool_bytes.or(file.reservoir_max_spool_bytes) {
            cfg.max_spool_bytes = positive("reservoir-max-spool-bytes", n)?;
        }
        if let Some(n) = self.reservoir_job_ttl_seconds.or(file.reservoir_job_ttl_seconds) {
            cfg.job_ttl = Duration::from_secs(n);
        }
        if let Some(n) =
            self.reservoir_progress_quantum_bytes.or(file.reservoir_progress_quantum_bytes)
        {
            cfg.progress_quantum_bytes = positive("reservoir-progress-quantum-bytes", n)?;
        }
        if let Some(n) = self.reservoir_result_page_rows.or(file.reservoir_result_page_rows) {
            cfg.result_page_rows = positive("reservoir-result-page-rows", n as u64)? as usize;
        }
        if let Some(n) =
            self.reservoir_baseline_reservation_bytes.or(file.reservoir_baseline_reservation_bytes)
        {
            cfg.baseline_reservation = positive("reservoir-baseline-reservation-bytes", n)?;
        }
        let mut limits = Limits::default();
        if let Some(n) = self.max_value_bytes.or(file.max_value_bytes) {
            limits.max_value_bytes = positive("max-value-bytes", n.min(1_000_000_000))? as usize;
        }
        if let Some(n) = self.max_page_bytes.or(file.max_page_bytes) {
            limits.max_page_bytes = positive("max-page-bytes", n.min(1 << 40))? as usize;
        }
        if let Some(n) = self.http_header_timeout_seconds.or(file.http_header_timeout_seconds) {
            limits.header_timeout =
                Duration::from_secs(positive("http-header-timeout-seconds", n)?);
        }
        if let Some(n) = self.http_idle_timeout_seconds.or(file.http_idle_timeout_seconds) {
            limits.idle_timeout = Duration::from_secs(positive("http-idle-timeout-seconds", n)?);
        }
        if let Some(n) = self.http_max_connections.or(file.http_max_connections) {
            limits.max_connections = positive("http-max-connections", n as u64)? as usize;
        }
        if let Some(n) = self.upload_min_bytes_per_second.or(file.upload_min_bytes_per_second) {
            limits.min_upload_rate = n;
        }
        if let Some(n) = self.upload_rate_window_seconds.or(file.upload_rate_window_seconds) {
            limits.rate_window = Duration::from_secs(positive("upload-rate-window-seconds", n)?);
        }
        if let Some(n) = self.query_timeout_seconds.or(file.query_timeout_seconds) {
            limits.query_timeout = Duration::from_secs(positive("query-timeout-seconds", n)?);
        }
        cfg.max_value_bytes = limits.max_value_bytes;
        // Result pages obey the same per-page limit as /api/query (on
        // either engine: the PostgreSQL backend gets this config below).
        cfg.max_page_bytes = limits.max_page_bytes;
        let dirs =
            if self.allow_file_dir.is_empty() { file.allow_file_dir } else { self.allow_file_dir };
        let allow_file_dirs = dirs
            .iter()
            .map(|d| {
                d.canonicalize()
                    .map_err(|e| Error::Config(format!("--allow-file-dir {}: {e}", d.display())))
            })
            .collect::<Result<Vec<_>>>()?;
        let worker = !(self.no_worker || file.no_worker.unwrap_or(false));
        let backend_url = self.backend.or(file.backend);
        let backend_only = [
            (
                "backend-password-file",
                self.backend_password_file.is_some() || file.backend_password_file.is_some(),
            ),
            ("backend-ca-file", self.backend_ca_file.is_some() || file.backend_ca_file.is_some()),
            ("backend-schema", self.backend_schema.is_some() || file.backend_schema.is_some()),
            (
                "backend-lease-seconds",
                self.backend_lease_seconds.is_some() || file.backend_lease_seconds.is_some(),
            ),
            (
                "backend-pool-size",
                self.backend_pool_size.is_some() || file.backend_pool_size.is_some(),
            ),
            ("backend-poll-only", self.backend_poll_only || file.backend_poll_only.is_some()),
            (
                "backend-poll-interval-ms",
                self.backend_poll_interval_ms.is_some() || file.backend_poll_interval_ms.is_some(),
            ),
        ];
        if backend_url.is_none()
            && let Some((name, _)) = backend_only.iter().find(|(_, set)| *set)
        {
            return Err(Error::Config(format!(
                "{name} is a setting of the PostgreSQL backend: give --backend postgres://… too"
            )));
        }
        let backend = match backend_url {
            None => None,
            Some(url) => {
                let mut pg = asadb_reservoir_pg::PgConfig::new(url);
                pg.password_file = self.backend_password_file.or(file.backend_password_file);
                pg.ca_file = self.backend_ca_file.or(file.backend_ca_file);
                if let Some(schema) = self.backend_schema.or(file.backend_schema) {
                    pg.schema = schema;
                }
                if let Some(n) = self.backend_lease_seconds.or(file.backend_lease_seconds) {
                    pg.lease = Duration::from_secs(positive("backend-lease-seconds", n)?);
                }
                if let Some(n) = self.backend_pool_size.or(file.backend_pool_size) {
                    pg.pool_size = positive("backend-pool-size", n as u64)? as usize;
                }
                pg.listen = !(self.backend_poll_only || file.backend_poll_only.unwrap_or(false));
                if let Some(n) = self.backend_poll_interval_ms.or(file.backend_poll_interval_ms) {
                    pg.poll_interval =
                        Duration::from_millis(positive("backend-poll-interval-ms", n)?);
                }
                pg.worker = worker;
                pg.reservoir = cfg.clone();
                // Refuse a bad URL, schema or password file now.
                pg.connection().map_err(|e| Error::Config(format!("--backend: {e}")))?;
                Some(pg)
            }
        };
        Ok(ServeConfig {
            data_dir,
            listen,
            token_file: self.token_file.or(file.token_file),
            reservoir: cfg,
            allow_file_dirs,
            config_file,
            worker,
            backend,
            limits,
        })
    }
}

fn read_config(path: &Path) -> Result<FileConfig> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::Config(format!("cannot read {}: {e}", path.display())))?;
    toml::from_str(&text).map_err(|e| Error::Config(format!("{}: {e}", path.display())))
}

fn positive(name: &str, n: u64) -> Result<u64> {
    if n == 0 {
        return Err(Error::Config(format!("{name} must be greater than 0")));
    }
    Ok(n)
}

/// Parses `IP:PORT`, `[IPv6]:PORT` or `localhost:PORT`.
pub fn parse_listen(s: &str) -> Result<SocketAddr> {
    if let Ok(addr) = s.parse::<SocketAddr>() {
        return Ok(addr);
    }
    if let Some(port) = s.strip_prefix("localhost:")
        && let Ok(port) = port.parse::<u16>()
    {
        return Ok(SocketAddr::new(IpAddr::from([127, 0, 0, 1]), port));
    }
    Err(Error::Config(format!(
        "invalid listen address {s:?} (expected IP:PORT, e.g. {DEFAULT_LISTEN})"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_apply_when_nothing_is_given() {
        let dir = tempfile::tempdir().unwrap();
        let args = ServeArgs { data: Some(dir.path().into()), ..Default::default() };
        let cfg = args.resolve().unwrap();
        assert_eq!(cfg.listen, DEFAULT_LISTEN.parse().unwrap());
        assert_eq!(cfg.reservoir.max_jobs, 16);
        assert!(cfg.config_file.is_none());
    }

    #[test]
    fn flags_win_over_the_file_and_the_file_over_defaults() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(CONFIG_FILE),
            "listen = \"127.0.0.1:9000\"\nreservoir-max-jobs = 3\nreservoir-max-spool-bytes = 4096\n",
        )
        .unwrap();
        let args = ServeArgs {
            data: Some(dir.path().into()),
            reservoir_max_jobs: Some(5),
            ..Default::default()
        };
        let cfg = args.resolve().unwrap();
        assert_eq!(cfg.listen.port(), 9000);
        assert_eq!(cfg.reservoir.max_jobs, 5);
        assert_eq!(cfg.reservoir.max_spool_bytes, 4096);
        assert_eq!(cfg.config_file, Some(dir.path().join(CONFIG_FILE)));
    }

    #[test]
    fn unknown_keys_and_zero_limits_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(CONFIG_FILE), "reservoir-max-jobz = 3\n").unwrap();
        let args = ServeArgs { data: Some(dir.path().into()), ..Default::default() };
        assert!(matches!(args.resolve(), Err(Error::Config(_))));
        let dir = tempfile::tempdir().unwrap();
        let args = ServeArgs {
            data: Some(dir.path().into()),
            reservoir_max_jobs: Some(0),
            ..Default::default()
        };
        assert!(matches!(args.resolve(), Err(Error::Config(_))));
    }

    #[test]
    fn backend_settings_are_checked_and_need_a_backend() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(CONFIG_FILE),
            "backend = \"postgres://asadb@127.0.0.1:5432/db\"\nbackend-schema = \"jobs_2\"\n\
             backend-lease-seconds = 3\nbackend-poll-only = true\nreservoir-max-jobs = 7\n\
             backend-poll-interval-ms = 500\nreservoir-baseline-reservation-bytes = 65536\n",
        )
        .unwrap();
        let args = ServeArgs { data: Some(dir.path().into()), ..Default::default() };
        let pg = args.resolve().unwrap().backend.expect("a backend");
        assert_eq!(pg.schema, "jobs_2");
        assert_eq!(pg.lease, Duration::from_secs(3));
        assert!(!pg.listen);
        assert_eq!(pg.poll_interval, Duration::from_millis(500));
        assert_eq!(pg.reservoir.max_jobs, 7);
        assert_eq!(pg.reservoir.baseline_reservation, 65536);
        let dir = tempfile::tempdir().unwrap();
        for bad in [
            ServeArgs { backend: Some("mysql://x@y/z".into()), ..Default::default() },
            ServeArgs {
                backend: Some("postgres://u@h/db".into()),
                backend_schema: Some("Bad!".into()),
                ..Default::default()
            },
            ServeArgs { backend_schema: Some("s".into()), ..Default::default() },
            ServeArgs { backend_poll_only: true, ..Default::default() },
            ServeArgs { backend_poll_interval_ms: Some(100), ..Default::default() },
            ServeArgs {
                backend: Some("postgres://u@h/db".into()),
                backend_poll_interval_ms: Some(0),
                ..Default::default()
            },
            ServeArgs { reservoir_baseline_reservation_bytes: Some(0), ..Default::default() },
        ] {
            let args = ServeArgs { data: Some(dir.path().into()), ..bad };
            assert!(matches!(args.resolve(), Err(Error::Config(_))));
        }
    }

    #[test]
    fn remote_addresses_need_allow_remote() {
        let dir = tempfile::tempdir().unwrap();
        let args = ServeArgs {
            data: Some(dir.path().into()),
            listen: Some("0.0.0.0:7878".into()),
            ..Default::default()
        };
        let err = args.clone().resolve().unwrap_err().to_string();
        assert!(err.contains("--allow-remote"), "{err}");
        let cfg = ServeArgs { allow_remote: true, ..args }.resolve().unwrap();
        assert!(cfg.listen.ip().is_unspecified());
    }

    #[test]
    fn listen_addresses_parse() {
        assert_eq!(parse_listen("localhost:80").unwrap().port(), 80);
        assert!(parse_listen("[::1]:0").unwrap().ip().is_loopback());
        assert!(parse_listen("nonsense").is_err());
        assert!(parse_listen("127.0.0.1").is_err());
    }
}
