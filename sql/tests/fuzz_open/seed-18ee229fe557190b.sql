-- seed 1796411371510241547: Affected at statement 3 (memory store)
--     sqlite: Affected(2)
--     asadb:  Affected(1)
--   shrunk session:
--     CREATE TABLE t1(c0 REAL, c1, c2 TEXT UNIQUE, c3 FLOAT);
--     INSERT OR IGNORE INTO t1 VALUES (' 12abc', '1e5', 'Müller', 9.223372036854775807e18);
--     INSERT INTO t1 VALUES (1, '1', 4294967296, 'Müller');
--     UPDATE OR REPLACE t1 SET c1 = 9223372036854775806, c2 = c3 WHERE c2 >= ' 12abc';
CREATE TABLE t1(c0 REAL, c1, c2 TEXT UNIQUE, c3 FLOAT)
----
INSERT OR IGNORE INTO t1 VALUES (' 12abc', '1e5', 'Müller', 9.223372036854775807e18)
----
INSERT INTO t1 VALUES (1, '1', 4294967296, 'Müller')
----
UPDATE OR REPLACE t1 SET c1 = 9223372036854775806, c2 = c3 WHERE c2 >= ' 12abc'
