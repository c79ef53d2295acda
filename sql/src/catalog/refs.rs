//! Where a stored `CREATE` text names a table, or a column of a table:
//! the tokens ALTER TABLE … RENAME rewrites and DROP COLUMN refuses on.
//!
//! SQLite finds them by resolving every name of the parsed statement
//! (`sqlite_rename_column`, `sqlite_rename_table`). A view's column
//! mentions for RENAME COLUMN are found that way too, by planning the view
//! (`exec::alter`, the binder's `ColumnWatch`). Everything else is a token
//! scan of the text with SQLite's scoping rules:
//! - in a table's own text: its column names, the columns of its
//!   PRIMARY KEY / UNIQUE / FOREIGN KEY lists, CHECK and generated-column
//!   expressions, and a self-referencing `REFERENCES t(…)` list — not
//!   declared types, COLLATE or CONSTRAINT names, nor the columns of
//!   another table's `REFERENCES`;
//! - in another table's text: only `REFERENCES t(…)` lists;
//! - in an index on the table: its key parts and WHERE;
//! - in a trigger: the header (`UPDATE OF`, WHEN) only for a trigger on
//!   the table; in its program, a name resolves to the innermost SELECT
//!   whose FROM items have such a column (the catalog says which do), else
//!   to the statement's target table; qualified names by their qualifier
//!   (the table, an alias of it, `new`/`old` of a trigger on it);
//! - in a view (DROP COLUMN's check): every column reference that is
//!   unqualified or qualified by the table or one of its aliases — not
//!   result aliases (`AS name`) or function names.
//!
//! Approximations left: a view's unqualified name in DROP COLUMN's check
//! (a false positive refuses the DROP, never corrupts a text); a trigger's
//! SELECT that reads a table and also has a FROM subquery or CTE with a
//! column of the same name (a name the catalog does not know is taken as
//! possibly that relation's: left alone).

use std::ops::Range;

use sqlparser::tokenizer::Token;

use super::text::{COLUMN_STOP, TABLE_CONSTRAINT, Tok, tokens};

/// Words after which a name is a table's name.
const TABLE_POSITION: &[&str] = &["FROM", "JOIN", "INTO", "UPDATE", "ON", "TABLE", "REFERENCES"];

/// Words that end a FROM clause's list of tables.
const FROM_END: &[&str] = &[
    "WHERE",
    "GROUP",
    "ORDER",
    "LIMIT",
    "HAVING",
    "WINDOW",
    "UNION",
    "EXCEPT",
    "INTERSECT",
    "ON",
    "USING",
    "SELECT",
    "VALUES",
    "SET",
    "END",
];

fn names(t: &Tok, name: &str) -> bool {
    t.ident().is_some_and(|i| i.eq_ignore_ascii_case(name))
        && matches!(t.token, Token::Word(_) | Token::DoubleQuotedString(_))
}

fn is_word_in(t: &Tok, words: &[&str]) -> bool {
    words.iter().any(|w| t.is_word(w))
}

/// Index just past the parenthesis group opened at `open`.
fn group_end(toks: &[Tok], open: usize) -> usize {
    let mut depth = 0usize;
    for (i, t) in toks.iter().enumerate().skip(open) {
        match t.token {
            Token::LParen => depth += 1,
            Token::RParen => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
    }
    toks.len()
}

/// The tokens of `sql` that name the table `table` (its own name in its
/// `CREATE TABLE`, `ON t` of its indexes and triggers, `REFERENCES t`,
/// `FROM` / `JOIN` / `INTO` / `UPDATE t`, and `t.` qualifiers).
pub fn table_mentions(sql: &str, table: &str) -> Vec<Range<usize>> {
    let Some(toks) = tokens(sql) else { return Vec::new() };
    let mut out = Vec::new();
    let mut in_from = false;
    for (i, t) in toks.iter().enumerate() {
        if t.is_word("FROM") || t.is_word("JOIN") {
            in_from = true;
        } else if is_word_in(t, FROM_END) || t.token == Token::SemiColon {
            in_from = false;
        }
        if !names(t, table) {
            continue;
        }
        let prev = i.checked_sub(1).map(|p| &toks[p]);
        if prev.is_some_and(|p| p.token == Token::Period) {
            continue; // `x.t`: a column named like the table
        }
        let qualifier = toks.get(i + 1).is_some_and(|n| n.token == Token::Period);
        let placed = prev
            .is_some_and(|p| is_word_in(p, TABLE_POSITION) || (in_from && p.token == Token::Comma));
        if qualifier || placed {
            out.push(t.range.clone());
        }
    }
    out
}

/// What kind of catalog object a text is, for [`column_mentions`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Table,
    Index,
    View,
    Trigger,
}

impl Kind {
    /// From the catalog's `type` column.
    pub fn of(kind: &str) -> Option<Kind> {
        match kind {
            "table" => Some(Kind::Table),
            "index" => Some(Kind::Index),
            "view" => Some(Kind::View),
            "trigger" => Some(Kind::Trigger),
            _ => None,
        }
    }
}

/// The tokens of the `CREATE` text `sql` of an object of `kind` on table
/// `own` (its `tbl_name`) that name column `col` of table `table`.
///
/// `has_column(t, c)`: whether table or view `t` has a column `c` (true
/// for a name the catalog does not know, such as a CTE: a name that may
/// be its column is not taken for `table`'s).
pub fn column_mentions(
    sql: &str,
    kind: Kind,
    own: &str,
    table: &str,
    col: &str,
    has_column: &dyn Fn(&str, &str) -> bool,
) -> Vec<Range<usize>> {
    let Some(toks) = tokens(sql) else { return Vec::new() };
    let on_table = own.eq_ignore_ascii_case(table);
    match kind {
        Kind::Table if on_table => own_table(&toks, table, col),
        Kind::Table => references(&toks, table, col),
        Kind::Index if on_table => {
            let from = toks.iter().position(|t| t.is_word("ON")).map_or(toks.len(), |p| p + 2);
            body(&toks[from..], &[table], col)
        }
        Kind::Index => Vec::new(),
        Kind::Trigger => {
            if !on_table && table_mentions(sql, table).is_empty() {
                return Vec::new();
            }
            trigger(&toks, on_table, table, col, has_column)
        }
        Kind::View => {
            if !on_table && table_mentions(sql, table).is_empty() {
                return Vec::new();
            }
            let from = match kind {
                // The view's own column list is not the table's.
                Kind::View => toks.iter().position(|t| t.is_word("AS")).unwrap_or(toks.len()),
                _ => toks
                    .iter()
                    .position(|t| {
                        is_word_in(t, &["BEFORE", "AFTER", "INSTEAD", "INSERT", "UPDATE", "DELETE"])
                    })
                    .unwrap_or(toks.len()),
            };
            let toks = &toks[from..];
            let mut quals: Vec<String> = vec![table.to_string()];
            if kind == Kind::Trigger && on_table {
                quals.push("new".into());
                quals.push("old".into());
            }
            quals.extend(aliases(toks, table));
            let q: Vec<&str> = quals.iter().map(String::as_str).collect();
            body(toks, &q, col)
        }
    }
}

/// Words that may follow a FROM item and are no alias of it.
const JOIN_WORDS: &[&str] = &[
    "JOIN",
    "LEFT",
    "RIGHT",
    "INNER",
    "CROSS",
    "NATURAL",
    "FULL",
    "OUTER",
    "INDEXED",
    "NOT",
    "BEGIN",
    "FOR",
    "WHEN",
    "RETURNING",
];

/// The token after a FROM item (past an `AS`) when it names the item:
/// a name that is no clause or join keyword.
fn alias_at(a: &Tok) -> Option<&str> {
    let named = matches!(a.token, Token::Word(_) | Token::DoubleQuotedString(_))
        && !is_word_in(a, FROM_END)
        && !is_word_in(a, JOIN_WORDS);
    if named { a.ident() } else { None }
}

/// Words that end a SELECT's FROM list (at its own nesting).
const FROM_CLAUSE_END: &[&str] = &["WHERE", "GROUP", "ORDER", "LIMIT", "HAVING", "WINDOW"];

/// Words that end one SELECT of a compound.
const SELECT_END: &[&str] = &["UNION", "EXCEPT", "INTERSECT"];

/// The nesting depth of each token (a parenthesis counts inside).
fn depths(toks: &[Tok]) -> Vec<usize> {
    let mut d = 0usize;
    toks.iter()
        .map(|t| match t.token {
            Token::LParen => {
                d += 1;
                d - 1
            }
            Token::RParen => {
                d = d.saturating_sub(1);
                d
            }
            _ => d,
        })
        .collect()
}

/// One FROM item: the table's name (`None` for a subquery).
struct Item {
    table: Option<String>,
}

/// A SELECT of a trigger's program: where its names resolve.
struct SelectScope {
    start: usize,
    end: usize,
    items: Vec<Item>,
}

/// The SELECT starting at `s` (a `SELECT` keyword): its extent and FROM
/// items.
fn select_scope(toks: &[Tok], depth: &[usize], s: usize) -> SelectScope {
    let d = depth[s];
    let mut end = toks.len();
    for j in s + 1..toks.len() {
        if depth[j] < d
            || (depth[j] == d
                && (is_word_in(&toks[j], SELECT_END) || toks[j].token == Token::SemiColon))
        {
            end = j;
            break;
        }
    }
    let mut items = Vec::new();
    let mut in_from = false;
    let mut take = false;
    let mut j = s + 1;
    while j < end {
        let t = &toks[j];
        if depth[j] != d {
            j += 1;
            continue;
        }
        if t.is_word("FROM") || t.is_word("JOIN") {
            in_from = true;
            take = true;
            j += 1;
            continue;
        }
        if is_word_in(t, FROM_CLAUSE_END) {
            in_from = false;
        }
        if in_from && t.token == Token::Comma {
            take = true;
            j += 1;
            continue;
        }
        if in_from && take {
            take = false;
            let (table, after) = match &t.token {
                Token::LParen => (None, group_end(toks, j)),
                _ => {
                    let mut k = j;
                    // `schema.table`
                    if toks.get(k + 1).is_some_and(|n| n.token == Token::Period) {
                        k += 2;
                    }
                    (toks.get(k).and_then(Tok::ident).map(str::to_string), k + 1)
                }
            };
            // A table-valued function's arguments.
            let after = match toks.get(after) {
                Some(n) if n.token == Token::LParen && table.is_some() => group_end(toks, after),
                _ => after,
            };
            let mut k = after;
            if toks.get(k).is_some_and(|n| n.is_word("AS")) {
                k += 1;
            }
            let alias = toks.get(k).and_then(alias_at).map(str::to_string);
            items.push(Item { table });
            j = if alias.is_some() { k + 1 } else { after };
            continue;
        }
        j += 1;
    }
    SelectScope { start: s, end, items }
}

/// Mentions of column `col` of `table` in a trigger's text. The header
/// (`UPDATE OF` list, WHEN) names the trigger's own table, so it counts
/// only for a trigger on `table`. In the program, each statement's names
/// resolve as SQLite resolves them: a name inside a SELECT belongs to the
/// innermost SELECT whose FROM items have such a column (`table`'s: a
/// mention; another's: not), else to the statement's target table
/// (`UPDATE t`, `INSERT INTO t(…)`, `DELETE FROM t`). Qualified names
/// count when the qualifier is `table`, an alias of it, or `new`/`old` of
/// a trigger on it.
fn trigger(
    toks: &[Tok],
    on_table: bool,
    table: &str,
    col: &str,
    has_column: &dyn Fn(&str, &str) -> bool,
) -> Vec<Range<usize>> {
    let header_at = toks
        .iter()
        .position(|t| is_word_in(t, &["BEFORE", "AFTER", "INSTEAD", "INSERT", "UPDATE", "DELETE"]))
        .unwrap_or(toks.len());
    let begin = toks.iter().position(|t| t.is_word("BEGIN")).unwrap_or(toks.len());
    let mut quals: Vec<String> = vec![table.to_string()];
    if on_table {
        quals.push("new".into());
        quals.push("old".into());
    }
    quals.extend(aliases(&toks[begin.min(toks.len())..], table));
    let q: Vec<&str> = quals.iter().map(String::as_str).collect();
    let mut out = Vec::new();
    if on_table {
        out.extend(body(&toks[header_at..begin], &q, col));
    }
    let prog = &toks[(begin + 1).min(toks.len())..];
    let depth = depths(prog);
    let scopes: Vec<SelectScope> = (0..prog.len())
        .filter(|&i| prog[i].is_word("SELECT"))
        .map(|i| select_scope(prog, &depth, i))
        .collect();
    // Statements: split at `;` of depth 0.
    let mut start = 0;
    while start < prog.len() {
        let stop = (start..prog.len())
            .find(|&i| depth[i] == 0 && prog[i].token == Token::SemiColon)
            .unwrap_or(prog.len());
        let stmt = &prog[start..stop];
        let target = statement_target(stmt);
        for i in body_at(stmt, &q, col).into_iter().map(|i| start + i) {
            let qualified = i > 0 && prog[i - 1].token == Token::Period;
            if qualified || resolves_to(&scopes, i, &target, table, col, has_column) {
                out.push(prog[i].range.clone());
            }
        }
        start = stop + 1;
    }
    out
}

/// The table a trigger program's statement writes (`None` for a SELECT).
fn statement_target(stmt: &[Tok]) -> Option<String> {
    let first = stmt.first()?;
    let mut k = if first.is_word("UPDATE") {
        1
    } else if first.is_word("DELETE") && stmt.get(1).is_some_and(|t| t.is_word("FROM")) {
        2
    } else if first.is_word("INSERT") || first.is_word("REPLACE") {
        stmt.iter().position(|t| t.is_word("INTO"))? + 1
    } else {
        return None;
    };
    if stmt.get(k).is_some_and(|t| t.is_word("OR")) {
        k += 2;
    }
    stmt.get(k).and_then(Tok::ident).map(str::to_string)
}

/// Whether the unqualified name at `i` resolves to `table`'s column.
fn resolves_to(
    scopes: &[SelectScope],
    i: usize,
    target: &Option<String>,
    table: &str,
    col: &str,
    has_column: &dyn Fn(&str, &str) -> bool,
) -> bool {
    let mut around: Vec<&SelectScope> =
        scopes.iter().filter(|s| s.start < i && i < s.end).collect();
    around.sort_by_key(|s| std::cmp::Reverse(s.start));
    for s in around {
        let mut other = false;
        for item in &s.items {
            match &item.table {
                Some(t) if t.eq_ignore_ascii_case(table) => return true,
                Some(t) => other |= has_column(t, col),
                None => other = true,
            }
        }
        if other {
            return false;
        }
    }
    target.as_deref().is_some_and(|t| t.eq_ignore_ascii_case(table))
}

/// Aliases given to `table` in FROM clauses (`t AS x`, `t x`).
fn aliases(toks: &[Tok], table: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if !names(t, table) || toks.get(i + 1).is_some_and(|n| n.token == Token::Period) {
            continue;
        }
        let mut j = i + 1;
        if toks.get(j).is_some_and(|n| n.is_word("AS")) {
            j += 1;
        }
        if let Some(n) = toks.get(j).and_then(alias_at) {
            out.push(n.to_string());
        }
    }
    out
}

/// Column references to `col` in an expression-bearing token run: names
/// that are no function call and no result alias, unqualified or
/// qualified by one of `quals`.
fn body(toks: &[Tok], quals: &[&str], col: &str) -> Vec<Range<usize>> {
    body_at(toks, quals, col).into_iter().map(|i| toks[i].range.clone()).collect()
}

/// [`body`]'s mentions as positions in `toks`.
fn body_at(toks: &[Tok], quals: &[&str], col: &str) -> Vec<usize> {
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if !names(t, col) || toks.get(i + 1).is_some_and(|n| n.token == Token::LParen) {
            continue;
        }
        if toks.get(i + 1).is_some_and(|n| n.token == Token::Period) {
            continue; // a qualifier itself
        }
        let prev = i.checked_sub(1).map(|p| &toks[p]);
        if prev.is_some_and(|p| p.is_word("AS") || p.is_word("COLLATE")) {
            continue;
        }
        if prev.is_some_and(|p| p.token == Token::Period) {
            let q = i.checked_sub(2).map(|p| &toks[p]);
            if !q.is_some_and(|q| quals.iter().any(|n| names(q, n))) {
                continue;
            }
        }
        out.push(i);
    }
    out
}

/// `REFERENCES table (cols)` lists naming `col`, from `toks`.
fn references(toks: &[Tok], table: &str, col: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if t.is_word("REFERENCES")
            && toks.get(i + 1).is_some_and(|n| names(n, table))
            && toks.get(i + 2).is_some_and(|n| n.token == Token::LParen)
        {
            let end = group_end(toks, i + 2);
            out.extend(toks[i + 3..end].iter().filter(|t| names(t, col)).map(|t| t.range.clone()));
        }
    }
    out
}

/// Mentions of `col` in the `CREATE TABLE` text of `table` itself.
fn own_table(toks: &[Tok], table: &str, col: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let Some(open) = toks.iter().position(|t| t.token == Token::LParen) else { return out };
    let close = group_end(toks, open) - 1;
    let mut i = open + 1;
    let mut item_start = true;
    while i < close {
        let t = &toks[i];
        if item_start {
            item_start = false;
            if !is_word_in(t, TABLE_CONSTRAINT) {
                // A column definition: its name, then its type.
                if names(t, col) {
                    out.push(t.range.clone());
                }
                let name_at = i;
                i += 1;
                while i < close
                    && match &toks[i].token {
                        Token::Word(_) => !is_word_in(&toks[i], COLUMN_STOP),
                        Token::SingleQuotedString(_) | Token::DoubleQuotedString(_) => true,
                        _ => false,
                    }
                {
                    i += 1;
                }
                if i < close && toks[i].token == Token::LParen && i > name_at + 1 {
                    i = group_end(toks, i);
                }
                continue;
            }
        }
        match &t.token {
            Token::Comma => item_start = true,
            Token::LParen => {
                // A nested group: expressions or a column list (scanned
                // as one run: commas inside do not start items).
                let end = group_end(toks, i).min(close + 1);
                let inner = &toks[(i + 1).min(end)..(end - 1).max(i + 1).min(end)];
                out.extend(body(inner, &[table], col));
                i = end;
                continue;
            }
            _ if t.is_word("COLLATE") || t.is_word("CONSTRAINT") => i += 1,
            _ if t.is_word("REFERENCES") => {
                let self_ref = toks.get(i + 1).is_some_and(|n| names(n, table));
                i += 2;
                if i < close && toks[i].token == Token::LParen {
                    let end = group_end(toks, i);
                    if self_ref {
                        out.extend(
                            toks[i + 1..end - 1]
                                .iter()
                                .filter(|t| names(t, col))
                                .map(|t| t.range.clone()),
                        );
                    }
                    i = end;
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(sql: &str, r: Vec<Range<usize>>) -> Vec<&str> {
        r.into_iter().map(|r| &sql[r]).collect()
    }

    #[test]
    fn own_table_mentions() {
        let sql = "CREATE TABLE t(a INT, \"b\" b CHECK (b > a), c AS (b*2) REFERENCES u(b), \
                   d REFERENCES t(b) COLLATE b, UNIQUE (b, a), CHECK (t.b <> 0))";
        let got = texts(sql, column_mentions(sql, Kind::Table, "t", "t", "b", &|_, _| true));
        assert_eq!(got, ["\"b\"", "b", "b", "b", "b", "b"]);
    }

    #[test]
    fn view_and_table_mentions() {
        let sql = "CREATE VIEW v(b) AS SELECT b AS b, x.b, y.b, max(b) FROM t AS x, u y";
        let got = texts(sql, column_mentions(sql, Kind::View, "v", "t", "b", &|_, _| true));
        assert_eq!(got, ["b", "b", "b"]);
        assert_eq!(texts(sql, table_mentions(sql, "t")), ["t"]);
        assert_eq!(texts(sql, table_mentions(sql, "u")), ["u"]);
    }
}
