-- seed 1796412696787845345: Rows at statement 3 (memory store)
--     sqlite: 1 rows
--       [Null, Text("1.0"), Text("�" (x'C3'))]
--     asadb:  1 rows
--       [Null, Text("%b%"), Text("�" (x'C3'))]
--   shrunk session:
--     CREATE TABLE t0(c0, c1 DECIMAL(10,2) COLLATE NOCASE, c2 CLOB, c3 REAL COLLATE RTRIM);
--     CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 BIGINT, c2 REAL, c3 DECIMAL(10,2));
--     INSERT OR REPLACE INTO t0 VALUES ('9223372036854775808', 'y ', '%b%', 1234567890123456789012345678901234567890), (0x7FFFFFFFFFFFFFFF, 1e400, 'A', 'x😀y'), (8, 'a ', ' 1', 1e308), (' 12abc', 100, 'X', 7), ('😀', -5, 1.0, 'y ');
--     SELECT (SELECT min(a00.c2) FROM t0 AS a10) AS "São0", a02.c2, CAST(X'C3' AS TEXT) AS "Müller2" FROM t1 AS a00 LEFT JOIN t0 AS a01 ON a00.c1 = a01.c3 FULL JOIN t0 AS a02 ON a01.c3 = a02.c3;
CREATE TABLE t0(c0, c1 DECIMAL(10,2) COLLATE NOCASE, c2 CLOB, c3 REAL COLLATE RTRIM)
----
CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 BIGINT, c2 REAL, c3 DECIMAL(10,2))
----
INSERT OR REPLACE INTO t0 VALUES ('9223372036854775808', 'y ', '%b%', 1234567890123456789012345678901234567890), (0x7FFFFFFFFFFFFFFF, 1e400, 'A', 'x😀y'), (8, 'a ', ' 1', 1e308), (' 12abc', 100, 'X', 7), ('😀', -5, 1.0, 'y ')
----
SELECT (SELECT min(a00.c2) FROM t0 AS a10) AS "São0", a02.c2, CAST(X'C3' AS TEXT) AS "Müller2" FROM t1 AS a00 LEFT JOIN t0 AS a01 ON a00.c1 = a01.c3 FULL JOIN t0 AS a02 ON a01.c3 = a02.c3
