-- seed 1796414815979417977: Rows at statement 4 (memory store)
--     sqlite: 2 rows
--       [Integer(-13), Null, Real(-1e308)]
--       [Integer(-7), Null, Real(-1e308)]
--     asadb:  2 rows
--       [Integer(-9210000000000000001), Null, Real(-1e308)]
--       [Integer(-7), Null, Real(-1e308)]
--   shrunk session:
--     CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 CLOB, c2 REAL NOT NULL DEFAULT 0);
--     CREATE TABLE t1(c0 NUMERIC UNIQUE, c1 VARCHAR(10) COLLATE RTRIM UNIQUE);
--     REPLACE INTO t1 VALUES (9210000000000000000, 'y'), (' 12abc', '_'), (6, -2.5);
--     UPDATE OR REPLACE t1 SET c1 = c0, c1 = 'Müller' WHERE -0.0 < c1;
--     SELECT ~(nullif(a01.c0, a02.c1)) AS "col0", a00.c2, -1e308 FROM t0 AS a00 FULL OUTER JOIN t1 AS a01 ON a00.c0 = a01.c1 LEFT JOIN t1 AS a02 ON a00.c2 = a02.c1;
CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 CLOB, c2 REAL NOT NULL DEFAULT 0)
----
CREATE TABLE t1(c0 NUMERIC UNIQUE, c1 VARCHAR(10) COLLATE RTRIM UNIQUE)
----
REPLACE INTO t1 VALUES (9210000000000000000, 'y'), (' 12abc', '_'), (6, -2.5)
----
UPDATE OR REPLACE t1 SET c1 = c0, c1 = 'Müller' WHERE -0.0 < c1
----
SELECT ~(nullif(a01.c0, a02.c1)) AS "col0", a00.c2, -1e308 FROM t0 AS a00 FULL OUTER JOIN t1 AS a01 ON a00.c0 = a01.c1 LEFT JOIN t1 AS a02 ON a00.c2 = a02.c1
