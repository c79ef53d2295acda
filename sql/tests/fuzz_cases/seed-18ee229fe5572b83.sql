-- seed 1796411371510246275: OursSucceeded at statement 1 (memory store)
--     sqlite: Err("row value misused")
--     asadb:  0 rows
--   shrunk session:
--     CREATE TABLE t0(c0 TEXT, c1 DOUBLE);
--     SELECT a00.c1, a00.c0, '1.5' FROM t0 AS a00 WHERE (('%', -5, a00.c1) <> (a00.c0, CAST(X'FF' AS TEXT), a00.c1) % char(3.14159, '-1')) IN ();
CREATE TABLE t0(c0 TEXT, c1 DOUBLE)
----
SELECT a00.c1, a00.c0, '1.5' FROM t0 AS a00 WHERE (('%', -5, a00.c1) <> (a00.c0, CAST(X'FF' AS TEXT), a00.c1) % char(3.14159, '-1')) IN ()
