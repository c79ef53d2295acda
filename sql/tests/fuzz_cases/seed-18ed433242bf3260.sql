-- seed 1796165709537948256: OursFailed at statement 1 (memory store)
--     sqlite: Done
--     asadb:  Err("syntax error: sql parser error: Expected: SELECT, VALUES, or a subquery in the query body, found: REPLACE at Line: 1, Column: 62")
--   shrunk session:
--     CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 DECIMAL(10,2), c2 CLOB, c3 BLOB);
--     WITH w AS (SELECT 'ABC', a10.c0, a10.c3, 1e3 FROM t0 AS a10) REPLACE INTO t0 SELECT * FROM w ORDER BY 1, 2, 3, 4;
CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 DECIMAL(10,2), c2 CLOB, c3 BLOB)
----
WITH w AS (SELECT 'ABC', a10.c0, a10.c3, 1e3 FROM t0 AS a10) REPLACE INTO t0 SELECT * FROM w ORDER BY 1, 2, 3, 4
