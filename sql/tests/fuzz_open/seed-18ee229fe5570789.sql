-- seed 1796411371510237065: OursFailed at statement 2 (memory store)
--     sqlite: 7 rows
--       [Integer(16), Null]
--       [Integer(16), Null]
--       [Integer(16), Null]
--       [Integer(16), Null]
--       [Integer(16), Null]
--       [Integer(16), Null]
--       [Integer(16), Null]
--     asadb:  Err("JSON cannot hold BLOB values")
--   shrunk session:
--     CREATE TABLE t0(c0 DEFAULT 1.5, c1 BLOB, c2 INT CHECK (c2 IS NULL OR c2 <> 13), c3, c4 CLOB);
--     INSERT INTO t0 VALUES (-9223372036854775808, 1.5, 'y', 0.0, 1), (-1, 0x7FFFFFFFFFFFFFFF, 1.5, 10, 1e-308), (0x7FFFFFFFFFFFFFFF, -9223372036854775807, -9223372036854775807, CAST(X'E282AC' AS TEXT), 'X'), (6, NULL, 100, 'a%', 'A'), (' 1', X'C3A7', 'A', CAST(X'41FF42' AS TEXT), '%'), (X'4142', 9223372036854775808, 1e-308, 'a%', 1e308), ('X', -1e308, -2.5, CAST(X'C3' AS TEXT), -2.5);
--     SELECT 0x10, (NULL + (SELECT avg(a10.c2) FROM t0 AS a10 WHERE a10.c2 < json_quote(a10.c0))) FROM t0 AS a00;
CREATE TABLE t0(c0 DEFAULT 1.5, c1 BLOB, c2 INT CHECK (c2 IS NULL OR c2 <> 13), c3, c4 CLOB)
----
INSERT INTO t0 VALUES (-9223372036854775808, 1.5, 'y', 0.0, 1), (-1, 0x7FFFFFFFFFFFFFFF, 1.5, 10, 1e-308), (0x7FFFFFFFFFFFFFFF, -9223372036854775807, -9223372036854775807, CAST(X'E282AC' AS TEXT), 'X'), (6, NULL, 100, 'a%', 'A'), (' 1', X'C3A7', 'A', CAST(X'41FF42' AS TEXT), '%'), (X'4142', 9223372036854775808, 1e-308, 'a%', 1e308), ('X', -1e308, -2.5, CAST(X'C3' AS TEXT), -2.5)
----
SELECT 0x10, (NULL + (SELECT avg(a10.c2) FROM t0 AS a10 WHERE a10.c2 < json_quote(a10.c0))) FROM t0 AS a00
