//! The dialect sniffer, in the spirit of DuckDB's: every candidate
//! dialect (delimiter × quote × escape) parses a sample of the file, and
//! the one whose records agree best on a field count wins; then the
//! column types are inferred from the sample and the header is detected
//! by whether the first record fits those types.
//!
//! Choosing among candidates (each yields per-record field counts; `C`
//! is the most frequent count, larger on ties; "consistent" records have
//! `C` fields):
//! 1. a candidate that leaves a quote open at the end of the file is out;
//! 2. for each delimiter, a *clean* quote candidate — no anomalies (text
//!    after a closing quote) and no *stray quotes* (unquoted fields that
//!    begin with `"` or `'`, a quoted field read by the wrong quote
//!    character, or that hold the candidate's own quote, a quoted field
//!    run on by the wrong escape) — beats one that is not: `c⏎",⏎,"` is one column holding `,⏎,`, not two columns cut
//!    at the quoted comma (a file with no field that begins with a quote
//!    character is clean under every candidate); the rules below then
//!    choose among the delimiters' readings (and among the quotes of one
//!    delimiter when rule 2 ties);
//! 3. candidates with `C ≥ 2` whose consistent records are at least half
//!    of the sample (and at least two, unless the sample is one record)
//!    are plausible, and beat every implausible one;
//! 4. in a one-column file where every candidate reads one field per
//!    record, fewer anomalies, then fewer stray quotes, then fewer records
//!    win (quoted newlines joined, not cut);
//! 5. then fewer records with another count win (a candidate that cuts
//!    quoted newlines into extra records makes more records, and more
//!    ragged ones), then fewer stray quotes (`,,",` twice is one record
//!    with a quoted `,⏎,,`, not two records cut at its quotes), then more
//!    consistent records, then a larger `C`, then fewer
//!    quoted fields with text after their closing quote (the wrong escape
//!    convention), then a quote that was actually used, then the order of
//!    the candidate lists (`,` `;` tab `|`, then `:` `^` `~` `#`; `"`
//!    with `""`, `"` with `\"`, `'` with `''`, `'` with `\'`, no quote).
//!
//! Records before the first consistent one are a *preamble* (titles,
//! notes) and are skipped; the header, when there is one, is the first
//! consistent record. Header rule (DuckDB's): if every column's type is
//! TEXT, the first record is a header; otherwise it is one exactly when
//! one of its values does not fit its column's type.
//!
//! Type inference (INTEGER, REAL, TEXT) is deliberately strict, so that
//! identifiers survive: `0171`, `+1`, `1e5`, `1,000`, `.5`, `5.`, dates
//! and booleans are TEXT; `-12` is INTEGER; `0.99`, `-1.5e-3` are REAL. A
//! column of only empty fields is TEXT.

use super::records::{EscapeMode, Record, Records, Syntax};
use crate::{CsvOptions, Error, Escape, Quote, Result};

/// Sample limits: bytes of decoded text and records.
pub const SAMPLE_BYTES: usize = 1 << 20;
pub const SAMPLE_RECORDS: usize = 20_480;

const DELIMITERS: [u8; 4] = [b',', b';', b'\t', b'|'];
const MORE_DELIMITERS: [u8; 4] = [b':', b'^', b'~', b'#'];

/// A column type of a new table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ColType {
    Integer,
    Real,
    Text,
}

impl ColType {
    pub fn sql(self) -> &'static str {
        match self {
            ColType::Integer => "INTEGER",
            ColType::Real => "REAL",
            ColType::Text => "TEXT",
        }
    }
}

/// What the sniffer decided.
#[derive(Clone, Debug)]
pub struct Sniffed {
    pub syntax: Syntax,
    /// Records before the header (or the first data record).
    pub preamble: u64,
    pub header: bool,
    /// Field count of the records.
    pub columns: usize,
    /// Column names (from the header, or `column1` …).
    pub names: Vec<String>,
    pub types: Vec<ColType>,
    pub line_ending: &'static str,
}

/// Is `s` an integer as inference counts one: `-?(0|[1-9][0-9]*)` that
/// fits 64 bits.
pub fn is_integer(s: &[u8]) -> bool {
    let digits = s.strip_prefix(b"-").unwrap_or(s);
    !digits.is_empty()
        && digits.iter().all(u8::is_ascii_digit)
        && (digits.len() == 1 || digits[0] != b'0')
        && std::str::from_utf8(s).ok().and_then(|t| t.parse::<i64>().ok()).is_some()
}

/// Is `s` a real as inference counts one:
/// `-?(0|[1-9][0-9]*)\.[0-9]+([eE][-+]?[0-9]+)?`.
pub fn is_real(s: &[u8]) -> bool {
    let s = s.strip_prefix(b"-").unwrap_or(s);
    let int_len = s.iter().take_while(|b| b.is_ascii_digit()).count();
    if int_len == 0 || (int_len > 1 && s[0] == b'0') {
        return false;
    }
    let rest = &s[int_len..];
    let Some(rest) = rest.strip_prefix(b".") else { return false };
    let frac = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    if frac == 0 {
        return false;
    }
    let rest = &rest[frac..];
    if rest.is_empty() {
        return true;
    }
    let Some(exp) = rest.strip_prefix(b"e").or_else(|| rest.strip_prefix(b"E")) else {
        return false;
    };
    let exp = exp.strip_prefix(b"+").or_else(|| exp.strip_prefix(b"-")).unwrap_or(exp);
    !exp.is_empty() && exp.iter().all(u8::is_ascii_digit)
}

/// Per-column inference state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Seen {
    Nothing,
    Is(ColType),
}

fn widen(seen: Seen, value: &[u8]) -> Seen {
    let t = if is_integer(value) {
        ColType::Integer
    } else if is_real(value) {
        ColType::Real
    } else {
        ColType::Text
    };
    match seen {
        Seen::Nothing => Seen::Is(t),
        Seen::Is(s) => Seen::Is(s.max(t)),
    }
}

/// Whether a value fits a type (the header test).
fn fits(value: &[u8], t: ColType) -> bool {
    match t {
        ColType::Integer => is_integer(value),
        ColType::Real => is_integer(value) || is_real(value),
        ColType::Text => true,
    }
}

/// One candidate's parse of the sample.
struct Trial {
    syntax: Syntax,
    counts: Vec<usize>,
    anomalies: u32,
    /// Stray quotes (rule 2): unquoted fields beginning with `"` or `'`
    /// or holding the candidate's quote.
    stray: usize,
    quote_used: bool,
    consistent: usize,
    mode: usize,
    order: usize,
}

/// A field is NULL when unquoted and equal to the NULL text (default:
/// empty). Without a NULL text, the one field of a one-field record that
/// is a quoted empty `""` is NULL too: a one-column file cannot hold an
/// unquoted empty field (it would be a blank line, which is skipped), so
/// `""` is how a one-column NULL is written — by our export, the `csv`
/// crate and pandas — and how pandas and DuckDB read it.
pub fn is_null(rec: &Record, i: usize, null: Option<&str>) -> bool {
    if rec.quoted(i) {
        return null.is_none() && rec.len() == 1 && rec.field(i).is_empty();
    }
    rec.field(i) == null.unwrap_or("").as_bytes()
}

/// Sniffs `sample` (decoded UTF-8; `whole`: it is the entire body).
pub fn sniff(sample: &[u8], whole: bool, opts: &CsvOptions) -> Result<Sniffed> {
    let (cr, lf, crlf) = line_endings(sample);
    let cr_lines = cr > 0 && lf == 0 && crlf == 0;
    let line_ending = match (cr, lf, crlf) {
        (0, 0, 0) => "none",
        (0, 0, _) => "crlf",
        (0, _, 0) => "lf",
        (_, 0, 0) => "cr",
        _ => "mixed",
    };
    let delims: Vec<u8> = match opts.delimiter {
        Some(d) => vec![d as u8],
        None => DELIMITERS.to_vec(),
    };
    let mut best = pick(sample, whole, &delims, opts, cr_lines, 0)?;
    if opts.delimiter.is_none()
        && best.as_ref().is_none_or(|t| t.mode < 2)
        && let Some(t) =
            pick(sample, whole, &MORE_DELIMITERS, opts, cr_lines, DELIMITERS.len() * 10)?
        && plausible(&t)
    {
        best = Some(t);
    }
    let Some(best) = best else {
        return Err(Error::Malformed {
            line: 1,
            message: "no delimiter and quote choice parses this text (a quote that is never \
                      closed?); give X-AsaDB-CSV-Delimiter and X-AsaDB-CSV-Quote"
                .into(),
        });
    };
    let columns = best.mode.max(1);
    let preamble = best.counts.iter().take_while(|&&c| c != columns).count() as u64;
    // Second pass over the consistent records: header candidate and types.
    let mut recs = Records::new(sample, best.syntax, 0, usize::MAX);
    let mut rec = Record::default();
    let mut index = 0usize;
    let mut first: Option<Vec<(Vec<u8>, bool)>> = None;
    let mut seen = vec![Seen::Nothing; columns];
    let usable = best.counts.len();
    while index < usable && matches!(recs.next_record(&mut rec), Ok(true)) {
        index += 1;
        if (index as u64) <= preamble {
            continue;
        }
        if rec.len() != columns {
            continue;
        }
        if first.is_none() {
            first = Some((0..columns).map(|i| (rec.field(i).to_vec(), rec.quoted(i))).collect());
            continue;
        }
        for (i, s) in seen.iter_mut().enumerate() {
            if !is_null(&rec, i, opts.null.as_deref()) {
                *s = widen(*s, rec.field(i));
            }
        }
    }
    let types: Vec<ColType> = seen
        .iter()
        .map(|s| match s {
            Seen::Nothing => ColType::Text,
            Seen::Is(t) => *t,
        })
        .collect();
    let first = first.unwrap_or_default();
    let header = match opts.header {
        Some(h) => h,
        None => {
            let all_text = types.iter().all(|t| *t == ColType::Text);
            all_text
                || first.iter().zip(&types).any(|((v, quoted), t)| {
                    let null =
                        !quoted && v.as_slice() == opts.null.as_deref().unwrap_or("").as_bytes();
                    !null && !fits(v, *t)
                })
        }
    };
    let mut names: Vec<String> = if header {
        first.iter().map(|(v, _)| String::from_utf8_lossy(v).trim().to_string()).collect()
    } else {
        Vec::new()
    };
    names.resize(columns, String::new());
    let names = unique_names(names);
    // Without a header the first record is data: it counts for the types.
    let types = if header || first.is_empty() {
        types
    } else {
        types
            .iter()
            .zip(&first)
            .map(|(t, (v, quoted))| {
                let null = !quoted && v.as_slice() == opts.null.as_deref().unwrap_or("").as_bytes();
                if null {
                    *t
                } else {
                    match widen(Seen::Is(*t), v) {
                        Seen::Is(w) => w,
                        Seen::Nothing => *t,
                    }
                }
            })
            .collect()
    };
    Ok(Sniffed { syntax: best.syntax, preamble, header, columns, names, types, line_ending })
}

/// Names for the columns: empty ones become `columnN`, repeated ones
/// (case-insensitively) get `_2`, `_3` … appended.
pub(crate) fn unique_names(raw: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(raw.len());
    for (i, n) in raw.into_iter().enumerate() {
        let base = if n.is_empty() { format!("column{}", i + 1) } else { n };
        let mut name = base.clone();
        let mut k = 2;
        while out.iter().any(|o| o.eq_ignore_ascii_case(&name)) {
            name = format!("{base}_{k}");
            k += 1;
        }
        out.push(name);
    }
    out
}

/// Counts lone CR, lone LF and CRLF.
fn line_endings(s: &[u8]) -> (usize, usize, usize) {
    let (mut cr, mut lf, mut crlf) = (0, 0, 0);
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'\r' if s.get(i + 1) == Some(&b'\n') => {
                crlf += 1;
                i += 1;
            }
            b'\r' => cr += 1,
            b'\n' => lf += 1,
            _ => {}
        }
        i += 1;
    }
    (cr, lf, crlf)
}

/// The quote/escape candidates the options allow.
fn quote_candidates(opts: &CsvOptions) -> Vec<(Option<u8>, EscapeMode)> {
    let all: [(Option<u8>, EscapeMode); 5] = [
        (Some(b'"'), EscapeMode::Double),
        (Some(b'"'), EscapeMode::Char(b'\\')),
        (Some(b'\''), EscapeMode::Double),
        (Some(b'\''), EscapeMode::Char(b'\\')),
        (None, EscapeMode::None),
    ];
    let escape_of = |q: u8, e: Escape| match e {
        Escape::None => EscapeMode::None,
        Escape::Char(c) if c as u8 == q => EscapeMode::Double,
        Escape::Char(c) => EscapeMode::Char(c as u8),
    };
    match (opts.quote, opts.escape) {
        (Some(Quote::None), _) => vec![(None, EscapeMode::None)],
        (Some(Quote::Char(q)), Some(e)) => vec![(Some(q as u8), escape_of(q as u8, e))],
        (Some(Quote::Char(q)), None) => {
            vec![(Some(q as u8), EscapeMode::Double), (Some(q as u8), EscapeMode::Char(b'\\'))]
        }
        // A quote character given as the escape is the doubled-quote
        // convention of that quote (`"` → `""`): never another quote
        // escaped by it, which would let an unquoted reading win.
        (None, Some(Escape::Char(c))) if c == '"' || c == '\'' => {
            vec![(Some(c as u8), EscapeMode::Double)]
        }
        (None, Some(e)) => [b'"', b'\''].iter().map(|&q| (Some(q), escape_of(q, e))).collect(),
        (None, None) => all.to_vec(),
    }
}

/// The best candidate over `delims`, or `None` when every one fails.
fn pick(
    sample: &[u8],
    whole: bool,
    delims: &[u8],
    opts: &CsvOptions,
    cr_lines: bool,
    order_base: usize,
) -> Result<Option<Trial>> {
    let mut best: Option<Trial> = None;
    let mut order = order_base;
    for &delimiter in delims {
        // Rule 2 picks the quote for this delimiter; the other rules pick
        // among delimiters (a field's start, and so a stray quote, depends
        // on the delimiter).
        let mut best_quote: Option<Trial> = None;
        for (quote, escape) in quote_candidates(opts) {
            order += 1;
            if quote == Some(delimiter) || matches!(escape, EscapeMode::Char(e) if e == delimiter) {
                continue;
            }
            let syntax = Syntax { delimiter, quote, escape, cr_lines };
            let Some(t) = trial(sample, whole, syntax, order)? else { continue };
            if best_quote.as_ref().is_none_or(|b| better_quote(&t, b)) {
                best_quote = Some(t);
            }
        }
        if let Some(t) = best_quote
            && best.as_ref().is_none_or(|b| better(&t, b))
        {
            best = Some(t);
        }
    }
    Ok(best)
}

/// Rule 3 of the module docs: at least two fields, and at least half of
/// the records (and two of them, unless there is only one) have that
/// count — one record of two fields among one-field records, e.g. `","`
/// read without quotes under a one-column header, is no dialect.
fn plausible(t: &Trial) -> bool {
    t.mode >= 2 && t.consistent * 2 >= t.counts.len() && (t.consistent >= 2 || t.counts.len() == 1)
}

/// `a` beats `b`, two readings with one delimiter (rule 2, then the
/// rest).
fn better_quote(a: &Trial, b: &Trial) -> bool {
    let clean = |t: &Trial| t.anomalies == 0 && t.stray == 0;
    if clean(a) != clean(b) {
        return clean(a);
    }
    better(a, b)
}

/// `a` beats `b` (rules 3–5 of the module docs).
fn better(a: &Trial, b: &Trial) -> bool {
    if plausible(a) != plausible(b) {
        return plausible(a);
    }
    // One column: a candidate that cuts quoted newlines into more records
    // keeps every record "consistent" (one field each), so counting
    // consistent records would prefer it. There the reading with fewer
    // anomalies, then fewer records (quoted newlines joined), wins.
    let one_column = |t: &Trial| t.mode == 1 && t.consistent == t.counts.len();
    if one_column(a) && one_column(b) && a.counts.len() != b.counts.len() {
        return (a.anomalies, a.stray, a.counts.len()) < (b.anomalies, b.stray, b.counts.len());
    }
    let key = |t: &Trial| {
        (
            std::cmp::Reverse(t.counts.len() - t.consistent),
            std::cmp::Reverse(t.stray),
            t.consistent,
            t.mode,
            std::cmp::Reverse(t.anomalies),
            t.quote_used,
            std::cmp::Reverse(t.order),
        )
    };
    key(a) > key(b)
}

/// Parses the sample with one candidate; `None` when it fails.
fn trial(sample: &[u8], whole: bool, syntax: Syntax, order: usize) -> Result<Option<Trial>> {
    let mut recs = Records::new(sample, syntax, 0, usize::MAX);
    let mut rec = Record::default();
    let mut counts = Vec::new();
    let mut anomalies = 0;
    let mut quote_used = false;
    let mut stray = 0;
    let mut ends = Vec::new();
    loop {
        match recs.next_record(&mut rec) {
            Ok(true) => {}
            Ok(false) => break,
            // An unclosed quote: fatal if the sample is the whole body,
            // else the sample may simply have cut a quoted field.
            Err(_) if !whole => break,
            Err(_) => return Ok(None),
        }
        counts.push(rec.len());
        ends.push(rec.end);
        anomalies += rec.anomalies;
        quote_used |= (0..rec.len()).any(|i| rec.quoted(i));
        stray += (0..rec.len())
            .filter(|&i| {
                let f = rec.field(i);
                !rec.quoted(i)
                    && (matches!(f.first(), Some(b'"' | b'\''))
                        || syntax.quote.is_some_and(|q| f.contains(&q)))
            })
            .count();
        if counts.len() >= SAMPLE_RECORDS {
            break;
        }
    }
    // A partial sample's last record may be cut short.
    if !whole && counts.len() > 1 && ends.last().is_some_and(|&e| e as usize >= sample.len()) {
        counts.pop();
    }
    if counts.is_empty() {
        return Ok(None);
    }
    let mut freq: std::collections::BTreeMap<usize, usize> = Default::default();
    for &c in &counts {
        *freq.entry(c).or_default() += 1;
    }
    let (&mode, &consistent) =
        freq.iter().max_by_key(|(c, n)| (**n, **c)).expect("counts is not empty");
    Ok(Some(Trial { syntax, counts, anomalies, stray, quote_used, consistent, mode, order }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> Sniffed {
        sniff(text.as_bytes(), true, &CsvOptions::default()).unwrap()
    }

    #[test]
    fn inference_is_strict() {
        for v in ["0", "-12", "42", "9223372036854775807"] {
            assert!(is_integer(v.as_bytes()), "{v}");
        }
        for v in ["0171", "+1", "1e5", "1,000", "", "-", "9223372036854775808", " 1"] {
            assert!(!is_integer(v.as_bytes()), "{v}");
        }
        for v in ["0.99", "-1.5e-3", "1.0E+20", "10.5"] {
            assert!(is_real(v.as_bytes()), "{v}");
        }
        for v in [".5", "5.", "1e5", "00.5", "1.5e", "2021-01-01", "1.2.3"] {
            assert!(!is_real(v.as_bytes()), "{v}");
        }
    }

    #[test]
    fn delimiters_quotes_and_headers() {
        let d = s("id,name,price\n1,\"a, b\",0.5\n2,c,1.25\n");
        assert_eq!((d.syntax.delimiter, d.header, d.columns), (b',', true, 3));
        assert_eq!(d.types, vec![ColType::Integer, ColType::Text, ColType::Real]);
        assert_eq!(d.names, vec!["id", "name", "price"]);
        let d = s("1;Angus Young, Malcolm Young;0.99\n2;x;1.99\n3;\"a;b\";2.5\n");
        assert_eq!((d.syntax.delimiter, d.header), (b';', false));
        assert_eq!(d.names, vec!["column1", "column2", "column3"]);
        let d = s("a\tb\n1\t2\n");
        assert_eq!(d.syntax.delimiter, b'\t');
        let d = s("x|y\n'a|b'|2\n'c'|3\n");
        assert_eq!((d.syntax.delimiter, d.syntax.quote), (b'|', Some(b'\'')));
        let d = s("name,code\nO'Brien,007\nx,008\n");
        assert_eq!(d.syntax.quote, Some(b'"'));
        assert_eq!(d.types, vec![ColType::Text, ColType::Text]);
        assert!(d.header);
    }

    #[test]
    fn a_backslash_escaped_quote_before_a_letter_is_not_a_doubled_one() {
        let d = s("id,t\n1,\"quote\\\"d\"\n2,\"x\"\n3,y\n");
        assert_eq!(d.syntax.escape, EscapeMode::Char(b'\\'));
    }

    #[test]
    fn quoted_newlines_beat_a_split_into_more_records() {
        // Without quotes the rows split at their newlines into more
        // records, more of them with 3 fields than the header's 4.
        let d = s("i\tr\ts\tn\n\t\t\"\n\"\t\n\t\t\"\n\t\"\t\n\t\t\"\n\t\"\t\n");
        assert_eq!((d.syntax.delimiter, d.syntax.quote, d.columns), (b'\t', Some(b'"'), 4));
    }

    #[test]
    fn backslash_escapes_are_detected() {
        let d = s("a,b\n\"say \\\"hi\\\"\",1\n\"x\",2\n");
        assert_eq!(d.syntax.escape, EscapeMode::Char(b'\\'));
    }

    #[test]
    fn preamble_lines_are_found() {
        let d = s(
            "Sales report\nGenerated 2024-01-01\nregion,units,price\nnorth,1,0.5\nsouth,2,0.75\n",
        );
        assert_eq!((d.preamble, d.header, d.columns), (2, true, 3));
        assert_eq!(d.names[0], "region");
    }

    #[test]
    fn names_are_made_unique() {
        let d = s(",a,A,a\n1,2,3,4\n");
        assert_eq!(d.names, vec!["column1", "a", "A_2", "a_3"]);
    }

    #[test]
    fn one_column_files_keep_their_quotes() {
        // A quoted newline, a quoted comma: one column, quoted by `"`.
        // `'` joins the middle lines into fewer records, but leaves `"`
        // at the start of unquoted fields: `"` is the quote.
        let stray = "c\n\"\n'\"\n\"\"\n\"\"\n\"'\n\"\n";
        for text in ["c\n\"\n\"\n", "c\n\",\"\n", "c\n\"a\nb\"\nx\n", stray] {
            let d = s(text);
            assert_eq!((d.columns, d.syntax.quote), (1, Some(b'"')), "{text:?}");
        }
    }

    #[test]
    fn overrides_are_obeyed() {
        let o = CsvOptions { delimiter: Some(';'), header: Some(false), ..Default::default() };
        let d = sniff(b"a,b;c\n", true, &o).unwrap();
        assert_eq!((d.syntax.delimiter, d.header, d.columns), (b';', false, 2));
    }
}
