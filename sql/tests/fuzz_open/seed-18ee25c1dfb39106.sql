-- seed 1796414815979409670: Rows at statement 4 (memory store)
--     sqlite: 3 rows
--       [Null]
--       [Integer(0)]
--       [Integer(1)]
--     asadb:  2 rows
--       [Null]
--       [Integer(1)]
--   shrunk session:
--     CREATE TABLE t0(c0 DOUBLE COLLATE RTRIM DEFAULT -1, c1 BIGINT DEFAULT -1, c2 NUMERIC, c3 REAL);
--     CREATE TABLE t1(c0 NUMERIC, c1 DOUBLE NOT NULL DEFAULT 0, c2 TEXT COLLATE NOCASE);
--     INSERT OR IGNORE INTO t1 VALUES (2, -2, NULL), ('y', 'ção', 'São Paulo'), ('abc', '1e5', ''), ('[a-c]*', -1e308, 2);
--     WITH w AS (SELECT DISTINCT a10.c0, (a10.c0 NOT BETWEEN 'abc' AND 'Abc' COLLATE NOCASE), 1, a10.c0 FROM t1 AS a10) INSERT INTO t0 SELECT * FROM w ORDER BY 1, 2, 3, 4;
--     SELECT a01.c1 FROM t1 AS a00 FULL OUTER JOIN t0 AS a01 ON 0 GROUP BY a01.c1;
CREATE TABLE t0(c0 DOUBLE COLLATE RTRIM DEFAULT -1, c1 BIGINT DEFAULT -1, c2 NUMERIC, c3 REAL)
----
CREATE TABLE t1(c0 NUMERIC, c1 DOUBLE NOT NULL DEFAULT 0, c2 TEXT COLLATE NOCASE)
----
INSERT OR IGNORE INTO t1 VALUES (2, -2, NULL), ('y', 'ção', 'São Paulo'), ('abc', '1e5', ''), ('[a-c]*', -1e308, 2)
----
WITH w AS (SELECT DISTINCT a10.c0, (a10.c0 NOT BETWEEN 'abc' AND 'Abc' COLLATE NOCASE), 1, a10.c0 FROM t1 AS a10) INSERT INTO t0 SELECT * FROM w ORDER BY 1, 2, 3, 4
----
SELECT a01.c1 FROM t1 AS a00 FULL OUTER JOIN t0 AS a01 ON 0 GROUP BY a01.c1
