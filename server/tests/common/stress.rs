//! The stress run's generator and driver, shared by `benches/stress.rs`
//! (100k rows by default, release build, timed) and
//! `tests/stress_smoke.rs` (10k rows, correctness only), so both drive the
//! real `asadb` binary the same way.
//!
//! The flow: write the script to a file (`CREATE TABLE`, `BEGIN`, one
//! `INSERT … VALUES` of 100 rows per statement, `COMMIT`), start
//! `asadb serve` on a loopback port, stream the file through
//! `POST /api/reservoir/jobs`, poll the job until it is terminal, stop the
//! server with SIGTERM, start it again on the same data directory and read
//! every row back through `/api/query` pages.
//!
//! Every row's values are a pure function of its id ([`row`]), so a reader
//! checks each row it gets against the generator without holding the
//! script or the table in memory. Invariants a read-back pins: ids come
//! back strictly ascending from 1 with no gap, every value equal to the
//! generated one (types included: `qty` an integer, `price` a real), and
//! exactly `rows` rows in all — every row exactly once.

#![allow(dead_code)] // The bench and the smoke test each use a part of it.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::Value;

#[path = "server.rs"]
pub mod server;
/// Rows per `INSERT` statement.
pub const ROWS_PER_INSERT: u64 = 100;
/// Rows per `/api/query` page (the server's fixed page size).
pub const PAGE_ROWS: u64 = 500;
pub const CREATE: &str =
    "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, qty INTEGER, price REAL, note TEXT);";

/// One row of `t`.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub id: i64,
    pub name: String,
    pub qty: Option<i64>,
    pub price: f64,
    pub note: Option<String>,
}

/// splitmix64: a well-mixed 64-bit value per input, so row values are a
/// function of the id alone.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The generated row with this id. Most values are short (the script
/// stays about 31 bytes a row); every 97th note holds a quote (written
/// `''` in the script), every 1000th note and every 500th qty is NULL.
pub fn row(id: i64) -> Row {
    let r = mix(id as u64);
    let cents = (r >> 8) % 100_000;
    let note = if id % 1000 == 0 {
        None
    } else if id % 97 == 0 {
        Some("o'k".to_string())
    } else {
        let len = 1 + (r >> 40) % 6;
        Some((0..len).map(|i| (b'a' + ((r >> (i * 5)) % 26) as u8) as char).collect())
    };
    Row {
        id,
        name: format!("n{}", r % 100),
        qty: (id % 500 != 0).then_some(((r >> 24) % 1000) as i64),
        price: format!("{}.{:02}", cents / 100, cents % 100).parse().expect("a price parses"),
        note,
    }
}

impl Row {
    /// The row as an SQL VALUES tuple.
    fn write_sql(&self, out: &mut String) {
        use std::fmt::Write as _;
        let qty = self.qty.map_or("NULL".to_string(), |q| q.to_string());
        // `{:.2}` renders the price as its two-decimal source text.
        let _ = write!(out, "({},'{}',{qty},{:.2},", self.id, self.name, self.price);
        match &self.note {
            Some(n) => {
                let _ = write!(out, "'{}')", n.replace('\'', "''"));
            }
            None => out.push_str("NULL)"),
        }
    }

    /// A 64-bit FNV-1a hash of the row's values, with type tags, so the
    /// checksum of a table is the wrapping sum over its rows.
    pub fn hash(&self) -> u64 {
        let mut h: u64 = 0xCBF2_9CE4_8422_2325;
        let mut eat = |bytes: &[u8]| {
            for b in bytes {
                h ^= u64::from(*b);
                h = h.wrapping_mul(0x0000_0100_0000_01B3);
            }
            h ^= 0x1F;
            h = h.wrapping_mul(0x0000_0100_0000_01B3);
        };
        eat(&self.id.to_le_bytes());
        eat(self.name.as_bytes());
        match self.qty {
            Some(q) => eat(&[&[1u8][..], &q.to_le_bytes()].concat()),
            None => eat(&[0]),
        }
        eat(&self.price.to_bits().to_le_bytes());
        match &self.note {
            Some(n) => eat(&[&[1u8][..], n.as_bytes()].concat()),
            None => eat(&[0]),
        }
        h
    }

    /// A row of a JSON page (`[id, name, qty, price, note]`), strictly
    /// typed: `qty` must be an integer or null, `price` a real.
    pub fn from_json(v: &Value) -> Result<Row, String> {
        let cells = v.as_array().filter(|a| a.len() == 5).ok_or(format!("not 5 cells: {v}"))?;
        let text = |c: &Value| match c {
            Value::Null => Ok(None),
            Value::String(s) => Ok(Some(s.clone())),
            other => Err(format!("not text: {other} in {v}")),
        };
        Ok(Row {
            id: cells[0].as_i64().ok_or(format!("id not an integer: {v}"))?,
            name: text(&cells[1])?.ok_or(format!("name is null: {v}"))?,
            qty: match &cells[2] {
                Value::Null => None,
                c => Some(c.as_i64().ok_or(format!("qty not an integer: {v}"))?),
            },
            price: match &cells[3] {
                Value::Number(n) if n.is_f64() => n.as_f64().unwrap_or(f64::NAN),
                _ => return Err(format!("price not a real: {v}")),
            },
            note: text(&cells[4])?,
        })
    }
}

/// What [`write_script`] wrote.
#[derive(Debug, Clone)]
pub struct Script {
    pub path: PathBuf,
    pub bytes: u64,
    pub statements: u64,
    pub rows: u64,
    /// Wrapping sum of [`Row::hash`] over every row.
    pub checksum: u64,
}

/// Writes the script for `rows` rows to `path`: `CREATE TABLE`, `BEGIN`,
/// the INSERTs (one a line), `COMMIT` — `rows / 100 + 3` statements.
pub fn write_script(path: &Path, rows: u64) -> Script {
    let mut w = BufWriter::new(File::create(path).expect("create the script"));
    writeln!(w, "{CREATE}\nBEGIN;").expect("write the script");
    let mut statements = 2;
    let mut checksum = 0u64;
    let mut line = String::with_capacity(4096);
    let mut id = 1;
    while id <= rows {
        let last = (id + ROWS_PER_INSERT - 1).min(rows);
        line.clear();
        line.push_str("INSERT INTO t VALUES ");
        for i in id..=last {
            if i > id {
                line.push(',');
            }
            let r = row(i as i64);
            checksum = checksum.wrapping_add(r.hash());
            r.write_sql(&mut line);
        }
        line.push_str(";\n");
        w.write_all(line.as_bytes()).expect("write the script");
        statements += 1;
        id = last + 1;
    }
    writeln!(w, "COMMIT;").expect("write the script");
    w.flush().expect("flush the script");
    let bytes = std::fs::metadata(path).expect("stat the script").len();
    Script { path: path.to_path_buf(), bytes, statements: statements + 1, rows, checksum }
}

/// Checks rows arriving in id order against the generator: the next row
/// must be exactly `row(next id)`.
#[derive(Debug, Default)]
pub struct Verifier {
    pub count: u64,
    pub checksum: u64,
}

impl Verifier {
    pub fn check(&mut self, got: &Row) -> Result<(), String> {
        let want = row(self.count as i64 + 1);
        if *got != want {
            return Err(format!("row {} of the read-back: got {got:?}, want {want:?}", self.count));
        }
        self.count += 1;
        self.checksum = self.checksum.wrapping_add(got.hash());
        Ok(())
    }

    /// Every row came back exactly once with the generator's values.
    pub fn finish(&self, script: &Script) -> Result<(), String> {
        if self.count != script.rows || self.checksum != script.checksum {
            return Err(format!(
                "read back {} rows (checksum {:#x}), the script has {} (checksum {:#x})",
                self.count, self.checksum, script.rows, script.checksum
            ));
        }
        Ok(())
    }
}

pub use server::Server;

impl Server {
    /// The server's peak resident set size so far (`VmHWM`), in KiB.
    pub fn vm_hwm_kib(&self) -> u64 {
        let path = format!("/proc/{}/status", self.pid());
        let status = std::fs::read_to_string(&path).expect("read /proc/PID/status");
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmHWM in /proc/PID/status")
    }

    pub fn client(&self) -> Client {
        Client {
            agent: ureq::Agent::config_builder().http_status_as_error(false).build().into(),
            base: format!("http://{}", self.addr),
            auth: format!("Bearer {}", self.token),
        }
    }
}

/// The HTTP calls the stress run makes, with the token.
pub struct Client {
    agent: ureq::Agent,
    base: String,
    auth: String,
}

/// One `/api/query` page.
pub struct Page {
    pub rows: Vec<Value>,
    pub next_offset: Option<u64>,
}

impl Client {
    fn answer(mut resp: ureq::http::Response<ureq::Body>, what: &str) -> (u16, Value) {
        let status = resp.status().as_u16();
        let body = resp.body_mut().read_to_string().unwrap_or_else(|e| panic!("{what}: {e}"));
        let json = serde_json::from_str(&body)
            .unwrap_or_else(|e| panic!("{what}: not JSON ({e}): {body:?}"));
        (status, json)
    }

    /// Streams the file as the body of `POST /api/reservoir/jobs`
    /// (Content-Length from the file's size) and returns the new job's id.
    pub fn submit_file(&self, path: &Path) -> u64 {
        let file = File::open(path).expect("open the script");
        let resp = self
            .agent
            .post(format!("{}/api/reservoir/jobs", self.base))
            .header("Authorization", &self.auth)
            .header("X-AsaDB-Job-Label", "stress")
            .send(&file)
            .expect("POST /api/reservoir/jobs");
        let (status, json) = Client::answer(resp, "submit");
        assert_eq!(status, 201, "submit: {json}");
        json["id"].as_u64().unwrap_or_else(|| panic!("submit: no id in {json}"))
    }

    pub fn job(&self, id: u64) -> Value {
        let resp = self
            .agent
            .get(format!("{}/api/reservoir/job?id={id}", self.base))
            .header("Authorization", &self.auth)
            .call()
            .expect("GET /api/reservoir/job");
        let (status, json) = Client::answer(resp, "job");
        assert_eq!(status, 200, "job {id}: {json}");
        json
    }

    /// Polls the job every 2 ms until it is terminal, at most `limit`.
    pub fn wait_terminal(&self, id: u64, limit: Duration) -> Value {
        let deadline = Instant::now() + limit;
        loop {
            let j = self.job(id);
            let state = j["state"].as_str().unwrap_or_default();
            if !["receiving", "queued", "processing", "cancelling"].contains(&state) {
                return j;
            }
            assert!(Instant::now() < deadline, "job {id} not terminal after {limit:?}: {j}");
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// One page of `POST /api/query`.
    pub fn query(&self, sql: &str, params: Value, offset: u64) -> Page {
        let body = serde_json::json!({"sql": sql, "params": params, "offset": offset});
        let resp = self
            .agent
            .post(format!("{}/api/query", self.base))
            .header("Authorization", &self.auth)
            .header("Content-Type", "application/json")
            .send(body.to_string().as_bytes())
            .expect("POST /api/query");
        let (status, json) = Client::answer(resp, "query");
        assert_eq!(status, 200, "{sql} at {offset}: {json}");
        Page {
            rows: json["rows"].as_array().cloned().unwrap_or_else(|| panic!("no rows: {json}")),
            next_offset: json["next_offset"].as_u64(),
        }
    }

    /// The value of an unlabelled sample in `/metrics`.
    pub fn metric(&self, name: &str) -> Option<f64> {
        let mut resp = self
            .agent
            .get(format!("{}/metrics", self.base))
            .header("Authorization", &self.auth)
            .call()
            .expect("GET /metrics");
        assert_eq!(resp.status().as_u16(), 200, "/metrics");
        let text = resp.body_mut().read_to_string().expect("/metrics body");
        text.lines()
            .filter_map(|l| l.split_once(' '))
            .find(|(series, _)| *series == name)
            .and_then(|(_, v)| v.parse().ok())
    }
}

/// How the read-back pages through `t`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Paging {
    /// `SELECT * FROM t WHERE id > ? ORDER BY id LIMIT 500`, the last id
    /// seen as the parameter.
    Keyset,
    /// `SELECT * FROM t ORDER BY id` with the server's `offset`/`next_offset`.
    Offset,
}

/// What a read-back saw.
#[derive(Debug)]
pub struct ReadBack {
    pub verifier: Verifier,
    pub pages: u64,
    pub elapsed: Duration,
    /// The read stopped at the time limit before the end of the table.
    pub gave_up: bool,
    /// Round-trip time of the first and of the last page requested (a
    /// flat cost per page, or one growing with the offset, tells how the
    /// server pages).
    pub first_page: Duration,
    pub last_page: Duration,
}

/// Reads every row of `t` through `/api/query` pages, checking each row
/// against the generator as it arrives; stops early (with `gave_up`) when
/// `limit` has passed. Panics on the first wrong, missing or repeated row.
pub fn read_back(client: &Client, paging: Paging, limit: Duration) -> ReadBack {
    let started = Instant::now();
    let mut verifier = Verifier::default();
    let mut pages = 0u64;
    let mut offset = 0u64;
    let (mut first_page, mut last_page) = (Duration::ZERO, Duration::ZERO);
    loop {
        if started.elapsed() > limit {
            return ReadBack {
                verifier,
                pages,
                elapsed: started.elapsed(),
                gave_up: true,
                first_page,
                last_page,
            };
        }
        let asked = Instant::now();
        let page = match paging {
            Paging::Keyset => client.query(
                "SELECT * FROM t WHERE id > ? ORDER BY id LIMIT 500",
                serde_json::json!([verifier.count]),
                0,
            ),
            Paging::Offset => client.query("SELECT * FROM t ORDER BY id", Value::Null, offset),
        };
        last_page = asked.elapsed();
        if pages == 0 {
            first_page = last_page;
        }
        pages += 1;
        for cells in &page.rows {
            let got = Row::from_json(cells).unwrap_or_else(|e| panic!("{paging:?} paging: {e}"));
            verifier.check(&got).unwrap_or_else(|e| panic!("{paging:?} paging: {e}"));
        }
        let done = match paging {
            // A short page is the last; a full one may be followed by an
            // empty one.
            Paging::Keyset => (page.rows.len() as u64) < PAGE_ROWS,
            Paging::Offset => match page.next_offset {
                Some(next) => {
                    assert_eq!(next, offset + page.rows.len() as u64, "next_offset");
                    offset = next;
                    false
                }
                None => true,
            },
        };
        if done {
            return ReadBack {
                verifier,
                pages,
                elapsed: started.elapsed(),
                gave_up: false,
                first_page,
                last_page,
            };
        }
    }
}
