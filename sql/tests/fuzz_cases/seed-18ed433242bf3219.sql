-- seed 1796165709537948185: OursSucceeded at statement 2 (memory store)
--     sqlite: Err("bad JSON path: '$['")
--     asadb:  0 rows
--   shrunk session:
--     CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1, c2 TEXT NOT NULL DEFAULT 0 DEFAULT 'x', c3 UNIQUE);
--     CREATE TABLE t2(c0 VARCHAR(10), c1 NUMERIC);
--     SELECT a01.c0 FROM t1 AS a00 LEFT JOIN t2 AS a01 ON NULL WHERE julianday('2024-13-01', 'weekday 3') = json_extract('[1,2,3]', '$[');
CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1, c2 TEXT NOT NULL DEFAULT 0 DEFAULT 'x', c3 UNIQUE)
----
CREATE TABLE t2(c0 VARCHAR(10), c1 NUMERIC)
----
SELECT a01.c0 FROM t1 AS a00 LEFT JOIN t2 AS a01 ON NULL WHERE julianday('2024-13-01', 'weekday 3') = json_extract('[1,2,3]', '$[')
