//! The SQL layer's error type.

/// Errors of the SQL layer. Storage errors are wrapped so `Busy`,
/// `Corrupt { page }` and IO errors keep their identity up to the facade.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The transaction/page layer failed (IO, corruption, busy, …).
    #[error(transparent)]
    Storage(#[from] asadb_txn::Error),
    /// A structure in the pages is impossible (bad B+tree node, record, …).
    #[error("database is corrupt: {0}")]
    Corrupt(String),
    /// The SQL text does not parse.
    #[error("syntax error: {0}")]
    Parse(String),
    /// The statement is well-formed but invalid (bad arguments, misuse, …).
    #[error("{0}")]
    InvalidInput(String),
    /// A table, column, index, view or savepoint does not exist.
    #[error("{0}")]
    NotFound(String),
    /// A constraint (UNIQUE, NOT NULL, CHECK, PRIMARY KEY) failed.
    #[error("constraint failed: {0}")]
    Constraint(String),
    /// A value or statement is past a size limit.
    #[error("too large: {0}")]
    TooLarge(String),
    /// The statement or feature is not supported (yet).
    #[error("not supported: {0}")]
    Unsupported(String),
    /// The statement was stopped by its session's
    /// [`Interrupt`](crate::storage::Interrupt); its effects were undone.
    #[error("interrupted (cancelled, or past its time limit)")]
    Interrupted,
    /// `RAISE(kind, message)` in a trigger program (the message as SQLite
    /// gives it; IGNORE never leaves the trigger machinery).
    #[error("{1}")]
    Raise(RaiseKind, String),
    /// Reading input other than the database (e.g. a script) failed.
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
    /// The statement hit a bug (it panicked). Its effects were undone like
    /// a failed statement's; the session and its transaction go on.
    #[error("internal error: {0}")]
    Internal(String),
}

/// What a trigger's `RAISE` does to the statement that fired it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RaiseKind {
    /// Skip the rest of the trigger and the row's change; go on.
    Ignore,
    /// Fail the statement, undoing its changes.
    Abort,
    /// Fail the statement, keeping the changes it made before.
    Fail,
    /// Fail the statement and roll the whole transaction back.
    Rollback,
}

/// Result alias of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// `errinput!("no such column: {}", name)` → `Err(Error::InvalidInput(..))`.
#[macro_export]
macro_rules! errinput {
    ($($args:tt)*) => { Err($crate::Error::InvalidInput(format!($($args)*))) };
}

/// `corrupt!("bad cell count {}", n)` → `Err(Error::Corrupt(..))`.
#[macro_export]
macro_rules! corrupt {
    ($($args:tt)*) => { Err($crate::Error::Corrupt(format!($($args)*))) };
}
