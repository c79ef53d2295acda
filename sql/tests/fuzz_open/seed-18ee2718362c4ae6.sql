-- seed 1796416286308977382: Rows at statement 3 (memory store)
--     sqlite: 144 rows
--       [Integer(-1), Real(-1e308)]
--       [Integer(-1), Real(-1e308)]
--       [Integer(-1), Real(-1e308)]
--       [Integer(-1), Real(-1e308)]
--       [Integer(-1), Real(-1e308)]
--       [Integer(-1), Real(-1e308)]
--       [Integer(-1), Real(-1e308)]
--       [Integer(-1), Real(-1e308)]
--       [Integer(-1), Real(-1e308)]
--       [Integer(-1), Real(-1e308)]
--       [Integer(-1), Real(-1e308)]
--       [Integer(-1), Real(-1e308)]
--     asadb:  143 rows
--       [Integer(-1), Real(-1e308)]
--       [Integer(-1), Real(-1e308)]
--       [Integer(-1), Real(-1e308)]
--       [Integer(-1), Real(-1e308)]
--       [Integer(-1), Real(-1e308)]
--       [Integer(-1), Real(-1e308)]
--       [Integer(-1), Real(-1e308)]
--       [Integer(-1), Real(-1e308)]
--       [Integer(-1), Real(-1e308)]
--       [Integer(-1), Real(-1e308)]
--       [Integer(-1), Real(-1e308)]
--       [Integer(-1), Real(-1e308)]
--   shrunk session:
--     CREATE TABLE t0(c0 BLOB UNIQUE CHECK (c0 IS NULL OR c0 <> 13), c1 NUMERIC, c2 BIGINT);
--     INSERT OR IGNORE INTO t0 VALUES (1e400, ' 12abc', 2), (-1e308, 'abc', '-1'), ('y', 7, X'4142'), ('10', X'FF', 'X'), ('abc', 10, 1.5);
--     INSERT OR IGNORE INTO t0 VALUES (CAST(X'C3' AS TEXT), 2, 9223372036854775807), (1234567890123456789012345678901234567890, 7, 7), (' 1', 'y ', 1), (0, 1e308, 9.2e18), (CAST(X'E282AC' AS TEXT), '10', 1e-308), (NULL, -0.0, 'y '), ('Müller', CAST(X'C3' AS TEXT), X'00');
--     SELECT a00.c2, a00.c0 FROM t0 AS a00 LEFT OUTER JOIN t0 AS a01 ON 1 WHERE (a01.c0, a01.c1, '1.5') NOT IN ((a00.c2, a01.c0, a00.c2), (a01.c2, a00.c2, a00.c1), (1.5, 0.5, '*')) ORDER BY 1, 2;
CREATE TABLE t0(c0 BLOB UNIQUE CHECK (c0 IS NULL OR c0 <> 13), c1 NUMERIC, c2 BIGINT)
----
INSERT OR IGNORE INTO t0 VALUES (1e400, ' 12abc', 2), (-1e308, 'abc', '-1'), ('y', 7, X'4142'), ('10', X'FF', 'X'), ('abc', 10, 1.5)
----
INSERT OR IGNORE INTO t0 VALUES (CAST(X'C3' AS TEXT), 2, 9223372036854775807), (1234567890123456789012345678901234567890, 7, 7), (' 1', 'y ', 1), (0, 1e308, 9.2e18), (CAST(X'E282AC' AS TEXT), '10', 1e-308), (NULL, -0.0, 'y '), ('Müller', CAST(X'C3' AS TEXT), X'00')
----
SELECT a00.c2, a00.c0 FROM t0 AS a00 LEFT OUTER JOIN t0 AS a01 ON 1 WHERE (a01.c0, a01.c1, '1.5') NOT IN ((a00.c2, a01.c0, a00.c2), (a01.c2, a00.c2, a00.c1), (1.5, 0.5, '*')) ORDER BY 1, 2
