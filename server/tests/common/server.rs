//! A running `asadb serve` for the tests and benches that drive the real
//! binary: started on `127.0.0.1:0` (the kernel picks a free port, so no
//! other process can take it in between), its bound address read from the
//! `listening on http://ADDR` line of its stdout, its stderr kept for
//! failure messages, and killed when dropped — a test that fails must not
//! leave a server behind.
#![allow(dead_code)] // each test binary uses its own part of it

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

/// The SHA-256 of `body` as the 64 lowercase hex digits
/// `X-AsaDB-Content-SHA256` takes.
pub fn sha256_hex(body: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(body).iter().map(|b| format!("{b:02x}")).collect()
}

/// The `asadb` binary built with the test's or the bench's profile.
pub const BIN: &str = env!("CARGO_BIN_EXE_asadb");

pub struct Server {
    child: Option<Child>,
    pub addr: String,
    pub data: PathBuf,
    pub token: String,
    stderr: Arc<Mutex<String>>,
}

impl Server {
    /// Starts `asadb serve --data DATA --listen 127.0.0.1:0 EXTRA…` and
    /// waits until it listens.
    pub fn spawn(data: &Path, extra: &[&str]) -> Server {
        Server::spawn_env(data, extra, &[])
    }

    /// [`Server::spawn`] with extra environment variables.
    pub fn spawn_env(data: &Path, extra: &[&str], env: &[(&str, &str)]) -> Server {
        let mut cmd = Command::new(BIN);
        cmd.arg("serve").arg("--data").arg(data).args(["--listen", "127.0.0.1:0"]).args(extra);
        cmd.env_remove("ASADB_TOKEN").env("RUST_LOG", "warn");
        cmd.envs(env.iter().copied());
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = cmd.spawn().expect("spawn asadb");
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        let err_text = Arc::new(Mutex::new(String::new()));
        let sink = err_text.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                let mut s = sink.lock().expect("stderr sink");
                s.push_str(&line);
                s.push('\n');
            }
        });
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(addr) = line.strip_prefix("listening on http://") {
                    let _ = tx.send(addr.to_string());
                }
            }
        });
        let mut server = Server {
            child: Some(child),
            addr: String::new(),
            data: data.to_path_buf(),
            token: String::new(),
            stderr: err_text,
        };
        match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(addr) => server.addr = addr,
            Err(_) => panic!("server did not start; stderr:\n{}", server.stderr()),
        }
        server.token = std::fs::read_to_string(data.join("panel.token"))
            .expect("read panel.token")
            .trim()
            .to_string();
        server
    }

    pub fn stderr(&self) -> String {
        self.stderr.lock().expect("stderr sink").clone()
    }

    pub fn pid(&self) -> u32 {
        self.child.as_ref().expect("a running server").id()
    }

    /// Sends SIGTERM and waits for the exit.
    pub fn terminate(mut self) -> ExitStatus {
        let mut child = self.child.take().expect("a running server");
        // SAFETY: kill(2) on our own child's pid has no memory effects.
        let rc = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) };
        assert_eq!(rc, 0, "kill(SIGTERM)");
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(status) = child.try_wait().expect("wait for the server") {
                if !status.success() {
                    eprintln!("the server exited with {status} after SIGTERM: {}", self.stderr());
                }
                return status;
            }
            assert!(Instant::now() < deadline, "no exit after SIGTERM: {}", self.stderr());
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
