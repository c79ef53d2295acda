-- seed 1796414815979408915: OursFailed at statement 2 (memory store)
--     sqlite: Affected(1)
--     asadb:  Err("malformed JSON")
--   shrunk session:
--     CREATE TABLE t0(c0 DOUBLE, c1 CLOB);
--     INSERT OR REPLACE INTO t0 VALUES (0xFFFFFFFFFFFFFFFF, 'y ');
--     UPDATE t0 SET c1 = (NULL | (SELECT group_concat(fullkey) FROM json_tree(CAST(X'C3' AS TEXT))));
CREATE TABLE t0(c0 DOUBLE, c1 CLOB)
----
INSERT OR REPLACE INTO t0 VALUES (0xFFFFFFFFFFFFFFFF, 'y ')
----
UPDATE t0 SET c1 = (NULL | (SELECT group_concat(fullkey) FROM json_tree(CAST(X'C3' AS TEXT))))
