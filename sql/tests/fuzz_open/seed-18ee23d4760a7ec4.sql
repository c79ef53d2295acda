-- seed 1796412696787844804: OursFailed at statement 3 (memory store)
--     sqlite: 3 rows
--       [Null]
--       [Null]
--       [Null]
--     asadb:  Err("JSON cannot hold BLOB values")
--   shrunk session:
--     CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 INT, c2 FLOAT COLLATE RTRIM);
--     CREATE TABLE t1(c0 REAL UNIQUE CHECK (c0 IS NULL OR c0 <> 13), c1 FLOAT, c2 COLLATE RTRIM);
--     INSERT OR REPLACE INTO t1 VALUES (-0.0, '%', 0.5);
--     SELECT NULL FROM json_each('{"a":1,"b":[2,3],"c":{"d":null}}') AS a00 JOIN t1 AS a01 ON 'Müller' BETWEEN -9223372036854775808 AND X'00' WHERE (a01.c0, 'abc') NOT IN (SELECT NULL, a10.key FROM json_tree('"str"') AS a10 WHERE a10.key = (SELECT min(DISTINCT a10.c0) AS "x0" FROM t0 AS a10 WHERE json_quote(X'41') IS NOT -9.3e18));
CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 INT, c2 FLOAT COLLATE RTRIM)
----
CREATE TABLE t1(c0 REAL UNIQUE CHECK (c0 IS NULL OR c0 <> 13), c1 FLOAT, c2 COLLATE RTRIM)
----
INSERT OR REPLACE INTO t1 VALUES (-0.0, '%', 0.5)
----
SELECT NULL FROM json_each('{"a":1,"b":[2,3],"c":{"d":null}}') AS a00 JOIN t1 AS a01 ON 'Müller' BETWEEN -9223372036854775808 AND X'00' WHERE (a01.c0, 'abc') NOT IN (SELECT NULL, a10.key FROM json_tree('"str"') AS a10 WHERE a10.key = (SELECT min(DISTINCT a10.c0) AS "x0" FROM t0 AS a10 WHERE json_quote(X'41') IS NOT -9.3e18))
