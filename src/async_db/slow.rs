//! The slow-statement log: the most recent statements with their
//! durations, from which the slowest are picked on demand.
//!
//! A ring of the last `window` statements (oldest dropped first), so "the
//! slowest" always means "the slowest lately": one slow statement an hour
//! ago does not stay on top forever.

use std::collections::VecDeque;
use std::time::{Duration, SystemTime};

/// Longest statement excerpt kept, in characters.
pub(crate) const EXCERPT_CHARS: usize = 200;

/// One statement of the slow log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlowStatement {
    /// The statement's text, whitespace collapsed, cut to
    /// 200 characters (with `…` when cut).
    pub sql: String,
    /// How long it ran on its worker or lane.
    pub duration: Duration,
    /// When it finished.
    pub at: SystemTime,
}

pub(crate) struct SlowLog {
    window: usize,
    recent: VecDeque<SlowStatement>,
}

impl SlowLog {
    pub(crate) fn new(window: usize) -> SlowLog {
        SlowLog { window, recent: VecDeque::with_capacity(window.min(4096)) }
    }

    pub(crate) fn record(&mut self, sql: &str, duration: Duration) {
        if self.window == 0 {
            return;
        }
        if self.recent.len() == self.window {
            self.recent.pop_front();
        }
        self.recent.push_back(SlowStatement { sql: excerpt(sql), duration, at: SystemTime::now() });
    }

    pub(crate) fn slowest(&self, n: usize) -> Vec<SlowStatement> {
        let mut all: Vec<&SlowStatement> = self.recent.iter().collect();
        all.sort_by_key(|s| std::cmp::Reverse(s.duration));
        all.into_iter().take(n).cloned().collect()
    }
}

fn excerpt(sql: &str) -> String {
    let mut out = String::new();
    let mut chars = 0;
    for word in sql.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
            chars += 1;
        }
        for c in word.chars() {
            if chars == EXCERPT_CHARS {
                out.push('…');
                return out;
            }
            out.push(c);
            chars += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_slowest_of_the_recent_window() {
        let mut log = SlowLog::new(3);
        log.record("a", Duration::from_millis(50));
        log.record("b", Duration::from_millis(10));
        log.record("c", Duration::from_millis(30));
        let top: Vec<_> = log.slowest(2).into_iter().map(|s| s.sql).collect();
        assert_eq!(top, ["a", "c"]);
        // "a" falls out of the window.
        log.record("d", Duration::from_millis(20));
        let top: Vec<_> = log.slowest(5).into_iter().map(|s| s.sql).collect();
        assert_eq!(top, ["c", "d", "b"]);
    }

    #[test]
    fn excerpts_collapse_whitespace_and_cut() {
        assert_eq!(excerpt("SELECT\n  1,\t2"), "SELECT 1, 2");
        let long = "é".repeat(500);
        let e = excerpt(&long);
        assert_eq!(e.chars().count(), EXCERPT_CHARS + 1);
        assert!(e.ends_with('…'));
    }
}
