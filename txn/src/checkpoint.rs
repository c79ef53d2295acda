//! Checkpoints: copying committed log frames into the main file, and
//! resetting the log.
//!
//! Let C be the smallest `mx_frame` of any active reader (a reader of the
//! main file only counts as 0), or the last commit if there is none. For
//! every page with a frame ≤ C, its latest frame ≤ C is written to the main
//! file, which is first sized to the page count of commit C; then the main
//! file is synced and `backfill = C`.
//!
//! This never overwrites a main-file page that an active reader may still
//! read there: a reader with snapshot `mx ≥ C` resolves every page that has
//! a frame ≤ C to the log, and a main-file-only reader makes C = 0.
//!
//! When everything is backfilled and no reader uses the log, the log is
//! reset: new salts and checkpoint sequence, a new generation (so cached
//! images of old frames can never be hit), header rewritten, file truncated
//! to the header and synced. The main file was synced before, so a crash at
//! any point of the reset leaves either the old log (whose replay rewrites
//! pages the main file already holds) or an empty one.
//!
//! Under `synchronous = Normal` the log is synced before the main file is
//! written: the main file must never hold a page whose frame could still
//! be lost, or a crash would leave it half old and half new.

use std::sync::atomic::Ordering;

use asadb_pager::page::new_page;
use asadb_pager::{Header, PAGE_SIZE, PageId};

use crate::db::Shared;
use crate::guard::{Key, Version};
use crate::wal::WalHeader;
use crate::{CheckpointInfo, Result, Synchronous};

impl Shared {
    /// Runs a checkpoint. The caller holds the writer lock.
    pub(crate) fn checkpoint_locked(&self) -> Result<CheckpointInfo> {
        self.latch.check()?;
        let (mx, backfill, c) = {
            let st = self.state.lock();
            let oldest_reader = st.readers.keys().next().copied().unwrap_or(u32::MAX);
            (st.mx_frame, st.backfill, oldest_reader.min(st.mx_frame))
        };
        let mut info =
            CheckpointInfo { log_frames: mx, backfilled: backfill, pages_written: 0, reset: false };
        if c > backfill {
            if self.opts.synchronous == Synchronous::Normal {
                self.sync_io(&self.wal)?;
            }
            let mut todo: Vec<(PageId, u32)> = {
                let index = self.index.read();
                index
                    .pages()
                    .filter_map(|p| {
                        let f = index.latest_upto(p, c)?;
                        (f > backfill).then_some((p, f))
                    })
                    .collect()
            };
            todo.sort();
            let mut buf = new_page();
            // Every commit frame is the header page, and C is a commit frame
            // after the backfill mark, so the header of commit C is in `todo`.
            let header_frame =
                todo.iter().find(|(p, _)| *p == PageId::HEADER).map_or(c, |&(_, f)| f);
            self.read_frame(PageId::HEADER, header_frame, &mut buf)?;
            let page_count = Header::decode(&buf)?.page_count;
            let want_len = u64::from(page_count) * PAGE_SIZE as u64;
            if self.main.len().map_err(asadb_pager::Error::Io)? != want_len {
                self.write_io(|| self.main.set_len(want_len))?;
            }
            for &(p, f) in &todo {
                if p.0 >= page_count {
                    continue; // a frame of a page allocated then rolled back
                }
                self.read_frame(p, f, &mut buf)?;
                self.write_io(|| self.main.write_at(&buf[..], p.offset()))?;
                info.pages_written += 1;
            }
            self.sync_io(&self.main)?;
            for &(p, _) in &todo {
                self.pool.remove(Key::new(p, Version::Main));
            }
            self.state.lock().backfill = c;
            info.backfilled = c;
        }
        let reset = {
            let mut st = self.state.lock();
            let log_in_use = st.readers.keys().any(|&m| m > 0);
            if st.mx_frame > 0 && st.backfill == st.mx_frame && !log_in_use {
                let old = st.generation;
                let h = WalHeader::fresh(st.wal_header.ckpt_seq.wrapping_add(1));
                st.generation += 1;
                st.wal_header = h;
                st.chain = h.encode().1;
                st.mx_frame = 0;
                st.backfill = 0;
                self.index.write().clear();
                Some((old, h))
            } else {
                None
            }
        };
        if let Some((old, h)) = reset {
            self.pool.remove_where(
                |k| matches!(k.version, Version::Log { generation, .. } if generation == old),
            );
            self.write_wal_header(&h)?;
            info.reset = true;
        }
        self.checkpoints.fetch_add(1, Ordering::Relaxed);
        Ok(info)
    }
}
