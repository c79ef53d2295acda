//! `asadb sql`: the embedded shell on a database file.
//!
//! - `asadb sql --db FILE -c SQL`, `asadb sql --db FILE SCRIPT`, or the
//!   script on stdin: statements run in order on one session (so a
//!   script's own `BEGIN … COMMIT` works); rows print as `a|b|c` lines
//!   under a header line of column names; the first error stops the run
//!   (exit status 1).
//! - `--jsonl`: one JSON request per stdin line, `{"sql": "...",
//!   "params": …}` (one or more statements; the last one's result is
//!   returned; `params`, optional, as `/api/query` takes them: an array
//!   binds `?`/`?N`, an object binds `:name`/`@name`/`$name`, the same
//!   values bound to every statement of the request), and one JSON
//!   line per request: `{"columns": [...], "rows": [[...]]}` for a
//!   statement with rows (values encoded like Reservoir result rows),
//!   `{"rows_affected": N}` for others, or `{"error": {"code",
//!   "message"}}`; it keeps going after errors.
//!
//! - No `-c`, no script, and stdin a terminal: the interactive shell
//!   (line editing, history, multi-line statements, dot commands, Ctrl-C
//!   interrupts): see [`crate::repl`].
//!
//! Statements are split by the engine's streaming script splitter, so a
//! script is never read whole.

use std::io::{BufRead, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use asadb::sql::script::Splitter;
use asadb::sql::session::{Outcome, Params, Session};
use clap::Args;

use crate::error::{Error, Result};

/// `asadb sql`'s arguments.
#[derive(Args, Debug)]
pub struct SqlArgs {
    /// The database file (created if missing)
    #[arg(long, value_name = "FILE")]
    pub db: PathBuf,
    /// Run this SQL text
    #[arg(short = 'c', value_name = "SQL", conflicts_with = "script")]
    pub command: Option<String>,
    /// A script file to run (default: stdin)
    pub script: Option<PathBuf>,
    /// Speak one JSON request/response per line on stdin/stdout
    #[arg(long, conflicts_with_all = ["command", "script"])]
    pub jsonl: bool,
}

/// Runs the shell.
pub fn run(args: SqlArgs) -> Result<ExitCode> {
    let db = asadb::Database::open_with(&args.db, asadb::Options::default())?;
    let mut session = db.engine().session();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let code = if args.jsonl {
        jsonl(&mut session, std::io::stdin().lock(), &mut out)?;
        ExitCode::SUCCESS
    } else {
        let ok = match (&args.command, &args.script) {
            (Some(sql), _) => script(&mut session, sql.as_bytes(), &mut out)?,
            (None, Some(path)) => {
                let file = std::fs::File::open(path)
                    .map_err(|e| Error::Config(format!("cannot open {}: {e}", path.display())))?;
                script(&mut session, file, &mut out)?
            }
            (None, None) if std::io::stdin().is_terminal() => {
                crate::repl::interactive(&mut session)?;
                true
            }
            (None, None) => script(&mut session, std::io::stdin().lock(), &mut out)?,
        };
        if ok { ExitCode::SUCCESS } else { ExitCode::FAILURE }
    };
    out.flush()?;
    drop(session);
    db.close()?;
    Ok(code)
}

/// Runs a script, printing rows; false after the first error.
fn script(session: &mut Session, input: impl Read, out: &mut impl Write) -> Result<bool> {
    for stmt in Splitter::new(input) {
        let outcome = stmt.map_err(asadb::Error::from).and_then(|stmt| {
            session.execute(&stmt.text, &Params::None).map_err(asadb::Error::from)
        });
        match outcome {
            Ok(Outcome::Rows { columns, rows }) => {
                writeln!(out, "{}", columns.join("|"))?;
                for row in rows {
                    let cells: Vec<String> = row.iter().map(plain).collect();
                    writeln!(out, "{}", cells.join("|"))?;
                }
            }
            Ok(_) => {}
            Err(e) => {
                out.flush()?;
                eprintln!("error: {e}");
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// A value as the plain shell shows it (SQLite's list mode).
fn plain(v: &asadb::Value) -> String {
    use asadb::Value;
    match v {
        Value::Null => String::new(),
        Value::Integer(i) => i.to_string(),
        Value::Real(f) => format!("{f:?}"),
        Value::Text(s) => s.to_str_lossy().into_owned(),
        Value::Blob(b) => b.iter().map(|x| format!("{x:02x}")).collect(),
    }
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Request {
    sql: String,
    /// Kept raw so integers are read exactly (`crate::query::json_params`).
    #[serde(default)]
    params: Option<Box<serde_json::value::RawValue>>,
}

/// The JSON-lines protocol: one request per input line.
fn jsonl(session: &mut Session, input: impl BufRead, out: &mut impl Write) -> Result<()> {
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let answer = match serde_json::from_str::<Request>(&line) {
            Ok(req) => match crate::query::json_params(req.params.as_deref()) {
                Ok(params) => run_request(session, &req.sql, &params),
                Err(e) => error_line(e.code(), &e.to_string()),
            },
            Err(e) => error_line("invalid_input", &format!("invalid request line: {e}")),
        };
        writeln!(out, "{answer}")?;
        out.flush()?;
    }
    Ok(())
}

/// Runs every statement of `sql`; answers the last one's result.
fn run_request(session: &mut Session, sql: &str, params: &Params) -> String {
    let mut last = Outcome::Ok;
    for stmt in Splitter::new(sql.as_bytes()) {
        let result = stmt
            .map_err(asadb::Error::from)
            .and_then(|stmt| session.execute(&stmt.text, params).map_err(asadb::Error::from));
        match result {
            Ok(outcome) => last = outcome,
            Err(e) => return error_line(crate::query::engine_status(&e).1, &e.to_string()),
        }
    }
    match last {
        Outcome::Rows { columns, rows } => {
            let mut s = String::from("{\"columns\":");
            s.push_str(&serde_json::to_string(&columns).unwrap_or_else(|_| "[]".into()));
            s.push_str(",\"rows\":[");
            for (i, row) in rows.iter().enumerate() {
                if i > 0 {
                    s.push(',');
                }
                asadb::reservoir::row_json(row, &mut s);
            }
            s.push_str("]}");
            s
        }
        Outcome::Affected(n) => format!("{{\"rows_affected\":{n}}}"),
        Outcome::Ok => "{\"rows_affected\":0}".to_string(),
    }
}

fn error_line(code: &str, message: &str) -> String {
    serde_json::json!({"error": {"code": code, "message": message}}).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session() -> Session {
        asadb::sql::session::Engine::memory().session()
    }

    #[test]
    fn jsonl_answers_each_line_and_keeps_going_after_errors() {
        let mut s = session();
        let input = concat!(
            "{\"sql\": \"CREATE TABLE t(a, b); INSERT INTO t VALUES (1, 'x'), (2.5, NULL)\"}\n",
            "\n",
            "{\"sql\": \"SELECT a, b FROM t ORDER BY a\"}\n",
            "{\"sql\": \"SELECT * FROM nope\"}\n",
            "not json\n",
            "{\"sql\": \"SELECT x'00ff'\"}\n",
        );
        let mut out = Vec::new();
        jsonl(&mut s, input.as_bytes(), &mut out).unwrap();
        let lines: Vec<serde_json::Value> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 5);
        assert_eq!(lines[0], serde_json::json!({"rows_affected": 2}));
        assert_eq!(
            lines[1],
            serde_json::json!({"columns": ["a", "b"], "rows": [[1, "x"], [2.5, null]]})
        );
        assert!(lines[2]["error"]["code"].is_string(), "{}", lines[2]);
        assert_eq!(lines[3]["error"]["code"], "invalid_input");
        assert_eq!(lines[4]["rows"], serde_json::json!([[{"hex": "00ff"}]]));
    }

    #[test]
    fn script_prints_rows_and_stops_at_the_first_error() {
        let mut s = session();
        let mut out = Vec::new();
        let ok = script(
            &mut s,
            "CREATE TABLE t(a); INSERT INTO t VALUES (1), (2); SELECT a FROM t ORDER BY a; \
             SELECT * FROM nope; SELECT 9;"
                .as_bytes(),
            &mut out,
        )
        .unwrap();
        assert!(!ok);
        assert_eq!(String::from_utf8(out).unwrap(), "a\n1\n2\n");
    }
}
