-- seed 1796165709537948168: OursFailed at statement 1 (memory store)
--     sqlite: Affected(0)
--     asadb:  Err("not supported: UPDATE … FROM of a WITHOUT ROWID table")
--   shrunk session:
--     CREATE TABLE t1(c0 BLOB, c1 REAL COLLATE NOCASE DEFAULT NULL, PRIMARY KEY (c1)) WITHOUT ROWID;
--     UPDATE t1 SET c0 = 1e400 FROM t1 AS o WHERE 1;
CREATE TABLE t1(c0 BLOB, c1 REAL COLLATE NOCASE DEFAULT NULL, PRIMARY KEY (c1)) WITHOUT ROWID
----
UPDATE t1 SET c0 = 1e400 FROM t1 AS o WHERE 1
