//! The interactive shell: what `asadb sql --db FILE` becomes when its
//! input is a terminal (non-terminal input keeps [`crate::shell`]'s
//! script behaviour).
//!
//! - Line editing and history (`rustyline`; history in
//!   `$ASADB_HISTORY`, default `~/.asadb_history`).
//! - Multi-line statements: lines gather (prompt `   ...> `) until the
//!   text ends with `;` outside quotes and comments (a `CREATE TRIGGER`
//!   until its `END;`); then every statement in it runs in order.
//! - Ctrl-C while a statement runs interrupts it (the engine's
//!   [`Interrupt`]; it fails with "interrupted" and its effects are
//!   undone; an open `BEGIN` stays open, as in sqlite3); Ctrl-C at the
//!   prompt drops the gathered lines; Ctrl-D or `.quit` leaves.
//! - Dot commands (a line starting with `.` when no statement is being
//!   gathered): `.tables [LIKE]`, `.schema [LIKE]`, `.indexes [LIKE]`,
//!   `.mode list|csv|tsv|json|jsonl|table|box|markdown|line`,
//!   `.headers on|off`, `.nullvalue TEXT`, `.timer on|off`, `.read FILE`,
//!   `.import FILE TABLE` (the CSV importer with its dialect detection,
//!   into a new or an existing table, in one transaction), `.dump`
//!   (`asadb dump`'s script), `.output [FILE]`, `.once FILE`,
//!   `.quit`/`.exit`, `.help`. An unknown command or a wrong argument is
//!   an error message, never ignored.
//!
//! Decisions where sqlite3 differs or is silent: headers are on by
//! default (as `asadb sql` prints them for scripts); NULL shows as the
//! `.nullvalue` text (default empty) in every mode but json/jsonl (which
//! write `null`) and csv/tsv (which write an empty unquoted field, the
//! export encoding); blobs show as hex in the text modes; `.timer` prints
//! the wall-clock time only (`Run Time: real 0.004`).

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::time::Instant;

use asadb::Value;
use asadb::interchange::export::{self, SessionDump};
use asadb::interchange::{Body, Format, ImportOptions, Mode, Spec};
use asadb::sql::script::Splitter;
use asadb::sql::session::{Outcome, Params, Session};
use asadb::sql::storage::Interrupt;
use unicode_width::UnicodeWidthStr;

use crate::error::Result;

/// Output modes (`.mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutMode {
    List,
    Csv,
    Tsv,
    Json,
    Jsonl,
    Table,
    Box,
    Markdown,
    Line,
}

impl OutMode {
    fn parse(s: &str) -> Option<OutMode> {
        Some(match s {
            "list" => OutMode::List,
            "csv" => OutMode::Csv,
            "tsv" | "tabs" => OutMode::Tsv,
            "json" => OutMode::Json,
            "jsonl" | "ndjson" => OutMode::Jsonl,
            "table" => OutMode::Table,
            "box" => OutMode::Box,
            "markdown" => OutMode::Markdown,
            "line" => OutMode::Line,
            _ => return None,
        })
    }
}

/// What the caller does after a line.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

const HELP: &str = "\
.dump                  the whole database as SQL (loadable by sqlite3)
.exit                  leave the shell (also .quit, Ctrl-D)
.headers on|off        column names above the rows
.help                  this text
.import FILE TABLE     import a CSV file into TABLE (created when absent)
.indexes [LIKE]        index names (of the tables matching LIKE)
.mode MODE             list|csv|tsv|json|jsonl|table|box|markdown|line
.nullvalue TEXT        how NULL shows in list, table, box, markdown, line
.once FILE             the next command's output goes to FILE
.output [FILE]         output to FILE, or back to the terminal
.quit                  leave the shell
.read FILE             run the SQL and dot commands of FILE
.schema [LIKE]         CREATE statements (of the tables matching LIKE)
.tables [LIKE]         table and view names
.timer on|off          time each statement
";

/// The shell's state over one session.
pub struct Shell<'a> {
    session: &'a mut Session,
    mode: OutMode,
    headers: bool,
    nullvalue: String,
    timer: bool,
    stdout: Box<dyn Write + 'a>,
    stderr: Box<dyn Write + 'a>,
    /// `.output FILE`.
    output: Option<Box<dyn Write + 'a>>,
    /// `.once FILE`: used by the next command, then dropped.
    once: Option<Box<dyn Write + 'a>>,
    /// Set by `.once` until the command after it.
    once_armed: bool,
    /// Lines of a statement being gathered.
    pending: String,
    interrupt: Interrupt,
    /// `.read` nesting depth (a file reading itself stops).
    depth: usize,
}

impl<'a> Shell<'a> {
    pub fn new(
        session: &'a mut Session,
        stdout: Box<dyn Write + 'a>,
        stderr: Box<dyn Write + 'a>,
        interrupt: Interrupt,
    ) -> Shell<'a> {
        session.set_interrupt(Some(interrupt.clone()));
        Shell {
            session,
            mode: OutMode::List,
            headers: true,
            nullvalue: String::new(),
            timer: false,
            stdout,
            stderr,
            output: None,
            once: None,
            once_armed: false,
            pending: String::new(),
            interrupt,
            depth: 0,
        }
    }

    /// True while a statement's lines are being gathered.
    pub fn gathering(&self) -> bool {
        !self.pending.is_empty()
    }

    /// Drops the gathered lines (Ctrl-C at the prompt).
    pub fn discard(&mut self) {
        self.pending.clear();
    }

    /// One input line.
    pub fn line(&mut self, line: &str) -> Flow {
        if self.pending.is_empty() {
            let t = line.trim_start();
            if t.starts_with('.') {
                let flow = self.dot(t.trim_end());
                self.end_command();
                return flow;
            }
            if t.is_empty() {
                return Flow::Continue;
            }
        }
        self.pending.push_str(line);
        self.pending.push('\n');
        if is_complete(&self.pending) {
            let sql = std::mem::take(&mut self.pending);
            self.run_sql(&sql);
            self.end_command();
        }
        Flow::Continue
    }

    /// At the end of input: runs what was gathered (a last statement
    /// without its `;`).
    pub fn finish(&mut self) {
        if self.pending.trim().is_empty() {
            self.pending.clear();
            return;
        }
        let sql = std::mem::take(&mut self.pending);
        self.run_sql(&sql);
        self.end_command();
    }

    fn end_command(&mut self) {
        if std::mem::take(&mut self.once_armed) {
            // `.once` itself: its file waits for the next command.
            return;
        }
        if let Some(mut w) = self.once.take() {
            let _ = w.flush();
        }
        let _ = self.out().flush();
        let _ = self.stderr.flush();
    }

    fn out(&mut self) -> &mut (dyn Write + 'a) {
        if let Some(w) = self.once.as_mut() {
            return w.as_mut();
        }
        if let Some(w) = self.output.as_mut() {
            return w.as_mut();
        }
        self.stdout.as_mut()
    }

    fn error(&mut self, message: &str) {
        let _ = self.out().flush();
        let _ = writeln!(self.stderr, "Error: {message}");
        let _ = self.stderr.flush();
    }

    /// Runs every statement of `sql`; stops at the first error.
    fn run_sql(&mut self, sql: &str) {
        for stmt in Splitter::new(sql.as_bytes()) {
            let stmt = match stmt {
                Ok(s) => s,
                Err(e) => {
                    self.error(&e.to_string());
                    return;
                }
            };
            self.interrupt.clear();
            let started = Instant::now();
            let outcome = self.session.execute(&stmt.text, &Params::None);
            let elapsed = started.elapsed();
            self.interrupt.clear();
            match outcome {
                Ok(Outcome::Rows { columns, rows }) => {
                    if let Err(e) = self.print_rows(&columns, &rows) {
                        self.error(&format!("writing the output: {e}"));
                        return;
                    }
                }
                Ok(_) => {}
                Err(e) => {
                    self.error(&e.to_string());
                    return;
                }
            }
            if self.timer {
                let _ = writeln!(self.out(), "Run Time: real {:.3}", elapsed.as_secs_f64());
            }
        }
    }

    fn print_rows(&mut self, columns: &[String], rows: &[Vec<Value>]) -> std::io::Result<()> {
        let mut text = String::new();
        render(self.mode, self.headers, &self.nullvalue, columns, rows, &mut text);
        self.out().write_all(text.as_bytes())
    }

    /// A dot command.
    fn dot(&mut self, line: &str) -> Flow {
        let args = match split_args(&line[1..]) {
            Ok(a) => a,
            Err(e) => {
                self.error(&e);
                return Flow::Continue;
            }
        };
        let Some(cmd) = args.first() else {
            self.error("empty dot command: .help lists them");
            return Flow::Continue;
        };
        let rest = &args[1..];
        let result = match (cmd.as_str(), rest.len()) {
            ("quit" | "exit", 0) => return Flow::Quit,
            ("help", 0) => self.out().write_all(HELP.as_bytes()).map_err(|e| e.to_string()),
            ("tables", 0 | 1) => self.tables(rest.first().map(String::as_str)),
            ("schema", 0 | 1) => self.schema(rest.first().map(String::as_str)),
            ("indexes" | "indices", 0 | 1) => self.indexes(rest.first().map(String::as_str)),
            ("mode", 1) => match OutMode::parse(&rest[0]) {
                Some(m) => {
                    self.mode = m;
                    Ok(())
                }
                None => Err(format!(
                    "unknown mode {:?}: list, csv, tsv, json, jsonl, table, box, markdown or line",
                    rest[0]
                )),
            },
            ("headers" | "header", 1) => on_off(&rest[0]).map(|b| self.headers = b),
            ("timer", 1) => on_off(&rest[0]).map(|b| self.timer = b),
            ("nullvalue", 1) => {
                self.nullvalue = rest[0].clone();
                Ok(())
            }
            ("read", 1) => self.read(Path::new(&rest[0])),
            ("import", 2) => self.import(Path::new(&rest[0]), &rest[1]),
            ("dump", 0) => self.dump(),
            ("output", 0) => {
                if let Some(mut w) = self.output.take() {
                    let _ = w.flush();
                }
                Ok(())
            }
            ("output", 1) => create(&rest[0]).map(|w| self.output = Some(w)),
            ("once", 1) => create(&rest[0]).map(|w| {
                self.once = Some(w);
                self.once_armed = true;
            }),
            (
                "quit" | "exit" | "help" | "tables" | "schema" | "indexes" | "indices" | "mode"
                | "headers" | "header" | "timer" | "nullvalue" | "read" | "import" | "dump"
                | "output" | "once",
                _,
            ) => Err(format!("wrong arguments for .{cmd}: {}", usage(cmd))),
            _ => Err(format!("unknown command .{cmd}: .help lists them")),
        };
        if let Err(e) = result {
            // The output of a failed `.once` command is not kept for the
            // next one.
            self.error(&e);
        }
        Flow::Continue
    }

    fn schema_now(
        &mut self,
    ) -> std::result::Result<std::sync::Arc<asadb::sql::catalog::Schema>, String> {
        self.session.schema().map_err(|e| e.to_string())
    }

    fn tables(&mut self, pattern: Option<&str>) -> std::result::Result<(), String> {
        let schema = self.schema_now()?;
        let mut names: Vec<&str> = schema
            .tables
            .values()
            .map(|t| t.name.as_str())
            .chain(schema.views.values().map(|v| v.name.as_str()))
            .filter(|n| !is_internal(n) && pattern.is_none_or(|p| like(p, n)))
            .collect();
        names.sort_unstable();
        let mut text = String::new();
        for n in names {
            text.push_str(n);
            text.push('\n');
        }
        self.out().write_all(text.as_bytes()).map_err(|e| e.to_string())
    }

    fn schema(&mut self, pattern: Option<&str>) -> std::result::Result<(), String> {
        let schema = self.schema_now()?;
        let keep = |table: &str| pattern.is_none_or(|p| like(p, table));
        let mut text = String::new();
        let mut put = |sql: &str| {
            text.push_str(sql.trim_end().trim_end_matches(';'));
            text.push_str(";\n");
        };
        for t in schema.tables.values().filter(|t| !is_internal(&t.name) && keep(&t.name)) {
            put(&t.sql);
            for i in schema.indexes.values() {
                if i.table.eq_ignore_ascii_case(&t.name)
                    && let Some(sql) = &i.sql
                {
                    put(sql);
                }
            }
        }
        for v in schema.views.values().filter(|v| keep(&v.name)) {
            put(&v.sql);
        }
        self.out().write_all(text.as_bytes()).map_err(|e| e.to_string())
    }

    fn indexes(&mut self, pattern: Option<&str>) -> std::result::Result<(), String> {
        let schema = self.schema_now()?;
        let mut names: Vec<&str> = schema
            .indexes
            .values()
            .filter(|i| !is_internal(&i.table) && pattern.is_none_or(|p| like(p, &i.table)))
            .map(|i| i.name.as_str())
            .collect();
        names.sort_unstable();
        let mut text = String::new();
        for n in names {
            text.push_str(n);
            text.push('\n');
        }
        self.out().write_all(text.as_bytes()).map_err(|e| e.to_string())
    }

    fn read(&mut self, path: &Path) -> std::result::Result<(), String> {
        if self.depth >= 16 {
            return Err(".read nested too deeply (16 files)".into());
        }
        let file = File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        let saved = std::mem::take(&mut self.pending);
        self.depth += 1;
        let mut result = Ok(());
        for line in BufReader::new(file).lines() {
            match line {
                Ok(l) => {
                    if self.line(&l) == Flow::Quit {
                        break;
                    }
                }
                Err(e) => {
                    result = Err(format!("reading {}: {e}", path.display()));
                    break;
                }
            }
        }
        if result.is_ok() {
            self.finish();
        }
        self.depth -= 1;
        self.pending = saved;
        result
    }

    /// `.import FILE TABLE`: the CSV importer, in one transaction (inside
    /// the open one, if any).
    fn import(&mut self, path: &Path, table: &str) -> std::result::Result<(), String> {
        let file = File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        let spec = Spec {
            format: Format::Csv,
            original_name: path.file_name().map(|n| n.to_string_lossy().into_owned()),
            target_table: Some(table.to_string()),
            mode: Mode::Append,
            options: ImportOptions::default(),
        };
        let session = &mut *self.session;
        let mut lookup = |name: &str| {
            let sql = format!("SELECT * FROM {} LIMIT 0", asadb::interchange::quote_ident(name));
            match session.execute(&sql, &Params::None) {
                Ok(Outcome::Rows { columns, .. }) => Some(columns),
                _ => None,
            }
        };
        let mut reader =
            asadb::interchange::open(&spec, Box::new(BufReader::new(file)), &mut lookup)
                .map_err(|e| e.to_string())?;
        let own = !self.session.in_transaction();
        if own {
            self.session.execute("BEGIN", &Params::None).map_err(|e| e.to_string())?;
        }
        self.interrupt.clear();
        let mut rows = 0u64;
        let mut result = Ok(());
        while let Some(unit) = reader.next_unit() {
            let step = unit.map_err(|e| e.to_string()).and_then(|u| match u.body {
                Body::Sql(sql) => self
                    .session
                    .execute(&sql, &Params::None)
                    .map(|_| 0)
                    .map_err(|e| format!("line {}: {e}", u.line)),
                Body::Rows(b) => {
                    let first = b.lines.first().copied().unwrap_or(u.line);
                    match self.session.insert_values_owned(b.insert) {
                        Ok(Outcome::Affected(n)) => Ok(n),
                        Ok(_) => Ok(0),
                        Err(e) => Err(format!("rows from line {first}: {e}")),
                    }
                }
            });
            match step {
                Ok(n) => rows += n,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.interrupt.clear();
        if own {
            let end = if result.is_ok() { "COMMIT" } else { "ROLLBACK" };
            if let Err(e) = self.session.execute(end, &Params::None)
                && result.is_ok()
            {
                result = Err(e.to_string());
            }
        }
        result?;
        let report = reader.report();
        let mut note = format!("imported {rows} rows into {table}");
        for k in &report.skipped {
            note.push_str(&format!(
                "; skipped {} × {} (first at line {})",
                k.count, k.kind, k.first_line
            ));
        }
        if let Some(r) = &report.ragged_rows {
            note.push_str(&format!("; {} ragged rows {}", r.count, r.action));
        }
        let _ = writeln!(self.stderr, "{note}");
        Ok(())
    }

    fn dump(&mut self) -> std::result::Result<(), String> {
        let mut text = Vec::new();
        export::dump(&mut SessionDump { session: self.session }, &mut text)
            .map_err(|e| e.to_string())?;
        self.out().write_all(&text).map_err(|e| e.to_string())
    }
}

fn usage(cmd: &str) -> &'static str {
    match cmd {
        "tables" | "schema" | "indexes" | "indices" => "one optional LIKE pattern",
        "mode" => ".mode list|csv|tsv|json|jsonl|table|box|markdown|line",
        "headers" | "header" | "timer" => "on or off",
        "nullvalue" => ".nullvalue TEXT",
        "read" => ".read FILE",
        "import" => ".import FILE TABLE",
        "output" => ".output [FILE]",
        "once" => ".once FILE",
        _ => "no arguments",
    }
}

fn on_off(s: &str) -> std::result::Result<bool, String> {
    match s.to_ascii_lowercase().as_str() {
        "on" | "yes" | "true" | "1" => Ok(true),
        "off" | "no" | "false" | "0" => Ok(false),
        other => Err(format!("expected on or off, not {other:?}")),
    }
}

fn create<'a>(path: &str) -> std::result::Result<Box<dyn Write + 'a>, String> {
    let f = File::create(path).map_err(|e| format!("cannot create {path}: {e}"))?;
    Ok(Box::new(std::io::BufWriter::new(f)))
}

/// The server's own tables, hidden by `.tables`, `.schema` and `.indexes`.
fn is_internal(name: &str) -> bool {
    export::DUMP_EXCLUDED.iter().any(|x| x.eq_ignore_ascii_case(name))
}

/// SQLite's LIKE (case-insensitive for ASCII, `%` and `_`).
fn like(pattern: &str, name: &str) -> bool {
    asadb::sql::func::like(pattern, name, None)
}

/// Splits a dot command's arguments: spaces separate, `"…"` and `'…'`
/// quote (`\"` inside double quotes).
fn split_args(s: &str) -> std::result::Result<Vec<String>, String> {
    let mut args = Vec::new();
    let mut chars = s.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        let Some(&c) = chars.peek() else { break };
        let mut arg = String::new();
        if c == '"' || c == '\'' {
            chars.next();
            let mut closed = false;
            while let Some(ch) = chars.next() {
                if ch == c {
                    closed = true;
                    break;
                }
                if ch == '\\'
                    && c == '"'
                    && let Some(n) = chars.next()
                {
                    arg.push(match n {
                        'n' => '\n',
                        't' => '\t',
                        other => other,
                    });
                    continue;
                }
                arg.push(ch);
            }
            if !closed {
                return Err(format!("unterminated {c} in the dot command"));
            }
        } else {
            while let Some(&ch) = chars.peek() {
                if ch.is_whitespace() {
                    break;
                }
                arg.push(ch);
                chars.next();
            }
        }
        args.push(arg);
    }
    Ok(args)
}

/// True when `sql` ends with a `;` outside quotes and comments (and a
/// `CREATE TRIGGER` with its `END;`): `sqlite3_complete`'s question.
pub fn is_complete(sql: &str) -> bool {
    let b = sql.as_bytes();
    let mut i = 0;
    let mut last_semi_end = None;
    let mut significant_after = false;
    while i < b.len() {
        match b[i] {
            b'\'' | b'"' | b'`' | b'[' => {
                let close = if b[i] == b'[' { b']' } else { b[i] };
                i += 1;
                loop {
                    if i >= b.len() {
                        return false;
                    }
                    if b[i] == close {
                        if close != b']' && b.get(i + 1) == Some(&close) {
                            i += 2;
                            continue;
                        }
                        break;
                    }
                    i += 1;
                }
                significant_after = true;
                i += 1;
            }
            b'-' if b.get(i + 1) == Some(&b'-') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                loop {
                    if i + 1 >= b.len() {
                        return false;
                    }
                    if b[i] == b'*' && b[i + 1] == b'/' {
                        break;
                    }
                    i += 1;
                }
                i += 2;
            }
            b';' => {
                last_semi_end = Some(i + 1);
                significant_after = false;
                i += 1;
            }
            c => {
                if !c.is_ascii_whitespace() {
                    significant_after = true;
                }
                i += 1;
            }
        }
    }
    let Some(end) = last_semi_end else { return false };
    if significant_after {
        return false;
    }
    // A trigger's body holds `;`s: it ends at `END;`.
    let upper = sql[..end].to_ascii_uppercase();
    let words: Vec<&str> = upper
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .filter(|w| !w.is_empty())
        .collect();
    let trigger = words.windows(2).take(3).any(|w| w[0] == "CREATE" && w[1] == "TRIGGER")
        || words
            .windows(3)
            .take(3)
            .any(|w| w[0] == "CREATE" && matches!(w[1], "TEMP" | "TEMPORARY") && w[2] == "TRIGGER");
    if trigger {
        let before: &str = upper[..end - 1].trim_end();
        return before.ends_with("END")
            && !before[..before.len() - 3]
                .ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
    }
    true
}

/// A value as text in the display modes.
fn display(v: &Value, nullvalue: &str) -> String {
    match v {
        Value::Null => nullvalue.to_string(),
        Value::Blob(b) => b.iter().map(|x| format!("{x:02x}")).collect(),
        // A terminal shows text: bytes that are not UTF-8 as U+FFFD.
        other => other.text().unwrap_or_default().into_owned(),
    }
}

/// Renders rows in a mode.
pub fn render(
    mode: OutMode,
    headers: bool,
    nullvalue: &str,
    columns: &[String],
    rows: &[Vec<Value>],
    out: &mut String,
) {
    match mode {
        OutMode::List => {
            if headers {
                out.push_str(&columns.join("|"));
                out.push('\n');
            }
            for r in rows {
                let cells: Vec<String> = r.iter().map(|v| display(v, nullvalue)).collect();
                out.push_str(&cells.join("|"));
                out.push('\n');
            }
        }
        OutMode::Csv | OutMode::Tsv => {
            let d = if mode == OutMode::Csv { ',' } else { '\t' };
            if headers {
                let names: Vec<Value> =
                    columns.iter().map(|c| Value::Text(c.clone().into())).collect();
                export::delimited(&names, d, out);
            }
            for r in rows {
                export::delimited(r, d, out);
            }
        }
        OutMode::Json | OutMode::Jsonl => {
            if mode == OutMode::Json && !rows.is_empty() {
                out.push('[');
            }
            for (i, r) in rows.iter().enumerate() {
                if i > 0 && mode == OutMode::Json {
                    out.push_str(",\n");
                }
                out.push('{');
                for (j, (c, v)) in columns.iter().zip(r).enumerate() {
                    if j > 0 {
                        out.push(',');
                    }
                    out.push_str(&serde_json::to_string(c).unwrap_or_else(|_| "\"\"".into()));
                    out.push(':');
                    export::value_json(v, out);
                }
                out.push('}');
                if mode == OutMode::Jsonl {
                    out.push('\n');
                }
            }
            if mode == OutMode::Json && !rows.is_empty() {
                out.push_str("]\n");
            }
        }
        OutMode::Line => {
            let w = columns.iter().map(|c| c.width()).max().unwrap_or(0);
            for (i, r) in rows.iter().enumerate() {
                if i > 0 {
                    out.push('\n');
                }
                for (c, v) in columns.iter().zip(r) {
                    out.push_str(&" ".repeat(w - c.width()));
                    out.push_str(c);
                    out.push_str(" = ");
                    out.push_str(&display(v, nullvalue));
                    out.push('\n');
                }
            }
        }
        OutMode::Table | OutMode::Box | OutMode::Markdown => {
            grid(mode, nullvalue, columns, rows, out)
        }
    }
}

/// table, box and markdown: columns as wide as their widest cell;
/// numbers right-aligned, as sqlite3 does; a newline in a cell shows as
/// a space so the grid stays a grid.
fn grid(mode: OutMode, nullvalue: &str, columns: &[String], rows: &[Vec<Value>], out: &mut String) {
    let cells: Vec<Vec<(String, bool)>> = rows
        .iter()
        .map(|r| {
            r.iter()
                .map(|v| {
                    let t = display(v, nullvalue).replace(['\n', '\r'], " ").replace('\t', " ");
                    (t, matches!(v, Value::Integer(_) | Value::Real(_)))
                })
                .collect()
        })
        .collect();
    let mut widths: Vec<usize> = columns.iter().map(|c| c.width()).collect();
    for r in &cells {
        for (i, (t, _)) in r.iter().enumerate() {
            if let Some(w) = widths.get_mut(i) {
                *w = (*w).max(t.width());
            }
        }
    }
    let (h, v, tl, tm, tr, ml, mm, mr, bl, bm, br) = match mode {
        OutMode::Box => ("─", "│", "┌", "┬", "┐", "├", "┼", "┤", "└", "┴", "┘"),
        _ => ("-", "|", "+", "+", "+", "+", "+", "+", "+", "+", "+"),
    };
    let rule = |out: &mut String, l: &str, m: &str, r: &str| {
        out.push_str(l);
        for (i, w) in widths.iter().enumerate() {
            if i > 0 {
                out.push_str(m);
            }
            out.push_str(&h.repeat(w + 2));
        }
        out.push_str(r);
        out.push('\n');
    };
    let line = |out: &mut String, row: &[(String, bool)]| {
        out.push_str(v);
        for (i, w) in widths.iter().enumerate() {
            let (t, right) = row.get(i).map(|(t, r)| (t.as_str(), *r)).unwrap_or(("", false));
            let pad = " ".repeat(w - t.width());
            out.push(' ');
            if right {
                out.push_str(&pad);
                out.push_str(t);
            } else {
                out.push_str(t);
                out.push_str(&pad);
            }
            out.push(' ');
            out.push_str(v);
        }
        out.push('\n');
    };
    let head: Vec<(String, bool)> = columns.iter().map(|c| (c.clone(), false)).collect();
    if mode == OutMode::Markdown {
        line(out, &head);
        out.push('|');
        for w in &widths {
            out.push_str(&"-".repeat(w + 2));
            out.push('|');
        }
        out.push('\n');
        for r in &cells {
            line(out, r);
        }
        return;
    }
    rule(out, tl, tm, tr);
    line(out, &head);
    rule(out, ml, mm, mr);
    for r in &cells {
        line(out, r);
    }
    rule(out, bl, bm, br);
}

/// The terminal loop: rustyline for the lines, Ctrl-C to interrupt the
/// running statement.
pub fn interactive(session: &mut Session) -> Result<()> {
    use rustyline::error::ReadlineError;
    let interrupt = Interrupt::new();
    watch_ctrl_c(interrupt.clone());
    let mut editor = rustyline::DefaultEditor::new()
        .map_err(|e| crate::error::Error::Config(format!("cannot start the line editor: {e}")))?;
    let history = std::env::var_os("ASADB_HISTORY")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".asadb_history")));
    if let Some(h) = &history {
        let _ = editor.load_history(h);
    }
    println!("AsaDB shell. Enter \".help\" for usage hints; statements end with \";\".");
    let mut shell =
        Shell::new(session, Box::new(std::io::stdout()), Box::new(std::io::stderr()), interrupt);
    loop {
        let prompt = if shell.gathering() { "   ...> " } else { "asadb> " };
        match editor.readline(prompt) {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = editor.add_history_entry(line.as_str());
                }
                if shell.line(&line) == Flow::Quit {
                    break;
                }
            }
            Err(ReadlineError::Interrupted) => shell.discard(),
            Err(ReadlineError::Eof) => break,
            Err(e) => {
                eprintln!("Error: reading the terminal: {e}");
                break;
            }
        }
    }
    shell.finish();
    drop(shell);
    if let Some(h) = &history {
        let _ = editor.save_history(h);
    }
    Ok(())
}

/// SIGINT (Ctrl-C while a statement runs; at the prompt the line editor
/// reads it as a key) sets the interrupt.
fn watch_ctrl_c(interrupt: Interrupt) {
    let (ready_tx, ready_rx) = std::sync::mpsc::channel();
    let spawned = std::thread::Builder::new().name("ctrl-c".into()).spawn(move || {
        let Ok(rt) = tokio::runtime::Builder::new_current_thread().enable_io().build() else {
            let _ = ready_tx.send(());
            return;
        };
        rt.block_on(async move {
            use tokio::signal::unix::{SignalKind, signal};
            let mut sig = signal(SignalKind::interrupt());
            let _ = ready_tx.send(());
            if let Ok(sig) = sig.as_mut() {
                while sig.recv().await.is_some() {
                    interrupt.set();
                }
            }
        });
    });
    if spawned.is_ok() {
        let _ = ready_rx.recv();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;
    use std::rc::Rc;

    #[derive(Clone, Default)]
    struct Sink(Rc<RefCell<Vec<u8>>>);
    impl Write for Sink {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.borrow_mut().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    impl Sink {
        fn take(&self) -> String {
            String::from_utf8(std::mem::take(&mut *self.0.borrow_mut())).unwrap()
        }
    }

    /// Feeds lines; (stdout, stderr).
    fn run(lines: &[&str]) -> (String, String) {
        let mut session = asadb::sql::session::Engine::memory().session();
        let (out, err) = (Sink::default(), Sink::default());
        let mut sh = Shell::new(
            &mut session,
            Box::new(out.clone()),
            Box::new(err.clone()),
            Interrupt::new(),
        );
        for l in lines {
            if sh.line(l) == Flow::Quit {
                break;
            }
        }
        sh.finish();
        drop(sh);
        (out.take(), err.take())
    }

    const SETUP: &str = "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, x REAL); INSERT INTO t VALUES (1, 'a|b', 1.5), (2, NULL, NULL), (10, 'é🎵', -2.0);";

    #[test]
    fn statements_gather_over_lines_until_their_semicolon() {
        let (out, err) = run(&["SELECT 1", "  + 2", "AS n;", "SELECT 'a;b' AS s -- c;", ";"]);
        assert_eq!(out, "n\n3\ns\na;b\n");
        assert_eq!(err, "");
        assert!(is_complete("SELECT 1;"));
        assert!(!is_complete("SELECT 'a;"));
        assert!(!is_complete("SELECT 1; /* x"));
        assert!(!is_complete("SELECT 1; SELECT"));
        assert!(!is_complete("CREATE TRIGGER tr AFTER INSERT ON t BEGIN DELETE FROM t;"));
        assert!(is_complete("CREATE TRIGGER tr AFTER INSERT ON t BEGIN DELETE FROM t; END;"));
        assert!(is_complete("select 1; -- done"));
    }

    #[test]
    fn modes_render_like_sqlite3() {
        let q = "SELECT * FROM t ORDER BY id;";
        let (out, _) = run(&[SETUP, ".nullvalue NULL", q]);
        assert_eq!(out, "id|name|x\n1|a|b|1.5\n2|NULL|NULL\n10|é🎵|-2.0\n");
        let (out, _) = run(&[
            SETUP,
            ".headers off",
            ".mode csv",
            q,
            ".mode tsv",
            "SELECT id, name FROM t WHERE id = 1;",
        ]);
        assert_eq!(out, "1,a|b,1.5\n2,,\n10,é🎵,-2.0\n1\ta|b\n");
        let (out, _) =
            run(&[SETUP, ".mode json", q, ".mode jsonl", "SELECT id FROM t WHERE id < 3;"]);
        assert_eq!(
            out,
            "[{\"id\":1,\"name\":\"a|b\",\"x\":1.5},\n{\"id\":2,\"name\":null,\"x\":null},\n{\"id\":10,\"name\":\"é🎵\",\"x\":-2.0}]\n{\"id\":1}\n{\"id\":2}\n"
        );
        let (out, _) = run(&[SETUP, ".mode table", q]);
        assert_eq!(
            out,
            "+----+------+------+\n| id | name | x    |\n+----+------+------+\n|  1 | a|b  |  1.5 |\n|  2 |      |      |\n| 10 | é🎵  | -2.0 |\n+----+------+------+\n"
        );
        let (out, _) = run(&[SETUP, ".mode box", "SELECT id FROM t WHERE id = 1;"]);
        assert_eq!(out, "┌────┐\n│ id │\n├────┤\n│  1 │\n└────┘\n");
        let (out, _) = run(&[SETUP, ".mode markdown", "SELECT id, name FROM t WHERE id = 1;"]);
        assert_eq!(out, "| id | name |\n|----|------|\n|  1 | a|b  |\n");
        let (out, _) = run(&[
            SETUP,
            ".mode line",
            "SELECT id, name AS label FROM t WHERE id < 3 ORDER BY id;",
        ]);
        assert_eq!(out, "   id = 1\nlabel = a|b\n\n   id = 2\nlabel = \n");
    }

    #[test]
    fn introspection_commands() {
        let (out, err) = run(&[
            SETUP,
            "CREATE INDEX t_name ON t(name); CREATE TABLE u(a UNIQUE); CREATE VIEW v AS SELECT id FROM t;",
            ".tables",
            ".indexes t",
            ".schema t",
            ".tables u%",
        ]);
        assert_eq!(err, "");
        let mut lines = out.lines();
        assert_eq!(lines.by_ref().take(3).collect::<Vec<_>>(), ["t", "u", "v"]);
        assert_eq!(lines.next(), Some("t_name"));
        let rest: Vec<&str> = lines.collect();
        assert!(rest[0].starts_with("CREATE TABLE t"), "{rest:?}");
        assert!(rest[1].starts_with("CREATE INDEX t_name"), "{rest:?}");
        assert_eq!(rest[2..], ["u"]);
    }

    #[test]
    fn output_once_read_import_dump_and_timer() {
        let dir = tempfile::tempdir().unwrap();
        let p = |n: &str| dir.path().join(n).to_string_lossy().into_owned();
        std::fs::write(p("in.csv"), "id;name\n1;x\n2;\"y;z\"\n").unwrap();
        std::fs::write(p("s.sql"), ".headers off\nSELECT count(*)\n  FROM c;\n").unwrap();
        let (out, err) = run(&[
            &format!(".import {} c", p("in.csv")),
            &format!(".once {}", p("once.txt")),
            "SELECT name FROM c ORDER BY id;",
            "SELECT 'back';",
            &format!(".output {}", p("all.txt")),
            &format!(".read {}", p("s.sql")),
            ".output",
            ".dump",
            ".timer on",
            "SELECT 1;",
        ]);
        assert_eq!(err, "imported 2 rows into c\n");
        assert_eq!(std::fs::read_to_string(p("once.txt")).unwrap(), "name\nx\ny;z\n");
        assert_eq!(std::fs::read_to_string(p("all.txt")).unwrap(), "2\n");
        assert!(out.starts_with("'back'\nback\nBEGIN TRANSACTION;\nCREATE TABLE"), "{out}");
        assert!(
            out.contains("INSERT INTO \"c\" VALUES(2,'y;z');\nCOMMIT;\n1\nRun Time: real "),
            "{out}"
        );
    }

    #[test]
    fn bad_commands_are_errors_not_ignored() {
        let (out, err) = run(&[
            ".nope",
            ".mode fancy",
            ".headers maybe",
            ".import only-one-arg",
            ".read /no/such/file",
            ".import /no/such.csv t",
            ".once \"unterminated",
            "SELECT * FROM nope;",
            "SELECT 7;",
            ".quit",
            "SELECT 8;",
        ]);
        assert_eq!(out, "7\n7\n");
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 8, "{err}");
        assert!(lines.iter().all(|l| l.starts_with("Error: ")), "{err}");
        assert!(lines[0].contains("unknown command .nope"), "{err}");
        assert!(lines[3].contains(".import FILE TABLE"), "{err}");
        assert!(lines[7].contains("no such table"), "{err}");
    }
}
