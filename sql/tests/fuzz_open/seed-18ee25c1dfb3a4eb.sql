-- seed 1796414815979414763: Rows at statement 4 (memory store)
--     sqlite: 4 rows
--       [Integer(4294967296), Text("$"), Integer(100)]
--       [Integer(4294967296), Text("$.a"), Integer(100)]
--       [Integer(4294967296), Text("$.b"), Integer(100)]
--       [Integer(4294967296), Text("$.c"), Integer(100)]
--     asadb:  5 rows
--       [Integer(4294967296), Text("$"), Integer(100)]
--       [Integer(4294967296), Text("$.a"), Integer(100)]
--       [Integer(4294967296), Text("$.b"), Integer(100)]
--       [Integer(4294967296), Text("$.c"), Integer(100)]
--       [Integer(4294967296), Null, Integer(100)]
--   shrunk session:
--     CREATE TABLE t0(c0 INT, c1 BOOLEAN);
--     INSERT OR REPLACE INTO t0 VALUES ('[a-c]*', CAST(X'FF' AS TEXT)), ('*', ' 1'), (1e-308, ' 1'), ('ção', '0'), (CAST(X'E282AC' AS TEXT), 'a '), ('abc', 0x10), ('A', 'abc'), ('X', -9.3e18);
--     CREATE TABLE t1(c0 BLOB COLLATE NOCASE, c1, c2 REAL COLLATE RTRIM DEFAULT -1, c3 TEXT);
--     INSERT INTO t1 VALUES (9.2e18, 5, -5, '');
--     SELECT 4294967296, a00.fullkey, 100 FROM json_tree('{"a":"x","b":true,"c":1.5}') AS a00 FULL JOIN t1 AS a01 ON a00.key IN (SELECT DISTINCT CASE WHEN 0 THEN (X'' COLLATE RTRIM) ELSE a10.c1 END FROM t0 AS a10);
CREATE TABLE t0(c0 INT, c1 BOOLEAN)
----
INSERT OR REPLACE INTO t0 VALUES ('[a-c]*', CAST(X'FF' AS TEXT)), ('*', ' 1'), (1e-308, ' 1'), ('ção', '0'), (CAST(X'E282AC' AS TEXT), 'a '), ('abc', 0x10), ('A', 'abc'), ('X', -9.3e18)
----
CREATE TABLE t1(c0 BLOB COLLATE NOCASE, c1, c2 REAL COLLATE RTRIM DEFAULT -1, c3 TEXT)
----
INSERT INTO t1 VALUES (9.2e18, 5, -5, '')
----
SELECT 4294967296, a00.fullkey, 100 FROM json_tree('{"a":"x","b":true,"c":1.5}') AS a00 FULL JOIN t1 AS a01 ON a00.key IN (SELECT DISTINCT CASE WHEN 0 THEN (X'' COLLATE RTRIM) ELSE a10.c1 END FROM t0 AS a10)
