-- seed 1796411371510246925: OursFailed at statement 3 (memory store)
--     sqlite: 0 rows
--     asadb:  Err("JSON cannot hold BLOB values")
--   shrunk session:
--     CREATE TABLE t0(c0 DECIMAL(10,2) CHECK (c0 IS NULL OR c0 <> 13), c1, c2 NUMERIC UNIQUE, c3 TEXT UNIQUE, UNIQUE (c0, c1));
--     REPLACE INTO t0 VALUES (0.0, 'y', X'41', '0');
--     CREATE TABLE t2(c0 INTEGER PRIMARY KEY, c1 VARCHAR(10), c2 BLOB, c3 CLOB);
--     SELECT a02.c2 AS "São0" FROM t0 AS a00 INNER JOIN t0 AS a01 ON a00.c0 = a01.c1 INNER JOIN t2 AS a02 ON 1 WHERE '%' IS json_insert('[1,2,3]', '$[1]', a00.c2);
CREATE TABLE t0(c0 DECIMAL(10,2) CHECK (c0 IS NULL OR c0 <> 13), c1, c2 NUMERIC UNIQUE, c3 TEXT UNIQUE, UNIQUE (c0, c1))
----
REPLACE INTO t0 VALUES (0.0, 'y', X'41', '0')
----
CREATE TABLE t2(c0 INTEGER PRIMARY KEY, c1 VARCHAR(10), c2 BLOB, c3 CLOB)
----
SELECT a02.c2 AS "São0" FROM t0 AS a00 INNER JOIN t0 AS a01 ON a00.c0 = a01.c1 INNER JOIN t2 AS a02 ON 1 WHERE '%' IS json_insert('[1,2,3]', '$[1]', a00.c2)
