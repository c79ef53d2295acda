# INSERT: multi-row, column lists, defaults, INSERT … SELECT, OR IGNORE /
# OR REPLACE, RETURNING, rowid assignment.

statement ok
CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT DEFAULT 'dflt', c INTEGER DEFAULT 7)

statement ok
INSERT INTO t VALUES (1, 'x', 10), (2, 'y', 20)

statement ok
INSERT INTO t(b) VALUES ('auto')

statement ok
INSERT INTO t DEFAULT VALUES

query
SELECT a, b, c FROM t ORDER BY a
----
1|x|10
2|y|20
3|auto|7
4|dflt|7

statement error 3 columns but 2 values
INSERT INTO t VALUES (9, 'z')

statement error 2 values for 1 columns
INSERT INTO t(b) VALUES (1, 2)

statement error has no column named
INSERT INTO t(nope) VALUES (1)

statement ok
INSERT INTO t(a, b) VALUES (100, 'hundred')

statement ok
INSERT INTO t(b) VALUES ('next')

query
SELECT a, b FROM t WHERE a >= 100 ORDER BY a
----
100|hundred
101|next

statement error UNIQUE constraint failed: t.a
INSERT INTO t(a, b) VALUES (1, 'dup')

statement ok
INSERT OR IGNORE INTO t(a, b) VALUES (1, 'dup')

query
SELECT b FROM t WHERE a = 1
----
x

statement ok
INSERT OR REPLACE INTO t(a, b) VALUES (1, 'replaced')

query
SELECT b, c FROM t WHERE a = 1
----
replaced|7

statement ok
REPLACE INTO t(a, b) VALUES (2, 'again')

query
SELECT b FROM t WHERE a = 2
----
again

statement ok
CREATE TABLE u(a, b)

statement ok
INSERT INTO u SELECT a, b FROM t WHERE a < 3

statement ok
INSERT INTO u SELECT * FROM u

query
SELECT a, b FROM u ORDER BY a, rowid
----
1|replaced
1|replaced
2|again
2|again

query cols
INSERT INTO u VALUES (5, 'r') RETURNING rowid, a + 1 AS n, b
----
rowid|n|b
5|6|r

statement ok
INSERT INTO u VALUES (NULL, NULL), (X'00ff', 1.5)

query
SELECT typeof(a), typeof(b) FROM u WHERE rowid > 5 ORDER BY rowid
----
null|null
blob|real

statement ok
CREATE TABLE w(x INTEGER PRIMARY KEY)

statement error datatype mismatch
INSERT INTO w VALUES ('abc')

statement ok
INSERT INTO w VALUES ('12')

query
SELECT x, typeof(x) FROM w
----
12|integer
