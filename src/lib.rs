//! AsaDB: an embedded SQL database with a durable job queue in front of it.
//!
//! This facade is what Rust programs and the `asadb` server depend on. It
//! re-exports the layers below it; the embedded `Database` API (open,
//! execute, query, transactions, scripts) lands with the SQL engine.

/// The Reservoir: the bounded, durable job queue (see its crate docs).
pub use asadb_reservoir as reservoir;
