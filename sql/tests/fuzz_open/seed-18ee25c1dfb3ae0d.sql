-- seed 1796414815979417101: OursFailed at statement 3 (memory store)
--     sqlite: 0 rows
--     asadb:  Err("not an array element: '$.zz'")
--   shrunk session:
--     CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 BOOLEAN, c2, c3 DECIMAL(10,2), c4 INTEGER COLLATE NOCASE NOT NULL DEFAULT 0 CHECK (c4 IS NULL OR c4 <> 13));
--     CREATE TABLE t1(c0 DEFAULT -1, c1 NUMERIC CHECK (c1 IS NULL OR c1 <> 13), c2 NUMERIC, c3 INT, c4 CLOB);
--     INSERT OR IGNORE INTO t1 VALUES ('São Paulo', -1, 'abc', 'abc', 'X');
--     SELECT DISTINCT a02.c1 FROM t1 AS a00 FULL OUTER JOIN t0 AS a01 ON NULL JOIN t1 AS a02 ON a01.c4 = a02.c0 WHERE a00.c3 <= json_array_insert('{}', '$.zz', CASE WHEN typeof(a00.c4) <> 'blob' THEN a00.c4 END);
CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 BOOLEAN, c2, c3 DECIMAL(10,2), c4 INTEGER COLLATE NOCASE NOT NULL DEFAULT 0 CHECK (c4 IS NULL OR c4 <> 13))
----
CREATE TABLE t1(c0 DEFAULT -1, c1 NUMERIC CHECK (c1 IS NULL OR c1 <> 13), c2 NUMERIC, c3 INT, c4 CLOB)
----
INSERT OR IGNORE INTO t1 VALUES ('São Paulo', -1, 'abc', 'abc', 'X')
----
SELECT DISTINCT a02.c1 FROM t1 AS a00 FULL OUTER JOIN t0 AS a01 ON NULL JOIN t1 AS a02 ON a01.c4 = a02.c0 WHERE a00.c3 <= json_array_insert('{}', '$.zz', CASE WHEN typeof(a00.c4) <> 'blob' THEN a00.c4 END)
