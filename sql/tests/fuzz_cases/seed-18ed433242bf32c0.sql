-- seed 1796165709537948352: OursFailed at statement 1 (memory store)
--     sqlite: Affected(0)
--     asadb:  Err("not supported: UPDATE … FROM of a WITHOUT ROWID table")
--   shrunk session:
--     CREATE TABLE t0(c0 DEFAULT 0 CHECK (c0 IS NULL OR c0 <> 13), c1 INT, PRIMARY KEY (c1)) WITHOUT ROWID;
--     UPDATE t0 SET c0 = t0.c1 FROM t0 AS o WHERE 1;
CREATE TABLE t0(c0 DEFAULT 0 CHECK (c0 IS NULL OR c0 <> 13), c1 INT, PRIMARY KEY (c1)) WITHOUT ROWID
----
UPDATE t0 SET c0 = t0.c1 FROM t0 AS o WHERE 1
