-- seed 1796416286308979249: Rows at statement 3 (memory store)
--     sqlite: 3 rows
--       [Integer(6), Text("+1")]
--       [Text("abc"), Text("7")]
--       [Text("x"), Text("-2.5")]
--     asadb:  2 rows
--       [Text("abc"), Text("7")]
--       [Text("x"), Text("-2.5")]
--   shrunk session:
--     CREATE TABLE t0(c0 BOOLEAN, c1 TEXT, c2 VARCHAR(10) UNIQUE, c3 CLOB);
--     CREATE TABLE t1(c0 BIGINT, c1 CLOB, c2 FLOAT UNIQUE, c3 UNIQUE, c4);
--     INSERT OR IGNORE INTO t0 VALUES ('abc', X'C3A7', 7, 0x7FFFFFFFFFFFFFFF), (0.151806728945089886206923794224573882182e-34, -2, 'y ', 'x'), ('São Paulo', '[a-c]*', '1.5', 0.5), (3, 100, -2, CAST(X'FF' AS TEXT)), (9.223372036854775807e18, 1.5, 1, ''), (' 1', 0, 4294967296, 0.151806728945089886206923794224573882182e-34), (6, 'Müller', '+1', 'a%'), ('x', CAST(X'C3' AS TEXT), -2.5, '1');
--     SELECT a00.c0, group_concat(a00.c2 ORDER BY a00.c2, typeof(a00.c2), hex(a00.c2)) AS "Müller1" FROM t0 AS a00 LEFT JOIN t1 AS a01 ON 0 GROUP BY a00.c0, a01.c0 HAVING min((a00.c1 COLLATE NOCASE)) > '_';
CREATE TABLE t0(c0 BOOLEAN, c1 TEXT, c2 VARCHAR(10) UNIQUE, c3 CLOB)
----
CREATE TABLE t1(c0 BIGINT, c1 CLOB, c2 FLOAT UNIQUE, c3 UNIQUE, c4)
----
INSERT OR IGNORE INTO t0 VALUES ('abc', X'C3A7', 7, 0x7FFFFFFFFFFFFFFF), (0.151806728945089886206923794224573882182e-34, -2, 'y ', 'x'), ('São Paulo', '[a-c]*', '1.5', 0.5), (3, 100, -2, CAST(X'FF' AS TEXT)), (9.223372036854775807e18, 1.5, 1, ''), (' 1', 0, 4294967296, 0.151806728945089886206923794224573882182e-34), (6, 'Müller', '+1', 'a%'), ('x', CAST(X'C3' AS TEXT), -2.5, '1')
----
SELECT a00.c0, group_concat(a00.c2 ORDER BY a00.c2, typeof(a00.c2), hex(a00.c2)) AS "Müller1" FROM t0 AS a00 LEFT JOIN t1 AS a01 ON 0 GROUP BY a00.c0, a01.c0 HAVING min((a00.c1 COLLATE NOCASE)) > '_'
