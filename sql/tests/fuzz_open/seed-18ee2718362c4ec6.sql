-- seed 1796416286308978374: Rows at statement 3 (memory store)
--     sqlite: 6 rows
--       [Null, Null]
--       [Null, Integer(-9223372036854775807)]
--       [Null, Text("a ")]
--       [Null, Text("abc")]
--       [Integer(10), Text("y")]
--       [Null, Text("y")]
--     asadb:  6 rows
--       [Null, Text("y")]
--       [Null, Text("a ")]
--       [Null, Integer(-9223372036854775807)]
--       [Null, Null]
--       [Null, Text("abc")]
--       [Null, Text("y")]
--   shrunk session:
--     CREATE TABLE t0(c0 DECIMAL(10,2), c1 DOUBLE COLLATE RTRIM, c2 INT, UNIQUE (c0, c1));
--     INSERT OR REPLACE INTO t0 VALUES ('y', 'A', 1.5);
--     INSERT OR IGNORE INTO t0 VALUES ('a ', 'ção', 0.0), (-9223372036854775807, '9223372036854775808', 10), (NULL, X'C3A7', CAST(X'FF' AS TEXT)), ('abc', 100, 0.5), ('y', X'4142', 9223372036854775808);
--     SELECT a01.c2, a00.c0 FROM t0 AS a00 LEFT OUTER JOIN t0 AS a01 ON (a00.c1, -9223372036854775808) IN (('A', a01.c0), ('', 3.14159), (a01.c2, a00.c1));
CREATE TABLE t0(c0 DECIMAL(10,2), c1 DOUBLE COLLATE RTRIM, c2 INT, UNIQUE (c0, c1))
----
INSERT OR REPLACE INTO t0 VALUES ('y', 'A', 1.5)
----
INSERT OR IGNORE INTO t0 VALUES ('a ', 'ção', 0.0), (-9223372036854775807, '9223372036854775808', 10), (NULL, X'C3A7', CAST(X'FF' AS TEXT)), ('abc', 100, 0.5), ('y', X'4142', 9223372036854775808)
----
SELECT a01.c2, a00.c0 FROM t0 AS a00 LEFT OUTER JOIN t0 AS a01 ON (a00.c1, -9223372036854775808) IN (('A', a01.c0), ('', 3.14159), (a01.c2, a00.c1))
