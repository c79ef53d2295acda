-- seed 1796165709537948212: Rows at statement 5 (memory store)
--     sqlite: 6 rows
--       [Text(" 1"), Null, Null]
--       [Text(" 1"), Null, Null]
--       [Text(" 1"), Null, Null]
--       [Text(" 1"), Null, Null]
--       [Text(" 1"), Null, Null]
--       [Text(" 1"), Null, Null]
--     asadb:  12 rows
--       [Text(" 1"), Null, Null]
--       [Text(" 1"), Null, Null]
--       [Text(" 1"), Null, Null]
--       [Text(" 1"), Null, Null]
--       [Text(" 1"), Null, Null]
--       [Text(" 1"), Null, Null]
--       [Text(" 1"), Text("X"), Text("X")]
--       [Text(" 1"), Text("X"), Text("X")]
--       [Text(" 1"), Text("X"), Text("X")]
--       [Text(" 1"), Text("X"), Text("X")]
--       [Text(" 1"), Text("X"), Text("X")]
--       [Text(" 1"), Text("X"), Text("X")]
--   shrunk session:
--     CREATE TABLE t0(c0 INT COLLATE NOCASE, c1, c2 BIGINT);
--     REPLACE INTO t0 VALUES ('[a-c]*', 3, NULL), ('1 ', 'y ', 7), ('abc', -5, 'X'), ('x😀y', -1e308, '*');
--     CREATE TABLE t1(c0 COLLATE NOCASE, c1 DECIMAL(10,2), c2 BIGINT COLLATE NOCASE);
--     INSERT INTO t1 VALUES (1e308, 1.0, 'Müller'), (9.223372036854775807e18, 'b', '[a-c]*'), (-2.5, 0, 'x'), (1, '1e5', 'ção'), (0.0, CAST(X'E282AC' AS TEXT), '1.5'), (9223372036854775807, 0, 'ABC');
--     WITH w(x) AS (SELECT c2 FROM t1) DELETE FROM t0 WHERE c2 NOT IN (SELECT x FROM w WHERE x IS NOT NULL);
--     SELECT ' 1', a01.c2, a01.c2 FROM t1 AS a00 CROSS JOIN t0 AS a01;
CREATE TABLE t0(c0 INT COLLATE NOCASE, c1, c2 BIGINT)
----
REPLACE INTO t0 VALUES ('[a-c]*', 3, NULL), ('1 ', 'y ', 7), ('abc', -5, 'X'), ('x😀y', -1e308, '*')
----
CREATE TABLE t1(c0 COLLATE NOCASE, c1 DECIMAL(10,2), c2 BIGINT COLLATE NOCASE)
----
INSERT INTO t1 VALUES (1e308, 1.0, 'Müller'), (9.223372036854775807e18, 'b', '[a-c]*'), (-2.5, 0, 'x'), (1, '1e5', 'ção'), (0.0, CAST(X'E282AC' AS TEXT), '1.5'), (9223372036854775807, 0, 'ABC')
----
WITH w(x) AS (SELECT c2 FROM t1) DELETE FROM t0 WHERE c2 NOT IN (SELECT x FROM w WHERE x IS NOT NULL)
----
SELECT ' 1', a01.c2, a01.c2 FROM t1 AS a00 CROSS JOIN t0 AS a01
