-- seed 1796412696787848375: OursFailed at statement 2 (memory store)
--     sqlite: 1 rows
--       [Text("[]"), Null, Real(0.0)]
--     asadb:  Err("row value misused")
--   shrunk session:
--     CREATE TABLE t0(c0 INTEGER COLLATE NOCASE NOT NULL DEFAULT 0, c1 NUMERIC, c2 FLOAT UNIQUE CHECK (c2 IS NULL OR c2 <> 13), c3 VARCHAR(10) DEFAULT 1.5, c4 VARCHAR(10) UNIQUE);
--     CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 DECIMAL(10,2) COLLATE RTRIM);
--     SELECT json_group_array(a02.c1 ORDER BY a02.c1, typeof(a02.c1), hex(a02.c1)), sum(a01.c0), total(a01.c0) FROM t1 AS a00 JOIN t1 AS a01 ON a00.c1 = a01.c0 LEFT OUTER JOIN t0 AS a02 ON 1 WHERE (0 AND 'a ' IS NOT (a02.c4, a02.c2) IN ((a01.c0, a00.c0)));
CREATE TABLE t0(c0 INTEGER COLLATE NOCASE NOT NULL DEFAULT 0, c1 NUMERIC, c2 FLOAT UNIQUE CHECK (c2 IS NULL OR c2 <> 13), c3 VARCHAR(10) DEFAULT 1.5, c4 VARCHAR(10) UNIQUE)
----
CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 DECIMAL(10,2) COLLATE RTRIM)
----
SELECT json_group_array(a02.c1 ORDER BY a02.c1, typeof(a02.c1), hex(a02.c1)), sum(a01.c0), total(a01.c0) FROM t1 AS a00 JOIN t1 AS a01 ON a00.c1 = a01.c0 LEFT OUTER JOIN t0 AS a02 ON 1 WHERE (0 AND 'a ' IS NOT (a02.c4, a02.c2) IN ((a01.c0, a00.c0)))
