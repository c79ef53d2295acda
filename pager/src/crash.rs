//! A crash-simulating IO double: a world of named files, each with a *live*
//! image (what reads see) and a *durable* image (what survives a crash).
//!
//! # Model (what real filesystems may do)
//! - Every `write_at` and `set_len` changes the live image at once and is
//!   appended to the file's list of *pending* (unsynced) mutations.
//! - `sync` on a file makes that file's pending mutations durable, in order,
//!   and clears the list. It says nothing about other files: a database that
//!   needs its log durable must sync the log.
//! - Syncs are numbered across all files of the world, starting at 1.
//!   [`CrashWorld::crash_at_sync`]`(n)` arms a crash: the n-th sync does
//!   *not* take effect, returns an error, and the world is crashed. After a
//!   crash (or [`CrashWorld::crash_now`]) every call on every file of the
//!   world fails with kind `Other` and message "crashed", so a process cannot
//!   go on as if nothing happened.
//! - A restart is [`CrashWorld::recover`]`(seed)`: a *new* world whose files
//!   start from the durable images, then replay the pending mutations in
//!   order, each one independently (seeded, deterministic):
//!   - dropped (the page cache never wrote it back),
//!   - applied fully, or
//!   - for writes, torn: either only some of its 512-byte sectors (aligned to
//!     file offsets) are applied, or only a prefix that does not end on a
//!     sector boundary (a page half written).
//!
//!   Writeback order is not program order, so a later write may survive
//!   while an earlier one is lost. A write past the end that is (partly)
//!   applied grows the file with zeros, as a sparse file reads back.
//! - [`CrashWorld::recover_durable`] keeps only durable state (every pending
//!   mutation lost); [`CrashWorld::recover_all`] keeps everything (a clean
//!   shutdown whose page cache reached the disk).
//! - A file created but never synced still exists after recovery (empty if
//!   nothing of it was kept): directory entries are not modelled.
//!
//! The recovered world is uncrashed, its sync counter starts at 0, and each
//! file's recovered image is both live and durable.

use std::collections::BTreeMap;
use std::io;
use std::sync::Arc;

use parking_lot::Mutex;

use crate::Io;

/// Sector size used to tear writes.
pub const SECTOR_SIZE: usize = 512;

/// A set of named files that can crash together. Cheap to clone: clones
/// share the same files.
#[derive(Clone, Debug, Default)]
pub struct CrashWorld {
    inner: Arc<Mutex<WorldState>>,
}

#[derive(Debug, Default)]
struct WorldState {
    files: BTreeMap<String, FileState>,
    syncs: u64,
    crash_at: Option<u64>,
    crashed: bool,
}

#[derive(Clone, Debug, Default)]
struct FileState {
    live: Vec<u8>,
    durable: Vec<u8>,
    pending: Vec<Mutation>,
}

#[derive(Clone, Debug)]
enum Mutation {
    Write { offset: u64, data: Vec<u8> },
    SetLen(u64),
}

fn crashed() -> io::Error {
    io::Error::other("crashed")
}

fn write_into(image: &mut Vec<u8>, offset: u64, data: &[u8]) -> io::Result<()> {
    let end = offset
        .checked_add(data.len() as u64)
        .and_then(|end| usize::try_from(end).ok())
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "write past addressable end"))?;
    if image.len() < end {
        image.resize(end, 0);
    }
    image[offset as usize..end].copy_from_slice(data);
    Ok(())
}

fn set_len_of(image: &mut Vec<u8>, len: u64) -> io::Result<()> {
    let len = usize::try_from(len)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "length not addressable"))?;
    image.resize(len, 0);
    Ok(())
}

impl Mutation {
    fn apply(&self, image: &mut Vec<u8>) {
        // Offsets and lengths were validated when the mutation was accepted.
        let done = match self {
            Mutation::Write { offset, data } => write_into(image, *offset, data),
            Mutation::SetLen(len) => set_len_of(image, *len),
        };
        done.expect("pending mutation was validated on entry");
    }
}

/// How a recovered world treats pending mutations.
enum Replay {
    Durable,
    All,
    Random(SplitMix64),
}

impl CrashWorld {
    /// An empty world.
    pub fn new() -> Self {
        Self::default()
    }

    /// Opens the file `name`, creating it empty if missing. Handles to the
    /// same name share one file.
    pub fn file(&self, name: &str) -> Arc<CrashIo> {
        self.inner.lock().files.entry(name.to_owned()).or_default();
        Arc::new(CrashIo { world: self.clone(), name: name.to_owned() })
    }

    /// Arms a crash at the `n`-th sync of the world (1-based, counted
    /// across files). A number already passed never fires.
    pub fn crash_at_sync(&self, n: u64) {
        self.inner.lock().crash_at = Some(n);
    }

    /// Crashes now: every later call on every file fails.
    pub fn crash_now(&self) {
        self.inner.lock().crashed = true;
    }

    /// True once crashed.
    pub fn is_crashed(&self) -> bool {
        self.inner.lock().crashed
    }

    /// Number of syncs attempted so far (the crashing one included).
    pub fn syncs(&self) -> u64 {
        self.inner.lock().syncs
    }

    /// Names of the files of this world, sorted.
    pub fn file_names(&self) -> Vec<String> {
        self.inner.lock().files.keys().cloned().collect()
    }

    /// A copy of the live image of `name`, if the file exists.
    pub fn bytes(&self, name: &str) -> Option<Vec<u8>> {
        self.inner.lock().files.get(name).map(|f| f.live.clone())
    }

    /// A copy of the durable image of `name`, if the file exists.
    pub fn durable_bytes(&self, name: &str) -> Option<Vec<u8>> {
        self.inner.lock().files.get(name).map(|f| f.durable.clone())
    }

    /// Number of unsynced mutations of `name` (0 if it does not exist).
    pub fn pending(&self, name: &str) -> usize {
        self.inner.lock().files.get(name).map_or(0, |f| f.pending.len())
    }

    /// The files a restarted process would see: durable images plus a
    /// seeded random choice of the pending mutations, some torn (see the
    /// module docs). The same seed always gives the same world.
    pub fn recover(&self, seed: u64) -> CrashWorld {
        self.rebuild(Replay::Random(SplitMix64(seed)))
    }

    /// The files with every pending mutation lost.
    pub fn recover_durable(&self) -> CrashWorld {
        self.rebuild(Replay::Durable)
    }

    /// The files with every pending mutation applied.
    pub fn recover_all(&self) -> CrashWorld {
        self.rebuild(Replay::All)
    }

    fn rebuild(&self, mut replay: Replay) -> CrashWorld {
        let state = self.inner.lock();
        let mut files = BTreeMap::new();
        for (name, file) in &state.files {
            let image = match &mut replay {
                Replay::Durable => file.durable.clone(),
                Replay::All => file.live.clone(),
                Replay::Random(rng) => {
                    let mut image = file.durable.clone();
                    for m in &file.pending {
                        replay_one(m, &mut image, rng);
                    }
                    image
                }
            };
            files.insert(
                name.clone(),
                FileState { live: image.clone(), durable: image, pending: Vec::new() },
            );
        }
        CrashWorld { inner: Arc::new(Mutex::new(WorldState { files, ..WorldState::default() })) }
    }
}

/// Replays one pending mutation the way an interrupted writeback might.
fn replay_one(m: &Mutation, image: &mut Vec<u8>, rng: &mut SplitMix64) {
    match m {
        Mutation::SetLen(_) => {
            if rng.below(2) == 1 {
                m.apply(image);
            }
        }
        Mutation::Write { offset, data } => match rng.below(4) {
            0 => {} // dropped
            1 => m.apply(image),
            2 => {
                // Some sectors: split at absolute 512-byte boundaries.
                let mut at = 0usize;
                while at < data.len() {
                    let abs = *offset + at as u64;
                    let to_boundary = SECTOR_SIZE - (abs % SECTOR_SIZE as u64) as usize;
                    let end = (at + to_boundary).min(data.len());
                    if rng.below(2) == 1 {
                        Mutation::Write { offset: abs, data: data[at..end].to_vec() }.apply(image);
                    }
                    at = end;
                }
            }
            _ => {
                // A prefix not ending on a sector boundary (when one exists).
                if data.len() > 1 {
                    let len = torn_prefix_len(data.len(), rng);
                    Mutation::Write { offset: *offset, data: data[..len].to_vec() }.apply(image);
                }
            }
        },
    }
}

/// A prefix length in `1..len` (`len > 1`) that is not a multiple of the
/// sector size, so the tear falls inside a sector.
fn torn_prefix_len(len: usize, rng: &mut SplitMix64) -> usize {
    let n = 1 + rng.below(len as u64 - 1) as usize;
    if n.is_multiple_of(SECTOR_SIZE) { n - 1 } else { n }
}

/// A tiny deterministic generator (SplitMix64): the same seed gives the
/// same recovery on every platform and every version of this crate, which a
/// general-purpose RNG does not promise.
#[derive(Debug)]
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`); the modulo bias is irrelevant here.
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// One file of a [`CrashWorld`].
#[derive(Debug)]
pub struct CrashIo {
    world: CrashWorld,
    name: String,
}

impl CrashIo {
    /// The file's name in its world.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The world this file belongs to.
    pub fn world(&self) -> &CrashWorld {
        &self.world
    }

    fn with_file<T>(&self, f: impl FnOnce(&mut FileState) -> io::Result<T>) -> io::Result<T> {
        let mut state = self.world.inner.lock();
        if state.crashed {
            return Err(crashed());
        }
        let file = state.files.get_mut(&self.name).expect("a handle's file exists in its world");
        f(file)
    }
}

impl Io for CrashIo {
    fn len(&self) -> io::Result<u64> {
        self.with_file(|f| Ok(f.live.len() as u64))
    }

    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        self.with_file(|f| {
            let end =
                offset.checked_add(buf.len() as u64).filter(|&end| end <= f.live.len() as u64);
            let Some(end) = end else {
                return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "read past end of file"));
            };
            buf.copy_from_slice(&f.live[offset as usize..end as usize]);
            Ok(())
        })
    }

    fn write_at(&self, buf: &[u8], offset: u64) -> io::Result<()> {
        self.with_file(|f| {
            write_into(&mut f.live, offset, buf)?;
            f.pending.push(Mutation::Write { offset, data: buf.to_vec() });
            Ok(())
        })
    }

    fn set_len(&self, len: u64) -> io::Result<()> {
        self.with_file(|f| {
            set_len_of(&mut f.live, len)?;
            f.pending.push(Mutation::SetLen(len));
            Ok(())
        })
    }

    fn sync(&self) -> io::Result<()> {
        let mut state = self.world.inner.lock();
        if state.crashed {
            return Err(crashed());
        }
        state.syncs += 1;
        if state.crash_at == Some(state.syncs) {
            state.crashed = true;
            return Err(crashed());
        }
        let file = state.files.get_mut(&self.name).expect("a handle's file exists in its world");
        for m in std::mem::take(&mut file.pending) {
            m.apply(&mut file.durable);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_is_deterministic_and_spread() {
        let mut a = SplitMix64(7);
        let mut b = SplitMix64(7);
        let xs: Vec<u64> = (0..100).map(|_| a.below(4)).collect();
        let ys: Vec<u64> = (0..100).map(|_| b.below(4)).collect();
        assert_eq!(xs, ys);
        for v in 0..4 {
            assert!(xs.contains(&v), "value {v} never drawn");
        }
    }

    #[test]
    fn torn_prefix_is_partial_and_inside_a_sector() {
        let mut rng = SplitMix64(1);
        for len in [2usize, 513, 4096, 8192] {
            for _ in 0..500 {
                let n = torn_prefix_len(len, &mut rng);
                assert!((1..len).contains(&n), "len {len}: prefix {n}");
                assert_ne!(n % SECTOR_SIZE, 0, "len {len}: prefix {n} ends on a sector");
            }
        }
    }
}
