//! The pager's error type.

use crate::PageId;

/// Errors of the page layer. Lower IO errors are wrapped, never stringified,
/// so their kind (e.g. `StorageFull`) survives to the caller.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The operating system (or an IO double) reported an error.
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
    /// A page failed its checksum or holds an impossible value.
    #[error("page {page} is corrupt: {reason}")]
    Corrupt { page: PageId, reason: String },
    /// The file is not an AsaDB database (bad magic, page size or version).
    #[error("not an AsaDB database: {0}")]
    NotADatabase(String),
    /// A page id past the end of the database was requested.
    #[error("page {page} is out of range (database has {count} pages)")]
    OutOfRange { page: PageId, count: u32 },
    /// The database reached the largest page count the format can address.
    #[error("database is full: {pages} pages is the maximum")]
    Full { pages: u32 },
    /// An earlier write or sync on this handle failed; the handle refuses
    /// further writes until it recovers (the transaction layer's
    /// `Db::recover`, which its next write transaction runs) or is reopened.
    #[error("a previous write or sync failed ({0}); writes resume once the database recovers")]
    Poisoned(String),
}

/// Result alias of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// Shorthand for a [`Error::Corrupt`].
    pub fn corrupt(page: PageId, reason: impl Into<String>) -> Self {
        Error::Corrupt { page, reason: reason.into() }
    }
}
