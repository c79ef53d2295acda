# Aggregates: count/sum/total/avg/min/max/group_concat, DISTINCT, GROUP BY,
# HAVING, bare columns, empty input.

statement ok
CREATE TABLE t(g TEXT, x INTEGER, y REAL)

query
SELECT count(*), count(x), sum(x), total(x), avg(x), min(x), max(x) FROM t
----
0|0|NULL|0.0|NULL|NULL|NULL

statement ok
INSERT INTO t VALUES ('a', 1, 0.5), ('a', 2, NULL), ('b', 3, 1.5), ('b', 3, 2.0), ('c', NULL, NULL)

query
SELECT count(*), count(x), sum(x), total(x), avg(x), min(x), max(x) FROM t
----
5|4|9|9.0|2.25|1|3

query
SELECT g, count(*), sum(x), max(y) FROM t GROUP BY g ORDER BY g
----
a|2|3|0.5
b|2|6|2.0
c|1|NULL|NULL

query
SELECT g, sum(x) AS s FROM t GROUP BY g HAVING s > 3 ORDER BY g
----
b|6

query
SELECT g FROM t GROUP BY g HAVING count(*) = 1
----
c

query
SELECT count(DISTINCT x), sum(DISTINCT x), group_concat(DISTINCT g) FROM t
----
3|6|a,b,c

query
SELECT group_concat(x, '-') FROM t WHERE x IS NOT NULL
----
1-2-3-3

query
SELECT x, count(*) FROM t GROUP BY x ORDER BY x
----
NULL|1
1|1
2|1
3|2

query
SELECT g, count(*) FROM t GROUP BY 1 ORDER BY 2 DESC, 1
----
a|2
b|2
c|1

query
SELECT sum(x) + 1, count(*) * 2 FROM t WHERE g = 'a'
----
4|4

query
SELECT g, count(*) FROM t WHERE x > 100 GROUP BY g
----

query
SELECT count(*) FROM t WHERE x > 100
----
0

query
SELECT avg(y) FROM t
----
1.3333333333333333

query
SELECT g, x FROM t WHERE g = 'c' GROUP BY g
----
c|NULL

statement error misuse of aggregate
SELECT x FROM t WHERE count(*) > 1

statement ok
CREATE TABLE big(v INTEGER)

statement ok
INSERT INTO big VALUES (9223372036854775807), (1)

statement error integer overflow
SELECT sum(v) FROM big

query
SELECT total(v) FROM big
----
9.2233720368547758e+18
