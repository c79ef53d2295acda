-- seed 1796414815979417298: OursFailed at statement 1 (memory store)
--     sqlite: Affected(0)
--     asadb:  Err("row value misused")
--   shrunk session:
--     CREATE TABLE t1(c0 TEXT, c1 BLOB);
--     UPDATE t1 SET c1 = (-9.3e18 % (c1, c0) IN ((c1, '-1'), (c0, 'a'), (c1, '[a-c]*'))), c1 = c1;
CREATE TABLE t1(c0 TEXT, c1 BLOB)
----
UPDATE t1 SET c1 = (-9.3e18 % (c1, c0) IN ((c1, '-1'), (c0, 'a'), (c1, '[a-c]*'))), c1 = c1
