-- seed 1796411371510244367: OursFailed at statement 3 (memory store)
--     sqlite: 0 rows
--     asadb:  Err("JSON cannot hold BLOB values")
--   shrunk session:
--     CREATE TABLE t1(c0 BLOB UNIQUE, c1 BIGINT);
--     INSERT INTO t1 VALUES (2147483647, 1.5), (1, X'41'), ('9223372036854775808', 3), (0x7FFFFFFFFFFFFFFF, '1e5'), ('1 ', '1e5'), (X'4142', '10'), ('Abc', -3), ('1.5', -1e308);
--     CREATE TABLE t2(c0 INTEGER PRIMARY KEY, c1 TEXT COLLATE NOCASE);
--     SELECT a00.c1 FROM t2 AS a00 CROSS JOIN t1 AS a01 WHERE json_insert('{"a":1,"a":2}', '$.b[1]', a01.c1) IN ('😀', '_');
CREATE TABLE t1(c0 BLOB UNIQUE, c1 BIGINT)
----
INSERT INTO t1 VALUES (2147483647, 1.5), (1, X'41'), ('9223372036854775808', 3), (0x7FFFFFFFFFFFFFFF, '1e5'), ('1 ', '1e5'), (X'4142', '10'), ('Abc', -3), ('1.5', -1e308)
----
CREATE TABLE t2(c0 INTEGER PRIMARY KEY, c1 TEXT COLLATE NOCASE)
----
SELECT a00.c1 FROM t2 AS a00 CROSS JOIN t1 AS a01 WHERE json_insert('{"a":1,"a":2}', '$.b[1]', a01.c1) IN ('😀', '_')
