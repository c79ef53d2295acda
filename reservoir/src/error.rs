//! The Reservoir's error type.

use crate::JobId;

/// Errors of the Reservoir. Each maps to one HTTP status in the server:
/// see [`Error::is_retryable`] and the variants' docs.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Bad arguments: an unknown format, a malformed id, … (400)
    #[error("{0}")]
    InvalidInput(String),
    /// No job with this id (or it expired). (404)
    #[error("no such job: {0}")]
    NotFound(JobId),
    /// The idempotency key was used for a different body or metadata. (409)
    #[error("{0}")]
    Conflict(String),
    /// The received body does not have the SHA-256 the client stated. (400)
    #[error("{0}")]
    FingerprintMismatch(String),
    /// The body is larger than its declared size or than the whole spool
    /// can ever hold. (413)
    #[error("{0}")]
    TooLarge(String),
    /// The job limit or the spool is full right now; retry later. (429)
    #[error("{0}")]
    CapacityExhausted(String),
    /// The job was cancelled while this call was using it.
    #[error("job {0} was cancelled")]
    Cancelled(JobId),
    /// The operation does not fit the job's state (e.g. resume of a
    /// completed job). (409)
    #[error("{0}")]
    InvalidState(String),
    /// A format or feature that is not available yet. (400)
    #[error("not supported: {0}")]
    Unsupported(String),
    /// The event log or a spool/result file is damaged.
    #[error("reservoir data is corrupt: {0}")]
    Corrupt(String),
    /// The Reservoir is shutting down. (503)
    #[error("the reservoir is shutting down")]
    ShuttingDown,
    /// The engine failed outside of a statement (opening a session,
    /// committing a batch, reading the progress marker).
    #[error(transparent)]
    Sql(asadb_sql::Error),
    /// The engine's backing store (the PostgreSQL server of the
    /// `reservoir-pg` engine) is unreachable or refused a bookkeeping
    /// statement for a reason that may pass (connection lost, server
    /// shutting down, serialization failure). (503, retryable)
    #[error("the reservoir's database is unavailable: {0}")]
    Backend(String),
    /// A broken invariant of the engine itself (a bug), never bad input.
    /// (500)
    #[error("internal reservoir error: {0}")]
    Internal(String),
    /// File IO failed (500); the disk being full is told apart (507,
    /// `disk_full`, retryable once space is freed). A failed upload has
    /// already removed its spool file and released its reservation.
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
}

impl Error {
    /// True when the same request may succeed later unchanged.
    pub fn is_retryable(&self) -> bool {
        matches!(self, Error::CapacityExhausted(_) | Error::ShuttingDown | Error::Backend(_))
            || self.is_disk_full()
    }

    /// The file system is out of space (or quota).
    pub fn is_disk_full(&self) -> bool {
        matches!(self, Error::Io(e) if matches!(
            e.kind(),
            std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded
        ))
    }

    /// A stable machine code for the error (used in JSON and job records).
    pub fn code(&self) -> &'static str {
        match self {
            Error::InvalidInput(_) => "invalid_input",
            Error::NotFound(_) => "not_found",
            Error::Conflict(_) => "conflict",
            Error::FingerprintMismatch(_) => "fingerprint_mismatch",
            Error::TooLarge(_) => "too_large",
            Error::CapacityExhausted(_) => "capacity_exhausted",
            Error::Cancelled(_) => "cancelled",
            Error::InvalidState(_) => "invalid_state",
            Error::Unsupported(_) => "unsupported",
            Error::Corrupt(_) => "corrupt",
            Error::ShuttingDown => "shutting_down",
            Error::Backend(_) => "backend_unavailable",
            Error::Internal(_) => "internal",
            Error::Io(_) if self.is_disk_full() => "disk_full",
            Error::Io(_) => "io",
            Error::Sql(_) => "sql_error",
        }
    }
}

/// Result alias of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_disk_is_its_own_retryable_code() {
        let full = Error::Io(std::io::Error::from(std::io::ErrorKind::StorageFull));
        assert_eq!(full.code(), "disk_full");
        assert!(full.is_retryable());
        let other = Error::Io(std::io::Error::from(std::io::ErrorKind::PermissionDenied));
        assert_eq!(other.code(), "io");
        assert!(!other.is_retryable());
    }
}
