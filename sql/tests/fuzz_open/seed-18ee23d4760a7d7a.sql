-- seed 1796412696787844474: Affected at statement 3 (memory store)
--     sqlite: Affected(7)
--     asadb:  Affected(8)
--   shrunk session:
--     CREATE TABLE t1(c0 DOUBLE COLLATE NOCASE, c1 NUMERIC);
--     REPLACE INTO t1 VALUES (-2, 0.0), ('y ', 1.0), (9.2e18, '*'), (3.14159, '0x10'), (X'41', 1), ('Abc', 'y '), ('[a-c]*', 'Abc');
--     INSERT INTO t1 VALUES (-9223372036854775808, 2), ('1 ', 'São Paulo'), ('abc', '10'), (1234567890123456789012345678901234567890, 0);
--     UPDATE t1 SET c1 = 1234567890123456789012345678901234567890 FROM t1 AS o WHERE (t1.c0, t1.c0) NOT IN (SELECT NULL, a10.c1 FROM t1 AS a10);
CREATE TABLE t1(c0 DOUBLE COLLATE NOCASE, c1 NUMERIC)
----
REPLACE INTO t1 VALUES (-2, 0.0), ('y ', 1.0), (9.2e18, '*'), (3.14159, '0x10'), (X'41', 1), ('Abc', 'y '), ('[a-c]*', 'Abc')
----
INSERT INTO t1 VALUES (-9223372036854775808, 2), ('1 ', 'São Paulo'), ('abc', '10'), (1234567890123456789012345678901234567890, 0)
----
UPDATE t1 SET c1 = 1234567890123456789012345678901234567890 FROM t1 AS o WHERE (t1.c0, t1.c0) NOT IN (SELECT NULL, a10.c1 FROM t1 AS a10)
