-- seed 1796412696787850649: Rows at statement 3 (memory store)
--     sqlite: 1 rows
--       [Real(9.223372036854776e18), Real(9.223372036854776e18), Integer(1)]
--     asadb:  0 rows
--   shrunk session:
--     CREATE TABLE t0(c0, c1 FLOAT);
--     REPLACE INTO t0 VALUES ('0', '*');
--     WITH w AS (SELECT a10.c0, (1e400 | '%b%') FROM t0 AS a10) INSERT INTO t0 SELECT * FROM w ORDER BY 1, 2;
--     SELECT a10.c1, avg(a10.c1) AS "São1", count(a10.c1) FROM t0 AS a10 WHERE a10.c1 IN (SELECT (a10.c1 & a10.c1) FROM t0 AS a10) GROUP BY a10.c1;
CREATE TABLE t0(c0, c1 FLOAT)
----
REPLACE INTO t0 VALUES ('0', '*')
----
WITH w AS (SELECT a10.c0, (1e400 | '%b%') FROM t0 AS a10) INSERT INTO t0 SELECT * FROM w ORDER BY 1, 2
----
SELECT a10.c1, avg(a10.c1) AS "São1", count(a10.c1) FROM t0 AS a10 WHERE a10.c1 IN (SELECT (a10.c1 & a10.c1) FROM t0 AS a10) GROUP BY a10.c1
