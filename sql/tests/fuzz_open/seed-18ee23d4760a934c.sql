-- seed 1796412696787850060: OursSucceeded at statement 2 (memory store)
--     sqlite: Err("JSON cannot hold BLOB values")
--     asadb:  0 rows
--   shrunk session:
--     CREATE TABLE t2(c0 INT, c1 DOUBLE, c2 FLOAT COLLATE NOCASE);
--     INSERT OR IGNORE INTO t2 VALUES (2, -9223372036854775807, 9.223372036854775807e18), (CAST(X'C3' AS TEXT), 10, X'C3A7'), ('São Paulo', 'y ', '1 '), (4294967296, 1e-308, X'41'), (0, X'41', 'y '), ('1e5', 9.2e18, 1e-308), ('10', X'C3A7', 9.21e18);
--     SELECT '9223372036854775808', NULL, a00.type FROM json_each('true', '$.c') AS a00 INNER JOIN t2 AS a01 ON a00.type = a01.c1 WHERE (1e308, -5, '0x10') IN (SELECT (json_insert('[1,[2,[3,[4]]],{"a":[5]}]', '$[#]', a10.c1) * X'C3A7'), NULL, NULL AS "col2" FROM t2 AS a10);
CREATE TABLE t2(c0 INT, c1 DOUBLE, c2 FLOAT COLLATE NOCASE)
----
INSERT OR IGNORE INTO t2 VALUES (2, -9223372036854775807, 9.223372036854775807e18), (CAST(X'C3' AS TEXT), 10, X'C3A7'), ('São Paulo', 'y ', '1 '), (4294967296, 1e-308, X'41'), (0, X'41', 'y '), ('1e5', 9.2e18, 1e-308), ('10', X'C3A7', 9.21e18)
----
SELECT '9223372036854775808', NULL, a00.type FROM json_each('true', '$.c') AS a00 INNER JOIN t2 AS a01 ON a00.type = a01.c1 WHERE (1e308, -5, '0x10') IN (SELECT (json_insert('[1,[2,[3,[4]]],{"a":[5]}]', '$[#]', a10.c1) * X'C3A7'), NULL, NULL AS "col2" FROM t2 AS a10)
