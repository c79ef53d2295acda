-- seed 1796165709537948357: OursFailed at statement 1 (memory store)
--     sqlite: Done
--     asadb:  Err("syntax error: sql parser error: Expected: SELECT, VALUES, or a subquery in the query body, found: REPLACE at Line: 1, Column: 55")
--   shrunk session:
--     CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 REAL, c2 DOUBLE);
--     WITH w AS (SELECT 'a', a10.c1, a10.c1 FROM t0 AS a10) REPLACE INTO t0 SELECT * FROM w ORDER BY 1, 2, 3;
CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 REAL, c2 DOUBLE)
----
WITH w AS (SELECT 'a', a10.c1, a10.c1 FROM t0 AS a10) REPLACE INTO t0 SELECT * FROM w ORDER BY 1, 2, 3
