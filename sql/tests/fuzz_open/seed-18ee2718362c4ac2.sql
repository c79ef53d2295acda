-- seed 1796416286308977346: OursFailed at statement 5 (memory store)
--     sqlite: 0 rows
--     asadb:  Err("integer overflow")
--   shrunk session:
--     CREATE TABLE t0(c0, c1 INTEGER, PRIMARY KEY (c1)) WITHOUT ROWID;
--     CREATE UNIQUE INDEX i0 ON t0(c0);
--     CREATE TABLE t1(c0 INT, c1 BLOB DEFAULT 1.5, c2 FLOAT, c3 TEXT, c4 NUMERIC);
--     INSERT OR IGNORE INTO t1 VALUES ('a ', 9210000000000000000, 7, 2, 'X');
--     INSERT INTO t0 VALUES ('1.5', '1e5'), ('*', -5), ('x', 1), (X'FF', -9223372036854775807), ('Abc', 0);
--     SELECT a01.id FROM t1 AS a00 LEFT OUTER JOIN json_tree(CASE WHEN json_valid(a00.c0) THEN a00.c0 END, '$.c') AS a01 ON a00.c4 = a01.key RIGHT OUTER JOIN t1 AS a02 ON 1 WHERE (a01.path, a00.c2) < (SELECT sum(a10.c1), total(a10.c1) FROM t0 AS a10);
CREATE TABLE t0(c0, c1 INTEGER, PRIMARY KEY (c1)) WITHOUT ROWID
----
CREATE UNIQUE INDEX i0 ON t0(c0)
----
CREATE TABLE t1(c0 INT, c1 BLOB DEFAULT 1.5, c2 FLOAT, c3 TEXT, c4 NUMERIC)
----
INSERT OR IGNORE INTO t1 VALUES ('a ', 9210000000000000000, 7, 2, 'X')
----
INSERT INTO t0 VALUES ('1.5', '1e5'), ('*', -5), ('x', 1), (X'FF', -9223372036854775807), ('Abc', 0)
----
SELECT a01.id FROM t1 AS a00 LEFT OUTER JOIN json_tree(CASE WHEN json_valid(a00.c0) THEN a00.c0 END, '$.c') AS a01 ON a00.c4 = a01.key RIGHT OUTER JOIN t1 AS a02 ON 1 WHERE (a01.path, a00.c2) < (SELECT sum(a10.c1), total(a10.c1) FROM t0 AS a10)
