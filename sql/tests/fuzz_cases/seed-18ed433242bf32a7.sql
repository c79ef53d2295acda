-- seed 1796165709537948327: Rows at statement 4 (memory store)
--     sqlite: 1 rows
--       [Integer(2), Text("[\"x😀y\",\"%b%\"]"), Text("[null,null]")]
--     asadb:  1 rows
--       [Integer(2), Text("[\"%b%\",\"x😀y\"]"), Text("[null,null]")]
--   shrunk session:
--     CREATE TABLE t0(c0 FLOAT, c1 INTEGER, c2 FLOAT COLLATE NOCASE, c3 BOOLEAN COLLATE NOCASE DEFAULT NULL, PRIMARY KEY (c1)) WITHOUT ROWID;
--     INSERT OR REPLACE INTO t0 VALUES (0.0, '%b%', '%b%', '+1'), (9.223372036854775807e18, 'x😀y', 6, 2147483647);
--     CREATE INDEX i0 ON t0(c2 DESC, c0 DESC);
--     UPDATE t0 SET c2 = CAST(X'41FF42' AS TEXT);
--     SELECT DISTINCT count(a00.c0), json_group_array(a00.c1), json_group_array(NULL) FROM t0 AS a00;
CREATE TABLE t0(c0 FLOAT, c1 INTEGER, c2 FLOAT COLLATE NOCASE, c3 BOOLEAN COLLATE NOCASE DEFAULT NULL, PRIMARY KEY (c1)) WITHOUT ROWID
----
INSERT OR REPLACE INTO t0 VALUES (0.0, '%b%', '%b%', '+1'), (9.223372036854775807e18, 'x😀y', 6, 2147483647)
----
CREATE INDEX i0 ON t0(c2 DESC, c0 DESC)
----
UPDATE t0 SET c2 = CAST(X'41FF42' AS TEXT)
----
SELECT DISTINCT count(a00.c0), json_group_array(a00.c1), json_group_array(NULL) FROM t0 AS a00
