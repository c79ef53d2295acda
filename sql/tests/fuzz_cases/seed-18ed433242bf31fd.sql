-- seed 1796165709537948157: OursFailed at statement 2 (memory store)
--     sqlite: Affected(0)
--     asadb:  Err("database is corrupt: rowid is not an integer")
--   shrunk session:
--     CREATE TABLE t0(c0 BLOB, c1 TEXT NOT NULL DEFAULT 0);
--     CREATE TABLE t1(c0 NUMERIC COLLATE NOCASE, c1 BOOLEAN COLLATE NOCASE, c2 REAL COLLATE NOCASE, c3 VARCHAR(10) DEFAULT 0);
--     UPDATE t0 SET c1 = ((SELECT count(rtrim(o.n, t0.c0)) FROM t1 AS a10) << X'FF') FROM (SELECT count(*) AS n, max(c0) AS m FROM t0) AS o WHERE NULL;
CREATE TABLE t0(c0 BLOB, c1 TEXT NOT NULL DEFAULT 0)
----
CREATE TABLE t1(c0 NUMERIC COLLATE NOCASE, c1 BOOLEAN COLLATE NOCASE, c2 REAL COLLATE NOCASE, c3 VARCHAR(10) DEFAULT 0)
----
UPDATE t0 SET c1 = ((SELECT count(rtrim(o.n, t0.c0)) FROM t1 AS a10) << X'FF') FROM (SELECT count(*) AS n, max(c0) AS m FROM t0) AS o WHERE NULL
