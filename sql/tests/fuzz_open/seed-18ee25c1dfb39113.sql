-- seed 1796414815979409683: Affected at statement 3 (memory store)
--     sqlite: Affected(1)
--     asadb:  Affected(0)
--   shrunk session:
--     CREATE TABLE t0(c0 DOUBLE DEFAULT 0, c1 DEFAULT 1.5, c2 BIGINT, c3 REAL COLLATE RTRIM DEFAULT 0, c4 BIGINT NOT NULL DEFAULT 0);
--     INSERT OR REPLACE INTO t0 VALUES ('%b%', 'y', 9223372036854775806, 'abc', 9223372036854775808), (-2.5, X'4142', 'ABC', 'a ', 'X'), (-3, -1, 'y ', 1.5, -9.3e18), ('1e5', 1e3, '9223372036854775808', 10, '-1'), (0xFFFFFFFFFFFFFFFF, ' 1', 4294967296, 'y ', 9.21e18);
--     UPDATE OR IGNORE t0 SET c3 = c2;
--     UPDATE t0 SET c4 = c3, c4 = -9.3e18 WHERE (c1, c1, c2) IN ((c1, '-1', c3), (c3, c4, c2), (c4, c0, X'C3A7'));
CREATE TABLE t0(c0 DOUBLE DEFAULT 0, c1 DEFAULT 1.5, c2 BIGINT, c3 REAL COLLATE RTRIM DEFAULT 0, c4 BIGINT NOT NULL DEFAULT 0)
----
INSERT OR REPLACE INTO t0 VALUES ('%b%', 'y', 9223372036854775806, 'abc', 9223372036854775808), (-2.5, X'4142', 'ABC', 'a ', 'X'), (-3, -1, 'y ', 1.5, -9.3e18), ('1e5', 1e3, '9223372036854775808', 10, '-1'), (0xFFFFFFFFFFFFFFFF, ' 1', 4294967296, 'y ', 9.21e18)
----
UPDATE OR IGNORE t0 SET c3 = c2
----
UPDATE t0 SET c4 = c3, c4 = -9.3e18 WHERE (c1, c1, c2) IN ((c1, '-1', c3), (c3, c4, c2), (c4, c0, X'C3A7'))
