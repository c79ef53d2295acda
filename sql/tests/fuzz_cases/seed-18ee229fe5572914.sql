-- seed 1796411371510245652: OursSucceeded at statement 1 (memory store)
--     sqlite: Err("misuse of aggregate: avg() in SELECT max(a00.atom), total(a00.path) FROM json_each('{a:1,b:[0x10,.5,],}') AS a00 WHERE 'ção' IS NOT (SELECT avg('0') FILTER (WHERE NOT EXISTS (SELECT DISTINCT a10.c1 FROM t0 AS a10 WHERE (a10.c0 + a00.key))) FROM t0 AS a10) at offset 112")
--     asadb:  1 rows
--       [Integer(1), Real(0.0)]
--   shrunk session:
--     CREATE TABLE t0(c0 VARCHAR(10) COLLATE NOCASE, c1 BIGINT);
--     SELECT max(a00.atom), total(a00.path) FROM json_each('{a:1,b:[0x10,.5,],}') AS a00 WHERE 'ção' IS NOT (SELECT avg('0') FILTER (WHERE NOT EXISTS (SELECT DISTINCT a10.c1 FROM t0 AS a10 WHERE (a10.c0 + a00.key))) FROM t0 AS a10);
CREATE TABLE t0(c0 VARCHAR(10) COLLATE NOCASE, c1 BIGINT)
----
SELECT max(a00.atom), total(a00.path) FROM json_each('{a:1,b:[0x10,.5,],}') AS a00 WHERE 'ção' IS NOT (SELECT avg('0') FILTER (WHERE NOT EXISTS (SELECT DISTINCT a10.c1 FROM t0 AS a10 WHERE (a10.c0 + a00.key))) FROM t0 AS a10)
