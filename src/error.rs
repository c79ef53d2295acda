//! The facade's one public error type.
//!
//! Lower errors are wrapped, never stringified: an [`Error::Sql`] keeps the
//! engine's error (and through it the transaction layer's `Busy`, the
//! pager's `Corrupt { page }` and the operating system's IO error) as its
//! `source()`. [`Error::kind`] folds every case into the few categories a
//! caller (or the server, turning them into HTTP statuses) acts on.

use std::time::Duration;

/// Result alias of the facade.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Errors of the embedded API.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The SQL engine (or a layer below it) failed.
    #[error(transparent)]
    Sql(#[from] asadb_sql::Error),
    /// Another writer held the write lock for the whole busy timeout.
    /// Retryable.
    #[error("database is busy: another write transaction held the lock for {waited:?}")]
    Busy { waited: Duration },
    /// The caller stopped waiting (async call timeout): the pool may have
    /// been busy, and the statement was interrupted (it may have finished
    /// just before). Retryable.
    #[error("timed out after {after:?}: {what}")]
    Timeout { after: Duration, what: &'static str },
    /// The statement ran past its statement timeout and was stopped and
    /// undone. Not retryable: the same statement will run as long again.
    #[error("the statement ran past its statement timeout of {after:?} and was stopped")]
    StatementTimeout { after: Duration },
    /// A bug: the call panicked inside the engine. The call's effects were
    /// undone; the database goes on.
    #[error("internal error: {0}")]
    Internal(String),
    /// An async transaction was rolled back on its lane because an earlier
    /// call on it timed out (or the database shut down). Retry the whole
    /// transaction.
    #[error("transaction was rolled back: {0}")]
    Aborted(&'static str),
    /// The database (or async front end) is closed or shutting down.
    #[error("database is closed")]
    Closed,
    /// The thread running the call ended without answering (it panicked:
    /// a bug). Reported as [`ErrorKind::Closed`]: that thread serves no
    /// more, though others may.
    #[error("{0} ended without finishing the call")]
    WorkerLost(&'static str),
    /// A value could not be converted to the requested Rust type.
    #[error("column {column}: cannot read {found} as {expected}")]
    Conversion { column: usize, expected: &'static str, found: &'static str },
    /// A row has no column of that name.
    #[error("no such column in the result: {0}")]
    NoSuchColumn(String),
    /// A row has no column at that position.
    #[error("column index {index} out of range (the row has {count} columns)")]
    ColumnIndex { index: usize, count: usize },
    /// A statement of a script failed; `index` and `offset` say which.
    #[error("statement {index} (byte {offset}) failed: {source}")]
    Statement {
        index: u64,
        offset: u64,
        #[source]
        source: Box<Error>,
    },
    /// A misuse of the API (e.g. a text that leaves a transaction open
    /// where none may stay open).
    #[error("{0}")]
    InvalidInput(String),
    /// The requested feature is not available in this build.
    #[error("not supported: {0}")]
    Unsupported(String),
    /// Starting a worker thread failed.
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
}

/// What kind of failure an [`Error`] is: the categories callers act on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Bad SQL, bad parameters, a bad conversion, API misuse.
    InvalidInput,
    /// A table, column, index or savepoint does not exist.
    NotFound,
    /// A UNIQUE / NOT NULL / CHECK / PRIMARY KEY constraint failed.
    Constraint,
    /// The write lock was not obtained in time. Retryable.
    Busy,
    /// The caller's time ran out. Retryable.
    Timeout,
    /// A statement ran past its statement timeout. Not retryable.
    StatementTimeout,
    /// A bug in the engine (a panic), answered as an error.
    Internal,
    /// A value, statement or transaction is past a limit.
    TooLarge,
    /// The database file is damaged.
    Corrupt,
    /// The operating system failed a read, write or sync.
    Io,
    /// The feature or statement is not supported.
    Unsupported,
    /// The database is closed or shutting down.
    Closed,
}

impl Error {
    /// The category of this error.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::Sql(e) => sql_kind(e),
            Error::Busy { .. } => ErrorKind::Busy,
            Error::Timeout { .. } | Error::Aborted(_) => ErrorKind::Timeout,
            Error::StatementTimeout { .. } => ErrorKind::StatementTimeout,
            Error::Internal(_) => ErrorKind::Internal,
            Error::Closed | Error::WorkerLost(_) => ErrorKind::Closed,
            Error::Conversion { .. } | Error::ColumnIndex { .. } | Error::InvalidInput(_) => {
                ErrorKind::InvalidInput
            }
            Error::NoSuchColumn(_) => ErrorKind::NotFound,
            Error::Statement { source, .. } => source.kind(),
            Error::Unsupported(_) => ErrorKind::Unsupported,
            Error::Io(_) => ErrorKind::Io,
        }
    }

    /// True when the same call may succeed if simply tried again later
    /// (busy, timeout).
    pub fn is_retryable(&self) -> bool {
        matches!(self.kind(), ErrorKind::Busy | ErrorKind::Timeout)
    }

    /// True when an operating-system error anywhere in the chain says the
    /// disk (or the quota) is full: `ENOSPC`, `EDQUOT`.
    pub fn is_disk_full(&self) -> bool {
        let mut cur: Option<&(dyn std::error::Error + 'static)> = Some(self);
        while let Some(e) = cur {
            if let Some(io) = e.downcast_ref::<std::io::Error>()
                && matches!(
                    io.kind(),
                    std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded
                )
            {
                return true;
            }
            cur = e.source();
        }
        false
    }
}

fn sql_kind(e: &asadb_sql::Error) -> ErrorKind {
    use asadb_sql::Error as S;
    match e {
        S::Storage(t) => txn_kind(t),
        S::Corrupt(_) => ErrorKind::Corrupt,
        S::Parse(_) => ErrorKind::InvalidInput,
        S::InvalidInput(_) if is_busy(e) => ErrorKind::Busy,
        S::InvalidInput(_) => ErrorKind::InvalidInput,
        S::NotFound(_) => ErrorKind::NotFound,
        S::Constraint(_) => ErrorKind::Constraint,
        S::Raise(..) => ErrorKind::Constraint,
        S::TooLarge(_) => ErrorKind::TooLarge,
        S::Unsupported(_) => ErrorKind::Unsupported,
        S::Io(_) => ErrorKind::Io,
        S::Interrupted => ErrorKind::Timeout,
        S::Internal(_) => ErrorKind::Internal,
        _ => ErrorKind::InvalidInput,
    }
}

fn txn_kind(e: &asadb_txn::Error) -> ErrorKind {
    use asadb_pager::Error as P;
    use asadb_txn::Error as T;
    match e {
        T::Busy | T::Locked(_) => ErrorKind::Busy,
        T::Closed => ErrorKind::Closed,
        T::PoolExhausted => ErrorKind::TooLarge,
        T::InvalidSavepoint => ErrorKind::NotFound,
        T::InvalidInput(_) => ErrorKind::InvalidInput,
        T::Pager(p) => match p {
            P::Io(_) | P::Poisoned(_) => ErrorKind::Io,
            P::Corrupt { .. } | P::NotADatabase(_) | P::OutOfRange { .. } => ErrorKind::Corrupt,
            P::Full { .. } => ErrorKind::TooLarge,
            _ => ErrorKind::Io,
        },
        _ => ErrorKind::Io,
    }
}

/// True when `e` says another writer holds the write lock: the
/// transaction layer's `Busy`, or the in-memory test store's "database is
/// locked" (which it reports as invalid input, without waiting).
pub(crate) fn is_busy(e: &asadb_sql::Error) -> bool {
    match e {
        asadb_sql::Error::Storage(asadb_txn::Error::Busy) => true,
        asadb_sql::Error::InvalidInput(m) => m == "database is locked",
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_follow_the_wrapped_error() {
        let busy = Error::Sql(asadb_sql::Error::Storage(asadb_txn::Error::Busy));
        assert_eq!(busy.kind(), ErrorKind::Busy);
        assert!(busy.is_retryable());
        let corrupt = Error::Sql(asadb_sql::Error::Storage(asadb_txn::Error::Pager(
            asadb_pager::Error::corrupt(asadb_pager::PageId(3), "bad checksum"),
        )));
        assert_eq!(corrupt.kind(), ErrorKind::Corrupt);
        assert!(!corrupt.is_retryable());
        let parse = Error::Sql(asadb_sql::Error::Parse("x".into()));
        assert_eq!(parse.kind(), ErrorKind::InvalidInput);
        let nested = Error::Statement { index: 2, offset: 10, source: Box::new(busy) };
        assert_eq!(nested.kind(), ErrorKind::Busy);
        assert_eq!(Error::Aborted("timeout").kind(), ErrorKind::Timeout);
    }

    #[test]
    fn source_is_kept() {
        use std::error::Error as _;
        let io = std::io::Error::new(std::io::ErrorKind::StorageFull, "disk full");
        let e = Error::Sql(asadb_sql::Error::Io(io));
        assert_eq!(e.kind(), ErrorKind::Io);
        let inner = e.source().expect("sql error is the source");
        let io = inner
            .downcast_ref::<std::io::Error>()
            .or_else(|| inner.source().and_then(|s| s.downcast_ref::<std::io::Error>()));
        assert_eq!(io.map(|e| e.kind()), Some(std::io::ErrorKind::StorageFull));
        assert!(e.is_disk_full());
        let deep = Error::Sql(asadb_sql::Error::Storage(asadb_txn::Error::Pager(
            asadb_pager::Error::Io(std::io::Error::from_raw_os_error(28)),
        )));
        assert!(deep.is_disk_full());
        let eio = Error::Sql(asadb_sql::Error::Io(std::io::Error::from_raw_os_error(5)));
        assert!(!eio.is_disk_full());
    }
}
