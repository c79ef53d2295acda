-- seed 1796416286308974692: Rows at statement 3 (memory store)
--     sqlite: 16 rows
--       [Real(-2.5), Null]
--       [Real(-2.5), Real(-9.223372036854776e18)]
--       [Real(-2.5), Real(0.0)]
--       [Real(-2.5), Blob([65, 66])]
--       [Real(-2.0), Null]
--       [Real(-2.0), Real(-9.223372036854776e18)]
--       [Real(-2.0), Real(0.0)]
--       [Real(-2.0), Blob([65, 66])]
--       [Text("0x10"), Null]
--       [Text("0x10"), Real(-9.223372036854776e18)]
--       [Text("0x10"), Real(0.0)]
--       [Text("0x10"), Blob([65, 66])]
--     asadb:  16 rows
--       [Real(-2.5), Null]
--       [Real(-2.5), Real(0.0)]
--       [Real(-2.5), Real(1e308)]
--       [Real(-2.5), Blob([65, 66])]
--       [Real(-2.0), Null]
--       [Real(-2.0), Real(0.0)]
--       [Real(-2.0), Real(1e308)]
--       [Real(-2.0), Blob([65, 66])]
--       [Text("0x10"), Null]
--       [Text("0x10"), Real(0.0)]
--       [Text("0x10"), Real(1e308)]
--       [Text("0x10"), Blob([65, 66])]
--   shrunk session:
--     CREATE TABLE t1(c0 FLOAT, c1 BLOB, c2 FLOAT COLLATE NOCASE UNIQUE, PRIMARY KEY (c1)) WITHOUT ROWID;
--     INSERT OR REPLACE INTO t1 VALUES (-2.5, 'abc', 1e308);
--     INSERT INTO t1 VALUES ('y ', -2.5, -9223372036854775807), ('0x10', 'São Paulo', 0), (1e308, 'abc', -9223372036854775807), (-2, 6, X'4142') ON CONFLICT DO UPDATE SET c2 = NULL;
--     SELECT a01.c0, a00.c2 FROM t1 AS a00 INNER JOIN t1 AS a01 ON a00.c1 NOT IN () GROUP BY a01.c0, a00.c2;
CREATE TABLE t1(c0 FLOAT, c1 BLOB, c2 FLOAT COLLATE NOCASE UNIQUE, PRIMARY KEY (c1)) WITHOUT ROWID
----
INSERT OR REPLACE INTO t1 VALUES (-2.5, 'abc', 1e308)
----
INSERT INTO t1 VALUES ('y ', -2.5, -9223372036854775807), ('0x10', 'São Paulo', 0), (1e308, 'abc', -9223372036854775807), (-2, 6, X'4142') ON CONFLICT DO UPDATE SET c2 = NULL
----
SELECT a01.c0, a00.c2 FROM t1 AS a00 INNER JOIN t1 AS a01 ON a00.c1 NOT IN () GROUP BY a01.c0, a00.c2
