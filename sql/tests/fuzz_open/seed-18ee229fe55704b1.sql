-- seed 1796411371510236337: OursFailed at statement 3 (memory store)
--     sqlite: 0 rows
--     asadb:  Err("JSON cannot hold BLOB values")
--   shrunk session:
--     CREATE TABLE t0(c0 DECIMAL(10,2), c1 BIGINT, c2 INTEGER, c3 INT COLLATE NOCASE);
--     INSERT OR IGNORE INTO t0 VALUES (100, 'y ', 'a ', '_'), (NULL, 5, '1 ', 1e3), (-0.0, 'abc', 9223372036854775807, 1e-308), ('y', X'41', '%b%', 'y ');
--     CREATE TABLE t1(c0 NUMERIC, c1 TEXT DEFAULT NULL, c2 BLOB);
--     SELECT X'00' FROM t0 AS a00 FULL OUTER JOIN t1 AS a01 ON a00.c0 = a01.c1 WHERE a01.c0 > json_object('b', 9.21e18, 'é', a00.c1, 'é', a01.c0);
CREATE TABLE t0(c0 DECIMAL(10,2), c1 BIGINT, c2 INTEGER, c3 INT COLLATE NOCASE)
----
INSERT OR IGNORE INTO t0 VALUES (100, 'y ', 'a ', '_'), (NULL, 5, '1 ', 1e3), (-0.0, 'abc', 9223372036854775807, 1e-308), ('y', X'41', '%b%', 'y ')
----
CREATE TABLE t1(c0 NUMERIC, c1 TEXT DEFAULT NULL, c2 BLOB)
----
SELECT X'00' FROM t0 AS a00 FULL OUTER JOIN t1 AS a01 ON a00.c0 = a01.c1 WHERE a01.c0 > json_object('b', 9.21e18, 'é', a00.c1, 'é', a01.c0)
