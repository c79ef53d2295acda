-- seed 1796416286308986797: OursFailed at statement 1 (memory store)
--     sqlite: Affected(0)
--     asadb:  Err("row value misused")
--   shrunk session:
--     CREATE TABLE t1(c0 INT, c1 BIGINT, c2 DOUBLE);
--     DELETE FROM t1 WHERE (c1 <> (' 1', '[a-c]*', 'ção') BETWEEN (c1, c2, 1.0) AND (c0, c1, c0) AND '1e5' IS NULL);
CREATE TABLE t1(c0 INT, c1 BIGINT, c2 DOUBLE)
----
DELETE FROM t1 WHERE (c1 <> (' 1', '[a-c]*', 'ção') BETWEEN (c1, c2, 1.0) AND (c0, c1, c0) AND '1e5' IS NULL)
