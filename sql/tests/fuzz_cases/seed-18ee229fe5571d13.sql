-- seed 1796411371510242579: OursSucceeded at statement 1 (memory store)
--     sqlite: Err("misuse of aggregate: min() in SELECT -9223372036854775808 AS \"Müller0\" FROM t0 AS a00 CROSS JOIN t0 AS a01 WHERE (9223372036854775807, 'a ', a01.c4) >= (SELECT min(a10.c0), sum(a10.c3), min((SELECT min(a10.parent) AS \"col0\" FROM json_each('[1,2,3]') AS a10 WHERE -1e308 LIKE a00.c0)) FROM t0 AS a10) at offset 157")
--     asadb:  0 rows
--   shrunk session:
--     CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 REAL COLLATE NOCASE, c2 NUMERIC, c3 REAL, c4 TEXT);
--     SELECT -9223372036854775808 AS "Müller0" FROM t0 AS a00 CROSS JOIN t0 AS a01 WHERE (9223372036854775807, 'a ', a01.c4) >= (SELECT min(a10.c0), sum(a10.c3), min((SELECT min(a10.parent) AS "col0" FROM json_each('[1,2,3]') AS a10 WHERE -1e308 LIKE a00.c0)) FROM t0 AS a10);
CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 REAL COLLATE NOCASE, c2 NUMERIC, c3 REAL, c4 TEXT)
----
SELECT -9223372036854775808 AS "Müller0" FROM t0 AS a00 CROSS JOIN t0 AS a01 WHERE (9223372036854775807, 'a ', a01.c4) >= (SELECT min(a10.c0), sum(a10.c3), min((SELECT min(a10.parent) AS "col0" FROM json_each('[1,2,3]') AS a10 WHERE -1e308 LIKE a00.c0)) FROM t0 AS a10)
