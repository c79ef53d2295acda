-- seed 1796165709537948330: OursFailed at statement 1 (memory store)
--     sqlite: Done
--     asadb:  Err("syntax error: sql parser error: Expected: SELECT, VALUES, or a subquery in the query body, found: REPLACE at Line: 1, Column: 48")
--   shrunk session:
--     CREATE TABLE t0(c0 REAL COLLATE RTRIM, c1 NUMERIC CHECK (c1 IS NULL OR c1 <> 13));
--     WITH w AS (SELECT -1e308, ' 1' FROM t0 AS a10) REPLACE INTO t0 SELECT * FROM w ORDER BY 1, 2;
CREATE TABLE t0(c0 REAL COLLATE RTRIM, c1 NUMERIC CHECK (c1 IS NULL OR c1 <> 13))
----
WITH w AS (SELECT -1e308, ' 1' FROM t0 AS a10) REPLACE INTO t0 SELECT * FROM w ORDER BY 1, 2
