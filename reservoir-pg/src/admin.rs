//! Operator commands on a backend without running an engine: no lease, no
//! listener, no worker — one connection, one transaction.
//! (`asadb reservoir reconcile` and `asadb reservoir caps`.)

use asadb_reservoir::Result;

use crate::config::PgConfig;
use crate::error::pg;
use crate::jobs::{self, Capacity};
use crate::schema::{self, Sql};

async fn connect(cfg: &PgConfig) -> Result<(tokio_postgres::Client, Sql)> {
    let mut pgc = cfg.connection()?;
    pgc.application_name("asadb admin");
    let tls = crate::tls::Tls::from_config(cfg, &pgc)?;
    let (mut client, _driver) = tls.connect(&pgc, None).await.map_err(pg)?;
    let sql = Sql::new(&cfg.schema);
    schema::ensure(&mut client, &sql, &cfg.reservoir).await?;
    Ok((client, sql))
}

/// Rebuilds the capacity counters from the durable per-job rows; returns
/// the counters before and after. Safe while front-ends run.
pub async fn reconcile(cfg: &PgConfig) -> Result<(Capacity, Capacity)> {
    let (mut client, sql) = connect(cfg).await?;
    let tx = client.transaction().await.map_err(pg)?;
    let out = jobs::reconcile(&tx, &sql).await?;
    tx.commit().await.map_err(pg)?;
    Ok(out)
}

/// Shows (with both `None`) or sets the global caps.
pub async fn caps(
    cfg: &PgConfig,
    max_jobs: Option<u64>,
    max_spool_bytes: Option<u64>,
) -> Result<Capacity> {
    let (mut client, sql) = connect(cfg).await?;
    let tx = client.transaction().await.map_err(pg)?;
    let cap = jobs::set_caps(&tx, &sql, max_jobs, max_spool_bytes).await?;
    tx.commit().await.map_err(pg)?;
    Ok(cap)
}
