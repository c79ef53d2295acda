//! Prometheus metrics in the text exposition format (version 0.0.4).
//!
//! Names carry the `asadb_` prefix and base units (seconds, bytes);
//! counters end in `_total`. HTTP metrics are labelled by the method (the
//! standard ones, else `other`) and the matched route (else `other`) —
//! never by the raw method or path, so no request can grow the label set.
//! Reservoir gauges are read from [`asadb::reservoir::Stats`] at scrape
//! time; the byte counter is kept here because the library does not count
//! across restarts either.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use asadb::reservoir::Stats;
use parking_lot::Mutex;

/// The label of every method, route or status outside the fixed sets.
pub const OTHER: &str = "other";

/// The `method` label: one of the methods of RFC 9110 (and PATCH), else
/// [`OTHER`], so invented method names cannot grow the label set.
pub fn method_label(method: &axum::http::Method) -> &'static str {
    use axum::http::Method as M;
    match *method {
        M::GET => "GET",
        M::HEAD => "HEAD",
        M::POST => "POST",
        M::PUT => "PUT",
        M::DELETE => "DELETE",
        M::PATCH => "PATCH",
        M::OPTIONS => "OPTIONS",
        M::CONNECT => "CONNECT",
        M::TRACE => "TRACE",
        _ => OTHER,
    }
}

/// Upper bounds of the latency histogram's buckets, in seconds.
const BUCKETS: [f64; 12] =
    [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0];

/// The server's own counters.
#[derive(Debug, Default)]
pub struct Metrics {
    bytes_received: AtomicU64,
    http: Mutex<Http>,
    /// `/api/query` statement latency.
    queries: Mutex<Histogram>,
}

/// Engine gauges and counters read at scrape time (plain numbers, so this
/// module does not depend on the engine's types).
#[derive(Debug, Default, Clone)]
pub struct EngineGauges {
    pub async_in_flight: usize,
    pub async_held_transactions: usize,
    pub pool_frames: usize,
    pub pool_cached_frames: usize,
    pub pool_hits: u64,
    pub pool_misses: u64,
    pub pool_evictions: u64,
    pub wal_bytes: u64,
    pub wal_frames: u32,
    pub commits: u64,
    pub checkpoints: u64,
    /// The database cannot be written (latched after a failed write).
    pub write_blocked: bool,
    pub recoveries: u64,
}

#[derive(Debug, Default)]
struct Http {
    /// (method, route, status) → count.
    requests: BTreeMap<(String, String, u16), u64>,
    /// route → latency histogram.
    latency: BTreeMap<String, Histogram>,
}

#[derive(Debug, Default, Clone)]
struct Histogram {
    /// Non-cumulative counts per bucket; the last slot is `+Inf`.
    buckets: [u64; BUCKETS.len() + 1],
    sum: f64,
    count: u64,
}

impl Metrics {
    /// Counts request body bytes accepted into the spool.
    pub fn add_bytes_received(&self, n: u64) {
        self.bytes_received.fetch_add(n, Ordering::Relaxed);
    }

    /// Records one finished request. `method` and `route` must come from
    /// fixed sets ([`method_label`], the router's routes, [`OTHER`]); a
    /// status outside 100–599 counts as 0.
    pub fn observe_request(&self, method: &str, route: &str, status: u16, elapsed: Duration) {
        let status = if (100..600).contains(&status) { status } else { 0 };
        let secs = elapsed.as_secs_f64();
        let mut http = self.http.lock();
        *http.requests.entry((method.to_string(), route.to_string(), status)).or_default() += 1;
        http.latency.entry(route.to_string()).or_default().observe(secs);
    }

    /// Records one `/api/query` statement's run time.
    pub fn observe_query(&self, elapsed: Duration) {
        self.queries.lock().observe(elapsed.as_secs_f64());
    }

    /// Renders every metric, with the Reservoir's current `stats` and the
    /// engine's gauges.
    pub fn render(&self, stats: &Stats, engine: &EngineGauges) -> String {
        let mut out = String::with_capacity(4096);
        let e = engine;
        let simple: [(&str, &str, &str, String); 13] = [
            (
                "asadb_async_in_flight",
                "gauge",
                "Async database calls not finished yet.",
                e.async_in_flight.to_string(),
            ),
            (
                "asadb_async_held_transactions",
                "gauge",
                "Async transactions holding the write lock.",
                e.async_held_transactions.to_string(),
            ),
            (
                "asadb_bufferpool_frames",
                "gauge",
                "Buffer pool frames (4096 bytes each).",
                e.pool_frames.to_string(),
            ),
            (
                "asadb_bufferpool_cached_frames",
                "gauge",
                "Buffer pool frames holding a page.",
                e.pool_cached_frames.to_string(),
            ),
            (
                "asadb_bufferpool_hits_total",
                "counter",
                "Page lookups served from the buffer pool.",
                e.pool_hits.to_string(),
            ),
            (
                "asadb_bufferpool_misses_total",
                "counter",
                "Page lookups that read the page in.",
                e.pool_misses.to_string(),
            ),
            (
                "asadb_bufferpool_evictions_total",
                "counter",
                "Pages evicted to make room.",
                e.pool_evictions.to_string(),
            ),
            (
                "asadb_wal_bytes",
                "gauge",
                "Size of the write-ahead log file.",
                e.wal_bytes.to_string(),
            ),
            (
                "asadb_wal_frames",
                "gauge",
                "Committed frames in the write-ahead log.",
                e.wal_frames.to_string(),
            ),
            (
                "asadb_commits_total",
                "counter",
                "Write transactions committed since the database was opened.",
                e.commits.to_string(),
            ),
            (
                "asadb_checkpoints_total",
                "counter",
                "Checkpoints run since the database was opened.",
                e.checkpoints.to_string(),
            ),
            (
                "asadb_database_write_blocked",
                "gauge",
                "1 while the database cannot be written (a failed write or sync, e.g. a full \
                 disk, latched it; database_write_error in the stats), else 0.",
                u8::from(e.write_blocked).to_string(),
            ),
            (
                "asadb_database_recoveries_total",
                "counter",
                "Times the database recovered by itself from a failed write since it was opened.",
                e.recoveries.to_string(),
            ),
        ];
        for (name, kind, help, value) in simple {
            header(&mut out, name, kind, help);
            let _ = writeln!(out, "{name} {value}");
        }
        header(
            &mut out,
            "asadb_query_duration_seconds",
            "histogram",
            "Run time of /api/query statements.",
        );
        let q = self.queries.lock().clone();
        q.render(&mut out, "asadb_query_duration_seconds", "");
        header(&mut out, "asadb_reservoir_jobs", "gauge", "Reservoir jobs by state.");
        for (state, n) in &stats.by_state {
            let _ = writeln!(out, "asadb_reservoir_jobs{{state=\"{state}\"}} {n}");
        }
        header(
            &mut out,
            "asadb_reservoir_active_jobs",
            "gauge",
            "Receiving, queued, processing and cancelling jobs.",
        );
        let _ = writeln!(out, "asadb_reservoir_active_jobs {}", stats.active);
        header(&mut out, "asadb_reservoir_max_jobs", "gauge", "The active-job limit.");
        let _ = writeln!(out, "asadb_reservoir_max_jobs {}", stats.max_jobs);
        header(
            &mut out,
            "asadb_reservoir_reserved_bytes",
            "gauge",
            "Spool bytes reserved by jobs.",
        );
        let _ = writeln!(out, "asadb_reservoir_reserved_bytes {}", stats.reserved_bytes);
        header(&mut out, "asadb_reservoir_max_spool_bytes", "gauge", "The spool byte ceiling.");
        let _ = writeln!(out, "asadb_reservoir_max_spool_bytes {}", stats.max_spool_bytes);
        header(
            &mut out,
            "asadb_reservoir_bytes_received_total",
            "counter",
            "Request body bytes accepted into the spool since the server started.",
        );
        let _ = writeln!(
            out,
            "asadb_reservoir_bytes_received_total {}",
            self.bytes_received.load(Ordering::Relaxed)
        );
        header(
            &mut out,
            "asadb_reservoir_throughput_bytes_per_second",
            "gauge",
            "Script bytes executed per second of worker time.",
        );
        let _ = writeln!(
            out,
            "asadb_reservoir_throughput_bytes_per_second {}",
            stats.throughput_bytes_per_sec
        );
        header(
            &mut out,
            "asadb_statements_executed_total",
            "counter",
            "Script statements the Reservoir's worker ran since the server started, whatever \
             their outcome.",
        );
        let _ = writeln!(out, "asadb_statements_executed_total {}", stats.statements_executed);
        header(
            &mut out,
            "asadb_reservoir_write_blocked",
            "gauge",
            "1 while the Reservoir cannot write its event log (a full disk), else 0.",
        );
        let _ = writeln!(
            out,
            "asadb_reservoir_write_blocked {}",
            u8::from(stats.write_error.is_some())
        );

        let http = self.http.lock().clone_view();
        header(
            &mut out,
            "asadb_http_requests_total",
            "counter",
            "HTTP requests by method, route and status.",
        );
        for ((method, route, status), n) in &http.requests {
            let _ = writeln!(
                out,
                "asadb_http_requests_total{{method=\"{}\",route=\"{}\",status=\"{status}\"}} {n}",
                escape(method),
                escape(route)
            );
        }
        header(
            &mut out,
            "asadb_http_request_duration_seconds",
            "histogram",
            "HTTP request latency (to the response head) by route.",
        );
        for (route, h) in &http.latency {
            h.render(
                &mut out,
                "asadb_http_request_duration_seconds",
                &format!("route=\"{}\",", escape(route)),
            );
        }
        out
    }
}

impl Histogram {
    fn observe(&mut self, secs: f64) {
        let slot = BUCKETS.iter().position(|&b| secs <= b).unwrap_or(BUCKETS.len());
        self.buckets[slot] += 1;
        self.sum += secs;
        self.count += 1;
    }

    /// Writes the `_bucket`, `_sum` and `_count` series; `labels` is empty
    /// or ends with a comma.
    fn render(&self, out: &mut String, name: &str, labels: &str) {
        let mut cumulative = 0;
        for (i, bound) in BUCKETS.iter().enumerate() {
            cumulative += self.buckets[i];
            let _ = writeln!(out, "{name}_bucket{{{labels}le=\"{bound}\"}} {cumulative}");
        }
        cumulative += self.buckets[BUCKETS.len()];
        let _ = writeln!(out, "{name}_bucket{{{labels}le=\"+Inf\"}} {cumulative}");
        let bare = labels.trim_end_matches(',');
        let braces = if bare.is_empty() { String::new() } else { format!("{{{bare}}}") };
        let _ = writeln!(out, "{name}_sum{braces} {}", self.sum);
        let _ = writeln!(out, "{name}_count{braces} {}", self.count);
    }
}

impl Http {
    /// A copy, so rendering does not hold the lock while formatting.
    fn clone_view(&self) -> Http {
        Http { requests: self.requests.clone(), latency: self.latency.clone() }
    }
}

fn header(out: &mut String, name: &str, kind: &str, help: &str) {
    let _ = writeln!(out, "# HELP {name} {help}");
    let _ = writeln!(out, "# TYPE {name} {kind}");
}

/// Escapes a label value (backslash, quote, newline).
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats() -> Stats {
        let dir = tempfile::tempdir().unwrap();
        let res = asadb::reservoir::Reservoir::open(dir.path(), Default::default()).unwrap();
        res.stats()
    }

    #[test]
    fn histogram_buckets_are_cumulative_and_count_everything() {
        let m = Metrics::default();
        m.observe_request("GET", "/a", 200, Duration::from_micros(100));
        m.observe_request("GET", "/a", 200, Duration::from_millis(30));
        m.observe_request("GET", "/a", 404, Duration::from_secs(60));
        m.add_bytes_received(42);
        m.observe_query(Duration::from_millis(2));
        let text = m.render(&stats(), &EngineGauges { pool_hits: 9, ..Default::default() });
        assert!(text.contains(
            "asadb_http_request_duration_seconds_bucket{route=\"/a\",le=\"0.0005\"} 1\n"
        ));
        assert!(
            text.contains(
                "asadb_http_request_duration_seconds_bucket{route=\"/a\",le=\"0.05\"} 2\n"
            )
        );
        assert!(
            text.contains("asadb_http_request_duration_seconds_bucket{route=\"/a\",le=\"5\"} 2\n")
        );
        assert!(
            text.contains(
                "asadb_http_request_duration_seconds_bucket{route=\"/a\",le=\"+Inf\"} 3\n"
            )
        );
        assert!(text.contains("asadb_http_request_duration_seconds_count{route=\"/a\"} 3\n"));
        assert!(
            text.contains(
                "asadb_http_requests_total{method=\"GET\",route=\"/a\",status=\"404\"} 1\n"
            )
        );
        assert!(text.contains("asadb_reservoir_bytes_received_total 42\n"));
        assert!(text.contains("asadb_reservoir_jobs{state=\"queued\"} 0\n"));
        assert!(text.contains("asadb_bufferpool_hits_total 9\n"));
        assert!(text.contains("asadb_query_duration_seconds_bucket{le=\"0.0025\"} 1\n"));
        assert!(text.contains("asadb_query_duration_seconds_count 1\n"));
        assert!(text.contains("asadb_statements_executed_total 0\n"));
        assert!(text.contains("asadb_reservoir_write_blocked 0\n"));
        assert!(text.contains("# TYPE asadb_statements_executed_total counter\n"));
    }

    #[test]
    fn label_values_are_escaped() {
        assert_eq!(escape("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
    }
}
