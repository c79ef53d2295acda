-- seed 1796165709537948299: OursFailed at statement 2 (memory store)
--     sqlite: Affected(0)
--     asadb:  Err("not supported: UPDATE … FROM of a WITHOUT ROWID table")
--   shrunk session:
--     CREATE TABLE t0(c0 DOUBLE COLLATE RTRIM, c1 INT, c2 INTEGER, c3 INT COLLATE NOCASE, c4 BLOB);
--     CREATE TABLE t2(c0 DOUBLE, c1 INT, PRIMARY KEY (c1)) WITHOUT ROWID;
--     UPDATE t2 SET c0 = t2.c0 FROM (SELECT count(*) AS n, max(c0) AS m FROM t0) AS o WHERE NULL;
CREATE TABLE t0(c0 DOUBLE COLLATE RTRIM, c1 INT, c2 INTEGER, c3 INT COLLATE NOCASE, c4 BLOB)
----
CREATE TABLE t2(c0 DOUBLE, c1 INT, PRIMARY KEY (c1)) WITHOUT ROWID
----
UPDATE t2 SET c0 = t2.c0 FROM (SELECT count(*) AS n, max(c0) AS m FROM t0) AS o WHERE NULL
