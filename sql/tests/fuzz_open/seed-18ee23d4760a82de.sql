-- seed 1796412696787845854: Rows at statement 3 (memory store)
--     sqlite: 14 rows
--       [Null, Integer(1)]
--       [Null, Integer(2)]
--       [Null, Integer(2)]
--       [Null, Integer(2)]
--       [Null, Integer(2)]
--       [Null, Integer(1)]
--       [Null, Integer(2)]
--       [Null, Integer(2)]
--       [Null, Integer(1)]
--       [Null, Integer(1)]
--       [Null, Integer(1)]
--       [Null, Integer(1)]
--     asadb:  14 rows
--       [Null, Integer(1)]
--       [Null, Integer(2)]
--       [Null, Integer(2)]
--       [Null, Integer(2)]
--       [Null, Integer(2)]
--       [Null, Integer(1)]
--       [Null, Integer(2)]
--       [Null, Integer(1)]
--       [Null, Integer(1)]
--       [Null, Integer(1)]
--       [Null, Integer(1)]
--       [Null, Integer(1)]
--   shrunk session:
--     CREATE TABLE t1(c0 INTEGER, c1 INT COLLATE RTRIM);
--     INSERT INTO t1 VALUES (0xFFFFFFFFFFFFFFFF, '*'), (2, 4294967296), (-1, 100), (-1, 'X'), (1, 100), (3.14159, 1), (9.21e18, 9223372036854775806), ('Abc', 'a%');
--     INSERT INTO t1 VALUES (-2.5, X'00'), ('10', 'ção'), (9.21e18, '9223372036854775808'), (2147483647, -2.5), ('b', 'x'), (2, 3);
--     SELECT NULL, count('abc') OVER (ORDER BY a00.c1 RANGE BETWEEN 2 PRECEDING AND 2 FOLLOWING) FROM t1 AS a00;
CREATE TABLE t1(c0 INTEGER, c1 INT COLLATE RTRIM)
----
INSERT INTO t1 VALUES (0xFFFFFFFFFFFFFFFF, '*'), (2, 4294967296), (-1, 100), (-1, 'X'), (1, 100), (3.14159, 1), (9.21e18, 9223372036854775806), ('Abc', 'a%')
----
INSERT INTO t1 VALUES (-2.5, X'00'), ('10', 'ção'), (9.21e18, '9223372036854775808'), (2147483647, -2.5), ('b', 'x'), (2, 3)
----
SELECT NULL, count('abc') OVER (ORDER BY a00.c1 RANGE BETWEEN 2 PRECEDING AND 2 FOLLOWING) FROM t1 AS a00
