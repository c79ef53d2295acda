-- seed 1796160353807535911: OursFailed at statement 1 (memory store)
--     sqlite: 0 rows
--     asadb:  Err("malformed JSON")
--   shrunk session:
--     CREATE TABLE t1(c0 VARCHAR(10) COLLATE RTRIM, c1 DOUBLE, c2 TEXT COLLATE NOCASE, c3 DOUBLE);
--     SELECT a00.c1 FROM t1 AS a00 EXCEPT SELECT a10.atom FROM json_each('not json', '$[0]') AS a10 GROUP BY a10.atom;
CREATE TABLE t1(c0 VARCHAR(10) COLLATE RTRIM, c1 DOUBLE, c2 TEXT COLLATE NOCASE, c3 DOUBLE)
----
SELECT a00.c1 FROM t1 AS a00 EXCEPT SELECT a10.atom FROM json_each('not json', '$[0]') AS a10 GROUP BY a10.atom
