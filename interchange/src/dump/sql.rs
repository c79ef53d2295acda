//! Token-level helpers of the dump translators: a cursor over a
//! statement's tokens, and rendering tokens back into SQL our engine
//! reads (identifiers quoted, schema prefixes, casts and character-set
//! introducers removed, strings as standard literals).

use std::collections::HashSet;

use super::lex::{StrKind, Tok, Token};
use crate::quote_ident;

/// A cursor over one statement's tokens.
pub struct Cur<'a> {
    pub t: &'a [Token],
    pub i: usize,
}

impl<'a> Cur<'a> {
    pub fn new(t: &'a [Token]) -> Cur<'a> {
        Cur { t, i: 0 }
    }

    pub fn peek(&self) -> Option<&'a Token> {
        self.t.get(self.i)
    }

    pub fn peek_at(&self, k: usize) -> Option<&'a Token> {
        self.t.get(self.i + k)
    }

    pub fn take(&mut self) -> Option<&'a Token> {
        let t = self.t.get(self.i);
        if t.is_some() {
            self.i += 1;
        }
        t
    }

    pub fn done(&self) -> bool {
        self.i >= self.t.len()
    }

    /// The line of the current token (or the last one).
    pub fn line(&self) -> u64 {
        self.t.get(self.i).or(self.t.last()).map_or(0, |t| t.line)
    }

    /// Consumes the word `w` if it is next.
    pub fn eat(&mut self, w: &str) -> bool {
        if self.peek().is_some_and(|t| t.is(w)) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    /// Consumes the words `ws` if they are all next.
    pub fn eat_all(&mut self, ws: &[&str]) -> bool {
        let ok = ws.iter().enumerate().all(|(k, w)| self.peek_at(k).is_some_and(|t| t.is(w)));
        if ok {
            self.i += ws.len();
        }
        ok
    }

    pub fn eat_sym(&mut self, s: &str) -> bool {
        if self.peek().is_some_and(|t| t.is_sym(s)) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    /// A possibly qualified name (`a.b.c`): its parts.
    pub fn qualified(&mut self) -> Option<Vec<String>> {
        let mut parts = vec![self.peek()?.name()?.to_string()];
        self.i += 1;
        while self.peek().is_some_and(|t| t.is_sym("."))
            && self.peek_at(1).and_then(Token::name).is_some()
        {
            parts.push(self.peek_at(1).and_then(Token::name).unwrap_or_default().to_string());
            self.i += 2;
        }
        Some(parts)
    }

    /// If a `(` is next: the tokens inside the matching `)`, consumed.
    pub fn group(&mut self) -> Option<&'a [Token]> {
        if !self.peek()?.is_sym("(") {
            return None;
        }
        let start = self.i + 1;
        let mut depth = 0usize;
        for k in self.i..self.t.len() {
            if self.t[k].is_sym("(") {
                depth += 1;
            } else if self.t[k].is_sym(")") {
                depth -= 1;
                if depth == 0 {
                    self.i = k + 1;
                    return Some(&self.t[start..k]);
                }
            }
        }
        None
    }

    /// The rest of the tokens.
    pub fn rest(&mut self) -> &'a [Token] {
        let r = &self.t[self.i.min(self.t.len())..];
        self.i = self.t.len();
        r
    }

    /// Tokens up to (not including) the first depth-0 token for which
    /// `stop` holds, consumed.
    pub fn until(&mut self, stop: impl Fn(&Token) -> bool) -> &'a [Token] {
        let start = self.i;
        let mut depth = 0i32;
        while let Some(t) = self.t.get(self.i) {
            if depth == 0 && stop(t) {
                break;
            }
            if t.is_sym("(") {
                depth += 1;
            } else if t.is_sym(")") {
                depth -= 1;
            }
            self.i += 1;
        }
        &self.t[start..self.i]
    }
}

/// Splits tokens at depth-0 commas.
pub fn split_commas(t: &[Token]) -> Vec<&[Token]> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (k, tok) in t.iter().enumerate() {
        if tok.is_sym("(") {
            depth += 1;
        } else if tok.is_sym(")") {
            depth -= 1;
        } else if depth == 0 && tok.is_sym(",") {
            out.push(&t[start..k]);
            start = k + 1;
        }
    }
    if start < t.len() {
        out.push(&t[start..]);
    }
    out
}

/// A list of column names in a group: `(a, b(10), "c" DESC)` → names
/// (MySQL prefix lengths and sort orders dropped).
pub fn column_names(t: &[Token]) -> Vec<String> {
    split_commas(t)
        .iter()
        .filter_map(|c| c.first().and_then(Token::name).map(str::to_string))
        .collect()
}

/// `'text'` with quotes doubled, or `X'…'` for bytes that are not UTF-8.
pub fn literal(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => {
            let mut q = String::with_capacity(s.len() + 2);
            q.push('\'');
            for c in s.chars() {
                if c == '\'' {
                    q.push('\'');
                }
                q.push(c);
            }
            q.push('\'');
            q
        }
        Err(_) => {
            let mut q = String::from("X'");
            for b in bytes {
                q.push_str(&format!("{b:02X}"));
            }
            q.push('\'');
            q
        }
    }
}

/// What rendering removes.
pub struct Render<'a> {
    /// Schema names (lowercase) whose `schema.` prefix is dropped.
    pub schemas: &'a HashSet<String>,
    /// MySQL: drop `_charset` introducers and `COLLATE name`.
    pub mysql: bool,
}

/// Words that continue a type name after `::` (`character varying`,
/// `double precision`, `timestamp without time zone`).
const TYPE_WORDS: [&str; 6] = ["varying", "precision", "with", "without", "time", "zone"];

impl Render<'_> {
    /// Renders tokens as SQL text.
    pub fn sql(&self, t: &[Token]) -> String {
        let mut out = String::new();
        let mut k = 0;
        let mut glue = true;
        while k < t.len() {
            let tok = &t[k];
            // A schema prefix: `public.x`.
            if let Some(n) = tok.name()
                && self.schemas.contains(&n.to_ascii_lowercase())
                && t.get(k + 1).is_some_and(|d| d.is_sym("."))
                && t.get(k + 2).and_then(Token::name).is_some()
            {
                k += 2;
                continue;
            }
            // A cast: `::type`.
            if tok.is_sym("::") {
                k = skip_cast(t, k + 1);
                continue;
            }
            if self.mysql {
                if let Tok::Word(w) = &tok.tok
                    && w.starts_with('_')
                    && matches!(t.get(k + 1).map(|n| &n.tok), Some(Tok::Str(..)))
                {
                    k += 1;
                    continue;
                }
                if tok.is("COLLATE") && t.get(k + 1).and_then(Token::name).is_some() {
                    k += 2;
                    continue;
                }
            }
            let text = match &tok.tok {
                Tok::Word(w) => w.clone(),
                Tok::Ident(s) => quote_ident(s),
                Tok::Str(b, StrKind::Plain | StrKind::Dollar) => literal(b),
                Tok::Str(b, StrKind::Hex) => literal_hex(b),
                Tok::Str(b, StrKind::Bits) => bits_value(b).to_string(),
                Tok::Num(n) => n.clone(),
                Tok::Sym(s) => s.clone(),
                Tok::Meta(_) | Tok::End => {
                    k += 1;
                    continue;
                }
            };
            let dot = tok.is_sym(".");
            // A call: no space between a name and its `(`.
            let call =
                tok.is_sym("(") && k > 0 && matches!(t[k - 1].tok, Tok::Word(_) | Tok::Ident(_));
            if !out.is_empty() && !glue && !dot && !call && !tok.is_sym(")") && !tok.is_sym(",") {
                out.push(' ');
            }
            out.push_str(&text);
            glue = dot || tok.is_sym("(");
            k += 1;
        }
        out
    }
}

/// The index after a cast's type name starting at `k`.
fn skip_cast(t: &[Token], mut k: usize) -> usize {
    // The type's name, maybe qualified.
    if t.get(k).and_then(Token::name).is_some() {
        k += 1;
        while t.get(k).is_some_and(|d| d.is_sym("."))
            && t.get(k + 1).and_then(Token::name).is_some()
        {
            k += 2;
        }
    }
    loop {
        match t.get(k) {
            Some(w) if TYPE_WORDS.iter().any(|x| w.is(x)) => k += 1,
            Some(p) if p.is_sym("(") => {
                let mut depth = 0;
                while let Some(x) = t.get(k) {
                    if x.is_sym("(") {
                        depth += 1;
                    } else if x.is_sym(")") {
                        depth -= 1;
                        if depth == 0 {
                            k += 1;
                            break;
                        }
                    }
                    k += 1;
                }
            }
            Some(b) if b.is_sym("[") => {
                k += 1;
                while t.get(k).is_some_and(|x| !x.is_sym("]")) {
                    k += 1;
                }
                k += 1;
            }
            _ => return k,
        }
    }
}

pub fn literal_hex(b: &[u8]) -> String {
    let mut q = String::from("X'");
    for x in b {
        q.push_str(&format!("{x:02X}"));
    }
    q.push('\'');
    q
}

/// The value of a bit literal's digits (`b'101'` is 5).
pub fn bits_value(digits: &[u8]) -> i64 {
    digits.iter().fold(0i64, |v, d| v.wrapping_shl(1) | i64::from(*d == b'1'))
}
