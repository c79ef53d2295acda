-- seed 1796411371510237139: OursSucceeded at statement 2 (memory store)
--     sqlite: Err("misuse of aggregate: sum() in SELECT a00.c2, a00.c0 FROM t1 AS a00 WHERE (SELECT sum((SELECT avg(a10.c1) FROM t1 AS a10 WHERE (a10.c2, a10.c1) IN (SELECT a10.c1, (a10.c2 / a00.c2) FROM t1 AS a10))) FROM t0 AS a10) == a00.c0 at offset 51")
--     asadb:  0 rows
--   shrunk session:
--     CREATE TABLE t0(c0 INTEGER, c1 BLOB DEFAULT 1.5, c2 DOUBLE, c3 DECIMAL(10,2));
--     CREATE TABLE t1(c0 DECIMAL(10,2), c1 INTEGER DEFAULT 1.5, c2 FLOAT UNIQUE);
--     SELECT a00.c2, a00.c0 FROM t1 AS a00 WHERE (SELECT sum((SELECT avg(a10.c1) FROM t1 AS a10 WHERE (a10.c2, a10.c1) IN (SELECT a10.c1, (a10.c2 / a00.c2) FROM t1 AS a10))) FROM t0 AS a10) == a00.c0;
CREATE TABLE t0(c0 INTEGER, c1 BLOB DEFAULT 1.5, c2 DOUBLE, c3 DECIMAL(10,2))
----
CREATE TABLE t1(c0 DECIMAL(10,2), c1 INTEGER DEFAULT 1.5, c2 FLOAT UNIQUE)
----
SELECT a00.c2, a00.c0 FROM t1 AS a00 WHERE (SELECT sum((SELECT avg(a10.c1) FROM t1 AS a10 WHERE (a10.c2, a10.c1) IN (SELECT a10.c1, (a10.c2 / a00.c2) FROM t1 AS a10))) FROM t0 AS a10) == a00.c0
