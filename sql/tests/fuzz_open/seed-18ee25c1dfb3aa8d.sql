-- seed 1796414815979416205: Rows at statement 2 (memory store)
--     sqlite: 0 rows
--     asadb:  1 rows
--       [Text("1")]
--   shrunk session:
--     CREATE TABLE t1(c0, c1 REAL COLLATE RTRIM);
--     INSERT INTO t1 VALUES (6, 'ção'), ('-1', -0.0), (2147483647, 'a%'), (1.5, 'X'), ('1', ' 1');
--     SELECT a00.c0 FROM t1 AS a00 WHERE (a00.c0, a00.c0, a00.c1) IN ((0.0, X'41', a00.c0), (a00.c1, a00.c1, a00.c1), (1.5, a00.c1, a00.c1)) GROUP BY a00.c0;
CREATE TABLE t1(c0, c1 REAL COLLATE RTRIM)
----
INSERT INTO t1 VALUES (6, 'ção'), ('-1', -0.0), (2147483647, 'a%'), (1.5, 'X'), ('1', ' 1')
----
SELECT a00.c0 FROM t1 AS a00 WHERE (a00.c0, a00.c0, a00.c1) IN ((0.0, X'41', a00.c0), (a00.c1, a00.c1, a00.c1), (1.5, a00.c1, a00.c1)) GROUP BY a00.c0
