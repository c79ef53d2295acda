-- seed 1796412696787844927: OursSucceeded at statement 3 (memory store)
--     sqlite: Err("JSON cannot hold BLOB values")
--     asadb:  0 rows
--   shrunk session:
--     CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 CLOB COLLATE RTRIM, c2 DECIMAL(10,2) DEFAULT -1);
--     CREATE TABLE t1(c0 CLOB, c1 BOOLEAN UNIQUE);
--     INSERT INTO t1 VALUES (X'FF', '10');
--     SELECT a00.c1, 'ABC' FROM t1 AS a00 INNER JOIN t0 AS a01 ON a00.c1 = a01.c0 WHERE json_set('"str"', '$', a00.c0) != a00.c1 ORDER BY 1, 2 LIMIT 3 OFFSET 1;
CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 CLOB COLLATE RTRIM, c2 DECIMAL(10,2) DEFAULT -1)
----
CREATE TABLE t1(c0 CLOB, c1 BOOLEAN UNIQUE)
----
INSERT INTO t1 VALUES (X'FF', '10')
----
SELECT a00.c1, 'ABC' FROM t1 AS a00 INNER JOIN t0 AS a01 ON a00.c1 = a01.c0 WHERE json_set('"str"', '$', a00.c0) != a00.c1 ORDER BY 1, 2 LIMIT 3 OFFSET 1
