-- seed 1796411371510243198: OursSucceeded at statement 2 (memory store)
--     sqlite: Err("misuse of aggregate: total() in SELECT (SELECT total(a10.key) FROM json_each('[1,2,3]', '$.a.b.c') AS a10 WHERE (a10.type, a10.atom) < (SELECT total(a10.path) FILTER (WHERE EXISTS (SELECT a10.c2 FROM t0 AS a10)), max(a10.c3) FROM t1 AS a10)), a10.c1 FROM t1 AS a10 ORDER BY 1, 2 LIMIT 1 at offset 111")
--     asadb:  0 rows
--   shrunk session:
--     CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 CHECK (c1 IS NULL OR c1 <> 13), c2 CLOB, c3 BIGINT COLLATE NOCASE, c4 FLOAT, UNIQUE (c0, c1));
--     CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 INT, c2 BIGINT, c3 NUMERIC UNIQUE, UNIQUE (c0, c1));
--     SELECT (SELECT total(a10.key) FROM json_each('[1,2,3]', '$.a.b.c') AS a10 WHERE (a10.type, a10.atom) < (SELECT total(a10.path) FILTER (WHERE EXISTS (SELECT a10.c2 FROM t0 AS a10)), max(a10.c3) FROM t1 AS a10)), a10.c1 FROM t1 AS a10 ORDER BY 1, 2 LIMIT 1;
CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 CHECK (c1 IS NULL OR c1 <> 13), c2 CLOB, c3 BIGINT COLLATE NOCASE, c4 FLOAT, UNIQUE (c0, c1))
----
CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 INT, c2 BIGINT, c3 NUMERIC UNIQUE, UNIQUE (c0, c1))
----
SELECT (SELECT total(a10.key) FROM json_each('[1,2,3]', '$.a.b.c') AS a10 WHERE (a10.type, a10.atom) < (SELECT total(a10.path) FILTER (WHERE EXISTS (SELECT a10.c2 FROM t0 AS a10)), max(a10.c3) FROM t1 AS a10)), a10.c1 FROM t1 AS a10 ORDER BY 1, 2 LIMIT 1
