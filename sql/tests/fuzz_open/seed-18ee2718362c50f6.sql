-- seed 1796416286308978934: Rows at statement 3 (memory store)
--     sqlite: 40 rows
--       [Null, Integer(0), Null]
--       [Null, Integer(0), Null]
--       [Null, Integer(0), Null]
--       [Null, Integer(0), Null]
--       [Null, Integer(0), Null]
--       [Null, Integer(0), Null]
--       [Null, Integer(0), Null]
--       [Null, Integer(0), Null]
--       [Null, Integer(0), Null]
--       [Null, Integer(0), Null]
--       [Null, Integer(0), Null]
--       [Null, Integer(0), Null]
--     asadb:  56 rows
--       [Null, Integer(0), Null]
--       [Null, Integer(0), Null]
--       [Null, Integer(0), Null]
--       [Null, Integer(0), Null]
--       [Null, Integer(0), Null]
--       [Null, Integer(0), Null]
--       [Null, Integer(0), Null]
--       [Null, Integer(0), Null]
--       [Null, Integer(0), Null]
--       [Null, Integer(0), Null]
--       [Null, Integer(0), Null]
--       [Null, Integer(0), Null]
--   shrunk session:
--     CREATE TABLE t0(c0 FLOAT COLLATE NOCASE, c1 BOOLEAN COLLATE NOCASE CHECK (c1 IS NULL OR c1 <> 13), c2 NUMERIC, c3 TEXT UNIQUE);
--     CREATE TABLE t2(c0 COLLATE NOCASE, c1 CLOB, c2 DOUBLE, c3 COLLATE NOCASE DEFAULT 0, c4 BOOLEAN);
--     INSERT OR REPLACE INTO t0 VALUES ('1 ', 'A', 0x7FFFFFFFFFFFFFFF, CAST(X'41FF42' AS TEXT)), (-0.0, -9.3e18, '*', 1e400), ('1', 3.14159, '%', 'A'), ('y ', -1e308, CAST(X'41FF42' AS TEXT), '%b%'), (9.223372036854775807e18, X'FF', -0.0, 1e-308), (-9223372036854775808, '10', 'A', 'abc'), (10, 'a', 4294967296, '1e5'), ('Abc', 'abc', 'ABC', X'FF');
--     SELECT NULL, 0, a01.c2 AS "x2" FROM t0 AS a00 LEFT JOIN t2 AS a01 ON a00.c0 = a01.c2 JOIN t0 AS a02 ON ('Müller', 1e400) > (1.0, a01.c0) WHERE (a02.c1, a00.c3) NOT IN (SELECT a10.c2, NULL AS "Müller1" FROM t0 AS a10);
CREATE TABLE t0(c0 FLOAT COLLATE NOCASE, c1 BOOLEAN COLLATE NOCASE CHECK (c1 IS NULL OR c1 <> 13), c2 NUMERIC, c3 TEXT UNIQUE)
----
CREATE TABLE t2(c0 COLLATE NOCASE, c1 CLOB, c2 DOUBLE, c3 COLLATE NOCASE DEFAULT 0, c4 BOOLEAN)
----
INSERT OR REPLACE INTO t0 VALUES ('1 ', 'A', 0x7FFFFFFFFFFFFFFF, CAST(X'41FF42' AS TEXT)), (-0.0, -9.3e18, '*', 1e400), ('1', 3.14159, '%', 'A'), ('y ', -1e308, CAST(X'41FF42' AS TEXT), '%b%'), (9.223372036854775807e18, X'FF', -0.0, 1e-308), (-9223372036854775808, '10', 'A', 'abc'), (10, 'a', 4294967296, '1e5'), ('Abc', 'abc', 'ABC', X'FF')
----
SELECT NULL, 0, a01.c2 AS "x2" FROM t0 AS a00 LEFT JOIN t2 AS a01 ON a00.c0 = a01.c2 JOIN t0 AS a02 ON ('Müller', 1e400) > (1.0, a01.c0) WHERE (a02.c1, a00.c3) NOT IN (SELECT a10.c2, NULL AS "Müller1" FROM t0 AS a10)
