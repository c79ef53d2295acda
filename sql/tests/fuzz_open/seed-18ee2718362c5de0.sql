-- seed 1796416286308982240: Rows at statement 2 (memory store)
--     sqlite: 1 rows
--       [Text("10"), Text("10"), Text("10")]
--     asadb:  0 rows
--   shrunk session:
--     CREATE TABLE t0(c0 DECIMAL(10,2) COLLATE NOCASE, c1 BLOB, c2 BOOLEAN NOT NULL DEFAULT 0);
--     INSERT OR REPLACE INTO t0 VALUES ('y', '10', 'X');
--     SELECT a00.c1, a00.c1, a00.c1 FROM t0 AS a00 WHERE (10, a00.c1) IN ((a00.c2, CAST(X'FF' AS TEXT)), (a00.c1, a00.c1), (a00.c0, a00.c1)) GROUP BY a00.c1, a00.c1;
CREATE TABLE t0(c0 DECIMAL(10,2) COLLATE NOCASE, c1 BLOB, c2 BOOLEAN NOT NULL DEFAULT 0)
----
INSERT OR REPLACE INTO t0 VALUES ('y', '10', 'X')
----
SELECT a00.c1, a00.c1, a00.c1 FROM t0 AS a00 WHERE (10, a00.c1) IN ((a00.c2, CAST(X'FF' AS TEXT)), (a00.c1, a00.c1), (a00.c0, a00.c1)) GROUP BY a00.c1, a00.c1
