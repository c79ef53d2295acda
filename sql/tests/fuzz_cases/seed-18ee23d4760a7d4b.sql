-- seed 1796412696787844427: OursSucceeded at statement 1 (memory store)
--     sqlite: Err("row value misused")
--     asadb:  Affected(0)
--   shrunk session:
--     CREATE TABLE t1(c0 INT, c1 DECIMAL(10,2), c2 DOUBLE);
--     UPDATE t1 SET c0 = c0 WHERE ((c1, c0, c1) = (c0, c0, c1) % json_array_insert(NULL, '$.a', c2)) IN ();
CREATE TABLE t1(c0 INT, c1 DECIMAL(10,2), c2 DOUBLE)
----
UPDATE t1 SET c0 = c0 WHERE ((c1, c0, c1) = (c0, c0, c1) % json_array_insert(NULL, '$.a', c2)) IN ()
