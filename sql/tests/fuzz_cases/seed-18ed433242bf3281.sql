-- seed 1796165709537948289: OursSucceeded at statement 4 (memory store)
--     sqlite: Err("malformed JSON")
--     asadb:  0 rows
--   shrunk session:
--     CREATE TABLE t0(c0 CLOB, c1, c2 INT UNIQUE, c3 FLOAT, c4);
--     INSERT INTO t0 VALUES (9223372036854775806, 'x😀y', 1.5, 'X', 9223372036854775808), (CAST(X'E282AC' AS TEXT), 7, 'x😀y', 6, 9.2e18), ('0x10', 'y ', 0, -1e308, '1.5');
--     CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 CLOB COLLATE RTRIM);
--     CREATE INDEX i0 ON t1(c0);
--     SELECT a01.atom, a00.c3, min(a00.c3) AS "São2" FROM t0 AS a00 CROSS JOIN json_each(a00.c2, '$[1]') AS a01 INNER JOIN t1 AS a02 ON a01.atom = a02.c0 GROUP BY a01.atom, a00.c3;
CREATE TABLE t0(c0 CLOB, c1, c2 INT UNIQUE, c3 FLOAT, c4)
----
INSERT INTO t0 VALUES (9223372036854775806, 'x😀y', 1.5, 'X', 9223372036854775808), (CAST(X'E282AC' AS TEXT), 7, 'x😀y', 6, 9.2e18), ('0x10', 'y ', 0, -1e308, '1.5')
----
CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 CLOB COLLATE RTRIM)
----
CREATE INDEX i0 ON t1(c0)
----
SELECT a01.atom, a00.c3, min(a00.c3) AS "São2" FROM t0 AS a00 CROSS JOIN json_each(a00.c2, '$[1]') AS a01 INNER JOIN t1 AS a02 ON a01.atom = a02.c0 GROUP BY a01.atom, a00.c3
