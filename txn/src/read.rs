//! Read transactions: a registered snapshot of the last commit.

use std::sync::Arc;

use asadb_pager::{Header, PageBuf, PageId};

use crate::db::{Shared, Snapshot};
use crate::guard::PageRef;
use crate::{Error, PageRead, Result};

/// A read-only view of the database as of the last commit when it began.
/// Never blocks the writer and is never blocked by it. While it lives, a
/// checkpoint copies nothing into the main file that this snapshot could
/// still read from there; dropping it releases the snapshot.
///
/// `Send` (not `Sync`); its page guards stay on the thread that took them.
#[derive(Debug)]
pub struct ReadTxn {
    shared: Arc<Shared>,
    pub(crate) snap: Snapshot,
}

impl ReadTxn {
    pub(crate) fn new(shared: Arc<Shared>) -> Self {
        let snap = shared.register_reader();
        ReadTxn { shared, snap }
    }

    /// Copies page `id` into `buf` without caching it (a cached image is
    /// used if present): for scans, like the integrity check, that should
    /// not push hot pages out of the pool.
    pub fn read_into(&self, id: PageId, buf: &mut PageBuf) -> Result<()> {
        Shared::check_range(id, &self.snap.header)?;
        let key = self.shared.resolve(id, &self.snap);
        match self.shared.pool.get_cached(key) {
            Some(r) => buf.copy_from_slice(&r[..]),
            None => self.shared.load(key, buf)?,
        }
        Ok(())
    }

    /// The change counter of the commit this snapshot shows.
    pub fn change_counter(&self) -> u64 {
        self.snap.header.change_counter
    }
}

impl PageRead for ReadTxn {
    type Error = Error;
    type Ref<'a> = PageRef<'a>;

    fn page(&self, id: PageId) -> Result<PageRef<'_>> {
        Shared::check_range(id, &self.snap.header)?;
        let key = self.shared.resolve(id, &self.snap);
        let r = self.shared.pool.get(key, |buf| self.shared.load(key, buf))?;
        Ok(PageRef::new(r, None))
    }

    fn header(&self) -> Header {
        self.snap.header.clone()
    }
}

impl Drop for ReadTxn {
    fn drop(&mut self) {
        self.shared.unregister_reader(self.snap.mx);
    }
}
