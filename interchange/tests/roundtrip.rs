//! Export, then import: the same table.
//!
//! Scenario: a table of random rows (integers, reals, text with every
//! character CSV cares about, NULLs and empty strings) in the engine is
//! exported as CSV, TSV and SQL, and the export is imported back into a
//! table of the same shape — the CSV and TSV through the CSV importer with
//! its dialect detection, the SQL by running it.
//!
//! Invariant pinned here: every value comes back with the same type and
//! value (NULL stays NULL, '' stays '', reals are the same doubles). One-
//! column tables too, where a NULL is written `""` so that no row is a
//! blank line; there '' also reads back as NULL (the export's one
//! documented exception).

use asadb_interchange::export::{ExportFormat, Exporter};
use asadb_interchange::{Body, Format, ImportOptions, Mode, Spec};
use asadb_sql::Value;
use asadb_sql::session::{Engine, Outcome, Params, Session};
use proptest::prelude::*;

const DDL: &str = "CREATE TABLE t (i INTEGER, r REAL, s TEXT, n INTEGER)";

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            Just(','),
            Just(';'),
            Just('"'),
            Just('\''),
            Just('\n'),
            Just('\r'),
            Just('\t'),
            Just(' '),
            Just('\\'),
            Just('|'),
            Just('é'),
            Just('🎵'),
            Just('N'),
            Just('0'),
            prop::char::range('a', 'z'),
        ],
        0..12,
    )
    .prop_map(|v| v.into_iter().collect())
}

fn value_of(kind: usize) -> BoxedStrategy<Value> {
    let null = Just(Value::Null);
    match kind {
        0 => prop_oneof![1 => null, 6 => any::<i64>().prop_map(Value::Integer)].boxed(),
        1 => prop_oneof![
            1 => null,
            6 => any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::Real),
            1 => Just(Value::Real(f64::INFINITY)),
        ]
        .boxed(),
        2 => prop_oneof![1 => null, 6 => text().prop_map(|s| Value::Text(s.into()))].boxed(),
        _ => prop_oneof![1 => null, 3 => (0i64..1000).prop_map(Value::Integer)].boxed(),
    }
}

fn rows() -> impl Strategy<Value = Vec<Vec<Value>>> {
    prop::collection::vec((0..4).map(value_of).collect::<Vec<_>>(), 1..40)
}

fn session_with(rows: &[Vec<Value>]) -> Session {
    let mut s = Engine::memory().session();
    s.execute(DDL, &Params::None).unwrap();
    for r in rows {
        s.execute("INSERT INTO t VALUES (?, ?, ?, ?)", &Params::Positional(r.clone())).unwrap();
    }
    s
}

fn table(s: &mut Session, name: &str) -> Vec<Vec<Value>> {
    match s.execute(&format!("SELECT * FROM {name} ORDER BY rowid"), &Params::None).unwrap() {
        Outcome::Rows { rows, .. } => rows,
        o => panic!("{o:?}"),
    }
}

fn export(s: &mut Session, format: ExportFormat) -> Vec<u8> {
    let rows = table(s, "t");
    let mut e = Exporter::new(
        Vec::new(),
        format,
        vec!["i".into(), "r".into(), "s".into(), "n".into()],
        "u",
    )
    .unwrap();
    for r in &rows {
        e.row(r).unwrap();
    }
    e.finish().unwrap()
}

/// Imports CSV bytes into table `u` (created like `t`) of `s`.
fn import_csv(s: &mut Session, bytes: Vec<u8>) -> Result<(), String> {
    s.execute(&DDL.replace(" t ", " u "), &Params::None).unwrap();
    let spec = Spec {
        format: Format::Csv,
        original_name: None,
        target_table: Some("u".into()),
        mode: Mode::Append,
        options: ImportOptions::default(),
    };
    let cols = vec!["i".to_string(), "r".into(), "s".into(), "n".into()];
    let mut lookup = |_: &str| Some(cols.clone());
    let mut r = asadb_interchange::open(&spec, Box::new(std::io::Cursor::new(bytes)), &mut lookup)
        .map_err(|e| e.to_string())?;
    while let Some(u) = r.next_unit() {
        match u.map_err(|e| e.to_string())?.body {
            Body::Sql(sql) => {
                s.execute(&sql, &Params::None).map_err(|e| e.to_string())?;
            }
            Body::Rows(b) => {
                s.insert_values_owned(b.insert).map_err(|e| e.to_string())?;
            }
        }
    }
    Ok(())
}

fn same(a: &[Vec<Value>], b: &[Vec<Value>]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| p.is_identical(q) || p == q)
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Export then import gives the same table, all-NULL rows included
    /// (the table has several columns: a row of NULLs is a line of bare
    /// delimiters, read back as NULLs).
    #[test]
    fn csv_and_tsv_round_trip(rows in rows()) {
        for format in [ExportFormat::Csv, ExportFormat::Tsv] {
            let mut s = session_with(&rows);
            let bytes = export(&mut s, format);
            let text = String::from_utf8_lossy(&bytes).into_owned();
            import_csv(&mut s, bytes).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
            let (t, u) = (table(&mut s, "t"), table(&mut s, "u"));
            prop_assert!(same(&t, &u), "{format:?}\n{text}\n{t:?}\n{u:?}");
        }
    }

    #[test]
    fn sql_round_trips(rows in rows()) {
        let mut s = session_with(&rows);
        let bytes = export(&mut s, ExportFormat::Sql);
        s.execute(&DDL.replace(" t ", " u "), &Params::None).unwrap();
        for stmt in asadb_sql::script::Splitter::new(&bytes[..]) {
            s.execute(&stmt.unwrap().text, &Params::None).unwrap();
        }
        let (t, u) = (table(&mut s, "t"), table(&mut s, "u"));
        prop_assert!(same(&t, &u), "{t:?}\n{u:?}");
    }
}

/// A one-column table exported as CSV or TSV: a NULL is `""`, never a
/// blank line, so a plain CSV reader (csv-core, the `csv` crate's parser,
/// which skips blank lines) sees every row, and our import reads it back
/// as NULL. The empty string is `""` too and so reads back as NULL: in
/// one column CSV cannot keep both every row and NULL vs '' (see the
/// export module docs).
fn one_column_case(values: &[Value], format: ExportFormat, ddl_type: &str) -> Result<(), String> {
    let mut s = Engine::memory().session();
    s.execute(&format!("CREATE TABLE t (c {ddl_type})"), &Params::None).unwrap();
    for v in values {
        s.execute("INSERT INTO t VALUES (?)", &Params::Positional(vec![v.clone()])).unwrap();
    }
    let rows = table(&mut s, "t");
    let mut e = Exporter::new(Vec::new(), format, vec!["c".into()], "u").unwrap();
    for r in &rows {
        e.row(r).unwrap();
    }
    let bytes = e.finish().unwrap();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    // A plain reader sees the header and one record per row.
    let delimiter = if format == ExportFormat::Tsv { b'\t' } else { b',' };
    let mut rdr = csv_core::ReaderBuilder::new().delimiter(delimiter).build();
    let (mut input, mut out, mut ends) = (&bytes[..], [0u8; 4096], [0usize; 16]);
    let mut records = 0;
    loop {
        let (res, nin, _, _) = rdr.read_record(input, &mut out, &mut ends);
        input = &input[nin..];
        match res {
            csv_core::ReadRecordResult::Record => records += 1,
            csv_core::ReadRecordResult::End => break,
            _ => {}
        }
    }
    if records != rows.len() + 1 {
        return Err(format!("{records} records for {} rows:\n{text}", rows.len()));
    }
    // Into a new table, with detection.
    let spec = Spec {
        format: Format::Csv,
        original_name: None,
        target_table: Some("u".into()),
        mode: Mode::Append,
        options: ImportOptions::default(),
    };
    let mut none = |_: &str| None;
    let mut r = asadb_interchange::open(&spec, Box::new(std::io::Cursor::new(bytes)), &mut none)
        .map_err(|e| format!("{e}\n{text}"))?;
    while let Some(u) = r.next_unit() {
        match u.map_err(|e| format!("{e}\n{text}"))?.body {
            Body::Sql(sql) => {
                s.execute(&sql, &Params::None).map_err(|e| e.to_string())?;
            }
            Body::Rows(b) => {
                s.insert_values_owned(b.insert).map_err(|e| e.to_string())?;
            }
        }
    }
    // Detection types a column of integer-looking text INTEGER (`0`,
    // `-12`): such a value comes back as the number it spells.
    let got: Vec<Vec<Value>> = table(&mut s, "u")
        .into_iter()
        .enumerate()
        .map(|(i, g)| match (&g[0], rows.get(i).map(|r| &r[0])) {
            (Value::Integer(_) | Value::Real(_), Some(Value::Text(t)))
                if g[0].to_text().as_ref() == Some(t) =>
            {
                vec![Value::Text(t.clone())]
            }
            _ => g,
        })
        .collect();
    let want: Vec<Vec<Value>> = rows
        .iter()
        .map(|r| match &r[0] {
            Value::Text(t) if t.is_empty() => vec![Value::Null],
            _ => r.clone(),
        })
        .collect();
    if !same(&got, &want) {
        return Err(format!("{format:?}\n{text}\n{want:?}\n{got:?}"));
    }
    Ok(())
}

#[test]
fn one_column_all_null_rows_survive_the_round_trip() {
    for format in [ExportFormat::Csv, ExportFormat::Tsv] {
        let nulls = vec![Value::Null; 5];
        one_column_case(&nulls, format, "TEXT").unwrap();
        one_column_case(&nulls, format, "INTEGER").unwrap();
        let mixed = [Value::Integer(3), Value::Null, Value::Integer(-7), Value::Null];
        one_column_case(&mixed, format, "INTEGER").unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100, ..ProptestConfig::default() })]

    /// One-column tables of any kind of value round-trip (NULL rows
    /// included; '' reads back as NULL, the one documented exception).
    /// The text holds quotes, newlines, spaces and the export's own
    /// delimiter, but not the other delimiters a sniffer tries (`;` `|`
    /// tab): a single column of `a|b` lines *is* a two-column pipe file
    /// to detection (give X-AsaDB-CSV-Delimiter for such a file).
    #[test]
    fn one_column_tables_round_trip(
        (kind, values) in (0usize..4).prop_flat_map(|k| {
            let v = if k == 2 {
                let t = text().prop_filter("no other delimiter", |t| !t.contains([';', '|', '\t']));
                prop_oneof![1 => Just(Value::Null), 6 => t.prop_map(|s| Value::Text(s.into()))].boxed()
            } else {
                value_of(k)
            };
            (Just(k), prop::collection::vec(v, 1..30))
        })
    ) {
        let ddl_type = ["INTEGER", "REAL", "TEXT", "INTEGER"][kind];
        for format in [ExportFormat::Csv, ExportFormat::Tsv] {
            one_column_case(&values, format, ddl_type).map_err(TestCaseError::fail)?;
        }
    }
}
