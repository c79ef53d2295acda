-- seed 1796411371510241818: OursSucceeded at statement 2 (memory store)
--     sqlite: Err("misuse of aggregate: count() in SELECT sum(DISTINCT a01.fullkey) FILTER (WHERE (-1, a00.c1, a00.c2) >= (SELECT total(a10.c1), count((SELECT avg(a10.c1) FROM t1 AS a10 WHERE CASE WHEN json_valid(a10.c1) THEN (a00.c0 / a10.c1) END IN (9.21e18))), max(a10.c0) FROM t1 AS a10)), min(a02.c0) FROM t0 AS a00 LEFT JOIN json_tree(CASE WHEN json_valid(a00.c0) THEN a00.c0 END, '$[2].a[0]') AS a01 ON 1 RIGHT OUTER JOIN t1 AS a02 ON NULL at offset 94")
--     asadb:  1 rows
--       [Null, Null]
--   shrunk session:
--     CREATE TABLE t0(c0 INTEGER DEFAULT NULL, c1 NUMERIC, c2 CLOB, c3 CLOB COLLATE RTRIM, c4 INT);
--     CREATE TABLE t1(c0 TEXT, c1 DOUBLE);
--     SELECT sum(DISTINCT a01.fullkey) FILTER (WHERE (-1, a00.c1, a00.c2) >= (SELECT total(a10.c1), count((SELECT avg(a10.c1) FROM t1 AS a10 WHERE CASE WHEN json_valid(a10.c1) THEN (a00.c0 / a10.c1) END IN (9.21e18))), max(a10.c0) FROM t1 AS a10)), min(a02.c0) FROM t0 AS a00 LEFT JOIN json_tree(CASE WHEN json_valid(a00.c0) THEN a00.c0 END, '$[2].a[0]') AS a01 ON 1 RIGHT OUTER JOIN t1 AS a02 ON NULL;
CREATE TABLE t0(c0 INTEGER DEFAULT NULL, c1 NUMERIC, c2 CLOB, c3 CLOB COLLATE RTRIM, c4 INT)
----
CREATE TABLE t1(c0 TEXT, c1 DOUBLE)
----
SELECT sum(DISTINCT a01.fullkey) FILTER (WHERE (-1, a00.c1, a00.c2) >= (SELECT total(a10.c1), count((SELECT avg(a10.c1) FROM t1 AS a10 WHERE CASE WHEN json_valid(a10.c1) THEN (a00.c0 / a10.c1) END IN (9.21e18))), max(a10.c0) FROM t1 AS a10)), min(a02.c0) FROM t0 AS a00 LEFT JOIN json_tree(CASE WHEN json_valid(a00.c0) THEN a00.c0 END, '$[2].a[0]') AS a01 ON 1 RIGHT OUTER JOIN t1 AS a02 ON NULL
