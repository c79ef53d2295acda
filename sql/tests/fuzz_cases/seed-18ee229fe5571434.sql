-- seed 1796411371510240308: Rows at statement 2 (memory store)
--     sqlite: 1 rows
--       [Null, Null, Integer(0)]
--     asadb:  0 rows
--   shrunk session:
--     CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 TEXT CHECK (c1 IS NULL OR c1 <> 13), c2 BLOB, c3 BOOLEAN COLLATE RTRIM, c4 BOOLEAN CHECK (c4 IS NULL OR c4 <> 13));
--     CREATE TABLE t1(c0 FLOAT, c1 CLOB, c2 VARCHAR(10), c3 REAL);
--     SELECT ((SELECT total((SELECT json_group_array(type) FROM json_each(CASE WHEN json_valid(a01.c4) THEN a01.c4 END))) FROM t1 AS a10) << a01.c1) AS "São0", a01.c4, 0 FROM t1 AS a00 INNER JOIN t0 AS a01 ON 0 INNER JOIN t0 AS a02 ON a00.c2 = a02.c2 ORDER BY 1 DESC, 2, 3 DESC;
CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 TEXT CHECK (c1 IS NULL OR c1 <> 13), c2 BLOB, c3 BOOLEAN COLLATE RTRIM, c4 BOOLEAN CHECK (c4 IS NULL OR c4 <> 13))
----
CREATE TABLE t1(c0 FLOAT, c1 CLOB, c2 VARCHAR(10), c3 REAL)
----
SELECT ((SELECT total((SELECT json_group_array(type) FROM json_each(CASE WHEN json_valid(a01.c4) THEN a01.c4 END))) FROM t1 AS a10) << a01.c1) AS "São0", a01.c4, 0 FROM t1 AS a00 INNER JOIN t0 AS a01 ON 0 INNER JOIN t0 AS a02 ON a00.c2 = a02.c2 ORDER BY 1 DESC, 2, 3 DESC
