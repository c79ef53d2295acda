-- seed 1796412696787847505: OursSucceeded at statement 1 (memory store)
--     sqlite: Err("JSON cannot hold BLOB values")
--     asadb:  Affected(0)
--   shrunk session:
--     CREATE TABLE t1(c0 REAL, c1 TEXT COLLATE NOCASE UNIQUE);
--     DELETE FROM t1 WHERE json_insert('42', '$', X'FF');
CREATE TABLE t1(c0 REAL, c1 TEXT COLLATE NOCASE UNIQUE)
----
DELETE FROM t1 WHERE json_insert('42', '$', X'FF')
