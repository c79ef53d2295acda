//! `MemPages`: an in-memory implementation of the page seam for tests of
//! the structures built on pages. It is strict where the real transaction
//! layer may be lenient, to catch bugs early: reading a free or never
//! allocated page is an error, and a guard conflict (a page borrowed for
//! writing while another guard holds it, or freed while borrowed) panics.

use std::cell::{Ref, RefCell, RefMut};
use std::collections::BTreeSet;
use std::sync::OnceLock;

use asadb_pager::{Header, PAGE_SIZE, PageBuf, PageId};
use asadb_txn::{PageRead, PageWrite};

/// Pages in memory, with a free list. Capacity is fixed up front so that
/// guards can borrow `&self` while new pages are allocated.
pub struct MemPages {
    pages: Vec<OnceLock<Box<RefCell<PageBuf>>>>,
    state: RefCell<State>,
}

struct State {
    header: Header,
    /// Per page id: allocated and not free.
    live: Vec<bool>,
    free: Vec<u32>,
    allocations: u64,
}

fn error(page: PageId, reason: &str) -> asadb_txn::Error {
    asadb_txn::Error::Pager(asadb_pager::Error::corrupt(page, reason))
}

impl MemPages {
    /// Room for `capacity` pages (page 0, the header, included).
    pub fn new(capacity: usize) -> MemPages {
        let mut header = Header::new();
        header.page_count = 1;
        MemPages {
            pages: (0..capacity).map(|_| OnceLock::new()).collect(),
            state: RefCell::new(State {
                header,
                live: vec![false; capacity],
                free: Vec::new(),
                allocations: 0,
            }),
        }
    }

    /// Pages allocated and not freed.
    pub fn live_pages(&self) -> BTreeSet<PageId> {
        let st = self.state.borrow();
        (0..st.live.len()).filter(|&p| st.live[p]).map(|p| PageId(p as u32)).collect()
    }

    /// Calls to `allocate` so far.
    pub fn allocations(&self) -> u64 {
        self.state.borrow().allocations
    }

    fn cell(&self, id: PageId) -> Result<&RefCell<PageBuf>, asadb_txn::Error> {
        if !self.state.borrow().live.get(id.0 as usize).copied().unwrap_or(false) {
            return Err(error(id, "page is not allocated"));
        }
        Ok(self.pages[id.0 as usize].get_or_init(|| Box::new(RefCell::new([0; PAGE_SIZE]))))
    }
}

impl PageRead for MemPages {
    type Error = asadb_txn::Error;
    type Ref<'a> = Ref<'a, PageBuf>;

    fn page(&self, id: PageId) -> Result<Ref<'_, PageBuf>, asadb_txn::Error> {
        Ok(self.cell(id)?.try_borrow().expect("page read while a write guard holds it"))
    }

    fn header(&self) -> Header {
        self.state.borrow().header.clone()
    }
}

impl PageWrite for MemPages {
    type Mut<'a> = RefMut<'a, PageBuf>;

    fn page_mut(&self, id: PageId) -> Result<RefMut<'_, PageBuf>, asadb_txn::Error> {
        Ok(self.cell(id)?.try_borrow_mut().expect("page written while another guard holds it"))
    }

    fn allocate(&self) -> Result<(PageId, RefMut<'_, PageBuf>), asadb_txn::Error> {
        let id = {
            let mut st = self.state.borrow_mut();
            let id = match st.free.pop() {
                Some(id) => id,
                None => {
                    let id = st.header.page_count;
                    if id as usize >= self.pages.len() {
                        return Err(asadb_txn::Error::Pager(asadb_pager::Error::Full {
                            pages: id,
                        }));
                    }
                    st.header.page_count += 1;
                    id
                }
            };
            st.live[id as usize] = true;
            st.header.freelist_count = st.free.len() as u32;
            st.allocations += 1;
            PageId(id)
        };
        let mut page = self.page_mut(id)?;
        page.fill(0);
        Ok((id, page))
    }

    fn free(&self, id: PageId) -> Result<(), asadb_txn::Error> {
        let cell = self.cell(id)?;
        assert!(cell.try_borrow_mut().is_ok(), "page {id} freed while a guard holds it");
        let mut st = self.state.borrow_mut();
        st.live[id.0 as usize] = false;
        st.free.push(id.0);
        st.header.freelist_count = st.free.len() as u32;
        Ok(())
    }

    fn set_catalog_root(&self, root: PageId) -> Result<(), asadb_txn::Error> {
        self.state.borrow_mut().header.catalog_root = root.0;
        Ok(())
    }

    fn set_user_slot(&self, slot: usize, value: u32) -> Result<(), asadb_txn::Error> {
        let mut st = self.state.borrow_mut();
        match st.header.user.get_mut(slot) {
            Some(s) => *s = value,
            None => return Err(error(PageId::HEADER, "no such user slot")),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocate_free_reuse() {
        let mem = MemPages::new(8);
        let (a, mut page) = mem.allocate().unwrap();
        page[0] = 7;
        drop(page);
        let (b, _) = mem.allocate().unwrap();
        assert_eq!((a, b), (PageId(1), PageId(2)));
        assert_eq!(mem.page(a).unwrap()[0], 7);
        mem.free(a).unwrap();
        assert!(mem.page(a).is_err(), "a freed page cannot be read");
        let (c, page) = mem.allocate().unwrap();
        assert_eq!(c, a);
        assert_eq!(page[0], 0, "reused pages come back zeroed");
        drop(page);
        assert_eq!(mem.live_pages().len(), 2);
        assert!(mem.page(PageId(0)).is_err());
        assert!(mem.page(PageId(100)).is_err());
    }
}
