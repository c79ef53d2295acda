# Constraints: PRIMARY KEY, NOT NULL, UNIQUE (column and table level,
# multi-column, NULLs distinct), DEFAULT, CHECK; statement atomicity.

statement ok
CREATE TABLE t(id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE, age INTEGER CHECK (age >= 0), nick TEXT DEFAULT 'anon')

statement ok
INSERT INTO t(email, age) VALUES ('a@x', 30)

statement error NOT NULL constraint failed: t.email
INSERT INTO t(email, age) VALUES (NULL, 1)

statement error UNIQUE constraint failed: t.email
INSERT INTO t(email, age) VALUES ('a@x', 1)

statement error CHECK constraint failed
INSERT INTO t(email, age) VALUES ('b@x', -1)

statement ok
INSERT INTO t(email, age) VALUES ('b@x', NULL)

statement error UNIQUE constraint failed: t.email
INSERT INTO t(email, age) VALUES ('c@x', 1), ('c@x', 2)

query
SELECT id, email, age, nick FROM t ORDER BY id
----
1|a@x|30|anon
2|b@x|NULL|anon

statement error UNIQUE constraint failed: t.email
UPDATE t SET email = 'a@x' WHERE id = 2

statement error CHECK constraint failed
UPDATE t SET age = -5

query
SELECT age FROM t ORDER BY id
----
30
NULL

statement ok
CREATE TABLE p(a, b, PRIMARY KEY (a, b))

statement ok
INSERT INTO p VALUES (1, 1), (1, 2), (NULL, 1), (NULL, 1)

statement error UNIQUE constraint failed: p.a, p.b
INSERT INTO p VALUES (1, 2)

statement ok
CREATE TABLE q(a UNIQUE, b, UNIQUE (b))

statement ok
INSERT INTO q VALUES (NULL, 1), (NULL, 2)

statement error UNIQUE constraint failed: q.b
INSERT INTO q VALUES (3, 1)

statement ok
INSERT OR IGNORE INTO q VALUES (3, 1), (4, 4)

query
SELECT a, b FROM q ORDER BY b
----
NULL|1
NULL|2
4|4

statement ok
INSERT OR REPLACE INTO q VALUES (5, 1)

query
SELECT a, b FROM q ORDER BY b
----
5|1
NULL|2
4|4

statement ok
CREATE TABLE r(x TEXT PRIMARY KEY, y)

statement ok
INSERT INTO r VALUES ('k', 1)

statement error UNIQUE constraint failed: r.x
INSERT INTO r VALUES ('k', 2)

statement ok
CREATE UNIQUE INDEX uy ON r(y)

statement error UNIQUE constraint failed: r.y
INSERT INTO r VALUES ('j', 1)

statement error UNIQUE constraint failed
CREATE UNIQUE INDEX dup ON p(a)
