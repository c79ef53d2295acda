-- seed 1796165709537948230: OursSucceeded at statement 2 (memory store)
--     sqlite: Err("malformed JSON")
--     asadb:  0 rows
--   shrunk session:
--     CREATE TABLE t1(c0 COLLATE NOCASE DEFAULT 'x', c1 DOUBLE, c2 BLOB);
--     CREATE TABLE t2(c0 BOOLEAN UNIQUE, c1 VARCHAR(10), c2 INT, c3 INT);
--     SELECT a02.c1, max(a02.c1), group_concat(a00.path) FROM json_each('[1,2', '$[2].a[0]') AS a00 CROSS JOIN t2 AS a01, t1 AS a02 GROUP BY a02.c1;
CREATE TABLE t1(c0 COLLATE NOCASE DEFAULT 'x', c1 DOUBLE, c2 BLOB)
----
CREATE TABLE t2(c0 BOOLEAN UNIQUE, c1 VARCHAR(10), c2 INT, c3 INT)
----
SELECT a02.c1, max(a02.c1), group_concat(a00.path) FROM json_each('[1,2', '$[2].a[0]') AS a00 CROSS JOIN t2 AS a01, t1 AS a02 GROUP BY a02.c1
