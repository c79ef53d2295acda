-- seed 1796165709537948356: Rows at statement 2 (memory store)
--     sqlite: 8 rows
--       [Blob([45, 53, 46, 48]), Real(1.5), Real(-5.0)]
--       [Blob([57, 46, 50, 49, 101, 43, 49, 56]), Real(1.5), Real(9.21e18)]
--       [Blob([65, 255, 66]), Real(1.5), Text("A�B")]
--       [Blob([65]), Real(1.5), Text("A")]
--       [Blob([49, 46, 48]), Real(1.5), Real(1.0)]
--       [Blob([65]), Real(1.5), Blob([65])]
--       [Blob([57, 46, 50, 50, 51, 51, 55, 50, 48, 51, 54, 56, 53, 52, 55, 55, 53, 56, 101, 43, 49, 56]), Real(1.5), Real(9.223372036854776e18)]
--       [Blob([226, 130, 172]), Real(1.5), Text("€")]
--     asadb:  8 rows
--       [Blob([45, 53, 46, 48]), Real(1.5), Real(-5.0)]
--       [Blob([57, 46, 50, 49, 101, 43, 49, 56]), Real(1.5), Real(9.21e18)]
--       [Blob([65, 239, 191, 189, 66]), Real(1.5), Text("A�B")]
--       [Blob([65]), Real(1.5), Text("A")]
--       [Blob([49, 46, 48]), Real(1.5), Real(1.0)]
--       [Blob([65]), Real(1.5), Blob([65])]
--       [Blob([57, 46, 50, 50, 51, 51, 55, 50, 48, 51, 54, 56, 53, 52, 55, 55, 53, 56, 101, 43, 49, 56]), Real(1.5), Real(9.223372036854776e18)]
--       [Blob([226, 130, 172]), Real(1.5), Text("€")]
--   shrunk session:
--     CREATE TABLE t0(c0 BIGINT CHECK (c0 IS NULL OR c0 <> 13), c1 DOUBLE);
--     INSERT OR REPLACE INTO t0 VALUES (CAST(X'E282AC' AS TEXT), -5), (X'00', 9210000000000000000), ('_', CAST(X'41FF42' AS TEXT)), ('abc', 'A'), (1e3, 1), (100, X'41'), (X'', 9.223372036854775807e18), (9223372036854775807, CAST(X'E282AC' AS TEXT));
--     SELECT CAST((a00.c1 COLLATE BINARY) AS BLOB), 1.5 AS "Müller1", a00.c1 FROM t0 AS a00;
CREATE TABLE t0(c0 BIGINT CHECK (c0 IS NULL OR c0 <> 13), c1 DOUBLE)
----
INSERT OR REPLACE INTO t0 VALUES (CAST(X'E282AC' AS TEXT), -5), (X'00', 9210000000000000000), ('_', CAST(X'41FF42' AS TEXT)), ('abc', 'A'), (1e3, 1), (100, X'41'), (X'', 9.223372036854775807e18), (9223372036854775807, CAST(X'E282AC' AS TEXT))
----
SELECT CAST((a00.c1 COLLATE BINARY) AS BLOB), 1.5 AS "Müller1", a00.c1 FROM t0 AS a00
