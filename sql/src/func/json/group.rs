//! `json_group_array(X)` and `json_group_object(NAME, VALUE)` (and their
//! `jsonb_` twins): the JSON text grows one element per row, as in
//! SQLite's `jsonArrayStep`/`jsonObjectStep`.
//!
//! A row whose NAME is NULL adds no member; like SQLite, it leaves an `@`
//! placeholder in the text (and turns the leading `{` into `@`) so that
//! [`JsonGroup::inverse`] — removing the oldest row, for window frames —
//! stays a matter of cutting the text up to the first top-level comma.
//! The placeholders are dropped when the result is produced.

use super::render::JsonOut;
use super::{Subtyped, text_to_jsonb, text_value};
use crate::Result;
use crate::value::Value;

/// The running state of one JSON aggregate over one group.
#[derive(Debug, Clone)]
pub struct JsonGroup {
    object: bool,
    /// `jsonb_group_*`: the result is JSONB.
    blob: bool,
    /// The text so far (`[` or `{`/`@` then members), once a row arrived.
    text: Option<Vec<u8>>,
    /// A rendering error to report at the end (SQLite defers these).
    deferred: Option<String>,
}

impl JsonGroup {
    /// The aggregate named `name` (lower case), if it is one of these.
    pub fn new(name: &str) -> Option<(JsonGroup, usize)> {
        let (object, blob, nargs) = match name {
            "json_group_array" => (false, false, 1),
            "jsonb_group_array" => (false, true, 1),
            "json_group_object" => (true, false, 2),
            "jsonb_group_object" => (true, true, 2),
            _ => return None,
        };
        Some((JsonGroup { object, blob, text: None, deferred: None }, nargs))
    }

    /// Adds one row; `json` says which arguments carry the JSON subtype.
    pub fn step(&mut self, args: &[Value], json: &[bool]) -> Result<()> {
        let flag = |i: usize| json.get(i).copied().unwrap_or(false);
        let mut out = JsonOut::new();
        out.buf = match self.text.take() {
            None => vec![if self.object { b'{' } else { b'[' }],
            Some(mut t) => {
                if t.len() > 1 {
                    t.push(b',');
                }
                t
            }
        };
        if !self.object {
            out.sql_value(&args[0], flag(0));
        } else {
            match args[0].text_bytes() {
                Some(label) => {
                    let label = &label[..label.iter().position(|&c| c == 0).unwrap_or(label.len())];
                    out.string(label);
                    out.push(b':');
                    out.sql_value(&args[1], flag(1));
                }
                None => {
                    out.buf[0] = b'@';
                    out.push(b'@');
                }
            }
        }
        let kept = out.buf.clone();
        match out.finish() {
            Ok(buf) => self.text = Some(buf),
            Err(e) => {
                let msg = e.to_string();
                if msg == "JSON cannot hold BLOB values" {
                    return Err(e);
                }
                self.deferred.get_or_insert(msg);
                self.text = Some(kept);
            }
        }
        Ok(())
    }

    /// Removes the oldest row (SQLite's `jsonGroupInverse`): everything up
    /// to the first comma outside strings and nested containers.
    pub fn inverse(&mut self) {
        let Some(z) = &mut self.text else { return };
        let mut in_str = false;
        let mut nest = 0i32;
        let mut i = 1;
        while i < z.len() {
            let c = z[i];
            if c == b',' && !in_str && nest == 0 {
                break;
            }
            if c == b'"' {
                in_str = !in_str;
            } else if c == b'\\' {
                i += 1;
            } else if !in_str {
                if c == b'{' || c == b'[' {
                    nest += 1;
                }
                if c == b'}' || c == b']' {
                    nest -= 1;
                }
            }
            i += 1;
        }
        if i < z.len() {
            z.drain(1..=i);
        } else {
            z.truncate(1);
        }
    }

    /// The aggregate's value for the rows so far (carries the JSON
    /// subtype unless it is JSONB). Does not reset.
    pub fn finish(&self) -> Result<Subtyped> {
        if let Some(m) = &self.deferred {
            return Err(crate::Error::InvalidInput(m.clone()));
        }
        let text = match &self.text {
            None => {
                if self.object {
                    b"{}".to_vec()
                } else {
                    b"[]".to_vec()
                }
            }
            Some(t) => {
                let mut t = t.clone();
                if self.object && t[0] != b'{' {
                    t = drop_placeholders(&t);
                }
                t.push(if self.object { b'}' } else { b']' });
                t
            }
        };
        if self.blob {
            return Ok((Value::Blob(text_to_jsonb(&text)), false));
        }
        Ok((text_value(text), true))
    }
}

/// The object text without the `@` placeholders of NULL names (and their
/// commas), with its `{` back.
fn drop_placeholders(z: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(z.len());
    out.push(b'{');
    let mut in_str = false;
    let mut i = 1;
    while i < z.len() {
        let c = z[i];
        if c == b'"' {
            in_str = !in_str;
            out.push(b'"');
        } else if c == b'\\' {
            out.push(b'\\');
            i += 1;
            if let Some(&d) = z.get(i) {
                out.push(d);
            }
        } else if c == b'@' && !in_str {
            if z.get(i + 1) == Some(&b',') {
                i += 1;
            } else if out.last() == Some(&b',') {
                out.pop();
            }
        } else {
            out.push(c);
        }
        i += 1;
    }
    out
}
