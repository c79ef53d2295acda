//! Transactions over the page file: write-ahead log, snapshot readers,
//! recovery and checkpoints.
//!
//! (Being built: see `pages` for the seam the SQL layer programs against.)

mod error;
pub mod pages;

pub use error::{Error, Result};
pub use pages::{PageRead, PageWrite};
