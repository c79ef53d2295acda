-- seed 1796165709537948340: OursFailed at statement 1 (memory store)
--     sqlite: 0 rows
--     asadb:  Err("syntax error: sql parser error: Expected: ), found: COLLATE at Line: 1, Column: 21")
--   shrunk session:
--     CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 CLOB COLLATE NOCASE, c2 VARCHAR(10), c3 TEXT);
--     SELECT ('_' IS NULL COLLATE BINARY), a00.c3 AS "名前1" FROM t1 AS a00 ORDER BY 1, 2 DESC;
CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 CLOB COLLATE NOCASE, c2 VARCHAR(10), c3 TEXT)
----
SELECT ('_' IS NULL COLLATE BINARY), a00.c3 AS "名前1" FROM t1 AS a00 ORDER BY 1, 2 DESC
