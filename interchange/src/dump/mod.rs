//! Dump import: mysqldump / mariadb-dump scripts and pg_dump's plain
//! format, translated statement by statement into our dialect.
//!
//! The life of a dump import:
//! 1. **Pre-scan** ([`Prescan`]): one pass over the body (COPY data is
//!    skipped line by line) collects what dumps state *after* the data but
//!    our engine needs at `CREATE TABLE`: `ALTER TABLE … ADD CONSTRAINT`
//!    (PRIMARY KEY, UNIQUE, FOREIGN KEY, CHECK — an SQLite-like engine
//!    cannot add constraints to a table), sequences attached to columns
//!    (`SET DEFAULT nextval(…)`, `ADD GENERATED … AS IDENTITY`, phpMyAdmin's
//!    `MODIFY … AUTO_INCREMENT`), and partitions attached to a parent.
//! 2. **Translate**: each statement of the body, in order, becomes units:
//!    `CREATE TABLE` with the constraints folded in ([`ddl`]), indexes,
//!    views, drops; `INSERT … VALUES` and `COPY … FROM stdin` data become
//!    row batches (consecutive INSERTs into one table merge into one
//!    batch; a tuple that is not made of literals becomes its own SQL
//!    INSERT). Values are converted by the target column's source type
//!    (booleans `t`/`f` → 1/0, `bytea` `\x…` → BLOB).
//! 3. **Skip and count**: statements with no meaning here — `SET`,
//!    ownership, grants, comments, functions, triggers, procedures,
//!    sequences, extensions, `LOCK TABLES`, psql and mysql client
//!    commands — are counted by kind with the line of the first one
//!    ([`Reader::report`]); an ALTER TABLE that was folded into its CREATE
//!    TABLE is counted as such. A statement that cannot be translated
//!    fails the import with its line.

pub mod ddl;
pub mod lex;
pub mod sql;

use std::collections::{HashMap, HashSet, VecDeque};
use std::io::SeekFrom;

use asadb_sql::Value;

use self::ddl::{Cat, ColumnDef, Constraint, Named, Types, bool_text};
use self::lex::{Lexer, StrKind, Tok, Token};
use self::sql::{Cur, Render, bits_value, column_names, split_commas};
use crate::error::{malformed, unsupported};
use crate::report::{Notes, SkipCounter};
use crate::{
    BATCH_ROWS, Body, Conflict, InsertValues, Reader, Report, Result, RowBatch, Source, Spec, Unit,
    quote_ident,
};

/// The source dialect of a dump.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Mysql,
    Postgres,
}

/// Rows of one INSERT statement held before its end is seen (its
/// `ON CONFLICT` clause, if any, changes how they are written). Past
/// this, rows go out early and a late conflict clause is refused.
const STATEMENT_HOLD_BYTES: usize = 16 << 20;
/// The longest statement (other than INSERT and COPY data) accepted.
const MAX_STATEMENT_TOKENS: usize = 4 << 20;

/// What the pre-scan found.
#[derive(Default, Debug)]
pub struct Prescan {
    /// Constraints to fold, by table (lowercase).
    constraints: HashMap<String, Vec<Named>>,
    /// Columns with a sequence: (table, column), lowercase.
    serial: HashSet<(String, String)>,
    /// Partition (lowercase) → parent table.
    partitions: HashMap<String, String>,
}

/// A known table: its name as created and its columns.
#[derive(Clone, Debug)]
struct TableInfo {
    columns: Vec<(String, Cat)>,
}

/// Rows waiting to go out as one unit.
struct Batch {
    table: String,
    columns: Option<Vec<String>>,
    action: Option<Conflict>,
    rows: Vec<Vec<Value>>,
    lines: Vec<u64>,
    start: u64,
}

/// An INSERT whose tuples are being read.
struct Values {
    table: String,
    columns: Option<Vec<String>>,
    cats: Vec<Cat>,
    action: Option<Conflict>,
    start: u64,
    rows: Vec<Vec<Value>>,
    lines: Vec<u64>,
    bytes: usize,
    /// Rows already went out before the statement's end.
    early: bool,
    /// The header as SQL (`INSERT INTO "t" ("a")`), for tuples that are
    /// not literals.
    header_sql: String,
}

/// A COPY whose data lines are being read.
struct Copy {
    table: String,
    columns: Option<Vec<String>>,
    cats: Vec<Cat>,
    width: usize,
    start: u64,
}

enum Mode {
    Normal,
    Values(Values),
    Copy(Copy),
}

/// The dump import reader.
pub struct DumpReader {
    lexer: Lexer<Box<dyn Source>>,
    dialect: Dialect,
    pre: Prescan,
    mode: Mode,
    /// A token read ahead.
    ahead: Option<Token>,
    tables: HashMap<String, TableInfo>,
    enums: HashMap<String, Vec<String>>,
    domains: HashMap<String, Vec<Token>>,
    schemas: HashSet<String>,
    index_names: HashSet<String>,
    written: Vec<String>,
    pending: VecDeque<Unit>,
    batch: Option<Batch>,
    skips: SkipCounter,
    notes: Notes,
    copy_line: Vec<u8>,
    done: bool,
}

impl Types for DumpReader {
    fn enum_labels(&self, name: &str) -> Option<Vec<String>> {
        self.enums.get(&name.to_ascii_lowercase()).cloned()
    }
    fn domain_base(&self, name: &str) -> Option<Vec<Token>> {
        self.domains.get(&name.to_ascii_lowercase()).cloned()
    }
}

/// The last part of a qualified name.
fn last(parts: &[String]) -> String {
    parts.last().cloned().unwrap_or_default()
}

impl DumpReader {
    /// Pre-scans the body and prepares to translate it.
    pub fn open(dialect: Dialect, spec: &Spec, mut source: Box<dyn Source>) -> Result<DumpReader> {
        let _ = spec;
        source.seek(SeekFrom::Start(0))?;
        let mut head = [0u8; 4];
        let n = crate::csv::read_full(&mut source, &mut head)?;
        if n >= 4 && &head == b"PK\x03\x04" {
            return Err(malformed!(1, "this is a ZIP archive (a workbook?), not a SQL dump"));
        }
        source.seek(SeekFrom::Start(0))?;
        let pre = {
            let mut lexer = Lexer::new(&mut source, dialect);
            prescan(&mut lexer, dialect)
        };
        source.seek(SeekFrom::Start(0))?;
        let schemas: HashSet<String> =
            ["public", "pg_catalog"].iter().map(|s| s.to_string()).collect();
        Ok(DumpReader {
            lexer: Lexer::new(source, dialect),
            dialect,
            pre,
            mode: Mode::Normal,
            ahead: None,
            tables: HashMap::new(),
            enums: HashMap::new(),
            domains: HashMap::new(),
            schemas,
            index_names: HashSet::new(),
            written: Vec::new(),
            pending: VecDeque::new(),
            batch: None,
            skips: SkipCounter::default(),
            notes: Notes::default(),
            copy_line: Vec::new(),
            done: false,
        })
    }

    fn render(&self) -> Render<'_> {
        Render { schemas: &self.schemas, mysql: self.dialect == Dialect::Mysql }
    }

    fn token(&mut self) -> Result<Option<Token>> {
        if let Some(t) = self.ahead.take() {
            return Ok(Some(t));
        }
        self.lexer.next_token()
    }

    /// The tokens up to the statement's end (the End not included).
    fn rest_of_statement(&mut self, mut into: Vec<Token>) -> Result<Vec<Token>> {
        let line = into.first().map_or(self.lexer.line(), |t| t.line);
        while let Some(t) = self.token()? {
            if t.tok == Tok::End {
                break;
            }
            into.push(t);
            if into.len() > MAX_STATEMENT_TOKENS {
                return Err(malformed!(
                    line,
                    "a statement of more than {MAX_STATEMENT_TOKENS} tokens"
                ));
            }
        }
        Ok(into)
    }

    fn unit(&self, sql: String, line: u64, start: u64) -> Unit {
        Unit { body: Body::Sql(sql), line, start, end: self.lexer.offset() }
    }

    /// Sends the waiting batch out.
    fn flush(&mut self) {
        if let Some(b) = self.batch.take() {
            let line = b.lines.first().copied().unwrap_or(0);
            self.pending.push_back(Unit {
                body: Body::Rows(RowBatch {
                    insert: InsertValues {
                        or_action: b.action,
                        schema: None,
                        table: b.table,
                        columns: b.columns,
                        rows: b.rows,
                    },
                    lines: b.lines,
                }),
                line,
                start: b.start,
                end: self.lexer.offset(),
            });
        }
    }

    /// Adds rows to the waiting batch (a new one when the target
    /// differs), sending full batches out.
    fn push_rows(
        &mut self,
        table: &str,
        columns: &Option<Vec<String>>,
        action: Option<Conflict>,
        rows: Vec<Vec<Value>>,
        lines: Vec<u64>,
        start: u64,
    ) {
        let same = self
            .batch
            .as_ref()
            .is_some_and(|b| b.table == table && b.columns == *columns && b.action == action);
        if !same {
            self.flush();
        }
        let b = self.batch.get_or_insert_with(|| Batch {
            table: table.to_string(),
            columns: columns.clone(),
            action,
            rows: Vec::new(),
            lines: Vec::new(),
            start,
        });
        b.rows.extend(rows);
        b.lines.extend(lines);
        if b.rows.len() >= BATCH_ROWS {
            self.flush();
        }
        if !self.written.iter().any(|w| w.eq_ignore_ascii_case(table)) {
            self.written.push(table.to_string());
        }
    }

    fn skip(&mut self, kind: &str, line: u64) {
        self.skips.add(kind, line);
    }

    /// The table rows of `name` go to (a partition goes to its parent).
    fn target(&self, parts: &[String]) -> String {
        let name = last(parts);
        self.pre.partitions.get(&name.to_ascii_lowercase()).cloned().unwrap_or(name)
    }

    /// Value conversions for rows into `table` with `columns`.
    fn cats(&self, table: &str, columns: &Option<Vec<String>>) -> Vec<Cat> {
        let Some(info) = self.tables.get(&table.to_ascii_lowercase()) else { return Vec::new() };
        match columns {
            None => info.columns.iter().map(|(_, c)| *c).collect(),
            Some(cols) => cols
                .iter()
                .map(|c| {
                    info.columns
                        .iter()
                        .find(|(n, _)| n.eq_ignore_ascii_case(c))
                        .map_or(Cat::Other, |(_, k)| *k)
                })
                .collect(),
        }
    }

    fn step(&mut self) -> Result<()> {
        match std::mem::replace(&mut self.mode, Mode::Normal) {
            Mode::Copy(c) => self.copy_rows(c),
            Mode::Values(v) => self.values_rows(v),
            Mode::Normal => self.statement(),
        }
    }

    /// COPY data: up to a batch of lines.
    fn copy_rows(&mut self, c: Copy) -> Result<()> {
        let mut rows = Vec::new();
        let mut lines = Vec::new();
        let mut ended = false;
        while rows.len() < BATCH_ROWS {
            let mut buf = std::mem::take(&mut self.copy_line);
            let got = self.lexer.copy_line(&mut buf);
            let line = match got {
                Ok(Some(l)) => l,
                Ok(None) => {
                    self.copy_line = buf;
                    ended = true;
                    break;
                }
                Err(e) => {
                    self.copy_line = buf;
                    return Err(e);
                }
            };
            let row = copy_fields(&buf, &c.cats, line)?;
            self.copy_line = buf;
            if row.len() != c.width {
                return Err(malformed!(
                    line,
                    "a COPY row with {} fields where {} has {} columns",
                    row.len(),
                    c.table,
                    c.width
                ));
            }
            rows.push(row);
            lines.push(line);
        }
        if !rows.is_empty() {
            self.push_rows(&c.table.clone(), &c.columns, None, rows, lines, c.start);
        }
        if ended {
            self.flush();
        } else {
            self.mode = Mode::Copy(c);
        }
        Ok(())
    }

    /// INSERT tuples: until the statement ends or enough rows are read.
    fn values_rows(&mut self, mut v: Values) -> Result<()> {
        let r_mysql = self.dialect == Dialect::Mysql;
        loop {
            let Some(open) = self.token()? else {
                return self.end_values(v, Vec::new());
            };
            if !open.is_sym("(") {
                return Err(unsupported!(open.line, "INSERT … VALUES: expected ( here"));
            }
            let tuple_line = open.line;
            let mut items: Vec<Vec<Token>> = vec![Vec::new()];
            let mut depth = 1;
            loop {
                let Some(t) = self.token()? else {
                    return Err(malformed!(tuple_line, "the dump ends inside a VALUES tuple"));
                };
                if t.tok == Tok::End {
                    return Err(malformed!(t.line, "a VALUES tuple is never closed"));
                }
                if t.is_sym("(") {
                    depth += 1;
                } else if t.is_sym(")") {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                } else if depth == 1 && t.is_sym(",") {
                    items.push(Vec::new());
                    continue;
                }
                v.bytes += match &t.tok {
                    Tok::Str(b, _) => b.len(),
                    _ => 8,
                };
                items.last_mut().expect("one item").push(t);
            }
            if items.len() == 1 && items[0].is_empty() {
                items.clear();
            }
            let mut row = Vec::with_capacity(items.len());
            let mut literal = true;
            for (k, item) in items.iter().enumerate() {
                let cat = v.cats.get(k).copied().unwrap_or(Cat::Other);
                match literal_value(item, cat, r_mysql)? {
                    Some(val) => row.push(val),
                    None => {
                        literal = false;
                        break;
                    }
                }
            }
            if literal {
                v.rows.push(row);
                v.lines.push(tuple_line);
            } else {
                // Not literals: this tuple runs as SQL of its own, in order.
                self.release_values(&mut v);
                let parts: Vec<String> = items.iter().map(|i| self.render().sql(i)).collect();
                let sql = format!("{} VALUES ({})", v.header_sql, parts.join(", "));
                self.flush();
                let u = self.unit(sql, tuple_line, v.start);
                self.pending.push_back(u);
            }
            // After the tuple: `,`, the end, or a trailing clause.
            let next = self.token()?;
            match next {
                Some(t) if t.is_sym(",") => {}
                Some(t) if t.tok == Tok::End => return self.end_values(v, Vec::new()),
                None => return self.end_values(v, Vec::new()),
                Some(t) => {
                    let tail = self.rest_of_statement(vec![t])?;
                    return self.end_values(v, tail);
                }
            }
            if v.bytes > STATEMENT_HOLD_BYTES {
                v.early = true;
                self.release_values(&mut v);
            }
            if self.batch.as_ref().is_some_and(|b| b.rows.len() >= BATCH_ROWS)
                || !self.pending.is_empty()
            {
                self.mode = Mode::Values(v);
                return Ok(());
            }
        }
    }

    /// Moves the statement's rows so far into the batch.
    fn release_values(&mut self, v: &mut Values) {
        if v.rows.is_empty() {
            return;
        }
        let rows = std::mem::take(&mut v.rows);
        let lines = std::mem::take(&mut v.lines);
        v.bytes = 0;
        let (table, columns, action, start) =
            (v.table.clone(), v.columns.clone(), v.action, v.start);
        self.push_rows(&table, &columns, action, rows, lines, start);
    }

    /// The INSERT's end, with its trailing clause (`ON CONFLICT DO
    /// NOTHING`, …) if any.
    fn end_values(&mut self, mut v: Values, tail: Vec<Token>) -> Result<()> {
        if !tail.is_empty() {
            let mut c = Cur::new(&tail);
            let line = c.line();
            let ignore = c.eat_all(&["ON", "CONFLICT"])
                && {
                    if c.peek().is_some_and(|t| t.is_sym("(")) {
                        c.group();
                    }
                    c.eat_all(&["DO", "NOTHING"])
                }
                && c.done();
            if !ignore {
                return Err(unsupported!(
                    line,
                    "INSERT … {} (only ON CONFLICT DO NOTHING is translated)",
                    self.render().sql(&tail[..tail.len().min(6)])
                ));
            }
            if v.early {
                return Err(unsupported!(
                    line,
                    "ON CONFLICT DO NOTHING after more than {} MiB of rows in one INSERT",
                    STATEMENT_HOLD_BYTES >> 20
                ));
            }
            v.action = Some(Conflict::Ignore);
        }
        self.release_values(&mut v);
        Ok(())
    }

    /// One statement in normal mode.
    fn statement(&mut self) -> Result<()> {
        let Some(first) = self.token()? else {
            self.done = true;
            self.flush();
            return Ok(());
        };
        let line = first.line;
        let start = first.start;
        match &first.tok {
            Tok::End => return Ok(()),
            Tok::Meta(text) => {
                let kind = meta_kind(text, self.dialect);
                self.skip(&kind, line);
                return Ok(());
            }
            _ => {}
        }
        if first.is("INSERT") || first.is("REPLACE") {
            return self.insert(first);
        }
        let stmt = self.rest_of_statement(vec![first])?;
        if stmt[0].is("COPY") {
            return self.copy(&stmt);
        }
        // Anything else is not rows: the waiting batch goes first.
        self.flush();
        self.translate(&stmt, line, start)
    }

    /// `INSERT`/`REPLACE`: the header, then Values mode.
    fn insert(&mut self, first: Token) -> Result<()> {
        let line = first.line;
        let start = first.start;
        let mut header = vec![first];
        while let Some(t) = self.token()? {
            if t.tok == Tok::End {
                self.ahead = Some(t);
                break;
            }
            let depth: i32 =
                header.iter().map(|x| i32::from(x.is_sym("(")) - i32::from(x.is_sym(")"))).sum();
            let overriding = header.last().is_some_and(|p| p.is("SYSTEM") || p.is("USER"));
            if depth == 0 && (t.is("VALUES") || (t.is("VALUE") && !overriding)) {
                return self.values_header(&header, line, start);
            }
            if depth == 0 && (t.is("SELECT") || t.is("WITH") || t.is("SET") || t.is("DEFAULT")) {
                header.push(t);
                let stmt = self.rest_of_statement(header)?;
                self.flush();
                if stmt.iter().any(|x| x.is("SET"))
                    && self.dialect == Dialect::Mysql
                    && !stmt.iter().any(|x| x.is("SELECT"))
                {
                    return Err(unsupported!(line, "INSERT … SET (write it as INSERT … VALUES)"));
                }
                let sql = self.render().sql(&stmt);
                let u = self.unit(sql, line, start);
                self.pending.push_back(u);
                return Ok(());
            }
            header.push(t);
            if header.len() > 100_000 {
                return Err(malformed!(line, "an INSERT header that never reaches VALUES"));
            }
        }
        let stmt = self.rest_of_statement(header)?;
        Err(unsupported!(
            line,
            "INSERT without VALUES: {}",
            self.render().sql(&stmt[..stmt.len().min(8)])
        ))
    }

    fn values_header(&mut self, header: &[Token], line: u64, start: u64) -> Result<()> {
        let mut c = Cur::new(header);
        let replace = c.eat("REPLACE");
        if !replace {
            c.eat("INSERT");
        }
        let mut action = replace.then_some(Conflict::Replace);
        loop {
            if c.eat("IGNORE") {
                action = Some(Conflict::Ignore);
            } else if c.eat("LOW_PRIORITY") || c.eat("DELAYED") || c.eat("HIGH_PRIORITY") {
            } else {
                break;
            }
        }
        c.eat("INTO");
        let parts =
            c.qualified().ok_or_else(|| unsupported!(line, "INSERT without a table name"))?;
        let table = self.target(&parts);
        if c.eat("PARTITION") {
            c.group();
        }
        let columns = c.group().map(column_names);
        if c.eat("OVERRIDING") {
            c.take();
            c.eat("VALUE");
        }
        if !c.done() {
            return Err(unsupported!(line, "INSERT … {}", self.render().sql(c.rest())));
        }
        let cats = self.cats(&table, &columns);
        let verb = match action {
            Some(Conflict::Replace) => "INSERT OR REPLACE",
            Some(Conflict::Ignore) => "INSERT OR IGNORE",
            _ => "INSERT",
        };
        let header_sql = match &columns {
            Some(cols) => format!("{verb} INTO {} ({})", quote_ident(&table), ddl::idents(cols)),
            None => format!("{verb} INTO {}", quote_ident(&table)),
        };
        self.mode = Mode::Values(Values {
            table,
            columns,
            cats,
            action,
            start,
            rows: Vec::new(),
            lines: Vec::new(),
            bytes: 0,
            early: false,
            header_sql,
        });
        Ok(())
    }

    /// `COPY t (cols) FROM stdin;`: Copy mode.
    fn copy(&mut self, stmt: &[Token]) -> Result<()> {
        let line = stmt[0].line;
        let mut c = Cur::new(stmt);
        c.eat("COPY");
        let parts = c.qualified().ok_or_else(|| unsupported!(line, "COPY without a table"))?;
        let table = self.target(&parts);
        let columns = c.group().map(column_names);
        if !(c.eat("FROM") && c.eat("stdin") && c.done()) {
            return Err(unsupported!(
                line,
                "{} (only COPY … FROM stdin in text format is read)",
                self.render().sql(stmt)
            ));
        }
        self.lexer.skip_rest_of_line()?;
        let cats = self.cats(&table, &columns);
        let width = match &columns {
            Some(cols) => cols.len(),
            None => match self.tables.get(&table.to_ascii_lowercase()) {
                Some(t) => t.columns.len(),
                None => {
                    return Err(unsupported!(
                        line,
                        "COPY into {table} without a column list, and the dump does not create {table}"
                    ));
                }
            },
        };
        self.mode = Mode::Copy(Copy { table, columns, cats, width, start: stmt[0].start });
        Ok(())
    }

    /// Everything that is not rows.
    fn translate(&mut self, stmt: &[Token], line: u64, start: u64) -> Result<()> {
        let w = |k: usize| stmt.get(k).and_then(Token::name).unwrap_or("").to_ascii_uppercase();
        let first = w(0);
        match first.as_str() {
            "SET" | "RESET" => self.skip("SET", line),
            "SELECT" => {
                let text = self.render().sql(stmt);
                let has = |w: &str| stmt.iter().any(|t| t.is(w));
                if has("set_config") {
                    self.skip("SELECT set_config", line);
                } else if has("setval") {
                    self.skip("SELECT setval (sequence position)", line);
                } else if has("lo_create") || has("lo_open") {
                    return Err(unsupported!(line, "large objects (pg_dump --blobs)"));
                } else {
                    let u = self.unit(text, line, start);
                    self.pending.push_back(u);
                }
            }
            "CREATE" => self.create(stmt, line, start)?,
            "ALTER" => self.alter(stmt, line, start)?,
            "DROP" => self.drop(stmt, line, start)?,
            "LOCK" | "UNLOCK" => self.skip(&format!("{first} TABLES"), line),
            "COMMENT" => self.skip("COMMENT ON", line),
            "GRANT" | "REVOKE" => self.skip(&first, line),
            "SECURITY" => self.skip("SECURITY LABEL", line),
            "REFRESH" => self.skip("REFRESH MATERIALIZED VIEW", line),
            "USE" => self.skip("USE (database)", line),
            "FLUSH" | "ANALYZE" | "VACUUM" | "OPTIMIZE" | "CHECKPOINT" => self.skip(&first, line),
            "BEGIN" | "START" | "COMMIT" | "END" | "ROLLBACK" => {
                self.skip("transaction control (the job commits in its own batches)", line)
            }
            "UPDATE" | "DELETE" => {
                let text = self.render().sql(stmt);
                let u = self.unit(text, line, start);
                self.pending.push_back(u);
            }
            "TRUNCATE" => {
                let mut c = Cur::new(stmt);
                c.eat("TRUNCATE");
                c.eat("TABLE");
                c.eat("ONLY");
                let tables: Vec<String> = split_commas(c.until(|t| {
                    t.is("CASCADE") || t.is("RESTART") || t.is("CONTINUE") || t.is("RESTRICT")
                }))
                .iter()
                .filter_map(|p| Cur::new(p).qualified().map(|q| last(&q)))
                .collect();
                for t in tables {
                    let u = self.unit(format!("DELETE FROM {}", quote_ident(&t)), line, start);
                    self.pending.push_back(u);
                }
            }
            _ => {
                return Err(unsupported!(
                    line,
                    "statement {}",
                    self.render().sql(&stmt[..stmt.len().min(6)])
                ));
            }
        }
        Ok(())
    }

    fn create(&mut self, stmt: &[Token], line: u64, start: u64) -> Result<()> {
        // The object keyword, past OR REPLACE, TEMP, DEFINER=…, ALGORITHM=….
        let objects = [
            "TABLE",
            "VIEW",
            "INDEX",
            "SEQUENCE",
            "TYPE",
            "DOMAIN",
            "SCHEMA",
            "EXTENSION",
            "FUNCTION",
            "PROCEDURE",
            "TRIGGER",
            "EVENT",
            "AGGREGATE",
            "OPERATOR",
            "CAST",
            "COLLATION",
            "CONVERSION",
            "TEXT",
            "LANGUAGE",
            "RULE",
            "POLICY",
            "PUBLICATION",
            "SUBSCRIPTION",
            "SERVER",
            "FOREIGN",
            "USER",
            "ROLE",
            "STATISTICS",
            "ACCESS",
            "DATABASE",
            "TABLESPACE",
            "MATERIALIZED",
            "TRANSFORM",
        ];
        let at = stmt.iter().take(40).position(|t| objects.iter().any(|o| t.is(o)));
        let Some(at) = at else {
            return Err(unsupported!(
                line,
                "statement {}",
                self.render().sql(&stmt[..stmt.len().min(6)])
            ));
        };
        let object = stmt[at].name().unwrap_or("").to_ascii_uppercase();
        match object.as_str() {
            "TABLE" => self.create_table(stmt, at, line, start),
            "INDEX" => self.create_index(stmt, at, line, start),
            "VIEW" => self.create_view(stmt, at, line, start),
            "TYPE" => self.create_type(stmt, at, line),
            "DOMAIN" => self.create_domain(stmt, at, line),
            "SCHEMA" => {
                if let Some(n) = stmt.get(at + 1).and_then(Token::name) {
                    self.schemas.insert(n.to_ascii_lowercase());
                }
                self.skip("CREATE SCHEMA", line);
                Ok(())
            }
            "MATERIALIZED" => {
                self.skip("CREATE MATERIALIZED VIEW", line);
                Ok(())
            }
            "FOREIGN" | "TEXT" | "ACCESS" | "EVENT"
                if stmt.get(at + 1).is_some_and(|t| {
                    t.name().is_some()
                        && (t.is("TABLE")
                            || t.is("DATA")
                            || t.is("SEARCH")
                            || t.is("METHOD")
                            || t.is("TRIGGER"))
                }) =>
            {
                let kind = format!(
                    "CREATE {object} {}",
                    stmt[at + 1].name().unwrap_or("").to_ascii_uppercase()
                );
                self.skip(&kind, line);
                Ok(())
            }
            other => {
                self.skip(&format!("CREATE {other}"), line);
                Ok(())
            }
        }
    }

    fn create_table(&mut self, stmt: &[Token], at: usize, line: u64, start: u64) -> Result<()> {
        let mut c = Cur { t: stmt, i: at + 1 };
        let if_not_exists = c.eat_all(&["IF", "NOT", "EXISTS"]);
        let parts =
            c.qualified().ok_or_else(|| unsupported!(line, "CREATE TABLE without a name"))?;
        let name = last(&parts);
        if c.eat_all(&["PARTITION", "OF"]) {
            let parent = c.qualified().map(|p| last(&p)).unwrap_or_default();
            self.pre.partitions.insert(name.to_ascii_lowercase(), parent);
            self.skip("CREATE TABLE … PARTITION OF (its rows go to the parent table)", line);
            return Ok(());
        }
        if c.eat("AS") || c.eat("LIKE") || c.peek().is_some_and(|t| t.is("AS")) {
            return Err(unsupported!(line, "CREATE TABLE {name} AS / LIKE"));
        }
        let Some(body) = c.group() else {
            return Err(unsupported!(line, "CREATE TABLE {name} without a column list"));
        };
        let mut columns: Vec<ColumnDef> = Vec::new();
        let mut constraints: Vec<Named> = Vec::new();
        let mut dropped = Vec::new();
        for item in split_commas(body) {
            if item.is_empty() {
                continue;
            }
            if item[0].is("LIKE") {
                return Err(unsupported!(item[0].line, "CREATE TABLE … (LIKE …)"));
            }
            if ddl::starts_constraint(item) {
                if let Some(n) = ddl::parse_constraint(item, &self.render(), &mut dropped)? {
                    constraints.push(n);
                }
            } else {
                columns.push(ddl::parse_column(item, &self.render(), self, &mut dropped)?);
            }
        }
        // Table options: partitioning and inheritance are noted.
        let rest = c.rest();
        if rest.iter().any(|t| t.is("PARTITION")) {
            self.skip("PARTITION BY clause (one table holds every partition's rows)", line);
        }
        if rest.iter().any(|t| t.is("INHERITS")) {
            self.skip("INHERITS clause", line);
        }
        for d in dropped {
            self.skip(d, line);
        }
        // Folded constraints and sequences from the pre-scan.
        let key = name.to_ascii_lowercase();
        if let Some(extra) = self.pre.constraints.get(&key) {
            constraints.extend(extra.iter().cloned());
        }
        for col in &mut columns {
            if self.pre.serial.contains(&(key.clone(), col.name.to_ascii_lowercase())) {
                col.serial = true;
            }
        }
        // The primary key: one integer column becomes the rowid.
        let pk_cols: Vec<String> =
            match constraints.iter().position(|n| matches!(n.c, Constraint::Primary(_))) {
                Some(p) => match &constraints[p].c {
                    Constraint::Primary(cols) => cols.clone(),
                    _ => Vec::new(),
                },
                None => columns.iter().filter(|c| c.primary).map(|c| c.name.clone()).collect(),
            };
        if let [one] = pk_cols.as_slice()
            && let Some(col) = columns.iter_mut().find(|c| c.name.eq_ignore_ascii_case(one))
            && col.ty.integer
        {
            col.primary = true;
            constraints.retain(|n| !matches!(n.c, Constraint::Primary(_)));
        }
        for col in &columns {
            if col.serial && !(col.primary && col.ty.integer) {
                self.notes.add(format!(
                    "{name}.{}: its sequence is not kept (not a single integer primary key); \
                     the dump's values are loaded as they are",
                    col.name
                ));
            }
            if let Some(n) = &col.ty.note {
                self.notes.add(format!("{name}.{}: {n}", col.name));
            }
        }
        let sql = ddl::create_table_sql(&name, if_not_exists, &columns, &constraints);
        let u = self.unit(sql, line, start);
        self.pending.push_back(u);
        for n in &constraints {
            if let Constraint::Index { unique, cols, kind } = &n.c {
                if *kind != "KEY" && *kind != "UNIQUE KEY" {
                    self.notes.add(format!("{kind} on {name}: kept as a plain index"));
                }
                let iname = self.index_name(n.name.as_deref(), &name, cols);
                let sql = format!(
                    "CREATE {}INDEX {} ON {} ({})",
                    if *unique { "UNIQUE " } else { "" },
                    quote_ident(&iname),
                    quote_ident(&name),
                    ddl::idents(cols)
                );
                let u = self.unit(sql, line, start);
                self.pending.push_back(u);
            }
        }
        self.tables.insert(
            key,
            TableInfo { columns: columns.iter().map(|c| (c.name.clone(), c.ty.cat)).collect() },
        );
        if !self.written.iter().any(|w| w.eq_ignore_ascii_case(&name)) {
            self.written.push(name);
        }
        Ok(())
    }

    /// An index name unique in the schema (MySQL's are per table).
    fn index_name(&mut self, name: Option<&str>, table: &str, cols: &[String]) -> String {
        let base = match name {
            Some(n) => n.to_string(),
            None => format!("{table}_{}_idx", cols.join("_")),
        };
        let mut n = base.clone();
        if self.index_names.contains(&n.to_ascii_lowercase())
            || self.tables.contains_key(&n.to_ascii_lowercase())
        {
            n = format!("{table}_{base}");
            let mut k = 2;
            while self.index_names.contains(&n.to_ascii_lowercase()) {
                n = format!("{table}_{base}_{k}");
                k += 1;
            }
            self.notes.add(format!(
                "index {base} on {table} is named {n} (index names are per database here)"
            ));
        }
        self.index_names.insert(n.to_ascii_lowercase());
        n
    }

    fn create_index(&mut self, stmt: &[Token], at: usize, line: u64, start: u64) -> Result<()> {
        let unique = stmt[..at].iter().any(|t| t.is("UNIQUE"));
        let special =
            stmt[..at].iter().find(|t| t.is("FULLTEXT") || t.is("SPATIAL")).and_then(Token::name);
        let mut c = Cur { t: stmt, i: at + 1 };
        c.eat("CONCURRENTLY");
        let if_not_exists = c.eat_all(&["IF", "NOT", "EXISTS"]);
        let iname = if c.peek().is_some_and(|t| !t.is("ON")) {
            c.qualified().map(|p| last(&p))
        } else {
            None
        };
        let mut method = None;
        if c.eat("USING") {
            method = c.take().and_then(Token::name).map(str::to_ascii_lowercase);
        }
        if !c.eat("ON") {
            return Err(unsupported!(line, "CREATE INDEX without ON"));
        }
        c.eat("ONLY");
        let table = self.target(
            &c.qualified().ok_or_else(|| unsupported!(line, "CREATE INDEX without a table"))?,
        );
        if c.eat("USING") {
            method = c.take().and_then(Token::name).map(str::to_ascii_lowercase);
        }
        if let Some(m) = &method
            && !matches!(m.as_str(), "btree" | "hash")
        {
            self.skip(&format!("CREATE INDEX USING {m}"), line);
            return Ok(());
        }
        let Some(cols) = c.group() else {
            return Err(unsupported!(line, "CREATE INDEX without columns"));
        };
        let mut parts = Vec::new();
        for item in split_commas(cols) {
            let desc = item.iter().any(|t| t.is("DESC"));
            let simple = item.first().and_then(Token::name).is_some()
                && !item.get(1).is_some_and(|t| t.is_sym("(") || t.is_sym("."));
            let text = if simple {
                quote_ident(item[0].name().unwrap_or_default())
            } else {
                let end = item
                    .iter()
                    .position(|t| t.is("DESC") || t.is("ASC") || t.is("NULLS"))
                    .unwrap_or(item.len());
                let e = self.render().sql(&item[..end]);
                if e.starts_with('(') { e } else { format!("({e})") }
            };
            parts.push(if desc { format!("{text} DESC") } else { text });
        }
        let mut tail = String::new();
        while let Some(t) = c.take() {
            if t.is("WHERE") {
                tail = format!(" WHERE {}", self.render().sql(c.rest()));
                break;
            }
            if t.is("INCLUDE") || t.is("WITH") {
                c.group();
                self.notes.add(format!("index on {table}: INCLUDE and WITH options are not kept"));
            }
        }
        if let Some(s) = special {
            self.notes
                .add(format!("{} index on {table}: kept as a plain index", s.to_ascii_uppercase()));
        }
        let iname = self.index_name(iname.as_deref(), &table, &[]);
        let sql = format!(
            "CREATE {}INDEX {}{} ON {} ({}){tail}",
            if unique { "UNIQUE " } else { "" },
            if if_not_exists { "IF NOT EXISTS " } else { "" },
            quote_ident(&iname),
            quote_ident(&table),
            parts.join(", ")
        );
        let u = self.unit(sql, line, start);
        self.pending.push_back(u);
        Ok(())
    }

    fn create_view(&mut self, stmt: &[Token], at: usize, line: u64, start: u64) -> Result<()> {
        let replace = stmt[..at].iter().any(|t| t.is("REPLACE"));
        if stmt[..at].iter().any(|t| t.is("RECURSIVE")) {
            return Err(unsupported!(line, "CREATE RECURSIVE VIEW"));
        }
        let mut c = Cur { t: stmt, i: at + 1 };
        let if_not_exists = c.eat_all(&["IF", "NOT", "EXISTS"]);
        let name =
            last(&c.qualified().ok_or_else(|| unsupported!(line, "CREATE VIEW without a name"))?);
        let cols = c.group().map(column_names);
        if c.eat("WITH") {
            c.group();
        }
        if !c.eat("AS") {
            return Err(unsupported!(line, "CREATE VIEW {name} without AS"));
        }
        let mut query = c.rest();
        // WITH [CASCADED|LOCAL] CHECK OPTION at the end.
        if let Some(p) = query.iter().rposition(|t| t.is("WITH"))
            && query[p..].iter().any(|t| t.is("CHECK"))
            && query.last().is_some_and(|t| t.is("OPTION"))
        {
            query = &query[..p];
            self.notes.add(format!("view {name}: WITH CHECK OPTION is not kept"));
        }
        if replace {
            let u = self.unit(format!("DROP VIEW IF EXISTS {}", quote_ident(&name)), line, start);
            self.pending.push_back(u);
        }
        let sql = format!(
            "CREATE VIEW {}{}{} AS {}",
            if if_not_exists { "IF NOT EXISTS " } else { "" },
            quote_ident(&name),
            cols.map(|c| format!(" ({})", ddl::idents(&c))).unwrap_or_default(),
            self.render().sql(query)
        );
        let u = self.unit(sql, line, start);
        self.pending.push_back(u);
        Ok(())
    }

    fn create_type(&mut self, stmt: &[Token], at: usize, line: u64) -> Result<()> {
        let mut c = Cur { t: stmt, i: at + 1 };
        let name = c.qualified().map(|p| last(&p)).unwrap_or_default();
        if c.eat_all(&["AS", "ENUM"]) {
            let labels: Vec<String> = c
                .group()
                .map(|g| {
                    split_commas(g)
                        .iter()
                        .filter_map(|p| match p.first().map(|t| &t.tok) {
                            Some(Tok::Str(b, _)) => Some(String::from_utf8_lossy(b).into_owned()),
                            _ => None,
                        })
                        .collect()
                })
                .unwrap_or_default();
            self.enums.insert(name.to_ascii_lowercase(), labels);
            self.skip("CREATE TYPE AS ENUM (its columns become TEXT with a CHECK)", line);
        } else {
            self.skip("CREATE TYPE", line);
        }
        Ok(())
    }

    fn create_domain(&mut self, stmt: &[Token], at: usize, line: u64) -> Result<()> {
        let mut c = Cur { t: stmt, i: at + 1 };
        let name = c.qualified().map(|p| last(&p)).unwrap_or_default();
        c.eat("AS");
        let base = ddl::type_tokens(&mut c).to_vec();
        if c.rest().iter().any(|t| t.is("CHECK")) {
            self.notes
                .add(format!("domain {name}: its CHECK is not kept (columns take the base type)"));
        }
        self.domains.insert(name.to_ascii_lowercase(), base);
        self.skip("CREATE DOMAIN (its columns take its base type)", line);
        Ok(())
    }

    fn alter(&mut self, stmt: &[Token], line: u64, start: u64) -> Result<()> {
        let what = stmt.get(1).and_then(Token::name).unwrap_or("").to_ascii_uppercase();
        if what != "TABLE" {
            let kind = match what.as_str() {
                "DEFAULT" => "ALTER DEFAULT PRIVILEGES".to_string(),
                "MATERIALIZED" => "ALTER MATERIALIZED VIEW".to_string(),
                "" => "ALTER".to_string(),
                w => format!("ALTER {w}"),
            };
            self.skip(&kind, line);
            return Ok(());
        }
        let mut c = Cur { t: stmt, i: 2 };
        c.eat_all(&["IF", "EXISTS"]);
        c.eat("ONLY");
        let parts =
            c.qualified().ok_or_else(|| unsupported!(line, "ALTER TABLE without a name"))?;
        c.eat_sym("*");
        let table = last(&parts);
        let known = self.tables.contains_key(&table.to_ascii_lowercase());
        for action in split_commas(c.rest()) {
            self.alter_action(&table, known, action, line, start)?;
        }
        Ok(())
    }

    fn alter_action(
        &mut self,
        table: &str,
        known: bool,
        t: &[Token],
        line: u64,
        start: u64,
    ) -> Result<()> {
        let mut c = Cur::new(t);
        let mysql = self.dialect == Dialect::Mysql;
        if c.eat("ADD") {
            let rest = &t[1..];
            if ddl::starts_constraint(rest) {
                let mut dropped = Vec::new();
                let Some(n) = ddl::parse_constraint(rest, &self.render(), &mut dropped)? else {
                    for d in dropped {
                        self.skip(d, line);
                    }
                    return Ok(());
                };
                if let Constraint::Index { unique, cols, .. } = &n.c {
                    let iname = self.index_name(n.name.as_deref(), table, cols);
                    let sql = format!(
                        "CREATE {}INDEX {} ON {} ({})",
                        if *unique { "UNIQUE " } else { "" },
                        quote_ident(&iname),
                        quote_ident(table),
                        ddl::idents(cols)
                    );
                    let u = self.unit(sql, line, start);
                    self.pending.push_back(u);
                    return Ok(());
                }
                if !known {
                    return Err(unsupported!(
                        line,
                        "ALTER TABLE {table} ADD a constraint, and this dump does not create {table}: \
                         constraints cannot be added to an existing table here"
                    ));
                }
                self.skip("ALTER TABLE ADD CONSTRAINT (folded into its CREATE TABLE)", line);
                return Ok(());
            }
            c.eat("COLUMN");
            c.eat_all(&["IF", "NOT", "EXISTS"]);
            let mut dropped = Vec::new();
            let col = ddl::parse_column(&t[c.i..], &self.render(), self, &mut dropped)?;
            for d in dropped {
                self.skip(d, line);
            }
            let sql = format!(
                "ALTER TABLE {} ADD COLUMN {}",
                quote_ident(table),
                ddl::create_table_sql("x", false, &[col], &[])
                    .trim_start_matches("CREATE TABLE \"x\" (\n  ")
                    .trim_end_matches("\n)")
            );
            let u = self.unit(sql, line, start);
            self.pending.push_back(u);
            return Ok(());
        }
        if c.eat_all(&["ALTER", "COLUMN"]) || c.eat("ALTER") {
            let col = c.take().and_then(Token::name).unwrap_or("").to_string();
            let rest = c.rest();
            let nextval = rest.iter().any(|x| x.is("nextval"));
            let identity = rest.iter().any(|x| x.is("IDENTITY"));
            if nextval || identity {
                let _ = col;
                self.skip(
                    if identity {
                        "ALTER TABLE ADD GENERATED AS IDENTITY (folded: the column is the rowid)"
                    } else {
                        "ALTER TABLE SET DEFAULT nextval (folded: the column is the rowid)"
                    },
                    line,
                );
                return Ok(());
            }
            self.skip("ALTER TABLE ALTER COLUMN", line);
            return Ok(());
        }
        if mysql && (c.eat("MODIFY") || c.eat("CHANGE")) {
            let auto = t.iter().any(|x| x.is("AUTO_INCREMENT"));
            self.skip(
                if auto {
                    "ALTER TABLE MODIFY … AUTO_INCREMENT (folded: the column is the rowid)"
                } else {
                    "ALTER TABLE MODIFY/CHANGE COLUMN"
                },
                line,
            );
            return Ok(());
        }
        if c.eat("RENAME") {
            let sql = format!("ALTER TABLE {} {}", quote_ident(table), self.render().sql(t));
            let u = self.unit(sql, line, start);
            self.pending.push_back(u);
            return Ok(());
        }
        let word = |k: usize| t.get(k).and_then(Token::name).unwrap_or("").to_ascii_uppercase();
        let kind = match word(0).as_str() {
            "OWNER" => "ALTER TABLE OWNER TO".to_string(),
            "DISABLE" | "ENABLE" if mysql && word(1) == "KEYS" => {
                "ALTER TABLE DISABLE/ENABLE KEYS".to_string()
            }
            "DISABLE" | "ENABLE" | "FORCE" | "NO" => format!("ALTER TABLE {} {}", word(0), word(1)),
            "REPLICA" | "CLUSTER" | "SET" | "RESET" | "INHERIT" | "VALIDATE" | "OF" | "NOT" => {
                format!("ALTER TABLE {}", word(0))
            }
            "ATTACH" | "DETACH" => "ALTER TABLE ATTACH/DETACH PARTITION".to_string(),
            "AUTO_INCREMENT" => {
                "ALTER TABLE AUTO_INCREMENT= (the next id is one past the largest)".to_string()
            }
            _ => {
                return Err(unsupported!(
                    line,
                    "ALTER TABLE {table} {}",
                    self.render().sql(&t[..t.len().min(6)])
                ));
            }
        };
        self.skip(&kind, line);
        Ok(())
    }

    fn drop(&mut self, stmt: &[Token], line: u64, start: u64) -> Result<()> {
        let what = stmt.get(1).and_then(Token::name).unwrap_or("").to_ascii_uppercase();
        if !matches!(what.as_str(), "TABLE" | "VIEW" | "INDEX") {
            self.skip(&format!("DROP {what}"), line);
            return Ok(());
        }
        let mut c = Cur { t: stmt, i: 2 };
        c.eat("CONCURRENTLY");
        let if_exists = c.eat_all(&["IF", "EXISTS"]);
        let names = c.until(|t| t.is("CASCADE") || t.is("RESTRICT"));
        for part in split_commas(names) {
            let Some(parts) = Cur::new(part).qualified() else { continue };
            let name = last(&parts);
            let sql = format!(
                "DROP {what} {}{}",
                if if_exists { "IF EXISTS " } else { "" },
                quote_ident(&name)
            );
            let u = self.unit(sql, line, start);
            self.pending.push_back(u);
        }
        Ok(())
    }
}

impl Reader for DumpReader {
    fn next_unit(&mut self) -> Option<Result<Unit>> {
        loop {
            if let Some(u) = self.pending.pop_front() {
                return Some(Ok(u));
            }
            if self.done {
                return None;
            }
            if let Err(e) = self.step() {
                self.done = true;
                // Rows read before the error go first.
                self.flush();
                self.pending.clear();
                return Some(Err(e));
            }
        }
    }

    fn report(&self) -> Report {
        Report {
            format: match self.dialect {
                Dialect::Mysql => "mysql".into(),
                Dialect::Postgres => "postgresql".into(),
            },
            tables: self.written.clone(),
            skipped: self.skips.list(),
            csv: None,
            ragged_rows: None,
            notes: self.notes.list(),
        }
    }
}

/// The kind a client command is counted as.
fn meta_kind(text: &str, dialect: Dialect) -> String {
    match dialect {
        Dialect::Postgres => {
            let cmd = text.split_whitespace().next().unwrap_or("\\");
            format!("psql meta-command {cmd}")
        }
        Dialect::Mysql if text.to_ascii_uppercase().starts_with("DELIMITER") => {
            "DELIMITER (client command)".into()
        }
        Dialect::Mysql => "MariaDB client command (sandbox mode)".into(),
    }
}

/// A literal tuple item as a value (`None`: not a literal).
fn literal_value(item: &[Token], cat: Cat, mysql: bool) -> Result<Option<Value>> {
    let line = item.first().map_or(0, |t| t.line);
    // Drop a trailing cast (`'…'::bytea`), remembering its type.
    let (item, cast) = match item.iter().position(|t| t.is_sym("::")) {
        Some(p) => (&item[..p], item.get(p + 1).and_then(Token::name).map(str::to_ascii_lowercase)),
        None => (item, None),
    };
    let cat = match cast.as_deref() {
        Some("bytea") => Cat::Bytes,
        Some("boolean" | "bool") => Cat::Bool,
        _ => cat,
    };
    Ok(Some(match item {
        [] => return Ok(None),
        [t] => match &t.tok {
            Tok::Word(w) if w.eq_ignore_ascii_case("NULL") => Value::Null,
            Tok::Word(w) if w.eq_ignore_ascii_case("TRUE") => Value::Integer(1),
            Tok::Word(w) if w.eq_ignore_ascii_case("FALSE") => Value::Integer(0),
            Tok::Word(w) if w.eq_ignore_ascii_case("DEFAULT") => {
                return Err(unsupported!(line, "DEFAULT in a VALUES tuple"));
            }
            Tok::Num(n) => match asadb_sql::value::parse_number_literal(n) {
                Some(v) => v,
                None => return Ok(None),
            },
            Tok::Str(b, kind) => string_value(b, *kind, cat, mysql, false),
            _ => return Ok(None),
        },
        [sign, n] if (sign.is_sym("-") || sign.is_sym("+")) && matches!(n.tok, Tok::Num(_)) => {
            let Tok::Num(text) = &n.tok else { return Ok(None) };
            match (asadb_sql::value::parse_number_literal(text), sign.is_sym("-")) {
                (Some(Value::Integer(i)), true) => Value::Integer(i.wrapping_neg()),
                (Some(Value::Real(f)), true) => Value::Real(-f),
                (Some(v), false) => v,
                _ => return Ok(None),
            }
        }
        [intro, s] if mysql && matches!(&intro.tok, Tok::Word(w) if w.starts_with('_')) => {
            let Tok::Str(b, kind) = &s.tok else { return Ok(None) };
            let binary = intro.is("_binary");
            string_value(b, *kind, cat, mysql, binary)
        }
        _ => return Ok(None),
    }))
}

/// A string literal's value for a column of category `cat`.
fn string_value(b: &[u8], kind: StrKind, cat: Cat, mysql: bool, binary: bool) -> Value {
    match kind {
        StrKind::Hex => return Value::Blob(b.to_vec()),
        StrKind::Bits => return Value::Integer(bits_value(b)),
        _ => {}
    }
    if binary || (cat == Cat::Bytes && mysql) {
        return Value::Blob(b.to_vec());
    }
    match cat {
        Cat::Bool => match bool_text(b) {
            Some(v) => Value::Integer(v),
            None => text_or_blob(b),
        },
        Cat::Bytes => bytea(b).map_or_else(|| text_or_blob(b), Value::Blob),
        Cat::Other => text_or_blob(b),
    }
}

/// Text when the bytes are UTF-8, else the bytes (a binary column's).
fn text_or_blob(b: &[u8]) -> Value {
    match std::str::from_utf8(b) {
        Ok(s) => Value::Text(s.to_string().into()),
        Err(_) => Value::Blob(b.to_vec()),
    }
}

/// PostgreSQL's bytea text: hex (`\x00ff`) or the escape format.
fn bytea(b: &[u8]) -> Option<Vec<u8>> {
    if let Some(hex) = b.strip_prefix(b"\\x") {
        if hex.len() % 2 != 0 || !hex.iter().all(u8::is_ascii_hexdigit) {
            return None;
        }
        return Some(
            hex.chunks(2)
                .map(|p| {
                    let v = |x: u8| (x as char).to_digit(16).unwrap_or(0) as u8;
                    v(p[0]) << 4 | v(p[1])
                })
                .collect(),
        );
    }
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            if b.get(i + 1) == Some(&b'\\') {
                out.push(b'\\');
                i += 2;
                continue;
            }
            let d = b.get(i + 1..i + 4)?;
            if !d.iter().all(|c| (b'0'..=b'7').contains(c)) {
                return None;
            }
            out.push(((d[0] - b'0') << 6) | ((d[1] - b'0') << 3) | (d[2] - b'0'));
            i += 4;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Some(out)
}

/// The fields of a COPY text-format line.
fn copy_fields(line_bytes: &[u8], cats: &[Cat], line: u64) -> Result<Vec<Value>> {
    let mut out = Vec::with_capacity(cats.len());
    for (k, raw) in line_bytes.split(|&b| b == b'\t').enumerate() {
        if raw == b"\\N" {
            out.push(Value::Null);
            continue;
        }
        let cat = cats.get(k).copied().unwrap_or(Cat::Other);
        if !raw.contains(&b'\\') {
            // Nothing to unescape (most fields): no copy of its own.
            out.push(string_value(raw, StrKind::Plain, cat, false, false));
            continue;
        }
        let mut v = Vec::with_capacity(raw.len());
        let mut i = 0;
        while i < raw.len() {
            let c = raw[i];
            if c != b'\\' {
                v.push(c);
                i += 1;
                continue;
            }
            let Some(&e) = raw.get(i + 1) else {
                return Err(malformed!(line, "a COPY field ends with a lone backslash"));
            };
            i += 2;
            match e {
                b'b' => v.push(8),
                b'f' => v.push(12),
                b'n' => v.push(b'\n'),
                b'r' => v.push(b'\r'),
                b't' => v.push(b'\t'),
                b'v' => v.push(11),
                b'0'..=b'7' => {
                    let mut n = u32::from(e - b'0');
                    let mut k2 = 0;
                    while k2 < 2 && raw.get(i).is_some_and(|d| (b'0'..=b'7').contains(d)) {
                        n = n * 8 + u32::from(raw[i] - b'0');
                        i += 1;
                        k2 += 1;
                    }
                    v.push((n & 0xFF) as u8);
                }
                b'x' if raw.get(i).is_some_and(u8::is_ascii_hexdigit) => {
                    let mut n = 0u32;
                    let mut k2 = 0;
                    while k2 < 2 && raw.get(i).is_some_and(u8::is_ascii_hexdigit) {
                        n = n * 16 + (raw[i] as char).to_digit(16).unwrap_or(0);
                        i += 1;
                        k2 += 1;
                    }
                    v.push(n as u8);
                }
                other => v.push(other),
            }
        }
        out.push(string_value(&v, StrKind::Plain, cat, false, false));
    }
    Ok(out)
}

/// The pre-scan (see the module docs). Errors end it quietly: the main
/// pass meets the same input and reports it with its line.
fn prescan<R: std::io::Read>(lexer: &mut Lexer<R>, dialect: Dialect) -> Prescan {
    let mut pre = Prescan::default();
    let schemas: HashSet<String> = ["public", "pg_catalog"].iter().map(|s| s.to_string()).collect();
    let render = Render { schemas: &schemas, mysql: dialect == Dialect::Mysql };
    let mut stmt: Vec<Token> = Vec::new();
    loop {
        let t = match lexer.next_token() {
            Ok(Some(t)) => t,
            _ => return pre,
        };
        if t.tok != Tok::End {
            if matches!(t.tok, Tok::Meta(_)) {
                continue;
            }
            // Only ALTER TABLE and COPY statements matter: others are
            // dropped token by token, so memory stays small.
            if stmt.is_empty() && !(t.is("ALTER") || t.is("COPY") || t.is("CREATE")) {
                stmt.push(Token { tok: Tok::Sym("skip".into()), ..t });
                continue;
            }
            if stmt.first().is_some_and(|f| f.is_sym("skip")) {
                continue;
            }
            if stmt.len() < 100_000 {
                stmt.push(t);
            }
            continue;
        }
        let s = std::mem::take(&mut stmt);
        if s.first().is_some_and(|f| f.is("COPY")) {
            if lexer.skip_rest_of_line().is_err() || lexer.skip_copy().is_err() {
                return pre;
            }
            continue;
        }
        if s.first().is_some_and(|f| f.is("CREATE")) {
            // Partitions: CREATE TABLE child PARTITION OF parent.
            if let Some(p) = s.iter().position(|x| x.is("PARTITION"))
                && s.get(p + 1).is_some_and(|x| x.is("OF"))
                && let Some(tpos) = s.iter().position(|x| x.is("TABLE"))
            {
                let child = Cur { t: &s, i: tpos + 1 }.qualified().map(|q| last(&q));
                let parent = Cur { t: &s, i: p + 2 }.qualified().map(|q| last(&q));
                if let (Some(c), Some(par)) = (child, parent) {
                    pre.partitions.insert(c.to_ascii_lowercase(), par);
                }
            }
            continue;
        }
        if !(s.first().is_some_and(|f| f.is("ALTER")) && s.get(1).is_some_and(|x| x.is("TABLE"))) {
            continue;
        }
        let mut c = Cur { t: &s, i: 2 };
        c.eat_all(&["IF", "EXISTS"]);
        c.eat("ONLY");
        let Some(parts) = c.qualified() else { continue };
        let table = last(&parts).to_ascii_lowercase();
        c.eat_sym("*");
        for action in split_commas(c.rest()) {
            let mut a = Cur::new(action);
            if a.eat("ADD") && ddl::starts_constraint(&action[1..]) {
                let mut dropped = Vec::new();
                if let Ok(Some(n)) = ddl::parse_constraint(&action[1..], &render, &mut dropped)
                    && !matches!(n.c, Constraint::Index { .. })
                {
                    pre.constraints.entry(table.clone()).or_default().push(n);
                }
                continue;
            }
            let mut a = Cur::new(action);
            if a.eat("ALTER") {
                a.eat("COLUMN");
                if let Some(col) = a.take().and_then(Token::name)
                    && action.iter().any(|x| x.is("nextval") || x.is("IDENTITY"))
                {
                    pre.serial.insert((table.clone(), col.to_ascii_lowercase()));
                }
                continue;
            }
            let mut a = Cur::new(action);
            if (a.eat("MODIFY") || a.eat("CHANGE")) && action.iter().any(|x| x.is("AUTO_INCREMENT"))
            {
                a.eat("COLUMN");
                if let Some(col) = a.take().and_then(Token::name) {
                    pre.serial.insert((table.clone(), col.to_ascii_lowercase()));
                }
                continue;
            }
            let mut a = Cur::new(action);
            if a.eat_all(&["ATTACH", "PARTITION"])
                && let Some(q) = a.qualified()
            {
                pre.partitions.insert(last(&q).to_ascii_lowercase(), last(&parts));
            }
        }
    }
}

#[cfg(test)]
mod tests;
