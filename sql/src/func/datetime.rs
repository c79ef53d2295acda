//! SQLite's date and time functions (`date.c` of SQLite 3.54): `date`,
//! `time`, `datetime`, `julianday`, `unixepoch`, `strftime`, `timediff`
//! and `current_date` / `current_time` / `current_timestamp` (what the
//! `CURRENT_*` keywords call).
//!
//! Every value is computed as SQLite does it, in a [`Moment`]: a julian day
//! number in milliseconds (`jd`) and/or a broken-down date and time, each
//! with a validity flag, converted into one another lazily. The time-value
//! formats, every modifier (including their order rules: `unixepoch`,
//! `julianday` and `auto` only right after the time value) and the output
//! formats follow `date.c` step by step, quirks included, because SQLite is
//! the oracle: a time value or modifier SQLite does not accept gives NULL.
//!
//! Decisions where we cannot simply do what the C code does:
//! - **`'now'`** is [`StatementEnv::now_ms`](super::StatementEnv::now_ms):
//!   one value for a whole execution of a statement (SQLite guarantees one
//!   value per `sqlite3_step`; ours is never less stable than that).
//! - **Local time** (`localtime`, `utc`) comes from the `jiff` crate's
//!   system time zone: the `TZ` environment variable when it is set (an
//!   IANA name such as `America/New_York`, a path, or a POSIX rule such as
//!   `EST5EDT,M3.2.0,M11.1.0`), else `/etc/localtime`, with the system's
//!   tz database — the inputs glibc's `localtime_r` reads for SQLite. An
//!   unusable `TZ` means UTC, as in glibc. jiff re-reads the system zone
//!   at most every five minutes. As in SQLite, dates outside 1970–2037 are
//!   moved into a year of the same leap-cycle position around 2000 for the
//!   offset lookup, and `utc` inverts `localtime` by up to four guesses.
//! - C's double-to-integer casts on this platform (x86-64 `cvttsd2si`)
//!   give the "integer indefinite" value (`i64::MIN` / `i32::MIN`) for NaN
//!   and out-of-range inputs; [`c_i64`] and [`c_i32`] do the same, and
//!   millisecond arithmetic wraps, so absurd inputs still end in SQLite's
//!   NULL instead of a panic.
//! - SQLite refuses `'now'`, `localtime` and `utc` in CHECK constraints,
//!   index expressions and generated columns; those contexts do not call
//!   these functions with that distinction here.

use std::borrow::Cow;

use super::printf;
use super::scalar::c_str;
use super::{Env, arity};
use crate::value::{Value, atof, is_space, real_same_as_int};
use crate::{Error, Result};

/// The date and time functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DateTimeFn {
    Date,
    Time,
    DateTime,
    JulianDay,
    UnixEpoch,
    Strftime,
    TimeDiff,
    CurrentDate,
    CurrentTime,
    CurrentTimestamp,
}

/// A function's name, variant, and whether it takes `n` arguments.
type Entry = (&'static str, DateTimeFn, fn(usize) -> bool);

const TABLE: &[Entry] = {
    use DateTimeFn as D;
    &[
        ("date", D::Date, |_| true),
        ("time", D::Time, |_| true),
        ("datetime", D::DateTime, |_| true),
        ("julianday", D::JulianDay, |_| true),
        ("unixepoch", D::UnixEpoch, |_| true),
        ("strftime", D::Strftime, |_| true),
        ("timediff", D::TimeDiff, |n| n == 2),
        ("current_date", D::CurrentDate, |n| n == 0),
        ("current_time", D::CurrentTime, |n| n == 0),
        ("current_timestamp", D::CurrentTimestamp, |n| n == 0),
    ]
};

impl DateTimeFn {
    /// `None` if `name` (lower case) is not a date/time function; else the
    /// function, or the arity error for `nargs`.
    pub fn resolve(name: &str, nargs: usize) -> Option<Result<DateTimeFn>> {
        let (n, f, ok) = TABLE.iter().find(|e| e.0 == name)?;
        Some(arity(n, ok(nargs)).map(|_| *f))
    }

    pub fn name(self) -> &'static str {
        TABLE.iter().find(|e| e.1 == self).map_or("?", |e| e.0)
    }

    /// Evaluates the function on `args` (already checked for arity; the
    /// `current_*` functions take none, so they read `'now'`).
    pub fn call(self, args: &[Value], env: &Env) -> Result<Value> {
        use DateTimeFn as D;
        let now = || env.stmt.now_ms();
        Ok(match self {
            D::Date | D::CurrentDate => match is_date(args, &now)? {
                Some(mut p) => Value::Text(date_text(&mut p).into()),
                None => Value::Null,
            },
            D::Time | D::CurrentTime => match is_date(args, &now)? {
                Some(mut p) => Value::Text(time_text(&mut p).into()),
                None => Value::Null,
            },
            D::DateTime | D::CurrentTimestamp => match is_date(args, &now)? {
                Some(mut p) => {
                    let mut s = date_text(&mut p);
                    s.push(' ');
                    s.push_str(&time_text(&mut p));
                    Value::Text(s.into())
                }
                None => Value::Null,
            },
            D::JulianDay => match is_date(args, &now)? {
                Some(p) => Value::Real(p.jd as f64 / 86_400_000.0),
                None => Value::Null,
            },
            D::UnixEpoch => match is_date(args, &now)? {
                Some(p) if p.use_subsec => {
                    Value::Real(p.jd.wrapping_sub(UNIX_EPOCH_JD_MS) as f64 / 1000.0)
                }
                Some(p) => Value::Integer(p.jd / 1000 - UNIX_EPOCH_JD_MS / 1000),
                None => Value::Null,
            },
            D::Strftime => strftime(args, &now)?,
            D::TimeDiff => timediff(args, &now)?,
        })
    }
}

/// 1970-01-01 00:00:00 as a julian day in milliseconds.
const UNIX_EPOCH_JD_MS: i64 = 210_866_760_000_000;
/// 9999-12-31 23:59:59.999, the largest julian day (ms) SQLite accepts.
const MAX_JD_MS: i64 = 464_269_060_799_999;
const DAY_MS: i64 = 86_400_000;

/// C's `(sqlite3_int64)double` on x86-64: truncation, with NaN and values
/// out of range giving `i64::MIN`.
fn c_i64(r: f64) -> i64 {
    let two63 = -(i64::MIN as f64);
    if r.is_nan() || !(-two63..two63).contains(&r) { i64::MIN } else { r as i64 }
}

/// C's `(int)double` on x86-64 (see [`c_i64`]).
fn c_i32(r: f64) -> i32 {
    if r.is_nan() || !(-2_147_483_648.0..2_147_483_648.0).contains(&r) {
        i32::MIN
    } else {
        r as i32
    }
}

/// A date and time being computed (SQLite's `DateTime`): the julian day in
/// milliseconds, the broken-down fields, and which of them are valid.
#[derive(Clone, Copy, Debug, Default)]
struct Moment {
    /// The julian day number times 86400000.
    jd: i64,
    y: i32,
    mo: i32,
    d: i32,
    h: i32,
    mi: i32,
    /// Time zone offset in minutes (from a `±HH:MM` suffix).
    tz: i32,
    s: f64,
    valid_jd: bool,
    valid_ymd: bool,
    valid_hms: bool,
    /// Days to subtract for `floor` (the day-of-month overflow).
    n_floor: i32,
    /// `s` holds a raw number (julian day or unix time, not yet decided).
    raw_s: bool,
    is_error: bool,
    use_subsec: bool,
    is_utc: bool,
    is_local: bool,
}

/// Byte `i` of a C string (0 past its end).
fn at(z: &[u8], i: usize) -> u8 {
    z.get(i).copied().unwrap_or(0)
}

/// `z` from byte `i` on (empty past its end).
fn from(z: &[u8], i: usize) -> &[u8] {
    z.get(i..).unwrap_or(&[])
}

fn eq_ic(z: &[u8], word: &str) -> bool {
    z.eq_ignore_ascii_case(word.as_bytes())
}

fn starts_ic(z: &[u8], word: &str) -> bool {
    z.len() >= word.len() && z[..word.len()].eq_ignore_ascii_case(word.as_bytes())
}

/// One field for [`get_digits`]: digit count, minimum, maximum, and the
/// separator that must follow (0: none, this is the last field).
type Field = (usize, i32, i32, u8);

const HH_MM: [Field; 2] = [(2, 0, 24, b':'), (2, 0, 59, 0)];
const TZ_HH_MM: [Field; 2] = [(2, 0, 14, b':'), (2, 0, 59, 0)];
const SS: [Field; 1] = [(2, 0, 59, 0)];
const YYYY_MM_DD: [Field; 3] = [(4, 0, 14712, b'-'), (2, 1, 12, b'-'), (2, 1, 31, 0)];

/// SQLite's `getDigits`: reads fixed-width numbers with ranges and
/// separators into `out`; answers how many were read before a mismatch.
fn get_digits(z: &[u8], fields: &[Field], out: &mut [i32]) -> usize {
    let mut pos = 0;
    for (k, &(n, min, max, next)) in fields.iter().enumerate() {
        let mut val = 0;
        for _ in 0..n {
            let c = at(z, pos);
            if !c.is_ascii_digit() {
                return k;
            }
            val = val * 10 + i32::from(c - b'0');
            pos += 1;
        }
        if val < min || val > max || (next != 0 && next != at(z, pos)) {
            return k;
        }
        out[k] = val;
        pos += 1;
    }
    fields.len()
}

fn skip_spaces(z: &[u8], mut i: usize) -> usize {
    while is_space(at(z, i)) {
        i += 1;
    }
    i
}

/// Days in month `m` of year `y`.
fn days_of_month(y: i32, m: i32) -> i32 {
    let long = (0..32).contains(&m) && (1u32 << m) & 0x15aa != 0;
    if long {
        31
    } else if m != 2 {
        30
    } else if y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) {
        29
    } else {
        28
    }
}

impl Moment {
    /// The error state: everything cleared.
    fn error(&mut self) {
        *self = Moment { is_error: true, ..Moment::default() };
    }

    fn clear_ymd_hms_tz(&mut self) {
        self.valid_ymd = false;
        self.valid_hms = false;
        self.tz = 0;
    }

    /// `parseTimezone`: an optional `±HH:MM` or `Z` suffix, then only
    /// spaces. True on error.
    fn parse_timezone(&mut self, z: &[u8]) -> bool {
        let mut i = skip_spaces(z, 0);
        self.tz = 0;
        let sgn = match at(z, i) {
            b'-' => -1,
            b'+' => 1,
            b'Z' | b'z' => {
                i += 1;
                self.is_local = false;
                self.is_utc = true;
                return at(z, skip_spaces(z, i)) != 0;
            }
            c => return c != 0,
        };
        i += 1;
        let mut hm = [0; 2];
        if get_digits(from(z, i), &TZ_HH_MM, &mut hm) != 2 {
            return true;
        }
        i += 5;
        self.tz = sgn * (hm[1] + hm[0] * 60);
        if self.tz == 0 {
            self.is_local = false;
            self.is_utc = true;
        }
        at(z, skip_spaces(z, i)) != 0
    }

    /// `parseHhMmSs`: `HH:MM[:SS[.FFF…]]` and a time zone suffix. True on
    /// error.
    fn parse_hh_mm_ss(&mut self, z: &[u8]) -> bool {
        let mut hm = [0; 2];
        if get_digits(z, &HH_MM, &mut hm) != 2 {
            return true;
        }
        let [h, m] = hm;
        let mut i = 5;
        let mut s = [0];
        let mut ms = 0.0f64;
        if at(z, i) == b':' {
            i += 1;
            if get_digits(from(z, i), &SS, &mut s) != 1 {
                return true;
            }
            i += 2;
            if at(z, i) == b'.' && at(z, i + 1).is_ascii_digit() {
                let mut scale = 1.0f64;
                i += 1;
                while at(z, i).is_ascii_digit() {
                    // The C expression's order: (ms*10 + c) - '0'.
                    ms = ms * 10.0 + f64::from(at(z, i)) - 48.0;
                    scale *= 10.0;
                    i += 1;
                }
                ms /= scale;
                // SQLite truncates to avoid sub-millisecond rounding.
                if ms > 0.999 {
                    ms = 0.999;
                }
            }
        }
        let s = s[0];
        if h == 24 && (m != 0 || s != 0 || ms != 0.0) {
            return true;
        }
        self.valid_jd = false;
        self.raw_s = false;
        self.valid_hms = true;
        self.h = h;
        self.mi = m;
        self.s = f64::from(s) + ms;
        self.parse_timezone(from(z, i))
    }

    /// `computeJD`: the julian day from the broken-down fields (2000-01-01
    /// when there is no date).
    fn compute_jd(&mut self) {
        if self.valid_jd {
            return;
        }
        let (mut y, mut m, d) = if self.valid_ymd {
            (self.y, self.mo, self.d)
        } else {
            let mut d = 1;
            if self.valid_hms && self.h == 24 {
                self.h = 0;
                d = 2;
            }
            (2000, 1, d)
        };
        if !(-4713..=9999).contains(&y) || self.raw_s {
            self.error();
            return;
        }
        if m <= 2 {
            y -= 1;
            m += 12;
        }
        let (y, m, d) = (i64::from(y), i64::from(m), i64::from(d));
        let a = (y + 4800) / 100;
        let b = 38 - a + a / 4;
        let x1 = 36525 * (y + 4716) / 100;
        let x2 = 306001 * (m + 1) / 10000;
        self.jd = c_i64(((x1 + x2 + d + b) as f64 - 1524.5) * 86_400_000.0);
        self.valid_jd = true;
        if self.valid_hms {
            let hm = i64::from(self.h) * 3_600_000 + i64::from(self.mi) * 60_000;
            self.jd = self.jd.wrapping_add(hm).wrapping_add(c_i64(self.s * 1000.0 + 0.5));
            if self.tz != 0 {
                self.jd = self.jd.wrapping_sub(i64::from(self.tz) * 60_000);
                self.valid_ymd = false;
                self.valid_hms = false;
                self.tz = 0;
                self.is_utc = true;
                self.is_local = false;
            }
        }
    }

    /// `computeFloor`: how far the day overflows its month.
    fn compute_floor(&mut self) {
        let max = days_of_month(self.y, self.mo);
        self.n_floor = if self.d > max { self.d - max } else { 0 };
    }

    /// `parseYyyyMmDd`: `[-]YYYY-MM-DD`, then optionally `T` or spaces and
    /// a time. True on error.
    fn parse_yyyy_mm_dd(&mut self, z: &[u8]) -> bool {
        let neg = at(z, 0) == b'-';
        let start = usize::from(neg);
        let mut ymd = [0; 3];
        if get_digits(from(z, start), &YYYY_MM_DD, &mut ymd) != 3 {
            return true;
        }
        let [mut y, mut m, mut d] = ymd;
        let mut i = start + 10;
        while is_space(at(z, i)) || at(z, i) == b'T' {
            i += 1;
        }
        if !self.parse_hh_mm_ss(from(z, i)) {
            if self.h == 24 {
                let max = days_of_month(y, m);
                self.h = 0;
                d += 1;
                if d > max {
                    d -= max;
                    m += 1;
                    if m > 12 {
                        m = 1;
                        y += 1;
                    }
                }
            }
        } else if at(z, i) == 0 {
            self.valid_hms = false;
        } else {
            return true;
        }
        self.valid_jd = false;
        self.valid_ymd = true;
        self.y = if neg { -y } else { y };
        self.mo = m;
        self.d = d;
        self.compute_floor();
        if self.tz != 0 {
            self.compute_jd();
        }
        false
    }

    /// `setDateTimeToCurrent`. True on error.
    fn set_now(&mut self, now_ms: i64) -> bool {
        self.jd = now_ms.wrapping_add(UNIX_EPOCH_JD_MS);
        if self.jd > 0 {
            self.valid_jd = true;
            self.is_utc = true;
            self.is_local = false;
            self.clear_ymd_hms_tz();
            false
        } else {
            true
        }
    }

    /// `setRawDateNumber`: a number that may be a julian day (when in
    /// range) or a unix time (decided by a later modifier).
    fn set_raw_number(&mut self, r: f64) {
        self.s = r;
        self.raw_s = true;
        if (0.0..5_373_484.5).contains(&r) {
            self.jd = c_i64(r * 86_400_000.0 + 0.5);
            self.valid_jd = true;
        }
    }

    /// `parseDateOrTime`: the time value as text. True on error.
    fn parse_date_or_time(&mut self, z: &[u8], now: &dyn Fn() -> i64) -> bool {
        if !self.parse_yyyy_mm_dd(z) || !self.parse_hh_mm_ss(z) {
            return false;
        }
        if eq_ic(z, "now") {
            return self.set_now(now());
        }
        let r = atof(z);
        if r.prefix && r.whole {
            self.set_raw_number(r.value);
            return false;
        }
        if eq_ic(z, "subsec") || eq_ic(z, "subsecond") {
            self.use_subsec = true;
            return self.set_now(now());
        }
        true
    }

    /// `computeYMD`: the date from the julian day (2000-01-01 when there is
    /// none); an out-of-range day is the error state.
    fn compute_ymd(&mut self) {
        if self.valid_ymd {
            return;
        }
        if !self.valid_jd {
            self.y = 2000;
            self.mo = 1;
            self.d = 1;
        } else if !valid_julian_day(self.jd) {
            self.error();
            return;
        } else {
            let z = ((self.jd + 43_200_000) / DAY_MS) as i32;
            let alpha = c_i32((f64::from(z) + 32044.75) / 36524.25) - 52;
            let a = z + 1 + alpha - ((alpha + 100) / 4) + 25;
            let b = a + 1524;
            let c = c_i32((f64::from(b) - 122.1) / 365.25);
            let d = (36525 * (c & 32767)) / 100;
            let e = c_i32(f64::from(b - d) / 30.6001);
            let x1 = c_i32(30.6001 * f64::from(e));
            self.d = b - d - x1;
            self.mo = if e < 14 { e - 1 } else { e - 13 };
            self.y = if self.mo > 2 { c - 4716 } else { c - 4715 };
        }
        self.valid_ymd = true;
    }

    /// `computeHMS`: the time of day from the julian day.
    fn compute_hms(&mut self) {
        if self.valid_hms {
            return;
        }
        self.compute_jd();
        let day_ms = (self.jd.wrapping_add(43_200_000) % DAY_MS) as i32;
        self.s = f64::from(day_ms % 60_000) / 1000.0;
        let day_min = day_ms / 60_000;
        self.mi = day_min % 60;
        self.h = day_min / 60;
        self.raw_s = false;
        self.valid_hms = true;
    }

    fn compute_ymd_hms(&mut self) {
        self.compute_ymd();
        self.compute_hms();
    }

    /// `toLocaltime`: reads this moment as UTC and turns it into local
    /// time (broken-down fields only).
    fn make_local(&mut self) -> Result<()> {
        self.compute_jd();
        let (t, year_diff) =
            if !(2_108_667_600 * 100_000..=2_130_141_456 * 100_000).contains(&self.jd) {
                // Outside 1970..2038: look the offset up in a year of the same
                // leap-cycle position around 2000, as SQLite does.
                let mut x = *self;
                x.compute_ymd_hms();
                let diff = (2000 + x.y % 4) - x.y;
                x.y += diff;
                x.valid_jd = false;
                x.compute_jd();
                (x.jd / 1000 - UNIX_EPOCH_JD_MS / 1000, diff)
            } else {
                (self.jd / 1000 - UNIX_EPOCH_JD_MS / 1000, 0)
            };
        let Some(tm) = local_fields(t) else {
            return Err(Error::InvalidInput("local time unavailable".into()));
        };
        self.y = tm[0] - year_diff;
        self.mo = tm[1];
        self.d = tm[2];
        self.h = tm[3];
        self.mi = tm[4];
        self.s = f64::from(tm[5]) + (self.jd % 1000) as f64 * 0.001;
        self.valid_ymd = true;
        self.valid_hms = true;
        self.valid_jd = false;
        self.raw_s = false;
        self.tz = 0;
        self.is_error = false;
        Ok(())
    }

    /// `autoAdjustDate`: a raw number in julian-day range stays a julian
    /// day; otherwise, in unix-time range, it is a unix time.
    fn auto_adjust(&mut self) {
        if !self.raw_s || self.valid_jd {
            self.raw_s = false;
        } else if self.s >= -210_866_760_000.0 && self.s <= 253_402_300_799.0 {
            let r = self.s * 1000.0 + 210_866_760_000_000.0;
            self.clear_ymd_hms_tz();
            self.jd = c_i64(r + 0.5);
            self.valid_jd = true;
            self.raw_s = false;
        }
    }

    /// `parseModifier`: applies modifier `z`, the `idx`-th argument (1 is
    /// the first modifier). `Ok(false)` for a modifier SQLite rejects.
    fn modifier(&mut self, z: &[u8], idx: usize) -> Result<bool> {
        let p = self;
        match at(z, 0).to_ascii_lowercase() {
            b'a' if eq_ic(z, "auto") => {
                if idx > 1 {
                    return Ok(false);
                }
                p.auto_adjust();
                return Ok(true);
            }
            b'c' if eq_ic(z, "ceiling") => {
                p.compute_jd();
                p.clear_ymd_hms_tz();
                p.n_floor = 0;
                return Ok(true);
            }
            b'e' => {
                if !starts_ic(z, "end of ") || (!p.valid_jd && !p.valid_ymd && !p.valid_hms) {
                    return Ok(false);
                }
                let unit = &z[7..];
                p.compute_ymd();
                p.valid_hms = true;
                p.h = 23;
                p.mi = 59;
                p.s = 59.999;
                p.raw_s = false;
                p.tz = 0;
                p.valid_jd = false;
                if eq_ic(unit, "month") {
                    p.d = 1;
                    p.mo += 1;
                    if p.mo > 12 {
                        p.y += 1;
                        p.mo = 1;
                    }
                    p.compute_floor();
                    p.compute_jd();
                    p.jd = p.jd.wrapping_sub(i64::from(p.n_floor + 1) * DAY_MS);
                    p.clear_ymd_hms_tz();
                    return Ok(true);
                } else if eq_ic(unit, "year") {
                    p.mo = 12;
                    p.d = 31;
                    return Ok(true);
                } else if eq_ic(unit, "day") {
                    return Ok(true);
                }
            }
            b'f' if eq_ic(z, "floor") => {
                p.compute_jd();
                p.jd = p.jd.wrapping_sub(i64::from(p.n_floor) * DAY_MS);
                p.clear_ymd_hms_tz();
                return Ok(true);
            }
            b'j' if eq_ic(z, "julianday") => {
                if idx > 1 {
                    return Ok(false);
                }
                if p.valid_jd && p.raw_s {
                    p.raw_s = false;
                    return Ok(true);
                }
            }
            b'l' if eq_ic(z, "localtime") => {
                if !p.is_local {
                    p.make_local()?;
                }
                p.is_utc = false;
                p.is_local = true;
                return Ok(true);
            }
            b'u' if eq_ic(z, "unixepoch") && p.raw_s => {
                if idx > 1 {
                    return Ok(false);
                }
                let r = p.s * 1000.0 + 210_866_760_000_000.0;
                if (0.0..464_269_060_800_000.0).contains(&r) {
                    p.clear_ymd_hms_tz();
                    p.jd = c_i64(r + 0.5);
                    p.valid_jd = true;
                    p.raw_s = false;
                    return Ok(true);
                }
            }
            b'u' if eq_ic(z, "utc") => {
                if !p.is_utc {
                    p.make_utc()?;
                }
                return Ok(true);
            }
            b'w' if starts_ic(z, "weekday ") => {
                let arg = &z[8..];
                let r = atof(arg);
                let n = c_i32(r.value);
                if r.prefix
                    && r.whole
                    && (-6.0..=6.0).contains(&r.value)
                    && real_same_as_int(r.value, i64::from(n))
                {
                    p.compute_ymd_hms();
                    p.tz = 0;
                    p.valid_jd = false;
                    p.compute_jd();
                    let mut day = (p.jd.wrapping_add(129_600_000) / DAY_MS) % 7;
                    let n = i64::from(n.abs());
                    if day != n {
                        if day > n {
                            day -= 7;
                        }
                        p.jd = p.jd.wrapping_add((n - day) * DAY_MS);
                        if arg.contains(&b'-') {
                            p.jd = p.jd.wrapping_sub(7 * DAY_MS);
                        }
                    }
                    p.clear_ymd_hms_tz();
                    return Ok(true);
                }
            }
            b's' if eq_ic(z, "subsec") || eq_ic(z, "subsecond") => {
                p.use_subsec = true;
                return Ok(true);
            }
            b's' if starts_ic(z, "start of ") => {
                if !p.valid_jd && !p.valid_ymd && !p.valid_hms {
                    return Ok(false);
                }
                let unit = &z[9..];
                p.compute_ymd();
                p.valid_hms = true;
                p.h = 0;
                p.mi = 0;
                p.s = 0.0;
                p.raw_s = false;
                p.tz = 0;
                p.valid_jd = false;
                if eq_ic(unit, "month") {
                    p.d = 1;
                    return Ok(true);
                } else if eq_ic(unit, "year") {
                    p.mo = 1;
                    p.d = 1;
                    return Ok(true);
                } else if eq_ic(unit, "day") {
                    return Ok(true);
                }
            }
            b'+' | b'-' | b'0'..=b'9' => return Ok(p.numeric_modifier(z)),
            _ => {}
        }
        Ok(false)
    }

    /// The modifiers that start with a sign or a digit: `±NNN unit`,
    /// `±HH:MM[:SS[.FFF]]` and `±YYYY-MM-DD[ HH:MM[:SS[.FFF]]]`.
    fn numeric_modifier(&mut self, z: &[u8]) -> bool {
        let p = self;
        let z0 = z[0];
        let mut n = 1;
        while at(z, n) != 0 {
            let c = z[n];
            if c == b':' || is_space(c) {
                break;
            }
            if c == b'-' {
                let mut y = [0];
                if n == 5 && get_digits(&z[1..], &[(4, 0, 14712, 0)], &mut y) == 1 {
                    break;
                }
                if n == 6 && get_digits(&z[1..], &[(5, 0, 14712, 0)], &mut y) == 1 {
                    break;
                }
            }
            n += 1;
        }
        let num = atof(&z[..n]);
        if !(num.prefix && num.whole) {
            return false;
        }
        let mut r = num.value;
        let mut z = z;
        let mut z2 = z;
        if at(z, n) == b'-' {
            // ±YYYY-MM-DD: years, months (0..11) and days (0..30).
            if z0 != b'+' && z0 != b'-' {
                return false;
            }
            let width = if n == 5 { 4 } else { 5 };
            let fields = [(width, 0, 14712, b'-'), (2, 0, 12, b'-'), (2, 0, 31, 0)];
            let mut ymd = [0; 3];
            if get_digits(&z[1..], &fields, &mut ymd) != 3 {
                return false;
            }
            if n == 6 {
                z = &z[1..];
            }
            let [y, m, mut d] = ymd;
            if m >= 12 || d >= 31 {
                return false;
            }
            p.compute_ymd_hms();
            p.valid_jd = false;
            if z0 == b'-' {
                p.y -= y;
                p.mo -= m;
                d = -d;
            } else {
                p.y += y;
                p.mo += m;
            }
            let x = if p.mo > 0 { (p.mo - 1) / 12 } else { (p.mo - 12) / 12 };
            p.y += x;
            p.mo -= x * 12;
            p.compute_floor();
            p.compute_jd();
            p.valid_hms = false;
            p.valid_ymd = false;
            p.jd = p.jd.wrapping_add(i64::from(d) * DAY_MS);
            if at(z, 11) == 0 {
                return true;
            }
            let mut hm = [0; 2];
            if is_space(at(z, 11)) && get_digits(from(z, 12), &HH_MM, &mut hm) == 2 {
                z2 = from(z, 12);
                n = 2;
            } else {
                return false;
            }
        }
        if at(z2, n) == b':' {
            // ±HH:MM[:SS[.FFF]]: a time of day added or subtracted.
            if !at(z2, 0).is_ascii_digit() {
                z2 = &z2[1..];
            }
            let mut tx = Moment::default();
            if tx.parse_hh_mm_ss(z2) {
                return false;
            }
            tx.compute_jd();
            tx.jd = tx.jd.wrapping_sub(43_200_000);
            let day = tx.jd / DAY_MS;
            tx.jd -= day * DAY_MS;
            if z0 == b'-' {
                tx.jd = -tx.jd;
            }
            p.compute_jd();
            p.clear_ymd_hms_tz();
            p.jd = p.jd.wrapping_add(tx.jd);
            return true;
        }
        // ±NNN unit.
        let unit = from(z, skip_spaces(z, n));
        let mut len = unit.len();
        if !(3..=10).contains(&len) {
            return false;
        }
        if unit[len - 1].eq_ignore_ascii_case(&b's') {
            len -= 1;
        }
        let unit = &unit[..len];
        p.compute_jd();
        let rounder = if r < 0.0 { -0.5 } else { 0.5 };
        p.n_floor = 0;
        let mut ok = false;
        for (i, &(name, limit, xform)) in UNITS.iter().enumerate() {
            let limit = f64::from(limit);
            if !(eq_ic(unit, name) && r > -limit && r < limit) {
                continue;
            }
            match i {
                4 => {
                    // Months: whole months on the calendar, the fraction
                    // as 30-day months.
                    p.compute_ymd_hms();
                    p.mo += c_i32(r);
                    let x = if p.mo > 0 { (p.mo - 1) / 12 } else { (p.mo - 12) / 12 };
                    p.y += x;
                    p.mo -= x * 12;
                    p.compute_floor();
                    p.valid_jd = false;
                    r -= f64::from(c_i32(r));
                }
                5 => {
                    let y = c_i32(r);
                    p.compute_ymd_hms();
                    p.y += y;
                    p.compute_floor();
                    p.valid_jd = false;
                    r -= f64::from(c_i32(r));
                }
                _ => {}
            }
            p.compute_jd();
            p.jd = p.jd.wrapping_add(c_i64(r * 1000.0 * f64::from(xform) + rounder));
            ok = true;
            break;
        }
        p.clear_ymd_hms_tz();
        ok
    }

    /// The `utc` modifier: the UTC moment whose local time is this one,
    /// found by refining a guess (at most four lookups, as SQLite).
    fn make_utc(&mut self) -> Result<()> {
        self.compute_jd();
        let orig = self.jd;
        let mut guess = orig;
        let mut err = 0i64;
        let mut tries = 0;
        loop {
            guess = guess.wrapping_sub(err);
            let mut new = Moment { jd: guess, valid_jd: true, ..Moment::default() };
            new.make_local()?;
            new.compute_jd();
            err = new.jd.wrapping_sub(orig);
            if err == 0 || tries >= 3 {
                break;
            }
            tries += 1;
        }
        *self = Moment { jd: guess, valid_jd: true, is_utc: true, ..Moment::default() };
        Ok(())
    }

    /// Days since the most recent January 1 (0-based day of the year).
    fn days_after_jan01(&self) -> i32 {
        let mut jan01 = *self;
        jan01.valid_jd = false;
        jan01.mo = 1;
        jan01.d = 1;
        jan01.compute_jd();
        ((self.jd.wrapping_sub(jan01.jd).wrapping_add(43_200_000)) / DAY_MS) as i32
    }

    /// 0 = Monday … 6 = Sunday.
    fn days_after_monday(&self) -> i32 {
        ((self.jd.wrapping_add(43_200_000) / DAY_MS) % 7) as i32
    }

    /// 0 = Sunday … 6 = Saturday.
    fn days_after_sunday(&self) -> i32 {
        ((self.jd.wrapping_add(129_600_000) / DAY_MS) % 7) as i32
    }

    /// The Thursday of this moment's ISO week (for `%G`, `%g`, `%V`).
    fn iso_thursday(&self) -> Moment {
        let mut y = *self;
        y.jd = y.jd.wrapping_add(i64::from(3 - self.days_after_monday()) * DAY_MS);
        y.valid_ymd = false;
        y.compute_ymd();
        y
    }
}

/// The `±NNN unit` units: name, largest magnitude, seconds per unit
/// (SQLite's table holds C floats; the limits are those floats).
const UNITS: [(&str, f32, f32); 6] = [
    ("second", 4.6427e14, 1.0),
    ("minute", 7.7379e12, 60.0),
    ("hour", 1.2897e11, 3600.0),
    ("day", 5_373_485.0, 86400.0),
    ("month", 176_546.0, 2_592_000.0),
    ("year", 14713.0, 31_536_000.0),
];

fn valid_julian_day(jd: i64) -> bool {
    (0..=MAX_JD_MS).contains(&jd)
}

/// The local broken-down time (year, month 1-12, day, hour, minute,
/// second) of unix time `t`, or `None` if it has none.
fn local_fields(t: i64) -> Option<[i32; 6]> {
    let ts = jiff::Timestamp::from_second(t).ok()?;
    let dt = jiff::tz::TimeZone::system().to_datetime(ts);
    Some([
        i32::from(dt.year()),
        i32::from(dt.month()),
        i32::from(dt.day()),
        i32::from(dt.hour()),
        i32::from(dt.minute()),
        i32::from(dt.second()),
    ])
}

/// The bytes of an argument as SQLite's `sqlite3_value_text` sees them
/// (up to a NUL); `None` for NULL.
fn arg_text(v: &Value) -> Option<Cow<'_, [u8]>> {
    let b = v.text_bytes()?;
    Some(match b {
        Cow::Borrowed(b) => Cow::Borrowed(c_str(b)),
        Cow::Owned(b) => Cow::Owned(c_str(&b).to_vec()),
    })
}

/// SQLite's `isDate`: the time value `args[0]` (or `'now'` when there are
/// no arguments) with the modifiers `args[1..]` applied; `None` where
/// SQLite's result is NULL.
fn is_date(args: &[Value], now: &dyn Fn() -> i64) -> Result<Option<Moment>> {
    let mut p = Moment::default();
    let Some(first) = args.first() else {
        return Ok((!p.set_now(now())).then_some(p));
    };
    match first {
        Value::Integer(i) => p.set_raw_number(*i as f64),
        Value::Real(r) => p.set_raw_number(*r),
        other => {
            let Some(z) = arg_text(other) else { return Ok(None) };
            if p.parse_date_or_time(&z, now) {
                return Ok(None);
            }
        }
    }
    for (i, m) in args.iter().enumerate().skip(1) {
        let Some(z) = arg_text(m) else { return Ok(None) };
        if !p.modifier(&z, i)? {
            return Ok(None);
        }
    }
    p.compute_jd();
    if p.is_error || !valid_julian_day(p.jd) {
        return Ok(None);
    }
    if args.len() == 1 && p.valid_ymd && p.d > 28 {
        // A bare YYYY-MM-DD is normalised (2023-02-31 is 2023-03-03).
        p.valid_ymd = false;
    }
    Ok(Some(p))
}

/// `YYYY-MM-DD` (a leading `-` for years before 0).
fn date_text(p: &mut Moment) -> String {
    p.compute_ymd();
    let sign = if p.y < 0 { "-" } else { "" };
    let y = p.y.unsigned_abs();
    format!("{sign}{:04}-{:02}-{:02}", y % 10000, p.mo % 100, p.d % 100)
}

/// `HH:MM:SS`, or `HH:MM:SS.SSS` with `subsec`.
fn time_text(p: &mut Moment) -> String {
    p.compute_hms();
    if p.use_subsec {
        let s = c_i32(1000.0 * p.s + 0.5);
        format!("{:02}:{:02}:{:02}.{:03}", p.h % 100, p.mi % 100, (s / 1000) % 100, s % 1000)
    } else {
        format!("{:02}:{:02}:{:02}", p.h % 100, p.mi % 100, c_i32(p.s) % 100)
    }
}

/// A float through SQLite's printf (`%.16g`, `%06.3f`, `%.3f`).
fn printf_real(out: &mut Vec<u8>, fmt: &str, r: f64) -> Result<()> {
    out.extend(printf::format(fmt.as_bytes(), &[Value::Real(r)])?);
    Ok(())
}

fn strftime(args: &[Value], now: &dyn Fn() -> i64) -> Result<Value> {
    use std::io::Write;
    let Some(fmt) = args.first().and_then(arg_text) else { return Ok(Value::Null) };
    let Some(mut x) = is_date(&args[1..], now)? else { return Ok(Value::Null) };
    x.compute_jd();
    x.compute_ymd_hms();
    let mut out: Vec<u8> = Vec::with_capacity(fmt.len() + 16);
    let mut i = 0;
    while i < fmt.len() {
        if fmt[i] != b'%' {
            out.push(fmt[i]);
            i += 1;
            continue;
        }
        let cf = at(&fmt, i + 1);
        i += 2;
        let w = &mut out;
        // Writes into a Vec cannot fail.
        let _ = match cf {
            b'd' => write!(w, "{:02}", x.d),
            b'e' => write!(w, "{:2}", x.d),
            b'f' => {
                let s = if x.s > 59.999 { 59.999 } else { x.s };
                printf_real(w, "%06.3f", s)?;
                Ok(())
            }
            b'F' => write!(w, "{:04}-{:02}-{:02}", x.y, x.mo, x.d),
            b'G' => write!(w, "{:04}", x.iso_thursday().y),
            b'g' => write!(w, "{:02}", x.iso_thursday().y % 100),
            b'H' => write!(w, "{:02}", x.h),
            b'k' => write!(w, "{:2}", x.h),
            b'I' | b'l' => {
                let h = match x.h {
                    0 => 12,
                    h if h > 12 => h - 12,
                    h => h,
                };
                if cf == b'I' { write!(w, "{h:02}") } else { write!(w, "{h:2}") }
            }
            b'j' => write!(w, "{:03}", x.days_after_jan01() + 1),
            b'J' => {
                printf_real(w, "%.16g", x.jd as f64 / 86_400_000.0)?;
                Ok(())
            }
            b'm' => write!(w, "{:02}", x.mo),
            b'M' => write!(w, "{:02}", x.mi),
            b'p' => write!(w, "{}", if x.h >= 12 { "PM" } else { "AM" }),
            b'P' => write!(w, "{}", if x.h >= 12 { "pm" } else { "am" }),
            b'R' => write!(w, "{:02}:{:02}", x.h, x.mi),
            b's' => {
                if x.use_subsec {
                    let secs = x.jd.wrapping_sub(UNIX_EPOCH_JD_MS) as f64 / 1000.0;
                    printf_real(w, "%.3f", secs)?;
                    Ok(())
                } else {
                    write!(w, "{}", x.jd / 1000 - UNIX_EPOCH_JD_MS / 1000)
                }
            }
            b'S' => write!(w, "{:02}", c_i32(x.s)),
            b'T' => write!(w, "{:02}:{:02}:{:02}", x.h, x.mi, c_i32(x.s)),
            b'u' | b'w' => {
                let mut d = x.days_after_sunday();
                if d == 0 && cf == b'u' {
                    d = 7;
                }
                write!(w, "{d}")
            }
            b'U' => write!(w, "{:02}", (x.days_after_jan01() - x.days_after_sunday() + 7) / 7),
            b'V' => write!(w, "{:02}", x.iso_thursday().days_after_jan01() / 7 + 1),
            b'W' => write!(w, "{:02}", (x.days_after_jan01() - x.days_after_monday() + 7) / 7),
            b'Y' => write!(w, "{:04}", x.y),
            b'%' => {
                w.push(b'%');
                Ok(())
            }
            // An unknown conversion (or a trailing `%`) makes it NULL.
            _ => return Ok(Value::Null),
        };
    }
    Ok(Value::Text(crate::value::Text::from_bytes(out)))
}

/// `timediff(A, B)`: `±YYYY-MM-DD HH:MM:SS.SSS`, the time to add to B to
/// reach A, in calendar years and months first.
fn timediff(args: &[Value], now: &dyn Fn() -> i64) -> Result<Value> {
    let Some(mut d1) = is_date(&args[0..1], now)? else { return Ok(Value::Null) };
    let Some(mut d2) = is_date(&args[1..2], now)? else { return Ok(Value::Null) };
    d1.compute_ymd_hms();
    d2.compute_ymd_hms();
    let sign;
    let (mut y, mut m);
    // From 0000-01-01 00:00, so the difference reads as a date.
    const BASE: i64 = 148_699_540_800_000;
    if d1.jd >= d2.jd {
        sign = '+';
        y = d1.y - d2.y;
        if y != 0 {
            d2.y = d1.y;
            d2.valid_jd = false;
            d2.compute_jd();
        }
        m = d1.mo - d2.mo;
        if m < 0 {
            y -= 1;
            m += 12;
        }
        if m != 0 {
            d2.mo = d1.mo;
            d2.valid_jd = false;
            d2.compute_jd();
        }
        while d1.jd < d2.jd && !d2.is_error {
            m -= 1;
            if m < 0 {
                m = 11;
                y -= 1;
            }
            d2.mo -= 1;
            if d2.mo < 1 {
                d2.mo = 12;
                d2.y -= 1;
            }
            d2.valid_jd = false;
            d2.compute_jd();
        }
        d1.jd = d1.jd.wrapping_sub(d2.jd).wrapping_add(BASE);
    } else {
        sign = '-';
        y = d2.y - d1.y;
        if y != 0 {
            d2.y = d1.y;
            d2.valid_jd = false;
            d2.compute_jd();
        }
        m = d2.mo - d1.mo;
        if m < 0 {
            y -= 1;
            m += 12;
        }
        if m != 0 {
            d2.mo = d1.mo;
            d2.valid_jd = false;
            d2.compute_jd();
        }
        while d1.jd > d2.jd && !d2.is_error {
            m -= 1;
            if m < 0 {
                m = 11;
                y -= 1;
            }
            d2.mo += 1;
            if d2.mo > 12 {
                d2.mo = 1;
                d2.y += 1;
            }
            d2.valid_jd = false;
            d2.compute_jd();
        }
        d1.jd = d2.jd.wrapping_sub(d1.jd).wrapping_add(BASE);
    }
    d1.clear_ymd_hms_tz();
    d1.compute_ymd_hms();
    let mut out =
        format!("{sign}{y:04}-{m:02}-{:02} {:02}:{:02}:", d1.d - 1, d1.h, d1.mi).into_bytes();
    printf_real(&mut out, "%06.3f", d1.s)?;
    Ok(Value::Text(crate::value::Text::from_bytes(out)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::func::scalar;

    fn call(name: &str, args: &[&str]) -> Value {
        let args: Vec<Value> = args.iter().map(|s| Value::Text((*s).into())).collect();
        scalar(name, &args).unwrap()
    }
    fn t(s: &str) -> Value {
        Value::Text(s.into())
    }

    #[test]
    fn basics() {
        assert_eq!(call("date", &["2000-01-01 12:34:56"]), t("2000-01-01"));
        assert_eq!(call("time", &["2000-01-01 12:34:56"]), t("12:34:56"));
        assert_eq!(call("datetime", &["2451545.0"]), t("2000-01-01 12:00:00"));
        assert_eq!(call("julianday", &["2000-01-01"]), Value::Real(2451544.5));
        assert_eq!(call("unixepoch", &["1970-01-02"]), Value::Integer(86400));
        assert_eq!(call("date", &["2023-02-31"]), t("2023-03-03"));
        assert_eq!(call("date", &["2023-01-31", "+1 month"]), t("2023-03-03"));
        assert_eq!(call("date", &["2023-01-31", "+1 month", "floor"]), t("2023-02-28"));
        assert_eq!(call("datetime", &["2000-01-01", "end of month"]), t("2000-01-31 23:59:59"));
        assert_eq!(call("date", &["2024-06-15", "weekday 0"]), t("2024-06-16"));
        assert_eq!(call("date", &["2024-06-15", "weekday -1"]), t("2024-06-10"));
        assert_eq!(
            call("strftime", &["%Y %j %W %V %G %u %%", "2021-01-03"]),
            t("2021 003 00 53 2020 7 %")
        );
        assert_eq!(call("timediff", &["2024-03-01", "2023-02-28"]), t("+0001-00-02 00:00:00.000"));
        assert!(call("date", &["2000-13-01"]).is_null());
        assert!(call("date", &["2000-01-01", "+1 fortnight"]).is_null());
        assert!(call("strftime", &["%Q", "2000-01-01"]).is_null());
    }

    #[test]
    fn c_casts() {
        assert_eq!(c_i64(f64::NAN), i64::MIN);
        assert_eq!(c_i64(1e300), i64::MIN);
        assert_eq!(c_i64(-2.7), -2);
        assert_eq!(c_i32(3e9), i32::MIN);
    }
}
