-- seed 1796411371510240544: Rows at statement 2 (memory store)
--     sqlite: 1 rows
--       [Null, Text("A"), Null]
--     asadb:  0 rows
--   shrunk session:
--     CREATE TABLE t0(c0 CLOB, c1 TEXT, c2 BOOLEAN, c3 DECIMAL(10,2));
--     CREATE TABLE t1(c0 INT NOT NULL DEFAULT 0, c1 FLOAT UNIQUE, c2 REAL NOT NULL DEFAULT 0);
--     SELECT (SELECT sum((SELECT sum(DISTINCT a10.c3) FROM t0 AS a10 WHERE (X'4142' + a00.c3) GLOB 3)) FROM t1 AS a10), 'A', a00.c0 FROM t0 AS a00;
CREATE TABLE t0(c0 CLOB, c1 TEXT, c2 BOOLEAN, c3 DECIMAL(10,2))
----
CREATE TABLE t1(c0 INT NOT NULL DEFAULT 0, c1 FLOAT UNIQUE, c2 REAL NOT NULL DEFAULT 0)
----
SELECT (SELECT sum((SELECT sum(DISTINCT a10.c3) FROM t0 AS a10 WHERE (X'4142' + a00.c3) GLOB 3)) FROM t1 AS a10), 'A', a00.c0 FROM t0 AS a00
