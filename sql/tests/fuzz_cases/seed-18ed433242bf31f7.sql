-- seed 1796165709537948151: OursFailed at statement 1 (memory store)
--     sqlite: 0 rows
--     asadb:  Err("malformed JSON")
--   shrunk session:
--     CREATE TABLE t2(c0 INTEGER PRIMARY KEY, c1 CLOB UNIQUE DEFAULT 0, c2 DOUBLE);
--     SELECT a00.c2, min(DISTINCT a00.c0) FROM t2 AS a00 GROUP BY a00.c2 EXCEPT SELECT NULL, NULL FROM json_tree('not json') AS a10;
CREATE TABLE t2(c0 INTEGER PRIMARY KEY, c1 CLOB UNIQUE DEFAULT 0, c2 DOUBLE)
----
SELECT a00.c2, min(DISTINCT a00.c0) FROM t2 AS a00 GROUP BY a00.c2 EXCEPT SELECT NULL, NULL FROM json_tree('not json') AS a10
