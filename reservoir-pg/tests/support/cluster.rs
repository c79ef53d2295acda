//! A real PostgreSQL server for the tests, never a skip.
//!
//! When `ASADB_TEST_PG_URL` is set (`.ci/run` starts one cluster for the
//! whole run and exports it), that server is used. Otherwise the first
//! test that asks starts a throwaway cluster for this test binary:
//! `initdb` into a temporary directory, `postgres` on 127.0.0.1 and a free
//! port (fsync off: the tests check the engine's logic, not the disk).
//! When running as root it runs as the `postgres` user, as PostgreSQL
//! insists. It is started by a wrapper shell that dies with this process
//! (`setpriv --pdeathsig`) and then stops the server and removes the
//! directory, so no test run leaves a server or a cluster behind.
//!
//! Each test gets its own database ([`fresh_database`]): engines in
//! different tests never see each other's jobs, tables or locks.
#![allow(dead_code)] // each test binary uses its own part

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The variable naming a server to use instead of a throwaway one.
pub const URL_ENV: &str = "ASADB_TEST_PG_URL";

/// The admin URL (a superuser, database `postgres`).
pub fn admin_url() -> &'static str {
    static URL: OnceLock<String> = OnceLock::new();
    URL.get_or_init(|| match std::env::var(URL_ENV) {
        Ok(url) if !url.is_empty() => url,
        _ => start_cluster(false),
    })
}

/// The directory of PostgreSQL's server programs: the newest Debian
/// install, else whatever `initdb` on the PATH belongs to.
pub fn bin_dir() -> PathBuf {
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let v = e.file_name().to_string_lossy().parse::<u32>().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").exists().then_some((v, bin))
        })
        .collect();
    versions.sort();
    if let Some((_, bin)) = versions.pop() {
        return bin;
    }
    let out = Command::new("sh").args(["-c", "command -v initdb"]).output();
    match out {
        Ok(o) if o.status.success() => {
            let p = PathBuf::from(String::from_utf8_lossy(&o.stdout).trim());
            p.parent().expect("initdb has a directory").to_path_buf()
        }
        _ => panic!(
            "PostgreSQL's server programs (initdb, postgres) are not installed: \
             `apt-get install postgresql`, or set {URL_ENV} to a server's URL"
        ),
    }
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.starts_with(b"0\n"))
}

/// The command prefix that runs a program as the `postgres` user when we
/// are root (PostgreSQL refuses to run as root).
pub fn as_postgres() -> Vec<String> {
    if is_root() {
        ["setpriv", "--reuid=postgres", "--regid=postgres", "--clear-groups"]
            .map(String::from)
            .to_vec()
    } else {
        Vec::new()
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

const RUN_SCRIPT: &str = r#"
dir=$1; port=$2; bin=$3; durability=$4; shift 4
"$@" "$bin/postgres" -D "$dir/data" -p "$port" -k "$dir" -c listen_addresses=127.0.0.1 \
    $durability -c max_connections=400 -c shared_buffers=64MB >"$dir/server.log" 2>&1 &
pg=$!
trap 'kill -INT $pg 2>/dev/null; wait $pg; rm -rf "$dir"; exit 0' TERM INT HUP
wait $pg
rm -rf "$dir"
"#;

/// Starts a throwaway cluster for this process and returns its admin URL;
/// `durable`: PostgreSQL's default fsync settings (for benchmarks), else
/// fsync off (for tests).
pub fn start_cluster(durable: bool) -> String {
    let fast = "-c fsync=off -c synchronous_commit=off -c full_page_writes=off";
    start_cluster_with(if durable { "" } else { fast }, |_| {})
}

/// [`start_cluster`] with these server settings (`-c name=value …`), and
/// `prepare` run on the data directory before the server starts.
pub fn start_cluster_with(settings: &str, prepare: impl FnOnce(&Path)) -> String {
    static N: AtomicU64 = AtomicU64::new(0);
    let bin = bin_dir();
    let dir = std::env::temp_dir().join(format!(
        "asadb-test-pg-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let prefix = as_postgres();
    if !prefix.is_empty() {
        let ok = Command::new("chown").arg("postgres:").arg(&dir).status().unwrap().success();
        assert!(ok, "chown of the test cluster's directory");
    }
    let mut initdb = Command::new(prefix.first().map_or(bin.join("initdb"), PathBuf::from));
    initdb.args(prefix.iter().skip(1));
    if !prefix.is_empty() {
        initdb.arg(bin.join("initdb"));
    }
    let out = initdb
        .args(["-A", "trust", "-U", "asadb", "--no-sync", "-E", "UTF8", "--locale=C", "-D"])
        .arg(dir.join("data"))
        .output()
        .expect("run initdb");
    assert!(out.status.success(), "initdb failed: {}", String::from_utf8_lossy(&out.stderr));
    prepare(&dir.join("data"));
    let port = free_port();
    let (dir2, bin2, settings) = (dir.clone(), bin.clone(), settings.to_string());
    // The wrapper is spawned by a thread that lives as long as the
    // process: the death signal follows the thread that forked it.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let child = Command::new("setpriv")
            .args(["--pdeathsig", "TERM", "sh", "-c", RUN_SCRIPT, "sh"])
            .arg(&dir2)
            .arg(port.to_string())
            .arg(&bin2)
            .arg(&settings)
            .args(&prefix)
            .spawn();
        let _ = tx.send(child.map(|_| ()));
        loop {
            std::thread::park();
        }
    });
    rx.recv().unwrap().expect("start the test cluster");
    wait_ready(&dir, port);
    format!("postgres://asadb@127.0.0.1:{port}/postgres")
}

fn wait_ready(dir: &Path, port: u16) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let ready = Command::new(bin_dir().join("pg_isready"))
            .args(["-q", "-h", "127.0.0.1", "-p", &port.to_string()])
            .status()
            .is_ok_and(|s| s.success());
        if ready {
            return;
        }
        let log = std::fs::read_to_string(dir.join("server.log")).unwrap_or_default();
        assert!(Instant::now() < deadline, "the test cluster did not start:\n{log}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The URL of a new, empty database on the test server.
pub async fn fresh_database() -> String {
    fresh_database_at(admin_url()).await
}

/// The URL of a new, empty database on the server of `admin`.
pub async fn fresh_database_at(admin: &str) -> String {
    static N: AtomicU64 = AtomicU64::new(0);
    let name = format!("asadb_t{}_{}", std::process::id(), N.fetch_add(1, Ordering::SeqCst));
    let (client, conn) = tokio_postgres::connect(admin, tokio_postgres::NoTls)
        .await
        .unwrap_or_else(|e| panic!("connect to the test server {admin}: {e}"));
    let driver = tokio::spawn(conn);
    client.batch_execute(&format!("CREATE DATABASE {name}")).await.unwrap();
    drop(client);
    let _ = driver.await;
    let base = admin.rsplit_once('/').expect("a URL with a database").0;
    format!("{base}/{name}")
}

/// A connection to a database for the test's own checks.
pub async fn connect(url: &str) -> tokio_postgres::Client {
    let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(conn);
    client
}
