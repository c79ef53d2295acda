-- seed 1796411371510244441: OursFailed at statement 3 (memory store)
--     sqlite: 0 rows
--     asadb:  Err("JSON cannot hold BLOB values")
--   shrunk session:
--     CREATE TABLE t0(c0 REAL, c1 DECIMAL(10,2) COLLATE RTRIM, c2 CLOB);
--     INSERT INTO t0 VALUES (9223372036854775807, CAST(X'C3' AS TEXT), 0);
--     CREATE TABLE t1(c0 DOUBLE, c1 TEXT, c2 BIGINT, c3 VARCHAR(10) UNIQUE, c4 DOUBLE, PRIMARY KEY (c1)) WITHOUT ROWID;
--     SELECT a00.path, max(a00.parent) FROM json_each('42', '$[#]') AS a00 INNER JOIN t0 AS a01 ON a00.value = a01.c2 LEFT JOIN t1 AS a02 ON NULL WHERE json_insert('"str"', '$[#-1]', X'FF') <= (a01.c2 - '1e5') GROUP BY a00.path, a00.parent;
CREATE TABLE t0(c0 REAL, c1 DECIMAL(10,2) COLLATE RTRIM, c2 CLOB)
----
INSERT INTO t0 VALUES (9223372036854775807, CAST(X'C3' AS TEXT), 0)
----
CREATE TABLE t1(c0 DOUBLE, c1 TEXT, c2 BIGINT, c3 VARCHAR(10) UNIQUE, c4 DOUBLE, PRIMARY KEY (c1)) WITHOUT ROWID
----
SELECT a00.path, max(a00.parent) FROM json_each('42', '$[#]') AS a00 INNER JOIN t0 AS a01 ON a00.value = a01.c2 LEFT JOIN t1 AS a02 ON NULL WHERE json_insert('"str"', '$[#-1]', X'FF') <= (a01.c2 - '1e5') GROUP BY a00.path, a00.parent
