//! SQLite's JSONB: the binary form every JSON function works on.
//!
//! Every element is a header and a payload. The low 4 bits of the first
//! header byte are the element type ([`NULL`] … [`OBJECT`]); the high 4
//! bits are the payload size when it is at most 11 (a one-byte header),
//! or say that a 1, 2, 4 or 8 byte big-endian size follows (12 … 15).
//! Numbers and strings keep their JSON text as payload (without quotes),
//! which is why `json()` renders `1.50` and `"\u0041"` as written; arrays
//! and objects hold their elements (objects: label, value, label, …).
//!
//! The layout is observable (`json_each.id` is a byte offset, `jsonb()`
//! returns the bytes), so edits follow SQLite's algorithm exactly: headers
//! of edited containers are resized in place ([`Jsonb::change_payload_size`])
//! and an overwrite that shrinks by 1–8 bytes denormalises the new
//! element's header instead of moving the tail ([`overwrite`]).

/// `null`
pub const NULL: u8 = 0;
/// `true`
pub const TRUE: u8 = 1;
/// `false`
pub const FALSE: u8 = 2;
/// An integer acceptable to JSON and SQL.
pub const INT: u8 = 3;
/// An integer in JSON5 hex notation (`0x1F`).
pub const INT5: u8 = 4;
/// A float acceptable to JSON and SQL.
pub const FLOAT: u8 = 5;
/// A float with JSON5 extensions (`.5`, `5.`).
pub const FLOAT5: u8 = 6;
/// Text with no escapes, acceptable to JSON and SQL.
pub const TEXT: u8 = 7;
/// Text with RFC 8259 escapes.
pub const TEXTJ: u8 = 8;
/// Text with JSON5 escapes.
pub const TEXT5: u8 = 9;
/// SQL text that needs escaping for JSON.
pub const TEXTRAW: u8 = 10;
pub const ARRAY: u8 = 11;
pub const OBJECT: u8 = 12;

/// `json_type()` names, by element type.
pub const TYPE_NAMES: [&str; 16] = [
    "null", "true", "false", "integer", "integer", "real", "real", "text", "text", "text", "text",
    "array", "object", "", "", "",
];

/// Deepest nesting SQLite accepts (`JSON_MAX_DEPTH`).
pub const MAX_DEPTH: u32 = 1000;

/// Characters that need no escaping inside a JSON string (SQLite's
/// `jsonIsOk`): everything but control characters, `"`, `\` and `'`.
pub fn is_ok(c: u8) -> bool {
    c >= 0x20 && c != b'"' && c != b'\\' && c != b'\''
}

/// An edit applied while a path is looked up (SQLite's `eEdit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Edit {
    None,
    /// `json_remove`
    Delete,
    /// `json_replace`
    Replace,
    /// `json_insert`
    Insert,
    /// `json_set`
    Set,
    /// `json_array_insert`
    ArrayInsert,
}

/// A JSONB value being read or edited (SQLite's `JsonParse`, without the
/// text side).
#[derive(Clone, Debug)]
pub struct Jsonb {
    pub blob: Vec<u8>,
    /// Net size change of the edit in progress: while an edit runs, the
    /// headers of enclosing containers still carry their old sizes.
    pub delta: i64,
    pub edit: Edit,
    /// What an edit inserts (one element, JSONB).
    pub ins: Vec<u8>,
    /// Where the label of the element a lookup found starts (0: the
    /// element is not an object member).
    pub label: usize,
    pub depth: u32,
}

impl Jsonb {
    pub fn new(blob: Vec<u8>) -> Jsonb {
        Jsonb { blob, delta: 0, edit: Edit::None, ins: Vec::new(), label: 0, depth: 0 }
    }

    /// The element type at `i`.
    pub fn kind(&self, i: usize) -> u8 {
        self.blob.get(i).map_or(NULL, |b| b & 0x0f)
    }

    /// `(header size, payload size)` of the element at `i`, or `None` if
    /// the header is cut short or the element runs past the end (SQLite's
    /// `jsonbPayloadSize` returning 0).
    pub fn payload_size(&self, i: usize) -> Option<(usize, usize)> {
        let (n, sz) = header(&self.blob, i)?;
        let end = (i + n + sz) as i64;
        let len = self.blob.len() as i64;
        if end > len && end > len - self.delta {
            return None;
        }
        Some((n, sz))
    }

    /// [`Jsonb::payload_size`] with 0 for errors, as SQLite's callers use it.
    pub fn size_or_zero(&self, i: usize) -> (usize, usize) {
        self.payload_size(i).unwrap_or((0, 0))
    }

    /// The payload bytes of the element at `i` (header `n`, size `sz`).
    pub fn payload(&self, i: usize, n: usize, sz: usize) -> &[u8] {
        let start = (i + n).min(self.blob.len());
        let end = (i + n + sz).min(self.blob.len());
        &self.blob[start..end]
    }

    /// Appends a header for an element of type `t` with `sz` payload bytes.
    pub fn append_header(&mut self, t: u8, sz: usize) {
        append_header(&mut self.blob, t, sz);
    }

    /// Appends an element of type `t` with `payload`.
    pub fn append_node(&mut self, t: u8, payload: &[u8]) {
        append_header(&mut self.blob, t, payload.len());
        self.blob.extend_from_slice(payload);
    }

    /// Rewrites the size in the header at `i` to `sz`, growing or
    /// shrinking the header as needed (to the smallest that fits); returns
    /// the change in bytes.
    pub fn change_payload_size(&mut self, i: usize, sz: usize) -> i64 {
        let sz_type = self.blob[i] >> 4;
        let n_extra: usize = match sz_type {
            0..=11 => 0,
            12 => 1,
            13 => 2,
            14 => 4,
            _ => 8,
        };
        let n_needed: usize = if sz <= 11 {
            0
        } else if sz <= 0xff {
            1
        } else if sz <= 0xffff {
            2
        } else {
            4
        };
        let delta = n_needed as i64 - n_extra as i64;
        if delta > 0 {
            let at = i + 1;
            self.blob.splice(at..at, std::iter::repeat_n(0, delta as usize));
        } else if delta < 0 {
            let at = i + 1;
            self.blob.drain(at..at + (-delta) as usize);
        }
        let t = self.blob[i] & 0x0f;
        let a = &mut self.blob[i..];
        match n_needed {
            0 => a[0] = t | ((sz as u8) << 4),
            1 => {
                a[0] = t | 0xc0;
                a[1] = sz as u8;
            }
            2 => {
                a[0] = t | 0xd0;
                a[1..3].copy_from_slice(&(sz as u16).to_be_bytes());
            }
            _ => {
                a[0] = t | 0xe0;
                a[1..5].copy_from_slice(&(sz as u32).to_be_bytes());
            }
        }
        delta
    }

    /// Replaces `ndel` bytes at `idel` with `ins` (SQLite's `jsonBlobEdit`);
    /// `ins` of `Err(n)` makes room for `n` zero bytes.
    pub fn edit_bytes(&mut self, idel: usize, ndel: usize, ins: Result<&[u8], usize>) {
        let nins = match ins {
            Ok(b) => b.len(),
            Err(n) => n,
        };
        let d = nins as i64 - ndel as i64;
        if let Ok(b) = ins
            && (-8..0).contains(&d)
            && overwrite(&mut self.blob[idel..idel + ndel], b, (-d) as usize)
        {
            return;
        }
        match ins {
            Ok(b) => {
                self.blob.splice(idel..idel + ndel, b.iter().copied());
            }
            Err(n) => {
                self.blob.splice(idel..idel + ndel, std::iter::repeat_n(0, n));
            }
        }
        self.delta += d;
    }

    /// Applies the pending size change to the container at `root` (SQLite's
    /// `jsonAfterEditSizeAdjust`).
    pub fn after_edit_size_adjust(&mut self, root: usize) {
        let (_, sz) = header(&self.blob, root).unwrap_or((0, 0));
        let sz = (sz as i64 + self.delta).max(0) as usize;
        self.delta += self.change_payload_size(root, sz);
    }

    /// Number of elements of the array at `root`.
    pub fn array_count(&self, root: usize) -> usize {
        let (mut n, sz) = self.size_or_zero(root);
        let end = root + n + sz;
        let mut i = root + n;
        let mut k = 0;
        while n > 0 && i < end {
            let (hn, hsz) = self.size_or_zero(i);
            n = hn;
            i += hn + hsz;
            k += 1;
        }
        k
    }

    /// SQLite's `jsonbValidityCheck` of the element at `i` ending at `end`:
    /// 0 if valid, else the 1-based offset of the problem.
    pub fn validity_check(&self, i: usize, end: usize, depth: u32) -> usize {
        if depth > MAX_DEPTH {
            return i + 1;
        }
        let Some((n, sz)) = self.payload_size(i) else { return i + 1 };
        if i + n + sz != end {
            return i + 1;
        }
        let z = &self.blob;
        let at = |j: usize| z.get(j).copied().unwrap_or(0);
        let x = z[i] & 0x0f;
        match x {
            NULL | TRUE | FALSE => {
                if n + sz == 1 {
                    0
                } else {
                    i + 1
                }
            }
            INT => {
                if sz < 1 {
                    return i + 1;
                }
                let mut j = i + n;
                if at(j) == b'-' {
                    j += 1;
                    if sz < 2 {
                        return i + 1;
                    }
                }
                let k = i + n + sz;
                while j < k {
                    if !at(j).is_ascii_digit() {
                        return j + 1;
                    }
                    j += 1;
                }
                0
            }
            INT5 => {
                if sz < 3 {
                    return i + 1;
                }
                let mut j = i + n;
                if at(j) == b'-' {
                    if sz < 4 {
                        return i + 1;
                    }
                    j += 1;
                }
                if at(j) != b'0' {
                    return i + 1;
                }
                if at(j + 1) != b'x' && at(j + 1) != b'X' {
                    return j + 2;
                }
                j += 2;
                let k = i + n + sz;
                while j < k {
                    if !at(j).is_ascii_hexdigit() {
                        return j + 1;
                    }
                    j += 1;
                }
                0
            }
            FLOAT | FLOAT5 => {
                let mut seen = 0u8; // 1: '.' seen, 2: 'e' seen
                if sz < 2 {
                    return i + 1;
                }
                let mut j = i + n;
                let k = j + sz;
                if at(j) == b'-' {
                    j += 1;
                    if sz < 3 {
                        return i + 1;
                    }
                }
                if at(j) == b'.' {
                    if x == FLOAT {
                        return j + 1;
                    }
                    if !at(j + 1).is_ascii_digit() {
                        return j + 1;
                    }
                    j += 2;
                    seen = 1;
                } else if at(j) == b'0' && x == FLOAT {
                    if j + 3 > k {
                        return j + 1;
                    }
                    if !matches!(at(j + 1), b'.' | b'e' | b'E') {
                        return j + 1;
                    }
                    j += 1;
                }
                while j < k {
                    let c = at(j);
                    if c.is_ascii_digit() {
                        j += 1;
                        continue;
                    }
                    if c == b'.' {
                        if seen > 0 {
                            return j + 1;
                        }
                        if x == FLOAT && (j == k - 1 || !at(j + 1).is_ascii_digit()) {
                            return j + 1;
                        }
                        seen = 1;
                        j += 1;
                        continue;
                    }
                    if c == b'e' || c == b'E' {
                        if seen == 2 {
                            return j + 1;
                        }
                        if j == k - 1 {
                            return j + 1;
                        }
                        if at(j + 1) == b'+' || at(j + 1) == b'-' {
                            j += 1;
                            if j == k - 1 {
                                return j + 1;
                            }
                        }
                        seen = 2;
                        j += 1;
                        continue;
                    }
                    return j + 1;
                }
                if seen == 0 {
                    return i + 1;
                }
                0
            }
            TEXT => {
                let mut j = i + n;
                let k = j + sz;
                while j < k {
                    if !is_ok(at(j)) && at(j) != b'\'' {
                        return j + 1;
                    }
                    j += 1;
                }
                0
            }
            TEXTJ | TEXT5 => {
                let mut j = i + n;
                let k = j + sz;
                while j < k {
                    let c = at(j);
                    if !is_ok(c) && c != b'\'' {
                        if c == b'"' {
                            if x == TEXTJ {
                                return j + 1;
                            }
                        } else if c <= 0x1f {
                            // Control characters are fine in JSON5 strings.
                            if x == TEXTJ {
                                return j + 1;
                            }
                        } else if c != b'\\' || j + 1 >= k {
                            return j + 1;
                        } else if b"\"\\/bfnrt".contains(&at(j + 1)) {
                            j += 1;
                        } else if at(j + 1) == b'u' {
                            if j + 5 >= k {
                                return j + 1;
                            }
                            if !(2..6).all(|o| at(j + o).is_ascii_hexdigit()) {
                                return j + 1;
                            }
                            j += 1;
                        } else if x != TEXT5 {
                            return j + 1;
                        } else {
                            let (len, ch) = super::render::unescape_one(&z[j..k]);
                            if ch == super::render::INVALID_CHAR {
                                return j + 1;
                            }
                            j += len - 1;
                        }
                    }
                    j += 1;
                }
                0
            }
            TEXTRAW => 0,
            ARRAY => {
                let mut j = i + n;
                let k = j + sz;
                while j < k {
                    let Some((n, sz)) = self.payload_size(j) else { return j + 1 };
                    if j + n + sz > k {
                        return j + 1;
                    }
                    let sub = self.validity_check(j, j + n + sz, depth + 1);
                    if sub != 0 {
                        return sub;
                    }
                    j += n + sz;
                }
                0
            }
            OBJECT => {
                let mut cnt = 0u32;
                let mut j = i + n;
                let k = j + sz;
                while j < k {
                    let Some((n, sz)) = self.payload_size(j) else { return j + 1 };
                    if j + n + sz > k {
                        return j + 1;
                    }
                    if cnt & 1 == 0 {
                        let x = z[j] & 0x0f;
                        if !(TEXT..=TEXTRAW).contains(&x) {
                            return j + 1;
                        }
                    }
                    let sub = self.validity_check(j, j + n + sz, depth + 1);
                    if sub != 0 {
                        return sub;
                    }
                    cnt += 1;
                    j += n + sz;
                }
                if cnt & 1 != 0 {
                    return j + 1;
                }
                0
            }
            _ => i + 1,
        }
    }
}

/// `(header size, payload size)` of the element at `i` if its header lies
/// within `blob` (no check that the payload does).
pub fn header(blob: &[u8], i: usize) -> Option<(usize, usize)> {
    let x = *blob.get(i)? >> 4;
    let need = |k: usize| (i + k < blob.len()).then_some(());
    Some(match x {
        0..=11 => (1, usize::from(x)),
        12 => {
            need(1)?;
            (2, usize::from(blob[i + 1]))
        }
        13 => {
            need(2)?;
            (3, usize::from(u16::from_be_bytes([blob[i + 1], blob[i + 2]])))
        }
        14 => {
            need(4)?;
            let b = [blob[i + 1], blob[i + 2], blob[i + 3], blob[i + 4]];
            (5, u32::from_be_bytes(b) as usize)
        }
        _ => {
            need(8)?;
            if blob[i + 1..i + 5].iter().any(|&b| b != 0) {
                return None;
            }
            let b = [blob[i + 5], blob[i + 6], blob[i + 7], blob[i + 8]];
            (9, u32::from_be_bytes(b) as usize)
        }
    })
}

/// Appends the smallest header for type `t` and `sz` payload bytes.
pub fn append_header(out: &mut Vec<u8>, t: u8, sz: usize) {
    if sz <= 11 {
        out.push(t | ((sz as u8) << 4));
    } else if sz <= 0xff {
        out.push(t | 0xc0);
        out.push(sz as u8);
    } else if sz <= 0xffff {
        out.push(t | 0xd0);
        out.extend_from_slice(&(sz as u16).to_be_bytes());
    } else {
        out.push(t | 0xe0);
        out.extend_from_slice(&(sz as u32).to_be_bytes());
    }
}

/// Writes `ins`, grown by `d` (1–8) bytes through a wider header, over
/// `out` (which is `ins.len() + d` bytes), if such a header exists
/// (SQLite's `jsonBlobOverwrite`): an overwrite then moves no bytes.
fn overwrite(out: &mut [u8], ins: &[u8], d: usize) -> bool {
    // The high nibble of the first byte for a header of 2, 3, 5 or 9 bytes.
    const TYPE: [u8; 8] = [0xc0, 0xd0, 0, 0xe0, 0, 0, 0, 0xf0];
    if ins.is_empty() || ins[0] & 0x0f <= 2 {
        return false; // null, true, false cannot grow
    }
    let (new_hdr, old_hdr) = match ins[0] >> 4 {
        0..=11 => {
            if (1u32 << d) & 0x116 == 0 {
                return false; // d must be 1, 2, 4 or 8
            }
            (d + 1, 1)
        }
        12 => {
            if (1u32 << d) & 0x8a == 0 {
                return false; // d must be 1, 3 or 7
            }
            (d + 2, 2)
        }
        13 => {
            if d != 2 && d != 6 {
                return false;
            }
            (d + 3, 3)
        }
        14 => {
            if d != 4 {
                return false;
            }
            (9, 5)
        }
        _ => return false,
    };
    if ins.len() < old_hdr || out.len() != ins.len() + d {
        return false;
    }
    out[0] = (ins[0] & 0x0f) | TYPE[new_hdr - 2];
    out[new_hdr..].copy_from_slice(&ins[old_hdr..]);
    let mut size = (ins.len() - old_hdr) as u64;
    let mut i = new_hdr;
    loop {
        i -= 1;
        out[i] = (size & 0xff) as u8;
        if i == 1 {
            break;
        }
        size >>= 8;
    }
    true
}

/// True if `blob` looks like JSONB (SQLite's `jsonArgIsJsonb`): a known
/// type whose size is the whole blob; small blobs (which could be JSON
/// text cast to a blob) must pass the full validity check.
pub fn looks_like_jsonb(blob: &[u8]) -> bool {
    let Some(&c) = blob.first() else { return false };
    if c & 0x0f > OBJECT {
        return false;
    }
    let j = Jsonb::new(blob.to_vec());
    let Some((n, sz)) = j.payload_size(0) else { return false };
    if sz + n != blob.len() {
        return false;
    }
    if c & 0x0f <= FALSE && sz != 0 {
        return false;
    }
    sz > 7
        || (c != b'{' && c != b'[' && !c.is_ascii_digit())
        || j.validity_check(0, blob.len(), 1) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers() {
        let mut v = Vec::new();
        append_header(&mut v, TEXT, 5);
        assert_eq!(v, [0x57]);
        v.clear();
        append_header(&mut v, ARRAY, 300);
        assert_eq!(v, [0xdb, 0x01, 0x2c]);
        assert_eq!(header(&v, 0), Some((3, 300)));
        assert_eq!(header(&[0xcb], 0), None);
    }

    #[test]
    fn payload_resize() {
        // An array of payload 3 whose size becomes 20.
        let mut j = Jsonb::new(vec![0x3b, 1, 1, 1]);
        assert_eq!(j.change_payload_size(0, 20), 1);
        assert_eq!(j.blob[..2], [0xcb, 20]);
        assert_eq!(j.change_payload_size(0, 3), -1);
        assert_eq!(j.blob, [0x3b, 1, 1, 1]);
    }

    #[test]
    fn overwrite_keeps_size() {
        // Replacing a 3-byte element with a 1-byte one widens its header.
        let mut out = [0u8; 3];
        assert!(overwrite(&mut out, &[0x13, b'7'], 1));
        assert_eq!(out, [0xc3, 1, b'7']);
        assert!(!overwrite(&mut [0u8; 2], &[0x00], 1));
    }
}
