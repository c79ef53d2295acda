//! Savepoints: a stack of levels inside the write transaction.
//!
//! On the first write of a page at a level, the level records the page's
//! *pre-image state*: not changed by the transaction yet ([`Pre::Clean`]),
//! dirty with a copy of its bytes ([`Pre::Bytes`]), or spilled to
//! uncommitted log frame `f` ([`Pre::Spilled`]). Copies are kept in memory
//! up to a budget (an eighth of the pool, at least 16 pages); beyond it the
//! current image is appended to the log as an uncommitted frame and the
//! level records that frame instead, so memory stays bounded. A statement
//! that touches a few pages costs a few page copies.
//!
//! - `rollback_to(sp)` puts back the oldest pre-image of every page changed
//!   at `sp`'s level or above, and the header as it was at `sp`; `sp` stays
//!   on the stack, empty (SQL semantics).
//! - `release(sp)` merges `sp`'s level and those above into the level
//!   below, which keeps its own (older) pre-images.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use asadb_pager::page::new_page;
use asadb_pager::{Header, PageBuf, PageId, page};

use crate::write::{Loc, WState};
use crate::{Error, Result, WriteTxn};

/// A savepoint handle. Stays valid until released or until an enclosing
/// savepoint is released or rolled back to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Savepoint {
    id: u64,
}

/// The state of a page when a level first changed it.
#[derive(Debug)]
pub(crate) enum Pre {
    Clean,
    Bytes(Box<PageBuf>),
    Spilled(u32),
}

/// One savepoint level.
#[derive(Debug)]
pub(crate) struct Level {
    id: u64,
    header: Header,
    pre: HashMap<PageId, Pre>,
}

fn forget(st: &mut WState, pre: Pre) {
    if let Pre::Bytes(_) = pre {
        st.copies -= 1;
    }
}

impl WriteTxn {
    /// Pre-image copies kept in memory before they go to the log.
    fn copy_budget(&self) -> usize {
        (self.shared.pool.capacity() / 8).max(16)
    }

    /// Records `page`'s state for the innermost level, once per level.
    pub(crate) fn record_pre(&self, st: &mut WState, page: PageId) -> Result<()> {
        match st.levels.last() {
            Some(level) if !level.pre.contains_key(&page) => {}
            _ => return Ok(()),
        }
        let pre = match st.pages.get(&page) {
            None => Pre::Clean,
            Some(&Loc::Spilled(f)) => Pre::Spilled(f),
            Some(Loc::Dirty) => {
                let mut image = new_page();
                self.read_current(st, page, &mut image)?;
                if st.copies < self.copy_budget() {
                    st.copies += 1;
                    Pre::Bytes(image)
                } else {
                    page::seal(page, &mut image);
                    let f = self.push_frame(st, page, 0, &image)?;
                    self.flush_frames(st)?;
                    Pre::Spilled(f)
                }
            }
        };
        st.levels.last_mut().expect("checked above").pre.insert(page, pre);
        Ok(())
    }

    /// Opens a nested savepoint.
    pub fn savepoint(&self) -> Savepoint {
        let mut st = self.st.borrow_mut();
        let id = st.next_savepoint;
        st.next_savepoint += 1;
        let header = st.header.clone();
        st.levels.push(Level { id, header, pre: HashMap::new() });
        Savepoint { id }
    }

    fn position(st: &WState, sp: Savepoint) -> Result<usize> {
        st.levels.iter().position(|l| l.id == sp.id).ok_or(Error::InvalidSavepoint)
    }

    /// Keeps the changes made since `sp` and removes `sp` (and any savepoint
    /// opened after it) from the stack.
    pub fn release(&self, sp: Savepoint) -> Result<()> {
        let mut guard = self.st.borrow_mut();
        let st = &mut *guard;
        let at = Self::position(st, sp)?;
        let released: Vec<Level> = st.levels.drain(at..).collect();
        for level in released {
            for (page, pre) in level.pre {
                match st.levels.last_mut() {
                    Some(parent) if !parent.pre.contains_key(&page) => {
                        parent.pre.insert(page, pre);
                    }
                    _ => forget(st, pre),
                }
            }
        }
        Ok(())
    }

    /// Undoes every change made since `sp` was opened; `sp` stays on the
    /// stack (savepoints opened after it are removed). No page guard of
    /// this transaction may be held.
    pub fn rollback_to(&self, sp: Savepoint) -> Result<()> {
        if self.pins.outstanding() != 0 {
            return Err(Error::InvalidInput(
                "rollback to a savepoint while page guards are held".into(),
            ));
        }
        let mut guard = self.st.borrow_mut();
        let st = &mut *guard;
        let at = Self::position(st, sp)?;
        let mut undone: Vec<Level> = st.levels.drain(at..).collect();
        let header = undone[0].header.clone();
        // The oldest pre-image of each page wins: walk levels oldest first.
        let mut oldest: HashMap<PageId, Pre> = HashMap::new();
        for level in &mut undone {
            for (page, pre) in level.pre.drain() {
                match oldest.entry(page) {
                    Entry::Occupied(_) => forget(st, pre),
                    Entry::Vacant(v) => {
                        v.insert(pre);
                    }
                }
            }
        }
        let mut pages: Vec<(PageId, Pre)> = oldest.into_iter().collect();
        pages.sort_by_key(|(p, _)| *p);
        for (page, pre) in pages {
            if let Err(e) = self.restore(st, page, pre) {
                st.broken = true;
                return Err(e);
            }
        }
        st.header = header.clone();
        st.levels.push(Level { id: sp.id, header, pre: HashMap::new() });
        Ok(())
    }

    /// Puts `page` back into the state `pre` describes.
    fn restore(&self, st: &mut WState, page: PageId, pre: Pre) -> Result<()> {
        let key = self.dirty_key(page);
        match pre {
            Pre::Clean => {
                self.shared.pool.remove(key);
                st.pages.remove(&page);
            }
            Pre::Spilled(f) => {
                self.shared.pool.remove(key);
                st.pages.insert(page, Loc::Spilled(f));
            }
            Pre::Bytes(image) => {
                st.copies -= 1;
                if st.pages.get(&page) == Some(&Loc::Dirty) {
                    let mut g = self.shared.pool.get_mut(key, |b| self.shared.load(key, b))?;
                    g.copy_from_slice(&image[..]);
                } else {
                    self.make_room(st)?;
                    self.install_dirty(st, page, &image)?;
                }
            }
        }
        Ok(())
    }
}
