//! What an import detected and skipped, for the job's result.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One kind of input the importer did not run, how often, and where it
/// first occurred.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skipped {
    pub kind: String,
    pub count: u64,
    /// 1-based source line of the first occurrence (a sheet row for
    /// workbooks).
    pub first_line: u64,
}

/// The report of an import, attached to the job.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The format the body was read as (detected or given).
    pub format: String,
    /// Tables the import wrote rows to (or created), in first-use order.
    #[serde(default)]
    pub tables: Vec<String>,
    /// Every kind of statement or line that was not run, in kind order.
    #[serde(default)]
    pub skipped: Vec<Skipped>,
    /// CSV: the dialect and columns used (detected or overridden).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub csv: Option<serde_json::Value>,
    /// Rows whose field count did not match (CSV, `ragged: skip|pad`):
    /// how many, and the first lines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ragged_rows: Option<RaggedRows>,
    /// Decisions the reader made that a user may want to know about
    /// (a type mapped, a sequence turned into a rowid …), deduplicated.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// Ragged rows seen.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RaggedRows {
    pub count: u64,
    /// The first [`RAGGED_LINES_KEPT`] of their lines.
    pub lines: Vec<u64>,
    /// What was done with them: `skipped` or `padded`.
    pub action: String,
}

/// How many ragged-row line numbers a report keeps.
pub const RAGGED_LINES_KEPT: usize = 100;

/// Counts skipped kinds as a reader goes.
#[derive(Clone, Debug, Default)]
pub(crate) struct SkipCounter {
    kinds: BTreeMap<String, (u64, u64)>,
}

impl SkipCounter {
    pub(crate) fn add(&mut self, kind: &str, line: u64) {
        let e = self.kinds.entry(kind.to_string()).or_insert((0, line));
        e.0 += 1;
    }

    pub(crate) fn list(&self) -> Vec<Skipped> {
        self.kinds
            .iter()
            .map(|(k, (count, first))| Skipped {
                kind: k.clone(),
                count: *count,
                first_line: *first,
            })
            .collect()
    }
}

/// Notes without duplicates, in first-seen order.
#[allow(dead_code)] // the dump readers' (next)
#[derive(Clone, Debug, Default)]
pub(crate) struct Notes(Vec<String>);

#[allow(dead_code)]
impl Notes {
    pub(crate) fn add(&mut self, note: String) {
        if !self.0.contains(&note) && self.0.len() < 200 {
            self.0.push(note);
        }
    }
    pub(crate) fn list(&self) -> Vec<String> {
        self.0.clone()
    }
}
