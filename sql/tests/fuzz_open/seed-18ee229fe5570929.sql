-- seed 1796411371510237481: Affected at statement 8 (memory store)
--     sqlite: Affected(2)
--     asadb:  Affected(1)
--   shrunk session:
--     CREATE TABLE t1(c0 BLOB, c1 INTEGER, c2 COLLATE RTRIM CHECK (c2 IS NULL OR c2 <> 13));
--     INSERT OR REPLACE INTO t1 VALUES (1, '%b%', 7), (0.5, -2, '-1'), ('x', 0x10, 'y '), (-3, '1 ', '1'), ('1.5', '1e5', -1e308), (100, ' 12abc', 0.151806728945089886206923794224573882182e-34), (3, X'00', 0.0);
--     CREATE TABLE t2(c0 DECIMAL(10,2), c1 INTEGER, c2 BLOB);
--     INSERT OR REPLACE INTO t2 VALUES ('a ', 4294967296, 'y '), (-3, 'X', ' 1'), ('[a-c]*', 7, 'a'), ('abc', -3, 'abc'), (8, '😀', 0.0);
--     WITH w(x) AS (SELECT c2 FROM t2) DELETE FROM t1 WHERE c1 NOT IN (SELECT x FROM w WHERE x IS NOT NULL);
--     INSERT INTO t1 VALUES ('y', '0x10', 'a%'), (3.14159, 9.21e18, 0xFFFFFFFFFFFFFFFF), (4294967296, 0xFFFFFFFFFFFFFFFF, 9223372036854775807), (' 12abc', 1.0, CAST(X'41FF42' AS TEXT)), (0.5, 'a ', 'a '), (5, X'FF', 'Müller'), (1.5, -9223372036854775808, 'X');
--     BEGIN;
--     UPDATE OR REPLACE t1 SET c1 = c1, c0 = (c2 - (SELECT count(*) FROM json_each(c1)));
--     DELETE FROM t1 WHERE c0 IN ('*', 0.5, 0);
CREATE TABLE t1(c0 BLOB, c1 INTEGER, c2 COLLATE RTRIM CHECK (c2 IS NULL OR c2 <> 13))
----
INSERT OR REPLACE INTO t1 VALUES (1, '%b%', 7), (0.5, -2, '-1'), ('x', 0x10, 'y '), (-3, '1 ', '1'), ('1.5', '1e5', -1e308), (100, ' 12abc', 0.151806728945089886206923794224573882182e-34), (3, X'00', 0.0)
----
CREATE TABLE t2(c0 DECIMAL(10,2), c1 INTEGER, c2 BLOB)
----
INSERT OR REPLACE INTO t2 VALUES ('a ', 4294967296, 'y '), (-3, 'X', ' 1'), ('[a-c]*', 7, 'a'), ('abc', -3, 'abc'), (8, '😀', 0.0)
----
WITH w(x) AS (SELECT c2 FROM t2) DELETE FROM t1 WHERE c1 NOT IN (SELECT x FROM w WHERE x IS NOT NULL)
----
INSERT INTO t1 VALUES ('y', '0x10', 'a%'), (3.14159, 9.21e18, 0xFFFFFFFFFFFFFFFF), (4294967296, 0xFFFFFFFFFFFFFFFF, 9223372036854775807), (' 12abc', 1.0, CAST(X'41FF42' AS TEXT)), (0.5, 'a ', 'a '), (5, X'FF', 'Müller'), (1.5, -9223372036854775808, 'X')
----
BEGIN
----
UPDATE OR REPLACE t1 SET c1 = c1, c0 = (c2 - (SELECT count(*) FROM json_each(c1)))
----
DELETE FROM t1 WHERE c0 IN ('*', 0.5, 0)
