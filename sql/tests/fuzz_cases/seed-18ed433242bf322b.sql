-- seed 1796165709537948203: OursFailed at statement 2 (memory store)
--     sqlite: Done
--     asadb:  Err("syntax error: sql parser error: Expected: SELECT, VALUES, or a subquery in the query body, found: REPLACE at Line: 1, Column: 63")
--   shrunk session:
--     CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 BIGINT, c2 FLOAT DEFAULT NULL);
--     CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 NUMERIC, c2 FLOAT DEFAULT -1, c3 NUMERIC DEFAULT -1);
--     WITH w AS (SELECT a10.c0, -9.3e18, NULL, 'a ' FROM t0 AS a10) REPLACE INTO t1 SELECT * FROM w ORDER BY 1, 2, 3, 4;
CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 BIGINT, c2 FLOAT DEFAULT NULL)
----
CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 NUMERIC, c2 FLOAT DEFAULT -1, c3 NUMERIC DEFAULT -1)
----
WITH w AS (SELECT a10.c0, -9.3e18, NULL, 'a ' FROM t0 AS a10) REPLACE INTO t1 SELECT * FROM w ORDER BY 1, 2, 3, 4
