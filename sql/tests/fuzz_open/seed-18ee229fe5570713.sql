-- seed 1796411371510236947: OursFailed at statement 1 (memory store)
--     sqlite: 0 rows
--     asadb:  Err("row value misused")
--   shrunk session:
--     CREATE TABLE t1(c0 FLOAT NOT NULL DEFAULT 0, c1 INT COLLATE NOCASE);
--     SELECT a00.c0 AS "São0", zeroblob(0), '1e5' FROM t1 AS a00 WHERE EXISTS (SELECT (a10.path & (a10.value, 1e-308, a10.type) IN ((a10.parent, a10.value, a10.value), (10, 2, 0), (a10.id, 'Müller', a10.id))) FROM json_each('42') AS a10);
CREATE TABLE t1(c0 FLOAT NOT NULL DEFAULT 0, c1 INT COLLATE NOCASE)
----
SELECT a00.c0 AS "São0", zeroblob(0), '1e5' FROM t1 AS a00 WHERE EXISTS (SELECT (a10.path & (a10.value, 1e-308, a10.type) IN ((a10.parent, a10.value, a10.value), (10, 2, 0), (a10.id, 'Müller', a10.id))) FROM json_each('42') AS a10)
