//! Fuzz target bodies, shared by the `cargo fuzz` crate (`fuzz/`, nightly)
//! and the stable tests that replay its corpus (`tests/fuzz_targets.rs`).
//!
//! Each target takes arbitrary bytes and either returns or panics; a panic
//! is a finding. The checks:
//! - [`split`]: the [`Splitter`] fed in reads of arbitrary sizes (with
//!   `WouldBlock` pauses) gives exactly the statements, and the same
//!   error, as splitting the whole text at once.
//! - [`values`]: whenever the `INSERT … VALUES` fast path accepts a
//!   statement, `sqlparser` (the slow path) gives exactly the same rows.
//! - [`sql`]: any statement text run on an in-memory database returns
//!   (errors are fine) — no panic.
//! - [`page`]: a database file made of arbitrary bytes (its pages sealed
//!   with valid checksums, or not) opens or fails, and its integrity
//!   check, scans and a write return — no panic.
//!
//! [`Mutator`] and [`replay_corpus`] are the stable driver: a seeded,
//! bounded mutational loop over a corpus, used by the tests of this crate
//! and of the crates above (the Reservoir's event log, the server's
//! headers). It is deliberately simple — libFuzzer is the real search; the
//! loop keeps the corpus and the targets exercised on every CI run.

use std::io::{self, Read};
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::Value;
use crate::script::{InsertValues, Splitter, SplitterOptions, parse_insert_fast};
use crate::session::{Engine, Params, Session};
use crate::storage::Interrupt;

/// Longest a single statement of the `sql` and `page` targets may run:
/// the fuzzer writes infinite recursive CTEs; they end as `Interrupted`.
const STATEMENT_DEADLINE: Duration = Duration::from_millis(500);
/// Most rows read from one query.
const MAX_ROWS: usize = 2_000;
/// Longest value the `sql` target lets a function build (`zeroblob(1e9)`
/// is a memory test, not a logic one).
const MAX_VALUE: usize = 1 << 20;
/// Most statements run per input.
const MAX_STATEMENTS: usize = 64;

/// A tiny deterministic generator (xorshift64*), so a failing stable run
/// is reproduced by its seed.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

// ---------------------------------------------------------------- split

/// A reader that hands out `data` in reads of sizes drawn from `rng`,
/// sometimes answering `WouldBlock` first (a non-blocking producer).
struct Trickle<'a> {
    data: &'a [u8],
    pos: usize,
    rng: Rng,
    max_read: usize,
    block_next: bool,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pos < self.data.len() && self.rng.below(4) == 0 && !self.block_next {
            self.block_next = true;
            return Err(io::ErrorKind::WouldBlock.into());
        }
        self.block_next = false;
        let n = (1 + self.rng.below(self.max_read)).min(buf.len()).min(self.data.len() - self.pos);
        buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// Statements (and the first error's text) of a splitter run to its end;
/// a `WouldBlock` is retried, as a non-blocking caller would.
fn split_all<R: Read>(mut s: Splitter<R>) -> (Vec<crate::script::Statement>, Option<String>) {
    let mut out = Vec::new();
    let mut blocked = 0;
    loop {
        match s.next() {
            None => return (out, None),
            Some(Ok(stmt)) => {
                blocked = 0;
                out.push(stmt);
            }
            Some(Err(crate::Error::Io(e))) if e.kind() == io::ErrorKind::WouldBlock => {
                blocked += 1;
                assert!(blocked < 1_000, "the splitter keeps answering WouldBlock");
            }
            Some(Err(e)) => return (out, Some(e.to_string())),
        }
    }
}

/// Target `split`. Byte 0 chooses the options (backslash escapes, a small
/// statement size limit) and bytes 1..9 seed the read sizes; the rest is
/// the script.
pub fn split(data: &[u8]) {
    let Some((&flags, rest)) = data.split_first() else { return };
    let (seed, script) = if rest.len() >= 8 {
        let (s, r) = rest.split_at(8);
        (u64::from_le_bytes(s.try_into().expect("8 bytes")), r)
    } else {
        (0, rest)
    };
    let opts = |chunk_size: usize| SplitterOptions {
        backslash_escapes: flags & 1 != 0,
        chunk_size,
        max_statement_size: if flags & 2 != 0 { 16 + (flags as usize >> 2) } else { 1 << 20 },
    };
    let whole = split_all(Splitter::with_options(script, opts(script.len().max(1))));
    let mut rng = Rng::new(seed);
    let chunk_size = 1 + rng.below(64);
    let max_read = 1 + rng.below(97);
    let reader = Trickle { data: script, pos: 0, rng, max_read, block_next: false };
    let chunked = split_all(Splitter::with_options(reader, opts(chunk_size)));
    assert_eq!(
        whole, chunked,
        "chunked split (chunk {chunk_size}, reads ≤ {max_read}) differs from the whole-text split"
    );
    // Offsets stay inside the stream and in order.
    let mut last_end = 0;
    for s in &whole.0 {
        assert!(last_end <= s.start && s.start < s.end && s.end <= script.len() as u64, "{s:?}");
        last_end = s.end;
    }
}

// ---------------------------------------------------------------- values

/// Inputs per stable fuzz loop: `ASADB_FUZZ_ITERATIONS`, else `default`.
pub fn iterations(default: usize) -> usize {
    std::env::var("ASADB_FUZZ_ITERATIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Exact equality of two parsed INSERTs: same names, same rows, same value
/// variants, same f64 bits (`-0.0` is not `0.0`, NaN is itself).
pub fn same_insert(a: &InsertValues, b: &InsertValues) -> bool {
    a.or_action == b.or_action
        && a.schema == b.schema
        && a.table == b.table
        && a.columns == b.columns
        && a.rows.len() == b.rows.len()
        && a.rows
            .iter()
            .zip(&b.rows)
            .all(|(x, y)| x.len() == y.len() && x.iter().zip(y).all(|(x, y)| x.is_identical(y)))
}

/// Target `values`. Byte 0 bit 0: MySQL backslash escapes; the rest is the
/// statement (UTF-8, else nothing to check).
pub fn values(data: &[u8]) {
    let Some((&flags, rest)) = data.split_first() else { return };
    let Ok(sql) = std::str::from_utf8(rest) else { return };
    let bs = flags & 1 != 0;
    let Some(fast) = parse_insert_fast(sql, bs) else { return };
    match crate::script::parse_insert_slow_with(sql, bs) {
        Ok(Some(slow)) => assert!(
            same_insert(&fast, &slow),
            "fast and slow paths disagree on {sql:?}\nfast {fast:?}\nslow {slow:?}"
        ),
        other => panic!("fast path accepted {sql:?} ({fast:?}), slow path gave {other:?}"),
    }
}

// ---------------------------------------------------------------- sql

/// Runs one statement with a deadline, reading at most [`MAX_ROWS`] rows.
/// Errors are the answer, not a finding.
fn run_bounded(session: &mut Session, sql: &str) {
    session.set_interrupt(Some(Interrupt::at(Instant::now() + STATEMENT_DEADLINE)));
    if let Ok(rows) = session.query(sql, &Params::None) {
        for row in rows.take(MAX_ROWS) {
            if row.is_err() {
                break;
            }
        }
    }
    session.set_interrupt(None);
}

/// Runs every statement of `text` (split by the script splitter) on
/// `session`, bounded in count, time and rows.
fn run_script(session: &mut Session, text: &[u8]) {
    let stmts = Splitter::new(text).take(MAX_STATEMENTS);
    for stmt in stmts {
        let Ok(stmt) = stmt else { break };
        run_bounded(session, &stmt.text);
    }
}

/// Target `sql`: the input is a script (non-UTF-8 bytes ends it); each
/// statement runs on a fresh in-memory page database.
pub fn sql(data: &[u8]) {
    crate::func::set_max_length(MAX_VALUE);
    let Ok(db) = asadb_txn::Db::memory(asadb_txn::Options::default()) else { return };
    let engine = Engine::with_db(db);
    let mut session = engine.session();
    run_script(&mut session, data);
    // Whatever ran, the session can still end its transaction and the
    // database can still be checked.
    run_bounded(&mut session, "ROLLBACK");
    let _ = engine.integrity_check();
}

// ---------------------------------------------------------------- page

/// What the `page` target does with its bytes, from byte 0.
struct PageFlags {
    /// Seal every page with its valid checksum, so the decoders behind the
    /// checksum (header, B+tree nodes, records, the catalog, the free list)
    /// see the bytes.
    seal: bool,
    /// Pad a partial last page with zeros.
    pad: bool,
    /// The bytes are the log (`-wal`) of an empty database instead.
    wal: bool,
}

/// Target `page`: a database file made of the input (see [`PageFlags`]),
/// opened over memory; then its integrity check, a scan of every table
/// the catalog names, and a small write. Errors are fine; a panic is not.
pub fn page(data: &[u8]) {
    use asadb_pager::{MemIo, PAGE_SIZE, PageId, page::seal};
    let Some((&f, rest)) = data.split_first() else { return };
    let flags = PageFlags { seal: f & 1 != 0, pad: f & 2 != 0, wal: f & 4 != 0 };
    let mut bytes = rest.to_vec();
    if flags.pad && !bytes.len().is_multiple_of(PAGE_SIZE) {
        bytes.resize(bytes.len().next_multiple_of(PAGE_SIZE), 0);
    }
    if flags.seal && !flags.wal {
        for (i, chunk) in bytes.chunks_exact_mut(PAGE_SIZE).enumerate() {
            let page: &mut [u8; PAGE_SIZE] = chunk.try_into().expect("a page");
            seal(PageId(i as u32), page);
        }
    }
    let (main, wal) = if flags.wal { (Vec::new(), bytes) } else { (bytes, Vec::new()) };
    let opts = asadb_txn::Options { pool_frames: asadb_txn::MIN_POOL_FRAMES, ..Default::default() };
    crate::func::set_max_length(MAX_VALUE);
    let Ok(db) = asadb_txn::Db::open_io(
        Arc::new(MemIo::with_bytes(main)),
        Arc::new(MemIo::with_bytes(wal)),
        opts,
    ) else {
        return;
    };
    let engine = Engine::with_db(db);
    let _ = engine.integrity_check();
    let mut session = engine.session();
    let mut names = Vec::new();
    if let Ok(rows) =
        session.query("SELECT name FROM sqlite_schema WHERE type = 'table'", &Params::None)
    {
        for row in rows.take(32) {
            match row {
                Ok(row) => {
                    if let Some(Value::Text(name)) = row.into_iter().next() {
                        names.push(name);
                    }
                }
                Err(_) => break,
            }
        }
    }
    for name in &names {
        let quoted = name.to_str_lossy().replace('"', "\"\"");
        run_bounded(&mut session, &format!("SELECT * FROM \"{quoted}\""));
        run_bounded(&mut session, &format!("SELECT count(*) FROM \"{quoted}\""));
    }
    run_script(
        &mut session,
        b"CREATE TABLE fuzz_probe (a INTEGER PRIMARY KEY, b);\
          INSERT INTO fuzz_probe (b) VALUES ('x'), (zeroblob(5000));\
          PRAGMA integrity_check;",
    );
    if let Some(name) = names.first() {
        let quoted = name.to_str_lossy().replace('"', "\"\"");
        run_bounded(&mut session, &format!("DELETE FROM \"{quoted}\""));
    }
    let _ = engine.integrity_check();
}

// ---------------------------------------------------------------- driver

/// The files of a corpus directory, sorted by name (an empty list when the
/// directory does not exist).
pub fn corpus(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .filter_map(|p| std::fs::read(&p).ok().map(|b| (p, b)))
        .collect();
    files.sort();
    files
}

/// Bytes as a Rust byte-string literal, to paste a finding into a test.
pub fn escape(data: &[u8]) -> String {
    let mut s = String::from("b\"");
    for &b in data {
        s.extend(std::ascii::escape_default(b).map(char::from));
    }
    s.push('"');
    s
}

/// Runs `target` on `input`; on a panic, prints the input (escaped) with
/// `what` and re-raises the panic.
pub fn run_one(target: fn(&[u8]), what: &str, input: &[u8]) {
    if let Err(panic) = catch_unwind(AssertUnwindSafe(|| target(input))) {
        eprintln!("fuzz target panicked on {what}: {}", escape(input));
        resume_unwind(panic);
    }
}

/// Builds inputs by mutating corpus entries: byte flips, inserted bytes
/// and dictionary tokens, deletions, duplicated ranges, splices.
pub struct Mutator<'a> {
    pub rng: Rng,
    pub seeds: &'a [Vec<u8>],
    /// Tokens worth inserting (quotes, keywords, magic numbers).
    pub dict: &'a [&'a [u8]],
    /// Inputs are kept at most this long.
    pub max_len: usize,
}

impl Mutator<'_> {
    /// The next input.
    pub fn next_input(&mut self) -> Vec<u8> {
        let mut v = if self.seeds.is_empty() {
            Vec::new()
        } else {
            self.seeds[self.rng.below(self.seeds.len())].clone()
        };
        for _ in 0..1 + self.rng.below(8) {
            self.mutate(&mut v);
        }
        v.truncate(self.max_len);
        v
    }

    fn mutate(&mut self, v: &mut Vec<u8>) {
        let r = &mut self.rng;
        let at = r.below(v.len() + 1);
        match r.below(8) {
            0 if !v.is_empty() => {
                let i = r.below(v.len());
                v[i] ^= 1 << r.below(8);
            }
            1 if !v.is_empty() => {
                let i = r.below(v.len());
                v[i] = r.next_u64() as u8;
            }
            2 => v.insert(at, r.next_u64() as u8),
            3 | 4 if !self.dict.is_empty() => {
                let tok = self.dict[r.below(self.dict.len())];
                v.splice(at..at, tok.iter().copied());
            }
            5 if !v.is_empty() => {
                let len = 1 + r.below((v.len() - at.min(v.len() - 1)).min(64));
                let from = at.min(v.len() - 1);
                v.drain(from..(from + len).min(v.len()));
            }
            6 if !v.is_empty() => {
                let from = r.below(v.len());
                let len = 1 + r.below((v.len() - from).min(256));
                let copy = v[from..from + len].to_vec();
                v.splice(at..at, copy);
            }
            7 if !self.seeds.is_empty() => {
                let other = &self.seeds[r.below(self.seeds.len())];
                if !other.is_empty() {
                    let from = r.below(other.len());
                    let len = 1 + r.below(other.len() - from);
                    v.splice(at..at, other[from..from + len].iter().copied());
                }
            }
            _ => v.push(r.next_u64() as u8),
        }
    }
}

/// The stable short form of a fuzz target: every file of `corpus_dir`,
/// then `iterations` mutated inputs (seeded by `seed`). Panics (after
/// printing the input) on the first input the target panics on.
pub fn replay_corpus(
    target: fn(&[u8]),
    corpus_dir: &Path,
    dict: &[&[u8]],
    iterations: usize,
    seed: u64,
) {
    let files = corpus(corpus_dir);
    assert!(!files.is_empty(), "no corpus in {}", corpus_dir.display());
    for (path, bytes) in &files {
        run_one(target, &path.display().to_string(), bytes);
    }
    let seeds: Vec<Vec<u8>> = files.into_iter().map(|(_, b)| b).collect();
    let max_len = seeds.iter().map(Vec::len).max().unwrap_or(0) * 2 + 64;
    let mut m = Mutator { rng: Rng::new(seed), seeds: &seeds, dict, max_len };
    for i in 0..iterations {
        let input = m.next_input();
        run_one(target, &format!("mutated input {i} (seed {seed})"), &input);
    }
}
