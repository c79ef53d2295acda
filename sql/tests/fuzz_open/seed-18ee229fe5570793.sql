-- seed 1796411371510237075: OursSucceeded at statement 2 (memory store)
--     sqlite: Err("JSON cannot hold BLOB values")
--     asadb:  0 rows
--   shrunk session:
--     CREATE TABLE t1(c0 COLLATE NOCASE, c1 FLOAT, c2 INTEGER);
--     REPLACE INTO t1 VALUES ('y ', 0x7FFFFFFFFFFFFFFF, 1.5), ('-1', X'4142', '0x10');
--     SELECT a01.c0, max(a00.c2) FROM t1 AS a00 RIGHT OUTER JOIN t1 AS a01 ON a01.c1 IS NOT json_array(0.0, a01.c1) WHERE a01.c1 IN ('x😀y', -0.0, -9223372036854775808) GROUP BY a01.c0;
CREATE TABLE t1(c0 COLLATE NOCASE, c1 FLOAT, c2 INTEGER)
----
REPLACE INTO t1 VALUES ('y ', 0x7FFFFFFFFFFFFFFF, 1.5), ('-1', X'4142', '0x10')
----
SELECT a01.c0, max(a00.c2) FROM t1 AS a00 RIGHT OUTER JOIN t1 AS a01 ON a01.c1 IS NOT json_array(0.0, a01.c1) WHERE a01.c1 IN ('x😀y', -0.0, -9223372036854775808) GROUP BY a01.c0
