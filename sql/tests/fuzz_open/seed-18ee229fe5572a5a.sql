-- seed 1796411371510245978: OursSucceeded at statement 1 (memory store)
--     sqlite: Err("JSON cannot hold BLOB values")
--     asadb:  Affected(0)
--   shrunk session:
--     CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 INT);
--     DELETE FROM t0 WHERE json_set('[1,[2,[3,[4]]],{"a":[5]}]', '$.c.d', X'');
CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 INT)
----
DELETE FROM t0 WHERE json_set('[1,[2,[3,[4]]],{"a":[5]}]', '$.c.d', X'')
