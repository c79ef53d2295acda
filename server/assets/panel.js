// AsaDB operator panel (served by `asadb serve` as /panel.js).
// asadb-panel-version: 2
//
// Rules this file keeps (docs/api.md, "The browser panel"):
// - Every value from the server reaches the page through textContent or
//   Text nodes (el() and Element.append with strings), never as HTML.
// - Every request goes to this page's own origin with the token as
//   `Authorization: Bearer …`; the token lives in sessionStorage only.
// - Rows are parsed with parseExact, which keeps numbers as their JSON
//   text: integers past 2^53 and reals like 1.0 show as the server sent them.
// - The console routes by classify(): one read-only statement goes to
//   /api/query; writes, DDL, several statements and texts over 250,000
//   characters become Reservoir jobs.
// - A job this tab submitted is remembered as a small descriptor (id,
//   label, view — never SQL) in sessionStorage right after admission; after
//   a reload the panel asks for that id first, and falls back to the
//   active-jobs list only when storage is empty or unavailable.
// - Live updates come from /api/reservoir/events when it is open; the
//   adaptive, single-flight poll (500 ms while a job is active, 1.5 s on
//   the Jobs tab, 5 s otherwise) is the safety net while it is not; nothing
//   is fetched while the document is hidden; becoming visible or focused
//   refreshes once at once.
// - One audio element plays the completion chime, paused and rewound
//   before each play.
// - No regex literals: the Rust unit test that checks bracket balance
//   treats every `/` outside strings as division or a comment.
"use strict";

(function () {
  const PANEL_VERSION = "2";
  const TOKEN_KEY = "asadb.panel.token";
  const TAB_KEY = "asadb.panel.tab";
  const WATCH_KEY = "asadb.panel.watch";
  const HISTORY_KEY = "asadb.panel.history";
  const MUTE_KEY = "asadb.panel.muted";
  const MAX_QUERY_CHARS = 250000;
  const MAX_HEADER_BYTES = 1024;
  const MAX_HISTORY = 50;
  const STATEMENTS_SHOWN = 20;
  const POLL_ACTIVE_MS = 500;
  const POLL_METADATA_MS = 1500;
  const POLL_IDLE_MS = 5000;
  const IMMEDIATE_DEDUP_MS = 300;
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

  function button(label, onclick, title) {
    const b = el("button", { type: "button", text: label, onclick: onclick });
    if (title) b.title = title;
    return b;
  }

  // Web storage, or memory when the browser refuses it.
  function storage(kind) {
    const memory = new Map();
    const area = () => window[kind];
    return {
      available() {
        try {
          const k = "asadb.panel.probe";
          area().setItem(k, "1");
          area().removeItem(k);
          return true;
        } catch (_) {
          return false;
        }
      },
      get(k) {
        try {
          return area().getItem(k);
        } catch (_) {
          return memory.has(k) ? memory.get(k) : null;
        }
      },
      set(k, v) {
        try {
          area().setItem(k, v);
        } catch (_) {
          memory.set(k, v);
        }
      },
      remove(k) {
        try {
          area().removeItem(k);
        } catch (_) {
          memory.delete(k);
        }
      },
    };
  }
  const session = storage("sessionStorage");
  const local = storage("localStorage");

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
    return new Date(ms).toLocaleTimeString();
  }

  function fmtPercent(p) {
    return typeof p === "number" && isFinite(p) ? p.toFixed(1) + " %" : "–";
  }

  function fmtMs(ms) {
    if (typeof ms !== "number" || !isFinite(ms)) return "–";
    return ms < 10 ? ms.toFixed(1) + " ms" : ms < 10000 ? Math.round(ms) + " ms" : (ms / 1000).toFixed(1) + " s";
  }

  function plural(n, one, many) {
    return n + " " + (n === 1 ? one : many || one + "s");
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

  // ---- routing: reads to /api/query, everything else to the Reservoir ----

  // Splits SQL into statements as SQLite's tokenizer sees them: a `;`
  // outside quotes ('…', "…", `…`, […]) and comments (-- and /* */) ends
  // one. Returns, per non-empty statement, its top-level words (upper
  // case, with their parenthesis depth).
  function statements(sql) {
    const out = [];
    let words = [];
    let depth = 0;
    let i = 0;
    const n = sql.length;
    const isWord = (c) => (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_" ||
      (c >= "0" && c <= "9") || c > "\u007f";
    let any = false;
    while (i < n) {
      const c = sql[i];
      if (c === "-" && sql[i + 1] === "-") {
        while (i < n && sql[i] !== "\n") i += 1;
      } else if (c === "/" && sql[i + 1] === "*") {
        const end = sql.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
      } else if (c === "'" || c === "\"" || c === "`" || c === "[") {
        const close = c === "[" ? "]" : c;
        i += 1;
        for (;;) {
          if (i >= n) break;
          if (sql[i] === close) {
            if (close !== "]" && sql[i + 1] === close) {
              i += 2;
              continue;
            }
            break;
          }
          i += 1;
        }
        i += 1;
        any = true;
        words.push({ word: "", depth: depth });
      } else if (c === ";") {
        if (any) out.push(words);
        words = [];
        depth = 0;
        any = false;
        i += 1;
      } else if (c === "(") {
        depth += 1;
        any = true;
        words.push({ word: "(", depth: depth - 1 });
        i += 1;
      } else if (c === ")") {
        depth = Math.max(0, depth - 1);
        any = true;
        i += 1;
      } else if (isWord(c)) {
        const start = i;
        while (i < n && isWord(sql[i])) i += 1;
        words.push({ word: sql.slice(start, i).toUpperCase(), depth: depth });
        any = true;
      } else {
        if (c > " ") any = true;
        i += 1;
      }
    }
    if (any) out.push(words);
    return out;
  }

  const READ_WORDS = ["SELECT", "VALUES", "EXPLAIN", "WITH", "("];
  const WRITE_WORDS = ["INSERT", "UPDATE", "DELETE", "REPLACE", "UPSERT", "CREATE", "DROP", "ALTER",
    "BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE", "PRAGMA", "VACUUM", "ANALYZE",
    "REINDEX", "ATTACH", "DETACH"];

  // Where the console sends `sql`: {route: "query" | "reservoir" | "none",
  // why}. Mirrors the server's rule for /api/query (one read-only
  // statement of at most 250,000 characters); text the panel cannot place
  // (a typo) goes to /api/query, which answers its syntax error at once.
  function classify(sql) {
    let chars = 0;
    for (const _ of sql) chars += 1;
    const stmts = statements(sql);
    if (stmts.length === 0) return { route: "none", why: "nothing to run" };
    if (chars > MAX_QUERY_CHARS) {
      return { route: "reservoir", why: "longer than " + MAX_QUERY_CHARS.toLocaleString("en") + " characters" };
    }
    if (stmts.length > 1) return { route: "reservoir", why: stmts.length + " statements" };
    const words = stmts[0];
    const first = words.length ? words[0].word : "";
    if (first === "WITH") {
      const main = words.find((w, k) => k > 0 && w.depth === 0 &&
        ["SELECT", "VALUES", "INSERT", "UPDATE", "DELETE", "REPLACE"].includes(w.word));
      if (main && main.word !== "SELECT" && main.word !== "VALUES") {
        return { route: "reservoir", why: "a " + main.word + " statement" };
      }
      return { route: "query", why: "a read" };
    }
    if (READ_WORDS.includes(first)) return { route: "query", why: "a read" };
    if (WRITE_WORDS.includes(first)) return { route: "reservoir", why: "a " + first + " statement" };
    return { route: "query", why: "not recognised: the server checks it" };
  }

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
    return session.get(TOKEN_KEY) || "";
  }

  function noteWrongToken() {
    if (!tokenBad) {
      tokenBad = true;
      closeEvents();
    }
    setStatus("token-status", "wrong token", "bad");
  }

  function noteGoodToken() {
    if (tokenBad || byId("token-status").textContent !== "ok") {
      const first = byId("token-status").textContent !== "ok";
      tokenBad = false;
      setStatus("token-status", "ok", "good");
      byId("token-hint").hidden = true;
      if (first) onTokenAccepted();
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
    if (!t) throw new ApiError(0, "no_token", "enter the token first: it is in <data dir>/panel.token", false);
    return t;
  }

  // One request to this origin, never from a cache. `opts.body` is a JSON
  // text; `opts.exact` parses the answer with parseExact.
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
        signal: o.signal,
      });
    } catch (e) {
      if (e && e.name === "AbortError") throw e;
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
      if (err.retryable) {
        box.append("\nRetryable: " + (err.retryAfter ? "try again in " + err.retryAfter + " s." : "try again later."));
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
      td.append(el("span", { class: "blob", text: jsonText(v) }));
    } else {
      td.textContent = jsonText(v);
    }
    return td;
  }

  function rowElement(row, index) {
    const tr = el("tr", null, [el("td", { class: "num muted", text: String(index + 1) })]);
    for (const v of row) tr.append(cell(v));
    return tr;
  }

  // ---- export (client-side, of the rows on screen) ----------------------

  function csvField(v) {
    let t;
    if (v === null || v === undefined) t = "";
    else if (v instanceof Num) t = v.text;
    else if (typeof v === "string") t = v;
    else if (typeof v === "object" && typeof v.hex === "string") t = v.hex;
    else t = jsonText(v);
    const needs = t.includes(",") || t.includes("\"") || t.includes("\n") || t.includes("\r");
    return needs ? "\"" + t.split("\"").join("\"\"") + "\"" : t;
  }

  // RFC 4180 CSV: a header line, CRLF line ends; NULL is an empty field,
  // a blob its hex digits, numbers exactly as the server sent them.
  function toCsv(columns, rows) {
    const lines = [columns.map((c) => csvField(String(c))).join(",")];
    for (const r of rows) lines.push(r.map(csvField).join(","));
    return lines.join("\r\n") + "\r\n";
  }

  // The API's own shape: {"columns": [...], "rows": [[...]]}, exact.
  function toJson(columns, rows) {
    return "{\"columns\": " + JSON.stringify(columns) + ", \"rows\": [" +
      rows.map(jsonText).join(",\n") + "]}\n";
  }

  function download(name, type, text) {
    const url = URL.createObjectURL(new Blob([text], { type: type }));
    const a = el("a", { href: url, download: name });
    document.body.append(a);
    a.click();
    a.remove();
    window.setTimeout(() => URL.revokeObjectURL(url), 10000);
  }

  // ---- result blocks: one per statement, with Show more ------------------

  // A statement's result on screen: a header line (text, rows, time), the
  // table, and "Show more" while `more` says there are rows left. `more`
  // is an async function of the next offset returning {rows, next, ms}.
  function resultBlock(opts) {
    const block = el("div", { class: "stmt" });
    const head = el("div", { class: "row" });
    const title = el("span", { class: "excerpt", text: opts.title || "" });
    const info = el("span", { class: "muted" });
    head.append(title, info);
    block.append(head);
    const state = { rows: [], next: opts.next, columns: opts.columns || [] };
    const moreBtn = button("Show more", () => showMore());
    moreBtn.className = "more";
    const exportCsv = button("CSV", () => download((opts.file || "result") + ".csv", "text/csv", toCsv(state.columns, state.rows)), "download the rows shown as CSV");
    const exportJson = button("JSON", () => download((opts.file || "result") + ".json", "application/json", toJson(state.columns, state.rows)), "download the rows shown as JSON");
    let tbody = null;
    if (opts.error) {
      block.append(el("div", { class: "error", text: opts.error }));
    }
    if (state.columns.length) {
      const hr = el("tr", null, [el("th", { class: "muted", text: "#" })]);
      for (const c of state.columns) hr.append(el("th", { text: String(c) }));
      tbody = el("tbody");
      block.append(el("div", { class: "result" }, [el("table", null, [el("thead", null, [hr]), tbody])]));
      block.append(el("div", { class: "row" }, [moreBtn, exportCsv, exportJson]));
    }
    const describe = () => {
      const parts = [];
      if (state.columns.length) {
        if (typeof opts.total === "number" && state.next !== null) {
          parts.push(state.rows.length + " of " + plural(opts.total, "row"));
        } else {
          parts.push(plural(state.rows.length, "row") + (state.next === null ? "" : " so far"));
        }
      }
      if (typeof opts.affected === "number" && (opts.affected > 0 || !state.columns.length)) {
        parts.push(plural(opts.affected, "row") + " affected");
      }
      if (typeof opts.ms === "number") parts.push(fmtMs(opts.ms));
      info.textContent = parts.join(" · ");
      moreBtn.hidden = state.next === null;
    };
    const append = (rows) => {
      if (!tbody) return;
      for (const r of rows) {
        tbody.append(rowElement(r, state.rows.length));
        state.rows.push(r);
      }
    };
    let busy = null;
    const showMore = () => {
      if (busy || state.next === null) return busy;
      moreBtn.disabled = true;
      busy = opts.more(state.next).then((page) => {
        append(page.rows);
        state.next = page.next;
        if (typeof page.ms === "number") opts.ms = page.ms;
        describe();
      }, (e) => {
        block.append(el("div", { class: "error", text: String(e.message || e) }));
      }).finally(() => {
        busy = null;
        moreBtn.disabled = false;
      });
      return busy;
    };
    append(opts.rows || []);
    describe();
    block.state = state;
    return block;
  }

  // ---- tabs ------------------------------------------------------------

  let currentTab = "console";

  function selectTab(name) {
    currentTab = name;
    for (const b of document.querySelectorAll("[data-tab]")) {
      const on = b.dataset.tab === name;
      b.setAttribute("aria-selected", on ? "true" : "false");
      byId(b.getAttribute("aria-controls")).hidden = !on;
    }
    session.set(TAB_KEY, name);
    if (name === "jobs") renderJobs();
    schedulePoll();
  }

  // ---- jobs: what the panel knows -------------------------------------

  // Latest snapshot of every job seen while this page lives (memory only).
  const jobs = new Map();
  // Ids of jobs seen running (processing or cancelling): a job cancelled
  // while it ran may show nothing committed — its progress counts only
  // what is durable — and is still not one that never ran.
  const seenRunning = new Set();
  // Ids of the active jobs, as last reported.
  let activeIds = [];

  function anyActive() {
    return activeIds.length > 0 || (watch.id !== null && watch.job && ACTIVE.includes(watch.job.state));
  }

  const RANK = { receiving: 0, queued: 1, processing: 2, cancelling: 3 };
  const rank = (state) => (state in RANK ? RANK[state] : 4);

  // Whether `job` is an older snapshot than `before` (answers and events
  // race: a request's answer may arrive after an event that is newer).
  // `updated_at` only grows for a job; within one millisecond the later
  // state is the one further along.
  function isOlder(job, before) {
    if (!before) return false;
    if (job.updated_at !== before.updated_at) return job.updated_at < before.updated_at;
    return rank(job.state) < rank(before.state);
  }

  // Takes in a snapshot from any source (poll, event, command answer).
  function upsertJob(job) {
    if (!job || typeof job.id !== "number") return;
    const before = jobs.get(job.id);
    if (isOlder(job, before)) return;
    jobs.set(job.id, job);
    if (job.state === "processing" || job.state === "cancelling") seenRunning.add(job.id);
    if (uploading && uploading.id === null && job.idempotency_key === uploading.key &&
        job.state === "receiving") {
      uploading.id = job.id;
      jobs.set(job.id, job);
      watchJob(job.id, uploading.label, "import", true);
    }
    if (watch.id === job.id) onWatchedJob(job, before);
    if (currentTab === "jobs") renderJobs();
  }

  function setActive(list) {
    activeIds = list.map((j) => j.id);
    for (const j of list) upsertJob(j);
    byId("jobs-count").textContent = activeIds.length ? "(" + activeIds.length + ")" : "";
    if (currentTab === "jobs") renderJobs();
  }

  // ---- the watched job (submitted here; survives a reload) ------------------

  // {id, label, view, job}: the job this tab follows in the console or
  // the import view.
  // `submitted`: this tab made the job, so its end is a run ending here
  // (it chimes even when the end is the first state seen).
  const watch = { id: null, label: "", view: "", job: null, finished: false, submitted: false };

  function watchJob(id, label, view, submitted) {
    if (watch.id !== id) {
      watch.id = id;
      watch.label = label;
      watch.view = view;
      watch.job = null;
      watch.finished = false;
      watch.submitted = submitted;
    }
    // The small descriptor: id, label and view — never SQL.
    session.set(WATCH_KEY, JSON.stringify({ id: id, label: label, view: view }));
    // The latest snapshot known (an event may have beaten the answer).
    if (jobs.has(id)) onWatchedJob(jobs.get(id), null);
    schedulePoll();
  }

  function unwatch() {
    watch.id = null;
    watch.job = null;
    session.remove(WATCH_KEY);
  }

  function onWatchedJob(job, before) {
    watch.job = job;
    const box = byId(watch.view === "console" ? "q-job" : "i-job");
    box.replaceChildren(jobView(job, watch.view));
    if (watch.view === "import") showImportProgress(job);
    if (!ACTIVE.includes(job.state) && !watch.finished) {
      watch.finished = true;
      // Only a run of this tab chimes, not a job found finished.
      if (watch.submitted || (before && ACTIVE.includes(before.state))) chime();
      if (watch.view === "console") {
        setStatus("q-status", "job " + job.id + " " + job.state, job.state === "completed" ? "good" : "bad");
        byId("q-run").disabled = false;
        byId("q-cancel").disabled = true;
        consoleBusy = null;
        if (job.has_result) showJobResults(job.id, "q-results", "q-error");
      } else {
        finishImport(job);
      }
      loadSchema();
      session.remove(WATCH_KEY);
    }
    if (watch.view === "import") byId("i-cancel").disabled = !cancellable(job);
    if (watch.view === "console") byId("q-cancel").disabled = !cancellable(job);
  }

  function cancellable(job) {
    return job && ["receiving", "queued", "processing"].includes(job.state);
  }

  // What a cancel in each state means, said before and after it.
  function cancelNote(state) {
    switch (state) {
      case "receiving": return "The upload stops; nothing is queued and the spooled bytes are removed.";
      case "queued": return "The job has not started: nothing runs.";
      case "processing": return "The statements since the last commit are rolled back; those committed before stay.";
      default: return "";
    }
  }

  async function cancelWatched() {
    const job = watch.job;
    if (!job || !cancellable(job)) return;
    if (job.state === "processing" &&
        !window.confirm("Cancel job " + job.id + "? " + cancelNote("processing"))) {
      return;
    }
    const box = watch.view === "console" ? "q-error" : "i-error";
    try {
      const r = await api("POST", "/api/reservoir/cancel?id=" + job.id);
      upsertJob(r.body);
      const status = watch.view === "console" ? "q-status" : "i-status";
      setStatus(status, "cancel requested (" + job.state + "): " + cancelNote(job.state), "good");
      refreshNow("cancel");
    } catch (e) {
      showError(box, e);
    }
  }

  // The job as a compact view: state, native progress 0–100, counters.
  function jobView(job, view) {
    const p = job.progress || {};
    const dl = el("dl");
    const item = (k, v, cls) => {
      dl.append(el("dt", { text: k }));
      const dd = el("dd", cls ? { class: cls } : null);
      if (v instanceof window.Node) dd.append(v);
      else dd.textContent = v === null || v === undefined ? "–" : String(v);
      dl.append(dd);
    };
    item("job", job.id + (job.label ? " · " + job.label : ""));
    item("state", stateBadge(job.state));
    const bar = el("progress", { max: "100", class: "job-progress" });
    bar.value = typeof p.percent === "number" ? p.percent : 0;
    item("progress", el("span", null, [bar, " " + fmtPercent(p.percent)]));
    if (job.state === "receiving") {
      item("received", fmtBytes(job.received_bytes) +
        (typeof job.declared_size === "number" ? " of " + fmtBytes(job.declared_size) : ""));
    } else {
      item("bytes", fmtBytes(p.bytes_done) + " of " + fmtBytes(p.bytes_total));
    }
    item("statements", p.statements_done + " run, " + p.statements_committed + " committed");
    item("rows affected", p.rows_affected);
    if (p.errors) item("errors", p.errors, "state-failed");
    item("time", fmtMs(Math.max(0, (job.updated_at || 0) - (job.created_at || 0))));
    if (job.error) item("error", jobErrorText(job.error), "state-failed");
    for (const e of (job.statement_errors || []).slice(0, 5)) item("statement error", jobErrorText(e), "state-failed");
    const out = el("div", { "data-job": String(job.id), "data-state": job.state }, [dl]);
    const acts = el("div", { class: "actions" });
    // The console and import views have their own Cancel for the job they follow.
    if (cancellable(job) && view === "jobs") acts.append(button("Cancel job", () => cancelJob(job.id), cancelNote(job.state)));
    if (job.has_result && view !== "console") acts.append(button("Result", () => openResult(job.id)));
    if (job.state === "interrupted") acts.append(button("Resume", () => resumeJob(job.id)));
    if (acts.children.length) out.append(acts);
    if (job.state === "cancelled") out.append(el("p", { class: "note muted", text: cancelledNote(job) }));
    return out;
  }

  function cancelledNote(job) {
    const p = job.progress || {};
    if (!job.fingerprint) return "Cancelled while receiving: nothing was queued.";
    if (!p.statements_done && !p.statements_committed && !seenRunning.has(job.id)) {
      return "Cancelled before it ran: nothing was executed.";
    }
    return "Cancelled while running: " + plural(p.statements_committed || 0, "statement") +
      " committed before the cancel stay; the rest was rolled back.";
  }

  function stateBadge(state) {
    return el("span", { class: "state state-" + state, text: state });
  }

  function jobErrorText(e) {
    let t = e.code + ": " + e.message;
    if (e.statement !== null && e.statement !== undefined) t += " (statement " + e.statement + ")";
    if (e.excerpt) t += "\n" + e.excerpt;
    return t;
  }

  // ---- the completion sound: one channel ------------------------------------

  let muted = local.get(MUTE_KEY) === "1";

  function showMute() {
    const b = byId("mute");
    b.textContent = muted ? "Sound: off" : "Sound: on";
    b.setAttribute("aria-pressed", muted ? "true" : "false");
  }

  // Plays the chime on the page's one <audio> element: a chime still
  // playing is paused and rewound first, so sounds never overlap.
  function chime() {
    if (muted) return;
    const a = byId("chime");
    try {
      a.pause();
      a.currentTime = 0;
      const p = a.play();
      if (p && typeof p.catch === "function") p.catch(() => {});
    } catch (_) {
      // No audio (autoplay refused, no device): silence is fine.
    }
  }

  // ---- console -----------------------------------------------------------------

  let consoleBusy = null;
  let queryAbort = null;

  function history() {
    try {
      const h = JSON.parse(local.get(HISTORY_KEY) || "[]");
      return Array.isArray(h) ? h.filter((x) => typeof x === "string") : [];
    } catch (_) {
      return [];
    }
  }

  function remember(sql) {
    const h = [sql].concat(history().filter((x) => x !== sql)).slice(0, MAX_HISTORY);
    local.set(HISTORY_KEY, JSON.stringify(h));
    showHistory();
  }

  function showHistory() {
    const sel = byId("q-history");
    const opts = [el("option", { value: "", text: "–" })];
    history().forEach((sql, i) => {
      const first = sql.trim().split("\n")[0];
      opts.push(el("option", { value: String(i), text: first.length > 60 ? first.slice(0, 60) + "…" : first }));
    });
    sel.replaceChildren(...opts);
  }

  function readParams() {
    const text = byId("q-params").value.trim();
    if (text === "") return null;
    let v;
    try {
      v = JSON.parse(text);
    } catch (e) {
      throw new Error("parameters are not valid JSON: " + e.message);
    }
    if (v === null || typeof v !== "object") throw new Error("parameters must be a JSON array or object");
    return text;
  }

  // Run: one in-flight run at a time (a second click shares it).
  function runConsole(ev) {
    if (ev) ev.preventDefault();
    if (consoleBusy) return consoleBusy;
    const sql = byId("q-sql").value;
    // A new run clears what the previous one showed, whatever happens.
    showError("q-error", null);
    byId("q-results").replaceChildren();
    byId("q-job").replaceChildren();
    const route = classify(sql);
    if (route.route === "none") {
      showError("q-error", new Error("type a statement first"));
      return null;
    }
    let params;
    try {
      params = readParams();
      if (params !== null && route.route === "reservoir") {
        throw new Error("parameters apply to read-only queries; a Reservoir job takes the script as written");
      }
      needToken();
    } catch (e) {
      showError("q-error", e);
      return null;
    }
    remember(sql);
    byId("q-route").textContent = route.route === "query" ? "→ /api/query (" + route.why + ")" : "→ Reservoir job (" + route.why + ")";
    byId("q-run").disabled = true;
    byId("q-cancel").disabled = false;
    consoleBusy = (route.route === "query" ? runRead(sql, params) : runWrite(sql)).catch((e) => {
      if (e && e.name === "AbortError") {
        setStatus("q-status", "cancelled", "bad");
      } else {
        setStatus("q-status", "");
        showError("q-error", e);
      }
    }).finally(() => {
      if (!watch.id || watch.view !== "console" || watch.finished) {
        consoleBusy = null;
        byId("q-run").disabled = false;
        byId("q-cancel").disabled = true;
      }
    });
    return consoleBusy;
  }

  async function queryPage(sql, params, offset, signal) {
    let body = "{\"sql\": " + JSON.stringify(sql) + ", \"offset\": " + offset;
    if (params !== null) body += ", \"params\": " + params;
    body += "}";
    const started = performance.now();
    const page = (await api("POST", "/api/query", { body: body, exact: true, signal: signal })).body;
    return {
      columns: page.columns || [],
      rows: page.rows || [],
      next: page.next_offset === null ? null : num(page.next_offset),
      ms: performance.now() - started,
    };
  }

  async function runRead(sql, params) {
    setStatus("q-status", "running…");
    queryAbort = new AbortController();
    const first = await queryPage(sql, params, 0, queryAbort.signal);
    queryAbort = null;
    const block = resultBlock({
      title: "",
      columns: first.columns,
      rows: first.rows,
      next: first.next,
      ms: first.ms,
      file: "query",
      more: (offset) => queryPage(sql, params, offset),
    });
    byId("q-results").replaceChildren(block);
    setStatus("q-status", "done", "good");
  }

  function newKey() {
    if (window.crypto && typeof window.crypto.randomUUID === "function") return window.crypto.randomUUID();
    const b = new Uint8Array(16);
    window.crypto.getRandomValues(b);
    return [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  }

  async function runWrite(sql) {
    setStatus("q-status", "submitting…");
    const label = "console " + new Date().toLocaleTimeString();
    const key = newKey();
    const r = await fetch("/api/reservoir/jobs", {
      method: "POST",
      headers: {
        Authorization: "Bearer " + needToken(),
        "X-AsaDB-Job-Label": headerValue("label", label),
        "X-AsaDB-Idempotency-Key": key,
        "Content-Type": "application/sql",
      },
      body: sql,
      cache: "no-store",
      credentials: "omit",
    });
    const text = await r.text();
    if (!r.ok) throw errorFromResponse(r.status, text, r.headers.get("Retry-After"));
    noteGoodToken();
    const job = JSON.parse(text);
    upsertJob(job);
    watchJob(job.id, label, "console", true);
    if (!watch.finished) setStatus("q-status", "job " + job.id + " " + jobs.get(job.id).state);
    refreshNow("submitted");
  }

  function cancelConsole() {
    if (queryAbort) {
      queryAbort.abort();
      queryAbort = null;
      return;
    }
    if (watch.id !== null && watch.view === "console") cancelWatched();
  }

  // Every statement of a finished job: summary, rows, Show more.
  async function showJobResults(id, outId, errId) {
    const out = byId(outId);
    out.replaceChildren();
    const page = async (stmt, offset) => (await api("GET", "/api/reservoir/result?id=" + id +
      "&statement=" + stmt + "&offset=" + offset, { exact: true })).body;
    try {
      const first = await page(0, 0).catch(async (e) => {
        // A resumed job's result starts after its last durable statement.
        const marker = "holds statements ";
        const at = e instanceof ApiError ? e.message.indexOf(marker) : -1;
        if (at < 0) throw e;
        return page(parseInt(e.message.slice(at + marker.length), 10), 0);
      });
      const from = num(first.first_statement);
      const count = num(first.statements);
      out.append(el("p", { class: "muted", text: "job " + id + ": " + plural(count, "statement") + (from ? " (from statement " + from + ")" : "") }));
      const shown = { next: from };
      const addBlocks = async (limit) => {
        const end = Math.min(from + count, shown.next + limit);
        for (let s = shown.next; s < end; s += 1) {
          const p = s === num(first.statement.statement) ? first : await page(s, 0);
          out.insertBefore(statementBlock(id, p, page), moreStmts);
        }
        shown.next = end;
        moreStmts.hidden = shown.next >= from + count;
      };
      const moreStmts = button("Show more statements", () => addBlocks(STATEMENTS_SHOWN));
      out.append(moreStmts);
      await addBlocks(STATEMENTS_SHOWN);
      // Reading the result made the job delivered.
      api("GET", "/api/reservoir/job?id=" + id).then((r) => upsertJob(r.body), () => {});
    } catch (e) {
      showError(errId, e);
    }
  }

  function statementBlock(id, p, page) {
    const s = p.statement;
    const idx = num(s.statement);
    const err = s.error ? jobErrorText(s.error) : null;
    return resultBlock({
      title: "#" + idx + " " + s.excerpt,
      columns: p.columns || [],
      rows: p.rows || [],
      next: p.next_offset === null ? null : num(p.next_offset),
      affected: num(s.rows_affected),
      total: num(s.row_count),
      ms: typeof num(s.elapsed_ms) === "number" ? num(s.elapsed_ms) : undefined,
      error: err,
      file: "job-" + id + "-statement-" + idx,
      more: async (offset) => {
        const q = await page(idx, offset);
        return { rows: q.rows || [], next: q.next_offset === null ? null : num(q.next_offset) };
      },
    });
  }

  // ---- schema sidebar ------------------------------------------------------------

  let schemaBusy = null;

  function loadSchema() {
    if (schemaBusy || !token() || tokenBad || document.hidden) return schemaBusy;
    schemaBusy = api("GET", "/api/schema").then((r) => {
      showError("schema-error", null);
      renderSchema(r.body);
    }, (e) => showError("schema-error", e)).finally(() => {
      schemaBusy = null;
    });
    return schemaBusy;
  }

  function quoteIdent(name) {
    return "\"" + name.split("\"").join("\"\"") + "\"";
  }

  function browse(sql) {
    byId("q-sql").value = sql;
    selectTab("console");
    runConsole(null);
  }

  function renderSchema(s) {
    const tree = byId("schema-tree");
    const parts = [];
    const tables = (s.tables || []).filter((t) => !t.internal);
    parts.push(el("div", { class: "kind", text: "tables (" + tables.length + ")" }));
    if (!tables.length) parts.push(el("p", { class: "muted", text: "no tables yet" }));
    for (const t of tables) {
      const count = t.row_count.toLocaleString("en") + (t.row_count_capped ? "+" : "") + " rows";
      const open = button(t.name, (ev) => {
        ev.preventDefault();
        browse("SELECT * FROM " + quoteIdent(t.name) + " ORDER BY rowid");
      }, "browse " + t.name);
      open.className = "browse";
      const summary = el("summary", null, [open, el("span", { class: "count", text: count })]);
      const cols = el("ul");
      for (const c of t.columns) {
        const flags = [c.type || "(no type)"];
        if (c.primary_key) flags.push("primary key");
        if (c.not_null) flags.push("not null");
        cols.append(el("li", { class: "col" }, [c.name + " ", el("span", { class: "type", text: flags.join(", ") })]));
      }
      const det = el("details", { "data-table": t.name }, [summary, cols]);
      if (t.indexes.length) {
        const idx = el("ul");
        for (const i of t.indexes) {
          idx.append(el("li", { class: "col" }, [i.name + " ", el("span", { class: "type",
            text: "(" + i.columns.join(", ") + ")" + (i.unique ? " unique" : "") + (i.auto ? " auto" : "") })]));
        }
        det.append(el("div", { class: "kind", text: "indexes" }), idx);
      }
      parts.push(det);
    }
    const views = s.views || [];
    if (views.length) {
      parts.push(el("div", { class: "kind", text: "views (" + views.length + ")" }));
      for (const v of views) {
        const open = button(v.name, (ev) => {
          ev.preventDefault();
          browse("SELECT * FROM " + quoteIdent(v.name));
        }, "browse " + v.name);
        open.className = "browse";
        const cols = el("ul");
        for (const c of v.columns) cols.append(el("li", { class: "col", text: c }));
        parts.push(el("details", { "data-view": v.name }, [el("summary", null, [open]), cols]));
      }
    }
    // Keep open what was open.
    const opened = new Set([...tree.querySelectorAll("details[open]")].map((d) => d.dataset.table || d.dataset.view));
    tree.replaceChildren(...parts);
    for (const d of tree.querySelectorAll("details")) {
      if (opened.has(d.dataset.table || d.dataset.view)) d.open = true;
    }
  }

  // ---- import ---------------------------------------------------------------------

  // Formats as the server lists them (GET /api/import/formats).
  let formats = [{ format: "sql", supported: true, takes_target: false }];
  let uploading = null; // {xhr, key, label, id}

  async function loadFormats() {
    try {
      formats = (await api("GET", "/api/import/formats")).body.formats;
    } catch (_) {
      // Keep the default: sql only.
    }
    renderFormats();
  }

  function renderFormats() {
    const sel = byId("i-format");
    const keep = sel.value;
    sel.replaceChildren(...formats.map((f) => el("option", { value: f.format,
      text: f.format + (f.supported ? "" : " (not supported by this server yet)") })));
    if (keep) sel.value = keep;
    formatChanged();
  }

  function formatInfo(name) {
    return formats.find((f) => f.format === name) || { format: name, supported: false, takes_target: false };
  }

  function formatChanged() {
    const f = formatInfo(byId("i-format").value);
    byId("i-table").disabled = !f.takes_target;
    byId("i-mode").disabled = !f.takes_target;
    armImport();
  }

  // A new idempotency key whenever what would be submitted changes, so a
  // repeated Submit of the same thing returns the same job.
  function armImport() {
    if (!uploading) byId("i-key").value = newKey();
  }

  function guessFormat(name) {
    const lower = name.toLowerCase();
    if (lower.endsWith(".csv")) return "csv";
    if (lower.endsWith(".xlsx")) return "xlsx";
    return "sql";
  }

  function fileChanged() {
    const f = byId("i-file").files[0];
    byId("i-file-info").textContent = f ? fmtBytes(f.size) : "";
    if (f) {
      byId("i-format").value = guessFormat(f.name);
      formatChanged();
    }
    armImport();
  }

  // A header value as the bytes of its UTF-8 encoding, one character per
  // byte: XMLHttpRequest and fetch send such a string byte for byte, and
  // the server requires UTF-8.
  function headerValue(name, text) {
    const bytes = new TextEncoder().encode(text.trim());
    if (bytes.length > MAX_HEADER_BYTES) throw new Error(name + " is longer than " + MAX_HEADER_BYTES + " bytes");
    for (const b of bytes) {
      if (b < 0x20 || b === 0x7f) throw new Error(name + " contains a control character");
    }
    let out = "";
    for (const b of bytes) out += String.fromCharCode(b);
    return out;
  }

  // Refuses, before any byte is sent, what the server would refuse: a
  // format it does not support, a workbook sent as text or the reverse.
  async function checkImport(file, format) {
    const f = formatInfo(format);
    if (!f.supported) {
      throw new Error("format " + format + " is not supported by this server yet; nothing was uploaded");
    }
    const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
    const zip = head.length === 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 3 && head[3] === 4;
    if (format === "xlsx" && !zip) throw new Error(file.name + " is not an XLSX workbook (no ZIP header); nothing was uploaded");
    if (format !== "xlsx" && zip) throw new Error(file.name + " is a ZIP file (an XLSX workbook?), not " + format + " text; nothing was uploaded");
    if (f.takes_target && byId("i-table").value.trim() === "") throw new Error("a " + format + " import needs a target table");
  }

  function showImportProgress(job) {
    const p = job.progress || {};
    const pct = job.state === "completed" || job.state === "delivered" ? 100 :
      typeof p.percent === "number" ? p.percent : 0;
    byId("i-progress").value = pct;
    byId("i-percent").textContent = fmtPercent(pct);
  }

  let importBusy = null;

  // Submit: one upload at a time; a second click while one is being
  // prepared or sent shares it.
  function submitImport(ev) {
    if (ev) ev.preventDefault();
    if (importBusy) return importBusy;
    importBusy = startImport().finally(() => {
      importBusy = null;
    });
    return importBusy;
  }

  async function startImport() {
    showError("i-error", null);
    const file = byId("i-file").files[0];
    const format = byId("i-format").value || "sql";
    let headers;
    try {
      needToken();
      if (!file) throw new Error("choose a file first");
      await checkImport(file, format);
      const label = byId("i-label").value.trim() || file.name;
      const key = byId("i-key").value.trim() || newKey();
      byId("i-key").value = key;
      headers = [
        ["X-AsaDB-Job-Label", headerValue("label", label)],
        ["X-AsaDB-Idempotency-Key", headerValue("idempotency key", key)],
        ["X-AsaDB-Stop-On-Error", byId("i-stop").checked ? "true" : "false"],
        ["X-AsaDB-Import-Format", format],
        ["X-AsaDB-Import-Original-Name", headerValue("file name", file.name)],
      ];
      if (formatInfo(format).takes_target) {
        headers.push(["X-AsaDB-Import-Target-Table", headerValue("target table", byId("i-table").value)]);
        headers.push(["X-AsaDB-Import-Mode", byId("i-mode").value]);
      }
      uploading = { xhr: null, key: key, label: label, id: null };
    } catch (e) {
      showError("i-error", e);
      return;
    }
    byId("i-job").replaceChildren();
    byId("i-progress").value = 0;
    byId("i-percent").textContent = "0 %";
    byId("i-upload").value = 0;
    byId("i-submit").disabled = true;
    byId("i-cancel").disabled = false;
    setStatus("i-status", "uploading " + fmtBytes(file.size) + "…");
    schedulePoll();
    await new Promise((resolve) => {
      const xhr = new XMLHttpRequest();
      uploading.xhr = xhr;
      xhr.open("POST", "/api/reservoir/jobs");
      xhr.setRequestHeader("Authorization", "Bearer " + token());
      for (const [k, v] of headers) xhr.setRequestHeader(k, v);
      xhr.upload.addEventListener("progress", (e) => {
        const total = e.lengthComputable ? e.total : file.size;
        byId("i-upload").value = total ? (100 * e.loaded) / total : 0;
      });
      xhr.addEventListener("load", () => {
        const up = uploading;
        uploading = null;
        byId("i-submit").disabled = false;
        if (xhr.status === 200 || xhr.status === 201) {
          const job = JSON.parse(xhr.responseText);
          noteGoodToken();
          byId("i-upload").value = 100;
          setStatus("i-status", xhr.status === 201 ? "job " + job.id + " admitted" :
            "already submitted as job " + job.id + " (same idempotency key and file)", "good");
          upsertJob(job);
          watchJob(job.id, up.label, "import", xhr.status === 201);
          if (xhr.status === 200 && !ACTIVE.includes(job.state)) finishImport(job);
        } else {
          const err = errorFromResponse(xhr.status, xhr.responseText, xhr.getResponseHeader("Retry-After"));
          if (err.code === "cancelled") {
            setStatus("i-status", "cancelled while receiving: nothing was queued", "good");
            if (up.id !== null) api("GET", "/api/reservoir/job?id=" + up.id).then((r) => upsertJob(r.body), () => {});
          } else {
            setStatus("i-status", "refused", "bad");
            showError("i-error", err);
            if (up.id !== null && watch.id === up.id) unwatch();
          }
          byId("i-cancel").disabled = true;
        }
        refreshNow("uploaded");
        resolve();
      });
      xhr.addEventListener("error", () => {
        uploading = null;
        byId("i-submit").disabled = false;
        byId("i-cancel").disabled = true;
        setStatus("i-status", "upload broke off", "bad");
        showError("i-error", new ApiError(0, "network", "the upload broke off: the server is unreachable, " +
          "or it refused the body while it was being sent", true));
        resolve();
      });
      xhr.addEventListener("abort", () => {
        uploading = null;
        byId("i-submit").disabled = false;
        byId("i-cancel").disabled = true;
        setStatus("i-status", "upload aborted before the server admitted it: nothing was queued", "bad");
        resolve();
      });
      xhr.send(file);
    });
  }

  // Cancel in the import view: while receiving, the server cancels the
  // upload (its answer is `409 cancelled`, shown as cancelled); if the job
  // is not known yet, the upload is aborted; later, the job is cancelled.
  function cancelImport() {
    if (uploading && uploading.id === null) {
      if (uploading.xhr) uploading.xhr.abort();
      return;
    }
    cancelWatched();
  }

  function finishImport(job) {
    byId("i-cancel").disabled = true;
    byId("i-submit").disabled = false;
    showImportProgress(job);
    const ok = job.state === "completed" || job.state === "delivered";
    setStatus("i-status", "job " + job.id + " " + job.state, ok ? "good" : "bad");
    if (job.error) showError("i-error", new Error(jobErrorText(job.error)));
  }

  // ---- jobs tab --------------------------------------------------------------------

  function jobRow(job) {
    const p = job.progress || {};
    const bar = el("progress", { max: "100" });
    bar.value = typeof p.percent === "number" ? p.percent : 0;
    const acts = el("span", { class: "actions" }, [button("Details", () => lookupJob(job.id))]);
    if (cancellable(job)) acts.append(button("Cancel", () => cancelJob(job.id), cancelNote(job.state)));
    if (job.has_result) acts.append(button("Result", () => openResult(job.id)));
    if (job.state === "interrupted") acts.append(button("Resume", () => resumeJob(job.id)));
    return el("tr", { "data-job": String(job.id) }, [
      el("td", { class: "num", text: String(job.id) }),
      el("td", { class: "nowrap" }, [stateBadge(job.state)]),
      el("td", { text: job.label || (job.import && job.import.original_name) || "" }),
      el("td", { class: "nowrap" }, [bar, " " + fmtPercent(p.percent)]),
      el("td", { class: "num", text: p.statements_done + " / " + p.statements_committed }),
      el("td", { class: "num", text: String(p.rows_affected) }),
      el("td", { class: "num", text: job.state === "receiving" ? fmtBytes(job.received_bytes) : fmtBytes(p.bytes_total) }),
      el("td", { class: "nowrap", text: fmtTime(job.updated_at) }),
      el("td", null, [acts]),
    ]);
  }

  function jobsTable(list) {
    const head = el("tr");
    for (const c of ["id", "state", "label", "progress", "run / committed", "rows", "bytes", "updated", ""]) {
      head.append(el("th", { text: c }));
    }
    return el("table", null, [el("thead", null, [head]), el("tbody", null, list.map(jobRow))]);
  }

  function renderJobs() {
    const active = activeIds.map((id) => jobs.get(id)).filter(Boolean);
    byId("j-active").replaceChildren(active.length ? jobsTable(active) : el("p", { class: "muted", text: "no active jobs" }));
    const done = [...jobs.values()].filter((j) => !ACTIVE.includes(j.state)).sort((a, b) => b.updated_at - a.updated_at);
    byId("j-recent").replaceChildren(done.length ? jobsTable(done.slice(0, 30)) : el("p", { class: "muted", text: "none yet" }));
    if (detailId !== null && jobs.has(detailId)) byId("j-detail").replaceChildren(jobView(jobs.get(detailId), "jobs"));
  }

  let detailId = null;

  async function lookupJob(id) {
    selectTab("jobs");
    byId("j-id").value = String(id);
    showError("j-detail-error", null);
    try {
      const job = (await api("GET", "/api/reservoir/job?id=" + encodeURIComponent(id))).body;
      detailId = job.id;
      upsertJob(job);
      renderJobs();
    } catch (e) {
      detailId = null;
      byId("j-detail").replaceChildren();
      showError("j-detail-error", e);
    }
  }

  async function jobCommand(verb, id) {
    showError("j-detail-error", null);
    try {
      const job = (await api("POST", "/api/reservoir/" + verb + "?id=" + id)).body;
      upsertJob(job);
      setStatus("j-status", verb + ": job " + job.id + " is " + job.state, "good");
    } catch (e) {
      showError("j-detail-error", e);
    }
    refreshNow(verb);
  }

  function cancelJob(id) {
    const job = jobs.get(id);
    const state = job ? job.state : "";
    if (state === "processing" && !window.confirm("Cancel job " + id + "? " + cancelNote(state))) return;
    jobCommand("cancel", id);
  }

  // Resuming the followed job follows it again, to its new end.
  function resumeJob(id) {
    if (watch.id === id && watch.finished) {
      watch.finished = false;
      watch.submitted = true;
      session.set(WATCH_KEY, JSON.stringify({ id: id, label: watch.label, view: watch.view }));
      if (watch.view === "console") byId("q-run").disabled = true;
    }
    jobCommand("resume", id);
  }

  function openResult(id) {
    selectTab("jobs");
    showError("r-error", null);
    showJobResults(id, "r-results", "r-error");
  }

  // ---- stats -------------------------------------------------------------------------

  function renderStats(s) {
    const by = s.by_state || {};
    const pressure = s.advice ? s.advice.pressure : "–";
    const p = byId("stat-pressure");
    p.textContent = pressure;
    p.className = "pressure-" + pressure;
    byId("stat-worker").textContent = s.worker + (s.current_job ? " (job " + s.current_job + ")" : "");
    byId("stat-active").textContent = s.active + " / " + s.max_jobs;
    byId("stat-queued").textContent = String(by.queued);
    const inter = byId("stat-interrupted");
    inter.textContent = String(by.interrupted);
    inter.className = by.interrupted > 0 ? "state-interrupted" : "";
    byId("stat-spool").textContent = fmtBytes(s.reserved_bytes) + " / " + fmtBytes(s.max_spool_bytes);
    byId("stat-spool-bar").value = s.max_spool_bytes > 0 ? Math.min(1, s.reserved_bytes / s.max_spool_bytes) : 0;
    byId("stat-throughput").textContent = fmtBytes(s.throughput_bytes_per_sec) + "/s";
    if (s.active === 0 && activeIds.length) setActive([]);
  }

  // ---- the poll: adaptive, single-flight, never while hidden ----------------------------

  // `due`: when the pending timer fires; `lastEnd`: when the last refresh
  // ended (the next one is due an interval after it).
  const poll = { timer: null, due: 0, inflight: null, lastStart: -Infinity, lastEnd: 0 };

  function pollInterval() {
    if (anyActive() || uploading) return POLL_ACTIVE_MS;
    if (currentTab === "jobs") return POLL_METADATA_MS;
    return POLL_IDLE_MS;
  }

  // (Re)arms the timer for the next refresh, an interval after the last
  // one ended. Calling it again never pushes the refresh later; a shorter
  // interval (a job became active) brings it forward.
  function schedulePoll() {
    if (document.hidden || !token() || tokenBad || events.live || poll.inflight) {
      window.clearTimeout(poll.timer);
      poll.timer = null;
      return;
    }
    const due = Math.max(performance.now(), poll.lastEnd + pollInterval());
    if (poll.timer !== null && Math.abs(poll.due - due) < 5) return;
    window.clearTimeout(poll.timer);
    poll.due = due;
    poll.timer = window.setTimeout(() => {
      poll.timer = null;
      refresh("poll");
    }, due - performance.now());
  }

  // One refresh: stats, the active list and the watched job when it is not
  // in that list. Concurrent callers share the one in flight.
  function refresh(reason) {
    if (poll.inflight) return poll.inflight;
    if (document.hidden || !token() || tokenBad) return Promise.resolve();
    poll.lastStart = performance.now();
    window.clearTimeout(poll.timer);
    poll.timer = null;
    poll.inflight = (async () => {
      try {
        const [stats, list] = await Promise.all([
          api("GET", "/api/reservoir/stats"),
          api("GET", "/api/reservoir/jobs"),
        ]);
        const active = list.body.jobs || [];
        setActive(active);
        renderStats(stats.body);
        if (watch.id !== null && !active.some((j) => j.id === watch.id) &&
            (!watch.job || ACTIVE.includes(watch.job.state))) {
          await refreshWatched();
        }
        showError("j-error", null);
      } catch (e) {
        if (!(e instanceof ApiError && e.status === 401)) showError("j-error", e);
      }
    })().finally(() => {
      poll.inflight = null;
      poll.lastEnd = performance.now();
      schedulePoll();
    });
    return poll.inflight;
  }

  // Becoming visible or focused: one immediate refresh (visible and focus
  // arriving together make one).
  function refreshNow(reason) {
    if (document.hidden) return null;
    if (poll.inflight) return poll.inflight;
    if (performance.now() - poll.lastStart < IMMEDIATE_DEDUP_MS && reason !== "submitted" && reason !== "cancel") {
      return null;
    }
    return refresh(reason);
  }

  async function refreshWatched() {
    if (watch.id === null) return;
    try {
      upsertJob((await api("GET", "/api/reservoir/job?id=" + watch.id)).body);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) {
        setStatus(watch.view === "console" ? "q-status" : "i-status", "job " + watch.id + " is gone (expired)", "bad");
        unwatch();
      } else {
        throw e;
      }
    }
  }

  // ---- live events: GET /api/reservoir/events ------------------------------------------

  const events = { live: false, ctrl: null, retryMs: 1000, timer: null };

  function setLive(state) {
    const b = byId("live");
    b.textContent = state === "on" ? "live" : state === "poll" ? "polling" : "offline";
    b.className = "live" + (state === "on" ? " on" : state === "poll" ? " poll" : "");
  }

  function closeEvents() {
    window.clearTimeout(events.timer);
    events.timer = null;
    if (events.ctrl) events.ctrl.abort();
  }

  function handleEvent(name, data) {
    let body;
    try {
      body = JSON.parse(data);
    } catch (_) {
      return;
    }
    if (name === "jobs") setActive(body.jobs || []);
    else if (name === "job") {
      if (ACTIVE.includes(body.state)) {
        if (!activeIds.includes(body.id)) activeIds = [body.id].concat(activeIds);
      } else {
        activeIds = activeIds.filter((id) => id !== body.id);
      }
      byId("jobs-count").textContent = activeIds.length ? "(" + activeIds.length + ")" : "";
      upsertJob(body);
    } else if (name === "stats") renderStats(body);
    else if (name === "gone") {
      activeIds = activeIds.filter((id) => id !== body.id);
      if (watch.id === body.id && !watch.finished) refreshWatched().catch(() => {});
      if (currentTab === "jobs") renderJobs();
    }
  }

  async function openEvents() {
    if (events.ctrl || document.hidden || !token() || tokenBad) return;
    const ctrl = new AbortController();
    events.ctrl = ctrl;
    let opened = false;
    try {
      const resp = await fetch("/api/reservoir/events", {
        headers: { Authorization: "Bearer " + token(), Accept: "text/event-stream" },
        cache: "no-store",
        credentials: "omit",
        signal: ctrl.signal,
      });
      if (!resp.ok) {
        errorFromResponse(resp.status, await resp.text(), null);
        return;
      }
      opened = true;
      events.live = true;
      events.retryMs = 1000;
      setLive("on");
      window.clearTimeout(poll.timer);
      poll.timer = null;
      // A missed event is never assumed delivered: re-read the watched job.
      refreshWatched().catch(() => {});
      const reader = resp.body.getReader();
      const decoder = new TextDecoder();
      let buf = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += decoder.decode(value, { stream: true }).split("\r\n").join("\n");
        let at;
        while ((at = buf.indexOf("\n\n")) >= 0) {
          const block = buf.slice(0, at);
          buf = buf.slice(at + 2);
          let name = "message";
          const data = [];
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) continue;
            const colon = line.indexOf(":");
            const field = colon < 0 ? line : line.slice(0, colon);
            let val = colon < 0 ? "" : line.slice(colon + 1);
            if (val.startsWith(" ")) val = val.slice(1);
            if (field === "event") name = val;
            else if (field === "data") data.push(val);
          }
          if (data.length) handleEvent(name, data.join("\n"));
        }
      }
    } catch (_) {
      // Aborted by us, or the connection broke: the poll takes over.
    } finally {
      events.live = false;
      events.ctrl = null;
      setLive(token() && !tokenBad ? "poll" : "off");
      if (!ctrl.signal.aborted) {
        // A stream that was open ended or broke: poll now. Either way the
        // poll goes on, and the stream is tried again later.
        if (opened) refreshNow("events-ended");
        schedulePoll();
        if (!document.hidden && !tokenBad) {
          window.clearTimeout(events.timer);
          events.timer = window.setTimeout(openEvents, events.retryMs);
          events.retryMs = Math.min(30000, events.retryMs * 2);
        }
      } else if (opened) {
        schedulePoll();
      }
    }
  }

  // ---- visibility and focus ----------------------------------------------------------------

  function onVisibility() {
    if (document.hidden) {
      window.clearTimeout(poll.timer);
      poll.timer = null;
      closeEvents();
      return;
    }
    refreshNow("visible");
    openEvents();
  }

  function onFocus() {
    refreshNow("focus");
    openEvents();
  }

  // ---- token --------------------------------------------------------------------------------

  function useToken(ev) {
    ev.preventDefault();
    const t = byId("token").value.trim();
    if (t === "") {
      forgetToken();
      return;
    }
    session.set(TOKEN_KEY, t);
    tokenBad = false;
    setStatus("token-status", "checking…");
    closeEvents();
    refresh("token");
    openEvents();
  }

  function forgetToken() {
    session.remove(TOKEN_KEY);
    byId("token").value = "";
    tokenBad = false;
    closeEvents();
    setStatus("token-status", "no token", "bad");
    byId("token-hint").hidden = false;
    setLive("off");
  }

  // Once per accepted token: what the views need from the server.
  function onTokenAccepted() {
    loadSchema();
    loadFormats();
  }

  // After a reload: the stored descriptor's job first; the active-jobs
  // list only when storage holds none or is unavailable.
  async function recover() {
    let desc = null;
    if (session.available()) {
      try {
        desc = JSON.parse(session.get(WATCH_KEY) || "null");
      } catch (_) {
        desc = null;
      }
      if (desc && typeof desc.id === "number") {
        watch.id = desc.id;
        watch.label = String(desc.label || "");
        watch.view = desc.view === "console" ? "console" : "import";
        watch.finished = false;
        watch.submitted = false;
        if (watch.view === "import") selectTab("import");
        try {
          await refreshWatched();
          if (watch.job && ACTIVE.includes(watch.job.state)) {
            if (watch.view === "console") {
              byId("q-run").disabled = true;
              consoleBusy = Promise.resolve();
              setStatus("q-status", "following job " + watch.id + " (after a reload)");
            } else {
              byId("i-submit").disabled = false;
              setStatus("i-status", "following job " + watch.id + " (after a reload)");
            }
          }
        } catch (e) {
          showError(watch.view === "console" ? "q-error" : "i-error", e);
        }
        return;
      }
    }
    // Nothing stored: follow the newest active job, if any.
    try {
      const list = (await api("GET", "/api/reservoir/jobs")).body.jobs || [];
      setActive(list);
      if (list.length && watch.id === null) {
        watch.id = list[0].id;
        watch.label = list[0].label || "";
        watch.view = "import";
        watch.finished = false;
        watch.submitted = false;
        onWatchedJob(list[0], null);
      }
    } catch (_) {
      // The poll reports errors.
    }
  }

  // ---- start ----------------------------------------------------------------------------------

  function checkVersion() {
    const meta = document.querySelector("meta[name=\"asadb-panel-version\"]");
    const page = meta ? meta.getAttribute("content") : "";
    byId("panel-version").textContent = PANEL_VERSION;
    if (page !== PANEL_VERSION) {
      const w = byId("version-warning");
      w.hidden = false;
      w.textContent = "This page (version " + page + ") and its script (version " + PANEL_VERSION +
        ") do not match: reload the page.";
    }
  }

  async function start() {
    checkVersion();
    byId("token-form").addEventListener("submit", useToken);
    byId("token-forget").addEventListener("click", forgetToken);
    for (const b of document.querySelectorAll("[data-tab]")) b.addEventListener("click", () => selectTab(b.dataset.tab));
    byId("mute").addEventListener("click", () => {
      muted = !muted;
      local.set(MUTE_KEY, muted ? "1" : "0");
      showMute();
    });
    showMute();
    byId("q-form").addEventListener("submit", runConsole);
    byId("q-cancel").addEventListener("click", cancelConsole);
    byId("q-sql").addEventListener("keydown", (e) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        runConsole(null);
      }
    });
    document.addEventListener("keydown", (e) => {
      if (e.key === "Escape") {
        if (currentTab === "console") cancelConsole();
        else if (currentTab === "import") cancelImport();
      }
    });
    byId("q-history").addEventListener("change", () => {
      const v = byId("q-history").value;
      if (v !== "") byId("q-sql").value = history()[Number(v)] || "";
      byId("q-history").value = "";
    });
    byId("schema-refresh").addEventListener("click", () => loadSchema());
    byId("i-form").addEventListener("submit", submitImport);
    byId("i-cancel").addEventListener("click", cancelImport);
    byId("i-file").addEventListener("change", fileChanged);
    byId("i-format").addEventListener("change", formatChanged);
    for (const id of ["i-table", "i-mode", "i-label", "i-stop"]) byId(id).addEventListener("change", armImport);
    byId("i-key-new").addEventListener("click", () => {
      byId("i-key").value = newKey();
    });
    byId("j-lookup").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const id = Number(byId("j-id").value);
      if (!Number.isSafeInteger(id) || id < 1) {
        showError("j-detail-error", new Error("enter a job id (a positive integer)"));
        return;
      }
      lookupJob(id);
    });
    window.addEventListener("beforeunload", (e) => {
      // Leaving during an upload fails its job: say so.
      if (uploading) {
        e.preventDefault();
        e.returnValue = "";
      }
    });
    document.addEventListener("visibilitychange", onVisibility);
    window.addEventListener("focus", onFocus);
    showHistory();
    renderFormats();
    const tab = session.get(TAB_KEY);
    selectTab(tab === "import" || tab === "jobs" ? tab : "console");
    const saved = token();
    if (saved) {
      byId("token").value = saved;
      setStatus("token-status", "checking…");
      await recover();
      refresh("start");
      openEvents();
    } else {
      setStatus("token-status", "no token", "bad");
    }
  }

  // What the fast unit test (server/tests/panel_dom.mjs) checks without a
  // page; harmless in a browser.
  window.asadbPanel = { classify: classify, statements: statements, toCsv: toCsv, toJson: toJson,
    parseExact: parseExact, jsonText: jsonText, version: PANEL_VERSION };
  if (!window.asadbPanelNoStart) start();
})();
