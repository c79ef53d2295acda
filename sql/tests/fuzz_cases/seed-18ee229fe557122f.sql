-- seed 1796411371510239791: OursSucceeded at statement 2 (memory store)
--     sqlite: Err("misuse of aggregate: min() in SELECT a00.c2 AS \"名前0\" FROM t2 AS a00 RIGHT OUTER JOIN t1 AS a01 ON (a01.c3, 'a', a01.c2) >= (SELECT DISTINCT min((SELECT max(DISTINCT a10.c2) FROM t2 AS a10 WHERE a01.c2 >= a10.c3)), count(a10.c0) AS \"Müller1\", total(a10.c0) FROM t1 AS a10) ORDER BY 1 at offset 114")
--     asadb:  0 rows
--   shrunk session:
--     CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 INT, c2 DECIMAL(10,2), c3 VARCHAR(10), c4 INT COLLATE NOCASE);
--     CREATE TABLE t2(c0 INTEGER PRIMARY KEY, c1 COLLATE NOCASE UNIQUE, c2 CLOB DEFAULT 1.5, c3 INT);
--     SELECT a00.c2 AS "名前0" FROM t2 AS a00 RIGHT OUTER JOIN t1 AS a01 ON (a01.c3, 'a', a01.c2) >= (SELECT DISTINCT min((SELECT max(DISTINCT a10.c2) FROM t2 AS a10 WHERE a01.c2 >= a10.c3)), count(a10.c0) AS "Müller1", total(a10.c0) FROM t1 AS a10) ORDER BY 1;
CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 INT, c2 DECIMAL(10,2), c3 VARCHAR(10), c4 INT COLLATE NOCASE)
----
CREATE TABLE t2(c0 INTEGER PRIMARY KEY, c1 COLLATE NOCASE UNIQUE, c2 CLOB DEFAULT 1.5, c3 INT)
----
SELECT a00.c2 AS "名前0" FROM t2 AS a00 RIGHT OUTER JOIN t1 AS a01 ON (a01.c3, 'a', a01.c2) >= (SELECT DISTINCT min((SELECT max(DISTINCT a10.c2) FROM t2 AS a10 WHERE a01.c2 >= a10.c3)), count(a10.c0) AS "Müller1", total(a10.c0) FROM t1 AS a10) ORDER BY 1
