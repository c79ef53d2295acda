# Transactions: BEGIN/COMMIT/ROLLBACK, SAVEPOINT/RELEASE/ROLLBACK TO,
# statement atomicity inside a transaction, DDL rollback.

statement ok
CREATE TABLE t(a INTEGER PRIMARY KEY, b)

statement ok
BEGIN

statement ok
INSERT INTO t VALUES (1, 'x')

statement ok
ROLLBACK

query
SELECT count(*) FROM t
----
0

statement ok
BEGIN

statement ok
INSERT INTO t VALUES (1, 'x')

statement error UNIQUE constraint failed
INSERT INTO t VALUES (2, 'y'), (1, 'dup')

statement ok
COMMIT

query
SELECT a, b FROM t
----
1|x

statement error cannot commit - no transaction is active
COMMIT

statement ok
BEGIN

statement error cannot start a transaction within a transaction
BEGIN

statement ok
SAVEPOINT s1

statement ok
INSERT INTO t VALUES (2, 'two')

statement ok
SAVEPOINT s2

statement ok
INSERT INTO t VALUES (3, 'three')

statement ok
ROLLBACK TO s2

statement ok
INSERT INTO t VALUES (4, 'four')

statement ok
RELEASE s1

statement ok
COMMIT

query
SELECT a FROM t ORDER BY a
----
1
2
4

statement ok
SAVEPOINT outer_sp

statement ok
DELETE FROM t

statement ok
ROLLBACK TO outer_sp

statement ok
RELEASE outer_sp

query
SELECT count(*) FROM t
----
3

statement ok
BEGIN

statement ok
CREATE TABLE tmp(x)

statement ok
INSERT INTO tmp VALUES (1)

query
SELECT x FROM tmp
----
1

statement ok
ROLLBACK

statement error no such table
SELECT x FROM tmp

statement ok
BEGIN

statement ok
CREATE TABLE kept(x)

statement ok
COMMIT

query
SELECT count(*) FROM kept
----
0

statement error no such savepoint
RELEASE nope
