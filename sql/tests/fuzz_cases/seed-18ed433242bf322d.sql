-- seed 1796165709537948205: OursSucceeded at statement 1 (memory store)
--     sqlite: Err("bad JSON path: 'a'")
--     asadb:  0 rows
--   shrunk session:
--     CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 REAL CHECK (c1 IS NULL OR c1 <> 13), c2 CLOB);
--     SELECT a01.c0, zeroblob(3) FROM json_tree('{"a":1,"b":[2,3],"c":{"d":null}}', 'a') AS a00 CROSS JOIN t0 AS a01;
CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 REAL CHECK (c1 IS NULL OR c1 <> 13), c2 CLOB)
----
SELECT a01.c0, zeroblob(3) FROM json_tree('{"a":1,"b":[2,3],"c":{"d":null}}', 'a') AS a00 CROSS JOIN t0 AS a01
