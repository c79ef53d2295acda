// Fast unit test of the panel script's pure parts, in Node (no browser):
// the script is fetched from a running `asadb serve` like a browser would
// and run in a vm context with `window.asadbPanelNoStart` set, so it only
// exposes `window.asadbPanel`. The real-browser suite (panel_browser.mjs)
// proves the page; this checks, quickly and exhaustively:
// - the console's routing (classify) agrees with the server: every
//   statement of a corpus that classify sends to /api/query is accepted
//   there, every one it sends to the Reservoir is refused there;
// - statements() splits like SQLite (quotes, comments, brackets);
// - CSV and JSON export, exact numbers.
//
// Usage: node panel_dom.mjs BASE_URL TOKEN
// Prints one line per check; exits 1 if any failed.
// Run by `the_panel_script_units_pass` in panel.rs.
import vm from "node:vm";

const [, , base, token] = process.argv;
const script = await (await fetch(base + "/panel.js")).text();

const window = { asadbPanelNoStart: true };
const context = vm.createContext({ window, console, TextEncoder, TextDecoder });
vm.runInContext(script, context, { filename: "panel.js" });
const P = window.asadbPanel;

let failed = 0;
function check(name, ok, detail) {
  console.log((ok ? "ok   " : "FAIL ") + name + (ok || detail === undefined ? "" : ": " + detail));
  if (!ok) failed += 1;
}

async function query(sql) {
  const r = await fetch(base + "/api/query", {
    method: "POST",
    headers: { Authorization: "Bearer " + token, "Content-Type": "application/json" },
    body: JSON.stringify({ sql }),
  });
  return { status: r.status, body: await r.json() };
}

// Tables the corpus reads.
const setup = await fetch(base + "/api/reservoir/jobs", {
  method: "POST",
  headers: { Authorization: "Bearer " + token },
  body: "CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT);",
});
check("setup job admitted", setup.status === 201, setup.status);
const setupId = (await setup.json()).id;
for (let i = 0; i < 500; i += 1) {
  const j = await (await fetch(base + "/api/reservoir/job?id=" + setupId, {
    headers: { Authorization: "Bearer " + token },
  })).json();
  if (j.state === "completed") break;
  await new Promise((r) => setTimeout(r, 20));
}

// ---- routing agrees with the server ----------------------------------------
const corpus = [
  "SELECT 1",
  "select * from t",
  "  -- a comment\n SELECT 2 ;",
  "/* block */ VALUES (1), (2)",
  "WITH x AS (SELECT 1) SELECT * FROM x",
  "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 3) SELECT n FROM c",
  "EXPLAIN SELECT 1",
  "SELECT 'a;b', \"x;y\" FROM (SELECT 1 AS \"x;y\")",
  "SELECT 1 UNION SELECT 2",
  "(SELECT 1)",
  "SELECT replace('a', 'a', 'b')",
  "INSERT INTO t(b) VALUES ('x')",
  "insert into t(b) values ('x') returning *",
  "UPDATE t SET b = 'y'",
  "DELETE FROM t",
  "REPLACE INTO t VALUES (1, 'z')",
  "CREATE TABLE u(a)",
  "DROP TABLE IF EXISTS nope",
  "ALTER TABLE t ADD COLUMN c",
  "BEGIN",
  "COMMIT",
  "SELECT 1; SELECT 2",
  "SELECT 1; -- trailing comment only\n",
  "WITH x AS (SELECT 1) INSERT INTO t(b) SELECT * FROM x",
  "WITH x AS (SELECT 1) DELETE FROM t WHERE a IN (SELECT * FROM x)",
  "CREATE INDEX ib ON t(b)",
];
for (const sql of corpus) {
  const route = P.classify(sql).route;
  const r = await query(sql);
  const refused = r.status === 400 && r.body.error.code === "invalid_input" &&
    (r.body.error.message.includes("Reservoir") || r.body.error.message.includes("exactly one statement"));
  if (route === "query") {
    check("read stays a read: " + JSON.stringify(sql), r.status === 200, JSON.stringify(r.body));
  } else {
    check("write goes to the Reservoir: " + JSON.stringify(sql), route === "reservoir" && refused,
      route + " / " + r.status + " " + JSON.stringify(r.body));
  }
}
// One statement with a trailing empty one is still one statement.
check("trailing semicolons", P.statements("SELECT 1;;  ;").length === 1);
check("quotes hide semicolons", P.statements("SELECT 'a;' || \"b;\" || [c;] || `d;`").length === 1);
check("comments hide semicolons", P.statements("SELECT 1 -- ;\n /* ; */").length === 1);
check("doubled quotes", P.statements("SELECT 'it''s; ok'").length === 1);
check("empty text", P.classify("  -- nothing\n").route === "none");
// Over 250,000 characters (code points, like the server) goes to the Reservoir.
const big = "SELECT '" + "é".repeat(250000) + "'";
check("long text to the Reservoir", P.classify(big).route === "reservoir");
check("just at the limit stays a read", P.classify("SELECT 1" + " ".repeat(250000 - 8)).route === "query");
const bigAnswer = await query(big);
check("the server agrees it is too long", bigAnswer.status === 413, bigAnswer.status);
check("a typo goes to the server for its syntax error", P.classify("SELEC 1").route === "query");

// ---- export -------------------------------------------------------------------
const page = P.parseExact('{"columns":["a","b,c"],"rows":[[9007199254740993,"x\\"y"],[1.0,null],[{"hex":"00ff"},"l1\\nl2"]]}');
const csv = P.toCsv(page.columns, page.rows);
check("CSV", csv === 'a,"b,c"\r\n9007199254740993,"x""y"\r\n1.0,\r\n00ff,"l1\nl2"\r\n', JSON.stringify(csv));
const json = P.toJson(page.columns, page.rows);
check("JSON keeps exact numbers", json.includes("9007199254740993") && json.includes("1.0") && json.includes('{"hex": "00ff"}'), json);
check("JSON parses", JSON.parse(json).rows.length === 3);
check("version marker", typeof P.version === "string" && script.includes("asadb-panel-version: " + P.version));

if (failed) {
  console.log(failed + " checks failed");
  process.exit(1);
}
console.log("all checks passed");
