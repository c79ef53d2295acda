-- seed 1796416286308982324: Affected at statement 2 (memory store)
--     sqlite: Affected(0)
--     asadb:  Affected(8)
--   shrunk session:
--     CREATE TABLE t2(c0 VARCHAR(10) COLLATE NOCASE, c1 DECIMAL(10,2), c2 DOUBLE COLLATE NOCASE DEFAULT 'x');
--     INSERT INTO t2 VALUES (9210000000000000000, 0xFFFFFFFFFFFFFFFF, 'y '), ('x', '+1', '1e5'), (1, 'y', -5), (-1, 2, 'a'), ('10', 1, -9223372036854775808), ('0', -3, -0.0), (2, '*', 'ção'), (CAST(X'E282AC' AS TEXT), -5, -0.0);
--     DELETE FROM t2 WHERE EXISTS (SELECT c1 FROM t2 AS a10 WHERE NOT ((a10.c1, a10.c0) NOT IN ((a10.c2, 9223372036854775807), (a10.c1, a10.c2), ('b', c0))));
CREATE TABLE t2(c0 VARCHAR(10) COLLATE NOCASE, c1 DECIMAL(10,2), c2 DOUBLE COLLATE NOCASE DEFAULT 'x')
----
INSERT INTO t2 VALUES (9210000000000000000, 0xFFFFFFFFFFFFFFFF, 'y '), ('x', '+1', '1e5'), (1, 'y', -5), (-1, 2, 'a'), ('10', 1, -9223372036854775808), ('0', -3, -0.0), (2, '*', 'ção'), (CAST(X'E282AC' AS TEXT), -5, -0.0)
----
DELETE FROM t2 WHERE EXISTS (SELECT c1 FROM t2 AS a10 WHERE NOT ((a10.c1, a10.c0) NOT IN ((a10.c2, 9223372036854775807), (a10.c1, a10.c2), ('b', c0))))
