-- seed 1796416286308978770: OursFailed at statement 1 (memory store)
--     sqlite: Affected(1)
--     asadb:  Err("row value misused")
--   shrunk session:
--     CREATE TABLE t1(c0 CLOB, c1 BOOLEAN, c2 REAL);
--     INSERT OR REPLACE INTO t1 VALUES (0, CAST(X'E282AC' AS TEXT), 100) ON CONFLICT DO UPDATE SET c0 = ((1e400, excluded.c1, c1) > (c1, 3.14159, c0) & c2);
CREATE TABLE t1(c0 CLOB, c1 BOOLEAN, c2 REAL)
----
INSERT OR REPLACE INTO t1 VALUES (0, CAST(X'E282AC' AS TEXT), 100) ON CONFLICT DO UPDATE SET c0 = ((1e400, excluded.c1, c1) > (c1, 3.14159, c0) & c2)
