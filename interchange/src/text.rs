//! Text encodings of delimited files: UTF-8 with or without a byte-order
//! mark, and UTF-16 (LE or BE) with one, read as UTF-8. Anything else is
//! refused with a message that says what was found.

use std::io::{self, Read};

use crate::error::malformed;
use crate::{Error, Result};

/// A body's text encoding, from its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    /// UTF-8 after an `EF BB BF` mark.
    Utf8Bom,
    Utf16Le,
    Utf16Be,
}

impl Encoding {
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "utf-8",
            Encoding::Utf8Bom => "utf-8 (with BOM)",
            Encoding::Utf16Le => "utf-16le (with BOM)",
            Encoding::Utf16Be => "utf-16be (with BOM)",
        }
    }

    /// Bytes of the byte-order mark.
    pub fn bom_len(self) -> u64 {
        match self {
            Encoding::Utf8 => 0,
            Encoding::Utf8Bom => 3,
            Encoding::Utf16Le | Encoding::Utf16Be => 2,
        }
    }
}

/// Decides the encoding from the first bytes of a text body (`head`: up
/// to a few KiB; `whole`: it is the entire body). Refuses UTF-32, UTF-16
/// without a mark, binary data (NUL bytes) and bytes that are not UTF-8.
pub fn sniff_encoding(head: &[u8], whole: bool) -> Result<Encoding> {
    if head.starts_with(&[0xFF, 0xFE, 0, 0]) || head.starts_with(&[0, 0, 0xFE, 0xFF]) {
        return Err(malformed!(
            1,
            "the text is UTF-32; AsaDB reads UTF-8 and UTF-16 with a byte-order mark"
        ));
    }
    if head.starts_with(&[0xEF, 0xBB, 0xBF]) {
        check_utf8(&head[3..], whole)?;
        return Ok(Encoding::Utf8Bom);
    }
    if head.starts_with(&[0xFF, 0xFE]) {
        return Ok(Encoding::Utf16Le);
    }
    if head.starts_with(&[0xFE, 0xFF]) {
        return Ok(Encoding::Utf16Be);
    }
    if let Some(p) = head.iter().position(|&b| b == 0) {
        // UTF-16 text of mostly ASCII characters: every other byte is 0.
        let zeros = |from: usize| {
            let n = head.iter().skip(from).step_by(2).count().max(1);
            head.iter().skip(from).step_by(2).filter(|&&b| b == 0).count() * 100 / n
        };
        let (even, odd) = (zeros(0), zeros(1));
        let alternate = head.len() >= 16 && ((even > 80 && odd < 5) || (odd > 80 && even < 5));
        if alternate {
            return Err(malformed!(
                1,
                "the text looks like UTF-16 without a byte-order mark; save it as UTF-8 \
                 (or UTF-16 with a BOM)"
            ));
        }
        return Err(malformed!(
            line_of(head, p),
            "binary data (a NUL byte at offset {p}): this is not a text file"
        ));
    }
    check_utf8(head, whole)?;
    Ok(Encoding::Utf8)
}

/// Fails on bytes that are not UTF-8; an incomplete character at the end
/// of a partial head is fine.
fn check_utf8(bytes: &[u8], whole: bool) -> Result<()> {
    match std::str::from_utf8(bytes) {
        Ok(_) => Ok(()),
        Err(e) if e.error_len().is_none() && !whole => Ok(()),
        Err(e) => Err(not_utf8(bytes, e.valid_up_to())),
    }
}

/// The error for bytes that are not UTF-8 at `offset` of `bytes`.
pub(crate) fn not_utf8(bytes: &[u8], offset: usize) -> Error {
    malformed!(
        line_of(bytes, offset),
        "the text is not UTF-8 (byte 0x{:02X}); AsaDB reads UTF-8 and UTF-16 with a \
         byte-order mark: convert it first, e.g. `iconv -f latin1 -t utf-8`",
        bytes.get(offset).copied().unwrap_or(0)
    )
}

/// The 1-based line of byte `offset` (LF, CRLF or CR endings).
pub(crate) fn line_of(bytes: &[u8], offset: usize) -> u64 {
    let upto = &bytes[..offset.min(bytes.len())];
    let mut lines = 1;
    for (i, &b) in upto.iter().enumerate() {
        if b == b'\n' || (b == b'\r' && upto.get(i + 1) != Some(&b'\n')) {
            lines += 1;
        }
    }
    lines
}

/// UTF-8 out of a body in `encoding` (the mark already skipped by the
/// caller for UTF-8; skipped here for UTF-16). Counts the source bytes
/// consumed, for progress.
pub struct Decoder<R> {
    inner: R,
    encoding: Encoding,
    /// Undecoded source bytes (UTF-16: at most one odd byte / half pair).
    pending: Vec<u8>,
    /// Decoded bytes not handed out yet.
    out: Vec<u8>,
    out_pos: usize,
    consumed: u64,
    eof: bool,
    /// Index of the next UTF-16 code unit (for error offsets).
    unit: u64,
}

impl<R: Read> Decoder<R> {
    /// `inner` must be positioned just past the byte-order mark.
    pub fn new(inner: R, encoding: Encoding) -> Decoder<R> {
        Decoder {
            inner,
            encoding,
            pending: Vec::new(),
            out: Vec::new(),
            out_pos: 0,
            consumed: encoding.bom_len(),
            eof: false,
            unit: 0,
        }
    }

    /// Source bytes read so far, the mark included.
    pub fn source_pos(&self) -> u64 {
        self.consumed
    }

    /// The source back.
    pub fn into_inner(self) -> R {
        self.inner
    }

    fn fill_utf16(&mut self) -> io::Result<()> {
        let mut chunk = [0u8; 64 * 1024];
        let n = loop {
            match self.inner.read(&mut chunk) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        };
        self.consumed += n as u64;
        if n == 0 {
            self.eof = true;
            if !self.pending.is_empty() {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "the UTF-16 text ends in the middle of a character",
                ));
            }
            return Ok(());
        }
        self.pending.extend_from_slice(&chunk[..n]);
        self.out.clear();
        self.out_pos = 0;
        let le = self.encoding == Encoding::Utf16Le;
        let units = self.pending.len() / 2;
        let mut i = 0;
        let mut buf = [0u8; 4];
        while i < units {
            let u = |k: usize| {
                let (a, b) = (self.pending[2 * k], self.pending[2 * k + 1]);
                if le { u16::from_le_bytes([a, b]) } else { u16::from_be_bytes([a, b]) }
            };
            let c = u(i);
            let ch = if (0xD800..0xDC00).contains(&c) {
                if i + 1 >= units {
                    break; // the low half is in the next chunk
                }
                let d = u(i + 1);
                if !(0xDC00..0xE000).contains(&d) {
                    return Err(bad_utf16(self.unit + i as u64));
                }
                i += 1;
                char::from_u32(0x10000 + ((u32::from(c) - 0xD800) << 10) + (u32::from(d) - 0xDC00))
            } else {
                char::from_u32(u32::from(c))
            };
            let Some(ch) = ch else { return Err(bad_utf16(self.unit + i as u64)) };
            self.out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
            i += 1;
        }
        self.unit += i as u64;
        self.pending.drain(..2 * i);
        Ok(())
    }
}

fn bad_utf16(unit: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("invalid UTF-16 (an unpaired surrogate at code unit {unit})"),
    )
}

impl<R: Read> Read for Decoder<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.encoding {
            Encoding::Utf8 | Encoding::Utf8Bom => {
                let n = self.inner.read(buf)?;
                self.consumed += n as u64;
                Ok(n)
            }
            Encoding::Utf16Le | Encoding::Utf16Be => {
                while self.out_pos == self.out.len() {
                    if self.eof {
                        return Ok(0);
                    }
                    self.fill_utf16()?;
                }
                let n = buf.len().min(self.out.len() - self.out_pos);
                buf[..n].copy_from_slice(&self.out[self.out_pos..self.out_pos + n]);
                self.out_pos += n;
                Ok(n)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(bytes: &[u8]) -> io::Result<String> {
        let enc = sniff_encoding(bytes, true).unwrap();
        let mut d = Decoder::new(&bytes[enc.bom_len() as usize..], enc);
        let mut s = String::new();
        d.read_to_string(&mut s)?;
        Ok(s)
    }

    #[test]
    fn encodings_are_recognised_and_decoded() {
        assert_eq!(sniff_encoding(b"a,b\n", true).unwrap(), Encoding::Utf8);
        assert_eq!(sniff_encoding(b"\xEF\xBB\xBFa", true).unwrap(), Encoding::Utf8Bom);
        let text = "id,name\n1,Stanisław 🎵\n";
        let mut le = vec![0xFF, 0xFE];
        let mut be = vec![0xFE, 0xFF];
        for u in text.encode_utf16() {
            le.extend_from_slice(&u.to_le_bytes());
            be.extend_from_slice(&u.to_be_bytes());
        }
        assert_eq!(decode(&le).unwrap(), text);
        assert_eq!(decode(&be).unwrap(), text);
        // An unpaired surrogate and a truncated unit are errors.
        assert!(decode(&[0xFF, 0xFE, 0x00, 0xD8, 0x41, 0x00]).is_err());
        assert!(decode(&[0xFF, 0xFE, 0x41]).is_err());
    }

    #[test]
    fn other_encodings_are_refused_clearly() {
        let e = sniff_encoding(b"caf\xE9,1\n", true).unwrap_err().to_string();
        assert!(e.contains("not UTF-8"), "{e}");
        let e = sniff_encoding(b"a\x00b\x00c\x00,\x00d\x00\n\x001\x00,\x002\x00", true)
            .unwrap_err()
            .to_string();
        assert!(e.contains("UTF-16 without"), "{e}");
        let e = sniff_encoding(b"PK\x03\x04\x14\0\0\0\x08\0", true).unwrap_err().to_string();
        assert!(e.contains("binary"), "{e}");
        let e = sniff_encoding(b"\xFF\xFE\0\0a\0\0\0", true).unwrap_err().to_string();
        assert!(e.contains("UTF-32"), "{e}");
        // A character cut at the end of a partial head is not an error.
        assert!(sniff_encoding("aé".as_bytes().split_at(2).0, false).is_ok());
        assert_eq!(line_of(b"a\r\nb\rc\nd", 7), 4);
    }
}
