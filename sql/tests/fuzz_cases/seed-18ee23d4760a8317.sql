-- seed 1796412696787845911: Rows at statement 1 (memory store)
--     sqlite: 1 rows
--       [Null, Text("$.b[1]")]
--     asadb:  1 rows
--       [Null, Text("$.a")]
--   shrunk session:
--     CREATE TABLE t0(c0 BOOLEAN NOT NULL DEFAULT 0 DEFAULT NULL, c1 BOOLEAN, c2 CLOB);
--     SELECT CASE WHEN NULL THEN a01.value ELSE (SELECT DISTINCT min(a02.c0) FROM t0 AS a10) END, a00.fullkey FROM json_tree('{a:1,b:[0x10,.5,],}') AS a00 CROSS JOIN json_each(CASE WHEN json_valid(a00.atom) THEN a00.atom END) AS a01 LEFT OUTER JOIN t0 AS a02 ON NULL;
CREATE TABLE t0(c0 BOOLEAN NOT NULL DEFAULT 0 DEFAULT NULL, c1 BOOLEAN, c2 CLOB)
----
SELECT CASE WHEN NULL THEN a01.value ELSE (SELECT DISTINCT min(a02.c0) FROM t0 AS a10) END, a00.fullkey FROM json_tree('{a:1,b:[0x10,.5,],}') AS a00 CROSS JOIN json_each(CASE WHEN json_valid(a00.atom) THEN a00.atom END) AS a01 LEFT OUTER JOIN t0 AS a02 ON NULL
