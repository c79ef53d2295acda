-- seed 1796411371510246616: Rows at statement 2 (memory store)
--     sqlite: 1 rows
--       [Text("+1"), Null, Integer(4294967296)]
--     asadb:  1 rows
--       [Text("+1"), Null, Integer(10)]
--   shrunk session:
--     CREATE TABLE t0(c0 DECIMAL(10,2) NOT NULL DEFAULT 0, c1 VARCHAR(10), c2 CLOB, c3 FLOAT COLLATE RTRIM, c4 FLOAT);
--     INSERT INTO t0 VALUES (10, 'x😀y', '9223372036854775808', X'41', X''), (0x10, ' 1', '1 ', 'X', 0), (4294967296, '%b%', -9.3e18, '*', 3);
--     SELECT '+1', CASE a00.c3 WHEN 'ABC' THEN (SELECT DISTINCT min(DISTINCT (a00.c3 << 0x7FFFFFFFFFFFFFFF)) FROM t0 AS a10) END, a00.c0 FROM t0 AS a00;
CREATE TABLE t0(c0 DECIMAL(10,2) NOT NULL DEFAULT 0, c1 VARCHAR(10), c2 CLOB, c3 FLOAT COLLATE RTRIM, c4 FLOAT)
----
INSERT INTO t0 VALUES (10, 'x😀y', '9223372036854775808', X'41', X''), (0x10, ' 1', '1 ', 'X', 0), (4294967296, '%b%', -9.3e18, '*', 3)
----
SELECT '+1', CASE a00.c3 WHEN 'ABC' THEN (SELECT DISTINCT min(DISTINCT (a00.c3 << 0x7FFFFFFFFFFFFFFF)) FROM t0 AS a10) END, a00.c0 FROM t0 AS a00
