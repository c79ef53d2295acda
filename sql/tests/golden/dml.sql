# UPDATE and DELETE: WHERE (with and without indexes), expressions over
# the old row, RETURNING, rowid changes.

statement ok
CREATE TABLE t(id INTEGER PRIMARY KEY, k TEXT, v INTEGER)

statement ok
CREATE INDEX tk ON t(k)

statement ok
INSERT INTO t VALUES (1, 'a', 10), (2, 'b', 20), (3, 'c', 30), (4, 'b', 40)

statement ok
UPDATE t SET v = v + 1 WHERE k = 'b'

query
SELECT id, v FROM t ORDER BY id
----
1|10
2|21
3|30
4|41

query
SELECT id FROM t WHERE k = 'b' ORDER BY id
----
2
4

statement ok
UPDATE t SET k = 'z' WHERE id = 2

query
SELECT id FROM t WHERE k = 'b'
----
4

query
SELECT id FROM t WHERE k = 'z'
----
2

query
UPDATE t SET v = v * 2 WHERE id IN (1, 3) RETURNING id, v
----
1|20
3|60

statement ok
UPDATE t SET id = 10 WHERE id = 1

query
SELECT id, k FROM t ORDER BY id
----
2|z
3|c
4|b
10|a

statement error UNIQUE constraint failed: t.id
UPDATE t SET id = 3 WHERE id = 2

statement ok
DELETE FROM t WHERE k = 'c'

query
SELECT id FROM t WHERE k >= 'a' ORDER BY k
----
10
4
2

query
DELETE FROM t WHERE v > 40 RETURNING id
----
4

query
SELECT count(*) FROM t
----
2

statement ok
DELETE FROM t

query
SELECT count(*) FROM t WHERE k = 'a'
----
0

statement ok
CREATE TABLE n(a, b)

statement ok
INSERT INTO n VALUES (1, 2), (3, 4)

statement ok
UPDATE n SET a = b, b = a

query
SELECT a, b FROM n ORDER BY a
----
2|1
4|3

statement ok
DELETE FROM n WHERE a IN (SELECT max(a) FROM n)

query
SELECT a FROM n
----
2
