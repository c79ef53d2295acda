-- An aggregate naming only excluded.* columns in an upsert belongs to the
-- query it is written in (SQLite finds no FROM table for excluded), so it
-- aggregates that query's rows; it is no misuse in the DO UPDATE.
CREATE TABLE t(k INTEGER PRIMARY KEY, c)
----
CREATE TABLE t2(z)
----
INSERT INTO t2 VALUES (1), (2), (3)
----
INSERT INTO t VALUES (1, 10)
----
INSERT INTO t VALUES (1, 20) ON CONFLICT DO UPDATE SET c = (SELECT count(excluded.c) FROM t2)
----
SELECT * FROM t
----
INSERT INTO t VALUES (1, 30) ON CONFLICT DO UPDATE SET c = (SELECT sum(excluded.c) FROM t2 GROUP BY z HAVING max(excluded.c) > 0 ORDER BY 1 LIMIT 1)
----
SELECT * FROM t
