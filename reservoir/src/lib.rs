//! The Reservoir: a bounded, durable job queue in front of the engine.
//!
//! A client deposits one bounded stream (a SQL script or an import); the
//! Reservoir spools it to disk, fingerprints it, and one worker feeds
//! admitted jobs, one at a time, into the engine through `asadb-sql`'s
//! session API. It is not a second database and not a distributed queue.
//!
//! On disk, under `<data>/.asa.reservoir/`:
//! - `spool/<id>.body` — request bodies, written in 256 KiB chunks;
//! - `results/<id>.result` — per-statement summaries and result rows,
//!   written to a temporary file and renamed into place;
//! - `events.log` — append-only job snapshots, length-prefixed and
//!   CRC-checked; the latest complete record of a job wins (see
//!   [`eventlog`]).
//!
//! Every file operation on these goes through one seam, [`files::Files`]
//! (real files by default; in memory and a fault double for tests, so the
//! event log's write latch and the spool and result paths are tested at
//! every write, fsync, create and rename — `tests/faults.rs`).
//!
//! Rules (each one has a test):
//! - admission (job count ≤ `max_jobs`, reserved bytes ≤
//!   `max_spool_bytes`) and the first durable snapshot happen atomically
//!   under the Reservoir lock;
//! - every received chunk grows the job's reservation under the lock, so
//!   the ceiling holds when a declared size lies or is absent;
//! - idempotency key + SHA-256 fingerprint + import metadata matching a
//!   non-failed job returns that job; the same key with another body or
//!   metadata is a `Conflict`;
//! - after a restart, queued stays queued, processing with a complete
//!   result becomes completed (failed, if its failure was logged before
//!   the result was put in place), receiving/processing/cancelling without one
//!   become interrupted, and unreferenced files are removed; capacity
//!   counters are rebuilt from the persisted reservations;
//! - interrupted jobs are never replayed automatically: only
//!   [`Reservoir::resume`] continues them;
//! - terminal jobs and their files are removed after the retention window;
//! - every change of a job's snapshot bumps [`Reservoir::version`] and is
//!   told to [`Reservoir::on_change`] listeners (module `changes`); the
//!   live fields (`received_bytes` while receiving, `progress` and
//!   `updated_at` while processing) change in memory between persisted
//!   snapshots.
//!
//! These rules are one engine's form of the Reservoir's contract
//! ([`contract`]: the `ReservoirEngine` trait, engine-neutral). The
//! `reservoir-pg` crate is the other engine, on PostgreSQL; one
//! behavioural suite (`tests/contract/`) runs against both.

mod changes;
pub mod contract;
mod core;
mod error;
pub mod eventlog;
pub mod files;
#[doc(hidden)]
pub mod fuzz;
mod import;
mod job;
pub mod results;
mod upload;
mod worker;

pub use crate::changes::Change;
pub use crate::core::{Advice, Config, Pressure, Reservoir, Stats, Submission, now_ms};
pub use crate::files::{CrashFiles, FaultyFiles, Files, MemFiles, Open, OsFiles};
pub use contract::{BodyUpload, Embedded, ReservoirEngine};
pub use error::{Error, Result};
pub use job::{
    ImportFormat, ImportMeta, ImportMode, Job, JobError, JobId, JobState, Progress, SubmitOptions,
};
pub use upload::{Upload, hex};
pub use worker::{PROGRESS_TABLE, check_value_sizes, row_json};
