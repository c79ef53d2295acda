-- seed 1796414815979414654: Rows at statement 4 (memory store)
--     sqlite: 7 rows
--       [Text("ção"), Text("y"), Text("ção")]
--       [Text("x"), Text("y"), Text("x")]
--       [Text("b"), Text("y"), Text("b")]
--       [Text("9223372036854775807"), Text("y"), Text("9223372036854775807")]
--       [Text("3"), Text("y"), Text("3")]
--       [Text("10"), Text("y"), Text("10")]
--       [Text("-9.3e+18"), Text("y"), Text("-9.3e+18")]
--     asadb:  7 rows
--       [Text("ção"), Text("y "), Text("ção")]
--       [Text("x"), Text("y "), Text("x")]
--       [Text("b"), Text("y "), Text("b")]
--       [Text("9223372036854775807"), Text("y "), Text("9223372036854775807")]
--       [Text("3"), Text("y "), Text("3")]
--       [Text("10"), Text("y "), Text("10")]
--       [Text("-9.3e+18"), Text("y "), Text("-9.3e+18")]
--   shrunk session:
--     CREATE TABLE t1(c0 DOUBLE CHECK (c0 IS NULL OR c0 <> 13), c1 CLOB COLLATE RTRIM NOT NULL DEFAULT 0, c2 CLOB);
--     INSERT INTO t1 VALUES (1234567890123456789012345678901234567890, 2147483647, 0x7FFFFFFFFFFFFFFF), (1e-308, 1e308, '10'), ('_', 'y', -9.3e18), (4294967296, 0.5, 'b'), (9.2e18, 3.14159, 'ção'), ('-1', -5, 'x');
--     INSERT INTO t1 VALUES (0.151806728945089886206923794224573882182e-34, 'y ', 3);
--     CREATE TABLE t2(c0 INT, c1 FLOAT COLLATE NOCASE, c2);
--     SELECT a00.c2, max(a00.c1) OVER (PARTITION BY a01.value), min(a00.c2) OVER (PARTITION BY a00.c0 ORDER BY a01.id NULLS LAST GROUPS 2 PRECEDING) FROM t1 AS a00 FULL JOIN json_tree(CASE WHEN json_valid(a00.c2) THEN a00.c2 END) AS a01 ON a01.parent >= X'C3A7' LEFT OUTER JOIN t2 AS a02 ON a01.path = a02.c0 ORDER BY 1 DESC, 2, 3;
CREATE TABLE t1(c0 DOUBLE CHECK (c0 IS NULL OR c0 <> 13), c1 CLOB COLLATE RTRIM NOT NULL DEFAULT 0, c2 CLOB)
----
INSERT INTO t1 VALUES (1234567890123456789012345678901234567890, 2147483647, 0x7FFFFFFFFFFFFFFF), (1e-308, 1e308, '10'), ('_', 'y', -9.3e18), (4294967296, 0.5, 'b'), (9.2e18, 3.14159, 'ção'), ('-1', -5, 'x')
----
INSERT INTO t1 VALUES (0.151806728945089886206923794224573882182e-34, 'y ', 3)
----
CREATE TABLE t2(c0 INT, c1 FLOAT COLLATE NOCASE, c2)
----
SELECT a00.c2, max(a00.c1) OVER (PARTITION BY a01.value), min(a00.c2) OVER (PARTITION BY a00.c0 ORDER BY a01.id NULLS LAST GROUPS 2 PRECEDING) FROM t1 AS a00 FULL JOIN json_tree(CASE WHEN json_valid(a00.c2) THEN a00.c2 END) AS a01 ON a01.parent >= X'C3A7' LEFT OUTER JOIN t2 AS a02 ON a01.path = a02.c0 ORDER BY 1 DESC, 2, 3
