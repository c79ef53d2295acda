-- seed 1796411371510234037: OursSucceeded at statement 3 (memory store)
--     sqlite: Err("JSON cannot hold BLOB values")
--     asadb:  Affected(0)
--   shrunk session:
--     CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 DOUBLE UNIQUE, c2 BOOLEAN);
--     CREATE TABLE t1(c0 CLOB, c1 FLOAT UNIQUE, c2 BLOB CHECK (c2 IS NULL OR c2 <> 13), UNIQUE (c0, c1));
--     REPLACE INTO t1 VALUES ('*', 1e-308, 1.5), ('', 0x7FFFFFFFFFFFFFFF, 'Müller'), (9.21e18, X'FF', 2);
--     INSERT INTO t1 SELECT a10.c1, a10.c1, a10.c2 FROM t0 AS a10 WHERE (a10.c0, a10.c0) IN (SELECT DISTINCT octet_length(json_array(a10.c1, CAST(X'E282AC' AS TEXT), a10.c1)), a10.c1 FROM t1 AS a10) ORDER BY 1, 2, 3;
CREATE TABLE t0(c0 INTEGER PRIMARY KEY, c1 DOUBLE UNIQUE, c2 BOOLEAN)
----
CREATE TABLE t1(c0 CLOB, c1 FLOAT UNIQUE, c2 BLOB CHECK (c2 IS NULL OR c2 <> 13), UNIQUE (c0, c1))
----
REPLACE INTO t1 VALUES ('*', 1e-308, 1.5), ('', 0x7FFFFFFFFFFFFFFF, 'Müller'), (9.21e18, X'FF', 2)
----
INSERT INTO t1 SELECT a10.c1, a10.c1, a10.c2 FROM t0 AS a10 WHERE (a10.c0, a10.c0) IN (SELECT DISTINCT octet_length(json_array(a10.c1, CAST(X'E282AC' AS TEXT), a10.c1)), a10.c1 FROM t1 AS a10) ORDER BY 1, 2, 3
