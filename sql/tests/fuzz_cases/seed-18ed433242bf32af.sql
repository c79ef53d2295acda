-- seed 1796165709537948335: Rows at statement 4 (memory store)
--     sqlite: 1 rows
--       [Null, Text("[\"a%\",null,9223372036854775806,\"€\"]"), Real(9.223372036854776e18)]
--     asadb:  1 rows
--       [Null, Text("[9223372036854775806,null,\"€\",\"a%\"]"), Real(9.223372036854776e18)]
--   shrunk session:
--     CREATE TABLE t0(c0 BIGINT, c1 VARCHAR(10), c2 FLOAT COLLATE NOCASE, c3 BLOB, c4 DECIMAL(10,2));
--     REPLACE INTO t0 VALUES ('', 7, '1 ', 9223372036854775806, 3.14159), ('y', 2, 'X', X'00', 'A'), (3, -1, '10', X'4142', -9.3e18), ('X', 9223372036854775808, 6, CAST(X'E282AC' AS TEXT), 2147483647), (2, -1e308, -9223372036854775807, 'abc', 'Müller'), ('*', '', 9.21e18, 'a%', '%b%'), (-1, '*', -1e308, X'FF', 0x10), (1e400, 'x', 7, '1', 'abc');
--     CREATE INDEX i0 ON t0(c1, c3);
--     DELETE FROM t0 WHERE c0;
--     SELECT DISTINCT a01.atom, json_group_array(a00.c3), sum(DISTINCT a00.c1) FROM t0 AS a00 LEFT OUTER JOIN json_each('{"a":"x","b":true,"c":1.5}') AS a01 ON a00.c1 = a01.parent GROUP BY a01.atom;
CREATE TABLE t0(c0 BIGINT, c1 VARCHAR(10), c2 FLOAT COLLATE NOCASE, c3 BLOB, c4 DECIMAL(10,2))
----
REPLACE INTO t0 VALUES ('', 7, '1 ', 9223372036854775806, 3.14159), ('y', 2, 'X', X'00', 'A'), (3, -1, '10', X'4142', -9.3e18), ('X', 9223372036854775808, 6, CAST(X'E282AC' AS TEXT), 2147483647), (2, -1e308, -9223372036854775807, 'abc', 'Müller'), ('*', '', 9.21e18, 'a%', '%b%'), (-1, '*', -1e308, X'FF', 0x10), (1e400, 'x', 7, '1', 'abc')
----
CREATE INDEX i0 ON t0(c1, c3)
----
DELETE FROM t0 WHERE c0
----
SELECT DISTINCT a01.atom, json_group_array(a00.c3), sum(DISTINCT a00.c1) FROM t0 AS a00 LEFT OUTER JOIN json_each('{"a":"x","b":true,"c":1.5}') AS a01 ON a00.c1 = a01.parent GROUP BY a01.atom
