//! Row encoding: how a table row's values become the payload bytes of a
//! table B+tree cell, and back.
//!
//! The format is SQLite's record format with LEB128 varints:
//!
//! ```text
//! header:  varint header_size        bytes of the header, this varint included
//!          varint serial_type × N    one per column, in column order
//! body:    the columns' bytes, in column order, sizes given by the types
//! ```
//!
//! | serial type | meaning                       | body bytes |
//! |-------------|-------------------------------|------------|
//! | 0           | NULL                          | 0          |
//! | 1, 2, 3, 4  | INTEGER, big-endian two's complement | 1, 2, 3, 4 |
//! | 5, 6        | INTEGER, big-endian two's complement | 6, 8 |
//! | 7           | REAL, IEEE 754 big-endian     | 8          |
//! | 8, 9        | the INTEGER constants 0 and 1 | 0          |
//! | N ≥ 12, even | BLOB of (N − 12) / 2 bytes   | (N − 12) / 2 |
//! | N ≥ 13, odd  | TEXT (UTF-8) of (N − 13) / 2 bytes | (N − 13) / 2 |
//!
//! Integers use the smallest width that holds them. A record may hold fewer
//! columns than its table has: missing trailing columns read as NULL (this
//! is how `ALTER TABLE ADD COLUMN` works without rewriting rows).
//!
//! Decoding never trusts the bytes: a header or body that does not add up is
//! [`Error::Corrupt`](crate::Error::Corrupt).

use crate::{Result, Value, corrupt};

/// Appends `v` as an unsigned LEB128 varint (7 bits a byte, low bits first).
#[inline]
pub(crate) fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Bytes [`put_varint`] writes for `v`.
pub(crate) fn varint_len(v: u64) -> usize {
    let bits = 64 - (v | 1).leading_zeros() as usize;
    bits.div_ceil(7)
}

/// Reads a varint at `buf[*pos..]`, advancing `pos`. `None` if it runs past
/// the end or is longer than a u64 can hold.
#[inline]
pub(crate) fn get_varint(buf: &[u8], pos: &mut usize) -> Option<u64> {
    // One byte is by far the most common case (lengths below 128).
    let first = *buf.get(*pos)?;
    if first < 0x80 {
        *pos += 1;
        return Some(u64::from(first));
    }
    get_varint_long(buf, pos)
}

#[cold]
fn get_varint_long(buf: &[u8], pos: &mut usize) -> Option<u64> {
    let mut v: u64 = 0;
    for shift in (0..64).step_by(7) {
        let b = *buf.get(*pos)?;
        *pos += 1;
        v |= u64::from(b & 0x7f).checked_shl(shift)?;
        if b & 0x80 == 0 {
            if shift == 63 && b > 1 {
                return None;
            }
            return Some(v);
        }
    }
    None
}

/// Serial type and body size of one value.
fn serial_type(v: &Value) -> (u64, usize) {
    match v {
        Value::Null => (0, 0),
        Value::Integer(0) => (8, 0),
        Value::Integer(1) => (9, 0),
        Value::Integer(i) => {
            let i = *i;
            if i8::try_from(i).is_ok() {
                (1, 1)
            } else if i16::try_from(i).is_ok() {
                (2, 2)
            } else if (-(1 << 23)..(1 << 23)).contains(&i) {
                (3, 3)
            } else if i32::try_from(i).is_ok() {
                (4, 4)
            } else if (-(1 << 47)..(1 << 47)).contains(&i) {
                (5, 6)
            } else {
                (6, 8)
            }
        }
        Value::Real(_) => (7, 8),
        Value::Blob(b) => (12 + 2 * b.len() as u64, b.len()),
        Value::Text(t) => (13 + 2 * t.len() as u64, t.len()),
    }
}

/// Body size of a serial type, `None` for the reserved types 10 and 11.
fn body_size(serial: u64) -> Option<u64> {
    Some(match serial {
        0 | 8 | 9 => 0,
        1..=4 => serial,
        5 => 6,
        6 | 7 => 8,
        10 | 11 => return None,
        n => (n - 12) / 2,
    })
}

/// Encodes a row, appending it to `out`.
pub fn encode(values: &[Value], out: &mut Vec<u8>) {
    // Serial types are cheap to compute: two passes instead of a buffer.
    let types = || values.iter().map(serial_type);
    let types_len: usize = types().map(|(t, _)| varint_len(t)).sum();
    // The header size counts its own varint, whose width depends on the total.
    let mut header_len = types_len + 1;
    while varint_len(header_len as u64) + types_len != header_len {
        header_len = varint_len(header_len as u64) + types_len;
    }
    let body_len: usize = types().map(|(_, n)| n).sum();
    out.reserve(header_len + body_len);
    put_varint(out, header_len as u64);
    for (t, _) in types() {
        put_varint(out, t);
    }
    for (v, (t, n)) in values.iter().zip(types()) {
        match v {
            Value::Null => {}
            Value::Integer(i) if t < 8 => out.extend_from_slice(&i.to_be_bytes()[8 - n..]),
            Value::Integer(_) => {}
            Value::Real(r) => out.extend_from_slice(&r.to_bits().to_be_bytes()),
            Value::Text(s) => out.extend_from_slice(s.as_bytes()),
            Value::Blob(b) => out.extend_from_slice(b),
        }
    }
}

/// Encodes a row into a new buffer.
pub fn encode_to_vec(values: &[Value]) -> Vec<u8> {
    let mut out = Vec::new();
    encode(values, &mut out);
    out
}

/// A read-only view of an encoded row. The header is parsed once, so
/// reading one column decodes only that column.
#[derive(Clone, Debug)]
pub struct Record<'a> {
    bytes: &'a [u8],
    /// Per column: serial type and body offset. Every body lies within `bytes`.
    columns: Vec<(u64, usize)>,
}

/// A record's header size (its first varint, checked to fit `bytes`) and
/// where the serial types after it begin.
fn header_size(bytes: &[u8]) -> Result<(usize, usize)> {
    let mut pos = 0;
    let Some(header_len) = get_varint(bytes, &mut pos) else {
        return corrupt!("record header size is not a varint");
    };
    if header_len < pos as u64 || header_len > bytes.len() as u64 {
        return corrupt!("record header size {header_len} does not fit {} bytes", bytes.len());
    }
    Ok((header_len as usize, pos))
}

impl<'a> Record<'a> {
    /// Parses the header of `bytes`, checking that every column's body lies
    /// inside the record.
    pub fn new(bytes: &'a [u8]) -> Result<Record<'a>> {
        let (header_len, mut pos) = header_size(bytes)?;
        let header = &bytes[..header_len];
        let mut body = header_len as u64;
        let mut columns = Vec::new();
        while pos < header_len {
            let Some(serial) = get_varint(header, &mut pos) else {
                return corrupt!("record serial type runs past the header");
            };
            let Some(size) = body_size(serial) else {
                return corrupt!("record has reserved serial type {serial}");
            };
            columns.push((serial, body as usize));
            body += size;
            if body > bytes.len() as u64 {
                return corrupt!("record body runs past its {} bytes", bytes.len());
            }
        }
        Ok(Record { bytes, columns })
    }

    /// Number of columns stored in the record (a table may have more).
    pub fn len(&self) -> usize {
        self.columns.len()
    }

    /// True if the record stores no column.
    pub fn is_empty(&self) -> bool {
        self.columns.is_empty()
    }

    /// Column `i`; NULL if the record stores fewer columns.
    pub fn column(&self, i: usize) -> Result<Value> {
        let Some(&(serial, off)) = self.columns.get(i) else {
            return Ok(Value::Null);
        };
        // `new` checked that every body lies inside `bytes`.
        let size = body_size(serial).unwrap_or(0) as usize;
        Ok(value_of(serial, &self.bytes[off..off + size]))
    }

    /// Every column. The vector has room for one more value (the rowid a
    /// table row gets appended), so that push does not reallocate.
    pub fn values(&self) -> Result<Vec<Value>> {
        let mut out = Vec::with_capacity(self.len() + 1);
        for i in 0..self.len() {
            out.push(self.column(i)?);
        }
        Ok(out)
    }
}

/// The value of one column from its serial type and its body bytes
/// (`body` holds exactly [`body_size`] bytes): the one decoding rule
/// [`Record::column`] and [`decode`] share.
#[inline]
fn value_of(serial: u64, body: &[u8]) -> Value {
    match serial {
        0 => Value::Null,
        8 => Value::Integer(0),
        9 => Value::Integer(1),
        1..=6 => {
            // Sign-extend: start from all ones if the top bit is set.
            let mut v: i64 = if body[0] & 0x80 != 0 { -1 } else { 0 };
            for &b in body {
                v = (v << 8) | i64::from(b);
            }
            Value::Integer(v)
        }
        7 => Value::Real(f64::from_bits(u64::from_be_bytes(body.try_into().unwrap_or([0; 8])))),
        n if n % 2 == 0 => Value::Blob(body.to_vec()),
        // TEXT's bytes as stored, UTF-8 or not (see `value::Text`).
        _ => Value::Text(crate::value::Text::from_bytes(body.to_vec())),
    }
}

/// The columns of a record a reader needs decoded (SQLite decodes a row
/// lazily, up to the last column a statement reads; this is that
/// knowledge handed down to the store). Columns outside the set read as
/// NULL, and decoding stops after the last column in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColumnSet {
    /// `wanted[i]`: decode column `i`; the last entry is `true` (or the
    /// set is empty).
    wanted: Vec<bool>,
}

impl ColumnSet {
    /// The set of the given column positions.
    pub fn new(cols: impl IntoIterator<Item = usize>) -> ColumnSet {
        let mut wanted = Vec::new();
        for c in cols {
            if c >= wanted.len() {
                wanted.resize(c + 1, false);
            }
            wanted[c] = true;
        }
        ColumnSet { wanted }
    }

    /// True if column `i` is to be decoded.
    pub fn contains(&self, i: usize) -> bool {
        self.wanted.get(i).copied().unwrap_or(false)
    }

    /// One past the last column in the set (0 if it is empty).
    pub fn end(&self) -> usize {
        self.wanted.len()
    }

    /// Copies the wanted values of a decoded row (the others NULL, none
    /// past [`ColumnSet::end`]): what a store without records (the
    /// in-memory one) answers for a projected scan.
    pub fn project(&self, row: &[Value]) -> Vec<Value> {
        let n = self.end().min(row.len());
        let mut out = Vec::with_capacity(n + 1);
        for (i, v) in row[..n].iter().enumerate() {
            out.push(if self.wanted[i] { v.clone() } else { Value::Null });
        }
        out
    }
}

/// Decodes a record in one pass over its header: every column, or with
/// `cols` only the columns in it (the others NULL, and nothing after the
/// last one in it: the rest of the header is not even read). The vector
/// has room for one more value than the record holds (the rowid a table
/// row gets appended), and for at least `room` values (a table's width
/// plus its rowid, when the record may be short of columns).
///
/// Checks what it reads as [`Record::new`] does: a header or body that
/// does not add up is [`Error::Corrupt`](crate::Error::Corrupt).
pub fn decode(bytes: &[u8], cols: Option<&ColumnSet>, room: usize) -> Result<Vec<Value>> {
    let (header_len, mut pos) = header_size(bytes)?;
    let header = &bytes[..header_len];
    // Every serial type takes at least one header byte.
    let most = header_len - pos;
    let end = cols.map_or(usize::MAX, ColumnSet::end);
    let mut out = Vec::with_capacity((most.min(end) + 1).max(room));
    let mut body = header_len;
    while pos < header_len && out.len() < end {
        let Some(serial) = get_varint(header, &mut pos) else {
            return corrupt!("record serial type runs past the header");
        };
        let Some(size) = body_size(serial) else {
            return corrupt!("record has reserved serial type {serial}");
        };
        let Some(next) = usize::try_from(size).ok().and_then(|s| body.checked_add(s)) else {
            return corrupt!("record body runs past its {} bytes", bytes.len());
        };
        if next > bytes.len() {
            return corrupt!("record body runs past its {} bytes", bytes.len());
        }
        let i = out.len();
        if cols.is_none_or(|c| c.wanted[i]) {
            out.push(value_of(serial, &bytes[body..next]));
        } else {
            out.push(Value::Null);
        }
        body = next;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Equality that tells storage classes apart and compares REALs by bits.
    fn same(a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Null, Value::Null) => true,
            (Value::Integer(x), Value::Integer(y)) => x == y,
            (Value::Real(x), Value::Real(y)) => x.to_bits() == y.to_bits(),
            (Value::Text(x), Value::Text(y)) => x == y,
            (Value::Blob(x), Value::Blob(y)) => x == y,
            _ => false,
        }
    }

    fn value() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(Value::Null),
            any::<i64>().prop_map(Value::Integer),
            (-70_000i64..70_000).prop_map(Value::Integer),
            prop::sample::select(vec![
                0,
                1,
                -1,
                127,
                128,
                -128,
                -129,
                32767,
                32768,
                (1 << 23) - 1,
                1 << 23,
                -(1 << 23),
                -(1 << 23) - 1,
                i32::MAX as i64,
                i32::MAX as i64 + 1,
                (1 << 47) - 1,
                1 << 47,
                -(1 << 47) - 1,
                i64::MIN,
                i64::MAX
            ])
            .prop_map(Value::Integer),
            any::<f64>().prop_map(Value::Real),
            ".{0,40}".prop_map(|s| Value::Text(s.into())),
            prop::collection::vec(any::<u8>(), 0..300).prop_map(Value::Blob),
        ]
    }

    proptest! {
        #[test]
        fn roundtrip(values in prop::collection::vec(value(), 0..80)) {
            let bytes = encode_to_vec(&values);
            let rec = Record::new(&bytes).unwrap();
            prop_assert_eq!(rec.len(), values.len());
            for (i, v) in values.iter().enumerate() {
                let got = rec.column(i).unwrap();
                prop_assert!(same(&got, v), "column {}: {:?} != {:?}", i, got, v);
            }
            prop_assert!(matches!(rec.column(values.len()).unwrap(), Value::Null));
        }

        #[test]
        fn garbage_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
            if let Ok(rec) = Record::new(&bytes) {
                let _ = rec.values();
            }
        }

        #[test]
        fn varint_roundtrip(v in any::<u64>()) {
            let mut out = Vec::new();
            put_varint(&mut out, v);
            prop_assert_eq!(out.len(), varint_len(v));
            let mut pos = 0;
            prop_assert_eq!(get_varint(&out, &mut pos), Some(v));
            prop_assert_eq!(pos, out.len());
        }
    }

    #[test]
    fn smallest_integer_width_and_constants() {
        let bytes = encode_to_vec(&[Value::Integer(0), Value::Integer(1), Value::Integer(2)]);
        // header size, types 8, 9, 1, then one body byte.
        assert_eq!(bytes, vec![4, 8, 9, 1, 2]);
        let bytes = encode_to_vec(&[Value::Integer(-200)]);
        assert_eq!(bytes, vec![2, 2, 0xff, 0x38]);
    }

    #[test]
    fn text_and_blob_types_carry_length() {
        let bytes = encode_to_vec(&[Value::Text("ab".into()), Value::Blob(vec![7])]);
        assert_eq!(bytes, vec![3, 17, 14, b'a', b'b', 7]);
    }

    #[test]
    fn missing_trailing_columns_are_null() {
        let bytes = encode_to_vec(&[Value::Integer(5)]);
        let rec = Record::new(&bytes).unwrap();
        assert!(matches!(rec.column(3).unwrap(), Value::Null));
        let empty = encode_to_vec(&[]);
        assert_eq!(empty, vec![1]);
        assert!(Record::new(&empty).unwrap().is_empty());
    }

    #[test]
    fn long_header_size_counts_itself() {
        // 200 NULL columns: 200 type bytes + a 2-byte header size.
        let values = vec![Value::Null; 200];
        let bytes = encode_to_vec(&values);
        assert_eq!(bytes.len(), 202);
        assert_eq!(Record::new(&bytes).unwrap().len(), 200);
    }

    #[test]
    fn corrupt_records_are_errors() {
        // Header claims a 10-byte TEXT but the body is empty.
        assert!(matches!(Record::new(&[2, 33]), Err(crate::Error::Corrupt(_))));
        // Reserved serial type.
        assert!(matches!(Record::new(&[2, 10]), Err(crate::Error::Corrupt(_))));
        // TEXT that is not UTF-8 is not corruption: SQLite stores such
        // text (CAST(x'ff' AS TEXT)) and reads the bytes back.
        let rec = Record::new(&[2, 15, 0xff]).unwrap();
        assert!(matches!(rec.column(0), Ok(Value::Text(t)) if t.as_bytes() == [0xff]));
        assert!(matches!(Record::new(&[]), Err(crate::Error::Corrupt(_))));
    }
}
