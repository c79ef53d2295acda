-- seed 1796165709537948189: OursFailed at statement 2 (memory store)
--     sqlite: 0 rows
--     asadb:  Err("internal error: each rel once")
--   shrunk session:
--     CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 DECIMAL(10,2) NOT NULL DEFAULT 0, c2 DOUBLE, c3 BIGINT);
--     CREATE INDEX i1 ON t1(c3);
--     SELECT a00.c0 FROM t1 AS a00 INNER JOIN json_each(a00.c3, 'a') AS a01 ON a00.c3 = a01.value;
CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 DECIMAL(10,2) NOT NULL DEFAULT 0, c2 DOUBLE, c3 BIGINT)
----
CREATE INDEX i1 ON t1(c3)
----
SELECT a00.c0 FROM t1 AS a00 INNER JOIN json_each(a00.c3, 'a') AS a01 ON a00.c3 = a01.value
