-- seed 1796411371510235417: Rows at statement 2 (memory store)
--     sqlite: 0 rows
--     asadb:  1 rows
--       [Text("y "), Text("b"), Text("1e5")]
--   shrunk session:
--     CREATE TABLE t0(c0 INTEGER UNIQUE, c1 NUMERIC UNIQUE DEFAULT 1.5, c2, c3);
--     INSERT OR IGNORE INTO t0 VALUES (CAST(X'E282AC' AS TEXT), 'y', 'abc', -9.3e18), ('a', 2147483647, 'ABC', '10'), (1.5, 10, 0x7FFFFFFFFFFFFFFF, 'X'), ('y ', -3, 'ção', 1.5);
--     SELECT a10.c0, 'b' AS "x1", '1e5' FROM t0 AS a10 WHERE a10.c0 IN (SELECT (a10.c1 COLLATE RTRIM) FROM t0 AS a10) ORDER BY 1 DESC, 2, 3 DESC LIMIT 1;
CREATE TABLE t0(c0 INTEGER UNIQUE, c1 NUMERIC UNIQUE DEFAULT 1.5, c2, c3)
----
INSERT OR IGNORE INTO t0 VALUES (CAST(X'E282AC' AS TEXT), 'y', 'abc', -9.3e18), ('a', 2147483647, 'ABC', '10'), (1.5, 10, 0x7FFFFFFFFFFFFFFF, 'X'), ('y ', -3, 'ção', 1.5)
----
SELECT a10.c0, 'b' AS "x1", '1e5' FROM t0 AS a10 WHERE a10.c0 IN (SELECT (a10.c1 COLLATE RTRIM) FROM t0 AS a10) ORDER BY 1 DESC, 2, 3 DESC LIMIT 1
