//! The texts of the catalog, as SQLite keeps them.
//!
//! `sqlite_schema.sql` holds each `CREATE` statement as written, from its
//! object's name on: `CREATE <KIND> ` then the statement text from the
//! (unqualified) name to the end of its last token ([`stored_create`]).
//! `CREATE TABLE IF NOT EXISTS main."t" (a)` is stored as
//! `CREATE TABLE "t" (a)`, as SQLite does.
//!
//! What `PRAGMA table_info` reports as written — a column's declared type
//! (`NVARCHAR(160)`, internal spaces kept) and its DEFAULT's text — and a
//! CHECK's text for its error message are cut out of the stored text by
//! [`scan_table`], a token scan of the column list with SQLite's rules
//! (`sqlparser` keeps neither).
//!
//! ALTER TABLE edits these texts in place ([`splice`]), as SQLite's
//! `sqlite_rename_*` functions do, so what was written stays as written.

use std::ops::Range;

use sqlparser::tokenizer::{Token, Tokenizer};

use crate::parse::{LineStarts, SqliteGrammar};

/// `CREATE <kind> ` followed by `source[name_start..end]`.
pub fn stored_create(kind: &str, source: &str, name_start: usize, end: usize) -> String {
    format!("CREATE {kind} {}", &source[name_start..end])
}

/// A token of a text, with its byte range.
#[derive(Clone, Debug)]
pub struct Tok {
    pub token: Token,
    pub range: Range<usize>,
}

impl Tok {
    /// True for the unquoted word `kw` (any case).
    pub fn is_word(&self, kw: &str) -> bool {
        matches!(&self.token, Token::Word(w) if w.quote_style.is_none() && w.value.eq_ignore_ascii_case(kw))
    }

    /// The identifier or keyword this token spells (quotes removed).
    pub fn ident(&self) -> Option<&str> {
        match &self.token {
            Token::Word(w) => Some(&w.value),
            Token::DoubleQuotedString(s) => Some(s),
            _ => None,
        }
    }
}

/// The tokens of `sql`, whitespace and comments left out; `None` if it
/// does not tokenize.
pub fn tokens(sql: &str) -> Option<Vec<Tok>> {
    let toks = Tokenizer::new(&SqliteGrammar, sql).tokenize_with_location().ok()?;
    let lines = LineStarts::new(sql);
    let mut out = Vec::with_capacity(toks.len());
    for t in toks {
        if matches!(t.token, Token::Whitespace(_) | Token::EOF) {
            continue;
        }
        let s = lines.offset(t.span.start)?;
        let e = lines.offset(t.span.end)?;
        out.push(Tok { token: t.token, range: s..e });
    }
    Some(out)
}

/// Index just past the parenthesis matching the `(` at `open`.
fn matching(toks: &[Tok], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, t) in toks.iter().enumerate().skip(open) {
        match t.token {
            Token::LParen => depth += 1,
            Token::RParen => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// What the column list of a `CREATE TABLE` text says as written.
#[derive(Clone, Debug, Default)]
pub struct TableText {
    /// Byte offset of the `)` that closes the column list (where ALTER
    /// TABLE ADD COLUMN inserts).
    pub close_paren: usize,
    pub columns: Vec<ColumnText>,
    /// Each CHECK constraint in declaration order: its name, or else its
    /// expression as written (SQLite's error message names it so).
    pub checks: Vec<String>,
    /// Byte ranges of the column list's items (columns and table
    /// constraints), commas excluded.
    pub items: Vec<Range<usize>>,
    /// SQLite's `addColOffset`: the comma before the first table
    /// constraint, else the closing `)` — where ADD COLUMN inserts
    /// `, <definition>` and where DROP COLUMN of the last column ends.
    pub add_col_offset: usize,
}

/// One column definition as written.
#[derive(Clone, Debug, Default)]
pub struct ColumnText {
    /// The declared type, dequoted, inner spaces kept.
    pub decl_type: Option<String>,
    /// The DEFAULT's text (without the parentheses of `DEFAULT (expr)`).
    pub default: Option<String>,
    /// The whole definition.
    pub range: Range<usize>,
}

/// Words that end a column's type: the start of a column constraint.
pub(super) const COLUMN_STOP: &[&str] = &[
    "CONSTRAINT",
    "PRIMARY",
    "NOT",
    "NULL",
    "UNIQUE",
    "CHECK",
    "DEFAULT",
    "COLLATE",
    "REFERENCES",
    "GENERATED",
    "AS",
];

/// Words that start a table constraint.
pub(super) const TABLE_CONSTRAINT: &[&str] =
    &["CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN"];

/// SQLite's `sqlite3Dequote`: a text starting with a quote loses it and
/// its match (doubled quotes inside become one).
pub fn dequote(s: &str) -> String {
    let close = match s.chars().next() {
        Some('"') => '"',
        Some('\'') => '\'',
        Some('`') => '`',
        Some('[') => ']',
        _ => return s.to_string(),
    };
    let mut out = String::new();
    let mut it = s[1..].chars().peekable();
    while let Some(c) = it.next() {
        if c == close {
            if close != ']' && it.peek() == Some(&close) {
                it.next();
                out.push(c);
                continue;
            }
            break;
        }
        out.push(c);
    }
    out
}

/// SQLite's `sqlite3DbSpanDup`: the text with surrounding spaces cut.
fn span(sql: &str, r: Range<usize>) -> String {
    sql[r].trim().to_string()
}

/// Scans the column list of a `CREATE TABLE … ( … )` text; `None` if the
/// text has none (or does not tokenize).
pub fn scan_table(sql: &str) -> Option<TableText> {
    let toks = tokens(sql)?;
    let open = toks.iter().position(|t| t.token == Token::LParen)?;
    let close = matching(&toks, open)? - 1;
    let close_at = toks[close].range.start;
    let mut out =
        TableText { close_paren: close_at, add_col_offset: close_at, ..TableText::default() };
    // Split into items at top-level commas.
    let mut items: Vec<Range<usize>> = Vec::new();
    let mut depth = 0usize;
    let mut start = open + 1;
    for (i, tok) in toks.iter().enumerate().take(close + 1).skip(open + 1) {
        match tok.token {
            Token::LParen => depth += 1,
            Token::RParen if depth > 0 => depth -= 1,
            Token::Comma if depth == 0 => {
                items.push(start..i);
                start = i + 1;
            }
            Token::RParen => items.push(start..i),
            _ => {}
        }
    }
    let mut seen_constraint = false;
    for it in items {
        let comma = it.start.checked_sub(1).filter(|&c| c > open).map(|c| toks[c].range.start);
        let item = &toks[it];
        let (Some(first), Some(last)) = (item.first(), item.last()) else { continue };
        out.items.push(first.range.start..last.range.end);
        let is_constraint = TABLE_CONSTRAINT.iter().any(|k| first.is_word(k));
        if is_constraint && !seen_constraint {
            seen_constraint = true;
            if let Some(c) = comma {
                out.add_col_offset = c;
            }
        }
        if !is_constraint {
            out.columns.push(scan_column(sql, item));
        }
        scan_checks(sql, item, &mut out.checks);
    }
    Some(out)
}

fn scan_column(sql: &str, item: &[Tok]) -> ColumnText {
    let range = item[0].range.start..item[item.len() - 1].range.end;
    // The type: names and strings, then an optional `( … )`.
    let mut i = 1;
    while i < item.len()
        && match &item[i].token {
            Token::Word(_) => !COLUMN_STOP.iter().any(|k| item[i].is_word(k)),
            Token::SingleQuotedString(_) | Token::DoubleQuotedString(_) => true,
            _ => false,
        }
    {
        i += 1;
    }
    if i > 1 && i < item.len() && item[i].token == Token::LParen {
        i = matching(item, i).unwrap_or(item.len());
    }
    let decl_type = (i > 1).then(|| dequote(&sql[item[1].range.start..item[i - 1].range.end]));
    // DEFAULT, at the column's top level.
    let mut default = None;
    let mut depth = 0usize;
    let mut j = i;
    while j < item.len() {
        match item[j].token {
            Token::LParen => depth += 1,
            Token::RParen => depth = depth.saturating_sub(1),
            _ if depth == 0 && item[j].is_word("DEFAULT") && j + 1 < item.len() => {
                let v = &item[j + 1];
                default = Some(match v.token {
                    Token::LParen => match matching(item, j + 1) {
                        Some(end) => span(sql, v.range.end..item[end - 1].range.start),
                        None => span(sql, v.range.clone()),
                    },
                    Token::Minus | Token::Plus if j + 2 < item.len() => {
                        span(sql, v.range.start..item[j + 2].range.end)
                    }
                    _ => span(sql, v.range.clone()),
                });
                break;
            }
            _ => {}
        }
        j += 1;
    }
    ColumnText { decl_type, default, range }
}

/// The CHECK constraints of one item, each by name or text.
fn scan_checks(sql: &str, item: &[Tok], out: &mut Vec<String>) {
    for (i, t) in item.iter().enumerate() {
        if !t.is_word("CHECK") || item.get(i + 1).is_none_or(|n| n.token != Token::LParen) {
            continue;
        }
        let named = (i >= 2 && item[i - 2].is_word("CONSTRAINT"))
            .then(|| item[i - 1].ident().map(str::to_string))
            .flatten();
        let text = match matching(item, i + 1) {
            Some(end) => span(sql, item[i + 1].range.end..item[end - 1].range.start),
            None => continue,
        };
        out.push(named.unwrap_or(text));
    }
}

/// Replaces the byte ranges `edits` of `sql` (sorted, not overlapping)
/// with their texts.
pub fn splice(sql: &str, edits: &[(Range<usize>, String)]) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut at = 0;
    for (r, s) in edits {
        out.push_str(&sql[at..r.start]);
        out.push_str(s);
        at = r.end;
    }
    out.push_str(&sql[at..]);
    out
}

/// An identifier as SQLite writes a renamed one: quoted with `"` (inner
/// quotes doubled), as `sqlite_rename_column` does.
pub fn quote_ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_as_written() {
        let sql = "CREATE TABLE t(a  unsigned   big  int, b VARCHAR( 10 , 2 ) DEFAULT ( 1+2 ), \
                   c \"quoted type\" DEFAULT 'x', d NVARCHAR(160)  NOT NULL DEFAULT -5, e, \
                   CONSTRAINT ck CHECK (a>0), CHECK( b <> 'x' ), f INT CHECK(f>1))";
        let t = scan_table(sql).unwrap();
        let types: Vec<_> = t.columns.iter().map(|c| c.decl_type.clone()).collect();
        assert_eq!(
            types,
            [
                Some("unsigned   big  int".to_string()),
                Some("VARCHAR( 10 , 2 )".into()),
                Some("quoted type".into()),
                Some("NVARCHAR(160)".into()),
                None,
                Some("INT".into())
            ]
        );
        let defaults: Vec<_> = t.columns.iter().map(|c| c.default.clone()).collect();
        assert_eq!(
            defaults,
            [None, Some("1+2".to_string()), Some("'x'".into()), Some("-5".into()), None, None]
        );
        assert_eq!(t.checks, ["ck", "b <> 'x'", "f>1"]);
        assert_eq!(&sql[t.close_paren..], ")");
        assert_eq!(t.items.len(), 8);
    }

    #[test]
    fn dequotes_like_sqlite() {
        assert_eq!(dequote("\"a\"\"b\""), "a\"b");
        assert_eq!(dequote("[x y]"), "x y");
        assert_eq!(dequote("plain"), "plain");
    }
}
