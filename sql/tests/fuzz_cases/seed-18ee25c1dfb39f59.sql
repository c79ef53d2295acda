-- seed 1796414815979413337: OursFailed at statement 1 (memory store)
--     sqlite: 0 rows
--     asadb:  Err("misuse of aggregate: max()")
--   shrunk session:
--     CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 BLOB, c2 BIGINT COLLATE RTRIM);
--     SELECT -9.3e18 FROM t0 AS a00 WHERE (a00.c0 NOT IN () OR a00.c0 NOT IN (SELECT a10.c2 FROM t0 AS a10 GROUP BY a10.c2 HAVING max((-2.5 & a00.c2)) > 1.5)) ORDER BY 1;
CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 BLOB, c2 BIGINT COLLATE RTRIM)
----
SELECT -9.3e18 FROM t0 AS a00 WHERE (a00.c0 NOT IN () OR a00.c0 NOT IN (SELECT a10.c2 FROM t0 AS a10 GROUP BY a10.c2 HAVING max((-2.5 & a00.c2)) > 1.5)) ORDER BY 1
