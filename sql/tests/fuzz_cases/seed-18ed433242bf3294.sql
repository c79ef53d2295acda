-- seed 1796165709537948308: OursFailed at statement 2 (memory store)
--     sqlite: Done
--     asadb:  Err("syntax error: sql parser error: Expected: SELECT, VALUES, or a subquery in the query body, found: REPLACE at Line: 1, Column: 58")
--   shrunk session:
--     CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 CLOB, c2 VARCHAR(10), c3 VARCHAR(10), c4 BIGINT COLLATE RTRIM, UNIQUE (c0, c1));
--     CREATE TABLE t1(c0 BIGINT, c1 BIGINT, c2 VARCHAR(10) CHECK (c2 IS NULL OR c2 <> 13));
--     WITH w AS (SELECT a10.c3, a10.c2, a10.c2 FROM t0 AS a10) REPLACE INTO t1 SELECT * FROM w ORDER BY 1, 2, 3;
CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 CLOB, c2 VARCHAR(10), c3 VARCHAR(10), c4 BIGINT COLLATE RTRIM, UNIQUE (c0, c1))
----
CREATE TABLE t1(c0 BIGINT, c1 BIGINT, c2 VARCHAR(10) CHECK (c2 IS NULL OR c2 <> 13))
----
WITH w AS (SELECT a10.c3, a10.c2, a10.c2 FROM t0 AS a10) REPLACE INTO t1 SELECT * FROM w ORDER BY 1, 2, 3
