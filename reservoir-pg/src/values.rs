//! PostgreSQL values (binary wire format) as AsaDB [`Value`]s, so result
//! pages and `/api/query` rows use the one JSON encoding both engines share
//! (`asadb_reservoir::row_json`).
//!
//! The mapping, in SQLite's terms (integers, reals, text, blobs):
//! - `int2`, `int4`, `int8`, `oid` → integer; `bool` → integer 1/0;
//! - `float4`, `float8` → real (NaN and infinities become `null` in JSON);
//! - `numeric` → integer when integral and within 64 bits, otherwise text
//!   with its exact digits (never a rounded real);
//! - `bytea` → blob;
//! - text-like types (`text`, `varchar`, `bpchar`, `name`, `char`,
//!   `unknown`, `json`, `jsonb`, `xml`, enums, `citext`) → text, and
//!   `void` (a function without a result) → empty text;
//! - `uuid`, `date`, `time`, `timestamp`, `timestamptz` (UTC), `interval`
//!   and arrays of any of these → text in PostgreSQL's own output format
//!   (ISO dates, `{…}` arrays);
//! - domains → their base type.
//!
//! Any other type is refused with a typed error naming the column's type
//! and the cast that works (`::text`): a value is never shown garbled.

use asadb_sql::Value;
use tokio_postgres::types::{FromSql, Kind, Type};

/// One column value, decoded by its type.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell(pub Value);

type BoxError = Box<dyn std::error::Error + Sync + Send>;

impl<'a> FromSql<'a> for Cell {
    fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<Self, BoxError> {
        decode(ty, raw).map(Cell)
    }

    fn from_sql_null(_: &Type) -> Result<Self, BoxError> {
        Ok(Cell(Value::Null))
    }

    fn accepts(_: &Type) -> bool {
        true
    }
}

/// The error for a type without a decoder.
#[derive(Debug)]
pub struct Unrenderable(pub String);

impl std::fmt::Display for Unrenderable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "values of type {} cannot be shown; cast the column to text (column::text)",
            self.0
        )
    }
}

impl std::error::Error for Unrenderable {}

fn be<const N: usize>(raw: &[u8]) -> Result<[u8; N], BoxError> {
    raw.get(..N)
        .and_then(|b| b.try_into().ok())
        .ok_or_else(|| format!("a {N}-byte value has {} bytes", raw.len()).into())
}

/// Decodes one non-NULL value of type `ty`.
pub fn decode(ty: &Type, raw: &[u8]) -> Result<Value, BoxError> {
    if let Kind::Domain(base) = ty.kind() {
        return decode(base, raw);
    }
    if let Some(v) = scalar(ty, raw) {
        return v;
    }
    match text(ty, raw)? {
        Some(t) => Ok(Value::Text(t.into())),
        None => Err(Box::new(Unrenderable(ty.name().to_string()))),
    }
}

/// The types that are not shown as text.
fn scalar(ty: &Type, raw: &[u8]) -> Option<Result<Value, BoxError>> {
    let v = || -> Result<Value, BoxError> {
        Ok(match *ty {
            Type::BOOL => Value::Integer(i64::from(raw.first().copied().unwrap_or(0) != 0)),
            Type::INT2 => Value::Integer(i16::from_be_bytes(be(raw)?).into()),
            Type::INT4 => Value::Integer(i32::from_be_bytes(be(raw)?).into()),
            Type::INT8 => Value::Integer(i64::from_be_bytes(be(raw)?)),
            Type::OID => Value::Integer(u32::from_be_bytes(be(raw)?).into()),
            Type::FLOAT4 => Value::Real(f32::from_be_bytes(be(raw)?).into()),
            Type::FLOAT8 => Value::Real(f64::from_be_bytes(be(raw)?)),
            Type::NUMERIC => numeric(raw)?,
            Type::BYTEA => Value::Blob(raw.to_vec()),
            _ => unreachable!("filtered below"),
        })
    };
    matches!(
        *ty,
        Type::BOOL
            | Type::INT2
            | Type::INT4
            | Type::INT8
            | Type::OID
            | Type::FLOAT4
            | Type::FLOAT8
            | Type::NUMERIC
            | Type::BYTEA
    )
    .then(v)
}

/// The value in PostgreSQL's text output, for the types shown as text
/// (and array elements); `None` for a type without a decoder.
fn text(ty: &Type, raw: &[u8]) -> Result<Option<String>, BoxError> {
    if let Kind::Domain(base) = ty.kind() {
        return text(base, raw);
    }
    if let Kind::Array(elem) = ty.kind() {
        return array(elem, raw).map(Some);
    }
    let utf8 = || String::from_utf8(raw.to_vec());
    Ok(Some(match *ty {
        Type::TEXT
        | Type::VARCHAR
        | Type::BPCHAR
        | Type::NAME
        | Type::UNKNOWN
        | Type::JSON
        | Type::XML => utf8()?,
        Type::JSONB => String::from_utf8(raw.get(1..).unwrap_or_default().to_vec())?,
        Type::CHAR => (raw.first().copied().unwrap_or(0) as char).to_string(),
        // `SELECT pg_sleep(1)`: PostgreSQL prints void as nothing.
        Type::VOID => String::new(),
        _ if matches!(ty.kind(), Kind::Enum(_)) => utf8()?,
        _ if ty.name() == "citext" => utf8()?,
        Type::UUID => uuid(raw)?,
        Type::DATE => date(i32::from_be_bytes(be(raw)?)),
        Type::TIME => time_of_day(i64::from_be_bytes(be(raw)?)),
        Type::TIMESTAMP => timestamp(i64::from_be_bytes(be(raw)?), ""),
        Type::TIMESTAMPTZ => timestamp(i64::from_be_bytes(be(raw)?), "+00"),
        Type::INTERVAL => interval(raw)?,
        _ => match scalar(ty, raw) {
            // Array elements of the scalar types, in PostgreSQL's text.
            Some(v) => match v? {
                Value::Integer(i) if *ty == Type::BOOL => (if i == 1 { "t" } else { "f" }).into(),
                Value::Integer(i) => i.to_string(),
                Value::Real(f) => pg_float(f),
                Value::Text(t) => t.into_string_lossy(),
                Value::Blob(b) => format!("\\x{}", asadb_reservoir::hex(&b)),
                Value::Null => "NULL".into(),
            },
            None => return Ok(None),
        },
    }))
}

fn pg_float(f: f64) -> String {
    if f.is_nan() {
        "NaN".into()
    } else if f.is_infinite() {
        if f > 0.0 { "Infinity".into() } else { "-Infinity".into() }
    } else {
        format!("{f}")
    }
}

/// `numeric`'s binary form: ndigits, weight, sign, dscale (i16/u16 each),
/// then base-10000 digits.
fn numeric(raw: &[u8]) -> Result<Value, BoxError> {
    let word = |i: usize| -> Result<u16, BoxError> {
        Ok(u16::from_be_bytes(be(&raw[i.min(raw.len())..])?))
    };
    let ndigits = word(0)? as usize;
    let weight = word(2)? as i16 as i32;
    let sign = word(4)?;
    let dscale = word(6)? as usize;
    match sign {
        0xC000 => return Ok(Value::Text("NaN".into())),
        0xD000 => return Ok(Value::Text("Infinity".into())),
        0xF000 => return Ok(Value::Text("-Infinity".into())),
        0x0000 | 0x4000 => {}
        _ => return Err(format!("bad numeric sign {sign:#x}").into()),
    }
    let digits: Vec<u16> = (0..ndigits).map(|i| word(8 + 2 * i)).collect::<Result<_, _>>()?;
    // Integer part: digit groups at weights weight..=0.
    let mut int = String::new();
    for w in (0..=weight.max(-1)).rev() {
        let idx = (weight - w) as usize;
        let d = digits.get(idx).copied().unwrap_or(0);
        if int.is_empty() {
            if d != 0 || w == 0 {
                int = d.to_string();
            }
        } else {
            int.push_str(&format!("{d:04}"));
        }
    }
    if int.is_empty() {
        int.push('0');
    }
    let mut frac = String::new();
    let mut w = -1;
    while frac.len() < dscale {
        let idx = weight - w;
        let d = if idx >= 0 { digits.get(idx as usize).copied().unwrap_or(0) } else { 0 };
        frac.push_str(&format!("{d:04}"));
        w -= 1;
    }
    frac.truncate(dscale);
    let negative = sign == 0x4000;
    if frac.is_empty()
        && let Ok(n) = format!("{}{int}", if negative { "-" } else { "" }).parse::<i64>()
    {
        return Ok(Value::Integer(n));
    }
    let mut s = String::new();
    if negative {
        s.push('-');
    }
    s.push_str(&int);
    if !frac.is_empty() {
        s.push('.');
        s.push_str(&frac);
    }
    Ok(Value::Text(s.into()))
}

fn uuid(raw: &[u8]) -> Result<String, BoxError> {
    let b: [u8; 16] = be(raw)?;
    let h = asadb_reservoir::hex(&b);
    Ok(format!("{}-{}-{}-{}-{}", &h[0..8], &h[8..12], &h[12..16], &h[16..20], &h[20..32]))
}

/// Civil date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// Days from 1970-01-01 to PostgreSQL's epoch, 2000-01-01.
const PG_EPOCH_DAYS: i64 = 10_957;

fn ymd(days_since_2000: i64) -> String {
    let (y, m, d) = civil(days_since_2000 + PG_EPOCH_DAYS);
    if y <= 0 { format!("{:04}-{m:02}-{d:02} BC", 1 - y) } else { format!("{y:04}-{m:02}-{d:02}") }
}

fn date(days: i32) -> String {
    match days {
        i32::MAX => "infinity".into(),
        i32::MIN => "-infinity".into(),
        d => ymd(d.into()),
    }
}

fn time_of_day(micros: i64) -> String {
    let (secs, us) = (micros.div_euclid(1_000_000), micros.rem_euclid(1_000_000));
    let mut s = format!("{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60);
    if us != 0 {
        let f = format!("{us:06}");
        s.push('.');
        s.push_str(f.trim_end_matches('0'));
    }
    s
}

fn timestamp(micros: i64, zone: &str) -> String {
    match micros {
        i64::MAX => "infinity".into(),
        i64::MIN => "-infinity".into(),
        m => {
            let day = 86_400_000_000i64;
            let (days, rest) = (m.div_euclid(day), m.rem_euclid(day));
            let date = ymd(days);
            match date.strip_suffix(" BC") {
                Some(d) => format!("{d} {}{zone} BC", time_of_day(rest)),
                None => format!("{date} {}{zone}", time_of_day(rest)),
            }
        }
    }
}

/// `interval`: microseconds (i64), days (i32), months (i32), printed in
/// PostgreSQL's default (`postgres`) style.
fn interval(raw: &[u8]) -> Result<String, BoxError> {
    let micros = i64::from_be_bytes(be(raw)?);
    let days = i32::from_be_bytes(be(&raw[8.min(raw.len())..])?);
    let months = i32::from_be_bytes(be(&raw[12.min(raw.len())..])?);
    let mut parts = Vec::new();
    let plural =
        |n: i64, one: &str, many: &str| format!("{n} {}", if n.abs() == 1 { one } else { many });
    let (years, months) = (months / 12, months % 12);
    if years != 0 {
        parts.push(plural(years.into(), "year", "years"));
    }
    if months != 0 {
        parts.push(plural(months.into(), "mon", "mons"));
    }
    if days != 0 {
        parts.push(plural(days.into(), "day", "days"));
    }
    if micros != 0 || parts.is_empty() {
        let sign = if micros < 0 { "-" } else { "" };
        parts.push(format!("{sign}{}", time_of_day(micros.abs())));
    }
    Ok(parts.join(" "))
}

/// A binary array as PostgreSQL's text form: `{1,2,NULL}`, nested braces
/// per dimension, elements quoted when they need it.
fn array(elem: &Type, raw: &[u8]) -> Result<String, BoxError> {
    let int = |i: usize| -> Result<i32, BoxError> {
        Ok(i32::from_be_bytes(be(&raw[i.min(raw.len())..])?))
    };
    let ndim = int(0)? as usize;
    if ndim == 0 {
        return Ok("{}".into());
    }
    let mut dims = Vec::with_capacity(ndim);
    for d in 0..ndim {
        dims.push(int(12 + 8 * d)?.max(0) as usize);
    }
    let mut pos = 12 + 8 * ndim;
    let total: usize = dims.iter().product();
    let mut items = Vec::with_capacity(total);
    for _ in 0..total {
        let len = int(pos)?;
        pos += 4;
        if len < 0 {
            items.push("NULL".to_string());
            continue;
        }
        let end = pos + len as usize;
        let bytes = raw.get(pos..end).ok_or("array element out of range")?;
        pos = end;
        let t = text(elem, bytes)?.ok_or_else(|| Unrenderable(format!("{}[]", elem.name())))?;
        let needs_quotes = t.is_empty()
            || t.eq_ignore_ascii_case("null")
            || t.bytes().any(|b| b"{},\"\\ \t\n".contains(&b));
        items.push(if needs_quotes {
            format!("\"{}\"", t.replace('\\', "\\\\").replace('"', "\\\""))
        } else {
            t
        });
    }
    fn nest(dims: &[usize], items: &mut std::vec::IntoIter<String>) -> String {
        let mut s = String::from("{");
        for i in 0..dims[0] {
            if i > 0 {
                s.push(',');
            }
            if dims.len() == 1 {
                s.push_str(&items.next().unwrap_or_default());
            } else {
                s.push_str(&nest(&dims[1..], items));
            }
        }
        s.push('}');
        s
    }
    Ok(nest(&dims, &mut items.into_iter()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(ndigits: u16, weight: i16, sign: u16, dscale: u16, digits: &[u16]) -> Vec<u8> {
        let mut v = Vec::new();
        for w in [ndigits, weight as u16, sign, dscale] {
            v.extend_from_slice(&w.to_be_bytes());
        }
        for d in digits {
            v.extend_from_slice(&d.to_be_bytes());
        }
        v
    }

    #[test]
    fn numerics_keep_their_digits() {
        assert_eq!(numeric(&num(1, 0, 0, 0, &[42])).unwrap(), Value::Integer(42));
        assert_eq!(numeric(&num(2, 1, 0x4000, 0, &[12, 3456])).unwrap(), Value::Integer(-123456));
        assert_eq!(numeric(&num(2, 0, 0, 2, &[1, 5000])).unwrap(), Value::Text("1.50".into()));
        assert_eq!(numeric(&num(1, -1, 0, 4, &[50])).unwrap(), Value::Text("0.0050".into()));
        assert_eq!(numeric(&num(0, 0, 0, 0, &[])).unwrap(), Value::Integer(0));
        assert_eq!(
            numeric(&num(5, 4, 0, 0, &[9, 2233, 7203, 6854, 7758])).unwrap(),
            Value::Integer(92_233_720_368_547_758)
        );
        assert_eq!(
            numeric(&num(6, 5, 0, 0, &[1, 0, 0, 0, 0, 0])).unwrap(),
            Value::Text("100000000000000000000".into()),
            "past 64 bits: exact text"
        );
        assert_eq!(numeric(&num(0, 0, 0xC000, 0, &[])).unwrap(), Value::Text("NaN".into()));
    }

    #[test]
    fn dates_and_times_print_as_postgresql_does() {
        assert_eq!(date(0), "2000-01-01");
        assert_eq!(date(-1), "1999-12-31");
        assert_eq!(date(366 + 58), "2001-02-28");
        assert_eq!(date(-730_119), "0001-01-01");
        assert_eq!(date(-730_485), "0001-01-01 BC");
        assert_eq!(time_of_day(3_723_000_001), "01:02:03.000001");
        assert_eq!(timestamp(86_400_000_000 + 1_500_000, "+00"), "2000-01-02 00:00:01.5+00");
        let mut iv = Vec::new();
        iv.extend_from_slice(&(4 * 3_600_000_000i64 + 5_000_000).to_be_bytes());
        iv.extend_from_slice(&3i32.to_be_bytes());
        iv.extend_from_slice(&14i32.to_be_bytes());
        assert_eq!(interval(&iv).unwrap(), "1 year 2 mons 3 days 04:00:05");
    }

    #[test]
    fn arrays_print_with_braces_and_quotes() {
        let mut raw = Vec::new();
        for n in [1i32, 0, 25] {
            raw.extend_from_slice(&n.to_be_bytes());
        }
        raw.extend_from_slice(&3i32.to_be_bytes());
        raw.extend_from_slice(&1i32.to_be_bytes());
        for item in [Some("a"), None, Some("b c")] {
            match item {
                Some(s) => {
                    raw.extend_from_slice(&(s.len() as i32).to_be_bytes());
                    raw.extend_from_slice(s.as_bytes());
                }
                None => raw.extend_from_slice(&(-1i32).to_be_bytes()),
            }
        }
        assert_eq!(array(&Type::TEXT, &raw).unwrap(), "{a,NULL,\"b c\"}");
    }
}
