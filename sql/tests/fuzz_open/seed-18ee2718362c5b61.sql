-- seed 1796416286308981601: Rows at statement 6 (memory store)
--     sqlite: 1 rows
--       [Null, Null, Integer(52)]
--     asadb:  1 rows
--       [Null, Null, Integer(54)]
--   shrunk session:
--     CREATE TABLE t0(c0 VARCHAR(10) NOT NULL DEFAULT 0 DEFAULT NULL, c1 BOOLEAN COLLATE RTRIM, c2 INT);
--     INSERT INTO t0 VALUES ('1.5', 'y ', -9223372036854775807);
--     CREATE TABLE t2(c0 NUMERIC, c1 INT, c2 DOUBLE, c3 DECIMAL(10,2) NOT NULL DEFAULT 0, c4 INT);
--     UPDATE t0 SET c2 = NULL FROM (SELECT count(*) AS n, max(c0) AS m FROM t2) AS o WHERE o.n IS NOT o.m;
--     UPDATE t0 SET c0 = '+1', c0 = (c0 | c0);
--     INSERT OR IGNORE INTO t0 VALUES (1e400, ' 1', 3), (0xFFFFFFFFFFFFFFFF, ' 1', 2147483647), (CAST(X'C3' AS TEXT), 'b', CAST(X'E282AC' AS TEXT)), (CAST(X'E282AC' AS TEXT), X'41', '1.5'), (' 1', 'y ', 2147483647), ('*', -9223372036854775808, '1.5'), (' 12abc', 'abc', 100);
--     SELECT a02.c2, a02.c2, count('😀') FROM t0 AS a00 INNER JOIN t0 AS a01 ON (a00.c2, a00.c1, a00.c0) NOT IN ((a00.c0, a01.c2, a01.c2), (a01.c2, a00.c1, a01.c0), (-1, a00.c2, a01.c1)) FULL JOIN t2 AS a02 ON 1 GROUP BY a02.c2;
CREATE TABLE t0(c0 VARCHAR(10) NOT NULL DEFAULT 0 DEFAULT NULL, c1 BOOLEAN COLLATE RTRIM, c2 INT)
----
INSERT INTO t0 VALUES ('1.5', 'y ', -9223372036854775807)
----
CREATE TABLE t2(c0 NUMERIC, c1 INT, c2 DOUBLE, c3 DECIMAL(10,2) NOT NULL DEFAULT 0, c4 INT)
----
UPDATE t0 SET c2 = NULL FROM (SELECT count(*) AS n, max(c0) AS m FROM t2) AS o WHERE o.n IS NOT o.m
----
UPDATE t0 SET c0 = '+1', c0 = (c0 | c0)
----
INSERT OR IGNORE INTO t0 VALUES (1e400, ' 1', 3), (0xFFFFFFFFFFFFFFFF, ' 1', 2147483647), (CAST(X'C3' AS TEXT), 'b', CAST(X'E282AC' AS TEXT)), (CAST(X'E282AC' AS TEXT), X'41', '1.5'), (' 1', 'y ', 2147483647), ('*', -9223372036854775808, '1.5'), (' 12abc', 'abc', 100)
----
SELECT a02.c2, a02.c2, count('😀') FROM t0 AS a00 INNER JOIN t0 AS a01 ON (a00.c2, a00.c1, a00.c0) NOT IN ((a00.c0, a01.c2, a01.c2), (a01.c2, a00.c1, a01.c0), (-1, a00.c2, a01.c1)) FULL JOIN t2 AS a02 ON 1 GROUP BY a02.c2
