# CREATE / DROP of tables, indexes and views, IF [NOT] EXISTS.

statement ok
CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT, c REAL)

statement error already exists
CREATE TABLE t(x)

statement ok
CREATE TABLE IF NOT EXISTS t(x)

statement ok
CREATE INDEX tb ON t(b)

statement error already exists
CREATE INDEX tb ON t(c)

statement ok
CREATE INDEX IF NOT EXISTS tb ON t(c)

statement error no such table
CREATE INDEX bad ON nope(a)

statement error no such column
CREATE INDEX bad ON t(zzz)

statement ok
INSERT INTO t VALUES (1, 'one', 1.5), (2, 'two', 2.5)

statement ok
CREATE VIEW v AS SELECT a, b FROM t WHERE a > 1

query cols
SELECT * FROM v
----
a|b
2|two

statement error already exists
CREATE VIEW v AS SELECT 1

statement error view
INSERT INTO v VALUES (3, 'x')

statement ok
DROP VIEW v

statement error no such table
SELECT * FROM v

statement ok
DROP INDEX tb

statement error no such index
DROP INDEX tb

statement ok
DROP INDEX IF EXISTS tb

statement ok
DROP TABLE t

statement error no such table
SELECT * FROM t

statement error no such table
DROP TABLE t

statement ok
DROP TABLE IF EXISTS t

statement ok
CREATE TABLE t(a, b)

query
SELECT count(*) FROM t
----
0

statement ok
CREATE TABLE u(x UNIQUE, y)

statement error cannot be dropped
DROP INDEX sqlite_autoindex_u_1

statement ok
CREATE VIEW w(p, q) AS SELECT y, x FROM u

statement ok
INSERT INTO u VALUES (1, 2)

query cols
SELECT * FROM w
----
p|q
2|1

# ALTER TABLE

statement ok
CREATE TABLE al(a INTEGER PRIMARY KEY, b TEXT UNIQUE)

statement ok
CREATE INDEX alb ON al(b)

statement ok
INSERT INTO al VALUES (1, 'x'), (2, 'y')

statement ok
ALTER TABLE al ADD COLUMN c INTEGER DEFAULT 7

statement ok
ALTER TABLE al ADD COLUMN d TEXT

statement ok
INSERT INTO al VALUES (3, 'z', 8, 'dd')

query cols
SELECT * FROM al ORDER BY a
----
a|b|c|d
1|x|7|NULL
2|y|7|NULL
3|z|8|dd

statement error duplicate column name
ALTER TABLE al ADD COLUMN c

statement error Cannot add a NOT NULL column with default value NULL
ALTER TABLE al ADD COLUMN e NOT NULL

statement ok
ALTER TABLE al RENAME TO al2

statement error no such table
SELECT * FROM al

query
SELECT a FROM al2 WHERE b = 'y'
----
2

statement error UNIQUE constraint failed: al2.b
INSERT INTO al2(b) VALUES ('x')

statement ok
ALTER TABLE al2 RENAME COLUMN b TO bee

query
SELECT a FROM al2 WHERE bee = 'z'
----
3

statement error no such column
SELECT b FROM al2

statement error UNIQUE constraint failed: al2.bee
INSERT INTO al2(bee) VALUES ('x')
