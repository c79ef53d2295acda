-- seed 1796412696787844274: OursSucceeded at statement 1 (memory store)
--     sqlite: Err("misuse of aggregate: sum() in SELECT a00.c0, max((SELECT sum(a00.c0) FROM t1 AS a10)) OVER (ORDER BY a00.c1 GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING), 'x😀y' FROM t1 AS a00 ORDER BY 1, 2, 3 LIMIT 3 at offset 27")
--     asadb:  1 rows
--       [Null, Null, Text("x😀y")]
--   shrunk session:
--     CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 VARCHAR(10));
--     SELECT a00.c0, max((SELECT sum(a00.c0) FROM t1 AS a10)) OVER (ORDER BY a00.c1 GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING), 'x😀y' FROM t1 AS a00 ORDER BY 1, 2, 3 LIMIT 3;
CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 VARCHAR(10))
----
SELECT a00.c0, max((SELECT sum(a00.c0) FROM t1 AS a10)) OVER (ORDER BY a00.c1 GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING), 'x😀y' FROM t1 AS a00 ORDER BY 1, 2, 3 LIMIT 3
