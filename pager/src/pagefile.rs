//! Checked page IO on the main database file, and the write latch.

use std::sync::Arc;

use parking_lot::Mutex;

use crate::page::{self, PAGE_SIZE, PageBuf, PageId};
use crate::{Error, Header, Io, Result};

/// Remembers the first failed write or sync of a handle and refuses every
/// later mutating call. After an fsync error the kernel may have dropped the
/// dirty data, so retrying "successfully" would silently lose writes; the
/// only safe way on is to recover from what is durable: reopen, or (the
/// transaction layer's `Db::recover`) re-establish the durable state under
/// the writer lock and only then [`WriteLatch::clear`] the latch.
#[derive(Debug, Default)]
pub struct WriteLatch {
    failed: Mutex<Option<String>>,
}

impl WriteLatch {
    /// A latch in the open state.
    pub fn new() -> Self {
        Self::default()
    }

    /// Errors with [`Error::Poisoned`] if an earlier mutating call failed.
    pub fn check(&self) -> Result<()> {
        match &*self.failed.lock() {
            Some(why) => Err(Error::Poisoned(why.clone())),
            None => Ok(()),
        }
    }

    /// Runs a mutating call: refused when latched, latches when it fails.
    pub fn run<T>(&self, f: impl FnOnce() -> std::io::Result<T>) -> Result<T> {
        self.check()?;
        f().map_err(|err| {
            let mut failed = self.failed.lock();
            failed.get_or_insert_with(|| err.to_string());
            Error::Io(err)
        })
    }

    /// Latches without a failed call (e.g. when a multi-step update was cut
    /// short and the in-memory state no longer matches the file).
    pub fn poison(&self, why: impl Into<String>) {
        self.failed.lock().get_or_insert_with(|| why.into());
    }

    /// True once latched.
    pub fn is_poisoned(&self) -> bool {
        self.failed.lock().is_some()
    }

    /// Why the latch is set (the first failure's message), or `None`.
    pub fn reason(&self) -> Option<String> {
        self.failed.lock().clone()
    }

    /// Opens the latch again and returns why it was set. Only for a caller
    /// that has just re-established what is durable (see the type's docs);
    /// a failure of that work sets the latch again.
    pub fn clear(&self) -> Option<String> {
        self.failed.lock().take()
    }
}

/// The main database file as pages: every read verified, every write
/// sealed, every mutating call behind the [`WriteLatch`].
#[derive(Debug)]
pub struct PageFile {
    io: Arc<dyn Io>,
    latch: WriteLatch,
}

impl PageFile {
    /// Wraps an IO handle.
    pub fn new(io: Arc<dyn Io>) -> Self {
        PageFile { io, latch: WriteLatch::new() }
    }

    /// The underlying IO handle.
    pub fn io(&self) -> &Arc<dyn Io> {
        &self.io
    }

    /// The latch guarding this file's writes.
    pub fn latch(&self) -> &WriteLatch {
        &self.latch
    }

    /// Number of whole pages in the file.
    pub fn file_pages(&self) -> Result<u32> {
        Ok((self.io.len()? / PAGE_SIZE as u64) as u32)
    }

    /// Reads and decodes the header page straight from the file. A file
    /// shorter than one page, or whose first page is not an AsaDB header, is
    /// [`Error::NotADatabase`]; a header with a bad checksum or impossible
    /// counts is [`Error::Corrupt`] on page 0.
    pub fn read_header(&self) -> Result<Header> {
        let len = self.io.len()?;
        if len < PAGE_SIZE as u64 {
            return Err(Error::NotADatabase(format!(
                "file is {len} bytes, shorter than one {PAGE_SIZE}-byte page"
            )));
        }
        let mut buf = page::new_page();
        self.io.read_at(&mut buf[..], 0)?;
        Header::decode(&buf)
    }

    /// Reads and verifies page `id`. A page past the end of the file or with
    /// a bad checksum is [`Error::Corrupt`].
    pub fn read_page(&self, id: PageId, buf: &mut PageBuf) -> Result<()> {
        match self.io.read_at(buf, id.offset()) {
            Ok(()) => page::verify(id, buf),
            Err(err) if err.kind() == std::io::ErrorKind::UnexpectedEof => {
                Err(Error::corrupt(id, "page lies past the end of the file"))
            }
            Err(err) => Err(Error::Io(err)),
        }
    }

    /// Seals and writes page `id`.
    pub fn write_page(&self, id: PageId, buf: &mut PageBuf) -> Result<()> {
        page::seal(id, buf);
        self.write_sealed(id, buf)
    }

    /// Writes page `id` whose checksum is already sealed (e.g. a page image
    /// copied from the log).
    pub fn write_sealed(&self, id: PageId, buf: &PageBuf) -> Result<()> {
        self.latch.run(|| self.io.write_at(buf, id.offset()))
    }

    /// Truncates or extends the file to `pages` pages.
    pub fn set_pages(&self, pages: u32) -> Result<()> {
        self.latch.run(|| self.io.set_len(pages as u64 * PAGE_SIZE as u64))
    }

    /// Makes earlier writes durable.
    pub fn sync(&self) -> Result<()> {
        self.latch.run(|| self.io.sync())
    }
}
