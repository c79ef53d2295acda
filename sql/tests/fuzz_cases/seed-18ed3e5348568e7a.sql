-- seed 1796160353807535738: OursSucceeded at statement 1 (memory store)
--     sqlite: Err("malformed JSON")
--     asadb:  0 rows
--   shrunk session:
--     CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 NUMERIC COLLATE NOCASE);
--     SELECT 100, 9.21e18 FROM json_tree('[1,2', '$[1]') AS a00 CROSS JOIN t0 AS a01;
CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 NUMERIC COLLATE NOCASE)
----
SELECT 100, 9.21e18 FROM json_tree('[1,2', '$[1]') AS a00 CROSS JOIN t0 AS a01
