//! The dump lexer: bytes in, tokens out, for MySQL/MariaDB and
//! PostgreSQL dumps, streaming over a window of the input (never the
//! whole file).
//!
//! Dialect rules:
//! - MySQL: `#` and `-- ` line comments; `/* … */` comments, except the
//!   executable `/*!NNNNN … */` and `/*M!NNNNN … */`, whose contents are
//!   lexed as if they were not commented (a MariaDB client command inside
//!   one, like the sandbox line `/*M!999999\- … */`, is a [`Tok::Meta`]);
//!   `'…'` and `"…"` strings with backslash escapes and doubled quotes;
//!   `` `…` `` identifiers; `X'…'`, `0x…`, `b'…'` literals; statements end
//!   at the current `DELIMITER` (a client command, itself a `Meta`).
//! - PostgreSQL: `--` and nested `/* */` comments; `'…'` strings with
//!   doubled quotes only, `E'…'` with backslash escapes, `$tag$…$tag$`;
//!   `"…"` identifiers; a `\command` line at a statement's start is a psql
//!   meta-command ([`Tok::Meta`]); COPY data lines are read raw with
//!   [`Lexer::copy_line`].
//!
//! Every token carries its 1-based line and byte offsets.

use std::io::Read;

use crate::Result;
use crate::error::malformed;

use super::Dialect;

/// The longest token (a string literal) accepted.
pub const MAX_TOKEN: usize = 64 << 20;

/// How a string literal was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrKind {
    /// `'…'` (escapes already applied).
    Plain,
    /// `X'…'` or `0x…`: the bytes are the decoded hex.
    Hex,
    /// `b'0101'` or `0b0101`: the bytes are the digits.
    Bits,
    /// `$tag$…$tag$`.
    Dollar,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// An unquoted word (keyword or identifier), as written.
    Word(String),
    /// A quoted identifier, unquoted.
    Ident(String),
    /// A string literal's bytes.
    Str(Vec<u8>, StrKind),
    /// A number as written (no sign).
    Num(String),
    /// Punctuation or an operator.
    Sym(String),
    /// A client command line (psql `\…`, MySQL `DELIMITER`, MariaDB's
    /// sandbox comment): its text.
    Meta(String),
    /// The end of a statement (`;` or the MySQL delimiter).
    End,
}

/// A token and where it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub line: u64,
    pub start: u64,
    pub end: u64,
}

impl Token {
    /// True for an unquoted word equal to `w` (ASCII case-insensitive).
    pub fn is(&self, w: &str) -> bool {
        matches!(&self.tok, Tok::Word(s) if s.eq_ignore_ascii_case(w))
    }

    pub fn is_sym(&self, s: &str) -> bool {
        matches!(&self.tok, Tok::Sym(x) if x == s)
    }

    /// A word or quoted identifier's name.
    pub fn name(&self) -> Option<&str> {
        match &self.tok {
            Tok::Word(s) | Tok::Ident(s) => Some(s),
            _ => None,
        }
    }
}

/// The streaming lexer.
pub struct Lexer<R> {
    src: R,
    dialect: Dialect,
    buf: Vec<u8>,
    pos: usize,
    eof: bool,
    /// Offset of `buf[0]` in the input.
    base: u64,
    line: u64,
    /// MySQL: the statement delimiter.
    delimiter: Vec<u8>,
    /// MySQL: executable comments we are inside of.
    exec_depth: u32,
    /// The next token starts a statement (for meta-commands).
    at_statement_start: bool,
}

const CHUNK: usize = 256 * 1024;

impl<R: Read> Lexer<R> {
    pub fn new(src: R, dialect: Dialect) -> Lexer<R> {
        Lexer {
            src,
            dialect,
            buf: Vec::with_capacity(CHUNK),
            pos: 0,
            eof: false,
            base: 0,
            line: 1,
            delimiter: b";".to_vec(),
            exec_depth: 0,
            at_statement_start: true,
        }
    }

    /// The input offset of the next unread byte.
    pub fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// The line of the next unread byte.
    pub fn line(&self) -> u64 {
        self.line
    }

    /// Makes byte `pos + i` available if the input has it.
    fn fill(&mut self, i: usize) -> Result<bool> {
        while self.pos + i >= self.buf.len() {
            if self.eof {
                return Ok(false);
            }
            if self.pos > CHUNK && self.pos * 2 > self.buf.len() {
                self.buf.drain(..self.pos);
                self.base += self.pos as u64;
                self.pos = 0;
            }
            let len = self.buf.len();
            self.buf.resize(len + CHUNK, 0);
            let n = loop {
                match self.src.read(&mut self.buf[len..]) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => {
                        self.buf.truncate(len);
                        return Err(e.into());
                    }
                }
            };
            self.buf.truncate(len + n);
            if n == 0 {
                self.eof = true;
            }
        }
        Ok(true)
    }

    #[inline]
    fn peek(&mut self, i: usize) -> Result<Option<u8>> {
        if self.pos + i < self.buf.len() {
            return Ok(Some(self.buf[self.pos + i]));
        }
        Ok(if self.fill(i)? { Some(self.buf[self.pos + i]) } else { None })
    }

    /// Consumes `n` bytes, counting lines.
    fn bump(&mut self, n: usize) {
        let end = self.pos + n;
        self.line += self.buf[self.pos..end].iter().filter(|&&b| b == b'\n').count() as u64;
        self.pos = end;
    }

    fn starts_with(&mut self, s: &[u8]) -> Result<bool> {
        for (i, &b) in s.iter().enumerate() {
            if self.peek(i)? != Some(b) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Skips whitespace and comments; false at the end of the input.
    fn skip_trivia(&mut self) -> Result<bool> {
        loop {
            let Some(c) = self.peek(0)? else { return Ok(false) };
            match c {
                b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' => self.bump(1),
                b'-' if self.peek(1)? == Some(b'-') => {
                    if self.dialect == Dialect::Mysql
                        && !matches!(self.peek(2)?, None | Some(b' ' | b'\t' | b'\n' | b'\r'))
                    {
                        return Ok(true);
                    }
                    self.skip_line()?;
                }
                b'#' if self.dialect == Dialect::Mysql => self.skip_line()?,
                b'/' if self.peek(1)? == Some(b'*') => {
                    let exec = self.dialect == Dialect::Mysql
                        && (self.peek(2)? == Some(b'!')
                            || (self.peek(2)? == Some(b'M') && self.peek(3)? == Some(b'!')));
                    if exec {
                        return Ok(true);
                    }
                    self.skip_block_comment()?;
                }
                b'*' if self.exec_depth > 0 && self.peek(1)? == Some(b'/') => {
                    self.exec_depth -= 1;
                    self.bump(2);
                }
                _ => return Ok(true),
            }
        }
    }

    fn skip_line(&mut self) -> Result<()> {
        let mut i = 0;
        while let Some(c) = self.peek(i)? {
            i += 1;
            if c == b'\n' {
                break;
            }
            if i > (1 << 20) {
                self.bump(i);
                i = 0;
            }
        }
        self.bump(i);
        Ok(())
    }

    fn skip_block_comment(&mut self) -> Result<()> {
        let line = self.line;
        let mut depth = 0u32;
        let mut i = 0;
        loop {
            let Some(c) = self.peek(i)? else {
                return Err(malformed!(line, "a /* comment is never closed"));
            };
            if c == b'/' && self.peek(i + 1)? == Some(b'*') {
                depth += 1;
                i += 2;
                // MySQL comments do not nest.
                if self.dialect == Dialect::Mysql && depth > 1 {
                    depth -= 1;
                }
                continue;
            }
            if c == b'*' && self.peek(i + 1)? == Some(b'/') {
                depth -= 1;
                i += 2;
                if depth == 0 {
                    break;
                }
                continue;
            }
            i += 1;
            if i > (1 << 20) {
                self.bump(i);
                i = 0;
            }
        }
        self.bump(i);
        Ok(())
    }

    /// The next token, `None` at the end of the input.
    pub fn next_token(&mut self) -> Result<Option<Token>> {
        loop {
            if !self.skip_trivia()? {
                if self.exec_depth > 0 {
                    return Err(malformed!(self.line, "an executable /*! comment is never closed"));
                }
                return Ok(None);
            }
            let line = self.line;
            let start = self.offset();
            let at_start = self.at_statement_start;
            let tok = self.lex_one(at_start)?;
            let Some(tok) = tok else { continue };
            self.at_statement_start = matches!(tok, Tok::End | Tok::Meta(_));
            return Ok(Some(Token { tok, line, start, end: self.offset() }));
        }
    }

    /// One token at the current position (`None`: it was trivia after all,
    /// e.g. the opener of an executable comment).
    fn lex_one(&mut self, at_start: bool) -> Result<Option<Tok>> {
        let c = self.peek(0)?.expect("skip_trivia saw a byte");
        let d = self.dialect;
        // Statement ends.
        if d == Dialect::Mysql {
            if c == self.delimiter[0] {
                let delim = std::mem::take(&mut self.delimiter);
                let matched = self.starts_with(&delim);
                self.delimiter = delim;
                if matched? {
                    self.bump(self.delimiter.len());
                    return Ok(Some(Tok::End));
                }
            }
        } else if c == b';' {
            self.bump(1);
            return Ok(Some(Tok::End));
        }
        // Executable comments (MySQL).
        if d == Dialect::Mysql && c == b'/' && self.peek(1)? == Some(b'*') {
            let mut i = if self.peek(2)? == Some(b'M') { 4 } else { 3 };
            while matches!(self.peek(i)?, Some(b'0'..=b'9')) {
                i += 1;
            }
            while matches!(self.peek(i)?, Some(b' ' | b'\t')) {
                i += 1;
            }
            if self.peek(i)? == Some(b'\\') {
                // A client command inside: the whole comment is one Meta.
                let line = self.line;
                let mut j = i;
                loop {
                    match self.peek(j)? {
                        None => return Err(malformed!(line, "a /*! comment is never closed")),
                        Some(b'*') if self.peek(j + 1)? == Some(b'/') => break,
                        Some(_) => j += 1,
                    }
                }
                let text = String::from_utf8_lossy(&self.buf[self.pos + i..self.pos + j])
                    .trim()
                    .to_string();
                self.bump(j + 2);
                return Ok(Some(Tok::Meta(text)));
            }
            self.bump(i);
            self.exec_depth += 1;
            return Ok(None);
        }
        // Client commands at a statement's start.
        if at_start {
            if d == Dialect::Postgres && c == b'\\' {
                let text = self.take_line()?;
                return Ok(Some(Tok::Meta(text)));
            }
            if d == Dialect::Mysql && (c == b'd' || c == b'D') && self.word_is(b"delimiter")? {
                let text = self.take_line()?;
                let new = text["delimiter".len()..].trim();
                if new.is_empty() {
                    return Err(malformed!(self.line - 1, "DELIMITER without a delimiter"));
                }
                self.delimiter = new.as_bytes().to_vec();
                return Ok(Some(Tok::Meta(text)));
            }
        }
        match c {
            b'\'' => {
                self.string(b'\'', d == Dialect::Mysql).map(|b| Some(Tok::Str(b, StrKind::Plain)))
            }
            b'"' if d == Dialect::Mysql => {
                self.string(b'"', true).map(|b| Some(Tok::Str(b, StrKind::Plain)))
            }
            b'"' => self.quoted_ident(b'"').map(Some),
            b'`' if d == Dialect::Mysql => self.quoted_ident(b'`').map(Some),
            b'$' if d == Dialect::Postgres => self.dollar().map(Some),
            b'0'..=b'9' => self.number().map(Some),
            b'.' if matches!(self.peek(1)?, Some(b'0'..=b'9')) => self.number().map(Some),
            c if c == b'_' || c.is_ascii_alphabetic() || c >= 0x80 => {
                // Prefixed strings: X'..', B'..', N'..', E'..'.
                if self.peek(1)? == Some(b'\'') {
                    match c {
                        b'x' | b'X' => {
                            self.bump(1);
                            let digits = self.string(b'\'', false)?;
                            return Ok(Some(Tok::Str(hex(&digits, self.line)?, StrKind::Hex)));
                        }
                        b'b' | b'B' => {
                            self.bump(1);
                            let digits = self.string(b'\'', false)?;
                            return Ok(Some(Tok::Str(digits, StrKind::Bits)));
                        }
                        b'n' | b'N' => {
                            self.bump(1);
                            let s = self.string(b'\'', d == Dialect::Mysql)?;
                            return Ok(Some(Tok::Str(s, StrKind::Plain)));
                        }
                        b'e' | b'E' if d == Dialect::Postgres => {
                            self.bump(1);
                            let s = self.string(b'\'', true)?;
                            return Ok(Some(Tok::Str(s, StrKind::Plain)));
                        }
                        _ => {}
                    }
                }
                Ok(Some(Tok::Word(self.word()?)))
            }
            _ => self.symbol().map(Some),
        }
    }

    fn word_is(&mut self, w: &[u8]) -> Result<bool> {
        for (i, &b) in w.iter().enumerate() {
            match self.peek(i)? {
                Some(c) if c.eq_ignore_ascii_case(&b) => {}
                _ => return Ok(false),
            }
        }
        Ok(matches!(self.peek(w.len())?, Some(b' ' | b'\t')))
    }

    /// The rest of the current line (without its terminator), consumed.
    fn take_line(&mut self) -> Result<String> {
        let mut i = 0;
        while let Some(c) = self.peek(i)? {
            if c == b'\n' {
                break;
            }
            i += 1;
        }
        let text =
            String::from_utf8_lossy(&self.buf[self.pos..self.pos + i]).trim_end().to_string();
        let with_nl = if self.peek(i)? == Some(b'\n') { i + 1 } else { i };
        self.bump(with_nl);
        Ok(text)
    }

    fn word(&mut self) -> Result<String> {
        let mut i = 0;
        while let Some(c) = self.peek(i)? {
            if c == b'_' || c == b'$' || c.is_ascii_alphanumeric() || c >= 0x80 {
                i += 1;
            } else {
                break;
            }
        }
        let s = String::from_utf8_lossy(&self.buf[self.pos..self.pos + i]).into_owned();
        self.bump(i);
        Ok(s)
    }

    fn number(&mut self) -> Result<Tok> {
        // MySQL hex and bit literals: 0x1F, 0b101.
        if self.dialect == Dialect::Mysql && self.peek(0)? == Some(b'0') {
            if matches!(self.peek(1)?, Some(b'x' | b'X'))
                && matches!(self.peek(2)?, Some(c) if c.is_ascii_hexdigit())
            {
                let mut i = 2;
                while matches!(self.peek(i)?, Some(c) if c.is_ascii_hexdigit()) {
                    i += 1;
                }
                let digits = self.buf[self.pos + 2..self.pos + i].to_vec();
                self.bump(i);
                return Ok(Tok::Str(hex(&digits, self.line)?, StrKind::Hex));
            }
            if matches!(self.peek(1)?, Some(b'b' | b'B'))
                && matches!(self.peek(2)?, Some(b'0' | b'1'))
            {
                let mut i = 2;
                while matches!(self.peek(i)?, Some(b'0' | b'1')) {
                    i += 1;
                }
                let digits = self.buf[self.pos + 2..self.pos + i].to_vec();
                self.bump(i);
                return Ok(Tok::Str(digits, StrKind::Bits));
            }
        }
        let mut i = 0;
        while matches!(self.peek(i)?, Some(b'0'..=b'9')) {
            i += 1;
        }
        if self.peek(i)? == Some(b'.') && self.peek(i + 1)? != Some(b'.') {
            i += 1;
            while matches!(self.peek(i)?, Some(b'0'..=b'9')) {
                i += 1;
            }
        }
        if matches!(self.peek(i)?, Some(b'e' | b'E')) {
            let mut j = i + 1;
            if matches!(self.peek(j)?, Some(b'+' | b'-')) {
                j += 1;
            }
            if matches!(self.peek(j)?, Some(b'0'..=b'9')) {
                while matches!(self.peek(j)?, Some(b'0'..=b'9')) {
                    j += 1;
                }
                i = j;
            }
        }
        let s = String::from_utf8_lossy(&self.buf[self.pos..self.pos + i]).into_owned();
        self.bump(i);
        Ok(Tok::Num(s))
    }

    fn symbol(&mut self) -> Result<Tok> {
        let c = self.peek(0)?.unwrap_or(0);
        let two = [c, self.peek(1)?.unwrap_or(0)];
        let pairs: [&[u8; 2]; 10] =
            [b"::", b"<=", b">=", b"<>", b"!=", b"||", b"->", b":=", b"=>", b"~~"];
        if pairs.iter().any(|p| **p == two) {
            if two == *b"->" && self.peek(2)? == Some(b'>') {
                self.bump(3);
                return Ok(Tok::Sym("->>".into()));
            }
            self.bump(2);
            return Ok(Tok::Sym(String::from_utf8_lossy(&two).into_owned()));
        }
        // One character (a UTF-8 sequence stays whole).
        let len = match c {
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            _ => 1,
        };
        let mut bytes = Vec::new();
        for i in 0..len {
            if let Some(b) = self.peek(i)? {
                bytes.push(b);
            }
        }
        self.bump(bytes.len().max(1));
        Ok(Tok::Sym(String::from_utf8_lossy(&bytes).into_owned()))
    }

    /// A quoted string: `q…q`, doubled `q` is one, and with `backslash`
    /// escapes (MySQL's, or PostgreSQL's `E''`).
    fn string(&mut self, q: u8, backslash: bool) -> Result<Vec<u8>> {
        let line = self.line;
        let mut out = Vec::new();
        let mut i = 1;
        loop {
            let Some(c) = self.peek(i)? else {
                return Err(malformed!(line, "a string literal is never closed"));
            };
            if c == q {
                if self.peek(i + 1)? == Some(q) {
                    out.push(q);
                    i += 2;
                    continue;
                }
                i += 1;
                break;
            }
            if c == b'\\' && backslash {
                let Some(e) = self.peek(i + 1)? else {
                    return Err(malformed!(line, "a string literal is never closed"));
                };
                i += 2;
                if self.dialect == Dialect::Mysql {
                    match e {
                        b'0' => out.push(0),
                        b'b' => out.push(8),
                        b'n' => out.push(b'\n'),
                        b'r' => out.push(b'\r'),
                        b't' => out.push(b'\t'),
                        b'Z' => out.push(0x1A),
                        b'%' | b'_' => out.extend_from_slice(&[b'\\', e]),
                        other => out.push(other),
                    }
                } else {
                    i = self.pg_escape(e, i, &mut out, line)?;
                }
            } else {
                out.push(c);
                i += 1;
            }
            if out.len() > MAX_TOKEN {
                return Err(malformed!(
                    line,
                    "a string literal longer than {} MiB",
                    MAX_TOKEN >> 20
                ));
            }
            // Keep the window small: consume what is scanned.
            if i > CHUNK {
                self.bump(i);
                i = 0;
            }
        }
        self.bump(i);
        Ok(out)
    }

    /// PostgreSQL `E''` escapes; `e` is the byte after the backslash, `i`
    /// the index after it. Returns the index after the escape.
    fn pg_escape(&mut self, e: u8, mut i: usize, out: &mut Vec<u8>, line: u64) -> Result<usize> {
        match e {
            b'b' => out.push(8),
            b'f' => out.push(0x0C),
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            b'0'..=b'7' => {
                let mut v = u32::from(e - b'0');
                for _ in 0..2 {
                    match self.peek(i)? {
                        Some(d @ b'0'..=b'7') => {
                            v = v * 8 + u32::from(d - b'0');
                            i += 1;
                        }
                        _ => break,
                    }
                }
                out.push((v & 0xFF) as u8);
            }
            b'x' => {
                let mut v = 0u32;
                let mut n = 0;
                while n < 2 {
                    match self.peek(i)? {
                        Some(d) if d.is_ascii_hexdigit() => {
                            v = v * 16 + (d as char).to_digit(16).unwrap_or(0);
                            i += 1;
                            n += 1;
                        }
                        _ => break,
                    }
                }
                out.push(v as u8);
            }
            b'u' | b'U' => {
                let len = if e == b'u' { 4 } else { 8 };
                let mut v = 0u32;
                for _ in 0..len {
                    match self.peek(i)? {
                        Some(d) if d.is_ascii_hexdigit() => {
                            v = v * 16 + (d as char).to_digit(16).unwrap_or(0);
                            i += 1;
                        }
                        _ => return Err(malformed!(line, "a bad \\u escape in an E'' string")),
                    }
                }
                let ch = char::from_u32(v)
                    .ok_or_else(|| malformed!(line, "\\u escape {v:X} is not a character"))?;
                let mut b = [0u8; 4];
                out.extend_from_slice(ch.encode_utf8(&mut b).as_bytes());
            }
            other => out.push(other),
        }
        Ok(i)
    }

    fn quoted_ident(&mut self, q: u8) -> Result<Tok> {
        let bytes = self.string(q, false)?;
        Ok(Tok::Ident(String::from_utf8_lossy(&bytes).into_owned()))
    }

    /// `$tag$ … $tag$`, or `$1` (a parameter, kept as a symbol).
    fn dollar(&mut self) -> Result<Tok> {
        let line = self.line;
        let mut i = 1;
        if matches!(self.peek(1)?, Some(b'0'..=b'9')) {
            while matches!(self.peek(i)?, Some(b'0'..=b'9')) {
                i += 1;
            }
            let s = String::from_utf8_lossy(&self.buf[self.pos..self.pos + i]).into_owned();
            self.bump(i);
            return Ok(Tok::Sym(s));
        }
        while let Some(c) = self.peek(i)? {
            if c == b'$' {
                break;
            }
            if !(c == b'_' || c.is_ascii_alphanumeric() || c >= 0x80) {
                self.bump(1);
                return Ok(Tok::Sym("$".into()));
            }
            i += 1;
        }
        if self.peek(i)? != Some(b'$') {
            self.bump(1);
            return Ok(Tok::Sym("$".into()));
        }
        let tag = self.buf[self.pos..self.pos + i + 1].to_vec();
        self.bump(i + 1);
        let mut out = Vec::new();
        loop {
            if self.peek(0)?.is_none() {
                return Err(malformed!(line, "a $$-quoted string is never closed"));
            }
            if self.starts_with(&tag)? {
                self.bump(tag.len());
                return Ok(Tok::Str(out, StrKind::Dollar));
            }
            out.push(self.buf[self.pos]);
            self.bump(1);
            if out.len() > MAX_TOKEN {
                return Err(malformed!(line, "a $$ string longer than {} MiB", MAX_TOKEN >> 20));
            }
        }
    }

    /// The next raw line of COPY data, without its line end; `None` at
    /// the `\.` line. The end of the input before `\.` is an error (a
    /// truncated dump must not load half a table silently).
    pub fn copy_line(&mut self, out: &mut Vec<u8>) -> Result<Option<u64>> {
        out.clear();
        self.next_copy_line(Some(out))
    }

    /// [`Lexer::copy_line`], handing the text to `out` unless `None` (the
    /// pre-scan only skips). The line end is searched in the buffered
    /// bytes a chunk at a time, not byte by byte: COPY data is most of a
    /// pg_dump.
    fn next_copy_line(&mut self, out: Option<&mut Vec<u8>>) -> Result<Option<u64>> {
        let line = self.line;
        // Bytes after `pos` known to hold no line end.
        let mut scanned = 0;
        let (len, newline) = loop {
            let from = self.pos + scanned;
            if let Some(p) = self.buf[from..].iter().position(|&b| b == b'\n') {
                break (scanned + p, true);
            }
            scanned = self.buf.len() - self.pos;
            if scanned > MAX_TOKEN {
                return Err(malformed!(
                    line,
                    "a COPY data line longer than {} MiB",
                    MAX_TOKEN >> 20
                ));
            }
            if !self.fill(scanned)? {
                if scanned == 0 {
                    return Err(malformed!(line, "the dump ends inside COPY data (no \\. line)"));
                }
                break (scanned, false);
            }
        };
        if len > MAX_TOKEN {
            return Err(malformed!(line, "a COPY data line longer than {} MiB", MAX_TOKEN >> 20));
        }
        let mut text = &self.buf[self.pos..self.pos + len];
        if text.last() == Some(&b'\r') {
            text = &text[..text.len() - 1];
        }
        let end_mark = text == b"\\.";
        if !end_mark && let Some(out) = out {
            out.extend_from_slice(text);
        }
        self.pos += len + usize::from(newline);
        self.line += u64::from(newline);
        if end_mark {
            self.at_statement_start = true;
            return Ok(None);
        }
        Ok(Some(line))
    }

    /// Skips COPY data up to and past its `\.` line (the pre-scan).
    pub fn skip_copy(&mut self) -> Result<()> {
        while self.next_copy_line(None)?.is_some() {}
        Ok(())
    }

    /// After `COPY … FROM stdin;`: the rest of that line is not data.
    pub fn skip_rest_of_line(&mut self) -> Result<()> {
        self.skip_line()
    }
}

/// Decodes hex digits.
fn hex(digits: &[u8], line: u64) -> Result<Vec<u8>> {
    if !digits.len().is_multiple_of(2) || !digits.iter().all(u8::is_ascii_hexdigit) {
        return Err(malformed!(line, "a hex literal with an odd or bad digit"));
    }
    Ok(digits
        .chunks(2)
        .map(|p| {
            let v = |b: u8| (b as char).to_digit(16).unwrap_or(0) as u8;
            v(p[0]) << 4 | v(p[1])
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str, d: Dialect) -> Vec<Tok> {
        let mut l = Lexer::new(text.as_bytes(), d);
        let mut out = Vec::new();
        while let Some(t) = l.next_token().unwrap() {
            out.push(t.tok);
        }
        out
    }

    fn w(s: &str) -> Tok {
        Tok::Word(s.into())
    }

    #[test]
    fn mysql_tokens() {
        let t = toks(
            "/*!40101 SET NAMES utf8mb4 */;\n# c\n-- c\nINSERT INTO `t` VALUES ('a\\'b\\n',\"x\"\"y\",0x0aFF,b'101',-1.5e3);",
            Dialect::Mysql,
        );
        assert_eq!(
            t,
            vec![
                w("SET"),
                w("NAMES"),
                w("utf8mb4"),
                Tok::End,
                w("INSERT"),
                w("INTO"),
                Tok::Ident("t".into()),
                w("VALUES"),
                Tok::Sym("(".into()),
                Tok::Str(b"a'b\n".to_vec(), StrKind::Plain),
                Tok::Sym(",".into()),
                Tok::Str(b"x\"y".to_vec(), StrKind::Plain),
                Tok::Sym(",".into()),
                Tok::Str(vec![0x0a, 0xff], StrKind::Hex),
                Tok::Sym(",".into()),
                Tok::Str(b"101".to_vec(), StrKind::Bits),
                Tok::Sym(",".into()),
                Tok::Sym("-".into()),
                Tok::Num("1.5e3".into()),
                Tok::Sym(")".into()),
                Tok::End,
            ]
        );
        let t = toks("/*M!999999\\- enable the sandbox mode */ \nSELECT 1;", Dialect::Mysql);
        assert_eq!(t[0], Tok::Meta("\\- enable the sandbox mode".into()));
        let t = toks(
            "DELIMITER ;;\nCREATE TRIGGER x BEGIN SET a=1; END ;;\nDELIMITER ;\nSELECT 1;",
            Dialect::Mysql,
        );
        assert_eq!(t.iter().filter(|t| **t == Tok::End).count(), 2);
        assert!(t.contains(&Tok::Sym(";".into())));
    }

    #[test]
    fn postgres_tokens() {
        let t = toks(
            "\\restrict abc\nSET x = 'a''b';\nSELECT E'\\x41\\n', $f$ a;b $f$, \"Q\"\"x\", '1'::text /* a /* b */ c */;\n\\unrestrict abc\n",
            Dialect::Postgres,
        );
        assert_eq!(t[0], Tok::Meta("\\restrict abc".into()));
        assert!(t.contains(&Tok::Str(b"a'b".to_vec(), StrKind::Plain)));
        assert!(t.contains(&Tok::Str(b"A\n".to_vec(), StrKind::Plain)));
        assert!(t.contains(&Tok::Str(b" a;b ".to_vec(), StrKind::Dollar)));
        assert!(t.contains(&Tok::Ident("Q\"x".into())));
        assert!(t.contains(&Tok::Sym("::".into())));
        assert_eq!(t.last(), Some(&Tok::Meta("\\unrestrict abc".into())));
    }

    #[test]
    fn copy_lines_and_truncation() {
        let text = "COPY t (a) FROM stdin;\n1\tx\\ty\n2\t\\N\n\\.\nSELECT 1;";
        let mut l = Lexer::new(text.as_bytes(), Dialect::Postgres);
        while l.next_token().unwrap().unwrap().tok != Tok::End {}
        l.skip_rest_of_line().unwrap();
        let mut line = Vec::new();
        assert_eq!(l.copy_line(&mut line).unwrap(), Some(2));
        assert_eq!(line, b"1\tx\\ty");
        assert_eq!(l.copy_line(&mut line).unwrap(), Some(3));
        assert_eq!(l.copy_line(&mut line).unwrap(), None);
        assert_eq!(l.next_token().unwrap().unwrap().tok, Tok::Word("SELECT".into()));
        let mut l = Lexer::new("1\tx\n".as_bytes(), Dialect::Postgres);
        assert!(l.copy_line(&mut line).unwrap().is_some());
        assert!(l.copy_line(&mut line).is_err());
    }

    #[test]
    fn unclosed_things_fail_with_their_line() {
        let mut l = Lexer::new("SELECT 1;\n'abc".as_bytes(), Dialect::Postgres);
        l.next_token().unwrap();
        l.next_token().unwrap();
        l.next_token().unwrap();
        let e = l.next_token().unwrap_err();
        assert_eq!(e.line(), Some(2));
    }
}
