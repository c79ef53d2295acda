-- seed 1796165709537948226: Rows at statement 2 (memory store)
--     sqlite: 1 rows
--       [Integer(7), Text("😀,😀,😀,😀,😀,😀,😀"), Text("[\" 12abc\",-1.0,\"y \",-1.0e+308,10.0,1.2345678901234568e+39,9.2233720368547758e+18]")]
--     asadb:  1 rows
--       [Integer(7), Text("😀,😀,😀,😀,😀,😀,😀"), Text("[1.2345678901234568e+39,9.2233720368547758e+18,\"y \",-1.0e+308,10.0,-1.0,\" 12abc\"]")]
--   shrunk session:
--     CREATE TABLE t2(c0 REAL, c1 INTEGER COLLATE RTRIM, c2 REAL DEFAULT -1, PRIMARY KEY (c1)) WITHOUT ROWID;
--     INSERT INTO t2 VALUES (1234567890123456789012345678901234567890, 'x', 1), (0x7FFFFFFFFFFFFFFF, X'41', '1.5'), ('y ', 5, '9223372036854775808'), (-1e308, 0x10, 0.0), ('10', 'X', -1e308), (0xFFFFFFFFFFFFFFFF, 0.0, 'ção'), (' 12abc', -9.3e18, 8);
--     SELECT count(a00.c1), group_concat('😀'), json_group_array(a00.c0) FROM t2 AS a00;
CREATE TABLE t2(c0 REAL, c1 INTEGER COLLATE RTRIM, c2 REAL DEFAULT -1, PRIMARY KEY (c1)) WITHOUT ROWID
----
INSERT INTO t2 VALUES (1234567890123456789012345678901234567890, 'x', 1), (0x7FFFFFFFFFFFFFFF, X'41', '1.5'), ('y ', 5, '9223372036854775808'), (-1e308, 0x10, 0.0), ('10', 'X', -1e308), (0xFFFFFFFFFFFFFFFF, 0.0, 'ção'), (' 12abc', -9.3e18, 8)
----
SELECT count(a00.c1), group_concat('😀'), json_group_array(a00.c0) FROM t2 AS a00
