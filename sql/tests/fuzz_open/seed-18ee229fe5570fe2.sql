-- seed 1796411371510239202: Rows at statement 3 (memory store)
--     sqlite: 7 rows
--       [Text("a "), Real(-1e308)]
--       [Text("y "), Real(6.0)]
--       [Text("9223372036854775807"), Text("a%")]
--       [Text("4"), Text("São Paulo")]
--       [Text("A"), Blob([0])]
--       [Text(" 1"), Real(3.14159)]
--       [Text("0"), Real(-3.0)]
--     asadb:  8 rows
--       [Text("+1"), Real(9.223372036854776e18)]
--       [Text("a "), Real(-1e308)]
--       [Text("y "), Real(6.0)]
--       [Text("9223372036854775807"), Text("a%")]
--       [Text("4"), Text("São Paulo")]
--       [Text("A"), Blob([0])]
--       [Text(" 1"), Real(3.14159)]
--       [Text("0"), Real(-3.0)]
--   shrunk session:
--     CREATE TABLE t1(c0 BLOB, c1 FLOAT COLLATE NOCASE CHECK (c1 IS NULL OR c1 <> 13), c2 VARCHAR(10));
--     INSERT OR IGNORE INTO t1 VALUES (2, 0x7FFFFFFFFFFFFFFF, '+1');
--     INSERT INTO t1 VALUES (1, -1e308, 'a '), ('1 ', 6, 'y '), ('abc', 4, 0.151806728945089886206923794224573882182e-34), ('+1', 'a%', 9223372036854775807), ('*', 'São Paulo', 4), ('10', X'00', 'A'), ('b', 3.14159, ' 1'), (1e-308, -3, 0);
--     SELECT a00.c2, a00.c1 FROM t1 AS a00 WHERE a00.c1 NOT IN (SELECT CASE WHEN a10.c2 <> a10.c0 THEN a10.c2 ELSE 0xFFFFFFFFFFFFFFFF END FROM t1 AS a10);
CREATE TABLE t1(c0 BLOB, c1 FLOAT COLLATE NOCASE CHECK (c1 IS NULL OR c1 <> 13), c2 VARCHAR(10))
----
INSERT OR IGNORE INTO t1 VALUES (2, 0x7FFFFFFFFFFFFFFF, '+1')
----
INSERT INTO t1 VALUES (1, -1e308, 'a '), ('1 ', 6, 'y '), ('abc', 4, 0.151806728945089886206923794224573882182e-34), ('+1', 'a%', 9223372036854775807), ('*', 'São Paulo', 4), ('10', X'00', 'A'), ('b', 3.14159, ' 1'), (1e-308, -3, 0)
----
SELECT a00.c2, a00.c1 FROM t1 AS a00 WHERE a00.c1 NOT IN (SELECT CASE WHEN a10.c2 <> a10.c0 THEN a10.c2 ELSE 0xFFFFFFFFFFFFFFFF END FROM t1 AS a10)
