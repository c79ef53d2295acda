-- seed 1796411371510237895: OursSucceeded at statement 2 (memory store)
--     sqlite: Err("misuse of aggregate: sum() in SELECT a00.value AS \"col0\", 100 FROM json_each('-1.5e3') AS a00 WHERE a00.parent IN (SELECT sum((SELECT sum(a10.c1) FILTER (WHERE (a10.c0 / a00.atom) >= a10.c1) FROM t0 AS a10)) FROM t1 AS a10) ORDER BY 1 DESC, 2 DESC at offset 92")
--     asadb:  0 rows
--   shrunk session:
--     CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 CLOB UNIQUE);
--     CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 TEXT);
--     SELECT a00.value AS "col0", 100 FROM json_each('-1.5e3') AS a00 WHERE a00.parent IN (SELECT sum((SELECT sum(a10.c1) FILTER (WHERE (a10.c0 / a00.atom) >= a10.c1) FROM t0 AS a10)) FROM t1 AS a10) ORDER BY 1 DESC, 2 DESC;
CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 CLOB UNIQUE)
----
CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 TEXT)
----
SELECT a00.value AS "col0", 100 FROM json_each('-1.5e3') AS a00 WHERE a00.parent IN (SELECT sum((SELECT sum(a10.c1) FILTER (WHERE (a10.c0 / a00.atom) >= a10.c1) FROM t0 AS a10)) FROM t1 AS a10) ORDER BY 1 DESC, 2 DESC
