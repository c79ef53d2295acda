-- seed 1796411371510237699: OursSucceeded at statement 5 (memory store)
--     sqlite: Err("integer overflow")
--     asadb:  0 rows
--   shrunk session:
--     CREATE TABLE t0(c0, c1 INTEGER, PRIMARY KEY (c1)) WITHOUT ROWID;
--     INSERT INTO t0 VALUES (X'41', 'ção'), ('b', CAST(X'E282AC' AS TEXT)), ('a ', 9.223372036854775807e18), (-9.3e18, '%b%'), ('abc', 100), (-1, 2), ('a ', 'X');
--     CREATE TABLE t1(c0 REAL, c1 BIGINT, c2 BIGINT UNIQUE);
--     INSERT OR REPLACE INTO t1 VALUES ('São Paulo', 100, '10');
--     REPLACE INTO t0 VALUES (1234567890123456789012345678901234567890, -2.5);
--     SELECT a00.c2 FROM t1 AS a00 WHERE ((1e-308, '0') <> (SELECT sum(a10.c1), sum((a10.c1 & a10.c0)) AS "x1" FROM t0 AS a10) AND a00.c0 <> a00.c0) GROUP BY a00.c2;
CREATE TABLE t0(c0, c1 INTEGER, PRIMARY KEY (c1)) WITHOUT ROWID
----
INSERT INTO t0 VALUES (X'41', 'ção'), ('b', CAST(X'E282AC' AS TEXT)), ('a ', 9.223372036854775807e18), (-9.3e18, '%b%'), ('abc', 100), (-1, 2), ('a ', 'X')
----
CREATE TABLE t1(c0 REAL, c1 BIGINT, c2 BIGINT UNIQUE)
----
INSERT OR REPLACE INTO t1 VALUES ('São Paulo', 100, '10')
----
REPLACE INTO t0 VALUES (1234567890123456789012345678901234567890, -2.5)
----
SELECT a00.c2 FROM t1 AS a00 WHERE ((1e-308, '0') <> (SELECT sum(a10.c1), sum((a10.c1 & a10.c0)) AS "x1" FROM t0 AS a10) AND a00.c0 <> a00.c0) GROUP BY a00.c2
