//! The SQL engine of AsaDB: SQLite's dialect and semantics over AsaDB's
//! own pages and transactions.
//!
//! # The life of a statement
//!
//! Follow `SELECT name FROM t WHERE id > ? ORDER BY name` from the text a
//! caller hands to [`session::Session::execute`] to the rows it gets back.
//!
//! 1. **Split and parse** ([`script`], [`parse`]). A script arrives as a
//!    byte stream; the [`script::Splitter`] cuts it into statements
//!    without holding more than one statement and one chunk. Plain
//!    `INSERT … VALUES` lists of literals take a fast path that never
//!    builds an AST. Everything else goes through [`parse::parse_sql`],
//!    the one entry into `sqlparser` with SQLite's grammar
//!    ([`parse::SqliteGrammar`]: SQLite's operator precedence, `ISNULL`,
//!    `NOT GLOB`, …). [`parse::StatementKind`] classifies a statement
//!    (query, DML, DDL, transaction control) from the parser, not from
//!    its text; the session, the facade's read-only check and the
//!    Reservoir worker all ask it.
//! 2. **Bind** ([`planner::bind`]). The AST is checked against the
//!    in-memory [`catalog::Schema`] (rebuilt when the schema cookie
//!    changes): names become row offsets, literals become [`Value`]s
//!    through the one literal parser (`value::literal`, SQLite's AtoF),
//!    functions resolve to a [`func::Func`] variant (so an unknown name or a
//!    wrong arity fails here, before any row is read), and every
//!    comparison gets its affinity and its collation by SQLite's rules
//!    ([`planner::Binder::collation`]). The result is an [`expr::Expr`]
//!    tree per expression.
//! 3. **Plan** ([`planner`]). The bound query becomes a physical plan, a
//!    [`planner::Node`] tree: WHERE is split into conjuncts pushed to the
//!    scans, where they choose an access path (rowid or index equality,
//!    ranges, IN lists); inner joins are ordered along their predicates,
//!    equi-joins hashed; an ORDER BY that an index already gives needs no
//!    sort. Here `id > ?` becomes a rowid range scan and `ORDER BY name` a
//!    sort with the column's collation.
//! 4. **Execute** ([`exec`]). The plan is built into pull-based operators
//!    (scan, join, aggregate, sort, set operations, subqueries, DML);
//!    each `next` yields one row. Blocking operators (sort, hash-join
//!    build side, grouping) spill to temporary files past their memory
//!    budget. Per-statement state — parameters, the rows of enclosing
//!    queries, cached uncorrelated subqueries, the statement's clock for
//!    `'now'` — travels in an [`exec::Context`], so a query's operator
//!    tree can be handed to the caller as [`session::Rows`] and pulled
//!    lazily. Values compare, hash, group and sort by one rule each
//!    ([`value`]: SQLite's storage classes, numeric equality across
//!    INTEGER and REAL, [`value::Collation::fold`] for grouping).
//! 5. **Store** ([`storage`]). Operators read and write rows and index
//!    entries through the [`storage::RowStore`] seam, one transaction's
//!    view: the in-memory [`storage::MemStore`] (tests, `Engine::memory()`)
//!    or the B+tree store ([`btree`] over `asadb-txn` pages), which keeps
//!    rows as [`record`]s and index keys in [`keycode`] order.
//! 6. **Commit** ([`session`]). Outside `BEGIN … COMMIT` a statement is its
//!    own transaction; inside one it runs in a savepoint, so a failing
//!    statement leaves no partial effect and the transaction goes on.
//!
//! Everything the engine answers is meant to be what SQLite answers for
//! the same session; `tests/fuzz/` compares the two on random sessions, and
//! what it finds is kept under `tests/fuzz_cases/`.

pub mod btree;
pub mod catalog;
pub mod counters;
mod error;
pub mod exec;
pub mod expr;
pub mod func;
#[doc(hidden)]
pub mod fuzz;
pub mod integrity;
pub mod keycode;
pub mod parse;
pub mod planner;
pub mod record;
pub mod script;
pub mod session;
pub mod storage;
pub mod vacuum;
pub mod value;

pub use error::{Error, RaiseKind, Result};
pub use value::Value;
