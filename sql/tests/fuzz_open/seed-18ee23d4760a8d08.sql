-- seed 1796412696787848456: Rows at statement 2 (memory store)
--     sqlite: 6 rows
--       [Real(1.0), Integer(3)]
--       [Real(1.0), Integer(3)]
--       [Real(1.0), Integer(3)]
--       [Real(1.0), Integer(1)]
--       [Real(1.0), Integer(1)]
--       [Real(1.0), Integer(1)]
--     asadb:  6 rows
--       [Real(1.0), Integer(3)]
--       [Real(1.0), Integer(3)]
--       [Real(1.0), Integer(3)]
--       [Real(1.0), Integer(4)]
--       [Real(1.0), Integer(1)]
--       [Real(1.0), Integer(1)]
--   shrunk session:
--     CREATE TABLE t2(c0 CLOB UNIQUE, c1 CLOB CHECK (c1 IS NULL OR c1 <> 13), c2 INTEGER, c3 CLOB NOT NULL DEFAULT 0);
--     REPLACE INTO t2 VALUES (X'4142', 0.0, 9223372036854775807, '10'), (0.0, 8, 0.151806728945089886206923794224573882182e-34, 8), (-1, '1', 9.2e18, '9223372036854775808'), (-9223372036854775807, 1, '9223372036854775808', X'41'), (0, '1', 9.223372036854775807e18, -1e308), ('1e5', '+1', 9.223372036854775807e18, X'C3A7');
--     SELECT 1.0, count(a00.c1) OVER (ORDER BY a00.c2 DESC RANGE BETWEEN 2 PRECEDING AND 2 FOLLOWING) AS "col1" FROM t2 AS a00;
CREATE TABLE t2(c0 CLOB UNIQUE, c1 CLOB CHECK (c1 IS NULL OR c1 <> 13), c2 INTEGER, c3 CLOB NOT NULL DEFAULT 0)
----
REPLACE INTO t2 VALUES (X'4142', 0.0, 9223372036854775807, '10'), (0.0, 8, 0.151806728945089886206923794224573882182e-34, 8), (-1, '1', 9.2e18, '9223372036854775808'), (-9223372036854775807, 1, '9223372036854775808', X'41'), (0, '1', 9.223372036854775807e18, -1e308), ('1e5', '+1', 9.223372036854775807e18, X'C3A7')
----
SELECT 1.0, count(a00.c1) OVER (ORDER BY a00.c2 DESC RANGE BETWEEN 2 PRECEDING AND 2 FOLLOWING) AS "col1" FROM t2 AS a00
