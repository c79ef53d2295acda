//! The PostgreSQL engine's settings and its connection parameters.

use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use asadb_reservoir::{Config, Error, Result};

/// Environment variable holding the password when the URL has none
/// (libpq's name).
pub const PASSWORD_ENV: &str = "PGPASSWORD";
/// Plain statements sent in one round trip by default.
pub const GROUP_STATEMENTS: u64 = 100;
/// Overrides [`GROUP_STATEMENTS`] for [`PgConfig::new`].
pub const GROUP_STATEMENTS_ENV: &str = "ASADB_PG_GROUP_STATEMENTS";
/// The engine-owned schema when none is configured.
pub const DEFAULT_SCHEMA: &str = "asadb";

/// Settings of a [`crate::PgReservoir`].
#[derive(Clone, Debug)]
pub struct PgConfig {
    /// `postgres://USER@HOST:PORT/DB[?sslmode=disable|prefer|require]`; the
    /// database holds the engine's schema and is where scripts run.
    pub url: String,
    /// A file holding the password (first line), used when neither the URL
    /// nor `PGPASSWORD` carries one.
    pub password_file: Option<PathBuf>,
    /// A PEM root certificate: with TLS (`sslmode=prefer|require`), the
    /// server's certificate and host name are verified against it;
    /// without it TLS encrypts but does not authenticate the server.
    pub ca_file: Option<PathBuf>,
    /// The engine-owned schema (`[a-z_][a-z0-9_]*`, at most 40 bytes).
    pub schema: String,
    /// Pooled connections for bookkeeping, uploads, result pages and
    /// queries. The listener and the executor have their own connections
    /// outside the pool.
    pub pool_size: usize,
    /// How long a process's lease lasts without a heartbeat (renewed every
    /// third of it); a dead process's jobs become interrupted once it has
    /// expired.
    pub lease: Duration,
    /// The safety-net re-poll of the queue when no notification arrives.
    pub poll_interval: Duration,
    /// `false`: poll-only mode, for PostgreSQL-compatible engines without
    /// LISTEN/NOTIFY (wakes come from `poll_interval` alone).
    pub listen: bool,
    /// Whether this process executes jobs (it stands by for the executor
    /// lock); `false` makes it a front-end only.
    pub worker: bool,
    /// Most groupable statements (`INSERT … VALUES`, `CREATE TABLE`) the executor
    /// sends together in one round trip (see the worker's groups); 1 sends
    /// every statement alone. Default [`GROUP_STATEMENTS`], or the
    /// environment's [`GROUP_STATEMENTS_ENV`] (a tuning knob for benches).
    pub group_statements: u64,
    /// Limits and sizes shared with the embedded engine. `max_jobs` and
    /// `max_spool_bytes` are this front-end's own caps, applied on top of
    /// the global caps stored in the schema (the effective limit is the
    /// minimum); the global caps are set from them when the schema is
    /// created.
    pub reservoir: Config,
}

impl PgConfig {
    /// Defaults for a database URL.
    pub fn new(url: impl Into<String>) -> Self {
        PgConfig {
            url: url.into(),
            password_file: None,
            ca_file: None,
            schema: DEFAULT_SCHEMA.into(),
            pool_size: 8,
            lease: Duration::from_secs(10),
            poll_interval: Duration::from_secs(2),
            listen: true,
            worker: true,
            group_statements: std::env::var(GROUP_STATEMENTS_ENV)
                .ok()
                .and_then(|v| v.parse().ok())
                .filter(|n| *n > 0)
                .unwrap_or(GROUP_STATEMENTS),
            reservoir: Config::default(),
        }
    }

    /// Checks the settings and builds the driver's connection settings:
    /// the URL parsed, the password from the URL, `PGPASSWORD` or the
    /// password file (in that order), keepalives on.
    pub fn connection(&self) -> Result<tokio_postgres::Config> {
        check_schema(&self.schema)?;
        if self.pool_size == 0 {
            return Err(Error::InvalidInput("the pool size must be positive".into()));
        }
        if self.lease < Duration::from_millis(300) || self.poll_interval.is_zero() {
            return Err(Error::InvalidInput(
                "the lease must be at least 300 ms and the poll interval positive".into(),
            ));
        }
        if !(self.url.starts_with("postgres://") || self.url.starts_with("postgresql://")) {
            return Err(Error::InvalidInput(format!(
                "backend {:?} is not a postgres:// URL",
                redact(&self.url)
            )));
        }
        let mut pg = tokio_postgres::Config::from_str(&self.url).map_err(|e| {
            Error::InvalidInput(format!("backend URL {:?}: {e}", redact(&self.url)))
        })?;
        if pg.get_hosts().is_empty() {
            return Err(Error::InvalidInput("the backend URL names no host".into()));
        }
        if pg.get_user().is_none() {
            return Err(Error::InvalidInput("the backend URL names no user (USER@HOST)".into()));
        }
        if pg.get_dbname().is_none() {
            return Err(Error::InvalidInput("the backend URL names no database (/DB)".into()));
        }
        if pg.get_password().is_none() {
            if let Some(p) = std::env::var_os(PASSWORD_ENV) {
                pg.password(p.to_string_lossy().as_bytes());
            } else if let Some(file) = &self.password_file {
                let text = std::fs::read_to_string(file).map_err(|e| {
                    Error::InvalidInput(format!("password file {}: {e}", file.display()))
                })?;
                pg.password(text.lines().next().unwrap_or_default());
            }
        }
        pg.keepalives(true).keepalives_idle(Duration::from_secs(30));
        pg.connect_timeout(Duration::from_secs(10));
        Ok(pg)
    }
}

/// The schema name must be a plain lowercase identifier: it is quoted
/// into every statement and names the notification channel.
pub fn check_schema(schema: &str) -> Result<()> {
    let mut chars = schema.chars();
    let ok = schema.len() <= 40
        && chars.next().is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if !ok {
        return Err(Error::InvalidInput(format!(
            "schema {schema:?} must match [a-z_][a-z0-9_]* and be at most 40 bytes"
        )));
    }
    Ok(())
}

/// The URL without its password, for messages.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let userinfo = &url[scheme + 3..at];
            match userinfo.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..scheme + 3], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_checked() {
        let ok = PgConfig::new("postgres://asadb@127.0.0.1:5432/db");
        let pg = ok.connection().unwrap();
        assert_eq!(pg.get_user(), Some("asadb"));
        assert_eq!(pg.get_dbname(), Some("db"));
        for bad in [
            "mysql://u@h/db",
            "postgres://u@h:notaport/db",
            "postgres://127.0.0.1:5432/db",
            "postgres://u@127.0.0.1:5432",
            "postgres://u@h/db?sslmode=verify-full",
            "postgres://u@h/db?nonsense=1",
        ] {
            assert!(PgConfig::new(bad).connection().is_err(), "{bad}");
        }
        let mut c = PgConfig::new("postgres://u@h/db");
        c.schema = "Bad-Name".into();
        assert!(c.connection().is_err());
        c.schema = "x".repeat(41);
        assert!(c.connection().is_err());
        c.schema = "asadb_2".into();
        assert!(c.connection().is_ok());
    }

    #[test]
    fn passwords_are_redacted() {
        assert_eq!(redact("postgres://u:secret@h:1/db"), "postgres://u:***@h:1/db");
        assert_eq!(redact("postgres://u@h/db"), "postgres://u@h/db");
    }
}
