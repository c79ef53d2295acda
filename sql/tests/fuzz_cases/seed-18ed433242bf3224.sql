-- seed 1796165709537948196: OursFailed at statement 2 (memory store)
--     sqlite: Done
--     asadb:  Err("syntax error: sql parser error: Expected: SELECT, VALUES, or a subquery in the query body, found: REPLACE at Line: 1, Column: 47")
--   shrunk session:
--     CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 CLOB DEFAULT 0);
--     CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 NUMERIC COLLATE NOCASE);
--     WITH w AS (SELECT a10.c0, 'b' FROM t1 AS a10) REPLACE INTO t0 SELECT * FROM w ORDER BY 1, 2;
CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 CLOB DEFAULT 0)
----
CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 NUMERIC COLLATE NOCASE)
----
WITH w AS (SELECT a10.c0, 'b' FROM t1 AS a10) REPLACE INTO t0 SELECT * FROM w ORDER BY 1, 2
