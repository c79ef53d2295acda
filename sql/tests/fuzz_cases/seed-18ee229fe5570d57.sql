-- seed 1796411371510238551: Rows at statement 4 (memory store)
--     sqlite: 1 rows
--       [Integer(0), Text("Abc"), Text("x😀y")]
--     asadb:  1 rows
--       [Integer(0), Text("Abc"), Null]
--   shrunk session:
--     CREATE TABLE t0(c0 BLOB, c1 BIGINT, c2 CLOB, c3 REAL NOT NULL DEFAULT 0, PRIMARY KEY (c1)) WITHOUT ROWID;
--     INSERT OR IGNORE INTO t0 VALUES ('1e5', -0.0, -5, '😀');
--     CREATE TABLE t1(c0 DECIMAL(10,2), c1 INTEGER UNIQUE);
--     INSERT INTO t1 VALUES (3, 'x😀y'), (CAST(X'E282AC' AS TEXT), 0xFFFFFFFFFFFFFFFF);
--     SELECT a00.c1, 'Abc', (SELECT min(a10.c1) FILTER (WHERE a10.c0) FROM t1 AS a10) FROM t0 AS a00 ORDER BY 1 DESC, 2 DESC, 3;
CREATE TABLE t0(c0 BLOB, c1 BIGINT, c2 CLOB, c3 REAL NOT NULL DEFAULT 0, PRIMARY KEY (c1)) WITHOUT ROWID
----
INSERT OR IGNORE INTO t0 VALUES ('1e5', -0.0, -5, '😀')
----
CREATE TABLE t1(c0 DECIMAL(10,2), c1 INTEGER UNIQUE)
----
INSERT INTO t1 VALUES (3, 'x😀y'), (CAST(X'E282AC' AS TEXT), 0xFFFFFFFFFFFFFFFF)
----
SELECT a00.c1, 'Abc', (SELECT min(a10.c1) FILTER (WHERE a10.c0) FROM t1 AS a10) FROM t0 AS a00 ORDER BY 1 DESC, 2 DESC, 3
