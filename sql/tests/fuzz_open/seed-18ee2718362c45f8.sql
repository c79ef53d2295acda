-- seed 1796416286308976120: Rows at statement 4 (memory store)
--     sqlite: 1 rows
--       [Null, Real(2.0), Null]
--     asadb:  1 rows
--       [Null, Real(100000.0), Null]
--   shrunk session:
--     CREATE TABLE t0(c0 FLOAT UNIQUE, c1 BLOB);
--     CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 NUMERIC, c2 COLLATE NOCASE, c3 FLOAT, UNIQUE (c0, c1));
--     CREATE TABLE t2(c0 FLOAT UNIQUE, c1 BLOB CHECK (c1 IS NULL OR c1 <> 13), c2 TEXT, c3 DOUBLE, c4 BLOB);
--     INSERT INTO t2 VALUES ('1e5', 'y ', -9223372036854775807, '', -1), (2, 3.14159, '%', 1, 'Müller');
--     SELECT like((SELECT sum(a00.c0) FROM t0 AS a10), a00.c0), a02.c0, a00.c2 FROM t1 AS a00 FULL JOIN t2 AS a01 ON 0 LEFT OUTER JOIN t2 AS a02 ON (1, a01.c0) <= ('ção', a00.c3);
CREATE TABLE t0(c0 FLOAT UNIQUE, c1 BLOB)
----
CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 NUMERIC, c2 COLLATE NOCASE, c3 FLOAT, UNIQUE (c0, c1))
----
CREATE TABLE t2(c0 FLOAT UNIQUE, c1 BLOB CHECK (c1 IS NULL OR c1 <> 13), c2 TEXT, c3 DOUBLE, c4 BLOB)
----
INSERT INTO t2 VALUES ('1e5', 'y ', -9223372036854775807, '', -1), (2, 3.14159, '%', 1, 'Müller')
----
SELECT like((SELECT sum(a00.c0) FROM t0 AS a10), a00.c0), a02.c0, a00.c2 FROM t1 AS a00 FULL JOIN t2 AS a01 ON 0 LEFT OUTER JOIN t2 AS a02 ON (1, a01.c0) <= ('ção', a00.c3)
