//! JSON text (RFC 8259 plus the JSON5 extensions SQLite accepts) into
//! JSONB, as SQLite's `jsonTranslateTextToBlob` does it.
//!
//! Accepted beyond RFC 8259 (each marks the parse "non-standard", which
//! `json_valid(x, 1)` rejects): single-quoted strings and JSON5 escapes
//! (`\'`, `\v`, `\0`, `\xHH`, escaped newlines), control characters in
//! strings, unquoted identifier keys, trailing commas, hex integers,
//! leading `+`, `.5` and `5.`, `Infinity`/`inf`/`NaN` (case-insensitive),
//! comments and Unicode whitespace. Numbers and strings are stored as
//! written; `Infinity` becomes `9e999` and `NaN` becomes `null`.
//!
//! The input is read as a C string: the first NUL ends it, like SQLite.

use super::jsonb::{self, Jsonb, MAX_DEPTH};

/// What one step of the parser saw.
enum Step {
    /// An element ended; parsing continues at this index.
    Next(usize),
    /// The end of the input.
    End,
    /// A syntax error (or nesting too deep) at `TextParser::err`.
    Error,
    /// `}`, `]`, `,` or `:` at `TextParser::err`.
    CloseBrace,
    CloseBracket,
    Comma,
    Colon,
}

/// The outcome of parsing a whole text.
pub struct Parsed {
    pub jsonb: Jsonb,
    /// JSON5 features were used.
    pub nonstd: bool,
}

/// A failed parse: the byte offset where the parser gave up.
pub struct ParseError {
    pub at: usize,
}

struct TextParser<'a> {
    z: &'a [u8],
    out: Vec<u8>,
    err: usize,
    depth: u32,
    nonstd: bool,
}

/// Parses JSON text `z` (up to its first NUL) into JSONB.
pub fn parse(z: &[u8]) -> Result<Parsed, ParseError> {
    let z = match z.iter().position(|&c| c == 0) {
        Some(p) => &z[..p],
        None => z,
    };
    let mut p =
        TextParser { z, out: Vec::with_capacity(z.len() + 8), err: 0, depth: 0, nonstd: false };
    let Step::Next(mut i) = p.translate(0) else { return Err(ParseError { at: p.err }) };
    while is_space(p.at(i)) {
        i += 1;
    }
    if p.at(i) != 0 {
        i += whitespace5(&p.z[i..]);
        if p.at(i) != 0 {
            // SQLite reports the last position it recorded, not `i`.
            return Err(ParseError { at: p.err });
        }
        p.nonstd = true;
    }
    Ok(Parsed { jsonb: Jsonb::new(p.out), nonstd: p.nonstd })
}

/// SQLite's `jsonIsspace`: tab, newline, carriage return, space.
pub fn is_space(c: u8) -> bool {
    matches!(c, b'\t' | b'\n' | b'\r' | b' ')
}

fn is_alnum(c: u8) -> bool {
    c.is_ascii_alphanumeric()
}

/// First character of an unquoted JSON5 key: a letter, `$`, `_` or any
/// non-ASCII byte (SQLite's `sqlite3JsonId1`).
fn id_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'$' || c == b'_' || c >= 0x80
}

/// Later characters of an unquoted key (`sqlite3JsonId2`).
fn id_part(c: u8) -> bool {
    id_start(c) || c.is_ascii_digit()
}

fn is_4hex(z: &[u8]) -> bool {
    z.len() >= 4 && z[..4].iter().all(u8::is_ascii_hexdigit)
}

fn is_2hex(z: &[u8]) -> bool {
    z.len() >= 2 && z[..2].iter().all(u8::is_ascii_hexdigit)
}

/// Bytes of JSON5 whitespace (incl. comments and Unicode spaces) at the
/// start of `z` (SQLite's `json5Whitespace`).
pub fn whitespace5(z: &[u8]) -> usize {
    let at = |i: usize| z.get(i).copied().unwrap_or(0);
    let mut n = 0;
    loop {
        match at(n) {
            0x09..=0x0d | 0x20 => n += 1,
            b'/' => {
                if at(n + 1) == b'*' && at(n + 2) != 0 {
                    let mut j = n + 3;
                    loop {
                        if at(j) == b'/' && at(j - 1) == b'*' {
                            break;
                        }
                        if at(j) == 0 {
                            return n;
                        }
                        j += 1;
                    }
                    n = j + 1;
                } else if at(n + 1) == b'/' {
                    let mut j = n + 2;
                    loop {
                        let c = at(j);
                        if c == 0 || c == b'\n' || c == b'\r' {
                            break;
                        }
                        if c == 0xe2 && at(j + 1) == 0x80 && matches!(at(j + 2), 0xa8 | 0xa9) {
                            j += 2;
                            break;
                        }
                        j += 1;
                    }
                    n = j;
                    if at(n) != 0 {
                        n += 1;
                    }
                } else {
                    return n;
                }
            }
            0xc2 if at(n + 1) == 0xa0 => n += 2,
            0xe1 if at(n + 1) == 0x9a && at(n + 2) == 0x80 => n += 3,
            0xe2 => {
                if at(n + 1) == 0x80 {
                    let c = at(n + 2);
                    if c < 0x80 {
                        return n;
                    }
                    if c <= 0x8a || c == 0xa8 || c == 0xa9 || c == 0xaf {
                        n += 3;
                    } else {
                        return n;
                    }
                } else if at(n + 1) == 0x81 && at(n + 2) == 0x9f {
                    n += 3;
                } else {
                    return n;
                }
            }
            0xe3 if at(n + 1) == 0x80 && at(n + 2) == 0x80 => n += 3,
            0xef if at(n + 1) == 0xbb && at(n + 2) == 0xbf => n += 3,
            _ => return n,
        }
    }
}

/// Extra float literals: (lower first char, upper first char, name,
/// is-infinity).
const NAN_INF: [(u8, u8, &str, bool); 5] = [
    (b'i', b'I', "inf", true),
    (b'i', b'I', "infinity", true),
    (b'n', b'N', "nan", false),
    (b'q', b'Q', "qnan", false),
    (b's', b'S', "snan", false),
];

impl TextParser<'_> {
    fn at(&self, i: usize) -> u8 {
        self.z.get(i).copied().unwrap_or(0)
    }

    fn starts_with_nocase(&self, i: usize, s: &str) -> bool {
        self.z.get(i..i + s.len()).is_some_and(|t| t.eq_ignore_ascii_case(s.as_bytes()))
    }

    fn node(&mut self, t: u8, payload_at: usize, len: usize) {
        jsonb::append_header(&mut self.out, t, len);
        self.out.extend_from_slice(&self.z[payload_at..payload_at + len]);
    }

    fn resize(&mut self, i: usize, sz: usize) {
        let mut j = Jsonb::new(std::mem::take(&mut self.out));
        j.change_payload_size(i, sz);
        self.out = j.blob;
    }

    /// One element at `i` (SQLite's `jsonTranslateTextToBlob`).
    fn translate(&mut self, i: usize) -> Step {
        stacker::maybe_grow(64 << 10, 1 << 20, || self.translate_at(i))
    }

    fn translate_at(&mut self, mut i: usize) -> Step {
        loop {
            let c = self.at(i);
            match c {
                b'{' => return self.object(i),
                b'[' => return self.array(i),
                b'\'' => {
                    self.nonstd = true;
                    return self.string(i);
                }
                b'"' => return self.string(i),
                b't' => {
                    if self.z[i..].starts_with(b"true") && !is_alnum(self.at(i + 4)) {
                        self.out.push(jsonb::TRUE);
                        return Step::Next(i + 4);
                    }
                    self.err = i;
                    return Step::Error;
                }
                b'f' => {
                    if self.z[i..].starts_with(b"false") && !is_alnum(self.at(i + 5)) {
                        self.out.push(jsonb::FALSE);
                        return Step::Next(i + 5);
                    }
                    self.err = i;
                    return Step::Error;
                }
                b'+' | b'.' | b'-' | b'0'..=b'9' => return self.number(i),
                b'}' => {
                    self.err = i;
                    return Step::CloseBrace;
                }
                b']' => {
                    self.err = i;
                    return Step::CloseBracket;
                }
                b',' => {
                    self.err = i;
                    return Step::Comma;
                }
                b':' => {
                    self.err = i;
                    return Step::Colon;
                }
                0 => return Step::End,
                0x09 | 0x0a | 0x0d | 0x20 => {
                    i += 1;
                    while is_space(self.at(i)) {
                        i += 1;
                    }
                }
                0x0b | 0x0c | b'/' | 0xc2 | 0xe1 | 0xe2 | 0xe3 | 0xef => {
                    let j = whitespace5(&self.z[i..]);
                    if j > 0 {
                        i += j;
                        self.nonstd = true;
                    } else {
                        self.err = i;
                        return Step::Error;
                    }
                }
                _ => {
                    if c == b'n' && self.z[i..].starts_with(b"null") && !is_alnum(self.at(i + 4)) {
                        self.out.push(jsonb::NULL);
                        return Step::Next(i + 4);
                    }
                    for (c1, c2, name, inf) in NAN_INF {
                        if c != c1 && c != c2 {
                            continue;
                        }
                        if !self.starts_with_nocase(i, name) || is_alnum(self.at(i + name.len())) {
                            continue;
                        }
                        if inf {
                            jsonb::append_header(&mut self.out, jsonb::FLOAT, 5);
                            self.out.extend_from_slice(b"9e999");
                        } else {
                            self.out.push(jsonb::NULL);
                        }
                        self.nonstd = true;
                        return Step::Next(i + name.len());
                    }
                    self.err = i;
                    return Step::Error;
                }
            }
        }
    }

    fn object(&mut self, i: usize) -> Step {
        let this = self.out.len();
        jsonb::append_header(&mut self.out, jsonb::OBJECT, self.z.len() - i);
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.err = i;
            return Step::Error;
        }
        let start = self.out.len();
        let mut j = i + 1;
        loop {
            let label_at = self.out.len();
            let x = self.translate(j);
            let next = match x {
                Step::Next(k) => k,
                Step::CloseBrace => {
                    j = self.err;
                    if self.out.len() != start {
                        self.nonstd = true;
                    }
                    break;
                }
                _ => {
                    j += whitespace5(self.z.get(j..).unwrap_or(&[]));
                    let mut op = jsonb::TEXT;
                    let c = self.at(j);
                    let hex_escape = |p: &Self, k: usize, op: &mut u8| {
                        if p.at(k) == b'u' && is_4hex(p.z.get(k + 1..).unwrap_or(&[])) {
                            *op = jsonb::TEXTJ;
                            true
                        } else {
                            false
                        }
                    };
                    if id_start(c) || (c == b'\\' && hex_escape(self, j + 1, &mut op)) {
                        let mut k = j + 1;
                        loop {
                            let ck = self.at(k);
                            let ws = whitespace5(self.z.get(k..).unwrap_or(&[]));
                            if (id_part(ck) && ws == 0)
                                || (ck == b'\\' && hex_escape(self, k + 1, &mut op))
                            {
                                k += 1;
                            } else {
                                break;
                            }
                        }
                        self.node(op, j, k - j);
                        self.nonstd = true;
                        k
                    } else {
                        if !matches!(x, Step::Error) {
                            self.err = j;
                        }
                        return Step::Error;
                    }
                }
            };
            let t = self.out[label_at] & 0x0f;
            if !(jsonb::TEXT..=jsonb::TEXTRAW).contains(&t) {
                self.err = j;
                return Step::Error;
            }
            j = next;
            if self.at(j) == b':' {
                j += 1;
            } else {
                let mut direct = false;
                if is_space(self.at(j)) {
                    loop {
                        j += 1;
                        if !is_space(self.at(j)) {
                            break;
                        }
                    }
                    if self.at(j) == b':' {
                        j += 1;
                        direct = true;
                    }
                }
                if !direct {
                    match self.translate(j) {
                        Step::Colon => j = self.err + 1,
                        Step::Error => return Step::Error,
                        _ => {
                            self.err = j;
                            return Step::Error;
                        }
                    }
                }
            }
            // The value.
            match self.translate(j) {
                Step::Next(k) => j = k,
                Step::Error => return Step::Error,
                _ => {
                    self.err = j;
                    return Step::Error;
                }
            }
            match self.at(j) {
                b',' => {
                    j += 1;
                    continue;
                }
                b'}' => break,
                _ => {
                    if is_space(self.at(j)) {
                        j += 1;
                        while is_space(self.at(j)) {
                            j += 1;
                        }
                        match self.at(j) {
                            b',' => {
                                j += 1;
                                continue;
                            }
                            b'}' => break,
                            _ => {}
                        }
                    }
                    match self.translate(j) {
                        Step::Comma => {
                            j = self.err + 1;
                            continue;
                        }
                        Step::CloseBrace => {
                            j = self.err;
                            break;
                        }
                        _ => {}
                    }
                }
            }
            self.err = j;
            return Step::Error;
        }
        let sz = self.out.len() - start;
        self.resize(this, sz);
        self.depth -= 1;
        Step::Next(j + 1)
    }

    fn array(&mut self, i: usize) -> Step {
        let this = self.out.len();
        jsonb::append_header(&mut self.out, jsonb::ARRAY, self.z.len() - i);
        let start = self.out.len();
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.err = i;
            return Step::Error;
        }
        let mut j = i + 1;
        loop {
            match self.translate(j) {
                Step::Next(k) => j = k,
                Step::CloseBracket => {
                    j = self.err;
                    if self.out.len() != start {
                        self.nonstd = true;
                    }
                    break;
                }
                Step::Error => return Step::Error,
                _ => {
                    self.err = j;
                    return Step::Error;
                }
            }
            match self.at(j) {
                b',' => {
                    j += 1;
                    continue;
                }
                b']' => break,
                _ => {
                    if is_space(self.at(j)) {
                        j += 1;
                        while is_space(self.at(j)) {
                            j += 1;
                        }
                        match self.at(j) {
                            b',' => {
                                j += 1;
                                continue;
                            }
                            b']' => break,
                            _ => {}
                        }
                    }
                    match self.translate(j) {
                        Step::Comma => {
                            j = self.err + 1;
                            continue;
                        }
                        Step::CloseBracket => {
                            j = self.err;
                            break;
                        }
                        _ => {}
                    }
                }
            }
            self.err = j;
            return Step::Error;
        }
        let sz = self.out.len() - start;
        self.resize(this, sz);
        self.depth -= 1;
        Step::Next(j + 1)
    }

    fn string(&mut self, i: usize) -> Step {
        let delim = self.at(i);
        let mut op = jsonb::TEXT;
        let mut j = i + 1;
        loop {
            let c = self.at(j);
            if jsonb::is_ok(c) {
                j += 1;
                continue;
            }
            if c == delim {
                break;
            } else if c == b'\\' {
                j += 1;
                let c = self.at(j);
                let rest = self.z.get(j + 1..).unwrap_or(&[]);
                if matches!(c, b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't')
                    || (c == b'u' && is_4hex(rest))
                {
                    if op == jsonb::TEXT {
                        op = jsonb::TEXTJ;
                    }
                } else if c == b'\''
                    || c == b'v'
                    || c == b'\n'
                    || (c == b'0' && !self.at(j + 1).is_ascii_digit())
                    || (c == 0xe2
                        && self.at(j + 1) == 0x80
                        && matches!(self.at(j + 2), 0xa8 | 0xa9))
                    || (c == b'x' && is_2hex(rest))
                {
                    op = jsonb::TEXT5;
                    self.nonstd = true;
                } else if c == b'\r' {
                    if self.at(j + 1) == b'\n' {
                        j += 1;
                    }
                    op = jsonb::TEXT5;
                    self.nonstd = true;
                } else {
                    self.err = j;
                    return Step::Error;
                }
            } else if c <= 0x1f {
                if c == 0 {
                    self.err = j;
                    return Step::Error;
                }
                // Control characters are JSON5, not RFC 8259.
                op = jsonb::TEXT5;
                self.nonstd = true;
            } else if c == b'"' {
                // A double quote inside a single-quoted string.
                op = jsonb::TEXT5;
            }
            j += 1;
        }
        self.node(op, i + 1, j - 1 - i);
        Step::Next(j + 1)
    }

    fn number(&mut self, mut i: usize) -> Step {
        // t: bit 0x01 JSON5, bit 0x02 float.
        let mut t: u8 = 0;
        let c = self.at(i);
        let mut seen_e = false;
        let j;
        'finish: {
            if c == b'.' {
                if !self.at(i + 1).is_ascii_digit() {
                    self.err = i;
                    return Step::Error;
                }
                self.nonstd = true;
                t = 0x03;
            } else {
                if c == b'+' {
                    self.nonstd = true;
                }
                if c == b'0' {
                    if matches!(self.at(i + 1), b'x' | b'X') && self.at(i + 2).is_ascii_hexdigit() {
                        self.nonstd = true;
                        t = 0x01;
                        let mut k = i + 3;
                        while self.at(k).is_ascii_hexdigit() {
                            k += 1;
                        }
                        j = k;
                        break 'finish;
                    } else if self.at(i + 1).is_ascii_digit() {
                        self.err = i + 1;
                        return Step::Error;
                    }
                } else if c == b'-' || c == b'+' {
                    if !self.at(i + 1).is_ascii_digit() {
                        // "+Infinity", "-inf" in any case.
                        if matches!(self.at(i + 1), b'I' | b'i')
                            && self.starts_with_nocase(i + 1, "inf")
                        {
                            self.nonstd = true;
                            if c == b'-' {
                                jsonb::append_header(&mut self.out, jsonb::FLOAT, 6);
                                self.out.extend_from_slice(b"-9e999");
                            } else {
                                jsonb::append_header(&mut self.out, jsonb::FLOAT, 5);
                                self.out.extend_from_slice(b"9e999");
                            }
                            let long = self.starts_with_nocase(i + 4, "inity");
                            return Step::Next(i + if long { 9 } else { 4 });
                        }
                        if self.at(i + 1) == b'.' {
                            self.nonstd = true;
                            t |= 0x01;
                        } else {
                            self.err = i;
                            return Step::Error;
                        }
                    } else if self.at(i + 1) == b'0' {
                        if self.at(i + 2).is_ascii_digit() {
                            self.err = i + 1;
                            return Step::Error;
                        } else if matches!(self.at(i + 2), b'x' | b'X')
                            && self.at(i + 3).is_ascii_hexdigit()
                        {
                            self.nonstd = true;
                            t |= 0x01;
                            let mut k = i + 4;
                            while self.at(k).is_ascii_hexdigit() {
                                k += 1;
                            }
                            j = k;
                            break 'finish;
                        }
                    }
                }
            }
            // parse_number_2
            let mut k = i + 1;
            loop {
                let c = self.at(k);
                if c.is_ascii_digit() {
                    k += 1;
                    continue;
                }
                if c == b'.' {
                    if t & 0x02 != 0 {
                        self.err = k;
                        return Step::Error;
                    }
                    t |= 0x02;
                    k += 1;
                    continue;
                }
                if c == b'e' || c == b'E' {
                    if self.at(k - 1) < b'0' {
                        if self.at(k - 1) == b'.' && k >= i + 2 && self.at(k - 2).is_ascii_digit() {
                            self.nonstd = true;
                            t |= 0x01;
                        } else {
                            self.err = k;
                            return Step::Error;
                        }
                    }
                    if seen_e {
                        self.err = k;
                        return Step::Error;
                    }
                    t |= 0x02;
                    seen_e = true;
                    let mut c = self.at(k + 1);
                    if c == b'+' || c == b'-' {
                        k += 1;
                        c = self.at(k + 1);
                    }
                    if !c.is_ascii_digit() {
                        self.err = k;
                        return Step::Error;
                    }
                    k += 1;
                    continue;
                }
                break;
            }
            if self.at(k - 1) < b'0' {
                if self.at(k - 1) == b'.' && k >= i + 2 && self.at(k - 2).is_ascii_digit() {
                    self.nonstd = true;
                    t |= 0x01;
                } else {
                    self.err = k;
                    return Step::Error;
                }
            }
            j = k;
        }
        if self.at(i) == b'+' {
            i += 1;
        }
        self.node(jsonb::INT + t, i, j - i);
        Step::Next(j)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blob(s: &str) -> Vec<u8> {
        parse(s.as_bytes()).ok().expect("valid").jsonb.blob
    }

    #[test]
    fn scalars() {
        assert_eq!(blob("1"), [0x13, b'1']);
        assert_eq!(blob(" -0.5 "), [0x45, b'-', b'0', b'.', b'5']);
        assert_eq!(blob("\"ab\""), [0x27, b'a', b'b']);
        assert_eq!(blob("[1,2]"), [0x4b, 0x13, b'1', 0x13, b'2']);
        assert_eq!(blob("{\"a\":null}"), [0x3c, 0x17, b'a', 0x00]);
        assert_eq!(blob("+1"), [0x13, b'1']);
        assert_eq!(blob("0x1F"), [0x44, b'0', b'x', b'1', b'F']);
    }

    #[test]
    fn errors() {
        for bad in ["", "[", "[1,,2]", "01", "{1:2}", "tru", "\"a", "1 2", "[1]]"] {
            assert!(parse(bad.as_bytes()).is_err(), "{bad}");
        }
        assert!(parse(b"[1,]").is_ok_and(|p| p.nonstd));
        assert!(parse(b"{a:1}").is_ok_and(|p| p.nonstd));
    }
}
