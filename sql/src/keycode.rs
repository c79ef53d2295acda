//! Order-preserving encoding of index keys: comparing two encodings with
//! `memcmp` gives SQLite's comparison of the values (BINARY collation):
//! NULL < numbers < TEXT < BLOB, INTEGER and REAL compared by exact value.
//!
//! Each column is encoded as a tag byte and a body:
//!
//! ```text
//! NULL     0x01
//! number   0x02  f64 (8 bytes, order-preserving)  i64 tie-breaker (8 bytes, order-preserving)
//! TEXT     0x03  bytes, 0x00 escaped as 0x00 0xFF, then 0x00 0x00
//! BLOB     0x04  same as TEXT
//! ```
//!
//! A number is encoded as its nearest f64 (`-0.0` normalised to `0.0`,
//! sign-flipped bits so unsigned byte order is numeric order) and the
//! exact value minus that f64, which is 0 for every REAL and for every
//! INTEGER with |x| ≤ 2^53, and orders the large integers that share an f64.
//! So `1` and `1.0` have the same encoding, as they must for uniqueness.
//!
//! Every column encoding is prefix-free, so inverting all bytes of a column
//! (its `DESC` flag) exactly reverses its order without disturbing the
//! columns after it. [`append_rowid`] adds the row id as 8 order-preserving
//! bytes, making entries of a non-unique index distinct.
//!
//! **Index entries and storage classes.** Because `1` and `1.0` share an
//! encoding, the column bytes do not say whether an integral number was an
//! INTEGER or a REAL. [`encode_entry`] (the form to store in an index) adds
//! that after the columns and before the row id:
//!
//! ```text
//! entry = column encodings | class map | rowid (8 bytes)
//! class map = ceil(N / 8) bytes; bit i % 8 of byte i / 8 is set iff column i is a REAL
//! ```
//!
//! The class map sits after every column, so prefix seeks, uniqueness
//! checks (`entry starts with encode_key(values)`) and range scans over the
//! columns are unaffected; it only orders entries whose values are equal
//! (such as `1` and `1.0`), which are then still distinct by row id.
//! [`decode_key`] restores the exact storage class from it. Without a class
//! map (keys built by [`encode_key`] alone, or with [`append_rowid`]), an
//! integral number within the i64 range decodes as `Value::Integer` and any
//! other number as `Value::Real`. `-0.0` is stored as `0.0`.
//!
//! NaN never reaches this module (SQLite turns NaN into NULL); if it does,
//! it is encoded as NULL.

use crate::{Result, Value, corrupt};

const TAG_NULL: u8 = 0x01;
const TAG_NUM: u8 = 0x02;
const TAG_TEXT: u8 = 0x03;
const TAG_BLOB: u8 = 0x04;

/// Bytes of an encoded number, tag included.
const NUM_LEN: usize = 17;

/// `i64` as 8 bytes whose unsigned order is numeric order.
pub fn ordered_i64(v: i64) -> [u8; 8] {
    ((v as u64) ^ (1 << 63)).to_be_bytes()
}

/// Inverse of [`ordered_i64`].
pub fn from_ordered_i64(b: [u8; 8]) -> i64 {
    (u64::from_be_bytes(b) ^ (1 << 63)) as i64
}

/// `f64` (not NaN) as 8 bytes whose unsigned order is numeric order.
fn ordered_f64(f: f64) -> [u8; 8] {
    let f = if f == 0.0 { 0.0 } else { f };
    let bits = f.to_bits();
    let bits = if bits >> 63 == 1 { !bits } else { bits | (1 << 63) };
    bits.to_be_bytes()
}

fn from_ordered_f64(b: [u8; 8]) -> f64 {
    let bits = u64::from_be_bytes(b);
    f64::from_bits(if bits >> 63 == 1 { bits & !(1 << 63) } else { !bits })
}

/// Appends the encoding of `v` (ascending).
fn encode_value(v: &Value, out: &mut Vec<u8>) {
    match v {
        Value::Null => out.push(TAG_NULL),
        Value::Real(r) if r.is_nan() => out.push(TAG_NULL),
        Value::Integer(i) => {
            let f = *i as f64;
            // `f` is integral and within ±2^63, so the difference is tiny.
            let tie = (i128::from(*i) - f as i128) as i64;
            out.push(TAG_NUM);
            out.extend_from_slice(&ordered_f64(f));
            out.extend_from_slice(&ordered_i64(tie));
        }
        Value::Real(r) => {
            out.push(TAG_NUM);
            out.extend_from_slice(&ordered_f64(*r));
            out.extend_from_slice(&ordered_i64(0));
        }
        Value::Text(s) => encode_bytes(TAG_TEXT, s.as_bytes(), out),
        Value::Blob(b) => encode_bytes(TAG_BLOB, b, out),
    }
}

fn encode_bytes(tag: u8, bytes: &[u8], out: &mut Vec<u8>) {
    out.reserve(bytes.len() + 3);
    out.push(tag);
    for &b in bytes {
        out.push(b);
        if b == 0 {
            out.push(0xff);
        }
    }
    out.extend_from_slice(&[0, 0]);
}

/// Appends the key encoding of `values` to `out`. `desc[i]` (missing =
/// false) makes column `i` sort descending.
pub fn encode_key(values: &[Value], desc: &[bool], out: &mut Vec<u8>) {
    for (i, v) in values.iter().enumerate() {
        let start = out.len();
        encode_value(v, out);
        if desc.get(i).copied().unwrap_or(false) {
            out[start..].iter_mut().for_each(|b| *b = !*b);
        }
    }
}

/// Appends the row id (order-preserving) to an encoded key.
pub fn append_rowid(out: &mut Vec<u8>, rowid: i64) {
    out.extend_from_slice(&ordered_i64(rowid));
}

/// The row id at the end of an index entry (the last 8 bytes).
pub fn rowid_suffix(key: &[u8]) -> Result<i64> {
    match key.len().checked_sub(8) {
        Some(at) => Ok(from_ordered_i64(key[at..].try_into().unwrap_or([0; 8]))),
        None => corrupt!("index key of {} bytes has no row id", key.len()),
    }
}

/// Encodes a full index entry: [`encode_key`], the class map (see the
/// module doc) and the row id. [`rowid_suffix`] and [`decode_key`] read it.
pub fn encode_entry(values: &[Value], desc: &[bool], rowid: i64, out: &mut Vec<u8>) {
    encode_key(values, desc, out);
    let start = out.len();
    out.resize(start + values.len().div_ceil(8), 0);
    for (i, v) in values.iter().enumerate() {
        if matches!(v, Value::Real(r) if !r.is_nan()) {
            out[start + i / 8] |= 1 << (i % 8);
        }
    }
    append_rowid(out, rowid);
}

/// Decodes `ncols` columns encoded by [`encode_key`] with the same `desc`
/// flags, followed by nothing, by a row id ([`append_rowid`]), or by a class
/// map and a row id ([`encode_entry`]), which makes storage classes exact.
pub fn decode_key(bytes: &[u8], desc: &[bool], ncols: usize) -> Result<(Vec<Value>, Option<i64>)> {
    let mut pos = 0;
    let mut values = Vec::with_capacity(ncols);
    for i in 0..ncols {
        let inv = if desc.get(i).copied().unwrap_or(false) { 0xff } else { 0 };
        let byte = |p: usize| bytes.get(p).map(|b| b ^ inv);
        let Some(tag) = byte(pos) else {
            return corrupt!("index key ends before column {i}");
        };
        pos += 1;
        let value = match tag {
            TAG_NULL => Value::Null,
            TAG_NUM => {
                if bytes.len() < pos + NUM_LEN - 1 {
                    return corrupt!("index key ends inside number column {i}");
                }
                let mut f = [0u8; 8];
                let mut t = [0u8; 8];
                for k in 0..8 {
                    f[k] = bytes[pos + k] ^ inv;
                    t[k] = bytes[pos + 8 + k] ^ inv;
                }
                pos += 16;
                decode_number(from_ordered_f64(f), from_ordered_i64(t))?
            }
            TAG_TEXT | TAG_BLOB => {
                let mut raw = Vec::new();
                loop {
                    let (Some(b), Some(next)) = (byte(pos), byte(pos + 1)) else {
                        return corrupt!("index key ends inside string column {i}");
                    };
                    match (b, next) {
                        (0, 0) => {
                            pos += 2;
                            break;
                        }
                        (0, 0xff) => {
                            raw.push(0);
                            pos += 2;
                        }
                        (0, _) => return corrupt!("bad escape in index key column {i}"),
                        _ => {
                            raw.push(b);
                            pos += 1;
                        }
                    }
                }
                if tag == TAG_BLOB {
                    Value::Blob(raw)
                } else {
                    Value::Text(crate::value::Text::from_bytes(raw))
                }
            }
            t => return corrupt!("bad tag {t:#x} in index key column {i}"),
        };
        values.push(value);
    }
    let map_len = ncols.div_ceil(8);
    let rest = bytes.len() - pos;
    if rest == 0 {
        return Ok((values, None));
    }
    if rest != 8 && (map_len == 0 || rest != 8 + map_len) {
        return corrupt!("{rest} unexpected bytes after the index key columns");
    }
    let rowid = rowid_suffix(bytes)?;
    if rest > 8 {
        let map = &bytes[pos..pos + map_len];
        for (i, v) in values.iter_mut().enumerate() {
            if map[i / 8] & (1 << (i % 8)) == 0 {
                continue;
            }
            *v = match *v {
                Value::Integer(n) => Value::Real(n as f64),
                Value::Real(r) => Value::Real(r),
                _ => return corrupt!("index key column {i} is marked REAL but is not a number"),
            };
        }
    }
    Ok((values, Some(rowid)))
}

fn decode_number(f: f64, tie: i64) -> Result<Value> {
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    if f.is_nan() {
        return corrupt!("NaN in an index key");
    }
    let integral = f.fract() == 0.0 && (-TWO_63..=TWO_63).contains(&f);
    if tie == 0 && !(integral && f < TWO_63) {
        return Ok(Value::Real(f));
    }
    if !integral {
        return corrupt!("index key number {f} has a tie-breaker but is not integral");
    }
    match i64::try_from(f as i128 + i128::from(tie)) {
        Ok(i) => Ok(Value::Integer(i)),
        Err(_) => corrupt!("index key number {f}{tie:+} is not a 64-bit integer"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::cmp::Ordering;

    /// The reference: SQLite's comparison of two values, BINARY collation.
    fn sqlite_cmp(a: &Value, b: &Value) -> Ordering {
        fn class(v: &Value) -> u8 {
            match v {
                Value::Null => 0,
                Value::Integer(_) | Value::Real(_) => 1,
                Value::Text(_) => 2,
                Value::Blob(_) => 3,
            }
        }
        match (a, b) {
            (Value::Integer(x), Value::Integer(y)) => x.cmp(y),
            (Value::Real(x), Value::Real(y)) => x.partial_cmp(y).unwrap(),
            (Value::Integer(i), Value::Real(r)) => int_real_cmp(*i, *r),
            (Value::Real(r), Value::Integer(i)) => int_real_cmp(*i, *r).reverse(),
            (Value::Text(x), Value::Text(y)) => x.as_bytes().cmp(y.as_bytes()),
            (Value::Blob(x), Value::Blob(y)) => x.cmp(y),
            _ => class(a).cmp(&class(b)),
        }
    }

    /// Exact comparison of an integer with a (non-NaN) real.
    fn int_real_cmp(i: i64, r: f64) -> Ordering {
        if r >= 9_223_372_036_854_775_808.0 {
            return Ordering::Less;
        }
        if r < -9_223_372_036_854_775_808.0 {
            return Ordering::Greater;
        }
        let fl = r.floor();
        match i.cmp(&(fl as i64)) {
            Ordering::Equal if r > fl => Ordering::Less,
            o => o,
        }
    }

    fn row_cmp(a: &[Value], b: &[Value], desc: &[bool]) -> Ordering {
        for (i, (x, y)) in a.iter().zip(b).enumerate() {
            let o = sqlite_cmp(x, y);
            let o = if desc[i] { o.reverse() } else { o };
            if o != Ordering::Equal {
                return o;
            }
        }
        a.len().cmp(&b.len())
    }

    fn value() -> impl Strategy<Value = Value> {
        let big = 1i64 << 53;
        prop_oneof![
            Just(Value::Null),
            (-3i64..3).prop_map(Value::Integer),
            any::<i64>().prop_map(Value::Integer),
            (big - 3..big + 3).prop_map(Value::Integer),
            (i64::MAX - 600..=i64::MAX).prop_map(Value::Integer),
            (i64::MIN..i64::MIN + 600).prop_map(Value::Integer),
            (-3i64..3).prop_map(|i| Value::Real(i as f64 / 2.0)),
            any::<f64>().prop_filter("no NaN", |f| !f.is_nan()).prop_map(Value::Real),
            prop::sample::select(vec![
                -0.0,
                f64::INFINITY,
                f64::NEG_INFINITY,
                9_223_372_036_854_775_808.0,
                -9_223_372_036_854_775_808.0,
                9_007_199_254_740_992.0,
                1e300
            ])
            .prop_map(Value::Real),
            "[a\u{0}\u{1}\u{ff}é]{0,4}".prop_map(|s| Value::Text(s.into())),
            prop::collection::vec(prop::sample::select(vec![0u8, 1, 0xfe, 0xff]), 0..4)
                .prop_map(Value::Blob),
        ]
    }

    /// What decoding gives back: integral numbers in range become INTEGER.
    fn canonical(v: &Value) -> Value {
        match v {
            Value::Real(r)
                if r.fract() == 0.0 && *r >= -9.223372036854776e18 && *r < 9.223372036854776e18 =>
            {
                Value::Integer(*r as i64)
            }
            v => v.clone(),
        }
    }

    fn same(a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Real(x), Value::Real(y)) => x.to_bits() == y.to_bits(),
            _ => {
                sqlite_cmp(a, b) == Ordering::Equal
                    && std::mem::discriminant(a) == std::mem::discriminant(b)
            }
        }
    }

    fn enc(values: &[Value], desc: &[bool]) -> Vec<u8> {
        let mut out = Vec::new();
        encode_key(values, desc, &mut out);
        out
    }

    proptest! {
        #[test]
        fn memcmp_matches_sqlite_order(
            a in prop::collection::vec(value(), 0..4),
            b in prop::collection::vec(value(), 0..4),
            desc in prop::collection::vec(any::<bool>(), 4),
        ) {
            // Equal-length rows: an index compares keys of one width.
            let n = a.len().min(b.len());
            let (a, b) = (&a[..n], &b[..n]);
            prop_assert_eq!(enc(a, &desc).cmp(&enc(b, &desc)), row_cmp(a, b, &desc),
                "{:?} vs {:?}", a, b);
        }

        #[test]
        fn single_values_order(a in value(), b in value()) {
            let ea = enc(std::slice::from_ref(&a), &[]);
            let eb = enc(std::slice::from_ref(&b), &[]);
            prop_assert_eq!(ea.cmp(&eb), sqlite_cmp(&a, &b), "{:?} vs {:?}", a, b);
        }

        #[test]
        fn decode_roundtrips(
            values in prop::collection::vec(value(), 0..5),
            desc in prop::collection::vec(any::<bool>(), 5),
            rowid in prop::option::of(any::<i64>()),
        ) {
            let mut key = enc(&values, &desc);
            if let Some(r) = rowid {
                append_rowid(&mut key, r);
                prop_assert_eq!(rowid_suffix(&key).unwrap(), r);
            }
            let (got, got_rowid) = decode_key(&key, &desc, values.len()).unwrap();
            prop_assert_eq!(got_rowid, rowid);
            for (g, v) in got.iter().zip(&values) {
                prop_assert!(same(g, &canonical(v)), "{:?} decoded as {:?}", v, g);
            }
        }

        #[test]
        fn entries_roundtrip_exactly(
            values in prop::collection::vec(value(), 0..10),
            desc in prop::collection::vec(any::<bool>(), 10),
            rowid in any::<i64>(),
        ) {
            let mut entry = Vec::new();
            encode_entry(&values, &desc, rowid, &mut entry);
            prop_assert_eq!(rowid_suffix(&entry).unwrap(), rowid);
            prop_assert!(entry.starts_with(&enc(&values, &desc)));
            let (got, got_rowid) = decode_key(&entry, &desc, values.len()).unwrap();
            prop_assert_eq!(got_rowid, Some(rowid));
            for (g, v) in got.iter().zip(&values) {
                let v = match v {
                    Value::Real(r) if *r == 0.0 => Value::Real(0.0),
                    v => v.clone(),
                };
                prop_assert!(same(g, &v), "{:?} decoded as {:?}", v, g);
            }
        }

        #[test]
        fn entries_order_by_values_first(
            a in prop::collection::vec(value(), 3),
            b in prop::collection::vec(value(), 3),
            ra in any::<i64>(),
            rb in any::<i64>(),
            desc in prop::collection::vec(any::<bool>(), 3),
        ) {
            let (mut ea, mut eb) = (Vec::new(), Vec::new());
            encode_entry(&a, &desc, ra, &mut ea);
            encode_entry(&b, &desc, rb, &mut eb);
            let by_values = row_cmp(&a, &b, &desc);
            if by_values != Ordering::Equal {
                prop_assert_eq!(ea.cmp(&eb), by_values);
            } else if ra != rb {
                prop_assert_ne!(ea, eb);
            }
        }

        #[test]
        fn rowid_suffix_keeps_order(a in any::<i64>(), b in any::<i64>()) {
            let (mut ka, mut kb) = (enc(&[Value::Integer(7)], &[]), enc(&[Value::Integer(7)], &[]));
            append_rowid(&mut ka, a);
            append_rowid(&mut kb, b);
            prop_assert_eq!(ka.cmp(&kb), a.cmp(&b));
        }

        #[test]
        fn garbage_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..40), n in 0usize..4) {
            let _ = decode_key(&bytes, &[true, false], n);
        }
    }

    #[test]
    fn integer_and_real_share_an_encoding() {
        assert_eq!(enc(&[Value::Integer(1)], &[]), enc(&[Value::Real(1.0)], &[]));
        assert_eq!(enc(&[Value::Integer(0)], &[]), enc(&[Value::Real(-0.0)], &[]));
        assert_ne!(
            enc(&[Value::Integer((1 << 53) + 1)], &[]),
            enc(&[Value::Real((1u64 << 53) as f64)], &[])
        );
    }

    #[test]
    fn class_order_and_desc() {
        let vals = [
            Value::Null,
            Value::Integer(-5),
            Value::Real(2.5),
            Value::Text("a".into()),
            Value::Blob(vec![]),
        ];
        let asc: Vec<_> = vals.iter().map(|v| enc(std::slice::from_ref(v), &[false])).collect();
        assert!(asc.windows(2).all(|w| w[0] < w[1]));
        let desc: Vec<_> = vals.iter().map(|v| enc(std::slice::from_ref(v), &[true])).collect();
        assert!(desc.windows(2).all(|w| w[0] > w[1]));
    }

    #[test]
    fn embedded_zero_bytes_sort_before_longer_strings() {
        let a = enc(&[Value::Blob(vec![1])], &[]);
        let b = enc(&[Value::Blob(vec![1, 0])], &[]);
        let c = enc(&[Value::Blob(vec![1, 0, 0])], &[]);
        assert!(a < b && b < c);
    }

    #[test]
    fn class_map_restores_reals() {
        let vals = [Value::Real(1.0), Value::Integer(1), Value::Real(-3.0), Value::Real(0.5)];
        let mut entry = Vec::new();
        encode_entry(&vals, &[], 9, &mut entry);
        let (got, rowid) = decode_key(&entry, &[], 4).unwrap();
        assert_eq!(rowid, Some(9));
        assert!(
            matches!(got[..], [Value::Real(a), Value::Integer(1), Value::Real(b), Value::Real(c)]
            if a == 1.0 && b == -3.0 && c == 0.5)
        );
        // Without the map, integral numbers come back as INTEGER.
        let mut key = enc(&vals, &[]);
        append_rowid(&mut key, 9);
        let (got, _) = decode_key(&key, &[], 4).unwrap();
        assert!(matches!(got[0], Value::Integer(1)));
        // A map marking a TEXT column REAL is corrupt.
        let mut bad = Vec::new();
        encode_entry(&[Value::Text("a".into())], &[], 1, &mut bad);
        let at = bad.len() - 9;
        bad[at] = 1;
        assert!(matches!(decode_key(&bad, &[], 1), Err(crate::Error::Corrupt(_))));
    }

    #[test]
    fn bad_keys_are_corrupt() {
        assert!(matches!(decode_key(&[0x09], &[], 1), Err(crate::Error::Corrupt(_))));
        assert!(matches!(decode_key(&[TAG_NUM, 1, 2], &[], 1), Err(crate::Error::Corrupt(_))));
        assert!(matches!(decode_key(&[TAG_TEXT, b'a'], &[], 1), Err(crate::Error::Corrupt(_))));
        assert!(matches!(decode_key(&[TAG_NULL, 1, 2], &[], 1), Err(crate::Error::Corrupt(_))));
        assert!(matches!(rowid_suffix(&[1, 2]), Err(crate::Error::Corrupt(_))));
    }
}
