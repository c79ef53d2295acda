//! The `printf()`/`format()` SQL function, ported from SQLite's
//! `sqlite3_str_vappendf` in its SQL-function mode: arguments are SQL
//! values converted per conversion (`%d` takes the integer value, `%f` the
//! double, `%s` the text; missing arguments read as 0 / empty / NULL).
//!
//! Supported: flags `- + space # ! 0 ,`, width and precision (also `*`),
//! `l`/`ll` (ignored), conversions `d i u x X o r c s z q Q w f e E g G j J
//! n p %`. An unknown conversion ends the output, as in SQLite.

use crate::value::{FloatSpec, FloatStyle, Value, format_float};
use crate::{Error, Result};

/// Longest string or blob the functions build: SQLite's default
/// `SQLITE_MAX_LENGTH` (1e9) unless lowered with [`set_max_length`].
static MAX_LENGTH: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(1_000_000_000);

/// The longest string or blob a function may build.
pub(crate) fn max_length() -> usize {
    MAX_LENGTH.load(std::sync::atomic::Ordering::Relaxed)
}

/// Sets, for the whole process, the longest string or blob the built-in
/// functions build (`zeroblob`, `randomblob`, `printf`, `group_concat`):
/// longer results fail with [`Error::TooLarge`] before anything is
/// allocated. SQLite's `sqlite3_limit(db, SQLITE_LIMIT_LENGTH, n)`; a server
/// lowers the embedded default of 1e9 bytes to what it can hold.
pub fn set_max_length(bytes: usize) {
    MAX_LENGTH.store(bytes.clamp(1, 1_000_000_000), std::sync::atomic::Ordering::Relaxed);
}

fn too_big() -> Error {
    Error::TooLarge("string or blob too big".into())
}

struct Args<'a> {
    args: &'a [Value],
    used: usize,
}

impl Args<'_> {
    fn next(&mut self) -> Option<&Value> {
        let v = self.args.get(self.used);
        if v.is_some() {
            self.used += 1;
        }
        v
    }
    fn int(&mut self) -> i64 {
        self.next().map_or(0, Value::to_i64)
    }
    fn double(&mut self) -> f64 {
        self.next().map_or(0.0, Value::to_f64)
    }
    /// The text of the next argument; `None` for NULL or a missing one.
    fn text(&mut self) -> Option<Vec<u8>> {
        let v = self.next()?;
        let mut out = Vec::new();
        if v.is_null() {
            return None;
        }
        v.append_text_bytes(&mut out);
        // C strings end at the first NUL.
        if let Some(p) = out.iter().position(|&c| c == 0) {
            out.truncate(p);
        }
        Some(out)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Conv {
    Decimal { signed: bool },
    Radix { base: u8, upper: bool, prefix: &'static [u8] },
    Ordinal,
    Pointer,
    Float(FloatStyle, bool),
    Size,
    Percent,
    Char,
    Str,
    EscapeQ(u8),
    Json { quoted: bool },
}

fn conversion(c: u8) -> Option<Conv> {
    Some(match c {
        b'd' | b'i' => Conv::Decimal { signed: true },
        b'u' => Conv::Decimal { signed: false },
        b'x' => Conv::Radix { base: 16, upper: false, prefix: b"0x" },
        b'X' => Conv::Radix { base: 16, upper: true, prefix: b"0X" },
        b'o' => Conv::Radix { base: 8, upper: false, prefix: b"0" },
        b'r' => Conv::Ordinal,
        b'p' => Conv::Pointer,
        b'f' => Conv::Float(FloatStyle::Fixed, false),
        b'e' => Conv::Float(FloatStyle::Exp, false),
        b'E' => Conv::Float(FloatStyle::Exp, true),
        b'g' => Conv::Float(FloatStyle::General, false),
        b'G' => Conv::Float(FloatStyle::General, true),
        b'n' => Conv::Size,
        b'%' => Conv::Percent,
        b'c' => Conv::Char,
        b's' | b'z' => Conv::Str,
        b'q' => Conv::EscapeQ(b'q'),
        b'Q' => Conv::EscapeQ(b'Q'),
        b'w' => Conv::EscapeQ(b'w'),
        b'j' => Conv::Json { quoted: false },
        b'J' => Conv::Json { quoted: true },
        _ => return None,
    })
}

/// Appends `n` copies of `c`, refusing absurd sizes.
fn fill(out: &mut Vec<u8>, n: i64, c: u8) -> Result<()> {
    if n <= 0 {
        return Ok(());
    }
    if out.len() + n as usize > max_length() {
        return Err(too_big());
    }
    out.resize(out.len() + n as usize, c);
    Ok(())
}

/// Appends `field` padded to `width` (bytes), left- or right-justified.
fn emit(out: &mut Vec<u8>, field: &[u8], width: i64, left: bool) -> Result<()> {
    let pad = width - field.len() as i64;
    if pad > 0 && !left {
        fill(out, pad, b' ')?;
    }
    out.extend_from_slice(field);
    if pad > 0 && left {
        fill(out, pad, b' ')?;
    }
    Ok(())
}

/// Width adjustment for `!`: widths count characters, not bytes.
fn utf8_width_adjust(field: &[u8], width: i64) -> i64 {
    width + field.iter().filter(|&&b| b & 0xc0 == 0x80).count() as i64
}

/// Formats `args` per the format string `fmt` (SQLite's printf()).
pub(crate) fn format(fmt: &[u8], args: &[Value]) -> Result<Vec<u8>> {
    let fmt = match fmt.iter().position(|&c| c == 0) {
        Some(p) => &fmt[..p],
        None => fmt,
    };
    let at = |i: usize| fmt.get(i).copied().unwrap_or(0);
    let mut args = Args { args, used: 0 };
    let mut out: Vec<u8> = Vec::new();
    let mut i = 0;
    while i < fmt.len() {
        if fmt[i] != b'%' {
            let end = fmt[i..].iter().position(|&c| c == b'%').map_or(fmt.len(), |p| i + p);
            out.extend_from_slice(&fmt[i..end]);
            i = end;
            if i >= fmt.len() {
                break;
            }
        }
        i += 1;
        let mut c = at(i);
        if c == 0 {
            out.push(b'%');
            break;
        }
        let mut left = false;
        let mut prefix = 0u8;
        let mut alternate = false;
        let mut alt2 = false;
        let mut zero_pad = false;
        let mut thousands = false;
        let mut width: i64 = 0;
        let mut precision: i64 = -1;
        loop {
            let mut done = false;
            match c {
                b'-' => left = true,
                b'+' => prefix = b'+',
                b' ' => prefix = b' ',
                b'#' => alternate = true,
                b'!' => alt2 = true,
                b'0' => zero_pad = true,
                b',' => thousands = true,
                b'l' => {
                    i += 1;
                    c = at(i);
                    if c == b'l' {
                        i += 1;
                        c = at(i);
                    }
                    done = true;
                }
                b'1'..=b'9' => {
                    let mut wx = u32::from(c - b'0');
                    loop {
                        i += 1;
                        c = at(i);
                        if !c.is_ascii_digit() {
                            break;
                        }
                        wx = wx.wrapping_mul(10).wrapping_add(u32::from(c - b'0'));
                    }
                    width = i64::from(wx & 0x7fff_ffff);
                    if c != b'.' && c != b'l' {
                        done = true;
                    } else {
                        i -= 1;
                    }
                }
                b'*' => {
                    width = i64::from(args.int() as i32);
                    if width < 0 {
                        left = true;
                        width = if width >= -2147483647 { -width } else { 0 };
                    }
                    let next = at(i + 1);
                    if next != b'.' && next != b'l' {
                        i += 1;
                        c = at(i);
                        done = true;
                    }
                }
                b'.' => {
                    i += 1;
                    c = at(i);
                    if c == b'*' {
                        precision = i64::from(args.int() as i32);
                        if precision < 0 {
                            precision = if precision >= -2147483647 { -precision } else { -1 };
                        }
                        i += 1;
                        c = at(i);
                    } else {
                        let mut px: u32 = 0;
                        while c.is_ascii_digit() {
                            px = px.wrapping_mul(10).wrapping_add(u32::from(c - b'0'));
                            i += 1;
                            c = at(i);
                        }
                        precision = i64::from(px & 0x7fff_ffff);
                    }
                    if c == b'l' {
                        i -= 1;
                    } else {
                        done = true;
                    }
                }
                _ => done = true,
            }
            if done {
                break;
            }
            i += 1;
            c = at(i);
            if c == 0 {
                break;
            }
        }
        // `i` is at the conversion character `c`.
        let Some(conv) = conversion(c) else { return Ok(out) };
        if width as usize > max_length() || precision.max(0) as usize > max_length() {
            return Err(too_big());
        }
        match conv {
            Conv::Decimal { .. } | Conv::Radix { .. } | Conv::Ordinal | Conv::Pointer => {
                let (base, upper, alt_prefix, signed) = match conv {
                    Conv::Decimal { signed } => (10u64, false, &b""[..], signed),
                    Conv::Ordinal => (10, false, &b""[..], true),
                    Conv::Radix { base, upper, prefix } => (u64::from(base), upper, prefix, false),
                    // %p: upper-case hex, "0x" with '#'.
                    _ => (16, true, &b"0x"[..], false),
                };
                if !matches!(conv, Conv::Decimal { .. }) {
                    thousands = false;
                }
                let v = args.int();
                let (mut value, sign) = if signed && v < 0 {
                    (v.unsigned_abs(), b'-')
                } else if signed {
                    (v as u64, prefix)
                } else {
                    (v as u64, 0)
                };
                if value == 0 {
                    alternate = false;
                }
                if zero_pad && precision < width - i64::from(sign != 0) {
                    precision = width - i64::from(sign != 0);
                }
                let mut digits: Vec<u8> = Vec::new();
                if conv == Conv::Ordinal {
                    let mut x = (value % 10) as usize;
                    if x >= 4 || (value / 10) % 10 == 1 {
                        x = 0;
                    }
                    let ord = b"thstndrd";
                    digits.push(ord[x * 2 + 1]);
                    digits.push(ord[x * 2]);
                }
                let charset: &[u8] = if upper { b"0123456789ABCDEF" } else { b"0123456789abcdef" };
                loop {
                    digits.push(charset[(value % base) as usize]);
                    value /= base;
                    if value == 0 {
                        break;
                    }
                }
                // `digits` is reversed; the ordinal suffix counts as length.
                let mut length = digits.len() as i64;
                if precision > length {
                    fill(&mut digits, precision - length, b'0')?;
                    length = precision;
                }
                let mut field: Vec<u8> = Vec::with_capacity(digits.len() + 4);
                if thousands {
                    // Insert commas every three digits from the right.
                    let mut with: Vec<u8> = Vec::with_capacity(digits.len() * 4 / 3 + 1);
                    for (k, &d) in digits.iter().enumerate() {
                        if k > 0 && k % 3 == 0 {
                            with.push(b',');
                        }
                        with.push(d);
                    }
                    digits = with;
                    let _ = length;
                }
                if alternate {
                    field.extend_from_slice(alt_prefix);
                }
                if sign != 0 {
                    field.insert(0, sign);
                }
                field.extend(digits.iter().rev());
                emit(&mut out, &field, width, left)?;
            }
            Conv::Float(style, upper) => {
                let r = args.double();
                let spec = FloatSpec {
                    style,
                    precision,
                    width,
                    left_justify: left,
                    prefix,
                    alternate,
                    alt2,
                    zero_pad,
                    thousands,
                    upper,
                };
                if precision > 0 && out.len() + precision as usize > max_length() {
                    return Err(too_big());
                }
                format_float(&mut out, r, &spec);
            }
            Conv::Size => {}
            Conv::Percent => emit(&mut out, b"%", width, left)?,
            Conv::Char => {
                let mut ch: Vec<u8> = Vec::with_capacity(4);
                match args.text() {
                    Some(t) => {
                        if let Some(&lead) = t.first() {
                            ch.push(lead);
                            if lead & 0xc0 == 0xc0 {
                                ch.extend(t[1..].iter().take(3).take_while(|&&b| b & 0xc0 == 0x80));
                            }
                        } else {
                            ch.push(0);
                        }
                    }
                    None => ch.push(0),
                }
                if precision > 1 {
                    width -= precision - 1;
                    if width > 1 && !left {
                        fill(&mut out, width - 1, b' ')?;
                        width = 0;
                    }
                    if ch.len() * precision as usize > max_length() {
                        return Err(too_big());
                    }
                    for _ in 1..precision {
                        out.extend_from_slice(&ch);
                    }
                }
                let w = utf8_width_adjust(&ch, width);
                emit(&mut out, &ch, w, left)?;
            }
            Conv::Str => {
                let text = args.text().unwrap_or_default();
                let field: &[u8] = if precision >= 0 {
                    if alt2 {
                        let mut k = 0;
                        let mut n = precision;
                        while n > 0 && k < text.len() {
                            k = skip_utf8(&text, k);
                            n -= 1;
                        }
                        &text[..k]
                    } else {
                        &text[..(precision as usize).min(text.len())]
                    }
                } else {
                    &text
                };
                let w = if alt2 { utf8_width_adjust(field, width) } else { width };
                emit(&mut out, field, w, left)?;
            }
            Conv::EscapeQ(kind) => {
                let arg = args.text();
                let q = if kind == b'w' { b'"' } else { b'\'' };
                if kind == b'w' {
                    alternate = false;
                }
                let (escarg, mut need_quote): (Vec<u8>, u8) = match arg {
                    None => ((if kind == b'Q' { &b"NULL"[..] } else { b"(NULL)" }).to_vec(), 0),
                    Some(t) => (t, u8::from(kind == b'Q')),
                };
                // Precision counts bytes (characters with `!`) of the input.
                let mut k = precision;
                let mut n_in = 0usize;
                while k != 0 && n_in < escarg.len() {
                    n_in = if alt2 { skip_utf8(&escarg, n_in) } else { n_in + 1 };
                    k -= 1;
                }
                let src = &escarg[..n_in];
                if alternate {
                    let n_ctrl = src.iter().filter(|&&b| b <= 0x1f).count();
                    if n_ctrl > 0 || kind == b'q' {
                        if kind == b'Q' {
                            need_quote = 2;
                        }
                    } else {
                        alternate = false;
                    }
                }
                let mut field: Vec<u8> = Vec::with_capacity(src.len() + 3);
                if need_quote == 2 {
                    field.extend_from_slice(b"unistr('");
                } else if need_quote == 1 {
                    field.push(b'\'');
                }
                for &ch in src {
                    if alternate && ch == b'\\' {
                        field.extend_from_slice(b"\\\\");
                    } else if alternate && ch <= 0x1f {
                        field.extend_from_slice(b"\\u00");
                        field.push(if ch >= 0x10 { b'1' } else { b'0' });
                        field.push(b"0123456789abcdef"[usize::from(ch & 0xf)]);
                    } else {
                        field.push(ch);
                        if ch == q {
                            field.push(ch);
                        }
                    }
                }
                if need_quote != 0 {
                    field.push(b'\'');
                    if need_quote == 2 {
                        field.push(b')');
                    }
                }
                let w = if alt2 { utf8_width_adjust(&field, width) } else { width };
                emit(&mut out, &field, w, left)?;
            }
            Conv::Json { quoted } => {
                let start = out.len();
                match args.text() {
                    None => {
                        if quoted {
                            out.extend_from_slice(b"null");
                        }
                    }
                    Some(t) => {
                        let mut px = if precision < 0 { usize::MAX } else { precision as usize };
                        if precision >= 0 && alt2 {
                            // Precision counts code points: widen to bytes.
                            let mut k = 0;
                            while k < px && k < t.len() {
                                if t[k] & 0xc0 == 0x80 {
                                    px += 1;
                                }
                                k += 1;
                            }
                            if k == px {
                                while px < t.len() && t[px] & 0xc0 == 0x80 {
                                    px += 1;
                                }
                            }
                        }
                        let src = &t[..px.min(t.len())];
                        if quoted {
                            out.push(b'"');
                        }
                        for &ch in src {
                            if ch <= 0x1f || ch == b'"' || ch == b'\\' {
                                out.push(b'\\');
                                if ch > 0x1f {
                                    out.push(ch);
                                } else if (1u32 << ch) & 0x3700 != 0 {
                                    out.push(b"btn?fr"[usize::from(ch - 8)]);
                                } else {
                                    out.extend_from_slice(b"u00");
                                    out.push(b"0123456789abcdef"[usize::from(ch >> 4)]);
                                    out.push(b"0123456789abcdef"[usize::from(ch & 0xf)]);
                                }
                            } else {
                                out.push(ch);
                            }
                        }
                        if quoted {
                            out.push(b'"');
                        }
                    }
                }
                if width > 0 {
                    let n = out.len() - start;
                    let mut len = n as i64;
                    if alt2 && n > 0 {
                        len -= out[start..].iter().filter(|&&b| b & 0xc0 == 0x80).count() as i64;
                    }
                    if width > len {
                        let sp = (width - len) as usize;
                        if left || n == 0 {
                            fill(&mut out, sp as i64, b' ')?;
                        } else {
                            out.splice(start..start, std::iter::repeat_n(b' ', sp));
                        }
                    }
                }
            }
        }
        if out.len() > max_length() {
            return Err(too_big());
        }
        i += 1;
    }
    Ok(out)
}

/// The index after the character starting at `i`, as SQLite's
/// `SQLITE_SKIP_UTF8`: one byte, and after a lead byte (0xC0 and up) the
/// continuation bytes that follow it — a stray continuation byte is a
/// character of its own.
fn skip_utf8(s: &[u8], mut i: usize) -> usize {
    super::pattern::skip_utf8(s, &mut i);
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(fmt: &str, args: &[Value]) -> String {
        String::from_utf8(format(fmt.as_bytes(), args).unwrap()).unwrap()
    }

    #[test]
    fn common_conversions() {
        let i = Value::Integer;
        let r = Value::Real;
        let t = |s: &str| Value::Text(s.into());
        assert_eq!(f("%d|%5d|%-5d|%05d", &[i(42), i(42), i(42), i(-42)]), "42|   42|42   |-0042");
        assert_eq!(f("%x %X %#x %o", &[i(255), i(255), i(255), i(8)]), "ff FF 0xff 10");
        assert_eq!(
            f("%.2f %f %e", &[r(1.23456), r(1.5), r(12345.678)]),
            "1.23 1.500000 1.234568e+04"
        );
        assert_eq!(f("%s-%5s-%.2s", &[t("ab"), t("x"), t("xyz")]), "ab-    x-xy");
        assert_eq!(f("%q %Q %Q", &[t("it's"), t("a'b"), Value::Null]), "it''s 'a''b' NULL");
        assert_eq!(f("100%% %,d", &[i(1234567)]), "100% 1,234,567");
        assert_eq!(f("%d %s", &[]), "0 ");
        assert_eq!(f("%g %g", &[r(100000.0), r(1e-5)]), "100000 1e-05");
        assert_eq!(f("%c%c", &[t("hé"), t("é")]), "hé");
        assert_eq!(f("%k%d", &[i(1)]), "");
        assert_eq!(f("%r %r %r %r", &[i(1), i(2), i(3), i(11)]), "1st 2nd 3rd 11th");
    }
}
