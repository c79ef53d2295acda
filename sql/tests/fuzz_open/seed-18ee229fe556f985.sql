-- seed 1796411371510233477: Rows at statement 3 (memory store)
--     sqlite: 1 rows
--       [Null, Integer(0), Null]
--     asadb:  1 rows
--       [Null, Null, Null]
--   shrunk session:
--     CREATE TABLE t1(c0 INT, c1 TEXT UNIQUE);
--     INSERT INTO t1 VALUES (1e3, 'a%'), (NULL, 6), ('1', 0), (0, '1.5');
--     CREATE TABLE t2(c0 NUMERIC, c1 UNIQUE, c2 FLOAT, c3 INT);
--     SELECT NULL, a01.c0, (SELECT total(octet_length(a01.c1)) AS "x0" FROM t2 AS a10) FROM t1 AS a00 LEFT OUTER JOIN t1 AS a01 ON a00.c1 = a01.c0 ORDER BY 1, 2 DESC, 3 DESC;
CREATE TABLE t1(c0 INT, c1 TEXT UNIQUE)
----
INSERT INTO t1 VALUES (1e3, 'a%'), (NULL, 6), ('1', 0), (0, '1.5')
----
CREATE TABLE t2(c0 NUMERIC, c1 UNIQUE, c2 FLOAT, c3 INT)
----
SELECT NULL, a01.c0, (SELECT total(octet_length(a01.c1)) AS "x0" FROM t2 AS a10) FROM t1 AS a00 LEFT OUTER JOIN t1 AS a01 ON a00.c1 = a01.c0 ORDER BY 1, 2 DESC, 3 DESC
