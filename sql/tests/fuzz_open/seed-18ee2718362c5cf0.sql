-- seed 1796416286308982000: Affected at statement 2 (memory store)
--     sqlite: Affected(2)
--     asadb:  Affected(3)
--   shrunk session:
--     CREATE TABLE t0(c0 BOOLEAN, c1 DOUBLE UNIQUE DEFAULT 'x');
--     INSERT INTO t0 VALUES (-9223372036854775807, 'a'), ('São Paulo', 9.223372036854775807e18), ('+1', 'X');
--     DELETE FROM t0 WHERE c1 NOT IN (SELECT abs(a10.c0) FROM t0 AS a10);
CREATE TABLE t0(c0 BOOLEAN, c1 DOUBLE UNIQUE DEFAULT 'x')
----
INSERT INTO t0 VALUES (-9223372036854775807, 'a'), ('São Paulo', 9.223372036854775807e18), ('+1', 'X')
----
DELETE FROM t0 WHERE c1 NOT IN (SELECT abs(a10.c0) FROM t0 AS a10)
