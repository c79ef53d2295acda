-- seed 1796165709537948281: OursFailed at statement 1 (memory store)
--     sqlite: 0 rows
--     asadb:  Err("malformed JSON")
--   shrunk session:
--     CREATE TABLE t1(c0 BOOLEAN, c1 CLOB, c2 DECIMAL(10,2), c3, c4 REAL);
--     SELECT a00.parent, 'a ' AS "São1" FROM json_each('') AS a00 LEFT JOIN t1 AS a01 ON a00.value = a01.c3 JOIN t1 AS a02 ON a01.c2 = a02.c4;
CREATE TABLE t1(c0 BOOLEAN, c1 CLOB, c2 DECIMAL(10,2), c3, c4 REAL)
----
SELECT a00.parent, 'a ' AS "São1" FROM json_each('') AS a00 LEFT JOIN t1 AS a01 ON a00.value = a01.c3 JOIN t1 AS a02 ON a01.c2 = a02.c4
