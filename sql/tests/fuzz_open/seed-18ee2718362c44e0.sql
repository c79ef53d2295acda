-- seed 1796416286308975840: Rows at statement 6 (memory store)
--     sqlite: 1 rows
--       [Real(0.0), Real(0.0)]
--     asadb:  1 rows
--       [Real(0.0), Real(0.5)]
--   shrunk session:
--     CREATE TABLE t0(c0, c1 NUMERIC, c2 TEXT);
--     INSERT INTO t0 VALUES ('y ', '*', '+1'), (X'41', 'x', 'abc');
--     CREATE TABLE t1(c0 FLOAT COLLATE RTRIM, c1 VARCHAR(10) NOT NULL DEFAULT 0, c2 BLOB COLLATE NOCASE);
--     INSERT INTO t1 VALUES ('a%', '0', 'b');
--     CREATE TABLE t2(c0 REAL, c1 COLLATE RTRIM, c2 VARCHAR(10) COLLATE RTRIM, UNIQUE (c0, c1));
--     INSERT INTO t2 VALUES (0.5, -1, 'b'), ('y ', 0, X'00'), ('y ', '%b%', '0x10'), (0.0, 9223372036854775806, 4), ('1', '[a-c]*', '1.5'), (-0.0, 8, 4), ('1.5', 'x😀y', '%b%');
--     SELECT (a01.c1 * (SELECT avg(DISTINCT a00.c1) FROM t1 AS a10)), a02.c0 FROM t0 AS a00 JOIN t1 AS a01 ON (a00.c2, a01.c1) >= (SELECT sum('+1'), sum(DISTINCT a10.c1) FROM t2 AS a10), t2 AS a02 ORDER BY 1, 2 DESC;
CREATE TABLE t0(c0, c1 NUMERIC, c2 TEXT)
----
INSERT INTO t0 VALUES ('y ', '*', '+1'), (X'41', 'x', 'abc')
----
CREATE TABLE t1(c0 FLOAT COLLATE RTRIM, c1 VARCHAR(10) NOT NULL DEFAULT 0, c2 BLOB COLLATE NOCASE)
----
INSERT INTO t1 VALUES ('a%', '0', 'b')
----
CREATE TABLE t2(c0 REAL, c1 COLLATE RTRIM, c2 VARCHAR(10) COLLATE RTRIM, UNIQUE (c0, c1))
----
INSERT INTO t2 VALUES (0.5, -1, 'b'), ('y ', 0, X'00'), ('y ', '%b%', '0x10'), (0.0, 9223372036854775806, 4), ('1', '[a-c]*', '1.5'), (-0.0, 8, 4), ('1.5', 'x😀y', '%b%')
----
SELECT (a01.c1 * (SELECT avg(DISTINCT a00.c1) FROM t1 AS a10)), a02.c0 FROM t0 AS a00 JOIN t1 AS a01 ON (a00.c2, a01.c1) >= (SELECT sum('+1'), sum(DISTINCT a10.c1) FROM t2 AS a10), t2 AS a02 ORDER BY 1, 2 DESC
