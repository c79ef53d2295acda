-- seed 1796411371510239100: Rows at statement 3 (memory store)
--     sqlite: 15 rows
--       [Text("%b%"), Text("y"), Text("0x10")]
--       [Text("5"), Text("X"), Text("Müller")]
--       [Text("abc"), Text("a%"), Real(9.223372036854776e18)]
--       [Text("ção"), Real(inf), Text("ABC")]
--       [Text("-9223372036854775807"), Real(9.223372036854776e18), Text("x")]
--       [Text("-1"), Integer(9223372036854775806), Text("ção")]
--       [Text("a"), Integer(2147483647), Real(-2.0)]
--       [Text("0"), Integer(5), Text("_")]
--       [Text("9.2233720368547758e+18"), Integer(5), Text("%b%")]
--       [Text("-1"), Integer(5), Text("A�B" (x'41FF42'))]
--       [Text("+1"), Integer(4), Real(16.0)]
--       [Text("10"), Integer(2), Real(0.0)]
--     asadb:  15 rows
--       [Text("%b%"), Text("y"), Text("0x10")]
--       [Text("5"), Text("X"), Text("Müller")]
--       [Text("abc"), Text("a%"), Real(9.223372036854776e18)]
--       [Text("ção"), Real(inf), Text("ABC")]
--       [Text("-9223372036854775807"), Real(9.223372036854776e18), Text("x")]
--       [Text("-1"), Real(9.223372036854776e18), Text("ção")]
--       [Text("a"), Integer(2147483647), Real(-2.0)]
--       [Text("0"), Integer(5), Text("_")]
--       [Text("9.2233720368547758e+18"), Integer(5), Text("%b%")]
--       [Text("-1"), Integer(5), Text("A�B" (x'41FF42'))]
--       [Text("+1"), Integer(4), Real(16.0)]
--       [Text("10"), Integer(2), Real(0.0)]
--   shrunk session:
--     CREATE TABLE t1(c0 DOUBLE, c1 CLOB COLLATE RTRIM NOT NULL DEFAULT 0, c2 BOOLEAN COLLATE NOCASE);
--     REPLACE INTO t1 VALUES (-2, 'a', 2147483647), ('_', NULL, 5), ('x', -9223372036854775807, 9.223372036854775807e18), (-0.0, '10', 1.5), ('%b%', 9223372036854775808, 4), ('y', 'x', -0.0), (CAST(X'41FF42' AS TEXT), '-1', 4);
--     INSERT INTO t1 VALUES ('b', 0xFFFFFFFFFFFFFFFF, -2), ('0x10', '%b%', 'y'), (0x10, '+1', 2), ('Müller', 5, 'X'), (1, '[a-c]*', '-1'), ('ABC', 'ção', 1e400), (0x7FFFFFFFFFFFFFFF, 'abc', 'a%'), ('ção', '-1', 9223372036854775806);
--     SELECT a00.c1, max(a00.c2) OVER (ORDER BY a00.c2 DESC RANGE BETWEEN 2 PRECEDING AND 2 FOLLOWING), a00.c0 FROM t1 AS a00;
CREATE TABLE t1(c0 DOUBLE, c1 CLOB COLLATE RTRIM NOT NULL DEFAULT 0, c2 BOOLEAN COLLATE NOCASE)
----
REPLACE INTO t1 VALUES (-2, 'a', 2147483647), ('_', NULL, 5), ('x', -9223372036854775807, 9.223372036854775807e18), (-0.0, '10', 1.5), ('%b%', 9223372036854775808, 4), ('y', 'x', -0.0), (CAST(X'41FF42' AS TEXT), '-1', 4)
----
INSERT INTO t1 VALUES ('b', 0xFFFFFFFFFFFFFFFF, -2), ('0x10', '%b%', 'y'), (0x10, '+1', 2), ('Müller', 5, 'X'), (1, '[a-c]*', '-1'), ('ABC', 'ção', 1e400), (0x7FFFFFFFFFFFFFFF, 'abc', 'a%'), ('ção', '-1', 9223372036854775806)
----
SELECT a00.c1, max(a00.c2) OVER (ORDER BY a00.c2 DESC RANGE BETWEEN 2 PRECEDING AND 2 FOLLOWING), a00.c0 FROM t1 AS a00
