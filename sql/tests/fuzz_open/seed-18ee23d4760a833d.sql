-- seed 1796412696787845949: OursFailed at statement 3 (memory store)
--     sqlite: 0 rows
--     asadb:  Err("JSON cannot hold BLOB values")
--   shrunk session:
--     CREATE TABLE t1(c0 FLOAT, c1 CLOB DEFAULT 0, c2 INTEGER, c3 FLOAT, c4 NUMERIC, PRIMARY KEY (c1)) WITHOUT ROWID;
--     CREATE TABLE t2(c0 COLLATE NOCASE CHECK (c0 IS NULL OR c0 <> 13), c1 DECIMAL(10,2) COLLATE NOCASE, c2 DECIMAL(10,2) COLLATE RTRIM, c3 CLOB);
--     INSERT OR REPLACE INTO t2 VALUES ('X', '9223372036854775808', X'00', 100), (3, 2, '0', 0xFFFFFFFFFFFFFFFF), (10, '%b%', '%', X'00'), (NULL, 8, 2, '1.5'), (-2, -3, 0x10, CAST(X'41FF42' AS TEXT)), (X'4142', 1e308, 'a%', 'São Paulo'), ('x', 3, 'Abc', 9.21e18), ('abc', 'Abc', 1e308, 'a');
--     SELECT a01.key FROM t1 AS a00 INNER JOIN json_tree(CASE WHEN json_valid(a00.c1) THEN a00.c1 END, '$[#]') AS a01 ON EXISTS (SELECT a10.c0 FROM t2 AS a10 GROUP BY a10.c0, a10.c2 HAVING min(json_array_insert('[]', '$[1][1]', a10.c0)) > 0) LEFT OUTER JOIN t1 AS a02 ON a01.fullkey = a02.c2;
CREATE TABLE t1(c0 FLOAT, c1 CLOB DEFAULT 0, c2 INTEGER, c3 FLOAT, c4 NUMERIC, PRIMARY KEY (c1)) WITHOUT ROWID
----
CREATE TABLE t2(c0 COLLATE NOCASE CHECK (c0 IS NULL OR c0 <> 13), c1 DECIMAL(10,2) COLLATE NOCASE, c2 DECIMAL(10,2) COLLATE RTRIM, c3 CLOB)
----
INSERT OR REPLACE INTO t2 VALUES ('X', '9223372036854775808', X'00', 100), (3, 2, '0', 0xFFFFFFFFFFFFFFFF), (10, '%b%', '%', X'00'), (NULL, 8, 2, '1.5'), (-2, -3, 0x10, CAST(X'41FF42' AS TEXT)), (X'4142', 1e308, 'a%', 'São Paulo'), ('x', 3, 'Abc', 9.21e18), ('abc', 'Abc', 1e308, 'a')
----
SELECT a01.key FROM t1 AS a00 INNER JOIN json_tree(CASE WHEN json_valid(a00.c1) THEN a00.c1 END, '$[#]') AS a01 ON EXISTS (SELECT a10.c0 FROM t2 AS a10 GROUP BY a10.c0, a10.c2 HAVING min(json_array_insert('[]', '$[1][1]', a10.c0)) > 0) LEFT OUTER JOIN t1 AS a02 ON a01.fullkey = a02.c2
