-- seed 1796165709537948164: OursFailed at statement 2 (memory store)
--     sqlite: 1 rows
--       [Text("y"), Real(0.0)]
--     asadb:  Err("malformed JSON")
--   shrunk session:
--     CREATE TABLE t1(c0 BOOLEAN UNIQUE, c1 CLOB, c2 INTEGER, UNIQUE (c0, c1));
--     INSERT OR IGNORE INTO t1 VALUES ('X', 'X', 'y');
--     SELECT a00.c2 AS "名前0", sum(a00.c0) AS "Müller1" FROM t1 AS a00 WHERE EXISTS (SELECT DISTINCT coalesce(json_type(a10.path, NULL), 0x10, 'Müller') FROM json_tree('[1,2,3]') AS a10) GROUP BY a00.c2, a00.c0;
CREATE TABLE t1(c0 BOOLEAN UNIQUE, c1 CLOB, c2 INTEGER, UNIQUE (c0, c1))
----
INSERT OR IGNORE INTO t1 VALUES ('X', 'X', 'y')
----
SELECT a00.c2 AS "名前0", sum(a00.c0) AS "Müller1" FROM t1 AS a00 WHERE EXISTS (SELECT DISTINCT coalesce(json_type(a10.path, NULL), 0x10, 'Müller') FROM json_tree('[1,2,3]') AS a10) GROUP BY a00.c2, a00.c0
