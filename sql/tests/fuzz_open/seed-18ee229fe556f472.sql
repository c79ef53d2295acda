-- seed 1796411371510232178: OursFailed at statement 2 (memory store)
--     sqlite: 6 rows
--       [Null, Null]
--       [Null, Null]
--       [Null, Null]
--       [Null, Null]
--       [Null, Null]
--       [Null, Null]
--     asadb:  Err("malformed JSON")
--   shrunk session:
--     CREATE TABLE t0(c0 REAL UNIQUE, c1 CLOB COLLATE RTRIM, c2 BOOLEAN, c3 BOOLEAN);
--     INSERT INTO t0 VALUES (-9223372036854775807, 6, 7, 'x'), ('😀', '[a-c]*', -0.0, -9223372036854775807), ('X', -1e308, 'x', '[a-c]*'), (2147483647, 'x😀y', 'X', 'ção'), (2, 'ABC', '10', CAST(X'C3' AS TEXT)), (1e308, '1 ', 9223372036854775806, 0.5);
--     SELECT NULL, (NULL << (SELECT max(atom) FROM json_each(a00.c1))) FROM t0 AS a00;
CREATE TABLE t0(c0 REAL UNIQUE, c1 CLOB COLLATE RTRIM, c2 BOOLEAN, c3 BOOLEAN)
----
INSERT INTO t0 VALUES (-9223372036854775807, 6, 7, 'x'), ('😀', '[a-c]*', -0.0, -9223372036854775807), ('X', -1e308, 'x', '[a-c]*'), (2147483647, 'x😀y', 'X', 'ção'), (2, 'ABC', '10', CAST(X'C3' AS TEXT)), (1e308, '1 ', 9223372036854775806, 0.5)
----
SELECT NULL, (NULL << (SELECT max(atom) FROM json_each(a00.c1))) FROM t0 AS a00
