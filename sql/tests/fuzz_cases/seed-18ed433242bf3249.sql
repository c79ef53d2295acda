-- seed 1796165709537948233: OursFailed at statement 1 (memory store)
--     sqlite: Done
--     asadb:  Err("syntax error: sql parser error: Expected: SELECT, VALUES, or a subquery in the query body, found: REPLACE at Line: 1, Column: 50")
--   shrunk session:
--     CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 DOUBLE);
--     WITH w AS (SELECT a10.c1, a10.c1 FROM t1 AS a10) REPLACE INTO t1 SELECT * FROM w ORDER BY 1, 2;
CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 DOUBLE)
----
WITH w AS (SELECT a10.c1, a10.c1 FROM t1 AS a10) REPLACE INTO t1 SELECT * FROM w ORDER BY 1, 2
