//! The write transaction: copy-on-write pages in the buffer pool, spilling
//! to the log, commit and rollback.
//!
//! # Where a modified page lives
//! Each page the transaction changed is either *dirty* (a pool frame under
//! the key `(page, Dirty(txn id))`, marked dirty so it is never evicted) or
//! *spilled* (its current image is uncommitted log frame `f`, cached, if at
//! all, under `(page, Log(f))`). When dirty frames reach three quarters of
//! the pool, a batch of them is written to the log and their frames are
//! rekeyed and made clean: memory stays bounded whatever the size of the
//! transaction.
//!
//! # The latest-frame rule
//! Recovery and the index take the *latest* frame of a page. Savepoint
//! rollbacks (and pre-images written to the log) can leave an uncommitted
//! frame of a page that is newer than its current image. `latest` records
//! the newest uncommitted frame of every page, and commit appends the
//! current image of every page whose newest frame is not its current one.
//!
//! # Commit
//! 1. append the images described above, every dirty page, then the header
//!    page (change counter + 1) as the commit frame, whose COMMIT_SIZE is
//!    the page count;
//! 2. sync the log (Full);
//! 3. publish: index entries for every new frame, then the new `mx_frame`,
//!    chain checksum and header, under the state lock;
//! 4. checkpoint if the log holds more than `checkpoint_frames` frames,
//!    still holding the writer lock.
//!
//! Rollback forgets everything: the dirty frames and the cached images of
//! this transaction's frames leave the pool, and the next writer appends
//! from the last commit again (the abandoned frames have no commit frame
//! after them, and their chain is broken as soon as one is overwritten).

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::sync::atomic::Ordering;

use asadb_pager::header::USER_SLOTS;
use asadb_pager::page::new_page;
use asadb_pager::{Error as PagerError, Header, PageBuf, PageId, freelist, page};

use crate::db::{Shared, Snapshot};
use crate::guard::{Key, PageMut, PageRef, Pins, Version};
use crate::savepoint::Level;
use crate::wal::{FRAME_SIZE, FrameId, WalHeader, encode_frame_header};
use crate::{Error, PageRead, PageWrite, Result};

/// Frames gathered before one write call.
const FRAME_BATCH: usize = 64;

/// Where the current image of a page changed by this transaction lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Loc {
    Dirty,
    Spilled(u32),
}

/// The mutable state of a write transaction.
#[derive(Debug)]
pub(crate) struct WState {
    /// The commit this transaction started from (the last one).
    pub snap: Snapshot,
    /// Working copy of the header fields.
    pub header: Header,
    pub wal_header: WalHeader,
    /// Next frame number to append.
    pub next_frame: u32,
    /// Chain checksum of frame `next_frame - 1`.
    pub chain: u32,
    pub pages: BTreeMap<PageId, Loc>,
    /// Newest uncommitted frame of each page.
    pub latest: HashMap<PageId, u32>,
    /// Page of each uncommitted frame `snap.mx + 1 ..`.
    pub frames: Vec<PageId>,
    pub levels: Vec<Level>,
    /// Pre-image copies held in memory by all levels.
    pub copies: usize,
    pub next_savepoint: u64,
    /// Set when a savepoint rollback failed half way: the pages no longer
    /// match any state the caller asked for, so commit is refused.
    pub broken: bool,
    /// Commit even without changes (the creation of a database).
    pub force_commit: bool,
    /// Frames being gathered for one write call, starting at `batch_start`.
    batch: Vec<u8>,
    batch_start: u32,
}

/// The one write transaction. Reads see its own writes. Dropping it rolls
/// back. `Send`: it may be moved to another thread (and committed or
/// dropped there), but its page guards may not.
#[derive(Debug)]
pub struct WriteTxn {
    pub(crate) shared: Arc<Shared>,
    pub(crate) id: u64,
    pub(crate) pins: Pins,
    pub(crate) st: RefCell<WState>,
    finished: bool,
}

impl WriteTxn {
    /// Called with the writer lock held.
    pub(crate) fn new(shared: Arc<Shared>) -> Self {
        let st = {
            let s = shared.state.lock();
            WState {
                snap: Snapshot {
                    generation: s.generation,
                    mx: s.mx_frame,
                    header: s.header.clone(),
                },
                header: s.header.clone(),
                wal_header: s.wal_header,
                next_frame: s.mx_frame + 1,
                chain: s.chain,
                pages: BTreeMap::new(),
                latest: HashMap::new(),
                frames: Vec::new(),
                levels: Vec::new(),
                copies: 0,
                next_savepoint: 1,
                broken: false,
                force_commit: false,
                batch: Vec::new(),
                batch_start: 0,
            }
        };
        let id = shared.next_txn.fetch_add(1, Ordering::Relaxed);
        WriteTxn { shared, id, pins: Pins::default(), st: RefCell::new(st), finished: false }
    }

    pub(crate) fn dirty_key(&self, page: PageId) -> Key {
        Key::new(page, Version::Dirty(self.id))
    }

    pub(crate) fn log_key(st: &WState, page: PageId, frame: u32) -> Key {
        Key::new(page, Version::Log { generation: st.snap.generation, frame })
    }

    /// Number of pages this transaction has changed so far.
    pub fn changed_pages(&self) -> usize {
        self.st.borrow().pages.len()
    }

    /// Dirty frames beyond this many are spilled to the log.
    fn dirty_limit(&self) -> usize {
        self.shared.pool.capacity() * 3 / 4
    }

    // ---- frames -------------------------------------------------------

    /// Appends a frame to the batch; returns its frame number. `image` must
    /// be sealed.
    pub(crate) fn push_frame(
        &self,
        st: &mut WState,
        page: PageId,
        commit: u32,
        image: &PageBuf,
    ) -> Result<u32> {
        if st.batch.len() >= FRAME_BATCH * FRAME_SIZE {
            self.flush_frames(st)?;
        }
        if st.batch.is_empty() {
            st.batch_start = st.next_frame;
        }
        let (fh, sum) = encode_frame_header(&st.wal_header, page, commit, st.chain, image);
        st.batch.extend_from_slice(&fh);
        st.batch.extend_from_slice(&image[..]);
        st.chain = sum;
        let frame = st.next_frame;
        st.next_frame = frame.checked_add(1).ok_or_else(|| {
            Error::InvalidInput("the log reached 2^32 frames; checkpoint first".into())
        })?;
        st.frames.push(page);
        st.latest.insert(page, frame);
        Ok(frame)
    }

    /// Writes the gathered frames to the log.
    pub(crate) fn flush_frames(&self, st: &mut WState) -> Result<()> {
        if st.batch.is_empty() {
            return Ok(());
        }
        let offset = FrameId(st.batch_start).offset();
        let shared = &self.shared;
        let batch = &st.batch;
        shared.write_io(|| shared.wal.write_at(batch, offset))?;
        st.batch.clear();
        Ok(())
    }

    // ---- page access --------------------------------------------------

    /// The pool key of the current image of `page` as this transaction sees
    /// it.
    fn current_key(&self, st: &WState, page: PageId) -> Key {
        match st.pages.get(&page) {
            Some(Loc::Dirty) => self.dirty_key(page),
            Some(&Loc::Spilled(f)) => Self::log_key(st, page, f),
            None => self.shared.resolve(page, &st.snap),
        }
    }

    /// Copies the current image of `page` into `buf`.
    pub(crate) fn read_current(&self, st: &WState, page: PageId, buf: &mut PageBuf) -> Result<()> {
        let key = self.current_key(st, page);
        let r = self.shared.pool.get(key, |b| self.shared.load(key, b))?;
        buf.copy_from_slice(&r[..]);
        Ok(())
    }

    /// Makes `page` dirty in this transaction (recording its pre-image for
    /// the innermost savepoint). A `fresh` page starts zeroed instead of as
    /// a copy of its current image.
    pub(crate) fn touch(&self, st: &mut WState, page: PageId, fresh: bool) -> Result<()> {
        self.record_pre(st, page)?;
        if st.pages.get(&page) == Some(&Loc::Dirty) {
            return Ok(());
        }
        self.make_room(st)?;
        let mut image = new_page();
        if !fresh {
            self.read_current(st, page, &mut image)?;
        }
        self.install_dirty(st, page, &image)
    }

    /// Puts `image` into a new dirty frame of `page`.
    pub(crate) fn install_dirty(
        &self,
        st: &mut WState,
        page: PageId,
        image: &PageBuf,
    ) -> Result<()> {
        let key = self.dirty_key(page);
        self.shared.pool.remove(key);
        let g = self.shared.pool.get_mut(key, |b| {
            b.copy_from_slice(&image[..]);
            Ok::<(), Error>(())
        })?;
        // Mark it dirty while still pinned: once unpinned and clean, a
        // reader's miss could evict it and the new image would be lost.
        self.shared.pool.set_dirty(key, true);
        drop(g);
        st.pages.insert(page, Loc::Dirty);
        Ok(())
    }

    /// Spills dirty pages to the log when they fill the pool's budget.
    pub(crate) fn make_room(&self, st: &mut WState) -> Result<()> {
        if self.shared.pool.dirty_count() < self.dirty_limit() {
            return Ok(());
        }
        self.spill(st, (self.dirty_limit() / 2).max(1))
    }

    /// Writes up to `n` dirty pages not open for writing to the log as
    /// uncommitted frames; their pool frames become clean copies of those
    /// frames.
    fn spill(&self, st: &mut WState, n: usize) -> Result<()> {
        let victims: Vec<PageId> = st
            .pages
            .iter()
            .filter(|&(&p, &loc)| loc == Loc::Dirty && !self.pins.is_writing(p))
            .map(|(&p, _)| p)
            .take(n)
            .collect();
        let mut spilled = Vec::with_capacity(victims.len());
        let mut image = new_page();
        for p in victims {
            {
                let r = self.shared.pool.get_cached(self.dirty_key(p)).ok_or_else(|| {
                    PagerError::corrupt(p, "dirty page missing from the buffer pool (internal)")
                })?;
                image.copy_from_slice(&r[..]);
            }
            page::seal(p, &mut image);
            let f = self.push_frame(st, p, 0, &image)?;
            spilled.push((p, f));
        }
        self.flush_frames(st)?;
        for (p, f) in spilled {
            let to = Self::log_key(st, p, f);
            self.shared.pool.rekey(self.dirty_key(p), to);
            self.shared.pool.set_dirty(to, false);
            st.pages.insert(p, Loc::Spilled(f));
        }
        Ok(())
    }

    /// Refuses a page the caller is writing through a guard (asking again
    /// would wait on itself).
    fn check_not_writing(&self, id: PageId) -> Result<()> {
        if self.pins.is_writing(id) {
            return Err(Error::InvalidInput(format!(
                "page {id} is already open for writing in this transaction"
            )));
        }
        Ok(())
    }

    fn get_dirty_mut(&self, id: PageId) -> Result<PageMut<'_>> {
        let key = self.dirty_key(id);
        let g = self.shared.pool.get_mut(key, |b| self.shared.load(key, b))?;
        Ok(PageMut::new(g, &self.pins))
    }

    // ---- commit / rollback --------------------------------------------

    /// Makes the transaction's changes durable (as `synchronous` says) and
    /// visible to new readers. On error nothing is published and the
    /// transaction is rolled back.
    pub fn commit(self) -> Result<()> {
        self.commit_changes().map(|_| ())
    }

    /// [`WriteTxn::commit`], answering whether the transaction changed the
    /// database (a commit that changed nothing writes no frame).
    pub fn commit_changes(mut self) -> Result<bool> {
        // On error, Drop rolls back and releases the writer lock.
        let changed = self.commit_inner()?;
        self.finished = true;
        let shared = self.shared.clone();
        let want = shared.auto_checkpoint.load(Ordering::Relaxed);
        let frames = shared.state.lock().mx_frame;
        if want > 0 && frames > want {
            // The commit is durable and published whatever happens here; a
            // failed checkpoint write has latched the database, and the next
            // write reports it.
            let _ = shared.checkpoint_locked();
        }
        shared.unlock_writer();
        Ok(changed)
    }

    fn commit_inner(&self) -> Result<bool> {
        let mut guard = self.st.borrow_mut();
        let st = &mut *guard;
        self.shared.latch.check()?;
        if st.broken {
            return Err(Error::InvalidInput(
                "a savepoint rollback failed; the transaction can only be rolled back".into(),
            ));
        }
        if !st.force_commit
            && st.pages.is_empty()
            && st.latest.is_empty()
            && st.header == st.snap.header
        {
            return Ok(false); // nothing changed: no commit frame, no sync
        }
        // Pages whose newest uncommitted frame is not their current image
        // (savepoint rollbacks, pre-images): append the current image.
        let mut stale: Vec<PageId> = st
            .latest
            .iter()
            .filter(|&(p, &f)| match st.pages.get(p) {
                Some(Loc::Dirty) => false,
                Some(&Loc::Spilled(g)) => g != f,
                None => p.0 < st.header.page_count,
            })
            .map(|(&p, _)| p)
            .collect();
        stale.sort();
        let mut image = new_page();
        for p in stale {
            self.read_current(st, p, &mut image)?;
            page::seal(p, &mut image);
            self.push_frame(st, p, 0, &image)?;
        }
        let dirty: Vec<PageId> =
            st.pages.iter().filter(|&(_, &l)| l == Loc::Dirty).map(|(&p, _)| p).collect();
        let mut written = Vec::with_capacity(dirty.len());
        for p in dirty {
            let mut g = self.get_dirty_mut(p)?;
            page::seal(p, &mut g);
            let f = self.push_frame(st, p, 0, &g)?;
            written.push((p, f));
        }
        st.header.change_counter += 1;
        st.header.encode(&mut image);
        let commit_frame = self.push_frame(st, PageId::HEADER, st.header.page_count, &image)?;
        self.flush_frames(st)?;
        if self.shared.opts.synchronous == crate::Synchronous::Full {
            self.shared.sync_io(&self.shared.wal)?;
        }
        // Durable (as configured): the dirty frames become cached copies of
        // their committed frames.
        for (p, f) in written {
            let to = Self::log_key(st, p, f);
            self.shared.pool.rekey(self.dirty_key(p), to);
            self.shared.pool.set_dirty(to, false);
        }
        st.pages.clear();
        {
            let mut index = self.shared.index.write();
            for (i, &p) in st.frames.iter().enumerate() {
                index.push(p, st.snap.mx + 1 + i as u32);
            }
        }
        {
            let mut s = self.shared.state.lock();
            s.mx_frame = commit_frame;
            s.chain = st.chain;
            s.header = st.header.clone();
        }
        self.shared.commits.fetch_add(1, Ordering::Relaxed);
        Ok(true)
    }

    /// Makes the database `page_count` pages long, with the given free
    /// list: VACUUM's rebuild, which then writes every page below
    /// `page_count` with [`WriteTxn::put_page`]. The database may only
    /// shrink, and no page at or past `page_count` may have been changed by
    /// this transaction. Frames of the cut pages already in the log stay
    /// there unread: no reader resolves a page past its snapshot's page
    /// count, a checkpoint skips them and sizes the main file to the page
    /// count (which is how the file shrinks), and a page allocated again
    /// later starts from zeros.
    pub fn set_page_count(
        &self,
        page_count: u32,
        freelist_head: u32,
        freelist_count: u32,
    ) -> Result<()> {
        let mut st = self.st.borrow_mut();
        if page_count == 0 || page_count > st.header.page_count {
            return Err(Error::InvalidInput(format!(
                "set_page_count({page_count}): a database of {} pages may only shrink",
                st.header.page_count
            )));
        }
        let cut = PageId(page_count);
        if st.pages.range(cut..).next().is_some() || st.latest.keys().any(|&p| p >= cut) {
            return Err(Error::InvalidInput(
                "set_page_count: pages past the new end were changed".into(),
            ));
        }
        if freelist_count >= page_count
            || freelist_head >= page_count
            || (freelist_head == 0) != (freelist_count == 0)
        {
            return Err(Error::InvalidInput("set_page_count: bad free list".into()));
        }
        st.header.page_count = page_count;
        st.header.freelist_head = freelist_head;
        st.header.freelist_count = freelist_count;
        Ok(())
    }

    /// Replaces page `id` (not the header page) with `image` (its checksum
    /// bytes are ignored and sealed on write), without reading it first.
    pub fn put_page(&self, id: PageId, image: &PageBuf) -> Result<()> {
        if id == PageId::HEADER {
            return Err(Error::InvalidInput(
                "page 0 is the header page; change it through the header setters".into(),
            ));
        }
        self.check_not_writing(id)?;
        let mut st = self.st.borrow_mut();
        Shared::check_range(id, &st.header)?;
        self.record_pre(&mut st, id)?;
        self.make_room(&mut st)?;
        self.install_dirty(&mut st, id, image)
    }

    /// Discards every change. Same as dropping the transaction.
    pub fn rollback(self) {}

    fn discard(&mut self) {
        let st = self.st.get_mut();
        let (id, generation, base) = (self.id, st.snap.generation, st.snap.mx);
        self.shared.pool.remove_where(|k| match k.version {
            Version::Dirty(t) => t == id,
            Version::Log { generation: g, frame } => g == generation && frame > base,
            Version::Main => false,
        });
    }
}

impl Drop for WriteTxn {
    fn drop(&mut self) {
        if !self.finished {
            self.discard();
            self.shared.unlock_writer();
        }
    }
}

/// The free list's view of this transaction's pages. Errors of the
/// transaction layer are kept aside and returned by the caller instead of
/// the pager error the trait must return.
struct Store<'a> {
    txn: &'a WriteTxn,
    st: &'a mut WState,
    error: Option<Error>,
}

impl Store<'_> {
    fn stash(&mut self, e: Error) -> PagerError {
        let out = match &e {
            Error::Pager(PagerError::Corrupt { page, reason }) => {
                PagerError::corrupt(*page, reason.clone())
            }
            _ => PagerError::Poisoned("transaction error".into()),
        };
        self.error = Some(e);
        out
    }

    fn finish<T>(self, r: asadb_pager::Result<T>) -> Result<T> {
        match (r, self.error) {
            (Ok(v), _) => Ok(v),
            (Err(_), Some(e)) => Err(e),
            (Err(e), None) => Err(e.into()),
        }
    }
}

impl freelist::FreeListStore for Store<'_> {
    fn read_page(&mut self, id: PageId, buf: &mut PageBuf) -> asadb_pager::Result<()> {
        self.txn.read_current(self.st, id, buf).map_err(|e| self.stash(e))
    }

    fn write_page(&mut self, id: PageId, buf: &mut PageBuf) -> asadb_pager::Result<()> {
        let r = (|| {
            self.txn.check_not_writing(id)?;
            self.txn.touch(self.st, id, true)?;
            let mut g = self.txn.get_dirty_mut(id)?;
            g.copy_from_slice(&buf[..]);
            Ok(())
        })();
        r.map_err(|e| self.stash(e))
    }
}

impl PageRead for WriteTxn {
    type Error = Error;
    type Ref<'a> = PageRef<'a>;

    fn page(&self, id: PageId) -> Result<PageRef<'_>> {
        let key = {
            let st = self.st.borrow();
            Shared::check_range(id, &st.header)?;
            self.current_key(&st, id)
        };
        if key.version == Version::Dirty(self.id) {
            self.check_not_writing(id)?;
        }
        let r = self.shared.pool.get(key, |b| self.shared.load(key, b))?;
        Ok(PageRef::new(r, Some(&self.pins)))
    }

    fn header(&self) -> Header {
        self.st.borrow().header.clone()
    }
}

impl PageWrite for WriteTxn {
    type Mut<'a> = PageMut<'a>;

    fn page_mut(&self, id: PageId) -> Result<PageMut<'_>> {
        if id == PageId::HEADER {
            return Err(Error::InvalidInput(
                "page 0 is the header page; change it through the header setters".into(),
            ));
        }
        self.check_not_writing(id)?;
        {
            let mut st = self.st.borrow_mut();
            Shared::check_range(id, &st.header)?;
            self.touch(&mut st, id, false)?;
        }
        self.get_dirty_mut(id)
    }

    fn allocate(&self) -> Result<(PageId, PageMut<'_>)> {
        let id = {
            let mut guard = self.st.borrow_mut();
            let mut header = guard.header.clone();
            let mut store = Store { txn: self, st: &mut guard, error: None };
            let r = freelist::allocate(&mut store, &mut header);
            let id = store.finish(r)?;
            self.check_not_writing(id)?;
            self.touch(&mut guard, id, true)?;
            guard.header = header;
            id
        };
        let mut g = self.get_dirty_mut(id)?;
        g.fill(0);
        Ok((id, g))
    }

    fn free(&self, id: PageId) -> Result<()> {
        let mut guard = self.st.borrow_mut();
        let mut header = guard.header.clone();
        let mut store = Store { txn: self, st: &mut guard, error: None };
        let r = freelist::free(&mut store, &mut header, id);
        store.finish(r)?;
        guard.header = header;
        Ok(())
    }

    fn set_catalog_root(&self, root: PageId) -> Result<()> {
        let mut st = self.st.borrow_mut();
        if root != PageId::HEADER {
            Shared::check_range(root, &st.header)?;
        }
        st.header.catalog_root = root.0;
        Ok(())
    }

    fn set_user_slot(&self, slot: usize, value: u32) -> Result<()> {
        if slot >= USER_SLOTS {
            return Err(Error::InvalidInput(format!(
                "user slot {slot} does not exist (there are {USER_SLOTS})"
            )));
        }
        self.st.borrow_mut().header.user[slot] = value;
        Ok(())
    }
}
