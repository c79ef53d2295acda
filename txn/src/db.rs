//! The database handle: opening and recovery, the shared state every
//! transaction works against, the writer lock and statistics.
//!
//! # Shared state and its locks
//! - `state` (short critical sections only, never held across IO): the
//!   last commit (`mx_frame`, chain checksum, header), the log generation
//!   and header, the checkpoint's `backfill` mark and the registry of
//!   active readers by the `mx_frame` of their snapshot.
//! - `index`: page id → ascending committed frame numbers of the current
//!   log generation. Appended at commit, cleared at a log reset (which only
//!   happens when no reader uses the log).
//! - The writer lock is a flag plus a condition variable, not a mutex
//!   guard, so a [`WriteTxn`] can be sent to another thread and release it
//!   there, and so it can be taken with a timeout.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use asadb_bufferpool::{BufferPool, PoolStats};
use asadb_pager::page::new_page;
use asadb_pager::{
    Error as PagerError, FileIo, Header, Io, MemIo, PAGE_SIZE, PageBuf, PageId, WriteLatch, page,
};
use parking_lot::{Condvar, Mutex, RwLock};

use crate::guard::{Key, Version};
use crate::wal::{self, FRAME_SIZE, FrameId, WAL_HEADER_SIZE, WalHeader};
use crate::{Error, ReadTxn, Result, WriteTxn};

/// When commits and checkpoints wait for the disk, as in SQLite's WAL mode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Synchronous {
    /// Never sync. A crash (of the machine, not the process) may lose
    /// commits or corrupt the database.
    Off,
    /// Sync the log only before a checkpoint, and the main file after it.
    /// A crash may lose the latest commits but never corrupts.
    Normal,
    /// Sync the log at every commit: a commit that returned `Ok` survives
    /// any crash.
    #[default]
    Full,
}

/// Settings of an open database.
#[derive(Clone, Debug)]
pub struct Options {
    /// Frames of the buffer pool (4 KiB each). Default 2048 = 8 MiB.
    pub pool_frames: usize,
    /// Durability of commits. Default [`Synchronous::Full`].
    pub synchronous: Synchronous,
    /// Checkpoint automatically after a commit once the log holds more than
    /// this many frames. Default 1000. 0 disables automatic checkpoints.
    pub checkpoint_frames: u32,
    /// How long [`Db::begin_write`] waits for the writer lock. Default 5 s.
    pub busy_timeout: Duration,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            pool_frames: 2048,
            synchronous: Synchronous::Full,
            checkpoint_frames: 1000,
            busy_timeout: Duration::from_secs(5),
        }
    }
}

/// The smallest pool that leaves room for a writer's dirty pages, a spill
/// batch and a few pinned pages of readers.
pub const MIN_POOL_FRAMES: usize = 16;

/// Counters of an open database.
#[derive(Clone, Debug)]
pub struct DbStats {
    /// The buffer pool's occupancy and hit/miss counters.
    pub pool: PoolStats,
    /// Committed frames in the log (the last commit frame's number).
    pub log_frames: u32,
    /// Size of the log file in bytes.
    pub log_bytes: u64,
    /// Frames of the log already copied into the main file.
    pub backfilled_frames: u32,
    /// Active read transactions.
    pub readers: usize,
    /// Checkpoints run since open (automatic and explicit).
    pub checkpoints: u64,
    /// Write transactions committed since open.
    pub commits: u64,
    /// Times the handle recovered from a failed write or sync by itself
    /// ([`Db::recover`]) since open.
    pub recoveries: u64,
}

/// What a checkpoint did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckpointInfo {
    /// Committed frames in the log when the checkpoint ran.
    pub log_frames: u32,
    /// Frames known to be in the main file afterwards (before any reset).
    pub backfilled: u32,
    /// Pages copied into the main file by this checkpoint.
    pub pages_written: u32,
    /// Whether the log was reset (emptied) afterwards.
    pub reset: bool,
}

/// Published state of the last commit. See the module docs.
#[derive(Debug)]
pub(crate) struct State {
    pub generation: u32,
    pub wal_header: WalHeader,
    pub mx_frame: u32,
    /// Chain checksum after frame `mx_frame` (the log header's when 0).
    pub chain: u32,
    pub header: Header,
    /// Frames `1..=backfill` are in the main file (and synced unless Off).
    pub backfill: u32,
    /// Active readers, counted by the `mx_frame` of their snapshot. A
    /// reader that began when everything was backfilled reads only the
    /// main file and is registered under 0.
    pub readers: BTreeMap<u32, usize>,
}

/// Committed frames of the current log generation, by page. The newest
/// frame of each page sits in `latest`; only pages with several frames
/// have `older` ones (ascending), so a large log costs one small map entry
/// per page (the index of a 1 GiB log has 262,144 entries).
#[derive(Debug, Default)]
pub(crate) struct Index {
    latest: HashMap<PageId, u32>,
    older: HashMap<PageId, Vec<u32>>,
}

impl Index {
    /// Records committed frame `frame` of `page`, newer than all before.
    pub fn push(&mut self, page: PageId, frame: u32) {
        if let Some(old) = self.latest.insert(page, frame) {
            self.older.entry(page).or_default().push(old);
        }
    }

    /// The newest frame of `page` not after `mx`.
    pub fn latest_upto(&self, page: PageId, mx: u32) -> Option<u32> {
        let &newest = self.latest.get(&page)?;
        if newest <= mx {
            return Some(newest);
        }
        let older = self.older.get(&page)?;
        let n = older.partition_point(|&f| f <= mx);
        n.checked_sub(1).map(|i| older[i])
    }

    /// Every page with a frame.
    pub fn pages(&self) -> impl Iterator<Item = PageId> + '_ {
        self.latest.keys().copied()
    }

    pub fn clear(&mut self) {
        self.latest = HashMap::new();
        self.older = HashMap::new();
    }
}

/// Everything a [`Db`] handle and its transactions share.
#[derive(Debug)]
pub(crate) struct Shared {
    pub main: Arc<dyn Io>,
    pub wal: Arc<dyn Io>,
    /// Latched by the first failed write or sync of either file.
    pub latch: WriteLatch,
    pub pool: BufferPool<Key>,
    pub opts: Options,
    /// `checkpoint_frames` as it is now ([`Db::set_auto_checkpoint`]).
    pub auto_checkpoint: AtomicU32,
    pub state: Mutex<State>,
    pub index: RwLock<Index>,
    writer_busy: Mutex<bool>,
    writer_freed: Condvar,
    pub closed: AtomicBool,
    pub next_txn: AtomicU64,
    pub checkpoints: AtomicU64,
    pub commits: AtomicU64,
    pub recoveries: AtomicU64,
    /// The locked main file of a database opened by path; `close` unlocks
    /// it so the file can be opened again while clones of this handle live.
    file_lock: Mutex<Option<Arc<FileIo>>>,
}

/// A view of one commit: what a reader (or the writer, for pages it has
/// not changed) resolves pages against.
#[derive(Clone, Debug)]
pub(crate) struct Snapshot {
    pub generation: u32,
    /// Last commit frame visible; 0 = read the main file only.
    pub mx: u32,
    pub header: Header,
}

impl Shared {
    /// Runs a mutating IO call behind the write latch.
    pub fn write_io<T>(&self, f: impl FnOnce() -> std::io::Result<T>) -> Result<T> {
        Ok(self.latch.run(f)?)
    }

    /// Syncs `io` unless synchronous is Off.
    pub fn sync_io(&self, io: &Arc<dyn Io>) -> Result<()> {
        if self.opts.synchronous == Synchronous::Off {
            return self.latch.check().map_err(Error::from);
        }
        self.write_io(|| io.sync())
    }

    /// Reads and verifies page `id` from the main file.
    pub fn read_main(&self, id: PageId, buf: &mut PageBuf) -> Result<()> {
        match self.main.read_at(buf, id.offset()) {
            Ok(()) => Ok(page::verify(id, buf)?),
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                Err(PagerError::corrupt(id, "page lies past the end of the main file").into())
            }
            Err(e) => Err(PagerError::Io(e).into()),
        }
    }

    /// Reads and verifies the image of page `id` stored in log frame `frame`.
    pub fn read_frame(&self, id: PageId, frame: u32, buf: &mut PageBuf) -> Result<()> {
        match self.wal.read_at(buf, FrameId(frame).page_offset()) {
            Ok(()) => Ok(page::verify(id, buf)?),
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Err(PagerError::corrupt(
                id,
                format!("log frame {frame} lies past the end of the log"),
            )
            .into()),
            Err(e) => Err(PagerError::Io(e).into()),
        }
    }

    /// Fills `buf` with the image named by `key` (not for dirty keys, which
    /// live only in the pool).
    pub fn load(&self, key: Key, buf: &mut PageBuf) -> Result<()> {
        match key.version {
            Version::Main => self.read_main(key.page, buf),
            Version::Log { frame, .. } => self.read_frame(key.page, frame, buf),
            Version::Dirty(_) => Err(PagerError::corrupt(
                key.page,
                "dirty page missing from the buffer pool (internal error)",
            )
            .into()),
        }
    }

    /// The pool key of page `id` in snapshot `snap`: its latest committed
    /// frame not after `snap.mx`, else the main file.
    pub fn resolve(&self, id: PageId, snap: &Snapshot) -> Key {
        if snap.mx > 0
            && let Some(frame) = self.index.read().latest_upto(id, snap.mx)
        {
            return Key::new(id, Version::Log { generation: snap.generation, frame });
        }
        Key::new(id, Version::Main)
    }

    /// Checks that `id` exists in a database described by `header`.
    pub fn check_range(id: PageId, header: &Header) -> Result<()> {
        if id.0 >= header.page_count {
            return Err(PagerError::OutOfRange { page: id, count: header.page_count }.into());
        }
        Ok(())
    }

    /// Takes the writer lock, waiting up to `timeout`.
    pub fn lock_writer(&self, timeout: Duration) -> Result<()> {
        let deadline = Instant::now().checked_add(timeout);
        let mut busy = self.writer_busy.lock();
        while *busy {
            match deadline {
                Some(d) => {
                    if self.writer_freed.wait_until(&mut busy, d).timed_out() && *busy {
                        return Err(Error::Busy);
                    }
                }
                None => self.writer_freed.wait(&mut busy),
            }
        }
        *busy = true;
        Ok(())
    }

    /// Releases the writer lock (from any thread).
    pub fn unlock_writer(&self) {
        *self.writer_busy.lock() = false;
        self.writer_freed.notify_one();
    }

    /// Registers a reader of the last commit and returns its snapshot.
    pub fn register_reader(&self) -> Snapshot {
        let mut st = self.state.lock();
        // Everything committed is in the main file: read only that, which
        // also lets a checkpoint reset the log under this reader.
        let mx = if st.backfill >= st.mx_frame { 0 } else { st.mx_frame };
        *st.readers.entry(mx).or_default() += 1;
        Snapshot { generation: st.generation, mx, header: st.header.clone() }
    }

    pub fn unregister_reader(&self, mx: u32) {
        let mut st = self.state.lock();
        if let Some(n) = st.readers.get_mut(&mx) {
            *n -= 1;
            if *n == 0 {
                st.readers.remove(&mx);
            }
        }
    }

    fn check_open(&self) -> Result<()> {
        if self.closed.load(Ordering::Acquire) { Err(Error::Closed) } else { Ok(()) }
    }
}

/// An open database: the main file and its log. Cheap to clone (clones
/// share everything); `Send + Sync`.
#[derive(Clone, Debug)]
pub struct Db {
    pub(crate) shared: Arc<Shared>,
}

/// The log file of the database at `path`: `<path>-wal`.
pub fn wal_path(path: &Path) -> std::path::PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push("-wal");
    p.into()
}

impl Db {
    /// Opens (or creates) the database at `path`, with its log at
    /// `<path>-wal`. The main file is locked (`flock`, exclusive) while the
    /// database is open: a second open of the same file, from this process
    /// or another, fails with [`Error::Locked`] instead of corrupting it.
    /// (There is no shared-memory coordination between processes, so even
    /// readers in other processes must wait for the owner to close.)
    pub fn open(path: &Path, opts: Options) -> Result<Db> {
        let main = Arc::new(FileIo::open(path).map_err(PagerError::Io)?);
        // One handle per file: the lock lives as long as `main` does, or
        // until `close`.
        if !main.try_lock_exclusive().map_err(PagerError::Io)? {
            return Err(Error::Locked(path.display().to_string()));
        }
        let wal = FileIo::open(&wal_path(path)).map_err(PagerError::Io)?;
        let db = Db::open_io(main.clone(), Arc::new(wal), opts)?;
        *db.shared.file_lock.lock() = Some(main);
        Ok(db)
    }

    /// An in-memory database.
    pub fn memory(opts: Options) -> Result<Db> {
        Db::open_io(Arc::new(MemIo::new()), Arc::new(MemIo::new()), opts)
    }

    /// Opens a database over two IO handles: the main file and its log.
    /// Recovers the committed prefix of the log; an empty main file with no
    /// committed log creates a new database.
    pub fn open_io(main: Arc<dyn Io>, wal: Arc<dyn Io>, opts: Options) -> Result<Db> {
        if opts.pool_frames < MIN_POOL_FRAMES {
            return Err(Error::InvalidInput(format!(
                "pool_frames is {}, at least {MIN_POOL_FRAMES} are needed",
                opts.pool_frames
            )));
        }
        let scan = wal::scan(&wal).map_err(PagerError::Io)?;
        let latch = WriteLatch::new();
        let main_len = main.len().map_err(PagerError::Io)?;
        let (wal_header, hsum, needs_header) = match scan.header {
            Some((h, sum)) => (h, sum, false),
            None => {
                let h = WalHeader::fresh(0);
                let sum = h.encode().1;
                (h, sum, true)
            }
        };
        let header = match &scan.db_header {
            Some(h) => Some(h.clone()),
            None if main_len == 0 => None,
            None => {
                let mut buf = new_page();
                if main_len < PAGE_SIZE as u64 {
                    return Err(PagerError::NotADatabase(format!(
                        "main file is {main_len} bytes, shorter than one page"
                    ))
                    .into());
                }
                main.read_at(&mut buf[..], 0).map_err(PagerError::Io)?;
                Some(Header::decode(&buf)?)
            }
        };
        let mut index = Index::default();
        for (i, &p) in scan.pages.iter().enumerate() {
            index.push(p, i as u32 + 1);
        }
        let shared = Shared {
            main,
            wal,
            latch,
            pool: BufferPool::new(opts.pool_frames),
            state: Mutex::new(State {
                generation: 0,
                wal_header,
                mx_frame: scan.mx_frame,
                chain: if scan.mx_frame > 0 { scan.chain } else { hsum },
                header: header.clone().unwrap_or_default(),
                backfill: 0,
                readers: BTreeMap::new(),
            }),
            auto_checkpoint: AtomicU32::new(opts.checkpoint_frames),
            opts,
            index: RwLock::new(index),
            writer_busy: Mutex::new(false),
            writer_freed: Condvar::new(),
            closed: AtomicBool::new(false),
            next_txn: AtomicU64::new(1),
            checkpoints: AtomicU64::new(0),
            commits: AtomicU64::new(0),
            recoveries: AtomicU64::new(0),
            file_lock: Mutex::new(None),
        };
        let db = Db { shared: Arc::new(shared) };
        if needs_header {
            db.shared.write_wal_header(&wal_header)?;
        }
        if header.is_none() {
            // A new database: its first commit (the header page alone) goes
            // through the log like any other, so a crash while creating it
            // leaves an empty main file and no commit, i.e. no database yet.
            let txn = db.begin_write()?;
            txn.st.borrow_mut().force_commit = true;
            txn.commit()?;
        }
        Ok(db)
    }

    /// A read transaction on the last commit. Never waits for the writer.
    pub fn begin_read(&self) -> Result<ReadTxn> {
        self.shared.check_open()?;
        Ok(ReadTxn::new(self.shared.clone()))
    }

    /// The write transaction; waits up to `busy_timeout` for the current
    /// writer, then fails with [`Error::Busy`].
    pub fn begin_write(&self) -> Result<WriteTxn> {
        self.try_begin_write(self.shared.opts.busy_timeout)
    }

    /// Like [`Db::begin_write`] with an explicit timeout. A handle latched
    /// by an earlier failed write or sync first tries [`Db::recover`]; if
    /// that fails the error is the one recovery hit (e.g. `ENOSPC` while
    /// the disk is still full), and the handle stays latched.
    pub fn try_begin_write(&self, timeout: Duration) -> Result<WriteTxn> {
        self.shared.check_open()?;
        self.shared.lock_writer(timeout)?;
        if let Err(e) = self.shared.check_open().and_then(|()| self.shared.recover_locked()) {
            self.shared.unlock_writer();
            return Err(e);
        }
        Ok(WriteTxn::new(self.shared.clone()))
    }

    /// Why writes are refused right now: the message of the failed write
    /// or sync that latched the handle, or `None` when it can write.
    pub fn write_error(&self) -> Option<String> {
        self.shared.latch.reason()
    }

    /// Recovers from a failed write or sync without reopening: takes the
    /// writer lock (waiting up to the busy timeout) and, if the handle is
    /// latched, re-establishes what is durable, then opens the latch.
    /// Returns whether it was latched; an error means the files still
    /// cannot be written (the handle stays latched, try again later).
    ///
    /// Why this is safe (no failed call is ever retried as if it had
    /// worked): the in-memory state only ever advances after the writes
    /// *and* syncs it describes succeeded — a commit publishes its frames
    /// after the log sync, a checkpoint advances the backfill mark after
    /// the main-file sync — so it describes only what earlier successful
    /// syncs made durable. The frames a failed commit left past the last
    /// commit frame are overwritten by the next commit (their checksum
    /// chain no longer matches). Recovery (1) writes one frame's worth
    /// of zeros past the end of the log, syncs and truncates it again — a
    /// probe that needs new space, so a still-full disk fails here; (2)
    /// rewrites the log header when the log is empty (a log reset whose
    /// header write failed) or syncs the log; (3) runs a checkpoint, which
    /// rewrites every committed frame not known to be in the main file and
    /// syncs it, so pages a failed main-file sync may have dropped are
    /// written again. Before the probe, the log is cut back to its last
    /// commit frame: the failed transaction's frames give a full disk its
    /// space back (shrinking a file needs none). A [`Db::begin_write`] on a latched handle does this
    /// by itself.
    pub fn recover(&self) -> Result<bool> {
        self.shared.check_open()?;
        if !self.shared.latch.is_poisoned() {
            return Ok(false);
        }
        self.shared.lock_writer(self.shared.opts.busy_timeout)?;
        let was = self.shared.latch.is_poisoned();
        let r = self.shared.recover_locked();
        self.shared.unlock_writer();
        r.map(|()| was)
    }

    /// Copies committed log frames that no active reader still needs from
    /// the log into the main file, and resets the log when everything is
    /// copied and no reader uses it. Waits for the writer lock like
    /// [`Db::begin_write`].
    pub fn checkpoint(&self) -> Result<CheckpointInfo> {
        self.shared.check_open()?;
        self.shared.lock_writer(self.shared.opts.busy_timeout)?;
        let result = self.shared.checkpoint_locked();
        self.shared.unlock_writer();
        result
    }

    /// Checkpoints, syncs both files and closes the handle (and its
    /// clones): later calls fail with [`Error::Closed`]. Transactions still
    /// open keep working until dropped.
    pub fn close(&self) -> Result<()> {
        self.shared.check_open()?;
        self.shared.lock_writer(self.shared.opts.busy_timeout)?;
        let result = (|| {
            self.shared.checkpoint_locked()?;
            self.shared.sync_io(&self.shared.main)?;
            self.shared.sync_io(&self.shared.wal)
        })();
        self.shared.closed.store(true, Ordering::Release);
        if let Some(file) = self.shared.file_lock.lock().take() {
            // Closed: nothing reads or writes through this handle again.
            let _ = file.unlock();
        }
        self.shared.unlock_writer();
        result
    }

    /// Write transactions that changed the database, committed since open
    /// (what `PRAGMA data_version` compares).
    pub fn commit_count(&self) -> u64 {
        self.shared.commits.load(Ordering::Relaxed)
    }

    /// The log size past which a commit checkpoints (0: never
    /// automatically): [`Options::checkpoint_frames`] until changed.
    pub fn auto_checkpoint(&self) -> u32 {
        self.shared.auto_checkpoint.load(Ordering::Relaxed)
    }

    /// Changes the automatic checkpoint threshold for every handle of this
    /// database (`PRAGMA wal_autocheckpoint = N`).
    pub fn set_auto_checkpoint(&self, frames: u32) {
        self.shared.auto_checkpoint.store(frames, Ordering::Relaxed);
    }

    /// Counters and occupancy.
    pub fn stats(&self) -> DbStats {
        let (log_frames, backfilled_frames, readers) = {
            let st = self.shared.state.lock();
            (st.mx_frame, st.backfill, st.readers.values().sum())
        };
        DbStats {
            pool: self.shared.pool.stats(),
            log_frames,
            log_bytes: self.shared.wal.len().unwrap_or(0),
            backfilled_frames,
            readers,
            checkpoints: self.shared.checkpoints.load(Ordering::Relaxed),
            commits: self.shared.commits.load(Ordering::Relaxed),
            recoveries: self.shared.recoveries.load(Ordering::Relaxed),
        }
    }
}

impl Shared {
    /// [`Db::recover`]'s work; the caller holds the writer lock. `Ok` when
    /// the handle was not latched or has recovered.
    pub(crate) fn recover_locked(&self) -> Result<()> {
        let Some(why) = self.latch.clear() else {
            return Ok(());
        };
        let r = (|| -> Result<()> {
            let (mx, h) = {
                let st = self.state.lock();
                (st.mx_frame, st.wal_header)
            };
            // The frames a failed transaction left past the last commit
            // hold space a full disk needs back; shrinking needs none.
            let end = WAL_HEADER_SIZE as u64 + u64::from(mx) * FRAME_SIZE as u64;
            if self.wal.len().map_err(PagerError::Io)? > end {
                self.write_io(|| self.wal.set_len(end))?;
            }
            let len = self.wal.len().map_err(PagerError::Io)?;
            let zeros = vec![0u8; FRAME_SIZE];
            self.write_io(|| self.wal.write_at(&zeros, len))?;
            self.write_io(|| self.wal.sync())?;
            self.write_io(|| self.wal.set_len(len))?;
            if mx == 0 {
                self.write_wal_header(&h)?;
            } else {
                self.write_io(|| self.wal.sync())?;
            }
            self.checkpoint_locked()?;
            self.write_io(|| self.main.sync())?;
            Ok(())
        })();
        match r {
            Ok(()) => {
                self.recoveries.fetch_add(1, Ordering::Relaxed);
                Ok(())
            }
            Err(e) => {
                // A failed write latched again with its own message; any
                // other failure (a read) keeps the original one.
                self.latch.poison(why);
                Err(e)
            }
        }
    }

    /// Writes a log header, truncates the log to it and syncs it.
    pub fn write_wal_header(&self, h: &WalHeader) -> Result<()> {
        let (bytes, _) = h.encode();
        self.write_io(|| self.wal.write_at(&bytes, 0))?;
        self.write_io(|| self.wal.set_len(WAL_HEADER_SIZE as u64))?;
        self.sync_io(&self.wal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{PageRead, PageWrite};

    #[test]
    fn create_write_reopen() {
        let main = Arc::new(MemIo::new());
        let wal = Arc::new(MemIo::new());
        let db = Db::open_io(main.clone(), wal.clone(), Options::default()).unwrap();
        let w = db.begin_write().unwrap();
        let (id, mut p) = w.allocate().unwrap();
        p[..5].copy_from_slice(b"hello");
        drop(p);
        w.set_catalog_root(id).unwrap();
        w.commit().unwrap();
        drop(db);
        let db = Db::open_io(main, wal, Options::default()).unwrap();
        let r = db.begin_read().unwrap();
        assert_eq!(r.header().catalog_root, id.0);
        assert_eq!(&r.page(id).unwrap()[..5], b"hello");
    }

    #[test]
    fn index_resolves_newest_frame_per_snapshot() {
        let mut index = Index::default();
        for (page, frame) in [(1, 1), (2, 2), (1, 4), (0, 5), (1, 7), (0, 8)] {
            index.push(PageId(page), frame);
        }
        let p1 = |mx| index.latest_upto(PageId(1), mx);
        assert_eq!(
            [p1(0), p1(1), p1(3), p1(4), p1(6), p1(7), p1(99)],
            [None, Some(1), Some(1), Some(4), Some(4), Some(7), Some(7)]
        );
        assert_eq!(index.latest_upto(PageId(2), 1), None);
        assert_eq!(index.latest_upto(PageId(3), 99), None);
        let mut pages: Vec<_> = index.pages().collect();
        pages.sort();
        assert_eq!(pages, [PageId(0), PageId(1), PageId(2)]);
        index.clear();
        assert_eq!(index.latest_upto(PageId(1), 99), None);
    }

    #[test]
    fn reader_snapshot_ignores_later_commits_and_main_only_after_checkpoint() {
        let db = Db::memory(Options { checkpoint_frames: 0, ..Options::default() }).unwrap();
        let w = db.begin_write().unwrap();
        let (id, mut p) = w.allocate().unwrap();
        p[0] = 1;
        drop(p);
        w.commit().unwrap();
        let before = db.begin_read().unwrap();
        let w = db.begin_write().unwrap();
        w.page_mut(id).unwrap()[0] = 2;
        // Uncommitted bytes are invisible to a reader that starts now.
        assert_eq!(db.begin_read().unwrap().page(id).unwrap()[0], 1);
        w.commit().unwrap();
        assert_eq!(before.page(id).unwrap()[0], 1);
        assert_eq!(db.begin_read().unwrap().page(id).unwrap()[0], 2);
        drop(before);
        assert!(db.checkpoint().unwrap().reset);
        let after = db.begin_read().unwrap();
        assert_eq!(after.snap.mx, 0, "everything checkpointed: main file only");
        assert_eq!(after.page(id).unwrap()[0], 2);
    }

    #[test]
    fn tiny_pool_is_refused() {
        let opts = Options { pool_frames: 3, ..Options::default() };
        assert!(matches!(Db::memory(opts), Err(Error::InvalidInput(_))));
    }

    #[test]
    fn busy_and_closed() {
        let db = Db::memory(Options::default()).unwrap();
        let w = db.begin_write().unwrap();
        assert!(matches!(db.try_begin_write(Duration::from_millis(10)), Err(Error::Busy)));
        drop(w);
        db.try_begin_write(Duration::from_millis(10)).unwrap().rollback();
        db.close().unwrap();
        assert!(matches!(db.begin_read(), Err(Error::Closed)));
        assert!(matches!(db.begin_write(), Err(Error::Closed)));
    }
}
