-- seed 1796160353807535929: OursFailed at statement 2 (memory store)
--     sqlite: 0 rows
--     asadb:  Err("syntax error: sql parser error: Expected: ), found: COLLATE at Line: 1, Column: 28")
--   shrunk session:
--     CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 BIGINT, c2 BOOLEAN);
--     CREATE TABLE t2(c0 TEXT, c1 REAL, c2 INTEGER, c3 BOOLEAN DEFAULT NULL, c4 REAL);
--     SELECT (a01.c1 IS NOT NULL COLLATE NOCASE) AS "São0" FROM t0 AS a00 LEFT OUTER JOIN t0 AS a01 ON a00.c0 = a01.c2 CROSS JOIN t2 AS a02;
CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 BIGINT, c2 BOOLEAN)
----
CREATE TABLE t2(c0 TEXT, c1 REAL, c2 INTEGER, c3 BOOLEAN DEFAULT NULL, c4 REAL)
----
SELECT (a01.c1 IS NOT NULL COLLATE NOCASE) AS "São0" FROM t0 AS a00 LEFT OUTER JOIN t0 AS a01 ON a00.c0 = a01.c2 CROSS JOIN t2 AS a02
