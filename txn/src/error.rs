//! The transaction layer's error type.

/// Errors of the transaction layer. Page-level errors (IO, `Corrupt`,
/// `Poisoned`) are wrapped, not stringified, so callers can match them.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An error of the page layer: IO, corruption, latched writes.
    #[error(transparent)]
    Pager(#[from] asadb_pager::Error),
    /// Another writer holds the write lock past the busy timeout. Retryable.
    #[error("database is busy: another write transaction is active")]
    Busy,
    /// The database was closed.
    #[error("database is closed")]
    Closed,
    /// Another handle (another process, or another open of the same file
    /// in this one) has the database file open. Two writers over one file
    /// would corrupt it, so the second open is refused.
    #[error("database file {0} is in use by another process (or another open handle)")]
    Locked(String),
    /// Every buffer-pool frame is pinned or dirty.
    #[error("buffer pool exhausted: every frame is pinned or dirty")]
    PoolExhausted,
    /// A savepoint that is not (or no longer) on the stack.
    #[error("no such savepoint")]
    InvalidSavepoint,
    /// A call the API does not allow with these arguments (a write to the
    /// header page, an unknown user slot, a savepoint operation while page
    /// guards are held, unusable options).
    #[error("invalid request: {0}")]
    InvalidInput(String),
}

impl From<asadb_bufferpool::PoolError> for Error {
    fn from(err: asadb_bufferpool::PoolError) -> Self {
        match err {
            asadb_bufferpool::PoolError::Exhausted => Error::PoolExhausted,
        }
    }
}

impl Error {
    /// The page id if this is a corruption error.
    pub fn corrupt_page(&self) -> Option<asadb_pager::PageId> {
        match self {
            Error::Pager(asadb_pager::Error::Corrupt { page, .. }) => Some(*page),
            _ => None,
        }
    }
}

/// Result alias of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
