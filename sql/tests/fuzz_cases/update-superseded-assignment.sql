-- A column assigned twice in SET takes its last value; SQLite resolves the
-- earlier expression's names but never runs it (found by the fuzzer: an
-- outer aggregate inside it was refused as a misuse).
CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 BLOB)
----
CREATE TABLE t1(c0 VARCHAR(10), c1 TEXT, c2, PRIMARY KEY (c1)) WITHOUT ROWID
----
INSERT INTO t1 VALUES ('a', 'b', 5), ('c', 'd', 7)
----
INSERT INTO t0 VALUES (1, 2), (2, 3)
----
UPDATE t1 SET c1 = (SELECT DISTINCT max(c2) FROM t0 AS a10), c1 = c1
----
UPDATE t1 SET c0 = 1 / 0 + 'x', c0 = 'kept'
----
SELECT * FROM t1
----
UPDATE t1 SET c0 = nosuch, c0 = 1
----
UPDATE t1 SET c0 = abs(1, 2), c0 = 1
----
UPDATE t1 SET c0 = (SELECT max(c2) FROM t0), c2 = c2
----
UPDATE t1 SET c0 = max(c2), c0 = 1
----
INSERT INTO t1 VALUES ('a', 'b', 1) ON CONFLICT DO UPDATE SET c0 = (SELECT max(c2) FROM t0), c0 = 'z'
----
SELECT * FROM t1
