-- seed 1796165709537948159: Rows at statement 4 (memory store)
--     sqlite: 1 rows
--       [Integer(100), Text("Abc"), Integer(3)]
--     asadb:  1 rows
--       [Integer(100), Text("Abc"), Integer(5)]
--   shrunk session:
--     CREATE TABLE t0(c0 BOOLEAN, c1 FLOAT NOT NULL DEFAULT 0, c2 BOOLEAN NOT NULL DEFAULT 0);
--     INSERT INTO t0 VALUES (3, '%', 'ção');
--     CREATE TABLE t1(c0 INTEGER, c1 BLOB UNIQUE DEFAULT NULL);
--     INSERT INTO t1 VALUES (CAST(X'41FF42' AS TEXT), 2);
--     SELECT 100, 'Abc', octet_length(a01.c0) FROM t0 AS a00 INNER JOIN t1 AS a01 ON a01.c1 IS NOT a00.c0;
CREATE TABLE t0(c0 BOOLEAN, c1 FLOAT NOT NULL DEFAULT 0, c2 BOOLEAN NOT NULL DEFAULT 0)
----
INSERT INTO t0 VALUES (3, '%', 'ção')
----
CREATE TABLE t1(c0 INTEGER, c1 BLOB UNIQUE DEFAULT NULL)
----
INSERT INTO t1 VALUES (CAST(X'41FF42' AS TEXT), 2)
----
SELECT 100, 'Abc', octet_length(a01.c0) FROM t0 AS a00 INNER JOIN t1 AS a01 ON a01.c1 IS NOT a00.c0
