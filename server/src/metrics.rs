//! Prometheus metrics in the text exposition format (version 0.0.4).
//!
//! Names carry the `asadb_` prefix and base units (seconds, bytes);
//! counters end in `_total`. HTTP metrics are labelled by the matched route
//! (never by the raw path, so unknown paths cannot grow the label set).
//! Reservoir gauges are read from [`asadb::reservoir::Stats`] at scrape
//! time; the byte counter is kept here because the library does not count
//! across restarts either.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use asadb::reservoir::Stats;
use parking_lot::Mutex;

/// Upper bounds of the latency histogram's buckets, in seconds.
const BUCKETS: [f64; 12] =
    [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0];

/// The server's own counters.
#[derive(Debug, Default)]
pub struct Metrics {
    bytes_received: AtomicU64,
    http: Mutex<Http>,
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

    /// Records one finished request.
    pub fn observe_request(&self, method: &str, route: &str, status: u16, elapsed: Duration) {
        let secs = elapsed.as_secs_f64();
        let mut http = self.http.lock();
        *http.requests.entry((method.to_string(), route.to_string(), status)).or_default() += 1;
        let h = http.latency.entry(route.to_string()).or_default();
        let slot = BUCKETS.iter().position(|&b| secs <= b).unwrap_or(BUCKETS.len());
        h.buckets[slot] += 1;
        h.sum += secs;
        h.count += 1;
    }

    /// Renders every metric, with the Reservoir's current `stats`.
    pub fn render(&self, stats: &Stats) -> String {
        let mut out = String::with_capacity(4096);
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
            let route = escape(route);
            let mut cumulative = 0;
            for (i, bound) in BUCKETS.iter().enumerate() {
                cumulative += h.buckets[i];
                let _ = writeln!(
                    out,
                    "asadb_http_request_duration_seconds_bucket{{route=\"{route}\",le=\"{bound}\"}} {cumulative}"
                );
            }
            cumulative += h.buckets[BUCKETS.len()];
            let _ = writeln!(
                out,
                "asadb_http_request_duration_seconds_bucket{{route=\"{route}\",le=\"+Inf\"}} {cumulative}"
            );
            let _ = writeln!(
                out,
                "asadb_http_request_duration_seconds_sum{{route=\"{route}\"}} {}",
                h.sum
            );
            let _ = writeln!(
                out,
                "asadb_http_request_duration_seconds_count{{route=\"{route}\"}} {}",
                h.count
            );
        }
        out
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
        let text = m.render(&stats());
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
    }

    #[test]
    fn label_values_are_escaped() {
        assert_eq!(escape("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
    }
}
