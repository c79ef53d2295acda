//! SQLite's JSON functions (`json.c` of SQLite 3.54): `json`, `json_array`,
//! `json_extract`, `->`, `->>`, `json_set` & co., the `jsonb_*` variants,
//! the aggregates `json_group_array`/`json_group_object` ([`JsonGroup`]),
//! and the rows of the table-valued `json_each`/`json_tree` ([`each`]).
//!
//! # How values are held
//! Every function parses its JSON argument into SQLite's binary JSONB
//! ([`jsonb`]), works on that, and renders text at the end — the same
//! pipeline as SQLite's, ported rule by rule rather than approximated
//! with a JSON library: a JSON library would not keep number text
//! (`1.50`, `1e400`, `-0`), escapes as written, duplicate keys, or
//! SQLite's JSON5 acceptance, and `json_each.id` is a JSONB byte offset.
//! A BLOB argument is JSONB when it looks like it (see
//! [`jsonb::looks_like_jsonb`]), else it is read as text, as SQLite does.
//!
//! # The JSON subtype
//! In SQLite a value returned by a JSON function carries the subtype `J`,
//! and a JSON function receiving text with that subtype inserts it as
//! JSON instead of as a string: `json_array(json('[1]'))` is `[[1]]` but
//! `json_array('[1]')` is `["[1]"]`. Here the subtype is a flag next to
//! the value while an expression is evaluated: [`crate::expr::Expr::eval_subtyped`]
//! returns `(value, is_json)`, JSON functions report theirs through
//! [`Json::call`], and [`super::Env::json_args`] tells a function which of
//! its arguments carry it. Like SQLite's, the flag passes through `CASE`,
//! `coalesce`/`ifnull`/`iif`, `nullif`, scalar `min`/`max`, `likely` and
//! friends, unary `+`, `CAST` and `COLLATE`, and is lost at a subquery
//! boundary, in a stored value, or through any other operator. The results
//! of the JSON aggregates and the `value` column of `json_each`/`json_tree`
//! (for arrays and objects) carry it too ([`crate::expr::Expr::Json`]).
//! Known gap: SQLite also keeps it through a FROM-subquery it flattens
//! and through aggregate `min`/`max`; here those lose it.

pub mod each;
mod group;
pub mod jsonb;
mod parse;
mod path;
mod render;

pub use group::JsonGroup;

use jsonb::{Edit, Jsonb};
use path::{LookupError, lookup, path_error};
use render::{Container, JsonOut, element_value, to_pretty, to_text};

use super::{Env, arity};
use crate::Result;
use crate::value::Value;

/// The JSON scalar functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Json {
    Json,
    Jsonb,
    Array,
    JsonbArray,
    ArrayInsert,
    JsonbArrayInsert,
    ArrayLength,
    ErrorPosition,
    Extract,
    JsonbExtract,
    /// `->`: the element as JSON text.
    Arrow,
    /// `->>`: the element as an SQL value.
    LongArrow,
    Insert,
    JsonbInsert,
    Object,
    JsonbObject,
    Patch,
    JsonbPatch,
    Pretty,
    Quote,
    Remove,
    JsonbRemove,
    Replace,
    JsonbReplace,
    Set,
    JsonbSet,
    Type,
    Valid,
}

/// Whether a function takes `n` arguments.
type Arity = fn(usize) -> bool;

/// Every JSON function: name, variant, and its arity rule.
const TABLE: &[(&str, Json, Arity)] = {
    use Json as J;
    &[
        ("json", J::Json, |n| n == 1),
        ("jsonb", J::Jsonb, |n| n == 1),
        ("json_array", J::Array, |_| true),
        ("jsonb_array", J::JsonbArray, |_| true),
        ("json_array_insert", J::ArrayInsert, |_| true),
        ("jsonb_array_insert", J::JsonbArrayInsert, |_| true),
        ("json_array_length", J::ArrayLength, |n| n == 1 || n == 2),
        ("json_error_position", J::ErrorPosition, |n| n == 1),
        ("json_extract", J::Extract, |_| true),
        ("jsonb_extract", J::JsonbExtract, |_| true),
        ("->", J::Arrow, |n| n == 2),
        ("->>", J::LongArrow, |n| n == 2),
        ("json_insert", J::Insert, |_| true),
        ("jsonb_insert", J::JsonbInsert, |_| true),
        ("json_object", J::Object, |_| true),
        ("jsonb_object", J::JsonbObject, |_| true),
        ("json_patch", J::Patch, |n| n == 2),
        ("jsonb_patch", J::JsonbPatch, |n| n == 2),
        ("json_pretty", J::Pretty, |n| n == 1 || n == 2),
        ("json_quote", J::Quote, |n| n == 1),
        ("json_remove", J::Remove, |_| true),
        ("jsonb_remove", J::JsonbRemove, |_| true),
        ("json_replace", J::Replace, |_| true),
        ("jsonb_replace", J::JsonbReplace, |_| true),
        ("json_set", J::Set, |_| true),
        ("jsonb_set", J::JsonbSet, |_| true),
        ("json_type", J::Type, |n| n == 1 || n == 2),
        ("json_valid", J::Valid, |n| n == 1 || n == 2),
    ]
};

/// A function result: the value and whether it carries the JSON subtype.
pub type Subtyped = (Value, bool);

impl Json {
    /// `None` if `name` (lower case) is not a JSON function; else the
    /// function, or the arity error for `nargs`.
    pub fn resolve(name: &str, nargs: usize) -> Option<Result<Json>> {
        let (n, f, ok) = TABLE.iter().find(|e| e.0 == name)?;
        Some(arity(n, ok(nargs)).map(|_| *f))
    }

    pub fn name(self) -> &'static str {
        TABLE.iter().find(|e| e.1 == self).map_or("?", |e| e.0)
    }

    /// True for the `jsonb*` variants, which return JSONB blobs.
    fn blob_out(self) -> bool {
        use Json as J;
        matches!(
            self,
            J::Jsonb
                | J::JsonbArray
                | J::JsonbArrayInsert
                | J::JsonbExtract
                | J::JsonbInsert
                | J::JsonbObject
                | J::JsonbPatch
                | J::JsonbRemove
                | J::JsonbReplace
                | J::JsonbSet
        )
    }

    /// Evaluates the function; `env.json_args` says which arguments carry
    /// the JSON subtype. The result says whether it carries it.
    pub fn call(self, args: &[Value], env: &Env) -> Result<Subtyped> {
        use Json as J;
        let json_arg = |i: usize| env.json_args.get(i).copied().unwrap_or(false);
        let blob = self.blob_out();
        match self {
            J::Json | J::Jsonb => match parse_arg(&args[0])? {
                None => Ok((Value::Null, false)),
                Some(p) => output(p.jsonb, blob),
            },
            J::Array | J::JsonbArray => {
                let mut out = JsonOut::new();
                out.push(b'[');
                for (i, a) in args.iter().enumerate() {
                    out.separator();
                    out.sql_value(a, json_arg(i));
                }
                out.push(b']');
                text_output(out.finish()?, blob)
            }
            J::Object | J::JsonbObject => {
                if !args.len().is_multiple_of(2) {
                    return crate::errinput!("json_object() requires an even number of arguments");
                }
                let mut out = JsonOut::new();
                out.push(b'{');
                for (i, pair) in args.chunks_exact(2).enumerate() {
                    let Value::Text(label) = &pair[0] else {
                        return crate::errinput!("json_object() labels must be TEXT");
                    };
                    out.separator();
                    out.string(label.as_bytes());
                    out.push(b':');
                    out.sql_value(&pair[1], json_arg(2 * i + 1));
                }
                out.push(b'}');
                text_output(out.finish()?, blob)
            }
            J::Quote => {
                let mut out = JsonOut::new();
                out.sql_value(&args[0], json_arg(0));
                Ok((text_value(out.finish()?), true))
            }
            J::ArrayLength => array_length(args),
            J::ErrorPosition => error_position(&args[0]),
            J::Extract | J::JsonbExtract | J::Arrow | J::LongArrow => extract(self, args),
            J::Insert | J::JsonbInsert => edit(args, Edit::Insert, "insert", blob, env),
            J::Set | J::JsonbSet => edit(args, Edit::Set, "set", blob, env),
            J::Replace | J::JsonbReplace => edit(args, Edit::Replace, "replace", blob, env),
            J::ArrayInsert | J::JsonbArrayInsert => {
                edit(args, Edit::ArrayInsert, "array_insert", blob, env)
            }
            J::Remove | J::JsonbRemove => remove(args, blob),
            J::Patch | J::JsonbPatch => patch(args, blob),
            J::Pretty => pretty(args),
            J::Type => json_type(args),
            J::Valid => valid(args),
        }
    }
}

/// TEXT holding these bytes as they are.
pub(crate) fn text_value(b: Vec<u8>) -> Value {
    Value::Text(crate::value::Text::from_bytes(b))
}

/// A parsed JSON argument.
pub struct Arg {
    pub jsonb: Jsonb,
    /// The argument's text when it was text (json_each's `json` column).
    pub text: Option<Vec<u8>>,
}

/// The JSON of a function argument (SQLite's `jsonParseFuncArg`): `None`
/// for NULL; JSONB for a blob that looks like it; otherwise the value's
/// text, parsed ("malformed JSON" if it does not parse).
pub fn parse_arg(v: &Value) -> Result<Option<Arg>> {
    match try_parse_arg(v) {
        Ok(p) => Ok(p),
        Err(_) => crate::errinput!("malformed JSON"),
    }
}

/// [`parse_arg`], keeping the parse error.
fn try_parse_arg(v: &Value) -> Result<Option<Arg>, Option<parse::ParseError>> {
    if let Value::Blob(b) = v
        && jsonb::looks_like_jsonb(b)
    {
        return Ok(Some(Arg { jsonb: Jsonb::new(b.clone()), text: None }));
    }
    let Some(text) = v.text_bytes() else { return Ok(None) };
    if text.is_empty() {
        return Err(None);
    }
    match parse::parse(&text) {
        Ok(p) => Ok(Some(Arg { jsonb: p.jsonb, text: Some(text.into_owned()) })),
        Err(e) => Err(Some(e)),
    }
}

/// The JSONB of a value to insert (SQLite's `jsonFunctionArgToBlob`):
/// JSON text (with the subtype) parsed, other text as a string, numbers
/// as numbers, NULL as null; a blob must be JSONB.
fn value_to_jsonb(v: &Value, json: bool) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    match v {
        Value::Null => out.push(jsonb::NULL),
        Value::Blob(b) => {
            if !jsonb::looks_like_jsonb(b) {
                return crate::errinput!("JSON cannot hold BLOB values");
            }
            out.extend_from_slice(b);
        }
        Value::Text(s) => {
            if json {
                match parse::parse(s.as_bytes()) {
                    Ok(p) => return Ok(p.jsonb.blob),
                    Err(_) => return crate::errinput!("malformed JSON"),
                }
            }
            jsonb::append_header(&mut out, jsonb::TEXTRAW, s.len());
            out.extend_from_slice(s.as_bytes());
        }
        Value::Real(r) => {
            if r.is_nan() {
                out.push(jsonb::NULL);
            } else {
                let t = v.to_text().unwrap_or_default();
                let t: &[u8] = if t.starts_with(b"I") {
                    b"9e999"
                } else if t.starts_with(b"-I") {
                    b"-9e999"
                } else {
                    t.as_bytes()
                };
                jsonb::append_header(&mut out, jsonb::FLOAT, t.len());
                out.extend_from_slice(t);
            }
        }
        Value::Integer(i) => {
            let t = i.to_string();
            jsonb::append_header(&mut out, jsonb::INT, t.len());
            out.extend_from_slice(t.as_bytes());
        }
    }
    Ok(out)
}

/// The result of an edited or parsed JSON: JSONB bytes, or text with the
/// subtype (SQLite's `jsonReturnParse`).
fn output(j: Jsonb, blob: bool) -> Result<Subtyped> {
    if blob {
        return Ok((Value::Blob(j.blob), false));
    }
    let mut out = JsonOut::new();
    let j = Jsonb { delta: 0, ..j };
    to_text(&j, 0, &mut out, &mut 0);
    Ok((text_value(out.finish()?), true))
}

/// Generated JSON text as the result: text with the subtype, or (for
/// `jsonb_*`) parsed into JSONB.
fn text_output(text: Vec<u8>, blob: bool) -> Result<Subtyped> {
    if blob {
        return Ok((Value::Blob(text_to_jsonb(&text)), false));
    }
    Ok((text_value(text), true))
}

/// JSONB of JSON text this module generated (always valid).
fn text_to_jsonb(text: &[u8]) -> Vec<u8> {
    match parse::parse(text) {
        Ok(p) => p.jsonb.blob,
        Err(_) => vec![jsonb::NULL],
    }
}

/// A path argument's text, or `None` for NULL.
fn path_text(v: &Value) -> Option<String> {
    v.text().map(|s| s.into_owned()).map(|s| match s.find('\0') {
        Some(p) => s[..p].to_owned(),
        None => s,
    })
}

fn array_length(args: &[Value]) -> Result<Subtyped> {
    let Some(mut p) = parse_arg(&args[0])? else { return Ok((Value::Null, false)) };
    let mut i = 0;
    if let Some(pv) = args.get(1) {
        let Some(path) = path_text(pv) else { return Ok((Value::Null, false)) };
        let r = if path.starts_with('$') {
            lookup(&mut p.jsonb, 0, path.as_bytes(), 1, 0)
        } else {
            lookup(&mut p.jsonb, 0, b"@", 0, 0)
        };
        match r {
            Ok(k) => i = k,
            Err(LookupError::NotFound) => return Ok((Value::Null, false)),
            Err(e) => return Err(path_error(&path, e)),
        }
    }
    let n = if p.jsonb.kind(i) == jsonb::ARRAY { p.jsonb.array_count(i) } else { 0 };
    Ok((Value::Integer(n as i64), false))
}

fn error_position(v: &Value) -> Result<Subtyped> {
    if let Value::Blob(b) = v
        && jsonb::looks_like_jsonb(b)
    {
        let j = Jsonb::new(b.clone());
        return Ok((Value::Integer(j.validity_check(0, b.len(), 1) as i64), false));
    }
    let Some(text) = v.text_bytes() else { return Ok((Value::Null, false)) };
    let pos = match parse::parse(&text) {
        Ok(_) => 0,
        Err(e) => {
            // A character offset: count UTF-8 lead bytes before the error.
            let upto = &text[..e.at.min(text.len())];
            let upto = &upto[..upto.iter().position(|&c| c == 0).unwrap_or(upto.len())];
            upto.iter().filter(|&&c| c & 0xc0 != 0x80).count() as i64 + 1
        }
    };
    Ok((Value::Integer(pos), false))
}

/// True if `z` is letters, digits and underscores only.
fn all_alnum(z: &str) -> bool {
    z.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
}

fn extract(f: Json, args: &[Value]) -> Result<Subtyped> {
    if args.len() < 2 {
        return Ok((Value::Null, false));
    }
    let Some(mut p) = parse_arg(&args[0])? else { return Ok((Value::Null, false)) };
    let arrows = matches!(f, Json::Arrow | Json::LongArrow);
    let blob = f == Json::JsonbExtract;
    let single = args.len() == 2;
    let mut out = JsonOut::new();
    if !single {
        out.push(b'[');
    }
    for a in &args[1..] {
        let Some(path) = path_text(a) else { return Ok((Value::Null, false)) };
        let found = if path.starts_with('$') {
            lookup(&mut p.jsonb, 0, path.as_bytes(), 1, 0)
        } else if arrows {
            // Abbreviated paths: N is $[N] (negative: $[#N]), a label is
            // $.label, [N] is itself, anything else a quoted label.
            let ab = if matches!(a, Value::Integer(_)) {
                if path.starts_with('-') { format!("[#{path}]") } else { format!("[{path}]") }
            } else if all_alnum(&path) {
                format!(".{path}")
            } else if path.len() >= 3 && path.starts_with('[') && path.ends_with(']') {
                path.clone()
            } else {
                format!(".\"{path}\"")
            };
            lookup(&mut p.jsonb, 0, ab.as_bytes(), 0, 0)
        } else {
            return Err(path_error(&path, LookupError::BadPath));
        };
        match found {
            Ok(k) if k < p.jsonb.blob.len() => {
                if single {
                    if f == Json::Arrow {
                        let mut out = JsonOut::new();
                        to_text(&p.jsonb, k, &mut out, &mut 0);
                        return Ok((text_value(out.finish()?), true));
                    }
                    let container = if blob { Container::Jsonb } else { Container::Text };
                    let v = element_value(&p.jsonb, k, container)?;
                    let json = f == Json::Extract && p.jsonb.kind(k) >= jsonb::ARRAY;
                    return Ok((v, json));
                }
                out.separator();
                to_text(&p.jsonb, k, &mut out, &mut 0);
            }
            Ok(_) | Err(LookupError::NotFound) => {
                if single {
                    return Ok((Value::Null, false));
                }
                out.separator();
                out.raw(b"null");
            }
            Err(e) => return Err(path_error(&path, e)),
        }
    }
    out.push(b']');
    text_output(out.finish()?, blob)
}

/// `json_insert`, `json_set`, `json_replace`, `json_array_insert` (SQLite's
/// `jsonSetFunc` and `jsonInsertIntoBlob`).
fn edit(args: &[Value], how: Edit, name: &str, blob: bool, env: &Env) -> Result<Subtyped> {
    if args.is_empty() {
        return Ok((Value::Null, false));
    }
    if args.len().is_multiple_of(2) {
        return crate::errinput!("json_{name}() needs an odd number of arguments");
    }
    let Some(p) = parse_arg(&args[0])? else { return Ok((Value::Null, false)) };
    let mut j = p.jsonb;
    for (k, pair) in args[1..].chunks_exact(2).enumerate() {
        let Some(path) = path_text(&pair[0]) else { continue };
        if !path.starts_with('$') {
            return Err(path_error(&path, LookupError::BadPath));
        }
        let json = env.json_args.get(2 + 2 * k).copied().unwrap_or(false);
        let ins = value_to_jsonb(&pair[1], json)?;
        if path.len() == 1 {
            if matches!(how, Edit::Replace | Edit::Set) {
                let len = j.blob.len();
                j.edit_bytes(0, len, Ok(&ins));
            }
            continue;
        }
        j.edit = how;
        j.ins = ins;
        j.delta = 0;
        j.depth = 0;
        let r = lookup(&mut j, 0, path.as_bytes(), 1, 0);
        j.edit = Edit::None;
        match r {
            Ok(_) | Err(LookupError::NotFound) => {}
            Err(e) => return Err(path_error(&path, e)),
        }
    }
    output(j, blob)
}

fn remove(args: &[Value], blob: bool) -> Result<Subtyped> {
    if args.is_empty() {
        return Ok((Value::Null, false));
    }
    let Some(p) = parse_arg(&args[0])? else { return Ok((Value::Null, false)) };
    let mut j = p.jsonb;
    for a in &args[1..] {
        let Some(path) = path_text(a) else { return Ok((Value::Null, false)) };
        if !path.starts_with('$') {
            return Err(path_error(&path, LookupError::BadPath));
        }
        if path.len() == 1 {
            return Ok((Value::Null, false));
        }
        j.edit = Edit::Delete;
        j.delta = 0;
        j.depth = 0;
        let r = lookup(&mut j, 0, path.as_bytes(), 1, 0);
        j.edit = Edit::None;
        match r {
            Ok(_) | Err(LookupError::NotFound) => {}
            Err(e) => return Err(path_error(&path, e)),
        }
    }
    output(j, blob)
}

fn patch(args: &[Value], blob: bool) -> Result<Subtyped> {
    let Some(target) = parse_arg(&args[0])? else { return Ok((Value::Null, false)) };
    let Some(patch) = parse_arg(&args[1])? else { return Ok((Value::Null, false)) };
    let mut t = target.jsonb;
    match path::merge_patch(&mut t, 0, &patch.jsonb, 0, 0) {
        Ok(()) => output(t, blob),
        Err(path::PatchError::TooDeep) => crate::errinput!("JSON nested too deep"),
        Err(_) => crate::errinput!("malformed JSON"),
    }
}

fn pretty(args: &[Value]) -> Result<Subtyped> {
    let Some(p) = parse_arg(&args[0])? else { return Ok((Value::Null, false)) };
    let indent = match args.get(1).and_then(Value::text_bytes) {
        Some(b) => b[..b.iter().position(|&c| c == 0).unwrap_or(b.len())].to_vec(),
        None => b"    ".to_vec(),
    };
    let mut out = JsonOut::new();
    to_pretty(&p.jsonb, 0, &mut out, &indent, &mut 0);
    Ok((text_value(out.finish()?), false))
}

fn json_type(args: &[Value]) -> Result<Subtyped> {
    let Some(mut p) = parse_arg(&args[0])? else { return Ok((Value::Null, false)) };
    let mut i = 0;
    if let Some(pv) = args.get(1) {
        let Some(path) = path_text(pv) else { return Ok((Value::Null, false)) };
        if !path.starts_with('$') {
            return Err(path_error(&path, LookupError::BadPath));
        }
        match lookup(&mut p.jsonb, 0, path.as_bytes(), 1, 0) {
            Ok(k) => i = k,
            Err(LookupError::NotFound) => return Ok((Value::Null, false)),
            Err(e) => return Err(path_error(&path, e)),
        }
    }
    let name = jsonb::TYPE_NAMES[usize::from(p.jsonb.kind(i))];
    Ok((Value::Text(name.to_owned().into()), false))
}

/// `json_valid(X [, FLAGS])`: 1 canonical text, 2 JSON5 text, 4 JSONB at a
/// glance, 8 strictly valid JSONB (any combination); default 1.
fn valid(args: &[Value]) -> Result<Subtyped> {
    let mut flags = 1u8;
    if let Some(f) = args.get(1) {
        let f = f.to_i64();
        if !(1..=15).contains(&f) {
            return crate::errinput!("FLAGS parameter to json_valid() must be between 1 and 15");
        }
        flags = f as u8;
    }
    let v = &args[0];
    if v.is_null() {
        return Ok((Value::Null, false));
    }
    let mut res = false;
    let mut as_text = true;
    if let Value::Blob(b) = v
        && jsonb::looks_like_jsonb(b)
    {
        as_text = false;
        if flags & 0x04 != 0 {
            res = true;
        } else if flags & 0x08 != 0 {
            res = Jsonb::new(b.clone()).validity_check(0, b.len(), 1) == 0;
        }
    }
    if as_text && flags & 0x03 != 0 {
        let text = v.text_bytes().unwrap_or_default();
        if !text.is_empty()
            && let Ok(p) = parse::parse(&text)
        {
            res = flags & 0x02 != 0 || !p.nonstd;
        }
    }
    Ok((Value::Integer(i64::from(res)), false))
}
