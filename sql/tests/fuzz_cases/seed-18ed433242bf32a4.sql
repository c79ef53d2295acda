-- seed 1796165709537948324: OursFailed at statement 2 (memory store)
--     sqlite: Affected(0)
--     asadb:  Err("not supported: UPDATE … FROM of a WITHOUT ROWID table")
--   shrunk session:
--     CREATE TABLE t0(c0 CLOB, c1 DOUBLE, c2 DOUBLE, c3 INT, PRIMARY KEY (c1)) WITHOUT ROWID;
--     CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 BLOB, c2 INTEGER, c3 VARCHAR(10));
--     UPDATE t0 SET c2 = t0.c2 FROM t1 AS o WHERE NULL;
CREATE TABLE t0(c0 CLOB, c1 DOUBLE, c2 DOUBLE, c3 INT, PRIMARY KEY (c1)) WITHOUT ROWID
----
CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 BLOB, c2 INTEGER, c3 VARCHAR(10))
----
UPDATE t0 SET c2 = t0.c2 FROM t1 AS o WHERE NULL
