-- x AND 0 / x OR 1 as SQLite's code generator simplifies them
-- (sqlite3ExprSimplifiedAndOr): x is resolved but never evaluated — no
-- integer overflow, no aggregate misuse — except where a WHERE's top-level
-- AND chain splits it into terms first.
SELECT 1 AND 5, 5 AND 1, 0 OR 5, 5 OR 0, 1 OR 5, 0 AND 'x', 2 AND 0.5, 'a' OR 0
----
CREATE TABLE t(a)
----
INSERT INTO t VALUES (5), (0.5), (NULL), ('x')
----
SELECT 1 AND a, a OR 0, a AND 1, 0 OR a FROM t
----
SELECT (abs(-9223372036854775807 - 1) > 0) AND 0
----
SELECT 0 AND (abs(-9223372036854775807 - 1) > 0)
----
SELECT * FROM t WHERE (abs(-9223372036854775807 - 1) > 0) OR 1
----
SELECT * FROM t WHERE (abs(-9223372036854775807 - 1) > 0) AND 0
----
CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 BLOB, c2 BIGINT COLLATE RTRIM)
----
SELECT -9.3e18 FROM t0 AS a00 WHERE (a00.c0 NOT IN () OR a00.c0 NOT IN (SELECT a10.c2 FROM t0 AS a10 GROUP BY a10.c2 HAVING max((-2.5 & a00.c2)) > 1.5))
----
SELECT 1 FROM t0 AS a00 WHERE 0 AND a00.c0 IN (SELECT 1 FROM t0 AS a10 GROUP BY a10.c2 HAVING max(a00.c2) > 1)
----
SELECT 1 FROM t0 AS a00 WHERE (0 AND a00.c0 IN (SELECT 1 FROM t0 AS a10 GROUP BY a10.c2 HAVING max(a00.c2) > 1)) OR 0
----
SELECT (SELECT max(t.a) FROM t0) OR 1 FROM t
----
SELECT 0 AND nosuch FROM t
----
SELECT nosuch AND 0 FROM t
----
SELECT 0 OR nosuch FROM t
----
SELECT 0 AND abs(nosuch) FROM t
----
SELECT * FROM t WHERE 0 AND nosuch
----
SELECT (0 AND nosuch) AND 1 FROM t
