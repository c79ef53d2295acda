-- seed 1796165709537948347: OursFailed at statement 3 (memory store)
--     sqlite: 0 rows
--     asadb:  Err("malformed JSON")
--   shrunk session:
--     CREATE TABLE t0(c0 BOOLEAN UNIQUE, c1);
--     INSERT OR REPLACE INTO t0 VALUES (4, 2), (9223372036854775807, ' 1'), ('ABC', 'y'), (3, 100), (0, 9223372036854775808);
--     CREATE TABLE t2(c0 INTEGER PRIMARY KEY, c1 DECIMAL(10,2), c2 DECIMAL(10,2) NOT NULL DEFAULT 0, c3 TEXT);
--     SELECT a01.fullkey, a01.fullkey, a02.c2 FROM t0 AS a00 LEFT JOIN json_tree(a00.c1, '$[2].a[0]') AS a01 ON a00.c0 = a01.id, t2 AS a02;
CREATE TABLE t0(c0 BOOLEAN UNIQUE, c1)
----
INSERT OR REPLACE INTO t0 VALUES (4, 2), (9223372036854775807, ' 1'), ('ABC', 'y'), (3, 100), (0, 9223372036854775808)
----
CREATE TABLE t2(c0 INTEGER PRIMARY KEY, c1 DECIMAL(10,2), c2 DECIMAL(10,2) NOT NULL DEFAULT 0, c3 TEXT)
----
SELECT a01.fullkey, a01.fullkey, a02.c2 FROM t0 AS a00 LEFT JOIN json_tree(a00.c1, '$[2].a[0]') AS a01 ON a00.c0 = a01.id, t2 AS a02
