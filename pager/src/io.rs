//! The positional IO trait and its two plain implementations.

use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::FileExt;
use std::path::Path;

use parking_lot::RwLock;

/// Positional access to one file. All database file access goes through
/// this trait, so every layer above can be run on the test doubles.
///
/// Contract (checked by the conformance suite in this crate's tests):
/// - `read_at` fills the whole buffer or fails with `UnexpectedEof` when the
///   range reaches past `len()`;
/// - `write_at` writes the whole buffer, growing the file (with zeros in any
///   gap) when it writes past the end;
/// - `set_len` truncates or zero-extends;
/// - `sync` makes every earlier write and `set_len` durable. Nothing is
///   durable before `sync` returns `Ok`.
pub trait Io: Send + Sync + std::fmt::Debug {
    /// Current length in bytes.
    fn len(&self) -> io::Result<u64>;
    /// Reads exactly `buf.len()` bytes at `offset`.
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()>;
    /// Writes all of `buf` at `offset`.
    fn write_at(&self, buf: &[u8], offset: u64) -> io::Result<()>;
    /// Truncates or zero-extends to `len` bytes.
    fn set_len(&self, len: u64) -> io::Result<()>;
    /// Makes all earlier writes durable.
    fn sync(&self) -> io::Result<()>;

    /// True when the file is empty.
    fn is_empty(&self) -> io::Result<bool> {
        Ok(self.len()? == 0)
    }
}

/// A real file.
#[derive(Debug)]
pub struct FileIo {
    file: File,
}

impl FileIo {
    /// Opens `path` for reading and writing, creating it if missing.
    pub fn open(path: &Path) -> io::Result<Self> {
        let file =
            OpenOptions::new().read(true).write(true).create(true).truncate(false).open(path)?;
        Ok(FileIo { file })
    }

    /// Wraps an already opened file.
    pub fn from_file(file: File) -> Self {
        FileIo { file }
    }

    /// Takes an exclusive advisory lock on the file (`flock`), held until
    /// this handle is dropped; `false` if another open handle — in this
    /// process or another — holds a lock on it.
    pub fn try_lock_exclusive(&self) -> io::Result<bool> {
        match self.file.try_lock() {
            Ok(()) => Ok(true),
            Err(std::fs::TryLockError::WouldBlock) => Ok(false),
            Err(std::fs::TryLockError::Error(e)) => Err(e),
        }
    }

    /// Releases the lock taken by [`FileIo::try_lock_exclusive`].
    pub fn unlock(&self) -> io::Result<()> {
        self.file.unlock()
    }
}

impl Io for FileIo {
    fn len(&self) -> io::Result<u64> {
        Ok(self.file.metadata()?.len())
    }

    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        self.file.read_exact_at(buf, offset)
    }

    fn write_at(&self, buf: &[u8], offset: u64) -> io::Result<()> {
        self.file.write_all_at(buf, offset)
    }

    fn set_len(&self, len: u64) -> io::Result<()> {
        self.file.set_len(len)
    }

    fn sync(&self) -> io::Result<()> {
        // Data and the file length (which set_len and appends change).
        self.file.sync_all()
    }
}

/// A file held in memory. `sync` is a no-op: everything is "durable" for as
/// long as the value lives. Used for in-memory databases and as a building
/// block of the test doubles.
#[derive(Debug, Default)]
pub struct MemIo {
    data: RwLock<Vec<u8>>,
}

impl MemIo {
    /// An empty in-memory file.
    pub fn new() -> Self {
        Self::default()
    }

    /// An in-memory file holding `bytes`.
    pub fn with_bytes(bytes: Vec<u8>) -> Self {
        MemIo { data: RwLock::new(bytes) }
    }

    /// A copy of the current contents.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.data.read().clone()
    }
}

impl Io for MemIo {
    fn len(&self) -> io::Result<u64> {
        Ok(self.data.read().len() as u64)
    }

    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        let data = self.data.read();
        let end = offset.checked_add(buf.len() as u64).filter(|&end| end <= data.len() as u64);
        let Some(end) = end else {
            return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "read past end of file"));
        };
        buf.copy_from_slice(&data[offset as usize..end as usize]);
        Ok(())
    }

    fn write_at(&self, buf: &[u8], offset: u64) -> io::Result<()> {
        let mut data = self.data.write();
        let end = offset
            .checked_add(buf.len() as u64)
            .and_then(|end| usize::try_from(end).ok())
            .ok_or_else(|| {
                io::Error::new(io::ErrorKind::InvalidInput, "write past addressable end")
            })?;
        if data.len() < end {
            data.resize(end, 0);
        }
        data[offset as usize..end].copy_from_slice(buf);
        Ok(())
    }

    fn set_len(&self, len: u64) -> io::Result<()> {
        let len = usize::try_from(len)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "length not addressable"))?;
        self.data.write().resize(len, 0);
        Ok(())
    }

    fn sync(&self) -> io::Result<()> {
        Ok(())
    }
}
