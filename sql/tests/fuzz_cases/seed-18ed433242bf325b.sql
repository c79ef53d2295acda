-- seed 1796165709537948251: Rows at statement 4 (memory store)
--     sqlite: 7 rows
--       [Text("x😀y")]
--       [Text("x😀y")]
--       [Text("x😀y")]
--       [Text("x😀y")]
--       [Text("x😀y")]
--       [Text("x😀y")]
--       [Text("x😀y")]
--     asadb:  6 rows
--       [Text("x😀y")]
--       [Text("x😀y")]
--       [Text("x😀y")]
--       [Text("x😀y")]
--       [Text("x😀y")]
--       [Text("x😀y")]
--   shrunk session:
--     CREATE TABLE t2(c0 INTEGER, c1 TEXT COLLATE RTRIM, UNIQUE (c0, c1));
--     INSERT INTO t2 VALUES ('y ', 9223372036854775806), (1e-308, -9223372036854775808), ('[a-c]*', CAST(X'FF' AS TEXT)), ('Müller', CAST(X'FF' AS TEXT));
--     INSERT OR REPLACE INTO t2 VALUES (3.14159, '😀'), (0, '1'), ('10', '0'), ('x😀y', CAST(X'C3' AS TEXT));
--     UPDATE OR REPLACE t2 SET c0 = 0x10;
--     SELECT 'x😀y' FROM t2 AS a00;
CREATE TABLE t2(c0 INTEGER, c1 TEXT COLLATE RTRIM, UNIQUE (c0, c1))
----
INSERT INTO t2 VALUES ('y ', 9223372036854775806), (1e-308, -9223372036854775808), ('[a-c]*', CAST(X'FF' AS TEXT)), ('Müller', CAST(X'FF' AS TEXT))
----
INSERT OR REPLACE INTO t2 VALUES (3.14159, '😀'), (0, '1'), ('10', '0'), ('x😀y', CAST(X'C3' AS TEXT))
----
UPDATE OR REPLACE t2 SET c0 = 0x10
----
SELECT 'x😀y' FROM t2 AS a00
