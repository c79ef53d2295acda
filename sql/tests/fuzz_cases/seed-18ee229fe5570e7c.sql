-- seed 1796411371510238844: OursSucceeded at statement 2 (memory store)
--     sqlite: Err("misuse of aggregate: avg() in UPDATE OR IGNORE t1 SET c1 = 'a ' WHERE EXISTS (SELECT DISTINCT a10.id AS \"col0\" FROM json_each('-1.5e3') AS a10 GROUP BY a10.id, a10.atom HAVING avg(c2) FILTER (WHERE EXISTS (SELECT a10.c3 FROM t2 AS a10)) > 'b') at offset 146")
--     asadb:  Affected(0)
--   shrunk session:
--     CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 BIGINT, c2 TEXT);
--     CREATE TABLE t2(c0 INTEGER PRIMARY KEY, c1 INTEGER, c2 INTEGER, c3, c4 DECIMAL(10,2));
--     UPDATE OR IGNORE t1 SET c1 = 'a ' WHERE EXISTS (SELECT DISTINCT a10.id AS "col0" FROM json_each('-1.5e3') AS a10 GROUP BY a10.id, a10.atom HAVING avg(c2) FILTER (WHERE EXISTS (SELECT a10.c3 FROM t2 AS a10)) > 'b');
CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 BIGINT, c2 TEXT)
----
CREATE TABLE t2(c0 INTEGER PRIMARY KEY, c1 INTEGER, c2 INTEGER, c3, c4 DECIMAL(10,2))
----
UPDATE OR IGNORE t1 SET c1 = 'a ' WHERE EXISTS (SELECT DISTINCT a10.id AS "col0" FROM json_each('-1.5e3') AS a10 GROUP BY a10.id, a10.atom HAVING avg(c2) FILTER (WHERE EXISTS (SELECT a10.c3 FROM t2 AS a10)) > 'b')
