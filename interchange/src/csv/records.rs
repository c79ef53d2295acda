//! Records out of delimited text, on `csv-core` (the `csv` crate's
//! streaming parser), keeping what the `csv` crate's records drop: whether
//! each field was quoted (an unquoted empty field is NULL, `""` is the
//! empty string), the source line and byte offsets of each record, and
//! quoted fields that do not end at their closing quote (a sign of the
//! wrong escape convention, used by the sniffer).
//!
//! Line terminators are LF, CRLF or CR (csv-core's `Terminator::CRLF`);
//! blank lines between records are skipped by csv-core. Memory: one input
//! chunk plus the current record, which may not exceed `max_record`
//! bytes.

use std::io::Read;

use csv_core::{ReadFieldResult, ReaderBuilder, Terminator};

use crate::Result;
use crate::error::malformed;

/// How quoted fields escape their quote character.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EscapeMode {
    /// `""` inside quotes is one `"` (RFC 4180).
    Double,
    /// This byte escapes the next one inside quotes (`\"`).
    Char(u8),
    /// Nothing escapes: a quoted field cannot contain its quote.
    None,
}

/// The dialect the parser needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Syntax {
    pub delimiter: u8,
    pub quote: Option<u8>,
    pub escape: EscapeMode,
    /// Lines end with CR alone (counted by CR instead of LF).
    pub cr_lines: bool,
}

/// One record: its fields' bytes and where it came from.
#[derive(Clone, Debug, Default)]
pub struct Record {
    data: Vec<u8>,
    len: usize,
    ends: Vec<usize>,
    quoted: Vec<bool>,
    /// 1-based line of the record's first byte.
    pub line: u64,
    /// Byte offset of the record's first byte (decoded text).
    pub start: u64,
    /// Byte offset just past the record's last byte.
    pub end: u64,
    /// Quoted fields with text after their closing quote (or read with
    /// the wrong escape convention).
    pub anomalies: u32,
    /// The 0-based index of the first such field.
    pub first_anomaly: Option<usize>,
}

impl Record {
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Field `i`'s bytes (unescaped).
    pub fn field(&self, i: usize) -> &[u8] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.data[start..self.ends[i]]
    }

    /// The 1-based source line where field `i` starts (the record's line
    /// plus the line breaks of the fields before it; CR-only files count
    /// CRs).
    pub fn field_line(&self, i: usize, cr_lines: bool) -> u64 {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        let term = if cr_lines { b'\r' } else { b'\n' };
        self.line + self.data[..start].iter().filter(|&&b| b == term).count() as u64
    }

    /// Whether field `i` was quoted.
    pub fn quoted(&self, i: usize) -> bool {
        self.quoted[i]
    }

    /// Every field is empty and unquoted (`,,,`).
    pub fn all_empty(&self) -> bool {
        self.len == 0 && !self.quoted.iter().any(|&q| q)
    }

    fn clear(&mut self) {
        self.len = 0;
        self.ends.clear();
        self.quoted.clear();
        self.anomalies = 0;
        self.first_anomaly = None;
    }
}

/// The streaming record reader.
pub struct Records<R> {
    src: R,
    core: csv_core::Reader,
    syntax: Syntax,
    buf: Box<[u8]>,
    pos: usize,
    filled: usize,
    eof: bool,
    /// Decoded bytes before `buf[pos]`.
    offset: u64,
    /// The line of `buf[pos]`.
    line: u64,
    max_record: usize,
    done: bool,
}

/// Bytes asked from the source at a time.
const CHUNK: usize = 64 * 1024;

impl<R: Read> Records<R> {
    /// Reads records of `syntax` from `src`, which starts at byte
    /// `offset`, line 1. A record longer than `max_record` bytes fails.
    pub fn new(src: R, syntax: Syntax, offset: u64, max_record: usize) -> Records<R> {
        let mut b = ReaderBuilder::new();
        b.delimiter(syntax.delimiter).terminator(Terminator::CRLF);
        match syntax.quote {
            Some(q) => {
                b.quote(q).quoting(true);
            }
            None => {
                b.quoting(false);
            }
        }
        match syntax.escape {
            EscapeMode::Double => {
                b.double_quote(true).escape(None);
            }
            EscapeMode::Char(e) => {
                b.double_quote(false).escape(Some(e));
            }
            EscapeMode::None => {
                b.double_quote(false).escape(None);
            }
        }
        Records {
            src,
            core: b.build(),
            syntax,
            buf: vec![0; CHUNK].into_boxed_slice(),
            pos: 0,
            filled: 0,
            eof: false,
            offset,
            line: 1,
            max_record,
            done: false,
        }
    }

    /// The source, for position queries.
    pub fn get_ref(&self) -> &R {
        &self.src
    }

    /// The decoded offset of the next unread byte.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    fn refill(&mut self) -> Result<()> {
        if self.pos < self.filled || self.eof {
            return Ok(());
        }
        self.pos = 0;
        self.filled = 0;
        loop {
            match self.src.read(&mut self.buf) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(());
                }
                Ok(n) => {
                    self.filled = n;
                    return Ok(());
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                    return Err(malformed!(self.line, "{e}"));
                }
                Err(e) => return Err(e.into()),
            }
        }
    }

    /// Counts the lines in `bytes`, consumed from the input.
    fn count_lines(&mut self, from: usize, to: usize) {
        let term = if self.syntax.cr_lines { b'\r' } else { b'\n' };
        self.line += self.buf[from..to].iter().filter(|&&b| b == term).count() as u64;
    }

    /// Reads the next record into `rec`; false at the end of the input.
    pub fn next_record(&mut self, rec: &mut Record) -> Result<bool> {
        rec.clear();
        if self.done {
            return Ok(false);
        }
        let mut started = false;
        // State of the current field: its first raw byte seen, whether it
        // is quoted, the raw bytes' quote count and the last raw byte.
        let mut field_open = false;
        let mut quoted = false;
        let mut quotes = 0u64;
        let mut escapes = 0u64;
        let mut escaping = false;
        let mut raw = 0usize;
        let mut field_from = rec.len;
        let mut last = [0u8; 2];
        let quote = self.syntax.quote;
        loop {
            self.refill()?;
            if rec.data.len() - rec.len < 1024 {
                if rec.len > self.max_record {
                    return Err(malformed!(
                        rec.line.max(self.line),
                        "a record longer than {} MiB: a field this large is refused (or a \
                         quote is never closed)",
                        self.max_record >> 20
                    ));
                }
                // Doubling, but never past the limit (and the slack the
                // check above needs): the buffer stays bounded.
                let cap = self.max_record.saturating_add(4096);
                let want = (rec.data.len() * 2).max(4096).min(cap).max(rec.data.len() + 1024);
                rec.data.resize(want, 0);
            }
            let input = &self.buf[self.pos..self.filled];
            let (res, nin, nout) = self.core.read_field(input, &mut rec.data[rec.len..]);
            let (from, to) = (self.pos, self.pos + nin);
            let mut i = from;
            if !started {
                // Terminators before the record (blank lines, the LF of a
                // CRLF) belong to no record.
                while i < to && matches!(self.buf[i], b'\r' | b'\n') {
                    i += 1;
                }
                if i < to {
                    self.count_lines(from, i);
                    started = true;
                    rec.line = self.line;
                    rec.start = self.offset + (i - from) as u64;
                    self.count_lines(i, to);
                } else {
                    self.count_lines(from, to);
                }
            } else {
                self.count_lines(from, to);
            }
            if i < to {
                if !field_open {
                    field_open = true;
                    quoted = quote == Some(self.buf[i]);
                }
                raw += to - i;
                if quoted {
                    let q = quote.unwrap_or(0);
                    match self.syntax.escape {
                        EscapeMode::Char(e) => {
                            for &b in &self.buf[i..to] {
                                if escaping {
                                    escaping = false;
                                    escapes += 1;
                                } else if b == e {
                                    escaping = true;
                                } else if b == q {
                                    quotes += 1;
                                }
                            }
                        }
                        _ => {
                            quotes += self.buf[i..to].iter().filter(|&&b| b == q).count() as u64;
                        }
                    }
                }
                if to - i >= 2 {
                    last = [self.buf[to - 2], self.buf[to - 1]];
                } else {
                    last = [last[1], self.buf[to - 1]];
                }
            }
            self.pos = to;
            self.offset += nin as u64;
            rec.len += nout;
            match res {
                ReadFieldResult::InputEmpty => {
                    if self.eof && nin == 0 && self.pos >= self.filled {
                        // Let csv-core finish the last field.
                        let (res, _, nout) = self.core.read_field(&[], &mut rec.data[rec.len..]);
                        rec.len += nout;
                        match res {
                            ReadFieldResult::Field { .. } => {
                                let f =
                                    Field { quoted, quotes, escapes, raw, from: field_from, last };
                                self.finish_field(rec, f, true)?;
                                rec.end = self.offset;
                                return Ok(true);
                            }
                            _ => {
                                self.done = true;
                                return Ok(started && !rec.is_empty());
                            }
                        }
                    }
                }
                ReadFieldResult::OutputFull => {}
                ReadFieldResult::Field { record_end } => {
                    if !started {
                        // Only an empty last field after a terminator.
                        continue;
                    }
                    let at_eof = self.eof && self.pos >= self.filled;
                    let f = Field { quoted, quotes, escapes, raw, from: field_from, last };
                    self.finish_field(rec, f, at_eof && record_end)?;
                    field_open = false;
                    quoted = false;
                    quotes = 0;
                    escapes = 0;
                    escaping = false;
                    raw = 0;
                    field_from = rec.len;
                    last = [0, 0];
                    if record_end {
                        rec.end = self.offset;
                        return Ok(true);
                    }
                }
                ReadFieldResult::End => {
                    self.done = true;
                    return Ok(started && !rec.is_empty());
                }
            }
        }
    }

    /// Ends the current field: records its end and quotedness, flags an
    /// anomaly (the output is not what a well-formed quoted field of that
    /// raw text gives: text after the closing quote, or the wrong escape
    /// convention), and at the end of the input fails a quote that never
    /// closed.
    fn finish_field(&self, rec: &mut Record, f: Field, at_eof: bool) -> Result<()> {
        rec.ends.push(rec.len);
        rec.quoted.push(f.quoted);
        if f.quoted {
            let q = self.syntax.quote.unwrap_or(0);
            // `last` holds the field's last raw byte and, unless the input
            // ended, the delimiter or terminator after it.
            let (closing, content) =
                if at_eof { (f.last[1], f.raw) } else { (f.last[0], f.raw.saturating_sub(1)) };
            let unclosed = match self.syntax.escape {
                EscapeMode::Double => f.quotes % 2 == 1,
                _ => f.quotes < 2,
            };
            if at_eof && (unclosed || content < 2) {
                return Err(malformed!(rec.line, "a quoted field is never closed"));
            }
            let expected = match self.syntax.escape {
                EscapeMode::Double => (content + 1).checked_sub(1 + f.quotes as usize / 2 + 1),
                EscapeMode::Char(_) => content.checked_sub(2 + f.escapes as usize),
                EscapeMode::None => content.checked_sub(2),
            };
            // A well-formed doubled-quote field holds an even number of
            // quotes (the pair around it and two per escaped one): an odd
            // count closed on a quote is `"a\"b"` read with the wrong
            // convention, even when its length happens to fit.
            let odd = matches!(self.syntax.escape, EscapeMode::Double) && f.quotes % 2 == 1;
            // With an escape character (or none) a well-formed quoted field
            // holds exactly two unescaped quotes, the pair around it: more
            // is `"a""b"` read with `\"`, even when the lengths agree.
            let extra = !matches!(self.syntax.escape, EscapeMode::Double) && f.quotes != 2;
            if odd || extra || closing != q || expected != Some(rec.len - f.from) {
                rec.anomalies += 1;
                if rec.first_anomaly.is_none() {
                    rec.first_anomaly = Some(rec.ends.len() - 1);
                }
            }
        }
        Ok(())
    }
}

/// What `finish_field` needs to know about a field's raw text.
struct Field {
    quoted: bool,
    quotes: u64,
    escapes: u64,
    /// Raw bytes consumed (with the delimiter or terminator after it).
    raw: usize,
    /// Output offset where the field starts.
    from: usize,
    last: [u8; 2],
}

#[cfg(test)]
mod tests {
    use super::*;

    type Parsed = Vec<(Vec<(String, bool)>, u64)>;

    fn parse(text: &str, syntax: Syntax) -> Result<Parsed> {
        let mut r = Records::new(text.as_bytes(), syntax, 0, 1 << 20);
        let mut rec = Record::default();
        let mut out = Vec::new();
        while r.next_record(&mut rec)? {
            let fields = (0..rec.len())
                .map(|i| (String::from_utf8(rec.field(i).to_vec()).unwrap(), rec.quoted(i)))
                .collect();
            out.push((fields, rec.line));
        }
        Ok(out)
    }

    const STD: Syntax =
        Syntax { delimiter: b',', quote: Some(b'"'), escape: EscapeMode::Double, cr_lines: false };

    #[test]
    fn quoted_and_unquoted_empty_fields_differ() {
        let rows = parse("a,\"\",,\"x\"\"y\"\n", STD).unwrap();
        assert_eq!(
            rows[0].0,
            vec![
                ("a".to_string(), false),
                (String::new(), true),
                (String::new(), false),
                ("x\"y".to_string(), true)
            ]
        );
    }

    #[test]
    fn lines_count_across_quoted_newlines_and_blank_lines() {
        let text = "h1,h2\r\n\"multi\r\nline\",2\r\n\r\n3,4\r\n5,";
        let rows = parse(text, STD).unwrap();
        let lines: Vec<u64> = rows.iter().map(|r| r.1).collect();
        assert_eq!(lines, vec![1, 2, 5, 6]);
        assert_eq!(rows[1].0[0].0, "multi\r\nline");
        assert_eq!(rows[3].0, vec![("5".to_string(), false), (String::new(), false)]);
        let cr = Syntax { cr_lines: true, ..STD };
        let rows = parse("a,b\rc,d\r\re,f", cr).unwrap();
        assert_eq!(rows.iter().map(|r| r.1).collect::<Vec<_>>(), vec![1, 2, 4]);
    }

    #[test]
    fn an_unclosed_quote_at_the_end_fails() {
        assert!(parse("a,\"b\n", STD).is_err());
        assert!(parse("a,\"b\"\"\n", STD).is_err());
        assert!(parse("a,\"b\"\n", STD).is_ok());
        assert!(parse("a,\"b\"", STD).is_ok());
    }

    #[test]
    fn chunk_boundaries_do_not_matter() {
        // A reader that hands out one byte at a time.
        struct Trickle<'a>(&'a [u8]);
        impl Read for Trickle<'_> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                if self.0.is_empty() || buf.is_empty() {
                    return Ok(0);
                }
                buf[0] = self.0[0];
                self.0 = &self.0[1..];
                Ok(1)
            }
        }
        let text = "id,\"na,me\"\r\n1,\"a\"\"b\"\r\n\r\n2,\r\n3,\"\"";
        let whole = parse(text, STD).unwrap();
        let mut r = Records::new(Trickle(text.as_bytes()), STD, 0, 1 << 20);
        let mut rec = Record::default();
        let mut n = 0;
        while r.next_record(&mut rec).unwrap() {
            let fields: Vec<(String, bool)> = (0..rec.len())
                .map(|i| (String::from_utf8(rec.field(i).to_vec()).unwrap(), rec.quoted(i)))
                .collect();
            assert_eq!((fields, rec.line), whole[n]);
            n += 1;
        }
        assert_eq!(n, whole.len());
    }

    #[test]
    fn backslash_escapes_and_anomalies() {
        let bs = Syntax { escape: EscapeMode::Char(b'\\'), ..STD };
        let rows = parse("\"a \\\"q\\\" b\",2\n", bs).unwrap();
        assert_eq!(rows[0].0[0].0, "a \"q\" b");
        let mut r = Records::new("\"a \\\"q\\\" b\",2\n".as_bytes(), STD, 0, 1 << 20);
        let mut rec = Record::default();
        assert!(r.next_record(&mut rec).unwrap());
        assert_eq!(rec.anomalies, 1);
    }
}
