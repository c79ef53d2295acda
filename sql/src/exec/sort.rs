//! ORDER BY: an external merge sort.
//!
//! Rows (with their evaluated sort keys) are buffered until the buffer's
//! estimated size passes the memory budget; then the buffer is sorted and
//! written to a temporary file as a *run*. At the end, if nothing spilled,
//! the buffer is sorted in memory; otherwise the runs are merged, reading
//! each run sequentially (a linear pick among run heads: runs are few, one
//! per budget's worth of rows). The sort is stable: ties keep input
//! order (within a run by the stable sort, across runs by run number).
//!
//! Run format: per entry a u32 (LE) length, then a `record` encoding of
//! `keys ++ row`.

use std::cmp::Ordering;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::sync::{Arc, Mutex};

use super::vals;
use super::{Context, Operator};
use crate::catalog::TableDef;
use crate::expr::Expr;
use crate::planner::SortKey;
use crate::record::{decode, encode};
use crate::storage::Row;
use crate::value::Value;
use crate::{Error, Result};

/// Default memory budget of one blocking operator (bytes).
pub const DEFAULT_BUDGET: usize = 16 << 20;

/// A rough size of a value in memory, for budgets.
pub fn approx_size(v: &Value) -> usize {
    24 + match v {
        Value::Text(s) => s.len(),
        Value::Blob(b) => b.len(),
        _ => 0,
    }
}

fn approx_row(r: &[Value]) -> usize {
    24 + r.iter().map(approx_size).sum::<usize>()
}

type Entry = (Vec<Value>, Row);

/// A sorted buffer and the sorted runs spilled before it.
type Sorted = (Vec<Entry>, Vec<Run>);

pub(super) fn cmp_keys(keys: &[SortKey], a: &[Value], b: &[Value]) -> Ordering {
    cmp_by(keys, |i| &a[i], |i| &b[i])
}

/// The ORDER BY order of two rows whose `i`-th key values `a(i)` and
/// `b(i)` give: each key's direction, NULL placement and collation.
fn cmp_by<'a>(
    keys: &[SortKey],
    a: impl Fn(usize) -> &'a Value,
    b: impl Fn(usize) -> &'a Value,
) -> Ordering {
    for (i, k) in keys.iter().enumerate() {
        let (a, b) = (a(i), b(i));
        let o = match (a.is_null(), b.is_null()) {
            (true, true) => Ordering::Equal,
            (true, false) if k.nulls_first => Ordering::Less,
            (true, false) => Ordering::Greater,
            (false, true) if k.nulls_first => Ordering::Greater,
            (false, true) => Ordering::Less,
            (false, false) => {
                let o = vals::compare_collated(a, b, k.coll);
                if k.desc { o.reverse() } else { o }
            }
        };
        if o != Ordering::Equal {
            return o;
        }
    }
    Ordering::Equal
}

/// Where a buffered entry's sort key values are.
enum KeysAt {
    /// Evaluated into the entry's key vector.
    Evaluated,
    /// Every key is a plain column: read from the row itself, so
    /// buffering a row copies and allocates no key.
    Columns(Vec<usize>),
}

impl KeysAt {
    fn of(keys: &[SortKey]) -> KeysAt {
        let cols: Option<Vec<usize>> = keys
            .iter()
            .map(|k| match k.expr {
                Expr::Column(i) => Some(i),
                _ => None,
            })
            .collect();
        cols.map_or(KeysAt::Evaluated, KeysAt::Columns)
    }

    /// The key values of `row`, as the entry stores them.
    fn eval(&self, keys: &[SortKey], row: &[Value], cx: &Context) -> Result<Vec<Value>> {
        match self {
            KeysAt::Evaluated => keys.iter().map(|s| s.expr.eval(row, cx)).collect(),
            KeysAt::Columns(cols) => match cols.iter().find(|&&i| i >= row.len()) {
                Some(&i) => Err(crate::expr::bad_col(i)),
                None => Ok(Vec::new()),
            },
        }
    }

    fn cmp(&self, keys: &[SortKey], a: &Entry, b: &Entry) -> Ordering {
        match self {
            KeysAt::Evaluated => cmp_keys(keys, &a.0, &b.0),
            KeysAt::Columns(c) => cmp_by(keys, |i| &a.1[c[i]], |i| &b.1[c[i]]),
        }
    }

    /// Key values an entry stores (a spill run holds them before the row).
    fn stored(&self, keys: &[SortKey]) -> usize {
        match self {
            KeysAt::Evaluated => keys.len(),
            KeysAt::Columns(_) => 0,
        }
    }
}

/// At most this many rows wanted (a LIMIT above) make a sort with a
/// [`Refetch`] sort narrow rows and read the winners whole afterwards.
const LATE_ROWS: usize = 1024;

/// Late reading of the rows of a top-N sort over one table (SQLite's
/// sorter references): the table is scanned decoding only what the sort
/// keys (and the scan's filter) read, the first N rows are found on those
/// narrow rows, and only they are then read whole, by rowid — the same
/// transaction, before any row is handed on. Built by `exec::demand` when
/// the narrow scan decodes fewer columns than the sort's output needs.
pub(super) struct Refetch {
    /// The input with narrow rows (the rowid at `offset + columns`).
    pub(super) narrow: Option<Box<dyn Operator>>,
    pub(super) table: Arc<TableDef>,
    /// Where the table's local row sits in the input's rows, and their width.
    pub(super) offset: usize,
    pub(super) width: usize,
}

impl Refetch {
    /// The whole row in place of narrow row `row`.
    fn fetch(&self, row: &[Value], cx: &Context) -> Result<Row> {
        let at = self.offset + self.table.columns.len();
        let Some(&Value::Integer(id)) = row.get(at) else {
            return Err(Error::Internal(format!("sorted row has no rowid at {at}")));
        };
        let stored = cx.store.get(&self.table, id)?.ok_or_else(|| {
            Error::Internal(format!("row {id} of {} vanished during a sort", self.table.name))
        })?;
        Ok(super::widen(super::table_row(&self.table, id, stored), self.offset, self.width))
    }
}

/// A spill file failed: an IO error that keeps its kind (a full disk
/// stays `StorageFull`), naming the spill.
fn io(e: std::io::Error) -> Error {
    Error::Io(std::io::Error::new(e.kind(), format!("sort spill file: {e}")))
}

/// One sorted run on disk.
struct Run {
    reader: BufReader<std::fs::File>,
}

impl Run {
    fn write(entries: &[Entry]) -> Result<Run> {
        let mut f = tempfile::tempfile().map_err(io)?;
        {
            let mut w = BufWriter::new(&mut f);
            let mut buf = Vec::new();
            let mut vals = Vec::new();
            for (k, r) in entries {
                vals.clear();
                vals.extend(k.iter().cloned());
                vals.extend(r.iter().cloned());
                buf.clear();
                encode(&vals, &mut buf);
                w.write_all(&(buf.len() as u32).to_le_bytes()).map_err(io)?;
                w.write_all(&buf).map_err(io)?;
            }
            w.flush().map_err(io)?;
        }
        f.seek(SeekFrom::Start(0)).map_err(io)?;
        Ok(Run { reader: BufReader::new(f) })
    }

    fn next(&mut self, nkeys: usize) -> Result<Option<Entry>> {
        let mut len = [0u8; 4];
        match self.reader.read_exact(&mut len) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(None),
            Err(e) => return Err(io(e)),
        }
        let mut buf = vec![0u8; u32::from_le_bytes(len) as usize];
        self.reader.read_exact(&mut buf).map_err(io)?;
        let mut all = decode(&buf, None, 0)?;
        let row = all.split_off(nkeys.min(all.len()));
        Ok(Some((all, row)))
    }
}

/// A temporary file of rows (length-prefixed `record` encodings): spill
/// space for the hash join's partitions and for window partitions.
pub struct RowSpill {
    w: BufWriter<std::fs::File>,
    pub rows: u64,
    /// Bytes written so far: the offset the next row will start at.
    pub bytes: u64,
}

impl RowSpill {
    pub fn new() -> Result<RowSpill> {
        Ok(RowSpill { w: BufWriter::new(tempfile::tempfile().map_err(io)?), rows: 0, bytes: 0 })
    }

    pub fn push(&mut self, row: &[Value]) -> Result<()> {
        let mut buf = Vec::new();
        encode(row, &mut buf);
        self.w.write_all(&(buf.len() as u32).to_le_bytes()).map_err(io)?;
        self.w.write_all(&buf).map_err(io)?;
        self.rows += 1;
        self.bytes += 4 + buf.len() as u64;
        Ok(())
    }

    fn finish(self) -> Result<std::fs::File> {
        let mut f = self.w.into_inner().map_err(|e| io(e.into_error()))?;
        f.seek(SeekFrom::Start(0)).map_err(io)?;
        Ok(f)
    }

    /// Finishes writing; the rows can then be read back in order.
    pub fn reader(self) -> Result<SpillReader> {
        Ok(SpillReader { run: Run { reader: BufReader::new(self.finish()?) } })
    }

    /// Finishes writing; the rows can then be read from any row's offset
    /// ([`RowSpill::bytes`] before it was pushed) by several
    /// [`SpillCursor`]s at once.
    pub fn shared(self) -> Result<SharedSpill> {
        Ok(SharedSpill { file: Arc::new(Mutex::new(self.finish()?)) })
    }
}

/// Rows to go over again in the order they came (the rows an UPDATE or
/// DELETE picks before it changes any): in memory up to the budget, then
/// all of them in a [`RowSpill`], so a statement touching any number of
/// rows holds at most the budget.
pub struct Spool {
    mem: Vec<Row>,
    size: usize,
    budget: usize,
    file: Option<RowSpill>,
}

impl Spool {
    pub fn new(budget: usize) -> Spool {
        Spool { mem: Vec::new(), size: 0, budget, file: None }
    }

    pub fn push(&mut self, row: Row) -> Result<()> {
        if let Some(f) = &mut self.file {
            return f.push(&row);
        }
        self.size += approx_row(&row);
        self.mem.push(row);
        if self.size > self.budget {
            let mut f = RowSpill::new()?;
            for r in self.mem.drain(..) {
                f.push(&r)?;
            }
            self.mem = Vec::new();
            self.file = Some(f);
        }
        Ok(())
    }

    /// True once the rows went to disk.
    pub fn spilled(&self) -> bool {
        self.file.is_some()
    }

    /// The rows, in the order they were pushed.
    pub fn into_rows(self) -> Result<SpoolRows> {
        Ok(match self.file {
            Some(f) => SpoolRows::File(f.reader()?),
            None => SpoolRows::Memory(self.mem.into_iter()),
        })
    }
}

/// What a [`Spool`] gives back.
pub enum SpoolRows {
    Memory(std::vec::IntoIter<Row>),
    File(SpillReader),
}

impl SpoolRows {
    pub fn next_row(&mut self) -> Result<Option<Row>> {
        match self {
            SpoolRows::Memory(it) => Ok(it.next()),
            SpoolRows::File(r) => r.next_row(),
        }
    }
}

/// A finished [`RowSpill`], shared by the cursors that read it.
#[derive(Clone)]
pub struct SharedSpill {
    file: Arc<Mutex<std::fs::File>>,
}

/// Bytes a [`SpillCursor`] reads at a time.
const CURSOR_CHUNK: usize = 16 << 10;

/// Reads rows of a [`SharedSpill`] at given offsets through its own
/// buffer, so cursors moving forward near each other reread little.
pub struct SpillCursor {
    file: SharedSpill,
    buf: Vec<u8>,
    /// File offset of `buf[0]`.
    at: u64,
}

impl SpillCursor {
    pub fn new(file: &SharedSpill) -> SpillCursor {
        SpillCursor { file: file.clone(), buf: Vec::new(), at: 0 }
    }

    /// Makes `buf` hold the file's bytes `off..off + len`.
    fn fill(&mut self, off: u64, len: usize) -> Result<()> {
        if off >= self.at && off + len as u64 <= self.at + self.buf.len() as u64 {
            return Ok(());
        }
        let want = len.max(CURSOR_CHUNK);
        self.buf.clear();
        self.buf.resize(want, 0);
        let mut got = 0;
        {
            let mut f = self
                .file
                .file
                .lock()
                .map_err(|_| Error::Internal("spill file lock poisoned".into()))?;
            f.seek(SeekFrom::Start(off)).map_err(io)?;
            while got < want {
                match f.read(&mut self.buf[got..]) {
                    Ok(0) => break,
                    Ok(k) => got += k,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(io(e)),
                }
            }
        }
        self.buf.truncate(got);
        self.at = off;
        if got < len {
            return Err(Error::Io(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "sort spill file shorter than written",
            )));
        }
        Ok(())
    }

    /// The offset of the row after the one starting at byte `off`.
    pub fn skip(&mut self, off: u64) -> Result<u64> {
        self.fill(off, 4)?;
        let s = (off - self.at) as usize;
        let len = u32::from_le_bytes(self.buf[s..s + 4].try_into().expect("4 bytes"));
        Ok(off + 4 + u64::from(len))
    }

    /// The row starting at byte `off`, and the offset of the row after it.
    pub fn read(&mut self, off: u64) -> Result<(Row, u64)> {
        self.fill(off, 4)?;
        let s = (off - self.at) as usize;
        let len = u32::from_le_bytes(self.buf[s..s + 4].try_into().expect("4 bytes")) as usize;
        self.fill(off, 4 + len)?;
        let s = (off - self.at) as usize;
        let row = decode(&self.buf[s + 4..s + 4 + len], None, 0)?;
        Ok((row, off + 4 + len as u64))
    }
}

/// Reads a [`RowSpill`] back; also an operator, so a join can pull it.
pub struct SpillReader {
    run: Run,
}

impl SpillReader {
    pub fn next_row(&mut self) -> Result<Option<Row>> {
        Ok(self.run.next(0)?.map(|e| e.1))
    }
}

impl Operator for SpillReader {
    fn next(&mut self, _cx: &Context) -> Result<Option<Row>> {
        self.next_row()
    }
}

enum Output {
    Memory(std::vec::IntoIter<Entry>),
    Merge { runs: Vec<Run>, heads: Vec<Option<Entry>> },
}

pub struct SortOp {
    pub input: Option<Box<dyn Operator>>,
    pub keys: Vec<SortKey>,
    out: Option<Output>,
    /// Runs written so far (for tests and EXPLAIN ANALYZE-like checks).
    pub spilled_runs: usize,
    /// Only the first this many rows will be read (a LIMIT above): the
    /// buffer is cut back to them whenever it holds twice as many.
    wanted: Option<usize>,
    keys_at: KeysAt,
    /// Late row reading for a small `wanted` (see [`Refetch`]).
    pub(super) refetch: Option<Refetch>,
    /// Entries in the sort's key vector (for reading runs back).
    nkeys: usize,
}

impl SortOp {
    pub fn new(input: Box<dyn Operator>, keys: Vec<SortKey>) -> SortOp {
        let keys_at = KeysAt::of(&keys);
        let nkeys = keys_at.stored(&keys);
        SortOp {
            input: Some(input),
            keys,
            out: None,
            spilled_runs: 0,
            wanted: None,
            keys_at,
            refetch: None,
            nkeys,
        }
    }

    /// Consumes the whole input now (normally done by the first `next`).
    pub fn prepare(&mut self, cx: &Context) -> Result<()> {
        if self.out.is_none() {
            self.run_input(cx)?;
        }
        Ok(())
    }

    fn run_input(&mut self, cx: &Context) -> Result<()> {
        let late = self.wanted.is_some_and(|n| n <= LATE_ROWS);
        let narrow = self.refetch.as_mut().and_then(|r| r.narrow.take()).filter(|_| late);
        // Narrow rows that outgrow the budget give up: whole rows then.
        if let Some((buf, _)) = narrow.map(|n| self.buffer(n, cx, true)).transpose()?.flatten() {
            let rf = self.refetch.as_ref().expect("narrow came from it");
            let mut full = Vec::with_capacity(buf.len());
            let mut size = 0;
            let mut runs = Vec::new();
            for (k, r) in buf {
                let r = rf.fetch(&r, cx)?;
                size += approx_row(&k) + approx_row(&r);
                full.push((k, r));
                if size > cx.budget {
                    runs.push(Run::write(&full)?);
                    full.clear();
                    size = 0;
                }
            }
            self.input = None;
            return self.finish(full, runs);
        }
        let Some(input) = self.input.take() else { return Ok(()) };
        let (buf, runs) = self.buffer(input, cx, false)?.expect("spills rather than giving up");
        self.finish(buf, runs)
    }

    /// Reads the whole input into a sorted buffer, spilling sorted runs
    /// past the memory budget — or, `narrow` (whose runs could not be read
    /// whole later), answering `None` there. At most `wanted` entries stay
    /// in the buffer.
    fn buffer(
        &self,
        mut input: Box<dyn Operator>,
        cx: &Context,
        narrow: bool,
    ) -> Result<Option<Sorted>> {
        let mut buf: Vec<Entry> = Vec::new();
        let mut size = 0;
        let mut runs = Vec::new();
        let (keys, at) = (&self.keys, &self.keys_at);
        // Top-N: an entry with `wanted` entries before it in the stable
        // order of the buffer can never be among the first `wanted` rows
        // out, so cutting the sorted buffer keeps the result (and, the sort
        // being stable and the buffer in input order, its ties) intact.
        // After a cut, `buf[n - 1]` stays the bound until the next: a later
        // row not strictly before it is never among the first `n` either.
        let cut_at = self.wanted.map(|n| n.max(1).saturating_mul(2));
        let mut bound: Option<usize> = None;
        while let Some(r) = input.next(cx)? {
            let k = at.eval(keys, &r, cx)?;
            let e = (k, r);
            if let Some(b) = bound
                && at.cmp(keys, &e, &buf[b]) != Ordering::Less
            {
                continue;
            }
            size += approx_row(&e.0) + approx_row(&e.1);
            buf.push(e);
            if let (Some(cut), Some(n)) = (cut_at, self.wanted)
                && buf.len() >= cut
            {
                buf.sort_by(|a, b| at.cmp(keys, a, b));
                buf.truncate(n);
                bound = n.checked_sub(1);
                size = buf.iter().map(|(k, r)| approx_row(k) + approx_row(r)).sum();
            }
            if size > cx.budget {
                if narrow {
                    return Ok(None);
                }
                buf.sort_by(|a, b| at.cmp(keys, a, b));
                runs.push(Run::write(&buf)?);
                buf.clear();
                bound = None;
                size = 0;
            }
        }
        buf.sort_by(|a, b| at.cmp(keys, a, b));
        if let Some(n) = self.wanted {
            buf.truncate(n);
        }
        Ok(Some((buf, runs)))
    }

    /// Hands out the sorted buffer, or merges it with the runs spilled.
    fn finish(&mut self, buf: Vec<Entry>, mut runs: Vec<Run>) -> Result<()> {
        if runs.is_empty() {
            self.out = Some(Output::Memory(buf.into_iter()));
            return Ok(());
        }
        if !buf.is_empty() {
            runs.push(Run::write(&buf)?);
        }
        self.spilled_runs = runs.len();
        let mut heads = Vec::with_capacity(runs.len());
        for r in &mut runs {
            heads.push(r.next(self.nkeys)?);
        }
        self.out = Some(Output::Merge { runs, heads });
        Ok(())
    }
}

impl Operator for SortOp {
    fn limit_hint(&mut self, rows: u64) {
        self.wanted = Some(usize::try_from(rows).unwrap_or(usize::MAX));
    }

    fn next(&mut self, cx: &Context) -> Result<Option<Row>> {
        if self.out.is_none() {
            self.run_input(cx)?;
        }
        let nkeys = self.nkeys;
        match self.out.as_mut().expect("set by run_input") {
            Output::Memory(it) => Ok(it.next().map(|e| e.1)),
            Output::Merge { runs, heads } => {
                // Few runs: a linear scan of the heads is as good as a heap
                // and keeps borrows simple.
                let mut best: Option<usize> = None;
                for (i, h) in heads.iter().enumerate() {
                    let Some(h) = h else { continue };
                    best = match best {
                        Some(b) => {
                            let cur = heads[b].as_ref().expect("best is some");
                            if self.keys_at.cmp(&self.keys, h, cur) == Ordering::Less {
                                Some(i)
                            } else {
                                Some(b)
                            }
                        }
                        None => Some(i),
                    };
                }
                let Some(b) = best else { return Ok(None) };
                let next = runs[b].next(nkeys)?;
                let e = std::mem::replace(&mut heads[b], next).expect("best is some");
                Ok(Some(e.1))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::{ExecState, build};
    use crate::expr::Expr;
    use crate::planner::Node;
    use crate::storage::MemStore;

    /// A spool past its budget writes its rows out and gives back every
    /// one, in order, with its storage classes.
    #[test]
    fn spool_spills_past_its_budget_and_keeps_order() {
        let rows: Vec<Row> = (0..2000i64)
            .map(|i| {
                vec![
                    Value::Integer(i),
                    Value::Real(-0.0),
                    Value::Text(format!("r{i}").into()),
                    Value::Blob(vec![i as u8; 3]),
                    Value::Null,
                ]
            })
            .collect();
        for budget in [usize::MAX, 4096] {
            let mut sp = Spool::new(budget);
            for r in &rows {
                sp.push(r.clone()).unwrap();
            }
            assert_eq!(sp.spilled(), budget != usize::MAX);
            let mut out = sp.into_rows().unwrap();
            let mut got = Vec::new();
            while let Some(r) = out.next_row().unwrap() {
                got.push(r);
            }
            assert_eq!(got.len(), rows.len());
            for (a, b) in got.iter().zip(&rows) {
                assert_eq!(format!("{a:?}"), format!("{b:?}"));
                assert!(matches!(a[1], Value::Real(f) if f.is_sign_negative()));
            }
        }
    }

    /// Rows (k, seq) with many equal keys, sorted by k under a budget small
    /// enough to spill many runs: the output is ordered by k and, within a
    /// key, by seq (stability across runs).
    #[test]
    fn spills_runs_and_merges_stably() {
        let n = 5000i64;
        let rows: Vec<Vec<Expr>> = (0..n)
            .map(|i| {
                let k = (i * 7919) % 97;
                vec![Expr::Literal(Value::Integer(k)), Expr::Literal(Value::Integer(i))]
            })
            .collect();
        let input = build(&Node::Values { rows, width: 2 });
        let keys = vec![SortKey {
            expr: Expr::Column(0),
            desc: false,
            coll: vals::Collation::Binary,
            nulls_first: true,
        }];
        let mut op = SortOp::new(input, keys);
        let store = MemStore::new();
        let txn = store.begin(false).unwrap();
        let cache = ExecState::default();
        let mut cx = Context::new(&txn, &[], &cache);
        cx.budget = 20_000;
        let mut out = Vec::new();
        while let Some(r) = op.next(&cx).unwrap() {
            out.push(r);
        }
        assert!(op.spilled_runs > 10, "runs: {}", op.spilled_runs);
        assert_eq!(out.len(), n as usize);
        let pairs: Vec<(i64, i64)> = out
            .iter()
            .map(|r| match (&r[0], &r[1]) {
                (Value::Integer(a), Value::Integer(b)) => (*a, *b),
                _ => panic!("bad row {r:?}"),
            })
            .collect();
        let mut want = pairs.clone();
        want.sort();
        assert_eq!(pairs, want);
    }

    /// With a limit hint (top-N), the first N rows out are exactly those of
    /// the full stable sort, ties in input order included, whether or not
    /// the buffer spills; and the buffer never holds much more than 2N.
    #[test]
    fn limit_hint_keeps_the_first_rows_of_the_stable_sort() {
        let n = 3000i64;
        let rows: Vec<Vec<Expr>> = (0..n)
            .map(|i| {
                let k = (i * 7919) % 53;
                vec![Expr::Literal(Value::Integer(k)), Expr::Literal(Value::Integer(i))]
            })
            .collect();
        let keys = vec![SortKey {
            expr: Expr::Column(0),
            desc: true,
            coll: vals::Collation::Binary,
            nulls_first: false,
        }];
        let store = MemStore::new();
        let txn = store.begin(false).unwrap();
        let cache = ExecState::default();
        let run = |hint: Option<u64>, budget: usize| {
            let input = build(&Node::Values { rows: rows.clone(), width: 2 });
            let mut op = SortOp::new(input, keys.clone());
            if let Some(h) = hint {
                op.limit_hint(h);
            }
            let mut cx = Context::new(&txn, &[], &cache);
            cx.budget = budget;
            let mut out = Vec::new();
            while let Some(r) = op.next(&cx).unwrap() {
                out.push(r);
            }
            (out, op.spilled_runs)
        };
        let (full, _) = run(None, usize::MAX);
        for budget in [usize::MAX, 20_000] {
            for want in [0u64, 1, 7, 100, 2999, 3000, 10_000] {
                let (got, runs) = run(Some(want), budget);
                let w = (want as usize).min(full.len());
                assert!(got.len() >= w, "hint {want}: {} rows", got.len());
                assert_eq!(got[..w], full[..w], "hint {want}, budget {budget}");
                if budget == usize::MAX {
                    assert_eq!(runs, 0);
                }
                if want == 7 && budget == 20_000 {
                    // 14 rows never reach the budget: nothing spills.
                    assert_eq!(runs, 0);
                }
            }
        }
    }
}
