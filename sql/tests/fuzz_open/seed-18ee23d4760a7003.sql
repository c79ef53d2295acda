-- seed 1796412696787841027: Rows at statement 3 (memory store)
--     sqlite: 6 rows
--       [Real(inf), Integer(1), Text("a")]
--       [Real(inf), Integer(2), Real(-9.3e18)]
--       [Real(inf), Integer(2), Real(1.5)]
--       [Real(inf), Integer(2), Text("a ")]
--       [Real(inf), Integer(2), Text("0x10")]
--       [Real(inf), Integer(1), Text("�" (x'FF'))]
--     asadb:  6 rows
--       [Real(inf), Integer(1), Text("a")]
--       [Real(inf), Integer(2), Real(-9.3e18)]
--       [Real(inf), Integer(1), Real(1.5)]
--       [Real(inf), Integer(2), Text("a ")]
--       [Real(inf), Integer(2), Text("0x10")]
--       [Real(inf), Integer(1), Text("�" (x'FF'))]
--   shrunk session:
--     CREATE TABLE t0(c0 INT, c1 COLLATE NOCASE, c2 VARCHAR(10), c3 NUMERIC, c4 DECIMAL(10,2) CHECK (c4 IS NULL OR c4 <> 13));
--     INSERT OR REPLACE INTO t0 VALUES (1.0, 0.0, 10, 1.5, '9223372036854775808');
--     INSERT INTO t0 VALUES (1.0, 'a', 2, 'a ', 'X'), (-1, 'b', 7, CAST(X'FF' AS TEXT), X'4142'), ('0x10', 'a ', 1e3, -9.3e18, 9223372036854775807), (0.0, -9223372036854775807, 'São Paulo', 'a', 100), (0, -5, 'ção', '0x10', 'X');
--     SELECT DISTINCT 1e400, count(a00.c0) OVER (ORDER BY a00.c4 RANGE BETWEEN 2 PRECEDING AND 2 FOLLOWING) AS "😀1", a00.c3 FROM t0 AS a00;
CREATE TABLE t0(c0 INT, c1 COLLATE NOCASE, c2 VARCHAR(10), c3 NUMERIC, c4 DECIMAL(10,2) CHECK (c4 IS NULL OR c4 <> 13))
----
INSERT OR REPLACE INTO t0 VALUES (1.0, 0.0, 10, 1.5, '9223372036854775808')
----
INSERT INTO t0 VALUES (1.0, 'a', 2, 'a ', 'X'), (-1, 'b', 7, CAST(X'FF' AS TEXT), X'4142'), ('0x10', 'a ', 1e3, -9.3e18, 9223372036854775807), (0.0, -9223372036854775807, 'São Paulo', 'a', 100), (0, -5, 'ção', '0x10', 'X')
----
SELECT DISTINCT 1e400, count(a00.c0) OVER (ORDER BY a00.c4 RANGE BETWEEN 2 PRECEDING AND 2 FOLLOWING) AS "😀1", a00.c3 FROM t0 AS a00
