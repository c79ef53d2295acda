-- Issue 9 (fuzzer): an aggregate whose arguments name only outer columns belongs to the outer query (SQLite's resolve.c rule).
CREATE TABLE t0(c0, c4 NUMERIC)
----
CREATE TABLE t1(c0)
----
SELECT (SELECT sum(a00.c4) FROM t1) FROM t0 a00
----
INSERT INTO t0 VALUES (1, 5), (2, 6)
----
SELECT (SELECT sum(a00.c4) FROM t1) FROM t0 a00
----
INSERT INTO t1 VALUES (1), (2)
----
SELECT (SELECT sum(a00.c4) FROM t1) FROM t0 a00
----
SELECT a00.c0, (SELECT sum(a00.c4) + count(*) FROM t1) FROM t0 a00 GROUP BY a00.c0
----
SELECT * FROM t0 a00 WHERE (SELECT count(a00.c0) FROM t1)
----
SELECT sum((SELECT max(x.c0) FROM t1)) FROM t0 x
----
SELECT (SELECT (SELECT max(y.c0 + x.c0) FROM t1) FROM t1 y) FROM t0 x
----
UPDATE t0 SET c4 = (SELECT max(t0.c0) FROM t1)
----
SELECT count(*) FROM t0 a WHERE EXISTS (SELECT sum(a.c4) FROM t0 x WHERE 0)
----
SELECT count(*) FROM t0 a WHERE EXISTS (SELECT sum(x.c4) FROM t0 x WHERE 0)
----
SELECT count(*) FROM t0 a WHERE EXISTS (SELECT nosuch FROM t0 x)
----
SELECT count(*) FROM t0 a WHERE EXISTS (SELECT sum(a.c4), x.c0 FROM t0 x WHERE 0)
----
SELECT count(*) FROM t0 a WHERE EXISTS (SELECT sum(a.c4) + sum(x.c0) FROM t0 x WHERE 0)
----
SELECT count(*) FROM t0 a WHERE EXISTS (SELECT sum(a.c4) FROM t0 x WHERE 0 GROUP BY x.c0)
----
SELECT count(*) FROM t0 a WHERE NOT EXISTS (SELECT sum(a.c4) FROM t0 x WHERE 0)
----
SELECT a.c0, EXISTS (SELECT sum(a.c4) FROM t0 x WHERE 0) FROM t0 a
----
SELECT count(*) FROM t0 a WHERE EXISTS (SELECT DISTINCT sum(a.c4) FROM t0 x WHERE 0)
----
SELECT count(*) FROM t0 a WHERE EXISTS (SELECT sum(a.c4) FROM t0 x WHERE 0 LIMIT 1)
----
SELECT count(*) FROM t0 a WHERE EXISTS (SELECT sum(a.c4) FROM t0 x UNION SELECT 1)
----
SELECT a.c0, count(*) FROM t0 a LEFT JOIN t0 b ON EXISTS (SELECT sum(b.c4) FROM t0 x) GROUP BY a.c0
----
SELECT count(*) FROM t0 a LEFT JOIN t0 b ON (SELECT sum(b.c4) FROM t0 x) > 0
