-- seed 1796416286308982824: Affected at statement 2 (memory store)
--     sqlite: Affected(0)
--     asadb:  Affected(1)
--   shrunk session:
--     CREATE TABLE t0(c0 DOUBLE, c1 VARCHAR(10), c2 FLOAT, c3);
--     REPLACE INTO t0 VALUES (X'4142', -1, -1, 1e308);
--     DELETE FROM t0 WHERE (c1, c2, c1) IN ((c2, c1, c1), (1e3, c2, c2), (c1, c2, c0));
CREATE TABLE t0(c0 DOUBLE, c1 VARCHAR(10), c2 FLOAT, c3)
----
REPLACE INTO t0 VALUES (X'4142', -1, -1, 1e308)
----
DELETE FROM t0 WHERE (c1, c2, c1) IN ((c2, c1, c1), (1e3, c2, c2), (c1, c2, c0))
