-- seed 1796412696787851067: Rows at statement 3 (memory store)
--     sqlite: 2 rows
--       [Text("�" (x'FF')), Text("b")]
--       [Text("�" (x'FF')), Text("b")]
--     asadb:  0 rows
--   shrunk session:
--     CREATE TABLE t1(c0 REAL, c1 BIGINT, c2 REAL);
--     INSERT INTO t1 VALUES (-3, -3, 9223372036854775808), (-1, 0, 1.0), ('1 ', 5, '10'), ('+1', 1e308, ''), (0.5, 7, 3.14159), (9210000000000000000, 'y', '10');
--     UPDATE t1 SET c0 = 'São Paulo', c0 = 9223372036854775807;
--     SELECT CAST(X'FF' AS TEXT), 'b' FROM t1 AS a00 WHERE a00.c0 IN (SELECT (a10.c2 << a00.c1) FROM t1 AS a10);
CREATE TABLE t1(c0 REAL, c1 BIGINT, c2 REAL)
----
INSERT INTO t1 VALUES (-3, -3, 9223372036854775808), (-1, 0, 1.0), ('1 ', 5, '10'), ('+1', 1e308, ''), (0.5, 7, 3.14159), (9210000000000000000, 'y', '10')
----
UPDATE t1 SET c0 = 'São Paulo', c0 = 9223372036854775807
----
SELECT CAST(X'FF' AS TEXT), 'b' FROM t1 AS a00 WHERE a00.c0 IN (SELECT (a10.c2 << a00.c1) FROM t1 AS a10)
