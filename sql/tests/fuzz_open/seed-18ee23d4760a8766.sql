-- seed 1796412696787847014: Rows at statement 3 (memory store)
--     sqlite: 8 rows
--       [Integer(3), Text("Müller"), Null]
--       [Integer(16), Text("Müller"), Null]
--       [Integer(9210000000000000000), Text("Müller"), Null]
--       [Integer(9223372036854775807), Text("Müller"), Null]
--       [Text("X"), Text("Müller"), Null]
--       [Text("a%"), Text("Müller"), Null]
--       [Text("abc"), Text("Müller"), Null]
--       [Blob([65, 66]), Text("Müller"), Null]
--     asadb:  8 rows
--       [Integer(16), Text("Müller"), Null]
--       [Integer(9210000000000000000), Text("Müller"), Null]
--       [Integer(9223372036854775807), Text("Müller"), Null]
--       [Text("X"), Text("Müller"), Null]
--       [Text("a%"), Text("Müller"), Null]
--       [Text("abc"), Text("Müller"), Null]
--       [Text("ção"), Text("Müller"), Null]
--       [Blob([65, 66]), Text("Müller"), Null]
--   shrunk session:
--     CREATE TABLE t1(c0 BIGINT, c1 REAL COLLATE NOCASE, c2 UNIQUE, c3 INTEGER UNIQUE);
--     INSERT OR REPLACE INTO t1 VALUES (-3, 9.21e18, 9.223372036854775807e18, 'a%'), ('1', X'41', 'abc', X'4142'), (X'41', '😀', CAST(X'FF' AS TEXT), 'X'), (-2, 3.14159, -1, 3), ('😀', 'ção', 'a', 'abc'), (1.5, '%b%', 'x', 0x10), ('Müller', 7, ' 1', 9223372036854775807), ('x😀y', 8, X'FF', 'ção');
--     INSERT OR IGNORE INTO t1 VALUES (9.21e18, X'41', -1, 'ção') ON CONFLICT DO UPDATE SET c3 = 9.21e18;
--     SELECT a00.c3, 'Müller' AS "col1", NULL FROM t1 AS a00 ORDER BY 1, 2, 3;
CREATE TABLE t1(c0 BIGINT, c1 REAL COLLATE NOCASE, c2 UNIQUE, c3 INTEGER UNIQUE)
----
INSERT OR REPLACE INTO t1 VALUES (-3, 9.21e18, 9.223372036854775807e18, 'a%'), ('1', X'41', 'abc', X'4142'), (X'41', '😀', CAST(X'FF' AS TEXT), 'X'), (-2, 3.14159, -1, 3), ('😀', 'ção', 'a', 'abc'), (1.5, '%b%', 'x', 0x10), ('Müller', 7, ' 1', 9223372036854775807), ('x😀y', 8, X'FF', 'ção')
----
INSERT OR IGNORE INTO t1 VALUES (9.21e18, X'41', -1, 'ção') ON CONFLICT DO UPDATE SET c3 = 9.21e18
----
SELECT a00.c3, 'Müller' AS "col1", NULL FROM t1 AS a00 ORDER BY 1, 2, 3
