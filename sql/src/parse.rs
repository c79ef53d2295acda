//! Parsing SQL text: the one entry point every part of the engine uses
//! ([`parse_sql`]), with SQLite's grammar where `sqlparser`'s SQLite
//! dialect differs, and statement kinds ([`StatementKind`]) decided from
//! the parsed statement, never from its text.
//!
//! [`SqliteGrammar`] is `sqlparser`'s `SQLiteDialect` with SQLite's own
//! operator precedence (lang_expr.html, highest first):
//!
//! | level | operators |
//! |---|---|
//! | prefix | `~` `+` `-` (unary), then `COLLATE` |
//! | 45 | `\|\|` `->` `->>` |
//! | 40 | `*` `/` `%` |
//! | 30 | `+` `-` |
//! | 24 | `&` `\|` `<<` `>>` |
//! | 21 | `<` `<=` `>` `>=` |
//! | 20 | `=` `==` `<>` `!=` `IS [NOT]` `IS [NOT] DISTINCT FROM` `BETWEEN` `IN` `LIKE` `GLOB` `MATCH` `REGEXP` `ISNULL` `NOTNULL` `NOT NULL` |
//! | 15 | `NOT` (prefix) |
//! | 10 | `AND` |
//! | 5 | `OR` |
//!
//! and the postfix and negated forms SQLite has and the dialect lacks:
//! `x ISNULL`, `x NOTNULL`, `x NOT GLOB y`, `x NOT REGEXP y`,
//! `x NOT MATCH y`.

use sqlparser::ast::{self, BinaryOperator, Expr, UnaryOperator};
use sqlparser::dialect::{Dialect, Precedence, SQLiteDialect};
use sqlparser::keywords::Keyword;
use sqlparser::parser::{Parser, ParserError};
use sqlparser::tokenizer::{Token, TokenWithSpan, Tokenizer};

use crate::{Error, Result};

mod statements;
pub use statements::{query_of, trigger_if_not_exists, upsert_clauses};

/// Parses every statement of `sql` with SQLite's grammar.
/// Whether a hex token with these `digits` is `0x1F` (an integer) rather
/// than `X'1F'` (a blob): sqlparser gives both as one token kind, and the
/// token's width tells them apart — two characters of prefix against three
/// of quoting. The one rule the parser's pragma values, the binder and the
/// script's fast path use; it needs no statement text, so a literal in a
/// view, a trigger or a derived table reads the same everywhere.
pub(crate) fn is_hex_integer(span: sqlparser::tokenizer::Span, digits: &str) -> bool {
    let (a, b) = (span.start, span.end);
    a.line == b.line
        && a.line > 0
        && b.column.saturating_sub(a.column) == digits.chars().count() as u64 + 2
}

pub fn parse_sql(sql: &str) -> Result<Vec<ast::Statement>> {
    Ok(parse_statements(sql)?.into_iter().map(|p| p.stmt).collect())
}

/// A statement and where its text lies in the text it was parsed from.
#[derive(Clone, Debug)]
pub struct Parsed {
    pub stmt: ast::Statement,
    /// Byte range from the statement's first token to the end of its last
    /// (no `;`, no whitespace or comments around it).
    pub text: std::ops::Range<usize>,
}

/// Parses every statement of `sql` with SQLite's grammar, keeping each
/// one's text: a `CREATE` statement is stored as it was written
/// (`sqlite_schema.sql`), not as `sqlparser` would render it.
pub fn parse_statements(sql: &str) -> Result<Vec<Parsed>> {
    let err = |e: ParserError| Error::Parse(e.to_string());
    let tokens =
        Tokenizer::new(&SqliteGrammar, sql).tokenize_with_location().map_err(|e| err(e.into()))?;
    let tokens = window_excludes(tokens);
    let mut parser = Parser::new(&SqliteGrammar).with_tokens_with_locations(tokens);
    let lines = LineStarts::new(sql);
    let mut out = Vec::new();
    let mut expecting_delimiter = false;
    loop {
        while parser.consume_token(&Token::SemiColon) {
            expecting_delimiter = false;
        }
        if parser.peek_token_ref().token == Token::EOF {
            break;
        }
        if expecting_delimiter {
            return Err(err(parser
                .expected_ref::<()>("end of statement", parser.peek_token_ref())
                .expect_err("expected_ref always fails")));
        }
        let start = lines.offset(parser.peek_token_ref().span.start);
        let stmt = parser.parse_statement().map_err(err)?;
        // The last token the statement consumed (the parser may stand just
        // after whitespace it peeked over).
        let mut last = parser.index();
        while last > 0 && matches!(parser.token_at(last - 1).token, Token::Whitespace(_)) {
            last -= 1;
        }
        let end = lines.offset(parser.token_at(last.saturating_sub(1)).span.end);
        let text = match (start, end) {
            (Some(s), Some(e)) if s <= e => s..e,
            _ => 0..sql.len(),
        };
        out.push(Parsed { stmt, text });
        expecting_delimiter = true;
    }
    Ok(out)
}

/// Byte offsets of a text's lines, to turn token locations (1-based line
/// and column, columns counted in characters) into byte offsets.
pub(crate) struct LineStarts<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineStarts<'a> {
    pub(crate) fn new(text: &'a str) -> LineStarts<'a> {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineStarts { text, starts }
    }

    pub(crate) fn offset(&self, loc: sqlparser::tokenizer::Location) -> Option<usize> {
        let line = usize::try_from(loc.line).ok()?.checked_sub(1)?;
        let col = usize::try_from(loc.column).ok()?.checked_sub(1)?;
        let start = *self.starts.get(line)?;
        let rest = &self.text[start..];
        match rest.char_indices().nth(col) {
            Some((o, _)) => Some(start + o),
            // Just past the last character of the text.
            None => (rest.chars().count() == col).then_some(self.text.len()),
        }
    }
}

/// A window frame's `EXCLUDE NO OTHERS | CURRENT ROW | GROUP | TIES`,
/// which `sqlparser` does not parse: the clause is taken out of the token
/// stream and its mode carried in the window's name (the identifier that
/// may open a window specification, `OVER (base …)`), after
/// [`crate::planner::window::EXCLUDE_MARK`]; the binder splits it off.
fn window_excludes(mut tokens: Vec<TokenWithSpan>) -> Vec<TokenWithSpan> {
    let kw = |t: &TokenWithSpan| match &t.token {
        Token::Word(w) if w.quote_style.is_none() => Some(w.value.to_ascii_uppercase()),
        _ => None,
    };
    let mut i = 0;
    while i < tokens.len() {
        if kw(&tokens[i]).as_deref() != Some("EXCLUDE") {
            i += 1;
            continue;
        }
        // The next two significant tokens name the mode.
        let sig: Vec<usize> = (i + 1..tokens.len())
            .filter(|&j| !matches!(tokens[j].token, Token::Whitespace(_)))
            .take(2)
            .collect();
        let at = |k: usize| sig.get(k).and_then(|&j| kw(&tokens[j]));
        let (mode, len) = match (at(0).as_deref(), at(1).as_deref()) {
            (Some("NO"), Some("OTHERS")) => ("no others", 2),
            (Some("CURRENT"), Some("ROW")) => ("current row", 2),
            (Some("GROUP"), _) => ("group", 1),
            (Some("TIES"), _) => ("ties", 1),
            _ => {
                i += 1;
                continue;
            }
        };
        // The window specification's opening parenthesis.
        let mut depth = 0usize;
        let mut open = None;
        for j in (0..i).rev() {
            match tokens[j].token {
                Token::RParen => depth += 1,
                Token::LParen if depth == 0 => {
                    open = Some(j);
                    break;
                }
                Token::LParen => depth -= 1,
                _ => {}
            }
        }
        let Some(open) = open else {
            i += 1;
            continue;
        };
        let last = sig[len - 1];
        tokens.drain(i..=last);
        let first = (open + 1..i).find(|&j| !matches!(tokens[j].token, Token::Whitespace(_)));
        let mark = crate::planner::window::EXCLUDE_MARK;
        match first.map(|j| (j, &mut tokens[j].token)) {
            Some((_, Token::Word(w)))
                if !matches!(
                    w.keyword,
                    Keyword::PARTITION
                        | Keyword::ORDER
                        | Keyword::ROWS
                        | Keyword::RANGE
                        | Keyword::GROUPS
                ) =>
            {
                w.value = format!("{}{mark}{mode}", w.value);
            }
            _ => {
                let span = tokens[open].span;
                let word = Token::Word(sqlparser::tokenizer::Word {
                    value: format!("{mark}{mode}"),
                    quote_style: None,
                    keyword: Keyword::NoKeyword,
                });
                tokens.insert(open + 1, TokenWithSpan { token: word, span });
            }
        }
        i += 1;
    }
    tokens
}

/// Parses exactly one statement.
pub fn parse_one(sql: &str) -> Result<ast::Statement> {
    let mut v = parse_sql(sql)?;
    match v.len() {
        1 => Ok(v.remove(0)),
        n => Err(Error::InvalidInput(format!("expected one statement, got {n}"))),
    }
}

/// What a statement does, as the session, the facade and the Reservoir
/// need to know it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatementKind {
    /// A query (`SELECT`, `VALUES`, `WITH … SELECT`) or `EXPLAIN`: reads only.
    Query,
    /// `INSERT`, `UPDATE`, `DELETE`, `REPLACE`.
    Dml,
    /// `CREATE`, `DROP`, `ALTER`: changes the schema.
    Ddl,
    /// `BEGIN` / `START TRANSACTION`.
    Begin,
    /// `COMMIT` / `END`.
    Commit,
    /// `ROLLBACK` of the whole transaction.
    Rollback,
    /// `SAVEPOINT name`.
    Savepoint,
    /// `RELEASE [SAVEPOINT] name`.
    Release,
    /// `ROLLBACK TO [SAVEPOINT] name`: undoes to a savepoint, the
    /// transaction stays open.
    RollbackTo,
    /// `PRAGMA`: reads or sets a setting, or reports on the schema (the
    /// session asks `pragma` which).
    Pragma,
    /// `VACUUM`: rebuilds the database; runs outside any transaction.
    Vacuum,
    /// Anything else.
    Other,
}

impl StatementKind {
    pub fn of(stmt: &ast::Statement) -> StatementKind {
        use ast::Statement as S;
        match stmt {
            // `WITH … INSERT/UPDATE/DELETE` reads as a query whose body is
            // the statement.
            S::Query(q)
                if matches!(
                    q.body.as_ref(),
                    ast::SetExpr::Insert(_) | ast::SetExpr::Update(_) | ast::SetExpr::Delete(_)
                ) =>
            {
                StatementKind::Dml
            }
            S::Query(_) | S::Explain { .. } => StatementKind::Query,
            S::Insert(_) | S::Update(_) | S::Delete(_) => StatementKind::Dml,
            S::CreateTable(_)
            | S::CreateIndex(_)
            | S::CreateView(_)
            | S::CreateTrigger(_)
            | S::Drop { .. }
            | S::DropTrigger(_)
            | S::AlterTable(_)
            | S::Analyze(_) => StatementKind::Ddl,
            // REINDEX rebuilds indexes: a schema-level write.
            S::Vacuum(v) if v.reindex => StatementKind::Ddl,
            S::Vacuum(_) => StatementKind::Vacuum,
            S::Pragma { .. } => StatementKind::Pragma,
            S::StartTransaction { .. } => StatementKind::Begin,
            S::Commit { .. } => StatementKind::Commit,
            S::Rollback { savepoint: None, .. } => StatementKind::Rollback,
            S::Rollback { savepoint: Some(_), .. } => StatementKind::RollbackTo,
            S::Savepoint { .. } => StatementKind::Savepoint,
            S::ReleaseSavepoint { .. } => StatementKind::Release,
            _ => StatementKind::Other,
        }
    }

    /// The kind of the one statement in `sql`.
    pub fn of_text(sql: &str) -> Result<StatementKind> {
        Ok(StatementKind::of(&parse_one(sql)?))
    }

    /// True for the statements that start, end or partly undo a
    /// transaction.
    pub fn is_transaction_control(self) -> bool {
        matches!(
            self,
            StatementKind::Begin
                | StatementKind::Commit
                | StatementKind::Rollback
                | StatementKind::Savepoint
                | StatementKind::Release
                | StatementKind::RollbackTo
        )
    }

    /// True if the statement cannot change the database.
    pub fn is_read_only(self) -> bool {
        self == StatementKind::Query
    }
}

/// The transaction-control kind of the one statement in `sql`
/// ([`StatementKind::is_transaction_control`]), or `None` for any other
/// statement (or one that does not parse). Only statements whose first
/// word can begin transaction control are parsed, so callers can ask this
/// of every statement of a bulk script cheaply.
pub fn transaction_control(sql: &str) -> Option<StatementKind> {
    const FIRST: &[&str] = &["BEGIN", "START", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE"];
    let w = first_word(sql)?;
    if !FIRST.iter().any(|f| f.eq_ignore_ascii_case(w)) {
        return None;
    }
    StatementKind::of_text(sql).ok().filter(|k| k.is_transaction_control())
}

/// The first word of `sql` after whitespace and comments.
fn first_word(sql: &str) -> Option<&str> {
    let mut s = sql;
    loop {
        s = s.trim_start();
        if let Some(rest) = s.strip_prefix("--") {
            s = rest.split_once('\n').map_or("", |r| r.1);
        } else if let Some(rest) = s.strip_prefix("/*") {
            s = rest.split_once("*/").map_or("", |r| r.1);
        } else {
            break;
        }
    }
    let end = s.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(s.len());
    (end > 0).then(|| &s[..end])
}

/// `sqlparser`'s SQLite dialect with SQLite's precedence and postfix
/// operators (see the module docs). It reports itself as
/// `SQLiteDialect`, so the parser's dialect checks treat it as one.
#[derive(Debug, Default, Clone, Copy)]
pub struct SqliteGrammar;

const OR: u8 = 5;
const AND: u8 = 10;
const NOT: u8 = 15;
const EQ: u8 = 20;
const CMP: u8 = 21;
const BIT: u8 = 24;
const ADD: u8 = 30;
const MUL: u8 = 40;
const CONCAT: u8 = 45;
/// `expr COLLATE name`: tighter than every binary operator.
const COLLATE: u8 = 55;
/// Operands of unary `-`, `+`, `~`: tighter still (SQLite's highest
/// operators; see `parse_prefix`).
const UNARY: u8 = 60;

fn word(t: &Token) -> Option<Keyword> {
    match t {
        Token::Word(w) => Some(w.keyword),
        _ => None,
    }
}

/// `ISNULL` is not one of `sqlparser`'s keywords: a plain word.
fn is_isnull(t: &Token) -> bool {
    matches!(t, Token::Word(w) if w.quote_style.is_none() && w.value.eq_ignore_ascii_case("isnull"))
}

impl Dialect for SqliteGrammar {
    fn dialect(&self) -> std::any::TypeId {
        std::any::TypeId::of::<SQLiteDialect>()
    }

    /// `WITH x AS [NOT] MATERIALIZED (…)` (SQLite 3.35): a non-binding
    /// planner hint in SQLite; see `planner::cte` for what we do with it.
    fn supports_cte_materialization(&self) -> bool {
        true
    }

    fn parse_prefix(&self, parser: &mut Parser) -> Option<Result<Expr, ParserError>> {
        // `NOT EXISTS (…) <= c` is `NOT (EXISTS (…) <= c)` in SQLite, whose
        // NOT takes any expression; the parser reads `NOT EXISTS` as one
        // operand.
        if word(&parser.peek_token_ref().token) == Some(Keyword::NOT)
            && word(&parser.peek_nth_token_ref(1).token) == Some(Keyword::EXISTS)
        {
            parser.advance_token();
            return Some(
                parser
                    .parse_subexpr(NOT)
                    .map(|e| Expr::UnaryOp { op: UnaryOperator::Not, expr: Box::new(e) }),
            );
        }
        let op = match parser.peek_token_ref().token {
            Token::Minus => UnaryOperator::Minus,
            Token::Plus => UnaryOperator::Plus,
            Token::Tilde => UnaryOperator::BitwiseNot,
            _ => return None,
        };
        parser.advance_token();
        // `parse_subexpr` attaches a COLLATE straight after the operand,
        // whatever the precedence; SQLite's unary operators bind tighter,
        // so the operator goes under it: `-0.0 COLLATE RTRIM` is
        // `(-0.0) COLLATE RTRIM`, the REAL -0.0 (not `0 - (0.0 COLLATE
        // RTRIM)`, which is 0.0).
        Some(parser.parse_subexpr(UNARY).map(|e| match e {
            Expr::Collate { expr, collation } => {
                Expr::Collate { expr: Box::new(Expr::UnaryOp { op, expr }), collation }
            }
            e => Expr::UnaryOp { op, expr: Box::new(e) },
        }))
    }

    fn parse_infix(
        &self,
        parser: &mut Parser,
        expr: &Expr,
        precedence: u8,
    ) -> Option<Result<Expr, ParserError>> {
        if is_isnull(&parser.peek_token_ref().token) {
            parser.advance_token();
            return Some(Ok(Expr::IsNull(Box::new(expr.clone()))));
        }
        let next = word(&parser.peek_token_ref().token);
        match next {
            Some(Keyword::NOTNULL) => {
                parser.advance_token();
                return Some(Ok(Expr::IsNotNull(Box::new(expr.clone()))));
            }
            // `x IS [NOT] NULL …`: SQLite has no `IS NULL` postfix operator,
            // only `x IS [NOT] y` with `y` any operand, so `x IS NOT NULL >> 1`
            // is `x IS NOT (NULL >> 1)`.
            Some(Keyword::IS) => {
                let not = word(&parser.peek_nth_token_ref(1).token) == Some(Keyword::NOT);
                let at = if not { 2 } else { 1 };
                if word(&parser.peek_nth_token_ref(at).token) == Some(Keyword::NULL) {
                    for _ in 0..at {
                        parser.advance_token();
                    }
                    let right = match parser.parse_subexpr(EQ) {
                        Ok(e) => e,
                        Err(e) => return Some(Err(e)),
                    };
                    let left = Box::new(expr.clone());
                    return Some(Ok(match (right, not) {
                        (Expr::Value(v), false) if v.value == ast::Value::Null => {
                            Expr::IsNull(left)
                        }
                        (Expr::Value(v), true) if v.value == ast::Value::Null => {
                            Expr::IsNotNull(left)
                        }
                        (r, false) => Expr::IsNotDistinctFrom(left, Box::new(r)),
                        (r, true) => Expr::IsDistinctFrom(left, Box::new(r)),
                    }));
                }
            }
            // `COLLATE` after a postfix operator (`x IS NULL COLLATE
            // NOCASE`, `x NOTNULL COLLATE NOCASE`): the parser attaches
            // COLLATE only to operands, SQLite to any expression.
            Some(Keyword::COLLATE) => {
                parser.advance_token();
                return Some(
                    parser
                        .parse_object_name(false)
                        .map(|collation| Expr::Collate { expr: Box::new(expr.clone()), collation }),
                );
            }
            Some(Keyword::NOT) => {
                let op = match word(&parser.peek_nth_token_ref(1).token) {
                    Some(Keyword::GLOB) => BinaryOperator::Glob,
                    Some(Keyword::REGEXP) => BinaryOperator::Regexp,
                    Some(Keyword::MATCH) => BinaryOperator::Match,
                    _ => return None,
                };
                parser.advance_token();
                parser.advance_token();
                let right = match parser.parse_subexpr(precedence) {
                    Ok(e) => e,
                    Err(e) => return Some(Err(e)),
                };
                let inner =
                    Expr::BinaryOp { left: Box::new(expr.clone()), op, right: Box::new(right) };
                return Some(Ok(Expr::UnaryOp {
                    op: UnaryOperator::Not,
                    expr: Box::new(Expr::Nested(Box::new(inner))),
                }));
            }
            _ => {}
        }
        SQLiteDialect {}.parse_infix(parser, expr, precedence)
    }

    fn get_next_precedence(&self, parser: &Parser) -> Option<Result<u8, ParserError>> {
        let p = match &parser.peek_token_ref().token {
            Token::StringConcat | Token::Arrow | Token::LongArrow => CONCAT,
            Token::Mul | Token::Div | Token::Mod => MUL,
            Token::Plus | Token::Minus => ADD,
            Token::Ampersand | Token::Pipe | Token::ShiftLeft | Token::ShiftRight => BIT,
            Token::Lt | Token::LtEq | Token::Gt | Token::GtEq => CMP,
            Token::Eq | Token::DoubleEq | Token::Neq => EQ,
            Token::Colon => self.prec_unknown(),
            t if is_isnull(t) => EQ,
            Token::Word(w) => match w.keyword {
                Keyword::COLLATE => COLLATE,
                Keyword::OR => OR,
                Keyword::AND => AND,
                Keyword::IS
                | Keyword::IN
                | Keyword::BETWEEN
                | Keyword::LIKE
                | Keyword::GLOB
                | Keyword::MATCH
                | Keyword::REGEXP
                | Keyword::NOTNULL => EQ,
                Keyword::NOT => match word(&parser.peek_nth_token_ref(1).token) {
                    Some(
                        Keyword::IN
                        | Keyword::BETWEEN
                        | Keyword::LIKE
                        | Keyword::GLOB
                        | Keyword::MATCH
                        | Keyword::REGEXP,
                    ) => EQ,
                    // `NOT NULL` (outside column definitions) as the parser has it.
                    _ => return None,
                },
                _ => return None,
            },
            _ => return None,
        };
        Some(Ok(p))
    }

    fn prec_value(&self, prec: Precedence) -> u8 {
        match prec {
            Precedence::Period => 100,
            Precedence::DoubleColon => 50,
            Precedence::AtTz => 41,
            Precedence::MulDivModOp => MUL,
            Precedence::PlusMinus => ADD,
            Precedence::Xor | Precedence::Ampersand | Precedence::Caret | Precedence::Pipe => BIT,
            Precedence::Colon => BIT,
            Precedence::PgOther => CONCAT,
            Precedence::Between | Precedence::Eq | Precedence::Like | Precedence::Is => EQ,
            Precedence::UnaryNot => NOT,
            Precedence::And => AND,
            Precedence::Or => OR,
        }
    }

    // Everything else as `SQLiteDialect` has it.
    fn is_delimited_identifier_start(&self, ch: char) -> bool {
        SQLiteDialect {}.is_delimited_identifier_start(ch)
    }
    fn identifier_quote_style(&self, identifier: &str) -> Option<char> {
        SQLiteDialect {}.identifier_quote_style(identifier)
    }
    fn ordered_bind_placeholder_style(&self) -> Option<sqlparser::dialect::BindPlaceholderStyle> {
        SQLiteDialect {}.ordered_bind_placeholder_style()
    }
    fn is_identifier_start(&self, ch: char) -> bool {
        SQLiteDialect {}.is_identifier_start(ch)
    }
    fn is_identifier_part(&self, ch: char) -> bool {
        SQLiteDialect {}.is_identifier_part(ch)
    }
    fn supports_filter_during_aggregation(&self) -> bool {
        true
    }
    fn supports_start_transaction_modifier(&self) -> bool {
        true
    }
    fn parse_statement(&self, parser: &mut Parser) -> Option<Result<ast::Statement, ParserError>> {
        statements::parse_statement(parser).or_else(|| SQLiteDialect {}.parse_statement(parser))
    }
    fn parse_data_type(&self, parser: &mut Parser) -> Option<Result<ast::DataType, ParserError>> {
        statements::parse_data_type(parser).or_else(|| SQLiteDialect {}.parse_data_type(parser))
    }
    fn supports_in_empty_list(&self) -> bool {
        true
    }
    fn supports_limit_comma(&self) -> bool {
        true
    }
    fn supports_asc_desc_in_column_definition(&self) -> bool {
        true
    }
    fn supports_dollar_placeholder(&self) -> bool {
        true
    }
    fn supports_notnull_operator(&self) -> bool {
        true
    }
    fn supports_is_operator(&self) -> bool {
        true
    }
    fn supports_comma_separated_trim(&self) -> bool {
        true
    }
    fn supports_numeric_literal_underscores(&self) -> bool {
        SQLiteDialect {}.supports_numeric_literal_underscores()
    }
    fn supports_double_eq_assignment(&self) -> bool {
        true
    }
    fn supports_string_literal_column_names(&self) -> bool {
        true
    }
    fn supports_cast_empty_data_type_to_unspecified(&self) -> bool {
        true
    }
    fn supports_national_string_literal(&self) -> bool {
        false
    }
    fn supports_parens_around_table_factor(&self) -> bool {
        true
    }
    fn supports_unterminated_block_comments(&self) -> bool {
        true
    }
    fn is_column_alias(&self, kw: &Keyword, parser: &mut Parser) -> bool {
        // `INSERT INTO t SELECT 1, 2 ON CONFLICT …`: ON is no alias.
        *kw != Keyword::ON && SQLiteDialect {}.is_column_alias(kw, parser)
    }
    fn supports_over_keyword_as_column_alias(&self) -> bool {
        true
    }
    fn supports_indexed_by(&self) -> bool {
        true
    }
    fn supports_insert_table_alias(&self) -> bool {
        // `INSERT INTO t AS x … ON CONFLICT … DO UPDATE SET a = x.a + 1`;
        // SQLite wants the AS (refused without it when the INSERT runs).
        true
    }
    fn is_table_alias(&self, kw: &Keyword, parser: &mut Parser) -> bool {
        SQLiteDialect {}.is_table_alias(kw, parser)
    }
    fn supports_comma_join_constraint(&self) -> bool {
        true
    }
    fn supports_aggregate_order_by_with_empty_args(&self) -> bool {
        true
    }
    fn supports_bitwise_shift_operators(&self) -> bool {
        true
    }
    fn supports_in_table_expression(&self) -> bool {
        true
    }
    fn is_table_factor(&self, kw: &Keyword, parser: &mut Parser) -> bool {
        SQLiteDialect {}.is_table_factor(kw, parser)
    }
    fn between_low_bound_precedence(&self) -> u8 {
        AND
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_item(sql: &str) -> Expr {
        match parse_one(&format!("SELECT {sql}")).unwrap() {
            ast::Statement::Query(q) => match *q.body {
                ast::SetExpr::Select(s) => match &s.projection[0] {
                    ast::SelectItem::UnnamedExpr(e) => e.clone(),
                    other => panic!("{other:?}"),
                },
                _ => unreachable!(),
            },
            _ => unreachable!(),
        }
    }

    /// The tree's shape with every operator parenthesised.
    fn shape(e: &Expr) -> String {
        match e {
            Expr::Nested(e) => shape(e),
            Expr::BinaryOp { left, op, right } => {
                format!("({} {op} {})", shape(left), shape(right))
            }
            Expr::UnaryOp { op, expr } => format!("({op} {})", shape(expr)),
            Expr::IsNull(e) => format!("({} ISNULL)", shape(e)),
            Expr::IsNotNull(e) => format!("({} NOTNULL)", shape(e)),
            Expr::Like { expr, pattern, .. } => {
                format!("({} LIKE {})", shape(expr), shape(pattern))
            }
            Expr::Between { expr, low, high, .. } => {
                format!("({} BETWEEN {} AND {})", shape(expr), shape(low), shape(high))
            }
            Expr::IsDistinctFrom(a, b) => format!("({} IS DISTINCT FROM {})", shape(a), shape(b)),
            Expr::Collate { expr, collation } => format!("({} COLLATE {collation})", shape(expr)),
            other => other.to_string(),
        }
    }

    fn expr(sql: &str) -> String {
        shape(&first_item(sql))
    }

    fn same(a: &str, b: &str) {
        assert_eq!(expr(a), expr(b), "{a}  vs  {b}");
    }

    #[test]
    fn sqlite_precedence() {
        same("1 + 2 || 'a'", "1 + (2 || 'a')");
        same("-a || b", "(-a) || b");
        same("-a COLLATE NOCASE", "(-a) COLLATE NOCASE");
        same("~a COLLATE NOCASE || b", "((~a) COLLATE NOCASE) || b");
        same("a || b COLLATE NOCASE", "a || (b COLLATE NOCASE)");
        same("a IS b = c", "(a IS b) = c");
        same("a LIKE b = c", "(a LIKE b) = c");
        same("a = b < c", "a = (b < c)");
        same("a & b + c", "a & (b + c)");
        same("NOT a = b", "NOT (a = b)");
        same("NOT EXISTS (SELECT 1) <= c", "NOT (EXISTS (SELECT 1) <= c)");
        same("NOT EXISTS (SELECT 1) AND c", "(NOT EXISTS (SELECT 1)) AND c");
        same("a BETWEEN 1 AND 2 = 1", "(a BETWEEN 1 AND 2) = 1");
    }

    #[test]
    fn postfix_and_negated_operators() {
        assert_eq!(expr("a ISNULL"), "(a ISNULL)");
        assert_eq!(expr("a NOTNULL"), "(a NOTNULL)");
        assert_eq!(expr("a NOT NULL"), "(a NOTNULL)");
        assert_eq!(expr("a + 1 ISNULL"), "((a + 1) ISNULL)");
        assert_eq!(expr("a NOT GLOB 'x*'"), "(NOT (a GLOB 'x*'))");
        assert_eq!(expr("a NOT REGEXP b OR c"), "((NOT (a REGEXP b)) OR c)");
        assert!(parse_sql("SELECT CASE WHEN a NOT GLOB b THEN 1 END FROM t").is_ok());
    }

    #[test]
    fn statement_texts_as_written() {
        let sql = "CREATE TABLE a(x) ; /* c */ CREATE VIEW v AS SELECT 1 -- t\n;SELECT 'é',\n 2;\
                   PRAGMA foreign_keys=OFF";
        let p = parse_statements(sql).unwrap();
        let texts: Vec<&str> = p.iter().map(|p| &sql[p.text.clone()]).collect();
        assert_eq!(
            texts,
            [
                "CREATE TABLE a(x)",
                "CREATE VIEW v AS SELECT 1",
                "SELECT 'é',\n 2",
                "PRAGMA foreign_keys=OFF"
            ]
        );
        assert!(parse_statements("SELECT 1 SELECT 2").is_err());
    }

    #[test]
    fn sqlite_only_statements() {
        let pragma = |sql: &str| match parse_one(sql).unwrap() {
            ast::Statement::Pragma { name, value, is_eq } => {
                (name.to_string(), value.map(|v| v.value), is_eq)
            }
            other => panic!("{other:?}"),
        };
        use ast::Value as V;
        assert_eq!(pragma("PRAGMA foreign_keys=OFF").1, Some(V::DoubleQuotedString("OFF".into())));
        assert_eq!(pragma("PRAGMA cache_size = -2000").1, Some(V::Number("-2000".into(), false)));
        assert_eq!(pragma("pragma main.user_version=+3").1, Some(V::Number("3".into(), false)));
        assert_eq!(
            pragma("PRAGMA table_info([Album])").1,
            Some(V::DoubleQuotedString("Album".into()))
        );
        assert_eq!(pragma("PRAGMA table_info('t')").1, Some(V::SingleQuotedString("t".into())));
        assert_eq!(pragma("PRAGMA main.table_list"), ("main.table_list".into(), None, false));
        assert!(parse_one("PRAGMA x = (1)").is_err());
        for sql in [
            "VACUUM",
            "VACUUM main",
            "VACUUM INTO 'b.db'",
            "VACUUM main INTO ?",
            "REINDEX",
            "REINDEX t",
            "REINDEX main.i",
            "ANALYZE",
            "ANALYZE main.t",
        ] {
            parse_one(sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
        }
        assert!(parse_one("VACUUM INTO x").is_err());
        assert!(parse_one("ANALYZE t (a)").is_err());
        let trig = "CREATE TRIGGER IF NOT EXISTS tr AFTER UPDATE OF a, b ON t FOR EACH ROW \
                    WHEN new.a > 1 BEGIN INSERT INTO log VALUES (new.a); \
                    SELECT CASE WHEN 1 THEN RAISE(ABORT, 'no') END; END";
        match parse_one(trig).unwrap() {
            ast::Statement::CreateTrigger(ct) => assert!(trigger_if_not_exists(&ct)),
            other => panic!("{other:?}"),
        }
        assert!(
            parse_one("CREATE TRIGGER tr BEFORE INSERT OR DELETE ON t BEGIN SELECT 1; END")
                .is_err()
        );
        assert!(
            parse_one(
                "CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH STATEMENT BEGIN SELECT 1; END"
            )
            .is_err()
        );
        // SQLite's type names: words, then up to two numbers.
        for sql in [
            "CREATE TABLE t(a unsigned big int, b VARCHAR( 10 , 2 ), c double precision)",
            "SELECT CAST(1 AS varying character(3))",
        ] {
            parse_one(sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
        }
    }

    #[test]
    fn kinds_from_the_parser() {
        use StatementKind as K;
        for (sql, k) in [
            ("SELECT 1", K::Query),
            ("WITH x AS (SELECT 1) SELECT * FROM x", K::Query),
            ("VALUES (1)", K::Query),
            ("INSERT INTO t VALUES (1)", K::Dml),
            ("REPLACE INTO t VALUES (1)", K::Dml),
            ("CREATE TABLE t(a)", K::Ddl),
            ("BEGIN", K::Begin),
            ("BEGIN IMMEDIATE TRANSACTION", K::Begin),
            ("END", K::Commit),
            ("COMMIT", K::Commit),
            ("ROLLBACK", K::Rollback),
            ("ROLLBACK\nTO sp", K::RollbackTo),
            ("ROLLBACK TRANSACTION TO SAVEPOINT sp", K::RollbackTo),
            ("SAVEPOINT sp", K::Savepoint),
            ("RELEASE sp", K::Release),
            ("PRAGMA user_version = 1", K::Pragma),
            ("VACUUM", K::Vacuum),
            ("VACUUM INTO 'x'", K::Vacuum),
            ("REINDEX", K::Ddl),
            ("ANALYZE", K::Ddl),
            ("CREATE TRIGGER t AFTER INSERT ON x BEGIN SELECT 1; END", K::Ddl),
            ("DROP TRIGGER t", K::Ddl),
        ] {
            assert_eq!(StatementKind::of_text(sql).unwrap(), k, "{sql}");
        }
        assert_eq!(transaction_control("ROLLBACK\nTO sp"), Some(StatementKind::RollbackTo));
        assert_eq!(transaction_control("-- c\n/* d */ begin;"), Some(StatementKind::Begin));
        assert_eq!(transaction_control("END"), Some(StatementKind::Commit));
        assert_eq!(transaction_control("SELECT 'BEGIN'"), None);
        assert_eq!(transaction_control("ENDS"), None);
    }
}
