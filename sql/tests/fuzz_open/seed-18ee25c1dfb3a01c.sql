-- seed 1796414815979413532: OursFailed at statement 2 (memory store)
--     sqlite: 5 rows
--       [Null, Integer(-9223372036854775808)]
--       [Null, Integer(5)]
--       [Null, Integer(7)]
--       [Null, Text(" 12abc")]
--       [Null, Text("0x10")]
--     asadb:  Err("malformed JSON")
--   shrunk session:
--     CREATE TABLE t2(c0, c1 TEXT);
--     INSERT INTO t2 VALUES (5, 0), (-9223372036854775808, 'ção'), ('a', 2), (' 12abc', '%'), ('0x10', X'41'), (7, NULL);
--     SELECT ((SELECT max(parent) FROM json_tree(a10.c1)) & NULL), a10.c0 FROM t2 AS a10 ORDER BY 1, 2 LIMIT 5;
CREATE TABLE t2(c0, c1 TEXT)
----
INSERT INTO t2 VALUES (5, 0), (-9223372036854775808, 'ção'), ('a', 2), (' 12abc', '%'), ('0x10', X'41'), (7, NULL)
----
SELECT ((SELECT max(parent) FROM json_tree(a10.c1)) & NULL), a10.c0 FROM t2 AS a10 ORDER BY 1, 2 LIMIT 5
