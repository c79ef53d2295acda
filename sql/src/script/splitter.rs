//! The streaming script splitter: any [`Read`] in, [`Statement`]s out.
//!
//! The splitter reads fixed-size chunks and runs a resumable lexer over
//! them. It holds at most the current statement plus one chunk: whitespace
//! and comments between statements are dropped as soon as they are scanned,
//! and a statement's bytes are dropped once it is returned.
//!
//! Invariants the code keeps:
//! - The lexer only ever stops *between* tokens or at a byte whose meaning
//!   needs a look-ahead it does not have yet (`''`, `--`, `/*`, `*/`,
//!   `$tag$`, the `\.` that ends COPY data). It then waits for more input
//!   and rescans from that byte, so the result never depends on where chunk
//!   boundaries fall.
//! - Only validated UTF-8 is scanned. Every special byte is ASCII, so byte
//!   offsets at which the lexer cuts are always character boundaries.
//! - A statement is returned only once its terminator is seen (or EOF), and
//!   its length is checked against the limit before more input is read, so
//!   an oversized statement fails with `TooLarge`, never an OOM.
//!
//! What a statement is: it starts at its first token (leading whitespace
//! and comments lie *between* statements) and ends after its `;`. Its
//! `text` is that span without the `;`, trimmed; comments inside are kept.
//! Statements with no token (`;;`, comments only) are skipped. Inside
//! `CREATE [TEMP] TRIGGER … BEGIN … END;` a `;` only ends the statement
//! when it follows an `END` that itself follows a `;` — SQLite's
//! `sqlite3_complete` rule, which makes `CASE … END` inside the body
//! harmless. A trigger without `BEGIN` (PostgreSQL's `EXECUTE FUNCTION`)
//! ends at its first `;`.
//!
//! `COPY … FROM stdin;` (pg_dump) is followed by data lines up to a line
//! `\.`. The data is part of the statement: `end` lies after the `\.`,
//! `text` is the COPY command alone and `copy_data` holds the data lines
//! (each with its `\n`, without the `\.` line). Data starts on the line
//! after the `;`; anything after the `;` on the same line is skipped.
//! Reaching EOF before `\.` is an error (a truncated dump must not load
//! half its rows silently).
//!
//! Non-blocking sources: a reader may return `ErrorKind::WouldBlock` when
//! it has no bytes *yet* (an async producer that fetches the next chunk
//! from the network). `next` then yields that error without ending the
//! iterator and without losing anything scanned so far; the caller fetches
//! more and calls `next` again, and the statements are exactly those of a
//! blocking reader of the same bytes. Any other error ends the iterator.

use std::io::Read;

use crate::{Error, Result};

/// Default number of bytes asked from the reader at a time.
pub const DEFAULT_CHUNK_SIZE: usize = 64 * 1024;
/// Default limit on one statement's length in bytes (including COPY data).
pub const DEFAULT_MAX_STATEMENT_SIZE: usize = 64 * 1024 * 1024;

/// How to split a script.
#[derive(Clone, Debug)]
pub struct SplitterOptions {
    /// MySQL dumps: inside `'…'` and `"…"`, a backslash escapes the next
    /// byte (`\'`, `\\`). When false (SQLite, PostgreSQL), `\` is an
    /// ordinary character except inside `E'…'` strings.
    pub backslash_escapes: bool,
    /// Bytes asked from the reader at a time (at least 1).
    pub chunk_size: usize,
    /// A statement longer than this many bytes fails with `TooLarge`.
    pub max_statement_size: usize,
}

impl Default for SplitterOptions {
    fn default() -> Self {
        SplitterOptions {
            backslash_escapes: false,
            chunk_size: DEFAULT_CHUNK_SIZE,
            max_statement_size: DEFAULT_MAX_STATEMENT_SIZE,
        }
    }
}

/// One statement of a script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    /// 0-based position among the returned statements.
    pub index: u64,
    /// The statement without its trailing `;`, trimmed of surrounding
    /// whitespace; comments inside are kept. For COPY, the command only.
    pub text: String,
    /// Byte offset of the statement's first token in the stream.
    pub start: u64,
    /// Byte offset just past the statement: past its `;`, past the `\.`
    /// of COPY data, or the end of the stream for a final statement
    /// without `;`.
    pub end: u64,
    /// For `COPY … FROM stdin`: the data lines that followed it.
    pub copy_data: Option<String>,
}

/// Where the lexer is. Quote and comment states are resumable at any byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lex {
    /// Between tokens.
    Normal,
    /// Inside a quoted string or identifier closed by `q` (doubled `q`
    /// escapes it); `bs`: a backslash escapes the next byte.
    Quote { q: u8, bs: bool },
    /// Inside `[…]`.
    Bracket,
    /// Inside `-- …` up to the newline.
    LineComment,
    /// Inside `/* … */` (not nested, as in SQLite).
    BlockComment,
    /// Inside `$tag$ … $tag$`; the tag is in `Splitter::dollar_tag`.
    Dollar,
    /// After the `;` of `COPY … FROM stdin`, skipping to the end of its line.
    CopyHeader,
    /// At the start of a COPY data line.
    CopyLineStart,
    /// Inside a COPY data line.
    CopyLine,
}

/// What kind of statement the tokens so far make: only triggers (whose
/// bodies contain `;`) and COPY (followed by data) need special handling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// No token yet.
    Start,
    /// `EXPLAIN [QUERY PLAN]` so far.
    Explain,
    /// `CREATE [TEMP]` so far.
    Create,
    /// `CREATE TRIGGER …` before `BEGIN`.
    TriggerHead,
    /// Inside the body, not right after a `;`.
    Body,
    /// Inside the body right after a `;` (whitespace and comments aside).
    BodySemi,
    /// `; END` seen in the body: the next `;` ends the statement.
    BodyEnd,
    /// `COPY …` not (yet) `FROM STDIN`.
    Copy,
    /// `COPY … FROM` just seen.
    CopyFrom,
    /// `COPY … FROM STDIN`: data follows the `;`.
    CopyStdin,
    /// Anything else: only quotes, comments and `;` matter.
    Plain,
}

/// The tokens the kind machine distinguishes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    Other,
    Explain,
    QueryOrPlan,
    Create,
    Temp,
    Trigger,
    Begin,
    End,
    Copy,
    From,
    Stdin,
}

fn classify(word: &[u8]) -> Tok {
    if word.len() > 9 {
        return Tok::Other;
    }
    let mut low = [0u8; 9];
    for (d, s) in low.iter_mut().zip(word) {
        *d = s.to_ascii_lowercase();
    }
    match &low[..word.len()] {
        b"explain" => Tok::Explain,
        b"query" | b"plan" => Tok::QueryOrPlan,
        b"create" => Tok::Create,
        b"temp" | b"temporary" => Tok::Temp,
        b"trigger" => Tok::Trigger,
        b"begin" => Tok::Begin,
        b"end" => Tok::End,
        b"copy" => Tok::Copy,
        b"from" => Tok::From,
        b"stdin" => Tok::Stdin,
        _ => Tok::Other,
    }
}

impl Kind {
    /// Whether words must be classified in this state (a cheap filter so
    /// ordinary statements skip keyword matching).
    fn wants_words(self) -> bool {
        !matches!(self, Kind::Plain | Kind::Body | Kind::CopyStdin)
    }

    /// The transition on a non-`;` token.
    fn next(self, tok: Tok) -> Kind {
        match (self, tok) {
            (Kind::Start, Tok::Explain) => Kind::Explain,
            (Kind::Start | Kind::Explain, Tok::Create) => Kind::Create,
            (Kind::Start, Tok::Copy) => Kind::Copy,
            (Kind::Explain, Tok::QueryOrPlan) => Kind::Explain,
            (Kind::Create, Tok::Temp) => Kind::Create,
            (Kind::Create, Tok::Trigger) => Kind::TriggerHead,
            (Kind::TriggerHead, Tok::Begin) => Kind::Body,
            (Kind::TriggerHead, _) => Kind::TriggerHead,
            (Kind::BodySemi, Tok::End) => Kind::BodyEnd,
            (Kind::Body | Kind::BodySemi | Kind::BodyEnd, _) => Kind::Body,
            (Kind::Copy, Tok::From) => Kind::CopyFrom,
            (Kind::CopyFrom, Tok::Stdin) | (Kind::CopyStdin, _) => Kind::CopyStdin,
            (Kind::Copy | Kind::CopyFrom, _) => Kind::Copy,
            _ => Kind::Plain,
        }
    }
}

/// Byte classes for the between-tokens loop.
const C_OTHER: u8 = 0;
const C_WS: u8 = 1;
const C_WORD: u8 = 2;
const C_SPECIAL: u8 = 3;

const CLASS: [u8; 256] = {
    let mut t = [C_OTHER; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = if b == b' ' || b == b'\t' || b == b'\n' || b == b'\r' || b == 0x0c {
            C_WS
        } else if b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80 {
            C_WORD
        } else if matches!(b, b'\'' | b'"' | b'`' | b'[' | b'-' | b'/' | b'$' | b';') {
            C_SPECIAL
        } else {
            C_OTHER
        };
        i += 1;
    }
    t
};

fn is_ws(b: u8) -> bool {
    CLASS[b as usize] == C_WS
}

/// A byte that continues a word: word bytes and `$` (as SQLite and
/// PostgreSQL allow in identifiers).
fn is_word_part(b: u8) -> bool {
    CLASS[b as usize] == C_WORD || b == b'$'
}

fn trim_ws_end(s: &[u8]) -> &[u8] {
    let mut n = s.len();
    while n > 0 && is_ws(s[n - 1]) {
        n -= 1;
    }
    &s[..n]
}

/// The result of one scan over the buffered bytes.
enum Step {
    /// A statement is complete.
    Emit(Statement),
    /// The scan needs bytes past the validated end of the buffer.
    NeedMore,
}

/// Splits a script read from `R` into statements; see the module docs.
///
/// It is an iterator of `Result<Statement>`. After the first error it
/// yields nothing more.
pub struct Splitter<R: Read> {
    reader: R,
    opts: SplitterOptions,
    /// Buffered input; `buf[0]` is at stream offset `base`.
    buf: Vec<u8>,
    base: u64,
    /// Scan position in `buf`.
    pos: usize,
    /// `buf[..validated]` is known-good UTF-8; only it is scanned.
    validated: usize,
    /// Index in `buf` of the first byte that is not valid UTF-8.
    bad_utf8: Option<usize>,
    eof: bool,
    lex: Lex,
    kind: Kind,
    /// Index in `buf` of the current statement's first token.
    stmt_start: Option<usize>,
    /// Stream offset where the current quote/comment began (for errors).
    token_start: u64,
    /// The tag of the current `$tag$` quote.
    dollar_tag: Vec<u8>,
    /// For COPY: index of the `;` and of the first data byte.
    copy_semi: usize,
    copy_data_start: usize,
    next_index: u64,
    consumed: u64,
    done: bool,
}

impl<R: Read> Splitter<R> {
    /// A splitter with default options (standard SQL quoting, 64 KiB chunks).
    pub fn new(reader: R) -> Self {
        Self::with_options(reader, SplitterOptions::default())
    }

    /// A splitter with the given options.
    pub fn with_options(reader: R, mut opts: SplitterOptions) -> Self {
        opts.chunk_size = opts.chunk_size.max(1);
        Splitter {
            reader,
            opts,
            buf: Vec::new(),
            base: 0,
            pos: 0,
            validated: 0,
            bad_utf8: None,
            eof: false,
            lex: Lex::Normal,
            kind: Kind::Start,
            stmt_start: None,
            token_start: 0,
            dollar_tag: Vec::new(),
            copy_semi: 0,
            copy_data_start: 0,
            next_index: 0,
            consumed: 0,
            done: false,
        }
    }

    /// Bytes of the stream accounted for: the end of the last statement
    /// returned, or the whole stream once the iterator is exhausted.
    pub fn bytes_consumed(&self) -> u64 {
        self.consumed
    }

    /// The index the next statement will get (= statements returned so far).
    pub fn next_index(&self) -> u64 {
        self.next_index
    }

    /// The reader, e.g. to hand a non-blocking source more bytes after a
    /// `WouldBlock` (see the module docs).
    pub fn reader_mut(&mut self) -> &mut R {
        &mut self.reader
    }

    /// The next statement, `None` at the end of the script.
    fn next_statement(&mut self) -> Result<Option<Statement>> {
        loop {
            match self.scan()? {
                Step::Emit(stmt) => return Ok(Some(stmt)),
                Step::NeedMore => {
                    // Size first: when the statement is already too long,
                    // that happened before any later bad byte or EOF, and
                    // checking it first keeps the outcome independent of
                    // how much the last read brought in.
                    self.check_size()?;
                    if let Some(bad) = self.bad_utf8 {
                        return Err(Error::InvalidInput(format!(
                            "invalid UTF-8 at byte offset {} (statement {})",
                            self.base + bad as u64,
                            self.next_index
                        )));
                    }
                    if self.eof {
                        return self.finish();
                    }
                    self.fill()?;
                }
            }
        }
    }

    /// Fails when the statement being scanned is already past the limit.
    /// Called before reading more, so memory stays bounded.
    fn check_size(&self) -> Result<()> {
        if let Some(start) = self.stmt_start {
            // The statement extends at least to `validated`: the scan
            // asked for more, so it has not ended before.
            if self.validated - start > self.opts.max_statement_size {
                return Err(self.too_large(self.base + start as u64));
            }
        }
        Ok(())
    }

    fn too_large(&self, start: u64) -> Error {
        Error::TooLarge(format!(
            "statement {} starting at byte {} is longer than {} bytes",
            self.next_index, start, self.opts.max_statement_size
        ))
    }

    /// Drops what is no longer needed, reads one chunk, validates UTF-8.
    fn fill(&mut self) -> Result<()> {
        let keep = self.stmt_start.unwrap_or(self.pos).min(self.validated);
        if keep > 0 {
            self.buf.drain(..keep);
            self.base += keep as u64;
            self.pos -= keep;
            self.validated -= keep;
            if let Some(s) = self.stmt_start.as_mut() {
                *s -= keep;
            }
            // COPY indices are only live while `stmt_start` is set, and
            // then `keep` is at most `stmt_start`, which precedes them.
            self.copy_semi = self.copy_semi.saturating_sub(keep);
            self.copy_data_start = self.copy_data_start.saturating_sub(keep);
        }
        let filled = self.buf.len();
        let want = filled + self.opts.chunk_size;
        if self.buf.capacity() > 4 * want {
            // Give back what one huge statement grew; a long-running
            // import should not keep its worst case for ever.
            self.buf.shrink_to(want);
        }
        self.buf.resize(want, 0);
        let n = loop {
            match self.reader.read(&mut self.buf[filled..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.buf.truncate(filled);
                    return Err(Error::Io(e));
                }
            }
        };
        self.buf.truncate(filled + n);
        if n == 0 {
            self.eof = true;
        }
        match std::str::from_utf8(&self.buf[self.validated..]) {
            Ok(_) => self.validated = self.buf.len(),
            Err(e) => {
                self.validated += e.valid_up_to();
                // An incomplete character at the end may complete with the
                // next chunk; anything else (or EOF) is invalid.
                if e.error_len().is_some() || self.eof {
                    self.bad_utf8 = Some(self.validated);
                }
            }
        }
        Ok(())
    }

    /// At EOF: the trailing statement without `;`, an error for an
    /// unterminated token, or the end.
    fn finish(&mut self) -> Result<Option<Statement>> {
        let what = match self.lex {
            Lex::Normal | Lex::LineComment => None,
            Lex::Quote { q: b'\'', .. } => Some("string literal"),
            Lex::Quote { .. } | Lex::Bracket => Some("quoted identifier"),
            Lex::BlockComment => Some("block comment"),
            Lex::Dollar => Some("dollar-quoted string"),
            Lex::CopyHeader | Lex::CopyLineStart | Lex::CopyLine => {
                return Err(Error::Parse(format!(
                    "COPY data of statement {} starting at byte {} has no terminating \\. line",
                    self.next_index,
                    self.base + self.stmt_start.unwrap_or(0) as u64
                )));
            }
        };
        if let Some(what) = what {
            return Err(Error::Parse(format!(
                "unterminated {what} starting at byte {} in statement {}",
                self.token_start, self.next_index
            )));
        }
        let end = self.validated;
        let stmt = match self.stmt_start {
            Some(start) => Some(self.emit(start, end, end, None)?),
            None => None,
        };
        self.consumed = self.base + end as u64;
        Ok(stmt)
    }

    /// Builds the statement `buf[start..end]` whose text ends at `text_end`.
    fn emit(
        &mut self,
        start: usize,
        text_end: usize,
        end: usize,
        copy_data: Option<(usize, usize)>,
    ) -> Result<Statement> {
        let abs_start = self.base + start as u64;
        if end - start > self.opts.max_statement_size {
            return Err(self.too_large(abs_start));
        }
        let utf8 = |b: &[u8]| -> Result<String> {
            match std::str::from_utf8(b) {
                Ok(s) => Ok(s.to_owned()),
                Err(e) => Err(Error::InvalidInput(format!("invalid UTF-8 in statement: {e}"))),
            }
        };
        let text = utf8(trim_ws_end(&self.buf[start..text_end]))?;
        let copy_data = match copy_data {
            Some((a, b)) => Some(utf8(&self.buf[a..b])?),
            None => None,
        };
        let stmt = Statement {
            index: self.next_index,
            text,
            start: abs_start,
            end: self.base + end as u64,
            copy_data,
        };
        self.next_index += 1;
        self.consumed = stmt.end;
        self.stmt_start = None;
        self.kind = Kind::Start;
        self.lex = Lex::Normal;
        self.pos = end;
        Ok(stmt)
    }

    /// Scans `buf[pos..validated]` until a statement completes or more
    /// input is needed.
    fn scan(&mut self) -> Result<Step> {
        let limit = self.validated;
        // Look-ahead past `limit` means "no next byte" only at a clean EOF.
        let at_end = self.eof && self.bad_utf8.is_none();
        let mut i = self.pos;
        macro_rules! pause {
            () => {{
                self.pos = i;
                return Ok(Step::NeedMore);
            }};
        }
        loop {
            match self.lex {
                Lex::Normal => {
                    let buf = &self.buf[..limit];
                    // Inside a statement whose kind no ordinary token can
                    // change (the common case), only quote, comment, `$`
                    // and `;` bytes matter: skim to the next one.
                    let skim = match self.stmt_start {
                        Some(start) if !self.kind.wants_words() => Some(start),
                        _ => None,
                    };
                    if let Some(start) = skim {
                        // `i > start`: the statement's first token is behind.
                        loop {
                            while i < limit && CLASS[buf[i] as usize] != C_SPECIAL {
                                i += 1;
                            }
                            // A `$` inside a word (`a$b`) is part of it.
                            if i < limit && buf[i] == b'$' && is_word_part(buf[i - 1]) {
                                i += 1;
                                continue;
                            }
                            break;
                        }
                        // `E'…'` where `E` is a whole word (looking back).
                        if i < limit
                            && buf[i] == b'\''
                            && matches!(buf[i - 1], b'e' | b'E')
                            && (i - 1 == start || !is_word_part(buf[i - 2]))
                        {
                            self.token_start = self.base + i as u64;
                            self.lex = Lex::Quote { q: b'\'', bs: true };
                            i += 1;
                        }
                    }
                    // Tight loop over bytes that cannot change any state.
                    while skim.is_none() && i < limit {
                        let b = buf[i];
                        let class = CLASS[b as usize];
                        if class == C_WS {
                            i += 1;
                            continue;
                        }
                        if self.stmt_start.is_none() && b != b';' && b != b'-' && b != b'/' {
                            self.stmt_start = Some(i);
                        }
                        if class == C_OTHER {
                            if self.kind != Kind::Plain {
                                self.kind = self.kind.next(Tok::Other);
                            }
                            i += 1;
                            continue;
                        }
                        if class == C_WORD {
                            let mut j = i + 1;
                            while j < limit && is_word_part(buf[j]) {
                                j += 1;
                            }
                            if j == limit && !at_end {
                                pause!();
                            }
                            let word = &buf[i..j];
                            if self.kind.wants_words() {
                                self.kind = self.kind.next(classify(word));
                            }
                            // `E'…'`: backslash escapes even in standard mode.
                            if j < limit && buf[j] == b'\'' && (word == b"e" || word == b"E") {
                                self.token_start = self.base + j as u64;
                                self.lex = Lex::Quote { q: b'\'', bs: true };
                                i = j + 1;
                                break;
                            }
                            i = j;
                            continue;
                        }
                        // C_SPECIAL
                        break;
                    }
                    if self.lex != Lex::Normal {
                        continue;
                    }
                    if i >= limit {
                        pause!();
                    }
                    let b = self.buf[i];
                    let next = self.buf.get(i + 1).copied().filter(|_| i + 1 < limit);
                    match b {
                        b';' => {
                            let Some(start) = self.stmt_start else {
                                i += 1; // an empty statement
                                continue;
                            };
                            match self.kind {
                                Kind::Body | Kind::BodySemi => {
                                    self.kind = Kind::BodySemi;
                                    i += 1;
                                }
                                Kind::CopyStdin => {
                                    self.copy_semi = i;
                                    self.lex = Lex::CopyHeader;
                                    i += 1;
                                }
                                _ => return Ok(Step::Emit(self.emit(start, i, i + 1, None)?)),
                            }
                        }
                        b'-' | b'/' => {
                            let opener = if b == b'-' { b'-' } else { b'*' };
                            if next.is_none() && !at_end {
                                pause!();
                            }
                            if next == Some(opener) {
                                self.token_start = self.base + i as u64;
                                self.lex =
                                    if b == b'-' { Lex::LineComment } else { Lex::BlockComment };
                                i += 2;
                            } else {
                                if self.stmt_start.is_none() {
                                    self.stmt_start = Some(i);
                                }
                                self.kind = self.kind.next(Tok::Other);
                                i += 1;
                            }
                        }
                        b'$' => {
                            // `$tag$` opens a dollar quote; `$1`, `$name`
                            // (parameters) are ordinary tokens.
                            let mut j = i + 1;
                            while j < limit
                                && (CLASS[self.buf[j] as usize] == C_WORD)
                                && !(j == i + 1 && self.buf[j].is_ascii_digit())
                            {
                                j += 1;
                            }
                            if j == limit && !at_end {
                                pause!();
                            }
                            self.kind = self.kind.next(Tok::Other);
                            if j < limit && self.buf[j] == b'$' {
                                self.token_start = self.base + i as u64;
                                self.dollar_tag.clear();
                                self.dollar_tag.extend_from_slice(&self.buf[i + 1..j]);
                                self.lex = Lex::Dollar;
                                i = j + 1;
                            } else {
                                i = j.max(i + 1);
                            }
                        }
                        b'[' => {
                            self.kind = self.kind.next(Tok::Other);
                            self.token_start = self.base + i as u64;
                            self.lex = Lex::Bracket;
                            i += 1;
                        }
                        q => {
                            // ' " `
                            self.kind = self.kind.next(Tok::Other);
                            self.token_start = self.base + i as u64;
                            let bs = self.opts.backslash_escapes && q != b'`';
                            self.lex = Lex::Quote { q, bs };
                            i += 1;
                        }
                    }
                }
                Lex::Quote { q, bs } => {
                    let buf = &self.buf[..limit];
                    let found = if bs {
                        buf[i..].iter().position(|&c| c == q || c == b'\\')
                    } else {
                        buf[i..].iter().position(|&c| c == q)
                    };
                    let Some(k) = found.map(|k| i + k) else {
                        i = limit;
                        pause!();
                    };
                    if k + 1 >= limit && !at_end {
                        i = k;
                        pause!();
                    }
                    if buf[k] == b'\\' {
                        // Skip the escaped byte (ASCII when it matters: a
                        // multi-byte character cannot be `q` or `\`).
                        i = (k + 2).min(limit);
                    } else if k + 1 < limit && buf[k + 1] == q {
                        i = k + 2; // doubled quote
                    } else {
                        self.lex = Lex::Normal;
                        i = k + 1;
                    }
                }
                Lex::Bracket => match self.buf[i..limit].iter().position(|&c| c == b']') {
                    Some(k) => {
                        self.lex = Lex::Normal;
                        i += k + 1;
                    }
                    None => {
                        i = limit;
                        pause!();
                    }
                },
                Lex::LineComment => match self.buf[i..limit].iter().position(|&c| c == b'\n') {
                    Some(k) => {
                        self.lex = Lex::Normal;
                        i += k + 1;
                    }
                    None => {
                        i = limit;
                        pause!();
                    }
                },
                Lex::BlockComment => {
                    let Some(k) = self.buf[i..limit].iter().position(|&c| c == b'*') else {
                        i = limit;
                        pause!();
                    };
                    let k = i + k;
                    if k + 1 >= limit {
                        i = k;
                        pause!();
                    }
                    if self.buf[k + 1] == b'/' {
                        self.lex = Lex::Normal;
                        i = k + 2;
                    } else {
                        i = k + 1;
                    }
                }
                Lex::Dollar => {
                    let Some(k) = self.buf[i..limit].iter().position(|&c| c == b'$') else {
                        i = limit;
                        pause!();
                    };
                    let k = i + k;
                    let tag_end = k + 1 + self.dollar_tag.len();
                    if tag_end >= limit {
                        // Not enough bytes to compare the closing tag.
                        i = k;
                        pause!();
                    }
                    if self.buf[k + 1..tag_end] == self.dollar_tag[..] && self.buf[tag_end] == b'$'
                    {
                        self.lex = Lex::Normal;
                        i = tag_end + 1;
                    } else {
                        i = k + 1;
                    }
                }
                Lex::CopyHeader => match self.buf[i..limit].iter().position(|&c| c == b'\n') {
                    Some(k) => {
                        i += k + 1;
                        self.copy_data_start = i;
                        self.lex = Lex::CopyLineStart;
                    }
                    None => {
                        i = limit;
                        pause!();
                    }
                },
                Lex::CopyLineStart => {
                    let rest = &self.buf[i..limit];
                    let need = match rest {
                        [] | [b'\\'] | [b'\\', b'.'] | [b'\\', b'.', b'\r'] => !at_end,
                        _ => false,
                    };
                    if need {
                        pause!();
                    }
                    let is_end = match rest {
                        [b'\\', b'.'] | [b'\\', b'.', b'\r'] => true, // at EOF
                        [b'\\', b'.', b'\n', ..] | [b'\\', b'.', b'\r', b'\n', ..] => true,
                        _ => false,
                    };
                    if is_end {
                        let start = self.stmt_start.unwrap_or(self.copy_semi);
                        let (semi, data) = (self.copy_semi, (self.copy_data_start, i));
                        return Ok(Step::Emit(self.emit(start, semi, i + 2, Some(data))?));
                    }
                    if rest.is_empty() {
                        pause!(); // EOF: `finish` reports the missing `\.`
                    }
                    self.lex = Lex::CopyLine;
                }
                Lex::CopyLine => match self.buf[i..limit].iter().position(|&c| c == b'\n') {
                    Some(k) => {
                        i += k + 1;
                        self.lex = Lex::CopyLineStart;
                    }
                    None => {
                        i = limit;
                        pause!();
                    }
                },
            }
        }
    }
}

impl<R: Read> Iterator for Splitter<R> {
    type Item = Result<Statement>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.next_statement() {
            Ok(Some(stmt)) => Some(Ok(stmt)),
            Ok(None) => {
                self.done = true;
                None
            }
            // The reader has nothing yet: resumable (see the module docs).
            Err(Error::Io(e)) if e.kind() == std::io::ErrorKind::WouldBlock => {
                Some(Err(Error::Io(e)))
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}
