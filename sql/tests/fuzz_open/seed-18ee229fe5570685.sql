-- seed 1796411371510236805: Rows at statement 3 (memory store)
--     sqlite: 3 rows
--       [Integer(1)]
--       [Integer(100)]
--       [Integer(9210000000000000000)]
--     asadb:  3 rows
--       [Integer(100)]
--       [Integer(9210000000000000000)]
--       [Text("Abc")]
--   shrunk session:
--     CREATE TABLE t0(c0 INT COLLATE NOCASE UNIQUE, c1 NUMERIC, c2 DOUBLE, c3 DECIMAL(10,2), c4 INT UNIQUE DEFAULT NULL, UNIQUE (c0, c1));
--     INSERT OR REPLACE INTO t0 VALUES ('0x10', 'y ', 'a', 'Müller', 7), (3.14159, X'', '10', -3, 'X'), ('y ', -5, '0', 'X', 'a%'), (0xFFFFFFFFFFFFFFFF, 'Abc', 9.2e18, 'ção', 1), (-9223372036854775808, 1, 'abc', '%', '*'), (7, 9210000000000000000, '1', CAST(X'FF' AS TEXT), 'a '), ('1 ', 0.0, 'abc', 0.151806728945089886206923794224573882182e-34, '-1'), ('Abc', 100, 'ção', 1e308, NULL);
--     INSERT OR REPLACE INTO t0 VALUES (1, 1e3, 4, 10, '😀'), ('y ', 1.0, '1.5', NULL, 1) ON CONFLICT DO UPDATE SET c1 = c4;
--     SELECT a00.c1 FROM t0 AS a00 GROUP BY a00.c1 ORDER BY 1 LIMIT 3 OFFSET 2;
CREATE TABLE t0(c0 INT COLLATE NOCASE UNIQUE, c1 NUMERIC, c2 DOUBLE, c3 DECIMAL(10,2), c4 INT UNIQUE DEFAULT NULL, UNIQUE (c0, c1))
----
INSERT OR REPLACE INTO t0 VALUES ('0x10', 'y ', 'a', 'Müller', 7), (3.14159, X'', '10', -3, 'X'), ('y ', -5, '0', 'X', 'a%'), (0xFFFFFFFFFFFFFFFF, 'Abc', 9.2e18, 'ção', 1), (-9223372036854775808, 1, 'abc', '%', '*'), (7, 9210000000000000000, '1', CAST(X'FF' AS TEXT), 'a '), ('1 ', 0.0, 'abc', 0.151806728945089886206923794224573882182e-34, '-1'), ('Abc', 100, 'ção', 1e308, NULL)
----
INSERT OR REPLACE INTO t0 VALUES (1, 1e3, 4, 10, '😀'), ('y ', 1.0, '1.5', NULL, 1) ON CONFLICT DO UPDATE SET c1 = c4
----
SELECT a00.c1 FROM t0 AS a00 GROUP BY a00.c1 ORDER BY 1 LIMIT 3 OFFSET 2
