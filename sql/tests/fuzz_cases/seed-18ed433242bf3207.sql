-- seed 1796165709537948167: OursFailed at statement 2 (memory store)
--     sqlite: Affected(0)
--     asadb:  Err("not supported: UPDATE … FROM of a WITHOUT ROWID table")
--   shrunk session:
--     CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 VARCHAR(10), c2 FLOAT);
--     CREATE TABLE t1(c0 BOOLEAN, c1 DECIMAL(10,2), PRIMARY KEY (c1)) WITHOUT ROWID;
--     UPDATE t1 SET c0 = t1.c1 FROM t0 AS o WHERE 0;
CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 VARCHAR(10), c2 FLOAT)
----
CREATE TABLE t1(c0 BOOLEAN, c1 DECIMAL(10,2), PRIMARY KEY (c1)) WITHOUT ROWID
----
UPDATE t1 SET c0 = t1.c1 FROM t0 AS o WHERE 0
