-- seed 1796416286308977797: Rows at statement 3 (memory store)
--     sqlite: 1 rows
--       [Integer(1), Text("[1,\"[2,3]\",\"{\\\"d\\\":null}\"]"), Integer(3)]
--     asadb:  1 rows
--       [Integer(1), Text("[1,[2,3],{\"d\":null}]"), Integer(3)]
--   shrunk session:
--     CREATE TABLE t1(c0 NUMERIC, c1 TEXT NOT NULL DEFAULT 0, c2 INT, c3 BLOB, c4 BLOB);
--     CREATE TABLE t2(c0 BOOLEAN, c1 DOUBLE, UNIQUE (c0, c1));
--     INSERT OR REPLACE INTO t2 VALUES (' 1', -2);
--     SELECT a02.c0, json_group_array(CASE WHEN typeof(a01.value) <> 'blob' THEN a01.value END ORDER BY CASE WHEN typeof(a01.value) <> 'blob' THEN a01.value END, typeof(CASE WHEN typeof(a01.value) <> 'blob' THEN a01.value END), hex(CASE WHEN typeof(a01.value) <> 'blob' THEN a01.value END)), count(*) FROM t1 AS a00 FULL JOIN json_each('{"a":1,"b":[2,3],"c":{"d":null}}') AS a01 ON NULL RIGHT JOIN t2 AS a02 ON 1 GROUP BY a02.c0;
CREATE TABLE t1(c0 NUMERIC, c1 TEXT NOT NULL DEFAULT 0, c2 INT, c3 BLOB, c4 BLOB)
----
CREATE TABLE t2(c0 BOOLEAN, c1 DOUBLE, UNIQUE (c0, c1))
----
INSERT OR REPLACE INTO t2 VALUES (' 1', -2)
----
SELECT a02.c0, json_group_array(CASE WHEN typeof(a01.value) <> 'blob' THEN a01.value END ORDER BY CASE WHEN typeof(a01.value) <> 'blob' THEN a01.value END, typeof(CASE WHEN typeof(a01.value) <> 'blob' THEN a01.value END), hex(CASE WHEN typeof(a01.value) <> 'blob' THEN a01.value END)), count(*) FROM t1 AS a00 FULL JOIN json_each('{"a":1,"b":[2,3],"c":{"d":null}}') AS a01 ON NULL RIGHT JOIN t2 AS a02 ON 1 GROUP BY a02.c0
