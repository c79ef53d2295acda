-- seed 1796412696787843998: Rows at statement 4 (memory store)
--     sqlite: 4 rows
--       [Integer(1)]
--       [Integer(1)]
--       [Integer(1)]
--       [Integer(10)]
--     asadb:  4 rows
--       [Integer(1)]
--       [Integer(10)]
--       [Text("0x10")]
--       [Text("�" (x'C3'))]
--   shrunk session:
--     CREATE TABLE t1(c0 INT, c1 INTEGER, c2 NUMERIC, c3 DEFAULT 0, c4 NUMERIC);
--     INSERT INTO t1 VALUES (X'41', 1, '0x10', 1.5, 'abc'), ('1', CAST(X'C3' AS TEXT), '10', '1e5', 'abc'), (9223372036854775806, '0x10', 7, 9223372036854775807, 2), ('y ', '10', 9223372036854775808, '😀', CAST(X'41FF42' AS TEXT));
--     BEGIN;
--     UPDATE OR IGNORE t1 SET c1 = c1, c1 = (SELECT count(*) FROM json_each(c3));
--     SELECT a10.c1 FROM t1 AS a10 ORDER BY 1;
CREATE TABLE t1(c0 INT, c1 INTEGER, c2 NUMERIC, c3 DEFAULT 0, c4 NUMERIC)
----
INSERT INTO t1 VALUES (X'41', 1, '0x10', 1.5, 'abc'), ('1', CAST(X'C3' AS TEXT), '10', '1e5', 'abc'), (9223372036854775806, '0x10', 7, 9223372036854775807, 2), ('y ', '10', 9223372036854775808, '😀', CAST(X'41FF42' AS TEXT))
----
BEGIN
----
UPDATE OR IGNORE t1 SET c1 = c1, c1 = (SELECT count(*) FROM json_each(c3))
----
SELECT a10.c1 FROM t1 AS a10 ORDER BY 1
