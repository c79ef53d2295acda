-- A window call's arguments may hold a subquery with an aggregate of the
-- window query; an ORDER BY naming that column (by number or alias) copies
-- the call out of the window, where SQLite refuses it (misuse of aggregate).
CREATE TABLE t1(x, y)
----
CREATE TABLE t2(z)
----
INSERT INTO t1 VALUES (1,2),(3,4)
----
SELECT max((SELECT sum(a.x) FROM t2)) OVER () FROM t1 a ORDER BY max((SELECT sum(a.x) FROM t2)) OVER ()
----
SELECT max((SELECT sum(a.x) FROM t2)) OVER () AS m FROM t1 a ORDER BY m + 1
----
SELECT a.x, max((SELECT sum(a.x) FROM t2)) OVER () FROM t1 a ORDER BY 1
----
SELECT max((SELECT sum(a.x) FROM t2)) OVER () FROM t1 a ORDER BY 1
----
SELECT max((SELECT count(a.x) FROM t2)) OVER () AS m FROM t1 a ORDER BY m
----
SELECT max((SELECT sum(a.x) FROM t2)) OVER (ORDER BY a.y) FROM t1 a
