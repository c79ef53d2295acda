//! Transactions over the page file: write-ahead log, snapshot readers,
//! recovery and checkpoints.
//!
//! (Being built: see `pages` for the seam the SQL layer programs against.)

pub mod pages;

pub use pages::{PageRead, PageWrite};
