//! A full disk against the real `asadb` binary: after a job fails on a
//! full disk, the server refuses new jobs with `507 disk_full` while it
//! cannot write, says so in `/api/reservoir/stats` and `/metrics`, and once
//! space is back it recovers by itself — no restart — and runs jobs again.
//!
//! Where the test runs as root it mounts a small tmpfs as the data
//! directory and fills it with a file (a real `ENOSPC` for the database,
//! the event log and the spool alike); where it cannot mount (not root, no
//! tmpfs) it starts the server with the debug-only hook
//! `ASADB_TEST_FULL_DISK_MARKER`, which makes every database write fail
//! with `ENOSPC` while a marker file exists. Either way the test runs:
//! never a skip.
//!
//! Invariants: a job that hit the full disk ends `interrupted` (or
//! `failed`), never `completed`; while the disk is full a new job gets
//! 507 with the JSON error `disk_full` (retryable); after the space
//! returns, `database_write_error` and `write_error` clear within seconds
//! without any request writing, the metrics gauges drop to 0, a new job
//! completes, and the table holds exactly the committed rows (an
//! interrupted job, resumed, adds exactly its own rows in all).
//!
//! `asadb check` on a full disk: the same hook applies to the database the
//! check opens. A database left with a log to checkpoint (its server
//! killed) cannot be closed while the disk is full, and the check then
//! fails — exit 1, the full disk named on stderr — without having printed
//! `ok`; once space is back the same check passes.

#[path = "common/server.rs"]
mod server;

#[path = "common/client.rs"]
mod client;

use std::ffi::CString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use server::Server;

/// How the test makes the disk full.
enum Disk {
    /// A tmpfs mounted at `mnt`; `filler` takes the free space.
    Tmpfs { mnt: PathBuf, filler: PathBuf },
    /// The server's test hook: database writes fail while `marker` exists.
    Marker { marker: PathBuf },
}

const TMPFS_BYTES: u64 = 64 << 20;

fn c(path: &Path) -> CString {
    CString::new(path.to_str().unwrap()).unwrap()
}

impl Disk {
    fn new(dir: &Path) -> Disk {
        let mnt = dir.join("mnt");
        std::fs::create_dir_all(&mnt).unwrap();
        let opts = CString::new(format!("size={TMPFS_BYTES},mode=0700")).unwrap();
        let fstype = CString::new("tmpfs").unwrap();
        // SAFETY: mount(2) with valid NUL-terminated strings.
        let rc = unsafe {
            libc::mount(fstype.as_ptr(), c(&mnt).as_ptr(), fstype.as_ptr(), 0, opts.as_ptr().cast())
        };
        if rc == 0 {
            eprintln!("disk_full: a {TMPFS_BYTES}-byte tmpfs");
            Disk::Tmpfs { filler: mnt.join("filler"), mnt }
        } else {
            eprintln!(
                "disk_full: cannot mount a tmpfs ({}); using the server's fault hook",
                std::io::Error::last_os_error()
            );
            Disk::Marker { marker: dir.join("disk-is-full") }
        }
    }

    fn name(&self) -> &'static str {
        match self {
            Disk::Tmpfs { .. } => "tmpfs",
            Disk::Marker { .. } => "fault hook",
        }
    }

    fn data_dir(&self, dir: &Path) -> PathBuf {
        match self {
            Disk::Tmpfs { mnt, .. } => mnt.join("data"),
            Disk::Marker { .. } => dir.join("data"),
        }
    }

    fn env(&self) -> Vec<(&str, &str)> {
        match self {
            Disk::Tmpfs { .. } => vec![],
            Disk::Marker { marker } => {
                vec![("ASADB_TEST_FULL_DISK_MARKER", marker.to_str().unwrap())]
            }
        }
    }

    /// Takes every free byte but about `leave`.
    fn fill(&self, leave: u64) {
        match self {
            Disk::Tmpfs { mnt, filler } => {
                let mut f =
                    std::fs::OpenOptions::new().create(true).append(true).open(filler).unwrap();
                let chunk = vec![0xA5u8; 64 << 10];
                loop {
                    let free = free_bytes(mnt);
                    if free <= leave + chunk.len() as u64 {
                        if leave == 0 {
                            // Byte by byte to the very last block.
                            while f.write_all(&chunk[..512]).is_ok() {}
                        }
                        break;
                    }
                    if f.write_all(&chunk).is_err() {
                        break;
                    }
                }
                let _ = f.sync_all();
            }
            Disk::Marker { marker } => {
                std::fs::write(marker, b"full").unwrap();
            }
        }
    }

    fn free(&self) {
        match self {
            Disk::Tmpfs { filler, .. } => {
                let _ = std::fs::remove_file(filler);
            }
            Disk::Marker { marker } => {
                let _ = std::fs::remove_file(marker);
            }
        }
    }
}

impl Drop for Disk {
    fn drop(&mut self) {
        if let Disk::Tmpfs { mnt, .. } = self {
            // SAFETY: umount2(2) with a valid path; lazy, the server may
            // still be exiting.
            unsafe { libc::umount2(c(mnt).as_ptr(), libc::MNT_DETACH) };
        }
    }
}

fn free_bytes(path: &Path) -> u64 {
    // SAFETY: statvfs(3) fills the zeroed struct for a valid path.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    assert_eq!(unsafe { libc::statvfs(c(path).as_ptr(), &mut st) }, 0, "statvfs");
    st.f_bavail as u64 * st.f_frsize as u64
}

/// A script inserting `n` rows of ~`width` bytes each into `t`, ids from
/// `first`.
fn rows_script(first: u64, n: u64, width: usize) -> String {
    let pad = "x".repeat(width);
    let mut s = String::new();
    for i in first..first + n {
        s.push_str(&format!("INSERT INTO t VALUES ({i}, '{pad}');\n"));
    }
    s
}

fn submit_ok(s: &Server, body: &str) -> u64 {
    let r = s.submit(&[], body.as_bytes());
    assert_eq!(r.status, 201, "{r:?}");
    r.json()["id"].as_u64().unwrap()
}

fn count(s: &Server) -> i64 {
    s.rows("SELECT count(*) FROM t")[0][0].as_i64().unwrap()
}

fn stats(s: &Server) -> serde_json::Value {
    let r = s.get("/api/reservoir/stats");
    assert_eq!(r.status, 200, "{r:?}");
    r.json()
}

fn gauge(metrics: &str, name: &str) -> String {
    metrics
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{name} ")))
        .unwrap_or_else(|| panic!("no {name} in the metrics"))
        .to_string()
}

/// Waits until the database reports no write error. (The event log's
/// latch opens at its next write: the next submission.)
fn wait_writable(s: &Server) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let st = stats(s);
        if st["database_write_error"].is_null() {
            return;
        }
        assert!(Instant::now() < deadline, "never recovered: {st}\n{}", s.stderr());
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn after_a_full_disk_the_server_refuses_with_507_then_recovers_without_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    full_disk_then_space(&dir, Disk::new(dir.path()));
}

/// The same through the fault hook even where a tmpfs can be mounted: only
/// the database is full, so its state in the stats and metrics is exact.
#[test]
fn with_the_fault_hook_only_the_database_is_full_and_the_stats_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let disk = Disk::Marker { marker: dir.path().join("disk-is-full") };
    full_disk_then_space(&dir, disk);
}

fn full_disk_then_space(dir: &tempfile::TempDir, disk: Disk) {
    let data = disk.data_dir(dir.path());
    let s = Server::spawn_env(&data, &[], &disk.env());

    let first = submit_ok(
        &s,
        &format!("CREATE TABLE t(id INTEGER PRIMARY KEY, pad TEXT);\n{}", rows_script(0, 10, 10)),
    );
    assert_eq!(s.wait_terminal(first)["state"], "completed");
    assert_eq!(count(&s), 10);

    // A job larger than what is left: ~4 MB of rows into ~1 MB.
    let big = rows_script(1000, 4000, 1000);
    let big_id = match disk {
        Disk::Tmpfs { .. } => {
            // Room for the upload's spool and a little more.
            disk.fill(big.len() as u64 + (1 << 20));
            submit_ok(&s, &big)
        }
        Disk::Marker { .. } => {
            disk.fill(0);
            submit_ok(&s, &big)
        }
    };
    let ended = s.wait_terminal(big_id);
    let state = ended["state"].as_str().unwrap().to_string();
    assert!(state == "failed" || state == "interrupted", "{ended}");

    // On the tmpfs the failed job's log tail held the last space: the
    // server gives it back by itself (its recovery cuts the log to the
    // last commit), so wait for that before taking every block.
    if let Disk::Tmpfs { .. } = disk {
        wait_writable(&s);
    }
    // Full to the last block now: no new job is admitted.
    disk.fill(0);
    let r = s.submit(&[], rows_script(20_000, 1, 10).as_bytes());
    assert_eq!(r.status, 507, "{} {r:?}", disk.name());
    assert_eq!(r.error_code(), "disk_full", "{r:?}");
    assert!(r.retryable(), "{r:?}");
    if let Disk::Marker { .. } = disk {
        // Only the database is full: the state is the database's, exactly.
        let st = stats(&s);
        assert!(st["database_write_error"].is_string(), "{st}");
        let m = s.metrics();
        assert_eq!(gauge(&m, "asadb_database_write_blocked"), "1", "{m}");
    }
    // Reads go on.
    assert!(count(&s) >= 10);

    // Space comes back: the server recovers by itself, no request needed.
    disk.free();
    wait_writable(&s);
    let m = s.metrics();
    assert_eq!(gauge(&m, "asadb_database_write_blocked"), "0", "{m}");
    assert!(gauge(&m, "asadb_database_recoveries_total").parse::<u64>().unwrap() >= 1, "{m}");
    assert!(stats(&s)["database_recoveries"].as_u64().unwrap() >= 1);

    let mut want = 10;
    if state == "failed" {
        want += ended["progress"]["rows_affected"].as_i64().unwrap();
    } else {
        let r = s.post(&format!("/api/reservoir/resume?id={big_id}"), b"");
        assert_eq!(r.status, 200, "{r:?}");
        let j = s.wait_terminal(big_id);
        assert_eq!(j["state"], "completed", "{j}\n{}", s.stderr());
        want += 4000;
    }
    let after = submit_ok(&s, &rows_script(30_000, 5, 10));
    assert_eq!(s.wait_terminal(after)["state"], "completed", "{}", s.stderr());
    let st = stats(&s);
    assert!(st["write_error"].is_null() && st["database_write_error"].is_null(), "{st}");
    let m = s.metrics();
    assert_eq!(gauge(&m, "asadb_reservoir_write_blocked"), "0", "{m}");
    want += 5;
    assert_eq!(count(&s), want);
    assert!(s.terminate().success());
    let check = std::process::Command::new(server::BIN)
        .args(["check", "--db"])
        .arg(data.join("asadb.db"))
        .output()
        .unwrap();
    assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stdout));
}

/// `asadb check --db FILE` with the fault hook's marker at `marker`.
fn check(db: &Path, marker: &Path) -> std::process::Output {
    std::process::Command::new(server::BIN)
        .args(["check", "--db"])
        .arg(db)
        .env("ASADB_TEST_FULL_DISK_MARKER", marker)
        .env("RUST_LOG", "warn")
        .output()
        .unwrap()
}

#[test]
fn check_on_a_full_disk_fails_without_printing_ok() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let marker = dir.path().join("disk-is-full");
    let db = data.join("asadb.db");
    let wal = asadb_txn::wal_path(&db);
    {
        let s = Server::spawn(&data, &[]);
        let id = submit_ok(
            &s,
            &format!(
                "CREATE TABLE t(id INTEGER PRIMARY KEY, pad TEXT);\n{}",
                rows_script(0, 50, 100)
            ),
        );
        assert_eq!(s.wait_terminal(id)["state"], "completed", "{}", s.stderr());
        assert_eq!(count(&s), 50);
        // Dropped: SIGKILL, no clean close, so the log is not checkpointed.
    }
    let logged = std::fs::metadata(&wal).unwrap().len();
    let main_before = std::fs::read(&db).unwrap();
    assert!(logged > 4096, "the killed server left a log of only {logged} bytes");

    std::fs::write(&marker, b"full").unwrap();
    let full = check(&db, &marker);
    let stdout = String::from_utf8_lossy(&full.stdout);
    let stderr = String::from_utf8_lossy(&full.stderr);
    assert!(!full.status.success(), "check passed on a full disk: {stdout}{stderr}");
    assert!(!stdout.lines().any(|l| l.starts_with("ok")), "printed ok, then failed: {stdout}");
    assert!(
        stderr.contains("No space left on device"),
        "stderr does not name the full disk: {stderr}"
    );
    // Nothing reached the database file while the disk was full.
    assert_eq!(std::fs::read(&db).unwrap(), main_before);

    std::fs::remove_file(&marker).unwrap();
    let freed = check(&db, &marker);
    let stdout = String::from_utf8_lossy(&freed.stdout);
    assert!(freed.status.success(), "{stdout}{}", String::from_utf8_lossy(&freed.stderr));
    assert!(stdout.lines().any(|l| l.starts_with("ok: ")), "{stdout}");
    // Every row of the killed server's job is there (the count also
    // holds the schema's own rows).
    let rows: u64 = stdout
        .trim_end()
        .strip_suffix(" rows")
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no row count in {stdout:?}"));
    assert!(rows >= 50, "{stdout}");
    // Closing checkpointed the log into the file: that is the write the
    // full disk refused.
    assert_ne!(std::fs::read(&db).unwrap(), main_before);
    assert!(std::fs::metadata(&wal).unwrap().len() < logged);
}
