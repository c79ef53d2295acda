//! The panel in a real browser: `tests/browser/panel_browser.mjs` drives
//! Debian's `/usr/bin/chromium` (headless) through Playwright
//! (`playwright-core`, no bundled browser) against the real `asadb serve`,
//! which the script starts and stops on 127.0.0.1 and free ports.
//!
//! It pins the panel's operator contract (docs/api.md, "The browser
//! panel"): console routing and Show more, import formats and the native
//! progress, cancel in every state, reload recovery without a second job,
//! the adaptive poll and its visibility rules, the one-channel sound, live
//! events with the poll as safety net, and the narrow and dark layouts.
//! Screenshots of every view are kept in `target/panel-browser/`.
//!
//! Nothing here is optional: the test fails (never skips) when chromium,
//! node or the npm package are missing; `.ci/run` installs them. When
//! `node_modules` is absent the test runs `npm ci` itself (the committed
//! lock file).

use std::path::Path;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_asadb");
const CHROMIUM: &str = "/usr/bin/chromium";

#[test]
fn the_panel_keeps_its_contract_in_a_real_browser() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser");
    assert!(
        Path::new(CHROMIUM).exists(),
        "{CHROMIUM} is missing: `apt-get install -y chromium` (.ci/run does)"
    );
    if !dir.join("node_modules/playwright-core").exists() {
        let status = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&dir)
            .status()
            .expect("npm is installed (.ci/run installs it)");
        assert!(status.success(), "npm ci failed in {}", dir.display());
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let artifacts = root.join("target/panel-browser");
    let interchange = std::env::var("ASADB_INTERCHANGE_DIR")
        .unwrap_or_else(|_| root.join("../shared/interchange").to_string_lossy().into_owned());
    let out = Command::new("node")
        .arg(dir.join("panel_browser.mjs"))
        .arg("--bin")
        .arg(BIN)
        .arg("--artifacts")
        .arg(&artifacts)
        .arg("--interchange")
        .arg(&interchange)
        .current_dir(&dir)
        .output()
        .expect("node is installed (.ci/run installs it)");
    let report = String::from_utf8_lossy(&out.stdout);
    println!("{report}");
    assert!(
        out.status.success(),
        "browser scenarios failed (screenshots in {}):\n{report}\n{}",
        artifacts.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(report.contains(" passed, 0 failed"), "{report}");
}
