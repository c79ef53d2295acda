-- seed 1796165709537948284: OursSucceeded at statement 1 (memory store)
--     sqlite: Err("misuse of aggregate: min() in SELECT a00.type, (a00.type << (SELECT sum((SELECT min(a00.parent) FROM t1 AS a10)) FROM json_tree('true') AS a10)) FROM json_tree('{a:1,b:[0x10,.5,],}', '$[') AS a00 at offset 50")
--     asadb:  1 rows
--       [Null, Null]
--   shrunk session:
--     CREATE TABLE t1(c0 BOOLEAN, c1 CLOB, c2 BIGINT COLLATE NOCASE, c3 BIGINT);
--     SELECT a00.type, (a00.type << (SELECT sum((SELECT min(a00.parent) FROM t1 AS a10)) FROM json_tree('true') AS a10)) FROM json_tree('{a:1,b:[0x10,.5,],}', '$[') AS a00;
CREATE TABLE t1(c0 BOOLEAN, c1 CLOB, c2 BIGINT COLLATE NOCASE, c3 BIGINT)
----
SELECT a00.type, (a00.type << (SELECT sum((SELECT min(a00.parent) FROM t1 AS a10)) FROM json_tree('true') AS a10)) FROM json_tree('{a:1,b:[0x10,.5,],}', '$[') AS a00
