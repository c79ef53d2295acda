-- seed 1796412696787849857: OursFailed at statement 2 (memory store)
--     sqlite: 1 rows
--       [Null, Null, Text("1.5")]
--     asadb:  Err("JSON cannot hold BLOB values")
--   shrunk session:
--     CREATE TABLE t1(c0 FLOAT, c1, c2 DECIMAL(10,2), c3 REAL);
--     INSERT INTO t1 VALUES ('Müller', 1e308, ' 12abc', 7), ('10', X'FF', -3, '1'), (X'41', 'b', '%b%', 1e400), (3, X'FF', -9223372036854775807, -9.3e18), (0x10, 0.0, 5, CAST(X'C3' AS TEXT));
--     SELECT NULL, a01.c2 AS "名前1", '1.5' FROM t1 AS a00 FULL JOIN t1 AS a01 ON a01.c2 IS json_array_insert('[9223372036854775807,9223372036854775808,-0.0]', '$.c.d', a00.c0) WHERE a00.c1;
CREATE TABLE t1(c0 FLOAT, c1, c2 DECIMAL(10,2), c3 REAL)
----
INSERT INTO t1 VALUES ('Müller', 1e308, ' 12abc', 7), ('10', X'FF', -3, '1'), (X'41', 'b', '%b%', 1e400), (3, X'FF', -9223372036854775807, -9.3e18), (0x10, 0.0, 5, CAST(X'C3' AS TEXT))
----
SELECT NULL, a01.c2 AS "名前1", '1.5' FROM t1 AS a00 FULL JOIN t1 AS a01 ON a01.c2 IS json_array_insert('[9223372036854775807,9223372036854775808,-0.0]', '$.c.d', a00.c0) WHERE a00.c1
