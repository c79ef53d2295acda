-- seed 1796416286308982286: OursFailed at statement 3 (memory store)
--     sqlite: 9 rows
--       [Null, Text("X")]
--       [Null, Text("7")]
--       [Null, Text("a ")]
--       [Null, Text("a")]
--       [Null, Text("4294967296")]
--       [Null, Text("_")]
--       [Null, Text("São Paulo")]
--       [Null, Text("a%")]
--       [Null, Text("9223372036854775807")]
--     asadb:  Err("integer overflow")
--   shrunk session:
--     CREATE TABLE t2(c0 DOUBLE, c1 CLOB, c2 BOOLEAN, c3 NUMERIC, c4 BIGINT DEFAULT 'x');
--     INSERT OR REPLACE INTO t2 VALUES (10, 'X', '9223372036854775808', -9.3e18, 9223372036854775808), (1e3, 7, '[a-c]*', 0x7FFFFFFFFFFFFFFF, X'41'), (3.14159, 'a ', 0.5, 1e3, 100), ('y ', 'a', 3, 'x', 9.21e18), (1.0, 4294967296, ' 12abc', '0', -5), (-2, '_', -9223372036854775807, 100, 1), (-9.3e18, 'São Paulo', CAST(X'41FF42' AS TEXT), '1', '1e5'), (9223372036854775806, 'a%', X'00', -1, 'x');
--     INSERT OR IGNORE INTO t2 VALUES ('a', 9223372036854775807, 6, '%', CAST(X'FF' AS TEXT));
--     SELECT (NULL - (SELECT sum(CAST(a10.c1 AS INT)) FROM t2 AS a10)), a10.c1 FROM t2 AS a10;
CREATE TABLE t2(c0 DOUBLE, c1 CLOB, c2 BOOLEAN, c3 NUMERIC, c4 BIGINT DEFAULT 'x')
----
INSERT OR REPLACE INTO t2 VALUES (10, 'X', '9223372036854775808', -9.3e18, 9223372036854775808), (1e3, 7, '[a-c]*', 0x7FFFFFFFFFFFFFFF, X'41'), (3.14159, 'a ', 0.5, 1e3, 100), ('y ', 'a', 3, 'x', 9.21e18), (1.0, 4294967296, ' 12abc', '0', -5), (-2, '_', -9223372036854775807, 100, 1), (-9.3e18, 'São Paulo', CAST(X'41FF42' AS TEXT), '1', '1e5'), (9223372036854775806, 'a%', X'00', -1, 'x')
----
INSERT OR IGNORE INTO t2 VALUES ('a', 9223372036854775807, 6, '%', CAST(X'FF' AS TEXT))
----
SELECT (NULL - (SELECT sum(CAST(a10.c1 AS INT)) FROM t2 AS a10)), a10.c1 FROM t2 AS a10
