-- Issue 9 (fuzzer): a query level with window functions refuses an aggregate of its own that a subquery in its
-- select list or ORDER BY holds ("misuse of aggregate", SQLite's window rewrite); in HAVING or inside the window call it is allowed.
CREATE TABLE t1(x)
----
CREATE TABLE t2(y)
----
INSERT INTO t1 VALUES (1), (2)
----
INSERT INTO t2 VALUES (5)
----
SELECT (SELECT sum(a.x) FROM t2), row_number() OVER () FROM t1 AS a
----
SELECT (SELECT sum(a.x) FROM t2), sum(x) OVER () FROM t1 AS a
----
SELECT (SELECT sum(a.x) + count(*) FROM t2), row_number() OVER () FROM t1 AS a
----
SELECT (SELECT (SELECT sum(a.x) FROM t2) FROM t2), row_number() OVER () FROM t1 AS a
----
SELECT count(*), row_number() OVER () FROM t1 AS a ORDER BY (SELECT sum(a.x) FROM t2)
----
SELECT count(*), row_number() OVER () FROM t1 AS a HAVING (SELECT sum(a.x) FROM t2)
----
SELECT x, row_number() OVER () FROM t1 AS a GROUP BY x HAVING (SELECT sum(a.x) FROM t2)
----
SELECT max((SELECT sum(a.x) FROM t2)) OVER () FROM t1 AS a
----
SELECT row_number() OVER (PARTITION BY (SELECT sum(a.x) FROM t2)) FROM t1 AS a
----
SELECT row_number() OVER (ORDER BY (SELECT sum(a.x) FROM t2)) FROM t1 AS a
----
SELECT (SELECT sum(a.x) FROM t2) FROM t1 AS a
----
SELECT sum(x), row_number() OVER () FROM t1 AS a
----
SELECT x, (SELECT sum(a.x) OVER () FROM t2) FROM t1 AS a
