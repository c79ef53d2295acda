-- seed 1796411371510236612: Rows at statement 5 (memory store)
--     sqlite: 8 rows
--       [Integer(-5), Integer(-5)]
--       [Integer(-5), Integer(-5)]
--       [Integer(-5), Integer(-5)]
--       [Integer(-5), Integer(-5)]
--       [Integer(-5), Integer(-5)]
--       [Integer(-5), Integer(-5)]
--       [Integer(-5), Integer(-5)]
--       [Integer(-5), Integer(-5)]
--     asadb:  7 rows
--       [Integer(-5), Integer(-5)]
--       [Integer(-5), Integer(-5)]
--       [Integer(-5), Integer(-5)]
--       [Integer(-5), Integer(-5)]
--       [Integer(-5), Integer(-5)]
--       [Integer(-5), Integer(-5)]
--       [Integer(-5), Integer(-5)]
--   shrunk session:
--     CREATE TABLE t0(c0 DOUBLE, c1 FLOAT);
--     INSERT INTO t0 VALUES ('a ', -5), ('-1', X''), (0x7FFFFFFFFFFFFFFF, X'FF'), ('1 ', 'x'), (0xFFFFFFFFFFFFFFFF, 'X'), (-0.0, 4294967296), ('10', CAST(X'41FF42' AS TEXT)), (1.5, '[a-c]*');
--     CREATE TABLE t1(c0 CLOB, c1 INT, c2 BLOB, c3 TEXT, c4 BLOB);
--     INSERT OR IGNORE INTO t1 VALUES (3, 'São Paulo', 1, 0x7FFFFFFFFFFFFFFF, -1), (5, 1e400, -1, X'41', 9.2e18), ('x', 3.14159, 'X', X'4142', -5), ('_', '9223372036854775808', 0.0, 'X', 7);
--     UPDATE t1 SET c1 = NULL, c3 = NULL;
--     SELECT a00.c4, a00.c4 AS "col1" FROM t1 AS a00 INNER JOIN t0 AS a01 ON a00.c4 = a01.c1 LEFT OUTER JOIN t0 AS a02 ON ('1 ', 9223372036854775808, a00.c3) NOT IN ((a02.c0, a00.c1, 9210000000000000000), (a00.c2, a02.c1, '_'));
CREATE TABLE t0(c0 DOUBLE, c1 FLOAT)
----
INSERT INTO t0 VALUES ('a ', -5), ('-1', X''), (0x7FFFFFFFFFFFFFFF, X'FF'), ('1 ', 'x'), (0xFFFFFFFFFFFFFFFF, 'X'), (-0.0, 4294967296), ('10', CAST(X'41FF42' AS TEXT)), (1.5, '[a-c]*')
----
CREATE TABLE t1(c0 CLOB, c1 INT, c2 BLOB, c3 TEXT, c4 BLOB)
----
INSERT OR IGNORE INTO t1 VALUES (3, 'São Paulo', 1, 0x7FFFFFFFFFFFFFFF, -1), (5, 1e400, -1, X'41', 9.2e18), ('x', 3.14159, 'X', X'4142', -5), ('_', '9223372036854775808', 0.0, 'X', 7)
----
UPDATE t1 SET c1 = NULL, c3 = NULL
----
SELECT a00.c4, a00.c4 AS "col1" FROM t1 AS a00 INNER JOIN t0 AS a01 ON a00.c4 = a01.c1 LEFT OUTER JOIN t0 AS a02 ON ('1 ', 9223372036854775808, a00.c3) NOT IN ((a02.c0, a00.c1, 9210000000000000000), (a00.c2, a02.c1, '_'))
