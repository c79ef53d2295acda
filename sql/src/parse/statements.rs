//! SQLite statements that `sqlparser`'s SQLite dialect lacks or reads with
//! another grammar, parsed here with SQLite's (lang_*.html) and mapped
//! onto the nearest `sqlparser` AST node, so the rest of the engine keeps
//! one statement type:
//!
//! | SQLite | AST |
//! |---|---|
//! | `PRAGMA [schema.]name [= v \| (v)]` | `Statement::Pragma`: `v` a signed number (`Value::Number`, sign included), a string (`SingleQuotedString`) or a name or keyword (`DoubleQuotedString`, quotes removed) |
//! | `VACUUM [schema] [INTO file]` | `Statement::Vacuum`: `table_name` the schema, `threshold` the file (a string or a parameter) |
//! | `REINDEX [[schema.]name]` | `Statement::Vacuum` with `reindex` set, `table_name` the name |
//! | `ANALYZE [[schema.]name]` | `Statement::Analyze` |
//! | `CREATE [TEMP] TRIGGER [IF NOT EXISTS] …` | `Statement::CreateTrigger`, IF NOT EXISTS as `or_alter` (SQLite has no `OR ALTER`; see [`trigger_if_not_exists`]) |
//! | `WITH … REPLACE INTO …` | `Statement::Query` whose body is the INSERT (as `sqlparser` reads `WITH … INSERT`) |
//! | `INSERT … ON CONFLICT … ON CONFLICT … [RETURNING …]` (several upsert clauses) | `Statement::Insert`: the first clause in `on` (as `sqlparser` reads it), each further one in `partitioned` as a subquery whose body is an INSERT holding the clause in its `on` (see [`upsert_clauses`]) |
//!
//! `sqlparser` itself accepts only numbers and strings as pragma values
//! (`PRAGMA foreign_keys=OFF`, the first line of every `sqlite3 .dump`, is
//! a syntax error there), has no `VACUUM INTO` or `REINDEX`, reads
//! PostgreSQL's column lists after `ANALYZE t`, and no `IF NOT EXISTS` on
//! triggers. Its INSERT reads one ON CONFLICT clause (SQLite allows
//! several, only the last without a target) and accepts a SELECT source
//! whose FROM is followed directly by ON CONFLICT, which SQLite's grammar
//! reads as a join constraint (a syntax error: SQLite's documentation
//! asks for `WHERE true` there).

use sqlparser::ast::{self, Statement, Value};
use sqlparser::keywords::Keyword;
use sqlparser::parser::{IsOptional, Parser, ParserError};
use sqlparser::tokenizer::Token;

/// True when `word` (unquoted) is the current token.
fn peek_word(parser: &Parser, n: usize, word: &str) -> bool {
    matches!(&parser.peek_nth_token_ref(n).token,
        Token::Word(w) if w.quote_style.is_none() && w.value.eq_ignore_ascii_case(word))
}

/// Parses the statements of the module table; `None` for every other
/// statement (the dialect's parser takes it).
pub(super) fn parse_statement(parser: &mut Parser) -> Option<Result<Statement, ParserError>> {
    if peek_word(parser, 0, "PRAGMA") {
        parser.advance_token();
        return Some(parse_pragma(parser));
    }
    if peek_word(parser, 0, "VACUUM") {
        parser.advance_token();
        return Some(parse_vacuum(parser));
    }
    if peek_word(parser, 0, "REINDEX") {
        parser.advance_token();
        return Some(parse_reindex(parser));
    }
    if peek_word(parser, 0, "ANALYZE") {
        parser.advance_token();
        return Some(parse_analyze(parser));
    }
    if peek_word(parser, 0, "INSERT") {
        let tok = parser.next_token();
        return Some(parse_insert(parser, tok));
    }
    if peek_word(parser, 0, "REPLACE") {
        // As the SQLite dialect does: the REPLACE stays for the INSERT
        // parser, which reads it as the conflict clause.
        let tok = parser.peek_token();
        return Some(parse_insert(parser, tok));
    }
    if peek_word(parser, 0, "WITH") && with_body_is_replace(parser) {
        return Some(parse_with_replace(parser));
    }
    if peek_word(parser, 0, "CREATE") {
        let temp = peek_word(parser, 1, "TEMP") || peek_word(parser, 1, "TEMPORARY");
        let at = 1 + usize::from(temp);
        if peek_word(parser, at, "TRIGGER") {
            for _ in 0..=at {
                parser.advance_token();
            }
            return Some(parse_trigger(parser, temp));
        }
    }
    None
}

/// Words that end a column's type (the start of a constraint).
const TYPE_STOP: &[&str] = &[
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
    "ON",
];

fn is_type_word(t: &Token) -> bool {
    match t {
        Token::Word(w) if w.quote_style.is_none() => {
            !TYPE_STOP.iter().any(|k| w.value.eq_ignore_ascii_case(k))
        }
        Token::Word(_) => true,
        _ => false,
    }
}

/// SQLite's type names: any words, then an optional `(n)` or `(n, m)`
/// (`UNSIGNED BIG INT`, `VARCHAR(10, 2)`). Taken here when the name has
/// several words or arguments, which `sqlparser` reads only for the
/// combinations it knows; one bare word goes to it. The type's text (for
/// affinity) is the words joined by spaces.
pub(super) fn parse_data_type(parser: &mut Parser) -> Option<Result<ast::DataType, ParserError>> {
    let mut n = 0;
    while is_type_word(&parser.peek_nth_token_ref(n).token) {
        n += 1;
    }
    let parens = parser.peek_nth_token_ref(n).token == Token::LParen;
    if n < 2 && !(n == 1 && parens) {
        return None;
    }
    let mut words = Vec::with_capacity(n);
    for _ in 0..n {
        if let Token::Word(w) = parser.next_token().token {
            words.push(w.value);
        }
    }
    let mut modifiers = Vec::new();
    if parser.consume_token(&Token::LParen) {
        loop {
            let tok = parser.next_token();
            let sign = match tok.token {
                Token::Minus => "-",
                Token::Plus => "+",
                _ => {
                    parser.prev_token();
                    ""
                }
            };
            let num = parser.next_token();
            match num.token {
                Token::Number(v, _) => {
                    modifiers.push(ast::TypeModifier::Number(format!("{sign}{v}"), false))
                }
                _ => return Some(parser.expected("a number", num)),
            }
            if !parser.consume_token(&Token::Comma) {
                break;
            }
        }
        if let Err(e) = parser.expect_token(&Token::RParen) {
            return Some(Err(e));
        }
    }
    let name = ast::ObjectName::from(vec![ast::Ident::new(words.join(" "))]);
    Some(Ok(ast::DataType::Custom(name, modifiers)))
}

/// An optional `schema.` qualifier and a name.
fn parse_name(parser: &mut Parser) -> Result<ast::ObjectName, ParserError> {
    parser.parse_object_name(false)
}

/// True at the end of the statement (`;` or the end of the text).
fn at_end(parser: &Parser) -> bool {
    matches!(parser.peek_token_ref().token, Token::SemiColon | Token::EOF)
}

fn parse_pragma(parser: &mut Parser) -> Result<Statement, ParserError> {
    let name = parse_name(parser)?;
    let (value, is_eq) = if parser.consume_token(&Token::Eq) {
        (Some(pragma_value(parser)?), true)
    } else if parser.consume_token(&Token::LParen) {
        let v = pragma_value(parser)?;
        parser.expect_token(&Token::RParen)?;
        (Some(v), false)
    } else {
        (None, false)
    };
    Ok(Statement::Pragma { name, value, is_eq })
}

/// SQLite's `nmnum | plus_num | minus_num`: a name, keyword or string, or
/// a signed number.
fn pragma_value(parser: &mut Parser) -> Result<ast::ValueWithSpan, ParserError> {
    let tok = parser.next_token();
    let span = tok.span;
    let signed = |parser: &mut Parser, sign: &str| {
        let t = parser.next_token();
        match t.token {
            Token::Number(n, _) => Ok(Value::Number(format!("{sign}{n}"), false)),
            // SQLite reads a signed value with sqlite3Atoi, whose hex
            // form has no sign: it stops at the `x` (`-0x10` is 0).
            Token::HexStringLiteral(_) if is_hex_integer(&t) => {
                Ok(Value::Number("0".into(), false))
            }
            _ => parser.expected("a number", t),
        }
    };
    let v = match tok.token {
        Token::Number(n, _) => Value::Number(n, false),
        Token::HexStringLiteral(ref h) if is_hex_integer(&tok) => {
            Value::Number(pragma_hex(h).to_string(), false)
        }
        Token::Minus => signed(parser, "-")?,
        Token::Plus => signed(parser, "")?,
        Token::SingleQuotedString(s) => Value::SingleQuotedString(s),
        Token::DoubleQuotedString(s) => Value::DoubleQuotedString(s),
        Token::Word(w) => Value::DoubleQuotedString(w.value),
        _ => return parser.expected("a pragma value", tok),
    };
    Ok(v.with_span(span))
}

/// `0x1F`, not `X'1F'` ([`crate::parse::is_hex_integer`]).
fn is_hex_integer(tok: &sqlparser::tokenizer::TokenWithSpan) -> bool {
    matches!(&tok.token, Token::HexStringLiteral(h) if crate::parse::is_hex_integer(tok.span, h))
}

/// A pragma's hex value as SQLite's `sqlite3Atoi` reads it: a positive
/// 32-bit integer of at most 8 significant digits, anything else 0
/// (`PRAGMA user_version = 0x10` sets 16).
fn pragma_hex(digits: &str) -> i64 {
    let significant = digits.trim_start_matches('0');
    match u32::from_str_radix(if significant.is_empty() { "0" } else { significant }, 16) {
        Ok(v) if significant.len() <= 8 && v < 0x8000_0000 => i64::from(v),
        _ => 0,
    }
}

fn parse_vacuum(parser: &mut Parser) -> Result<Statement, ParserError> {
    let schema = if at_end(parser) || peek_word(parser, 0, "INTO") {
        None
    } else {
        Some(ast::ObjectName::from(vec![parser.parse_identifier()?]))
    };
    let into = if parser.parse_keyword(Keyword::INTO) {
        let tok = parser.next_token();
        let v = match tok.token {
            Token::SingleQuotedString(s) => Value::SingleQuotedString(s),
            Token::Placeholder(p) => Value::Placeholder(p),
            _ => return parser.expected("a file name (a string or a parameter)", tok),
        };
        Some(v.with_span(tok.span))
    } else {
        None
    };
    Ok(vacuum(schema, into, false))
}

fn vacuum(
    table_name: Option<ast::ObjectName>,
    threshold: Option<ast::ValueWithSpan>,
    reindex: bool,
) -> Statement {
    Statement::Vacuum(ast::VacuumStatement {
        full: false,
        sort_only: false,
        delete_only: false,
        reindex,
        recluster: false,
        table_name,
        threshold,
        boost: false,
    })
}

fn parse_reindex(parser: &mut Parser) -> Result<Statement, ParserError> {
    let name = if at_end(parser) { None } else { Some(parse_name(parser)?) };
    Ok(vacuum(name, None, true))
}

fn parse_analyze(parser: &mut Parser) -> Result<Statement, ParserError> {
    let table_name = if at_end(parser) { None } else { Some(parse_name(parser)?) };
    Ok(Statement::Analyze(ast::Analyze {
        table_name,
        partitions: None,
        for_columns: false,
        columns: Vec::new(),
        cache_metadata: false,
        noscan: false,
        compute_statistics: false,
        has_table_keyword: false,
    }))
}

/// `CREATE [TEMP] TRIGGER` after the `TRIGGER` keyword: SQLite's grammar
/// (one event, `FOR EACH ROW` optional, a `BEGIN … END` body of
/// statements each ended by `;`).
fn parse_trigger(parser: &mut Parser, temporary: bool) -> Result<Statement, ParserError> {
    let if_not_exists = parser.parse_keywords(&[Keyword::IF, Keyword::NOT, Keyword::EXISTS]);
    let mut ct = parser.parse_create_trigger(temporary, false, false, false)?;
    if ct.events.len() != 1 {
        return Err(ParserError::ParserError(
            "a trigger fires on one of INSERT, UPDATE or DELETE".into(),
        ));
    }
    if matches!(ct.events[0], ast::TriggerEvent::Truncate) {
        return Err(ParserError::ParserError("near \"TRUNCATE\": syntax error".into()));
    }
    if matches!(ct.period, Some(ast::TriggerPeriod::For)) || ct.referenced_table_name.is_some() {
        return Err(ParserError::ParserError("near \"FOR\": syntax error".into()));
    }
    match &ct.trigger_object {
        None | Some(ast::TriggerObjectKind::ForEach(ast::TriggerObject::Row)) => {}
        Some(_) => {
            return Err(ParserError::ParserError(
                "FOR EACH STATEMENT triggers are not supported (SQLite has row triggers only)"
                    .into(),
            ));
        }
    }
    if ct.exec_body.is_some()
        || !ct.referencing.is_empty()
        || ct.characteristics.is_some()
        || !matches!(ct.statements, Some(ast::ConditionalStatements::BeginEnd(_)))
    {
        return Err(ParserError::ParserError(
            "a trigger body is BEGIN, statements each ended by ';', then END".into(),
        ));
    }
    ct.or_alter = if_not_exists;
    Ok(Statement::CreateTrigger(ct))
}

/// Whether a `CREATE TRIGGER` parsed here said IF NOT EXISTS.
pub fn trigger_if_not_exists(ct: &ast::CreateTrigger) -> bool {
    ct.or_alter
}

/// True when the statement starting at `WITH` is `WITH … REPLACE INTO …`:
/// the first statement word outside the CTE list's parentheses is
/// REPLACE.
fn with_body_is_replace(parser: &Parser) -> bool {
    let mut depth = 0usize;
    for n in 1.. {
        match &parser.peek_nth_token_ref(n).token {
            Token::EOF | Token::SemiColon => return false,
            Token::LParen => depth += 1,
            Token::RParen => depth = depth.saturating_sub(1),
            Token::Word(w) if depth == 0 && w.quote_style.is_none() => match w.keyword {
                Keyword::REPLACE => return true,
                Keyword::SELECT
                | Keyword::VALUES
                | Keyword::INSERT
                | Keyword::UPDATE
                | Keyword::DELETE => return false,
                _ => {}
            },
            _ => {}
        }
    }
    false
}

/// `WITH … REPLACE INTO …` (SQLite's `REPLACE` is `INSERT OR REPLACE`
/// after a WITH too; `sqlparser` takes only INSERT, UPDATE and DELETE
/// there): the query whose body is the REPLACE, as `sqlparser` builds `WITH
/// … INSERT`.
fn parse_with_replace(parser: &mut Parser) -> Result<Statement, ParserError> {
    parser.expect_keyword(Keyword::WITH)?;
    let with_token = parser.get_current_token().clone();
    let with = ast::With {
        with_token: with_token.into(),
        recursive: parser.parse_keyword(Keyword::RECURSIVE),
        cte_tables: parser.parse_comma_separated(Parser::parse_cte)?,
    };
    let tok = parser.peek_token();
    let body = parse_insert(parser, tok)?;
    Ok(Statement::Query(Box::new(query_of(Some(with), ast::SetExpr::Insert(body)))))
}

/// A query of `body` alone (with `with`), every other clause absent.
pub fn query_of(with: Option<ast::With>, body: ast::SetExpr) -> ast::Query {
    ast::Query {
        with,
        body: Box::new(body),
        order_by: None,
        limit_clause: None,
        fetch: None,
        locks: Vec::new(),
        for_clause: None,
        settings: None,
        format_clause: None,
        pipe_operators: Vec::new(),
    }
}

/// `INSERT`/`REPLACE` after its first token: `sqlparser`'s INSERT, then
/// the further ON CONFLICT clauses it stops before, and RETURNING after
/// them.
fn parse_insert(
    parser: &mut Parser,
    tok: sqlparser::tokenizer::TokenWithSpan,
) -> Result<Statement, ParserError> {
    let mut stmt = parser.parse_insert(tok)?;
    let Statement::Insert(ins) = &mut stmt else { return Ok(stmt) };
    let Some(ast::OnInsert::OnConflict(first)) = &ins.on else { return Ok(stmt) };
    if upsert_ambiguous(ins.source.as_deref()) {
        return Err(ParserError::ParserError("near \"DO\": syntax error".into()));
    }
    let mut has_target = first.conflict_target.is_some();
    let mut extra = Vec::new();
    while ins.returning.is_none() && peek_word(parser, 0, "ON") && peek_word(parser, 1, "CONFLICT")
    {
        if !has_target {
            // SQLite: only the last clause may omit its target.
            return Err(ParserError::ParserError("near \"ON\": syntax error".into()));
        }
        parser.advance_token();
        parser.advance_token();
        let clause = parse_upsert_clause(parser)?;
        has_target = clause.conflict_target.is_some();
        let mut holder = ins.clone();
        holder.source = None;
        holder.partitioned = None;
        holder.on = Some(ast::OnInsert::OnConflict(clause));
        extra.push(ast::Expr::Subquery(Box::new(query_of(
            None,
            ast::SetExpr::Insert(Statement::Insert(holder)),
        ))));
    }
    if !extra.is_empty() {
        ins.partitioned = Some(extra);
        if parser.parse_keyword(Keyword::RETURNING) {
            ins.returning = Some(parser.parse_comma_separated(Parser::parse_select_item)?);
        }
    }
    Ok(stmt)
}

/// One upsert clause after its `ON CONFLICT`:
/// `[(column, …) [WHERE expr]] DO NOTHING | DO UPDATE SET … [WHERE expr]`,
/// read with `sqlparser`'s own pieces (column lists, assignments,
/// expressions).
fn parse_upsert_clause(parser: &mut Parser) -> Result<ast::OnConflict, ParserError> {
    let conflict_target = if parser.peek_token_ref().token == Token::LParen {
        let columns = parser.parse_parenthesized_column_list(IsOptional::Mandatory, false)?;
        let predicate =
            if parser.parse_keyword(Keyword::WHERE) { Some(parser.parse_expr()?) } else { None };
        Some(ast::ConflictTarget::Columns { columns, predicate })
    } else {
        None
    };
    parser.expect_keyword_is(Keyword::DO)?;
    let action = if parser.parse_keyword(Keyword::NOTHING) {
        ast::OnConflictAction::DoNothing
    } else {
        parser.expect_keywords(&[Keyword::UPDATE, Keyword::SET])?;
        let assignments = parser.parse_comma_separated(Parser::parse_assignment)?;
        let selection =
            if parser.parse_keyword(Keyword::WHERE) { Some(parser.parse_expr()?) } else { None };
        ast::OnConflictAction::DoUpdate(ast::DoUpdate { assignments, selection })
    };
    Ok(ast::OnConflict { conflict_target, action })
}

/// SQLite's parse ambiguity: an INSERT's SELECT that ends with its FROM
/// list takes a following `ON` as a join constraint.
fn upsert_ambiguous(source: Option<&ast::Query>) -> bool {
    let Some(q) = source else { return false };
    if q.order_by.is_some() || q.limit_clause.is_some() {
        return false;
    }
    let mut body = q.body.as_ref();
    loop {
        match body {
            ast::SetExpr::SetOperation { right, .. } => body = right,
            ast::SetExpr::Select(s) => {
                return !s.from.is_empty()
                    && s.selection.is_none()
                    && matches!(&s.group_by, ast::GroupByExpr::Expressions(g, _) if g.is_empty())
                    && s.having.is_none()
                    && s.named_window.is_empty();
            }
            _ => return false,
        }
    }
}

/// The upsert clauses of an INSERT, in order (see the module table), or
/// an error for an INSERT … PARTITION, which SQLite does not have.
pub fn upsert_clauses(ins: &ast::Insert) -> Result<Vec<&ast::OnConflict>, String> {
    let mut out = Vec::new();
    match &ins.on {
        None => {}
        Some(ast::OnInsert::OnConflict(c)) => out.push(c),
        Some(_) => {
            return Err("ON DUPLICATE KEY UPDATE (SQLite's form is ON CONFLICT … DO UPDATE)".into());
        }
    }
    for e in ins.partitioned.iter().flatten() {
        let ast::Expr::Subquery(q) = e else { return Err("INSERT … PARTITION".into()) };
        match q.body.as_ref() {
            ast::SetExpr::Insert(Statement::Insert(ast::Insert {
                on: Some(ast::OnInsert::OnConflict(c)),
                ..
            })) => out.push(c),
            _ => return Err("INSERT … PARTITION".into()),
        }
    }
    Ok(out)
}
