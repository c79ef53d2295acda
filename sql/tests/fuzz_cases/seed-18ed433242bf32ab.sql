-- seed 1796165709537948331: OursFailed at statement 2 (memory store)
--     sqlite: 0 rows
--     asadb:  Err("malformed JSON")
--   shrunk session:
--     CREATE TABLE t0(c0 VARCHAR(10), c1 VARCHAR(10) DEFAULT 'x', c2 VARCHAR(10), c3 BOOLEAN, c4 INT NOT NULL DEFAULT 0);
--     CREATE TABLE t1(c0 BLOB, c1 DOUBLE, c2 INT, c3 CLOB);
--     SELECT -2.5, a00.parent FROM json_tree('[1,2') AS a00 LEFT OUTER JOIN t0 AS a01 ON 0 LEFT OUTER JOIN t1 AS a02 ON a00.key = a02.c1 WHERE a01.c1 ORDER BY 1 DESC, 2;
CREATE TABLE t0(c0 VARCHAR(10), c1 VARCHAR(10) DEFAULT 'x', c2 VARCHAR(10), c3 BOOLEAN, c4 INT NOT NULL DEFAULT 0)
----
CREATE TABLE t1(c0 BLOB, c1 DOUBLE, c2 INT, c3 CLOB)
----
SELECT -2.5, a00.parent FROM json_tree('[1,2') AS a00 LEFT OUTER JOIN t0 AS a01 ON 0 LEFT OUTER JOIN t1 AS a02 ON a00.key = a02.c1 WHERE a01.c1 ORDER BY 1 DESC, 2
