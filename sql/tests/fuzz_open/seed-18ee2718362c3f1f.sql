-- seed 1796416286308974367: Rows at statement 2 (memory store)
--     sqlite: 4 rows
--       [Integer(0), Real(1e-308), Integer(6)]
--       [Integer(16), Real(1000.0), Integer(6)]
--       [Text("%b%"), Real(-1.0), Integer(12)]
--       [Text("_"), Real(1e-308), Integer(6)]
--     asadb:  5 rows
--       [Integer(0), Real(1e-308), Integer(6)]
--       [Integer(16), Real(1000.0), Integer(6)]
--       [Real(inf), Real(10.0), Integer(6)]
--       [Text("%b%"), Real(-1.0), Integer(12)]
--       [Text("_"), Real(1e-308), Integer(6)]
--   shrunk session:
--     CREATE TABLE t0(c0 BOOLEAN DEFAULT 0, c1 BOOLEAN DEFAULT 1.5, c2 INT CHECK (c2 IS NULL OR c2 <> 13), c3 DOUBLE COLLATE RTRIM, c4 CLOB);
--     INSERT INTO t0 VALUES ('abc', '%b%', '', X'FF', 'x'), ('x😀y', '_', 1234567890123456789012345678901234567890, 6, 1e-308), ('X', '0', 2, 'X', 1e-308), ('ABC', 1e400, '*', '9223372036854775808', 10), (CAST(X'E282AC' AS TEXT), '%b%', '_', '1e5', -1), (-9.3e18, 0x10, 9210000000000000000, '-1', 1e3);
--     SELECT a00.c1, total(DISTINCT a00.c4), count(a00.c3) FROM t0 AS a00 JOIN t0 AS a01 ON (a00.c3, a01.c4) NOT IN ((-5, a01.c3), (9223372036854775806, a01.c4)) GROUP BY a00.c1;
CREATE TABLE t0(c0 BOOLEAN DEFAULT 0, c1 BOOLEAN DEFAULT 1.5, c2 INT CHECK (c2 IS NULL OR c2 <> 13), c3 DOUBLE COLLATE RTRIM, c4 CLOB)
----
INSERT INTO t0 VALUES ('abc', '%b%', '', X'FF', 'x'), ('x😀y', '_', 1234567890123456789012345678901234567890, 6, 1e-308), ('X', '0', 2, 'X', 1e-308), ('ABC', 1e400, '*', '9223372036854775808', 10), (CAST(X'E282AC' AS TEXT), '%b%', '_', '1e5', -1), (-9.3e18, 0x10, 9210000000000000000, '-1', 1e3)
----
SELECT a00.c1, total(DISTINCT a00.c4), count(a00.c3) FROM t0 AS a00 JOIN t0 AS a01 ON (a00.c3, a01.c4) NOT IN ((-5, a01.c3), (9223372036854775806, a01.c4)) GROUP BY a00.c1
