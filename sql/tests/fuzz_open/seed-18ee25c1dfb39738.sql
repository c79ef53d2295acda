-- seed 1796414815979411256: Rows at statement 6 (memory store)
--     sqlite: 7 rows
--       [Text("1"), Real(0.0), Real(0.0)]
--       [Text("1"), Real(1.5), Real(1.5)]
--       [Text("1"), Real(2.0), Real(2.0)]
--       [Text("1"), Real(5.0), Real(5.0)]
--       [Text("1"), Text("x"), Text("x")]
--       [Text("1"), Text("y"), Text("y")]
--       [Text("1"), Blob([255]), Blob([255])]
--     asadb:  8 rows
--       [Text("1"), Real(0.0), Real(0.0)]
--       [Text("1"), Real(1.5), Real(1.5)]
--       [Text("1"), Real(2.0), Real(2.0)]
--       [Text("1"), Real(5.0), Real(5.0)]
--       [Text("1"), Text("x"), Text("x")]
--       [Text("1"), Text("y"), Text("y")]
--       [Text("1"), Text("€"), Text("€")]
--       [Text("1"), Blob([255]), Blob([255])]
--   shrunk session:
--     CREATE TABLE t0(c0 VARCHAR(10), c1 DOUBLE COLLATE NOCASE, c2 REAL, c3 BIGINT UNIQUE, UNIQUE (c0, c1));
--     INSERT OR REPLACE INTO t0 VALUES (1.5, 1, 'x', 1e400), (5, X'C3A7', 'a%', 100), ('0', 'b', 1e3, '10'), ('x', 0, X'4142', 'b'), (2, 1.0, '10', 9223372036854775808), (CAST(X'E282AC' AS TEXT), 9223372036854775807, -9223372036854775807, 'abc'), (X'FF', '%b%', 1234567890123456789012345678901234567890, 3), ('y', 5, 10, '1.5');
--     CREATE TABLE t1(c0 DECIMAL(10,2) COLLATE NOCASE, c1 TEXT UNIQUE, c2 INTEGER UNIQUE);
--     CREATE TABLE t2(c0 INTEGER PRIMARY KEY, c1 DOUBLE, UNIQUE (c0, c1));
--     INSERT OR IGNORE INTO t1 VALUES (CAST(X'41FF42' AS TEXT), 'y', 'x😀y'), (X'FF', -9223372036854775807, '%'), ('*', ' 1', X'41'), (1.0, '', 0.0), (CAST(X'41FF42' AS TEXT), 'y ', 0), (0.151806728945089886206923794224573882182e-34, 'y ', 1e308), (CAST(X'E282AC' AS TEXT), 0.151806728945089886206923794224573882182e-34, 'y'), (9.21e18, 4294967296, -9223372036854775808);
--     WITH w AS (SELECT NULL, CASE WHEN a10.c2 IN (SELECT iif(4294967296, a10.c1, a10.c2) FROM t1 AS a10) THEN NULL ELSE a10.c0 END FROM t0 AS a10) INSERT INTO t2 SELECT * FROM w ORDER BY 1, 2;
--     SELECT '1', a01.c1, a00.c1 FROM t2 AS a00 INNER JOIN t2 AS a01 ON a00.c1 = a01.c1;
CREATE TABLE t0(c0 VARCHAR(10), c1 DOUBLE COLLATE NOCASE, c2 REAL, c3 BIGINT UNIQUE, UNIQUE (c0, c1))
----
INSERT OR REPLACE INTO t0 VALUES (1.5, 1, 'x', 1e400), (5, X'C3A7', 'a%', 100), ('0', 'b', 1e3, '10'), ('x', 0, X'4142', 'b'), (2, 1.0, '10', 9223372036854775808), (CAST(X'E282AC' AS TEXT), 9223372036854775807, -9223372036854775807, 'abc'), (X'FF', '%b%', 1234567890123456789012345678901234567890, 3), ('y', 5, 10, '1.5')
----
CREATE TABLE t1(c0 DECIMAL(10,2) COLLATE NOCASE, c1 TEXT UNIQUE, c2 INTEGER UNIQUE)
----
CREATE TABLE t2(c0 INTEGER PRIMARY KEY, c1 DOUBLE, UNIQUE (c0, c1))
----
INSERT OR IGNORE INTO t1 VALUES (CAST(X'41FF42' AS TEXT), 'y', 'x😀y'), (X'FF', -9223372036854775807, '%'), ('*', ' 1', X'41'), (1.0, '', 0.0), (CAST(X'41FF42' AS TEXT), 'y ', 0), (0.151806728945089886206923794224573882182e-34, 'y ', 1e308), (CAST(X'E282AC' AS TEXT), 0.151806728945089886206923794224573882182e-34, 'y'), (9.21e18, 4294967296, -9223372036854775808)
----
WITH w AS (SELECT NULL, CASE WHEN a10.c2 IN (SELECT iif(4294967296, a10.c1, a10.c2) FROM t1 AS a10) THEN NULL ELSE a10.c0 END FROM t0 AS a10) INSERT INTO t2 SELECT * FROM w ORDER BY 1, 2
----
SELECT '1', a01.c1, a00.c1 FROM t2 AS a00 INNER JOIN t2 AS a01 ON a00.c1 = a01.c1
