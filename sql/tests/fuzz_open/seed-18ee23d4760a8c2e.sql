-- seed 1796412696787848238: Rows at statement 3 (memory store)
--     sqlite: 1 rows
--       [Null, Real(9.21e18), Real(10.0)]
--     asadb:  1 rows
--       [Null, Real(9.21e18), Real(-1.0)]
--   shrunk session:
--     CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 BOOLEAN, c2 FLOAT, c3 VARCHAR(10), c4);
--     INSERT OR IGNORE INTO t0 VALUES ('10', 9223372036854775808, 1e400, 0, 8), (3, 'X', -1, 9223372036854775807, '-1'), (2, 1e400, X'41', X'', 9.21e18), (-1, 1, '😀', 'x', 'Abc');
--     CREATE UNIQUE INDEX i0 ON t0(c4 COLLATE NOCASE, c0 DESC);
--     SELECT NULL, nullif((SELECT sum(a00.c4) FROM t0 AS a10), a00.c4), CAST(a00.c0 AS REAL) AS "Müller2" FROM t0 AS a00 ORDER BY 1, 2, 3;
CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 BOOLEAN, c2 FLOAT, c3 VARCHAR(10), c4)
----
INSERT OR IGNORE INTO t0 VALUES ('10', 9223372036854775808, 1e400, 0, 8), (3, 'X', -1, 9223372036854775807, '-1'), (2, 1e400, X'41', X'', 9.21e18), (-1, 1, '😀', 'x', 'Abc')
----
CREATE UNIQUE INDEX i0 ON t0(c4 COLLATE NOCASE, c0 DESC)
----
SELECT NULL, nullif((SELECT sum(a00.c4) FROM t0 AS a10), a00.c4), CAST(a00.c0 AS REAL) AS "Müller2" FROM t0 AS a00 ORDER BY 1, 2, 3
