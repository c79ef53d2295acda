//! Connections: plain or TLS (the URL's `sslmode`), each driven by its own
//! task, which can hand notifications to a channel (the listener's).
//!
//! TLS goes through the system's TLS library (native-tls: OpenSSL on
//! Linux). `sslmode=disable` connects in plain text; `prefer` tries TLS and
//! falls back to plain when the server does not offer it; `require`
//! insists on TLS. Certificates are verified — chain and host name — only
//! against a root given as `PgConfig::ca_file` (libpq's `sslrootcert`);
//! without one the connection is encrypted but the server is not
//! authenticated (libpq's `require`, open to an active man in the middle).

use asadb_reservoir::{Error, Result};
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use futures_util::StreamExt;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::mpsc::UnboundedSender;
use tokio::task::JoinHandle;
use tokio_postgres::config::SslMode;
use tokio_postgres::{AsyncMessage, Client, Connection, NoTls};

use crate::config::PgConfig;

/// How connections are made.
#[derive(Clone)]
pub(crate) enum Tls {
    Plain,
    Native(postgres_native_tls::MakeTlsConnector),
}

impl Tls {
    /// From the URL's `sslmode` and the configured root certificate.
    pub fn from_config(cfg: &PgConfig, pg: &tokio_postgres::Config) -> Result<Tls> {
        if pg.get_ssl_mode() == SslMode::Disable {
            if cfg.ca_file.is_some() {
                return Err(Error::InvalidInput(
                    "a CA file is given but the URL says sslmode=disable".into(),
                ));
            }
            return Ok(Tls::Plain);
        }
        let mut b = native_tls::TlsConnector::builder();
        match &cfg.ca_file {
            Some(file) => {
                let pem = std::fs::read(file)
                    .map_err(|e| Error::InvalidInput(format!("CA file {}: {e}", file.display())))?;
                let cert = native_tls::Certificate::from_pem(&pem)
                    .map_err(|e| Error::InvalidInput(format!("CA file {}: {e}", file.display())))?;
                b.add_root_certificate(cert);
            }
            None => {
                b.danger_accept_invalid_certs(true);
                b.danger_accept_invalid_hostnames(true);
            }
        }
        let connector =
            b.build().map_err(|e| Error::InvalidInput(format!("TLS set-up failed: {e}")))?;
        Ok(Tls::Native(postgres_native_tls::MakeTlsConnector::new(connector)))
    }

    /// A pool of connections made this way.
    pub fn pool(&self, cfg: tokio_postgres::Config, size: usize) -> Result<Pool> {
        let mc = ManagerConfig { recycling_method: RecyclingMethod::Fast };
        let manager = match self {
            Tls::Plain => Manager::from_config(cfg, NoTls, mc),
            Tls::Native(t) => Manager::from_config(cfg, t.clone(), mc),
        };
        Pool::builder(manager)
            .max_size(size)
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(std::time::Duration::from_secs(30)))
            .create_timeout(Some(std::time::Duration::from_secs(10)))
            .build()
            .map_err(|e| Error::InvalidInput(format!("connection pool: {e}")))
    }

    /// One connection outside the pools; its driver task ends with the
    /// connection (yielding why), handing notifications to `notify`.
    pub async fn connect(
        &self,
        cfg: &tokio_postgres::Config,
        notify: Option<UnboundedSender<String>>,
    ) -> std::result::Result<(Client, JoinHandle<String>), tokio_postgres::Error> {
        Ok(match self {
            Tls::Plain => {
                let (client, conn) = cfg.connect(NoTls).await?;
                (client, tokio::spawn(drive(conn, notify)))
            }
            Tls::Native(t) => {
                let (client, conn) = cfg.connect(t.clone()).await?;
                (client, tokio::spawn(drive(conn, notify)))
            }
        })
    }
}

async fn drive<S, T>(mut conn: Connection<S, T>, notify: Option<UnboundedSender<String>>) -> String
where
    S: AsyncRead + AsyncWrite + Unpin,
    T: AsyncRead + AsyncWrite + Unpin,
{
    let mut messages = futures_util::stream::poll_fn(move |cx| conn.poll_message(cx));
    while let Some(message) = messages.next().await {
        match message {
            Ok(AsyncMessage::Notification(n)) => {
                if let Some(tx) = &notify
                    && tx.send(n.payload().to_string()).is_err()
                {
                    break;
                }
            }
            Ok(_) => {}
            Err(e) => return crate::error::message(&e),
        }
    }
    "the connection closed".to_string()
}
