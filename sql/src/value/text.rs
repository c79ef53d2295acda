//! [`Text`]: the bytes of a TEXT value.
//!
//! SQLite's TEXT is "a string stored in the database encoding" but it never
//! checks that the bytes are valid UTF-8: `CAST(X'FF' AS TEXT)`, `'a' ||
//! X'C3'` or `char()` of a surrogate keep whatever bytes they were given,
//! and every later operation treats them as bytes — `length()` counts
//! characters by their lead bytes (`SQLITE_SKIP_UTF8`), comparison is
//! `memcmp`, `hex()` and `CAST(… AS BLOB)` give the bytes back unchanged.
//! So a TEXT value here is a byte string too, normally UTF-8 but never
//! assumed to be: code that needs a Rust `&str` asks for one with
//! [`Text::to_str`] (`None` when the bytes are not UTF-8) or
//! [`Text::to_str_lossy`] (invalid sequences shown as U+FFFD, for
//! messages, JSON output and other places outside SQL's semantics).
//!
//! Equality, order and hashing of `Text` are the bytes' (the BINARY
//! collation); SQL comparison goes through [`super::compare_collated`].

use std::borrow::Cow;
use std::fmt;
use std::ops::Deref;

/// A TEXT value's bytes: UTF-8 as written by SQL text, or any bytes a
/// CAST or concatenation put there (see the module doc).
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Text(Vec<u8>);

impl Text {
    /// Text holding exactly these bytes, valid UTF-8 or not.
    pub fn from_bytes(bytes: Vec<u8>) -> Text {
        Text(bytes)
    }

    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    pub fn into_bytes(self) -> Vec<u8> {
        self.0
    }

    /// The text as `&str` when its bytes are valid UTF-8.
    pub fn to_str(&self) -> Option<&str> {
        std::str::from_utf8(&self.0).ok()
    }

    /// The text as `&str`, borrowed when valid, else with U+FFFD for each
    /// invalid sequence (as `String::from_utf8_lossy`).
    pub fn to_str_lossy(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(&self.0)
    }

    /// [`Text::to_str_lossy`] taking the value (no copy when valid).
    pub fn into_string_lossy(self) -> String {
        match String::from_utf8(self.0) {
            Ok(s) => s,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        }
    }

    /// [`Text::into_string_lossy`] that refuses invalid UTF-8, giving the
    /// bytes back.
    pub fn into_string(self) -> Result<String, Vec<u8>> {
        String::from_utf8(self.0).map_err(|e| e.into_bytes())
    }

    /// ASCII case-insensitive equality with a name or other bytes (SQL
    /// keywords and identifiers compare this way).
    pub fn eq_ignore_ascii_case(&self, other: impl AsRef<[u8]>) -> bool {
        self.0.eq_ignore_ascii_case(other.as_ref())
    }

    pub fn push_str(&mut self, s: &str) {
        self.0.extend_from_slice(s.as_bytes());
    }

    pub fn extend_from_slice(&mut self, b: &[u8]) {
        self.0.extend_from_slice(b);
    }
}

impl Deref for Text {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl AsRef<[u8]> for Text {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        Text(s.into_bytes())
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Text {
        Text(s.as_bytes().to_vec())
    }
}

impl From<&String> for Text {
    fn from(s: &String) -> Text {
        Text(s.as_bytes().to_vec())
    }
}

impl From<Cow<'_, str>> for Text {
    fn from(s: Cow<'_, str>) -> Text {
        Text(s.into_owned().into_bytes())
    }
}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.0 == other.as_bytes()
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.0 == other.as_bytes()
    }
}

impl PartialEq<String> for Text {
    fn eq(&self, other: &String) -> bool {
        self.0 == other.as_bytes()
    }
}

impl PartialEq<Text> for str {
    fn eq(&self, other: &Text) -> bool {
        self.as_bytes() == other.0
    }
}

impl PartialEq<Text> for &str {
    fn eq(&self, other: &Text) -> bool {
        self.as_bytes() == other.0
    }
}

impl fmt::Display for Text {
    /// Lossy: invalid sequences display as U+FFFD.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_str_lossy())
    }
}

impl fmt::Debug for Text {
    /// As a `str` when valid (`"abc"`), else as the lossy text followed by
    /// the bytes in hex (`"A\u{fffd}B" (x'41FF42')`), so tests and
    /// messages tell invalid text from its U+FFFD rendering.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_str() {
            Some(s) => fmt::Debug::fmt(s, f),
            None => {
                fmt::Debug::fmt(&self.to_str_lossy(), f)?;
                f.write_str(" (x'")?;
                for b in &self.0 {
                    write!(f, "{b:02X}")?;
                }
                f.write_str("')")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_invalid_bytes() {
        let t = Text::from_bytes(vec![0x41, 0xFF, 0x42]);
        assert_eq!(t.as_bytes(), [0x41, 0xFF, 0x42]);
        assert_eq!(t.to_str(), None);
        assert_eq!(t.to_str_lossy(), "A\u{FFFD}B");
        assert_eq!(format!("{t:?}"), "\"A\u{FFFD}B\" (x'41FF42')");
        assert_eq!(t.clone().into_string(), Err(vec![0x41, 0xFF, 0x42]));
        assert_ne!(t, Text::from("A\u{FFFD}B"));
        let v = Text::from("é");
        assert_eq!(v.to_str(), Some("é"));
        assert_eq!(format!("{v:?}"), "\"é\"");
        assert_eq!(v, "é");
    }
}
