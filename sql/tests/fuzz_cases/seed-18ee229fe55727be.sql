-- seed 1796411371510245310: Rows at statement 2 (memory store)
--     sqlite: 1 rows
--       [Null]
--     asadb:  0 rows
--   shrunk session:
--     CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 BLOB, c2 INTEGER, c3 FLOAT);
--     CREATE TABLE t1(c0 FLOAT DEFAULT 0, c1 DOUBLE);
--     SELECT trim((SELECT total((a01.c0 * 'ABC')) FILTER (WHERE (SELECT avg(a10.c0) FROM t1 AS a10)) FROM t1 AS a10)) FROM t0 AS a00 LEFT JOIN t0 AS a01 ON NULL;
CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 BLOB, c2 INTEGER, c3 FLOAT)
----
CREATE TABLE t1(c0 FLOAT DEFAULT 0, c1 DOUBLE)
----
SELECT trim((SELECT total((a01.c0 * 'ABC')) FILTER (WHERE (SELECT avg(a10.c0) FROM t1 AS a10)) FROM t1 AS a10)) FROM t0 AS a00 LEFT JOIN t0 AS a01 ON NULL
