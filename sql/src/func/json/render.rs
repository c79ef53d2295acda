//! JSONB out: minified text (SQLite's `jsonTranslateBlobToText`), pretty
//! text (`json_pretty`), SQL values of single elements
//! (`jsonReturnFromBlob`), and JSON text built from SQL values
//! (`jsonAppendSqlValue`, used by `json_array`, `json_object`,
//! `json_quote` and the aggregates).
//!
//! Rendering normalises JSON5 to RFC 8259: hex integers become decimal
//! (`9.0e999` past 64 bits), `.5` and `5.` become `0.5` and `5.0`, JSON5
//! escapes become `\uXXXX`, and SQL text is escaped. Everything else —
//! number spelling, RFC 8259 escapes, key order, duplicate keys — is
//! copied as it was written.

use super::jsonb::{self, Jsonb, MAX_DEPTH};
use crate::value::{FloatSpec, Value, atof, atoi64};
use crate::{Error, Result};

/// What [`unescape_one`] returns for a bad escape.
pub const INVALID_CHAR: u32 = 0x99999;

/// JSON text under construction, with SQLite's sticky error flags.
#[derive(Default)]
pub struct JsonOut {
    pub buf: Vec<u8>,
    err: Option<OutError>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum OutError {
    /// Bad JSONB input (`malformed JSON`).
    Malformed,
    /// Nested deeper than [`MAX_DEPTH`].
    TooDeep,
    /// A BLOB that is not JSONB was appended.
    Blob,
}

impl JsonOut {
    pub fn new() -> JsonOut {
        JsonOut::default()
    }

    pub fn has_error(&self) -> bool {
        self.err.is_some()
    }

    fn fail(&mut self, e: OutError) {
        match e {
            // SQLite resets the text when it records these.
            OutError::TooDeep | OutError::Blob => {
                if self.err.is_none() || e == OutError::TooDeep {
                    self.err = Some(e);
                }
                self.buf.clear();
            }
            OutError::Malformed => {
                if self.err.is_none() {
                    self.err = Some(e);
                }
            }
        }
    }

    pub fn push(&mut self, c: u8) {
        self.buf.push(c);
    }

    pub fn raw(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }

    /// Drops the last byte (a trailing separator) unless an error was
    /// recorded (SQLite's `jsonStringTrimOneChar`).
    pub fn trim_one(&mut self) {
        if self.err.is_none() {
            self.buf.pop();
        }
    }

    /// A `,` unless the text is empty or ends with `[` or `{`.
    pub fn separator(&mut self) {
        match self.buf.last() {
            None | Some(b'[' | b'{') => {}
            Some(_) => self.buf.push(b','),
        }
    }

    /// The text, or the error SQLite reports for it.
    pub fn finish(self) -> Result<Vec<u8>> {
        match self.err {
            None => {
                if self.buf.len() > crate::func::printf::max_length() {
                    return Err(Error::TooLarge("string or blob too big".into()));
                }
                Ok(self.buf)
            }
            Some(OutError::TooDeep) => crate::errinput!("JSON nested too deep"),
            Some(OutError::Malformed) => crate::errinput!("malformed JSON"),
            Some(OutError::Blob) => crate::errinput!("JSON cannot hold BLOB values"),
        }
    }

    /// `z` as a quoted JSON string (SQLite's `jsonAppendString`).
    pub fn string(&mut self, z: &[u8]) {
        self.buf.reserve(z.len() + 2);
        self.buf.push(b'"');
        for &c in z {
            if jsonb::is_ok(c) || c == b'\'' {
                self.buf.push(c);
            } else if c == b'"' || c == b'\\' {
                self.buf.push(b'\\');
                self.buf.push(c);
            } else {
                self.control_char(c);
            }
        }
        self.buf.push(b'"');
    }

    /// The JSON escape of control character `c`.
    fn control_char(&mut self, c: u8) {
        let short = match c {
            0x08 => Some(b'b'),
            0x09 => Some(b't'),
            0x0a => Some(b'n'),
            0x0c => Some(b'f'),
            0x0d => Some(b'r'),
            _ => None,
        };
        match short {
            Some(s) => self.raw(&[b'\\', s]),
            None => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                self.raw(&[
                    b'\\',
                    b'u',
                    b'0',
                    b'0',
                    HEX[usize::from(c >> 4)],
                    HEX[usize::from(c & 0xf)],
                ]);
            }
        }
    }

    /// Appends an SQL value as JSON (SQLite's `jsonAppendSqlValue`): TEXT
    /// with the JSON subtype (`json`) as it is, other TEXT quoted; a BLOB
    /// must be JSONB.
    pub fn sql_value(&mut self, v: &Value, json: bool) {
        match v {
            Value::Null => self.raw(b"null"),
            Value::Real(r) => {
                let spec = FloatSpec { zero_pad: true, ..FloatSpec::REAL_TO_TEXT };
                crate::value::format_float(&mut self.buf, *r, &spec);
            }
            Value::Integer(i) => {
                use std::io::Write;
                let _ = write!(self.buf, "{i}");
            }
            Value::Text(s) => {
                if json {
                    self.raw(s.as_bytes());
                } else {
                    self.string(s.as_bytes());
                }
            }
            Value::Blob(b) => {
                if jsonb::looks_like_jsonb(b) {
                    let j = Jsonb::new(b.clone());
                    to_text(&j, 0, self, &mut 0);
                } else if self.err.is_none() {
                    self.fail(OutError::Blob);
                }
            }
        }
    }
}

/// Appends the element at `i` of `j` as minified JSON text; returns the
/// index after it. `depth` counts open containers.
pub fn to_text(j: &Jsonb, i: usize, out: &mut JsonOut, depth: &mut u32) -> usize {
    stacker::maybe_grow(64 << 10, 1 << 20, || to_text_at(j, i, out, depth))
}

fn to_text_at(j: &Jsonb, i: usize, out: &mut JsonOut, depth: &mut u32) -> usize {
    let Some((n, sz)) = j.payload_size(i) else {
        out.fail(OutError::Malformed);
        return j.blob.len() + 1;
    };
    let p = j.payload(i, n, sz);
    match j.blob[i] & 0x0f {
        jsonb::NULL => {
            out.raw(b"null");
            return i + 1;
        }
        jsonb::TRUE => {
            out.raw(b"true");
            return i + 1;
        }
        jsonb::FALSE => {
            out.raw(b"false");
            return i + 1;
        }
        jsonb::INT | jsonb::FLOAT => {
            if sz == 0 {
                out.fail(OutError::Malformed);
            } else {
                out.raw(p);
            }
        }
        jsonb::INT5 => {
            if sz == 0 {
                out.fail(OutError::Malformed);
            } else {
                let mut k = 2;
                if p[0] == b'-' {
                    out.push(b'-');
                    k += 1;
                } else if p[0] == b'+' {
                    k += 1;
                }
                let mut u: u64 = 0;
                let mut overflow = false;
                while k < sz {
                    let c = p[k];
                    if !c.is_ascii_hexdigit() {
                        out.fail(OutError::Malformed);
                        break;
                    } else if u >> 60 != 0 {
                        overflow = true;
                    } else {
                        u = u * 16 + u64::from(hex_digit(c));
                    }
                    k += 1;
                }
                if overflow {
                    out.raw(b"9.0e999");
                } else {
                    out.raw(u.to_string().as_bytes());
                }
            }
        }
        jsonb::FLOAT5 => {
            if sz == 0 {
                out.fail(OutError::Malformed);
            } else {
                let mut k = 0;
                let mut bad = false;
                if p[0] == b'-' {
                    out.push(b'-');
                    if sz <= 1 {
                        out.fail(OutError::Malformed);
                        bad = true;
                    }
                    k = 1;
                }
                if !bad {
                    if p[k] == b'.' {
                        out.push(b'0');
                    }
                    while k < sz {
                        out.push(p[k]);
                        if p[k] == b'.' && (k + 1 == sz || !p[k + 1].is_ascii_digit()) {
                            out.push(b'0');
                        }
                        k += 1;
                    }
                }
            }
        }
        jsonb::TEXT | jsonb::TEXTJ => {
            out.push(b'"');
            out.raw(p);
            out.push(b'"');
        }
        jsonb::TEXT5 => text5(p, out),
        jsonb::TEXTRAW => out.string(p),
        jsonb::ARRAY => {
            out.push(b'[');
            let mut k = i + n;
            let end = k + sz;
            *depth += 1;
            if *depth > MAX_DEPTH {
                out.fail(OutError::TooDeep);
            }
            while k < end && !out.has_error() {
                k = to_text(j, k, out, depth);
                out.push(b',');
            }
            *depth -= 1;
            if k > end {
                out.fail(OutError::Malformed);
            }
            if sz > 0 {
                out.trim_one();
            }
            out.push(b']');
        }
        jsonb::OBJECT => {
            out.push(b'{');
            let mut k = i + n;
            let end = k + sz;
            *depth += 1;
            if *depth > MAX_DEPTH {
                out.fail(OutError::TooDeep);
            }
            let mut x = 0u32;
            while k < end && !out.has_error() {
                k = to_text(j, k, out, depth);
                out.push(if x & 1 != 0 { b',' } else { b':' });
                x += 1;
            }
            *depth -= 1;
            if x & 1 != 0 || k > end {
                out.fail(OutError::Malformed);
            }
            if sz > 0 {
                out.trim_one();
            }
            out.push(b'}');
        }
        _ => out.fail(OutError::Malformed),
    }
    i + n + sz
}

/// A JSON5 string payload as RFC 8259 string text.
fn text5(z: &[u8], out: &mut JsonOut) {
    out.push(b'"');
    let mut z = z;
    while !z.is_empty() {
        let k = z.iter().position(|&c| !(jsonb::is_ok(c) || c == b'\'')).unwrap_or(z.len());
        if k > 0 {
            out.raw(&z[..k]);
            if k >= z.len() {
                break;
            }
            z = &z[k..];
        }
        if z[0] == b'"' {
            out.raw(b"\\\"");
            z = &z[1..];
            continue;
        }
        if z[0] <= 0x1f {
            out.control_char(z[0]);
            z = &z[1..];
            continue;
        }
        // z[0] is a backslash.
        if z.len() < 2 {
            out.fail(OutError::Malformed);
            break;
        }
        let mut skip = 2;
        match z[1] {
            b'\'' => out.push(b'\''),
            b'v' => out.raw(b"\\u000b"),
            b'x' => {
                if z.len() < 4 {
                    out.fail(OutError::Malformed);
                } else {
                    out.raw(b"\\u00");
                    out.raw(&z[2..4]);
                    skip = 4;
                }
            }
            b'0' => out.raw(b"\\u0000"),
            b'\r' => {
                if z.len() > 2 && z[2] == b'\n' {
                    skip = 3;
                }
            }
            b'\n' => {}
            0xe2 => {
                // A backslash before U+2028 or U+2029 is a line continuation.
                if z.len() < 4 || z[2] != 0x80 || (z[3] != 0xa8 && z[3] != 0xa9) {
                    out.fail(OutError::Malformed);
                } else {
                    skip = 4;
                }
            }
            _ => out.raw(&z[..2]),
        }
        z = &z[skip.min(z.len())..];
    }
    out.push(b'"');
}

fn hex_digit(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        _ => c.wrapping_sub(b'A').wrapping_add(10) & 0xf,
    }
}

/// Appends the element at `i` pretty-printed with `indent` per level.
pub fn to_pretty(j: &Jsonb, i: usize, out: &mut JsonOut, indent: &[u8], level: &mut u32) -> usize {
    stacker::maybe_grow(64 << 10, 1 << 20, || pretty_at(j, i, out, indent, level))
}

fn pretty_at(j: &Jsonb, i: usize, out: &mut JsonOut, indent: &[u8], level: &mut u32) -> usize {
    let Some((n, sz)) = j.payload_size(i) else {
        out.fail(OutError::Malformed);
        return j.blob.len() + 1;
    };
    let pad = |out: &mut JsonOut, level: u32| {
        for _ in 0..level {
            out.raw(indent);
        }
    };
    match j.blob[i] & 0x0f {
        jsonb::ARRAY => {
            let mut k = i + n;
            let end = k + sz;
            out.push(b'[');
            if k < end {
                out.push(b'\n');
                *level += 1;
                if *level >= MAX_DEPTH {
                    out.fail(OutError::TooDeep);
                }
                while !out.has_error() {
                    pad(out, *level);
                    k = to_pretty(j, k, out, indent, level);
                    if k >= end {
                        if k > end {
                            out.fail(OutError::Malformed);
                        }
                        break;
                    }
                    out.raw(b",\n");
                }
                out.push(b'\n');
                *level -= 1;
                pad(out, *level);
            }
            out.push(b']');
            end
        }
        jsonb::OBJECT => {
            let mut k = i + n;
            let end = k + sz;
            out.push(b'{');
            if k < end {
                out.push(b'\n');
                *level += 1;
                if *level >= MAX_DEPTH {
                    out.fail(OutError::TooDeep);
                }
                while !out.has_error() {
                    pad(out, *level);
                    let mut d = *level;
                    k = to_text(j, k, out, &mut d);
                    if k > end {
                        out.fail(OutError::Malformed);
                        break;
                    }
                    out.raw(b": ");
                    k = to_pretty(j, k, out, indent, level);
                    if k >= end {
                        break;
                    }
                    out.raw(b",\n");
                }
                out.push(b'\n');
                *level -= 1;
                pad(out, *level);
            }
            out.push(b'}');
            end
        }
        _ => to_text(j, i, out, &mut 0),
    }
}

/// SQLite's `jsonUnescapeOneChar`: the escape at the start of `z` (which
/// begins with a backslash): its length and the character it stands for
/// ([`INVALID_CHAR`] if bad).
pub fn unescape_one(z: &[u8]) -> (usize, u32) {
    let n = z.len();
    if n < 2 {
        return (n, INVALID_CHAR);
    }
    match z[1] {
        b'u' => {
            if n < 6 {
                return (n, INVALID_CHAR);
            }
            let v = hex4(&z[2..6]);
            if v & 0xfc00 == 0xd800 && n >= 12 && z[6] == b'\\' && z[7] == b'u' {
                let lo = hex4(&z[8..12]);
                if lo & 0xfc00 == 0xdc00 {
                    return (12, ((v & 0x3ff) << 10) + (lo & 0x3ff) + 0x10000);
                }
            }
            (6, v)
        }
        b'b' => (2, 0x08),
        b'f' => (2, 0x0c),
        b'n' => (2, u32::from(b'\n')),
        b'r' => (2, u32::from(b'\r')),
        b't' => (2, u32::from(b'\t')),
        b'v' => (2, 0x0b),
        b'0' => (2, if n > 2 && z[2].is_ascii_digit() { INVALID_CHAR } else { 0 }),
        b'\'' | b'"' | b'/' | b'\\' => (2, u32::from(z[1])),
        b'x' => {
            if n < 4 {
                return (n, INVALID_CHAR);
            }
            (4, u32::from(hex_digit(z[2]) << 4 | hex_digit(z[3])))
        }
        0xe2 | b'\r' | b'\n' => {
            let skip = bytes_to_bypass(z);
            if skip == 0 {
                (n, INVALID_CHAR)
            } else if skip == n {
                (n, 0)
            } else if z[skip] == b'\\' {
                let (len, c) = unescape_one(&z[skip..]);
                (skip + len, c)
            } else {
                let (len, c) = utf8_read_limited(&z[skip..]);
                (skip + len, c)
            }
        }
        _ => (2, INVALID_CHAR),
    }
}

fn hex4(z: &[u8]) -> u32 {
    z.iter().fold(0, |v, &c| (v << 4) | u32::from(hex_digit(c)))
}

/// Bytes of escaped newlines at the start of `z` (SQLite's
/// `jsonBytesToBypass`).
fn bytes_to_bypass(z: &[u8]) -> usize {
    let n = z.len();
    let mut i = 0;
    while i + 1 < n {
        if z[i] != b'\\' {
            return i;
        }
        if z[i + 1] == b'\n' {
            i += 2;
            continue;
        }
        if z[i + 1] == b'\r' {
            i += if i + 2 < n && z[i + 2] == b'\n' { 3 } else { 2 };
            continue;
        }
        if z[i + 1] == 0xe2
            && i + 3 < n
            && z[i + 2] == 0x80
            && (z[i + 3] == 0xa8 || z[i + 3] == 0xa9)
        {
            i += 4;
            continue;
        }
        break;
    }
    i
}

/// One UTF-8 character from at most 4 bytes of `z`, unvalidated
/// (SQLite's `sqlite3Utf8ReadLimited`).
pub fn utf8_read_limited(z: &[u8]) -> (usize, u32) {
    let Some(&first) = z.first() else { return (0, 0) };
    let mut c = u32::from(first);
    let mut i = 1;
    if c >= 0xc0 {
        c = match first {
            0xc0..=0xdf => c & 0x1f,
            0xe0..=0xef => c & 0x0f,
            0xf0..=0xf7 => c & 0x07,
            0xf8..=0xfb => c & 0x03,
            0xfc..=0xfd => c & 0x01,
            _ => 0,
        };
        let n = z.len().min(4);
        while i < n && z[i] & 0xc0 == 0x80 {
            c = (c << 6) + u32::from(z[i] & 0x3f);
            i += 1;
        }
    }
    (i, c)
}

/// The text a JSON string payload stands for (escapes decoded; bad
/// escapes dropped, as SQLite does).
pub fn unescape(z: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(z.len());
    let mut i = 0;
    while i < z.len() {
        let c = z[i];
        if c != b'\\' {
            out.push(c);
            i += 1;
            continue;
        }
        let (len, v) = unescape_one(&z[i..]);
        push_utf8(&mut out, v);
        i += len.max(1);
    }
    out
}

/// Encodes `v` as SQLite does (surrogates and all); nothing for
/// [`INVALID_CHAR`].
fn push_utf8(out: &mut Vec<u8>, v: u32) {
    if v <= 0x7f {
        out.push(v as u8);
    } else if v <= 0x7ff {
        out.push(0xc0 | (v >> 6) as u8);
        out.push(0x80 | (v & 0x3f) as u8);
    } else if v < 0x10000 {
        out.push(0xe0 | (v >> 12) as u8);
        out.push(0x80 | ((v >> 6) & 0x3f) as u8);
        out.push(0x80 | (v & 0x3f) as u8);
    } else if v == INVALID_CHAR {
        // Dropped.
    } else {
        out.push(0xf0 | ((v >> 18) & 0x07) as u8);
        out.push(0x80 | ((v >> 12) & 0x3f) as u8);
        out.push(0x80 | ((v >> 6) & 0x3f) as u8);
        out.push(0x80 | (v & 0x3f) as u8);
    }
}

/// How an array or object element comes back as an SQL value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Container {
    Text,
    Jsonb,
}

/// The SQL value of the element at `i` (SQLite's `jsonReturnFromBlob`):
/// `null` is NULL, `true`/`false` are 1/0, numbers are INTEGER or REAL,
/// strings are their unescaped text, arrays and objects are JSON text or
/// JSONB per `container`.
pub fn element_value(j: &Jsonb, i: usize, container: Container) -> Result<Value> {
    let malformed = || crate::errinput!("malformed JSON");
    let Some((n, sz)) = j.payload_size(i) else { return malformed() };
    let p = j.payload(i, n, sz);
    Ok(match j.blob[i] & 0x0f {
        jsonb::NULL => {
            if sz != 0 {
                return malformed();
            }
            Value::Null
        }
        jsonb::TRUE => {
            if sz != 0 {
                return malformed();
            }
            Value::Integer(1)
        }
        jsonb::FALSE => {
            if sz != 0 {
                return malformed();
            }
            Value::Integer(0)
        }
        jsonb::INT | jsonb::INT5 => {
            if sz == 0 {
                return malformed();
            }
            let neg = p[0] == b'-';
            if neg && sz < 2 {
                return malformed();
            }
            let digits = if neg { &p[1..] } else { p };
            match dec_or_hex_to_i64(digits) {
                (v, 0) => {
                    if v < 0 {
                        // A 16-digit hex with the high bit set is positive
                        // in JSON: too large for an INTEGER.
                        let r = v as u64 as f64;
                        Value::Real(if neg { -r } else { r })
                    } else {
                        Value::Integer(if neg { -v } else { v })
                    }
                }
                (_, 3) if neg => Value::Integer(i64::MIN),
                (_, 1) => return malformed(),
                _ => return to_real(p),
            }
        }
        jsonb::FLOAT | jsonb::FLOAT5 => {
            if sz == 0 {
                return malformed();
            }
            return to_real(p);
        }
        jsonb::TEXT | jsonb::TEXTRAW => super::text_value(p.to_vec()),
        jsonb::TEXTJ | jsonb::TEXT5 => super::text_value(unescape(p)),
        jsonb::ARRAY | jsonb::OBJECT => match container {
            Container::Jsonb => Value::Blob(j.blob[i..i + n + sz].to_vec()),
            Container::Text => {
                let sub = Jsonb::new(j.blob[i..i + n + sz].to_vec());
                let mut out = JsonOut::new();
                to_text(&sub, 0, &mut out, &mut 0);
                super::text_value(out.finish()?)
            }
        },
        _ => return malformed(),
    })
}

fn to_real(p: &[u8]) -> Result<Value> {
    let r = atof(p);
    if !(r.prefix && r.whole) {
        return crate::errinput!("malformed JSON");
    }
    Ok(Value::Real(r.value))
}

/// SQLite's `sqlite3DecOrHexToI64` with its return codes: 0 exact, 1
/// trailing text, 2 too large or malformed, 3 exactly 2^63.
fn dec_or_hex_to_i64(z: &[u8]) -> (i64, u8) {
    let at = |i: usize| z.get(i).copied().unwrap_or(0);
    if at(0) == b'0' && matches!(at(1), b'x' | b'X') {
        let mut i = 2;
        while at(i) == b'0' {
            i += 1;
        }
        let mut u: u64 = 0;
        let mut k = i;
        while at(k).is_ascii_hexdigit() {
            u = u.wrapping_mul(16).wrapping_add(u64::from(hex_digit(at(k))));
            k += 1;
        }
        let v = u as i64;
        if k - i > 16 {
            return (v, 2);
        }
        if k < z.len() {
            return (v, 1);
        }
        return (v, 0);
    }
    let mut n = z.iter().take_while(|c| b"+- \n\t0123456789".contains(c)).count();
    if n < z.len() {
        n += 1;
    }
    let (v, rc) = atoi64(&z[..n]);
    use crate::value::AtoI;
    (
        v,
        match rc {
            AtoI::Exact => 0,
            AtoI::Trailing => 1,
            AtoI::Overflow | AtoI::NoDigits => 2,
            AtoI::TwoPow63 => 3,
        },
    )
}
