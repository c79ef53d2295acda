//! The synchronisation primitives the pool is built from, behind one name so
//! that `--cfg loom` swaps in loom's model-checked versions.
//!
//! Normal builds use `parking_lot` (no poisoning, `downgrade` for free) and
//! std atomics. Under loom the wrappers below give loom's `Mutex`/`RwLock`
//! the same method names; poisoning is ignored because a panicking loader is
//! cleaned up by the pool itself, not by the lock.

#[cfg(not(loom))]
mod imp {
    pub(crate) use parking_lot::{Mutex, RwLock, RwLockReadGuard, RwLockWriteGuard};
    pub(crate) use std::sync::atomic::{AtomicUsize, Ordering};

    /// Shared access that does not queue behind a waiting writer, so a thread
    /// may hold two read guards on one frame (parking_lot's fair `read` would
    /// deadlock there when a writer is waiting).
    pub(crate) fn read<T>(lock: &RwLock<T>) -> RwLockReadGuard<'_, T> {
        lock.read_recursive()
    }

    /// Turns a write guard into a read guard without letting a writer in.
    pub(crate) fn downgrade<'a, T>(
        _lock: &'a RwLock<T>,
        guard: RwLockWriteGuard<'a, T>,
    ) -> RwLockReadGuard<'a, T> {
        RwLockWriteGuard::downgrade(guard)
    }
}

#[cfg(loom)]
mod imp {
    use loom::sync::MutexGuard;
    pub(crate) use loom::sync::atomic::{AtomicUsize, Ordering};
    pub(crate) use loom::sync::{RwLockReadGuard, RwLockWriteGuard};
    use std::sync::{PoisonError, TryLockError};

    #[derive(Debug)]
    pub(crate) struct Mutex<T>(loom::sync::Mutex<T>);

    impl<T> Mutex<T> {
        pub(crate) fn new(value: T) -> Self {
            Self(loom::sync::Mutex::new(value))
        }
        pub(crate) fn lock(&self) -> MutexGuard<'_, T> {
            self.0.lock().unwrap_or_else(PoisonError::into_inner)
        }
    }

    #[derive(Debug)]
    pub(crate) struct RwLock<T>(loom::sync::RwLock<T>);

    impl<T> RwLock<T> {
        pub(crate) fn new(value: T) -> Self {
            Self(loom::sync::RwLock::new(value))
        }
        pub(crate) fn read(&self) -> RwLockReadGuard<'_, T> {
            self.0.read().unwrap_or_else(PoisonError::into_inner)
        }
        pub(crate) fn write(&self) -> RwLockWriteGuard<'_, T> {
            self.0.write().unwrap_or_else(PoisonError::into_inner)
        }
        pub(crate) fn try_write(&self) -> Option<RwLockWriteGuard<'_, T>> {
            match self.0.try_write() {
                Ok(guard) => Some(guard),
                Err(TryLockError::Poisoned(p)) => Some(p.into_inner()),
                Err(TryLockError::WouldBlock) => None,
            }
        }
    }

    /// loom's readers only wait for a writer that holds the lock.
    pub(crate) fn read<T>(lock: &RwLock<T>) -> RwLockReadGuard<'_, T> {
        lock.read()
    }

    /// loom has no atomic downgrade: release and re-acquire. A writer may slip
    /// in between, which the pool tolerates (the frame stays pinned and valid).
    pub(crate) fn downgrade<'a, T>(
        lock: &'a RwLock<T>,
        guard: RwLockWriteGuard<'a, T>,
    ) -> RwLockReadGuard<'a, T> {
        drop(guard);
        lock.read()
    }
}

pub(crate) use imp::*;
