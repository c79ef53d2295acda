-- seed 1796165709537948360: Rows at statement 2 (memory store)
--     sqlite: 7 rows
--       [Real(inf), Real(inf), Integer(-1)]
--       [Integer(8), Integer(8), Integer(16)]
--       [Integer(-1), Integer(-1), Text("0x10")]
--       [Text("�"), Text("�"), Blob([65, 66])]
--       [Integer(0), Integer(0), Integer(1)]
--       [Blob([65, 66]), Blob([65, 66]), Integer(7)]
--       [Real(1.5180672894508987e-35), Real(1.5180672894508987e-35), Integer(9200000000000000000)]
--     asadb:  6 rows
--       [Real(inf), Real(inf), Integer(-1)]
--       [Integer(8), Integer(8), Integer(16)]
--       [Integer(-1), Integer(-1), Text("0x10")]
--       [Integer(0), Integer(0), Integer(1)]
--       [Blob([65, 66]), Blob([65, 66]), Integer(7)]
--       [Real(1.5180672894508987e-35), Real(1.5180672894508987e-35), Integer(9200000000000000000)]
--   shrunk session:
--     CREATE TABLE t0(c0 BOOLEAN COLLATE RTRIM, c1 NUMERIC, c2 BOOLEAN);
--     INSERT OR REPLACE INTO t0 VALUES ('9223372036854775808', 0xFFFFFFFFFFFFFFFF, 1e400), (X'', 0x10, 8), (-1e308, '0x10', -1), ('_', X'4142', CAST(X'C3' AS TEXT)), (-9223372036854775807, '1', '0'), ('1 ', 7, X'4142'), (-5, 9.2e18, 0.151806728945089886206923794224573882182e-34);
--     SELECT DISTINCT a00.c2 AS "col0", a00.c2, a00.c1 FROM t0 AS a00 WHERE CAST(X'FF' AS TEXT) IS NOT a00.c2;
CREATE TABLE t0(c0 BOOLEAN COLLATE RTRIM, c1 NUMERIC, c2 BOOLEAN)
----
INSERT OR REPLACE INTO t0 VALUES ('9223372036854775808', 0xFFFFFFFFFFFFFFFF, 1e400), (X'', 0x10, 8), (-1e308, '0x10', -1), ('_', X'4142', CAST(X'C3' AS TEXT)), (-9223372036854775807, '1', '0'), ('1 ', 7, X'4142'), (-5, 9.2e18, 0.151806728945089886206923794224573882182e-34)
----
SELECT DISTINCT a00.c2 AS "col0", a00.c2, a00.c1 FROM t0 AS a00 WHERE CAST(X'FF' AS TEXT) IS NOT a00.c2
