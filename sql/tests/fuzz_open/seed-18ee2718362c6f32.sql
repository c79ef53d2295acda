-- seed 1796416286308986674: Rows at statement 2 (memory store)
--     sqlite: 3 rows
--       [Text("X")]
--       [Text("Abc")]
--       [Integer(-1)]
--     asadb:  2 rows
--       [Text("X")]
--       [Integer(-1)]
--   shrunk session:
--     CREATE TABLE t0(c0 DECIMAL(10,2) COLLATE NOCASE DEFAULT 0, c1 TEXT);
--     INSERT OR REPLACE INTO t0 VALUES ('X', 1e3), (0xFFFFFFFFFFFFFFFF, 'y'), ('Abc', 9.21e18);
--     SELECT a00.c0 AS "col0" FROM t0 AS a00 WHERE ('ABC', a00.c0) NOT IN ((a00.c0, a00.c0), ('_', 'Müller')) ORDER BY 1 DESC;
CREATE TABLE t0(c0 DECIMAL(10,2) COLLATE NOCASE DEFAULT 0, c1 TEXT)
----
INSERT OR REPLACE INTO t0 VALUES ('X', 1e3), (0xFFFFFFFFFFFFFFFF, 'y'), ('Abc', 9.21e18)
----
SELECT a00.c0 AS "col0" FROM t0 AS a00 WHERE ('ABC', a00.c0) NOT IN ((a00.c0, a00.c0), ('_', 'Müller')) ORDER BY 1 DESC
