-- seed 1796416286308975518: Rows at statement 2 (memory store)
--     sqlite: 1 rows
--       [Null, Text("1 "), Text("São Paulo")]
--     asadb:  1 rows
--       [Real(1.0), Text("1 "), Text("São Paulo")]
--   shrunk session:
--     CREATE TABLE t0(c0 REAL, c1 TEXT COLLATE NOCASE UNIQUE, c2 INT, c3);
--     INSERT INTO t0 VALUES (' 12abc', '1 ', 'São Paulo', 1.0);
--     SELECT (SELECT avg(a10.c3) FROM t0 AS a10 WHERE (a10.c0, a10.c1, a10.c1) NOT IN ((a10.c0, a10.c3, a10.c1), (a10.c2, 'a', a10.c2), (a10.c2, a10.c2, a00.c2))), '1 ', a00.c2 AS "x2" FROM t0 AS a00 ORDER BY 1, 2, 3 DESC;
CREATE TABLE t0(c0 REAL, c1 TEXT COLLATE NOCASE UNIQUE, c2 INT, c3)
----
INSERT INTO t0 VALUES (' 12abc', '1 ', 'São Paulo', 1.0)
----
SELECT (SELECT avg(a10.c3) FROM t0 AS a10 WHERE (a10.c0, a10.c1, a10.c1) NOT IN ((a10.c0, a10.c3, a10.c1), (a10.c2, 'a', a10.c2), (a10.c2, a10.c2, a00.c2))), '1 ', a00.c2 AS "x2" FROM t0 AS a00 ORDER BY 1, 2, 3 DESC
