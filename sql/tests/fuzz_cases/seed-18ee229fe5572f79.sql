-- seed 1796411371510247289: OursSucceeded at statement 3 (memory store)
--     sqlite: Err("misuse of aggregate: max() in SELECT dense_rank() OVER (ORDER BY a01.atom DESC NULLS FIRST RANGE BETWEEN 2 PRECEDING AND 2 FOLLOWING), (SELECT total(a10.c3) FROM t1 AS a10 WHERE a10.c1 IN (SELECT a10.parent FROM json_tree('\"str\"') AS a10 GROUP BY a10.parent, a10.path HAVING max(a01.key) > '0x10')), a01.key FROM t0 AS a00 INNER JOIN json_tree('[1,[2,[3,[4]]],{\"a\":[5]}]') AS a01 ON NULL INNER JOIN t2 AS a02 ON 1 at offset 245")
--     asadb:  1 rows
--       [Integer(1), Real(0.0), Null]
--   shrunk session:
--     CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 TEXT, c2 REAL);
--     CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 BIGINT, c2 BIGINT, c3 CLOB COLLATE RTRIM DEFAULT 1.5);
--     CREATE TABLE t2(c0 INTEGER PRIMARY KEY, c1 TEXT, c2 BLOB, c3 INTEGER, c4 BOOLEAN);
--     SELECT dense_rank() OVER (ORDER BY a01.atom DESC NULLS FIRST RANGE BETWEEN 2 PRECEDING AND 2 FOLLOWING), (SELECT total(a10.c3) FROM t1 AS a10 WHERE a10.c1 IN (SELECT a10.parent FROM json_tree('"str"') AS a10 GROUP BY a10.parent, a10.path HAVING max(a01.key) > '0x10')), a01.key FROM t0 AS a00 INNER JOIN json_tree('[1,[2,[3,[4]]],{"a":[5]}]') AS a01 ON NULL INNER JOIN t2 AS a02 ON 1;
CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 TEXT, c2 REAL)
----
CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 BIGINT, c2 BIGINT, c3 CLOB COLLATE RTRIM DEFAULT 1.5)
----
CREATE TABLE t2(c0 INTEGER PRIMARY KEY, c1 TEXT, c2 BLOB, c3 INTEGER, c4 BOOLEAN)
----
SELECT dense_rank() OVER (ORDER BY a01.atom DESC NULLS FIRST RANGE BETWEEN 2 PRECEDING AND 2 FOLLOWING), (SELECT total(a10.c3) FROM t1 AS a10 WHERE a10.c1 IN (SELECT a10.parent FROM json_tree('"str"') AS a10 GROUP BY a10.parent, a10.path HAVING max(a01.key) > '0x10')), a01.key FROM t0 AS a00 INNER JOIN json_tree('[1,[2,[3,[4]]],{"a":[5]}]') AS a01 ON NULL INNER JOIN t2 AS a02 ON 1
