-- seed 1796412696787843541: Rows at statement 4 (memory store)
--     sqlite: 4 rows
--       [Integer(1), Text(" 1"), Integer(1)]
--       [Integer(2), Text(" 1"), Integer(1)]
--       [Integer(4), Text(" 1"), Integer(1)]
--       [Integer(3), Text(" 1"), Integer(0)]
--     asadb:  5 rows
--       [Integer(1), Text(" 1"), Integer(1)]
--       [Integer(2), Text(" 1"), Integer(1)]
--       [Integer(3), Text(" 1"), Integer(1)]
--       [Integer(4), Text(" 1"), Integer(1)]
--       [Integer(3), Text(" 1"), Integer(0)]
--   shrunk session:
--     CREATE TABLE t0(c0 TEXT, c1 VARCHAR(10) COLLATE NOCASE, c2 TEXT, c3 DECIMAL(10,2));
--     INSERT INTO t0 VALUES (-1e308, 'São Paulo', 2147483647, '1.5');
--     INSERT OR IGNORE INTO t0 VALUES ('[a-c]*', 4, 10, 4), (X'00', X'FF', X'4142', '%b%'), ('b', 0.0, 9223372036854775806, -9223372036854775808), ('y ', CAST(X'41FF42' AS TEXT), 1, '%'), ('0', 'x', 1e3, 9.223372036854775807e18), (0.151806728945089886206923794224573882182e-34, -5, '', 2), (-0.0, 'A', 100, -1), (CAST(X'E282AC' AS TEXT), 'X', 100, 5);
--     INSERT INTO t0 VALUES ('a', 0.0, 1.0, X'FF'), ('0', 1e400, '1 ', '😀'), (X'C3A7', -1e308, X'00', 2), (2, 'y ', 2147483647, CAST(X'E282AC' AS TEXT)), (0.0, CAST(X'E282AC' AS TEXT), 100, 9223372036854775806), (0.0, 1, 'Müller', 9.223372036854775807e18), (0, 100, '10', 'a');
--     SELECT DISTINCT count(a00.c1) OVER (ORDER BY a00.c3 DESC NULLS FIRST RANGE BETWEEN 2 PRECEDING AND 2 FOLLOWING), ' 1', ((SELECT sum(a10.c1) FROM t0 AS a10) - a00.c1 < a00.c0) FROM t0 AS a00;
CREATE TABLE t0(c0 TEXT, c1 VARCHAR(10) COLLATE NOCASE, c2 TEXT, c3 DECIMAL(10,2))
----
INSERT INTO t0 VALUES (-1e308, 'São Paulo', 2147483647, '1.5')
----
INSERT OR IGNORE INTO t0 VALUES ('[a-c]*', 4, 10, 4), (X'00', X'FF', X'4142', '%b%'), ('b', 0.0, 9223372036854775806, -9223372036854775808), ('y ', CAST(X'41FF42' AS TEXT), 1, '%'), ('0', 'x', 1e3, 9.223372036854775807e18), (0.151806728945089886206923794224573882182e-34, -5, '', 2), (-0.0, 'A', 100, -1), (CAST(X'E282AC' AS TEXT), 'X', 100, 5)
----
INSERT INTO t0 VALUES ('a', 0.0, 1.0, X'FF'), ('0', 1e400, '1 ', '😀'), (X'C3A7', -1e308, X'00', 2), (2, 'y ', 2147483647, CAST(X'E282AC' AS TEXT)), (0.0, CAST(X'E282AC' AS TEXT), 100, 9223372036854775806), (0.0, 1, 'Müller', 9.223372036854775807e18), (0, 100, '10', 'a')
----
SELECT DISTINCT count(a00.c1) OVER (ORDER BY a00.c3 DESC NULLS FIRST RANGE BETWEEN 2 PRECEDING AND 2 FOLLOWING), ' 1', ((SELECT sum(a10.c1) FROM t0 AS a10) - a00.c1 < a00.c0) FROM t0 AS a00
