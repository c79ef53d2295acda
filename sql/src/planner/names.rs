//! Result column names as SQLite gives them: an unnamed expression is named
//! by its text as written (`SELECT a+1` → `a+1`), which `sqlparser`'s
//! re-rendering (`a + 1`) and its partial spans cannot give. So the select
//! list is cut out of the statement text by a small scanner: from the
//! `SELECT` keyword to the first top-level `FROM` (or other clause keyword),
//! split at top-level commas.

use sqlparser::tokenizer::Location;

/// Byte offset of a 1-based (line, column) location, columns in chars.
fn offset(text: &str, loc: Location) -> Option<usize> {
    let mut line = 1;
    let mut col = 1;
    for (i, ch) in text.char_indices() {
        if line == loc.line && col == loc.column {
            return Some(i);
        }
        if ch == '\n' {
            line += 1;
            col = 1;
        } else {
            col += 1;
        }
    }
    None
}

const STOP: &[&str] = &[
    "FROM",
    "WHERE",
    "GROUP",
    "HAVING",
    "ORDER",
    "LIMIT",
    "UNION",
    "EXCEPT",
    "INTERSECT",
    "WINDOW",
];

/// The texts of the select-list items of the SELECT whose keyword starts
/// at `select`; `None` if the text cannot be scanned.
pub fn select_items(text: &str, select: Location) -> Option<Vec<String>> {
    let start = offset(text, select)?;
    let b = text.as_bytes();
    if !text.get(start..start + 6)?.eq_ignore_ascii_case("select") {
        return None;
    }
    let mut i = start + 6;
    let mut items = Vec::new();
    let mut item_start = i;
    let mut depth = 0usize;
    while i < b.len() {
        let c = b[i];
        match c {
            b'\'' | b'"' | b'`' | b'[' => {
                let close = if c == b'[' { b']' } else { c };
                i += 1;
                while i < b.len() && b[i] != close {
                    i += 1;
                }
            }
            b'-' if b.get(i + 1) == Some(&b'-') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                    i += 1;
                }
                i += 1;
            }
            b'(' => depth += 1,
            b')' => {
                if depth == 0 {
                    break;
                }
                depth -= 1;
            }
            b',' if depth == 0 => {
                items.push(text[item_start..i].to_string());
                item_start = i + 1;
            }
            b';' if depth == 0 => break,
            c if depth == 0 && c.is_ascii_alphabetic() => {
                let w_end = b[i..]
                    .iter()
                    .position(|x| !(x.is_ascii_alphanumeric() || *x == b'_'))
                    .map_or(b.len(), |p| i + p);
                let prev_ok = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
                let word = &text[i..w_end];
                if prev_ok && STOP.iter().any(|s| s.eq_ignore_ascii_case(word)) {
                    break;
                }
                i = w_end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    items.push(text[item_start..i.min(b.len())].to_string());
    let mut out: Vec<String> = items.into_iter().map(|s| s.trim().to_string()).collect();
    // A leading DISTINCT / ALL belongs to the SELECT, not the first item.
    if let Some(first) = out.first_mut() {
        for kw in ["DISTINCT", "ALL"] {
            // `get`: the item may start with a multi-byte character.
            if first.get(..kw.len()).is_some_and(|w| w.eq_ignore_ascii_case(kw))
                && first.as_bytes().get(kw.len()).is_some_and(u8::is_ascii_whitespace)
            {
                *first = first[kw.len()..].trim_start().to_string();
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(sql: &str) -> Vec<String> {
        select_items(sql, Location { line: 1, column: 1 }).unwrap()
    }

    #[test]
    fn splits_at_top_level_commas_up_to_from() {
        assert_eq!(
            items("SELECT a+1, count(*),max(a , b) ,'x,y' FROM t WHERE 1"),
            ["a+1", "count(*)", "max(a , b)", "'x,y'"]
        );
        assert_eq!(items("select distinct  -a ,CAST(x AS TEXT)"), ["-a", "CAST(x AS TEXT)"]);
        assert_eq!(items("SELECT fromage, x/*,*/ FROM t"), ["fromage", "x/*,*/"]);
        assert_eq!(items("SELECT 1 UNION SELECT 2"), ["1"]);
    }

    #[test]
    fn multi_byte_characters_anywhere() {
        assert_eq!(items("SELECT 'São Paulo' AS city"), ["'São Paulo' AS city"]);
        assert_eq!(items("SELECT '😀' AS o0, count('ção')"), ["'😀' AS o0", "count('ção')"]);
        assert_eq!(items("SELECT Müller, ALL_x"), ["Müller", "ALL_x"]);
        assert_eq!(items("SELECT DISTINCT 😀"), ["😀"]);
    }
}
