-- seed 1796411371510233375: Rows at statement 2 (memory store)
--     sqlite: 1 rows
--       [Null, Text("�" (x'C3'))]
--     asadb:  0 rows
--   shrunk session:
--     CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 TEXT NOT NULL DEFAULT 0, c2 VARCHAR(10), c3 CLOB CHECK (c3 IS NULL OR c3 <> 13));
--     CREATE TABLE t1(c0 CHECK (c0 IS NULL OR c0 <> 13), c1 FLOAT NOT NULL DEFAULT 0 DEFAULT 1.5, c2 BIGINT);
--     SELECT ((SELECT max((SELECT total(replace(a02.c0, a10.c0, 100)) FROM t1 AS a10)) FROM t1 AS a10) & -1) AS "col0", CAST(X'C3' AS TEXT) FROM json_tree('["A","b","\u00e9",null,-0,1e400]') AS a00 RIGHT OUTER JOIN t0 AS a01 ON a00.id = a01.c0 RIGHT OUTER JOIN t1 AS a02 ON 0;
CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 TEXT NOT NULL DEFAULT 0, c2 VARCHAR(10), c3 CLOB CHECK (c3 IS NULL OR c3 <> 13))
----
CREATE TABLE t1(c0 CHECK (c0 IS NULL OR c0 <> 13), c1 FLOAT NOT NULL DEFAULT 0 DEFAULT 1.5, c2 BIGINT)
----
SELECT ((SELECT max((SELECT total(replace(a02.c0, a10.c0, 100)) FROM t1 AS a10)) FROM t1 AS a10) & -1) AS "col0", CAST(X'C3' AS TEXT) FROM json_tree('["A","b","\u00e9",null,-0,1e400]') AS a00 RIGHT OUTER JOIN t0 AS a01 ON a00.id = a01.c0 RIGHT OUTER JOIN t1 AS a02 ON 0
