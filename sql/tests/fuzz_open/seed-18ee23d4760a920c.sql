-- seed 1796412696787849740: Rows at statement 3 (memory store)
--     sqlite: 1 rows
--       [Null, Null, Text("ABC")]
--     asadb:  1 rows
--       [Null, Integer(8), Null]
--   shrunk session:
--     CREATE TABLE t1(c0 BIGINT UNIQUE, c1 CLOB);
--     INSERT OR IGNORE INTO t1 VALUES (1.0, 'ABC');
--     CREATE TABLE t2(c0 REAL, c1 TEXT COLLATE RTRIM, c2 NUMERIC);
--     SELECT (SELECT max(DISTINCT a00.atom) FROM t2 AS a10), a00.id, a01.c1 FROM json_tree('{"a":{"b":{"c":"deep"}}}') AS a00 FULL OUTER JOIN t1 AS a01 ON a00.path = a01.c0;
CREATE TABLE t1(c0 BIGINT UNIQUE, c1 CLOB)
----
INSERT OR IGNORE INTO t1 VALUES (1.0, 'ABC')
----
CREATE TABLE t2(c0 REAL, c1 TEXT COLLATE RTRIM, c2 NUMERIC)
----
SELECT (SELECT max(DISTINCT a00.atom) FROM t2 AS a10), a00.id, a01.c1 FROM json_tree('{"a":{"b":{"c":"deep"}}}') AS a00 FULL OUTER JOIN t1 AS a01 ON a00.path = a01.c0
