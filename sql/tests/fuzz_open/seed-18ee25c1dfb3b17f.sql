-- seed 1796414815979417983: OursFailed at statement 2 (memory store)
--     sqlite: 7 rows
--       [Text("9210000000000000000"), Real(1.2345678901234568e39), Null]
--       [Text("Müller"), Real(1.2345678901234568e39), Null]
--       [Text("A�B" (x'41FF42')), Real(1.2345678901234568e39), Null]
--       [Text("-9.3e+18"), Real(1.2345678901234568e39), Null]
--       [Text("2"), Real(1.2345678901234568e39), Null]
--       [Text("6"), Real(1.2345678901234568e39), Null]
--       [Text("3"), Real(1.2345678901234568e39), Null]
--     asadb:  Err("malformed JSON")
--   shrunk session:
--     CREATE TABLE t1(c0 FLOAT NOT NULL DEFAULT 0, c1 BLOB, c2 VARCHAR(10), c3 TEXT NOT NULL DEFAULT 0);
--     INSERT INTO t1 VALUES (100, 'ABC', 1234567890123456789012345678901234567890, 9210000000000000000), (-1, 0.5, X'41', 'Müller'), ('_', '10', 'A', CAST(X'41FF42' AS TEXT)), (5, 'ção', NULL, -9.3e18), ('São Paulo', 'x', -3, 2), ('x', '😀', -1, 6), ('Müller', 'y', 'abc', 3);
--     SELECT a10.c3, 1234567890123456789012345678901234567890, ((SELECT min(parent) FROM json_tree(a10.c3)) || NULL) FROM t1 AS a10;
CREATE TABLE t1(c0 FLOAT NOT NULL DEFAULT 0, c1 BLOB, c2 VARCHAR(10), c3 TEXT NOT NULL DEFAULT 0)
----
INSERT INTO t1 VALUES (100, 'ABC', 1234567890123456789012345678901234567890, 9210000000000000000), (-1, 0.5, X'41', 'Müller'), ('_', '10', 'A', CAST(X'41FF42' AS TEXT)), (5, 'ção', NULL, -9.3e18), ('São Paulo', 'x', -3, 2), ('x', '😀', -1, 6), ('Müller', 'y', 'abc', 3)
----
SELECT a10.c3, 1234567890123456789012345678901234567890, ((SELECT min(parent) FROM json_tree(a10.c3)) || NULL) FROM t1 AS a10
