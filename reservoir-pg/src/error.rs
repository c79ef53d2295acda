//! Driver errors mapped onto the Reservoir's error type.
//!
//! The contract has one error type for both engines. A PostgreSQL error
//! in the engine's own bookkeeping becomes [`Error::Backend`] (503,
//! retryable) when it may pass — the connection is gone, the server is
//! shutting down or out of resources, a serialization failure or
//! deadlock — and [`Error::Internal`] otherwise (a schema someone altered,
//! a permission taken away). Errors of a script's statements never come
//! here: they are the statement's result (`sql_error`).

use asadb_reservoir::Error;
use tokio_postgres::error::SqlState;

/// A driver error of the engine's own statements.
pub(crate) fn pg(e: tokio_postgres::Error) -> Error {
    if is_transient(&e) {
        Error::Backend(message(&e))
    } else {
        Error::Internal(format!("PostgreSQL: {}", message(&e)))
    }
}

/// A pool error (no connection could be had).
pub(crate) fn pool(e: deadpool_postgres::PoolError) -> Error {
    match e {
        deadpool_postgres::PoolError::Backend(e) => pg(e),
        other => Error::Backend(format!("no pooled connection: {other}")),
    }
}

/// The connection is gone or the failure may pass on retry.
pub(crate) fn is_transient(e: &tokio_postgres::Error) -> bool {
    if e.is_closed() {
        return true;
    }
    match e.code() {
        // Not a server error at all: IO, a broken connection.
        None => e.as_db_error().is_none(),
        Some(code) => {
            let class = &code.code()[..2];
            matches!(class, "08" | "53" | "57")
                || *code == SqlState::T_R_SERIALIZATION_FAILURE
                || *code == SqlState::T_R_DEADLOCK_DETECTED
        }
    }
}

/// The connection itself failed (as opposed to one statement).
pub(crate) fn is_connection_lost(e: &tokio_postgres::Error) -> bool {
    e.is_closed()
        || e.as_db_error().is_none() && e.code().is_none()
        || e.code().is_some_and(|c| {
            matches!(&c.code()[..2], "08")
                || *c == SqlState::ADMIN_SHUTDOWN
                || *c == SqlState::CRASH_SHUTDOWN
                || *c == SqlState::IDLE_IN_TRANSACTION_SESSION_TIMEOUT
        })
}

/// The server's message (with its detail and hint) or the driver's.
pub(crate) fn message(e: &tokio_postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => {
            let mut m = db.message().to_string();
            if let Some(d) = db.detail() {
                m.push_str(&format!(" ({d})"));
            }
            if let Some(h) = db.hint() {
                m.push_str(&format!("; hint: {h}"));
            }
            m
        }
        None => match std::error::Error::source(e) {
            Some(cause) => format!("{e}: {cause}"),
            None => e.to_string(),
        },
    }
}
