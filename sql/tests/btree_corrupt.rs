//! Corrupt pages never panic or hang the B+tree code: page bytes come from
//! disk. Scenario: build a small two-level table and index (with overflow
//! chains), flip random bytes of their pages, then run point reads, cursor
//! walks in both directions, seeks, `check`, and a few inserts and deletes.
//! Errors are allowed (they must be `Corrupt` or a storage error); a panic
//! fails the test and names the flipped byte.

use std::panic::{AssertUnwindSafe, catch_unwind};

use asadb_pager::{PAGE_USABLE, PageId};
use asadb_sql::Error;
use asadb_sql::btree::testing::MemPages;
use asadb_sql::btree::{Index, PageUsage, Table};
use asadb_txn::{PageRead, PageWrite};

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

fn build() -> (MemPages, Table, Index) {
    let mem = MemPages::new(4096);
    let table = Table::create(&mem).unwrap();
    let index = Index::create(&mem).unwrap();
    for k in 0..400i64 {
        let len = if k % 37 == 0 { 6000 } else { 30 + (k as usize % 50) };
        table.insert(&mem, k * 3, &vec![k as u8; len]).unwrap();
        let mut key = format!("{:>width$}", k, width = if k % 41 == 0 { 2000 } else { 12 });
        key.push_str("-key");
        index.insert(&mem, key.as_bytes()).unwrap();
    }
    (mem, table, index)
}

/// Every operation; returns how many reported an error.
fn exercise(mem: &MemPages, table: Table, index: Index) -> usize {
    let mut errors = 0;
    let mut note = |r: Result<(), Error>| {
        if let Err(e) = r {
            assert!(
                matches!(e, Error::Corrupt(_) | Error::Storage(_)),
                "unexpected error kind: {e:?}"
            );
            errors += 1;
        }
    };
    for k in [0i64, 3, 111, 600, 1197, 5000] {
        note(table.get(mem, k).map(drop));
    }
    note((|| {
        let mut c = table.cursor(mem);
        let mut ok = c.first()?;
        while ok {
            c.payload()?;
            ok = c.next()?;
        }
        let mut ok = c.last()?;
        while ok {
            ok = c.prev()?;
        }
        c.seek(500)?;
        c.seek_le(500)?;
        Ok(())
    })());
    note((|| {
        let mut c = index.cursor(mem);
        let mut ok = c.first()?;
        while ok {
            ok = c.next()?;
        }
        c.seek(b"         200")?;
        index.contains(mem, b"         150-key")?;
        Ok(())
    })());
    note(table.check(mem, &mut PageUsage::new()).map(drop));
    note(index.check(mem, &mut PageUsage::new()).map(drop));
    note(table.insert(mem, 601, &[9; 3000]).map(drop));
    note(table.delete(mem, 300).map(drop));
    note(table.delete(mem, 303).map(drop));
    note(index.insert(mem, b"         999-new").map(drop));
    note(index.delete(mem, b"          10-key").map(drop));
    errors
}

#[test]
fn random_byte_flips_give_errors_not_panics() {
    let mut rng = Rng(0x5eed_1234_abcd);
    let mut total_errors = 0;
    for round in 0..600 {
        let (mem, table, index) = build();
        let pages: Vec<PageId> = mem.live_pages().into_iter().collect();
        let flips = 1 + rng.below(3);
        let mut what = Vec::new();
        for _ in 0..flips {
            let page = pages[rng.below(pages.len() as u64) as usize];
            // Bias towards the header and cell pointers, where flips matter most.
            let offset =
                if rng.below(2) == 0 { rng.below(64) } else { rng.below(PAGE_USABLE as u64) }
                    as usize;
            let xor = 1 + rng.below(255) as u8;
            mem.page_mut(page).unwrap()[offset] ^= xor;
            what.push((page, offset, xor));
        }
        let result = catch_unwind(AssertUnwindSafe(|| exercise(&mem, table, index)));
        match result {
            Ok(n) => total_errors += n,
            Err(_) => panic!("round {round}: panic after flipping {what:?}"),
        }
    }
    // The flips must actually have been noticed somewhere.
    assert!(total_errors > 100, "only {total_errors} errors from 600 corrupted trees");
}

#[test]
fn a_clean_tree_passes_the_same_exercise() {
    let (mem, table, index) = build();
    assert_eq!(exercise(&mem, table, index), 0);
}

#[test]
fn a_loop_back_to_the_root_is_corrupt_not_a_hang() {
    let (mem, table, _) = build();
    // Point the first child of the root (an interior node) back at the root.
    let root = table.root();
    {
        let page = mem.page(root).unwrap();
        assert_eq!(page[0], 0x05, "the table has two levels");
    }
    let first_cell = {
        let page = mem.page(root).unwrap();
        u16::from_le_bytes([page[12], page[13]]) as usize
    };
    mem.page_mut(root).unwrap()[first_cell..first_cell + 4].copy_from_slice(&root.0.to_le_bytes());
    let mut c = table.cursor(&mem);
    assert!(matches!(c.first(), Err(Error::Corrupt(_))));
    assert!(matches!(table.get(&mem, 0), Err(Error::Corrupt(_))));
    assert!(matches!(table.check(&mem, &mut PageUsage::new()), Err(Error::Corrupt(_))));
}
