-- seed 1796416286308974406: OursFailed at statement 2 (memory store)
--     sqlite: 0 rows
--     asadb:  Err("misuse of aggregate: max()")
--   shrunk session:
--     CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 FLOAT, c2 BIGINT, c3 BOOLEAN, c4 VARCHAR(10));
--     CREATE TABLE t1(c0 NUMERIC, c1 CLOB, c2 DOUBLE);
--     SELECT a00.c1, -9223372036854775807, a00.c2 AS "x2" FROM t0 AS a00 WHERE ((a00.c4, a00.c3) >= (SELECT max(a10.c1), max(a00.c0) FROM t1 AS a10) OR 1 IS NOT NULL) ORDER BY 1, 2, 3;
CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 FLOAT, c2 BIGINT, c3 BOOLEAN, c4 VARCHAR(10))
----
CREATE TABLE t1(c0 NUMERIC, c1 CLOB, c2 DOUBLE)
----
SELECT a00.c1, -9223372036854775807, a00.c2 AS "x2" FROM t0 AS a00 WHERE ((a00.c4, a00.c3) >= (SELECT max(a10.c1), max(a00.c0) FROM t1 AS a10) OR 1 IS NOT NULL) ORDER BY 1, 2, 3
