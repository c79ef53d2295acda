-- seed 1796165709537948165: OursFailed at statement 1 (memory store)
--     sqlite: Done
--     asadb:  Err("syntax error: sql parser error: Expected: SELECT, VALUES, or a subquery in the query body, found: REPLACE at Line: 1, Column: 81")
--   shrunk session:
--     CREATE TABLE t0(c0 VARCHAR(10), c1 DOUBLE, c2 VARCHAR(10) UNIQUE, c3 VARCHAR(10));
--     WITH w AS (SELECT a10.c3, 9.223372036854775807e18, NULL, a10.c2 FROM t0 AS a10) REPLACE INTO t0 SELECT * FROM w ORDER BY 1, 2, 3, 4;
CREATE TABLE t0(c0 VARCHAR(10), c1 DOUBLE, c2 VARCHAR(10) UNIQUE, c3 VARCHAR(10))
----
WITH w AS (SELECT a10.c3, 9.223372036854775807e18, NULL, a10.c2 FROM t0 AS a10) REPLACE INTO t0 SELECT * FROM w ORDER BY 1, 2, 3, 4
