//! The INSERT fast path: one pass over the bytes of
//! `INSERT [OR x] INTO name [(cols)] VALUES (lit, …), …` (or `REPLACE
//! INTO`), with no token vector, no AST and no allocation but the output.
//!
//! It accepts only what it fully understands and answers `None` for
//! anything else (expressions, function calls, `DEFAULT`, parameters,
//! `ON CONFLICT`/`RETURNING`/`SELECT` tails, MySQL `#`
//! comments, …); the caller then parses with `sqlparser`. Where it accepts,
//! it must agree exactly with [`parse_insert_slow`](super::parse_insert_slow),
//! so it follows `sqlparser`'s tokenizer where the two could part: a hex
//! integer is `0x…` with a lower-case `x`, `--` comments in MySQL mode need
//! a following space, and a number must be followed by a separator.

use super::insert::{Conflict, InsertValues};
use crate::Value;
use crate::value::literal;

/// Parses a plain-literal INSERT without `sqlparser`; `None` means "not
/// for the fast path" (not necessarily invalid). `backslash_escapes`:
/// strings use MySQL's backslash escapes (a MySQL dump).
pub fn parse_insert_fast(sql: &str, backslash_escapes: bool) -> Option<InsertValues> {
    let mut c = Cursor { src: sql, s: sql.as_bytes(), i: 0, bs: backslash_escapes };
    c.ws()?;
    let mut or_action = None;
    if c.keyword(b"insert") {
        c.ws()?;
        if c.keyword(b"or") {
            c.ws()?;
            let w = c.word()?;
            or_action = Some(match w.to_ascii_lowercase().as_slice() {
                b"rollback" => Conflict::Rollback,
                b"abort" => Conflict::Abort,
                b"fail" => Conflict::Fail,
                b"ignore" => Conflict::Ignore,
                b"replace" => Conflict::Replace,
                _ => return None,
            });
            c.ws()?;
        } else if c.bs && c.keyword(b"ignore") {
            // MySQL's `INSERT IGNORE` (mysqldump --insert-ignore).
            or_action = Some(Conflict::Ignore);
            c.ws()?;
        }
    } else if c.keyword(b"replace") {
        or_action = Some(Conflict::Replace);
        c.ws()?;
    } else {
        return None;
    }
    if !c.keyword(b"into") {
        return None;
    }
    c.ws()?;
    let first = c.name()?;
    c.ws()?;
    let (schema, table) = if c.eat(b'.') {
        c.ws()?;
        let second = c.name()?;
        c.ws()?;
        (Some(first), second)
    } else {
        (None, first)
    };
    let mut columns = None;
    if c.eat(b'(') {
        let mut cols = Vec::new();
        loop {
            c.ws()?;
            cols.push(c.name()?);
            c.ws()?;
            if c.eat(b')') {
                break;
            }
            if !c.eat(b',') {
                return None;
            }
        }
        columns = Some(cols);
        c.ws()?;
    }
    if !c.keyword(b"values") {
        return None;
    }
    let mut rows: Vec<Vec<Value>> = Vec::new();
    let mut width = 0;
    loop {
        c.ws()?;
        if !c.eat(b'(') {
            return None;
        }
        let mut row = Vec::with_capacity(width);
        loop {
            c.ws()?;
            row.push(c.value()?);
            c.ws()?;
            if c.eat(b')') {
                break;
            }
            if !c.eat(b',') {
                return None;
            }
        }
        width = row.len();
        rows.push(row);
        c.ws()?;
        if !c.eat(b',') {
            break;
        }
    }
    c.eat(b';');
    c.ws()?;
    if c.i != c.s.len() {
        return None;
    }
    Some(InsertValues { or_action, schema, table, columns, rows })
}

fn is_word_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b >= 0x80
}

fn is_word_part(b: u8) -> bool {
    is_word_start(b) || b.is_ascii_digit() || b == b'$'
}

/// Bare words that `sqlparser` would not read as a table or column name
/// where this parser expects one; declining them keeps the two in step.
const RESERVED: &[&[u8]] =
    &[b"values", b"select", b"default", b"with", b"as", b"on", b"returning", b"set", b"or"];

struct Cursor<'a> {
    src: &'a str,
    s: &'a [u8],
    i: usize,
    /// MySQL backslash escapes in strings.
    bs: bool,
}

impl<'a> Cursor<'a> {
    fn at(&self, i: usize) -> Option<u8> {
        self.s.get(i).copied()
    }

    fn eat(&mut self, b: u8) -> bool {
        if self.at(self.i) == Some(b) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    /// Skips whitespace and comments; `None` for an unterminated comment
    /// or anything this parser does not follow `sqlparser` on.
    fn ws(&mut self) -> Option<()> {
        loop {
            match self.at(self.i) {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.i += 1,
                Some(b'-') if self.at(self.i + 1) == Some(b'-') => {
                    if self.bs && !matches!(self.at(self.i + 2), Some(b' ' | b'\t' | b'\n') | None)
                    {
                        return None;
                    }
                    self.i = match self.s[self.i..].iter().position(|&b| b == b'\n') {
                        Some(k) => self.i + k + 1,
                        None => self.s.len(),
                    };
                }
                Some(b'/') if self.at(self.i + 1) == Some(b'*') => {
                    let body = &self.s[self.i + 2..];
                    let k = body.windows(2).position(|w| w == b"*/")?;
                    self.i += 2 + k + 2;
                }
                _ => return Some(()),
            }
        }
    }

    /// Consumes `kw` (lower case) if a whole word matches it.
    fn keyword(&mut self, kw: &[u8]) -> bool {
        let end = self.i + kw.len();
        if end <= self.s.len()
            && self.s[self.i..end].eq_ignore_ascii_case(kw)
            && !self.at(end).is_some_and(is_word_part)
        {
            self.i = end;
            true
        } else {
            false
        }
    }

    fn word(&mut self) -> Option<&'a [u8]> {
        let start = self.i;
        if !self.at(start).is_some_and(is_word_start) {
            return None;
        }
        let len =
            self.s[start..].iter().position(|&b| !is_word_part(b)).unwrap_or(self.s.len() - start);
        self.i = start + len;
        Some(&self.s[start..self.i])
    }

    /// A table or column name: bare, `"…"`, `` `…` `` or `[…]` (in MySQL
    /// mode only bare and `` `…` ``: there `"…"` is a string).
    fn name(&mut self) -> Option<String> {
        match self.at(self.i)? {
            b'"' | b'[' if self.bs => None,
            q @ (b'"' | b'`') => {
                let start = self.i + 1;
                let mut k = start;
                loop {
                    k += self.s[k..].iter().position(|&b| b == q)?;
                    if self.at(k + 1) == Some(q) {
                        k += 2;
                    } else {
                        break;
                    }
                }
                self.i = k + 1;
                if k == start {
                    return None;
                }
                Some(literal::identifier(&self.src[start..k], q as char))
            }
            b'[' => {
                let start = self.i + 1;
                let k = start + self.s[start..].iter().position(|&b| b == b']')?;
                self.i = k + 1;
                if k == start {
                    return None;
                }
                Some(self.src[start..k].to_owned())
            }
            _ => {
                let start = self.i;
                let w = self.word()?;
                if RESERVED.iter().any(|r| w.eq_ignore_ascii_case(r)) {
                    return None;
                }
                Some(self.src[start..self.i].to_owned())
            }
        }
    }

    /// One literal.
    fn value(&mut self) -> Option<Value> {
        match self.at(self.i)? {
            b'\'' => {
                self.i += 1;
                self.string().map(|s| Value::Text(s.into()))
            }
            sign @ (b'-' | b'+') => {
                self.i += 1;
                self.ws()?;
                match self.at(self.i)? {
                    b'0'..=b'9' | b'.' => self.number(sign == b'-'),
                    _ => None,
                }
            }
            b'0'..=b'9' | b'.' => self.number(false),
            b'x' | b'X' if self.at(self.i + 1) == Some(b'\'') => {
                let start = self.i + 2;
                let k = start + self.s[start..].iter().position(|&b| b == b'\'')?;
                self.i = k + 1;
                literal::blob(&self.src[start..k])
            }
            _ => {
                let w = self.word()?;
                if w.eq_ignore_ascii_case(b"null") {
                    Some(Value::Null)
                } else if w.eq_ignore_ascii_case(b"true") {
                    Some(Value::Integer(1))
                } else if w.eq_ignore_ascii_case(b"false") {
                    Some(Value::Integer(0))
                } else {
                    None
                }
            }
        }
    }

    /// The rest of a `'…'` string after its opening quote.
    fn string(&mut self) -> Option<String> {
        let start = self.i;
        let mut k = start;
        let mut escaped = false;
        let end = loop {
            let rest = &self.s[k..];
            let found = if self.bs {
                rest.iter().position(|&b| b == b'\'' || b == b'\\')
            } else {
                rest.iter().position(|&b| b == b'\'')
            };
            k += found?;
            if self.s[k] == b'\\' {
                escaped = true;
                k += 2;
                if k > self.s.len() {
                    return None;
                }
            } else if self.at(k + 1) == Some(b'\'') {
                escaped = true;
                k += 2;
            } else {
                break k;
            }
        };
        self.i = end + 1;
        let raw = self.src.get(start..end)?;
        Some(if escaped { literal::string(raw, self.bs) } else { raw.to_owned() })
    }

    /// A number at `self.i` (after any sign): `0x…` or a decimal.
    fn number(&mut self, negative: bool) -> Option<Value> {
        let s = self.s;
        let start = self.i;
        if s[start] == b'0' && self.at(start + 1) == Some(b'x') {
            let digits = start + 2;
            let len =
                s[digits..].iter().position(|b| !b.is_ascii_hexdigit()).unwrap_or(s.len() - digits);
            self.i = digits + len;
            return literal::hex_integer(&self.src[digits..self.i], negative);
        }
        let digits = |from: usize| {
            s[from..].iter().position(|b| !b.is_ascii_digit()).unwrap_or(s.len() - from)
        };
        let int_len = digits(start);
        let mut j = start + int_len;
        let mut mantissa_digits = int_len;
        if self.at(j) == Some(b'.') {
            let frac = digits(j + 1);
            mantissa_digits += frac;
            j += 1 + frac;
        }
        if mantissa_digits == 0 {
            return None;
        }
        if let Some(b'e' | b'E') = self.at(j) {
            let mut k = j + 1;
            if let Some(b'+' | b'-') = self.at(k) {
                k += 1;
            }
            let exp = digits(k.min(s.len()));
            if exp > 0 {
                j = k + exp;
            }
        }
        self.i = j;
        literal::decimal(&self.src[start..j], negative)
    }
}
