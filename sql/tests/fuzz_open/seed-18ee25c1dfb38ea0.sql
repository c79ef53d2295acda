-- seed 1796414815979409056: Rows at statement 2 (memory store)
--     sqlite: 1 rows
--       [Integer(3), Text("São Paulo"), Text("-1")]
--     asadb:  1 rows
--       [Integer(3), Real(9.223372036854776e18), Text("0.0")]
--   shrunk session:
--     CREATE TABLE t2(c0 INTEGER PRIMARY KEY, c1, c2 VARCHAR(10), c3 BIGINT UNIQUE);
--     INSERT INTO t2 VALUES (-2, 3, 0.0, 4), (7, 'y ', '-1', 'Abc'), (1.0, 'abc', 9210000000000000000, 2) ON CONFLICT(c0) DO NOTHING;
--     SELECT a00.c1, CASE WHEN a01.c1 > (SELECT max(DISTINCT CAST(a00.c1 AS INTEGER)) FROM t2 AS a10) THEN 'São Paulo' ELSE 9.223372036854775807e18 END, a01.c2 FROM t2 AS a00 CROSS JOIN t2 AS a01;
CREATE TABLE t2(c0 INTEGER PRIMARY KEY, c1, c2 VARCHAR(10), c3 BIGINT UNIQUE)
----
INSERT INTO t2 VALUES (-2, 3, 0.0, 4), (7, 'y ', '-1', 'Abc'), (1.0, 'abc', 9210000000000000000, 2) ON CONFLICT(c0) DO NOTHING
----
SELECT a00.c1, CASE WHEN a01.c1 > (SELECT max(DISTINCT CAST(a00.c1 AS INTEGER)) FROM t2 AS a10) THEN 'São Paulo' ELSE 9.223372036854775807e18 END, a01.c2 FROM t2 AS a00 CROSS JOIN t2 AS a01
