// AsaDB operator panel (served by `asadb serve` as /panel.js).
//
// Rules this file keeps:
// - Every value from the server reaches the page through textContent or
//   Text nodes (el() and Element.append with strings), never as HTML.
// - Every request goes to this page's own origin with the token as
//   `Authorization: Bearer …`; the token lives in sessionStorage only.
// - Rows are parsed with parseExact, which keeps numbers as their JSON
//   text: integers past 2^53 and reals like 1.0 show as the server sent
//   them instead of being rounded by JavaScript numbers.
// - No regex literals: the Rust unit test that checks bracket balance
//   treats every `/` outside strings as division or a comment.
"use strict";

(function () {
  const TOKEN_KEY = "asadb.panel.token";
  const TAB_KEY = "asadb.panel.tab";
  const SEEN_KEY = "asadb.panel.seen";
  const POLL_MS = 2000;
  const MAX_HEADER_BYTES = 1024;
  const MAX_SEEN = 30;
  const ACTIVE = ["receiving", "queued", "processing", "cancelling"];

  // ---- small helpers -------------------------------------------------

  function byId(id) {
    const e = document.getElementById(id);
    if (!e) throw new Error("panel.html lacks #" + id);
    return e;
  }

  // Builds an element; `props.text` sets textContent, strings among
  // `children` become Text nodes.
  function el(tag, props, children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) {
      if (k === "text") e.textContent = v;
      else if (k === "class") e.className = v;
      else if (k === "onclick") e.addEventListener("click", v);
      else e.setAttribute(k, v);
    }
    for (const c of children || []) e.append(c);
    return e;
  }

  function button(label, onclick) {
    return el("button", { type: "button", text: label, onclick: onclick });
  }

  // sessionStorage, or memory when the browser refuses storage.
  const memory = new Map();
  const store = {
    get(k) {
      try {
        return window.sessionStorage.getItem(k);
      } catch (_) {
        return memory.has(k) ? memory.get(k) : null;
      }
    },
    set(k, v) {
      try {
        window.sessionStorage.setItem(k, v);
      } catch (_) {
        memory.set(k, v);
      }
    },
    remove(k) {
      try {
        window.sessionStorage.removeItem(k);
      } catch (_) {
        memory.delete(k);
      }
    },
  };

  function fmtBytes(n) {
    if (typeof n !== "number" || !isFinite(n)) return "–";
    const units = ["B", "KiB", "MiB", "GiB", "TiB"];
    let i = 0;
    while (n >= 1024 && i < units.length - 1) {
      n /= 1024;
      i += 1;
    }
    return (i === 0 ? String(Math.round(n)) : n.toFixed(1)) + " " + units[i];
  }

  function fmtTime(ms) {
    if (typeof ms !== "number") return "–";
    return new Date(ms).toLocaleString();
  }

  function fmtPercent(p) {
    return typeof p === "number" && isFinite(p) ? p.toFixed(1) + " %" : "–";
  }

  function setStatus(id, text, kind) {
    const s = byId(id);
    s.textContent = text;
    s.className = "status" + (kind ? " " + kind : "");
  }

  // ---- exact JSON ----------------------------------------------------

  // A JSON number kept as its source text.
  class Num {
    constructor(text) {
      this.text = text;
    }
    valueOf() {
      return Number(this.text);
    }
  }

  // JSON.parse, except that numbers become Num and objects have no
  // prototype (a "__proto__" key is just a key).
  function parseExact(text) {
    let i = 0;
    const fail = (what) => {
      throw new SyntaxError("the server's JSON is malformed at byte " + i + ": " + what);
    };
    const ws = () => {
      while (i < text.length && " \t\n\r".includes(text[i])) i += 1;
    };
    const string = () => {
      const start = i;
      i += 1;
      while (i < text.length && text[i] !== "\"") i += text[i] === "\\" ? 2 : 1;
      if (i >= text.length) fail("unterminated string");
      i += 1;
      return JSON.parse(text.slice(start, i));
    };
    const value = () => {
      ws();
      const c = text[i];
      if (c === "{") {
        i += 1;
        const o = Object.create(null);
        ws();
        if (text[i] === "}") {
          i += 1;
          return o;
        }
        for (;;) {
          ws();
          if (text[i] !== "\"") fail("expected a key");
          const k = string();
          ws();
          if (text[i] !== ":") fail("expected ':'");
          i += 1;
          o[k] = value();
          ws();
          if (text[i] === ",") {
            i += 1;
          } else if (text[i] === "}") {
            i += 1;
            return o;
          } else {
            fail("expected ',' or '}'");
          }
        }
      }
      if (c === "[") {
        i += 1;
        const a = [];
        ws();
        if (text[i] === "]") {
          i += 1;
          return a;
        }
        for (;;) {
          a.push(value());
          ws();
          if (text[i] === ",") {
            i += 1;
          } else if (text[i] === "]") {
            i += 1;
            return a;
          } else {
            fail("expected ',' or ']'");
          }
        }
      }
      if (c === "\"") return string();
      for (const [word, v] of [["true", true], ["false", false], ["null", null]]) {
        if (text.startsWith(word, i)) {
          i += word.length;
          return v;
        }
      }
      const start = i;
      while (i < text.length && "-+.eE0123456789".includes(text[i])) i += 1;
      const num = text.slice(start, i);
      if (num === "" || isNaN(Number(num))) fail("unexpected character");
      return new Num(num);
    };
    const v = value();
    ws();
    if (i !== text.length) fail("trailing text");
    return v;
  }

  // JSON text of a parseExact value (numbers exactly as received).
  function jsonText(v) {
    if (v instanceof Num) return v.text;
    if (Array.isArray(v)) return "[" + v.map(jsonText).join(", ") + "]";
    if (v !== null && typeof v === "object") {
      return "{" + Object.keys(v).map((k) => JSON.stringify(k) + ": " + jsonText(v[k])).join(", ") + "}";
    }
    return JSON.stringify(v);
  }

  const num = (v) => (v instanceof Num ? Number(v.text) : v);

  // ---- API -----------------------------------------------------------

  class ApiError extends Error {
    constructor(status, code, message, retryable, retryAfter) {
      super(message);
      this.status = status;
      this.code = code;
      this.retryable = retryable;
      this.retryAfter = retryAfter;
    }
  }

  let tokenBad = false;

  function token() {
    return store.get(TOKEN_KEY) || "";
  }

  function noteWrongToken() {
    tokenBad = true;
    setStatus("token-status", "wrong token", "bad");
  }

  function noteGoodToken() {
    if (tokenBad || byId("token-status").textContent !== "token accepted") {
      tokenBad = false;
      setStatus("token-status", "token accepted", "good");
    }
  }

  // The typed error of a non-2xx answer ({"error": {"code", "message",
  // "retryable"}}, or the raw text if the body is not that).
  function errorFromResponse(status, text, retryAfter) {
    let code = "http_" + status;
    let message = (text || "").trim().slice(0, 500) || "HTTP " + status;
    let retryable = false;
    try {
      const e = JSON.parse(text).error;
      if (e && typeof e.code === "string") {
        code = e.code;
        message = String(e.message);
        retryable = e.retryable === true;
      }
    } catch (_) {
      // Not JSON: keep the text.
    }
    if (status === 401) {
      noteWrongToken();
      message = "wrong token (" + message + ")";
    }
    return new ApiError(status, code, message, retryable, retryAfter);
  }

  function needToken() {
    const t = token();
    if (!t) {
      throw new ApiError(0, "no_token", "enter the token first: it is in <data dir>/panel.token", false);
    }
    return t;
  }

  // One request to this origin. `opts.body` is a JSON text; `opts.exact`
  // parses the answer with parseExact.
  async function api(method, path, opts) {
    const o = opts || {};
    const headers = { Authorization: "Bearer " + needToken() };
    if (o.body !== undefined) headers["Content-Type"] = "application/json";
    let resp;
    try {
      resp = await fetch(path, {
        method: method,
        headers: headers,
        body: o.body,
        cache: "no-store",
        credentials: "omit",
        redirect: "error",
      });
    } catch (e) {
      throw new ApiError(0, "network", "cannot reach the server: " + e.message, true);
    }
    const text = await resp.text();
    if (!resp.ok) throw errorFromResponse(resp.status, text, resp.headers.get("Retry-After"));
    noteGoodToken();
    return { status: resp.status, body: o.exact ? parseExact(text) : JSON.parse(text) };
  }

  // Shows an error (ApiError or any Error) in a box; null hides the box.
  function showError(boxId, err) {
    const box = byId(boxId);
    box.replaceChildren();
    if (!err) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    if (err instanceof ApiError) {
      box.append(el("span", { class: "code", text: err.code }));
      if (err.status) box.append(" (HTTP " + err.status + ")");
      box.append(": " + err.message);
      if (err.status === 401) {
        box.append("\nCheck the token: it is in <data dir>/panel.token.");
      } else if (err.retryable) {
        box.append(
          "\nRetryable: " +
            (err.retryAfter ? "try again in " + err.retryAfter + " s." : "try again later."),
        );
      }
    } else {
      box.append(String((err && err.message) || err));
    }
  }

  // ---- values and tables ----------------------------------------------

  function cell(v) {
    const td = el("td");
    if (v === null || v === undefined) {
      td.append(el("span", { class: "null", text: "NULL" }));
    } else if (v instanceof Num) {
      td.className = "num";
      td.textContent = v.text;
    } else if (typeof v === "string") {
      td.textContent = v;
    } else if (typeof v === "object" && !Array.isArray(v) && typeof v.hex === "string") {
      // A blob, in the API's encoding.
      td.append(el("span", { class: "blob", text: jsonText(v) }));
    } else {
      td.textContent = jsonText(v);
    }
    return td;
  }

  // A result table; `first` is the 0-based number of the first row.
  function rowsTable(columns, rows, first) {
    const head = el("tr", null, [el("th", { class: "muted", text: "#" })]);
    for (const c of columns) head.append(el("th", { text: String(c) }));
    const body = el("tbody");
    rows.forEach((row, i) => {
      const tr = el("tr", null, [el("td", { class: "num muted", text: String(first + i + 1) })]);
      for (const v of row) tr.append(cell(v));
      body.append(tr);
    });
    return el("table", null, [el("thead", null, [head]), body]);
  }

  // ---- tabs ------------------------------------------------------------

  function selectTab(name) {
    for (const b of document.querySelectorAll("[data-tab]")) {
      const on = b.dataset.tab === name;
      b.setAttribute("aria-selected", on ? "true" : "false");
      byId(b.getAttribute("aria-controls")).hidden = !on;
    }
    store.set(TAB_KEY, name);
    if (name === "jobs") tick();
  }

  // ---- query tab ---------------------------------------------------------

  const query = { sql: "", params: null, next: null, busy: false };

  // The params field: empty, or a JSON array or object (sent as typed,
  // so big integers stay exact).
  function readParams() {
    const text = byId("q-params").value.trim();
    if (text === "") return null;
    let v;
    try {
      v = JSON.parse(text);
    } catch (e) {
      throw new Error("parameters are not valid JSON: " + e.message);
    }
    if (v === null || typeof v !== "object") {
      throw new Error("parameters must be a JSON array or object");
    }
    return text;
  }

  async function runQuery(offset) {
    if (query.busy) return;
    query.busy = true;
    byId("q-run").disabled = true;
    showError("q-error", null);
    setStatus("q-status", "running…");
    const started = performance.now();
    try {
      let body = "{\"sql\": " + JSON.stringify(query.sql) + ", \"offset\": " + offset;
      if (query.params !== null) body += ", \"params\": " + query.params;
      body += "}";
      const r = await api("POST", "/api/query", { body: body, exact: true });
      const page = r.body;
      const rows = page.rows || [];
      const from = num(page.offset) || 0;
      query.next = page.next_offset === null ? null : num(page.next_offset);
      const ms = Math.round(performance.now() - started);
      const out = byId("q-result");
      out.replaceChildren(rowsTable(page.columns || [], rows, from));
      let text;
      if (rows.length === 0) {
        text = from === 0 ? "no rows" : "no rows from offset " + from;
      } else {
        text = "rows " + (from + 1) + "–" + (from + rows.length);
      }
      text += query.next === null ? " (last page)" : " (more: next page)";
      setStatus("q-status", text + ", " + ms + " ms", "good");
      byId("q-first").disabled = from === 0;
      byId("q-next").disabled = query.next === null;
    } catch (e) {
      setStatus("q-status", "");
      showError("q-error", e);
    } finally {
      query.busy = false;
      byId("q-run").disabled = false;
    }
  }

  function startQuery(ev) {
    ev.preventDefault();
    const sql = byId("q-sql").value;
    if (sql.trim() === "") {
      showError("q-error", new Error("type a query first"));
      return;
    }
    try {
      query.params = readParams();
    } catch (e) {
      showError("q-error", e);
      return;
    }
    query.sql = sql;
    query.next = null;
    runQuery(0);
  }

  // ---- jobs: rendering ------------------------------------------------------

  function stateBadge(state) {
    return el("span", { class: "state state-" + state, text: state });
  }

  function jobActions(job) {
    const box = el("span", { class: "actions" });
    box.append(button("Details", () => lookupJob(job.id)));
    if (ACTIVE.includes(job.state) && job.state !== "cancelling") {
      box.append(button("Cancel", () => cancelJob(job.id)));
    }
    if (job.state === "interrupted") box.append(button("Resume", () => resumeJob(job.id)));
    if (job.has_result) box.append(button("Result", () => openResult(job.id)));
    return box;
  }

  function progressCell(job) {
    const p = job.progress || {};
    const bar = el("progress", { max: "100" });
    bar.value = typeof p.percent === "number" ? p.percent : 0;
    return el("td", null, [bar, " " + fmtPercent(p.percent)]);
  }

  function bytesText(job) {
    const p = job.progress || {};
    if (job.state === "receiving") {
      return fmtBytes(job.received_bytes) + " received" +
        (typeof job.declared_size === "number" ? " of " + fmtBytes(job.declared_size) : "");
    }
    return fmtBytes(p.bytes_done) + " / " + fmtBytes(p.bytes_total);
  }

  function jobsTable(jobs) {
    const cols = ["id", "state", "label", "progress", "statements (committed)", "rows affected",
      "errors", "bytes", "updated", ""];
    const head = el("tr");
    for (const c of cols) head.append(el("th", { text: c }));
    const body = el("tbody");
    for (const job of jobs) {
      const p = job.progress || {};
      const name = job.label || (job.import && job.import.original_name) || "";
      body.append(el("tr", null, [
        el("td", { class: "num", text: String(job.id) }),
        el("td", null, [stateBadge(job.state)]),
        el("td", { text: name }),
        progressCell(job),
        el("td", { class: "num", text: p.statements_done + " (" + p.statements_committed + ")" }),
        el("td", { class: "num", text: String(p.rows_affected) }),
        el("td", { class: "num" + (p.errors > 0 ? " state-failed" : ""), text: String(p.errors) }),
        el("td", { text: bytesText(job) }),
        el("td", { text: fmtTime(job.updated_at) }),
        el("td", null, [jobActions(job)]),
      ]));
    }
    return el("table", null, [el("thead", null, [head]), body]);
  }

  function jobErrorText(e) {
    let t = e.code + ": " + e.message;
    if (e.statement !== null && e.statement !== undefined) t += "\nstatement " + e.statement;
    if (e.excerpt) t += ": " + e.excerpt;
    return t;
  }

  // The whole snapshot, as a definition list with the job's actions.
  function jobView(job, heading) {
    const p = job.progress || {};
    const imp = job.import || {};
    const dl = el("dl");
    const item = (k, v, cls) => {
      dl.append(el("dt", { text: k }));
      const dd = el("dd", cls ? { class: cls } : null);
      if (v instanceof Node) dd.append(v);
      else dd.textContent = v === null || v === undefined ? "–" : String(v);
      dl.append(dd);
    };
    item("id", job.id);
    item("state", stateBadge(job.state));
    item("label", job.label);
    item("created", fmtTime(job.created_at));
    item("updated", fmtTime(job.updated_at));
    const bar = el("progress", { max: "100" });
    bar.value = typeof p.percent === "number" ? p.percent : 0;
    item("progress", el("span", null, [bar, " " + fmtPercent(p.percent)]));
    item("statements", p.statements_done + " done, " + p.statements_committed + " committed");
    item("rows affected", p.rows_affected);
    item("errors", p.errors);
    item("bytes", fmtBytes(p.bytes_done) + " of " + fmtBytes(p.bytes_total) + " executed; " +
      fmtBytes(job.received_bytes) + " received" +
      (typeof job.declared_size === "number" ? " of " + fmtBytes(job.declared_size) + " declared" : ""));
    item("stop on error", job.stop_on_error);
    item("idempotency key", job.idempotency_key);
    item("fingerprint (SHA-256)", job.fingerprint);
    item("import", "format " + imp.format + ", mode " + imp.mode +
      (imp.original_name ? ", file " + imp.original_name : "") +
      (imp.target_table ? ", table " + imp.target_table : ""));
    item("spool / result", (job.has_spool ? "spooled" : "no spool") + ", " +
      (job.has_result ? "has a result" : "no result"));
    if (job.error) item("error", jobErrorText(job.error), "state-failed");
    for (const e of job.statement_errors || []) item("statement error", jobErrorText(e), "state-failed");
    const children = [];
    if (heading) children.push(el("h3", { text: heading }));
    children.push(dl, jobActions(job));
    return el("div", null, children);
  }

  // ---- jobs: state ---------------------------------------------------------

  // Jobs this tab has seen: id -> last snapshot (kept in sessionStorage).
  const seen = new Map();

  function loadSeen() {
    try {
      for (const job of JSON.parse(store.get(SEEN_KEY) || "[]")) {
        if (job && typeof job.id === "number") seen.set(job.id, job);
      }
    } catch (_) {
      store.remove(SEEN_KEY);
    }
  }

  function remember(job) {
    seen.delete(job.id);
    seen.set(job.id, job);
    while (seen.size > MAX_SEEN) seen.delete(seen.keys().next().value);
    store.set(SEEN_KEY, JSON.stringify([...seen.values()]));
    if (detailId === job.id) renderDetail(job);
  }

  function renderRecent() {
    const out = byId("j-recent");
    const jobs = [...seen.values()].filter((j) => !ACTIVE.includes(j.state) || j.gone);
    jobs.sort((a, b) => b.updated_at - a.updated_at);
    if (jobs.length === 0) {
      out.replaceChildren(el("p", { class: "muted", text: "none yet" }));
      return;
    }
    out.replaceChildren(jobsTable(jobs));
  }

  function renderStats(s) {
    const by = s.by_state || {};
    const pressure = s.advice ? s.advice.pressure : "–";
    const p = byId("stat-pressure");
    p.textContent = pressure;
    p.className = "pressure-" + pressure;
    byId("stat-worker").textContent = s.worker + (s.current_job ? " (job " + s.current_job + ")" : "");
    byId("stat-active").textContent = s.active + " / " + s.max_jobs;
    byId("stat-queued").textContent = String(by.queued);
    byId("stat-processing").textContent = String(by.processing);
    const inter = byId("stat-interrupted");
    inter.textContent = String(by.interrupted);
    inter.className = by.interrupted > 0 ? "state-interrupted" : "";
    inter.title = by.interrupted > 0 ? "look an interrupted job up by id in the Jobs tab to resume it" : "";
    byId("stat-spool").textContent = fmtBytes(s.reserved_bytes) + " / " + fmtBytes(s.max_spool_bytes);
    const bar = byId("stat-spool-bar");
    bar.value = s.max_spool_bytes > 0 ? Math.min(1, s.reserved_bytes / s.max_spool_bytes) : 0;
    byId("stat-throughput").textContent = fmtBytes(s.throughput_bytes_per_sec) + "/s";
    byId("stat-updated").textContent = "updated " + new Date().toLocaleTimeString();
  }

  let ticking = false;

  // One poll: stats and active jobs; jobs that left the active list get
  // their final snapshot once.
  async function tick() {
    if (ticking || !token() || tokenBad || document.hidden) return;
    ticking = true;
    try {
      const [stats, list] = await Promise.all([
        api("GET", "/api/reservoir/stats"),
        api("GET", "/api/reservoir/jobs"),
      ]);
      renderStats(stats.body);
      const jobs = list.body.jobs || [];
      byId("jobs-count").textContent = jobs.length ? "(" + jobs.length + ")" : "";
      byId("j-active").replaceChildren(
        jobs.length ? jobsTable(jobs) : el("p", { class: "muted", text: "no active jobs" }),
      );
      byId("j-updated").textContent = "at " + new Date().toLocaleTimeString();
      const activeIds = new Set();
      for (const job of jobs) {
        activeIds.add(job.id);
        remember(job);
      }
      for (const [id, job] of [...seen]) {
        if (activeIds.has(id) || !ACTIVE.includes(job.state) || job.gone) continue;
        try {
          remember((await api("GET", "/api/reservoir/job?id=" + id)).body);
        } catch (e) {
          if (!(e instanceof ApiError && e.status === 404)) throw e;
          remember(Object.assign({}, job, { gone: true, label: (job.label || "") + " (expired)" }));
        }
      }
      renderRecent();
      showError("j-error", null);
    } catch (e) {
      showError("j-error", e);
      byId("stat-updated").textContent = "stats unavailable";
    } finally {
      ticking = false;
    }
  }

  // ---- jobs: actions ---------------------------------------------------------

  let detailId = null;

  function renderDetail(job) {
    byId("j-detail").replaceChildren(jobView(job, "Job " + job.id));
  }

  async function lookupJob(id) {
    selectTab("jobs");
    byId("j-id").value = String(id);
    showError("j-detail-error", null);
    setStatus("j-status", "loading…");
    try {
      const job = (await api("GET", "/api/reservoir/job?id=" + encodeURIComponent(id))).body;
      detailId = job.id;
      remember(job);
      renderDetail(job);
      setStatus("j-status", "");
      renderRecent();
    } catch (e) {
      setStatus("j-status", "");
      byId("j-detail").replaceChildren();
      detailId = null;
      showError("j-detail-error", e);
    }
  }

  async function jobCommand(verb, id) {
    showError("j-detail-error", null);
    try {
      const job = (await api("POST", "/api/reservoir/" + verb + "?id=" + id)).body;
      detailId = job.id;
      remember(job);
      renderDetail(job);
      setStatus("j-status", verb + " requested: job " + job.id + " is " + job.state, "good");
    } catch (e) {
      showError("j-detail-error", e);
    }
    tick();
  }

  function cancelJob(id) {
    if (window.confirm("Cancel job " + id + "? The running batch is rolled back.")) {
      jobCommand("cancel", id);
    }
  }

  function resumeJob(id) {
    jobCommand("resume", id);
  }

  // ---- result viewer -------------------------------------------------------------

  const result = { id: null, stmt: 0, offset: 0, limit: "", first: 0, count: 0, next: null };

  function intField(id, fallback) {
    const raw = byId(id).value.trim();
    if (raw === "") return fallback;
    const n = Number(raw);
    if (!Number.isSafeInteger(n) || n < 0) throw new Error(id.slice(2) + " must be a whole number ≥ 0");
    return n;
  }

  async function loadResult(retried) {
    showError("r-error", null);
    setStatus("r-status", "loading…");
    const q = "/api/reservoir/result?id=" + result.id + "&statement=" + result.stmt +
      "&offset=" + result.offset + (result.limit === "" ? "" : "&limit=" + result.limit);
    try {
      const page = (await api("GET", q, { exact: true })).body;
      result.first = num(page.first_statement);
      result.count = num(page.statements);
      result.next = page.next_offset === null ? null : num(page.next_offset);
      const s = page.statement;
      const dl = el("dl");
      const item = (k, v) => dl.append(el("dt", { text: k }), el("dd", { text: v }));
      item("job", String(result.id));
      item("statement", num(s.statement) + " (this result holds statements " + result.first + "–" +
        (result.first + result.count - 1) + ")");
      item("text", s.excerpt);
      item("rows affected", jsonText(s.rows_affected));
      item("rows returned", jsonText(s.row_count));
      if (s.error) {
        const e = s.error;
        item("error", e.code + ": " + e.message);
      }
      byId("r-summary").replaceChildren(dl);
      const rows = page.rows || [];
      const from = num(page.offset);
      byId("r-result").replaceChildren(
        page.columns && page.columns.length
          ? rowsTable(page.columns, rows, from)
          : el("p", { class: "muted", text: "this statement returns no rows" }),
      );
      byId("r-stmt").value = String(result.stmt);
      byId("r-offset").value = String(from);
      byId("r-prev-stmt").disabled = result.stmt <= result.first;
      byId("r-next-stmt").disabled = result.stmt >= result.first + result.count - 1;
      byId("r-first").disabled = from === 0;
      byId("r-next").disabled = result.next === null;
      setStatus("r-status", rows.length
        ? "rows " + (from + 1) + "–" + (from + rows.length) + " of " + jsonText(s.row_count)
        : "no rows on this page", "good");
      // Reading a completed job's result made it delivered.
      const known = seen.get(result.id);
      if (known && known.state === "completed") {
        api("GET", "/api/reservoir/job?id=" + result.id).then((r) => {
          remember(r.body);
          renderRecent();
        }, () => {});
      }
    } catch (e) {
      // A resumed job's result starts after its last durable statement;
      // the error names the range it holds, so try its first statement.
      const marker = "holds statements ";
      const at = e instanceof ApiError ? e.message.indexOf(marker) : -1;
      if (!retried && at >= 0) {
        const first = parseInt(e.message.slice(at + marker.length), 10);
        if (Number.isSafeInteger(first) && first !== result.stmt) {
          result.stmt = first;
          result.offset = 0;
          return loadResult(true);
        }
      }
      setStatus("r-status", "");
      byId("r-summary").replaceChildren();
      byId("r-result").replaceChildren();
      showError("r-error", e);
    }
  }

  function showResultFromForm(ev) {
    ev.preventDefault();
    try {
      const id = intField("r-id", 0);
      if (id < 1) throw new Error("enter a job id");
      result.id = id;
      result.stmt = intField("r-stmt", 0);
      result.offset = intField("r-offset", 0);
      const limit = intField("r-limit", -1);
      result.limit = limit < 0 ? "" : String(limit);
    } catch (e) {
      showError("r-error", e);
      return;
    }
    loadResult(false);
  }

  function openResult(id) {
    selectTab("jobs");
    byId("r-id").value = String(id);
    result.id = id;
    result.stmt = 0;
    result.offset = 0;
    loadResult(false);
    byId("r-form").scrollIntoView({ behavior: "smooth", block: "start" });
  }

  function stepResult(stmtDelta, offset) {
    if (result.id === null) return;
    result.stmt += stmtDelta;
    result.offset = offset;
    loadResult(false);
  }

  // ---- submit tab -------------------------------------------------------------------

  // A header value as the bytes of its UTF-8 encoding, one character per
  // byte: XMLHttpRequest sends such a string byte for byte, and the server
  // requires UTF-8 (a plain non-ASCII string would go out as Latin-1).
  function headerValue(name, text) {
    const bytes = new TextEncoder().encode(text.trim());
    if (bytes.length > MAX_HEADER_BYTES) {
      throw new Error(name + " is longer than " + MAX_HEADER_BYTES + " bytes");
    }
    for (const b of bytes) {
      if (b < 0x20 || b === 0x7f) throw new Error(name + " contains a control character");
    }
    let out = "";
    for (const b of bytes) out += String.fromCharCode(b);
    return out;
  }

  function newKey() {
    if (window.crypto && typeof window.crypto.randomUUID === "function") {
      return window.crypto.randomUUID();
    }
    const b = new Uint8Array(16);
    window.crypto.getRandomValues(b);
    return [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  }

  function sourceIsFile() {
    return byId("s-source-file").checked;
  }

  function showSource() {
    const file = sourceIsFile();
    byId("s-sql").hidden = file;
    byId("s-file-row").hidden = !file;
  }

  let upload = null;

  function submitJob(ev) {
    ev.preventDefault();
    if (upload) return;
    showError("s-error", null);
    byId("s-job").replaceChildren();
    let body;
    let fileName = "";
    const headers = [];
    try {
      needToken();
      if (sourceIsFile()) {
        const f = byId("s-file").files[0];
        if (!f) throw new Error("choose a file first");
        body = f;
        fileName = f.name;
      } else {
        const text = byId("s-sql").value;
        if (text.trim() === "") throw new Error("paste a script first");
        body = new Blob([text], { type: "application/sql" });
      }
      const add = (name, value) => {
        if (value.trim() !== "") headers.push([name, headerValue(name, value)]);
      };
      add("X-AsaDB-Job-Label", byId("s-label").value);
      add("X-AsaDB-Idempotency-Key", byId("s-key").value);
      add("X-AsaDB-Stop-On-Error", byId("s-stop").checked ? "true" : "false");
      add("X-AsaDB-Import-Format", byId("s-format").value);
      add("X-AsaDB-Import-Original-Name", byId("s-name").value.trim() || fileName);
      add("X-AsaDB-Import-Target-Table", byId("s-table").value);
      add("X-AsaDB-Import-Mode", byId("s-mode").value);
    } catch (e) {
      showError("s-error", e);
      return;
    }
    const xhr = new XMLHttpRequest();
    upload = xhr;
    const bar = byId("s-progress");
    bar.hidden = false;
    bar.max = Math.max(1, body.size);
    bar.value = 0;
    byId("s-submit").disabled = true;
    byId("s-abort").disabled = false;
    setStatus("s-status", "uploading " + fmtBytes(body.size) + "…");
    const done = () => {
      upload = null;
      byId("s-submit").disabled = false;
      byId("s-abort").disabled = true;
    };
    xhr.open("POST", "/api/reservoir/jobs");
    xhr.setRequestHeader("Authorization", "Bearer " + token());
    for (const [k, v] of headers) xhr.setRequestHeader(k, v);
    xhr.upload.addEventListener("progress", (e) => {
      const total = e.lengthComputable ? e.total : body.size;
      bar.max = Math.max(1, total);
      bar.value = e.loaded;
      setStatus("s-status", "uploading: " + fmtBytes(e.loaded) + " of " + fmtBytes(total) +
        " (" + fmtPercent(total ? (100 * e.loaded) / total : 0) + ")");
    });
    xhr.addEventListener("load", () => {
      done();
      if (xhr.status === 200 || xhr.status === 201) {
        let job;
        try {
          job = JSON.parse(xhr.responseText);
        } catch (e) {
          showError("s-error", e);
          return;
        }
        noteGoodToken();
        remember(job);
        setStatus("s-status", xhr.status === 201
          ? "job " + job.id + " created (201): " + job.state
          : "job " + job.id + " reused (200: same idempotency key and body): " + job.state, "good");
        byId("s-job").replaceChildren(
          jobView(job, "Job " + job.id),
          button("Follow in the Jobs tab", () => lookupJob(job.id)),
        );
        tick();
      } else {
        setStatus("s-status", "refused", "bad");
        showError("s-error",
          errorFromResponse(xhr.status, xhr.responseText, xhr.getResponseHeader("Retry-After")));
      }
    });
    xhr.addEventListener("error", () => {
      done();
      setStatus("s-status", "upload broke off", "bad");
      showError("s-error", new ApiError(0, "network",
        "the upload broke off: the server is unreachable, or it refused the body while it was " +
        "being sent (too large for the spool, or the job was cancelled). The stats strip and " +
        "the Jobs tab show what the server holds.", true));
    });
    xhr.addEventListener("abort", () => {
      done();
      setStatus("s-status", "upload aborted: the server fails the job and removes its spool", "bad");
    });
    xhr.send(body);
  }

  // ---- token ------------------------------------------------------------------------

  function useToken(ev) {
    ev.preventDefault();
    const t = byId("token").value.trim();
    if (t === "") {
      forgetToken();
      return;
    }
    store.set(TOKEN_KEY, t);
    tokenBad = false;
    setStatus("token-status", "checking…");
    tick();
  }

  function forgetToken() {
    store.remove(TOKEN_KEY);
    byId("token").value = "";
    tokenBad = false;
    setStatus("token-status", "no token", "bad");
  }

  // ---- start --------------------------------------------------------------------------

  function start() {
    loadSeen();
    byId("token-form").addEventListener("submit", useToken);
    byId("token-forget").addEventListener("click", forgetToken);
    for (const b of document.querySelectorAll("[data-tab]")) {
      b.addEventListener("click", () => selectTab(b.dataset.tab));
    }
    byId("q-form").addEventListener("submit", startQuery);
    byId("q-sql").addEventListener("keydown", (e) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) byId("q-form").requestSubmit();
    });
    byId("q-first").addEventListener("click", () => runQuery(0));
    byId("q-next").addEventListener("click", () => {
      if (query.next !== null) runQuery(query.next);
    });
    byId("s-form").addEventListener("submit", submitJob);
    byId("s-abort").addEventListener("click", () => {
      if (upload) upload.abort();
    });
    byId("s-source-text").addEventListener("change", showSource);
    byId("s-source-file").addEventListener("change", showSource);
    byId("s-file").addEventListener("change", () => {
      const f = byId("s-file").files[0];
      byId("s-file-info").textContent = f ? f.name + ", " + fmtBytes(f.size) : "";
      byId("s-name").placeholder = f ? f.name : "the chosen file's name";
    });
    byId("s-key-new").addEventListener("click", () => {
      byId("s-key").value = newKey();
    });
    byId("j-lookup").addEventListener("submit", (ev) => {
      ev.preventDefault();
      let id;
      try {
        id = intField("j-id", 0);
        if (id < 1) throw new Error("enter a job id (a positive integer)");
      } catch (e) {
        showError("j-detail-error", e);
        return;
      }
      lookupJob(id);
    });
    byId("r-form").addEventListener("submit", showResultFromForm);
    byId("r-prev-stmt").addEventListener("click", () => stepResult(-1, 0));
    byId("r-next-stmt").addEventListener("click", () => stepResult(1, 0));
    byId("r-first").addEventListener("click", () => stepResult(0, 0));
    byId("r-next").addEventListener("click", () => {
      if (result.next !== null) stepResult(0, result.next);
    });

    showSource();
    renderRecent();
    const saved = token();
    if (saved) {
      byId("token").value = saved;
      setStatus("token-status", "checking…");
    } else {
      setStatus("token-status", "no token", "bad");
    }
    const tab = store.get(TAB_KEY);
    selectTab(tab === "submit" || tab === "jobs" ? tab : "query");
    tick();
    window.setInterval(tick, POLL_MS);
    document.addEventListener("visibilitychange", tick);
  }

  start();
})();
