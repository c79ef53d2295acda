-- seed 1796411371510234657: OursFailed at statement 4 (memory store)
--     sqlite: 0 rows
--     asadb:  Err("not an array element: '$.b'")
--   shrunk session:
--     CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 REAL UNIQUE);
--     REPLACE INTO t0 VALUES (4294967296, 4294967296);
--     CREATE TABLE t2(c0 BLOB, c1 INT, PRIMARY KEY (c1)) WITHOUT ROWID;
--     INSERT INTO t2 VALUES (1e400, 'A');
--     SELECT a00.c1 FROM t2 AS a00 FULL JOIN t2 AS a01 ON NULL FULL JOIN t0 AS a02 ON a01.c1 IN (SELECT DISTINCT a10.c1 FROM t2 AS a10 WHERE glob(json_array_insert('{"a":"x","b":true,"c":1.5}', '$.b', a10.c1), a10.c0) LIKE a10.c1 GROUP BY a10.c1) WHERE a01.c1 = 4294967296;
CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 REAL UNIQUE)
----
REPLACE INTO t0 VALUES (4294967296, 4294967296)
----
CREATE TABLE t2(c0 BLOB, c1 INT, PRIMARY KEY (c1)) WITHOUT ROWID
----
INSERT INTO t2 VALUES (1e400, 'A')
----
SELECT a00.c1 FROM t2 AS a00 FULL JOIN t2 AS a01 ON NULL FULL JOIN t0 AS a02 ON a01.c1 IN (SELECT DISTINCT a10.c1 FROM t2 AS a10 WHERE glob(json_array_insert('{"a":"x","b":true,"c":1.5}', '$.b', a10.c1), a10.c0) LIKE a10.c1 GROUP BY a10.c1) WHERE a01.c1 = 4294967296
