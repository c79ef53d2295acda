// Drives the panel's script against a running `asadb serve`, in Node with
// a small fake DOM (no browser, no npm packages): the page and script are
// fetched from the server like a browser would, the script runs in a vm
// context, and the test clicks and types through the fake elements.
//
// Usage: node panel_dom.mjs BASE_URL TOKEN SCENARIO
//   SCENARIO "worker":   the server runs jobs (token, submit, result
//                        pages, query paging, exact values, typed errors);
//   SCENARIO "noworker": jobs stay queued (file upload, active list,
//                        Cancel, look-up errors).
// Prints one line per check; exits 1 if any failed.
// Run by `the_panel_works_in_a_fake_dom_when_node_is_available` in panel.rs.
import vm from "node:vm";

const [, , base, token, scenario] = process.argv;
const html = await (await fetch(base + "/")).text();
const script = await (await fetch(base + "/panel.js")).text();

// ---- the fake DOM ---------------------------------------------------------

class Node {}
class FakeText extends Node {
  constructor(t) {
    super();
    this.t = t;
  }
  get textContent() {
    return this.t;
  }
}
class FakeEl extends Node {
  constructor(tag, attrs = {}) {
    super();
    this.tagName = tag.toUpperCase();
    this.attrs = { ...attrs };
    this.children = [];
    this.listeners = {};
    this.hidden = "hidden" in attrs;
    this.value = attrs.value || "";
    this.checked = "checked" in attrs;
    this.disabled = "disabled" in attrs;
    this.className = attrs.class || "";
    this.dataset = {};
    for (const [k, v] of Object.entries(attrs)) if (k.startsWith("data-")) this.dataset[k.slice(5)] = v;
    this.files = [];
    this.placeholder = attrs.placeholder || "";
    this.title = "";
  }
  setAttribute(k, v) {
    this.attrs[k] = String(v);
  }
  getAttribute(k) {
    return this.attrs[k] ?? null;
  }
  append(...cs) {
    for (const c of cs) this.children.push(typeof c === "string" ? new FakeText(c) : c);
  }
  replaceChildren(...cs) {
    this.children = [];
    this.append(...cs);
  }
  set textContent(t) {
    this.children = [new FakeText(String(t))];
  }
  get textContent() {
    return this.children.map((c) => c.textContent).join("");
  }
  addEventListener(type, f) {
    (this.listeners[type] ??= []).push(f);
  }
  dispatch(type) {
    const ev = { preventDefault() {}, target: this };
    for (const f of this.listeners[type] || []) f(ev);
  }
  requestSubmit() {
    this.dispatch("submit");
  }
  scrollIntoView() {}
  descendants() {
    const out = [this];
    for (const c of this.children) if (c instanceof FakeEl) out.push(...c.descendants());
    return out;
  }
  // Visible text with cells ended by "|" and rows by a newline.
  text() {
    return this.children
      .map((c) => {
        if (!(c instanceof FakeEl)) return c.textContent;
        const end = ["TD", "TH", "DT", "DD"].includes(c.tagName) ? "|" : c.tagName === "TR" ? "\n" : "";
        return c.text() + end;
      })
      .join("");
  }
  button(label) {
    return this.descendants().find((e) => e.tagName === "BUTTON" && e.textContent === label);
  }
}

// The page's elements with an id or a data-tab (all the script touches).
const byId = new Map();
const tabs = [];
for (const m of html.matchAll(/<(\w+)([^>]*)>/g)) {
  const attrs = {};
  for (const a of m[2].matchAll(/([\w-]+)(?:="([^"]*)")?/g)) attrs[a[1]] = a[2] ?? "";
  if (!attrs.id && !attrs["data-tab"]) continue;
  const e = new FakeEl(m[1], attrs);
  if (attrs.id) byId.set(attrs.id, e);
  if (attrs["data-tab"]) tabs.push(e);
}
const document = {
  hidden: false,
  getElementById: (id) => byId.get(id) || null,
  createElement: (tag) => new FakeEl(tag),
  querySelectorAll: (q) => {
    if (q !== "[data-tab]") throw new Error("unexpected selector " + q);
    return tabs;
  },
  addEventListener() {},
};

// XMLHttpRequest over fetch. A browser sends each character (<= 0xFF) of
// a header value as one byte; so does this.
class XMLHttpRequest {
  constructor() {
    this.headers = {};
    this.events = {};
    this.upload = { addEventListener: (_, f) => (this.onProgress = f) };
  }
  open(method, url) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(k, v) {
    for (const ch of v) if (ch.charCodeAt(0) > 0xff) throw new TypeError("not a ByteString");
    this.headers[k] = v;
  }
  addEventListener(type, f) {
    this.events[type] = f;
  }
  getResponseHeader(k) {
    return this.resp.headers.get(k);
  }
  abort() {}
  async send(body) {
    try {
      const headers = new Headers();
      for (const [k, v] of Object.entries(this.headers)) headers.set(k, Buffer.from(v, "latin1").toString("latin1"));
      this.resp = await fetch(base + this.url, { method: this.method, headers, body });
      if (this.onProgress) this.onProgress({ lengthComputable: true, loaded: body.size, total: body.size });
      this.status = this.resp.status;
      this.responseText = await this.resp.text();
      this.events.load();
    } catch (e) {
      console.log("xhr: " + e);
      this.events.error();
    }
  }
}

const storage = new Map();
const context = {
  document,
  XMLHttpRequest,
  Node,
  Blob,
  Headers,
  TextEncoder,
  performance,
  console,
  fetch: (path, opts) => fetch(base + path, opts),
  window: {
    sessionStorage: {
      getItem: (k) => storage.get(k) ?? null,
      setItem: (k, v) => storage.set(k, String(v)),
      removeItem: (k) => storage.delete(k),
    },
    setInterval: () => 0, // the test polls by itself
    confirm: () => true,
    crypto: globalThis.crypto,
  },
};
vm.createContext(context);
vm.runInContext(script, context, { filename: "panel.js" });

// ---- checks ------------------------------------------------------------------

const $ = (id) => byId.get(id);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let failures = 0;
function check(cond, what, detail) {
  console.log((cond ? "ok   " : "FAIL ") + what + (cond || detail === undefined ? "" : "\n     " + detail));
  if (!cond) failures += 1;
}
async function until(f, what, detail, ms = 20000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (f()) return check(true, what);
    await sleep(25);
  }
  check(false, what, detail ? detail() : undefined);
}
const poll = () => $("tabbtn-jobs").dispatch("click"); // selecting the Jobs tab polls at once

async function useToken(t) {
  $("token").value = t;
  $("token-form").dispatch("submit");
}

async function worker() {
  check($("token-status").textContent === "no token", "starts without a token");
  await useToken("0".repeat(64));
  await until(() => $("token-status").textContent === "wrong token", "a 401 shows wrong token");
  check($("j-error").text().includes("unauthorized"), "the 401's code is shown", $("j-error").text());
  await useToken(token);
  await until(() => $("token-status").textContent === "token accepted", "the right token is accepted");
  await until(() => $("stat-pressure").textContent === "idle", "the stats strip shows the pressure");
  check($("stat-active").textContent === "0 / 16", "active of max jobs", $("stat-active").textContent);
  check(storage.get("asadb.panel.token") === token, "the token is in sessionStorage");

  const rows = Array.from({ length: 698 }, (_, i) => "(" + (i + 3) + ", 'row " + (i + 3) + "')");
  const sql =
    "CREATE TABLE t(id INTEGER PRIMARY KEY, big INTEGER, r REAL, b BLOB, s TEXT);\n" +
    "INSERT INTO t VALUES (1, 9223372036854775807, 1.0, x'00ff', '<b>bold</b>');\n" +
    "INSERT INTO t VALUES (2, NULL, 2.5, NULL, 'é');\n" +
    "INSERT INTO t(id, s) VALUES " + rows.join(", ") + ";\n" +
    "SELECT id, big, r, b, s FROM t ORDER BY id;\n";
  $("tabbtn-submit").dispatch("click");
  check(!$("tab-submit").hidden && $("tab-query").hidden, "tabs switch");
  $("s-sql").value = sql;
  $("s-label").value = "dom é label";
  $("s-key").value = "dom-key-1";
  $("s-form").dispatch("submit");
  await until(() => $("s-status").textContent.includes("created (201)"), "submit answers 201",
    () => $("s-status").textContent + $("s-error").text());
  check($("s-job").text().includes("dom é label"), "a non-ASCII label arrives as UTF-8", $("s-job").text());
  const id = Number($("s-status").textContent.split(" ")[1]);

  $("s-format").value = "csv";
  $("s-key").value = "";
  $("s-form").dispatch("submit");
  await until(() => !$("s-error").hidden, "a refused submission shows an error");
  check($("s-error").text().includes("invalid_input (HTTP 400)"), "with its code and status", $("s-error").text());
  $("s-format").value = "";

  $("tabbtn-jobs").dispatch("click");
  for (let i = 0; i < 200 && !$("j-detail").text().includes("completed"); i++) {
    $("j-id").value = String(id);
    $("j-lookup").dispatch("submit");
    await sleep(100);
  }
  check($("j-detail").text().includes("state|completed"), "the look-up shows the job completed", $("j-detail").text());
  check($("j-detail").text().includes("rows affected|700"), "with its progress", $("j-detail").text());

  $("s-key").value = "dom-key-1";
  $("s-label").value = "dom é label";
  $("tabbtn-submit").dispatch("click");
  $("s-form").dispatch("submit");
  await until(() => $("s-status").textContent.includes("reused (200"), "an idempotent retry answers 200",
    () => $("s-status").textContent + $("s-error").text());

  $("tabbtn-jobs").dispatch("click");
  $("j-detail").button("Result").dispatch("click");
  await until(() => $("r-summary").text().includes("statement|0 "), "Result opens the viewer",
    () => $("r-summary").text() + $("r-error").text());
  $("r-stmt").value = "4";
  $("r-offset").value = "0";
  $("r-form").dispatch("submit");
  await until(() => $("r-status").textContent.startsWith("rows"), "a result page loads", () => $("r-error").text());
  const page = $("r-result").text();
  check(page.includes("|9223372036854775807|"), "a 64-bit integer is exact", page.slice(0, 200));
  check(page.includes("|1.0|"), "a real keeps its decimal point", page.slice(0, 200));
  check(page.includes("|{\"hex\": \"00ff\"}|"), "a blob shows its JSON encoding", page.slice(0, 200));
  check(page.includes("|NULL|"), "NULL is shown as such", page.slice(0, 300));
  check(page.includes("|<b>bold</b>|"), "markup stays text", page.slice(0, 200));
  check($("r-status").textContent === "rows 1–250 of 700", "paging status", $("r-status").textContent);
  $("r-next").dispatch("click");
  await until(() => $("r-status").textContent === "rows 251–500 of 700", "next result page");
  $("r-prev-stmt").dispatch("click");
  await until(() => $("r-summary").text().includes("rows affected|698"), "previous statement's summary",
    () => $("r-summary").text());
  check($("r-result").text().includes("no rows"), "a statement without rows says so", $("r-result").text());

  $("tabbtn-query").dispatch("click");
  $("q-sql").value = "SELECT id, big, r, b, s FROM t ORDER BY id";
  $("q-form").dispatch("submit");
  await until(() => $("q-status").textContent.startsWith("rows 1–500 (more"), "a query's first page",
    () => $("q-status").textContent + $("q-error").text());
  const q = $("q-result").text();
  check(q.includes("|9223372036854775807|") && q.includes("|NULL|") && q.includes("|1.0|"), "query values exact", q.slice(0, 200));
  $("q-next").dispatch("click");
  await until(() => $("q-status").textContent.startsWith("rows 501–700 (last page)"), "next_offset pages on");
  check($("q-next").disabled && !$("q-first").disabled, "paging buttons follow next_offset");
  $("q-params").value = "[9223372036854775807]";
  $("q-sql").value = "SELECT id FROM t WHERE big = ?";
  $("q-form").dispatch("submit");
  await until(() => $("q-status").textContent.startsWith("rows 1–1 "), "a big integer parameter binds exactly",
    () => $("q-error").text());
  $("q-params").value = "[1,";
  $("q-form").dispatch("submit");
  check($("q-error").text().includes("not valid JSON"), "bad parameters are refused in the page", $("q-error").text());
  $("q-params").value = "";
  $("q-sql").value = "INSERT INTO t(id) VALUES (1000)";
  $("q-form").dispatch("submit");
  await until(() => !$("q-error").hidden && $("q-error").text().includes("invalid_input"), "a write is refused",
    () => $("q-error").text());
  check($("q-error").text().includes("Reservoir"), "the refusal names the Reservoir", $("q-error").text());

  poll();
  await until(() => $("j-recent").text().includes("delivered"), "seen jobs show the final state",
    () => $("j-recent").text());
}

async function noWorker() {
  await useToken(token);
  await until(() => $("token-status").textContent === "token accepted", "the token is accepted");
  $("tabbtn-submit").dispatch("click");
  $("s-source-file").checked = true;
  $("s-source-text").checked = false;
  $("s-source-file").dispatch("change");
  check($("s-sql").hidden && !$("s-file-row").hidden, "the file source shows the file input");
  $("s-form").dispatch("submit");
  check($("s-error").text().includes("choose a file"), "no file chosen", $("s-error").text());
  $("s-file").files = [Object.assign(new Blob(["SELECT 1;\n"]), { name: "pick é.sql" })];
  $("s-file").dispatch("change");
  $("s-stop").checked = false;
  $("s-form").dispatch("submit");
  await until(() => $("s-status").textContent.includes("created (201)"), "a file is submitted",
    () => $("s-error").text());
  check($("s-job").text().includes("file pick é.sql"), "the file's name is the original name", $("s-job").text());
  check($("s-job").text().includes("stop on error|false"), "stop-on-error is sent", $("s-job").text());

  poll();
  await until(() => $("j-active").text().includes("queued"), "the active list shows the job", () => $("j-active").text());
  check($("jobs-count").textContent === "(1)", "the tab counts active jobs");
  check($("stat-queued").textContent === "1", "the stats strip counts it", $("stat-queued").textContent);
  $("j-active").button("Cancel").dispatch("click");
  await until(() => $("j-status").textContent.includes("is cancelled"), "Cancel cancels", () => $("j-detail-error").text());
  await sleep(50);
  poll();
  await until(() => $("j-active").text().includes("no active jobs"), "the active list empties");
  check($("j-recent").text().includes("cancelled"), "the cancelled job is among the seen ones", $("j-recent").text());
  check(!$("j-detail").button("Resume"), "no Resume for a cancelled job");

  $("j-id").value = "999";
  $("j-lookup").dispatch("submit");
  await until(() => $("j-detail-error").text().includes("not_found"), "an unknown id is a 404");
  $("r-id").value = "1";
  $("r-form").dispatch("submit");
  await until(() => $("r-error").text().includes("invalid_state"), "no result for a cancelled job",
    () => $("r-error").text());
}

await (scenario === "worker" ? worker() : noWorker());
console.log(failures ? failures + " check(s) failed" : "all checks passed");
process.exit(failures ? 1 : 0);
