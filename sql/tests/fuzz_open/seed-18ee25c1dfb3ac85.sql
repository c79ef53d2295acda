-- seed 1796414815979416709: Rows at statement 2 (memory store)
--     sqlite: 1 rows
--       [Text("X")]
--     asadb:  2 rows
--       [Text("X")]
--       [Text("a")]
--   shrunk session:
--     CREATE TABLE t0(c0 DOUBLE DEFAULT -1, c1 BIGINT, c2 INTEGER, c3 BOOLEAN UNIQUE);
--     INSERT OR IGNORE INTO t0 VALUES (1e-308, 'y ', 3, 'X'), ('Müller', X'', -9223372036854775808, 'a'), (1, CAST(X'E282AC' AS TEXT), -2, 8);
--     SELECT a10.c3 FROM t0 AS a10 GROUP BY a10.c3 HAVING max((a10.c3 COLLATE NOCASE)) > 'Abc' ORDER BY 1;
CREATE TABLE t0(c0 DOUBLE DEFAULT -1, c1 BIGINT, c2 INTEGER, c3 BOOLEAN UNIQUE)
----
INSERT OR IGNORE INTO t0 VALUES (1e-308, 'y ', 3, 'X'), ('Müller', X'', -9223372036854775808, 'a'), (1, CAST(X'E282AC' AS TEXT), -2, 8)
----
SELECT a10.c3 FROM t0 AS a10 GROUP BY a10.c3 HAVING max((a10.c3 COLLATE NOCASE)) > 'Abc' ORDER BY 1
