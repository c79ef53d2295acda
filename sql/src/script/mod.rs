//! Script execution front end: turning a byte stream into statements, and
//! `INSERT … VALUES` statements into rows without the full parser.
//!
//! The life of a script:
//! 1. A [`Splitter`] reads the stream chunk by chunk and yields
//!    [`Statement`]s (text plus byte offsets, and the data block of a
//!    `COPY … FROM stdin`). It never holds more than the current statement
//!    and one chunk.
//! 2. Each statement is first offered to [`parse_insert_fast`], which
//!    recognises `INSERT … VALUES` lists of plain literals in one pass over
//!    the bytes and returns the rows as [`Value`](crate::Value)s.
//! 3. When the fast path declines (`None`), the caller parses the
//!    statement with `sqlparser`; [`parse_insert_slow`] is that route for
//!    INSERTs and the oracle the fast path is tested against: whenever the
//!    fast path accepts, both give exactly the same [`InsertValues`].
//!
//! ```
//! use asadb_sql::script::{Splitter, parse_insert_fast};
//!
//! let script = "CREATE TABLE t (a, b);\n-- rows\nINSERT INTO t VALUES (1, 'x;y'), (2, NULL);";
//! let stmts: Vec<_> = Splitter::new(script.as_bytes()).collect::<Result<_, _>>().unwrap();
//! assert_eq!(stmts[1].text, "INSERT INTO t VALUES (1, 'x;y'), (2, NULL)");
//! let insert = parse_insert_fast(&stmts[1].text, false).unwrap();
//! assert_eq!((insert.table.as_str(), insert.rows.len()), ("t", 2));
//! assert!(parse_insert_fast(&stmts[0].text, false).is_none()); // not an INSERT
//! ```

mod fastpath;
mod insert;
pub(crate) mod slowpath;
mod splitter;

pub use fastpath::parse_insert_fast;
pub use insert::{Conflict, InsertValues};
pub use slowpath::{parse_insert_slow, parse_insert_slow_with};
pub use splitter::{
    DEFAULT_CHUNK_SIZE, DEFAULT_MAX_STATEMENT_SIZE, Splitter, SplitterOptions, Statement,
};

#[cfg(test)]
mod splitter_tests;
