-- seed 1796414815979415303: OursFailed at statement 3 (memory store)
--     sqlite: 1 rows
--       [Null, Integer(0), Null]
--     asadb:  Err("malformed JSON")
--   shrunk session:
--     CREATE TABLE t1(c0, c1, PRIMARY KEY (c1)) WITHOUT ROWID;
--     REPLACE INTO t1 VALUES ('1 ', 9.2e18), ('Müller', -1), (CAST(X'C3' AS TEXT), 0xFFFFFFFFFFFFFFFF), (X'00', 'Müller'), (1, -1e308), (X'', CAST(X'E282AC' AS TEXT));
--     CREATE TABLE t2(c0 BIGINT, c1 INTEGER, c2 REAL, UNIQUE (c0, c1));
--     SELECT min(a00.c1), count('ção'), max(a00.c2) FROM t2 AS a00 EXCEPT SELECT a10.c1, 7, CAST(json_extract(a10.c1, '$.a.b.c') AS INT) FROM t1 AS a10;
CREATE TABLE t1(c0, c1, PRIMARY KEY (c1)) WITHOUT ROWID
----
REPLACE INTO t1 VALUES ('1 ', 9.2e18), ('Müller', -1), (CAST(X'C3' AS TEXT), 0xFFFFFFFFFFFFFFFF), (X'00', 'Müller'), (1, -1e308), (X'', CAST(X'E282AC' AS TEXT))
----
CREATE TABLE t2(c0 BIGINT, c1 INTEGER, c2 REAL, UNIQUE (c0, c1))
----
SELECT min(a00.c1), count('ção'), max(a00.c2) FROM t2 AS a00 EXCEPT SELECT a10.c1, 7, CAST(json_extract(a10.c1, '$.a.b.c') AS INT) FROM t1 AS a10
