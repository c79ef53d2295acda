//! The rows of `json_each(JSON [, ROOT])` and `json_tree(JSON [, ROOT])`
//! (SQLite's `json_each` virtual table): `json_each` walks the immediate
//! children of the root element, `json_tree` the root and everything
//! below it, depth first.
//!
//! Columns, as SQLite declares them: `key, value, type, atom, id, parent,
//! fullkey, path`, and the hidden `json` and `root` (the arguments). `id`
//! is the element's byte offset in the JSONB (for an object member: its
//! label's), `parent` the id of the containing element (json_tree only).

use super::jsonb::{self, Jsonb};
use super::path::{LookupError, lookup, path_error};
use super::render::{Container, element_value};
use super::{parse_arg, text_value};
use crate::Result;
use crate::value::Value;

/// The column names, visible ones first.
pub const COLUMNS: [&str; 10] =
    ["key", "value", "type", "atom", "id", "parent", "fullkey", "path", "json", "root"];

/// How many of [`COLUMNS`] `SELECT *` shows.
pub const VISIBLE: usize = 8;

/// Index of the `type` column (it says when `value` is JSON).
pub const TYPE_COLUMN: usize = 2;

/// Index of the `value` column.
pub const VALUE_COLUMN: usize = 1;

#[derive(Clone, Copy, Debug)]
struct Parent {
    /// Where the container's row starts (its label, for an object member).
    head: usize,
    /// The container element.
    value: usize,
    end: usize,
    /// Length of `path` at this level.
    path_len: usize,
    /// Index of the current element, for arrays.
    key: i64,
}

/// A walk over one JSON document.
pub struct EachCursor {
    j: Jsonb,
    /// The `json` argument (text, or the JSONB blob).
    json: Value,
    recursive: bool,
    /// `jsonb_each`/`jsonb_tree`: containers come back as JSONB.
    container: Container,
    rowid: i64,
    i: usize,
    end: usize,
    root_len: usize,
    /// Type of the container of element `i` (0 at the root).
    kind: u8,
    parents: Vec<Parent>,
    path: Vec<u8>,
}

impl EachCursor {
    /// Starts a walk of `json` from `root` (`$` when absent). NULL JSON or
    /// a NULL or absent path gives no rows.
    pub fn new(
        json: &Value,
        root: Option<&Value>,
        recursive: bool,
        blob: bool,
    ) -> Result<EachCursor> {
        let container = if blob { Container::Jsonb } else { Container::Text };
        let mut c = EachCursor {
            j: Jsonb::new(Vec::new()),
            json: Value::Null,
            recursive,
            container,
            rowid: 0,
            i: 0,
            end: 0,
            root_len: 0,
            kind: 0,
            parents: Vec::new(),
            path: Vec::new(),
        };
        if json.is_null() {
            return Ok(c);
        }
        let Some(arg) = parse_arg(json)? else { return Ok(c) };
        c.json = match &arg.text {
            Some(t) => {
                // SQLite returns the text up to its first NUL.
                let t = &t[..t.iter().position(|&b| b == 0).unwrap_or(t.len())];
                text_value(t.to_vec())
            }
            None => Value::Blob(arg.jsonb.blob.clone()),
        };
        c.j = arg.jsonb;
        let i;
        match root {
            Some(r) => {
                let Some(root) = r.text().map(|t| t.into_owned()) else { return Ok(c) };
                let root = match root.find('\0') {
                    Some(p) => root[..p].to_owned(),
                    None => root,
                };
                if !root.starts_with('$') {
                    return Err(path_error(&root, LookupError::BadPath));
                }
                c.root_len = root.len();
                if root.len() == 1 {
                    i = 0;
                    c.i = 0;
                    c.kind = 0;
                } else {
                    match lookup(&mut c.j, 0, root.as_bytes(), 1, 0) {
                        Ok(k) => i = k,
                        Err(LookupError::NotFound) => {
                            c.i = 0;
                            c.end = 0;
                            return Ok(c);
                        }
                        Err(_) => return Err(path_error(&root, LookupError::BadPath)),
                    }
                    if c.j.label != 0 {
                        c.i = c.j.label;
                        c.kind = jsonb::OBJECT;
                    } else {
                        c.i = i;
                        c.kind = jsonb::ARRAY;
                    }
                }
                c.path.extend_from_slice(root.as_bytes());
            }
            None => {
                i = 0;
                c.i = 0;
                c.kind = 0;
                c.root_len = 1;
                c.path.push(b'$');
            }
        }
        let (n, sz) = c.j.size_or_zero(i);
        c.end = i + n + sz;
        let t = c.j.kind(i);
        if t >= jsonb::ARRAY && !c.recursive {
            c.i = i + n;
            c.kind = t;
            c.parents.push(Parent { head: c.i, value: i, end: c.end, path_len: 0, key: 0 });
        }
        Ok(c)
    }

    /// The next row: the [`COLUMNS`] then the rowid. `None` at the end.
    pub fn next_row(&mut self) -> Result<Option<Vec<Value>>> {
        if self.i >= self.end {
            return Ok(None);
        }
        let row = self.row()?;
        self.advance()?;
        Ok(Some(row))
    }

    /// Where the current element's value is (past its label, in objects).
    fn skip_label(&self) -> usize {
        if self.kind == jsonb::OBJECT {
            let (n, sz) = self.j.size_or_zero(self.i);
            let v = self.i + n + sz;
            if v >= self.j.blob.len() { self.i } else { v }
        } else {
            self.i
        }
    }

    /// Appends the current element's step (`[N]` or `.key`) to `path`.
    fn append_path_name(&mut self) {
        if self.kind == jsonb::ARRAY {
            let key = self.parents.last().map_or(0, |p| p.key);
            self.path.extend_from_slice(format!("[{key}]").as_bytes());
            return;
        }
        let (n, sz) = self.j.size_or_zero(self.i);
        let k = self.i + n;
        let z = self.j.blob[k.min(self.j.blob.len())..(k + sz).min(self.j.blob.len())].to_vec();
        let quote = z.is_empty()
            || !z[0].is_ascii_alphabetic()
            || z.iter().any(|c| !c.is_ascii_alphanumeric());
        if quote {
            self.path.extend_from_slice(b".\"");
            self.path.extend_from_slice(&z);
            self.path.push(b'"');
        } else {
            self.path.push(b'.');
            self.path.extend_from_slice(&z);
        }
    }

    fn advance(&mut self) -> Result<()> {
        if self.recursive {
            let i = self.skip_label();
            let x = self.j.kind(i);
            let Some((n, sz)) = self.j.payload_size(i) else {
                return crate::errinput!("malformed JSON");
            };
            let mut level_change = false;
            if x == jsonb::OBJECT || x == jsonb::ARRAY {
                level_change = true;
                let parent = Parent {
                    head: self.i,
                    value: i,
                    end: i + n + sz,
                    key: -1,
                    path_len: self.path.len(),
                };
                if self.kind != 0 && !self.parents.is_empty() {
                    self.append_path_name();
                }
                self.parents.push(parent);
                self.i = i + n;
            } else {
                self.i = i + n + sz;
            }
            while let Some(p) = self.parents.last()
                && self.i >= p.end
            {
                self.path.truncate(p.path_len);
                self.parents.pop();
                level_change = true;
            }
            if level_change {
                self.kind = match self.parents.last() {
                    Some(p) => self.j.kind(p.value),
                    None => 0,
                };
            }
        } else {
            let i = self.skip_label();
            let Some((n, sz)) = self.j.payload_size(i) else {
                return crate::errinput!("malformed JSON");
            };
            self.i = i + n + sz;
        }
        if self.kind == jsonb::ARRAY
            && let Some(p) = self.parents.last_mut()
        {
            p.key += 1;
        }
        self.rowid += 1;
        Ok(())
    }

    /// Length of the `path` column (SQLite's `jsonEachPathLength`, with its
    /// special case for the first row of json_tree under a root path).
    fn path_length(&mut self) -> usize {
        let mut n = self.path.len();
        if self.rowid == 0 && self.recursive && n >= 2 {
            while n > 1 {
                n -= 1;
                if self.path[n] == b'[' || self.path[n] == b'.' {
                    let prefix = self.path[..n].to_vec();
                    let saved = (self.j.edit, self.j.label, self.j.depth);
                    let r = lookup(&mut self.j, 0, &prefix, 1, 0);
                    (self.j.edit, self.j.label, self.j.depth) = saved;
                    let Ok(x) = r else { continue };
                    let (hn, _) = self.j.size_or_zero(x);
                    if x + hn == self.i {
                        break;
                    }
                }
            }
        }
        n
    }

    fn row(&mut self) -> Result<Vec<Value>> {
        let v = self.skip_label();
        let t = self.j.kind(v);
        let key = if self.parents.is_empty() {
            self.root_key()
        } else if self.kind == jsonb::OBJECT {
            element_value(&self.j, self.i, Container::Text)?
        } else {
            Value::Integer(self.parents.last().map_or(0, |p| p.key))
        };
        let value = element_value(&self.j, v, self.container)?;
        let atom = if t < jsonb::ARRAY {
            element_value(&self.j, v, Container::Text)?
        } else {
            Value::Null
        };
        let parent = match self.parents.last() {
            Some(p) if self.recursive => Value::Integer(p.head as i64),
            _ => Value::Null,
        };
        let base = self.path.len();
        if !self.parents.is_empty() {
            self.append_path_name();
        }
        let fullkey = text_value(self.path[..].to_vec());
        self.path.truncate(base);
        let plen = self.path_length();
        let path = text_value(self.path[..plen].to_vec());
        let root = text_value(self.path[..self.root_len.min(self.path.len())].to_vec());
        Ok(vec![
            key,
            value,
            Value::Text((jsonb::TYPE_NAMES[usize::from(t)].to_owned()).into()),
            atom,
            Value::Integer(self.i as i64),
            parent,
            fullkey,
            path,
            self.json.clone(),
            root,
            Value::Integer(self.rowid),
        ])
    }

    /// The `key` of a row outside any container: the last step of the
    /// root path (NULL for `$`).
    fn root_key(&mut self) -> Value {
        if self.root_len == 1 {
            return Value::Null;
        }
        let j = self.path_length();
        let n = self.root_len.saturating_sub(j);
        if n == 0 {
            return Value::Null;
        }
        let p = &self.path;
        if p[j] == b'[' {
            let digits: Vec<u8> =
                p[j + 1..j + n].iter().copied().take_while(|c| *c != b']').collect();
            Value::Integer(crate::value::atoi64(&digits).0)
        } else if p.get(j + 1) == Some(&b'"') {
            text_value(p[j + 2..(j + n).saturating_sub(1).max(j + 2)].to_vec())
        } else {
            text_value(p[j + 1..j + n].to_vec())
        }
    }
}
