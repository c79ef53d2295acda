// The panel in a real browser: Playwright (playwright-core, no bundled
// browser) driving Debian's /usr/bin/chromium, headless, against the real
// `asadb serve` on 127.0.0.1 and a free port, started and stopped here.
//
// Usage: node panel_browser.mjs --bin PATH/asadb --artifacts DIR
//            [--interchange DIR] [--only NAME,...]
// Each scenario prints "ok NAME" or "FAIL NAME: why"; screenshots of each
// view go to --artifacts. Exits 1 when a scenario failed. Run by
// server/tests/panel_browser.rs (so `cargo test --workspace` runs it).
//
// Scenarios (docs/api.md, "The browser panel", is the contract):
// console      Show more to the end, a refused query clears the result,
//              Ctrl+Enter, Esc cancels, history, CSV/JSON export
// write        a console write becomes a job, its results show per
//              statement; long text goes to the Reservoir; schema sidebar
//              shows the new table, a click browses it with Show more
// formats      every import format from the file picker: supported ones
//              reach 100 on the native <progress>; the others are refused
//              before any upload
// cancel       cancel while receiving, queued and processing
// reload       reload mid-job: monitoring resumes, no second job; a reload mid-upload fails the job
// double       two fast Submits: one POST, one job
// polling      intervals 500 ms / 1.5 s / 5 s from request timestamps;
//              hidden: no requests; visible + focus: one refresh
// sound        one audio channel, paused and rewound before each play
// events       SSE progress without polling; the poll takes over when the
//              stream dies, and stops when it is back
// layout       360 and 430 px without sideways scroll, no mid-word
//              breaks, dark scheme, favicon without token, version marker
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].slice(2)] = process.argv[i + 1];
const BIN = args.bin;
const ARTIFACTS = args.artifacts || join(tmpdir(), "asadb-panel-artifacts");
const INTERCHANGE = args.interchange || "";
const ONLY = args.only ? args.only.split(",") : null;
mkdirSync(ARTIFACTS, { recursive: true });
const CHROMIUM = "/usr/bin/chromium";
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
  "--autoplay-policy=no-user-gesture-required"];
const scratch = mkdtempSync(join(tmpdir(), "asadb-panel-browser-"));

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

class Failure extends Error {}
function assert(cond, why) {
  if (!cond) throw new Failure(why);
}

// ---- the server ------------------------------------------------------------

const servers = new Set();

// Starts `asadb serve`; resolves once it listens. `port` 0 picks a free one.
function startServer(data, extra = [], port = 0) {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, RUST_LOG: "warn" };
    delete env.ASADB_TOKEN;
    const proc = spawn(BIN, ["serve", "--data", data, "--listen", "127.0.0.1:" + port, ...extra], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    const timer = setTimeout(() => reject(new Error("server did not start: " + err)), 30000);
    proc.stderr.on("data", (d) => (err += d));
    proc.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/listening on http:\/\/([0-9.:]+)/);
      if (m && !proc.addr) {
        clearTimeout(timer);
        proc.addr = m[1];
        proc.port = Number(m[1].split(":")[1]);
        proc.token = readFileSync(join(data, "panel.token"), "utf8").trim();
        proc.data = data;
        servers.add(proc);
        resolve(proc);
      }
    });
    proc.on("exit", () => servers.delete(proc));
  });
}

function stopServer(s, signal = "SIGTERM") {
  return new Promise((resolve) => {
    if (s.exitCode !== null || s.signalCode !== null) return resolve();
    s.once("exit", () => resolve());
    s.kill(signal);
  });
}

async function http(s, method, path, body, headers = {}) {
  const r = await fetch("http://" + s.addr + path, {
    method,
    headers: { Authorization: "Bearer " + s.token, ...headers },
    body,
  });
  const text = await r.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch (_) {
    // not JSON
  }
  return { status: r.status, json, text };
}

async function waitJob(s, id, states, ms = 60000) {
  const until = Date.now() + ms;
  for (;;) {
    const j = (await http(s, "GET", "/api/reservoir/job?id=" + id)).json;
    if (states.includes(j.state)) return j;
    if (Date.now() > until) throw new Failure("job " + id + " stuck in " + j.state);
    await sleep(25);
  }
}

async function jobCount(s) {
  const st = (await http(s, "GET", "/api/reservoir/stats")).json;
  return Object.values(st.by_state).reduce((a, b) => a + b, 0);
}

// A statement that runs a while: a counter CTE of n rows.
const counter = (n) => `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${n}) SELECT count(*) FROM c;\n`;

// ---- the browser -----------------------------------------------------------

let browser = null;
// Pages of the running scenario (their script errors are reported on failure).
let pages = [];

async function newPage(s, opts = {}) {
  const context = await browser.newContext({ viewport: opts.viewport || { width: 1280, height: 860 },
    colorScheme: opts.colorScheme || "light", acceptDownloads: true });
  const page = await context.newPage();
  page.requests = [];
  page.errors = [];
  page.on("request", (r) => {
    const u = new URL(r.url());
    page.requests.push({ t: Date.now(), method: r.method(), path: u.pathname, query: u.search, body: r.postData() });
  });
  page.on("pageerror", (e) => page.errors.push(e.message));
  pages.push(page);
  page.on("dialog", (d) => d.accept());
  if (opts.init) await page.addInitScript(opts.init);
  await page.goto("http://" + s.addr + "/");
  await page.fill("#token", s.token);
  await page.click("#token-form button[type=submit]");
  await page.waitForFunction(() => document.getElementById("token-status").textContent === "ok");
  return page;
}

const api = (page, path, method = "GET") => page.requests.filter((r) => r.path === path && r.method === method);
const polls = (page, since) => page.requests.filter((r) => r.t >= since && r.method === "GET" &&
  (r.path === "/api/reservoir/stats" || r.path === "/api/reservoir/jobs" || r.path === "/api/reservoir/job"));

// The view as a person sees it (the viewport, not the whole long page).
async function shot(page, name) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(ARTIFACTS, name + ".png") });
}

// Hides or shows the document as a background tab would.
async function setHidden(page, hidden) {
  await page.evaluate((h) => {
    Object.defineProperty(document, "hidden", { configurable: true, get: () => h });
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => (h ? "hidden" : "visible") });
    document.dispatchEvent(new Event("visibilitychange"));
  }, hidden);
}

async function progressValue(page, sel) {
  return page.$eval(sel, (e) => e.value);
}

// ---- scenarios -------------------------------------------------------------

const scenarios = {};

scenarios.console = async () => {
  const s = await startServer(mkdtempSync(join(scratch, "d")));
  await http(s, "POST", "/api/reservoir/jobs", "CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT);\n" +
    "INSERT INTO t(b) " + counter(1234).replace("SELECT count(*) FROM c", "SELECT 'row ' || x FROM c"));
  await waitJob(s, 1, ["completed"]);
  const page = await newPage(s);
  await page.fill("#q-sql", "SELECT a, b FROM t ORDER BY a");
  await page.focus("#q-sql");
  await page.keyboard.press("Control+Enter");
  await page.waitForSelector("#q-results tbody tr");
  const rows = () => page.$$eval("#q-results tbody tr", (t) => t.length);
  assert((await rows()) === 500, "first page: " + (await rows()));
  for (const want of [1000, 1234]) {
    await page.click("#q-results button.more");
    await page.waitForFunction((n) => document.querySelectorAll("#q-results tbody tr").length === n, want);
  }
  assert(await page.$eval("#q-results button.more", (b) => b.hidden), "Show more is gone at the end");
  const lastRow = await page.$eval("#q-results tbody tr:last-child", (tr) => tr.textContent);
  assert(lastRow.includes("row 1234"), "last row " + lastRow);
  const offsets = api(page, "/api/query", "POST").map((r) => JSON.parse(r.body).offset);
  assert(JSON.stringify(offsets) === "[0,500,1000]", "offsets " + offsets);
  assert(api(page, "/api/reservoir/jobs", "POST").length === 0, "a read is no job");
  await shot(page, "panel-console");

  // Export what is on screen.
  const [dl] = await Promise.all([page.waitForEvent("download"), page.click("#q-results .stmt button:text('CSV')")]);
  const csv = readFileSync(await dl.path(), "utf8");
  assert(csv.startsWith("a,b\r\n1,row 1\r\n") && csv.split("\r\n").length === 1236, "CSV " + csv.slice(0, 40));
  const [dj] = await Promise.all([page.waitForEvent("download"), page.click("#q-results .stmt button:text('JSON')")]);
  const json = JSON.parse(readFileSync(await dj.path(), "utf8"));
  assert(json.columns.join() === "a,b" && json.rows.length === 1234, "JSON export");

  // A refused query clears the previous result.
  await page.fill("#q-sql", "SELECT nope FROM t");
  await page.click("#q-run");
  await page.waitForSelector("#q-error:not([hidden])");
  assert((await rows()) === 0, "the old result is gone");
  assert((await page.textContent("#q-error")).includes("nope"), "the error names the column");

  // Esc cancels a read in flight.
  await page.fill("#q-sql", counter(3000000).replace(";\n", ""));
  await page.click("#q-run");
  await sleep(150);
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => document.getElementById("q-status").textContent === "cancelled");
  assert(!(await page.$eval("#q-run", (b) => b.disabled)), "Run is back");

  // History survives a reload (localStorage), text only.
  await page.reload();
  const hist = await page.$$eval("#q-history option", (o) => o.map((x) => x.textContent));
  assert(hist.includes("SELECT a, b FROM t ORDER BY a") && hist.includes("SELECT nope FROM t"), "history " + hist);
  await page.selectOption("#q-history", { label: "SELECT nope FROM t" });
  assert((await page.inputValue("#q-sql")) === "SELECT nope FROM t", "history recalls the text");
  assert(page.errors.length === 0, "page errors: " + page.errors);
  await page.context().close();
  await stopServer(s);
};

scenarios.write = async () => {
  const s = await startServer(mkdtempSync(join(scratch, "d")));
  const page = await newPage(s);
  await page.fill("#q-sql", "CREATE TABLE w(a INTEGER PRIMARY KEY, b TEXT NOT NULL);\nCREATE INDEX wb ON w(b);\n" +
    "INSERT INTO w(b) " + counter(700).replace("SELECT count(*) FROM c", "SELECT 'w' || x FROM c") +
    "SELECT a, b FROM w ORDER BY a;");
  const before = page.requests.length;
  await page.click("#q-run");
  await page.waitForSelector("#q-job [data-state=delivered], #q-job [data-state=completed]");
  await page.waitForFunction(() => document.querySelectorAll("#q-results .stmt").length === 4);
  const fresh = page.requests.slice(before);
  assert(fresh.some((r) => r.method === "POST" && r.path === "/api/reservoir/jobs"), "the write became a job");
  assert(!fresh.some((r) => r.path === "/api/query"), "nothing went to /api/query");
  const heads = await page.$$eval("#q-results .stmt > .row:first-child", (e) => e.map((x) => x.textContent));
  assert(heads[2].includes("700 rows affected"), "insert block: " + heads[2]);
  assert(heads.every((h) => h.includes(" ms")), "elapsed per statement: " + heads);
  assert(heads[3].includes("250 of 700 rows"), "select block: " + heads[3]);
  await page.click("#q-results .stmt:nth-of-type(4) button.more, #q-results .stmt:last-of-type button.more");
  await page.waitForFunction(() => document.querySelectorAll("#q-results .stmt:last-of-type tbody tr").length === 500);

  // The schema sidebar shows the table; a click browses it.
  await page.waitForSelector("#schema-tree details[data-table=w]");
  const summary = await page.textContent("#schema-tree details[data-table=w] summary");
  assert(summary.includes("700 rows"), "row count: " + summary);
  await page.click("#schema-tree details[data-table=w] summary");
  const cols = await page.textContent("#schema-tree details[data-table=w]");
  assert(cols.includes("INTEGER, primary key") && cols.includes("TEXT, not null") && cols.includes("wb (b)"), cols);
  await shot(page, "panel-schema");
  await page.click("#schema-tree details[data-table=w] button.browse");
  await page.waitForFunction(() => document.querySelectorAll("#q-results tbody tr").length === 500);
  await page.click("#q-results button.more");
  await page.waitForFunction(() => document.querySelectorAll("#q-results tbody tr").length === 700);
  assert((await page.inputValue("#q-sql")).includes("FROM \"w\""), "browse query");

  // A single statement over 250,000 characters goes to the Reservoir.
  const jobsBefore = api(page, "/api/reservoir/jobs", "POST").length;
  await page.fill("#q-sql", "SELECT '" + "x".repeat(250001) + "' AS long;");
  await page.click("#q-run");
  await page.waitForFunction(() => document.querySelectorAll("#q-results .stmt").length === 1);
  assert(api(page, "/api/reservoir/jobs", "POST").length === jobsBefore + 1, "long text became a job");
  assert(page.errors.length === 0, "page errors: " + page.errors);
  await page.context().close();
  await stopServer(s);
};

// A file for each format, from the shared interchange fixtures when they
// are there, else small ones made here.
function formatFiles() {
  const dir = join(scratch, "files");
  mkdirSync(dir, { recursive: true });
  const pick = (name, fallback) => {
    const shared = INTERCHANGE && join(INTERCHANGE, name);
    if (shared && existsSync(shared)) return shared;
    const p = join(dir, name.split("/").pop());
    writeFileSync(p, fallback);
    return p;
  };
  const own = (name, text) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };
  let sql = "CREATE TABLE imp(a INTEGER PRIMARY KEY, b TEXT);\n";
  for (let i = 0; i < 3000; i += 1) sql += `INSERT INTO imp(b) VALUES ('row ${i}');\n`;
  writeFileSync(join(dir, "load.sql"), sql);
  // A minimal stored ZIP is enough for the client-side check.
  const zip = Buffer.from([0x50, 0x4b, 3, 4, ...new Array(60).fill(0)]);
  return {
    sql: join(dir, "load.sql"),
    // The two dumps create tables of their own names: Chinook's twice
    // would collide in one database.
    mysql: own("m.mysql.sql", "CREATE TABLE `m` (`a` int);\nINSERT INTO `m` VALUES (1);\n"),
    postgresql: own("p.pg.sql", "CREATE TABLE public.p (a integer);\nINSERT INTO public.p VALUES (1);\n"),
    csv: pick("customer.csv", "a,b\n1,x\n"),
    xlsx: pick("chinook.xlsx", zip),
  };
}

scenarios.formats = async () => {
  const s = await startServer(mkdtempSync(join(scratch, "d")));
  const formats = (await http(s, "GET", "/api/import/formats")).json.formats;
  const files = formatFiles();
  const page = await newPage(s);
  await page.click("#tabbtn-import");
  for (const f of formats) {
    const posts = api(page, "/api/reservoir/jobs", "POST").length;
    await page.setInputFiles("#i-file", files[f.format]);
    await page.selectOption("#i-format", f.format);
    if (f.takes_target) await page.fill("#i-table", "imported_" + f.format);
    await page.click("#i-submit");
    if (f.supported) {
      // The upload starts first (the job view is reset before it), so the
      // previous format's finished view is never taken for this one's.
      for (let i = 0; i < 600 && api(page, "/api/reservoir/jobs", "POST").length === posts; i += 1) {
        await page.waitForTimeout(100);
      }
      await page.waitForFunction(() => document.getElementById("i-progress").value === 100, null, { timeout: 60000 });
      const state = await page.getAttribute("#i-job [data-state]", "data-state");
      assert(state === "completed" || state === "delivered", f.format + " ended " + state);
      assert(api(page, "/api/reservoir/jobs", "POST").length === posts + 1, f.format + ": one upload");
    } else {
      await page.waitForSelector("#i-error:not([hidden])");
      const text = await page.textContent("#i-error");
      assert(text.includes("not supported") && text.includes("nothing was uploaded"), f.format + ": " + text);
      assert(api(page, "/api/reservoir/jobs", "POST").length === posts, f.format + " was uploaded");
    }
  }
  // In progress: a job of long statements, shot mid-way.
  const slow = join(scratch, "files", "slow.sql");
  writeFileSync(slow, "CREATE TABLE slow(a);\n" + counter(300000).repeat(20));
  await page.setInputFiles("#i-file", slow);
  await page.click("#i-submit");
  await page.waitForFunction(() => {
    const v = document.getElementById("i-progress").value;
    return v > 15 && v < 85;
  }, null, { timeout: 60000 });
  await shot(page, "panel-import");
  await page.waitForFunction(() => document.getElementById("i-progress").value === 100, null, { timeout: 60000 });
  assert(page.errors.length === 0, "page errors: " + page.errors);
  await page.context().close();
  await stopServer(s);
};

scenarios.cancel = async () => {
  // Receiving: a slow upload (the browser's upload is throttled).
  const q = await startServer(mkdtempSync(join(scratch, "d")), ["--no-worker"]);
  const page = await newPage(q);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0,
    downloadThroughput: -1, uploadThroughput: 256 * 1024 });
  const big = join(scratch, "big.sql");
  writeFileSync(big, "SELECT 1;\n".repeat(300000));
  await page.click("#tabbtn-import");
  await page.setInputFiles("#i-file", big);
  await page.click("#i-submit");
  await page.waitForSelector("#i-job [data-state=receiving]");
  await page.click("#i-cancel");
  await page.waitForFunction(() => document.getElementById("i-status").textContent.includes("cancelled while receiving"));
  const recv = (await http(q, "GET", "/api/reservoir/job?id=1")).json;
  assert(recv.state === "cancelled", "receiving job is " + recv.state);
  assert(!(await page.isVisible("#i-error")), "a cancel is not shown as a refusal");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

  // Queued (no worker): cancelled before it ran.
  const small = join(scratch, "small.sql");
  writeFileSync(small, "SELECT 1;\n");
  await page.setInputFiles("#i-file", small);
  await page.click("#i-submit");
  await page.waitForSelector("#i-job [data-state=queued]");
  assert(!(await page.$eval("#i-cancel", (b) => b.disabled)), "queued can be cancelled");
  await page.click("#i-cancel");
  await page.waitForSelector("#i-job [data-state=cancelled]");
  assert((await page.textContent("#i-job")).includes("before it ran"), "queued cancel note");
  assert(await page.$eval("#i-cancel", (b) => b.disabled), "a finished job has no cancel");
  await page.context().close();
  await stopServer(q);

  // Processing: rolled back to the last commit.
  const s = await startServer(mkdtempSync(join(scratch, "d")));
  const p2 = await newPage(s);
  await p2.fill("#q-sql", "CREATE TABLE c(a);\n" + counter(400000).repeat(30));
  await p2.click("#q-run");
  await p2.waitForSelector("#q-job [data-state=processing]");
  await p2.click("#q-cancel");
  await p2.waitForSelector("#q-job [data-state=cancelled]", { timeout: 30000 });
  assert((await p2.textContent("#q-job")).includes("committed before the cancel stay"), "processing cancel note");
  assert(!(await p2.$eval("#q-run", (b) => b.disabled)), "Run is back after the cancel");
  await p2.context().close();
  await stopServer(s);
};

scenarios.reload = async () => {
  const s = await startServer(mkdtempSync(join(scratch, "d")));
  const page = await newPage(s);
  const slow = join(scratch, "reload.sql");
  writeFileSync(slow, "CREATE TABLE r(a);\n" + counter(300000).repeat(25));
  await page.click("#tabbtn-import");
  await page.setInputFiles("#i-file", slow);
  await page.click("#i-submit");
  await page.waitForSelector("#i-job [data-state=processing]");
  const id = Number(await page.getAttribute("#i-job [data-job]", "data-job"));
  const stored = await page.evaluate(() => sessionStorage.getItem("asadb.panel.watch"));
  const desc = JSON.parse(stored);
  assert(desc.id === id && Object.keys(desc).sort().join() === "id,label,view", "descriptor " + stored);
  assert(!stored.includes("SELECT"), "no SQL in storage");
  const mark = page.requests.length;
  await page.reload();
  await page.waitForSelector("#i-job [data-state=processing]");
  const after = page.requests.slice(mark).filter((r) => r.path.startsWith("/api/reservoir/job"));
  assert(after[0].path === "/api/reservoir/job" && after[0].query === "?id=" + id, "first asked " + after[0].path + after[0].query);
  await page.waitForFunction(() => document.getElementById("i-progress").value === 100, null, { timeout: 60000 });
  assert(api(page, "/api/reservoir/jobs", "POST").length === 1, "one POST in all");
  assert((await jobCount(s)) === 1, "one job on the server");
  // Storage empty: the active list is the fallback.
  await http(s, "POST", "/api/reservoir/jobs", "CREATE TABLE r2(a);\n" + counter(300000).repeat(20));
  await waitJob(s, 2, ["processing"]);
  await page.evaluate(() => sessionStorage.removeItem("asadb.panel.watch"));
  const mark2 = page.requests.length;
  await page.reload();
  await page.waitForSelector("#i-job [data-job='2']");
  const first = page.requests.slice(mark2).find((r) => r.path.startsWith("/api/reservoir/job"));
  assert(first.path === "/api/reservoir/jobs", "fallback asked " + first.path);
  assert(api(page, "/api/reservoir/jobs", "POST").length === 1, "still one POST from the page");
  await page.context().close();
  await stopServer(s);

  // A reload during an upload fails the job (its body broke off), and the
  // reloaded page shows that job failed: no second job, no resubmission.
  const u = await startServer(mkdtempSync(join(scratch, "d")), ["--no-worker"]);
  const up = await newPage(u);
  const cdp = await up.context().newCDPSession(up);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0,
    downloadThroughput: -1, uploadThroughput: 256 * 1024 });
  const big = join(scratch, "reload-upload.sql");
  writeFileSync(big, "SELECT 1;\n".repeat(300000));
  await up.click("#tabbtn-import");
  await up.setInputFiles("#i-file", big);
  await up.click("#i-submit");
  await up.waitForSelector("#i-job [data-state=receiving]");
  const uid = Number(await up.getAttribute("#i-job [data-job]", "data-job"));
  await up.reload();
  await up.waitForSelector("#i-job [data-state=failed]", { timeout: 30000 });
  assert(Number(await up.getAttribute("#i-job [data-job]", "data-job")) === uid, "the reloaded page follows job " + uid);
  const failed = (await http(u, "GET", "/api/reservoir/job?id=" + uid)).json;
  assert(failed.state === "failed" && failed.error.code === "upload_aborted", "after the reload the job is " + JSON.stringify(failed));
  assert(api(up, "/api/reservoir/jobs", "POST").length === 1, "one POST: the reload resubmits nothing");
  assert((await jobCount(u)) === 1, "one job on the server");
  await up.context().close();
  await stopServer(u);
};

scenarios.double = async () => {
  const s = await startServer(mkdtempSync(join(scratch, "d")), ["--no-worker"]);
  const page = await newPage(s);
  const f = join(scratch, "double.sql");
  writeFileSync(f, "SELECT 1;\n".repeat(20000));
  await page.click("#tabbtn-import");
  await page.setInputFiles("#i-file", f);
  await page.evaluate(() => {
    const b = document.getElementById("i-submit");
    b.click();
    b.click();
  });
  await page.waitForSelector("#i-job [data-state=queued]");
  await sleep(300);
  // Submit again after it was admitted: the default key returns the job.
  await page.click("#i-submit");
  await page.waitForFunction(() => document.getElementById("i-status").textContent.includes("already submitted as job 1"));
  assert(api(page, "/api/reservoir/jobs", "POST").length === 2, "POSTs: " + api(page, "/api/reservoir/jobs", "POST").length);
  assert((await jobCount(s)) === 1, "jobs on the server: " + (await jobCount(s)));
  // The console too: two fast Runs share one run.
  await page.click("#tabbtn-console");
  await page.fill("#q-sql", "CREATE TABLE x(a);");
  await page.evaluate(() => {
    const b = document.getElementById("q-run");
    b.click();
    b.click();
  });
  await page.waitForSelector("#q-job [data-state=queued]");
  assert((await jobCount(s)) === 2, "console double click made " + ((await jobCount(s)) - 1) + " jobs");
  await page.context().close();
  await stopServer(s);
};

// Gaps between successive poll rounds (stats requests), in ms.
function gaps(page, since, until) {
  const ts = page.requests.filter((r) => r.t >= since && r.t <= until && r.path === "/api/reservoir/stats").map((r) => r.t);
  return ts.slice(1).map((t, i) => t - ts[i]);
}

scenarios.polling = async () => {
  const s = await startServer(mkdtempSync(join(scratch, "d")), ["--no-worker"]);
  const page = await newPage(s, { init: () => {} });
  // No event stream here: the poll is what is measured.
  await page.route("**/api/reservoir/events*", (r) => r.abort());
  await page.reload();
  await page.waitForFunction(() => document.getElementById("live").textContent === "polling");
  // Idle: 5 s.
  let t0 = Date.now();
  await sleep(11500);
  const idle = gaps(page, t0, Date.now());
  assert(idle.length >= 1 && idle.every((g) => g >= 4900 && g <= 6500), "idle gaps " + idle);
  // Metadata view open: 1.5 s.
  await page.click("#tabbtn-jobs");
  await sleep(200);
  t0 = Date.now();
  await sleep(5000);
  const meta = gaps(page, t0, Date.now());
  assert(meta.length >= 2 && meta.every((g) => g >= 1400 && g <= 2400), "metadata gaps " + meta);
  // A job active: 500 ms.
  await http(s, "POST", "/api/reservoir/jobs", "SELECT 1;");
  await sleep(2000);
  t0 = Date.now();
  await sleep(3000);
  const active = gaps(page, t0, Date.now());
  assert(active.length >= 4 && active.every((g) => g >= 450 && g <= 1100), "active gaps " + active);
  // Back to idle (the poll learns it at its next round).
  await http(s, "POST", "/api/reservoir/cancel?id=1");
  await sleep(1200);
  // Hidden: nothing at all.
  await setHidden(page, true);
  await sleep(100);
  t0 = Date.now();
  await sleep(3000);
  const hidden = page.requests.filter((r) => r.t >= t0);
  assert(hidden.length === 0, "requests while hidden: " + hidden.map((r) => r.path));
  // Visible, then focus at once: one immediate refresh.
  t0 = Date.now();
  await setHidden(page, false);
  await page.evaluate(() => window.dispatchEvent(new Event("focus")));
  await sleep(250);
  const woke = polls(page, t0);
  assert(woke.filter((r) => r.path === "/api/reservoir/stats").length === 1, "visible+focus rounds: " + woke.map((r) => r.path));
  // Focus alone, later (idle: the next timed round is seconds away): one
  // immediate refresh, not waiting for the timer.
  await page.click("#tabbtn-console");
  await sleep(800);
  t0 = Date.now();
  await page.evaluate(() => window.dispatchEvent(new Event("focus")));
  await sleep(200);
  const focused = polls(page, t0).filter((r) => r.path === "/api/reservoir/stats");
  assert(focused.length === 1 && focused[0].t - t0 < 150, "focus rounds: " + focused.map((r) => r.t - t0));
  await page.context().close();
  await stopServer(s);
};

const SPY = () => {
  window.__media = [];
  const proto = HTMLMediaElement.prototype;
  const play = proto.play;
  const pause = proto.pause;
  proto.play = function () {
    window.__media.push(["play", this.id || "?", this.currentTime]);
    return play.call(this);
  };
  proto.pause = function () {
    window.__media.push(["pause", this.id || "?"]);
    return pause.call(this);
  };
  const desc = Object.getOwnPropertyDescriptor(proto, "currentTime");
  Object.defineProperty(proto, "currentTime", {
    configurable: true,
    get() {
      return desc.get.call(this);
    },
    set(v) {
      window.__media.push(["seek", this.id || "?", v]);
      desc.set.call(this, v);
    },
  });
  const NativeAudio = window.Audio;
  window.Audio = function (...a) {
    window.__media.push(["new-audio"]);
    return new NativeAudio(...a);
  };
};

scenarios.sound = async () => {
  const s = await startServer(mkdtempSync(join(scratch, "d")));
  const page = await newPage(s, { init: SPY });
  const run = async (sql) => {
    await page.fill("#q-sql", sql);
    await page.click("#q-run");
    await page.waitForFunction(() => !document.getElementById("q-run").disabled &&
      document.querySelector("#q-job [data-state]") && !["receiving", "queued", "processing", "cancelling"]
        .includes(document.querySelector("#q-job [data-state]").dataset.state));
  };
  await run("CREATE TABLE s(a);");
  await run("INSERT INTO s VALUES (1);");
  const log = await page.evaluate(() => window.__media);
  const plays = log.map((e, i) => [e, i]).filter(([e]) => e[0] === "play");
  assert(plays.length === 2, "plays: " + JSON.stringify(log));
  for (const [, i] of plays) {
    assert(log[i - 2][0] === "pause" && log[i - 1][0] === "seek" && log[i - 1][2] === 0,
      "before a play: pause and rewind: " + JSON.stringify(log.slice(Math.max(0, i - 2), i + 1)));
  }
  assert(log.every((e) => e[0] === "new-audio" ? false : e[1] === "chime"), "one channel: " + JSON.stringify(log));
  assert((await page.$$eval("audio", (a) => a.length)) === 1, "one audio element");
  // Muted: no play.
  await page.click("#mute");
  assert((await page.textContent("#mute")) === "Sound: off", "mute toggle");
  await run("INSERT INTO s VALUES (2);");
  const after = await page.evaluate(() => window.__media.filter((e) => e[0] === "play").length);
  assert(after === 2, "muted played " + after);
  const src = await page.$eval("#chime", (a) => new URL(a.src).pathname);
  assert(src === "/panel.wav", "the sound is the server's own: " + src);
  await page.context().close();
  await stopServer(s);
};

scenarios.events = async () => {
  const data = mkdtempSync(join(scratch, "d"));
  let s = await startServer(data);
  const page = await newPage(s);
  await page.waitForFunction(() => document.getElementById("live").textContent === "live");
  assert(api(page, "/api/reservoir/events").length >= 1, "the stream was opened");
  await page.fill("#q-sql", "CREATE TABLE e(a);\n" + counter(300000).repeat(60));
  await page.click("#q-run");
  await page.waitForSelector("#q-job [data-state=processing]");
  await sleep(300);
  const t0 = Date.now();
  const values = [];
  for (let i = 0; i < 10; i += 1) {
    values.push(await page.$eval("#q-job progress", (p) => p.value));
    await sleep(200);
  }
  const quiet = polls(page, t0);
  assert(quiet.length === 0, "polled while the stream was live: " + quiet.map((r) => r.path + r.query));
  assert(values[values.length - 1] > values[0], "progress moved by events: " + values);
  // The stream dies (the server crashes and comes back on the same port,
  // and the stream is refused): the poll takes over at once.
  await page.route("**/api/reservoir/events*", (r) => r.abort());
  const port = s.port;
  await stopServer(s, "SIGKILL");
  s = await startServer(data, [], port);
  await page.waitForFunction(() => document.getElementById("live").textContent === "polling", null, { timeout: 10000 });
  const t1 = Date.now();
  await sleep(2500);
  const taken = polls(page, t1);
  assert(taken.length >= 2, "no poll after the stream died");
  await page.waitForSelector("#q-job [data-state=interrupted]", { timeout: 10000 });
  // Resumed from the job view: the poll follows at 500 ms.
  await page.click("#q-job button:text('Resume')");
  await sleep(1500);
  const t2 = Date.now();
  await sleep(2000);
  const fast = gaps(page, t2, Date.now());
  assert(fast.length >= 2 && fast.every((g) => g <= 900), "active poll gaps " + fast);
  // The stream is back: the poll stops again.
  await page.unroute("**/api/reservoir/events*");
  await page.waitForFunction(() => document.getElementById("live").textContent === "live", null, { timeout: 40000 });
  // After a reconnect the panel re-reads the job once, and a poll that was
  // in flight when the stream opened may still finish (on a loaded machine
  // that took 1.3 s): wait for the first quiet window. A panel that kept
  // polling (every 500 ms while the job runs) never has one.
  let after = [];
  let t3 = 0;
  for (let attempt = 0; attempt < 4; attempt += 1) {
    t3 = Date.now();
    await sleep(2000);
    after = polls(page, t3);
    if (after.length === 0) break;
  }
  const reopened = page.requests.filter((r) => r.t >= t3 - 8000 && r.path === "/api/reservoir/events");
  assert(after.length === 0, "polled after the stream came back: " + after.map((r) => r.path + r.query + "@" + (r.t - t3)) + " streams " + reopened.map((r) => r.t - t3));
  await page.waitForSelector("#q-job [data-state=completed], #q-job [data-state=delivered]", { timeout: 60000 });
  await page.waitForFunction(() => document.querySelectorAll("#q-results .stmt").length > 0);
  await page.context().close();
  await stopServer(s);
};

scenarios.layout = async () => {
  const s = await startServer(mkdtempSync(join(scratch, "d")), ["--no-worker"]);
  // Favicon and every panel file load without the token.
  const icon = await fetch("http://" + s.addr + "/favicon.ico");
  assert(icon.status === 200 && icon.headers.get("content-type") === "image/x-icon", "favicon " + icon.status);
  await http(s, "POST", "/api/reservoir/jobs", "SELECT 1;", { "X-AsaDB-Job-Label": "a rather long label for a job that is processing" });
  for (const width of [360, 430]) {
    for (const scheme of ["light", "dark"]) {
      const page = await newPage(s, { viewport: { width, height: 800 }, colorScheme: scheme });
      const statuses = [];
      page.on("response", (r) => statuses.push([new URL(r.url()).pathname, r.status()]));
      await page.reload();
      await page.waitForFunction(() => document.getElementById("token-status").textContent === "ok");
      for (const tab of ["console", "import", "jobs"]) {
        await page.click("#tabbtn-" + tab);
        await sleep(150);
        const sw = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
        assert(sw[0] <= sw[1], `${width}px ${tab}: scrolls sideways (${sw})`);
        await shot(page, `panel-${tab}-${width}-${scheme}`);
      }
      // The state in the jobs table stays one word on one line.
      const lines = await page.$eval("#j-active .state", (e) => {
        const r = document.createRange();
        r.selectNodeContents(e);
        return r.getClientRects().length;
      });
      assert(lines === 1, "state broke over " + lines + " lines");
      const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      const dark = bg === "rgb(21, 24, 28)";
      assert(scheme === "dark" ? dark : !dark, scheme + " background " + bg);
      assert(!statuses.some(([p, st]) => p === "/favicon.ico" && st !== 200), "favicon " + JSON.stringify(statuses));
      assert(await page.isHidden("#version-warning"), "version warning shown");
      const v = await page.evaluate(() => [window.asadbPanel.version,
        document.querySelector("meta[name='asadb-panel-version']").content]);
      assert(v[0] === v[1], "version markers " + v);
      await page.context().close();
    }
  }
  await stopServer(s);
};

// ---- run ---------------------------------------------------------------------

let failed = 0;
try {
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  for (const [name, run] of Object.entries(scenarios)) {
    if (ONLY && !ONLY.includes(name)) continue;
    const started = Date.now();
    pages = [];
    try {
      await run();
      console.log(`ok ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    } catch (e) {
      failed += 1;
      console.log(`FAIL ${name}: ${e instanceof Failure ? e.message : e.stack}`);
      for (const p of pages) if (p.errors.length) console.log("  page errors: " + p.errors.join(" | "));
      for (const ctx of browser.contexts()) {
        for (const p of ctx.pages()) await p.screenshot({ path: join(ARTIFACTS, "failed-" + name + ".png"), fullPage: true }).catch(() => {});
        await ctx.close().catch(() => {});
      }
    } finally {
      for (const srv of [...servers]) await stopServer(srv, "SIGKILL");
    }
  }
} finally {
  if (browser) await browser.close();
  rmSync(scratch, { recursive: true, force: true });
}
const ran = Object.keys(scenarios).filter((n) => !ONLY || ONLY.includes(n)).length;
console.log(`${ran - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
