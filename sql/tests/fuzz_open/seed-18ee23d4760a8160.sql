-- seed 1796412696787845472: Rows at statement 4 (memory store)
--     sqlite: 5 rows
--       [Text("1.5"), Text("b"), Text("10")]
--       [Text("1.5"), Text("a"), Text("-2.5")]
--       [Text("1.5"), Text("_"), Text("5")]
--       [Text("1.5"), Real(3.0), Text("2")]
--       [Text("1.5"), Real(0.0), Text("3")]
--     asadb:  6 rows
--       [Text("1.5"), Text("b"), Text("10")]
--       [Text("1.5"), Text("a"), Text("-2.5")]
--       [Text("1.5"), Text("_"), Text("5")]
--       [Text("1.5"), Text("A"), Text("1.5")]
--       [Text("1.5"), Real(3.0), Text("2")]
--       [Text("1.5"), Real(0.0), Text("3")]
--   shrunk session:
--     CREATE TABLE t0(c0 BOOLEAN DEFAULT -1, c1 DECIMAL(10,2), c2 VARCHAR(10));
--     REPLACE INTO t0 VALUES (-5, '0', 100);
--     CREATE TABLE t2(c0 NUMERIC, c1 REAL, c2 DOUBLE, c3 VARCHAR(10) UNIQUE, c4 CLOB);
--     INSERT OR REPLACE INTO t2 VALUES ('b', 3, 'abc', 'ABC', 2), (1.0, 'b', 4, 0.0, '10'), ('😀', '_', 'a%', 1e308, 5), ('x', 'A', 9223372036854775808, '1e5', '1.5'), (-9223372036854775808, -0.0, -2, 9223372036854775806, 3), (-9223372036854775808, 'a', CAST(X'C3' AS TEXT), -1, -2.5), (2147483647, 'Abc', '1e5', 0, X'FF');
--     SELECT '1.5', a01.c1, a01.c4 FROM t0 AS a00 INNER JOIN t2 AS a01 ON 1 WHERE a01.c2 NOT IN (SELECT trim(a10.c3) FROM t2 AS a10) ORDER BY 1, 2 DESC, 3;
CREATE TABLE t0(c0 BOOLEAN DEFAULT -1, c1 DECIMAL(10,2), c2 VARCHAR(10))
----
REPLACE INTO t0 VALUES (-5, '0', 100)
----
CREATE TABLE t2(c0 NUMERIC, c1 REAL, c2 DOUBLE, c3 VARCHAR(10) UNIQUE, c4 CLOB)
----
INSERT OR REPLACE INTO t2 VALUES ('b', 3, 'abc', 'ABC', 2), (1.0, 'b', 4, 0.0, '10'), ('😀', '_', 'a%', 1e308, 5), ('x', 'A', 9223372036854775808, '1e5', '1.5'), (-9223372036854775808, -0.0, -2, 9223372036854775806, 3), (-9223372036854775808, 'a', CAST(X'C3' AS TEXT), -1, -2.5), (2147483647, 'Abc', '1e5', 0, X'FF')
----
SELECT '1.5', a01.c1, a01.c4 FROM t0 AS a00 INNER JOIN t2 AS a01 ON 1 WHERE a01.c2 NOT IN (SELECT trim(a10.c3) FROM t2 AS a10) ORDER BY 1, 2 DESC, 3
