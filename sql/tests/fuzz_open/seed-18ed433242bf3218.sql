-- seed 1796165709537948184: OursFailed at statement 1 (memory store)
--     sqlite: 0 rows
--     asadb:  Err("malformed JSON")
--   shrunk session:
--     CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 FLOAT);
--     SELECT a00.value, '1 ', cume_dist() OVER (ORDER BY a01.c0 NULLS LAST RANGE BETWEEN 2 PRECEDING AND 2 FOLLOWING) AS "São2" FROM json_each('not json') AS a00 JOIN t0 AS a01 ON a00.atom = a01.c0 LEFT OUTER JOIN t0 AS a02 ON NULL;
CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 FLOAT)
----
SELECT a00.value, '1 ', cume_dist() OVER (ORDER BY a01.c0 NULLS LAST RANGE BETWEEN 2 PRECEDING AND 2 FOLLOWING) AS "São2" FROM json_each('not json') AS a00 JOIN t0 AS a01 ON a00.atom = a01.c0 LEFT OUTER JOIN t0 AS a02 ON NULL
