//! The Reservoir's file seam: every file of `.asa.reservoir/` — the event
//! log and its compaction, spool bodies, result files and their temporary
//! files — is opened, renamed, removed and listed through [`Files`], and
//! read and written through the pager's positional [`Io`] trait. So the
//! Reservoir runs on real files ([`OsFiles`], the default), in memory
//! ([`MemFiles`]) and under the fault double ([`FaultyFiles`]), which
//! fails the Nth mutating call with ENOSPC or EIO under a pager
//! [`FaultPlan`] — the same plan, error kinds and numbering the pager's
//! own fault tests use.
//!
//! [`IoCursor`] turns an [`Io`] into a sequential `Read + Write + Seek`
//! stream for the code that streams (replaying the log, the splitter and
//! import readers over a spool body, assembling a result).
//!
//! `MemFiles` has no crash model: everything written is kept, synced or
//! not. The fault tests check what a *failed* call leaves (the process
//! goes on). What a power cut leaves is [`CrashFiles`]' business: file
//! contents on the pager's [`CrashWorld`] (unsynced writes lost or torn),
//! directory entries modelled beside them (an unsynced create, rename or
//! remove may be lost).

use std::collections::{BTreeMap, BTreeSet};
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use asadb_pager::{CrashWorld, FaultPlan, FaultyIo, FileIo, Io, MemIo};
use parking_lot::Mutex;

/// How a file is opened. Every handle can read; all but `Read` can write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Open {
    /// An existing file, read only.
    Read,
    /// An existing file, for reading and writing.
    Existing,
    /// Created if missing, its contents kept.
    Create,
    /// Created if missing, emptied if not.
    Truncate,
    /// Created; an existing file is an `AlreadyExists` error.
    CreateNew,
}

impl Open {
    /// True when the open may create a file (a mutating call).
    pub fn creates(self) -> bool {
        matches!(self, Open::Create | Open::Truncate | Open::CreateNew)
    }
}

/// The directory operations the Reservoir needs; file contents go through
/// the returned [`Io`].
pub trait Files: Send + Sync + std::fmt::Debug {
    /// Creates `dir` and its parents if missing.
    fn create_dir_all(&self, dir: &Path) -> io::Result<()>;
    /// Opens `path` as `how` says.
    fn open(&self, path: &Path, how: Open) -> io::Result<Arc<dyn Io>>;
    /// Renames `from` to `to`, replacing `to`.
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()>;
    /// Removes the file `path`.
    fn remove(&self, path: &Path) -> io::Result<()>;
    /// Makes creates, renames and removes in `dir` durable.
    fn sync_dir(&self, dir: &Path) -> io::Result<()>;
    /// The names of the files in `dir`.
    fn list(&self, dir: &Path) -> io::Result<Vec<String>>;
    /// True when `path` names a file.
    fn exists(&self, path: &Path) -> bool;
}

/// Real files (`std::fs`).
#[derive(Debug, Default)]
pub struct OsFiles;

impl Files for OsFiles {
    fn create_dir_all(&self, dir: &Path) -> io::Result<()> {
        std::fs::create_dir_all(dir)
    }

    fn open(&self, path: &Path, how: Open) -> io::Result<Arc<dyn Io>> {
        let mut o = OpenOptions::new();
        o.read(true);
        match how {
            Open::Read => {}
            Open::Existing => {
                o.write(true);
            }
            Open::Create => {
                o.write(true).create(true).truncate(false);
            }
            Open::Truncate => {
                o.write(true).create(true).truncate(true);
            }
            Open::CreateNew => {
                o.write(true).create_new(true);
            }
        }
        Ok(Arc::new(FileIo::from_file(o.open(path)?)))
    }

    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        std::fs::rename(from, to)
    }

    fn remove(&self, path: &Path) -> io::Result<()> {
        std::fs::remove_file(path)
    }

    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        File::open(dir)?.sync_all()
    }

    fn list(&self, dir: &Path) -> io::Result<Vec<String>> {
        let mut names = Vec::new();
        for entry in std::fs::read_dir(dir)? {
            names.push(entry?.file_name().to_string_lossy().into_owned());
        }
        Ok(names)
    }

    fn exists(&self, path: &Path) -> bool {
        path.exists()
    }
}

/// Files in memory: a map from path to [`MemIo`]. Cheap to clone; clones
/// share the files, so a test can reopen a Reservoir on what the last one
/// left. Removing or renaming a file does not disturb handles already
/// open on it (as on Unix).
#[derive(Clone, Debug, Default)]
pub struct MemFiles {
    inner: Arc<Mutex<MemTree>>,
}

#[derive(Debug, Default)]
struct MemTree {
    files: BTreeMap<PathBuf, Arc<MemIo>>,
    dirs: BTreeSet<PathBuf>,
}

impl MemFiles {
    /// No files.
    pub fn new() -> Self {
        Self::default()
    }

    /// Every file's path, sorted.
    pub fn paths(&self) -> Vec<PathBuf> {
        self.inner.lock().files.keys().cloned().collect()
    }

    /// A copy of a file's bytes.
    pub fn bytes(&self, path: &Path) -> Option<Vec<u8>> {
        self.inner.lock().files.get(path).map(|f| f.to_bytes())
    }
}

/// The names of the paths that are directly in `dir` (a listing of the
/// in-memory doubles).
fn names_in<'a>(dir: &Path, paths: impl Iterator<Item = &'a PathBuf>) -> Vec<String> {
    paths
        .filter(|p| p.parent() == Some(dir))
        .filter_map(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .collect()
}

fn not_found(path: &Path) -> io::Error {
    io::Error::new(io::ErrorKind::NotFound, format!("{}: no such file", path.display()))
}

impl MemTree {
    fn check_parent(&self, path: &Path) -> io::Result<()> {
        match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() && !self.dirs.contains(dir) => {
                Err(not_found(dir))
            }
            _ => Ok(()),
        }
    }
}

impl Files for MemFiles {
    fn create_dir_all(&self, dir: &Path) -> io::Result<()> {
        let mut t = self.inner.lock();
        for d in dir.ancestors().filter(|d| !d.as_os_str().is_empty()) {
            t.dirs.insert(d.to_owned());
        }
        Ok(())
    }

    fn open(&self, path: &Path, how: Open) -> io::Result<Arc<dyn Io>> {
        let mut t = self.inner.lock();
        let existing = t.files.get(path).cloned();
        let file = match (existing, how) {
            (Some(_), Open::CreateNew) => {
                return Err(io::Error::new(
                    io::ErrorKind::AlreadyExists,
                    format!("{} exists", path.display()),
                ));
            }
            (Some(f), Open::Truncate) => {
                f.set_len(0)?;
                f
            }
            (Some(f), _) => f,
            (None, Open::Read | Open::Existing) => return Err(not_found(path)),
            (None, _) => {
                t.check_parent(path)?;
                let f = Arc::new(MemIo::new());
                t.files.insert(path.to_owned(), f.clone());
                f
            }
        };
        Ok(file)
    }

    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        let mut t = self.inner.lock();
        t.check_parent(to)?;
        let f = t.files.remove(from).ok_or_else(|| not_found(from))?;
        t.files.insert(to.to_owned(), f);
        Ok(())
    }

    fn remove(&self, path: &Path) -> io::Result<()> {
        self.inner.lock().files.remove(path).map(drop).ok_or_else(|| not_found(path))
    }

    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        if self.inner.lock().dirs.contains(dir) { Ok(()) } else { Err(not_found(dir)) }
    }

    fn list(&self, dir: &Path) -> io::Result<Vec<String>> {
        let t = self.inner.lock();
        if !t.dirs.contains(dir) {
            return Err(not_found(dir));
        }
        Ok(names_in(dir, t.files.keys()))
    }

    fn exists(&self, path: &Path) -> bool {
        self.inner.lock().files.contains_key(path)
    }
}

/// Files on a pager [`CrashWorld`], for power-cut tests: the contents of
/// every file follow the world's model (a write is durable only once its
/// file is synced; a crash loses or tears the rest), and the directory
/// entries follow this one:
///
/// - a create, a rename and a remove change the live namespace at once
///   and are appended to the *pending* operations of the directory that
///   holds the (new) name;
/// - [`Files::sync_dir`] makes that directory's pending operations
///   durable. It is a sync of the world (a hidden file per directory is
///   synced), so it is numbered with the file syncs and
///   [`CrashWorld::crash_at_sync`] can crash at it;
/// - [`CrashFiles::recover`] is a restart: the world's files recovered
///   with the same seed, and for each directory the durable entries plus
///   a seeded *prefix* of its pending operations, in order (a journaling
///   file system commits metadata in order; which point it reached is
///   unknown);
/// - directories themselves are durable when created (the Reservoir
///   creates its tree once, at open);
/// - a rename is recorded in the target's directory (the Reservoir only
///   renames within one directory).
///
/// After a crash every call fails, like the world's files. Cheap to
/// clone: clones share the world and the namespace.
#[derive(Clone, Debug)]
pub struct CrashFiles {
    world: CrashWorld,
    ns: Arc<Mutex<Namespace>>,
}

#[derive(Clone, Debug, Default)]
struct Namespace {
    next_file: u64,
    dirs: BTreeSet<PathBuf>,
    /// Path → the world file's name, as the running process sees it.
    live: BTreeMap<PathBuf, String>,
    /// The same, as a restart would find it without any pending operation.
    durable: BTreeMap<PathBuf, String>,
    /// Per directory, the operations since its last sync.
    pending: BTreeMap<PathBuf, Vec<DirOp>>,
}

#[derive(Clone, Debug)]
enum DirOp {
    Link { path: PathBuf, file: String },
    Unlink { path: PathBuf },
    Rename { from: PathBuf, to: PathBuf },
}

impl DirOp {
    fn apply(&self, entries: &mut BTreeMap<PathBuf, String>) {
        match self {
            DirOp::Link { path, file } => {
                entries.insert(path.clone(), file.clone());
            }
            DirOp::Unlink { path } => {
                entries.remove(path);
            }
            DirOp::Rename { from, to } => {
                if let Some(file) = entries.remove(from) {
                    entries.insert(to.clone(), file);
                }
            }
        }
    }
}

impl Namespace {
    fn log(&mut self, path: &Path, op: DirOp) {
        let dir = path.parent().unwrap_or(Path::new("")).to_owned();
        self.pending.entry(dir).or_default().push(op);
    }

    fn check_parent(&self, path: &Path) -> io::Result<()> {
        match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() && !self.dirs.contains(dir) => {
                Err(not_found(dir))
            }
            _ => Ok(()),
        }
    }
}

/// The error of every call after a crash (the world's own text).
fn crashed() -> io::Error {
    io::Error::other("crashed")
}

impl CrashFiles {
    /// An empty namespace on `world` (which may hold other files, such as
    /// a database's, that crash with these).
    pub fn new(world: CrashWorld) -> Self {
        CrashFiles { world, ns: Arc::default() }
    }

    /// The world the files live in.
    pub fn world(&self) -> &CrashWorld {
        &self.world
    }

    /// What a restarted process finds: the world recovered with `seed`
    /// ([`CrashWorld::recover`]) and each directory's durable entries plus
    /// a prefix, chosen by `seed`, of its pending operations.
    pub fn recover(&self, seed: u64) -> CrashFiles {
        let world = self.world.recover(seed);
        let ns = self.ns.lock();
        let mut entries = ns.durable.clone();
        for (i, ops) in ns.pending.values().enumerate() {
            // A deterministic choice per (seed, directory) among 0..=len.
            let h = seed
                .wrapping_add(i as u64)
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .rotate_left(29)
                .wrapping_mul(0xBF58_476D_1CE4_E5B9);
            let keep = (h >> 33) as usize % (ops.len() + 1);
            for op in &ops[..keep] {
                op.apply(&mut entries);
            }
        }
        let ns = Namespace {
            next_file: ns.next_file,
            dirs: ns.dirs.clone(),
            live: entries.clone(),
            durable: entries,
            pending: BTreeMap::new(),
        };
        CrashFiles { world, ns: Arc::new(Mutex::new(ns)) }
    }

    /// Every live path, sorted.
    pub fn paths(&self) -> Vec<PathBuf> {
        self.ns.lock().live.keys().cloned().collect()
    }

    /// A copy of a live file's bytes.
    pub fn bytes(&self, path: &Path) -> Option<Vec<u8>> {
        let file = self.ns.lock().live.get(path).cloned()?;
        self.world.bytes(&file)
    }

    fn alive(&self) -> io::Result<()> {
        if self.world.is_crashed() { Err(crashed()) } else { Ok(()) }
    }
}

impl Files for CrashFiles {
    fn create_dir_all(&self, dir: &Path) -> io::Result<()> {
        self.alive()?;
        let mut ns = self.ns.lock();
        for d in dir.ancestors().filter(|d| !d.as_os_str().is_empty()) {
            ns.dirs.insert(d.to_owned());
        }
        Ok(())
    }

    fn open(&self, path: &Path, how: Open) -> io::Result<Arc<dyn Io>> {
        self.alive()?;
        let mut ns = self.ns.lock();
        let file = match (ns.live.get(path).cloned(), how) {
            (Some(_), Open::CreateNew) => {
                return Err(io::Error::new(
                    io::ErrorKind::AlreadyExists,
                    format!("{} exists", path.display()),
                ));
            }
            (Some(name), Open::Truncate) => {
                let f = self.world.file(&name);
                f.set_len(0)?;
                return Ok(f);
            }
            (Some(name), _) => name,
            (None, Open::Read | Open::Existing) => return Err(not_found(path)),
            (None, _) => {
                ns.check_parent(path)?;
                ns.next_file += 1;
                let name = format!("reservoir-file-{}", ns.next_file);
                ns.live.insert(path.to_owned(), name.clone());
                ns.log(path, DirOp::Link { path: path.to_owned(), file: name.clone() });
                name
            }
        };
        Ok(self.world.file(&file))
    }

    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        self.alive()?;
        let mut ns = self.ns.lock();
        ns.check_parent(to)?;
        let file = ns.live.remove(from).ok_or_else(|| not_found(from))?;
        ns.live.insert(to.to_owned(), file);
        ns.log(to, DirOp::Rename { from: from.to_owned(), to: to.to_owned() });
        Ok(())
    }

    fn remove(&self, path: &Path) -> io::Result<()> {
        self.alive()?;
        let mut ns = self.ns.lock();
        ns.live.remove(path).ok_or_else(|| not_found(path))?;
        ns.log(path, DirOp::Unlink { path: path.to_owned() });
        Ok(())
    }

    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        self.alive()?;
        if !self.ns.lock().dirs.contains(dir) {
            return Err(not_found(dir));
        }
        // Numbered and crashable like any sync of the world.
        self.world.file(&format!("dir-sync:{}", dir.display())).sync()?;
        let mut ns = self.ns.lock();
        let ops = ns.pending.remove(dir).unwrap_or_default();
        for op in &ops {
            op.apply(&mut ns.durable);
        }
        Ok(())
    }

    fn list(&self, dir: &Path) -> io::Result<Vec<String>> {
        self.alive()?;
        let ns = self.ns.lock();
        if !ns.dirs.contains(dir) {
            return Err(not_found(dir));
        }
        Ok(names_in(dir, ns.live.keys()))
    }

    fn exists(&self, path: &Path) -> bool {
        self.ns.lock().live.contains_key(path)
    }
}

/// Wraps another [`Files`] and fails the mutating calls its
/// [`FaultPlan`] names. The plan numbers, in one sequence: every open that
/// may create a file, every rename and directory fsync here, and every
/// `write_at`, `set_len` and `sync` of the handles it opened (they are
/// [`FaultyIo`]s on the same plan). Removes are not counted: the
/// Reservoir treats a failed remove as a file left for the next open's
/// sweep. A failing call has no effect, except a torn `write_at`
/// ([`FaultPlan::torn`]), which leaves half its buffer.
#[derive(Debug)]
pub struct FaultyFiles {
    inner: Arc<dyn Files>,
    plan: Arc<FaultPlan>,
}

impl FaultyFiles {
    /// Wraps `inner`, failing calls as `plan` says.
    pub fn new(inner: Arc<dyn Files>, plan: Arc<FaultPlan>) -> Self {
        FaultyFiles { inner, plan }
    }

    /// The shared plan.
    pub fn plan(&self) -> &Arc<FaultPlan> {
        &self.plan
    }

    fn check(&self) -> io::Result<()> {
        match self.plan.next_call() {
            Some(fault) => Err(fault.to_io_error()),
            None => Ok(()),
        }
    }
}

impl Files for FaultyFiles {
    fn create_dir_all(&self, dir: &Path) -> io::Result<()> {
        self.inner.create_dir_all(dir)
    }

    fn open(&self, path: &Path, how: Open) -> io::Result<Arc<dyn Io>> {
        if how.creates() {
            self.check()?;
        }
        let file = self.inner.open(path, how)?;
        Ok(Arc::new(FaultyIo::new(file, self.plan.clone())))
    }

    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        self.check()?;
        self.inner.rename(from, to)
    }

    fn remove(&self, path: &Path) -> io::Result<()> {
        self.inner.remove(path)
    }

    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        self.check()?;
        self.inner.sync_dir(dir)
    }

    fn list(&self, dir: &Path) -> io::Result<Vec<String>> {
        self.inner.list(dir)
    }

    fn exists(&self, path: &Path) -> bool {
        self.inner.exists(path)
    }
}

/// A sequential stream over an [`Io`]: reads and writes at a position that
/// they advance, as a `File` does.
#[derive(Debug)]
pub struct IoCursor {
    io: Arc<dyn Io>,
    pos: u64,
}

impl IoCursor {
    /// A cursor at offset 0.
    pub fn new(io: Arc<dyn Io>) -> Self {
        IoCursor { io, pos: 0 }
    }

    /// The file under the cursor.
    pub fn io(&self) -> &Arc<dyn Io> {
        &self.io
    }
}

impl Read for IoCursor {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.io.len()?.saturating_sub(self.pos);
        let n = (buf.len() as u64).min(left) as usize;
        if n > 0 {
            self.io.read_at(&mut buf[..n], self.pos)?;
            self.pos += n as u64;
        }
        Ok(n)
    }
}

impl Write for IoCursor {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.io.write_at(buf, self.pos)?;
        self.pos += buf.len() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Seek for IoCursor {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let base = match to {
            SeekFrom::Start(n) => {
                self.pos = n;
                return Ok(n);
            }
            SeekFrom::End(d) => (self.io.len()?, d),
            SeekFrom::Current(d) => (self.pos, d),
        };
        let pos = base.0.checked_add_signed(base.1).ok_or_else(|| {
            io::Error::new(io::ErrorKind::InvalidInput, "seek before the start of the file")
        })?;
        self.pos = pos;
        Ok(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use asadb_pager::Fault;

    #[test]
    fn mem_files_rename_remove_and_list_like_a_directory() {
        let fs = MemFiles::new();
        let dir = Path::new("/r/results");
        assert!(fs.open(&dir.join("a"), Open::Create).is_err(), "no directory yet");
        fs.create_dir_all(dir).unwrap();
        let a = fs.open(&dir.join("a.tmp"), Open::CreateNew).unwrap();
        a.write_at(b"abc", 0).unwrap();
        assert!(fs.open(&dir.join("a.tmp"), Open::CreateNew).is_err());
        fs.rename(&dir.join("a.tmp"), &dir.join("a")).unwrap();
        assert_eq!(fs.list(dir).unwrap(), vec!["a".to_string()]);
        let mut r = IoCursor::new(fs.open(&dir.join("a"), Open::Read).unwrap());
        let mut s = String::new();
        r.read_to_string(&mut s).unwrap();
        assert_eq!(s, "abc");
        fs.remove(&dir.join("a")).unwrap();
        assert!(!fs.exists(&dir.join("a")));
        assert!(fs.list(Path::new("/r")).unwrap().is_empty());
    }

    #[test]
    fn faulty_files_number_creates_renames_dir_syncs_and_file_writes_in_one_sequence() {
        let mem: Arc<dyn Files> = Arc::new(MemFiles::new());
        mem.create_dir_all(Path::new("/d")).unwrap();
        let run = |plan: FaultPlan| {
            let fs = FaultyFiles::new(mem.clone(), Arc::new(plan));
            let steps = (|| -> io::Result<()> {
                let f = fs.open(Path::new("/d/x.tmp"), Open::Truncate)?; // 0
                f.write_at(b"hello", 0)?; // 1
                f.sync()?; // 2
                fs.rename(Path::new("/d/x.tmp"), Path::new("/d/x"))?; // 3
                fs.sync_dir(Path::new("/d")) // 4
            })();
            (steps, fs.plan().calls())
        };
        let (ok, calls) = run(FaultPlan::never());
        ok.unwrap();
        assert_eq!(calls, 5);
        for k in 0..calls {
            let (err, _) = run(FaultPlan::fail_at(k, Fault::Enospc));
            assert_eq!(err.unwrap_err().kind(), io::ErrorKind::StorageFull, "call {k}");
        }
    }

    #[test]
    fn crash_files_keep_directory_entries_only_once_their_directory_is_synced() {
        let dir = Path::new("/r");
        let fs = CrashFiles::new(CrashWorld::new());
        fs.create_dir_all(dir).unwrap();
        let synced = fs.open(&dir.join("synced"), Open::CreateNew).unwrap();
        synced.write_at(b"kept", 0).unwrap();
        synced.sync().unwrap();
        fs.sync_dir(dir).unwrap();
        let loose = fs.open(&dir.join("loose"), Open::CreateNew).unwrap();
        loose.write_at(b"body", 0).unwrap();
        loose.sync().unwrap();
        fs.rename(&dir.join("synced"), &dir.join("renamed")).unwrap();
        assert_eq!(fs.list(dir).unwrap(), vec!["loose".to_string(), "renamed".to_string()]);
        let (mut lost, mut kept, mut renamed) = (0, 0, 0);
        for seed in 0..64 {
            let after = fs.recover(seed);
            // Operations survive in order: a rename after the create
            // means the create survived too.
            let has = |n: &str| after.exists(&dir.join(n));
            assert!(has("synced") != has("renamed"), "seed {seed}: {:?}", after.paths());
            assert!(!has("renamed") || has("loose"), "seed {seed}: {:?}", after.paths());
            let moved = if has("renamed") { "renamed" } else { "synced" };
            assert_eq!(after.bytes(&dir.join(moved)).unwrap(), b"kept");
            if has("loose") {
                assert_eq!(after.bytes(&dir.join("loose")).unwrap(), b"body");
                kept += 1;
            } else {
                lost += 1;
            }
            renamed += usize::from(has("renamed"));
        }
        assert!(lost > 0 && kept > 0 && renamed > 0, "{lost} {kept} {renamed}");
        // Once the directory is synced nothing of it is left to chance.
        fs.sync_dir(dir).unwrap();
        for seed in 0..16 {
            assert_eq!(fs.recover(seed).list(dir).unwrap(), vec!["loose", "renamed"]);
        }
        // A crash stops every call.
        fs.world().crash_now();
        assert!(fs.open(&dir.join("x"), Open::Create).is_err());
        assert!(fs.sync_dir(dir).is_err());
        assert!(fs.list(dir).is_err());
    }

    #[test]
    fn a_cursor_reads_writes_and_seeks_like_a_file() {
        let mut c = IoCursor::new(Arc::new(MemIo::new()));
        c.write_all(b"0123456789").unwrap();
        assert_eq!(c.seek(SeekFrom::End(-3)).unwrap(), 7);
        let mut tail = Vec::new();
        c.read_to_end(&mut tail).unwrap();
        assert_eq!(tail, b"789");
        c.seek(SeekFrom::Start(2)).unwrap();
        c.seek(SeekFrom::Current(1)).unwrap();
        let mut b = [0u8; 2];
        c.read_exact(&mut b).unwrap();
        assert_eq!(&b, b"34");
        assert!(c.seek(SeekFrom::Current(-10)).is_err());
    }
}
