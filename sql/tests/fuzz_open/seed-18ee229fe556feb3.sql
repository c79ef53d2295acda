-- seed 1796411371510234803: OursSucceeded at statement 4 (memory store)
--     sqlite: Err("integer overflow")
--     asadb:  0 rows
--   shrunk session:
--     CREATE TABLE t0(c0 CLOB CHECK (c0 IS NULL OR c0 <> 13), c1, c2 FLOAT, c3 BIGINT);
--     REPLACE INTO t0 VALUES (1.0, 1, NULL, 2);
--     CREATE TABLE t1(c0 TEXT NOT NULL DEFAULT 0, c1 BLOB, c2 NUMERIC DEFAULT 1.5);
--     INSERT OR IGNORE INTO t1 VALUES (-9.3e18, 0x10, -2.5), ('😀', 'x😀y', '-1'), ('0x10', -9223372036854775808, -2), ('1e5', -5, -3), ('1', 4, ' 12abc'), ('*', CAST(X'C3' AS TEXT), -2);
--     SELECT NULL, a00.c0, 1.0 FROM t0 AS a00 WHERE max(a00.c1, (SELECT min(0) FROM t1 AS a10 WHERE ((SELECT avg(a10.c3) FROM t0 AS a10) != abs(a10.c1) AND a10.c0 == a10.c1))) BETWEEN '0' AND 'ção' ORDER BY 1 DESC, 2 DESC, 3 LIMIT 4;
CREATE TABLE t0(c0 CLOB CHECK (c0 IS NULL OR c0 <> 13), c1, c2 FLOAT, c3 BIGINT)
----
REPLACE INTO t0 VALUES (1.0, 1, NULL, 2)
----
CREATE TABLE t1(c0 TEXT NOT NULL DEFAULT 0, c1 BLOB, c2 NUMERIC DEFAULT 1.5)
----
INSERT OR IGNORE INTO t1 VALUES (-9.3e18, 0x10, -2.5), ('😀', 'x😀y', '-1'), ('0x10', -9223372036854775808, -2), ('1e5', -5, -3), ('1', 4, ' 12abc'), ('*', CAST(X'C3' AS TEXT), -2)
----
SELECT NULL, a00.c0, 1.0 FROM t0 AS a00 WHERE max(a00.c1, (SELECT min(0) FROM t1 AS a10 WHERE ((SELECT avg(a10.c3) FROM t0 AS a10) != abs(a10.c1) AND a10.c0 == a10.c1))) BETWEEN '0' AND 'ção' ORDER BY 1 DESC, 2 DESC, 3 LIMIT 4
