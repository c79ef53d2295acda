-- seed 1796411371510239599: Rows at statement 3 (memory store)
--     sqlite: 8 rows
--       [Text("*"), Real(0.0), Text("[\"9223372036854775807\"]")]
--       [Text("-9.3e+18"), Integer(3), Text("[\"0\"]")]
--       [Text("-9223372036854775807"), Integer(2), Text("[\"-9.3e+18\"]")]
--       [Text("0.0"), Integer(-1), Text("[\"abc\"]")]
--       [Text("2"), Text("-1"), Text("[\"1\"]")]
--       [Text("9223372036854775807"), Text("_"), Text("[\"100\"]")]
--       [Text("ABC"), Text("x"), Text("[\"2\"]")]
--       [Text("X"), Real(1.0), Text("[\"1.0\"]")]
--     asadb:  8 rows
--       [Text("*"), Real(0.0), Text("[\"9223372036854775807\"]")]
--       [Text("-9.3e+18"), Integer(3), Text("[\"9.2e+18\"]")]
--       [Text("-9223372036854775807"), Integer(2), Text("[\"-9.3e+18\"]")]
--       [Text("0.0"), Integer(-1), Text("[\"abc\"]")]
--       [Text("2"), Text("-1"), Text("[\"1\"]")]
--       [Text("9223372036854775807"), Text("_"), Text("[\"100\"]")]
--       [Text("ABC"), Text("x"), Text("[\"0\"]")]
--       [Text("X"), Real(1.0), Text("[\"1.0\"]")]
--   shrunk session:
--     CREATE TABLE t0(c0, c1 CLOB UNIQUE, c2 INT, c3 VARCHAR(10) COLLATE RTRIM UNIQUE CHECK (c3 IS NULL OR c3 <> 13), c4 CLOB);
--     INSERT INTO t0 VALUES ('_', 'X', '%', 100, 0x7FFFFFFFFFFFFFFF), ('-1', 9.223372036854775807e18, -1, '_', 2), (1.0, 9223372036854775807, '10', 1.0, 'X'), (2, 3, 'a', -9.3e18, -9223372036854775807), (3, '10', 0, 9.2e18, -9.3e18), (-1, 'Müller', -1, 'abc', 0.0), (0.0, 7, '%b%', 0x7FFFFFFFFFFFFFFF, '*'), ('x', -0.0, 'a ', 2, 'ABC');
--     UPDATE OR IGNORE t0 SET c3 = CAST(like(c3, 'a') AS INTEGER), c1 = NULL WHERE c3 BETWEEN 0x10 AND 'ção';
--     SELECT a00.c4, a00.c0, json_group_array(a00.c3 ORDER BY a00.c3, typeof(a00.c3), hex(a00.c3)) FROM t0 AS a00 GROUP BY a00.c4, a00.c0;
CREATE TABLE t0(c0, c1 CLOB UNIQUE, c2 INT, c3 VARCHAR(10) COLLATE RTRIM UNIQUE CHECK (c3 IS NULL OR c3 <> 13), c4 CLOB)
----
INSERT INTO t0 VALUES ('_', 'X', '%', 100, 0x7FFFFFFFFFFFFFFF), ('-1', 9.223372036854775807e18, -1, '_', 2), (1.0, 9223372036854775807, '10', 1.0, 'X'), (2, 3, 'a', -9.3e18, -9223372036854775807), (3, '10', 0, 9.2e18, -9.3e18), (-1, 'Müller', -1, 'abc', 0.0), (0.0, 7, '%b%', 0x7FFFFFFFFFFFFFFF, '*'), ('x', -0.0, 'a ', 2, 'ABC')
----
UPDATE OR IGNORE t0 SET c3 = CAST(like(c3, 'a') AS INTEGER), c1 = NULL WHERE c3 BETWEEN 0x10 AND 'ção'
----
SELECT a00.c4, a00.c0, json_group_array(a00.c3 ORDER BY a00.c3, typeof(a00.c3), hex(a00.c3)) FROM t0 AS a00 GROUP BY a00.c4, a00.c0
