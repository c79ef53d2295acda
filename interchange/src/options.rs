//! Import options: the overrides a client sends with an import (the
//! `X-AsaDB-CSV-*` and `X-AsaDB-XLSX-*` headers), persisted with the job
//! and part of its idempotency identity.

use serde::{Deserialize, Serialize};

use crate::{Error, Format, Result};

/// Every override an import may carry. Empty by default: everything is
/// detected.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ImportOptions {
    #[serde(default, skip_serializing_if = "CsvOptions::is_empty")]
    pub csv: CsvOptions,
    #[serde(default, skip_serializing_if = "XlsxOptions::is_empty")]
    pub xlsx: XlsxOptions,
}

/// CSV overrides; `None` means "detect".
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CsvOptions {
    /// The field delimiter (one ASCII character).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delimiter: Option<char>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quote: Option<Quote>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub escape: Option<Escape>,
    /// Whether the first (non-preamble) record is a header.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub header: Option<bool>,
    /// The text that stands for NULL (unquoted). Default: an unquoted
    /// empty field is NULL, a quoted empty field `""` is the empty string.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub null: Option<String>,
    /// What to do with rows whose field count differs from the header's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ragged: Option<Ragged>,
}

/// The quote character, or none (fields are never quoted).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Quote {
    None,
    Char(char),
}

/// The escape inside quoted fields: the quote itself (`""`, RFC 4180),
/// another character (`\"`), or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Escape {
    None,
    Char(char),
}

/// Rows with too few or too many fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Ragged {
    /// The job fails at the first such row, naming its line (default).
    #[default]
    Refuse,
    /// Short rows are padded with NULLs (and reported); long rows still
    /// fail the job: their extra fields would be lost.
    Pad,
    /// Such rows are not loaded; their count and lines are reported.
    Skip,
}

/// XLSX overrides.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct XlsxOptions {
    /// Which sheet: by name, by 1-based position, or all of them (each
    /// into a table named after it). Default: the first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sheet: Option<Sheet>,
    /// Whether the first non-empty row is a header (default: detected).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub header: Option<bool>,
}

/// A sheet selection.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Sheet {
    Name(String),
    /// 1-based.
    Index(u32),
    All,
}

impl CsvOptions {
    pub fn is_empty(&self) -> bool {
        *self == CsvOptions::default()
    }
}

impl XlsxOptions {
    pub fn is_empty(&self) -> bool {
        *self == XlsxOptions::default()
    }
}

impl std::str::FromStr for Ragged {
    type Err = Error;
    fn from_str(s: &str) -> Result<Ragged> {
        match s.trim().to_ascii_lowercase().as_str() {
            "refuse" | "error" => Ok(Ragged::Refuse),
            "pad" => Ok(Ragged::Pad),
            "skip" => Ok(Ragged::Skip),
            other => Err(Error::InvalidOption(format!(
                "ragged rows: unknown choice {other:?} (expected refuse, pad or skip)"
            ))),
        }
    }
}

impl std::str::FromStr for Sheet {
    type Err = Error;
    /// `*` or `all` → every sheet; digits → a 1-based position; anything
    /// else is a sheet name.
    fn from_str(s: &str) -> Result<Sheet> {
        let t = s.trim();
        if t == "*" || t.eq_ignore_ascii_case("all") {
            return Ok(Sheet::All);
        }
        if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
            return match t.parse::<u32>() {
                Ok(n) if n >= 1 => Ok(Sheet::Index(n)),
                _ => Err(Error::InvalidOption(format!(
                    "sheet position {t:?} must be 1 or more (sheets count from 1)"
                ))),
            };
        }
        if t.is_empty() {
            return Err(Error::InvalidOption("the sheet name is empty".into()));
        }
        Ok(Sheet::Name(t.to_string()))
    }
}

/// Parses a one-character option (`what` names it in errors): the
/// character itself, or `tab`, `\t`, `comma`, `semicolon`, `pipe`,
/// `space`; `none` gives `None` when `allow_none`. Only ASCII characters
/// other than CR and LF are accepted (the parser works on bytes).
pub fn parse_char_option(what: &str, value: &str, allow_none: bool) -> Result<Option<char>> {
    let c = match value {
        "\t" | "\\t" => '\t',
        v if v.eq_ignore_ascii_case("tab") => '\t',
        v if v.eq_ignore_ascii_case("comma") => ',',
        v if v.eq_ignore_ascii_case("semicolon") => ';',
        v if v.eq_ignore_ascii_case("pipe") => '|',
        v if v.eq_ignore_ascii_case("space") => ' ',
        v if allow_none && v.eq_ignore_ascii_case("none") => return Ok(None),
        v => {
            let mut chars = v.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => c,
                _ => {
                    return Err(Error::InvalidOption(format!(
                        "{what} must be one character (or tab, comma, semicolon, pipe, space{}), \
                         not {v:?}",
                        if allow_none { ", none" } else { "" }
                    )));
                }
            }
        }
    };
    if !c.is_ascii() || c == '\r' || c == '\n' || c == '\0' {
        return Err(Error::InvalidOption(format!(
            "{what} {c:?} is not supported: it must be an ASCII character other than CR, LF and NUL"
        )));
    }
    Ok(Some(c))
}

impl ImportOptions {
    /// Refuses options that do not apply to `format`, or that contradict
    /// each other. `target`: a target table was given; `replace`: the
    /// mode is replace.
    pub fn validate_for(&self, format: Format, target: bool, replace: bool) -> Result<()> {
        let tabular = matches!(format, Format::Csv | Format::Xlsx);
        if !self.csv.is_empty() && format != Format::Csv {
            return Err(Error::InvalidOption(format!(
                "the CSV options (X-AsaDB-CSV-*) apply to csv imports, not {format}"
            )));
        }
        if !self.xlsx.is_empty() && format != Format::Xlsx {
            return Err(Error::InvalidOption(format!(
                "the XLSX options (X-AsaDB-XLSX-*) apply to xlsx imports, not {format}"
            )));
        }
        if !tabular && target {
            return Err(Error::InvalidOption(format!(
                "a target table applies to csv and xlsx imports; a {format} body names its own tables"
            )));
        }
        if !tabular && replace {
            return Err(Error::InvalidOption(format!(
                "mode replace applies to csv and xlsx imports; a {format} body says itself \
                 what it drops and creates"
            )));
        }
        if self.xlsx.sheet == Some(Sheet::All) && target {
            return Err(Error::InvalidOption(
                "all sheets go into tables named after them: give no target table".into(),
            ));
        }
        let c = &self.csv;
        let quote = match c.quote {
            Some(Quote::Char(q)) => Some(q),
            Some(Quote::None) => None,
            None => Some('"'),
        };
        for (what, ch) in [
            ("delimiter", c.delimiter),
            ("quote", quote),
            (
                "escape",
                match c.escape {
                    Some(Escape::Char(e)) => Some(e),
                    _ => None,
                },
            ),
        ] {
            if let Some(ch) = ch {
                parse_char_option(what, &ch.to_string(), false)?;
            }
        }
        if let (Some(d), Some(q)) = (c.delimiter, quote)
            && d == q
            && c.quote.is_some()
        {
            return Err(Error::InvalidOption(format!(
                "the delimiter and the quote are both {d:?}"
            )));
        }
        if matches!(c.escape, Some(Escape::Char(_))) && c.quote == Some(Quote::None) {
            return Err(Error::InvalidOption(
                "an escape character needs a quote character (the quote is none)".into(),
            ));
        }
        if let Some(n) = &c.null
            && n.contains(['\r', '\n'])
        {
            return Err(Error::InvalidOption("the NULL text may not contain CR or LF".into()));
        }
        Ok(())
    }

    /// [`validate_for`](Self::validate_for) without target or mode.
    pub fn validate(&self, format: Format, target: bool) -> Result<()> {
        self.validate_for(format, target, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn char_options() {
        assert_eq!(parse_char_option("d", "tab", false).unwrap(), Some('\t'));
        assert_eq!(parse_char_option("d", "\\t", false).unwrap(), Some('\t'));
        assert_eq!(parse_char_option("d", ";", false).unwrap(), Some(';'));
        assert_eq!(parse_char_option("q", "none", true).unwrap(), None);
        assert!(parse_char_option("d", "none", false).is_err());
        assert!(parse_char_option("d", ";;", false).is_err());
        assert!(parse_char_option("d", "§", false).is_err());
        assert!(parse_char_option("d", "\n", false).is_err());
    }

    #[test]
    fn options_must_fit_the_format() {
        let csv = ImportOptions {
            csv: CsvOptions { delimiter: Some(';'), ..Default::default() },
            ..Default::default()
        };
        assert!(csv.validate(Format::Csv, true).is_ok());
        assert!(csv.validate(Format::Mysql, false).is_err());
        assert!(ImportOptions::default().validate(Format::Postgresql, true).is_err());
        assert!(ImportOptions::default().validate_for(Format::Sql, false, true).is_err());
        let same = ImportOptions {
            csv: CsvOptions {
                delimiter: Some('\''),
                quote: Some(Quote::Char('\'')),
                ..Default::default()
            },
            ..Default::default()
        };
        assert!(same.validate(Format::Csv, false).is_err());
        let all = ImportOptions {
            xlsx: XlsxOptions { sheet: Some(Sheet::All), header: None },
            ..Default::default()
        };
        assert!(all.validate(Format::Xlsx, true).is_err());
        assert!(all.validate(Format::Xlsx, false).is_ok());
        assert_eq!("2".parse::<Sheet>().unwrap(), Sheet::Index(2));
        assert!("0".parse::<Sheet>().is_err());
        assert_eq!("Track".parse::<Sheet>().unwrap(), Sheet::Name("Track".into()));
    }
}
