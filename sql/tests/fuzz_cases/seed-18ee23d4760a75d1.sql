-- seed 1796412696787842513: Rows at statement 2 (memory store)
--     sqlite: 1 rows
--       [Null, Integer(1)]
--     asadb:  1 rows
--       [Null, Integer(0)]
--   shrunk session:
--     CREATE TABLE t0(c0 VARCHAR(10) UNIQUE, c1 FLOAT);
--     CREATE TABLE t2(c0 INTEGER PRIMARY KEY, c1 DOUBLE, c2 VARCHAR(10));
--     SELECT CAST((SELECT min(a00.c1) FROM t2 AS a10) AS TEXT), a02.key AS "Müller1" FROM t0 AS a00 JOIN t0 AS a01 ON 0 FULL OUTER JOIN json_each('[1,[2,[3,[4]]],{"a":[5]}]', '$[1][1]') AS a02 ON a00.c1 = a02.id;
CREATE TABLE t0(c0 VARCHAR(10) UNIQUE, c1 FLOAT)
----
CREATE TABLE t2(c0 INTEGER PRIMARY KEY, c1 DOUBLE, c2 VARCHAR(10))
----
SELECT CAST((SELECT min(a00.c1) FROM t2 AS a10) AS TEXT), a02.key AS "Müller1" FROM t0 AS a00 JOIN t0 AS a01 ON 0 FULL OUTER JOIN json_each('[1,[2,[3,[4]]],{"a":[5]}]', '$[1][1]') AS a02 ON a00.c1 = a02.id
