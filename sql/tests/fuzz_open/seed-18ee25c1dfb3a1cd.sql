-- seed 1796414815979413965: OursFailed at statement 4 (memory store)
--     sqlite: 0 rows
--     asadb:  Err("integer overflow")
--   shrunk session:
--     CREATE TABLE t0(c0 NUMERIC, c1 UNIQUE, c2 BOOLEAN, c3 TEXT, c4 DOUBLE);
--     INSERT OR REPLACE INTO t0 VALUES (CAST(X'FF' AS TEXT), 0xFFFFFFFFFFFFFFFF, 1, 'X', 'x😀y');
--     CREATE TABLE t1(c0 TEXT, c1, c2 NUMERIC UNIQUE);
--     INSERT INTO t1 VALUES (-3, -9223372036854775807, 0x10), ('a', 1, 'ABC'), ('*', 100, 2147483647), ('-1', 6, -2), ('10', '', 1e3), ('[a-c]*', '*', 'Müller'), ('%', 2, '%'), ('1.5', 'abc', 7);
--     SELECT a00.c4 FROM t0 AS a00 WHERE (a00.c0 NOT IN (SELECT (SELECT sum(-9223372036854775808) FROM t1 AS a10) FROM t0 AS a10) OR a00.c4 IS NOT a00.c0) ORDER BY 1 DESC LIMIT 1 OFFSET 2;
CREATE TABLE t0(c0 NUMERIC, c1 UNIQUE, c2 BOOLEAN, c3 TEXT, c4 DOUBLE)
----
INSERT OR REPLACE INTO t0 VALUES (CAST(X'FF' AS TEXT), 0xFFFFFFFFFFFFFFFF, 1, 'X', 'x😀y')
----
CREATE TABLE t1(c0 TEXT, c1, c2 NUMERIC UNIQUE)
----
INSERT INTO t1 VALUES (-3, -9223372036854775807, 0x10), ('a', 1, 'ABC'), ('*', 100, 2147483647), ('-1', 6, -2), ('10', '', 1e3), ('[a-c]*', '*', 'Müller'), ('%', 2, '%'), ('1.5', 'abc', 7)
----
SELECT a00.c4 FROM t0 AS a00 WHERE (a00.c0 NOT IN (SELECT (SELECT sum(-9223372036854775808) FROM t1 AS a10) FROM t0 AS a10) OR a00.c4 IS NOT a00.c0) ORDER BY 1 DESC LIMIT 1 OFFSET 2
