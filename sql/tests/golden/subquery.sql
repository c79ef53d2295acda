# Subqueries: scalar, IN, EXISTS, correlated, in SELECT/WHERE/HAVING.

statement ok
CREATE TABLE t(a INTEGER, b INTEGER)

statement ok
INSERT INTO t VALUES (1, 10), (2, 20), (3, 30), (4, NULL)

statement ok
CREATE TABLE u(x INTEGER)

statement ok
INSERT INTO u VALUES (2), (3), (5)

query
SELECT a FROM t WHERE a IN (SELECT x FROM u) ORDER BY a
----
2
3

query
SELECT a FROM t WHERE a NOT IN (SELECT x FROM u) ORDER BY a
----
1
4

query
SELECT (SELECT max(x) FROM u), (SELECT x FROM u WHERE x > 100)
----
5|NULL

query
SELECT a, (SELECT count(*) FROM u WHERE u.x < t.a) FROM t ORDER BY a
----
1|0
2|0
3|1
4|2

query
SELECT a FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.x = t.a + 1) ORDER BY a
----
1
2
4

query
SELECT a FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.x = t.a) ORDER BY a
----
1
4

query
SELECT a FROM t WHERE b > (SELECT avg(b) FROM t)
----
3

query
SELECT a FROM t AS o WHERE b = (SELECT max(b) FROM t WHERE t.a <= o.a) ORDER BY a
----
1
2
3

query
SELECT x FROM u WHERE x IN (SELECT a FROM t WHERE b IS NULL)
----

query
SELECT 1 IN (SELECT b FROM t), 10 IN (SELECT b FROM t), 5 NOT IN (SELECT b FROM t)
----
NULL|1|NULL

query
SELECT 1 IN (SELECT x FROM u WHERE x > 100), NULL IN (SELECT x FROM u WHERE x > 100)
----
0|0

query
SELECT a, (SELECT sum(x) FROM u WHERE x <= t.a) AS s FROM t WHERE (SELECT sum(x) FROM u WHERE x <= t.a) IS NOT NULL ORDER BY s DESC, a
----
3|5
4|5
2|2

query
SELECT count(*) FROM t WHERE a IN u
----
2

query
SELECT (SELECT a FROM t ORDER BY a DESC LIMIT 1)
----
4

statement error sub-select returns 2 columns
SELECT a FROM t WHERE a IN (SELECT x, x FROM u)

query
SELECT s.m FROM (SELECT max(a) AS m FROM t) AS s
----
4
