-- seed 1796160353807535794: OursFailed at statement 1 (memory store)
--     sqlite: 0 rows
--     asadb:  Err("internal error: each rel once")
--   shrunk session:
--     CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 DECIMAL(10,2), c2 DOUBLE);
--     SELECT a01.atom, NULL, a01.type AS "名前2" FROM t0 AS a00 INNER JOIN json_tree(a00.c0, '$[') AS a01 ON a00.c0 = a01.atom;
CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 DECIMAL(10,2), c2 DOUBLE)
----
SELECT a01.atom, NULL, a01.type AS "名前2" FROM t0 AS a00 INNER JOIN json_tree(a00.c0, '$[') AS a01 ON a00.c0 = a01.atom
