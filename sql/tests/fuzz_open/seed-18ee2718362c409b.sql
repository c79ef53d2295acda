-- seed 1796416286308974747: Rows at statement 2 (memory store)
--     sqlite: 6 rows
--       [Text("%b%"), Real(100.0), Real(7.0)]
--       [Text("-1"), Real(0.0), Real(inf)]
--       [Text("0.0"), Real(1.0), Real(0.0)]
--       [Text("1.0"), Real(8.0), Real(8.0)]
--       [Text("10"), Real(100000.0), Blob([0])]
--       [Blob([]), Real(16.0), Text("*")]
--     asadb:  6 rows
--       [Text("%b%"), Real(100.0), Real(7.0)]
--       [Text("-1"), Real(0.0), Real(inf)]
--       [Text("0.0"), Real(0.0), Real(1.5180672894508987e-35)]
--       [Text("1.0"), Real(8.0), Real(8.0)]
--       [Text("10"), Real(100000.0), Blob([0])]
--       [Blob([]), Real(16.0), Text("*")]
--   shrunk session:
--     CREATE TABLE t1(c0 CLOB, c1 BOOLEAN, c2 REAL UNIQUE);
--     INSERT OR IGNORE INTO t1 VALUES (10, '1e5', X'00'), (0.0, '+1', 0.0), (-1, X'4142', 1e400), ('%b%', 100, 7), (1.0, 8, 8), (0.0, 'x', 0.151806728945089886206923794224573882182e-34), ('%b%', '%', 0), (X'', 0x10, '*');
--     SELECT a00.c0, total(a00.c1), min(a00.c2) FROM t1 AS a00 WHERE ('1 ', a00.c1) NOT IN ((a00.c2, a00.c0), (a00.c1, a00.c1), (a00.c0, a00.c1)) GROUP BY a00.c0;
CREATE TABLE t1(c0 CLOB, c1 BOOLEAN, c2 REAL UNIQUE)
----
INSERT OR IGNORE INTO t1 VALUES (10, '1e5', X'00'), (0.0, '+1', 0.0), (-1, X'4142', 1e400), ('%b%', 100, 7), (1.0, 8, 8), (0.0, 'x', 0.151806728945089886206923794224573882182e-34), ('%b%', '%', 0), (X'', 0x10, '*')
----
SELECT a00.c0, total(a00.c1), min(a00.c2) FROM t1 AS a00 WHERE ('1 ', a00.c1) NOT IN ((a00.c2, a00.c0), (a00.c1, a00.c1), (a00.c0, a00.c1)) GROUP BY a00.c0
