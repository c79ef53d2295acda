-- seed 1796414815979409300: OursFailed at statement 7 (memory store)
--     sqlite: 1 rows
--       [Null, Text("[]")]
--     asadb:  Err("integer overflow")
--   shrunk session:
--     CREATE TABLE t0(c0 INT, c1 BLOB, PRIMARY KEY (c1)) WITHOUT ROWID;
--     INSERT INTO t0 VALUES ('*', 9210000000000000000);
--     CREATE TABLE t1(c0 TEXT NOT NULL DEFAULT 0, c1 FLOAT);
--     REPLACE INTO t1 VALUES (-9223372036854775808, 1e400);
--     CREATE TABLE t2(c0 BIGINT DEFAULT 1.5, c1 BOOLEAN, c2 CLOB, c3 DOUBLE, c4 NUMERIC);
--     INSERT INTO t2 VALUES (-1, 1e3, 9.21e18, '_', ''), ('y ', 'x', 9210000000000000000, CAST(X'FF' AS TEXT), 'a '), (0.5, 9.223372036854775807e18, 'abc', NULL, NULL), ('A', '10', 'y', 3.14159, 0.0), (X'00', CAST(X'E282AC' AS TEXT), 'y ', '', '*'), ('10', '1 ', 3, 1e3, -2.5), (' 1', 0x7FFFFFFFFFFFFFFF, 3.14159, -9223372036854775808, 'y ');
--     INSERT INTO t2 VALUES ('y ', -3, 9223372036854775808, 7, -1e308);
--     SELECT group_concat(a01.c0, '|' ORDER BY a01.c0, typeof(a01.c0), hex(a01.c0)), json_group_array(CASE WHEN typeof(9.21e18) <> 'blob' THEN 9.21e18 END ORDER BY CASE WHEN typeof(9.21e18) <> 'blob' THEN 9.21e18 END, typeof(CASE WHEN typeof(9.21e18) <> 'blob' THEN 9.21e18 END), hex(CASE WHEN typeof(9.21e18) <> 'blob' THEN 9.21e18 END)) FROM t1 AS a00, t0 AS a01 FULL OUTER JOIN t2 AS a02 ON (a01.c0, a02.c1) = (SELECT sum(a10.c1), total(a10.c1) FROM t2 AS a10 WHERE (a10.c4, 0xFFFFFFFFFFFFFFFF) < (SELECT min(DISTINCT a10.c1), sum((a10.c4 & '-1')) FROM t2 AS a10)) WHERE a00.c1 >= NULL;
CREATE TABLE t0(c0 INT, c1 BLOB, PRIMARY KEY (c1)) WITHOUT ROWID
----
INSERT INTO t0 VALUES ('*', 9210000000000000000)
----
CREATE TABLE t1(c0 TEXT NOT NULL DEFAULT 0, c1 FLOAT)
----
REPLACE INTO t1 VALUES (-9223372036854775808, 1e400)
----
CREATE TABLE t2(c0 BIGINT DEFAULT 1.5, c1 BOOLEAN, c2 CLOB, c3 DOUBLE, c4 NUMERIC)
----
INSERT INTO t2 VALUES (-1, 1e3, 9.21e18, '_', ''), ('y ', 'x', 9210000000000000000, CAST(X'FF' AS TEXT), 'a '), (0.5, 9.223372036854775807e18, 'abc', NULL, NULL), ('A', '10', 'y', 3.14159, 0.0), (X'00', CAST(X'E282AC' AS TEXT), 'y ', '', '*'), ('10', '1 ', 3, 1e3, -2.5), (' 1', 0x7FFFFFFFFFFFFFFF, 3.14159, -9223372036854775808, 'y ')
----
INSERT INTO t2 VALUES ('y ', -3, 9223372036854775808, 7, -1e308)
----
SELECT group_concat(a01.c0, '|' ORDER BY a01.c0, typeof(a01.c0), hex(a01.c0)), json_group_array(CASE WHEN typeof(9.21e18) <> 'blob' THEN 9.21e18 END ORDER BY CASE WHEN typeof(9.21e18) <> 'blob' THEN 9.21e18 END, typeof(CASE WHEN typeof(9.21e18) <> 'blob' THEN 9.21e18 END), hex(CASE WHEN typeof(9.21e18) <> 'blob' THEN 9.21e18 END)) FROM t1 AS a00, t0 AS a01 FULL OUTER JOIN t2 AS a02 ON (a01.c0, a02.c1) = (SELECT sum(a10.c1), total(a10.c1) FROM t2 AS a10 WHERE (a10.c4, 0xFFFFFFFFFFFFFFFF) < (SELECT min(DISTINCT a10.c1), sum((a10.c4 & '-1')) FROM t2 AS a10)) WHERE a00.c1 >= NULL
