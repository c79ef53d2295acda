//! The stable short form of the `cargo fuzz` targets of this crate
//! (`fuzz/`): every file of `fuzz/corpus/<target>/` is replayed through the
//! target's body (`asadb_sql::fuzz`), then a seeded mutational loop runs a
//! few thousand inputs. Invariants: `split` gives the same statements in
//! any chunking, `values` never has the fast path disagree with the
//! parser, `sql` and `page` never panic on any input. A finding is printed
//! as a byte string; it is fixed at its root and kept below as a test.
//!
//! `ASADB_FUZZ_ITERATIONS=N` runs N mutated inputs per target instead of
//! the default (the ignored `long_*` tests run 100 times as many).

use std::path::PathBuf;

use asadb_sql::fuzz;

fn corpus(target: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus").join(target)
}

const SQL_DICT: &[&[u8]] = &[
    b"'",
    b"\"",
    b"`",
    b";",
    b"--",
    b"/*",
    b"*/",
    b"$$",
    b"$t$",
    b"\\",
    b"E'",
    b"X'",
    b"x'00'",
    b"[",
    b"]",
    b"(",
    b")",
    b",",
    b" ",
    b"\n",
    b"END",
    b"BEGIN",
    b"CASE",
    b"CREATE TRIGGER",
    b"COPY t FROM stdin;\n",
    b"\n\\.\n",
    b"-",
    b"+",
    b".",
    b"e",
    b"E+",
    b"0x",
    b"1e308",
    b"NULL",
    b"9223372036854775808",
    b"-9223372036854775808",
    b"INSERT INTO t VALUES ",
    b"OR REPLACE ",
    b"SELECT ",
    b"WITH RECURSIVE ",
    b"UNION ALL ",
    b"GROUP BY ",
    b"ORDER BY ",
    b"JOIN ",
    b"WHERE ",
    b"PRAGMA ",
    b"'\xc3\xa9'",
    b"\xc3",
    b"\xff",
    b"?",
    b":a",
    b"COLLATE NOCASE",
    b"json('[1,2]')",
    b"zeroblob(10)",
    b"printf('%.*f', 5, 1.5)",
    b"CAST(",
    b" AS TEXT)",
];

#[test]
fn split_corpus_and_mutations() {
    fuzz::replay_corpus(fuzz::split, &corpus("split"), SQL_DICT, fuzz::iterations(4000), 1);
}

#[test]
fn values_corpus_and_mutations() {
    fuzz::replay_corpus(fuzz::values, &corpus("values"), SQL_DICT, fuzz::iterations(4000), 2);
}

#[test]
fn sql_corpus_and_mutations() {
    fuzz::replay_corpus(fuzz::sql, &corpus("sql"), SQL_DICT, fuzz::iterations(1500), 3);
}

const PAGE_DICT: &[&[u8]] = &[
    b"\x00",
    b"\xff",
    b"\x00\x00\x00\x00",
    b"\xff\xff\xff\xff",
    b"\x01\x00\x00\x00",
    b"\x00\x10\x00\x00",
    b"\x7f\xff\xff\xff",
];

#[test]
fn page_corpus_and_mutations() {
    fuzz::replay_corpus(fuzz::page, &corpus("page"), PAGE_DICT, fuzz::iterations(300), 4);
}

#[test]
#[ignore = "long run: cargo test -p asadb-sql --test fuzz_targets -- --ignored"]
fn long_all_targets() {
    let n = fuzz::iterations(4000) * 100;
    fuzz::replay_corpus(fuzz::split, &corpus("split"), SQL_DICT, n, 11);
    fuzz::replay_corpus(fuzz::values, &corpus("values"), SQL_DICT, n, 12);
    fuzz::replay_corpus(fuzz::sql, &corpus("sql"), SQL_DICT, n / 4, 13);
    fuzz::replay_corpus(fuzz::page, &corpus("page"), PAGE_DICT, n / 10, 14);
}

/// The mutator reaches inputs the corpus does not hold, deterministically.
#[test]
fn mutator_is_seeded_and_changes_inputs() {
    let seeds = vec![b"SELECT 1;".to_vec()];
    let run = |seed| {
        let mut m =
            fuzz::Mutator { rng: fuzz::Rng::new(seed), seeds: &seeds, dict: SQL_DICT, max_len: 64 };
        (0..50).map(|_| m.next_input()).collect::<Vec<_>>()
    };
    let a = run(7);
    assert_eq!(a, run(7));
    assert!(a.iter().any(|i| i != &seeds[0]));
    assert!(a.iter().all(|i| i.len() <= 64));
}

/// The `split` check fails when chunked and whole splits differ: a target
/// that cannot fail would prove nothing. (A statement limit so small that
/// every statement is too long still gives the same error either way.)
#[test]
fn split_target_compares_both_splits() {
    fuzz::split(b"\x00\x01\x02\x03\x04\x05\x06\x07\x08SELECT 'a;b'; SELECT 2");
    fuzz::split(
        b"\x02\x01\x02\x03\x04\x05\x06\x07\x08SELECT 'a;b' || 'cdefghijklmnopqrstu'; SELECT 2",
    );
}

/// Writes the `page` corpus: small real databases (a table with an
/// overflowing row, an index, a freed page), as a checkpointed main file
/// and as a log. Run it after an on-disk format change:
/// `ASADB_WRITE_PAGE_CORPUS=1 cargo test -p asadb-sql --test fuzz_targets write_page_corpus -- --ignored`.
#[test]
#[ignore = "writes fuzz/corpus/page (run after a format change)"]
fn write_page_corpus() {
    use std::sync::Arc;

    use asadb_pager::MemIo;
    use asadb_sql::session::{Engine, Params};
    if std::env::var_os("ASADB_WRITE_PAGE_CORPUS").is_none() {
        return;
    }
    let scripts: &[(&str, &str)] = &[
        (
            "table",
            "CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT); INSERT INTO t VALUES (1, 'x'), (2, 'y');",
        ),
        (
            "index-overflow",
            "CREATE TABLE t (a, b); CREATE INDEX ti ON t (b); \
             INSERT INTO t VALUES (1, 'short'), (2, zeroblob(6000)), (3, 'é😀');",
        ),
        (
            "freelist",
            "CREATE TABLE t (a); CREATE TABLE u (b); INSERT INTO u VALUES (zeroblob(9000)); DROP TABLE u;",
        ),
    ];
    let dir = corpus("page");
    std::fs::create_dir_all(&dir).unwrap();
    for (name, script) in scripts {
        let main = Arc::new(MemIo::new());
        let wal = Arc::new(MemIo::new());
        let db = asadb_txn::Db::open_io(main.clone(), wal.clone(), Default::default()).unwrap();
        let engine = Engine::with_db(db.clone());
        engine.session().execute(script, &Params::None).unwrap();
        let mut logged = vec![0x04];
        logged.extend(wal.to_bytes());
        std::fs::write(dir.join(format!("{name}.wal")), logged).unwrap();
        db.checkpoint().unwrap();
        let mut file = vec![0x01];
        file.extend(main.to_bytes());
        std::fs::write(dir.join(format!("{name}.page")), file).unwrap();
    }
}
