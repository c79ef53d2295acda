-- Issue 9 (fuzzer): a WITHOUT ROWID table is read in PRIMARY KEY order, as SQLite stores it: order-sensitive
-- aggregates, a subquery's first row and UPDATE … FROM see that order.
CREATE TABLE t2(c0 REAL, c1 INTEGER COLLATE RTRIM, c2 REAL DEFAULT -1, PRIMARY KEY (c1)) WITHOUT ROWID
----
INSERT INTO t2 VALUES (1234567890123456789012345678901234567890, 'x', 1), (0x7FFFFFFFFFFFFFFF, X'41', '1.5'), ('y ', 5, '9223372036854775808'), (-1e308, 0x10, 0.0), ('10', 'X', -1e308), (0xFFFFFFFFFFFFFFFF, 0.0, 'ção'), (' 12abc', -9.3e18, 8)
----
SELECT count(c1), group_concat(c2), json_group_array(c0) FROM t2
----
SELECT (SELECT c0 FROM t2), (SELECT c1 FROM t2 WHERE c2 > 0)
----
SELECT * FROM t2 LIMIT 3
----
CREATE TABLE k(a TEXT, b INT, c, PRIMARY KEY (b, a)) WITHOUT ROWID
----
INSERT INTO k VALUES ('b', 2, 1), ('a', 2, 2), ('z', 1, 3), ('a', 3, 4)
----
SELECT group_concat(c) FROM k
----
SELECT group_concat(x.c || y.c) FROM k AS x JOIN k AS y ON x.a = y.a
----
CREATE TABLE o(a)
----
INSERT INTO o VALUES (1), (2)
----
UPDATE k SET c = c * 10 FROM o WHERE o.a = k.b
----
SELECT group_concat(c) FROM k
----
UPDATE k SET c = k.c + 1 FROM o WHERE 1
----
SELECT * FROM k
----
UPDATE k SET a = 'q' FROM o AS x WHERE 0
