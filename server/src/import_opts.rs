//! The import option headers (`X-AsaDB-CSV-*`, `X-AsaDB-XLSX-*`) and
//! their JSON twins for `POST /api/reservoir/file`, parsed into
//! [`ImportOptions`]. Every value is checked here, so a bad one is a 400
//! before any body byte is read.

use asadb::interchange::{
    CsvOptions, Escape, ImportOptions, Quote, XlsxOptions, parse_char_option,
};
use serde::Deserialize;

use crate::error::{Error, Result};

/// The options as text, from headers or JSON fields.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OptionTexts {
    pub csv_delimiter: Option<String>,
    pub csv_quote: Option<String>,
    pub csv_escape: Option<String>,
    pub csv_header: Option<String>,
    pub csv_null: Option<String>,
    pub csv_ragged: Option<String>,
    pub xlsx_sheet: Option<String>,
    pub xlsx_header: Option<String>,
}

/// Header names, in the order of [`OptionTexts`]'s fields.
pub const HEADERS: [&str; 8] = [
    "x-asadb-csv-delimiter",
    "x-asadb-csv-quote",
    "x-asadb-csv-escape",
    "x-asadb-csv-header",
    "x-asadb-csv-null",
    "x-asadb-csv-ragged",
    "x-asadb-xlsx-sheet",
    "x-asadb-xlsx-header",
];

fn bad(e: impl std::fmt::Display) -> Error {
    Error::BadRequest(e.to_string())
}

fn flag(name: &str, v: &str) -> Result<bool> {
    match v.trim().to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(Error::BadRequest(format!("{name} must be true or false, not {v:?}"))),
    }
}

impl OptionTexts {
    /// Reads the headers with `get` (which already refuses repeated,
    /// non-UTF-8 and empty values). The NULL text may be given raw (it is
    /// not trimmed) and may be empty only as the JSON field.
    pub fn from_headers(
        mut get: impl FnMut(&str) -> Result<Option<String>>,
    ) -> Result<OptionTexts> {
        let mut v: Vec<Option<String>> = Vec::new();
        for h in HEADERS {
            v.push(get(h)?);
        }
        let mut it = v.into_iter();
        let mut next = || it.next().flatten();
        Ok(OptionTexts {
            csv_delimiter: next(),
            csv_quote: next(),
            csv_escape: next(),
            csv_header: next(),
            csv_null: next(),
            csv_ragged: next(),
            xlsx_sheet: next(),
            xlsx_header: next(),
        })
    }

    /// The typed options.
    pub fn parse(&self) -> Result<ImportOptions> {
        let quote = match &self.csv_quote {
            None => None,
            Some(q) => {
                Some(match parse_char_option("X-AsaDB-CSV-Quote", q, true).map_err(bad)? {
                    Some(c) => Quote::Char(c),
                    None => Quote::None,
                })
            }
        };
        let escape = match &self.csv_escape {
            None => None,
            Some(e) => {
                Some(match parse_char_option("X-AsaDB-CSV-Escape", e, true).map_err(bad)? {
                    Some(c) => Escape::Char(c),
                    None => Escape::None,
                })
            }
        };
        let delimiter = match &self.csv_delimiter {
            None => None,
            Some(d) => parse_char_option("X-AsaDB-CSV-Delimiter", d, false).map_err(bad)?,
        };
        Ok(ImportOptions {
            csv: CsvOptions {
                delimiter,
                quote,
                escape,
                header: self
                    .csv_header
                    .as_deref()
                    .map(|v| flag("X-AsaDB-CSV-Header", v))
                    .transpose()?,
                null: self.csv_null.clone(),
                ragged: self.csv_ragged.as_deref().map(str::parse).transpose().map_err(bad)?,
            },
            xlsx: XlsxOptions {
                sheet: self.xlsx_sheet.as_deref().map(str::parse).transpose().map_err(bad)?,
                header: self
                    .xlsx_header
                    .as_deref()
                    .map(|v| flag("X-AsaDB-XLSX-Header", v))
                    .transpose()?,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_become_options() {
        let t = OptionTexts {
            csv_delimiter: Some("tab".into()),
            csv_quote: Some("'".into()),
            csv_escape: Some("\\".into()),
            csv_header: Some("False".into()),
            csv_null: Some("\\N".into()),
            csv_ragged: Some("pad".into()),
            ..OptionTexts::default()
        };
        let o = t.parse().unwrap();
        assert_eq!(o.csv.delimiter, Some('\t'));
        assert_eq!(o.csv.quote, Some(Quote::Char('\'')));
        assert_eq!(o.csv.escape, Some(Escape::Char('\\')));
        assert_eq!(o.csv.header, Some(false));
        assert_eq!(o.csv.null.as_deref(), Some("\\N"));
        for bad in [
            OptionTexts { csv_delimiter: Some("ab".into()), ..Default::default() },
            OptionTexts { csv_header: Some("yes".into()), ..Default::default() },
            OptionTexts { csv_ragged: Some("drop".into()), ..Default::default() },
            OptionTexts { xlsx_sheet: Some("0".into()), ..Default::default() },
        ] {
            assert!(bad.parse().is_err(), "{bad:?}");
        }
    }
}
