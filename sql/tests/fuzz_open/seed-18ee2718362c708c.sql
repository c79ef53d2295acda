-- seed 1796416286308987020: Rows at statement 2 (memory store)
--     sqlite: 6 rows
--       [Null, Integer(1)]
--       [Null, Integer(1)]
--       [Null, Integer(1)]
--       [Null, Integer(1)]
--       [Null, Integer(1)]
--       [Null, Integer(1)]
--     asadb:  6 rows
--       [Null, Integer(1)]
--       [Null, Integer(1)]
--       [Null, Integer(1)]
--       [Null, Integer(1)]
--       [Null, Integer(1)]
--       [Null, Integer(2)]
--   shrunk session:
--     CREATE TABLE t0(c0 TEXT, c1 VARCHAR(10), c2 TEXT, c3 NUMERIC, c4 BIGINT, UNIQUE (c0, c1));
--     INSERT INTO t0 VALUES (-3, 'abc', 0.151806728945089886206923794224573882182e-34, 'y ', 1e400), (1e3, -3, -5, 'Abc', '0x10'), ('b', 'ABC', 9.223372036854775807e18, 1e400, 0.5), ('ABC', '1', '9223372036854775808', 1, 9223372036854775806), ('a', X'', '', ' 12abc', 9.223372036854775807e18), (-2, -9223372036854775808, 'X', 'y ', 'y ');
--     SELECT a01.c2, count(a00.c0) OVER (PARTITION BY a01.c1 ORDER BY a00.c4 DESC RANGE BETWEEN 2 PRECEDING AND 2 FOLLOWING) FROM t0 AS a00 LEFT OUTER JOIN t0 AS a01 ON a00.c0 = a01.c4 ORDER BY 1, 2;
CREATE TABLE t0(c0 TEXT, c1 VARCHAR(10), c2 TEXT, c3 NUMERIC, c4 BIGINT, UNIQUE (c0, c1))
----
INSERT INTO t0 VALUES (-3, 'abc', 0.151806728945089886206923794224573882182e-34, 'y ', 1e400), (1e3, -3, -5, 'Abc', '0x10'), ('b', 'ABC', 9.223372036854775807e18, 1e400, 0.5), ('ABC', '1', '9223372036854775808', 1, 9223372036854775806), ('a', X'', '', ' 12abc', 9.223372036854775807e18), (-2, -9223372036854775808, 'X', 'y ', 'y ')
----
SELECT a01.c2, count(a00.c0) OVER (PARTITION BY a01.c1 ORDER BY a00.c4 DESC RANGE BETWEEN 2 PRECEDING AND 2 FOLLOWING) FROM t0 AS a00 LEFT OUTER JOIN t0 AS a01 ON a00.c0 = a01.c4 ORDER BY 1, 2
