//! SQLite's core scalar functions (`func.c`), one small function each,
//! resolved by name and arity in [`Scalar::resolve`].

use std::borrow::Cow;

use super::pattern::{GLOB_INFO, LIKE_INFO, char_count, matches, skip_utf8, utf8_read};
use super::printf::{self, max_length};
use super::{Env, arity};
use crate::value::{Collation, FloatSpec, FloatStyle, Value, atof, compare_collated, format_float};
use crate::{Error, Result};

/// SQLite's core scalar functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scalar {
    Abs,
    Char,
    Coalesce,
    /// `coalesce` of the columns a USING / NATURAL column of a RIGHT or
    /// FULL join merges (built by the binder, never by name): as SQLite's
    /// (`SQLITE_AFF_DEFER`) it has its first argument's affinity.
    UsingCoalesce,
    IfNull,
    Concat,
    ConcatWs,
    Format,
    Printf,
    Glob,
    Like,
    Hex,
    Unhex,
    Iif,
    Instr,
    Length,
    OctetLength,
    Likely,
    Unlikely,
    Likelihood,
    Lower,
    Upper,
    Trim,
    LTrim,
    RTrim,
    Max,
    Min,
    NullIf,
    Quote,
    Random,
    RandomBlob,
    /// The session's counters ([`crate::counters`]).
    LastInsertRowid,
    Changes,
    TotalChanges,
    Replace,
    Round,
    Sign,
    Soundex,
    Substr,
    Substring,
    TypeOf,
    Unicode,
    Unistr,
    UnistrQuote,
    SqliteVersion,
    ZeroBlob,
}

/// Whether a function takes `n` arguments.
type Arity = fn(usize) -> bool;

/// Every core function: name, variant, and its arity rule.
const TABLE: &[(&str, Scalar, Arity)] = {
    use Scalar as S;
    &[
        ("abs", S::Abs, |n| n == 1),
        ("char", S::Char, |_| true),
        ("coalesce", S::Coalesce, |n| n >= 2),
        // Same name, after the user-visible one: `resolve` never finds it.
        ("coalesce", S::UsingCoalesce, |n| n >= 2),
        ("ifnull", S::IfNull, |n| n == 2),
        ("concat", S::Concat, |n| n >= 1),
        ("concat_ws", S::ConcatWs, |n| n >= 2),
        ("format", S::Format, |_| true),
        ("printf", S::Printf, |_| true),
        ("glob", S::Glob, |n| n == 2),
        ("like", S::Like, |n| n == 2 || n == 3),
        ("hex", S::Hex, |n| n == 1),
        ("unhex", S::Unhex, |n| n == 1 || n == 2),
        ("iif", S::Iif, |n| n >= 2),
        ("if", S::Iif, |n| n >= 2),
        ("instr", S::Instr, |n| n == 2),
        ("length", S::Length, |n| n == 1),
        ("octet_length", S::OctetLength, |n| n == 1),
        ("likely", S::Likely, |n| n == 1),
        ("unlikely", S::Unlikely, |n| n == 1),
        ("likelihood", S::Likelihood, |n| n == 2),
        ("lower", S::Lower, |n| n == 1),
        ("upper", S::Upper, |n| n == 1),
        ("trim", S::Trim, |n| n == 1 || n == 2),
        ("ltrim", S::LTrim, |n| n == 1 || n == 2),
        ("rtrim", S::RTrim, |n| n == 1 || n == 2),
        ("max", S::Max, |n| n >= 2),
        ("min", S::Min, |n| n >= 2),
        ("nullif", S::NullIf, |n| n == 2),
        ("quote", S::Quote, |n| n == 1),
        ("random", S::Random, |n| n == 0),
        ("last_insert_rowid", S::LastInsertRowid, |n| n == 0),
        ("changes", S::Changes, |n| n == 0),
        ("total_changes", S::TotalChanges, |n| n == 0),
        ("randomblob", S::RandomBlob, |n| n == 1),
        ("replace", S::Replace, |n| n == 3),
        ("round", S::Round, |n| n == 1 || n == 2),
        ("sign", S::Sign, |n| n == 1),
        ("soundex", S::Soundex, |n| n == 1),
        ("substr", S::Substr, |n| n == 2 || n == 3),
        ("substring", S::Substring, |n| n == 2 || n == 3),
        ("typeof", S::TypeOf, |n| n == 1),
        ("unicode", S::Unicode, |n| n == 1),
        ("unistr", S::Unistr, |n| n == 1),
        ("unistr_quote", S::UnistrQuote, |n| n == 1),
        ("sqlite_version", S::SqliteVersion, |n| n == 0),
        ("zeroblob", S::ZeroBlob, |n| n == 1),
    ]
};

impl Scalar {
    /// `None` if `name` (lower case) is not a core function; else the
    /// function, or the arity error for `nargs`.
    pub fn resolve(name: &str, nargs: usize) -> Option<Result<Scalar>> {
        let (n, f, ok) = TABLE.iter().find(|e| e.0 == name)?;
        Some(arity(n, ok(nargs)).map(|_| *f))
    }

    pub fn name(self) -> &'static str {
        TABLE.iter().find(|e| e.1 == self).map_or("?", |e| e.0)
    }

    /// Evaluates the function on `args` (already checked for arity).
    pub fn call(self, args: &[Value], env: &Env) -> Result<Value> {
        use Scalar as S;
        let coll = env.coll;
        match self {
            S::Abs => abs(&args[0]),
            S::Char => Ok(char_fn(args)),
            S::Coalesce | S::UsingCoalesce => {
                Ok(args.iter().find(|v| !v.is_null()).cloned().unwrap_or(Value::Null))
            }
            S::IfNull => Ok(if args[0].is_null() { args[1].clone() } else { args[0].clone() }),
            S::Concat => Ok(concat_ws(b"", args)),
            S::ConcatWs => match args[0].text_bytes() {
                None => Ok(Value::Null),
                Some(sep) => Ok(concat_ws(&sep, &args[1..])),
            },
            S::Format | S::Printf => match args.first().and_then(Value::text_bytes) {
                None => Ok(Value::Null),
                Some(fmt) => Ok(text_value(printf::format(&fmt, &args[1..])?)),
            },
            S::Glob => pattern_fn(&args[0], &args[1], None, true),
            S::Like => pattern_fn(&args[0], &args[1], args.get(2), false),
            S::Hex => Ok(Value::Text(hex(&args[0].text_bytes().unwrap_or_default()).into())),
            S::Unhex => Ok(unhex(&args[0], args.get(1))),
            S::Iif => Ok(iif(args)),
            S::Instr => Ok(instr(&args[0], &args[1])),
            S::Length => Ok(length(&args[0])),
            S::OctetLength => Ok(match args[0].text_bytes() {
                None => Value::Null,
                Some(b) => Value::Integer(b.len() as i64),
            }),
            S::Likely | S::Unlikely => Ok(args[0].clone()),
            S::Likelihood => {
                let p = match &args[1] {
                    Value::Integer(i) => Some(*i as f64),
                    Value::Real(r) => Some(*r),
                    _ => None,
                };
                match p {
                    Some(p) if (0.0..=1.0).contains(&p) => Ok(args[0].clone()),
                    _ => crate::errinput!(
                        "second argument to likelihood() must be a constant between 0.0 and 1.0"
                    ),
                }
            }
            S::Lower | S::Upper => Ok(match args[0].text_bytes() {
                None => Value::Null,
                Some(b) => {
                    let mapped: Vec<u8> = if self == S::Lower {
                        b.iter().map(u8::to_ascii_lowercase).collect()
                    } else {
                        b.iter().map(u8::to_ascii_uppercase).collect()
                    };
                    text_value(mapped)
                }
            }),
            S::Trim | S::LTrim | S::RTrim => {
                let (left, right) = match self {
                    S::LTrim => (true, false),
                    S::RTrim => (false, true),
                    _ => (true, true),
                };
                Ok(trim(&args[0], args.get(1), left, right))
            }
            S::Max | S::Min => Ok(min_max(args, self == S::Max, coll)),
            S::NullIf => {
                let ne = compare_collated(&args[0], &args[1], coll).is_ne();
                Ok(if ne { args[0].clone() } else { Value::Null })
            }
            S::Quote => Ok(match &args[0] {
                // The bytes as they are, UTF-8 or not.
                Value::Text(t) => text_value(quote_text(t)),
                other => Value::Text(quote(other).into()),
            }),
            S::LastInsertRowid => Ok(Value::Integer(crate::counters::current().last_insert_rowid)),
            S::Changes => Ok(Value::Integer(crate::counters::current().changes as i64)),
            S::TotalChanges => Ok(Value::Integer(crate::counters::current().total_changes as i64)),
            S::Random => {
                let r = rng::next() as i64;
                Ok(Value::Integer(if r < 0 { -(r & i64::MAX) } else { r }))
            }
            S::RandomBlob => {
                let len = args[0].to_i64().max(1);
                if len as u64 > max_length() as u64 {
                    return Err(Error::TooLarge("string or blob too big".into()));
                }
                let mut b = Vec::with_capacity(len as usize);
                while b.len() < len as usize {
                    let word = rng::next().to_le_bytes();
                    let take = (len as usize - b.len()).min(8);
                    b.extend_from_slice(&word[..take]);
                }
                Ok(Value::Blob(b))
            }
            S::Replace => Ok(replace(&args[0], &args[1], &args[2])),
            S::Round => Ok(round(&args[0], args.get(1))),
            S::Sign => Ok(sign(&args[0])),
            S::Soundex => {
                Ok(Value::Text(soundex(&args[0].text_bytes().unwrap_or_default()).into()))
            }
            S::Substr | S::Substring => Ok(substr(&args[0], &args[1], args.get(2))),
            S::TypeOf => Ok(Value::Text((args[0].type_name().to_owned()).into())),
            S::Unicode => Ok(match args[0].text_bytes() {
                Some(b) if b.first().is_some_and(|&c| c != 0) => {
                    let mut i = 0;
                    Value::Integer(i64::from(utf8_read(&b, &mut i)))
                }
                _ => Value::Null,
            }),
            S::Unistr => unistr(&args[0]),
            S::UnistrQuote => Ok(match &args[0] {
                Value::Text(_) => text_value(printf::format(b"%#Q", args)?),
                other => Value::Text(quote(other).into()),
            }),
            // The SQLite release whose behaviour this engine follows (and
            // our differential tests compare against).
            S::SqliteVersion => Ok(Value::Text("3.54.1".into())),
            S::ZeroBlob => {
                let len = args[0].to_i64().max(0);
                if len as u64 > max_length() as u64 {
                    return Err(Error::TooLarge("string or blob too big".into()));
                }
                Ok(Value::Blob(vec![0; len as usize]))
            }
        }
    }
}

/// TEXT holding these bytes as they are (see `value::Text`).
fn text_value(b: Vec<u8>) -> Value {
    Value::Text(crate::value::Text::from_bytes(b))
}

/// Byte slice up to the first NUL (what SQLite's C-string loops see).
pub(super) fn c_str(b: &[u8]) -> &[u8] {
    match b.iter().position(|&c| c == 0) {
        Some(p) => &b[..p],
        None => b,
    }
}

fn abs(v: &Value) -> Result<Value> {
    Ok(match v {
        Value::Integer(i) => match i.checked_abs() {
            Some(a) => Value::Integer(a),
            None => return crate::errinput!("integer overflow"),
        },
        Value::Null => Value::Null,
        other => {
            // Not f64::abs: SQLite keeps -0.0 as it is.
            let r = other.to_f64();
            Value::Real(if r < 0.0 { -r } else { r })
        }
    })
}

fn char_fn(args: &[Value]) -> Value {
    // SQLite's bytes, surrogates included (encoded as 3 bytes, which is not
    // valid UTF-8), kept as they are in the TEXT.
    let mut out = Vec::with_capacity(args.len());
    for a in args {
        let x = a.to_i64();
        let c = if (0..=0x10ffff).contains(&x) { x as u32 } else { 0xfffd };
        if c < 0x80 {
            out.push(c as u8);
        } else if c < 0x800 {
            out.extend([0xc0 | (c >> 6) as u8, 0x80 | (c & 0x3f) as u8]);
        } else if c < 0x10000 {
            out.extend([
                0xe0 | (c >> 12) as u8,
                0x80 | ((c >> 6) & 0x3f) as u8,
                0x80 | (c & 0x3f) as u8,
            ]);
        } else {
            out.extend([
                0xf0 | (c >> 18) as u8,
                0x80 | ((c >> 12) & 0x3f) as u8,
                0x80 | ((c >> 6) & 0x3f) as u8,
                0x80 | (c & 0x3f) as u8,
            ]);
        }
    }
    text_value(out)
}

fn concat_ws(sep: &[u8], args: &[Value]) -> Value {
    let mut out = Vec::new();
    let mut first = true;
    for a in args.iter().filter(|a| !a.is_null()) {
        if !first {
            out.extend_from_slice(sep);
        }
        a.append_text_bytes(&mut out);
        first = false;
    }
    text_value(out)
}

/// `text LIKE pattern [ESCAPE escape]` on values, without copying text:
/// 1, 0, or NULL if any operand is NULL; errors for a bad escape or an
/// over-long pattern, as SQLite. (NOT LIKE is the negation of a non-NULL
/// result.)
pub fn like_values(pattern: &Value, text: &Value, escape: Option<&Value>) -> Result<Value> {
    pattern_fn(pattern, text, escape, false)
}

/// `text GLOB pattern` on values: 1, 0, or NULL if either is NULL.
pub fn glob_values(pattern: &Value, text: &Value) -> Result<Value> {
    pattern_fn(pattern, text, None, true)
}

fn pattern_fn(pattern: &Value, text: &Value, escape: Option<&Value>, glob: bool) -> Result<Value> {
    let Some(pat) = pattern.text_bytes() else { return Ok(Value::Null) };
    if pat.len() > 50000 {
        return crate::errinput!("LIKE or GLOB pattern too complex");
    }
    let mut esc = 0;
    if let Some(e) = escape {
        let Some(e) = e.text_bytes() else { return Ok(Value::Null) };
        let e = c_str(&e);
        let mut i = 0;
        esc = utf8_read(e, &mut i);
        if e.is_empty() || i != e.len() {
            return crate::errinput!("ESCAPE expression must be a single character");
        }
    }
    let Some(txt) = text.text_bytes() else { return Ok(Value::Null) };
    let info = if glob { GLOB_INFO } else { LIKE_INFO };
    Ok(Value::Integer(i64::from(matches(&pat, &txt, info, esc))))
}

fn hex(b: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789ABCDEF";
    let mut s = String::with_capacity(b.len() * 2);
    for &c in b {
        s.push(char::from(DIGITS[usize::from(c >> 4)]));
        s.push(char::from(DIGITS[usize::from(c & 0xf)]));
    }
    s
}

fn hex_val(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        _ => c - b'A' + 10,
    }
}

fn unhex(v: &Value, pass: Option<&Value>) -> Value {
    let Some(z) = v.text_bytes() else { return Value::Null };
    let pass: Cow<'_, [u8]> = match pass {
        None => Cow::Borrowed(b""),
        Some(p) => match p.text_bytes() {
            None => return Value::Null,
            Some(p) => p,
        },
    };
    let z = c_str(&z);
    let pass_has = |ch: u32| {
        let mut i = 0;
        while i < pass.len() {
            if utf8_read(&pass, &mut i) == ch {
                return true;
            }
        }
        false
    };
    let mut out = Vec::with_capacity(z.len() / 2);
    let mut i = 0;
    while i < z.len() {
        let c = z[i];
        if !c.is_ascii_hexdigit() {
            let ch = utf8_read(z, &mut i);
            if !pass_has(ch) {
                return Value::Null;
            }
            continue;
        }
        let Some(&d) = z.get(i + 1) else { return Value::Null };
        if !d.is_ascii_hexdigit() {
            return Value::Null;
        }
        out.push((hex_val(c) << 4) | hex_val(d));
        i += 2;
    }
    Value::Blob(out)
}

/// `unistr(x)`: the escapes `\XXXX`, `\uXXXX`, `\+XXXXXX` and
/// `\UXXXXXXXX` become that code point (in UTF-8), a doubled backslash one
/// backslash; any other backslash is SQLite's "invalid Unicode escape"
/// error. Code points that are not valid UTF-8 read as U+FFFD (see the
/// `value` module docs).
fn unistr(v: &Value) -> Result<Value> {
    let Some(z) = v.text_bytes() else { return Ok(Value::Null) };
    let hex = |at: usize, n: usize| -> Option<u32> {
        let d = z.get(at..at + n)?;
        d.iter()
            .all(u8::is_ascii_hexdigit)
            .then(|| d.iter().fold(0u32, |v, &c| (v << 4) | u32::from(hex_val(c))))
    };
    let mut out = Vec::with_capacity(z.len());
    let mut i = 0;
    while i < z.len() {
        // SQLite looks for the next backslash only up to a NUL.
        let next = z[i..].iter().position(|&c| c == b'\\' || c == 0).filter(|&p| z[i + p] == b'\\');
        let Some(p) = next else {
            out.extend_from_slice(&z[i..]);
            break;
        };
        out.extend_from_slice(&z[i..i + p]);
        i += p;
        let (cp, len) = match z.get(i + 1) {
            Some(b'\\') => {
                out.push(b'\\');
                i += 2;
                continue;
            }
            Some(c) if c.is_ascii_hexdigit() => (hex(i + 1, 4), 5),
            Some(b'+') => (hex(i + 2, 6), 8),
            Some(b'u') => (hex(i + 2, 4), 6),
            Some(b'U') => (hex(i + 2, 8), 10),
            _ => (None, 0),
        };
        let Some(cp) = cp else { return crate::errinput!("invalid Unicode escape") };
        push_utf8(&mut out, cp);
        i += len;
    }
    Ok(text_value(out))
}

/// SQLite's `sqlite3AppendOneUtf8Character`: up to four bytes, whatever the
/// code point.
fn push_utf8(out: &mut Vec<u8>, v: u32) {
    if v < 0x80 {
        out.push(v as u8);
    } else if v < 0x800 {
        out.extend([0xc0 + ((v >> 6) & 0x1f) as u8, 0x80 + (v & 0x3f) as u8]);
    } else if v < 0x10000 {
        out.extend([
            0xe0 + ((v >> 12) & 0x0f) as u8,
            0x80 + ((v >> 6) & 0x3f) as u8,
            0x80 + (v & 0x3f) as u8,
        ]);
    } else {
        out.extend([
            0xf0 + ((v >> 18) & 0x07) as u8,
            0x80 + ((v >> 12) & 0x3f) as u8,
            0x80 + ((v >> 6) & 0x3f) as u8,
            0x80 + (v & 0x3f) as u8,
        ]);
    }
}

/// `iif(c1, v1, c2, v2, …, [else])`: CASE WHEN c1 THEN v1 … ELSE else END.
fn iif(args: &[Value]) -> Value {
    let mut pairs = args.chunks_exact(2);
    for pair in pairs.by_ref() {
        if pair[0].truthy() == Some(true) {
            return pair[1].clone();
        }
    }
    pairs.remainder().first().cloned().unwrap_or(Value::Null)
}

fn instr(hay: &Value, needle: &Value) -> Value {
    if hay.is_null() || needle.is_null() {
        return Value::Null;
    }
    let both_blob = matches!((hay, needle), (Value::Blob(_), Value::Blob(_)));
    let (Some(h), Some(nd)) = (hay.text_bytes(), needle.text_bytes()) else {
        return Value::Null;
    };
    if nd.is_empty() {
        return Value::Integer(1);
    }
    let is_text = !both_blob;
    let mut pos = 1i64;
    let mut i = 0;
    while nd.len() <= h.len() - i {
        if h[i..].starts_with(&nd) {
            return Value::Integer(pos);
        }
        pos += 1;
        i += 1;
        while is_text && i < h.len() && h[i] & 0xc0 == 0x80 {
            i += 1;
        }
    }
    Value::Integer(0)
}

fn length(v: &Value) -> Value {
    match v {
        Value::Null => Value::Null,
        Value::Text(s) => {
            // Characters up to the first NUL, as lengthFunc counts them.
            Value::Integer(char_count(c_str(s.as_bytes())) as i64)
        }
        other => Value::Integer(other.text_bytes().map_or(0, |b| b.len()) as i64),
    }
}

fn trim(v: &Value, set: Option<&Value>, left: bool, right: bool) -> Value {
    let Some(z) = v.text_bytes() else { return Value::Null };
    let chars: Vec<Vec<u8>> = match set {
        None => vec![b" ".to_vec()],
        Some(s) => match s.text_bytes() {
            None => return Value::Null,
            Some(s) => {
                let s = c_str(&s);
                let mut out = Vec::new();
                let mut i = 0;
                while i < s.len() {
                    let start = i;
                    skip_utf8(s, &mut i);
                    out.push(s[start..i].to_vec());
                }
                out
            }
        },
    };
    let mut b: &[u8] = &z;
    if !chars.is_empty() {
        if left {
            while let Some(c) = chars.iter().find(|c| b.starts_with(c)) {
                b = &b[c.len()..];
                if b.is_empty() {
                    break;
                }
            }
        }
        if right {
            while let Some(c) = chars.iter().find(|c| b.ends_with(c)) {
                b = &b[..b.len() - c.len()];
                if b.is_empty() {
                    break;
                }
            }
        }
    }
    text_value(b.to_vec())
}

/// Scalar min()/max(): NULL if any argument is NULL; ties keep SQLite's
/// choice (min takes the later of equal values, max the earlier).
fn min_max(args: &[Value], max: bool, coll: Collation) -> Value {
    min_max_index(args, max, coll).map_or(Value::Null, |i| args[i].clone())
}

/// Which argument scalar min()/max() returns (`None`: NULL).
pub(crate) fn min_max_index(args: &[Value], max: bool, coll: Collation) -> Option<usize> {
    if args.iter().any(Value::is_null) {
        return None;
    }
    let mut best = 0;
    for i in 1..args.len() {
        let c = compare_collated(&args[best], &args[i], coll);
        let take = if max { c.is_lt() } else { c.is_ge() };
        if take {
            best = i;
        }
    }
    Some(best)
}

/// `quote(x)`: an SQL literal for the value (reals round-trip exactly,
/// infinities are `9.0e+999`, text that is not UTF-8 is
/// `CAST(X'…' AS TEXT)`). Exports and dumps write values with it.
pub fn quote(v: &Value) -> String {
    match v {
        Value::Null => "NULL".into(),
        Value::Integer(i) => i.to_string(),
        Value::Real(r) => {
            let mut out = Vec::new();
            let spec = FloatSpec { zero_pad: true, ..FloatSpec::REAL_TO_TEXT };
            format_float(&mut out, *r, &spec);
            String::from_utf8_lossy(&out).into_owned()
        }
        Value::Blob(b) => format!("X'{}'", hex(b)),
        // Bytes that are not UTF-8 cannot be written in a string literal
        // (an SQL script is UTF-8): they round-trip as a cast blob.
        Value::Text(s) if s.to_str().is_none() => format!("CAST(X'{}' AS TEXT)", hex(s)),
        // UTF-8 here (the case above took the rest).
        Value::Text(s) => String::from_utf8_lossy(&quote_text(s)).into_owned(),
    }
}

/// `quote()` of a TEXT: in single quotes, quotes doubled, up to the first
/// NUL; bytes as they are.
fn quote_text(s: &[u8]) -> Vec<u8> {
    let s = c_str(s);
    let mut q = Vec::with_capacity(s.len() + 2);
    q.push(b'\'');
    for &b in s {
        q.push(b);
        if b == b'\'' {
            q.push(b'\'');
        }
    }
    q.push(b'\'');
    q
}

fn replace(s: &Value, pat: &Value, rep: &Value) -> Value {
    let Some(z) = s.text_bytes() else { return Value::Null };
    let Some(p) = pat.text_bytes() else { return Value::Null };
    if p.first().is_none_or(|&c| c == 0) {
        return text_value(z.into_owned());
    }
    let Some(r) = rep.text_bytes() else { return Value::Null };
    let mut out = Vec::with_capacity(z.len());
    let mut i = 0;
    while i + p.len() <= z.len() {
        if z[i..].starts_with(&p) {
            out.extend_from_slice(&r);
            i += p.len();
        } else {
            out.push(z[i]);
            i += 1;
        }
    }
    out.extend_from_slice(&z[i..]);
    text_value(out)
}

fn round(v: &Value, digits: Option<&Value>) -> Value {
    let mut n = 0;
    if let Some(d) = digits {
        if d.is_null() {
            return Value::Null;
        }
        n = d.to_i64().clamp(0, 30);
    }
    if v.is_null() {
        return Value::Null;
    }
    let mut r = v.to_f64();
    if !(-4503599627370496.0..=4503599627370496.0).contains(&r) {
        // No fractional part: nothing to round.
    } else if n == 0 {
        r = ((r + if r < 0.0 { -0.5 } else { 0.5 }) as i64) as f64;
    } else {
        let mut out = Vec::new();
        let spec = FloatSpec {
            style: FloatStyle::Fixed,
            precision: n,
            alt2: true,
            ..FloatSpec::REAL_TO_TEXT
        };
        format_float(&mut out, r, &spec);
        r = atof(&out).value;
    }
    Value::Real(r)
}

fn sign(v: &Value) -> Value {
    let x = match v {
        Value::Integer(i) => *i as f64,
        Value::Real(r) => *r,
        Value::Text(s) => match crate::value::parse_numeric_text(&s.to_str_lossy()) {
            Some(n) => n.to_f64(),
            None => return Value::Null,
        },
        _ => return Value::Null,
    };
    Value::Integer(if x < 0.0 {
        -1
    } else if x > 0.0 {
        1
    } else {
        0
    })
}

/// `soundex(x)` (SQLite's soundexFunc, built with SQLITE_SOUNDEX as the
/// SQLite we follow is): the first ASCII letter upper-cased, then the
/// codes of the letters after it, a run of one code once, to four
/// characters padded with `0`; `?000` without an ASCII letter (NULL too).
/// Bytes past 0x7F count as the ASCII code of their low seven bits, as
/// in SQLite.
fn soundex(z: &[u8]) -> String {
    // A..Z; the same for a..z.
    const CODE: &[u8; 26] = b"01230120022455012623010202";
    let code = |b: u8| {
        let c = (b & 0x7f).to_ascii_uppercase();
        if c.is_ascii_uppercase() { CODE[usize::from(c - b'A')] - b'0' } else { 0 }
    };
    let z = c_str(z);
    let Some(first) = z.iter().position(|b| b.is_ascii_alphabetic()) else {
        return "?000".into();
    };
    let mut out = vec![z[first].to_ascii_uppercase()];
    let mut prev = code(z[first]);
    for &b in &z[first..] {
        if out.len() == 4 {
            break;
        }
        match code(b) {
            0 => prev = 0,
            c if c != prev => {
                prev = c;
                out.push(b'0' + c);
            }
            _ => {}
        }
    }
    out.resize(4, b'0');
    String::from_utf8(out).unwrap_or_default()
}

fn substr(v: &Value, start: &Value, len: Option<&Value>) -> Value {
    let Some(z) = v.text_bytes() else { return Value::Null };
    let is_blob = matches!(v, Value::Blob(_));
    if is_blob && z.is_empty() {
        // sqlite3_value_blob() of an empty blob is a NULL pointer.
        return Value::Null;
    }
    let mut p1 = start.to_i64();
    let z: &[u8] = if is_blob { &z } else { c_str(&z) };
    let mut total = 0i64;
    if !is_blob && p1 < 0 {
        total = char_count(z) as i64;
    }
    if is_blob {
        total = z.len() as i64;
    }
    let mut p2 = match len {
        Some(l) => {
            if l.is_null() {
                return Value::Null;
            }
            l.to_i64()
        }
        None => i64::MAX,
    };
    if p1 == 0 && start.is_null() {
        return Value::Null;
    }
    if p1 < 0 {
        p1 = p1.saturating_add(total);
        if p1 < 0 {
            p2 = if p2 < 0 { 0 } else { p2.saturating_add(p1) };
            p1 = 0;
        }
    } else if p1 > 0 {
        p1 -= 1;
    } else if p2 > 0 {
        p2 -= 1;
    }
    if p2 < 0 {
        if p2 < -p1 {
            p2 = p1;
        } else {
            p2 = -p2;
        }
        p1 -= p2;
    }
    if is_blob {
        let len = z.len() as i64;
        if p1 >= len {
            return Value::Blob(Vec::new());
        }
        let p2 = p2.min(len - p1);
        return Value::Blob(z[p1 as usize..(p1 + p2) as usize].to_vec());
    }
    let mut i = 0usize;
    while p1 > 0 && i < z.len() {
        skip_utf8(z, &mut i);
        p1 -= 1;
    }
    let mut j = i;
    while p2 > 0 && j < z.len() {
        skip_utf8(z, &mut j);
        p2 -= 1;
    }
    text_value(z[i..j].to_vec())
}

/// A small per-thread PRNG for random()/randomblob() (not cryptographic,
/// like SQLite's). Seeded from std's per-process random hasher keys.
pub(crate) mod rng {
    use std::cell::Cell;
    use std::hash::{BuildHasher, Hasher};

    thread_local! {
        static STATE: Cell<u64> = Cell::new({
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_u64(std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64));
            h.finish() | 1
        });
    }

    /// xorshift64*.
    pub fn next() -> u64 {
        STATE.with(|s| {
            let mut x = s.get();
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            s.set(x);
            x.wrapping_mul(0x2545_F491_4F6C_DD1D)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::func::scalar;

    fn call(name: &str, args: &[Value]) -> Value {
        scalar(name, args).unwrap()
    }
    fn t(s: &str) -> Value {
        Value::Text(s.into())
    }
    fn i(x: i64) -> Value {
        Value::Integer(x)
    }

    #[test]
    fn errors() {
        assert_eq!(scalar("nosuch", &[]).unwrap_err().to_string(), "no such function: nosuch");
        assert_eq!(
            scalar("abs", &[]).unwrap_err().to_string(),
            "wrong number of arguments to function abs()"
        );
        assert_eq!(scalar("abs", &[i(i64::MIN)]).unwrap_err().to_string(), "integer overflow");
    }

    #[test]
    fn substr_edges() {
        assert_eq!(call("substr", &[t("hello"), i(2), i(3)]), t("ell"));
        assert_eq!(call("substr", &[t("hello"), i(0), i(2)]), t("h"));
        assert_eq!(call("substr", &[t("hello"), i(-3)]), t("llo"));
        assert_eq!(call("substr", &[t("hello"), i(3), i(-2)]), t("he"));
        assert_eq!(call("substr", &[t("héllo"), i(2), i(2)]), t("él"));
        assert_eq!(call("substr", &[Value::Blob(vec![1, 2, 3]), i(2)]), Value::Blob(vec![2, 3]));
    }

    #[test]
    fn misc() {
        assert_eq!(call("round", &[Value::Real(2.5)]), Value::Real(3.0));
        assert_eq!(call("round", &[Value::Real(-2.5)]), Value::Real(-3.0));
        assert_eq!(call("round", &[Value::Real(1.2345), i(2)]), Value::Real(1.23));
        assert_eq!(call("length", &[Value::Blob(vec![0xc3, 0xa9])]), i(2));
        assert_eq!(call("length", &[t("é")]), i(1));
        assert_eq!(call("hex", &[i(12)]), t("3132"));
        assert_eq!(call("quote", &[t("it's")]), t("'it''s'"));
        assert_eq!(call("quote", &[Value::Real(1.0)]), t("1.0"));
        assert!(call("max", &[i(1), Value::Null]).is_null());
        assert_eq!(call("trim", &[t("xxhixx"), t("x")]), t("hi"));
        assert_eq!(call("replace", &[t("aXbX"), t("X"), t("yy")]), t("ayybyy"));
        assert_eq!(call("instr", &[t("héllo"), t("l")]), i(3));
        assert_eq!(call("unhex", &[t("AB CD"), t(" ")]), Value::Blob(vec![0xab, 0xcd]));
        assert!(call("unhex", &[t("ABC")]).is_null());
        assert_eq!(call("iif", &[i(0), i(1), i(2)]), i(2));
        assert!(call("iif", &[i(0), i(1)]).is_null());
        assert_eq!(call("concat_ws", &[t(","), i(1), Value::Null, t("b")]), t("1,b"));
        assert_eq!(call("sign", &[t("-3")]), i(-1));
        assert!(call("sign", &[t("x")]).is_null());
        assert_eq!(call("like", &[t("A%"), t("abc")]), i(1));
        assert_eq!(call("char", &[i(72), i(105)]), t("Hi"));
        assert_eq!(call("unicode", &[t("é")]), i(233));
        let r = call("random", &[]);
        assert!(matches!(r, Value::Integer(x) if x != i64::MIN));
        assert!(matches!(call("randomblob", &[i(0)]), Value::Blob(b) if b.len() == 1));
    }
}
