-- seed 1796414815979413693: OursFailed at statement 4 (memory store)
--     sqlite: 0 rows
--     asadb:  Err("not an array element: '$.c.d'")
--   shrunk session:
--     CREATE TABLE t0(c0 DECIMAL(10,2) COLLATE RTRIM, c1 NUMERIC, c2 INTEGER NOT NULL DEFAULT 0);
--     CREATE TABLE t1(c0 BIGINT, c1 REAL, c2 INTEGER COLLATE RTRIM, c3 INTEGER, c4 DECIMAL(10,2), PRIMARY KEY (c1)) WITHOUT ROWID;
--     INSERT INTO t1 VALUES ('1.5', 'y', '1', 6, 4);
--     CREATE TABLE t2(c0 INTEGER PRIMARY KEY, c1 CLOB COLLATE NOCASE DEFAULT 'x', c2, c3 BLOB UNIQUE);
--     SELECT a02.c0, ' 1' AS "x1", -9.3e18 FROM t0 AS a00 RIGHT JOIN t1 AS a01 ON NULL FULL OUTER JOIN t2 AS a02 ON 1 WHERE a02.c0 < json_array_insert(json_object('a', CASE WHEN typeof('a%') <> 'blob' THEN 'a%' END, 'a b', CASE WHEN typeof(a02.c3) <> 'blob' THEN a02.c3 END, '', CASE WHEN typeof(a02.c1) <> 'blob' THEN a02.c1 END), '$.c.d', CASE WHEN typeof(-5) <> 'blob' THEN -5 END);
CREATE TABLE t0(c0 DECIMAL(10,2) COLLATE RTRIM, c1 NUMERIC, c2 INTEGER NOT NULL DEFAULT 0)
----
CREATE TABLE t1(c0 BIGINT, c1 REAL, c2 INTEGER COLLATE RTRIM, c3 INTEGER, c4 DECIMAL(10,2), PRIMARY KEY (c1)) WITHOUT ROWID
----
INSERT INTO t1 VALUES ('1.5', 'y', '1', 6, 4)
----
CREATE TABLE t2(c0 INTEGER PRIMARY KEY, c1 CLOB COLLATE NOCASE DEFAULT 'x', c2, c3 BLOB UNIQUE)
----
SELECT a02.c0, ' 1' AS "x1", -9.3e18 FROM t0 AS a00 RIGHT JOIN t1 AS a01 ON NULL FULL OUTER JOIN t2 AS a02 ON 1 WHERE a02.c0 < json_array_insert(json_object('a', CASE WHEN typeof('a%') <> 'blob' THEN 'a%' END, 'a b', CASE WHEN typeof(a02.c3) <> 'blob' THEN a02.c3 END, '', CASE WHEN typeof(a02.c1) <> 'blob' THEN a02.c1 END), '$.c.d', CASE WHEN typeof(-5) <> 'blob' THEN -5 END)
