-- seed 1796411371510240661: Rows at statement 3 (memory store)
--     sqlite: 1 rows
--       [Null, Text("A"), Real(9.21e18)]
--     asadb:  0 rows
--   shrunk session:
--     CREATE TABLE t0(c0 DECIMAL(10,2) COLLATE NOCASE, c1 BIGINT);
--     CREATE TABLE t1(c0 VARCHAR(10), c1 INTEGER);
--     CREATE TABLE t2(c0 INTEGER PRIMARY KEY, c1 NUMERIC NOT NULL DEFAULT 0, c2 BLOB DEFAULT 1.5, UNIQUE (c0, c1));
--     SELECT max((SELECT avg((SELECT avg(iif(a00.c1, a10.c1, '*')) FROM t0 AS a10)) FROM t1 AS a10), a00.c1), 'A', 9.21e18 FROM t2 AS a00 ORDER BY 1, 2, 3 DESC;
CREATE TABLE t0(c0 DECIMAL(10,2) COLLATE NOCASE, c1 BIGINT)
----
CREATE TABLE t1(c0 VARCHAR(10), c1 INTEGER)
----
CREATE TABLE t2(c0 INTEGER PRIMARY KEY, c1 NUMERIC NOT NULL DEFAULT 0, c2 BLOB DEFAULT 1.5, UNIQUE (c0, c1))
----
SELECT max((SELECT avg((SELECT avg(iif(a00.c1, a10.c1, '*')) FROM t0 AS a10)) FROM t1 AS a10), a00.c1), 'A', 9.21e18 FROM t2 AS a00 ORDER BY 1, 2, 3 DESC
