-- seed 1796416286308987050: Rows at statement 1 (memory store)
--     sqlite: 4 rows
--       [Null, Null, Text("[\"{\\\"a\\\":1,\\\"b\\\":[2,3],\\\"c\\\":{\\\"d\\\":null}}\",\"[2,3]\",\"{\\\"d\\\":null}\",null]")]
--       [Null, Null, Text("[1]")]
--       [Null, Null, Text("[2]")]
--       [Null, Null, Text("[3]")]
--     asadb:  4 rows
--       [Null, Null, Text("[{\"a\":1,\"b\":[2,3],\"c\":{\"d\":null}},[2,3],{\"d\":null},null]")]
--       [Null, Null, Text("[1]")]
--       [Null, Null, Text("[2]")]
--       [Null, Null, Text("[3]")]
--   shrunk session:
--     CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 BIGINT, c2 CLOB COLLATE NOCASE, c3 DECIMAL(10,2));
--     SELECT a01.c0, a01.c0, json_group_array(CASE WHEN typeof(1e308) <> 'blob' THEN max(-2.5, -9223372036854775808, a00.value) END ORDER BY CASE WHEN typeof(1e308) <> 'blob' THEN 1e308 END, typeof(CASE WHEN typeof(1e308) <> 'blob' THEN 1e308 END), hex(CASE WHEN typeof(1e308) <> 'blob' THEN 1e308 END)) FROM json_tree('{"a":1,"b":[2,3],"c":{"d":null}}') AS a00 FULL JOIN t0 AS a01 ON a00.type = a01.c1 GROUP BY a01.c0, a00.atom;
CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 BIGINT, c2 CLOB COLLATE NOCASE, c3 DECIMAL(10,2))
----
SELECT a01.c0, a01.c0, json_group_array(CASE WHEN typeof(1e308) <> 'blob' THEN max(-2.5, -9223372036854775808, a00.value) END ORDER BY CASE WHEN typeof(1e308) <> 'blob' THEN 1e308 END, typeof(CASE WHEN typeof(1e308) <> 'blob' THEN 1e308 END), hex(CASE WHEN typeof(1e308) <> 'blob' THEN 1e308 END)) FROM json_tree('{"a":1,"b":[2,3],"c":{"d":null}}') AS a00 FULL JOIN t0 AS a01 ON a00.type = a01.c1 GROUP BY a01.c0, a00.atom
