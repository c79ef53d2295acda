-- seed 1796416286308974270: Rows at statement 5 (memory store)
--     sqlite: 1 rows
--       [Text("[a-c]*"), Text("[a-c]*"), Text("X")]
--     asadb:  0 rows
--   shrunk session:
--     CREATE TABLE t0(c0 REAL, c1 BLOB CHECK (c1 IS NULL OR c1 <> 13), c2 VARCHAR(10));
--     INSERT INTO t0 VALUES (X'C3A7', 3, 1);
--     CREATE TABLE t2(c0 BOOLEAN, c1 BOOLEAN, c2 NUMERIC, c3 BIGINT COLLATE NOCASE);
--     INSERT OR IGNORE INTO t2 VALUES (9.21e18, -2, 'y', 1), ('X', -2.5, '[a-c]*', 'x'), (CAST(X'E282AC' AS TEXT), X'4142', 'São Paulo', 9223372036854775807), (1234567890123456789012345678901234567890, 1, 0, -9.3e18), (0x10, 'a%', '', 9.21e18), (2, 'X', 5, CAST(X'FF' AS TEXT)), ('São Paulo', 100, -1e308, 'y '), ('-1', '_', 'x', X'00');
--     UPDATE t2 SET c1 = t2.c0 FROM t2 AS o WHERE EXISTS (SELECT '😀' FROM t0 AS a10);
--     SELECT a00.c2, a00.c2, a00.c0 FROM t2 AS a00 WHERE (a00.c3, a00.c1) IN (SELECT a10.c1, a10.c1 FROM t2 AS a10 GROUP BY a10.c1, a10.c3) ORDER BY 1, 2 DESC, 3 DESC LIMIT 2 OFFSET 0;
CREATE TABLE t0(c0 REAL, c1 BLOB CHECK (c1 IS NULL OR c1 <> 13), c2 VARCHAR(10))
----
INSERT INTO t0 VALUES (X'C3A7', 3, 1)
----
CREATE TABLE t2(c0 BOOLEAN, c1 BOOLEAN, c2 NUMERIC, c3 BIGINT COLLATE NOCASE)
----
INSERT OR IGNORE INTO t2 VALUES (9.21e18, -2, 'y', 1), ('X', -2.5, '[a-c]*', 'x'), (CAST(X'E282AC' AS TEXT), X'4142', 'São Paulo', 9223372036854775807), (1234567890123456789012345678901234567890, 1, 0, -9.3e18), (0x10, 'a%', '', 9.21e18), (2, 'X', 5, CAST(X'FF' AS TEXT)), ('São Paulo', 100, -1e308, 'y '), ('-1', '_', 'x', X'00')
----
UPDATE t2 SET c1 = t2.c0 FROM t2 AS o WHERE EXISTS (SELECT '😀' FROM t0 AS a10)
----
SELECT a00.c2, a00.c2, a00.c0 FROM t2 AS a00 WHERE (a00.c3, a00.c1) IN (SELECT a10.c1, a10.c1 FROM t2 AS a10 GROUP BY a10.c1, a10.c3) ORDER BY 1, 2 DESC, 3 DESC LIMIT 2 OFFSET 0
