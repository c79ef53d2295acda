//! The connection's change counters, as SQLite keeps them per connection
//! (c3ref/last_insert_rowid, c3ref/changes, c3ref/total_changes) and SQL
//! reads them (`last_insert_rowid()`, `changes()`, `total_changes()`):
//!
//! - `last_insert_rowid`: the rowid of the last row an INSERT (or
//!   REPLACE) wrote into a rowid table; a row that fails its constraints
//!   changes nothing, a WITHOUT ROWID table changes nothing, and rows a
//!   trigger program inserts count only while it runs (the value goes back
//!   when it ends).
//! - `changes`: the rows the last completed INSERT, UPDATE or DELETE
//!   itself inserted, updated or deleted — not its triggers' rows, not
//!   its foreign key actions', not those REPLACE removed; 0 after one that
//!   failed or wrote a view. Inside a trigger program, the count of the
//!   program's last statement until the program ends.
//! - `total_changes`: every such count since the session began, trigger
//!   programs' statements included.
//!
//! A session owns its counters; while one of its statements runs they sit
//! in a thread-local ([`with_counters`]) where DML and the SQL functions
//! reach them.

use std::cell::Cell;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    pub last_insert_rowid: i64,
    pub changes: u64,
    pub total_changes: u64,
}

thread_local! {
    static CURRENT: Cell<Option<Counters>> = const { Cell::new(None) };
}

/// Makes `c` the counters of the statements run on this thread until the
/// guard drops; [`CountersGuard::get`] reads them back.
pub fn with_counters(c: Counters) -> CountersGuard {
    CountersGuard(CURRENT.with(|cur| cur.replace(Some(c))))
}

pub struct CountersGuard(Option<Counters>);

impl CountersGuard {
    /// The counters as the statements left them.
    pub fn get(&self) -> Counters {
        current()
    }
}

impl Drop for CountersGuard {
    fn drop(&mut self) {
        let old = self.0.take();
        CURRENT.with(|cur| cur.set(old));
    }
}

/// The counters now (all zero outside a session's statement).
pub fn current() -> Counters {
    CURRENT.with(|c| c.get()).unwrap_or_default()
}

fn update(f: impl FnOnce(&mut Counters)) {
    CURRENT.with(|c| {
        if let Some(mut v) = c.get() {
            f(&mut v);
            c.set(Some(v));
        }
    })
}

/// A row went into a rowid table at `rowid`.
pub fn inserted(rowid: i64) {
    update(|c| c.last_insert_rowid = rowid);
}

/// A DML statement (top-level or a trigger program's) ended having
/// changed `n` rows (0 when it failed).
pub fn statement_done(n: u64) {
    update(|c| {
        c.changes = n;
        c.total_changes = c.total_changes.saturating_add(n);
    });
}

/// The statement just counted failed after all (a foreign key check at
/// its end): it counts as no change, and `last_insert_rowid` is what it
/// was before it.
pub fn statement_undone(last_insert_rowid: i64) {
    update(|c| {
        c.last_insert_rowid = last_insert_rowid;
        c.total_changes = c.total_changes.saturating_sub(c.changes);
        c.changes = 0;
    });
}

/// What a trigger program puts back when it ends.
pub struct Saved {
    last_insert_rowid: i64,
    changes: u64,
}

/// Before a trigger program runs.
pub fn save() -> Saved {
    let c = current();
    Saved { last_insert_rowid: c.last_insert_rowid, changes: c.changes }
}

/// After a trigger program ran (or failed).
pub fn restore(s: Saved) {
    update(|c| {
        c.last_insert_rowid = s.last_insert_rowid;
        c.changes = s.changes;
    });
}
