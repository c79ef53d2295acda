-- seed 1796411371510243304: Rows at statement 1 (memory store)
--     sqlite: 1 rows
--       [Null, Null]
--     asadb:  0 rows
--   shrunk session:
--     CREATE TABLE t1(c0 BLOB CHECK (c0 IS NULL OR c0 <> 13), c1 DECIMAL(10,2) COLLATE RTRIM, c2, c3 INTEGER);
--     SELECT (SELECT total(DISTINCT (SELECT DISTINCT max(0) FROM t1 AS a10 WHERE EXISTS (SELECT X'00' FROM t1 AS a10 WHERE a10.c0 != substr(a10.c3, -5, a00.c0)))) FROM t1 AS a10), a00.c1 FROM t1 AS a00;
CREATE TABLE t1(c0 BLOB CHECK (c0 IS NULL OR c0 <> 13), c1 DECIMAL(10,2) COLLATE RTRIM, c2, c3 INTEGER)
----
SELECT (SELECT total(DISTINCT (SELECT DISTINCT max(0) FROM t1 AS a10 WHERE EXISTS (SELECT X'00' FROM t1 AS a10 WHERE a10.c0 != substr(a10.c3, -5, a00.c0)))) FROM t1 AS a10), a00.c1 FROM t1 AS a00
