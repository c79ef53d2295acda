-- seed 1796411371510241342: OursFailed at statement 3 (memory store)
--     sqlite: 0 rows
--     asadb:  Err("JSON cannot hold BLOB values")
--   shrunk session:
--     CREATE TABLE t1(c0, c1 DECIMAL(10,2) COLLATE NOCASE DEFAULT 0, c2 DECIMAL(10,2));
--     CREATE TABLE t2(c0 TEXT UNIQUE, c1 NUMERIC UNIQUE, c2 NUMERIC);
--     INSERT OR IGNORE INTO t2 VALUES ('😀', 'a%', X'41'), (CAST(X'FF' AS TEXT), 9.21e18, 8), (-5, -1, -9.3e18), ('_', 1.0, 7), ('ção', -9.3e18, 'y '), (-9223372036854775808, X'C3A7', 4294967296), (X'4142', 'ção', 'y');
--     SELECT a01.c0 FROM t2 AS a00, t1 AS a01 WHERE concat(json_quote(a00.c1), 'São Paulo') = a01.c0 GROUP BY a01.c0 ORDER BY 1;
CREATE TABLE t1(c0, c1 DECIMAL(10,2) COLLATE NOCASE DEFAULT 0, c2 DECIMAL(10,2))
----
CREATE TABLE t2(c0 TEXT UNIQUE, c1 NUMERIC UNIQUE, c2 NUMERIC)
----
INSERT OR IGNORE INTO t2 VALUES ('😀', 'a%', X'41'), (CAST(X'FF' AS TEXT), 9.21e18, 8), (-5, -1, -9.3e18), ('_', 1.0, 7), ('ção', -9.3e18, 'y '), (-9223372036854775808, X'C3A7', 4294967296), (X'4142', 'ção', 'y')
----
SELECT a01.c0 FROM t2 AS a00, t1 AS a01 WHERE concat(json_quote(a00.c1), 'São Paulo') = a01.c0 GROUP BY a01.c0 ORDER BY 1
