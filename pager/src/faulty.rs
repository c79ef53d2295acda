//! A fault-injecting IO double: fails the Nth mutating call with EIO or
//! ENOSPC.
//!
//! # Model
//! A [`FaultPlan`] is shared (`Arc`) by every [`FaultyIo`] of one workload,
//! typically the main file and its log. It numbers the *mutating* calls
//! (`write_at`, `set_len`, `sync`) of all those handles in one sequence,
//! starting at 0, so "the Nth mutating call of the workload" is well defined
//! even though it spans two files. Reads and `len` pass through uncounted.
//!
//! A test runs the workload once under [`FaultPlan::never`] to learn
//! [`FaultPlan::calls`], then reruns it for every `n` in `0..calls` under
//! [`FaultPlan::fail_at`]`(n, ..)`.
//!
//! # What a failing call does
//! - The call fails with `EIO` (`from_raw_os_error(5)`) or `ENOSPC`
//!   (`from_raw_os_error(28)`, kind `StorageFull`) and, by default, has no
//!   effect on the file.
//! - With [`FaultPlan::torn`], a failing `write_at` first writes the first
//!   half of its buffer (rounded down; nothing for a 1-byte write), the way a
//!   disk that runs out of space mid-write leaves a prefix behind. A failing
//!   `set_len` or `sync` never has an effect.
//! - With [`FaultPlan::sticky`], every mutating call after the first failure
//!   fails too (a dead disk); otherwise only call `n` fails (a transient
//!   error), which is the harder case for a latch to get right.
//!   [`FaultPlan::heal`] ends a sticky failure (space freed, disk back).

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::Io;

/// The error a planned fault injects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// `EIO`: an input/output error (kind `Other`/uncategorized).
    Eio,
    /// `ENOSPC`: no space left on the device (kind `StorageFull`).
    Enospc,
}

impl Fault {
    /// The raw OS error number.
    pub fn errno(self) -> i32 {
        match self {
            Fault::Eio => 5,
            Fault::Enospc => 28,
        }
    }

    /// A fresh `io::Error` for this fault.
    pub fn to_io_error(self) -> io::Error {
        io::Error::from_raw_os_error(self.errno())
    }
}

/// When to fail: a counter of mutating calls shared by every [`FaultyIo`]
/// built with it.
#[derive(Debug)]
pub struct FaultPlan {
    calls: AtomicU64,
    failures: AtomicU64,
    fail_at: Option<(u64, Fault)>,
    sticky: bool,
    torn: bool,
    healed: std::sync::atomic::AtomicBool,
}

impl FaultPlan {
    /// A plan that never fails and only counts.
    pub fn never() -> Self {
        FaultPlan {
            calls: AtomicU64::new(0),
            failures: AtomicU64::new(0),
            fail_at: None,
            sticky: false,
            torn: false,
            healed: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// A plan that fails mutating call number `n` (0-based) with `fault`.
    pub fn fail_at(n: u64, fault: Fault) -> Self {
        FaultPlan { fail_at: Some((n, fault)), ..Self::never() }
    }

    /// After the first failure, fail every later mutating call too.
    pub fn sticky(mut self) -> Self {
        self.sticky = true;
        self
    }

    /// A failing `write_at` writes the first half of its buffer first.
    pub fn torn(mut self) -> Self {
        self.torn = true;
        self
    }

    /// From now on no call fails (a sticky failure ends: space was freed).
    pub fn heal(&self) {
        self.healed.store(true, Ordering::SeqCst);
    }

    /// Number of mutating calls seen so far (failed ones included).
    pub fn calls(&self) -> u64 {
        self.calls.load(Ordering::SeqCst)
    }

    /// Number of mutating calls that were failed.
    pub fn failures(&self) -> u64 {
        self.failures.load(Ordering::SeqCst)
    }

    /// Numbers the next mutating call and decides whether it fails. Public
    /// so that doubles of other seams (the Reservoir's `FaultyFiles`) count
    /// their own mutating calls — create, rename, directory fsync — in the
    /// same sequence.
    pub fn next_call(&self) -> Option<Fault> {
        let index = self.calls.fetch_add(1, Ordering::SeqCst);
        let (n, fault) = self.fail_at?;
        if self.healed.load(Ordering::SeqCst) {
            return None;
        }
        let fails = index == n || (self.sticky && index > n);
        if fails {
            self.failures.fetch_add(1, Ordering::SeqCst);
        }
        fails.then_some(fault)
    }
}

/// An [`Io`] that passes every call to an inner handle, except the mutating
/// calls its [`FaultPlan`] says must fail.
#[derive(Debug)]
pub struct FaultyIo {
    inner: Arc<dyn Io>,
    plan: Arc<FaultPlan>,
}

impl FaultyIo {
    /// Wraps `inner`, failing calls according to the shared `plan`.
    pub fn new(inner: Arc<dyn Io>, plan: Arc<FaultPlan>) -> Self {
        FaultyIo { inner, plan }
    }

    /// The shared plan.
    pub fn plan(&self) -> &Arc<FaultPlan> {
        &self.plan
    }

    /// The wrapped handle.
    pub fn inner(&self) -> &Arc<dyn Io> {
        &self.inner
    }
}

impl Io for FaultyIo {
    fn len(&self) -> io::Result<u64> {
        self.inner.len()
    }

    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        self.inner.read_at(buf, offset)
    }

    fn write_at(&self, buf: &[u8], offset: u64) -> io::Result<()> {
        match self.plan.next_call() {
            None => self.inner.write_at(buf, offset),
            Some(fault) => {
                let prefix = buf.len() / 2;
                if self.plan.torn && prefix > 0 {
                    // Best effort: the injected error is what the caller sees.
                    let _ = self.inner.write_at(&buf[..prefix], offset);
                }
                Err(fault.to_io_error())
            }
        }
    }

    fn set_len(&self, len: u64) -> io::Result<()> {
        match self.plan.next_call() {
            None => self.inner.set_len(len),
            Some(fault) => Err(fault.to_io_error()),
        }
    }

    fn sync(&self) -> io::Result<()> {
        match self.plan.next_call() {
            None => self.inner.sync(),
            Some(fault) => Err(fault.to_io_error()),
        }
    }
}

/// An [`Io`] that fails every mutating call with `ENOSPC` while `full()`
/// says so, and passes everything through otherwise: a disk that fills up
/// and gets space back, for tests of a whole process (the server's test
/// hook makes `full` "a marker file exists"). Reads, `len` and a `set_len`
/// that shrinks the file always pass.
pub struct FullWhile {
    inner: Arc<dyn Io>,
    full: Arc<dyn Fn() -> bool + Send + Sync>,
}

impl FullWhile {
    /// Wraps `inner`; `full` is asked at every mutating call.
    pub fn new(inner: Arc<dyn Io>, full: Arc<dyn Fn() -> bool + Send + Sync>) -> Self {
        FullWhile { inner, full }
    }

    fn check(&self) -> io::Result<()> {
        if (self.full)() { Err(Fault::Enospc.to_io_error()) } else { Ok(()) }
    }
}

impl std::fmt::Debug for FullWhile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FullWhile").field("inner", &self.inner).finish_non_exhaustive()
    }
}

impl Io for FullWhile {
    fn len(&self) -> io::Result<u64> {
        self.inner.len()
    }

    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        self.inner.read_at(buf, offset)
    }

    fn write_at(&self, buf: &[u8], offset: u64) -> io::Result<()> {
        self.check()?;
        self.inner.write_at(buf, offset)
    }

    fn set_len(&self, len: u64) -> io::Result<()> {
        // Shrinking a file needs no space, on a full disk as anywhere.
        if len >= self.inner.len()? {
            self.check()?;
        }
        self.inner.set_len(len)
    }

    fn sync(&self) -> io::Result<()> {
        self.check()?;
        self.inner.sync()
    }
}
