//! The CLI client subcommands: `submit`, `jobs`, `cancel`.
//!
//! They speak the HTTP API with a blocking client (ureq). `submit`
//! streams the file (never reading it whole), shows an upload progress
//! bar, then polls the job and shows its execution until it ends. Ctrl-C
//! during the upload abandons the upload (the server fails the job); after
//! it, Ctrl-C asks the server to cancel the job and waits for the
//! cancellation; a second Ctrl-C exits at once.
//!
//! Exit codes: 0 when the job completed (or was only queued, with
//! `--no-wait`), 1 when it ended otherwise or the server refused the
//! request, 130 when cancelled by Ctrl-C.

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::Value;

use crate::error::{Error, Result};
use crate::token::Token;

/// The server URL when none is given.
pub const DEFAULT_SERVER: &str = "http://127.0.0.1:7878";
/// How often `submit` polls a job's progress.
const POLL_EVERY: Duration = Duration::from_millis(500);

/// Options shared by the client subcommands.
#[derive(Args, Debug, Clone)]
pub struct ClientArgs {
    /// Server URL
    #[arg(long, value_name = "URL", default_value = DEFAULT_SERVER, env = "ASADB_SERVER")]
    pub server: String,
    /// Token file [default: ASADB_TOKEN, else ./asadb-data/panel.token]
    #[arg(long, value_name = "FILE")]
    pub token_file: Option<PathBuf>,
}

/// `asadb submit`'s arguments.
#[derive(Args, Debug)]
pub struct SubmitArgs {
    /// The SQL script to run
    pub file: PathBuf,
    #[command(flatten)]
    pub client: ClientArgs,
    /// A label shown in job lists
    #[arg(long)]
    pub label: Option<String>,
    /// Makes a retry of the same submission return the same job
    #[arg(long, value_name = "KEY")]
    pub idempotency_key: Option<String>,
    /// Keep executing after a failing statement
    #[arg(long)]
    pub continue_on_error: bool,
    /// Return once the job is queued instead of waiting for its end
    #[arg(long)]
    pub no_wait: bool,
}

/// `asadb jobs`'s arguments.
#[derive(Args, Debug)]
pub struct JobsArgs {
    #[command(flatten)]
    pub client: ClientArgs,
    /// Print the raw JSON answer
    #[arg(long)]
    pub json: bool,
}

/// `asadb cancel`'s arguments.
#[derive(Args, Debug)]
pub struct CancelArgs {
    /// The job id
    pub id: u64,
    #[command(flatten)]
    pub client: ClientArgs,
}

/// A connection to one server with one token.
struct Client {
    agent: ureq::Agent,
    base: String,
    auth: String,
}

impl Client {
    fn new(args: &ClientArgs) -> Result<Client> {
        let token = Token::for_client(args.token_file.as_deref())?;
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_connect(Some(Duration::from_secs(10)))
            .build();
        Ok(Client {
            agent: config.into(),
            base: args.server.trim_end_matches('/').to_string(),
            auth: format!("Bearer {}", token.as_str()),
        })
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    fn get(&self, path: &str) -> Result<Value> {
        let resp = self
            .agent
            .get(self.url(path))
            .header("Authorization", &self.auth)
            .call()
            .map_err(|e| Error::Client(e.to_string()))?;
        answer(resp).map(|(_, v)| v)
    }

    fn post_empty(&self, path: &str) -> Result<Value> {
        let resp = self
            .agent
            .post(self.url(path))
            .header("Authorization", &self.auth)
            .send_empty()
            .map_err(|e| Error::Client(e.to_string()))?;
        answer(resp).map(|(_, v)| v)
    }
}

/// The JSON body of a response, or the server's error.
fn answer(mut resp: ureq::http::Response<ureq::Body>) -> Result<(u16, Value)> {
    let status = resp.status().as_u16();
    let text = resp.body_mut().read_to_string().map_err(|e| Error::Client(e.to_string()))?;
    let value: Value = serde_json::from_str(&text).map_err(|_| {
        Error::Client(format!("the server answered {status} with a non-JSON body: {text:.200}"))
    })?;
    if (200..300).contains(&status) {
        return Ok((status, value));
    }
    let field = |k: &str| value["error"][k].as_str().unwrap_or("").to_string();
    Err(Error::Remote { status, code: field("code"), message: field("message") })
}

/// Installs a Ctrl-C handler: the first press sets the flag, the second
/// exits.
fn interrupt_flag() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let set = flag.clone();
    std::thread::spawn(move || {
        let Ok(rt) = tokio::runtime::Builder::new_current_thread().enable_all().build() else {
            return;
        };
        rt.block_on(async move {
            while tokio::signal::ctrl_c().await.is_ok() {
                if set.swap(true, Ordering::SeqCst) {
                    eprintln!("\ninterrupted again: exiting");
                    std::process::exit(130);
                }
            }
        });
    });
    flag
}

/// A reader that fails once Ctrl-C was pressed, abandoning the upload.
struct Interruptible<R> {
    inner: R,
    flag: Arc<AtomicBool>,
}

impl<R: Read> Read for Interruptible<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.flag.load(Ordering::SeqCst) {
            return Err(std::io::Error::other("interrupted by Ctrl-C"));
        }
        self.inner.read(buf)
    }
}

fn header_safe(name: &str, value: &str) -> Result<()> {
    if value.bytes().any(|b| b.is_ascii_control()) {
        return Err(Error::Config(format!("{name} must not contain control characters")));
    }
    Ok(())
}

/// `asadb submit FILE`.
pub fn submit(args: SubmitArgs) -> Result<ExitCode> {
    let client = Client::new(&args.client)?;
    let file = std::fs::File::open(&args.file)
        .map_err(|e| Error::Config(format!("cannot open {}: {e}", args.file.display())))?;
    let size = file.metadata()?.len();
    // The body's fingerprint goes with it: the server checks it and queues
    // the job at once (no close check needed), and a file that changes
    // while it is sent is refused instead of run half old, half new.
    let sha256 = file_sha256(&args.file)?;
    let flag = interrupt_flag();

    let bar = ProgressBar::new(size).with_style(
        ProgressStyle::with_template(
            "upload  [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    let mut reader = Interruptible { inner: bar.wrap_read(file), flag: flag.clone() };
    let mut req = client
        .agent
        .post(client.url("/api/reservoir/jobs"))
        .header("Authorization", &client.auth)
        .header("Content-Length", size.to_string())
        .header("Content-Type", "application/sql")
        .header("X-AsaDB-Content-SHA256", &sha256);
    if let Some(label) = &args.label {
        header_safe("--label", label)?;
        req = req.header("X-AsaDB-Job-Label", label);
    }
    if let Some(key) = &args.idempotency_key {
        header_safe("--idempotency-key", key)?;
        req = req.header("X-AsaDB-Idempotency-Key", key);
    }
    if args.continue_on_error {
        req = req.header("X-AsaDB-Stop-On-Error", "false");
    }
    if let Some(name) = args.file.file_name().and_then(|n| n.to_str())
        && header_safe("file name", name).is_ok()
    {
        req = req.header("X-AsaDB-Import-Original-Name", name);
    }
    let sent = req.send(ureq::SendBody::from_reader(&mut reader));
    bar.finish_and_clear();
    if flag.load(Ordering::SeqCst) {
        eprintln!("upload abandoned: the server discards the partial body");
        return Ok(ExitCode::from(130));
    }
    let (status, job) = answer(sent.map_err(|e| Error::Client(e.to_string()))?)?;
    let id = job["id"].as_u64().ok_or_else(|| Error::Client("the answer has no job id".into()))?;
    let how = if status == 200 { "reused" } else { "submitted" };
    println!("job {id} {how}: {}", job["state"].as_str().unwrap_or("?"));
    if args.no_wait {
        return Ok(ExitCode::SUCCESS);
    }
    follow(&client, id, &flag)
}

/// The SHA-256 of a file, as lowercase hex.
fn file_sha256(path: &std::path::Path) -> Result<String> {
    use sha2::Digest;
    let mut f = std::fs::File::open(path)
        .map_err(|e| Error::Config(format!("cannot open {}: {e}", path.display())))?;
    let mut hasher = sha2::Sha256::new();
    let mut buf = vec![0u8; 256 << 10];
    loop {
        let n = std::io::Read::read(&mut f, &mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hasher.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// Polls a job until it ends, showing its execution progress.
fn follow(client: &Client, id: u64, flag: &AtomicBool) -> Result<ExitCode> {
    let bar = ProgressBar::new(100).with_style(
        ProgressStyle::with_template("job {prefix} [{bar:30}] {pos}% {msg}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar.set_prefix(id.to_string());
    let mut cancel_sent = false;
    loop {
        if flag.load(Ordering::SeqCst) && !cancel_sent {
            bar.println("cancelling (press Ctrl-C again to exit without waiting)");
            client.post_empty(&format!("/api/reservoir/cancel?id={id}"))?;
            cancel_sent = true;
        }
        let job = client.get(&format!("/api/reservoir/job?id={id}"))?;
        let state = job["state"].as_str().unwrap_or("?").to_string();
        let p = &job["progress"];
        bar.set_position(p["percent"].as_f64().unwrap_or(0.0).clamp(0.0, 100.0) as u64);
        bar.set_message(format!(
            "{state}: {} statements, {} rows, {} errors",
            p["statements_done"], p["rows_affected"], p["errors"]
        ));
        let terminal =
            !matches!(state.as_str(), "receiving" | "queued" | "processing" | "cancelling");
        if terminal {
            bar.finish();
            let ok = matches!(state.as_str(), "completed" | "delivered");
            if !ok && let Some(err) = job["error"].as_object() {
                eprintln!(
                    "job {id} {state}: {} ({})",
                    err.get("message").and_then(Value::as_str).unwrap_or(""),
                    err.get("code").and_then(Value::as_str).unwrap_or("")
                );
            } else {
                println!("job {id} {state}");
            }
            return Ok(match (ok, cancel_sent) {
                (true, _) => ExitCode::SUCCESS,
                (false, true) => ExitCode::from(130),
                (false, false) => ExitCode::FAILURE,
            });
        }
        std::thread::sleep(POLL_EVERY);
    }
}

/// `asadb jobs`: the active jobs, newest update first.
pub fn jobs(args: JobsArgs) -> Result<ExitCode> {
    let client = Client::new(&args.client)?;
    let answer = client.get("/api/reservoir/jobs")?;
    if args.json {
        println!("{answer}");
        return Ok(ExitCode::SUCCESS);
    }
    let jobs = answer["jobs"].as_array().cloned().unwrap_or_default();
    if jobs.is_empty() {
        println!("no active jobs");
        return Ok(ExitCode::SUCCESS);
    }
    println!("{:>8}  {:<11} {:>6}  {:>12}  LABEL", "ID", "STATE", "DONE", "BYTES");
    for job in jobs {
        println!(
            "{:>8}  {:<11} {:>5.1}%  {:>12}  {}",
            job["id"],
            job["state"].as_str().unwrap_or("?"),
            job["progress"]["percent"].as_f64().unwrap_or(0.0),
            job["received_bytes"],
            job["label"].as_str().unwrap_or("")
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `asadb cancel ID`.
pub fn cancel(args: CancelArgs) -> Result<ExitCode> {
    let client = Client::new(&args.client)?;
    let job = client.post_empty(&format!("/api/reservoir/cancel?id={}", args.id))?;
    println!("job {} {}", args.id, job["state"].as_str().unwrap_or("?"));
    Ok(ExitCode::SUCCESS)
}
