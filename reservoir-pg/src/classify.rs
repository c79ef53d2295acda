//! What the executor must know about a script statement before it sends
//! it: transaction control, statements a job cannot run, and whether it
//! may return rows. Read from the statement's leading keywords (outside
//! comments and quotes), in PostgreSQL's grammar.

/// A statement's role for the executor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// An ordinary statement: runs inside the batch (or the script's own
    /// transaction) under a savepoint.
    None,
    /// `BEGIN`, `START TRANSACTION`: the script's own unit starts.
    Begin,
    /// `COMMIT`, `END`: the script's own unit ends.
    Commit,
    /// `ROLLBACK`, `ABORT` (not `ROLLBACK TO`, a savepoint operation).
    Rollback,
    /// Statements the executor refuses, with the reason: they would end
    /// or split the transaction a batch is (two-phase commit, chained
    /// transactions) or need a protocol a job has no client for.
    Refused(&'static str),
}

/// The first `n` keywords of `sql` (upper-case), skipping whitespace and
/// comments; stops at the first quote or symbol after a keyword.
fn keywords(sql: &str, n: usize) -> Vec<String> {
    let b = sql.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    while i < b.len() && out.len() < n {
        match b[i] {
            c if c.is_ascii_whitespace() => i += 1,
            b'-' if b.get(i + 1) == Some(&b'-') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let mut depth = 0usize;
                while i < b.len() {
                    if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                        depth += 1;
                        i += 2;
                    } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                out.push(sql[start..i].to_ascii_uppercase());
            }
            _ => break,
        }
    }
    out
}

/// Every keyword of the statement outside quotes and comments (for
/// `RETURNING` and `TO STDOUT`), as written (compare ignoring case).
fn all_words(sql: &str) -> Vec<&str> {
    let b = sql.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    while i < b.len() {
        match b[i] {
            b'\'' | b'"' => {
                let q = b[i];
                i += 1;
                while i < b.len() {
                    if b[i] == q {
                        if b.get(i + 1) == Some(&q) {
                            i += 2;
                            continue;
                        }
                        break;
                    }
                    i += 1;
                }
                i += 1;
            }
            b'$' => {
                // $tag$ … $tag$ (a lone $1 parameter is skipped as a word).
                let start = i;
                i += 1;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                if b.get(i) == Some(&b'$') {
                    let tag = &sql[start..=i];
                    i += 1;
                    match sql[i..].find(tag) {
                        Some(end) => i += end + tag.len(),
                        None => i = b.len(),
                    }
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
                i += 2;
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                out.push(&sql[start..i]);
            }
            _ => i += 1,
        }
    }
    out
}

/// The statement's transaction role.
pub fn control(sql: &str) -> Control {
    let k = keywords(sql, 6);
    let word = |i: usize| k.get(i).map(String::as_str).unwrap_or("");
    // The keywords after ROLLBACK/COMMIT's optional WORK/TRANSACTION.
    let after = |from: usize| {
        let mut i = from;
        if matches!(word(i), "WORK" | "TRANSACTION") {
            i += 1;
        }
        (word(i), word(i + 1))
    };
    match word(0) {
        "BEGIN" => Control::Begin,
        "START" if word(1) == "TRANSACTION" => Control::Begin,
        "COMMIT" | "END" => match after(1) {
            ("PREPARED", _) => Control::Refused("COMMIT PREPARED (two-phase commit)"),
            ("AND", "CHAIN") => Control::Refused("COMMIT AND CHAIN"),
            _ => Control::Commit,
        },
        "ROLLBACK" | "ABORT" => match after(1) {
            ("TO", _) => Control::None,
            ("PREPARED", _) => Control::Refused("ROLLBACK PREPARED (two-phase commit)"),
            ("AND", "CHAIN") => Control::Refused("ROLLBACK AND CHAIN"),
            _ => Control::Rollback,
        },
        "PREPARE" if word(1) == "TRANSACTION" => {
            Control::Refused("PREPARE TRANSACTION (two-phase commit)")
        }
        "COPY" => {
            let w = all_words(sql);
            if w.windows(2)
                .any(|p| p[0].eq_ignore_ascii_case("TO") && p[1].eq_ignore_ascii_case("STDOUT"))
            {
                Control::Refused("COPY … TO STDOUT (read rows with SELECT)")
            } else {
                Control::None
            }
        }
        _ => Control::None,
    }
}

/// How a statement's rows and counts are reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rows {
    /// Never returns rows (DDL, plain DML, SET, …).
    Never,
    /// A query (SELECT, VALUES, TABLE, WITH … SELECT, SHOW, EXPLAIN,
    /// FETCH): its rows are its result; it affects no rows.
    Query,
    /// DML with RETURNING: rows *and* rows affected.
    Returning,
}

/// Whether the statement may return rows.
pub fn rows(sql: &str) -> Rows {
    let k = keywords(sql, 1);
    let returning = || all_words(sql).iter().any(|w| w.eq_ignore_ascii_case("RETURNING"));
    match k.first().map(String::as_str).unwrap_or("") {
        "SELECT" | "VALUES" | "TABLE" | "SHOW" | "EXPLAIN" | "FETCH" => Rows::Query,
        // A CTE's main statement may be DML with RETURNING.
        "WITH" => {
            if returning() {
                Rows::Returning
            } else {
                Rows::Query
            }
        }
        "INSERT" | "UPDATE" | "DELETE" | "MERGE" if returning() => Rows::Returning,
        // `(SELECT …) UNION …`: a parenthesized query.
        "" if sql.trim_start().starts_with('(') => Rows::Query,
        _ => Rows::Never,
    }
}

/// Whether a statement may run in a group of statements sent together as
/// one simple-query string (the executor's fast path): statements whose
/// work is bounded by their own text, so a group is never slow and live
/// progress (which a group reports when it ends) keeps moving —
/// `INSERT … VALUES` without a query or `RETURNING`, and `CREATE TABLE`
/// with a column list (not `AS` a query or a table). Anything else
/// (queries, `RETURNING`, `INSERT … SELECT`, `UPDATE`, `DELETE`, other DDL,
/// `SET`, savepoints, `COPY`, `CALL`, …) runs on its own.
pub fn groupable(sql: &str) -> bool {
    let k = keywords(sql, 4);
    let word = |i: usize| k.get(i).map(String::as_str).unwrap_or("");
    let words = || all_words(sql);
    let has = |w: &[&str], x: &str| w.iter().any(|v| v.eq_ignore_ascii_case(x));
    match word(0) {
        "INSERT" => {
            let w = words();
            has(&w, "VALUES") && !has(&w, "SELECT") && !has(&w, "RETURNING")
        }
        "CREATE" => {
            let table = match word(1) {
                "TABLE" => true,
                "TEMP" | "TEMPORARY" | "UNLOGGED" => word(2) == "TABLE",
                _ => false,
            };
            let w = words();
            let as_query = w.windows(2).any(|p| {
                p[0].eq_ignore_ascii_case("AS")
                    && ["TABLE", "VALUES", "EXECUTE", "WITH"]
                        .iter()
                        .any(|q| p[1].eq_ignore_ascii_case(q))
            });
            table && !has(&w, "SELECT") && !as_query
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transaction_control() {
        for (sql, want) in [
            ("BEGIN", Control::Begin),
            ("begin transaction isolation level serializable", Control::Begin),
            ("START TRANSACTION", Control::Begin),
            ("  -- c\n COMMIT", Control::Commit),
            ("/* a /* nested */ */ end", Control::Commit),
            ("COMMIT WORK", Control::Commit),
            ("ROLLBACK", Control::Rollback),
            ("abort", Control::Rollback),
            ("ROLLBACK TO SAVEPOINT s", Control::None),
            ("rollback transaction to s", Control::None),
            ("SAVEPOINT s", Control::None),
            ("INSERT INTO t VALUES (' TO ')", Control::None),
            (
                "CREATE FUNCTION f() RETURNS int AS $$ BEGIN RETURN 1; END $$ LANGUAGE plpgsql",
                Control::None,
            ),
            ("END", Control::Commit),
        ] {
            assert_eq!(control(sql), want, "{sql}");
        }
        for sql in [
            "PREPARE TRANSACTION 'x'",
            "COMMIT PREPARED 'x'",
            "ROLLBACK PREPARED 'x'",
            "COMMIT AND CHAIN",
            "ROLLBACK WORK AND CHAIN",
            "COPY t TO STDOUT",
            "copy (select 1) to stdout with csv",
        ] {
            assert!(matches!(control(sql), Control::Refused(_)), "{sql}");
        }
        assert_eq!(control("COPY t FROM stdin"), Control::None);
        assert_eq!(control("COPY t TO '/tmp/x'"), Control::None);
    }

    #[test]
    fn row_returning_statements() {
        assert_eq!(rows("SELECT 1"), Rows::Query);
        assert_eq!(rows("(SELECT 1) UNION (SELECT 2)"), Rows::Query);
        assert_eq!(rows("with x as (select 1) select * from x"), Rows::Query);
        assert_eq!(rows("WITH d AS (DELETE FROM t RETURNING *) SELECT 1"), Rows::Returning);
        assert_eq!(rows("INSERT INTO t VALUES (1) RETURNING id"), Rows::Returning);
        assert_eq!(rows("INSERT INTO t VALUES ('returning')"), Rows::Never);
        assert_eq!(rows("CREATE TABLE t(a int)"), Rows::Never);
        assert_eq!(rows("EXPLAIN SELECT 1"), Rows::Query);
        assert_eq!(rows("insert into t values (1) returning id"), Rows::Returning);
    }

    #[test]
    fn statements_that_may_run_in_a_group() {
        for sql in [
            "INSERT INTO t VALUES (1)",
            "insert into t values ('returning'), ('select')",
            "INSERT INTO t DEFAULT VALUES",
            "CREATE TABLE t(a int)",
            "-- c\n create unlogged table t(a int generated always as (1) stored)",
            "CREATE TEMP TABLE t(a int)",
        ] {
            assert!(groupable(sql), "{sql}");
        }
        for sql in [
            "SELECT 1",
            "INSERT INTO t VALUES (1) RETURNING a",
            "INSERT INTO t SELECT * FROM u",
            "INSERT INTO t VALUES ((SELECT max(a) FROM u))",
            "WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x",
            "UPDATE t SET a = 1",
            "DELETE FROM t",
            "CREATE TABLE t AS SELECT 1",
            "CREATE TABLE t AS TABLE u",
            "CREATE INDEX i ON t(a)",
            "ALTER TABLE t ADD b int",
            "SAVEPOINT s",
            "RELEASE SAVEPOINT s",
            "ROLLBACK TO SAVEPOINT s",
            "BEGIN",
            "COMMIT",
            "SET x = 1",
            "COPY t FROM stdin",
            "CALL p()",
            "DO $$ BEGIN END $$",
            "VACUUM",
        ] {
            assert!(!groupable(sql), "{sql}");
        }
    }
}
