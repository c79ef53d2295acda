//! LIKE and GLOB matching, ported from SQLite's `patternCompare`.
//!
//! LIKE: `%` any run, `_` one character, an optional escape character;
//! ASCII letters match case-insensitively (non-ASCII exactly). GLOB: `*`,
//! `?`, `[...]`, `[^...]` with ranges, case-sensitive. Matching is on UTF-8
//! characters; input ends at the end or at a NUL byte, as in SQLite.

/// SQLite's `sqlite3Utf8Read`: decodes one character at `z[*i]` leniently
/// (bad sequences give U+FFFD) and advances `*i`. Returns 0 at the end.
pub(crate) fn utf8_read(z: &[u8], i: &mut usize) -> u32 {
    let Some(&first) = z.get(*i) else { return 0 };
    *i += 1;
    let mut c = u32::from(first);
    if c >= 0xc0 {
        c = match first {
            0xc0..=0xdf => c & 0x1f,
            0xe0..=0xef => c & 0x0f,
            0xf0..=0xf7 => c & 0x07,
            0xf8..=0xfb => c & 0x03,
            0xfc..=0xfd => c & 0x01,
            _ => 0,
        };
        while let Some(&b) = z.get(*i) {
            if b & 0xc0 != 0x80 {
                break;
            }
            c = (c << 6) + u32::from(b & 0x3f);
            *i += 1;
        }
        if c < 0x80 || (c & 0xFFFF_F800) == 0xD800 || (c & 0xFFFF_FFFE) == 0xFFFE {
            c = 0xFFFD;
        }
    }
    c
}

/// The characters of `z` as SQLite counts them (`length()`, `substr()`):
/// one per [`skip_utf8`] step, so a byte that is not a lead byte counts
/// as one.
pub(crate) fn char_count(z: &[u8]) -> usize {
    let (mut n, mut i) = (0, 0);
    while i < z.len() {
        skip_utf8(z, &mut i);
        n += 1;
    }
    n
}

/// Skips one UTF-8 character (`SQLITE_SKIP_UTF8`): a lead byte (0xC0 and
/// up) with the continuation bytes after it, or any other single byte.
pub(crate) fn skip_utf8(z: &[u8], i: &mut usize) {
    if *i < z.len() {
        let lead = z[*i];
        *i += 1;
        if lead >= 0xc0 {
            while *i < z.len() && z[*i] & 0xc0 == 0x80 {
                *i += 1;
            }
        }
    }
}

#[derive(Clone, Copy)]
pub(crate) struct PatternInfo {
    match_all: u32,
    match_one: u32,
    match_set: u32,
    no_case: bool,
}

pub(crate) const GLOB_INFO: PatternInfo = PatternInfo {
    match_all: '*' as u32,
    match_one: '?' as u32,
    match_set: '[' as u32,
    no_case: false,
};
pub(crate) const LIKE_INFO: PatternInfo =
    PatternInfo { match_all: '%' as u32, match_one: '_' as u32, match_set: 0, no_case: true };

#[derive(PartialEq, Eq, Clone, Copy, Debug)]
enum Match {
    Yes,
    No,
    /// No match although the pattern had a wildcard: stop backtracking.
    NoWildcard,
}

/// Truncates at the first NUL (C-string view).
fn c_str(z: &[u8]) -> &[u8] {
    match z.iter().position(|&c| c == 0) {
        Some(p) => &z[..p],
        None => z,
    }
}

fn read(z: &[u8], i: &mut usize) -> u32 {
    match z.get(*i) {
        Some(&b) if b < 0x80 => {
            *i += 1;
            u32::from(b)
        }
        Some(_) => utf8_read(z, i),
        None => 0,
    }
}

fn lower(c: u32) -> u32 {
    if c < 0x80 { u32::from((c as u8).to_ascii_lowercase()) } else { c }
}

fn pattern_compare(
    pat: &[u8],
    mut p: usize,
    s: &[u8],
    mut si: usize,
    info: &PatternInfo,
    match_other: u32,
) -> Match {
    let match_one = info.match_one;
    let match_all = info.match_all;
    let mut escaped_at: Option<usize> = None;
    loop {
        let c0 = read(pat, &mut p);
        if c0 == 0 {
            break;
        }
        let mut c = c0;
        if c == match_all {
            loop {
                c = read(pat, &mut p);
                if c == match_all || (c == match_one && match_one != 0) {
                    if c == match_one && utf8_read(s, &mut si) == 0 {
                        return Match::NoWildcard;
                    }
                } else {
                    break;
                }
            }
            if c == 0 {
                return Match::Yes;
            } else if c == match_other {
                if info.match_set == 0 {
                    c = utf8_read(pat, &mut p);
                    if c == 0 {
                        return Match::NoWildcard;
                    }
                } else {
                    // "[...]" right after "*": try every position.
                    while si < s.len() {
                        let m = pattern_compare(pat, p - 1, s, si, info, match_other);
                        if m != Match::No {
                            return m;
                        }
                        skip_utf8(s, &mut si);
                    }
                    return Match::NoWildcard;
                }
            }
            if c < 0x80 {
                let (a, b) = if info.no_case {
                    (
                        u32::from((c as u8).to_ascii_uppercase()),
                        u32::from((c as u8).to_ascii_lowercase()),
                    )
                } else {
                    (c, c)
                };
                while si < s.len() {
                    let b0 = u32::from(s[si]);
                    si += 1;
                    if b0 != a && b0 != b {
                        continue;
                    }
                    let m = pattern_compare(pat, p, s, si, info, match_other);
                    if m != Match::No {
                        return m;
                    }
                }
            } else {
                loop {
                    let c2 = read(s, &mut si);
                    if c2 == 0 {
                        break;
                    }
                    if c2 != c {
                        continue;
                    }
                    let m = pattern_compare(pat, p, s, si, info, match_other);
                    if m != Match::No {
                        return m;
                    }
                }
            }
            return Match::NoWildcard;
        }
        if c == match_other {
            if info.match_set == 0 {
                c = utf8_read(pat, &mut p);
                if c == 0 {
                    return Match::No;
                }
                escaped_at = Some(p);
            } else {
                let mut prior_c = 0u32;
                let mut seen = false;
                let mut invert = false;
                let sc = utf8_read(s, &mut si);
                if sc == 0 {
                    return Match::No;
                }
                let mut c2 = utf8_read(pat, &mut p);
                if c2 == u32::from(b'^') {
                    invert = true;
                    c2 = utf8_read(pat, &mut p);
                }
                if c2 == u32::from(b']') {
                    if sc == u32::from(b']') {
                        seen = true;
                    }
                    c2 = utf8_read(pat, &mut p);
                }
                while c2 != 0 && c2 != u32::from(b']') {
                    let next = pat.get(p).copied().unwrap_or(0);
                    if c2 == u32::from(b'-') && next != b']' && next != 0 && prior_c > 0 {
                        c2 = utf8_read(pat, &mut p);
                        if sc >= prior_c && sc <= c2 {
                            seen = true;
                        }
                        prior_c = 0;
                    } else {
                        if sc == c2 {
                            seen = true;
                        }
                        prior_c = c2;
                    }
                    c2 = utf8_read(pat, &mut p);
                }
                if c2 == 0 || seen == invert {
                    return Match::No;
                }
                continue;
            }
        }
        let c2 = read(s, &mut si);
        if c == c2 {
            continue;
        }
        if info.no_case && c < 0x80 && c2 < 0x80 && lower(c) == lower(c2) {
            continue;
        }
        if c == match_one && Some(p) != escaped_at && c2 != 0 {
            continue;
        }
        return Match::No;
    }
    if si >= s.len() { Match::Yes } else { Match::No }
}

/// Matches `text` against a LIKE/GLOB pattern given as bytes.
/// `escape` is the LIKE escape character (0 for none).
pub(crate) fn matches(pattern: &[u8], text: &[u8], info: PatternInfo, escape: u32) -> bool {
    let mut info = info;
    let match_other = if info.match_set != 0 {
        info.match_set
    } else {
        if escape != 0 {
            if escape == info.match_all {
                info.match_all = 0;
            }
            if escape == info.match_one {
                info.match_one = 0;
            }
        }
        escape
    };
    let (pattern, text) = (c_str(pattern), c_str(text));
    let run = || pattern_compare(pattern, 0, text, 0, &info, match_other) == Match::Yes;
    // The matcher recurses once per wildcard (as SQLite's does); a pattern
    // with thousands of them (SQLite allows 50,000 bytes) would overflow a
    // worker thread's stack, so such patterns run on a thread sized for them.
    let wildcards = pattern.iter().filter(|&&c| u32::from(c) == info.match_all).count();
    if wildcards <= DEEP_PATTERN_WILDCARDS {
        return run();
    }
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size((1 << 20) + wildcards * 1024)
            .spawn_scoped(scope, run)
            .ok()
            .and_then(|h| h.join().ok())
    })
    .unwrap_or_else(run)
}

/// Above this many `%`/`*`, matching runs on its own, larger stack.
const DEEP_PATTERN_WILDCARDS: usize = 256;

/// `text LIKE pattern [ESCAPE escape]`: `%` matches any run, `_` one
/// character; ASCII letters match case-insensitively.
pub fn like(pattern: &str, text: &str, escape: Option<char>) -> bool {
    matches(pattern.as_bytes(), text.as_bytes(), LIKE_INFO, escape.map_or(0, u32::from))
}

/// `text GLOB pattern`: `*`, `?`, `[...]`, `[^...]`, case-sensitive.
pub fn glob(pattern: &str, text: &str) -> bool {
    matches(pattern.as_bytes(), text.as_bytes(), GLOB_INFO, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn like_basics() {
        assert!(like("a%", "ABC", None));
        assert!(like("_b_", "abc", None));
        assert!(!like("a_", "abc", None));
        assert!(like("%", "", None));
        assert!(like("a\\%", "a%", Some('\\')));
        assert!(!like("a\\%", "ab", Some('\\')));
        assert!(like("%é%", "café", None));
        assert!(!like("É", "é", None));
        assert!(like("a%%c", "abbbc", None));
    }

    #[test]
    fn deep_patterns_do_not_overflow_the_stack() {
        // 20,000 nested wildcards on a small-stack thread, like a worker.
        let h = std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(|| {
                let pat = "%a".repeat(20_000);
                let text = "a".repeat(20_000);
                (like(&pat, &text, None), like(&pat, &text[1..], None))
            })
            .unwrap();
        assert_eq!(h.join().unwrap(), (true, false));
    }

    #[test]
    fn glob_basics() {
        assert!(glob("a*", "abc"));
        assert!(!glob("A*", "abc"));
        assert!(glob("[a-c]?", "bz"));
        assert!(glob("[^a-c]*", "zz"));
        assert!(!glob("[^a-c]*", "az"));
        assert!(glob("*[]]", "x]"));
        assert!(glob("a[-]b", "a-b"));
        assert!(!glob("?", ""));
    }
}
