-- seed 1796411371510242100: Rows at statement 5 (memory store)
--     sqlite: 1 rows
--       [Null, Text("392E32323333373230333638353437373538652B3138"), Null]
--     asadb:  1 rows
--       [Null, Text("312E30652B333038"), Null]
--   shrunk session:
--     CREATE TABLE t0(c0 COLLATE NOCASE, c1, c2 DECIMAL(10,2));
--     CREATE TABLE t1(c0 FLOAT, c1 CLOB, c2 INT, c3 DOUBLE COLLATE NOCASE);
--     INSERT OR REPLACE INTO t1 VALUES ('y ', 'ABC', '0', 1e308);
--     INSERT INTO t1 VALUES (0, 7, '-1', '9223372036854775808');
--     CREATE INDEX i1 ON t1(c2, c3);
--     SELECT (SELECT sum(time(a00.c2, 'weekday 3', '+90 minutes')) FROM t0 AS a10) AS "😀0", hex(a00.c3), NULL FROM t1 AS a00;
CREATE TABLE t0(c0 COLLATE NOCASE, c1, c2 DECIMAL(10,2))
----
CREATE TABLE t1(c0 FLOAT, c1 CLOB, c2 INT, c3 DOUBLE COLLATE NOCASE)
----
INSERT OR REPLACE INTO t1 VALUES ('y ', 'ABC', '0', 1e308)
----
INSERT INTO t1 VALUES (0, 7, '-1', '9223372036854775808')
----
CREATE INDEX i1 ON t1(c2, c3)
----
SELECT (SELECT sum(time(a00.c2, 'weekday 3', '+90 minutes')) FROM t0 AS a10) AS "😀0", hex(a00.c3), NULL FROM t1 AS a00
