-- seed 1796411371510238502: Rows at statement 3 (memory store)
--     sqlite: 1 rows
--       [Text("y "), Text("%"), Real(-inf)]
--     asadb:  1 rows
--       [Text("y "), Text("x"), Real(-inf)]
--   shrunk session:
--     CREATE TABLE t2(c0 VARCHAR(10), c1 BOOLEAN);
--     CREATE INDEX i0 ON t2(c0);
--     INSERT INTO t2 VALUES ('x', 'y '), ('0x10', 9223372036854775807), ('0x10', 0), ('%b%', 9.2e18), (-1e308, 0.0), ('%', 3), (3, 7);
--     SELECT a00.c1, a02.c0, (SELECT DISTINCT avg(a02.c0) FROM json_tree('{a:1,b:[0x10,.5,],}') AS a10) FROM t2 AS a00, t2 AS a01 RIGHT JOIN t2 AS a02 ON a01.c0 = a02.c0 ORDER BY 1, 2 DESC, 3 DESC;
CREATE TABLE t2(c0 VARCHAR(10), c1 BOOLEAN)
----
CREATE INDEX i0 ON t2(c0)
----
INSERT INTO t2 VALUES ('x', 'y '), ('0x10', 9223372036854775807), ('0x10', 0), ('%b%', 9.2e18), (-1e308, 0.0), ('%', 3), (3, 7)
----
SELECT a00.c1, a02.c0, (SELECT DISTINCT avg(a02.c0) FROM json_tree('{a:1,b:[0x10,.5,],}') AS a10) FROM t2 AS a00, t2 AS a01 RIGHT JOIN t2 AS a02 ON a01.c0 = a02.c0 ORDER BY 1, 2 DESC, 3 DESC
