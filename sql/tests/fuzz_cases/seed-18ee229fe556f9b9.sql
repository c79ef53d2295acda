-- seed 1796411371510233529: Rows at statement 2 (memory store)
--     sqlite: 1 rows
--       [Null, Null, Text("%")]
--     asadb:  0 rows
--   shrunk session:
--     CREATE TABLE t0(c0 REAL UNIQUE CHECK (c0 IS NULL OR c0 <> 13), c1 FLOAT UNIQUE, c2 FLOAT);
--     CREATE TABLE t2(c0 INTEGER PRIMARY KEY, c1 INT, c2 TEXT, c3 BOOLEAN COLLATE NOCASE);
--     SELECT (SELECT max((SELECT min(a10.c0) FROM t2 AS a10 WHERE a00.c0 <> a10.c2)) AS "😀0" FROM t2 AS a10), a00.c0, '%' FROM t0 AS a00;
CREATE TABLE t0(c0 REAL UNIQUE CHECK (c0 IS NULL OR c0 <> 13), c1 FLOAT UNIQUE, c2 FLOAT)
----
CREATE TABLE t2(c0 INTEGER PRIMARY KEY, c1 INT, c2 TEXT, c3 BOOLEAN COLLATE NOCASE)
----
SELECT (SELECT max((SELECT min(a10.c0) FROM t2 AS a10 WHERE a00.c0 <> a10.c2)) AS "😀0" FROM t2 AS a10), a00.c0, '%' FROM t0 AS a00
