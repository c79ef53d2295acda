-- seed 1796416286308987691: OursFailed at statement 2 (memory store)
--     sqlite: 0 rows
--     asadb:  Err("integer overflow")
--   shrunk session:
--     CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 DOUBLE);
--     CREATE UNIQUE INDEX i0 ON t0(c1);
--     SELECT 1, 'x😀y', a00.c1 FROM t0 AS a00 WHERE a00.c1 < ~(abs(-9223372036854775808));
CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 DOUBLE)
----
CREATE UNIQUE INDEX i0 ON t0(c1)
----
SELECT 1, 'x😀y', a00.c1 FROM t0 AS a00 WHERE a00.c1 < ~(abs(-9223372036854775808))
