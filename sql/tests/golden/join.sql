# Joins: inner, left, cross, comma, USING, NATURAL, hash joins and join
# order, self joins.

statement ok
CREATE TABLE a(id INTEGER PRIMARY KEY, name TEXT)

statement ok
CREATE TABLE b(aid INTEGER, v TEXT)

statement ok
INSERT INTO a VALUES (1, 'one'), (2, 'two'), (3, 'three')

statement ok
INSERT INTO b VALUES (1, 'x'), (1, 'y'), (3, 'z'), (4, 'orphan'), (NULL, 'null')

query
SELECT a.name, b.v FROM a JOIN b ON a.id = b.aid ORDER BY a.id, b.v
----
one|x
one|y
three|z

query
SELECT a.name, b.v FROM a, b WHERE b.aid = a.id ORDER BY 1, 2
----
one|x
one|y
three|z

query
SELECT a.name, b.v FROM a LEFT JOIN b ON a.id = b.aid ORDER BY a.id, b.v
----
one|x
one|y
two|NULL
three|z

query
SELECT a.name, b.v FROM a LEFT JOIN b ON a.id = b.aid AND b.v <> 'x' ORDER BY a.id, b.v
----
one|y
two|NULL
three|z

query
SELECT a.name FROM a LEFT JOIN b ON a.id = b.aid WHERE b.v IS NULL
----
two

query
SELECT count(*) FROM a CROSS JOIN b
----
15

query
SELECT count(*) FROM a, b, a AS a2
----
45

statement ok
CREATE TABLE c(id INTEGER, w TEXT)

statement ok
INSERT INTO c VALUES (1, 'c1'), (2, 'c2')

query
SELECT id, name, w FROM a JOIN c USING (id) ORDER BY id
----
1|one|c1
2|two|c2

query
SELECT name, w FROM a NATURAL JOIN c ORDER BY name
----
one|c1
two|c2

query
SELECT x.name, y.name FROM a AS x JOIN a AS y ON y.id = x.id + 1 ORDER BY x.id
----
one|two
two|three

query
SELECT a.name, b.v, c.w FROM a, b, c WHERE a.id = b.aid AND c.id = a.id ORDER BY b.v
----
one|x|c1
one|y|c1

query
SELECT a.name FROM a JOIN b ON a.id = b.aid WHERE b.v = 'z'
----
three

query
SELECT a.name, c.w FROM a LEFT JOIN c ON c.id = a.id LEFT JOIN b ON b.aid = c.id AND b.v = 'y' ORDER BY a.id
----
one|c1
two|c2
three|NULL

statement error ambiguous column name
SELECT id FROM a, c

query
SELECT a.name, b.v FROM a JOIN b ON a.id = b.aid AND a.id > 1
----
three|z

statement ok
CREATE TABLE t1(x INTEGER, y TEXT)

statement ok
CREATE TABLE t2(x TEXT, z INTEGER)

statement ok
INSERT INTO t1 VALUES (1, 'p'), (2, 'q')

statement ok
INSERT INTO t2 VALUES ('1', 10), ('2.0', 20), ('abc', 30)

query
SELECT t1.y, t2.z FROM t1, t2 WHERE t1.x = t2.x ORDER BY 1
----
p|10
q|20
