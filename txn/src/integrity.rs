//! The integrity check of the page layer, at the latest commit.
//!
//! Checks that the header page decodes, that every page below the page
//! count reads back with a valid checksum, and that the free list walks
//! cleanly with the right length. Problems are collected, not fatal, so a
//! report names every bad page; the SQL layer adds tree reachability checks
//! on top (with [`IntegrityReport::free_pages`] it can account for every
//! page).

use asadb_pager::page::new_page;
use asadb_pager::{Error as PagerError, Header, PageBuf, PageId, freelist};

use crate::{Db, Error, ReadTxn, Result};

/// One thing found wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The page holding the bad value (0 for header fields).
    pub page: PageId,
    /// What is wrong.
    pub reason: String,
}

/// What [`Db::integrity_check`] found.
#[derive(Clone, Debug, Default)]
pub struct IntegrityReport {
    /// The header of the checked commit.
    pub header: Header,
    /// The pages on the free list, in list order (empty if it is broken).
    pub free_pages: Vec<PageId>,
    /// Everything found wrong; empty when the check passed.
    pub problems: Vec<Problem>,
}

impl IntegrityReport {
    /// True when no problem was found.
    pub fn is_ok(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Turns a corruption into a problem; other errors (IO) abort the check.
fn note(problems: &mut Vec<Problem>, r: Result<()>) -> Result<()> {
    match r {
        Ok(()) => Ok(()),
        Err(Error::Pager(PagerError::Corrupt { page, reason })) => {
            problems.push(Problem { page, reason });
            Ok(())
        }
        Err(Error::Pager(PagerError::NotADatabase(reason))) => {
            problems.push(Problem { page: PageId::HEADER, reason });
            Ok(())
        }
        Err(e) => Err(e),
    }
}

struct SnapshotStore<'a> {
    txn: &'a ReadTxn,
}

impl freelist::FreeListStore for SnapshotStore<'_> {
    fn read_page(&mut self, id: PageId, buf: &mut PageBuf) -> asadb_pager::Result<()> {
        self.txn.read_into(id, buf).map_err(|e| match e {
            Error::Pager(e) => e,
            other => PagerError::Io(std::io::Error::other(other.to_string())),
        })
    }

    fn write_page(&mut self, id: PageId, _buf: &mut PageBuf) -> asadb_pager::Result<()> {
        Err(PagerError::Io(std::io::Error::other(format!(
            "integrity check tried to write page {id}"
        ))))
    }
}

impl Db {
    /// Checks the latest commit; see the module docs. `Err` only for
    /// failures to read at all (IO), never for what the check finds.
    pub fn integrity_check(&self) -> Result<IntegrityReport> {
        let txn = self.begin_read()?;
        let header = crate::PageRead::header(&txn);
        let mut report = IntegrityReport { header: header.clone(), ..Default::default() };
        let mut buf = new_page();
        let r = txn.read_into(PageId::HEADER, &mut buf).and_then(|()| {
            let decoded = Header::decode(&buf)?;
            if decoded != header {
                return Err(PagerError::corrupt(
                    PageId::HEADER,
                    "header page differs from the committed header",
                )
                .into());
            }
            Ok(())
        });
        note(&mut report.problems, r)?;
        for p in 1..header.page_count {
            let r = txn.read_into(PageId(p), &mut buf);
            note(&mut report.problems, r)?;
        }
        match freelist::walk(&mut SnapshotStore { txn: &txn }, &header) {
            Ok(free) => report.free_pages = free,
            Err(e) => note(&mut report.problems, Err(e.into()))?,
        }
        Ok(report)
    }
}
