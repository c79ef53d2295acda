//! The Reservoir on PostgreSQL: the same contract as the embedded engine
//! ([`asadb_reservoir::contract`]), with the queue, the spool, the
//! capacity counters, the results and the target data in one PostgreSQL
//! database, so any number of `asadb serve` processes on any number of
//! hosts accept work and execute it, and a dead host loses nothing.
//!
//! The life of a job across processes (each step names its code):
//! 1. **Admission** ([`upload`]): one transaction locks the two capacity
//!    rows `FOR UPDATE`, checks the global caps (and this front-end's own:
//!    the effective limit is the minimum), inserts the job `receiving`
//!    with its charge — the declared size in full, else a baseline
//!    (2 MiB) — and this process as its lease holder.
//! 2. **Receiving**: 256 KiB chunks become `spool` rows as they arrive;
//!    growth past the charge happens chunk by chunk under the capacity
//!    lock, or fails the upload leaving no chunks. SHA-256 while receiving;
//!    idempotency and `queued` in one transaction that also sends
//!    `pg_notify` (delivered at commit).
//! 3. **Wake** ([`listener`]): one dedicated LISTEN connection per process
//!    turns notifications into events; a re-poll (2 s) is the safety net,
//!    poll-only mode exists for engines without LISTEN.
//! 4. **Claim and execute** ([`worker`]): the process whose executor
//!    connection holds the schema's advisory lock claims the oldest queued
//!    job with `FOR UPDATE SKIP LOCKED` and runs it in batches, each
//!    committing its rows and the job's progress marker together.
//! 5. **Failure** ([`lease`]): a process's lease row stops being renewed
//!    when it dies; once expired, any other process marks its jobs
//!    `interrupted` (never replayed); `resume` on any host continues after
//!    the last durable batch, exactly once.
//! 6. **Results and retention** ([`results`], [`lease::sweep`]): result
//!    pages as rows, served by any front-end; one host at a time sweeps
//!    expired jobs.
//!
//! The tables, the capacity rules, the failure modes and the PostgreSQL
//! features this needs are in `docs/scale-out.md`.

pub mod admin;
mod classify;
mod config;
mod engine;
mod error;
mod jobs;
pub mod lease;
pub mod listener;
mod query;
pub mod results;
mod schema;
mod tls;
pub mod upload;
mod values;
pub mod worker;

pub use config::{
    DEFAULT_SCHEMA, GROUP_STATEMENTS, GROUP_STATEMENTS_ENV, PASSWORD_ENV, PgConfig, check_schema,
    redact,
};
pub use engine::{Event, PgReservoir};
pub use jobs::{Capacity, MAX_PAYLOAD, check_payload};
pub use query::{Page, STATEMENT_TIMEOUT_MS};
pub use schema::SCHEMA_VERSION;
pub use values::{Cell, decode};
