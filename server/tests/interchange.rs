//! Imports through the real server over HTTP: every file of the shared
//! interchange fixtures (real exports of pg_dump, mariadb-dump, sqlite3,
//! psql, openpyxl and LibreOffice) is uploaded as a Reservoir job, and
//! each resulting table must equal the oracle exactly — values and
//! `typeof`, as SQLite holds the same data. Plus hostile inputs: what a
//! body that is not its format, a bad option or a ragged row gives.
//!
//! Invariant pinned here: an import is never silent — it loads the same
//! data the source tool dumped, or fails naming the line, and reports
//! every statement kind it skipped.

#[path = "common/fixtures.rs"]
mod fixtures;
#[path = "common/server.rs"]
mod server;

use std::time::{Duration, Instant};

use fixtures::{Oracle, V};
use serde_json::Value;
use server::Server;

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder().http_status_as_error(false).build().into()
}

/// POSTs a body to `/api/reservoir/jobs`; (status, JSON).
fn submit(s: &Server, headers: &[(&str, &str)], body: &[u8]) -> (u16, Value) {
    let mut b = ureq::http::Request::builder()
        .method("POST")
        .uri(format!("http://{}/api/reservoir/jobs", s.addr))
        .header("Authorization", format!("Bearer {}", s.token));
    for (k, v) in headers {
        b = b.header(*k, *v);
    }
    let mut resp = agent().run(b.body(body.to_vec()).unwrap()).expect("submit");
    let status = resp.status().as_u16();
    let text = resp.body_mut().read_to_string().unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
}

fn get(s: &Server, path: &str) -> Value {
    let req = ureq::http::Request::builder()
        .uri(format!("http://{}{path}", s.addr))
        .header("Authorization", format!("Bearer {}", s.token))
        .body(Vec::new())
        .unwrap();
    let mut resp = agent().run(req).expect("get");
    serde_json::from_str(&resp.body_mut().read_to_string().unwrap()).unwrap()
}

/// Submits and waits for the job to end; its final snapshot.
fn import(s: &Server, headers: &[(&str, &str)], body: &[u8]) -> Value {
    let (status, job) = submit(s, headers, body);
    assert_eq!(status, 201, "{job}");
    let id = job["id"].as_u64().unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let j = get(s, &format!("/api/reservoir/job?id={id}"));
        let state = j["state"].as_str().unwrap().to_string();
        if !["receiving", "queued", "processing", "cancelling"].contains(&state.as_str()) {
            return j;
        }
        assert!(Instant::now() < deadline, "job {id} did not end: {j}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn import_file(s: &Server, name: &str, headers: &[(&str, &str)]) -> Value {
    let body = std::fs::read(fixtures::path(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut h = vec![("X-AsaDB-Import-Original-Name", name.rsplit('/').next().unwrap())];
    h.extend_from_slice(headers);
    let job = import(s, &h, &body);
    assert_eq!(job["state"], "completed", "{name}: {job}");
    job
}

/// Every row of a query, through `/api/query`'s pages.
fn query(s: &Server, sql: &str) -> Vec<Vec<V>> {
    let mut out = Vec::new();
    let mut offset = 0u64;
    loop {
        let body = serde_json::json!({"sql": sql, "offset": offset}).to_string();
        let req = ureq::http::Request::builder()
            .method("POST")
            .uri(format!("http://{}/api/query", s.addr))
            .header("Authorization", format!("Bearer {}", s.token))
            .header("Content-Type", "application/json")
            .body(body.into_bytes())
            .unwrap();
        let mut resp = agent().run(req).expect("query");
        let page: Value = serde_json::from_str(&resp.body_mut().read_to_string().unwrap()).unwrap();
        let rows = page["rows"].as_array().unwrap_or_else(|| panic!("{sql}: {page}"));
        out.extend(rows.iter().map(|r| r.as_array().unwrap().iter().map(V::from_json).collect()));
        match page["next_offset"].as_u64() {
            Some(n) => offset = n,
            None => return out,
        }
    }
}

fn table(s: &Server, t: &str) -> Vec<Vec<V>> {
    query(s, &format!("SELECT * FROM \"{t}\" ORDER BY 1, 2"))
}

/// `ours` equals the oracle's rows, values and types.
fn assert_table(what: &str, ours: &[Vec<V>], want: &[Vec<V>]) {
    assert_eq!(ours.len(), want.len(), "{what}: row count");
    for (i, (a, b)) in ours.iter().zip(want).enumerate() {
        assert_eq!(a, b, "{what}: row {i}");
    }
}

fn fresh() -> (tempfile::TempDir, Server) {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::spawn(dir.path(), &[]);
    (dir, s)
}

#[test]
fn csv_exports_equal_the_oracle() {
    let oracle = Oracle::load();
    let (_d, s) = fresh();
    // No format header: detected from the name; the table is named after
    // the file.
    let job = import_file(&s, "track.csv", &[]);
    assert_eq!(job["report"]["format"], "csv", "{job}");
    assert_eq!(job["report"]["csv"]["delimiter"], ",");
    assert_eq!(job["report"]["csv"]["header"], true);
    assert_eq!(job["progress"]["rows_affected"], 3503);
    assert_table("track.csv", &table(&s, "track"), &oracle.rows("Track"));
    import_file(&s, "invoice.csv", &[("X-AsaDB-Import-Format", "csv")]);
    assert_table("invoice.csv", &table(&s, "invoice"), &oracle.rows("Invoice"));
    import_file(&s, "customer.csv", &[]);
    assert_table("customer.csv", &table(&s, "customer"), &oracle.rows("Customer"));
    let job =
        import_file(&s, "track.semicolon.csv", &[("X-AsaDB-Import-Target-Table", "track_semi")]);
    assert_eq!(job["report"]["csv"]["delimiter"], ";", "{job}");
    assert_table("track.semicolon.csv", &table(&s, "track_semi"), &oracle.rows("Track"));
    let job = import_file(
        &s,
        "customer.bom-crlf.csv",
        &[("X-AsaDB-Import-Target-Table", "customer_bom")],
    );
    assert_eq!(job["report"]["csv"]["line_ending"], "crlf", "{job}");
    assert!(job["report"]["csv"]["encoding"].as_str().unwrap().contains("BOM"), "{job}");
    assert_table("customer.bom-crlf.csv", &table(&s, "customer_bom"), &oracle.rows("Customer"));
}

#[test]
fn csv_replace_and_append_into_an_existing_table() {
    let oracle = Oracle::load();
    let (_d, s) = fresh();
    let body = std::fs::read(fixtures::path("customer.csv")).unwrap();
    let h = [("X-AsaDB-Import-Format", "csv"), ("X-AsaDB-Import-Target-Table", "c")];
    assert_eq!(import(&s, &h, &body)["state"], "completed");
    assert_eq!(import(&s, &h, &body)["state"], "completed");
    assert_eq!(query(&s, "SELECT count(*) FROM c"), vec![vec![V::Int(118)]]);
    let replace = [h[0], h[1], ("X-AsaDB-Import-Mode", "replace")];
    assert_eq!(import(&s, &replace, &body)["state"], "completed");
    assert_table("replace", &table(&s, "c"), &oracle.rows("Customer"));
}

/// Imports a dump into a fresh server and checks all 11 tables.
fn dump_equals_the_oracle(oracle: &Oracle, file: &str, snake: bool, format: Option<&str>) -> Value {
    let (_d, s) = fresh();
    let mut h = Vec::new();
    if let Some(f) = format {
        h.push(("X-AsaDB-Import-Format", f));
    }
    let job = import_file(&s, file, &h);
    for (pascal, snake_name) in fixtures::TABLES {
        let ours = table(&s, if snake { snake_name } else { pascal });
        assert_table(&format!("{file}: {pascal}"), &ours, &oracle.rows(pascal));
    }
    job
}

fn skipped(job: &Value) -> Vec<(String, u64)> {
    job["report"]["skipped"]
        .as_array()
        .unwrap_or_else(|| panic!("no skipped list: {job}"))
        .iter()
        .map(|s| (s["kind"].as_str().unwrap().to_string(), s["count"].as_u64().unwrap()))
        .collect()
}

#[test]
fn pg_dump_copy_format_equals_the_oracle() {
    let oracle = Oracle::load();
    let job = dump_equals_the_oracle(&oracle, "chinook.pg.sql", true, None);
    assert_eq!(job["report"]["format"], "postgresql", "{job}");
    let k = skipped(&job);
    assert!(k.contains(&("SET".into(), 11)), "{k:?}");
    assert!(k.contains(&("psql meta-command \\restrict".into(), 1)), "{k:?}");
    assert!(k.contains(&("CREATE SEQUENCE".into(), 10)), "{k:?}");
    assert!(k.contains(&("SELECT setval (sequence position)".into(), 10)), "{k:?}");
    assert!(
        k.contains(&("ALTER TABLE ADD CONSTRAINT (folded into its CREATE TABLE)".into(), 22)),
        "{k:?}"
    );
}

#[test]
fn pg_dump_inserts_formats_equal_the_oracle() {
    let oracle = Oracle::load();
    dump_equals_the_oracle(&oracle, "chinook.pg-inserts.sql", true, Some("postgresql"));
    dump_equals_the_oracle(&oracle, "chinook.pg-identity-inserts.sql", true, None);
}

#[test]
fn mariadb_dump_equals_the_oracle() {
    let oracle = Oracle::load();
    let job = dump_equals_the_oracle(&oracle, "chinook.mysql.sql", false, None);
    assert_eq!(job["report"]["format"], "mysql", "{job}");
    let k = skipped(&job);
    assert!(k.contains(&("LOCK TABLES".into(), 11)), "{k:?}");
    assert!(k.contains(&("MariaDB client command (sandbox mode)".into(), 1)), "{k:?}");
}

/// A `sqlite3 .dump` as a Reservoir job: it starts with `PRAGMA
/// foreign_keys=OFF` and refills `sqlite_sequence`, both handled by the
/// schema layer (the importer passes a SQLite dump to the engine unchanged).
#[test]
fn sqlite3_dumps_equal_the_oracle() {
    let oracle = Oracle::load();
    // Detected from the bytes and the name, and named explicitly.
    for format in [None, Some("sqlite")] {
        let job = dump_equals_the_oracle(&oracle, "chinook.sqlite.sql", false, format);
        assert_eq!(job["state"], "completed", "{job}");
    }
    let (_d, s) = fresh();
    import_file(&s, "chinook.sqlite.sql", &[]);
    // sqlite_sequence came along: the next AUTOINCREMENT key follows it.
    assert_eq!(
        query(&s, "SELECT seq FROM sqlite_sequence WHERE name = 'Track'"),
        vec![vec![V::Int(3503)]]
    );
    let (_d, s) = fresh();
    import_file(&s, "edge/edge.sqlite.sql", &[]);
    assert_table(
        "edge.sqlite.sql",
        &query(&s, "SELECT * FROM edge_cases ORDER BY id"),
        &edge_oracle(),
    );
}

/// The edge rows as SQLite holds them after loading its own dump.
fn edge_oracle() -> Vec<Vec<V>> {
    let dump = std::fs::read_to_string(fixtures::path("edge/edge.sqlite.sql")).unwrap();
    let db = rusqlite::Connection::open_in_memory().unwrap();
    db.execute_batch(&dump).unwrap();
    let mut st = db.prepare("SELECT * FROM edge_cases ORDER BY id").unwrap();
    st.query_map([], |r| Ok((0..6).map(|i| V::from_sqlite(r.get_ref(i).unwrap())).collect()))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

#[test]
fn edge_files_keep_null_empty_newlines_tabs_emoji_backslashes_and_quotes() {
    let want = edge_oracle();
    assert_eq!(want[2][2], V::Text(String::new()), "row 3 is the empty string");
    assert_eq!(want[3][2], V::Null, "row 4 is NULL");
    assert_eq!(want[1][2], V::Text("line1\r\nline2".into()));
    for file in ["edge/edge.pg.sql", "edge/edge.pg-inserts.sql", "edge/edge.mysql.sql"] {
        let (_d, s) = fresh();
        import_file(&s, file, &[]);
        let ours = query(&s, "SELECT * FROM edge_cases ORDER BY id");
        assert_table(file, &ours, &want);
    }
    // CSV has no numeric scale or boolean type: the text columns must
    // still be exact.
    let (_d, s) = fresh();
    import_file(&s, "edge/edge.csv", &[]);
    let ours = query(&s, "SELECT id, label, val, happened_at FROM edge ORDER BY id");
    let text_cols: Vec<Vec<V>> =
        want.iter().map(|r| vec![r[0].clone(), r[1].clone(), r[2].clone(), r[4].clone()]).collect();
    assert_table("edge.csv", &ours, &text_cols);
}

#[test]
fn xlsx_from_openpyxl_and_libreoffice_equal_the_oracle() {
    let oracle = Oracle::load();
    for file in ["chinook.xlsx", "chinook.libreoffice.xlsx"] {
        let (_d, s) = fresh();
        // Every sheet into a table named after it.
        let job = import_file(&s, file, &[("X-AsaDB-XLSX-Sheet", "*")]);
        assert_eq!(job["report"]["format"], "xlsx", "{job}");
        assert_eq!(
            job["report"]["tables"],
            serde_json::json!(["Track", "Invoice", "Customer"]),
            "{job}"
        );
        for t in ["Track", "Invoice", "Customer"] {
            assert_table(&format!("{file}: {t}"), &table(&s, t), &oracle.rows(t));
        }
        // One sheet by name, into a target table, replacing its rows.
        let h = [
            ("X-AsaDB-XLSX-Sheet", "invoice"),
            ("X-AsaDB-Import-Target-Table", "inv"),
            ("X-AsaDB-Import-Mode", "replace"),
        ];
        import_file(&s, file, &h);
        import_file(&s, file, &h);
        assert_table(&format!("{file}: inv"), &table(&s, "inv"), &oracle.rows("Invoice"));
    }
}

/// A ZIP archive holding one `hello.txt` (not a workbook).
const NOT_A_WORKBOOK: [u8; 118] = [
    80, 75, 3, 4, 20, 0, 0, 0, 0, 0, 96, 107, 129, 93, 172, 42, 147, 216, 2, 0, 0, 0, 2, 0, 0, 0,
    9, 0, 0, 0, 104, 101, 108, 108, 111, 46, 116, 120, 116, 104, 105, 80, 75, 1, 2, 20, 3, 20, 0,
    0, 0, 0, 0, 96, 107, 129, 93, 172, 42, 147, 216, 2, 0, 0, 0, 2, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 128, 1, 0, 0, 0, 0, 104, 101, 108, 108, 111, 46, 116, 120, 116, 80, 75, 5, 6, 0,
    0, 0, 0, 1, 0, 1, 0, 55, 0, 0, 0, 41, 0, 0, 0, 0, 0,
];

#[test]
fn bodies_that_are_not_their_format_fail_fast_and_clearly() {
    let (_d, s) = fresh();
    type Case<'a> = (&'a [(&'a str, &'a str)], &'a [u8], &'a str);
    let cases: [Case; 6] = [
        (
            &[("X-AsaDB-Import-Format", "csv"), ("X-AsaDB-Import-Target-Table", "t")],
            b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01",
            "binary",
        ),
        (&[("X-AsaDB-Import-Format", "xlsx")], &NOT_A_WORKBOOK, "not a readable XLSX workbook"),
        (&[("X-AsaDB-Import-Format", "xlsx")], b"id,name\n1,a\n", "not a ZIP archive"),
        (&[("X-AsaDB-Import-Format", "mysql")], &NOT_A_WORKBOOK, "ZIP archive"),
        (
            &[("X-AsaDB-Import-Format", "csv"), ("X-AsaDB-Import-Target-Table", "t")],
            b"id;name\n1;caf\xe9\n",
            "not UTF-8",
        ),
        // Detected as CSV, but nothing names its table.
        (&[], b"id,name\n1,a\n2,b\n", "needs a target table"),
    ];
    for (headers, body, message) in cases {
        let job = import(&s, headers, body);
        assert_eq!(job["state"], "failed", "{headers:?}: {job}");
        let m = job["error"]["message"].as_str().unwrap();
        assert!(m.contains(message), "{headers:?}: {m}");
        // It failed at the start: nothing was run.
        assert_eq!(job["progress"]["statements_done"], 0, "{job}");
    }
}

/// Sends a request head announcing a 100 MB body and no body bytes; the
/// answer must come without the body (refused before it is read).
fn refused_before_the_body(s: &Server, extra: &str) -> String {
    use std::io::{Read, Write};
    let mut sock = std::net::TcpStream::connect(&s.addr).unwrap();
    sock.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let head = format!(
        "POST /api/reservoir/jobs HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {}\r\n\
         Content-Length: 104857600\r\n{extra}\r\n",
        s.addr, s.token
    );
    sock.write_all(head.as_bytes()).unwrap();
    let mut buf = vec![0u8; 4096];
    let n = sock.read(&mut buf).expect("an answer before the body");
    String::from_utf8_lossy(&buf[..n]).into_owned()
}

#[test]
fn unknown_or_unworkable_imports_are_refused_before_the_body() {
    let (d, s) = fresh();
    for (extra, code) in [
        ("X-AsaDB-Import-Format: xls\r\n", "unsupported"),
        ("X-AsaDB-Import-Format: parquet\r\n", "invalid_input"),
        ("X-AsaDB-Import-Format: csv\r\n", "invalid_input"),
        ("X-AsaDB-Import-Format: mysql\r\nX-AsaDB-Import-Target-Table: t\r\n", "invalid_input"),
        ("X-AsaDB-Import-Format: pg\r\nX-AsaDB-CSV-Delimiter: ;\r\n", "invalid_input"),
        ("X-AsaDB-CSV-Quote: ab\r\n", "invalid_input"),
        ("X-AsaDB-CSV-Ragged: maybe\r\n", "invalid_input"),
        ("X-AsaDB-XLSX-Sheet: 0\r\n", "invalid_input"),
    ] {
        let resp = refused_before_the_body(&s, extra);
        assert!(resp.starts_with("HTTP/1.1 400"), "{extra}: {resp}");
        assert!(resp.contains(&format!("\"code\":\"{code}\"")), "{extra}: {resp}");
    }
    let spool = std::fs::read_dir(d.path().join(".asa.reservoir/spool")).unwrap().count();
    assert_eq!(spool, 0, "nothing was spooled");
}

#[test]
fn csv_overrides_ragged_rows_and_stop_on_error() {
    let (_d, s) = fresh();
    // Overrides: a file whose sniffed dialect would differ.
    let body = b"a|b\n1|x,y\n2|z\n";
    let h = [
        ("X-AsaDB-Import-Format", "csv"),
        ("X-AsaDB-Import-Target-Table", "o"),
        ("X-AsaDB-CSV-Delimiter", "|"),
        ("X-AsaDB-CSV-Header", "false"),
        ("X-AsaDB-CSV-Null", "z"),
    ];
    assert_eq!(import(&s, &h, body)["state"], "completed");
    assert_eq!(
        query(&s, "SELECT * FROM o ORDER BY 1"),
        // The header is data: its "a" makes the first column TEXT.
        vec![
            vec![V::Text("1".into()), V::Text("x,y".into())],
            vec![V::Text("2".into()), V::Null],
            vec![V::Text("a".into()), V::Text("b".into())],
        ]
    );
    // Ragged rows: refused by default with the line, padded or skipped.
    let ragged = b"id,name,n\n1,a,1\n2,b\n3,c,3\n4,d,4,extra\n5,e,5\n";
    let base = [("X-AsaDB-Import-Format", "csv"), ("X-AsaDB-Import-Target-Table", "r")];
    let job = import(&s, &base, ragged);
    assert_eq!(job["state"], "failed", "{job}");
    assert!(job["error"]["message"].as_str().unwrap().starts_with("line 3:"), "{job}");
    assert_eq!(query(&s, "SELECT count(*) FROM r"), vec![vec![V::Int(1)]], "the row before stays");
    let skip = [base[0], ("X-AsaDB-Import-Target-Table", "r2"), ("X-AsaDB-CSV-Ragged", "skip")];
    let job = import(&s, &skip, ragged);
    assert_eq!(job["state"], "completed", "{job}");
    assert_eq!(job["report"]["ragged_rows"]["lines"], serde_json::json!([3, 5]), "{job}");
    assert_eq!(
        query(&s, "SELECT id FROM r2 ORDER BY 1"),
        vec![vec![V::Int(1)], vec![V::Int(3)], vec![V::Int(5)]]
    );
    let pad = [base[0], ("X-AsaDB-Import-Target-Table", "r3"), ("X-AsaDB-CSV-Ragged", "pad")];
    let job = import(&s, &pad, ragged);
    assert_eq!(job["state"], "failed", "a long row cannot be padded: {job}");
    assert!(job["error"]["message"].as_str().unwrap().starts_with("line 5:"), "{job}");
    // A constraint failure names the row's line; without stop-on-error the
    // other rows load and each bad one is recorded.
    let create = import(&s, &[], b"CREATE TABLE k (id INTEGER PRIMARY KEY, v TEXT NOT NULL);");
    assert_eq!(create["state"], "completed");
    let rows = b"id,v\n1,a\n2,\n3,c\n1,dup\n";
    let kh = [base[0], ("X-AsaDB-Import-Target-Table", "k")];
    let job = import(&s, &kh, rows);
    assert_eq!(job["state"], "failed", "{job}");
    assert!(job["error"]["message"].as_str().unwrap().starts_with("line 3:"), "{job}");
    assert_eq!(
        query(&s, "SELECT count(*) FROM k"),
        vec![vec![V::Int(0)]],
        "a batch is one statement"
    );
    let keep = [kh[0], kh[1], ("X-AsaDB-Stop-On-Error", "false")];
    let job = import(&s, &keep, rows);
    assert_eq!(job["state"], "completed", "{job}");
    let errors: Vec<&str> = job["statement_errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["message"].as_str().unwrap())
        .collect();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors[0].starts_with("line 3:") && errors[1].starts_with("line 5:"), "{errors:?}");
    assert_eq!(query(&s, "SELECT id FROM k ORDER BY 1"), vec![vec![V::Int(1)], vec![V::Int(3)]]);
}

/// A GET with or without the token: (status, content type, body).
fn get_raw(s: &Server, path: &str, token: bool) -> (u16, String, String, Vec<u8>) {
    let mut b = ureq::http::Request::builder().uri(format!("http://{}{path}", s.addr));
    if token {
        b = b.header("Authorization", format!("Bearer {}", s.token));
    }
    let mut resp = agent().run(b.body(Vec::new()).unwrap()).expect("get");
    let h = |n: &str| {
        resp.headers().get(n).map(|v| v.to_str().unwrap().to_string()).unwrap_or_default()
    };
    let (ct, cd) = (h("content-type"), h("content-disposition"));
    let status = resp.status().as_u16();
    let body = resp.body_mut().read_to_vec().unwrap();
    (status, ct, cd, body)
}

#[test]
fn exports_stream_over_http_and_read_back_as_the_same_table() {
    let oracle = Oracle::load();
    let (_d, s) = fresh();
    import_file(&s, "chinook.pg.sql", &[]);
    assert_eq!(get_raw(&s, "/api/export?table=track", false).0, 401);
    let (status, ct, cd, csv) = get_raw(&s, "/api/export?table=track&format=csv", true);
    assert_eq!((status, ct.as_str()), (200, "text/csv; charset=utf-8"));
    assert_eq!(cd, "attachment; filename=\"track.csv\"");
    // The export, imported again with detection, is the same table.
    let job = import(&s, &[("X-AsaDB-Import-Original-Name", "again.csv")], &csv);
    assert_eq!(job["state"], "completed", "{job}");
    assert_table("track.csv export", &table(&s, "again"), &oracle.rows("Track"));
    let (status, _, _, tsv) = get_raw(&s, "/api/export?table=invoice&format=tsv", true);
    assert_eq!(status, 200);
    let job = import(&s, &[("X-AsaDB-Import-Original-Name", "inv.tsv")], &tsv);
    assert_eq!(job["state"], "completed", "{job}");
    assert_table("invoice.tsv export", &table(&s, "inv"), &oracle.rows("Invoice"));
    let q =
        "/api/export?format=jsonl&query=SELECT%20genre_id,%20name%20FROM%20genre%20ORDER%20BY%201";
    let (status, ct, _, jsonl) = get_raw(&s, q, true);
    assert_eq!((status, ct.as_str()), (200, "application/x-ndjson"));
    let lines: Vec<Value> = String::from_utf8(jsonl)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 25);
    assert_eq!(lines[0], serde_json::json!({"genre_id": 1, "name": "Rock"}));
    // Errors before the first row are JSON errors with their status.
    for (path, status, code) in [
        ("/api/export?table=nope", 400, "not_found"),
        ("/api/export?query=DELETE%20FROM%20track", 400, "invalid_input"),
        ("/api/export?table=track&format=xml", 400, "invalid_input"),
        ("/api/export?table=track&query=SELECT%201", 400, "invalid_input"),
        ("/api/export?table=track&limit=3", 400, "invalid_input"),
        ("/api/export?table=track&table=genre", 400, "invalid_input"),
    ] {
        let (got, _, _, body) = get_raw(&s, path, true);
        let v: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!((got, v["error"]["code"].as_str().unwrap()), (status, code), "{path}: {v}");
    }
    assert_eq!(query(&s, "SELECT count(*) FROM track"), vec![vec![V::Int(3503)]]);
}

#[test]
fn dumps_load_into_the_sqlite3_cli_and_back_into_asadb() {
    use std::process::{Command, Stdio};
    let oracle = Oracle::load();
    let dir = tempfile::tempdir().unwrap();
    let s = Server::spawn(dir.path(), &[]);
    import_file(&s, "chinook.pg.sql", &[]);
    import_file(&s, "edge/edge.pg.sql", &[]);
    let edge = edge_oracle();
    // The CLI export of a table is the HTTP export, byte for byte.
    let (_, _, _, http_csv) = get_raw(&s, "/api/export?table=customer", true);
    assert_eq!(s.terminate().code(), Some(0));
    let db = dir.path().join("asadb.db");
    let out = dir.path().join("customer.csv");
    let status = Command::new(server::BIN)
        .args(["export", "--db"])
        .arg(&db)
        .args(["--table", "customer", "--format", "csv", "--out"])
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(std::fs::read(&out).unwrap(), http_csv);
    let dump = dir.path().join("dump.sql");
    let status = Command::new(server::BIN)
        .args(["dump", "--db"])
        .arg(&db)
        .arg("--out")
        .arg(&dump)
        .status()
        .unwrap();
    assert!(status.success());
    let text = std::fs::read_to_string(&dump).unwrap();
    assert!(!text.contains("_asadb_reservoir_progress"), "the Reservoir's own table is not dumped");
    // The real sqlite3 CLI loads it: same tables, rows and types.
    let lite = dir.path().join("lite.db");
    let run = Command::new("sqlite3")
        .arg(&lite)
        .stdin(std::fs::File::open(&dump).unwrap())
        .stderr(Stdio::piped())
        .output()
        .expect("the sqlite3 CLI (installed by .ci/run)");
    assert!(
        run.status.success() && run.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let conn = rusqlite::Connection::open(&lite).unwrap();
    let rows = |sql: &str| -> Vec<Vec<V>> {
        let mut st = conn.prepare(sql).unwrap();
        let n = st.column_count();
        st.query_map([], |r| Ok((0..n).map(|i| V::from_sqlite(r.get_ref(i).unwrap())).collect()))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    for (pascal, snake) in fixtures::TABLES {
        assert_table(
            &format!("sqlite3: {snake}"),
            &rows(&format!("SELECT * FROM {snake} ORDER BY 1, 2")),
            &oracle.rows(pascal),
        );
    }
    assert_table("sqlite3: edge_cases", &rows("SELECT * FROM edge_cases ORDER BY id"), &edge);
    // And AsaDB loads it back.
    let back = dir.path().join("back");
    std::fs::create_dir(&back).unwrap();
    let s = Server::spawn(&back, &[]);
    let job = import(&s, &[("X-AsaDB-Import-Original-Name", "dump.sql")], text.as_bytes());
    assert_eq!(job["state"], "completed", "{job}");
    for (pascal, snake) in fixtures::TABLES {
        assert_table(&format!("asadb: {snake}"), &table(&s, snake), &oracle.rows(pascal));
    }
    assert_table("asadb: edge_cases", &query(&s, "SELECT * FROM edge_cases ORDER BY id"), &edge);
}
