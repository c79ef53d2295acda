//! The database file: 4 KB pages, the header page, checksums, the free list,
//! and the one positional IO trait that every file access goes through.
//!
//! # What this crate owns
//! - [`Io`]: `len`, `read_at`, `write_at`, `set_len`, `sync` on `&self`,
//!   `Send + Sync`. Implementations: [`FileIo`] (a real file), [`MemIo`]
//!   (in memory), [`FaultyIo`] (fails the Nth mutating call with EIO or
//!   ENOSPC, counted by a [`FaultPlan`] shared across files) and [`CrashWorld`]/[`CrashIo`] (a live and a durable image per
//!   file; crashes at a chosen sync and tears unsynced writes). Every upper
//!   layer is tested against the doubles through this one seam.
//! - The page format ([`page`]): [`PAGE_SIZE`] bytes, the last four of which
//!   are a CRC-32 over the page id and the other 4092 bytes. Every read is
//!   verified; a mismatch is [`Error::Corrupt`], never garbage.
//! - The header page ([`header`]), page 0: magic, format version, page size,
//!   page count, free-list head and length, catalog root, change counter.
//! - The free list ([`freelist`]): freed pages form a linked list and are
//!   reused before the file grows.
//! - [`PageFile`]: checked page reads and writes on the main file
//!   ([`PageFile::read_header`] turns a short or foreign file into
//!   [`Error::NotADatabase`]), with the
//!   write latch ([`WriteLatch`]): after a failed write or sync the handle
//!   refuses further writes until reopened, because an fsync error must never
//!   be retried as if nothing happened.
//!
//! The byte layout is documented next to the code and in
//! `docs/file-format.md`.

mod crash;
mod error;
mod faulty;
pub mod freelist;
pub mod header;
mod io;
pub mod page;
mod pagefile;

pub use crash::{CrashIo, CrashWorld, SECTOR_SIZE};
pub use error::{Error, Result};
pub use faulty::{Fault, FaultPlan, FaultyIo, FullWhile};
pub use header::Header;
pub use io::{FileIo, Io, MemIo};
pub use page::{PAGE_SIZE, PAGE_USABLE, PageBuf, PageId};
pub use pagefile::{PageFile, WriteLatch};
