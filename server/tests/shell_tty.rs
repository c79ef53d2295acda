//! The interactive shell, used as a person would: `asadb sql --db FILE`
//! in a real terminal (`tmux`, on a private socket), typing keys and
//! reading the screen.
//!
//! Scenario: a multi-line INSERT gathers under the `...>` prompt; `.mode
//! box` draws a grid; the up arrow recalls the last line (history) and
//! left-arrow editing changes it; Ctrl-C stops a statement that would run
//! forever and the shell stays usable; `.import` loads a CSV; `.quit`
//! leaves, the history file keeps the lines, and the rows are in the file.
//! tmux is installed by `.ci/run` when missing.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_asadb");

struct Tmux {
    socket: String,
}

impl Tmux {
    fn cmd(&self, args: &[&str]) -> std::process::Output {
        Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("tmux (installed by .ci/run)")
    }

    fn keys(&self, keys: &[&str]) {
        let mut a = vec!["send-keys", "-t", "sh"];
        a.extend_from_slice(keys);
        assert!(self.cmd(&a).status.success());
    }

    /// Types text (tmux reads an argument's final `;` as a command
    /// separator unless it is escaped).
    fn type_text(&self, text: &str) {
        let text = match text.strip_suffix(';') {
            Some(t) => format!("{t}\\;"),
            None => text.to_string(),
        };
        assert!(self.cmd(&["send-keys", "-t", "sh", "-l", &text]).status.success());
    }

    /// Waits for a prompt on the last line: a person types after seeing it.
    fn prompt(&self) {
        let start = Instant::now();
        loop {
            let s = self.screen();
            let last = s.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("");
            if last == "asadb>" || last == "   ...>" {
                // The line editor asks the terminal for the cursor's
                // position as it starts a line and drops keys that
                // arrive during the question: type at a person's pace.
                std::thread::sleep(Duration::from_millis(250));
                return;
            }
            assert!(start.elapsed() < Duration::from_secs(30), "no prompt; screen:\n{s}");
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    /// Types a line at the prompt and presses Enter.
    fn type_line(&self, text: &str) {
        self.prompt();
        self.type_text(text);
        self.keys(&["Enter"]);
    }

    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.cmd(&["capture-pane", "-p", "-t", "sh", "-S", "-200"]).stdout)
            .into_owned()
    }

    /// Waits until the screen holds `text` `times` times (tmux trims the
    /// spaces at a line's end).
    fn wait_for(&self, text: &str, times: usize) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if s.matches(text).count() >= times {
                return s;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "waited for {text:?} ×{times}; screen:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn alive(&self) -> bool {
        self.cmd(&["has-session", "-t", "sh"]).status.success()
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.cmd(&["kill-server"]);
    }
}

#[test]
fn a_person_at_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("shell.db");
    let hist = dir.path().join("history");
    let csv = dir.path().join("people.csv");
    std::fs::write(&csv, "name;age\nAda;36\n\"Lovelace; A.\";37\n").unwrap();
    let t = Tmux { socket: format!("asadb-test-{}", std::process::id()) };
    let command = format!("ASADB_HISTORY={} {} sql --db {}", hist.display(), BIN, db.display());
    let out = t.cmd(&["new-session", "-d", "-s", "sh", "-x", "120", "-y", "50", &command]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    t.wait_for("asadb>", 1);

    t.type_line("CREATE TABLE t(a INTEGER, b TEXT);");
    t.type_line("INSERT INTO t VALUES (1, 'x'),");
    t.wait_for("...>", 1);
    t.type_line("(2, 'y');");
    t.type_line(".mode box");
    t.type_line("SELECT * FROM t ORDER BY a;");
    let s = t.wait_for("└───┴───┘", 1);
    assert!(s.contains("│ 1 │ x │") && s.contains("│ 2 │ y │"), "{s}");

    // History and editing: recall the SELECT, change its ORDER BY.
    t.prompt();
    t.keys(&["Up"]);
    t.keys(&["Left", "BSpace"]);
    t.type_text("b DESC");
    t.keys(&["Enter"]);
    let s = t.wait_for("└───┴───┘", 2);
    let last = s.rsplit("┌───┬───┐").next().unwrap();
    assert!(last.find("│ 2 │ y │").unwrap() < last.find("│ 1 │ x │").unwrap(), "{s}");

    // Ctrl-C stops a statement that would never end; the shell lives on.
    t.type_line(".mode list");
    t.type_line(
        "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c) SELECT count(*) FROM c;",
    );
    std::thread::sleep(Duration::from_millis(800));
    t.keys(&["C-c"]);
    t.wait_for("Error: interrupted", 1);
    t.type_line("SELECT 40 + 2 AS answer;");
    t.wait_for("\n42", 1);

    // Ctrl-C at the prompt drops the lines gathered so far.
    t.type_line("SELECT 'never");
    t.prompt();
    t.keys(&["C-c"]);
    t.type_line(".headers off");
    t.type_line("SELECT 'after';");
    t.wait_for("\nafter", 1);
    assert!(!t.screen().contains("\nnever"));

    t.type_line(&format!(".import {} people", csv.display()));
    t.wait_for("imported 2 rows into people", 1);
    t.type_line(".tables");
    t.wait_for("\npeople\n", 1);
    t.type_line(".quit");
    let start = Instant::now();
    while t.alive() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the shell did not quit:\n{}",
            t.screen()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let h = std::fs::read_to_string(&hist).unwrap();
    assert!(h.contains("SELECT * FROM t ORDER BY b DESC;") && h.contains(".quit"), "{h}");
    check_rows(&db);
}

fn check_rows(db: &Path) {
    let out = Command::new(BIN)
        .args(["sql", "--db"])
        .arg(db)
        .args(["-c", "SELECT a, b FROM t ORDER BY a; SELECT name, age FROM people ORDER BY age;"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "a|b\n1|x\n2|y\nname|age\nAda|36\nLovelace; A.|37\n"
    );
}
